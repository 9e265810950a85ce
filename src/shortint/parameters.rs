//! Parameter sets of blocks: the cryptographic dimensions and the message encoding.

use crate::core_crypto::{
    BootstrapKeyShape, DecompositionBaseLog, DecompositionLevelCount, GlweDimension,
    KeyswitchKeyShape, LweDimension, ModulusSwitchType, NoiseDistribution, PolynomialSize,
};
use crate::error::{Error, Result};

pub use super::compression::{
    CompressionParameters, COMP_PARAM_MESSAGE_2_CARRY_2,
    COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};

/// Everything that defines a block: dimensions, noise, decompositions and encoding.
///
/// A block encrypts a value in `[0, message_modulus * carry_modulus)` with one more
/// (padding) bit on top, encoded as `m * 2^63 / (message_modulus * carry_modulus)`.
/// Blocks live under the big key (the GLWE key read as an LWE key of dimension
/// `k * N`); a lookup-table evaluation keyswitches to the small key (dimension `n`),
/// switches the modulus to `2N` and bootstraps back to the big key.
///
/// Deserialization validates the set ([`ShortintParameters::validate`]) and requires
/// it to be secure ([`ShortintParameters::check_security`]) unless it is read inside
/// [`crate::serialization::with_insecure_parameters_allowed`].
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "ParameterFields")]
pub struct ShortintParameters {
    /// `n`, the dimension of the small LWE key.
    pub lwe_dimension: LweDimension,
    /// `k`, the number of polynomials of the GLWE key.
    pub glwe_dimension: GlweDimension,
    /// `N`, the size of the polynomials.
    pub polynomial_size: PolynomialSize,
    /// Noise of encryptions under the small key (the keyswitching key).
    pub lwe_noise_distribution: NoiseDistribution,
    /// Noise of encryptions under the GLWE key (the bootstrap key, fresh blocks).
    pub glwe_noise_distribution: NoiseDistribution,
    /// `log2(B)` of the bootstrap key's decomposition.
    pub pbs_base_log: DecompositionBaseLog,
    /// Levels of the bootstrap key's decomposition.
    pub pbs_level: DecompositionLevelCount,
    /// `log2(B)` of the keyswitching key's decomposition.
    pub ks_base_log: DecompositionBaseLog,
    /// Levels of the keyswitching key's decomposition.
    pub ks_level: DecompositionLevelCount,
    /// Number of message values of a block (a power of two).
    pub message_modulus: u64,
    /// Number of carry values of a block (a power of two).
    pub carry_modulus: u64,
    /// Largest noise level (sum of the multiplicative factors applied to fresh
    /// noise) a block may reach before it must be bootstrapped.
    pub max_noise_level: u64,
    /// `log2` of the probability that one bootstrap decrypts wrongly.
    pub log2_p_fail: f64,
    /// How the modulus switch before the blind rotation rounds.
    pub modulus_switch: ModulusSwitchType,
    /// Estimated security in bits against the best known attacks.
    pub security_bits: u32,
}

/// The fields of a [`ShortintParameters`] as read, before they are checked.
#[derive(serde::Deserialize)]
struct ParameterFields {
    lwe_dimension: LweDimension,
    glwe_dimension: GlweDimension,
    polynomial_size: PolynomialSize,
    lwe_noise_distribution: NoiseDistribution,
    glwe_noise_distribution: NoiseDistribution,
    pbs_base_log: DecompositionBaseLog,
    pbs_level: DecompositionLevelCount,
    ks_base_log: DecompositionBaseLog,
    ks_level: DecompositionLevelCount,
    message_modulus: u64,
    carry_modulus: u64,
    max_noise_level: u64,
    log2_p_fail: f64,
    modulus_switch: ModulusSwitchType,
    security_bits: u32,
}

impl TryFrom<ParameterFields> for ShortintParameters {
    type Error = Error;

    fn try_from(f: ParameterFields) -> Result<Self> {
        let parameters = Self {
            lwe_dimension: f.lwe_dimension,
            glwe_dimension: f.glwe_dimension,
            polynomial_size: f.polynomial_size,
            lwe_noise_distribution: f.lwe_noise_distribution,
            glwe_noise_distribution: f.glwe_noise_distribution,
            pbs_base_log: f.pbs_base_log,
            pbs_level: f.pbs_level,
            ks_base_log: f.ks_base_log,
            ks_level: f.ks_level,
            message_modulus: f.message_modulus,
            carry_modulus: f.carry_modulus,
            max_noise_level: f.max_noise_level,
            log2_p_fail: f.log2_p_fail,
            modulus_switch: f.modulus_switch,
            security_bits: f.security_bits,
        };
        parameters.validate()?;
        if !crate::serialization::insecure_parameters_allowed() {
            parameters.check_security()?;
        }
        Ok(parameters)
    }
}

/// The default parameters: 2 message bits, 2 carry bits and a padding bit per block,
/// **128-bit security**, failure probability **2^-129.6** per bootstrap (the values of
/// TFHE-rs' `PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`).
///
/// `n = 918`, `k = 1`, `N = 2048`; LWE noise TUniform(45), GLWE noise TUniform(17);
/// bootstrap decomposition `2^23` with 1 level, keyswitch `2^4` with 4 levels; max
/// noise level 5; centered-mean modulus switch.
pub const DEFAULT_PARAMETERS: ShortintParameters = PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;

/// See [`DEFAULT_PARAMETERS`].
pub const PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: ShortintParameters = ShortintParameters {
    lwe_dimension: LweDimension(918),
    glwe_dimension: GlweDimension(1),
    polynomial_size: PolynomialSize(2048),
    lwe_noise_distribution: NoiseDistribution::TUniform { log2_bound: 45 },
    glwe_noise_distribution: NoiseDistribution::TUniform { log2_bound: 17 },
    pbs_base_log: DecompositionBaseLog(23),
    pbs_level: DecompositionLevelCount(1),
    ks_base_log: DecompositionBaseLog(4),
    ks_level: DecompositionLevelCount(4),
    message_modulus: 4,
    carry_modulus: 4,
    max_noise_level: 5,
    log2_p_fail: -129.581,
    modulus_switch: ModulusSwitchType::CenteredMeanNoiseReduction,
    security_bits: 128,
};

/// **Insecure**: small dimensions that make keys and bootstraps fast, for tests only.
/// Same encoding as the defaults (2 + 2 bits); the failure probability is about
/// 2^-37 per bootstrap, the security negligible.
#[cfg(any(test, feature = "test-params"))]
pub const PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2: ShortintParameters = ShortintParameters {
    lwe_dimension: LweDimension(256),
    glwe_dimension: GlweDimension(1),
    polynomial_size: PolynomialSize(512),
    lwe_noise_distribution: NoiseDistribution::TUniform { log2_bound: 20 },
    glwe_noise_distribution: NoiseDistribution::TUniform { log2_bound: 20 },
    pbs_base_log: DecompositionBaseLog(23),
    pbs_level: DecompositionLevelCount(1),
    ks_base_log: DecompositionBaseLog(4),
    ks_level: DecompositionLevelCount(4),
    message_modulus: 4,
    carry_modulus: 4,
    max_noise_level: 5,
    log2_p_fail: -37.0,
    modulus_switch: ModulusSwitchType::CenteredMeanNoiseReduction,
    security_bits: 0,
};

impl ShortintParameters {
    /// `Err` if the set is inconsistent (moduli not powers of two, too many values
    /// for the polynomial size, invalid decompositions or noise) or asks too much of
    /// the machine (dimensions or key size above the bounds of
    /// [`MAX_LWE_DIMENSION`](super::MAX_LWE_DIMENSION) and the constants beside it).
    /// It does not check security: see [`ShortintParameters::check_security`].
    pub fn validate(&self) -> Result<()> {
        let bad = |msg: String| Err(Error::InvalidParameter(msg));
        let total = self.message_modulus.saturating_mul(self.carry_modulus);
        if !self.message_modulus.is_power_of_two() || !self.carry_modulus.is_power_of_two() {
            return bad(format!(
                "message modulus {} and carry modulus {} must be powers of two",
                self.message_modulus, self.carry_modulus
            ));
        }
        if total < 2 || total as usize > self.polynomial_size.0 || total > 1 << 16 {
            return bad(format!(
                "message * carry modulus {total} must be in [2, min(N = {}, 2^16)]",
                self.polynomial_size.0
            ));
        }
        if self.lwe_dimension.0 == 0 || self.glwe_dimension.0 == 0 {
            return bad("the LWE and GLWE dimensions must be positive".into());
        }
        if self.max_noise_level == 0 {
            return bad("the max noise level must be at least 1".into());
        }
        crate::core_crypto::check_polynomial_size(self.polynomial_size)?;
        if !self.log2_p_fail.is_finite() || self.log2_p_fail > 0.0 {
            return bad(format!(
                "log2 of the failure probability ({}) must be finite and at most 0",
                self.log2_p_fail
            ));
        }
        self.check_bounds()?;
        crate::core_crypto::check_decomposition(self.pbs_base_log, self.pbs_level)?;
        crate::core_crypto::check_decomposition(self.ks_base_log, self.ks_level)?;
        self.lwe_noise_distribution.validate()?;
        self.glwe_noise_distribution.validate()
    }

    /// `Err(CapacityExceeded)` if a block of this degree (upper bound of its value) or
    /// noise level would exceed what the parameters allow.
    pub fn check_capacity(&self, degree: u64, noise_level: u64) -> Result<()> {
        if degree >= self.total_modulus() {
            return Err(Error::CapacityExceeded(format!(
                "the result may reach {degree}, beyond the {} values of a block",
                self.total_modulus()
            )));
        }
        if noise_level > self.max_noise_level {
            return Err(Error::CapacityExceeded(format!(
                "the result would have noise level {noise_level}, above the maximum {}",
                self.max_noise_level
            )));
        }
        Ok(())
    }

    /// `message_modulus * carry_modulus`: the number of values a block holds.
    pub fn total_modulus(&self) -> u64 {
        self.message_modulus * self.carry_modulus
    }

    /// The scaling factor `2^63 / (message_modulus * carry_modulus)`.
    pub fn delta(&self) -> u64 {
        (1u64 << 63) / self.total_modulus()
    }

    /// The dimension of the big key (`k * N`), under which blocks live.
    pub fn big_lwe_dimension(&self) -> LweDimension {
        self.glwe_dimension
            .to_equivalent_lwe_dimension(self.polynomial_size)
    }

    /// Whether the CPU may keyswitch with the key rounded to 32 bits
    /// ([`crate::core_crypto::keyswitch_lwe_ciphertext_batch_rounded`]): true when the
    /// rounding adds, per unit of squared digit, at most 2^-10 of the variance the
    /// keyswitching key's own noise adds (`(n/2 + 1) * 2^62 / 3` against the LWE noise
    /// variance), so the failure probability does not move measurably. True of the
    /// defaults (a margin of about 2^9), false of small-noise test parameters, which
    /// then keyswitch exactly.
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// assert!(DEFAULT_PARAMETERS.keyswitch_rounding_is_negligible());
    /// ```
    pub fn keyswitch_rounding_is_negligible(&self) -> bool {
        let rounding = (self.lwe_dimension.0 as f64 / 2.0 + 1.0) * 2f64.powi(62) / 3.0;
        rounding <= self.lwe_noise_distribution.variance() / 1024.0
    }

    /// The modelled output noise variance of a bootstrap on these parameters, with
    /// keys of average Hamming weight
    /// ([`crate::core_crypto::noise::pbs_output_variance`]): the noise of one noise
    /// level.
    pub fn bootstrap_output_variance(&self) -> f64 {
        crate::core_crypto::noise::pbs_output_variance(
            &self.bootstrap_key_shape(),
            self.glwe_noise_distribution,
            self.lwe_dimension.0 / 2,
            self.big_lwe_dimension().0 / 2,
        )
    }

    /// The shape of the bootstrap key.
    pub fn bootstrap_key_shape(&self) -> BootstrapKeyShape {
        BootstrapKeyShape {
            input_lwe_dimension: self.lwe_dimension,
            glwe_dimension: self.glwe_dimension,
            polynomial_size: self.polynomial_size,
            base_log: self.pbs_base_log,
            level: self.pbs_level,
        }
    }

    /// The shape of the keyswitching key (big key to small key).
    pub fn keyswitch_key_shape(&self) -> KeyswitchKeyShape {
        KeyswitchKeyShape {
            input_lwe_dimension: self.big_lwe_dimension(),
            output_lwe_dimension: self.lwe_dimension,
            base_log: self.ks_base_log,
            level: self.ks_level,
        }
    }
}
