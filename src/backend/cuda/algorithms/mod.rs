//! The GPU twins of the core_crypto algorithms, named `cuda_<cpu name>` at the same
//! relative paths: LWE linear algebra, the keyswitch, the programmable bootstrap
//! (`blind_rotation.rs`) and its multi-bit form, and the linear combinations of a
//! step.

pub(crate) mod blind_rotation;
pub(crate) mod linear_combination;
pub(crate) mod lwe_keyswitch;
pub(crate) mod lwe_linear_algebra;
pub(crate) mod multi_bit_blind_rotation;
