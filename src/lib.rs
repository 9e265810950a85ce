//! # gpufhe
//!
//! Computing on encrypted integers with TFHE (fully homomorphic encryption), fast
//! on NVIDIA GPUs and correct on any CPU.
//!
//! The crate is built in layers: [`core_crypto`] holds the TFHE primitives (LWE,
//! GLWE, GGSW, keyswitch, programmable bootstrapping), [`shortint`] the blocks of a
//! few bits that encrypted integers are made of, [`integer`] the radix integers built
//! from blocks, and [`backend`] the steps they run as, on the CPU or the GPU.
#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod backend;
pub mod core_crypto;
mod error;
pub mod integer;
pub mod shortint;

pub use error::{Error, Result};

/// The README's code examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
