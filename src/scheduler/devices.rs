//! Which GPUs exist and which are chosen: [`GpuIndex`], [`GpuSelection`],
//! [`get_number_of_gpus`], and where a value lives ([`Device`]).
//!
//! Without the `gpu` feature everything here still exists: there are no GPUs
//! ([`get_number_of_gpus`] is 0) and asking for one is an error.

use crate::error::{Error, Result};

/// The number of CUDA devices visible to this process (after
/// `CUDA_VISIBLE_DEVICES`): 0 without a driver, without a device, or without the
/// `gpu` feature. Never panics.
///
/// ```
/// let n = gpufhe::get_number_of_gpus();
/// println!("{n} GPU(s)");
/// # let _ = n;
/// ```
pub fn get_number_of_gpus() -> u32 {
    #[cfg(feature = "gpu")]
    {
        crate::backend::cuda::cuda_device_count()
            .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX))
    }
    #[cfg(not(feature = "gpu"))]
    {
        0
    }
}

/// A GPU, by its ordinal among the visible ones (0, 1, ...).
///
/// ```
/// use gpufhe::GpuIndex;
/// let first = GpuIndex::new(0);
/// assert_eq!(first.get(), 0);
/// if gpufhe::get_number_of_gpus() == 0 {
///     assert!(GpuIndex::try_new(0).is_err());
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GpuIndex(u32);

impl GpuIndex {
    /// GPU `index`; whether it exists is checked when it is used (see
    /// [`GpuIndex::try_new`] to check now).
    pub const fn new(index: u32) -> Self {
        Self(index)
    }

    /// GPU `index`, or `Err(NoCudaDevice)` unless `index < get_number_of_gpus()`.
    ///
    /// ```
    /// use gpufhe::GpuIndex;
    /// let err = GpuIndex::try_new(u32::MAX).unwrap_err();
    /// assert!(err.to_string().contains("GPU 4294967295"));
    /// ```
    pub fn try_new(index: u32) -> Result<Self> {
        let gpu = Self(index);
        gpu.check(get_number_of_gpus())?;
        Ok(gpu)
    }

    /// The ordinal.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// `Err` unless this GPU is among the `count` visible ones.
    pub(crate) fn check(self, count: u32) -> Result<()> {
        if self.0 < count {
            Ok(())
        } else {
            Err(Error::NoCudaDevice(format!(
                "GPU {} requested, but {count} GPU(s) are visible{}",
                self.0,
                if cfg!(feature = "gpu") {
                    ""
                } else {
                    " (gpufhe was built without the `gpu` feature)"
                }
            )))
        }
    }
}

impl std::fmt::Display for GpuIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GPU {}", self.0)
    }
}

/// The GPUs a server key is decompressed to: one [`GpuIndex`], or several (a
/// `Vec`, slice or array of them), for
/// [`CompressedServerKey::decompress_to_specific_gpu`](crate::CompressedServerKey::decompress_to_specific_gpu).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuSelection(Vec<GpuIndex>);

impl GpuSelection {
    /// The chosen GPUs, in order.
    pub fn gpus(&self) -> &[GpuIndex] {
        &self.0
    }

    /// `Err` if the selection is empty, names a GPU twice, or a GPU that is not
    /// among the `count` visible ones.
    pub(crate) fn check(&self, count: u32) -> Result<()> {
        if self.0.is_empty() {
            return Err(Error::InvalidParameter("no GPU selected".into()));
        }
        for (i, gpu) in self.0.iter().enumerate() {
            if self.0[..i].contains(gpu) {
                return Err(Error::InvalidParameter(format!("{gpu} is selected twice")));
            }
        }
        self.0.iter().try_for_each(|gpu| gpu.check(count))
    }
}

impl From<GpuIndex> for GpuSelection {
    fn from(gpu: GpuIndex) -> Self {
        Self(vec![gpu])
    }
}

impl From<Vec<GpuIndex>> for GpuSelection {
    fn from(gpus: Vec<GpuIndex>) -> Self {
        Self(gpus)
    }
}

impl From<&[GpuIndex]> for GpuSelection {
    fn from(gpus: &[GpuIndex]) -> Self {
        Self(gpus.to_vec())
    }
}

impl<const N: usize> From<[GpuIndex; N]> for GpuSelection {
    fn from(gpus: [GpuIndex; N]) -> Self {
        Self(gpus.to_vec())
    }
}

/// Where the blocks of an encrypted value live.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, ConfigBuilder, Device, FheUint8};
/// let client_key = ClientKey::generate(ConfigBuilder::default());
/// let x = FheUint8::encrypt(7u8, &client_key);
/// assert_eq!(x.current_device(), Device::Cpu);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Device {
    /// Host memory.
    Cpu,
    /// The memory of one GPU.
    CudaGpu(GpuIndex),
}

impl std::fmt::Display for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Cpu => write!(f, "CPU"),
            Self::CudaGpu(gpu) => write!(f, "{gpu}"),
        }
    }
}

/// The error for "no GPU" when a GPU key is requested.
pub(crate) fn no_gpu_error(what: &str) -> Error {
    let reason = if cfg!(feature = "gpu") {
        "no CUDA driver or device is visible"
    } else {
        "gpufhe was built without the `gpu` feature"
    };
    Error::NoCudaDevice(format!(
        "{what} needs at least one GPU, and {reason}; use decompress() for a key that \
         computes on the CPU"
    ))
}
