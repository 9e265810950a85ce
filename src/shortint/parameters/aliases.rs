//! The names TFHE-rs 1.8 gives the parameter sets this crate has, so that code
//! written against `tfhe::shortint::parameters` finds them at the same paths: the
//! short aliases at the top of [`crate::shortint::parameters`] and the versioned
//! names in [`v1_8`] (also [`current_params`]).
//!
//! Only the sets whose values this crate implements are named: the classical
//! (TUniform and Gaussian) and the multi-bit (grouping factors 2, 3 and 4, TUniform
//! and Gaussian, CPU and GPU) sets of 2 message and 2
//! carry bits at a failure probability of 2^-128, and the compression parameters
//! beside them, and the public-key and keyswitch sets that coincide with them.
//! TFHE-rs's KS32, noise-squashing and other block
//! sizes are not offered (see `docs/coming-from-tfhe-rs.md`).
//!
//! ```
//! use gpufhe::shortint::parameters::{
//!     current_params::V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128, PARAM_MESSAGE_2_CARRY_2,
//!     PARAM_MESSAGE_2_CARRY_2_KS_PBS,
//! };
//! use gpufhe::shortint::DEFAULT_PARAMETERS;
//! assert_eq!(PARAM_MESSAGE_2_CARRY_2, DEFAULT_PARAMETERS);
//! assert_eq!(PARAM_MESSAGE_2_CARRY_2_KS_PBS, DEFAULT_PARAMETERS);
//! assert_eq!(V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128, DEFAULT_PARAMETERS);
//! ```

use crate::core_crypto::{DecompositionBaseLog, DecompositionLevelCount};
use crate::shortint::key_switching::EncryptionKeyChoice;

use super::{
    CompressionParameters, ShortintKeySwitchingParameters, ShortintParameters,
    COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    COMP_PARAM_MESSAGE_2_CARRY_2, PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};

/// TFHE-rs's alias of its default block parameters:
/// [`PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`] (this crate's
/// [`super::DEFAULT_PARAMETERS`]).
pub const PARAM_MESSAGE_2_CARRY_2_KS_PBS: ShortintParameters =
    PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;

/// The shortest alias of the default block parameters (see
/// [`PARAM_MESSAGE_2_CARRY_2_KS_PBS`]).
pub const PARAM_MESSAGE_2_CARRY_2: ShortintParameters = PARAM_MESSAGE_2_CARRY_2_KS_PBS;

/// TFHE-rs's name of the multi-bit parameters its GPU backend uses by default:
/// [`PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`] here (the same
/// values, on the CPU and the GPU alike).
pub const PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: ShortintParameters =
    PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;

/// The short alias of
/// [`PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
pub const PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS: ShortintParameters =
    PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;

/// TFHE-rs's alias of the compression parameters of the default blocks:
/// [`COMP_PARAM_MESSAGE_2_CARRY_2`].
pub const COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS: CompressionParameters = COMP_PARAM_MESSAGE_2_CARRY_2;

/// The short alias of
/// [`COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
pub const COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS: CompressionParameters =
    COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;

/// TFHE-rs 1.8's keyswitch from its dedicated public-key encryptions
/// ([`super::PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`]) to the small key of
/// the default blocks (`2^4`, 4 levels), followed by a bootstrap on expansion.
pub const PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
    ShortintKeySwitchingParameters = ShortintKeySwitchingParameters {
    ks_base_log: DecompositionBaseLog(4),
    ks_level: DecompositionLevelCount(4),
    destination_key: EncryptionKeyChoice::Small,
};

/// TFHE-rs's short name of
/// [`PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
pub const PARAM_KEYSWITCH_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
    ShortintKeySwitchingParameters =
    PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;

/// TFHE-rs 1.8's keyswitch from its dedicated public-key encryptions to the big key
/// of the default blocks (`2^24`, 1 level), followed by a keyswitch and a bootstrap
/// on expansion.
pub const PARAM_KEYSWITCH_TO_BIG_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
    ShortintKeySwitchingParameters = ShortintKeySwitchingParameters {
    ks_base_log: DecompositionBaseLog(24),
    ks_level: DecompositionLevelCount(1),
    destination_key: EncryptionKeyChoice::Big,
};

/// The parameter sets of TFHE-rs 1.8 that this crate has, under their versioned
/// names (`V1_8_...`).
pub mod v1_8 {
    use super::super::{
        CompactPublicKeyEncryptionParameters, CompressionParameters,
        ShortintKeySwitchingParameters, ShortintParameters,
    };

    /// [`super::super::PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: ShortintParameters =
        super::super::PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// [`super::super::PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`].
    pub const V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128: ShortintParameters =
        super::super::PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
    /// [`super::PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        ShortintParameters =
        super::PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// TFHE-rs 1.8's multi-bit blocks of grouping factor 2, TUniform noise:
    /// [`super::super::PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        ShortintParameters =
        super::super::PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// TFHE-rs 1.8's multi-bit blocks of grouping factor 3, TUniform noise:
    /// [`super::super::PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        ShortintParameters =
        super::super::PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// TFHE-rs 1.8's multi-bit blocks of grouping factor 4, TUniform noise:
    /// [`super::super::PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`]
    /// (the values of its GPU set of that grouping factor too).
    pub const V1_8_PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        ShortintParameters =
        super::super::PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// TFHE-rs 1.8's multi-bit blocks of grouping factor 2, Gaussian noise:
    /// [`super::super::PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`].
    pub const V1_8_PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128:
        ShortintParameters =
        super::super::PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
    /// TFHE-rs 1.8's multi-bit blocks of grouping factor 3, Gaussian noise:
    /// [`super::super::PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`].
    pub const V1_8_PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128:
        ShortintParameters =
        super::super::PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
    /// TFHE-rs 1.8's multi-bit blocks of grouping factor 4, Gaussian noise:
    /// [`super::super::PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`].
    pub const V1_8_PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128:
        ShortintParameters =
        super::super::PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
    /// TFHE-rs 1.8's GPU multi-bit blocks of grouping factor 2, TUniform noise (the
    /// values of its CPU set):
    /// [`super::super::PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_PARAM_GPU_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        ShortintParameters =
        super::super::PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// TFHE-rs 1.8's GPU multi-bit blocks of grouping factor 3, TUniform noise:
    /// [`super::super::PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        ShortintParameters =
        super::super::PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// TFHE-rs 1.8's GPU multi-bit blocks of grouping factor 2, Gaussian noise (the
    /// values of its CPU set):
    /// [`super::super::PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`].
    pub const V1_8_PARAM_GPU_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128:
        ShortintParameters =
        super::super::PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
    /// TFHE-rs 1.8's GPU multi-bit blocks of grouping factor 3, Gaussian noise:
    /// [`super::super::PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`].
    pub const V1_8_PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128:
        ShortintParameters =
        super::super::PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
    /// TFHE-rs 1.8's GPU multi-bit blocks of grouping factor 4, Gaussian noise:
    /// [`super::super::PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`].
    pub const V1_8_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128:
        ShortintParameters =
        super::super::PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
    /// [`super::super::COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`].
    pub const V1_8_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128:
        CompressionParameters =
        super::super::COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
    /// [`super::super::COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: CompressionParameters =
        super::super::COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// [`super::super::COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        CompressionParameters =
        super::super::COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// [`super::super::COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`].
    pub const V1_8_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128: CompressionParameters =
        super::super::COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
    /// [`super::super::PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`] (dedicated
    /// parameters, TFHE-rs's values).
    pub const V1_8_PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        CompactPublicKeyEncryptionParameters =
        super::super::PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// [`super::super::PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`] (to the
    /// big key, where TFHE-rs's set of this name switches to the small key).
    pub const V1_8_PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        ShortintKeySwitchingParameters =
        super::super::PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// [`super::PARAM_KEYSWITCH_TO_BIG_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_PARAM_KEYSWITCH_PKE_TO_BIG_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        ShortintKeySwitchingParameters =
        super::PARAM_KEYSWITCH_TO_BIG_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// [`super::PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        ShortintKeySwitchingParameters =
        super::PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// [`super::super::PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128_ZKV2:
        CompactPublicKeyEncryptionParameters =
        super::super::PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// [`super::super::PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128_ZKV1`].
    pub const V1_8_PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128_ZKV1:
        CompactPublicKeyEncryptionParameters =
        super::super::PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128_ZKV1;
    /// [`crate::shortint::NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        crate::shortint::NoiseSquashingParameters =
        crate::shortint::NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// [`crate::shortint::NOISE_SQUASHING_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_NOISE_SQUASHING_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        crate::shortint::NoiseSquashingCompressionParameters =
        crate::shortint::NOISE_SQUASHING_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// [`crate::shortint::NOISE_SQUASHING_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_NOISE_SQUASHING_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        crate::shortint::NoiseSquashingParameters =
        crate::shortint::NOISE_SQUASHING_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// [`crate::shortint::NOISE_SQUASHING_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`].
    pub const V1_8_NOISE_SQUASHING_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128:
        crate::shortint::NoiseSquashingCompressionParameters =
        crate::shortint::NOISE_SQUASHING_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
}

pub use v1_8 as current_params;
