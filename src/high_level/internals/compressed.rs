//! The content of a compressed value ([`CompressedStorage`]): its blocks, encrypted
//! with a seed by the client key or modulus-switched by the server key after a
//! computation, under a client key's tag (the compressed value types are in
//! `integers` and `booleans`).

use super::storage::{check_block_layout, Input, Storage};
use crate::error::{check_eq, Error, Result};
use crate::high_level::config::block_count;
use crate::high_level::global_state::current_server_key;
use crate::high_level::keys::client::ClientKey;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::serialization::conformance::ConformanceParams;
use crate::integer::{clear_digits, U2048};
use crate::scheduler::Blocks;
use crate::shortint::{ModulusSwitchedBlocks, PairedBlocks, SeededBlocks};
use serde::{Deserialize, Serialize};

/// The blocks of a compressed value.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum CompressedBlocks {
    /// Encrypted with a seed by the client key.
    Seeded(SeededBlocks),
    /// Encrypted with a seed per run of blocks (TFHE-rs gives each block its own
    /// seed); at least two runs, of the same moduli.
    SeededRuns(Vec<SeededBlocks>),
    /// Compressed block by block by the server key after a computation (gpufhe
    /// before TFHE-rs's format; still read).
    ModulusSwitched(ModulusSwitchedBlocks),
    /// Compressed two by two by the server key after a computation, as TFHE-rs
    /// does.
    Paired(PairedBlocks),
}

/// The content of a compressed value: its blocks, under a client key's tag.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CompressedStorage {
    pub(crate) tag: KeyTag,
    pub(crate) blocks: CompressedBlocks,
}

impl CompressedStorage {
    /// The low `bits` bits of `value` (which the caller checked or wrapped),
    /// encrypted with a fresh seed.
    pub(crate) fn encrypt(key: &ClientKey, value: U2048, bits: u32) -> Result<Self> {
        let p = key.shortint_key().parameters();
        let digits = clear_digits(value, p.message_modulus, block_count(p, bits));
        Ok(Self {
            tag: key.tag(),
            blocks: CompressedBlocks::Seeded(SeededBlocks::encrypt(key.shortint_key(), &digits)?),
        })
    }

    /// `input` compressed by the server key of the thread; `Err` for a trivial value,
    /// without a server key, or for a value of another key or other parameters.
    pub(crate) fn compress(input: Input<'_>) -> Result<Self> {
        let (tag, blocks) = match input.storage {
            Storage::Encrypted { tag, blocks } => (*tag, blocks),
            Storage::Trivial(_) => {
                return Err(Error::InvalidParameter(
                    "a trivial value belongs to no key and has nothing to compress".into(),
                ))
            }
        };
        let key = current_server_key()?;
        key.circuit_inputs(&[input])?;
        let host = key.scheduler().host_key();
        let blocks = blocks.to_cpu()?;
        let blocks = if host.pairs_compress() {
            CompressedBlocks::Paired(host.switch_modulus_and_compress_paired(&blocks)?)
        } else {
            CompressedBlocks::ModulusSwitched(host.switch_modulus_and_compress(&blocks)?)
        };
        Ok(Self { tag, blocks })
    }

    /// The blocks of a `bits`-bit value: masks regenerated from the seed, or
    /// bootstrapped with the server key of the thread (`Err` without one, or with
    /// another key's).
    pub(crate) fn decompress(&self, bits: u32) -> Result<Storage> {
        let mut blocks = match &self.blocks {
            CompressedBlocks::Seeded(blocks) => blocks.decompress()?,
            CompressedBlocks::SeededRuns(runs) => {
                let mut blocks = Vec::new();
                for run in runs {
                    blocks.extend(run.decompress()?);
                }
                blocks
            }
            CompressedBlocks::ModulusSwitched(b) => {
                let key = self.server_key()?;
                key.scheduler().host_key().decompress_modulus_switched(b)?
            }
            CompressedBlocks::Paired(b) => {
                let key = self.server_key()?;
                key.scheduler().host_key().decompress_paired(b)?
            }
        };
        if bits == 1 {
            // A boolean block holds 0 or 1: its public bound says so.
            blocks[0].degree = 1;
        }
        Ok(Storage::Encrypted {
            tag: self.tag,
            blocks: Blocks::cpu(blocks),
        })
    }

    /// The server key of the thread, if it is this value's key (what decompressing
    /// modulus-switched blocks needs).
    fn server_key(&self) -> Result<crate::high_level::ServerKey> {
        let key = current_server_key()?;
        let what = "the compressed value (decompress it with its own server key)";
        key.tag().check(what, self.tag)?;
        Ok(key)
    }

    /// The moduli and the number of the blocks.
    pub(crate) fn layout(&self) -> (u64, u64, usize) {
        match &self.blocks {
            CompressedBlocks::Seeded(b) => (b.message_modulus(), b.carry_modulus(), b.len()),
            CompressedBlocks::SeededRuns(runs) => (
                runs.first().map_or(0, |b| b.message_modulus()),
                runs.first().map_or(0, |b| b.carry_modulus()),
                runs.iter().map(|b| b.len()).sum(),
            ),
            CompressedBlocks::ModulusSwitched(b) => {
                (b.message_modulus(), b.carry_modulus(), b.len())
            }
            CompressedBlocks::Paired(b) => (b.message_modulus(), b.carry_modulus(), b.len()),
        }
    }

    /// `Err` unless the blocks are those of a `bits`-bit value.
    pub(crate) fn validate(&self, bits: u32) -> Result<()> {
        match &self.blocks {
            CompressedBlocks::Seeded(b) => b.validate()?,
            CompressedBlocks::SeededRuns(runs) => {
                for run in runs {
                    run.validate()?;
                    if (run.message_modulus(), run.carry_modulus()) != {
                        let first = &runs[0];
                        (first.message_modulus(), first.carry_modulus())
                    } {
                        return Err(Error::InvalidParameter(
                            "seeded blocks of different moduli in one value".into(),
                        ));
                    }
                }
            }
            CompressedBlocks::ModulusSwitched(b) => b.validate()?,
            CompressedBlocks::Paired(b) => b.validate()?,
        }
        let (m, carry, count) = self.layout();
        check_block_layout(m, carry, bits, count)
    }

    /// `Err` unless the blocks are those of a `bits`-bit value of `params` (and of
    /// its key, if it names one).
    pub(crate) fn conforms_to(&self, params: &ConformanceParams, bits: u32) -> Result<()> {
        params.check_tag("the compressed value", Some(self.tag))?;
        let p = params.block_parameters()?;
        match &self.blocks {
            CompressedBlocks::Seeded(b) => b.check_parameters(p)?,
            CompressedBlocks::SeededRuns(runs) => {
                for run in runs {
                    run.check_parameters(p)?;
                }
            }
            CompressedBlocks::ModulusSwitched(b) => b.check_parameters(p)?,
            CompressedBlocks::Paired(b) => b.check_parameters(p)?,
        }
        check_eq(
            "number of blocks for these parameters",
            block_count(p, bits),
            self.layout().2,
        )
    }

    /// The host bytes decompressing seeded blocks allocates (0 for modulus-switched
    /// blocks: they decompress into blocks of the server key's parameters).
    pub(crate) fn expanded_bytes(&self) -> u64 {
        match &self.blocks {
            CompressedBlocks::Seeded(b) => b.expanded_bytes(),
            CompressedBlocks::SeededRuns(runs) => runs.iter().map(|b| b.expanded_bytes()).sum(),
            CompressedBlocks::ModulusSwitched(_) | CompressedBlocks::Paired(_) => 0,
        }
    }

    /// Reads a `bits`-bit value and checks it.
    pub(crate) fn deserialize_checked<'de, D: serde::Deserializer<'de>>(
        d: D,
        bits: u32,
    ) -> std::result::Result<Self, D::Error> {
        let storage = Self::deserialize(d)?;
        storage.validate(bits).map_err(serde::de::Error::custom)?;
        Ok(storage)
    }
}
