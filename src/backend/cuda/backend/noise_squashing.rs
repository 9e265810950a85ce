//! Noise squashing on a GPU: a [`CudaBackend`] keyswitches blocks with its key and
//! bootstraps them with the 128-bit kernel, the squashing key converted to its GPU
//! once (on first use) and kept beside the server key. A multi-bit squashing key
//! squashes on the host's threads (there is no multi-bit 128-bit kernel).

use super::CudaBackend;
use crate::backend::cuda::{
    cuda_keyswitch_lwe_ciphertext_list, cuda_programmable_bootstrap_128_lwe_ciphertext_list,
    CudaFourierBootstrapKey128, CudaLweCiphertextList,
};
use crate::core_crypto::{LweCiphertextCount, LweCiphertextList};
use crate::error::Result;
use crate::shortint::{Ciphertext, NoiseSquashingKey, SquashedNoiseBlock};
use std::sync::{Arc, Mutex};

/// The GPU copy of the last noise-squashing key a backend squashed with (a server
/// key has one, so in practice the only one), beside the host key it came from.
#[derive(Debug, Default)]
pub(super) struct SquashingKeyCache(
    Mutex<Option<(Arc<NoiseSquashingKey>, Arc<CudaFourierBootstrapKey128>)>>,
);

impl CudaBackend {
    /// The GPU copy of `key`, converted on first use.
    fn squashing_key_on_gpu(
        &self,
        key: &Arc<NoiseSquashingKey>,
    ) -> Result<Arc<CudaFourierBootstrapKey128>> {
        let mut cache = self
            .keys
            .noise_squashing
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((host, device)) = cache.as_ref() {
            if Arc::ptr_eq(host, key) {
                return Ok(device.clone());
            }
        }
        let device = Arc::new(CudaFourierBootstrapKey128::from_cpu(
            &self.device,
            key.bootstrap_key(),
        )?);
        *cache = Some((key.clone(), device.clone()));
        Ok(device)
    }

    /// Squashes the noise of `blocks` (blocks of this backend's parameters, each
    /// checked as [`NoiseSquashingKey::squash`] checks it) on the GPU: one keyswitch
    /// launch and one 128-bit bootstrap launch for the batch. The results decrypt as
    /// the CPU's squashing.
    pub(crate) fn squash_noise(
        &self,
        key: &Arc<NoiseSquashingKey>,
        host_key: &crate::shortint::ServerKey,
        blocks: &[Ciphertext],
    ) -> Result<Vec<SquashedNoiseBlock>> {
        for block in blocks {
            key.check_block(host_key, block)?;
        }
        if blocks.is_empty() {
            return Ok(Vec::new());
        }
        if key.parameters().grouping_factor.is_some() {
            // No GPU kernel for the multi-bit 128-bit bootstrap yet: the host's threads
            // squash (docs/noise-squashing.md).
            use rayon::prelude::*;
            return blocks
                .par_iter()
                .map(|block| key.squash(host_key, block))
                .collect();
        }
        let bsk = self.squashing_key_on_gpu(key)?;
        let size = blocks[0].as_lwe().lwe_size();
        let data: Vec<u64> = blocks
            .iter()
            .flat_map(|b| b.as_lwe().as_slice().iter().copied())
            .collect();
        let big = CudaLweCiphertextList::from_cpu(
            &self.device,
            &LweCiphertextList::from_container(data, size)?,
        )?;
        let mut small = CudaLweCiphertextList::new_zero(
            &self.device,
            self.parameters.lwe_dimension.to_lwe_size(),
            LweCiphertextCount(blocks.len()),
        )?;
        cuda_keyswitch_lwe_ciphertext_list(&self.keys.keyswitch, &big, &mut small)?;
        drop(big);
        let squashed = cuda_programmable_bootstrap_128_lwe_ciphertext_list(
            &bsk,
            &small,
            &key.accumulator()?,
            key.parameters().modulus_switch,
        )?;
        Ok(squashed
            .into_iter()
            .zip(blocks)
            .map(|(ct, block)| key.squashed_block(ct, block.degree()))
            .collect())
    }
}
