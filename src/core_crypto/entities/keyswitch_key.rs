//! LWE keyswitching keys, plain and seeded (compressed).

use crate::core_crypto::commons::{
    DecompositionBaseLog, DecompositionLevelCount, LweDimension, LweSize,
};
use crate::core_crypto::entities::{
    check_container_len, check_decomposition, check_dimensions, KeyParts, SeededKeyParts,
};
use crate::core_crypto::random::CompressionSeed;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// The shape shared by the plain and the seeded keyswitching keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyswitchKeyShape {
    /// Dimension of the key the input ciphertexts are encrypted under.
    pub input_lwe_dimension: LweDimension,
    /// Dimension of the key the outputs are encrypted under.
    pub output_lwe_dimension: LweDimension,
    /// `log2(B)` of the decomposition.
    pub base_log: DecompositionBaseLog,
    /// Number of levels of the decomposition.
    pub level: DecompositionLevelCount,
}

impl KeyswitchKeyShape {
    /// Number of LWE ciphertexts in the key: one per input coefficient and level.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let shape = KeyswitchKeyShape {
    ///     input_lwe_dimension: LweDimension(512),
    ///     output_lwe_dimension: LweDimension(64),
    ///     base_log: DecompositionBaseLog(4),
    ///     level: DecompositionLevelCount(3),
    /// };
    /// assert_eq!(shape.ciphertext_count(), 512 * 3);
    /// ```
    pub fn ciphertext_count(&self) -> usize {
        self.input_lwe_dimension.0 * self.level.0
    }

    /// `Err` unless the dimensions are in `[1, 2^17]` and the decomposition is valid.
    pub(crate) fn validate(&self) -> Result<()> {
        check_dimensions(
            "keyswitching key",
            &[self.input_lwe_dimension.0, self.output_lwe_dimension.0],
        )?;
        check_decomposition(self.base_log, self.level)
    }
}

/// A keyswitching key from an input LWE key `s` to an output key `s'`: for every
/// coefficient `s_i` and level `j`, an encryption of `s_i / B^j` under `s'`.
///
/// Layout: input coefficient, then level (1, the most significant, first), then the
/// `n' + 1` coefficients. TFHE-rs stores the levels in the opposite order (see
/// `tfhe_rs_layout`).
/// Deserialization checks the shape and the number of coefficients.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "KeyParts<u64, KeyswitchKeyShape>")]
pub struct LweKeyswitchKey {
    pub(crate) data: Vec<u64>,
    pub(crate) shape: KeyswitchKeyShape,
    #[serde(skip)]
    pub(crate) rounded: RoundedRows,
}

/// The coefficients of a keyswitching key rounded to their 32 high bits, built on
/// first use by [`crate::core_crypto::keyswitch_lwe_ciphertext_batch_rounded`] and
/// shared by the key's clones. Derived from the key's data, which never changes after
/// construction, so it takes no part in equality.
#[derive(Clone, Default)]
pub(crate) struct RoundedRows(Arc<OnceLock<Box<[u32]>>>);

impl RoundedRows {
    /// `round(x / 2^32) mod 2^32` for every coefficient of `data`, built once.
    pub(crate) fn get_or_build(&self, data: &[u64]) -> &[u32] {
        self.0
            .get_or_init(|| data.iter().map(|&x| round_to_high_half(x)).collect())
    }
}

/// `round(x / 2^32) mod 2^32`: the 32 high bits of `x`, rounded to nearest.
#[inline(always)]
pub(crate) fn round_to_high_half(x: u64) -> u32 {
    (x.wrapping_add(1 << 31) >> 32) as u32
}

impl PartialEq for RoundedRows {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for RoundedRows {}

impl std::fmt::Debug for RoundedRows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RoundedRows {{ built: {} }}", self.0.get().is_some())
    }
}

impl LweKeyswitchKey {
    /// The key's dimensions and decomposition.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
    /// let small = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    /// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// let (b, l) = (DecompositionBaseLog(4), DecompositionLevelCount(4));
    /// let ksk = generate_lwe_keyswitch_key(&big, &small, b, l, noise, &mut rng).unwrap();
    /// assert_eq!(ksk.shape().input_lwe_dimension, LweDimension(64));
    /// assert_eq!(ksk.shape().output_lwe_dimension, LweDimension(16));
    /// ```
    pub fn shape(&self) -> KeyswitchKeyShape {
        self.shape
    }

    /// The size of the output ciphertexts.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
    /// # let small = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(4), DecompositionLevelCount(4));
    /// let ksk = generate_lwe_keyswitch_key(&big, &small, b, l, noise, &mut rng).unwrap();
    /// assert_eq!(ksk.output_lwe_size(), LweSize(17));
    /// ```
    pub fn output_lwe_size(&self) -> LweSize {
        self.shape.output_lwe_dimension.to_lwe_size()
    }

    /// All coefficients.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
    /// # let small = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(4), DecompositionLevelCount(4));
    /// let ksk = generate_lwe_keyswitch_key(&big, &small, b, l, noise, &mut rng).unwrap();
    /// // One ciphertext of size 17 per input coefficient and level.
    /// assert_eq!(ksk.as_slice().len(), 64 * 4 * 17);
    /// ```
    pub fn as_slice(&self) -> &[u64] {
        &self.data
    }
}

/// A keyswitching key stored as a seed and the bodies: about `n' + 1` times smaller.
/// [`SeededLweKeyswitchKey::decompress`] regenerates the masks from the seed.
/// Deserialization checks the shape and the number of bodies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SeededKeyParts<KeyswitchKeyShape>")]
pub struct SeededLweKeyswitchKey {
    pub(crate) bodies: Vec<u64>,
    pub(crate) seed: CompressionSeed,
    pub(crate) shape: KeyswitchKeyShape,
}

impl SeededLweKeyswitchKey {
    /// The key's dimensions and decomposition.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
    /// # let small = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(4), DecompositionLevelCount(4));
    /// let seeded = generate_seeded_lwe_keyswitch_key(&big, &small, b, l, noise, CompressionSeed::new(1), &mut rng).unwrap();
    /// assert_eq!(seeded.shape().level, DecompositionLevelCount(4));
    /// assert_eq!(seeded.shape(), seeded.decompress().shape());
    /// ```
    pub fn shape(&self) -> KeyswitchKeyShape {
        self.shape
    }

    /// The seed of the masks.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
    /// # let small = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(4), DecompositionLevelCount(4));
    /// let mask_seed = CompressionSeed::from_os().unwrap();
    /// let seeded = generate_seeded_lwe_keyswitch_key(&big, &small, b, l, noise, mask_seed, &mut rng).unwrap();
    /// assert_eq!(seeded.seed(), mask_seed);
    /// ```
    pub fn seed(&self) -> CompressionSeed {
        self.seed
    }

    /// The bodies, one per ciphertext of the key, in TFHE-rs's order (per input
    /// coefficient, the least significant level first; the masks are drawn in the
    /// same order).
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
    /// # let small = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(4), DecompositionLevelCount(4));
    /// let seeded = generate_seeded_lwe_keyswitch_key(&big, &small, b, l, noise, CompressionSeed::new(1), &mut rng).unwrap();
    /// assert_eq!(seeded.bodies().len(), seeded.shape().ciphertext_count());
    /// let plain: Vec<u64> = seeded.decompress().as_slice().chunks(17).map(|ct| ct[16]).collect();
    /// // Per input coefficient, the levels in TFHE-rs's order: the reverse of the plain key's.
    /// for (stored, plain) in seeded.bodies().chunks(4).zip(plain.chunks(4)) {
    ///     assert!(stored.iter().eq(plain.iter().rev()));
    /// }
    /// ```
    pub fn bodies(&self) -> &[u64] {
        &self.bodies
    }
}

impl TryFrom<KeyParts<u64, KeyswitchKeyShape>> for LweKeyswitchKey {
    type Error = Error;

    fn try_from(parts: KeyParts<u64, KeyswitchKeyShape>) -> Result<Self> {
        let shape = parts.shape;
        shape.validate()?;
        check_container_len(
            "number of coefficients of the keyswitching key",
            &[
                shape.input_lwe_dimension.0,
                shape.level.0,
                shape.output_lwe_dimension.0 + 1,
            ],
            parts.data.len(),
        )?;
        Ok(Self {
            data: parts.data,
            shape,
            rounded: RoundedRows::default(),
        })
    }
}

impl TryFrom<SeededKeyParts<KeyswitchKeyShape>> for SeededLweKeyswitchKey {
    type Error = Error;

    fn try_from(parts: SeededKeyParts<KeyswitchKeyShape>) -> Result<Self> {
        let shape = parts.shape;
        shape.validate()?;
        check_container_len(
            "number of bodies of the seeded keyswitching key",
            &[shape.input_lwe_dimension.0, shape.level.0],
            parts.bodies.len(),
        )?;
        Ok(Self {
            bodies: parts.bodies,
            seed: parts.seed,
            shape,
        })
    }
}
