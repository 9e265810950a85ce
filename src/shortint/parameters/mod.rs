//! Parameter sets of blocks: the cryptographic dimensions and the message encoding
//! ([`ShortintParameters`], [`DEFAULT_PARAMETERS`] and the other sets), and, at the
//! path TFHE-rs users know, the compression parameters
//! ([`CompressionParameters`], defined with the compression keys), and TFHE-rs's
//! names of the sets this crate has (`PARAM_MESSAGE_2_CARRY_2_KS_PBS`,
//! [`current_params`], ...).

mod aliases;
mod block;
mod compact_pke;
mod multi_bit;
mod names;
mod re_randomization;

pub use super::compression::{
    CompressionParameters,
    COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
    COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    COMP_PARAM_MESSAGE_2_CARRY_2, COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
    COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};
pub use super::key_switching::{
    EncryptionKeyChoice, ShortintKeySwitchingParameters,
    PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};
/// TFHE-rs 1.8's noise-squashing sets, where TFHE-rs has them too.
pub use super::noise_squashing::{
    NoiseSquashingParameters,
    NOISE_SQUASHING_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};
pub use super::noise_squashing_compression::{
    NoiseSquashingCompressionParameters,
    NOISE_SQUASHING_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    NOISE_SQUASHING_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};
pub use aliases::{
    current_params, v1_8, COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS,
    COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS, PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS,
    PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    PARAM_KEYSWITCH_TO_BIG_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    PARAM_KEYSWITCH_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128, PARAM_MESSAGE_2_CARRY_2,
    PARAM_MESSAGE_2_CARRY_2_KS_PBS,
};
pub use block::*;
pub use compact_pke::*;
pub use multi_bit::*;
pub use names::{
    AtomicPatternParameters, CarryModulus, ClassicPBSParameters, MessageModulus,
    MultiBitPBSParameters, PBSParameters,
};
pub use re_randomization::ReRandomizationParameters;
