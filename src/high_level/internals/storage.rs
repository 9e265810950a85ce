//! The content of a high-level value ([`Storage`]: a clear value, or blocks under a
//! key's tag, wherever they live) and how it enters a circuit ([`Input`]).

use crate::error::{check_eq, Error, Result};
use crate::high_level::config::block_count;
use crate::high_level::keys::tag::KeyTag;
use crate::integer::{U2048, U256};
use crate::scheduler::{Blocks, CircuitInput, Device, GpuIndex};
use crate::shortint::{Ciphertext, ShortintParameters};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The content of an encrypted value.
#[derive(Debug, Clone)]
pub(crate) enum Storage {
    /// A trivial encryption: the clear value, made into (noiseless) blocks when it
    /// enters a circuit. It belongs to no key and works with every key.
    Trivial(Box<U2048>),
    /// Blocks encrypted under the client key with this tag.
    Encrypted {
        /// The tag of the client key.
        tag: KeyTag,
        /// The blocks, least significant first.
        blocks: Blocks,
    },
}

/// A value entering a circuit.
#[derive(Clone, Copy)]
pub(crate) struct Input<'a> {
    /// Its content.
    pub(crate) storage: &'a Storage,
    /// Its width in bits (1 for a boolean).
    pub(crate) bits: u32,
}

impl<'a> Input<'a> {
    /// The input as the scheduler takes it (the key tag already checked).
    pub(crate) fn circuit_input(&self) -> CircuitInput<'a> {
        match self.storage {
            Storage::Trivial(value) => CircuitInput::Clear {
                value: **value,
                bits: self.bits,
            },
            Storage::Encrypted { blocks, .. } => CircuitInput::Encrypted {
                blocks,
                bits: self.bits,
            },
        }
    }
}

/// How a [`Storage`] is written: the blocks always as host blocks (built and
/// consumed at once, so the 2048-bit variant's size does not matter).
#[allow(clippy::large_enum_variant)]
#[derive(Serialize, Deserialize)]
enum StorageRepr<'a> {
    /// A clear value of at most 128 bits.
    Trivial(u128),
    Encrypted {
        tag: KeyTag,
        blocks: Cow<'a, [Ciphertext]>,
    },
    /// A clear value above `u128::MAX` of at most 256 bits (appended: the tags of
    /// the others stay).
    TrivialWide(U256),
    /// A clear value above 256 bits (appended).
    TrivialWider(U2048),
}

impl Serialize for Storage {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Self::Trivial(v) if v.fits_in(128) => StorageRepr::Trivial(v.low_u128()),
            Self::Trivial(v) if v.fits_in(256) => StorageRepr::TrivialWide(v.resize()),
            Self::Trivial(v) => StorageRepr::TrivialWider(**v),
            Self::Encrypted { tag, blocks } => StorageRepr::Encrypted {
                tag: *tag,
                blocks: blocks.to_cpu().map_err(serde::ser::Error::custom)?,
            },
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Storage {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Ok(match StorageRepr::deserialize(d)? {
            StorageRepr::Trivial(v) => Self::trivial(v.into()),
            StorageRepr::TrivialWide(v) => Self::trivial(v.into()),
            StorageRepr::TrivialWider(v) => Self::trivial(v),
            StorageRepr::Encrypted { tag, blocks } => Self::Encrypted {
                tag,
                blocks: Blocks::cpu(blocks.into_owned()),
            },
        })
    }
}

/// `Err` unless `count` blocks of message modulus `m` and carry modulus `carry` are
/// the blocks of a `bits`-bit value: moduli that are powers of two (`m` at least 2),
/// whole blocks for `bits` (above 1), and as many blocks as `bits` needs.
pub(crate) fn check_block_layout(m: u64, carry: u64, bits: u32, count: usize) -> Result<()> {
    let message_bits = m.trailing_zeros();
    if m < 2
        || !m.is_power_of_two()
        || !carry.is_power_of_two()
        || (bits > 1 && bits % message_bits != 0)
    {
        return Err(Error::InvalidParameter(format!(
            "blocks of message modulus {m} and carry modulus {carry} cannot hold a \
             {bits}-bit value"
        )));
    }
    check_eq(
        "number of blocks",
        bits.div_ceil(message_bits) as usize,
        count,
    )
}

impl Storage {
    /// The trivial encryption of `value` (boxed: a 2048-bit clear is kept off the
    /// values, which are mostly encrypted).
    pub(crate) fn trivial(value: U2048) -> Self {
        Self::Trivial(Box::new(value))
    }

    /// Where the value lives: a trivial value (a clear value) is on the CPU.
    pub(crate) fn device(&self) -> Device {
        match self {
            Self::Trivial(_) => Device::Cpu,
            Self::Encrypted { blocks, .. } => blocks.device(),
        }
    }

    /// Moves the blocks to `device`. A trivial value stays a clear value, but a GPU
    /// that does not exist is still an error.
    pub(crate) fn move_to(&mut self, device: Device) -> Result<()> {
        match self {
            Self::Trivial(_) => match device {
                Device::Cpu => Ok(()),
                Device::CudaGpu(gpu) => GpuIndex::checked(gpu.get()).map(|_| ()),
            },
            Self::Encrypted { blocks, .. } => {
                *blocks = blocks.moved_to(device)?;
                Ok(())
            }
        }
    }

    /// The key tag, `None` for a trivial value.
    pub(crate) fn tag(&self) -> Option<KeyTag> {
        match self {
            Self::Trivial(_) => None,
            Self::Encrypted { tag, .. } => Some(*tag),
        }
    }

    /// `Err` unless the value is well formed for a `bits`-bit value whose blocks hold
    /// at most `max_value` (`message_modulus - 1` for integers, 1 for booleans): a
    /// trivial value below `2^bits`, or blocks that agree on their moduli and LWE
    /// size, are as many as `bits` needs, and are clean.
    pub(crate) fn validate(&self, bits: u32, max_value: Option<u64>) -> Result<()> {
        let blocks = match self {
            Self::Trivial(v) => {
                return if v.fits_in(bits) {
                    Ok(())
                } else {
                    Err(Error::InvalidParameter(format!(
                        "trivial value {v} does not fit in {bits} bits"
                    )))
                };
            }
            Self::Encrypted { blocks, .. } => blocks.to_cpu()?,
        };
        let first = blocks
            .first()
            .ok_or_else(|| Error::InvalidParameter("an encrypted value has no blocks".into()))?;
        let (m, carry) = (first.message_modulus(), first.carry_modulus());
        check_block_layout(m, carry, bits, blocks.len())?;
        let size = first.as_lwe().lwe_size();
        let max_value = max_value.unwrap_or(m - 1).min(m - 1);
        for (i, b) in blocks.iter().enumerate() {
            b.check_moduli(m, carry)?;
            b.as_lwe().check_size("LWE size of a block", size)?;
            if b.degree() > max_value || b.noise_level() > 1 {
                return Err(Error::CapacityExceeded(format!(
                    "block {i} is not clean: degree {} (at most {max_value}), noise level {} \
                     (at most 1)",
                    b.degree(),
                    b.noise_level()
                )));
            }
        }
        Ok(())
    }

    /// `Err` unless the blocks (if any) belong to `parameters`: moduli, LWE size and
    /// number of blocks. Cheap (nothing is copied from a GPU): every operation checks
    /// its operands with it before any work, since a value's key tag is public and a
    /// value of other parameters may carry it.
    pub(crate) fn conforms_to(&self, parameters: &ShortintParameters, bits: u32) -> Result<()> {
        let blocks = match self {
            Self::Trivial(_) => return Ok(()),
            Self::Encrypted { blocks, .. } => blocks,
        };
        if let Some(len) = blocks.len() {
            check_eq(
                "number of blocks for these parameters",
                block_count(parameters, bits),
                len,
            )?;
        }
        blocks.check_parameters(parameters)
    }
}
