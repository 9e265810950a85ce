//! Lists of GLWE ciphertexts in the memory of one GPU ([`CudaGlweCiphertextList`]),
//! the twin of a list of [`crate::core_crypto::GlweCiphertext`]s: what the
//! bootstraps rotate (their accumulators).

use crate::backend::cuda::driver::health::DeviceObject;
use crate::backend::cuda::driver::read_tracking::ReadTracked;
use crate::backend::cuda::CudaDevice;
use crate::core_crypto::{GlweCiphertext, GlweCiphertextCount, GlweSize, PolynomialSize};
use crate::error::{check_eq, Error, Result};

/// GLWE ciphertexts of one shape in the memory of one GPU: `(k + 1)` polynomials of
/// `N` coefficients each, mask polynomials first, one ciphertext after the other.
#[derive(Debug)]
pub struct CudaGlweCiphertextList {
    /// Read by the bootstraps of any stream: the drop waits for every reader.
    data: DeviceObject<ReadTracked<u64>>,
    glwe_size: GlweSize,
    polynomial_size: PolynomialSize,
    count: GlweCiphertextCount,
    device: CudaDevice,
}

impl CudaGlweCiphertextList {
    /// Copies `ciphertexts` (at least one, all of the first one's shape) to `device`.
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::{CudaDevice, CudaGlweCiphertextList};
    /// use gpufhe::core_crypto::{GlweCiphertext, GlweCiphertextCount, GlweSize, PolynomialSize};
    /// let gpu = CudaDevice::new(0).unwrap();
    /// let acc = GlweCiphertext::from_container(vec![0u64; 2 * 256], PolynomialSize(256)).unwrap();
    /// let list = CudaGlweCiphertextList::from_cpu(&gpu, [&acc, &acc]).unwrap();
    /// assert_eq!((list.count(), list.glwe_size()), (GlweCiphertextCount(2), GlweSize(2)));
    /// ```
    pub fn from_cpu<'a, C: AsRef<[u64]> + 'a>(
        device: &CudaDevice,
        ciphertexts: impl IntoIterator<Item = &'a GlweCiphertext<C>>,
    ) -> Result<Self> {
        let mut shape = None;
        let mut host = Vec::new();
        let mut count = 0;
        for ct in ciphertexts {
            let (glwe_size, polynomial_size) =
                *shape.get_or_insert((ct.glwe_size(), ct.polynomial_size()));
            check_eq(
                "polynomial size of a GLWE ciphertext",
                polynomial_size.0,
                ct.polynomial_size().0,
            )?;
            check_eq(
                "GLWE size of a GLWE ciphertext",
                glwe_size.0,
                ct.glwe_size().0,
            )?;
            host.extend_from_slice(ct.as_slice());
            count += 1;
        }
        let Some((glwe_size, polynomial_size)) = shape else {
            return Err(Error::InvalidParameter(
                "a GLWE ciphertext list needs at least one ciphertext".into(),
            ));
        };
        device.check_free_memory(std::mem::size_of_val(host.as_slice()))?;
        let data = device
            .stream()?
            .clone_htod(&host)
            .map_err(device.driver_err("copying GLWE ciphertexts to the GPU"))?;
        Ok(Self {
            data: device.object(ReadTracked::new(data)),
            glwe_size,
            polynomial_size,
            count: GlweCiphertextCount(count),
            device: device.clone(),
        })
    }

    /// The number of ciphertexts.
    pub fn count(&self) -> GlweCiphertextCount {
        self.count
    }

    /// `k + 1`.
    pub fn glwe_size(&self) -> GlweSize {
        self.glwe_size
    }

    /// `N`.
    pub fn polynomial_size(&self) -> PolynomialSize {
        self.polynomial_size
    }

    /// The device the ciphertexts live on.
    pub fn device(&self) -> &CudaDevice {
        &self.device
    }

    /// The coefficients on the device (reads record their stream).
    pub(crate) fn data(&self) -> &ReadTracked<u64> {
        &self.data
    }
}
