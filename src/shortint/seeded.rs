//! Blocks encrypted with a seed: the bodies of the blocks and the seed of their
//! masks ([`SeededLweCiphertextList`]), for values that are stored or sent before
//! they are computed on.

use super::{Ciphertext, ClientKey, ShortintParameters};
use crate::core_crypto::{
    encrypt_seeded_lwe_ciphertext_list, CompressionSeed, EncryptionRandomGenerator,
    SeededLweCiphertextList,
};
use crate::error::{check_eq, Error, Result};
use serde::{Deserialize, Serialize};

/// Blocks encrypted under the big key as one [`SeededLweCiphertextList`]: a body per
/// block and one [`CompressionSeed`], `k N + 1` times smaller than the blocks (2,049× on
/// the default parameters, less the seed). [`SeededBlocks::decompress`] gives clean
/// blocks (degree `message_modulus - 1`, noise level 1), exactly as
/// [`ClientKey::encrypt`] makes them. Deserialization checks the moduli and the LWE
/// size; whether they are those of a parameter set is
/// [`SeededBlocks::check_parameters`].
///
/// ```
/// use gpufhe::shortint::{ClientKey, SeededBlocks};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let seeded = SeededBlocks::encrypt(&ck, &[3, 0, 2]).unwrap();
/// let blocks = seeded.decompress().unwrap();
/// let clear: Vec<u64> = blocks.iter().map(|b| ck.decrypt(b).unwrap()).collect();
/// assert_eq!(clear, vec![3, 0, 2]);
/// assert_eq!(seeded.len(), 3);
/// // A message must fit in the message modulus.
/// assert!(SeededBlocks::encrypt(&ck, &[4]).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SeededBlocksParts")]
pub struct SeededBlocks(SeededBlocksParts);

/// The fields of [`SeededBlocks`], checked when they are read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct SeededBlocksParts {
    list: SeededLweCiphertextList,
    message_modulus: u64,
    carry_modulus: u64,
}

impl TryFrom<SeededBlocksParts> for SeededBlocks {
    type Error = Error;

    fn try_from(parts: SeededBlocksParts) -> Result<Self> {
        let blocks = Self(parts);
        blocks.validate()?;
        Ok(blocks)
    }
}

impl SeededBlocks {
    /// Encrypts `messages` (each below the message modulus) as blocks of
    /// `client_key`, their masks drawn from a fresh seed of the operating system and
    /// their noise from a fresh secret generator; `Err` if a message does not fit or
    /// the operating system's random source fails.
    pub fn encrypt(client_key: &ClientKey, messages: &[u64]) -> Result<Self> {
        let p = client_key.parameters();
        if let Some(&m) = messages.iter().find(|&&m| m >= p.message_modulus) {
            return Err(Error::InvalidParameter(format!(
                "the message {m} does not fit in a block (message modulus {})",
                p.message_modulus
            )));
        }
        let plaintexts: Vec<u64> = messages.iter().map(|&m| m * p.delta()).collect();
        let mask_seed = CompressionSeed::from_os()?;
        let list = encrypt_seeded_lwe_ciphertext_list(
            client_key.big_lwe_secret_key(),
            &plaintexts,
            p.glwe_noise_distribution,
            mask_seed,
            &mut EncryptionRandomGenerator::new(mask_seed)?,
        )?;
        Ok(Self(SeededBlocksParts {
            list,
            message_modulus: p.message_modulus,
            carry_modulus: p.carry_modulus,
        }))
    }

    /// The number of blocks.
    pub fn len(&self) -> usize {
        self.0.list.bodies().len()
    }

    /// Blocks of this seeded list and these moduli, checked.
    pub(crate) fn from_parts(
        list: SeededLweCiphertextList,
        message_modulus: u64,
        carry_modulus: u64,
    ) -> Result<Self> {
        Self::try_from(SeededBlocksParts {
            list,
            message_modulus,
            carry_modulus,
        })
    }

    /// Whether it holds no block.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The message modulus of the blocks.
    pub fn message_modulus(&self) -> u64 {
        self.0.message_modulus
    }

    /// The carry modulus of the blocks.
    pub fn carry_modulus(&self) -> u64 {
        self.0.carry_modulus
    }

    /// The seeded LWE ciphertexts of the blocks.
    pub fn as_seeded_lwe_list(&self) -> &SeededLweCiphertextList {
        &self.0.list
    }

    /// The host bytes [`SeededBlocks::decompress`] allocates: one big LWE ciphertext
    /// and its bookkeeping per block (saturating).
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, SeededBlocks, DEFAULT_PARAMETERS};
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    /// let seeded = SeededBlocks::encrypt(&ck, &[1; 32]).unwrap(); // an FheUint64's blocks
    /// assert!(seeded.expanded_bytes() > 32 * 2049 * 8);
    /// ```
    pub fn expanded_bytes(&self) -> u64 {
        let bookkeeping = std::mem::size_of::<Ciphertext>() as u64;
        self.0
            .list
            .expanded_bytes()
            .saturating_add((self.len() as u64).saturating_mul(bookkeeping))
    }

    /// `Err` unless the moduli are powers of two whose product is in `[2, 2^16]`
    /// (the LWE size was checked when the list was made or read).
    pub fn validate(&self) -> Result<()> {
        check_block_moduli(
            "seeded blocks",
            self.0.message_modulus,
            self.0.carry_modulus,
        )
    }

    /// `Err` unless the blocks have the moduli and the LWE size of `parameters`.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, SeededBlocks};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let seeded = SeededBlocks::encrypt(&ck, &[1]).unwrap();
    /// assert!(seeded.check_parameters(&PARAMETERS).is_ok());
    /// let mut other = PARAMETERS;
    /// other.carry_modulus = 2;
    /// assert!(seeded.check_parameters(&other).is_err());
    /// ```
    pub fn check_parameters(&self, parameters: &ShortintParameters) -> Result<()> {
        check_eq(
            "message modulus of seeded blocks",
            parameters.message_modulus as usize,
            self.0.message_modulus as usize,
        )?;
        check_eq(
            "carry modulus of seeded blocks",
            parameters.carry_modulus as usize,
            self.0.carry_modulus as usize,
        )?;
        check_eq(
            "LWE size of seeded blocks",
            parameters.big_lwe_dimension().to_lwe_size().0,
            self.0.list.lwe_size().0,
        )
    }

    /// The blocks, their masks regenerated from the seed: clean blocks (degree
    /// `message_modulus - 1`, noise level 1). `Err(OutOfMemory)`, before anything is
    /// allocated, if [`SeededBlocks::expanded_bytes`] is above the memory budget
    /// ([`crate::memory`]).
    pub fn decompress(&self) -> Result<Vec<Ciphertext>> {
        let _memory = crate::memory::reserve_host_memory(
            self.expanded_bytes(),
            "decompressing seeded blocks",
        )?;
        Ok(self
            .0
            .list
            .decompress_to_ciphertexts()
            .into_iter()
            .map(|ct| Ciphertext {
                ct,
                degree: self.0.message_modulus - 1,
                noise_level: 1,
                message_modulus: self.0.message_modulus,
                carry_modulus: self.0.carry_modulus,
            })
            .collect())
    }
}

/// `Err` unless `what` (blocks read from serialized data) has a message modulus `m`
/// and a carry modulus `c` that are powers of two, `m` at least 2 and `m c` at most
/// 2^16 (what [`ShortintParameters::validate`] accepts).
pub(crate) fn check_block_moduli(what: &str, m: u64, c: u64) -> Result<()> {
    if m < 2 || !m.is_power_of_two() || !c.is_power_of_two() || m.saturating_mul(c) > 1 << 16 {
        return Err(Error::InvalidParameter(format!(
            "{what} of message modulus {m} and carry modulus {c}: both must be powers of \
             two, the message modulus at least 2, their product at most 2^16"
        )));
    }
    Ok(())
}
