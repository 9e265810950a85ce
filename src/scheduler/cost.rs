//! The cost model: how long a worker takes for a batch of identical operations,
//! from the circuit statistics of one operation ([`CircuitStats`]) and the measured
//! (or modelled) speed of each worker.
//!
//! Bootstraps are the cost, so a worker is described by how fast it runs keyswitch
//! + bootstrap (KS+PBS):
//!
//! - a CPU ([`CpuSpeed`]) by its threads and the time of one KS+PBS alone on one core
//!   and per core when a batch keeps every thread busy. A layer of `b` bootstraps
//!   takes `ceil(b / threads)` rounds of the batched time, and never less than one
//!   lone bootstrap (which cannot use more than one core);
//! - a GPU ([`GpuSpeed`]) by the time of one KS+PBS launch pair at a few batch sizes
//!   (launch latency included), interpolated in between and extrapolated beyond the
//!   largest at its throughput, and by its host links. A layer of `b` bootstraps
//!   takes the batch time at `b`.
//!
//! Layers run one after the other, so a circuit of per-layer bootstraps
//! `[b_1, ..., b_d]` run `ops` times at once costs the sum over its layers of the
//! time of `ops * b_i` bootstraps. This is what the batch dispatcher splits with
//! ([`crate::scheduler::dispatch::plan`]) and what the offload advice prints.
//!
//! The figures come from [`crate::scheduler::Calibration`] (measured on this
//! machine) or from [`CostModel::modelled`] (written-down defaults, labelled
//! "modelled" wherever they are shown).

use super::speed::{positive, CpuSpeed, GpuSpeed, Provenance};
use crate::error::{Error, Result};
use crate::integer::CircuitStats;
use crate::scheduler::GpuIndex;
use crate::shortint::{
    PbsKind, ShortintParameters, DEFAULT_PARAMETERS,
    PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};
use std::fmt;
use std::time::Duration;

/// Something that runs circuits: the CPU (its worker threads) or one GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Worker {
    /// The CPU worker threads.
    Cpu,
    /// One GPU (all its streams).
    Gpu(GpuIndex),
}

impl fmt::Display for Worker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Cpu => f.write_str("CPU"),
            Self::Gpu(gpu) => write!(f, "{gpu}"),
        }
    }
}

/// The predicted time of a batch on one worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Prediction {
    /// Bootstrapping (and everything the measured launches include).
    pub compute: Duration,
    /// Copies between the host and the GPU.
    pub transfer: Duration,
}

impl Prediction {
    /// Compute plus transfer.
    ///
    /// ```
    /// use gpufhe::scheduler::Prediction;
    /// use std::time::Duration;
    /// let p = Prediction { compute: Duration::from_millis(7), transfer: Duration::from_millis(2) };
    /// assert_eq!(p.total(), Duration::from_millis(9));
    /// ```
    pub fn total(&self) -> Duration {
        self.compute.saturating_add(self.transfer)
    }
}

/// The speeds of the workers, and the GPU-to-core ratio override.
///
/// ```
/// use gpufhe::integer::CircuitStats;
/// use gpufhe::scheduler::{CostModel, Worker};
/// use gpufhe::shortint::DEFAULT_PARAMETERS;
/// use gpufhe::GpuIndex;
/// let model = CostModel::modelled(&DEFAULT_PARAMETERS, 8, &[GpuIndex::new(0)]);
/// // A 64-bit addition on a few cores: 32 layers of one bootstrap.
/// let add = CircuitStats { bootstraps: 32, depth: 32, per_layer: vec![1; 32] };
/// let cpu = model.predict(Worker::Cpu, &add, 1, 0, 0).unwrap();
/// let gpu = model.predict(Worker::Gpu(GpuIndex::new(0)), &add, 1000, 0, 0).unwrap();
/// assert!(cpu.total() > std::time::Duration::ZERO && gpu.total() > cpu.total());
/// assert!(model.to_string().contains("modelled"));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CostModel {
    /// The CPU worker, if it computes.
    pub cpu: Option<CpuSpeed>,
    /// Every GPU, in order.
    pub gpus: Vec<GpuSpeed>,
    /// How much work a GPU gets relative to one CPU core
    /// (`GPUFHE_DEVICE_TO_CORE_RATIO`): when set, a GPU's throughput at large
    /// batches is this many times one core's batched throughput, whatever its
    /// samples say (its smallest sample still bounds the time of a launch from
    /// below). Needs [`CostModel::cpu`].
    pub device_to_core_ratio: Option<f64>,
}

/// Seconds of one KS+PBS alone on one core at the default parameters, modelled: a
/// conservative figure for a current server core.
const MODELLED_CPU_ONE_CORE: f64 = 0.030;
/// Seconds per KS+PBS per core in a batch at the default parameters, modelled.
const MODELLED_CPU_BATCHED: f64 = 0.025;
/// Seconds of one PBS launch on an H100 SXM at the default parameters, modelled from
/// the static report of the crate's kernels (ptxas resources, SASS of the hot loop).
const MODELLED_H100_LATENCY: f64 = 3.5e-3;
/// KS+PBS per second of an H100 SXM on large batches at the default parameters,
/// modelled likewise.
const MODELLED_H100_THROUGHPUT: f64 = 30_000.0;
/// Seconds of one multi-bit PBS launch on an H100 SXM at the multi-bit default
/// parameters
/// ([`PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`]: key
/// bundles, then 230 external products), modelled by the kernel report
/// (`docs/kernel-report.md`, 0.448 ms).
const MODELLED_H100_MULTI_BIT_LATENCY: f64 = 0.45e-3;
/// Multi-bit KS+PBS per second of an H100 SXM on batches, modelled likewise (a
/// batch of 32 in 0.718 ms).
const MODELLED_H100_MULTI_BIT_THROUGHPUT: f64 = 44_000.0;
/// Multiprocessors of an H100 SXM.
const H100_MULTIPROCESSORS: usize = 132;
/// Host-to-device and device-to-host bytes per second over PCIe 5 x16, modelled.
const MODELLED_PCIE_BANDWIDTH: f64 = 25e9;
/// Seconds of an empty copy, modelled.
const MODELLED_COPY_LATENCY: f64 = 10e-6;

impl CostModel {
    /// Written-down defaults for `params`, no measurement: a CPU worker of
    /// `cpu_threads` threads (none if 0) whose cores run a KS+PBS in 30 ms alone and
    /// 25 ms each in a batch, and for each of `gpus` an H100 SXM (132
    /// multiprocessors) at 3.5 ms for one PBS launch and 30,000 PBS/s on large
    /// batches, with 25 GB/s copies each way. These are the default parameters'
    /// figures; other parameters scale them by their blind-rotation work
    /// (`n * levels * (k+1)^2 * N * log2 N`, with a multi-bit rotation's bundles
    /// counted on the CPU). Multi-bit parameters take the GPU figures of the
    /// multi-bit defaults instead (0.45 ms for one PBS launch, 44,000 PBS/s, from the
    /// kernel report), scaled likewise. Every figure is
    /// [`Provenance::Modelled`]: calibrate ([`crate::scheduler::Calibration`]) for
    /// real ones.
    ///
    /// ```
    /// use gpufhe::scheduler::{CostModel, Provenance};
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// use gpufhe::GpuIndex;
    /// let model = CostModel::modelled(&DEFAULT_PARAMETERS, 4, &[GpuIndex::new(0), GpuIndex::new(1)]);
    /// assert_eq!(model.gpus.len(), 2);
    /// assert_eq!(model.gpus[0].batch_seconds(1), 0.0035);
    /// assert!((model.gpus[1].batch_seconds(300_000) - 10.0).abs() < 1e-9); // 30k/s
    /// assert_eq!(model.cpu.as_ref().unwrap().provenance, Provenance::Modelled);
    /// ```
    pub fn modelled(params: &ShortintParameters, cpu_threads: usize, gpus: &[GpuIndex]) -> Self {
        let scale = blind_rotation_work(params) / blind_rotation_work(&DEFAULT_PARAMETERS);
        // The GPU figures are modelled per bootstrap kind, scaled from its defaults.
        let (reference, gpu_latency, gpu_throughput) = match params.pbs_kind {
            PbsKind::Classical => (
                DEFAULT_PARAMETERS,
                MODELLED_H100_LATENCY,
                MODELLED_H100_THROUGHPUT,
            ),
            PbsKind::MultiBit { .. } => (
                PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
                MODELLED_H100_MULTI_BIT_LATENCY,
                MODELLED_H100_MULTI_BIT_THROUGHPUT,
            ),
        };
        let gpu_scale = blind_rotation_work(params) / blind_rotation_work(&reference);
        let cpu = (cpu_threads > 0).then_some(CpuSpeed {
            threads: cpu_threads,
            seconds_per_bootstrap_one_core: MODELLED_CPU_ONE_CORE * scale,
            seconds_per_bootstrap_batched: MODELLED_CPU_BATCHED * scale,
            provenance: Provenance::Modelled,
        });
        // Latency-bound until the GPU is full, then at its throughput.
        let latency = gpu_latency * gpu_scale;
        let per_bootstrap = gpu_scale / gpu_throughput;
        let full = ((latency / per_bootstrap).floor() as usize).max(2);
        let largest = 4096.max(2 * full);
        let samples = vec![
            (1, latency),
            (full, latency.max(full as f64 * per_bootstrap)),
            (largest, largest as f64 * per_bootstrap),
        ];
        let gpus = gpus
            .iter()
            .map(|&gpu| GpuSpeed {
                gpu,
                description: "H100 SXM".into(),
                multiprocessors: H100_MULTIPROCESSORS,
                samples: samples.clone(),
                host_to_device_bytes_per_second: MODELLED_PCIE_BANDWIDTH,
                device_to_host_bytes_per_second: MODELLED_PCIE_BANDWIDTH,
                transfer_latency_seconds: MODELLED_COPY_LATENCY,
                provenance: Provenance::Modelled,
            })
            .collect();
        Self {
            cpu,
            gpus,
            device_to_core_ratio: None,
        }
    }

    /// This model with the GPU-to-core ratio set (see
    /// [`CostModel::device_to_core_ratio`]); `Err` unless it is finite and positive.
    ///
    /// ```
    /// use gpufhe::scheduler::CostModel;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let model = CostModel::modelled(&DEFAULT_PARAMETERS, 4, &[]);
    /// assert!(model.clone().with_device_to_core_ratio(0.0).is_err());
    /// assert_eq!(model.with_device_to_core_ratio(50.0).unwrap().device_to_core_ratio, Some(50.0));
    /// ```
    pub fn with_device_to_core_ratio(mut self, ratio: f64) -> Result<Self> {
        positive("the device-to-core ratio", ratio)?;
        self.device_to_core_ratio = Some(ratio);
        Ok(self)
    }

    /// `Err` unless every speed is valid, no GPU appears twice and a ratio override
    /// is finite, positive and has a CPU speed to refer to.
    ///
    /// ```
    /// use gpufhe::scheduler::CostModel;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// use gpufhe::GpuIndex;
    /// let mut model = CostModel::modelled(&DEFAULT_PARAMETERS, 2, &[GpuIndex::new(0)]);
    /// assert!(model.validate().is_ok());
    /// model.gpus.push(model.gpus[0].clone()); // GPU 0 twice
    /// assert!(model.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<()> {
        if let Some(cpu) = &self.cpu {
            cpu.validate()?;
        }
        for (i, gpu) in self.gpus.iter().enumerate() {
            gpu.validate()?;
            if self.gpus[..i].iter().any(|g| g.gpu == gpu.gpu) {
                return Err(Error::InvalidParameter(format!(
                    "the cost model has two speeds for {}",
                    gpu.gpu
                )));
            }
        }
        if let Some(ratio) = self.device_to_core_ratio {
            positive("the device-to-core ratio", ratio)?;
            if self.cpu.is_none() {
                return Err(Error::InvalidParameter(
                    "a device-to-core ratio needs the speed of a CPU core".into(),
                ));
            }
        }
        Ok(())
    }

    /// The workers it knows: the CPU (if any), then every GPU in order.
    pub fn workers(&self) -> Vec<Worker> {
        let cpu = self.cpu.as_ref().map(|_| Worker::Cpu);
        cpu.into_iter()
            .chain(self.gpus.iter().map(|g| Worker::Gpu(g.gpu)))
            .collect()
    }

    /// The speed of `gpu`, or `Err` if the model has none.
    pub fn gpu(&self, gpu: GpuIndex) -> Result<&GpuSpeed> {
        self.gpus.iter().find(|g| g.gpu == gpu).ok_or_else(|| {
            Error::InvalidParameter(format!("the cost model has no speed for {gpu}"))
        })
    }

    /// The CPU speed, or `Err` if the model has none.
    pub fn cpu(&self) -> Result<&CpuSpeed> {
        self.cpu
            .as_ref()
            .ok_or_else(|| Error::InvalidParameter("the cost model has no CPU speed".into()))
    }

    /// How many bootstraps of one operation `worker` runs at once; circuits for it
    /// are built with this hint ([`crate::integer::Circuit::with_parallelism`]): the
    /// CPU's threads, or `multiprocessors * 16` on a GPU.
    ///
    /// ```
    /// use gpufhe::scheduler::{CostModel, Worker};
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// use gpufhe::GpuIndex;
    /// let model = CostModel::modelled(&DEFAULT_PARAMETERS, 6, &[GpuIndex::new(0)]);
    /// let workers = model.workers();
    /// assert_eq!(workers, vec![Worker::Cpu, Worker::Gpu(GpuIndex::new(0))]);
    /// assert_eq!(model.parallelism(workers[0]).unwrap(), 6);
    /// assert_eq!(model.parallelism(workers[1]).unwrap(), 132 * 16);
    /// assert!(model.parallelism(Worker::Gpu(GpuIndex::new(1))).is_err());
    /// ```
    pub fn parallelism(&self, worker: Worker) -> Result<usize> {
        Ok(match worker {
            Worker::Cpu => self.cpu()?.threads,
            Worker::Gpu(gpu) => self.gpu(gpu)?.multiprocessors * 16,
        })
    }

    /// The time of `ops` independent operations of circuit statistics `per_op`, run
    /// at once on `worker`, with `bytes_in` bytes copied onto the worker first and
    /// `bytes_out` bytes off it afterwards (pass 0 for what is already where it must
    /// be). Layer `i` runs `ops * per_op.per_layer[i]` bootstraps; the layers run in
    /// order. A GPU's copies go over its own host links; the CPU's copies come from
    /// or go to some GPU, priced at the slowest GPU link of the model (`Err` if
    /// there are bytes to move and no GPU). `Err` if the model is invalid or has no
    /// speed for `worker`. Never panics: huge counts saturate at `Duration::MAX`.
    ///
    /// ```
    /// use gpufhe::integer::CircuitStats;
    /// use gpufhe::scheduler::{CostModel, CpuSpeed, Provenance, Worker};
    /// use std::time::Duration;
    /// let model = CostModel {
    ///     cpu: Some(CpuSpeed {
    ///         threads: 2,
    ///         seconds_per_bootstrap_one_core: 0.010,
    ///         seconds_per_bootstrap_batched: 0.008,
    ///         provenance: Provenance::Measured,
    ///     }),
    ///     ..CostModel::default()
    /// };
    /// let stats = CircuitStats { bootstraps: 3, depth: 2, per_layer: vec![2, 1] };
    /// // 5 operations: layers of 10 and 5 bootstraps, 5 and 3 rounds of 8 ms.
    /// let p = model.predict(Worker::Cpu, &stats, 5, 0, 0).unwrap();
    /// assert_eq!(p.compute, Duration::from_millis(64));
    /// assert_eq!(p.transfer, Duration::ZERO);
    /// ```
    pub fn predict(
        &self,
        worker: Worker,
        per_op: &CircuitStats,
        ops: usize,
        bytes_in: usize,
        bytes_out: usize,
    ) -> Result<Prediction> {
        self.validate()?;
        let layers = per_op.per_layer.iter().map(|&b| ops as u128 * b as u128);
        let (compute, transfer) = match worker {
            Worker::Cpu => {
                let cpu = self.cpu()?;
                let compute = layers.map(|b| cpu.layer_seconds(b)).sum::<f64>();
                let transfer = if bytes_in == 0 && bytes_out == 0 {
                    0.0
                } else {
                    // Bytes to the host come down from a GPU, bytes off it go up.
                    self.gpus
                        .iter()
                        .map(|g| g.transfer_seconds(bytes_out as u128, bytes_in as u128))
                        .fold(None, |worst: Option<f64>, t| {
                            Some(worst.map_or(t, |w| w.max(t)))
                        })
                        .ok_or_else(|| {
                            Error::InvalidParameter(
                                "bytes to move to or from the CPU, but the cost model has no GPU"
                                    .into(),
                            )
                        })?
                };
                (compute, transfer)
            }
            Worker::Gpu(gpu) => {
                let speed = self.gpu(gpu)?;
                let compute = layers
                    .map(|b| self.gpu_batch_seconds(speed, b))
                    .sum::<f64>();
                (
                    compute,
                    speed.transfer_seconds(bytes_in as u128, bytes_out as u128),
                )
            }
        };
        Ok(Prediction {
            compute: duration(compute),
            transfer: duration(transfer),
        })
    }

    /// Seconds to copy `to_device` bytes to `gpu` and `to_host` bytes back from it.
    ///
    /// ```
    /// use gpufhe::scheduler::CostModel;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// use gpufhe::GpuIndex;
    /// let model = CostModel::modelled(&DEFAULT_PARAMETERS, 1, &[GpuIndex::new(0)]);
    /// let t = model.transfer(GpuIndex::new(0), 25_000_000_000, 0).unwrap();
    /// assert!((t.as_secs_f64() - 1.00001).abs() < 1e-9); // 1 s at 25 GB/s + latency
    /// assert!(model.transfer(GpuIndex::new(1), 1, 1).is_err());
    /// ```
    pub fn transfer(&self, gpu: GpuIndex, to_device: usize, to_host: usize) -> Result<Duration> {
        let speed = self.gpu(gpu)?;
        speed.validate()?;
        Ok(duration(
            speed.transfer_seconds(to_device as u128, to_host as u128),
        ))
    }

    /// One layer of `bootstraps` on `speed`, with the ratio override.
    fn gpu_batch_seconds(&self, speed: &GpuSpeed, bootstraps: u128) -> f64 {
        match (self.device_to_core_ratio, &self.cpu) {
            (Some(ratio), Some(cpu)) if bootstraps > 0 => {
                let floor = speed.batch_seconds(1);
                floor.max(bootstraps as f64 * cpu.seconds_per_bootstrap_batched / ratio)
            }
            _ => speed.batch_seconds(bootstraps),
        }
    }
}

impl fmt::Display for CostModel {
    /// One line per worker: its speeds and where they come from.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(cpu) = &self.cpu {
            writeln!(
                f,
                "CPU: {} thread(s), {} per KS+PBS alone on one core, {} per KS+PBS per core \
                 in a batch ({})",
                cpu.threads,
                format_seconds(cpu.seconds_per_bootstrap_one_core),
                format_seconds(cpu.seconds_per_bootstrap_batched),
                cpu.provenance
            )?;
        }
        for g in &self.gpus {
            let &(largest, seconds) = g.samples.last().unwrap_or(&(1, f64::NAN));
            writeln!(
                f,
                "{}: {}, {} for 1 KS+PBS, {:.0} KS+PBS/s at {largest}, {:.1} GB/s up, \
                 {:.1} GB/s down ({})",
                g.gpu,
                g.description,
                format_seconds(g.batch_seconds(1)),
                largest as f64 / seconds,
                g.host_to_device_bytes_per_second / 1e9,
                g.device_to_host_bytes_per_second / 1e9,
                g.provenance
            )?;
        }
        if let Some(ratio) = self.device_to_core_ratio {
            writeln!(
                f,
                "device-to-core ratio: {ratio} (overrides the GPU throughput)"
            )?;
        }
        Ok(())
    }
}

/// `seconds` as a `Duration`, saturating (`Duration::MAX` for huge or infinite,
/// zero for negative or NaN).
pub(crate) fn duration(seconds: f64) -> Duration {
    if seconds.is_nan() || seconds <= 0.0 {
        Duration::ZERO
    } else {
        Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
    }
}

/// `seconds` for people: "850 µs", "3.50 ms", "12.35 s", "33.0 min", "2.1 h".
///
/// ```
/// use gpufhe::scheduler::format_seconds;
/// assert_eq!(format_seconds(0.0035), "3.50 ms");
/// assert_eq!(format_seconds(1980.0), "33.0 min");
/// ```
pub fn format_seconds(seconds: f64) -> String {
    let s = seconds.abs();
    if !seconds.is_finite() {
        format!("{seconds}")
    } else if s == 0.0 {
        "0 s".into()
    } else if s < 1e-3 {
        format!("{:.0} µs", seconds * 1e6)
    } else if s < 1.0 {
        format!("{:.2} ms", seconds * 1e3)
    } else if s < 100.0 {
        format!("{seconds:.2} s")
    } else if s < 3600.0 {
        format!("{:.1} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// The cost of one term `(X^(a_T) - 1) GGSW(f_T)` of a multi-bit key bundle on the
/// CPU, in external products: measured with `cargo bench --bench cpu_pbs` (a
/// multi-bit bootstrap of `n = 920, g = 4` at 1.6 times a classical one of
/// `n = 918`: 230 external products and 3,450 terms against 918 external products),
/// the read of one GGSW ciphertext from memory dominating both.
const BUNDLE_TERM_IN_EXTERNAL_PRODUCTS: f64 = 0.36;

/// The multiply-adds of one blind rotation, up to a constant:
/// `n * levels * (k+1)^2 * N * log2 N` for the classical one; for a multi-bit one,
/// `n/g` external products and `(n/g)(2^g - 1)` bundle terms of
/// [`BUNDLE_TERM_IN_EXTERNAL_PRODUCTS`] each instead of `n`.
fn blind_rotation_work(p: &ShortintParameters) -> f64 {
    let k1 = (p.glwe_dimension.0 + 1) as f64;
    let n = p.polynomial_size.0 as f64;
    let external_product = p.pbs_level.0 as f64 * k1 * k1 * n * n.log2().max(1.0);
    let steps = match p.pbs_kind.grouping_factor() {
        None => p.lwe_dimension.0 as f64,
        Some(g) => {
            let groups = (p.lwe_dimension.0 / g.max(1)) as f64;
            groups * (1.0 + BUNDLE_TERM_IN_EXTERNAL_PRODUCTS * ((1u64 << g.min(16)) - 1) as f64)
        }
    };
    steps * external_product
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_saturate_instead_of_panicking() {
        assert_eq!(duration(f64::INFINITY), Duration::MAX);
        assert_eq!(duration(1e30), Duration::MAX);
        assert_eq!(duration(f64::NAN), Duration::ZERO);
        assert_eq!(duration(-1.0), Duration::ZERO);
        assert_eq!(duration(0.25), Duration::from_millis(250));
        assert_eq!(format_seconds(0.0035), "3.50 ms");
        assert_eq!(format_seconds(12.345), "12.35 s");
        assert_eq!(format_seconds(0.00085), "850 µs");
    }

    /// The model knows both bootstraps: a multi-bit bootstrap is slower on a CPU
    /// core (it reads 3.75 times the key) and takes the multi-bit GPU figures.
    #[test]
    fn multi_bit_parameters_have_their_own_costs() {
        let gpus = [GpuIndex::new(0)];
        let classical = CostModel::modelled(&DEFAULT_PARAMETERS, 2, &gpus);
        let multi_bit = CostModel::modelled(
            &PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
            2,
            &gpus,
        );
        let core = |m: &CostModel| m.cpu.as_ref().unwrap().seconds_per_bootstrap_one_core;
        let ratio = core(&multi_bit) / core(&classical);
        assert!((1.5..1.7).contains(&ratio), "CPU ratio {ratio}");
        assert!(
            (multi_bit.gpus[0].batch_seconds(1) - MODELLED_H100_MULTI_BIT_LATENCY).abs() < 1e-12
        );
        assert!(multi_bit.gpus[0].batch_seconds(1) < classical.gpus[0].batch_seconds(1) / 5.0);
        let big = 1 << 16;
        let per = |m: &CostModel| m.gpus[0].batch_seconds(big) / big as f64;
        assert!(
            per(&multi_bit) < per(&classical),
            "multi-bit batches are faster too"
        );
    }
}
