//! Compression of squashed blocks (TFHE-rs 1.8's `NoiseSquashingCompressionKey`
//! and `CompressedSquashedNoiseCiphertextList`): squashed blocks (128-bit LWE
//! ciphertexts under the noise-squashing key) are packed, `lwe_per_glwe` at a time,
//! into 128-bit GLWE ciphertexts under a compression key by a 128-bit packing
//! keyswitch ([`crate::core_crypto::keyswitch_lwe_ciphertexts_into_glwe_128`]).
//! Unpacking extracts a coefficient, with no bootstrap: the block comes back under
//! the compression key (read as an LWE key), which the client key's
//! [`NoiseSquashingCompressionPrivateKey`] decrypts.

use super::{NoiseSquashingPrivateKey, SquashedNoiseBlock};
use crate::core_crypto::{
    extract_lwe_sample_128, generate_seeded_lwe_packing_keyswitch_key_128,
    keyswitch_lwe_ciphertexts_into_glwe_128, CompressionSeed, DecompositionBaseLog,
    DecompositionLevelCount, EncryptionRandomGenerator, GlweDimension, GlweSecretKey,
    LwePackingKeyswitchKey128, NoiseDistribution, PolynomialSize, SecretRandomGenerator,
    SeededLwePackingKeyswitchKey128,
};
use crate::error::{check_eq, Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The parameters of the compression of squashed blocks (TFHE-rs 1.8's
/// `NoiseSquashingCompressionParameters`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct NoiseSquashingCompressionParameters {
    /// Levels of the packing keyswitch's decomposition.
    pub packing_ks_level: DecompositionLevelCount,
    /// `log2(B)` of the packing keyswitch's decomposition.
    pub packing_ks_base_log: DecompositionBaseLog,
    /// `N` of the compression GLWE key.
    pub packing_ks_polynomial_size: PolynomialSize,
    /// `k` of the compression GLWE key.
    pub packing_ks_glwe_dimension: GlweDimension,
    /// Squashed blocks packed per GLWE ciphertext (at most `N`).
    pub lwe_per_glwe: usize,
    /// Noise of the packing keyswitching key (TUniform, in units of 2^-128).
    pub packing_ks_key_noise_distribution: NoiseDistribution,
    /// Message modulus of the compressed blocks.
    pub message_modulus: u64,
    /// Carry modulus of the compressed blocks.
    pub carry_modulus: u64,
}

/// TFHE-rs 1.8's compression parameters of squashed default blocks
/// (`NOISE_SQUASHING_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`): a
/// compression key of `k = 6`, `N = 1024`, a packing key of `2^41 × 2` with
/// TUniform(3), 128 blocks per GLWE ciphertext.
pub const NOISE_SQUASHING_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
    NoiseSquashingCompressionParameters = NoiseSquashingCompressionParameters {
    packing_ks_level: DecompositionLevelCount(2),
    packing_ks_base_log: DecompositionBaseLog(41),
    packing_ks_polynomial_size: PolynomialSize(1024),
    packing_ks_glwe_dimension: GlweDimension(6),
    lwe_per_glwe: 128,
    packing_ks_key_noise_distribution: NoiseDistribution::TUniform { log2_bound: 3 },
    message_modulus: 4,
    carry_modulus: 4,
};

/// TFHE-rs 1.8's compression parameters of squashed GPU multi-bit blocks
/// (`NOISE_SQUASHING_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`):
/// `k = 5`, `N = 1024`, `2^33 × 2`, TUniform(4).
pub const NOISE_SQUASHING_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
    NoiseSquashingCompressionParameters = NoiseSquashingCompressionParameters {
    packing_ks_level: DecompositionLevelCount(2),
    packing_ks_base_log: DecompositionBaseLog(33),
    packing_ks_polynomial_size: PolynomialSize(1024),
    packing_ks_glwe_dimension: GlweDimension(5),
    lwe_per_glwe: 128,
    packing_ks_key_noise_distribution: NoiseDistribution::TUniform { log2_bound: 4 },
    message_modulus: 4,
    carry_modulus: 4,
};

/// **Insecure**: small compression parameters for the insecure test blocks
/// (`k = 1`, `N = 256`, 16 blocks per GLWE ciphertext, so that a short list spans
/// several), for tests only.
#[cfg(any(test, feature = "test-params"))]
pub const NOISE_SQUASHING_COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2:
    NoiseSquashingCompressionParameters = NoiseSquashingCompressionParameters {
    packing_ks_polynomial_size: PolynomialSize(256),
    packing_ks_glwe_dimension: GlweDimension(1),
    lwe_per_glwe: 16,
    ..NOISE_SQUASHING_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128
};

impl NoiseSquashingCompressionParameters {
    /// `Err` unless a key of these parameters can be made and packs blocks of
    /// `squashing`'s encoding: the same moduli, at most `N` blocks per GLWE
    /// ciphertext, a 128-bit decomposition, TUniform noise.
    pub fn validate(&self, squashing: &super::NoiseSquashingParameters) -> Result<()> {
        check_eq(
            "message modulus of the noise-squashing compression parameters",
            squashing.message_modulus as usize,
            self.message_modulus as usize,
        )?;
        check_eq(
            "carry modulus of the noise-squashing compression parameters",
            squashing.carry_modulus as usize,
            self.carry_modulus as usize,
        )?;
        if self.lwe_per_glwe == 0 || self.lwe_per_glwe > self.packing_ks_polynomial_size.0 {
            return Err(Error::InvalidParameter(format!(
                "{} squashed blocks per GLWE ciphertext do not fit N = {}",
                self.lwe_per_glwe, self.packing_ks_polynomial_size.0
            )));
        }
        crate::core_crypto::check_decomposition_128(
            self.packing_ks_base_log,
            self.packing_ks_level,
        )?;
        match self.packing_ks_key_noise_distribution {
            NoiseDistribution::TUniform { .. } => self.packing_ks_key_noise_distribution.validate(),
            NoiseDistribution::Gaussian { .. } => Err(Error::InvalidParameter(
                "noise-squashing compression takes a TUniform noise distribution".into(),
            )),
        }
    }
}

/// The client's compression key of squashed blocks: a binary 128-bit GLWE key (the
/// decompressed blocks' LWE key) and its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoiseSquashingCompressionPrivateKey {
    pub(crate) key: GlweSecretKey,
    pub(crate) params: NoiseSquashingCompressionParameters,
}

impl NoiseSquashingCompressionPrivateKey {
    /// Draws a key from the operating system's randomness.
    pub fn new(params: NoiseSquashingCompressionParameters) -> Result<Self> {
        Self::from_secret_generator(params, &mut SecretRandomGenerator::from_os()?)
    }

    /// Draws a key from `secret` (reproducible keys for tests).
    pub fn from_secret_generator(
        params: NoiseSquashingCompressionParameters,
        secret: &mut SecretRandomGenerator,
    ) -> Result<Self> {
        let key = GlweSecretKey::generate_binary(
            params.packing_ks_glwe_dimension,
            params.packing_ks_polynomial_size,
            secret,
        )?;
        Ok(Self { key, params })
    }

    /// The key of these parts; `Err` unless the key has the parameters' shape.
    pub(crate) fn from_parts(
        key: GlweSecretKey,
        params: NoiseSquashingCompressionParameters,
    ) -> Result<Self> {
        check_eq(
            "polynomial size of the noise-squashing compression key",
            params.packing_ks_polynomial_size.0,
            key.polynomial_size().0,
        )?;
        check_eq(
            "GLWE dimension of the noise-squashing compression key",
            params.packing_ks_glwe_dimension.0,
            key.glwe_dimension().0,
        )?;
        Ok(Self { key, params })
    }

    /// Its parameters.
    pub fn parameters(&self) -> &NoiseSquashingCompressionParameters {
        &self.params
    }

    /// The 128-bit GLWE key.
    pub fn glwe_secret_key(&self) -> &GlweSecretKey {
        &self.key
    }

    /// The key that decrypts the blocks of a compressed list: this key with the
    /// squashing parameters' encoding.
    pub(crate) fn decryption_key(
        &self,
        squashing: &NoiseSquashingPrivateKey,
    ) -> NoiseSquashingPrivateKey {
        NoiseSquashingPrivateKey {
            key: self.key.clone(),
            params: squashing.params,
        }
    }
}

/// The server's compression key of squashed blocks: a 128-bit packing
/// keyswitching key from the noise-squashing key to the compression key.
#[derive(Debug, Clone, PartialEq)]
pub struct NoiseSquashingCompressionKey {
    pub(crate) key: LwePackingKeyswitchKey128,
    pub(crate) params: NoiseSquashingCompressionParameters,
}

/// The seeded compression key of squashed blocks (TFHE-rs's
/// `CompressedNoiseSquashingCompressionKey`).
#[derive(Debug, Clone, PartialEq)]
pub struct CompressedNoiseSquashingCompressionKey {
    pub(crate) key: SeededLwePackingKeyswitchKey128,
    pub(crate) params: NoiseSquashingCompressionParameters,
}

impl CompressedNoiseSquashingCompressionKey {
    /// Generates the key from the noise-squashing private key to the compression
    /// private key, on the rayon pool; `Err` for mismatched parameters.
    pub fn new(
        squashing: &NoiseSquashingPrivateKey,
        compression: &NoiseSquashingCompressionPrivateKey,
    ) -> Result<Self> {
        let params = compression.params;
        params.validate(&squashing.params)?;
        let key = generate_seeded_lwe_packing_keyswitch_key_128(
            &squashing.key,
            &compression.key,
            params.packing_ks_base_log,
            params.packing_ks_level,
            params.packing_ks_key_noise_distribution,
            CompressionSeed::from_os()?,
            &mut EncryptionRandomGenerator::from_os()?,
        )?;
        Ok(Self { key, params })
    }

    /// The key with its masks regenerated.
    pub fn decompress(&self) -> NoiseSquashingCompressionKey {
        NoiseSquashingCompressionKey {
            key: self.key.decompress(),
            params: self.params,
        }
    }

    /// Its parameters.
    pub fn parameters(&self) -> &NoiseSquashingCompressionParameters {
        &self.params
    }

    /// The seeded packing keyswitching key.
    pub fn packing_key(&self) -> &SeededLwePackingKeyswitchKey128 {
        &self.key
    }
}

/// Squashed blocks packed into 128-bit GLWE ciphertexts (TFHE-rs's `shortint`
/// `CompressedSquashedNoiseCiphertextList`): each GLWE ciphertext keeps its masks
/// and the bodies of the blocks it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompressedSquashedNoiseBlockList {
    /// Per GLWE ciphertext: its masks then its first `count` bodies.
    pub(crate) glwes: Vec<Vec<u128>>,
    /// The number of blocks of each GLWE ciphertext.
    pub(crate) counts: Vec<usize>,
    pub(crate) glwe_dimension: GlweDimension,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) message_modulus: u64,
    pub(crate) carry_modulus: u64,
    pub(crate) lwe_per_glwe: usize,
}

impl NoiseSquashingCompressionKey {
    /// Its parameters.
    pub fn parameters(&self) -> &NoiseSquashingCompressionParameters {
        &self.params
    }

    /// The packing keyswitching key.
    pub fn packing_key(&self) -> &LwePackingKeyswitchKey128 {
        &self.key
    }

    /// Packs `blocks` (squashed by the noise-squashing key this key starts from, of
    /// its encoding), `lwe_per_glwe` per GLWE ciphertext, on the rayon pool; `Err`
    /// for blocks of another size or encoding.
    pub fn compress(
        &self,
        blocks: &[SquashedNoiseBlock],
    ) -> Result<CompressedSquashedNoiseBlockList> {
        let p = &self.params;
        for b in blocks {
            if b.message_modulus != p.message_modulus || b.carry_modulus != p.carry_modulus {
                return Err(Error::InvalidParameter(format!(
                    "a squashed block of moduli {} and {} does not compress with parameters \
                     of moduli {} and {}",
                    b.message_modulus, b.carry_modulus, p.message_modulus, p.carry_modulus
                )));
            }
        }
        let (k, n) = (
            p.packing_ks_glwe_dimension.0,
            p.packing_ks_polynomial_size.0,
        );
        let packed: Vec<(Vec<u128>, usize)> = blocks
            .par_chunks(p.lwe_per_glwe)
            .map(|chunk| {
                let cts: Vec<_> = chunk.iter().map(|b| b.ct.clone()).collect();
                let mut glwe = keyswitch_lwe_ciphertexts_into_glwe_128(&self.key, &cts)?;
                glwe.truncate(k * n + chunk.len());
                Ok((glwe, chunk.len()))
            })
            .collect::<Result<_>>()?;
        let (glwes, counts) = packed.into_iter().unzip();
        Ok(CompressedSquashedNoiseBlockList {
            glwes,
            counts,
            glwe_dimension: p.packing_ks_glwe_dimension,
            polynomial_size: p.packing_ks_polynomial_size,
            message_modulus: p.message_modulus,
            carry_modulus: p.carry_modulus,
            lwe_per_glwe: p.lwe_per_glwe,
        })
    }
}

impl CompressedSquashedNoiseBlockList {
    /// The number of blocks.
    pub fn len(&self) -> usize {
        self.counts.iter().sum()
    }

    /// Whether it holds no block.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `Err` unless every GLWE ciphertext has its masks and bodies, the counts fit
    /// and all but the last GLWE ciphertext are full (an empty list holds none).
    pub(crate) fn validate(&self) -> Result<()> {
        if self.glwes.is_empty() && self.counts.is_empty() {
            return Ok(()); // TFHE-rs's empty list states no sizes
        }
        let (k, n) = (self.glwe_dimension.0, self.polynomial_size.0);
        crate::core_crypto::check_dimensions("compressed squashed list", &[k, n])?;
        if self.lwe_per_glwe == 0 || self.lwe_per_glwe > n || self.glwes.len() != self.counts.len()
        {
            return Err(Error::InvalidParameter(
                "a compressed squashed list of inconsistent sizes".into(),
            ));
        }
        let last = self.counts.len().saturating_sub(1);
        for (i, (glwe, &count)) in self.glwes.iter().zip(&self.counts).enumerate() {
            let full = i < last && count != self.lwe_per_glwe;
            if count == 0 || count > self.lwe_per_glwe || full || glwe.len() != k * n + count {
                return Err(Error::InvalidParameter(format!(
                    "GLWE ciphertext {i} of a compressed squashed list holds {} values for {count} \
                     blocks of {} per ciphertext (k = {k}, N = {n})",
                    glwe.len(),
                    self.lwe_per_glwe
                )));
            }
        }
        Ok(())
    }

    /// Block `index` (under the compression key), `None` past the end.
    pub fn unpack(&self, index: usize) -> Result<Option<SquashedNoiseBlock>> {
        self.validate()?;
        if index >= self.len() {
            return Ok(None);
        }
        let (g, t) = (index / self.lwe_per_glwe, index % self.lwe_per_glwe);
        let (k, n) = (self.glwe_dimension.0, self.polynomial_size.0);
        let mut glwe = self.glwes[g].clone();
        glwe.resize((k + 1) * n, 0);
        let ct = extract_lwe_sample_128(&glwe, self.glwe_dimension, t)?;
        let degree = self
            .message_modulus
            .checked_mul(self.carry_modulus)
            .and_then(|space| space.checked_sub(1))
            .ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "a squashed list of message modulus {} and carry modulus {}",
                    self.message_modulus, self.carry_modulus
                ))
            })?;
        Ok(Some(SquashedNoiseBlock {
            ct,
            degree,
            message_modulus: self.message_modulus,
            carry_modulus: self.carry_modulus,
        }))
    }
}
