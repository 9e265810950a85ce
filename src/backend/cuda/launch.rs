//! Kernel launches taking one `#[repr(C)]` parameter struct, as plain grids or as
//! grids of thread block clusters.

use super::device::Kernel;
use super::{cuda_err, CudaDevice};
use crate::error::Result;
use cudarc::driver::sys::{
    cuLaunchKernelEx, CUlaunchAttribute, CUlaunchAttributeID,
    CUlaunchAttributeValue_union__bindgen_ty_1, CUlaunchConfig,
};
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
    let mut builder = device.stream().launch_builder(&kernel.function);
    builder.arg(params);
    // SAFETY: the caller guarantees the argument and the configuration (see above).
    unsafe { builder.launch(config) }.map_err(cuda_err(what))?;
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
    device
        .context()
        .bind_to_thread()
        .map_err(cuda_err("binding the CUDA context"))?;
    // SAFETY: an all-zero launch attribute is a valid value of this plain C struct.
    let mut attribute: CUlaunchAttribute = unsafe { std::mem::zeroed() };
    attribute.id = CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim = CUlaunchAttributeValue_union__bindgen_ty_1 {
        x: cluster_size,
        y: 1,
        z: 1,
    };
    let launch_config = CUlaunchConfig {
        gridDimX: config.grid_dim.0,
        gridDimY: config.grid_dim.1,
        gridDimZ: config.grid_dim.2,
        blockDimX: config.block_dim.0,
        blockDimY: config.block_dim.1,
        blockDimZ: config.block_dim.2,
        sharedMemBytes: config.shared_mem_bytes,
        hStream: device.stream().cu_stream(),
        attrs: &mut attribute,
        numAttrs: 1,
    };
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
    .map_err(cuda_err(what))
}
