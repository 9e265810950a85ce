//! Blocks compressed two by two, as TFHE-rs compresses an integer after a
//! computation: the clean blocks `b_{2i} + M·b_{2i+1}` (`M` the message modulus,
//! degree at most `M² - 1`, noise level at most `M + 1`) keyswitched and
//! modulus-switched ([`ModulusSwitchedBlocks`]), an odd last block alone; a
//! bootstrap per digit brings them back. Half the ciphertexts of compressing block
//! by block, for the same bootstraps.

use super::{ModulusSwitchedBlocks, ServerKey};
use crate::error::{check_eq, Error, Result};
use crate::shortint::{Ciphertext, ShortintParameters};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Clean blocks compressed two by two (see the module docs). Deserialization checks
/// that both parts agree and the last holds one block.
///
/// ```
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let sk = ServerKey::new(&ck).unwrap();
/// let blocks: Vec<_> = [3, 1, 2].iter().map(|&m| ck.encrypt(m).unwrap()).collect();
/// let paired = sk.switch_modulus_and_compress_paired(&blocks).unwrap();
/// assert_eq!((paired.len(), paired.message_modulus()), (3, 4));
/// let back = sk.decompress_paired(&paired).unwrap();
/// let clear: Vec<u64> = back.iter().map(|b| ck.decrypt(b).unwrap()).collect();
/// assert_eq!(clear, vec![3, 1, 2]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "PairedParts")]
pub struct PairedBlocks(PairedParts);

/// The parts of [`PairedBlocks`], checked when they are read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct PairedParts {
    pairs: ModulusSwitchedBlocks,
    last: Option<ModulusSwitchedBlocks>,
}

impl TryFrom<PairedParts> for PairedBlocks {
    type Error = Error;

    fn try_from(parts: PairedParts) -> Result<Self> {
        let blocks = Self(parts);
        blocks.validate()?;
        Ok(blocks)
    }
}

impl PairedBlocks {
    /// Blocks of these parts: the pairs, and an odd last block.
    pub(crate) fn from_parts(
        pairs: ModulusSwitchedBlocks,
        last: Option<ModulusSwitchedBlocks>,
    ) -> Result<Self> {
        Self::try_from(PairedParts { pairs, last })
    }

    /// The pairs, one ciphertext each.
    pub(crate) fn pairs(&self) -> &ModulusSwitchedBlocks {
        &self.0.pairs
    }

    /// The odd last block.
    pub(crate) fn last(&self) -> Option<&ModulusSwitchedBlocks> {
        self.0.last.as_ref()
    }

    /// The number of blocks (twice the pairs, and the last).
    pub fn len(&self) -> usize {
        2 * self.0.pairs.len() + self.0.last.as_ref().map_or(0, |l| l.len())
    }

    /// Whether it holds no block.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The message modulus of the blocks.
    pub fn message_modulus(&self) -> u64 {
        self.0.pairs.message_modulus()
    }

    /// The carry modulus of the blocks.
    pub fn carry_modulus(&self) -> u64 {
        self.0.pairs.carry_modulus()
    }

    /// `Err` unless both parts are valid, of the same moduli, dimension and
    /// switched modulus, and the last one holds one block.
    pub fn validate(&self) -> Result<()> {
        self.0.pairs.validate()?;
        if let Some(last) = &self.0.last {
            last.validate()?;
            check_eq("blocks of the last compressed block", 1, last.len())?;
            let shape = |b: &ModulusSwitchedBlocks| {
                (
                    b.message_modulus(),
                    b.carry_modulus(),
                    b.lwe_dimension().0,
                    b.log_modulus(),
                )
            };
            if shape(last) != shape(&self.0.pairs) {
                return Err(Error::InvalidParameter(
                    "the last compressed block disagrees with the pairs on its moduli, \
                     dimension or switched modulus"
                        .into(),
                ));
            }
        }
        Ok(())
    }

    /// `Err` unless the blocks have the moduli, the small dimension and the `2N` of
    /// `parameters`.
    pub fn check_parameters(&self, parameters: &ShortintParameters) -> Result<()> {
        self.0.pairs.check_parameters(parameters)?;
        self.0
            .last
            .as_ref()
            .map_or(Ok(()), |l| l.check_parameters(parameters))
    }
}

impl ServerKey {
    /// Whether blocks of these parameters compress two by two: a pair holds values
    /// up to `M² - 1` (so the carry modulus is at least `M`) with noise level up to
    /// `M + 1`.
    pub(crate) fn pairs_compress(&self) -> bool {
        let p = &self.parameters;
        p.carry_modulus >= p.message_modulus && p.max_noise_level > p.message_modulus
    }

    /// Compresses clean blocks two by two (see the module docs). `Err` unless every
    /// block belongs to the key's parameters and is clean, or if the parameters
    /// cannot hold a pair (carry modulus below the message modulus, or a maximum
    /// noise level at most the message modulus).
    pub fn switch_modulus_and_compress_paired(
        &self,
        blocks: &[Ciphertext],
    ) -> Result<PairedBlocks> {
        let m = self.parameters.message_modulus;
        if !self.pairs_compress() {
            return Err(Error::InvalidParameter(format!(
                "blocks of message modulus {m}, carry modulus {} and maximum noise level {} \
                 cannot be compressed two by two",
                self.parameters.carry_modulus, self.parameters.max_noise_level
            )));
        }
        for b in blocks {
            self.check_block(b)?;
            if b.degree >= m || b.noise_level > 1 {
                return Err(Error::CapacityExceeded(format!(
                    "only clean blocks compress: degree {}, noise level {}",
                    b.degree, b.noise_level
                )));
            }
        }
        let (paired, last) = blocks.split_at(blocks.len() - blocks.len() % 2);
        let packed = paired
            .par_chunks_exact(2)
            .map(|pair| {
                let mut packed = pair[0].clone();
                self.unchecked_add_assign(&mut packed, &self.unchecked_scalar_mul(&pair[1], m)?)?;
                Ok(packed)
            })
            .collect::<Result<Vec<_>>>()?;
        let pairs = self.switch_modulus_and_compress_below(&packed, m * m)?;
        let last = match last {
            [] => None,
            one => Some(self.switch_modulus_and_compress(one)?),
        };
        PairedBlocks::from_parts(pairs, last)
    }

    /// The blocks of [`ServerKey::switch_modulus_and_compress_paired`] back under the
    /// big key: a bootstrap per block, each extracting its digit; clean blocks of
    /// noise level 1. `Err` unless they belong to the key's parameters.
    pub fn decompress_paired(&self, blocks: &PairedBlocks) -> Result<Vec<Ciphertext>> {
        blocks.check_parameters(&self.parameters)?;
        let m = self.parameters.message_modulus;
        let low = self.generate_lookup_table(|x| x % m)?;
        let high = self.generate_lookup_table(|x| (x / m) % m)?;
        let mut out = self.decompress_modulus_switched_with(blocks.pairs(), &[&low, &high])?;
        if let Some(last) = blocks.last() {
            out.extend(self.decompress_modulus_switched_with(last, &[&low])?);
        }
        Ok(out)
    }
}
