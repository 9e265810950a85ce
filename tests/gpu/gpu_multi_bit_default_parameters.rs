//! Every high-level operation on the multi-bit default parameters (grouping factor
//! 4), on GPU 0: the tests of `support/ops.rs` (which
//! `tests/high_level/multi_bit_default_parameters.rs` runs on the CPU) and
//! `support/ops_wide.rs` with a GPU
//! server key. Without a GPU each prints `SKIPPED (no CUDA device)`; on the fake
//! driver they are too slow to emulate.

use crate::common;
use crate::cuda_support::gpu_ops_setup;
// The same tests as on the CPU, over this module's GPU keys.
#[allow(clippy::duplicate_mod)]
#[path = "../support/ops.rs"]
mod ops;
#[allow(clippy::duplicate_mod)]
#[path = "../support/ops_wide.rs"]
mod ops_wide;

use common::multi_bit_keys as keys;
gpu_ops_setup!(keys);

#[test]
fn u64_multiplication() {
    ops_wide::u64_multiplication();
}
