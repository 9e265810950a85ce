//! The CUDA backend: devices, embedded kernels and device-resident ciphertexts.
//!
//! Kernels are compiled by `build.rs` from `cuda/*.cu` into images embedded in the
//! crate (an nvcc fatbin, or NVRTC's cubins and PTX: `kernel_image.rs`); they are
//! loaded once per device with cudarc, which opens the CUDA driver at run time (nothing CUDA is needed to build or link). Every entry point returns
//! `Result`: no driver, no device, kernels not built and driver failures are
//! [`Error`]s, never panics. A fault that leaves a GPU's context unusable (a sticky
//! error) is [`Error::DeviceLost`] for the operation that saw it and for every later
//! use of what was on that GPU; opening the device again resets it (`health.rs`).

mod backend;
mod device;
mod fourier_bootstrap_key;
mod health;
mod kernel;
mod kernel_image;
mod keyswitch;
mod launch;
mod linear_combination;
mod lwe_linear_algebra;
mod multi_bit_bootstrap;
mod programmable_bootstrap;
mod read_tracking;

pub use backend::{CudaBackend, CudaBlocks, MAX_CHUNK};
pub(crate) use device::probe_devices;
pub use device::{cuda_device_count, gpu_for_tests, CudaDevice, DRIVER_SYMBOLS};
pub use fourier_bootstrap_key::CudaFourierBootstrapKey;
pub use kernel_image::kernels_cuda_version;
pub use keyswitch::{cuda_keyswitch_lwe_ciphertext_list, CudaKeyswitchKey};
pub use linear_combination::cuda_linear_combination_lwe_ciphertext_list;
pub use lwe_linear_algebra::*;
pub use multi_bit_bootstrap::{
    cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list,
    cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_with,
};
pub use programmable_bootstrap::{
    cuda_programmable_bootstrap_lwe_ciphertext_list,
    cuda_programmable_bootstrap_lwe_ciphertext_list_with, lookup_table_bodies, CudaLookupTableList,
    PbsKernel,
};

use crate::error::Error;

mod kernels {
    #[allow(unused_imports)]
    use super::kernel_image::{ImageKind, KernelImage};
    include!(concat!(env!("OUT_DIR"), "/kernels.rs"));
}

/// Turns a driver error into [`Error::Cuda`] with what was being done
/// ([`Error::OutOfDeviceMemory`] when the driver ran out of memory).
pub(crate) fn cuda_err(context: &'static str) -> impl FnOnce(cudarc::driver::DriverError) -> Error {
    move |e| {
        if e.0 == cudarc::driver::sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
            Error::OutOfDeviceMemory(format!("{context}: {e}"))
        } else {
            Error::Cuda {
                context,
                message: e.to_string(),
            }
        }
    }
}
