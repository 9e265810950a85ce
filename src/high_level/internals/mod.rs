//! The floor every high-level value stands on (crate-internal): the content of a
//! value and how it enters a circuit ([`storage`]), running a circuit on the
//! thread's server key ([`circuit`]), the thread's batch recording ([`recording`])
//! and the content of a compressed value ([`compressed`]). Nothing here names a
//! value type or an operation.

pub(crate) mod circuit;
pub(crate) mod compressed;
pub(crate) mod recording;
pub(crate) mod storage;

use crate::error::Result;

/// Panics with the error of a failed operation, pointing at the caller.
#[track_caller]
pub(crate) fn expect_op<T>(result: Result<T>, operation: &str) -> T {
    match result {
        Ok(value) => value,
        Err(e) => panic!("gpufhe: {operation} failed: {e}"),
    }
}
