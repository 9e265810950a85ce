//! The speed of one worker, as the cost model sees it: a CPU ([`CpuSpeed`]) by its
//! threads and its time per KS+PBS, a GPU ([`GpuSpeed`]) by its batched KS+PBS
//! times and its host links (see [`super::cost`] for how a batch's time follows).

use crate::error::{Error, Result};
use crate::scheduler::GpuIndex;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a figure comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Provenance {
    /// Timed on this machine ([`crate::scheduler::Calibration`]).
    Measured,
    /// Written down from a model, not timed on the device it describes.
    Modelled,
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Measured => "measured",
            Self::Modelled => "modelled",
        })
    }
}

/// How fast the CPU runs KS+PBS.
///
/// ```
/// use gpufhe::scheduler::{CpuSpeed, Provenance};
/// let cpu = CpuSpeed {
///     threads: 4,
///     seconds_per_bootstrap_one_core: 0.020,
///     seconds_per_bootstrap_batched: 0.016,
///     provenance: Provenance::Measured,
/// };
/// assert_eq!(cpu.layer_seconds(1), 0.020); // one bootstrap alone, on one core
/// assert!((cpu.layer_seconds(9) - 3.0 * 0.016).abs() < 1e-12); // 3 rounds of 4
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CpuSpeed {
    /// Threads the CPU worker computes with.
    pub threads: usize,
    /// Seconds of one KS+PBS alone on one core.
    pub seconds_per_bootstrap_one_core: f64,
    /// Seconds per KS+PBS on each core when a batch keeps every thread busy.
    pub seconds_per_bootstrap_batched: f64,
    /// Measured or modelled.
    pub provenance: Provenance,
}

impl CpuSpeed {
    /// `Err` unless there is at least one thread and both times are finite and
    /// positive.
    pub fn validate(&self) -> Result<()> {
        if self.threads == 0 {
            return Err(Error::InvalidParameter(
                "a CPU speed needs at least one thread".into(),
            ));
        }
        positive(
            "the CPU's time of one bootstrap",
            self.seconds_per_bootstrap_one_core,
        )?;
        positive(
            "the CPU's time per bootstrap in a batch",
            self.seconds_per_bootstrap_batched,
        )
    }

    /// Seconds for one layer of `bootstraps` independent KS+PBS: 0 for none, one
    /// lone bootstrap's time for one, else `ceil(bootstraps / threads)` rounds of the
    /// batched time but never less than a lone bootstrap. Non-decreasing in
    /// `bootstraps`.
    pub fn layer_seconds(&self, bootstraps: u128) -> f64 {
        match bootstraps {
            0 => 0.0,
            1 => self.seconds_per_bootstrap_one_core,
            n => {
                let rounds = n.div_ceil(self.threads.max(1) as u128) as f64;
                (rounds * self.seconds_per_bootstrap_batched)
                    .max(self.seconds_per_bootstrap_one_core)
            }
        }
    }
}

/// How fast one GPU runs KS+PBS and moves blocks to and from the host.
///
/// ```
/// use gpufhe::scheduler::{GpuSpeed, Provenance};
/// use gpufhe::GpuIndex;
/// let gpu = GpuSpeed {
///     gpu: GpuIndex::new(0),
///     description: "test GPU".into(),
///     multiprocessors: 100,
///     samples: vec![(1, 0.004), (1000, 0.004), (2000, 0.008)],
///     host_to_device_bytes_per_second: 1e10,
///     device_to_host_bytes_per_second: 1e10,
///     transfer_latency_seconds: 1e-5,
///     provenance: Provenance::Modelled,
/// };
/// assert_eq!(gpu.batch_seconds(500), 0.004); // latency-bound
/// assert!((gpu.batch_seconds(1500) - 0.006).abs() < 1e-12); // interpolated
/// assert!((gpu.batch_seconds(4000) - 0.016).abs() < 1e-12); // the throughput at 2000
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GpuSpeed {
    /// The GPU.
    #[serde(with = "gpu_index")]
    pub gpu: GpuIndex,
    /// What the GPU is, e.g. its compute capability, multiprocessors and memory (a
    /// calibration is only used on the GPU it was measured on). At most 256 bytes.
    #[serde(with = "text")]
    pub description: String,
    /// Streaming multiprocessors: the circuits built for it assume
    /// `multiprocessors * 16` bootstraps at once (see
    /// [`crate::backend::Backend::parallelism`]).
    pub multiprocessors: usize,
    /// `(batch size, seconds)` of one KS+PBS launch pair over that many
    /// ciphertexts, launch latency included, by increasing batch size.
    pub samples: Vec<(usize, f64)>,
    /// Bytes per second copied from the host to the GPU.
    pub host_to_device_bytes_per_second: f64,
    /// Bytes per second copied from the GPU to the host.
    pub device_to_host_bytes_per_second: f64,
    /// Seconds of a copy of nothing, each way.
    pub transfer_latency_seconds: f64,
    /// Measured or modelled.
    pub provenance: Provenance,
}

impl GpuSpeed {
    /// `Err` unless there are samples, with batch sizes of at least 1 in increasing
    /// order and finite positive times, finite positive bandwidths, a finite
    /// non-negative latency and at least one multiprocessor.
    pub fn validate(&self) -> Result<()> {
        let what = format!("the speed of {}", self.gpu);
        if self.samples.is_empty() {
            return Err(Error::InvalidParameter(format!("{what} has no sample")));
        }
        let mut last = 0;
        for &(batch, seconds) in &self.samples {
            if batch <= last {
                return Err(Error::InvalidParameter(format!(
                    "{what}: batch sizes must be at least 1 and increasing, {batch} follows {last}"
                )));
            }
            last = batch;
            positive("a GPU batch time", seconds)?;
        }
        positive(
            "a host-to-device bandwidth",
            self.host_to_device_bytes_per_second,
        )?;
        positive(
            "a device-to-host bandwidth",
            self.device_to_host_bytes_per_second,
        )?;
        if !(self.transfer_latency_seconds.is_finite() && self.transfer_latency_seconds >= 0.0) {
            return Err(Error::InvalidParameter(format!(
                "{what}: the transfer latency must be finite and non-negative, not {}",
                self.transfer_latency_seconds
            )));
        }
        if self.description.len() > MAX_DESCRIPTION_LEN {
            return Err(Error::InvalidParameter(format!(
                "{what}: a description of {} bytes, more than {MAX_DESCRIPTION_LEN}",
                self.description.len()
            )));
        }
        if self.multiprocessors == 0 {
            return Err(Error::InvalidParameter(format!(
                "{what}: a GPU has at least one multiprocessor"
            )));
        }
        Ok(())
    }

    /// Seconds of one KS+PBS launch pair over `bootstraps` ciphertexts: 0 for none;
    /// the smallest sample's time up to its batch size; linear between samples;
    /// beyond the largest sample, growing in proportion at its throughput. The
    /// samples are first made non-decreasing (a larger batch never takes less time),
    /// so the result is non-decreasing in `bootstraps`.
    pub fn batch_seconds(&self, bootstraps: u128) -> f64 {
        if bootstraps == 0 || self.samples.is_empty() {
            return 0.0;
        }
        let n = bootstraps as f64;
        let mut envelope = 0.0f64;
        let mut previous: Option<(f64, f64)> = None;
        for &(batch, seconds) in &self.samples {
            envelope = envelope.max(seconds);
            let (b, t) = (batch as f64, envelope);
            if n <= b {
                return match previous {
                    None => t,
                    Some((b0, t0)) => t0 + (t - t0) * (n - b0) / (b - b0),
                };
            }
            previous = Some((b, t));
        }
        let (b, t) = previous.unwrap_or((1.0, 0.0));
        t * n / b
    }

    /// Seconds to copy `to_device` bytes to the GPU and `to_host` bytes back (a copy
    /// of 0 bytes costs nothing, any other the latency plus the bytes at the
    /// bandwidth).
    ///
    /// ```
    /// use gpufhe::scheduler::CostModel;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// use gpufhe::GpuIndex;
    /// let gpu = &CostModel::modelled(&DEFAULT_PARAMETERS, 0, &[GpuIndex::new(0)]).gpus[0];
    /// assert_eq!(gpu.transfer_seconds(0, 0), 0.0);
    /// assert!((gpu.transfer_seconds(25_000_000, 0) - (10e-6 + 1e-3)).abs() < 1e-12);
    /// ```
    pub fn transfer_seconds(&self, to_device: u128, to_host: u128) -> f64 {
        let one = |bytes: u128, bandwidth: f64| {
            if bytes == 0 {
                0.0
            } else {
                self.transfer_latency_seconds + bytes as f64 / bandwidth
            }
        };
        one(to_device, self.host_to_device_bytes_per_second)
            + one(to_host, self.device_to_host_bytes_per_second)
    }
}

/// `Err` unless `value` is finite and positive.
pub(crate) fn positive(what: &str, value: f64) -> Result<()> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "{what} must be finite and positive, not {value}"
        )))
    }
}

/// The longest [`GpuSpeed::description`].
const MAX_DESCRIPTION_LEN: usize = 256;

/// Serde for a string as a sequence of bytes: bincode decodes a `String` by
/// allocating the length it reads before reading the bytes, a sequence element by
/// element, so a forged length in a file cannot allocate more than the file holds.
mod text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(
        text: &str,
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(text.bytes())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> std::result::Result<String, D::Error> {
        String::from_utf8(Vec::<u8>::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// Serde for a [`GpuIndex`] as its ordinal.
mod gpu_index {
    use crate::scheduler::GpuIndex;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(
        gpu: &GpuIndex,
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_u32(gpu.get())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> std::result::Result<GpuIndex, D::Error> {
        Ok(GpuIndex::new(u32::deserialize(d)?))
    }
}
