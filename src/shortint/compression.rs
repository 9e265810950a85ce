//! Ciphertext compression, the scheme and parameters of TFHE-rs 1.8: the parameters
//! and keys that pack many blocks into one GLWE ciphertext stored on few bits, and
//! expand them back.
//!
//! **Scheme.** A separate GLWE key `S_c` (the compression key, `k_c`, `N_c`) holds
//! the packed blocks. Compression multiplies every block by its message modulus
//! (its message moves into the carry bits, which must be empty), keyswitches up to
//! `lwe_per_glwe` blocks (under the big key) into the coefficients of one GLWE
//! ciphertext under `S_c` (the packing keyswitching key,
//! [`crate::core_crypto::keyswitch_lwe_ciphertexts_into_glwe`]) and rounds every
//! coefficient to its `storage_log_modulus` high bits; only the mask and the bodies
//! of the packed blocks are kept. Decompression extracts a block's coefficient (an
//! LWE ciphertext under `S_c` read as an LWE key of dimension `k_c·N_c`) and
//! bootstraps it with the decompression key, a bootstrap key from `S_c` to the big
//! GLWE key (classical, or multi-bit of `decompression_grouping_factor`), through
//! the identity table from the packed encoding (messages modulo the carry modulus,
//! with the padding bit) to the blocks' encoding: the block comes back with the
//! noise of a bootstrap output (noise level 1) and the degree `message_modulus - 1`.
//! The packing key encrypts under `S_c` with `packing_ks_key_noise_distribution`;
//! the decompression key under the big key with the blocks' GLWE noise.
//!
//! **Noise.** The blind rotation of decompression reads the packed block's noise
//! times `message_modulus^2`, the packing keyswitch (key noise of every block of the
//! GLWE ciphertext, rounding of its own mask) and the rounding of its `k_c·N_c + 1`
//! coefficients to the storage modulus
//! ([`CompressionParameters::decompression_input_variance`]); its probability of
//! failure ([`CompressionParameters::modelled_log2_p_fail`]) must be within the
//! blocks' `log2_p_fail`, and the output of the decompression bootstrap
//! ([`CompressionParameters::decompression_output_variance`]) must keep the blocks'
//! own bootstrap within theirs when it stands for a noise level. A test measures
//! the input noise against the model.

use super::parameters::PbsKind;
use super::ShortintParameters;
use crate::core_crypto::noise::{
    decomposition_digit_variance, decomposition_rounding_variance, log2_gaussian_tail_probability,
    multi_bit_pbs_output_variance, pbs_output_variance,
};
use crate::core_crypto::{
    generate_seeded_lwe_bootstrap_key, generate_seeded_lwe_packing_keyswitch_key,
    multi_bit_lwe_secret_key, BootstrapKeyShape, CompressionSeed, DecompositionBaseLog,
    DecompositionLevelCount, EncryptionRandomGenerator, FourierLweBootstrapKey, GlweDimension,
    GlweSecretKey, LweDimension, LwePackingKeyswitchKey, NoiseDistribution, PolynomialSize,
    SecretRandomGenerator, SeededLweBootstrapKey, SeededLwePackingKeyswitchKey,
};
use crate::error::{check_eq, Error, Result};
use serde::{Deserialize, Serialize};

/// The parameters of ciphertext compression, beside the block parameters they
/// compress (see the module docs): TFHE-rs 1.8's fields, in its order, with
/// `decompression_grouping_factor` set for its multi-bit variant.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CompressionParameters {
    /// Levels of the decompression bootstrap key.
    pub br_level: DecompositionLevelCount,
    /// `log2(B)` of the decompression bootstrap key.
    pub br_base_log: DecompositionBaseLog,
    /// Levels of the packing keyswitching key.
    pub packing_ks_level: DecompositionLevelCount,
    /// `log2(B)` of the packing keyswitching key.
    pub packing_ks_base_log: DecompositionBaseLog,
    /// `N_c` of the compression GLWE key.
    pub packing_ks_polynomial_size: PolynomialSize,
    /// `k_c` of the compression GLWE key.
    pub packing_ks_glwe_dimension: GlweDimension,
    /// Most blocks packed into one GLWE ciphertext (at most `N_c`).
    pub lwe_per_glwe: usize,
    /// Bits kept of each stored coefficient (at most `log2(2N)` of the blocks).
    pub storage_log_modulus: u32,
    /// Noise of the packing keyswitching key (encryptions under the compression key
    /// of dimension `k_c·N_c`).
    pub packing_ks_key_noise_distribution: NoiseDistribution,
    /// `None` for a classical decompression bootstrap key; the grouping factor of a
    /// multi-bit one (TFHE-rs's `CompressionParameters::MultiBit`).
    pub decompression_grouping_factor: Option<usize>,
}

/// TFHE-rs 1.8's compression parameters of its default blocks
/// ([`super::DEFAULT_PARAMETERS`]), the same values: a compression key of
/// `k_c = 4`, `N_c = 256`, 256 blocks per GLWE ciphertext, 12 bits per stored
/// coefficient (a list takes 1.5 KiB plus 1.5 bytes per block, where a block takes
/// 16 KiB); packing keyswitch `2^4 × 3` with TUniform(43), classical decompression
/// bootstrap `2^23 × 1`.
pub const COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: CompressionParameters =
    CompressionParameters {
        br_level: DecompositionLevelCount(1),
        br_base_log: DecompositionBaseLog(23),
        packing_ks_level: DecompositionLevelCount(3),
        packing_ks_base_log: DecompositionBaseLog(4),
        packing_ks_polynomial_size: PolynomialSize(256),
        packing_ks_glwe_dimension: GlweDimension(4),
        lwe_per_glwe: 256,
        storage_log_modulus: 12,
        packing_ks_key_noise_distribution: NoiseDistribution::TUniform { log2_bound: 43 },
        decompression_grouping_factor: None,
    };

/// The compression of the default blocks under gpufhe's earlier name:
/// [`COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
pub const COMP_PARAM_MESSAGE_2_CARRY_2: CompressionParameters =
    COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;

/// TFHE-rs 1.8's multi-bit sibling of
/// [`COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`], the same values: a
/// decompression bootstrap key of grouping factor 4, `2^22 × 1`.
pub const COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
    CompressionParameters = CompressionParameters {
    br_base_log: DecompositionBaseLog(22),
    decompression_grouping_factor: Some(4),
    ..COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128
};

/// TFHE-rs 1.8's compression parameters of its Gaussian blocks
/// ([`super::PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`]), the same values.
pub const COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128: CompressionParameters =
    CompressionParameters {
        packing_ks_level: DecompositionLevelCount(2),
        packing_ks_base_log: DecompositionBaseLog(6),
        packing_ks_key_noise_distribution: NoiseDistribution::Gaussian {
            std_dev: 1.339775301998614e-07,
        },
        ..COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128
    };

/// TFHE-rs 1.8's compression parameters of its multi-bit Gaussian blocks, the same
/// values.
pub const COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128:
    CompressionParameters = CompressionParameters {
    br_base_log: DecompositionBaseLog(22),
    decompression_grouping_factor: Some(4),
    ..COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128
};

/// **Insecure**: compression for
/// [`super::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2`] (and its multi-bit sibling),
/// for tests only: `k_c = 1`, `N_c = 128`.
#[cfg(any(test, feature = "test-params"))]
pub const COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2: CompressionParameters =
    CompressionParameters {
        br_level: DecompositionLevelCount(1),
        br_base_log: DecompositionBaseLog(23),
        packing_ks_level: DecompositionLevelCount(2),
        packing_ks_base_log: DecompositionBaseLog(10),
        packing_ks_polynomial_size: PolynomialSize(128),
        packing_ks_glwe_dimension: GlweDimension(1),
        lwe_per_glwe: 128,
        storage_log_modulus: 10,
        packing_ks_key_noise_distribution: NoiseDistribution::TUniform { log2_bound: 20 },
        decompression_grouping_factor: None,
    };

/// **Insecure**: [`COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2`] with a multi-bit
/// decompression key of grouping factor 4 (`2^15 × 2`), for tests only.
#[cfg(any(test, feature = "test-params"))]
pub const COMP_PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2: CompressionParameters =
    CompressionParameters {
        br_level: DecompositionLevelCount(2),
        br_base_log: DecompositionBaseLog(15),
        decompression_grouping_factor: Some(4),
        ..COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2
    };

impl CompressionParameters {
    /// `k_c·N_c`, the dimension of the compression key read as an LWE key (the
    /// input dimension of the decompression bootstrap).
    ///
    /// ```
    /// use gpufhe::shortint::COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as c;
    /// assert_eq!(c.lwe_dimension(), 1024);
    /// ```
    pub fn lwe_dimension(&self) -> usize {
        self.packing_ks_glwe_dimension
            .0
            .saturating_mul(self.packing_ks_polynomial_size.0)
    }

    /// The kind of the decompression bootstrap.
    pub(crate) fn decompression_kind(&self) -> PbsKind {
        match self.decompression_grouping_factor {
            None => PbsKind::Classical,
            Some(grouping_factor) => PbsKind::MultiBit { grouping_factor },
        }
    }

    /// The shape of the decompression bootstrap key for `blocks` (a multi-bit key
    /// counts `(n/g)(2^g - 1)` GGSW ciphertexts).
    ///
    /// ```
    /// use gpufhe::shortint::{COMP_PARAM_MESSAGE_2_CARRY_2 as c, DEFAULT_PARAMETERS as p};
    /// let shape = c.decompression_key_shape(&p);
    /// assert_eq!(shape.input_lwe_dimension.0, 1024);
    /// assert_eq!(shape.polynomial_size, p.polynomial_size);
    /// ```
    pub fn decompression_key_shape(&self, blocks: &ShortintParameters) -> BootstrapKeyShape {
        BootstrapKeyShape {
            input_lwe_dimension: LweDimension(
                self.decompression_kind().ggsw_count(self.lwe_dimension()),
            ),
            glwe_dimension: blocks.glwe_dimension,
            polynomial_size: blocks.polynomial_size,
            base_log: self.br_base_log,
            level: self.br_level,
        }
    }

    /// The noise variance the decompression bootstrap reads when `count` blocks
    /// share a GLWE ciphertext, with keys of average Hamming weight: a packed block
    /// (one bootstrap output of `blocks`, times `message_modulus^2`), the packing
    /// keyswitch (key noise of the `count` blocks, rounding of its own mask) and the
    /// rounding of the `k_c·N_c + 1` coefficients it is read from to
    /// `storage_log_modulus` bits (no further rounding: the storage modulus divides
    /// `2N`).
    ///
    /// ```
    /// use gpufhe::shortint::{COMP_PARAM_MESSAGE_2_CARRY_2 as c, DEFAULT_PARAMETERS as p};
    /// let v = c.decompression_input_variance(&p, c.lwe_per_glwe);
    /// // Far below half a step of the packed encoding, 2^60.
    /// assert!(v.sqrt().log2() < 56.0);
    /// ```
    pub fn decompression_input_variance(&self, blocks: &ShortintParameters, count: usize) -> f64 {
        let big = blocks.big_lwe_dimension().0 as f64;
        let dim_c = self.lwe_dimension() as f64;
        let key_noise = self.packing_ks_key_noise_distribution.variance();
        let (pb, pl) = (self.packing_ks_base_log.0, self.packing_ks_level.0);
        let message = blocks.message_modulus as f64;
        let packed = message * message * blocks.bootstrap_output_variance();
        let packing = count as f64 * big * pl as f64 * decomposition_digit_variance(pb) * key_noise
            + big / 2.0 * decomposition_rounding_variance(pb, pl);
        let step = 2f64.powi(64 - self.storage_log_modulus.min(64) as i32);
        let storage = (step * step - 1.0) / 12.0 * (1.0 + dim_c / 2.0);
        packed + packing + storage
    }

    /// `log2` of the modelled probability that decompressing a block of a full GLWE
    /// ciphertext fails: a centered Gaussian error of variance
    /// [`CompressionParameters::decompression_input_variance`] beyond half a step of
    /// the packed encoding, `Δ·message_modulus / 2`.
    ///
    /// ```
    /// use gpufhe::shortint::{COMP_PARAM_MESSAGE_2_CARRY_2 as c, DEFAULT_PARAMETERS as p};
    /// assert!(c.modelled_log2_p_fail(&p) < -128.0);
    /// ```
    pub fn modelled_log2_p_fail(&self, blocks: &ShortintParameters) -> f64 {
        let half_step = blocks.delta() as f64 * blocks.message_modulus as f64 / 2.0;
        log2_gaussian_tail_probability(
            half_step,
            self.decompression_input_variance(blocks, self.lwe_per_glwe),
        )
    }

    /// The modelled noise variance of a decompressed block: the output of the
    /// decompression bootstrap (classical or multi-bit), keys of average Hamming
    /// weight.
    ///
    /// ```
    /// use gpufhe::shortint::{COMP_PARAM_MESSAGE_2_CARRY_2 as c, DEFAULT_PARAMETERS as p};
    /// let v = c.decompression_output_variance(&p);
    /// // About one bootstrap output of the blocks (a larger input dimension).
    /// assert!(v > p.bootstrap_output_variance() && v < 2.0 * p.bootstrap_output_variance());
    /// ```
    pub fn decompression_output_variance(&self, blocks: &ShortintParameters) -> f64 {
        let shape = self.decompression_key_shape(blocks);
        let (n, glwe_weight) = (self.lwe_dimension(), blocks.big_lwe_dimension().0 / 2);
        let noise = blocks.glwe_noise_distribution;
        match self.decompression_kind() {
            PbsKind::Classical => pbs_output_variance(&shape, noise, n / 2, glwe_weight),
            PbsKind::MultiBit { grouping_factor } => {
                let groups = n / grouping_factor.max(1);
                let active = groups - (groups >> grouping_factor.min(63));
                multi_bit_pbs_output_variance(&shape, grouping_factor, noise, active, glwe_weight)
            }
        }
    }

    /// `Err` unless the parameters are consistent and compress blocks of `blocks`
    /// within their failure probability: equal message and carry moduli, valid
    /// dimensions, decompositions and grouping factor, at most `N_c` blocks per GLWE
    /// ciphertext, a storage modulus of 1 to `log2(2N)` bits, a decompression whose
    /// modelled failure probability is at most `2^log2_p_fail` of the blocks, and a
    /// decompressed block that counts as one noise level (the blocks' bootstrap,
    /// read at its largest noise level with decompressed blocks, stays within
    /// `2^log2_p_fail`).
    ///
    /// ```
    /// use gpufhe::shortint::{COMP_PARAM_MESSAGE_2_CARRY_2 as c, DEFAULT_PARAMETERS as p};
    /// assert!(c.validate(&p).is_ok());
    /// let mut coarse = c;
    /// coarse.storage_log_modulus = 6; // too few bits kept: too much noise
    /// assert!(coarse.validate(&p).is_err());
    /// ```
    pub fn validate(&self, blocks: &ShortintParameters) -> Result<()> {
        let bad = |msg: String| Err(Error::InvalidParameter(msg));
        blocks.validate()?;
        if blocks.message_modulus != blocks.carry_modulus {
            return bad(format!(
                "compression packs messages into the carries: the message modulus {} must \
                 equal the carry modulus {}",
                blocks.message_modulus, blocks.carry_modulus
            ));
        }
        crate::core_crypto::check_polynomial_size(self.packing_ks_polynomial_size)?;
        let k = self.packing_ks_glwe_dimension.0;
        if k == 0 || k > super::MAX_GLWE_DIMENSION {
            return bad(format!(
                "the compression GLWE dimension {k} must be in [1, {}]",
                super::MAX_GLWE_DIMENSION
            ));
        }
        if self.lwe_per_glwe == 0 || self.lwe_per_glwe > self.packing_ks_polynomial_size.0 {
            return bad(format!(
                "{} blocks per GLWE ciphertext: must be in [1, N_c = {}]",
                self.lwe_per_glwe, self.packing_ks_polynomial_size.0
            ));
        }
        let most = blocks.polynomial_size.log2() as u32 + 1;
        if !(1..=most).contains(&self.storage_log_modulus) {
            return bad(format!(
                "a storage modulus of 2^{} must be in [2, 2N = 2^{most}]",
                self.storage_log_modulus
            ));
        }
        crate::core_crypto::check_decomposition(self.packing_ks_base_log, self.packing_ks_level)?;
        crate::core_crypto::check_decomposition(self.br_base_log, self.br_level)?;
        if let Some(g) = self.decompression_grouping_factor {
            crate::core_crypto::check_grouping_factor(self.lwe_dimension(), g)?;
        }
        self.packing_ks_key_noise_distribution.validate()?;
        let log2_p_fail = self.modelled_log2_p_fail(blocks);
        if log2_p_fail > blocks.log2_p_fail {
            return bad(format!(
                "decompression fails with a modelled probability of 2^{log2_p_fail:.1}, \
                 more than the blocks' 2^{:.1}",
                blocks.log2_p_fail
            ));
        }
        let (out, level) = (
            self.decompression_output_variance(blocks),
            blocks.bootstrap_output_variance(),
        );
        if out > level {
            let worse = blocks.blind_rotation_input_variance()
                + blocks.max_noise_level as f64 * (out - level);
            let half_step = blocks.delta() as f64 / 2.0;
            let p_fail = log2_gaussian_tail_probability(half_step, worse);
            if p_fail > blocks.log2_p_fail {
                return bad(format!(
                    "a decompressed block has a noise variance of 2^{:.1}, more than one \
                     noise level of the blocks allows (2^{:.1})",
                    out.log2(),
                    level.log2()
                ));
            }
        }
        Ok(())
    }

    /// `Err` unless the packing key's noise meets the 128-bit curve on the
    /// compression key's dimension `k_c·N_c` (the decompression key encrypts under
    /// the big key with the blocks' GLWE noise, as secure as their bootstrap key).
    /// True of TFHE-rs's sets with their blocks.
    ///
    /// ```
    /// use gpufhe::shortint::{COMP_PARAM_MESSAGE_2_CARRY_2 as c, DEFAULT_PARAMETERS as p};
    /// assert!(c.check_security(&p).is_ok());
    /// let mut weak = c;
    /// weak.packing_ks_key_noise_distribution =
    ///     gpufhe::core_crypto::NoiseDistribution::TUniform { log2_bound: 10 };
    /// assert!(weak.check_security(&p).is_err());
    /// ```
    pub fn check_security(&self, blocks: &ShortintParameters) -> Result<()> {
        blocks.check_security()?;
        super::safety::check_secure_noise(
            "compression key",
            self.lwe_dimension(),
            self.packing_ks_key_noise_distribution,
        )
    }

    /// Words of one stored GLWE ciphertext holding `count` blocks.
    pub(crate) fn stored_words(&self, count: usize) -> usize {
        (self.lwe_dimension() + count)
            .saturating_mul(self.storage_log_modulus as usize)
            .div_ceil(64)
    }
}

/// The secret key of compression: the GLWE key `S_c`. Zeroized on drop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompressionPrivateKey {
    pub(crate) key: GlweSecretKey,
    pub(crate) parameters: CompressionParameters,
}

impl CompressionPrivateKey {
    /// Draws a fresh key for `parameters` (valid for `blocks`).
    ///
    /// ```
    /// use gpufhe::shortint::{CompressionPrivateKey, COMP_PARAM_MESSAGE_2_CARRY_2, DEFAULT_PARAMETERS};
    /// let key = CompressionPrivateKey::new(COMP_PARAM_MESSAGE_2_CARRY_2, &DEFAULT_PARAMETERS).unwrap();
    /// assert_eq!(key.parameters(), &COMP_PARAM_MESSAGE_2_CARRY_2);
    /// let mut bad = COMP_PARAM_MESSAGE_2_CARRY_2;
    /// bad.lwe_per_glwe = 4096; // more blocks than coefficients
    /// assert!(CompressionPrivateKey::new(bad, &DEFAULT_PARAMETERS).is_err());
    /// ```
    pub fn new(parameters: CompressionParameters, blocks: &ShortintParameters) -> Result<Self> {
        Self::from_secret_generator(parameters, blocks, &mut SecretRandomGenerator::from_os()?)
    }

    /// [`CompressionPrivateKey::new`] drawing the key from `secret` (reproducible
    /// keys).
    pub(crate) fn from_secret_generator(
        parameters: CompressionParameters,
        blocks: &ShortintParameters,
        secret: &mut SecretRandomGenerator,
    ) -> Result<Self> {
        parameters.validate(blocks)?;
        let key = GlweSecretKey::generate_binary(
            parameters.packing_ks_glwe_dimension,
            parameters.packing_ks_polynomial_size,
            secret,
        )?;
        Ok(Self { key, parameters })
    }

    /// The compression parameters.
    ///
    /// ```
    /// use gpufhe::shortint::{CompressionPrivateKey, COMP_PARAM_MESSAGE_2_CARRY_2, DEFAULT_PARAMETERS};
    /// let key = CompressionPrivateKey::new(COMP_PARAM_MESSAGE_2_CARRY_2, &DEFAULT_PARAMETERS).unwrap();
    /// assert_eq!(key.parameters().packing_ks_polynomial_size.0, 256);
    /// ```
    pub fn parameters(&self) -> &CompressionParameters {
        &self.parameters
    }

    /// `Err` unless the key has the shape of its parameters (for deserialized keys).
    pub(crate) fn check_shape(&self) -> Result<()> {
        check_eq(
            "GLWE dimension of the compression key",
            self.parameters.packing_ks_glwe_dimension.0,
            self.key.glwe_dimension().0,
        )?;
        check_eq(
            "polynomial size of the compression key",
            self.parameters.packing_ks_polynomial_size.0,
            self.key.polynomial_size().0,
        )
    }
}

/// The public keys of compression, as seeds and bodies (what a compressed server
/// key carries): the packing keyswitching key (TFHE-rs's compression key) and the
/// decompression bootstrap key (TFHE-rs's decompression key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompressedCompressionKeys {
    pub(crate) packing: SeededLwePackingKeyswitchKey,
    pub(crate) decompression: SeededLweBootstrapKey,
    pub(crate) parameters: CompressionParameters,
}

/// The public keys of compression, expanded (what a server key uses), the
/// decompression key in the Fourier domain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompressionKeys {
    pub(crate) packing: LwePackingKeyswitchKey,
    pub(crate) decompression: FourierLweBootstrapKey,
    pub(crate) parameters: CompressionParameters,
}

impl CompressedCompressionKeys {
    /// Generates the keys of `private_key` for the blocks of `client_key`.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// // insecure test parameters here).
    /// let p = PARAMETERS;
    /// let ck = ClientKey::new(p).unwrap();
    /// let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// let keys = CompressedCompressionKeys::new(&ck, &private).unwrap().decompress().unwrap();
    /// let list = keys.compress(&[ck.encrypt(1).unwrap(), ck.encrypt(2).unwrap()], &p).unwrap();
    /// assert_eq!(ck.decrypt(&keys.decompress(&list, 1).unwrap()).unwrap(), 2);
    /// ```
    pub fn new(client_key: &super::ClientKey, private_key: &CompressionPrivateKey) -> Result<Self> {
        let c = private_key.parameters;
        let blocks = client_key.parameters();
        c.validate(blocks)?;
        private_key.check_shape()?;
        // The bodies the keys hold: one polynomial per row of the packing key, one
        // per row of every GGSW ciphertext of the decompression key.
        let rows =
            (blocks.big_lwe_dimension().0 as u64).saturating_mul(c.packing_ks_level.0 as u64);
        let _memory = crate::memory::reserve_host_memory(
            rows.saturating_mul(c.packing_ks_polynomial_size.0 as u64)
                .saturating_add(decompression_key_words(&c.decompression_key_shape(blocks)))
                .saturating_mul(8),
            "generating compression keys",
        )?;
        let mut rng = EncryptionRandomGenerator::from_os()?;
        let packing = generate_seeded_lwe_packing_keyswitch_key(
            client_key.big_lwe_secret_key(),
            &private_key.key,
            c.packing_ks_base_log,
            c.packing_ks_level,
            c.packing_ks_key_noise_distribution,
            CompressionSeed::from_os()?,
            &mut rng,
        )?;
        // A multi-bit key is a bootstrap key over the indicator bits of the groups.
        let compression_lwe_key = private_key.key.as_lwe_secret_key();
        let indicator_bits = match c.decompression_grouping_factor {
            None => None,
            Some(g) => Some(multi_bit_lwe_secret_key(&compression_lwe_key, g)?),
        };
        let decompression = generate_seeded_lwe_bootstrap_key(
            indicator_bits.as_ref().unwrap_or(&compression_lwe_key),
            client_key.glwe_secret_key(),
            c.br_base_log,
            c.br_level,
            blocks.glwe_noise_distribution,
            CompressionSeed::from_os()?,
            &mut rng,
        )?;
        Ok(Self {
            packing,
            decompression,
            parameters: c,
        })
    }

    /// Bytes of host memory the expanded keys take.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// // insecure test parameters here).
    /// let p = PARAMETERS;
    /// let ck = ClientKey::new(p).unwrap();
    /// let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// let compressed = CompressedCompressionKeys::new(&ck, &private).unwrap();
    /// // The packing key: 512 * 2 GLWE ciphertexts of 2 * 128 words; the
    /// // decompression key: 128 GGSW ciphertexts of 2 * 2 polynomials of 512 words.
    /// assert_eq!(compressed.expanded_bytes(), (1024 * 2 * 128 + 128 * 4 * 512) * 8);
    /// ```
    pub fn expanded_bytes(&self) -> u64 {
        let p = self.packing.shape();
        let packing = p.ciphertext_count() as u64 * p.glwe_len() as u64;
        (packing.saturating_add(decompression_key_words(&self.decompression.shape()))) * 8
    }

    /// The expanded keys; `Err(OutOfMemory)` if the host cannot reserve them.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// // insecure test parameters here).
    /// let p = PARAMETERS;
    /// let ck = ClientKey::new(p).unwrap();
    /// let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// let compressed = CompressedCompressionKeys::new(&ck, &private).unwrap();
    /// let keys = compressed.decompress().unwrap();
    /// assert!(keys.validate(&p).is_ok());
    /// assert_eq!(keys.parameters(), compressed.parameters());
    /// ```
    pub fn decompress(&self) -> Result<CompressionKeys> {
        let _memory = crate::memory::reserve_host_memory(
            self.expanded_bytes(),
            "expanding compression keys",
        )?;
        Ok(CompressionKeys {
            packing: self.packing.decompress(),
            decompression: FourierLweBootstrapKey::from_standard(&self.decompression.decompress()),
            parameters: self.parameters,
        })
    }
}

/// The accessors both forms of the compression keys share.
macro_rules! compression_key_accessors {
    ($($keys:ty),*) => {$(
        impl $keys {
            /// The compression parameters.
            ///
            /// ```
            /// use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
            /// # use gpufhe::shortint::{
            /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
            /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
            /// # };
            /// // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
            /// // insecure test parameters here).
            /// let p = PARAMETERS;
            /// let ck = ClientKey::new(p).unwrap();
            /// let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
            /// let compressed = CompressedCompressionKeys::new(&ck, &private).unwrap();
            /// assert_eq!(compressed.parameters(), private.parameters());
            /// ```
            pub fn parameters(&self) -> &CompressionParameters {
                &self.parameters
            }

            /// `Err` unless the keys have the shapes `blocks` and their parameters
            /// imply.
            ///
            /// ```
            /// use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
            /// # use gpufhe::shortint::{
            /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
            /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
            /// # };
            /// // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
            /// // insecure test parameters here).
            /// let p = PARAMETERS;
            /// let ck = ClientKey::new(p).unwrap();
            /// let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
            /// let compressed = CompressedCompressionKeys::new(&ck, &private).unwrap();
            /// assert!(compressed.validate(&p).is_ok());
            /// // Keys made for other blocks do not fit.
            /// assert!(compressed.validate(&gpufhe::shortint::DEFAULT_PARAMETERS).is_err());
            /// ```
            pub fn validate(&self, blocks: &ShortintParameters) -> Result<()> {
                check_shapes(
                    &self.parameters,
                    blocks,
                    self.packing.shape(),
                    self.decompression.shape(),
                )
            }
        }
    )*};
}
compression_key_accessors!(CompressedCompressionKeys, CompressionKeys);

/// The words of a (standard-domain) bootstrap key of `shape`: `(k+1)^2 l N` per GGSW
/// ciphertext (the Fourier form takes as many bytes).
fn decompression_key_words(shape: &BootstrapKeyShape) -> u64 {
    let glwe = shape.glwe_dimension.0 as u64 + 1;
    (shape.input_lwe_dimension.0 as u64)
        .saturating_mul(glwe * glwe)
        .saturating_mul(shape.level.0 as u64)
        .saturating_mul(shape.polynomial_size.0 as u64)
}

/// `Err` unless the keys' shapes are those `parameters` imply for `blocks`.
fn check_shapes(
    parameters: &CompressionParameters,
    blocks: &ShortintParameters,
    packing: crate::core_crypto::PackingKeyswitchKeyShape,
    decompression: BootstrapKeyShape,
) -> Result<()> {
    parameters.validate(blocks)?;
    let ok = packing.input_lwe_dimension == blocks.big_lwe_dimension()
        && packing.output_glwe_dimension == parameters.packing_ks_glwe_dimension
        && packing.output_polynomial_size == parameters.packing_ks_polynomial_size
        && packing.base_log == parameters.packing_ks_base_log
        && packing.level == parameters.packing_ks_level
        && decompression == parameters.decompression_key_shape(blocks);
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "compression keys of shapes {packing:?} and {decompression:?} do not match their \
             parameters {parameters:?}"
        )))
    }
}
