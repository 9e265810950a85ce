//! Expanding compact lists (plain or proven): the blocks extracted from their
//! compact ciphertexts become the values of the client key, cast from dedicated
//! public-key parameters and unpacked by a server key where the list needs it, on
//! its GPU for a GPU key (`cuda_expansion.rs`), else on the CPU threads
//! (`casting.rs`, `packed.rs`).

use crate::backend::Backend;
use crate::error::{Error, Result};
use crate::high_level::config::block_count;
use crate::high_level::keys::server::ServerKey;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::lists::casting::{expansion_plan, expansion_server_key};
use crate::high_level::lists::cuda_expansion::cuda_expanded_blocks;
use crate::high_level::lists::expander::CompactCiphertextListExpander;
use crate::high_level::lists::kinds::DataKind;
use crate::scheduler::Blocks;
use crate::shortint;

/// The number of blocks of each value of `kinds` under `parameters`; `Err` for a
/// width of 0 or above 256 bits (read from untrusted data), naming `what` holds it.
pub(crate) fn block_counts(
    parameters: &shortint::ShortintParameters,
    kinds: &[DataKind],
    what: &str,
) -> Result<Vec<usize>> {
    kinds
        .iter()
        .map(|kind| match kind.bits() {
            0 | 2049.. => Err(Error::InvalidParameter(format!(
                "a value of {} bits in a {what}",
                kind.bits()
            ))),
            bits => Ok(block_count(parameters, bits)),
        })
        .collect()
}

/// What turns the blocks extracted from a compact list (or from the lists of a
/// proven one) into its values.
pub(crate) struct ExpansionParts<'a> {
    pub(crate) tag: KeyTag,
    pub(crate) parameters: &'a shortint::ShortintParameters,
    pub(crate) casting: Option<&'a shortint::CompactPublicKeyEncryptionParameters>,
    pub(crate) kinds: &'a [DataKind],
    pub(crate) packed: bool,
}

impl ExpansionParts<'_> {
    /// The values of `stored`, the list's blocks as extracted (pairs if packed):
    /// cast to computation blocks for dedicated parameters, bootstrapped apart if
    /// packed, by `server_key`, else the thread's. On the GPU, the values staying
    /// there, when that key is a GPU key (`cuda_expansion.rs`), or for a list that
    /// needs no key, when `server_key` is one; else on the CPU threads.
    pub(crate) fn expander(
        &self,
        server_key: Option<&ServerKey>,
        mut stored: Vec<shortint::Ciphertext>,
    ) -> Result<CompactCiphertextListExpander> {
        let counts = block_counts(self.parameters, self.kinds, "compact list")?;
        let key = match (self.casting, self.packed) {
            (Some(_), _) => Some(expansion_server_key(
                self.tag,
                server_key,
                "expanding a compact list of dedicated public-key parameters keyswitches its \
                 blocks to the computation key",
            )?),
            (None, true) => Some(expansion_server_key(
                self.tag,
                server_key,
                "expanding a packed compact list (TFHE-rs's build_packed) bootstraps its \
                 blocks apart",
            )?),
            (None, false) => {
                let mut start = 0;
                for (&kind, &count) in self.kinds.iter().zip(&counts) {
                    if let (DataKind::Boolean, Some(block)) = (kind, stored.get_mut(start)) {
                        // A boolean block holds 0 or 1: its public bound says so.
                        block.degree = 1;
                    }
                    start += count;
                }
                server_key.cloned()
            }
        };
        let plan = match key {
            Some(_) if self.casting.is_some() || self.packed => Some(expansion_plan(
                self.kinds,
                &counts,
                self.packed,
                stored.len(),
            )?),
            _ => None,
        };
        if let Some(key) = &key {
            if let Some(gpu) = key.scheduler().lease_gpu() {
                let blocks = cuda_expanded_blocks(
                    &gpu,
                    key,
                    self.parameters,
                    self.casting,
                    self.packed,
                    plan.as_deref(),
                    stored,
                )?;
                let parts = gpu.split(blocks, &counts)?;
                return Ok(self.values(parts.into_iter().map(Blocks::Cuda)));
            }
        }
        let blocks = match (self.casting, &key, &plan) {
            (Some(pke), Some(key), Some(plan)) => {
                super::casting::cast_blocks(key, pke, stored, plan, self.packed)?
            }
            (None, Some(key), Some(plan)) => {
                super::packed::unpacked_blocks(key, self.parameters, stored, plan)?
            }
            _ => stored,
        };
        let mut blocks = blocks.into_iter();
        let values = counts
            .iter()
            .map(|&count| Blocks::cpu(blocks.by_ref().take(count).collect()));
        Ok(self.values(values))
    }

    /// The expander of the values whose blocks `blocks` gives, in order.
    fn values(&self, blocks: impl Iterator<Item = Blocks>) -> CompactCiphertextListExpander {
        CompactCiphertextListExpander {
            tag: self.tag,
            values: self.kinds.iter().copied().zip(blocks).collect(),
        }
    }
}
