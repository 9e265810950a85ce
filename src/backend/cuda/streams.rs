//! One CUDA stream per thread and GPU: work queued by different threads runs
//! concurrently, work of one thread stays in order.
//!
//! The first GPU operation of a thread creates its stream on that GPU (a
//! [`CudaDevice`] handle sharing the device's context and kernels); the handles are
//! kept in a thread-local list keyed by device ordinal and released by
//! [`release_thread_streams`] or when the thread ends. A stream is destroyed only
//! once the last handle and the last buffer allocated through it are gone, so
//! releasing never races work still queued on it.

use super::CudaDevice;
use crate::error::Result;
use std::cell::RefCell;

thread_local! {
    static THREAD_DEVICES: RefCell<Vec<CudaDevice>> = const { RefCell::new(Vec::new()) };
}

/// The calling thread's handle on `device`: the same GPU, context and kernels, with
/// the thread's own stream, created on first use.
///
/// ```no_run
/// use gpufhe::backend::cuda::{thread_device, CudaDevice};
/// let gpu = CudaDevice::shared(0).unwrap();
/// let mine = thread_device(&gpu).unwrap();
/// assert!(mine.same_device(&gpu));
/// let again = thread_device(&gpu).unwrap(); // the same stream
/// std::thread::spawn(move || {
///     let theirs = thread_device(&gpu).unwrap(); // another stream
///     assert!(theirs.same_device(&mine));
/// })
/// .join()
/// .unwrap();
/// # drop(again);
/// ```
pub fn thread_device(device: &CudaDevice) -> Result<CudaDevice> {
    let found = THREAD_DEVICES
        .try_with(|list| {
            list.try_borrow()
                .ok()
                .and_then(|list| list.iter().find(|d| d.same_device(device)).cloned())
        })
        .ok()
        .flatten();
    if let Some(mine) = found {
        return Ok(mine);
    }
    let mine = device.with_new_stream()?;
    // While the thread is ending (its list already destroyed) the handle serves this
    // call only; otherwise it replaces any handle on another opening of this GPU.
    let _ = THREAD_DEVICES.try_with(|list| {
        if let Ok(mut list) = list.try_borrow_mut() {
            list.retain(|d| d.ordinal() != mine.ordinal());
            list.push(mine.clone());
        }
    });
    Ok(mine)
}

/// Releases the calling thread's streams (a later GPU operation creates new ones).
/// [`crate::unset_server_key`] calls it.
pub fn release_thread_streams() {
    let released = THREAD_DEVICES
        .try_with(|list| {
            list.try_borrow_mut()
                .map(|mut list| std::mem::take(&mut *list))
                .unwrap_or_default()
        })
        .unwrap_or_default();
    // Dropped outside the borrow: destroying a stream never reenters this module.
    drop(released);
}

/// The number of streams the calling thread holds (for tests).
#[doc(hidden)]
pub fn thread_stream_count() -> usize {
    THREAD_DEVICES
        .try_with(|list| list.try_borrow().map_or(0, |l| l.len()))
        .unwrap_or(0)
}
