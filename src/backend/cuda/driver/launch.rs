//! Kernel launches taking one `#[repr(C)]` parameter struct, as plain grids or as
//! grids of thread block clusters.

use crate::backend::cuda::driver::kernel::{cluster_launch_config, empty_attribute, Kernel};
use crate::backend::cuda::CudaDevice;
use crate::error::Result;
use cudarc::driver::sys::cuLaunchKernelEx;
use cudarc::driver::{DeviceRepr, LaunchConfig, PushKernelArg};
use std::ffi::c_void;

/// Launches `kernel` on the device's stream with `params` as its only argument.
///
/// # Safety
/// `params` must be the kernel's parameter struct, every device address in it must
/// point to memory of this device that stays allocated until the kernel has run (the
/// caller holds the buffers' access guards across this call), and the configuration
/// must be one the kernel's indexing supports.
pub(crate) unsafe fn launch<P: DeviceRepr>(
    device: &CudaDevice,
    kernel: &Kernel,
    config: LaunchConfig,
    params: &P,
    what: &'static str,
) -> Result<()> {
    let mut builder = device.stream()?.launch_builder(&kernel.function);
    builder.arg(params);
    // SAFETY: the caller guarantees the argument and the configuration (see above).
    unsafe { builder.launch(config) }.map_err(device.driver_err(what))?;
    Ok(())
}

/// Launches `kernel` as clusters of `cluster_size` consecutive blocks along x
/// (`config.grid_dim.0` must be a multiple of it); sm_90 and newer.
///
/// # Safety
/// As for [`launch`].
pub(crate) unsafe fn launch_clusters<P: DeviceRepr>(
    device: &CudaDevice,
    kernel: &Kernel,
    config: LaunchConfig,
    cluster_size: u32,
    params: &P,
    what: &'static str,
) -> Result<()> {
    let mut attribute = empty_attribute();
    let launch_config = cluster_launch_config(device, &config, cluster_size, &mut attribute)?;
    let mut args = [params as *const P as *mut c_void];
    // SAFETY: `launch_config` and `attribute` live until the call returns, `args` holds
    // one pointer to the parameter struct (copied by the driver at launch), the stream
    // belongs to the bound context, and the caller guarantees the parameters.
    unsafe {
        cuLaunchKernelEx(
            &launch_config,
            kernel.function.cu_function(),
            args.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    }
    .result()
    .map_err(device.driver_err(what))
}
