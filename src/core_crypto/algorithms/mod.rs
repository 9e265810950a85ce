//! The algorithms of TFHE on the CPU, one file per algorithm.

pub(crate) mod decomposition;
mod ggsw_encryption;
mod glwe_encryption;
mod lwe_bootstrap_key_generation;
mod lwe_encryption;
mod lwe_keyswitch;
mod lwe_keyswitch_rounded;
mod lwe_linear_algebra;
mod lwe_multi_bit_programmable_bootstrapping;
mod lwe_packing_keyswitch;
mod lwe_packing_keyswitch_128;
mod lwe_programmable_bootstrapping;
mod lwe_programmable_bootstrapping_128;
mod lwe_programmable_bootstrapping_multithreaded;
mod modulus_switch;
pub mod noise;
pub(crate) mod polynomial;
mod sample_extraction;
pub(crate) mod tfhe_rs_layout;

pub use ggsw_encryption::*;
pub use glwe_encryption::*;
pub use lwe_bootstrap_key_generation::*;
pub use lwe_encryption::*;
pub use lwe_keyswitch::*;
pub use lwe_keyswitch_rounded::*;
pub use lwe_linear_algebra::*;
pub use lwe_multi_bit_programmable_bootstrapping::*;
pub(crate) use lwe_packing_keyswitch::with_legacy_packing_order;
pub use lwe_packing_keyswitch::*;
pub use lwe_packing_keyswitch_128::*;
pub use lwe_programmable_bootstrapping::*;
pub use lwe_programmable_bootstrapping_128::*;
pub use lwe_programmable_bootstrapping_multithreaded::*;
pub use modulus_switch::*;
pub use sample_extraction::*;
