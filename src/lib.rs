//! # gpufhe
//!
//! Computing on encrypted integers with TFHE (fully homomorphic encryption), fast
//! on NVIDIA GPUs and correct on any CPU.
//!
//! The crate is built in layers: [`core_crypto`] holds the TFHE primitives (LWE,
//! GLWE, GGSW, keyswitch, programmable bootstrapping), [`shortint`] the blocks of a
//! few bits that encrypted integers are made of, [`integer`] the radix integers built
//! from blocks, and [`backend`] the steps they run as, on the CPU or the GPU.
//! [`high_level`] is the API most users want: keys, [`FheUint2`] ... [`FheUint256`]
//! and [`FheBool`] with ordinary operators, re-exported here. With the `cluster`
//! feature, `cluster` spreads batches over the processes of an MPI job (several GPU
//! servers).
//!
//! ```
//! use gpufhe::prelude::*;
//! use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
//! let (client_key, server_key) = generate_keys(ConfigBuilder::default());
//! set_server_key(server_key);
//! let a = FheUint8::encrypt(0b1100u8, &client_key);
//! let b = FheUint8::encrypt(0b1010u8, &client_key);
//! let c = &a | &b;
//! let clear: u8 = c.decrypt(&client_key);
//! assert_eq!(clear, 0b1110);
//! ```
#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod backend;
#[cfg(feature = "cluster")]
pub mod cluster;
pub mod core_crypto;
mod error;
pub mod high_level;
pub mod integer;
pub mod memory;
pub mod scheduler;
pub mod serialization;
pub mod shortint;

pub use error::{Error, Result};
pub use high_level::FheUint256;
pub use high_level::{
    clear_gpu_thread_locals, generate_keys, get_number_of_gpus, prelude, set_server_key,
    unset_server_key, BinaryOp, ClientKey, ComparisonOp, CompressedServerKey, Config,
    ConfigBuilder, Device, FheBool, FheUint, FheUint10, FheUint12, FheUint128, FheUint14,
    FheUint16, FheUint2, FheUint32, FheUint4, FheUint6, FheUint64, FheUint8, GpuIndex,
    GpuSelection, KeyTag, Seed, ServerKey,
};
pub use high_level::{CompactCiphertextList, CompactPublicKey, CompressedCompactPublicKey};
pub use high_level::{CompressedCiphertextList, CompressedCiphertextListBuilder};
pub use high_level::{FheInt, FheInt128, FheInt16, FheInt32, FheInt64, FheInt8};

/// The README's code examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
