//! The parameters of a block: the cryptographic dimensions and the message encoding.

use crate::core_crypto::{
    BootstrapKeyShape, DecompositionBaseLog, DecompositionLevelCount, GlweDimension,
    KeyswitchKeyShape, LweDimension, ModulusSwitchType, NoiseDistribution, PolynomialSize,
};
use crate::error::{Error, Result};

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
// The derives only write `ShortintParameters::{serialize, deserialize}` (unchecked);
// the trait impls below call them, the deserialization then checks.
#[serde(remote = "Self")]
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
    /// Which blind rotation the bootstraps run, and so which bootstrap key the
    /// server key holds.
    pub pbs_kind: PbsKind,
}

/// Which blind rotation the bootstraps of a parameter set run.
///
/// The integer circuits do not depend on it: a bootstrap evaluates the same table
/// either way, with other noise and another cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum PbsKind {
    /// One CMux per mask coefficient: the bootstrap key holds one GGSW ciphertext per
    /// bit of the small key ([`crate::core_crypto::blind_rotate_assign`]).
    Classical,
    /// The mask coefficients in groups of `grouping_factor`: one external product per
    /// group with a key bundle built from the group's `2^g - 1` GGSW ciphertexts
    /// ([`crate::core_crypto::multi_bit_blind_rotate_assign`]). `n / g` sequential
    /// steps instead of `n`, each with independent bundle work that a GPU spreads
    /// over otherwise idle cores; the key is `(2^g - 1) / g` times larger.
    MultiBit {
        /// `g`, the number of mask coefficients per group (it divides `n`).
        grouping_factor: usize,
    },
}

impl PbsKind {
    /// The grouping factor of a multi-bit bootstrap, `None` for the classical one.
    ///
    /// ```
    /// use gpufhe::shortint::PbsKind;
    /// assert_eq!(PbsKind::Classical.grouping_factor(), None);
    /// assert_eq!(PbsKind::MultiBit { grouping_factor: 4 }.grouping_factor(), Some(4));
    /// ```
    pub fn grouping_factor(self) -> Option<usize> {
        match self {
            PbsKind::Classical => None,
            PbsKind::MultiBit { grouping_factor } => Some(grouping_factor),
        }
    }

    /// The number of GGSW ciphertexts of the bootstrap key for a small key of
    /// dimension `n`: `n`, or `(n / g)(2^g - 1)` (`usize::MAX` if `g` is 0 or too
    /// large to count).
    ///
    /// ```
    /// use gpufhe::shortint::PbsKind;
    /// assert_eq!(PbsKind::Classical.ggsw_count(920), 920);
    /// assert_eq!(PbsKind::MultiBit { grouping_factor: 4 }.ggsw_count(920), 230 * 15);
    /// assert_eq!(PbsKind::MultiBit { grouping_factor: 0 }.ggsw_count(920), usize::MAX);
    /// ```
    pub fn ggsw_count(self, n: usize) -> usize {
        match self {
            PbsKind::Classical => n,
            // Saturating: also called on unchecked parameters (the memory bound).
            PbsKind::MultiBit { grouping_factor: g } => {
                let per_group = u32::try_from(g).ok().and_then(|g| 1usize.checked_shl(g));
                match (n.checked_div(g), per_group) {
                    (Some(groups), Some(p)) => groups.saturating_mul(p - 1),
                    _ => usize::MAX,
                }
            }
        }
    }
}

impl serde::Serialize for ShortintParameters {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        ShortintParameters::serialize(self, serializer)
    }
}

impl<'de> serde::Deserialize<'de> for ShortintParameters {
    /// Reads the fields, then checks them ([`ShortintParameters::validate`], and
    /// [`ShortintParameters::check_security`] unless insecure parameters are
    /// allowed); data of format version 1
    /// ([`crate::serialization::OLDEST_SERIALIZATION_VERSION`]), which has no
    /// [`PbsKind`], reads as classical.
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        let parameters = if crate::serialization::codec::reading_version() == 1 {
            ShortintParameters::from(ParameterFieldsV1::deserialize(deserializer)?)
        } else {
            ShortintParameters::deserialize(deserializer)?
        };
        parameters.validate().map_err(serde::de::Error::custom)?;
        if !crate::serialization::codec::insecure_parameters_allowed() {
            parameters
                .check_security()
                .map_err(serde::de::Error::custom)?;
        }
        Ok(parameters)
    }
}

/// The fields of a [`ShortintParameters`] in format version 1: all but the
/// [`PbsKind`], which was classical.
#[derive(serde::Deserialize)]
#[serde(rename = "ShortintParameters")]
struct ParameterFieldsV1 {
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

impl From<ParameterFieldsV1> for ShortintParameters {
    fn from(f: ParameterFieldsV1) -> Self {
        Self {
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
            pbs_kind: PbsKind::Classical,
        }
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
    pbs_kind: PbsKind::Classical,
};

/// The blocks of [`DEFAULT_PARAMETERS`] (2 message bits, 2 carry bits, a padding bit)
/// with Gaussian noise instead of TUniform: **128-bit security**, failure probability
/// **2^-128.6** per bootstrap (the values of TFHE-rs's
/// `PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`), for keys that must match a
/// TFHE-rs configuration of this set.
///
/// `n = 866`, `k = 1`, `N = 2048`; LWE noise of standard deviation `2.05e-6`, GLWE
/// noise of `2.85e-15` (relative to the modulus); bootstrap decomposition `2^23` with
/// 1 level, keyswitch `2^3` with 5 levels; max noise level 5; centered-mean modulus
/// switch.
///
/// ```
/// use gpufhe::shortint::PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128 as p;
/// assert!(p.check_security().is_ok());
/// assert!(p.modelled_log2_p_fail() <= -128.0);
/// ```
pub const PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128: ShortintParameters = ShortintParameters {
    lwe_dimension: LweDimension(866),
    lwe_noise_distribution: NoiseDistribution::Gaussian {
        std_dev: 2.046151696979124e-06,
    },
    glwe_noise_distribution: NoiseDistribution::Gaussian {
        std_dev: 2.845267479601915e-15,
    },
    ks_base_log: DecompositionBaseLog(3),
    ks_level: DecompositionLevelCount(5),
    log2_p_fail: -128.597,
    // The blocks, bootstrap decomposition and encoding of the defaults.
    ..PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128
};

/// The multi-bit parameters: the blocks of [`DEFAULT_PARAMETERS`] (2 message bits, 2
/// carry bits, a padding bit; **128-bit security**) bootstrapped by a multi-bit blind
/// rotation with grouping factor 4 ([`PbsKind::MultiBit`]), for latency on a GPU
/// (TFHE-rs' `PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`
/// values). Chosen with [`crate::ConfigBuilder::use_multi_bit_pbs`].
///
/// `n = 920`, `k = 1`, `N = 2048`; LWE noise TUniform(45), GLWE noise TUniform(17);
/// bootstrap decomposition `2^22` with 1 level, keyswitch `2^3` with 5 levels; max
/// noise level 5; centered-mean modulus switch. The failure probability is the
/// larger of TFHE-rs' published 2^-134.3 and this crate's model
/// ([`ShortintParameters::modelled_log2_p_fail`]).
///
/// ```
/// use gpufhe::shortint::{PbsKind, PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as p};
/// assert_eq!(p.pbs_kind.grouping_factor(), Some(4));
/// assert!(p.check_security().is_ok());
/// assert!(p.log2_p_fail <= -128.0 && p.modelled_log2_p_fail() <= p.log2_p_fail);
/// ```
pub const PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: ShortintParameters =
    ShortintParameters {
        lwe_dimension: LweDimension(920),
        pbs_base_log: DecompositionBaseLog(22),
        ks_base_log: DecompositionBaseLog(3),
        ks_level: DecompositionLevelCount(5),
        log2_p_fail: -134.3,
        pbs_kind: PbsKind::MultiBit { grouping_factor: 4 },
        // The blocks, noise and encoding of the defaults.
        ..PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128
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
    pbs_kind: PbsKind::Classical,
};

/// **Insecure**: [`PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2`] bootstrapped by a
/// multi-bit blind rotation of grouping factor 4, for tests only.
#[cfg(any(test, feature = "test-params"))]
pub const PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2: ShortintParameters =
    ShortintParameters {
        pbs_kind: PbsKind::MultiBit { grouping_factor: 4 },
        ..PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2
    };

impl ShortintParameters {
    /// `Err` if the set is inconsistent (moduli not powers of two, too many values
    /// for the polynomial size, invalid decompositions or noise) or asks too much of
    /// the machine (dimensions or key size above the bounds of
    /// [`MAX_LWE_DIMENSION`](crate::shortint::MAX_LWE_DIMENSION) and the constants beside it).
    /// It does not check security: see [`ShortintParameters::check_security`].
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// assert!(DEFAULT_PARAMETERS.validate().is_ok());
    /// let mut bad = DEFAULT_PARAMETERS;
    /// bad.message_modulus = 3; // not a power of two
    /// assert!(bad.validate().is_err());
    /// ```
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
        if let Some(g) = self.pbs_kind.grouping_factor() {
            crate::core_crypto::check_grouping_factor(self.lwe_dimension.0, g)?;
        }
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
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS as p;
    /// assert!(p.check_capacity(15, p.max_noise_level).is_ok());
    /// assert!(p.check_capacity(16, 1).is_err()); // 16 values: 0 to 15
    /// assert!(p.check_capacity(3, p.max_noise_level + 1).is_err());
    /// ```
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
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// assert_eq!(DEFAULT_PARAMETERS.total_modulus(), 4 * 4);
    /// ```
    pub fn total_modulus(&self) -> u64 {
        self.message_modulus * self.carry_modulus
    }

    /// The scaling factor `2^63 / (message_modulus * carry_modulus)`.
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// // 16 values and a padding bit in the top 5 bits.
    /// assert_eq!(DEFAULT_PARAMETERS.delta(), 1 << 59);
    /// ```
    pub fn delta(&self) -> u64 {
        (1u64 << 63) / self.total_modulus()
    }

    /// The dimension of the big key (`k * N`), under which blocks live.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweDimension;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// assert_eq!(DEFAULT_PARAMETERS.big_lwe_dimension(), LweDimension(2048));
    /// ```
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
    /// ([`crate::core_crypto::noise::pbs_output_variance`], or
    /// [`crate::core_crypto::noise::multi_bit_pbs_output_variance`] with the average
    /// number `(n/g)(1 - 2^-g)` of groups whose bits are not all zero): the noise of
    /// one noise level.
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS as p;
    /// // A fresh bootstrap output is far from a step of the message.
    /// let sigma = p.bootstrap_output_variance().sqrt();
    /// assert!(sigma.log2() < 50.0 && (p.delta() as f64).log2() == 59.0);
    /// ```
    pub fn bootstrap_output_variance(&self) -> f64 {
        let (shape, glwe_weight) = (self.bootstrap_key_shape(), self.big_lwe_dimension().0 / 2);
        match self.pbs_kind {
            PbsKind::Classical => crate::core_crypto::noise::pbs_output_variance(
                &shape,
                self.glwe_noise_distribution,
                self.lwe_dimension.0 / 2,
                glwe_weight,
            ),
            PbsKind::MultiBit { grouping_factor } => {
                let groups = self.lwe_dimension.0 / grouping_factor;
                let active = groups - (groups >> grouping_factor);
                crate::core_crypto::noise::multi_bit_pbs_output_variance(
                    &shape,
                    grouping_factor,
                    self.glwe_noise_distribution,
                    active,
                    glwe_weight,
                )
            }
        }
    }

    /// The variance of the error a bootstrap's blind rotation reads, at the largest
    /// noise level: `max_noise_level` bootstrap outputs
    /// ([`ShortintParameters::bootstrap_output_variance`]), the keyswitch
    /// ([`crate::core_crypto::noise::keyswitch_added_variance`]) and the modulus
    /// switch to `2N`, whose rounding errors (variance `r = ((2^64/2N)^2 - 1)/12`
    /// each) count `(1 + n/2) r` plainly and `(1 + n/4) r` with centered-mean noise
    /// reduction (keys of average Hamming weight).
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS as p;
    /// // At least the noise of max_noise_level bootstrap outputs, plus keyswitch and switch.
    /// let v = p.blind_rotation_input_variance();
    /// assert!(v > p.max_noise_level as f64 * p.bootstrap_output_variance());
    /// ```
    pub fn blind_rotation_input_variance(&self) -> f64 {
        let n = self.lwe_dimension.0 as f64;
        let step = 2f64.powi(64 - (self.polynomial_size.log2() as i32 + 1));
        let rounding = (step * step - 1.0) / 12.0;
        let mask_share = match self.modulus_switch {
            ModulusSwitchType::Standard => n / 2.0,
            ModulusSwitchType::CenteredMeanNoiseReduction => n / 4.0,
        };
        self.max_noise_level as f64 * self.bootstrap_output_variance()
            + crate::core_crypto::noise::keyswitch_added_variance(
                &self.keyswitch_key_shape(),
                self.lwe_noise_distribution,
                self.big_lwe_dimension().0 / 2,
            )
            + (1.0 + mask_share) * rounding
    }

    /// `log2` of the modelled probability that one bootstrap decrypts wrongly: a
    /// centered Gaussian error of variance
    /// [`ShortintParameters::blind_rotation_input_variance`] beyond half a message
    /// step, `Δ/2` (`erfc(Δ / (2 sqrt(2 V)))`, through its asymptotic series). The
    /// `log2_p_fail` of the crate's parameter sets is never below it.
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS as p;
    /// assert!(p.modelled_log2_p_fail() <= p.log2_p_fail);
    /// ```
    pub fn modelled_log2_p_fail(&self) -> f64 {
        crate::core_crypto::noise::log2_gaussian_tail_probability(
            self.delta() as f64 / 2.0,
            self.blind_rotation_input_variance(),
        )
    }

    /// The shape of the bootstrap key: `n` GGSW ciphertexts, or `(n/g)(2^g - 1)` for a
    /// multi-bit key ([`PbsKind::ggsw_count`]).
    ///
    /// ```
    /// use gpufhe::shortint::{DEFAULT_PARAMETERS as p, PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as mb};
    /// assert_eq!(p.bootstrap_key_shape().input_lwe_dimension, p.lwe_dimension);
    /// // A multi-bit key holds 15 GGSW ciphertexts per group of 4 key bits.
    /// assert_eq!(mb.bootstrap_key_shape().input_lwe_dimension.0, mb.lwe_dimension.0 / 4 * 15);
    /// ```
    pub fn bootstrap_key_shape(&self) -> BootstrapKeyShape {
        BootstrapKeyShape {
            input_lwe_dimension: LweDimension(self.pbs_kind.ggsw_count(self.lwe_dimension.0)),
            glwe_dimension: self.glwe_dimension,
            polynomial_size: self.polynomial_size,
            base_log: self.pbs_base_log,
            level: self.pbs_level,
        }
    }

    /// The shape of the seeded bootstrap key of a compressed server key: that of
    /// [`ShortintParameters::bootstrap_key_shape`], but a multi-bit one holds
    /// TFHE-rs's `2^g` GGSW ciphertexts per group of `g` key bits (its empty
    /// assignment included, left out when it expands), so that it is TFHE-rs's
    /// seeded key.
    ///
    /// ```
    /// use gpufhe::shortint::PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as mb;
    /// assert_eq!(mb.seeded_bootstrap_key_shape().input_lwe_dimension.0, mb.lwe_dimension.0 / 4 * 16);
    /// ```
    pub fn seeded_bootstrap_key_shape(&self) -> BootstrapKeyShape {
        let mut shape = self.bootstrap_key_shape();
        if let PbsKind::MultiBit { grouping_factor: g } = self.pbs_kind {
            shape.input_lwe_dimension = LweDimension(
                (self.lwe_dimension.0 / g.max(1))
                    .saturating_mul(1usize.checked_shl(g as u32).unwrap_or(0)),
            );
        }
        shape
    }

    /// The shape of the keyswitching key (big key to small key).
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS as p;
    /// let shape = p.keyswitch_key_shape();
    /// // From the big key to the small key.
    /// assert_eq!((shape.input_lwe_dimension, shape.output_lwe_dimension), (p.big_lwe_dimension(), p.lwe_dimension));
    /// ```
    pub fn keyswitch_key_shape(&self) -> KeyswitchKeyShape {
        KeyswitchKeyShape {
            input_lwe_dimension: self.big_lwe_dimension(),
            output_lwe_dimension: self.lwe_dimension,
            base_log: self.ks_base_log,
            level: self.ks_level,
        }
    }
}
