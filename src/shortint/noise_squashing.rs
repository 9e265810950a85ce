//! Noise squashing (TFHE-rs 1.8's `shortint::noise_squashing`): a block is
//! keyswitched to the small key, switched to the modulus `2N` and bootstrapped by a
//! 128-bit bootstrap key ([`crate::core_crypto::programmable_bootstrap_128`]) through
//! the identity over the block's whole cleartext space (message and carry, one
//! padding bit): the result, an LWE ciphertext modulo 2^128 under the
//! noise-squashing GLWE key, encodes the block's value `v` as `v * 2^127 / (message
//! modulus * carry modulus)` with a noise of about 2^-64 of the torus, small enough
//! for the threshold decryption protocols that need almost no noise.
//!
//! The parameters are TFHE-rs 1.8's `NoiseSquashingParameters`, with its values for
//! its default blocks and its GPU blocks (multi-bit, grouping factor 4: the 128-bit
//! key is TFHE-rs's multi-bit key, bootstrapped by
//! [`crate::core_crypto::multi_bit_programmable_bootstrap_128`]).

use super::{Ciphertext, ClientKey, ServerKey};
use crate::core_crypto::{
    decrypt_lwe_ciphertext_128, generate_seeded_lwe_bootstrap_key_128,
    generate_seeded_lwe_multi_bit_bootstrap_key_128, identity_lookup_table_128,
    modulus_switch_lwe_ciphertext, multi_bit_programmable_bootstrap_128,
    programmable_bootstrap_128, CompressionSeed, DecompositionBaseLog, DecompositionLevelCount,
    EncryptionRandomGenerator, Fourier128LweBootstrapKey, GlweDimension, GlweSecretKey,
    LweCiphertext128, ModulusSwitchType, NoiseDistribution, PolynomialSize, SecretRandomGenerator,
    SeededLweBootstrapKey128, MAX_GROUPING_FACTOR,
};
use crate::error::{check_eq, Error, Result};
use serde::{Deserialize, Serialize};

/// The parameters of noise squashing (TFHE-rs 1.8's `NoiseSquashingParameters`):
/// the 128-bit GLWE key and bootstrap key, and the block encoding they squash.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct NoiseSquashingParameters {
    /// `k` of the 128-bit GLWE key.
    pub glwe_dimension: GlweDimension,
    /// `N` of the 128-bit GLWE key.
    pub polynomial_size: PolynomialSize,
    /// Noise of the 128-bit bootstrap key (TUniform; its bound in units of 2^-128).
    pub glwe_noise_distribution: NoiseDistribution,
    /// `log2(B)` of the 128-bit bootstrap key's decomposition.
    pub decomp_base_log: DecompositionBaseLog,
    /// Levels of the 128-bit bootstrap key's decomposition.
    pub decomp_level_count: DecompositionLevelCount,
    /// How the modulus switch before the blind rotation rounds (classical keys).
    pub modulus_switch: ModulusSwitchType,
    /// Message modulus of the squashed blocks (the computation blocks').
    pub message_modulus: u64,
    /// Carry modulus of the squashed blocks (the computation blocks').
    pub carry_modulus: u64,
    /// `None` for a classical 128-bit bootstrap key (TFHE-rs's `Classic`), the
    /// grouping factor of a multi-bit one (TFHE-rs's `MultiBit`).
    pub grouping_factor: Option<usize>,
    /// TFHE-rs's `deterministic_execution` of a multi-bit key (`false` otherwise).
    pub deterministic_execution: bool,
}

/// TFHE-rs 1.8's noise-squashing parameters of its default blocks
/// (`NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`): a 128-bit GLWE
/// key of `k = 2`, `N = 2048`, a bootstrap key of `2^24 × 3` with TUniform(30),
/// centered-mean modulus switch, 2 + 2 bits.
pub const NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: NoiseSquashingParameters =
    NoiseSquashingParameters {
        glwe_dimension: GlweDimension(2),
        polynomial_size: PolynomialSize(2048),
        glwe_noise_distribution: NoiseDistribution::TUniform { log2_bound: 30 },
        decomp_base_log: DecompositionBaseLog(24),
        decomp_level_count: DecompositionLevelCount(3),
        modulus_switch: ModulusSwitchType::CenteredMeanNoiseReduction,
        message_modulus: 4,
        carry_modulus: 4,
        grouping_factor: None,
        deterministic_execution: false,
    };

/// TFHE-rs 1.8's multi-bit noise-squashing parameters of its GPU blocks
/// (`NOISE_SQUASHING_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`):
/// `k = 2`, `N = 2048`, `2^18 × 4`, grouping factor 4, TUniform(30), standard
/// modulus switch. Its key is `(n/4) 2^4` GGSW ciphertexts of 1.1 MiB for blocks of
/// dimension `n` (4 GiB for TFHE-rs's GPU blocks, `n = 920`): its generation takes minutes.
pub const NOISE_SQUASHING_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
    NoiseSquashingParameters = NoiseSquashingParameters {
    glwe_dimension: GlweDimension(2),
    polynomial_size: PolynomialSize(2048),
    glwe_noise_distribution: NoiseDistribution::TUniform { log2_bound: 30 },
    decomp_base_log: DecompositionBaseLog(18),
    decomp_level_count: DecompositionLevelCount(4),
    modulus_switch: ModulusSwitchType::Standard,
    message_modulus: 4,
    carry_modulus: 4,
    grouping_factor: Some(4),
    deterministic_execution: false,
};

/// **Insecure**: small noise-squashing parameters for the insecure test blocks
/// (`k = 1`, `N = 512`), for tests only.
#[cfg(any(test, feature = "test-params"))]
pub const NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2: NoiseSquashingParameters =
    NoiseSquashingParameters {
        glwe_dimension: GlweDimension(1),
        polynomial_size: PolynomialSize(512),
        ..NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128
    };

/// **Insecure**: small multi-bit noise-squashing parameters (those of
/// [`NOISE_SQUASHING_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`]
/// with `k = 1`, `N = 512`), for tests only.
#[cfg(any(test, feature = "test-params"))]
pub const NOISE_SQUASHING_PARAM_INSECURE_TEST_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2:
    NoiseSquashingParameters = NoiseSquashingParameters {
    glwe_dimension: GlweDimension(1),
    polynomial_size: PolynomialSize(512),
    ..NOISE_SQUASHING_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128
};

impl NoiseSquashingParameters {
    /// `Err` unless the parameters make a 128-bit key the 128-bit bootstrap takes
    /// (see [`crate::core_crypto::generate_lwe_bootstrap_key_128`]; a multi-bit one
    /// with a grouping factor of at most
    /// [`crate::core_crypto::MAX_GROUPING_FACTOR`] and the standard modulus switch),
    /// with power-of-two moduli whose cleartext space fits the polynomial.
    pub fn validate(&self) -> Result<()> {
        if let Some(g) = self.grouping_factor {
            if !(1..=MAX_GROUPING_FACTOR).contains(&g)
                || self.modulus_switch != ModulusSwitchType::Standard
            {
                return Err(Error::InvalidParameter(format!(
                    "multi-bit noise squashing takes a grouping factor in [1, \
                     {MAX_GROUPING_FACTOR}] and the standard modulus switch, got {g} and {:?}",
                    self.modulus_switch
                )));
            }
        }
        let p = self.message_modulus.saturating_mul(self.carry_modulus);
        if !self.message_modulus.is_power_of_two()
            || !self.carry_modulus.is_power_of_two()
            || self.carry_modulus < self.message_modulus
            || p as usize > self.polynomial_size.0
        {
            return Err(Error::InvalidParameter(format!(
                "noise squashing needs power-of-two moduli with carry >= message and \
                 message * carry <= N, got {} and {} (N = {})",
                self.message_modulus, self.carry_modulus, self.polynomial_size.0
            )));
        }
        let shape = crate::core_crypto::BootstrapKeyShape {
            input_lwe_dimension: crate::core_crypto::LweDimension(1),
            glwe_dimension: self.glwe_dimension,
            polynomial_size: self.polynomial_size,
            base_log: self.decomp_base_log,
            level: self.decomp_level_count,
        };
        crate::core_crypto::validate_shape_128(&shape)?;
        match self.glwe_noise_distribution {
            NoiseDistribution::TUniform { .. } => self.glwe_noise_distribution.validate(),
            NoiseDistribution::Gaussian { .. } => Err(Error::InvalidParameter(
                "noise squashing takes a TUniform noise distribution".into(),
            )),
        }
    }

    /// The number of values of the squashed encoding, `message_modulus *
    /// carry_modulus`.
    pub fn cleartext_space(&self) -> u64 {
        self.message_modulus * self.carry_modulus
    }

    /// `log2` of the scaling factor of the squashed encoding: `delta = 2^127 /
    /// (message modulus * carry modulus)`.
    pub fn log2_delta(&self) -> u32 {
        127 - self.cleartext_space().ilog2()
    }

    /// `Err` unless the blocks of `parameters` have these moduli.
    pub(crate) fn check_blocks(&self, parameters: &super::ShortintParameters) -> Result<()> {
        check_eq(
            "message modulus of the noise-squashing parameters",
            parameters.message_modulus as usize,
            self.message_modulus as usize,
        )?;
        check_eq(
            "carry modulus of the noise-squashing parameters",
            parameters.carry_modulus as usize,
            self.carry_modulus as usize,
        )
    }
}

/// The noise-squashing private key: the 128-bit GLWE key (binary) squashed blocks
/// are encrypted under (as an LWE key of dimension `kN`), and its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoiseSquashingPrivateKey {
    pub(crate) key: GlweSecretKey,
    pub(crate) params: NoiseSquashingParameters,
}

/// A squashed block: an LWE ciphertext modulo 2^128 and its bookkeeping.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquashedNoiseBlock {
    pub(crate) ct: LweCiphertext128,
    pub(crate) degree: u64,
    pub(crate) message_modulus: u64,
    pub(crate) carry_modulus: u64,
}

impl SquashedNoiseBlock {
    /// The 128-bit LWE ciphertext.
    pub fn as_lwe(&self) -> &LweCiphertext128 {
        &self.ct
    }

    /// The public upper bound of the encrypted value.
    pub fn degree(&self) -> u64 {
        self.degree
    }

    /// The message modulus of the encoding.
    pub fn message_modulus(&self) -> u64 {
        self.message_modulus
    }

    /// The carry modulus of the encoding.
    pub fn carry_modulus(&self) -> u64 {
        self.carry_modulus
    }
}

impl NoiseSquashingPrivateKey {
    /// Draws a key from the operating system's randomness; `Err` for invalid
    /// parameters.
    pub fn new(params: NoiseSquashingParameters) -> Result<Self> {
        Self::from_secret_generator(params, &mut SecretRandomGenerator::from_os()?)
    }

    /// Draws a key from `secret` (reproducible keys for tests).
    pub fn from_secret_generator(
        params: NoiseSquashingParameters,
        secret: &mut SecretRandomGenerator,
    ) -> Result<Self> {
        params.validate()?;
        let key =
            GlweSecretKey::generate_binary(params.glwe_dimension, params.polynomial_size, secret)?;
        Ok(Self { key, params })
    }

    /// The key of these parts; `Err` unless the key has the parameters' shape.
    pub(crate) fn from_parts(key: GlweSecretKey, params: NoiseSquashingParameters) -> Result<Self> {
        params.validate()?;
        check_eq(
            "polynomial size of the noise-squashing key",
            params.polynomial_size.0,
            key.polynomial_size().0,
        )?;
        check_eq(
            "GLWE dimension of the noise-squashing key",
            params.glwe_dimension.0,
            key.glwe_dimension().0,
        )?;
        Ok(Self { key, params })
    }

    /// Its parameters.
    pub fn parameters(&self) -> &NoiseSquashingParameters {
        &self.params
    }

    /// The 128-bit GLWE key.
    pub fn glwe_secret_key(&self) -> &GlweSecretKey {
        &self.key
    }

    /// Decrypts a squashed block: its value modulo the cleartext space; `Err` if the
    /// block's encoding or size is not this key's.
    pub fn decrypt(&self, block: &SquashedNoiseBlock) -> Result<u128> {
        check_eq(
            "message modulus of the squashed block",
            self.params.message_modulus as usize,
            block.message_modulus as usize,
        )?;
        check_eq(
            "carry modulus of the squashed block",
            self.params.carry_modulus as usize,
            block.carry_modulus as usize,
        )?;
        let phase = decrypt_lwe_ciphertext_128(&self.key, &block.ct)?;
        let log2_delta = self.params.log2_delta();
        let rounded = phase.wrapping_add(1u128 << (log2_delta - 1)) >> log2_delta;
        Ok(rounded % u128::from(self.params.cleartext_space()))
    }
}

/// The noise-squashing key of the server: the 128-bit bootstrap key from the small
/// LWE key of the blocks to the noise-squashing GLWE key, in the Fourier domain.
#[derive(Debug, Clone, PartialEq)]
pub struct NoiseSquashingKey {
    pub(crate) bsk: Fourier128LweBootstrapKey,
    pub(crate) params: NoiseSquashingParameters,
}

/// The noise-squashing key as a seed and the bodies of its rows (TFHE-rs's
/// `CompressedNoiseSquashingKey`).
#[derive(Debug, Clone, PartialEq)]
pub struct CompressedNoiseSquashingKey {
    pub(crate) bsk: SeededLweBootstrapKey128,
    pub(crate) params: NoiseSquashingParameters,
}

impl CompressedNoiseSquashingKey {
    /// Generates the key from the blocks' client key and the noise-squashing private
    /// key, on the rayon pool; `Err` if their moduli differ, or the OS random source
    /// fails.
    pub fn new(client_key: &ClientKey, private_key: &NoiseSquashingPrivateKey) -> Result<Self> {
        let params = private_key.params;
        params.validate()?;
        params.check_blocks(&client_key.parameters)?;
        let mut rng = EncryptionRandomGenerator::from_os()?;
        let (input, output, seed) = (
            &client_key.small_lwe_secret_key,
            &private_key.key,
            CompressionSeed::from_os()?,
        );
        let (b, l, noise) = (
            params.decomp_base_log,
            params.decomp_level_count,
            params.glwe_noise_distribution,
        );
        let bsk = match params.grouping_factor {
            None => {
                generate_seeded_lwe_bootstrap_key_128(input, output, b, l, noise, seed, &mut rng)?
            }
            Some(g) => generate_seeded_lwe_multi_bit_bootstrap_key_128(
                input, output, b, l, noise, g, seed, &mut rng,
            )?,
        };
        Ok(Self { bsk, params })
    }

    /// The key in the Fourier domain (masks regenerated from the seed).
    pub fn decompress(&self) -> NoiseSquashingKey {
        NoiseSquashingKey {
            bsk: self.bsk.decompress_to_fourier(),
            params: self.params,
        }
    }

    /// Its parameters.
    pub fn parameters(&self) -> &NoiseSquashingParameters {
        &self.params
    }

    /// The seeded 128-bit bootstrap key.
    pub fn bootstrap_key(&self) -> &SeededLweBootstrapKey128 {
        &self.bsk
    }
}

impl NoiseSquashingKey {
    /// Its parameters.
    pub fn parameters(&self) -> &NoiseSquashingParameters {
        &self.params
    }

    /// The 128-bit bootstrap key.
    pub fn bootstrap_key(&self) -> &Fourier128LweBootstrapKey {
        &self.bsk
    }

    /// Squashes the noise of `block` (a block of `server_key`'s, whose degree fits
    /// the cleartext space): keyswitch, modulus switch, 128-bit bootstrap through the
    /// identity.
    ///
    /// ```
    /// use gpufhe::shortint::*;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// # use gpufhe::shortint::NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as NS_PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let private = NoiseSquashingPrivateKey::new(NS_PARAMETERS).unwrap();
    /// let nsk = CompressedNoiseSquashingKey::new(&ck, &private).unwrap().decompress();
    /// let squashed = nsk.squash(&sk, &ck.encrypt_with_carry(13).unwrap()).unwrap();
    /// assert_eq!(private.decrypt(&squashed).unwrap(), 13);
    /// ```
    pub fn squash(&self, server_key: &ServerKey, block: &Ciphertext) -> Result<SquashedNoiseBlock> {
        self.check_block(server_key, block)?;
        let small = server_key.keyswitch(block)?;
        self.squash_small(&small, block.degree)
    }

    /// `Err` unless `block` is a block of `server_key`'s parameters (those this key
    /// squashes) whose degree fits the cleartext space.
    pub(crate) fn check_block(&self, server_key: &ServerKey, block: &Ciphertext) -> Result<()> {
        self.params.check_blocks(&server_key.parameters)?;
        let space = self.params.cleartext_space();
        if block.degree >= space {
            return Err(Error::InvalidParameter(format!(
                "a block of degree {} does not fit the {space} values of noise squashing",
                block.degree
            )));
        }
        Ok(())
    }

    /// The accumulator of the squashing bootstrap: the identity over the cleartext
    /// space, each value `m` as `m * delta` modulo 2^128.
    pub(crate) fn accumulator(&self) -> Result<Vec<u128>> {
        let p = &self.params;
        identity_lookup_table_128(
            p.polynomial_size,
            p.glwe_dimension,
            p.cleartext_space() as usize,
            1u128 << p.log2_delta(),
        )
    }

    /// The squashed block of a 128-bit bootstrap's output `ct` of a block of degree
    /// `degree`.
    pub(crate) fn squashed_block(&self, ct: LweCiphertext128, degree: u64) -> SquashedNoiseBlock {
        SquashedNoiseBlock {
            ct,
            degree,
            message_modulus: self.params.message_modulus,
            carry_modulus: self.params.carry_modulus,
        }
    }

    /// Squashes a ciphertext already under the small key.
    pub(crate) fn squash_small(
        &self,
        small: &crate::core_crypto::LweCiphertextOwned,
        degree: u64,
    ) -> Result<SquashedNoiseBlock> {
        let p = &self.params;
        let switched =
            modulus_switch_lwe_ciphertext(small, p.polynomial_size.log2() + 1, p.modulus_switch)?;
        let accumulator = self.accumulator()?;
        let ct = match p.grouping_factor {
            None => programmable_bootstrap_128(&switched, &accumulator, &self.bsk)?,
            Some(g) => multi_bit_programmable_bootstrap_128(&switched, &accumulator, &self.bsk, g)?,
        };
        Ok(self.squashed_block(ct, degree))
    }
}
