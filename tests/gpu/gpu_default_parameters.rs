//! Every high-level operation on the default (secure) parameters, on GPU 0: the
//! tests of `support/ops.rs` (which `tests/high_level/high_level_default_parameters.rs`
//! runs on the CPU) with a GPU server key. Without a GPU each prints
//! `SKIPPED (no CUDA device)`; on the fake driver they are too slow to emulate.

use crate::common;
// The same tests as on the CPU, over this module's GPU keys.
#[allow(clippy::duplicate_mod)]
#[path = "../support/ops.rs"]
mod ops;

use common::keys;
use gpufhe::{set_server_key, ClientKey, GpuIndex, ServerKey};

/// A GPU key decompressed from the shared compressed key, or `None` after printing
/// the skip without a GPU.
fn gpu_key() -> Option<ServerKey> {
    gpufhe::backend::cuda::gpu_for_tests()?;
    let (_, compressed, _) = keys();
    Some(
        compressed
            .decompress_to_specific_gpu(GpuIndex::new(0))
            .expect("a key on GPU 0"),
    )
}

/// The shared GPU key set on the thread.
fn setup() -> Option<&'static ClientKey> {
    static KEY: std::sync::OnceLock<Option<ServerKey>> = std::sync::OnceLock::new();
    set_server_key(KEY.get_or_init(gpu_key).clone()?);
    Some(&keys().0)
}

/// A GPU key of its own (its own counters) set on the thread.
fn counting_setup() -> Option<(&'static ClientKey, ServerKey)> {
    let key = gpu_key()?;
    set_server_key(key.clone());
    Some((&keys().0, key))
}
