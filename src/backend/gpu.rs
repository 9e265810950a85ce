//! What the GPU driver layer tells the layers above it, in every build (without
//! the `gpu` feature there are no GPUs): how many GPUs are visible
//! ([`get_number_of_gpus`]), a GPU's index ([`GpuIndex`]), what probing one found
//! ([`GpuProbe`], [`probe_gpus`]) and the device memory one expression of a step
//! needs ([`gpu_expression_bytes`]). The scheduler chooses GPUs and sizes batches
//! from these facts; the driver layer (`backend::cuda`) measures them.
//!
//! It is also where the `gpu` feature's switch sits for the layers above: they name
//! the GPU types (`CudaDevice`, `CudaBlocks`, `CudaBackend`) through this module,
//! which takes them from `backend::cuda`, or, without the feature, from stand-ins
//! that have no values (`backend/gpu_absent.rs`), so the scheduler is written once.

pub(crate) use super::gpu_memory::big_lwe_bytes;
pub use super::gpu_memory::gpu_expression_bytes;
#[cfg(feature = "gpu")]
pub(crate) use crate::backend::cuda::{CudaBackend, CudaBlocks, CudaDevice, PbsKernel};
#[cfg(not(feature = "gpu"))]
pub(crate) use crate::backend::gpu_absent::{CudaBackend, CudaBlocks, CudaDevice, PbsKernel};
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
///     assert!(GpuIndex::try_new(0).is_none());
///     assert!(GpuIndex::checked(0).is_err());
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GpuIndex(u32);

impl GpuIndex {
    /// GPU `index`; whether it exists is checked when it is used (see
    /// [`GpuIndex::checked`] to check now).
    pub const fn new(index: u32) -> Self {
        Self(index)
    }

    /// GPU `index` if it is visible (`index < get_number_of_gpus()`), else `None`
    /// (TFHE-rs's signature; [`GpuIndex::checked`] says why).
    ///
    /// ```
    /// use gpufhe::GpuIndex;
    /// assert!(GpuIndex::try_new(u32::MAX).is_none());
    /// ```
    pub fn try_new(index: u32) -> Option<Self> {
        Self::checked(index).ok()
    }

    /// GPU `index`, or `Err(NoCudaDevice)` saying how many GPUs are visible unless
    /// `index < get_number_of_gpus()`.
    ///
    /// ```
    /// use gpufhe::GpuIndex;
    /// let err = GpuIndex::checked(u32::MAX).unwrap_err();
    /// assert!(err.to_string().contains("GPU 4294967295"));
    /// ```
    pub fn checked(index: u32) -> Result<Self> {
        let gpu = Self(index);
        gpu.check(get_number_of_gpus())?;
        Ok(gpu)
    }

    /// The ordinal.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// This GPU as a one-element slice with a static lifetime (TFHE-rs's
    /// `gpu_indexes()` return `&[GpuIndex]`); `None` past the first 1,024 ordinals.
    pub(crate) fn as_static_slice(self) -> Option<&'static [GpuIndex]> {
        /// Every ordinal a slice is lent for.
        static ALL: [GpuIndex; 1024] = {
            let mut all = [GpuIndex(0); 1024];
            let mut i = 0;
            while i < all.len() {
                all[i] = GpuIndex(i as u32);
                i += 1;
            }
            all
        };
        let i = self.0 as usize;
        ALL.get(i..i + 1)
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

/// What probing one GPU found: its memory, and whether this process can use it.
///
/// ```
/// use gpufhe::scheduler::GpuProbe;
/// use gpufhe::GpuIndex;
/// let idle = GpuProbe::usable(GpuIndex::new(0), 70 << 30, 80 << 30);
/// let held = GpuProbe::unusable(GpuIndex::new(1), 80 << 30, "held by another process");
/// assert!(idle.is_usable() && !held.is_usable());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuProbe {
    /// The GPU probed.
    pub gpu: GpuIndex,
    /// Free device memory in bytes (0 when unusable).
    pub free_bytes: u64,
    /// Device memory in bytes.
    pub total_bytes: u64,
    /// Why this process cannot use the GPU; `None` when it can.
    pub unusable: Option<String>,
}

impl GpuProbe {
    /// A GPU this process can use, with `free_bytes` of its `total_bytes` free.
    ///
    /// ```
    /// use gpufhe::scheduler::GpuProbe;
    /// let probe = GpuProbe::usable(gpufhe::GpuIndex::new(2), 1 << 30, 16 << 30);
    /// assert_eq!((probe.free_bytes, probe.unusable), (1 << 30, None));
    /// ```
    pub const fn usable(gpu: GpuIndex, free_bytes: u64, total_bytes: u64) -> Self {
        Self {
            gpu,
            free_bytes,
            total_bytes,
            unusable: None,
        }
    }

    /// A GPU this process cannot use, and why.
    ///
    /// ```
    /// use gpufhe::scheduler::GpuProbe;
    /// let probe = GpuProbe::unusable(gpufhe::GpuIndex::new(1), 16 << 30, "prohibited");
    /// assert_eq!(probe.unusable.as_deref(), Some("prohibited"));
    /// assert_eq!(probe.free_bytes, 0);
    /// ```
    pub fn unusable(gpu: GpuIndex, total_bytes: u64, reason: impl Into<String>) -> Self {
        Self {
            gpu,
            free_bytes: 0,
            total_bytes,
            unusable: Some(reason.into()),
        }
    }

    /// Whether this process can create a context on the GPU.
    ///
    /// ```
    /// use gpufhe::scheduler::GpuProbe;
    /// assert!(GpuProbe::usable(gpufhe::GpuIndex::new(0), 1, 2).is_usable());
    /// ```
    pub fn is_usable(&self) -> bool {
        self.unusable.is_none()
    }
}

/// Every visible GPU, probed: compute mode, and free memory measured in its primary
/// context, which is retained for the measurement and released after. A GPU that
/// cannot be used (compute mode prohibited, exclusive-process mode held by another
/// process, any driver failure on it) is in the list with the reason. `Err` when
/// there is no driver; an empty list without the `gpu` feature.
///
/// ```no_run
/// for probe in gpufhe::scheduler::probe_gpus()? {
///     println!("{}: {} MiB free, {:?}", probe.gpu, probe.free_bytes >> 20, probe.unusable);
/// }
/// assert!(gpufhe::scheduler::probe_gpus()?.len() as u32 == gpufhe::get_number_of_gpus());
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub fn probe_gpus() -> Result<Vec<GpuProbe>> {
    #[cfg(feature = "gpu")]
    {
        let probed = crate::backend::cuda::probe_devices()?;
        Ok(probed
            .into_iter()
            .map(|d| {
                let gpu = GpuIndex::new(d.ordinal);
                match d.free_bytes {
                    Ok(free) => GpuProbe::usable(gpu, free, d.total_bytes),
                    Err(reason) => GpuProbe::unusable(gpu, d.total_bytes, reason),
                }
            })
            .collect())
    }
    #[cfg(not(feature = "gpu"))]
    {
        Ok(Vec::new())
    }
}

/// Whether `size` bytes fit in the free memory of `gpu` now (TFHE-rs's check
/// before an allocation, with the size a `get_*_size_on_gpu` query gives): `false`
/// when the GPU is not visible, cannot be used, or the driver cannot be asked.
///
/// ```
/// use gpufhe::core_crypto::gpu::check_valid_cuda_malloc;
/// use gpufhe::GpuIndex;
/// if gpufhe::get_number_of_gpus() == 0 {
///     assert!(!check_valid_cuda_malloc(1, GpuIndex::new(0)));
/// }
/// ```
pub fn check_valid_cuda_malloc(size: u64, gpu: GpuIndex) -> bool {
    free_bytes_of(gpu).is_some_and(|free| size <= free)
}

/// [`check_valid_cuda_malloc`] as an assertion (TFHE-rs's form).
///
/// # Panics
///
/// When `size` bytes do not fit on `gpu`, with the size and the GPU's free and
/// total memory in the message; this is its purpose. [`check_valid_cuda_malloc`]
/// asks without panicking.
#[track_caller]
pub fn check_valid_cuda_malloc_assert_oom(size: u64, gpu: GpuIndex) {
    if !check_valid_cuda_malloc(size, gpu) {
        let probe = probe_gpus()
            .ok()
            .and_then(|probes| probes.into_iter().find(|p| p.gpu == gpu));
        match probe {
            Some(p) => panic!(
                "Not enough memory on {gpu}: allocating {size} bytes, {} bytes free of {} \
                 bytes{}",
                p.free_bytes,
                p.total_bytes,
                p.unusable
                    .map(|why| format!(" ({why})"))
                    .unwrap_or_default()
            ),
            None => panic!("Cannot allocate {size} bytes on {gpu}: no such GPU is visible"),
        }
    }
}

/// Whether a CUDA GPU is visible and the crate was built to use it (TFHE-rs's
/// name): `get_number_of_gpus() > 0`.
///
/// ```
/// assert_eq!(gpufhe::core_crypto::gpu::is_cuda_available(), gpufhe::get_number_of_gpus() > 0);
/// ```
pub fn is_cuda_available() -> bool {
    get_number_of_gpus() > 0
}

/// The free bytes of a usable `gpu`, `None` when it is absent or unusable.
fn free_bytes_of(gpu: GpuIndex) -> Option<u64> {
    let probes = probe_gpus().ok()?;
    let probe = probes.into_iter().find(|p| p.gpu == gpu)?;
    probe.unusable.is_none().then_some(probe.free_bytes)
}
