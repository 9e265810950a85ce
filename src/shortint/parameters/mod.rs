//! Parameter sets of blocks: the cryptographic dimensions and the message encoding
//! ([`ShortintParameters`], [`DEFAULT_PARAMETERS`] and the other sets), and, at the
//! path TFHE-rs users know, the compression parameters
//! ([`CompressionParameters`], defined with the compression keys).

mod block;

pub use super::compression::{
    CompressionParameters, COMP_PARAM_MESSAGE_2_CARRY_2,
    COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};
pub use block::*;
