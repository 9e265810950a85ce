//! # gpufhe
//!
//! Computing on encrypted integers with TFHE (fully homomorphic encryption), fast
//! on NVIDIA GPUs and correct on any CPU. [`high_level`] is the API most users
//! want: keys, [`FheUint2`] ... [`FheUint2048`], [`FheInt2`] ... [`FheInt2048`] and
//! [`FheBool`] with ordinary operators, re-exported here.
//!
//! # Layers
//!
//! The crate is built in layers, bottom to top; each uses only the ones below it
//! (`scripts/layers.py --check` keeps it so in CI, with at most two marked
//! exceptions):
//!
//! | layer | what it holds |
//! |-------|---------------|
//! | [`Error`], [`memory`] | the crate's error type; the memory budget every expansion checks ([`memory::ENV_MEMORY_LIMIT`]) |
//! | [`core_crypto`] | LWE, GLWE and GGSW ciphertexts and keys, keyswitch, programmable bootstrapping (classical and multi-bit), the FFT ([`core_crypto::fft`]); [`core_crypto::gpu`] holds TFHE-rs's GPU helper names |
//! | [`serialization`]'s codec | the header, size limits and format version of [`serialization::safe_serialize`] and [`serialization::safe_deserialize`], below every layer that serializes |
//! | [`shortint`] | blocks of a few bits, lookup tables, parameters, compression keys, compact public keys |
//! | [`backend`] | the [`Backend`](backend::Backend) trait and the [`Step`](backend::Step)s it runs; [`backend::cpu`]; `backend::cuda` (feature `gpu`): the GPU driver layer, the kernels and the CUDA step runner; [`backend::gpu`]: the GPU facts every build has |
//! | [`integer`] | radix integers and their circuits ([`integer::Circuit`]), written once against the backend |
//! | [`scheduler`] | devices ([`scheduler::Devices`]), configuration ([`scheduler::SchedulerConfig`]), the cost model and its calibration ([`scheduler::Calibration`], [`ServerKey::calibrate`]), batches split over GPUs × streams and the CPU worker |
//! | [`high_level`] | [`ConfigBuilder`], keys, [`FheUint`], [`FheInt`], [`FheBool`], operators, batches, encrypted arrays ([`array`](mod@array)), compressed and compact lists, conformance checks of deserialized values |
//! | `cluster` (feature `cluster`) | batches over the processes of an MPI job (several GPU servers) |
//!
//! A first program:
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
pub mod error;
pub mod high_level;
pub mod integer;
pub mod memory;
pub mod scheduler;
pub mod serialization;
pub mod shortint;

pub use error::{Error, ErrorKind, Result};
/// Everything of the high-level API is also at the crate root, as in TFHE-rs.
pub use high_level::*;

pub mod safe_serialization;

/// The name written in a serialized value's header, at the path TFHE-rs users know
/// (`tfhe::named::Named`, from `tfhe-safe-serialize`).
pub mod named {
    pub use tfhe_safe_serialize::Named;
}

/// Versioned serialization, as TFHE-rs re-exports it (`tfhe-versionable`'s traits).
pub use tfhe_versionable::{Unversionize, Versionize};

/// Conformance checks at the path TFHE-rs users know (`tfhe::conformance`).
pub mod conformance {
    pub use crate::high_level::{ListSizeConstraint, ParameterSetConformant};
    pub use crate::serialization::{ConformanceParams, Conformant};
}

/// The README's code examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
