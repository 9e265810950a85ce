//! Kernel launches taking one `#[repr(C)]` parameter struct, as plain grids or as
//! grids of thread block clusters.

use super::kernel::Kernel;
use super::CudaDevice;
use crate::error::Result;
use cudarc::driver::sys::{
    cuLaunchKernelEx, cuOccupancyMaxActiveClusters, CUlaunchAttribute, CUlaunchAttributeID,
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
    let mut builder = device.stream()?.launch_builder(&kernel.function);
    builder.arg(params);
    // SAFETY: the caller guarantees the argument and the configuration (see above).
    unsafe { builder.launch(config) }.map_err(device.driver_err(what))?;
    Ok(())
}

/// The driver's configuration of a launch of `config` as clusters of `cluster_size`
/// blocks along x, on the device's stream; `attribute` (which it points to) is
/// filled in.
fn cluster_launch_config(
    device: &CudaDevice,
    config: &LaunchConfig,
    cluster_size: u32,
    attribute: &mut CUlaunchAttribute,
) -> Result<CUlaunchConfig> {
    device
        .context()?
        .bind_to_thread()
        .map_err(device.driver_err("binding the CUDA context"))?;
    attribute.id = CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim = CUlaunchAttributeValue_union__bindgen_ty_1 {
        x: cluster_size,
        y: 1,
        z: 1,
    };
    Ok(CUlaunchConfig {
        gridDimX: config.grid_dim.0,
        gridDimY: config.grid_dim.1,
        gridDimZ: config.grid_dim.2,
        blockDimX: config.block_dim.0,
        blockDimY: config.block_dim.1,
        blockDimZ: config.block_dim.2,
        sharedMemBytes: config.shared_mem_bytes,
        hStream: device.stream()?.cu_stream(),
        attrs: attribute,
        numAttrs: 1,
    })
}

/// An all-zero launch attribute, to be filled by [`cluster_launch_config`].
fn empty_attribute() -> CUlaunchAttribute {
    // SAFETY: an all-zero launch attribute is a valid value of this plain C struct.
    unsafe { std::mem::zeroed() }
}

/// How many clusters of `cluster_size` blocks of `config` the device can run at
/// once (0: such a cluster cannot be scheduled at all, e.g. on a GPU partition with
/// too few SMs, or with too much shared memory per block). The kernel's shared
/// memory limit must already allow `config.shared_mem_bytes`.
pub(crate) fn max_active_clusters(
    device: &CudaDevice,
    kernel: &Kernel,
    config: LaunchConfig,
    cluster_size: u32,
) -> Result<u32> {
    let mut attribute = empty_attribute();
    let launch_config = cluster_launch_config(device, &config, cluster_size, &mut attribute)?;
    let mut clusters = 0i32;
    // SAFETY: `launch_config` and `attribute` live until the call returns and the
    // output is a valid `int`; nothing is launched.
    unsafe {
        cuOccupancyMaxActiveClusters(&mut clusters, kernel.function.cu_function(), &launch_config)
    }
    .result()
    .map_err(device.driver_err("querying how many thread block clusters fit"))?;
    Ok(clusters.max(0) as u32)
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
