//! Every high-level operation on the default (secure) parameters, on GPU 0: the
//! tests of `support/ops.rs` and `support/ops_wide.rs` (which `tests/high_level/operations_default_parameters.rs` runs on the
//! CPU) with a GPU server key. Without a GPU each prints `SKIPPED (no CUDA device)`;
//! on the fake driver they are too slow to emulate.

use crate::common;
use crate::cuda_support::gpu_ops_setup;
// The same tests as on the CPU, over this module's GPU keys.
#[allow(clippy::duplicate_mod)]
#[path = "../support/ops.rs"]
mod ops;
#[allow(clippy::duplicate_mod)]
#[path = "../support/ops_wide.rs"]
mod ops_wide;

use common::keys;
gpu_ops_setup!(keys);

#[test]
fn u64_multiplication() {
    ops_wide::u64_multiplication();
}
