//! The TFHE core on the CPU: LWE, GLWE and GGSW ciphertexts, keys, encryption,
//! keyswitch, modulus switch, blind rotation, sample extraction and programmable
//! bootstrapping, all modulo 2^64.
//!
//! Functions are named `<verb>_<entity>` after the math, and every dimension is a
//! newtype ([`LweDimension`], [`PolynomialSize`], ...).

mod algorithms;
mod commons;
pub(crate) use entities::check_decomposition;
pub(crate) use entities::check_polynomial_size;
mod compression_seed;
mod entities;
pub mod fft;
pub mod fft128;
pub(crate) mod fft128_simd;
pub mod gpu;
pub(crate) use algorithms::with_legacy_packing_order;
pub(crate) use compression_seed::with_legacy_seeds;
mod random;
pub(crate) mod sha256;
mod xof_noise;
pub(crate) use xof_noise::XofNoiseGenerator;
pub use xof_noise::XofSeed;

pub use algorithms::noise;
pub(crate) use algorithms::polynomial;
pub use algorithms::*;
pub use commons::*;
pub use entities::*;
pub use random::*;
