//! Measuring the speeds of the cost model instead of guessing them: a
//! [`Calibration`] times keyswitch + bootstrap (KS+PBS) on one CPU core, on the CPU
//! worker's threads, and on each GPU of a server key at a few batch sizes, and the
//! host-GPU copies. A server calibrates once and keeps the result in a file
//! ([`Calibration::save`], [`Calibration::load`]); a calibration read back is only
//! used for the parameters and GPUs it was measured on
//! ([`Calibration::cost_model_for`]).

use super::cost::CostModel;
use super::speed::{CpuSpeed, GpuSpeed, Provenance};
use crate::backend::gpu::{CudaBackend, CudaDevice, PbsKernel};
use crate::core_crypto::LweCiphertextOwned;
use crate::error::{Error, Result};
use crate::serialization::codec::{safe_deserialize, safe_serialize, SafeSerialization};
use crate::shortint::{self, Ciphertext, ShortintParameters};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

/// The most bytes a calibration file may hold.
const SIZE_LIMIT: u64 = 1 << 20;

/// How to calibrate: batch sizes and repetitions (the defaults suit a server; tests
/// use tiny batches).
///
/// ```
/// use gpufhe::scheduler::CalibrationOptions;
/// let options = CalibrationOptions::default();
/// assert_eq!(options.gpu_batch_sizes, vec![1, 64, 512, 4096]);
/// assert!(options.validate().is_ok());
/// let none = CalibrationOptions { gpu_batch_sizes: vec![], ..options };
/// assert!(none.validate().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalibrationOptions {
    /// The GPU batch sizes timed (at least one, each at least 1).
    pub gpu_batch_sizes: Vec<usize>,
    /// Timed runs of each measurement (after one untimed warm-up); the median counts.
    pub repetitions: usize,
    /// The CPU worker's threads; `None` for the threads of the current rayon pool.
    pub cpu_threads: Option<usize>,
    /// Bootstraps of the CPU batch measurement per thread (at least 1).
    pub cpu_batch_per_thread: usize,
}

impl Default for CalibrationOptions {
    /// GPU batches of 1, 64, 512 and 4096; 3 repetitions; the current pool's
    /// threads; CPU batches of 4 bootstraps per thread.
    fn default() -> Self {
        Self {
            gpu_batch_sizes: vec![1, 64, 512, 4096],
            repetitions: 3,
            cpu_threads: None,
            cpu_batch_per_thread: 4,
        }
    }
}

impl CalibrationOptions {
    /// `Err` unless there is a batch size, every batch size, the repetitions, the
    /// CPU threads (if given) and the CPU batch per thread are at least 1.
    pub fn validate(&self) -> Result<()> {
        let bad = |what: &str| Err(Error::InvalidParameter(format!("calibration: {what}")));
        if self.gpu_batch_sizes.is_empty() || self.gpu_batch_sizes.contains(&0) {
            return bad("GPU batch sizes must be given and at least 1");
        }
        if self.repetitions == 0 {
            return bad("at least one repetition");
        }
        if self.cpu_threads == Some(0) {
            return bad("at least one CPU thread");
        }
        if self.cpu_batch_per_thread == 0 {
            return bad("at least one bootstrap per thread in the CPU batch");
        }
        Ok(())
    }
}

/// The measured speeds of a server key's workers, for the parameters they were
/// measured with. Serializable with [`crate::serialization::safe_serialize`] (type
/// name `Calibration`); reading one back checks every figure (finite, positive,
/// ordered), so a corrupted file is an `Err`, never a panic.
///
/// ```no_run
/// use gpufhe::scheduler::Calibration;
/// use gpufhe::{generate_keys, ConfigBuilder};
/// let (_client_key, server_key) = generate_keys(ConfigBuilder::default());
/// let calibration = Calibration::measure(&server_key).unwrap();
/// calibration.save("calibration.bin").unwrap();
/// let again = Calibration::load("calibration.bin").unwrap();
/// let model = again.cost_model_for(&server_key).unwrap();
/// assert!(model.cpu.is_some());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "CalibrationParts")]
pub struct Calibration {
    parameters: ShortintParameters,
    cpu: CpuSpeed,
    gpus: Vec<GpuSpeed>,
}

/// The fields of a [`Calibration`] as read, before they are checked.
#[derive(Deserialize)]
struct CalibrationParts {
    parameters: ShortintParameters,
    cpu: CpuSpeed,
    gpus: Vec<GpuSpeed>,
}

impl TryFrom<CalibrationParts> for Calibration {
    type Error = Error;

    fn try_from(parts: CalibrationParts) -> Result<Self> {
        Self::new(parts.parameters, parts.cpu, parts.gpus)
    }
}

impl SafeSerialization for Calibration {
    const TYPE_NAME: &'static str = "Calibration";
    const DEFAULT_SIZE_LIMIT: u64 = 1 << 20;
}

impl Calibration {
    /// A calibration from its parts; `Err` unless the parameters and every speed are
    /// valid and no GPU appears twice.
    ///
    /// ```
    /// use gpufhe::scheduler::{Calibration, CostModel};
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let modelled = CostModel::modelled(&DEFAULT_PARAMETERS, 2, &[]);
    /// let mut cpu = modelled.cpu.unwrap();
    /// let calibration = Calibration::new(DEFAULT_PARAMETERS, cpu.clone(), vec![]).unwrap();
    /// assert_eq!(calibration.cpu(), &cpu);
    /// cpu.seconds_per_bootstrap_batched = f64::NAN;
    /// assert!(Calibration::new(DEFAULT_PARAMETERS, cpu, vec![]).is_err());
    /// ```
    pub fn new(parameters: ShortintParameters, cpu: CpuSpeed, gpus: Vec<GpuSpeed>) -> Result<Self> {
        parameters.validate()?;
        let calibration = Self {
            parameters,
            cpu,
            gpus,
        };
        calibration.cost_model().validate()?;
        Ok(calibration)
    }

    /// Measures the CPU worker and every GPU of `scheduler` (what
    /// [`Calibration::measure_with`] does with a server key's).
    pub(crate) fn measure_scheduler(
        scheduler: &super::Scheduler,
        options: &CalibrationOptions,
    ) -> Result<Self> {
        let (host, gpus) = (scheduler.host_key(), scheduler.gpu_backends());
        let options = &CalibrationOptions {
            cpu_threads: options.cpu_threads.or(Some(scheduler.cpu_threads())),
            ..options.clone()
        };
        Self::measure_on(host, &gpus, options)
    }

    /// Measures the CPU with the host block key `host` and each GPU backend of
    /// `gpus` (which must use the same parameters).
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::{CudaBackend, CudaDevice};
    /// use gpufhe::scheduler::{Calibration, CalibrationOptions};
    /// use gpufhe::shortint::{ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    /// let key = CompressedServerKey::new(&ck).unwrap();
    /// let gpu = CudaBackend::new(&CudaDevice::shared(0).unwrap(), &key).unwrap();
    /// let options = CalibrationOptions::default();
    /// let calibration = Calibration::measure_backends(&key.decompress().unwrap(), &[gpu], &options).unwrap();
    /// assert_eq!(calibration.gpus().len(), 1);
    /// ```
    #[cfg(feature = "gpu")]
    pub fn measure_backends(
        host: &shortint::ServerKey,
        gpus: &[crate::backend::cuda::CudaBackend],
        options: &CalibrationOptions,
    ) -> Result<Self> {
        Self::measure_on(host, gpus, options)
    }

    /// [`Calibration::measure_backends`] in every build (no GPU backend exists
    /// without the `gpu` feature).
    fn measure_on(
        host: &shortint::ServerKey,
        gpus: &[CudaBackend],
        options: &CalibrationOptions,
    ) -> Result<Self> {
        use crate::backend::Backend;
        let parameters = *host.parameters();
        for gpu in gpus {
            if gpu.parameters() != &parameters {
                return Err(Error::InvalidParameter(
                    "calibration: a GPU backend has other parameters than the host key".into(),
                ));
            }
        }
        let cpu = measure_cpu(host, options)?;
        let gpus = gpus
            .iter()
            .map(|gpu| measure_gpu_on(gpu, options))
            .collect::<Result<Vec<_>>>()?;
        Self::new(parameters, cpu, gpus)
    }

    /// The parameters it was measured with.
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The CPU worker's speed.
    pub fn cpu(&self) -> &CpuSpeed {
        &self.cpu
    }

    /// Each GPU's speed, in the key's order.
    pub fn gpus(&self) -> &[GpuSpeed] {
        &self.gpus
    }

    /// The cost model of every measured worker, unchecked (see
    /// [`Calibration::cost_model_for`] for a key).
    ///
    /// ```
    /// use gpufhe::scheduler::{Calibration, CostModel};
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let cpu = CostModel::modelled(&DEFAULT_PARAMETERS, 2, &[]).cpu.unwrap();
    /// let calibration = Calibration::new(DEFAULT_PARAMETERS, cpu.clone(), vec![]).unwrap();
    /// assert_eq!(calibration.cost_model().cpu, Some(cpu));
    /// ```
    pub fn cost_model(&self) -> CostModel {
        CostModel {
            cpu: Some(self.cpu.clone()),
            gpus: self.gpus.clone(),
            device_to_core_ratio: None,
        }
    }

    /// `Err` unless this calibration was measured for `parameters` and on every GPU
    /// of `gpus` (the same model of GPU): what [`Calibration::check`] asks of a key.
    pub(crate) fn check_workers(
        &self,
        parameters: &ShortintParameters,
        gpus: &[super::GpuIndex],
    ) -> Result<()> {
        if parameters != &self.parameters {
            return Err(Error::InvalidParameter(
                "the calibration was measured with other parameters than the key's".into(),
            ));
        }
        for &gpu in gpus {
            let ordinal = gpu.get();
            let description = describe(&CudaDevice::shared(ordinal as usize)?)?;
            let found = self.gpus.iter().find(|g| g.gpu == gpu).ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "the calibration has no measurement of GPU {ordinal}"
                ))
            })?;
            if found.description != description {
                return Err(Error::InvalidParameter(format!(
                    "the calibration of GPU {ordinal} was measured on a {}, this one is a \
                     {description}",
                    found.description
                )));
            }
        }
        Ok(())
    }

    /// The cost model of the CPU and of the GPUs `gpus` among those measured;
    /// `Err` as [`Calibration::check_workers`].
    pub(crate) fn cost_model_of(
        &self,
        parameters: &ShortintParameters,
        gpus: &[super::GpuIndex],
    ) -> Result<CostModel> {
        self.check_workers(parameters, gpus)?;
        let mut model = self.cost_model();
        model.gpus.retain(|g| gpus.contains(&g.gpu));
        Ok(model)
    }

    /// Writes it to `path` (see [`crate::serialization::safe_serialize`]).
    ///
    /// ```
    /// use gpufhe::scheduler::{Calibration, CostModel};
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let cpu = CostModel::modelled(&DEFAULT_PARAMETERS, 2, &[]).cpu.unwrap();
    /// let calibration = Calibration::new(DEFAULT_PARAMETERS, cpu, vec![]).unwrap();
    /// let path = std::env::temp_dir().join(format!("gpufhe-doc-{}.bin", std::process::id()));
    /// calibration.save(&path).unwrap();
    /// assert_eq!(Calibration::load(&path).unwrap(), calibration);
    /// std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let mut bytes = Vec::new();
        safe_serialize(self, &mut bytes, SIZE_LIMIT)?;
        std::fs::write(path, bytes).map_err(|e| {
            Error::Serialization(format!(
                "cannot write the calibration {}: {e}",
                path.display()
            ))
        })
    }

    /// Reads a calibration written by [`Calibration::save`]; `Err` if the file is
    /// missing, corrupted, of another type or format version, or larger than 1 MiB.
    ///
    /// ```
    /// use gpufhe::scheduler::Calibration;
    /// let err = Calibration::load("/nonexistent/calibration.bin").unwrap_err();
    /// assert!(err.to_string().contains("cannot open"));
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(|e| {
            Error::Serialization(format!(
                "cannot open the calibration {}: {e}",
                path.display()
            ))
        })?;
        safe_deserialize(std::io::BufReader::new(file), SIZE_LIMIT)
    }
}

impl fmt::Display for Calibration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.parameters;
        writeln!(
            f,
            "calibration for n = {}, k = {}, N = {}, {} + {} bits per block:",
            p.lwe_dimension.0,
            p.glwe_dimension.0,
            p.polynomial_size.0,
            p.message_modulus.trailing_zeros(),
            p.carry_modulus.trailing_zeros()
        )?;
        write!(f, "{}", self.cost_model())
    }
}

/// Times the CPU: one KS+PBS alone in a one-thread pool (with more threads the
/// crate would split a lone bootstrap), and a batch of `cpu_batch_per_thread`
/// bootstraps per thread on the CPU worker's threads.
///
/// ```
/// use gpufhe::scheduler::{measure_cpu, CalibrationOptions};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let key = ServerKey::new(&ClientKey::new(PARAMETERS).unwrap()).unwrap();
/// let options = CalibrationOptions { repetitions: 1, cpu_threads: Some(1), cpu_batch_per_thread: 1, ..Default::default() };
/// let cpu = measure_cpu(&key, &options).unwrap();
/// assert_eq!(cpu.threads, 1);
/// assert!(cpu.seconds_per_bootstrap_one_core > 0.0);
/// ```
pub fn measure_cpu(key: &shortint::ServerKey, options: &CalibrationOptions) -> Result<CpuSpeed> {
    options.validate()?;
    let params = *key.parameters();
    let threads = options
        .cpu_threads
        .unwrap_or_else(rayon::current_num_threads);
    let lut = key.generate_lookup_table(|x| x)?;
    let pool = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| Error::InvalidParameter(format!("calibration: no thread pool: {e}")))
    };
    let one = noise_blocks(&params, 1, 1)?;
    let single = pool(1)?;
    let alone = time_median(options.repetitions, || {
        single.install(|| key.apply_lookup_table_batch(&one, &[&lut]).map(drop))
    })?;
    let batch = threads.saturating_mul(options.cpu_batch_per_thread);
    let blocks = noise_blocks(&params, batch, 2)?;
    let luts = vec![&lut; batch];
    let workers = pool(threads)?;
    let batched = time_median(options.repetitions, || {
        workers.install(|| key.apply_lookup_table_batch(&blocks, &luts).map(drop))
    })?;
    Ok(CpuSpeed {
        threads,
        seconds_per_bootstrap_one_core: nonzero(alone),
        seconds_per_bootstrap_batched: nonzero(batched) * threads as f64 / batch as f64,
        provenance: Provenance::Measured,
    })
}

/// Times one GPU: a step of `n` bootstraps of the identity table for every batch
/// size `n` of the options (linear, keyswitch and bootstrap launches, synchronized),
/// and copies of one block and of the largest batch each way.
///
/// ```no_run
/// use gpufhe::backend::cuda::{CudaBackend, CudaDevice};
/// use gpufhe::scheduler::{measure_gpu, CalibrationOptions};
/// use gpufhe::shortint::{ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
/// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
/// let key = CompressedServerKey::new(&ck).unwrap();
/// let gpu = CudaBackend::new(&CudaDevice::shared(0).unwrap(), &key).unwrap();
/// let speed = measure_gpu(&gpu, &CalibrationOptions::default()).unwrap();
/// assert_eq!(speed.samples.len(), 4);
/// ```
#[cfg(feature = "gpu")]
pub fn measure_gpu(
    backend: &crate::backend::cuda::CudaBackend,
    options: &CalibrationOptions,
) -> Result<GpuSpeed> {
    measure_gpu_on(backend, options)
}

/// [`measure_gpu`] in every build (no GPU backend exists without the `gpu` feature).
fn measure_gpu_on(backend: &CudaBackend, options: &CalibrationOptions) -> Result<GpuSpeed> {
    use crate::backend::{Backend, Table};
    options.validate()?;
    let params = *backend.parameters();
    let identity = Table::new(&params, |x| x)?;
    let mut sizes = options.gpu_batch_sizes.clone();
    sizes.sort_unstable();
    sizes.dedup();
    let mut samples = Vec::with_capacity(sizes.len());
    for &n in &sizes {
        let blocks = backend.upload(noise_blocks(&params, n, n as u64)?)?;
        let step = step_of(&identity, n);
        let seconds = time_median(options.repetitions, || {
            backend.eval(&[&blocks], &step).map(drop)
        })?;
        samples.push((n, nonzero(seconds)));
    }
    compare_bootstrap_kernels(
        backend,
        &step_of(&identity, *sizes.last().unwrap_or(&1)),
        options,
    )?;
    let largest = sizes.last().copied().unwrap_or(1).max(2);
    let block_bytes = params.big_lwe_dimension().to_lwe_size().0 as f64 * 8.0;
    let (small, big) = (
        noise_blocks(&params, 1, 7)?,
        noise_blocks(&params, largest, 8)?,
    );
    let up = |blocks: &Vec<Ciphertext>| {
        time_median(options.repetitions, || {
            backend.upload(blocks.clone()).map(drop)
        })
    };
    let (up_small, up_big) = (up(&small)?, up(&big)?);
    let (on_small, on_big) = (backend.upload(small)?, backend.upload(big)?);
    let down = |blocks| time_median(options.repetitions, || backend.download(blocks).map(drop));
    let (down_small, down_big) = (down(&on_small)?, down(&on_big)?);
    let bandwidth = |small: f64, big: f64| {
        let extra = (largest - 1) as f64 * block_bytes;
        if big > small {
            extra / (big - small)
        } else {
            largest as f64 * block_bytes / nonzero(big)
        }
    };
    Ok(GpuSpeed {
        gpu: crate::scheduler::GpuIndex::new(
            u32::try_from(backend.device().ordinal()).unwrap_or(u32::MAX),
        ),
        description: describe(backend.device())?,
        multiprocessors: backend.device().multiprocessor_count().max(1),
        samples,
        host_to_device_bytes_per_second: bandwidth(up_small, up_big),
        device_to_host_bytes_per_second: bandwidth(down_small, down_big),
        transfer_latency_seconds: up_small.min(down_small),
        provenance: Provenance::Measured,
    })
}

/// A step of `n` bootstraps of the first `n` input blocks through `table`.
fn step_of(table: &crate::backend::Table, n: usize) -> crate::backend::Step<'_> {
    crate::backend::Step {
        exprs: (0..n)
            .map(|i| crate::backend::BlockExpr::table_of(i, 0))
            .collect(),
        tables: vec![table],
    }
}

/// The two bootstrap kernels side by side (one block, one cluster per bootstrap) on
/// `step`'s batch, when it is larger than one wave of the GPU and both kernels run
/// there: `Auto` takes the faster for such batches from then on
/// ([`crate::backend::cuda::CudaBackend::measured_bootstrap_kernel`]). Nothing to
/// compare otherwise (a GPU without clusters, a kernel that does not fit).
fn compare_bootstrap_kernels(
    backend: &CudaBackend,
    step: &crate::backend::Step<'_>,
    options: &CalibrationOptions,
) -> Result<()> {
    use crate::backend::Backend;
    let count = step.exprs.len();
    let glwe_size = backend.parameters().glwe_dimension.0 + 1;
    if count * glwe_size <= backend.device().multiprocessor_count() {
        return Ok(());
    }
    let params = *backend.parameters();
    let blocks = backend.upload(noise_blocks(&params, count, count as u64 + 1)?)?;
    let mut timed = Vec::with_capacity(2);
    for kernel in [PbsKernel::SingleBlock, PbsKernel::Cluster] {
        let run = || backend.eval_with_bootstrap_kernel(kernel, &[&blocks], step);
        match time_median(options.repetitions, || run().map(drop)) {
            Ok(seconds) => timed.push((seconds, kernel)),
            // This kernel cannot run these parameters on this GPU.
            Err(Error::InvalidParameter(_)) => return Ok(()),
            Err(e) => return Err(e),
        }
    }
    if let Some(&(_, faster)) = timed.iter().min_by(|a, b| a.0.total_cmp(&b.0)) {
        backend.prefer_for_large_batches(faster);
    }
    Ok(())
}

/// What identifies a GPU model in a calibration: compute capability,
/// multiprocessors and memory.
fn describe(device: &CudaDevice) -> Result<String> {
    let (major, minor) = device.compute_capability();
    let (_, total) = device.memory_info()?;
    Ok(format!(
        "sm_{major}{minor}, {} SMs, {} MiB",
        device.multiprocessor_count(),
        total >> 20
    ))
}

/// `count` blocks of `params` holding pseudo-random coefficients: bootstrapping them
/// costs what bootstrapping real blocks does (no secret key is needed to make them).
fn noise_blocks(params: &ShortintParameters, count: usize, seed: u64) -> Result<Vec<Ciphertext>> {
    let size = params.big_lwe_dimension().to_lwe_size().0;
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..count)
        .map(|_| {
            let coefficients = (0..size)
                .map(|_| {
                    state ^= state >> 12;
                    state ^= state << 25;
                    state ^= state >> 27;
                    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
                })
                .collect();
            Ok(Ciphertext::from_parts(
                LweCiphertextOwned::from_container(coefficients)?,
                params.message_modulus - 1,
                1,
                params,
            ))
        })
        .collect()
}

/// The median seconds of `repetitions` timed runs of `run`, after one untimed
/// warm-up run.
fn time_median(repetitions: usize, mut run: impl FnMut() -> Result<()>) -> Result<f64> {
    run()?;
    let mut times = Vec::with_capacity(repetitions);
    for _ in 0..repetitions.max(1) {
        let start = Instant::now();
        run()?;
        times.push(start.elapsed());
    }
    times.sort_unstable();
    Ok(times[times.len() / 2].as_secs_f64())
}

/// `seconds`, at least one nanosecond (a clock too coarse to see the work must not
/// make a speed infinite).
fn nonzero(seconds: f64) -> f64 {
    seconds.max(Duration::from_nanos(1).as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shortint::{ClientKey, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2};

    #[test]
    fn noise_blocks_bootstrap_like_real_ones() {
        let params = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
        let key = shortint::ServerKey::new(&ClientKey::new(params).unwrap()).unwrap();
        let blocks = noise_blocks(&params, 3, 5).unwrap();
        assert_eq!(blocks.len(), 3);
        assert_ne!(blocks[0], blocks[1]);
        let lut = key.generate_lookup_table(|x| x).unwrap();
        let out = key.apply_lookup_table_batch(&blocks, &[&lut; 3]).unwrap();
        assert_eq!(out.len(), 3);
        let options = CalibrationOptions {
            repetitions: 1,
            cpu_threads: Some(2),
            cpu_batch_per_thread: 1,
            ..CalibrationOptions::default()
        };
        let cpu = measure_cpu(&key, &options).unwrap();
        assert_eq!(cpu.threads, 2);
        cpu.validate().unwrap();
    }
}
