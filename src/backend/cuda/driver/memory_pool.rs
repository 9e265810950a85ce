//! The stream-ordered allocator's memory pool of a device: the default pool, which
//! every allocation of this crate comes from (cudarc allocates with
//! `cuMemAllocAsync` where the device has pools), kept mapped between steps.
//!
//! A pool gives its unused memory back to the OS at the next synchronization once
//! it holds more than its release threshold, which is 0 by default: every step of a
//! circuit (one `eval`, which synchronizes at its end) would map its buffers again
//! (about ten allocations per integer layer; multi-bit key bundles of 15 MB to
//! 2 GiB). A device opened by this crate sets the threshold to the maximum, so freed
//! buffers stay mapped for the next step. The driver's free memory (`cuMemGetInfo`)
//! then no longer counts them: the free-memory checks and the memory budgets add
//! what the pool holds unused ([`MemoryPool::unused_bytes`]), and a step that still
//! runs out of memory gives it back ([`MemoryPool::trim`]) before trying smaller.

use cudarc::driver::result::{device, mem_pool};
use cudarc::driver::sys::{CUdevice, CUmemPool_attribute, CUmemoryPool};
use cudarc::driver::DriverError;

/// The default memory pool of one device.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MemoryPool(CUmemoryPool);

// SAFETY: a driver handle, only passed to the driver's pool functions, which may be
// called from any thread.
unsafe impl Send for MemoryPool {}
// SAFETY: as above; the handle is never dereferenced here.
unsafe impl Sync for MemoryPool {}

impl MemoryPool {
    /// The default pool of `device` (a handle from `cuDeviceGet`).
    pub(crate) fn of(device: CUdevice) -> Result<Self, DriverError> {
        // SAFETY: `device` is a device handle of the initialised driver; the call
        // writes one pool handle.
        unsafe { device::get_default_mem_pool(device) }.map(Self)
    }

    /// Sets the release threshold to the maximum: the pool keeps what it maps until
    /// [`MemoryPool::trim`] (or the process ends).
    pub(crate) fn keep_mapped(self) -> Result<(), DriverError> {
        let mut threshold = u64::MAX;
        // SAFETY: a pool of this driver; the release threshold is a cuuint64_t, which
        // `threshold` is, alive for the call.
        unsafe {
            mem_pool::set_attribute(
                self.0,
                CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                (&mut threshold as *mut u64).cast(),
            )
        }
    }

    /// Bytes the pool holds mapped but unused: free for this process's next
    /// allocations, though the driver's free memory does not count them.
    pub(crate) fn unused_bytes(self) -> Result<u64, DriverError> {
        use CUmemPool_attribute::*;
        let reserved = self.attribute(CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)?;
        let used = self.attribute(CU_MEMPOOL_ATTR_USED_MEM_CURRENT)?;
        Ok(reserved.saturating_sub(used))
    }

    /// Gives the unused memory back to the OS (what frees not yet reached by their
    /// stream hold stays: synchronize first).
    pub(crate) fn trim(self) -> Result<(), DriverError> {
        // SAFETY: a pool of this driver; trimming only releases unused memory.
        unsafe { mem_pool::trim_to(self.0, 0) }
    }

    fn attribute(self, attribute: CUmemPool_attribute) -> Result<u64, DriverError> {
        let mut value = 0u64;
        // SAFETY: a pool of this driver; the attributes read here are cuuint64_t,
        // written through a pointer to `value`, alive for the call.
        unsafe { mem_pool::get_attribute(self.0, attribute, (&mut value as *mut u64).cast()) }?;
        Ok(value)
    }
}
