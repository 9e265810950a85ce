//! Execution backends. The CUDA backend (feature `gpu`) runs the same primitives as
//! the CPU code on NVIDIA GPUs.

#[cfg(feature = "gpu")]
#[allow(unsafe_code)]
pub mod cuda;
