//! Every high-level operation on the default (secure) parameters, on the CPU (the
//! tests of `support/ops.rs` and `support/ops_wide.rs`; `tests/gpu/gpu_default_parameters.rs` runs them on a
//! GPU).

use crate::common;
// The same tests over this module's keys (and over the other parameter sets' and
// backends').
#[allow(clippy::duplicate_mod)]
#[path = "../support/ops.rs"]
mod ops;
#[allow(clippy::duplicate_mod)]
#[path = "../support/ops_wide.rs"]
mod ops_wide;

use common::keys;
use gpufhe::{ClientKey, ServerKey};

/// The shared CPU key set on the thread.
fn setup() -> Option<&'static ClientKey> {
    Some(common::setup())
}

/// A CPU key of its own (its own counters) set on the thread.
fn counting_setup() -> Option<(&'static ClientKey, ServerKey)> {
    Some(common::counting_setup())
}
