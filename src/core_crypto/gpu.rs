//! GPU helpers at the paths TFHE-rs has them (`tfhe::core_crypto::gpu`), so that
//! code written for it finds them here. They work, and report no GPU, when the
//! crate is built without the `gpu` feature or runs on a machine without one.
//!
//! ```
//! use gpufhe::core_crypto::gpu::{clear_gpu_thread_locals, get_number_of_gpus};
//! let gpus = get_number_of_gpus(); // 0 without the `gpu` feature or a GPU
//! clear_gpu_thread_locals(); // harmless without a GPU
//! # let _ = gpus;
//! ```

// layers: up. The names TFHE-rs users import from `tfhe::core_crypto::gpu`,
// re-exported at that path (no code here): they belong to the GPU facts
// (`backend::gpu`) and the high level's thread-local keys.
pub use crate::backend::gpu::{
    check_valid_cuda_malloc, check_valid_cuda_malloc_assert_oom, get_number_of_gpus,
    is_cuda_available,
}; // layers: up (TFHE-rs path)
pub use crate::high_level::clear_gpu_thread_locals; // layers: up (TFHE-rs path)

/// TFHE-rs's `tfhe::core_crypto::gpu::vec` path of [`GpuIndex`](crate::GpuIndex).
pub mod vec {
    pub use crate::backend::gpu::GpuIndex; // layers: up (TFHE-rs path)
}
