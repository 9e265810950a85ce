//! TFHE-rs's names of the parameter types: one type, [`ShortintParameters`], stands
//! for its classical, multi-bit, atomic-pattern and compact-public-key parameter
//! types (a block's bootstrap is chosen by [`super::PbsKind`]), and the message and carry moduli as
//! the newtypes TFHE-rs returns from its accessors.
//!
//! ```
//! use gpufhe::shortint::parameters::{
//!     AtomicPatternParameters, ClassicPBSParameters, PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
//! };
//! use gpufhe::shortint::{CarryModulus, MessageModulus};
//! let block: ClassicPBSParameters = PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
//! let params = AtomicPatternParameters::from(block);
//! assert_eq!(params.message_modulus(), MessageModulus(4));
//! assert_eq!(params.carry_modulus(), CarryModulus(4));
//! ```

use super::ShortintParameters;

/// TFHE-rs's parameters of a classical bootstrap: [`ShortintParameters`] (whose
/// [`ShortintParameters::pbs_kind`] says which bootstrap its blocks run).
pub type ClassicPBSParameters = ShortintParameters;

/// TFHE-rs's parameters of a multi-bit bootstrap: [`ShortintParameters`] with a
/// [`super::PbsKind::MultiBit`] bootstrap.
pub type MultiBitPBSParameters = ShortintParameters;

/// TFHE-rs's parameters of either bootstrap: [`ShortintParameters`].
pub type PBSParameters = ShortintParameters;

/// TFHE-rs's parameters of an atomic pattern (keyswitch then bootstrap, the only
/// pattern this crate runs): [`ShortintParameters`].
pub type AtomicPatternParameters = ShortintParameters;

/// The number of message values of a block (TFHE-rs's `MessageModulus`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct MessageModulus(pub u64);

/// The number of carry values of a block (TFHE-rs's `CarryModulus`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct CarryModulus(pub u64);

impl ShortintParameters {
    /// The message modulus ([`ShortintParameters::message_modulus`], the field) as
    /// TFHE-rs's accessor returns it.
    ///
    /// ```
    /// use gpufhe::shortint::{MessageModulus, DEFAULT_PARAMETERS};
    /// assert_eq!(DEFAULT_PARAMETERS.message_modulus(), MessageModulus(4));
    /// ```
    pub const fn message_modulus(&self) -> MessageModulus {
        MessageModulus(self.message_modulus)
    }

    /// The carry modulus ([`ShortintParameters::carry_modulus`], the field) as
    /// TFHE-rs's accessor returns it.
    ///
    /// ```
    /// use gpufhe::shortint::{CarryModulus, DEFAULT_PARAMETERS};
    /// assert_eq!(DEFAULT_PARAMETERS.carry_modulus(), CarryModulus(4));
    /// ```
    pub const fn carry_modulus(&self) -> CarryModulus {
        CarryModulus(self.carry_modulus)
    }
}
