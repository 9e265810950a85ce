//! A loaded kernel with what is known of its limits (shared memory, clusters),
//! queried of the driver once.

use super::launch::max_active_clusters;
use super::CudaDevice;
use crate::error::{Error, Result};
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, LaunchConfig};
use std::sync::Mutex;

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
        }
    }

    fn attribute(&self, device: &CudaDevice, attribute: CUfunction_attribute) -> Result<u32> {
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
        device: &CudaDevice,
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
    pub(crate) fn max_dynamic_shared_memory(&self, device: &CudaDevice) -> Result<usize> {
        let fixed = self.shared_memory(device)?.map_or(0, |s| s.fixed);
        let limit = device.attributes().max_shared_memory_per_block;
        Ok(limit.saturating_sub(fixed) as usize)
    }

    /// Allows launches with `bytes` of dynamic shared memory (raising the kernel's
    /// limit when needed), or `Err` if the device has less.
    pub(crate) fn allow_shared_memory(&self, device: &CudaDevice, bytes: usize) -> Result<u32> {
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
        device: &CudaDevice,
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

    /// The most threads a block of this kernel may have (limited by its registers).
    pub(crate) fn max_threads_per_block(&self, device: &CudaDevice) -> Result<u32> {
        device.check()?;
        let n = self
            .function
            .max_threads_per_block()
            .map_err(device.driver_err("querying a kernel's thread limit"))?;
        Ok(n.max(0) as u32)
    }
}
