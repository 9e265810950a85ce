//! Every high-level operation on the default (secure) parameters (the tests of
//! `ops/mod.rs`).

mod common;
mod ops;

use common::{counting_setup, keys, setup};
