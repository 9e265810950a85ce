//! Casting the blocks of compact lists of dedicated public-key parameters on a GPU
//! (TFHE-rs's `expand` on a `CudaServerKey`): a [`CudaBackend`] keyswitches them
//! with the server key's [`CastingKey`], converted to its GPU once (on first use)
//! and kept beside the server key, then bootstraps them with one table each, one
//! keyswitch launch and one bootstrap launch per chunk of the list.

use super::{plan_chunks, run_halving, CudaBackend, RESERVED_MEMORY};
use crate::backend::cuda::{
    cuda_keyswitch_lwe_ciphertext_list, CudaBlocks, CudaKeyswitchKey, CudaLookupTableList,
    CudaLweCiphertextList,
};
use crate::backend::{Backend, BlockInfo, Table};
use crate::core_crypto::{LweCiphertextCount, LweCiphertextList};
use crate::error::{check_eq, Error, Result};
use crate::shortint::{CastingKey, Ciphertext, EncryptionKeyChoice};
use std::ops::Range;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// The GPU copy of the last casting key a backend cast with (a server key has one,
/// so in practice the only one), beside the host key it came from.
#[derive(Debug, Default)]
pub(super) struct CastingKeyCache(Mutex<Option<(Arc<CastingKey>, Arc<CudaKeyswitchKey>)>>);

impl CudaBackend {
    /// The GPU copy of `key`'s keyswitching key, copied on first use within this
    /// GPU's memory budget ([`crate::memory`]).
    fn casting_key_on_gpu(&self, key: &Arc<CastingKey>) -> Result<Arc<CudaKeyswitchKey>> {
        let mut cache = self
            .keys
            .casting
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((host, device)) = cache.as_ref() {
            if Arc::ptr_eq(host, key) {
                return Ok(device.clone());
            }
        }
        let ksk = key.lwe_keyswitch_key();
        let _memory = crate::memory::reserve_device_memory(
            self.device.ordinal(),
            std::mem::size_of_val(ksk.as_slice()) as u64,
            &format!(
                "copying the casting key of compact lists to GPU {}",
                self.device.ordinal()
            ),
            || Ok(self.device.memory_info()?.0 as u64),
        )?;
        let device = Arc::new(CudaKeyswitchKey::from_cpu(&self.device, ksk)?);
        // Other streams read it: the copy must be done before any uses it.
        self.device.synchronize()?;
        *cache = Some((key.clone(), device.clone()));
        Ok(device)
    }

    /// Casts `blocks` (expanded from a compact list of `key`'s dedicated parameters,
    /// under its encryption key) to blocks of this backend's key on the GPU: block
    /// `i` keyswitched by `key` (and then by the server key if `key` switches to the
    /// big key), then bootstrapped with `tables[table_of[i]]` (one function each).
    /// The results stay on the GPU and decrypt as [`CastingKey::cast`]'s. `Err` if
    /// the counts differ, a block is not of the encryption dimension, a table is
    /// not for these parameters or reads below a block's degree, or the GPU lacks
    /// memory for one block.
    pub(crate) fn cast_compact_blocks(
        &self,
        key: &Arc<CastingKey>,
        blocks: &[Ciphertext],
        tables: &[&Table],
        table_of: &[usize],
    ) -> Result<CudaBlocks> {
        let p = self.parameters;
        key.parameters().carrier(&p)?;
        check_eq("lookup tables for the blocks", blocks.len(), table_of.len())?;
        let in_size = key.parameters().encryption_lwe_dimension.to_lwe_size();
        let mut infos = Vec::with_capacity(blocks.len());
        for (block, &t) in blocks.iter().zip(table_of) {
            block
                .as_lwe()
                .check_size("LWE size of a block to cast", in_size)?;
            let table = tables.get(t).ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "lookup table {t} requested, {} given",
                    tables.len()
                ))
            })?;
            table.check_parameters(&p)?;
            if table.function_count() != 1 || block.degree() >= table.input_bound() {
                return Err(Error::CapacityExceeded(format!(
                    "a block to cast may reach {}, its table of {} function(s) reads values \
                     below {}",
                    block.degree(),
                    table.function_count(),
                    table.input_bound()
                )));
            }
            infos.push(BlockInfo {
                degree: table.degrees()[0],
                noise_level: 1,
            });
        }
        if blocks.is_empty() {
            return self.upload(Vec::new());
        }
        let device = &self.device;
        let ksk = self.casting_key_on_gpu(key)?;
        let owned: Vec<Table> = tables.iter().map(|&t| t.clone()).collect();
        let luts = self.tables.get_or_make(&owned, || {
            let list = CudaLookupTableList::from_tables(device, &p, tables)?;
            device.synchronize()?;
            Ok(list)
        })?;
        let (small_size, big_size) = (
            p.lwe_dimension.to_lwe_size(),
            p.big_lwe_dimension().to_lwe_size(),
        );
        let switched_size = match key.destination() {
            EncryptionKeyChoice::Small => small_size,
            EncryptionKeyChoice::Big => big_size,
        };
        let mut out =
            CudaLweCiphertextList::new_zero(device, big_size, LweCiphertextCount(blocks.len()))?;
        // One block's input, keyswitched and small ciphertexts, and its bootstrap job.
        let per_block = 8 * (in_size.0 + switched_size.0 + small_size.0) + 12;
        let (free, _) = device.memory_info()?;
        let budget = (free - free / 8).saturating_sub(RESERVED_MEMORY);
        let chunks = plan_chunks(
            &vec![true; blocks.len()],
            |_| per_block,
            budget,
            self.max_batch,
        )?;
        let mut run_chunk = |chunk: Range<usize>| -> Result<()> {
            let count = LweCiphertextCount(chunk.len());
            let data: Vec<u64> = blocks[chunk.clone()]
                .iter()
                .flat_map(|b| b.as_lwe().as_slice().iter().copied())
                .collect();
            let input = CudaLweCiphertextList::from_cpu(
                device,
                &LweCiphertextList::from_container(data, in_size)?,
            )?;
            let mut switched = CudaLweCiphertextList::new_zero(device, switched_size, count)?;
            cuda_keyswitch_lwe_ciphertext_list(&ksk, &input, &mut switched)?;
            drop(input);
            let small = match key.destination() {
                EncryptionKeyChoice::Small => switched,
                EncryptionKeyChoice::Big => {
                    let mut small = CudaLweCiphertextList::new_zero(device, small_size, count)?;
                    cuda_keyswitch_lwe_ciphertext_list(
                        &self.keys.keyswitch,
                        &switched,
                        &mut small,
                    )?;
                    small
                }
            };
            self.launches.fetch_add(1, Ordering::Relaxed);
            let slots: Vec<usize> = chunk.clone().collect();
            self.bootstrap_small(&small, &luts, &table_of[chunk], &slots, &mut out)
        };
        let launched = chunks.into_iter().try_for_each(|chunk| {
            run_halving(chunk, &mut run_chunk, &|| device.release_pooled_memory())
        });
        // Wait even after a failure: nothing queued may outlive the buffers it reads.
        let finished = device.synchronize();
        launched.and(finished)?;
        self.pbs.fetch_add(blocks.len() as u64, Ordering::Relaxed);
        crate::shortint::count_bootstraps(blocks.len());
        Ok(CudaBlocks {
            list: Arc::new(out),
            start: 0,
            infos,
            message_modulus: p.message_modulus,
            carry_modulus: p.carry_modulus,
        })
    }
}
