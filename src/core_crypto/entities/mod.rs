//! The objects of TFHE: keys and ciphertexts, each wrapping a container.

mod bootstrap_key;
mod bootstrap_key_128;
mod ggsw;
mod glwe;
mod keyswitch_key;
mod lwe;
mod seeded_lwe;
mod shape;

pub use bootstrap_key::*;
pub use bootstrap_key_128::*;
pub use ggsw::*;
pub use glwe::*;
pub use keyswitch_key::*;
pub use lwe::*;
pub use seeded_lwe::*;

pub use shape::*;
