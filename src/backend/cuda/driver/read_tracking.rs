//! Reads of one device buffer from several streams.
//!
//! cudarc orders the uses of a `CudaSlice` across streams with two events per
//! buffer: a read waits for the last write, a write or a free waits for the last
//! read. "The last read" is one event, recorded again by every reader, so a buffer
//! read on streams A and then B, then written or freed, waits for B only: A's kernel
//! may still be reading. [`ReadTracked`] keeps one event per stream that read the
//! buffer, and a write or the drop waits for all of them.

use crate::backend::cuda::CudaDevice;
use crate::error::Result;
use cudarc::driver::sys::{CUdeviceptr, CUevent_flags};
use cudarc::driver::{
    CudaEvent, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, DeviceRepr, DriverError, SyncOnDrop,
};
use std::sync::{Arc, Mutex, MutexGuard};

/// A device buffer with an event per stream that read it, recorded after its last
/// read there.
#[derive(Debug)]
pub(crate) struct ReadTracked<T: DeviceRepr> {
    slice: CudaSlice<T>,
    /// (stream handle, event recorded on it after its last read of `slice`).
    readers: Mutex<Vec<(usize, CudaEvent)>>,
}

/// Access to a [`ReadTracked`] buffer for reading on one stream: when dropped (after
/// the reading work was queued) it records the stream's read event.
#[must_use = "the read is recorded when the guard is dropped, after the work is queued"]
pub(crate) struct ReadGuard<'a, T: DeviceRepr> {
    buffer: &'a ReadTracked<T>,
    stream: &'a Arc<CudaStream>,
    _cudarc: SyncOnDrop<'a>,
}

impl<T: DeviceRepr> ReadTracked<T> {
    pub(crate) fn new(slice: CudaSlice<T>) -> Self {
        Self {
            slice,
            readers: Mutex::new(Vec::new()),
        }
    }

    /// The buffer, for its length and for reads that record themselves with
    /// [`ReadTracked::record_read`].
    pub(crate) fn slice(&self) -> &CudaSlice<T> {
        &self.slice
    }

    /// The device address for work queued on `stream` that reads the buffer; the
    /// guard records the read when dropped, so keep it until the work is queued.
    pub(crate) fn read_ptr<'a>(
        &'a self,
        stream: &'a Arc<CudaStream>,
    ) -> (CUdeviceptr, ReadGuard<'a, T>) {
        let (ptr, guard) = self.slice.device_ptr(stream);
        let guard = ReadGuard {
            buffer: self,
            stream,
            _cudarc: guard,
        };
        (ptr, guard)
    }

    /// Records that work just queued on `device`'s stream reads the buffer.
    pub(crate) fn record_read(&self, device: &CudaDevice) -> Result<()> {
        self.record(device.stream()?)
            .map_err(device.driver_err("recording a read of a GPU buffer"))
    }

    fn record(&self, stream: &CudaStream) -> std::result::Result<(), DriverError> {
        let key = stream.cu_stream() as usize;
        let mut readers = self.readers();
        if let Some((_, event)) = readers.iter().find(|(k, _)| *k == key) {
            return event.record(stream);
        }
        let event = stream.record_event(Some(CUevent_flags::CU_EVENT_DISABLE_TIMING))?;
        readers.push((key, event));
        Ok(())
    }

    /// Makes `device`'s stream wait for every read recorded on another stream,
    /// before work queued on it writes the buffer. Those reads are then ordered
    /// before the write, and before whatever waits for the write.
    pub(crate) fn wait_for_readers(&self, device: &CudaDevice) -> Result<()> {
        let stream = device.stream()?;
        let key = stream.cu_stream() as usize;
        let mut readers = self.readers();
        for (_, event) in readers.iter().filter(|(k, _)| *k != key) {
            stream
                .wait(event)
                .map_err(device.driver_err("waiting for the readers of a GPU buffer"))?;
        }
        readers.clear();
        Ok(())
    }

    /// The buffer for work queued on `device`'s stream that writes it (after every
    /// reader).
    pub(crate) fn slice_mut_for(&mut self, device: &CudaDevice) -> Result<&mut CudaSlice<T>> {
        self.wait_for_readers(device)?;
        Ok(&mut self.slice)
    }

    /// The device address for work queued on `device`'s stream that writes the
    /// buffer, after every reader; cudarc records the write when the guard is dropped.
    pub(crate) fn write_ptr<'a>(
        &'a mut self,
        device: &'a CudaDevice,
    ) -> Result<(CUdeviceptr, SyncOnDrop<'a>)> {
        self.wait_for_readers(device)?;
        Ok(self.slice.device_ptr_mut(device.stream()?))
    }

    // A panic while the lock was held leaves a list of valid events.
    fn readers(&self) -> MutexGuard<'_, Vec<(usize, CudaEvent)>> {
        self.readers.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<T: DeviceRepr> Drop for ReadGuard<'_, T> {
    /// No caller to return an error to: the context reports it on its next call, as
    /// cudarc does with its own events.
    fn drop(&mut self) {
        let result = self.buffer.record(self.stream);
        self.stream.context().record_err(result);
    }
}

impl<T: DeviceRepr> Drop for ReadTracked<T> {
    /// The buffer is freed in the order of its own stream: that stream first waits
    /// for every reader (errors are the context's to report, as cudarc does).
    fn drop(&mut self) {
        let stream = self.slice.stream().clone();
        let readers = std::mem::take(&mut *self.readers());
        for (_, event) in &readers {
            stream.context().record_err(stream.wait(event));
        }
    }
}
