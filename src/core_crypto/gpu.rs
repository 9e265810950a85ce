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

pub use crate::high_level::clear_gpu_thread_locals;
pub use crate::scheduler::get_number_of_gpus;
