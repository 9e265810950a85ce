//! LWE ciphertexts stored as the seed of their masks and their bodies.

use crate::core_crypto::commons::{LweCiphertextCount, LweSize};
use crate::core_crypto::entities::{check_dimensions, SeededKeyParts};
use crate::core_crypto::random::CompressionSeed;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// A list of LWE ciphertexts of one size stored as the [`CompressionSeed`] of their masks
/// and their bodies: `n + 1` times smaller than the list it stands for. The masks
/// are drawn one after the other from the seed, so one seed serves the whole list;
/// [`SeededLweCiphertextList::decompress`] regenerates them. Made by
/// [`encrypt_seeded_lwe_ciphertext_list`](crate::core_crypto::encrypt_seeded_lwe_ciphertext_list).
/// Deserialization checks the LWE size (its dimension in `[1, 2^17]`).
///
/// ```
/// use gpufhe::core_crypto::*;
/// let key = LweSecretKey::generate_binary(LweDimension(64), &mut SecretRandomGenerator::from_os().unwrap());
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 10 };
/// let seeded = encrypt_seeded_lwe_ciphertext_list(&key, &[1 << 60, 2 << 60], noise, CompressionSeed::from_os().unwrap(), &mut rng).unwrap();
/// assert_eq!((seeded.lwe_size(), seeded.count()), (LweSize(65), LweCiphertextCount(2)));
/// // Two bodies and a seed instead of 2 x 65 coefficients.
/// assert_eq!(seeded.bodies().len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SeededKeyParts<LweSize>")]
pub struct SeededLweCiphertextList {
    pub(crate) bodies: Vec<u64>,
    pub(crate) seed: CompressionSeed,
    #[serde(rename = "shape")]
    pub(crate) lwe_size: LweSize,
}

impl SeededLweCiphertextList {
    /// A list from its parts; `Err` unless the LWE dimension (`lwe_size - 1`) is in
    /// `[1, 2^17]`.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let list = SeededLweCiphertextList::from_parts(vec![7, 8], CompressionSeed::new(1), LweSize(5)).unwrap();
    /// assert_eq!(list.decompress().iter().map(|ct| ct.body()).collect::<Vec<_>>(), vec![7, 8]);
    /// assert!(SeededLweCiphertextList::from_parts(vec![7], CompressionSeed::new(1), LweSize(1)).is_err());
    /// ```
    pub fn from_parts(bodies: Vec<u64>, seed: CompressionSeed, lwe_size: LweSize) -> Result<Self> {
        check_dimensions(
            "seeded LWE ciphertext list",
            &[lwe_size.0.saturating_sub(1)],
        )?;
        Ok(Self {
            bodies,
            seed,
            lwe_size,
        })
    }

    /// The size of each ciphertext once decompressed (`n + 1`).
    pub fn lwe_size(&self) -> LweSize {
        self.lwe_size
    }

    /// The number of ciphertexts.
    pub fn count(&self) -> LweCiphertextCount {
        LweCiphertextCount(self.bodies.len())
    }

    /// The seed of the masks (public: it replaces them).
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let list = SeededLweCiphertextList::from_parts(vec![1, 2, 3], CompressionSeed::new(4), LweSize(9)).unwrap();
    /// assert_eq!(list.seed(), CompressionSeed::new(4));
    /// assert_eq!((list.lwe_size(), list.count()), (LweSize(9), LweCiphertextCount(3)));
    /// assert_eq!(list.bodies(), &[1, 2, 3]);
    /// ```
    pub fn seed(&self) -> CompressionSeed {
        self.seed
    }

    /// The bodies, one per ciphertext.
    pub fn bodies(&self) -> &[u64] {
        &self.bodies
    }

    /// The bytes the decompressed list takes: `count * (n + 1) * 8` (saturating).
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let list = SeededLweCiphertextList::from_parts(vec![0; 3], CompressionSeed::new(0), LweSize(2049)).unwrap();
    /// assert_eq!(list.expanded_bytes(), 3 * 2049 * 8);
    /// ```
    pub fn expanded_bytes(&self) -> u64 {
        (self.bodies.len() as u64).saturating_mul(self.lwe_size.0 as u64 * 8)
    }
}

impl TryFrom<SeededKeyParts<LweSize>> for SeededLweCiphertextList {
    type Error = Error;

    fn try_from(parts: SeededKeyParts<LweSize>) -> Result<Self> {
        Self::from_parts(parts.bodies, parts.seed, parts.shape)
    }
}
