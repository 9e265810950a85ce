//! Blocks compressed by the server key after a computation
//! ([`ServerKey::switch_modulus_and_compress`]): each keyswitched to the small key
//! and modulus-switched to `2N`, stored at `log2(2N)` bits per coefficient; a
//! bootstrap brings it back ([`ServerKey::decompress_modulus_switched`]).
//!
//! The keyswitch and the modulus switch are those of a bootstrap (with the
//! parameters' modulus-switch noise reduction), and the bootstrap that decompresses
//! switches values that are already multiples of `2^64 / 2N`, exactly: a block
//! compressed and decompressed goes through exactly one bootstrap, with its
//! failure probability.

use super::ServerKey;
use crate::core_crypto::{modulus_switch_lwe_ciphertext, LweCiphertextOwned, LweDimension};
use crate::error::{check_eq, Error, Result};
use crate::shortint::compressed_list::{pack_rounded, unpack_one};
use crate::shortint::seeded::check_block_moduli;
use crate::shortint::{Ciphertext, LookupTable, ShortintParameters, MAX_LWE_DIMENSION};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Blocks keyswitched to the small key and modulus-switched to `2N`: `n + 1` values
/// of `log2(2N)` bits per block, bit-packed (1,379 bytes per block on the default
/// parameters instead of 16,392). Clean blocks only: each decompresses to a block of
/// degree `message_modulus - 1` and noise level 1. Deserialization checks the sizes
/// and moduli; whether they are those of a parameter set is
/// [`ModulusSwitchedBlocks::check_parameters`].
///
/// ```
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let sk = ServerKey::new(&ck).unwrap();
/// let compressed = sk.switch_modulus_and_compress(&[ck.encrypt(2).unwrap()]).unwrap();
/// assert_eq!((compressed.len(), compressed.message_modulus()), (1, 4));
/// assert!(compressed.validate().is_ok() && compressed.check_parameters(&PARAMETERS).is_ok());
/// let back = sk.decompress_modulus_switched(&compressed).unwrap();
/// assert_eq!(ck.decrypt(&back[0]).unwrap(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ModulusSwitchedParts")]
pub struct ModulusSwitchedBlocks(ModulusSwitchedParts);

/// The fields of [`ModulusSwitchedBlocks`], checked when they are read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct ModulusSwitchedParts {
    /// `count * (n + 1)` values of `log_modulus` bits, mask then body per block.
    words: Vec<u64>,
    count: usize,
    lwe_dimension: LweDimension,
    log_modulus: u32,
    message_modulus: u64,
    carry_modulus: u64,
}

impl TryFrom<ModulusSwitchedParts> for ModulusSwitchedBlocks {
    type Error = Error;

    fn try_from(parts: ModulusSwitchedParts) -> Result<Self> {
        let blocks = Self(parts);
        blocks.validate()?;
        Ok(blocks)
    }
}

/// The words holding `count` ciphertexts of `dimension` at `bits` bits per value;
/// `None` if that overflows.
fn packed_words(count: usize, dimension: LweDimension, bits: u32) -> Option<usize> {
    count
        .checked_mul(dimension.0.checked_add(1)?)?
        .checked_mul(bits as usize)
        .map(|b| b.div_ceil(64))
}

/// `log2(2N)` for the parameters.
fn switched_log_modulus(parameters: &ShortintParameters) -> u32 {
    parameters.polynomial_size.log2() as u32 + 1
}

impl ModulusSwitchedBlocks {
    /// The number of blocks.
    pub fn len(&self) -> usize {
        self.0.count
    }

    /// Whether it holds no block.
    pub fn is_empty(&self) -> bool {
        self.0.count == 0
    }

    /// The message modulus of the blocks.
    pub fn message_modulus(&self) -> u64 {
        self.0.message_modulus
    }

    /// The carry modulus of the blocks.
    pub fn carry_modulus(&self) -> u64 {
        self.0.carry_modulus
    }

    /// `Err` unless the moduli are valid (see [`super::super::SeededBlocks::validate`]),
    /// the small dimension is in `[1, 2^14]`, the values have 2 to 18 bits (`2N` of
    /// a polynomial size of at most 2^17) and the words hold exactly the blocks.
    pub fn validate(&self) -> Result<()> {
        let what = "modulus-switched blocks";
        check_block_moduli(what, self.0.message_modulus, self.0.carry_modulus)?;
        let (n, bits) = (self.0.lwe_dimension.0, self.0.log_modulus);
        if !(1..=MAX_LWE_DIMENSION).contains(&n) || !(2..=18).contains(&bits) {
            return Err(Error::InvalidParameter(format!(
                "{what} of dimension {n} with {bits}-bit values: the dimension must be in \
                 [1, {MAX_LWE_DIMENSION}], the values of 2 to 18 bits"
            )));
        }
        let words = packed_words(self.0.count, self.0.lwe_dimension, bits).ok_or_else(|| {
            Error::InvalidParameter(format!("{what}: {} blocks overflow", self.0.count))
        })?;
        check_eq(
            "number of words of modulus-switched blocks",
            words,
            self.0.words.len(),
        )
    }

    /// `Err` unless the blocks have the moduli, the small dimension and the `2N` of
    /// `parameters`.
    pub fn check_parameters(&self, parameters: &ShortintParameters) -> Result<()> {
        check_eq(
            "message modulus of modulus-switched blocks",
            parameters.message_modulus as usize,
            self.0.message_modulus as usize,
        )?;
        check_eq(
            "carry modulus of modulus-switched blocks",
            parameters.carry_modulus as usize,
            self.0.carry_modulus as usize,
        )?;
        check_eq(
            "LWE dimension of modulus-switched blocks",
            parameters.lwe_dimension.0,
            self.0.lwe_dimension.0,
        )?;
        check_eq(
            "log2(2N) of modulus-switched blocks",
            switched_log_modulus(parameters) as usize,
            self.0.log_modulus as usize,
        )
    }

    /// The switched values of block `i` (mask, then body), each below `2N`.
    pub(crate) fn switched_values(&self, i: usize) -> Vec<u64> {
        let size = self.0.lwe_dimension.to_lwe_size().0;
        let bits = self.0.log_modulus;
        (i * size..(i + 1) * size)
            .map(|j| unpack_one(&self.0.words, j, bits) >> (64 - bits))
            .collect()
    }

    /// Blocks of these switched values (each block's mask then body, below
    /// `2^log_modulus`), checked.
    pub(crate) fn from_switched_values(
        values: &[u64],
        count: usize,
        lwe_dimension: LweDimension,
        log_modulus: u32,
        moduli: (u64, u64),
    ) -> Result<Self> {
        let words = packed_words(count, lwe_dimension, log_modulus)
            .filter(|_| (2..=18).contains(&log_modulus))
            .ok_or_else(|| Error::InvalidParameter("modulus-switched blocks overflow".into()))?;
        if let Some(v) = values.iter().find(|&&v| v >> log_modulus != 0) {
            return Err(Error::InvalidParameter(format!(
                "a modulus-switched value {v} of more than {log_modulus} bits"
            )));
        }
        check_eq(
            "number of modulus-switched values",
            count * lwe_dimension.to_lwe_size().0,
            values.len(),
        )?;
        let torus: Vec<u64> = values.iter().map(|&v| v << (64 - log_modulus)).collect();
        Self::try_from(ModulusSwitchedParts {
            words: pack_rounded(torus.iter(), log_modulus, words),
            count,
            lwe_dimension,
            log_modulus,
            message_modulus: moduli.0,
            carry_modulus: moduli.1,
        })
    }

    /// The packed words (LSB first: value `j` at bits `[j·b, (j+1)·b)`, TFHE-rs's
    /// packing of a modulus-switched ciphertext when they hold one block).
    pub(crate) fn words(&self) -> &[u64] {
        &self.0.words
    }

    /// Blocks of these packed words, checked.
    pub(crate) fn from_words(
        words: Vec<u64>,
        count: usize,
        lwe_dimension: LweDimension,
        log_modulus: u32,
        moduli: (u64, u64),
    ) -> Result<Self> {
        Self::try_from(ModulusSwitchedParts {
            words,
            count,
            lwe_dimension,
            log_modulus,
            message_modulus: moduli.0,
            carry_modulus: moduli.1,
        })
    }

    /// `log2(2N)`, the bits of each switched value.
    pub(crate) fn log_modulus(&self) -> u32 {
        self.0.log_modulus
    }

    /// The dimension of the small key.
    pub(crate) fn lwe_dimension(&self) -> LweDimension {
        self.0.lwe_dimension
    }

    /// Block `i` as an LWE ciphertext under the small key whose coefficients are
    /// multiples of `2^64 / 2N`.
    fn small_ciphertext(&self, i: usize) -> Result<LweCiphertextOwned> {
        let size = self.0.lwe_dimension.to_lwe_size().0;
        let values = (i * size..(i + 1) * size)
            .map(|j| unpack_one(&self.0.words, j, self.0.log_modulus))
            .collect();
        LweCiphertextOwned::from_container(values)
    }
}

impl ServerKey {
    /// Keyswitches each of `blocks` to the small key and switches its modulus to `2N`
    /// (as a bootstrap does), to store or send them in about `(k N + 1) / ((n + 1)
    /// log2(2N) / 64)` times less space (11.9× on the default parameters). `Err`
    /// unless every block belongs to the key's parameters, is clean (degree below the
    /// message modulus) and within the noise budget.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let blocks = [ck.encrypt(3).unwrap(), ck.encrypt(1).unwrap()];
    /// let compressed = sk.switch_modulus_and_compress(&blocks).unwrap();
    /// let back = sk.decompress_modulus_switched(&compressed).unwrap();
    /// assert_eq!((ck.decrypt(&back[0]).unwrap(), ck.decrypt(&back[1]).unwrap()), (3, 1));
    /// // A block with carries is refused.
    /// assert!(sk.switch_modulus_and_compress(&[ck.encrypt_with_carry(9).unwrap()]).is_err());
    /// ```
    pub fn switch_modulus_and_compress(
        &self,
        blocks: &[Ciphertext],
    ) -> Result<ModulusSwitchedBlocks> {
        self.switch_modulus_and_compress_below(blocks, self.parameters.message_modulus)
    }

    /// [`ServerKey::switch_modulus_and_compress`] of blocks of degree below
    /// `degree_bound` (the message modulus for clean blocks, the total modulus for
    /// two digits packed in one block).
    pub(crate) fn switch_modulus_and_compress_below(
        &self,
        blocks: &[Ciphertext],
        degree_bound: u64,
    ) -> Result<ModulusSwitchedBlocks> {
        let p = &self.parameters;
        for b in blocks {
            self.check_block(b)?;
            if b.degree >= degree_bound || b.noise_level > p.max_noise_level {
                return Err(Error::CapacityExceeded(format!(
                    "only blocks of degree at most {} compress: degree {}, noise level {} \
                     (at most {})",
                    degree_bound - 1,
                    b.degree,
                    b.noise_level,
                    p.max_noise_level
                )));
            }
        }
        let bits = switched_log_modulus(p);
        let switched = blocks
            .par_iter()
            .map(|b| {
                let small = self.keyswitch(b)?;
                let s = modulus_switch_lwe_ciphertext(&small, bits as usize, p.modulus_switch)?;
                // As torus values whose `bits` high bits are the switched ones.
                let scale = |v: usize| (v as u64) << (64 - bits);
                Ok(s.mask.into_iter().chain([s.body]).map(scale).collect())
            })
            .collect::<Result<Vec<Vec<u64>>>>()?;
        let words = packed_words(blocks.len(), p.lwe_dimension, bits)
            .expect("the blocks of valid parameters fit in memory");
        Ok(ModulusSwitchedBlocks(ModulusSwitchedParts {
            words: pack_rounded(switched.iter().flatten(), bits, words),
            count: blocks.len(),
            lwe_dimension: p.lwe_dimension,
            log_modulus: bits,
            message_modulus: p.message_modulus,
            carry_modulus: p.carry_modulus,
        }))
    }

    /// The blocks of [`ServerKey::switch_modulus_and_compress`] back under the big key:
    /// one bootstrap each (with the identity on the message), giving clean blocks of
    /// noise level 1. `Err` unless they belong to the key's parameters.
    pub fn decompress_modulus_switched(
        &self,
        blocks: &ModulusSwitchedBlocks,
    ) -> Result<Vec<Ciphertext>> {
        let m = self.parameters.message_modulus;
        self.decompress_modulus_switched_with(blocks, &[&self.generate_lookup_table(|x| x % m)?])
    }

    /// Each of `blocks` bootstrapped once per table of `luts`, in that order (block
    /// after block). `Err` unless they belong to the key's parameters.
    pub(crate) fn decompress_modulus_switched_with(
        &self,
        blocks: &ModulusSwitchedBlocks,
        luts: &[&LookupTable],
    ) -> Result<Vec<Ciphertext>> {
        blocks.check_parameters(&self.parameters)?;
        (0..blocks.len() * luts.len())
            .into_par_iter()
            .map(|j| {
                let small = blocks.small_ciphertext(j / luts.len())?;
                self.bootstrap_small(&small, luts[j % luts.len()])
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shortint::{ClientKey, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as P};

    #[test]
    fn blocks_round_trip_and_malformed_blocks_are_refused() {
        let ck = ClientKey::new(P).unwrap();
        let sk = ServerKey::new(&ck).unwrap();
        let blocks: Vec<_> = (0..5).map(|m| ck.encrypt(m % 4).unwrap()).collect();
        let compressed = sk.switch_modulus_and_compress(&blocks).unwrap();
        assert_eq!(compressed.len(), 5);
        let bits = P.polynomial_size.log2() + 1;
        assert_eq!(
            compressed.0.words.len(),
            (5 * (P.lwe_dimension.0 + 1) * bits).div_ceil(64)
        );
        let back = sk.decompress_modulus_switched(&compressed).unwrap();
        for (i, b) in back.iter().enumerate() {
            assert_eq!(ck.decrypt(b).unwrap(), i as u64 % 4);
            assert_eq!((b.degree(), b.noise_level()), (3, 1));
        }
        let mut bad = compressed.clone();
        bad.0.words.pop();
        assert!(bad.validate().is_err());
        let mut bad = compressed.clone();
        bad.0.log_modulus = 19;
        assert!(bad.validate().is_err());
        let mut other = P;
        other.lwe_dimension.0 += 1;
        assert!(compressed.check_parameters(&other).is_err());
        assert!(compressed.check_parameters(&P).is_ok());
    }
}
