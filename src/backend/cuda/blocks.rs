//! Blocks in the memory of one GPU ([`CudaBlocks`]): what the CUDA backend's steps
//! take and give.

use crate::backend::cuda::{CudaDevice, CudaLweCiphertextList};
use crate::backend::BlockInfo;
use crate::core_crypto::{LweCiphertextList, LweCiphertextOwned};
use crate::error::{check_eq, Error, Result};
use crate::shortint::{Ciphertext, ShortintParameters};
use std::sync::Arc;

/// Blocks in the memory of one GPU: a range of a device list (shared, never written
/// again, so cloning and splitting copy nothing) and the bookkeeping of each block.
#[derive(Debug, Clone)]
pub struct CudaBlocks {
    pub(super) list: Arc<CudaLweCiphertextList>,
    pub(super) start: usize,
    pub(super) infos: Vec<BlockInfo>,
    pub(super) message_modulus: u64,
    pub(super) carry_modulus: u64,
}

impl CudaBlocks {
    /// Copies `blocks` to `device` (all with the moduli and LWE size of the first).
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::{CudaBlocks, CudaDevice};
    /// use gpufhe::shortint::{ClientKey, DEFAULT_PARAMETERS};
    /// let gpu = CudaDevice::shared(0).unwrap();
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    /// let blocks = vec![ck.encrypt(1).unwrap(), ck.encrypt(2).unwrap()];
    /// let on_gpu = CudaBlocks::from_cpu(&gpu, &blocks).unwrap();
    /// assert_eq!(on_gpu.to_cpu().unwrap(), blocks);
    /// ```
    pub fn from_cpu(device: &CudaDevice, blocks: &[Ciphertext]) -> Result<Self> {
        let (message_modulus, carry_modulus, size) = match blocks.first() {
            Some(b) => (
                b.message_modulus(),
                b.carry_modulus(),
                b.as_lwe().lwe_size(),
            ),
            None => {
                return Err(Error::InvalidParameter(
                    "no blocks to copy to the GPU".into(),
                ))
            }
        };
        let mut coefficients = Vec::with_capacity(blocks.len() * size.0);
        for b in blocks {
            check_eq(
                "message modulus of a block",
                message_modulus as usize,
                b.message_modulus() as usize,
            )?;
            check_eq(
                "carry modulus of a block",
                carry_modulus as usize,
                b.carry_modulus() as usize,
            )?;
            b.as_lwe().check_size("LWE size of a block", size)?;
            coefficients.extend_from_slice(b.as_lwe().as_slice());
        }
        let host = LweCiphertextList::from_container(coefficients, size)?;
        let list = CudaLweCiphertextList::from_cpu(device, &host)?;
        device.synchronize()?;
        Ok(Self {
            list: Arc::new(list),
            start: 0,
            infos: blocks
                .iter()
                .map(|b| BlockInfo {
                    degree: b.degree(),
                    noise_level: b.noise_level(),
                })
                .collect(),
            message_modulus,
            carry_modulus,
        })
    }

    /// `Err` unless the blocks have the moduli and LWE size of `parameters`.
    pub fn check_parameters(&self, parameters: &ShortintParameters) -> Result<()> {
        check_eq(
            "message modulus of a block",
            parameters.message_modulus as usize,
            self.message_modulus as usize,
        )?;
        check_eq(
            "carry modulus of a block",
            parameters.carry_modulus as usize,
            self.carry_modulus as usize,
        )?;
        check_eq(
            "LWE size of a block",
            parameters.big_lwe_dimension().to_lwe_size().0,
            self.list.lwe_size().0,
        )
    }

    /// Copies the blocks back to the CPU (on the stream that allocated them).
    pub fn to_cpu(&self) -> Result<Vec<Ciphertext>> {
        let host = self
            .list
            .range_to_cpu(self.list.device(), self.start, self.len())?;
        host.iter()
            .zip(&self.infos)
            .map(|(ct, info)| {
                Ok(Ciphertext {
                    ct: LweCiphertextOwned::from_container(ct.as_slice().to_vec())?,
                    degree: info.degree,
                    noise_level: info.noise_level,
                    message_modulus: self.message_modulus,
                    carry_modulus: self.carry_modulus,
                })
            })
            .collect()
    }

    /// The degree and noise level of every block.
    pub fn infos(&self) -> &[BlockInfo] {
        &self.infos
    }

    /// The number of blocks.
    pub fn len(&self) -> usize {
        self.infos.len()
    }

    /// Whether there are no blocks.
    pub fn is_empty(&self) -> bool {
        self.infos.is_empty()
    }

    /// The bytes of one block (an LWE ciphertext under the big key).
    pub fn lwe_bytes(&self) -> usize {
        self.list.lwe_size().0 * std::mem::size_of::<u64>()
    }

    /// The ordinal of the GPU holding them.
    pub fn ordinal(&self) -> usize {
        self.list.device().ordinal()
    }

    /// The device (and stream) that allocated them.
    pub fn device(&self) -> &CudaDevice {
        self.list.device()
    }
}
