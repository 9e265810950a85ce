//! The CUDA backend (feature `gpu`): driver objects, kernels through the backend,
//! the kernels' emulation, the packaged kernel images' check, when a build installs
//! the compiler, GPU keys and values, the scheduler's GPU workers. Without a GPU
//! the tests print `SKIPPED (no CUDA device)`; scripts/fake-cuda.sh runs them on
//! the fake driver.

#[path = "../support/child.rs"]
mod child;
#[path = "../support/common.rs"]
mod common;
#[path = "../support/cuda_support.rs"]
mod cuda_support;
#[path = "../support/fake_child.rs"]
mod fake_child;
#[path = "../support/skip.rs"]
mod skip;

mod build_compiler_install;
mod cuda_array;
mod cuda_backend;
mod cuda_bootstrap;
mod cuda_dedicated_public_key;
mod cuda_device_lost;
mod cuda_driver_version;
mod cuda_emulation;
mod cuda_emulation_128;
mod cuda_high_level;
mod cuda_keyswitch;
mod cuda_launch_parameters;
mod cuda_linear_combination;
mod cuda_lwe_add;
mod cuda_stream_order;
mod cuda_wide_integers;
mod gpu_auto_select;
mod gpu_default_parameters;
mod gpu_multi_bit_default_parameters;
mod kernel_packaging;
mod noise_squashing;
mod scheduler_gpu;
