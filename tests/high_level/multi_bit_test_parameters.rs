//! Every high-level operation on the multi-bit blind rotation (grouping factor 4),
//! on the CPU: the tests of `support/ops.rs` over keys of the insecure multi-bit
//! test parameters, fast. Their circuits and bootstrap counts are those of every
//! parameter set with 2-bit messages and carries; the secure multi-bit parameters
//! are checked by `multi_bit_default_parameters.rs` (one operation of each kind of
//! table) and, on a GPU, by the whole suite.

use crate::common;
// The same tests over this module's keys (and over the other parameter sets' and
// backends').
#[allow(clippy::duplicate_mod)]
#[path = "../support/ops.rs"]
mod ops;

use common::{counting_setup_with, keys_in, setup_with, Keys};
use gpufhe::shortint::PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2;
use gpufhe::{ClientKey, ConfigBuilder, ServerKey};
use std::sync::OnceLock;

/// Keys of the insecure multi-bit test parameters, generated once.
fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2)
        .expect("the insecure multi-bit test parameters");
    keys_in(&KEYS, config)
}

/// The shared key set on the thread.
fn setup() -> Option<&'static ClientKey> {
    Some(setup_with(keys()))
}

/// A key of its own (its own counters) set on the thread.
fn counting_setup() -> Option<(&'static ClientKey, ServerKey)> {
    Some(counting_setup_with(keys()))
}
