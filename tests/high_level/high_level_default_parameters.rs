//! Every high-level operation on the default (secure) parameters (the tests of
//! `support/ops.rs`).

use crate::common;
// The same tests over this module's keys (and over the other parameter set's).
#[allow(clippy::duplicate_mod)]
#[path = "../support/ops.rs"]
mod ops;

use common::{counting_setup, keys, setup};
