//! Sticky device errors, and opening a GPU again after one.
//!
//! Some faults (an illegal address, a failed launch, an uncorrectable ECC error, ...)
//! leave a GPU's primary context unusable: every later call on it in this process
//! fails with the same error, until the context is reset. The process's use of a GPU
//! is cut into *openings*: the first sticky error seen on a device marks its current
//! opening lost, and from then on everything of that opening ([`crate::backend::cuda::CudaDevice`]
//! handles, keys, ciphertext lists) fails with [`Error::DeviceLost`] before calling
//! the driver. Opening the device again ([`crate::backend::cuda::CudaDevice::new`], or
//! [`crate::backend::cuda::CudaDevice::shared`], which the high-level keys use) resets the primary
//! context, which frees everything the lost opening held, and begins a new opening.
//!
//! The driver objects of a lost opening are never used again, not even by their
//! destructors: after the reset their handles may name objects of the new opening.
//! [`DeviceObject`] leaks them instead (their device memory went with the reset).

use crate::error::{Error, Result};
use cudarc::driver::sys::CUresult;
use cudarc::driver::DriverError;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Whether `code` leaves the context unusable for the rest of the process (the
/// errors that the CUDA documentation says corrupt the context).
pub(crate) fn is_sticky(code: CUresult) -> bool {
    use CUresult::*;
    matches!(
        code,
        CUDA_ERROR_ILLEGAL_ADDRESS
            | CUDA_ERROR_LAUNCH_FAILED
            | CUDA_ERROR_LAUNCH_TIMEOUT
            | CUDA_ERROR_HARDWARE_STACK_ERROR
            | CUDA_ERROR_ILLEGAL_INSTRUCTION
            | CUDA_ERROR_MISALIGNED_ADDRESS
            | CUDA_ERROR_INVALID_ADDRESS_SPACE
            | CUDA_ERROR_INVALID_PC
            | CUDA_ERROR_ECC_UNCORRECTABLE
            | CUDA_ERROR_ASSERT
    )
}

/// The openings of one GPU in this process.
#[derive(Debug)]
struct Health {
    ordinal: usize,
    /// `opening << 1 | lost`: the current opening (0, then one more per reset) and
    /// whether it was lost.
    state: AtomicU64,
    /// Why each lost opening was lost, by opening.
    causes: Mutex<Vec<String>>,
}

/// The openings of GPU `ordinal`.
fn health(ordinal: usize) -> Arc<Health> {
    static DEVICES: Mutex<Vec<Arc<Health>>> = Mutex::new(Vec::new());
    let mut devices = DEVICES.lock().unwrap_or_else(PoisonError::into_inner);
    while devices.len() <= ordinal {
        let next = devices.len();
        devices.push(Arc::new(Health {
            ordinal: next,
            state: AtomicU64::new(0),
            causes: Mutex::new(Vec::new()),
        }));
    }
    devices[ordinal].clone()
}

/// One opening of a GPU's primary context (see the module's documentation).
#[derive(Debug, Clone)]
pub(crate) struct Opening {
    health: Arc<Health>,
    opening: u64,
}

impl Opening {
    /// The current opening of GPU `ordinal`; if it was lost, the device's primary
    /// context is reset first (freeing everything of the lost opening) and a new
    /// opening begins.
    pub(crate) fn begin(ordinal: usize) -> Result<Self> {
        let health = health(ordinal);
        // One reset per loss, whichever threads reopen the device at once.
        static RESETTING: Mutex<()> = Mutex::new(());
        let _resetting = RESETTING.lock().unwrap_or_else(PoisonError::into_inner);
        let state = health.state.load(Ordering::Acquire);
        if state & 1 == 1 {
            reset_primary_context(ordinal)?;
            // (opening << 1 | 1) + 1 == (opening + 1) << 1: the next one, not lost.
            health.state.store(state + 1, Ordering::Release);
        }
        let opening = health.state.load(Ordering::Acquire) >> 1;
        Ok(Self { health, opening })
    }

    /// Whether this opening was lost (the device may have been reset since).
    pub(crate) fn is_lost(&self) -> bool {
        self.health.state.load(Ordering::Acquire) != self.opening << 1
    }

    /// `Err(DeviceLost)` once this opening is lost.
    pub(crate) fn check(&self) -> Result<()> {
        if self.is_lost() {
            Err(self.lost())
        } else {
            Ok(())
        }
    }

    /// The error for a failed driver call of this opening during `context`:
    /// [`Error::DeviceLost`] for a sticky error (which marks the opening lost) or
    /// for any error once it is lost, else as [`cuda_err`].
    pub(crate) fn driver_error(&self, context: &'static str, e: DriverError) -> Error {
        if is_sticky(e.0) {
            self.mark_lost(format!("{e} during {context}"));
        }
        if self.is_lost() {
            self.lost()
        } else {
            cuda_err(context)(e)
        }
    }

    /// Marks this opening lost (unless it already is), because of `cause`.
    fn mark_lost(&self, cause: String) {
        let mut causes = self.lock_causes();
        let working = self.opening << 1;
        if self
            .health
            .state
            .compare_exchange(working, working | 1, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            causes.resize(self.opening as usize + 1, String::new());
            causes[self.opening as usize] = cause;
        }
    }

    /// [`Error::DeviceLost`] for this opening.
    fn lost(&self) -> Error {
        let cause = self
            .lock_causes()
            .get(self.opening as usize)
            .cloned()
            .unwrap_or_default();
        let reset = if self.health.state.load(Ordering::Acquire) >> 1 > self.opening {
            "the device was reset since"
        } else {
            "opening the device again resets it"
        };
        Error::DeviceLost {
            device: self.health.ordinal,
            message: format!(
                "{cause}; its keys and ciphertexts are gone ({reset}: make a new GPU key \
                 the usual way, ciphertexts on the CPU are unaffected)"
            ),
        }
    }

    fn lock_causes(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.health
            .causes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// `cuDevicePrimaryCtxReset` on GPU `ordinal`.
fn reset_primary_context(ordinal: usize) -> Result<()> {
    use cudarc::driver::{result, sys};
    let context = "resetting a GPU after a sticky error";
    let device = result::device::get(ordinal as i32).map_err(cuda_err(context))?;
    // SAFETY: `device` comes from cuDeviceGet. The reset destroys every object of
    // the device's primary context in this process: only objects of the lost
    // opening, which are never used or destroyed afterwards (`DeviceObject`).
    unsafe { sys::cuDevicePrimaryCtxReset_v2(device) }
        .result()
        .map_err(cuda_err(context))
}

/// A driver object (buffer, stream, module, ...) of one opening: dropped as usual
/// while the opening works, leaked once it is lost, so that its destructor never
/// calls the driver with a handle that the reset invalidated (or gave to a new
/// object); the reset frees its device memory.
#[derive(Debug, Clone)]
pub(crate) struct DeviceObject<T> {
    value: ManuallyDrop<T>,
    opening: Opening,
}

impl<T> DeviceObject<T> {
    pub(crate) fn new(value: T, opening: &Opening) -> Self {
        Self {
            value: ManuallyDrop::new(value),
            opening: opening.clone(),
        }
    }
}

impl<T> Deref for DeviceObject<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for DeviceObject<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl<T> Drop for DeviceObject<T> {
    fn drop(&mut self) {
        if !self.opening.is_lost() {
            // SAFETY: `value` is dropped once, here, and never used again.
            unsafe { ManuallyDrop::drop(&mut self.value) }
        }
    }
}

/// Turns a driver error into [`Error::Cuda`] with what was being done
/// ([`Error::OutOfDeviceMemory`] when the driver ran out of memory).
pub(crate) fn cuda_err(context: &'static str) -> impl FnOnce(cudarc::driver::DriverError) -> Error {
    move |e| {
        if e.0 == cudarc::driver::sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
            Error::OutOfDeviceMemory(format!("{context}: {e}"))
        } else {
            Error::Cuda {
                context,
                message: e.to_string(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// An opening of an ordinal no other test uses (no driver is called: it was
    /// never lost, so nothing is reset).
    fn opening(ordinal: usize) -> Opening {
        Opening::begin(ordinal).unwrap()
    }

    // (Driver errors are not formatted here: their text comes from the driver.)
    #[test]
    fn a_lost_opening_fails_every_check_with_its_first_cause() {
        let gpu = opening(200);
        assert!(!gpu.is_lost() && gpu.check().is_ok());
        gpu.mark_lost("CUDA_ERROR_ILLEGAL_ADDRESS during launching the bootstrap".into());
        // Every handle of the opening is lost; a later cause does not replace the first.
        let other = gpu.clone();
        other.mark_lost("CUDA_ERROR_LAUNCH_FAILED during copying".into());
        assert!(other.is_lost());
        let err = other.check().unwrap_err();
        let Error::DeviceLost { device, message } = &err else {
            panic!("{err}")
        };
        assert_eq!(*device, 200);
        assert!(
            message.starts_with("CUDA_ERROR_ILLEGAL_ADDRESS during launching the bootstrap"),
            "{message}"
        );
        assert!(
            message.contains("opening the device again resets it"),
            "{message}"
        );
        assert_eq!(gpu.check().unwrap_err(), err);
    }

    #[test]
    fn objects_of_a_lost_opening_are_leaked() {
        static DROPPED: AtomicUsize = AtomicUsize::new(0);
        struct Counted;
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPPED.fetch_add(1, Ordering::Relaxed);
            }
        }
        let gpu = opening(201);
        drop(DeviceObject::new(Counted, &gpu));
        assert_eq!(DROPPED.load(Ordering::Relaxed), 1);
        let kept = DeviceObject::new(Counted, &gpu);
        gpu.mark_lost("a launch failed".into());
        drop(kept);
        assert_eq!(DROPPED.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn the_sticky_codes() {
        use CUresult::*;
        for code in [
            CUDA_ERROR_ILLEGAL_ADDRESS,
            CUDA_ERROR_LAUNCH_FAILED,
            CUDA_ERROR_HARDWARE_STACK_ERROR,
            CUDA_ERROR_ILLEGAL_INSTRUCTION,
            CUDA_ERROR_MISALIGNED_ADDRESS,
            CUDA_ERROR_INVALID_PC,
            CUDA_ERROR_ECC_UNCORRECTABLE,
        ] {
            assert!(is_sticky(code), "{code:?}");
        }
        for code in [
            CUDA_SUCCESS,
            CUDA_ERROR_OUT_OF_MEMORY,
            CUDA_ERROR_INVALID_VALUE,
            CUDA_ERROR_INVALID_HANDLE,
            CUDA_ERROR_NOT_READY,
        ] {
            assert!(!is_sticky(code), "{code:?}");
        }
    }
}
