//! Keyswitching keys in the memory of one GPU ([`CudaKeyswitchKey`]), the twin of
//! [`crate::core_crypto::LweKeyswitchKey`].

use crate::backend::cuda::driver::health::DeviceObject;
use crate::backend::cuda::CudaDevice;
use crate::core_crypto::{KeyswitchKeyShape, LweKeyswitchKey};
use crate::error::{check_eq, Error, Result};
use cudarc::driver::CudaSlice;

/// A keyswitching key in the memory of one GPU.
#[derive(Debug)]
pub struct CudaKeyswitchKey {
    pub(crate) data: DeviceObject<CudaSlice<u64>>,
    pub(crate) shape: KeyswitchKeyShape,
    pub(crate) device: CudaDevice,
}

/// Threads may bootstrap or keyswitch with one key on their own streams: before
/// its memory is freed, every stream's work must be done.
impl Drop for CudaKeyswitchKey {
    fn drop(&mut self) {
        self.device.wait_for_every_stream();
    }
}

impl CudaKeyswitchKey {
    /// Copies a keyswitching key to `device`.
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::*;
    /// use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};
    /// let gpu = CudaDevice::new(0).unwrap();
    /// let sk = ServerKey::new(&ClientKey::new(DEFAULT_PARAMETERS).unwrap()).unwrap();
    /// let ksk = CudaKeyswitchKey::from_cpu(&gpu, sk.keyswitch_key()).unwrap();
    /// assert_eq!(ksk.shape(), DEFAULT_PARAMETERS.keyswitch_key_shape());
    /// ```
    pub fn from_cpu(device: &CudaDevice, key: &LweKeyswitchKey) -> Result<Self> {
        let shape = key.shape();
        check_eq(
            "length of the keyswitching key",
            shape.ciphertext_count() * (shape.output_lwe_dimension.0 + 1),
            key.as_slice().len(),
        )?;
        if shape.base_log.0 >= 64 || shape.base_log.0 * shape.level.0 > 64 || shape.level.0 == 0 {
            return Err(Error::InvalidParameter(format!(
                "GPU keyswitches need 1 <= level and base_log * level <= 64 with base_log < 64, \
                 not 2^{} with {} levels",
                shape.base_log.0, shape.level.0
            )));
        }
        device.check_free_memory(std::mem::size_of_val(key.as_slice()))?;
        let data = device
            .stream()?
            .clone_htod(key.as_slice())
            .map_err(device.driver_err("copying the keyswitching key to the GPU"))?;
        Ok(Self {
            data: device.object(data),
            shape,
            device: device.clone(),
        })
    }

    /// The key's dimensions and decomposition.
    pub fn shape(&self) -> KeyswitchKeyShape {
        self.shape
    }

    /// The device the key lives on.
    pub fn device(&self) -> &CudaDevice {
        &self.device
    }
}
