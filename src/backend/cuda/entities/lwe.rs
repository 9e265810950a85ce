//! Lists of LWE ciphertexts in the memory of one GPU ([`CudaLweCiphertextList`]), the
//! twin of [`crate::core_crypto::LweCiphertextList`].

use crate::backend::cuda::driver::health::DeviceObject;
use crate::backend::cuda::driver::read_tracking::ReadTracked;
use crate::backend::cuda::CudaDevice;
use crate::core_crypto::{LweCiphertextCount, LweCiphertextList, LweCiphertextListOwned, LweSize};
use crate::error::{check_eq, Error, Result};
use cudarc::driver::CudaView;

/// A list of LWE ciphertexts of one size in the memory of one GPU.
#[derive(Debug)]
pub struct CudaLweCiphertextList {
    /// Read on any stream of its GPU: a write or the drop waits for every reader.
    pub(crate) data: DeviceObject<ReadTracked<u64>>,
    pub(crate) lwe_size: LweSize,
    pub(crate) count: LweCiphertextCount,
    pub(crate) device: CudaDevice,
}

impl CudaLweCiphertextList {
    /// Copies a CPU list to `device`.
    pub fn from_cpu<C: AsRef<[u64]>>(
        device: &CudaDevice,
        list: &LweCiphertextList<C>,
    ) -> Result<Self> {
        let host = list.as_slice();
        if host.is_empty() {
            return Self::new_zero(device, list.lwe_size(), list.count());
        }
        device.check_free_memory(std::mem::size_of_val(host))?;
        let data = device
            .stream()?
            .clone_htod(host)
            .map_err(device.driver_err("copying ciphertexts to the GPU"))?;
        Ok(Self {
            data: device.object(ReadTracked::new(data)),
            lwe_size: list.lwe_size(),
            count: list.count(),
            device: device.clone(),
        })
    }

    /// A list of `count` ciphertexts of size `lwe_size`, all zero, on `device`.
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::*;
    /// use gpufhe::core_crypto::{LweCiphertextCount, LweSize};
    /// let gpu = CudaDevice::new(0).unwrap();
    /// let list = CudaLweCiphertextList::new_zero(&gpu, LweSize(3), LweCiphertextCount(2)).unwrap();
    /// assert_eq!(list.to_cpu().unwrap().as_slice(), &[0; 6]);
    /// ```
    pub fn new_zero(
        device: &CudaDevice,
        lwe_size: LweSize,
        count: LweCiphertextCount,
    ) -> Result<Self> {
        let len = lwe_size.0.checked_mul(count.0).ok_or_else(|| {
            crate::Error::InvalidParameter(format!(
                "{} ciphertexts of size {} overflow the address space",
                count.0, lwe_size.0
            ))
        })?;
        device.check_free_memory(len.saturating_mul(8))?;
        // An empty list still holds one coefficient: allocations (and frees) of zero
        // bytes are not guaranteed to succeed, and a failed free in a destructor
        // would be reported by whatever CUDA call comes next.
        let data = device
            .stream()?
            .alloc_zeros(len.max(1))
            .map_err(device.driver_err("allocating ciphertexts on the GPU"))?;
        Ok(Self {
            data: device.object(ReadTracked::new(data)),
            lwe_size,
            count,
            device: device.clone(),
        })
    }

    /// The coefficients on the device (reads record their stream).
    pub(crate) fn data(&self) -> &ReadTracked<u64> {
        &self.data
    }

    /// The coefficients on the device, mutably (writes wait for every reader).
    pub(crate) fn data_mut(&mut self) -> &mut ReadTracked<u64> {
        &mut self.data
    }

    /// Copies the list back to the CPU.
    pub fn to_cpu(&self) -> Result<LweCiphertextListOwned> {
        self.range_to_cpu(&self.device, 0, self.count.0)
    }

    /// Copies ciphertexts `start .. start + count` back to the CPU through the stream
    /// of `device` (a handle on this list's GPU).
    pub(crate) fn range_to_cpu(
        &self,
        device: &CudaDevice,
        start: usize,
        count: usize,
    ) -> Result<LweCiphertextListOwned> {
        device.check_same("GPU of the copied list", &self.device)?;
        let view = self.coefficients(start, count)?;
        let host = if count == 0 {
            Vec::new()
        } else {
            device
                .stream()?
                .clone_dtoh(&view)
                .map_err(device.driver_err("copying ciphertexts from the GPU"))?
        };
        LweCiphertextList::from_container(host, self.lwe_size)
    }

    /// Copies every ciphertext of `source` into this list from position `at` on,
    /// through the stream of `device` (a handle on both lists' GPU).
    pub(crate) fn copy_into_range(
        &mut self,
        device: &CudaDevice,
        at: usize,
        source: &CudaLweCiphertextList,
    ) -> Result<()> {
        device.check_same("GPU of the copy destination", &self.device)?;
        device.check_same("GPU of the copy source", &source.device)?;
        check_eq(
            "LWE size of the copy source",
            self.lwe_size.0,
            source.lwe_size.0,
        )?;
        let count = source.count.0;
        if count == 0 {
            return Ok(());
        }
        let size = self.lwe_size.0;
        let range = at
            .checked_add(count)
            .filter(|&end| end <= self.count.0)
            .map(|end| at * size..end * size)
            .ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "ciphertexts {at}..{at}+{count} do not fit a list of {}",
                    self.count.0
                ))
            })?;
        let stream = device.stream()?;
        let mut destination = self
            .data
            .slice_mut_for(device)?
            .try_slice_mut(range)
            .ok_or_else(|| {
                Error::InvalidParameter("internal: a copy range outside its list".into())
            })?;
        stream
            .memcpy_dtod(source.data.slice(), &mut destination)
            .map_err(device.driver_err("copying ciphertexts on the GPU"))?;
        source.data.record_read(device)
    }

    /// The coefficients of ciphertexts `start .. start + count`.
    fn coefficients(&self, start: usize, count: usize) -> Result<CudaView<'_, u64>> {
        let size = self.lwe_size.0;
        start
            .checked_add(count)
            .filter(|&end| end <= self.count.0)
            .and_then(|end| self.data.slice().try_slice(start * size..end * size))
            .ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "ciphertexts {start}..{start}+{count} requested from a list of {}",
                    self.count.0
                ))
            })
    }

    /// The size of each ciphertext.
    pub fn lwe_size(&self) -> LweSize {
        self.lwe_size
    }

    /// The number of ciphertexts.
    pub fn count(&self) -> LweCiphertextCount {
        self.count
    }

    /// The device the list lives on.
    pub fn device(&self) -> &CudaDevice {
        &self.device
    }
}
