//! A loaded kernel with what is known of its limits (shared memory, clusters),
//! queried of the driver once. The device that loads kernels sits above them: a
//! kernel asks it only what [`KernelDevice`] offers.

use crate::error::{Error, Result};
use cudarc::driver::sys::{
    cuOccupancyMaxActiveClusters, CUfunction_attribute, CUlaunchAttribute, CUlaunchAttributeID,
    CUlaunchAttributeValue_union__bindgen_ty_1, CUlaunchConfig, CUstream,
};
use cudarc::driver::{CudaFunction, DriverError, LaunchConfig};
use std::sync::{Mutex, OnceLock};

/// What a kernel's queries ask of the device it was loaded on (`CudaDevice`).
pub(crate) trait KernelDevice {
    /// `Err(DeviceLost)` once the device is lost.
    fn check(&self) -> Result<()>;
    /// Maps a failed driver call during `context` to an [`Error`].
    fn driver_err(&self, context: &'static str) -> impl FnOnce(DriverError) -> Error + '_;
    /// The device's opt-in shared memory per block, in bytes.
    fn max_shared_memory_per_block(&self) -> u32;
    /// The device's ordinal.
    fn ordinal(&self) -> usize;
    /// Makes the device's context current on this thread.
    fn bind_context(&self) -> Result<()>;
    /// The driver handle of the device's stream (of this handle).
    fn cu_stream(&self) -> Result<CUstream>;
}

/// A kernel and what is known of its shared memory.
#[derive(Debug)]
pub(crate) struct Kernel {
    pub(crate) function: CudaFunction,
    /// Filled on first use; behind a lock so that raising the limit and recording it
    /// happen together (two threads raising it at once could otherwise leave the
    /// driver's limit below the recorded one).
    shared_memory: Mutex<Option<SharedMemory>>,
    /// Whether a cluster can be scheduled, per (cluster size, threads per block,
    /// dynamic shared memory): asked of the driver once per shape.
    clusters: Mutex<Vec<(ClusterShape, bool)>>,
    /// Local memory per thread (spilled registers, a stack), once known.
    local_memory: OnceLock<u32>,
}

/// A cluster launch: blocks per cluster, threads per block, dynamic shared memory.
type ClusterShape = (u32, u32, usize);

/// A kernel's shared memory, in bytes.
#[derive(Clone, Copy, Debug)]
struct SharedMemory {
    /// Declared `__shared__` in the kernel: it counts against the per-block limit.
    fixed: u32,
    /// The dynamic shared memory launches may currently use.
    allowed_dynamic: u32,
}

impl Kernel {
    pub(crate) fn new(function: CudaFunction) -> Self {
        Self {
            function,
            shared_memory: Mutex::new(None),
            clusters: Mutex::new(Vec::new()),
            local_memory: OnceLock::new(),
        }
    }

    fn attribute(
        &self,
        device: &impl KernelDevice,
        attribute: CUfunction_attribute,
    ) -> Result<u32> {
        device.check()?;
        let value = self
            .function
            .get_attribute(attribute)
            .map_err(device.driver_err("querying a kernel attribute"))?;
        Ok(value.max(0) as u32)
    }

    /// The kernel's shared memory figures (queried once), under the lock.
    fn shared_memory(
        &self,
        device: &impl KernelDevice,
    ) -> Result<std::sync::MutexGuard<'_, Option<SharedMemory>>> {
        let mut known = self
            .shared_memory
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if known.is_none() {
            use CUfunction_attribute::*;
            *known = Some(SharedMemory {
                fixed: self.attribute(device, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?,
                allowed_dynamic: self
                    .attribute(device, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)?,
            });
        }
        Ok(known)
    }

    /// The most dynamic shared memory a block of this kernel can be given on
    /// `device`: the device's opt-in limit less the kernel's static shared memory.
    pub(crate) fn max_dynamic_shared_memory(&self, device: &impl KernelDevice) -> Result<usize> {
        let fixed = self.shared_memory(device)?.map_or(0, |s| s.fixed);
        let limit = device.max_shared_memory_per_block();
        Ok(limit.saturating_sub(fixed) as usize)
    }

    /// Allows launches with `bytes` of dynamic shared memory (raising the kernel's
    /// limit when needed), or `Err` if the device has less.
    pub(crate) fn allow_shared_memory(
        &self,
        device: &impl KernelDevice,
        bytes: usize,
    ) -> Result<u32> {
        let limit = self.max_dynamic_shared_memory(device)?;
        if bytes > limit {
            return Err(Error::InvalidParameter(format!(
                "a kernel needs {bytes} bytes of dynamic shared memory per block, GPU {} offers \
                 {limit}",
                device.ordinal()
            )));
        }
        let requested = bytes as u32;
        let mut known = self.shared_memory(device)?;
        if let Some(shared) = known.as_mut() {
            if requested > shared.allowed_dynamic {
                self.function
                    .set_attribute(
                        CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        requested as i32,
                    )
                    .map_err(device.driver_err("raising a kernel's shared memory limit"))?;
                shared.allowed_dynamic = requested;
            }
        }
        Ok(requested)
    }

    /// Whether `device` can run at least one cluster of `cluster_size` blocks of
    /// `threads` threads and `shared` bytes of dynamic shared memory each: a GPU
    /// partition (MIG, MPS limits) may not offer the SMs. A failed query counts as no.
    pub(crate) fn clusters_fit(
        &self,
        device: &impl KernelDevice,
        cluster_size: u32,
        threads: u32,
        shared: usize,
    ) -> Result<bool> {
        let shape = (cluster_size, threads, shared);
        let mut known = self
            .clusters
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(&(_, fits)) = known.iter().find(|(s, _)| *s == shape) {
            return Ok(fits);
        }
        let one_cluster = LaunchConfig {
            grid_dim: (cluster_size, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: self.allow_shared_memory(device, shared)?,
        };
        let active = max_active_clusters(device, self, one_cluster, cluster_size);
        let fits = matches!(active, Ok(n) if n > 0);
        known.push((shape, fits));
        Ok(fits)
    }

    /// Whether the kernel uses local memory on `device` (the machine code the driver
    /// loaded spills registers or keeps a stack): a cost in every loop it touches.
    pub(crate) fn uses_local_memory(&self, device: &impl KernelDevice) -> Result<bool> {
        let bytes = match self.local_memory.get() {
            Some(&bytes) => bytes,
            None => {
                let bytes = self.attribute(
                    device,
                    CUfunction_attribute::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                )?;
                *self.local_memory.get_or_init(|| bytes)
            }
        };
        Ok(bytes > 0)
    }

    /// The most threads a block of this kernel may have (limited by its registers).
    pub(crate) fn max_threads_per_block(&self, device: &impl KernelDevice) -> Result<u32> {
        device.check()?;
        let n = self
            .function
            .max_threads_per_block()
            .map_err(device.driver_err("querying a kernel's thread limit"))?;
        Ok(n.max(0) as u32)
    }
}

/// The driver's configuration of a launch of `config` as clusters of `cluster_size`
/// blocks along x, on the device's stream; `attribute` (which it points to) is
/// filled in.
pub(crate) fn cluster_launch_config(
    device: &impl KernelDevice,
    config: &LaunchConfig,
    cluster_size: u32,
    attribute: &mut CUlaunchAttribute,
) -> Result<CUlaunchConfig> {
    device.bind_context()?;
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
        hStream: device.cu_stream()?,
        attrs: attribute,
        numAttrs: 1,
    })
}

/// An all-zero launch attribute, to be filled by [`cluster_launch_config`].
pub(crate) fn empty_attribute() -> CUlaunchAttribute {
    // SAFETY: an all-zero launch attribute is a valid value of this plain C struct.
    unsafe { std::mem::zeroed() }
}

/// How many clusters of `cluster_size` blocks of `config` the device can run at
/// once (0: such a cluster cannot be scheduled at all, e.g. on a GPU partition with
/// too few SMs, or with too much shared memory per block). The kernel's shared
/// memory limit must already allow `config.shared_mem_bytes`.
fn max_active_clusters(
    device: &impl KernelDevice,
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
