//! The CUDA backend: devices, embedded kernels and device-resident ciphertexts.
//!
//! Kernels are compiled by `build.rs` from `cuda/*.cu` into images embedded in the
//! crate (an nvcc fatbin, or NVRTC's cubins and PTX); they are loaded once per
//! device with cudarc, which opens the CUDA driver at run time (nothing CUDA is
//! needed to build or link). Every entry point returns `Result`: no driver, no
//! device, kernels not built and driver failures are [`Error`](crate::Error)s, never
//! panics. A fault that leaves a GPU's context unusable (a sticky error) is
//! [`Error::DeviceLost`](crate::Error::DeviceLost) for the operation that saw it and
//! for every later use of what was on that GPU; opening the device again resets it.
//!
//! The GPU code mirrors the CPU code, bottom to top:
//!
//! - `driver/`: context, streams, memory, kernel images, launches, health (its
//!   module docs hold the layering table); it names no kernel;
//! - `kernels.rs`: the kernels of `cuda/` and the sizes they are built for, looked
//!   up once per opening of a device;
//! - `entities/`: the `Cuda` twins of the core_crypto entities at the same relative
//!   paths ([`CudaLweCiphertextList`], [`CudaGlweCiphertextList`],
//!   [`CudaKeyswitchKey`], [`CudaFourierBootstrapKey`]): plain GPU data;
//! - `lookup_tables.rs`: the backend's and shortint's tables as accumulators
//!   ([`CudaLookupTableList`]), what the bootstraps take;
//! - `algorithms/`: the `cuda_` twins of the core_crypto algorithms
//!   ([`cuda_keyswitch_lwe_ciphertext_list`],
//!   [`cuda_programmable_bootstrap_lwe_ciphertext_list`], ...), where kernels are
//!   chosen;
//! - `backend.rs`: the step runner, [`CudaBackend`], the [`Backend`](crate::backend::Backend)
//!   of the integer layer on one GPU, over [`CudaBlocks`] (`blocks.rs`).

pub(crate) mod algorithms;
mod backend;
mod blocks;
pub(crate) mod driver;
pub(crate) mod entities;
pub(crate) mod kernels;
mod lookup_tables;

pub use algorithms::bootstrap_kernel_choice::PbsKernel;
pub use algorithms::linear_combination::cuda_linear_combination_lwe_ciphertext_list;
pub use algorithms::lwe_keyswitch::cuda_keyswitch_lwe_ciphertext_list;
pub use algorithms::lwe_linear_algebra::*;
pub use algorithms::lwe_multi_bit_programmable_bootstrapping::{
    cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list,
    cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_with,
};
pub use algorithms::lwe_programmable_bootstrapping::{
    cuda_programmable_bootstrap_lwe_ciphertext_list,
    cuda_programmable_bootstrap_lwe_ciphertext_list_with,
};
pub use algorithms::lwe_programmable_bootstrapping_128::cuda_programmable_bootstrap_128_lwe_ciphertext_list;
pub use backend::{CudaBackend, MAX_CHUNK};
pub use blocks::CudaBlocks;
pub(crate) use driver::device::probe_devices;
pub use driver::device::{cuda_device_count, CudaDevice, DRIVER_SYMBOLS};
pub use driver::kernel_image::kernels_cuda_version;
pub use entities::bootstrap_key::CudaFourierBootstrapKey;
pub use entities::bootstrap_key_128::{fft128_device_tables, CudaFourierBootstrapKey128};
pub use entities::glwe::CudaGlweCiphertextList;
pub use entities::keyswitch_key::CudaKeyswitchKey;
pub use entities::lwe::CudaLweCiphertextList;
pub use lookup_tables::{lookup_table_accumulators, lookup_table_bodies, CudaLookupTableList};
