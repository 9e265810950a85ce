//! Opening a CUDA device: driver presence, context, stream and the loaded kernels.

use super::{cuda_err, kernels};
use crate::error::{Error, Result};
use cudarc::driver::{CudaContext, CudaFunction, CudaStream};
use cudarc::nvrtc::Ptx;
use std::sync::Arc;

/// `Err(NoCudaDevice)` unless the CUDA driver library can be loaded. cudarc panics
/// on its first call without a driver, so this runs before any of them.
fn check_driver() -> Result<()> {
    // SAFETY: `is_culib_present` only tries to open the driver library with
    // libloading and drops it; it has no precondition.
    let present = unsafe { cudarc::driver::sys::is_culib_present() };
    if present {
        Ok(())
    } else {
        Err(Error::NoCudaDevice(
            "the CUDA driver library (libcuda) cannot be loaded".into(),
        ))
    }
}

/// The number of visible CUDA devices; `Err` when there is no driver.
///
/// ```no_run
/// let n = gpufhe::backend::cuda::cuda_device_count().unwrap_or(0);
/// println!("{n} GPU(s)");
/// ```
pub fn cuda_device_count() -> Result<usize> {
    check_driver()?;
    let n = CudaContext::device_count().map_err(cuda_err("counting devices"))?;
    Ok(n.max(0) as usize)
}

/// The kernels of `cuda/lwe_linear_algebra.cu`, looked up once.
#[derive(Debug)]
pub(crate) struct LweKernels {
    pub(crate) add_assign: CudaFunction,
    pub(crate) sub_assign: CudaFunction,
    pub(crate) neg_assign: CudaFunction,
}

#[derive(Debug)]
struct Inner {
    ordinal: usize,
    context: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    lwe: LweKernels,
}

/// One CUDA device with its context, a stream and the loaded kernels. Cloning is
/// cheap (shared).
#[derive(Debug, Clone)]
pub struct CudaDevice(Arc<Inner>);

impl CudaDevice {
    /// Opens device `ordinal` (after `CUDA_VISIBLE_DEVICES`) and loads the kernels.
    ///
    /// ```no_run
    /// let gpu = gpufhe::backend::cuda::CudaDevice::new(0).unwrap();
    /// assert_eq!(gpu.ordinal(), 0);
    /// ```
    pub fn new(ordinal: usize) -> Result<Self> {
        let count = cuda_device_count()?;
        if count == 0 {
            return Err(Error::NoCudaDevice(
                "the driver reports no CUDA device".into(),
            ));
        }
        if ordinal >= count {
            return Err(Error::NoCudaDevice(format!(
                "device {ordinal} requested, but only {count} device(s) are visible"
            )));
        }
        let fatbin = kernels::LWE_LINEAR_ALGEBRA.ok_or(Error::KernelsNotBuilt)?;
        let context = CudaContext::new(ordinal).map_err(cuda_err("creating a context"))?;
        let stream = context
            .new_stream()
            .map_err(cuda_err("creating a stream"))?;
        let module = context
            .load_module(Ptx::from_binary(fatbin.to_vec()))
            .map_err(cuda_err("loading the lwe_linear_algebra kernels"))?;
        let load = |name: &str| {
            module
                .load_function(name)
                .map_err(cuda_err("looking up a kernel"))
        };
        let lwe = LweKernels {
            add_assign: load("add_lwe_assign_u64")?,
            sub_assign: load("sub_lwe_assign_u64")?,
            neg_assign: load("neg_lwe_assign_u64")?,
        };
        Ok(Self(Arc::new(Inner {
            ordinal,
            context,
            stream,
            lwe,
        })))
    }

    /// The device's ordinal.
    pub fn ordinal(&self) -> usize {
        self.0.ordinal
    }

    /// Free and total device memory, in bytes.
    pub fn memory_info(&self) -> Result<(usize, usize)> {
        self.0
            .context
            .mem_get_info()
            .map_err(cuda_err("querying device memory"))
    }

    /// Waits until every operation queued on this device's stream has finished.
    pub fn synchronize(&self) -> Result<()> {
        self.0
            .stream
            .synchronize()
            .map_err(cuda_err("synchronizing the stream"))
    }

    pub(crate) fn stream(&self) -> &Arc<CudaStream> {
        &self.0.stream
    }

    pub(crate) fn lwe_kernels(&self) -> &LweKernels {
        &self.0.lwe
    }

    /// Fails with a clear error unless `bytes` fit in the device's free memory.
    pub(crate) fn check_free_memory(&self, bytes: usize) -> Result<()> {
        let (free, _) = self.memory_info()?;
        if bytes > free {
            return Err(Error::Cuda {
                context: "allocating device memory",
                message: format!(
                    "{bytes} bytes requested, {free} bytes free on GPU {}",
                    self.ordinal()
                ),
            });
        }
        Ok(())
    }
}

/// Device 0 for GPU tests, or `None` after printing `SKIPPED (no CUDA device)` when
/// there is none. With `GPUFHE_REQUIRE_GPU=1` a missing device panics instead, so a
/// GPU machine cannot silently skip its tests.
#[doc(hidden)]
pub fn gpu_for_tests() -> Option<CudaDevice> {
    match CudaDevice::new(0) {
        Ok(device) => Some(device),
        Err(e) => {
            if std::env::var("GPUFHE_REQUIRE_GPU").is_ok_and(|v| v == "1") {
                panic!("GPUFHE_REQUIRE_GPU=1 but no usable CUDA device: {e}");
            }
            println!("SKIPPED (no CUDA device): {e}");
            None
        }
    }
}
