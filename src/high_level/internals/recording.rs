//! The batch this thread is recording, if any: while [`ServerKey::run_batch`]
//! (`crate::high_level::batch`) runs its closure, the operations of the batch's key are
//! recorded into one circuit instead of run. Below the keys (which ask it whether
//! to record) and the values.
//!
//! [`ServerKey::run_batch`]: crate::ServerKey::run_batch

use crate::error::{Error, Result};
use crate::high_level::keys::tag::KeyTag;
use crate::integer::{Circuit, Radix};
use crate::scheduler::{Blocks, CircuitInput, Recording};
use std::cell::RefCell;

/// The recording of the batch the current thread is running, if any.
struct Active {
    tag: KeyTag,
    recording: Recording,
}

thread_local! {
    static RECORDING: RefCell<Option<Active>> = const { RefCell::new(None) };
}

/// Whether this thread is recording a batch.
pub(crate) fn recording() -> bool {
    RECORDING.with(|r| r.borrow().is_some())
}

/// Records an operation of `tag`'s key into this thread's batch; its outputs are
/// pending blocks. `Err` if the batch belongs to another key.
pub(crate) fn record(
    tag: KeyTag,
    inputs: &[CircuitInput<'_>],
    build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
) -> Result<Vec<Blocks>> {
    RECORDING.with(|r| {
        let mut active = r.borrow_mut();
        let active = active.as_mut().ok_or_else(|| {
            Error::InvalidParameter("internal: no batch is being recorded".into())
        })?;
        active.tag.check(
            "an operation inside run_batch (use the batch's server key)",
            tag,
        )?;
        let outputs = active.recording.record(inputs, build)?;
        Ok(outputs
            .into_iter()
            .map(|wires| active.recording.pending(wires))
            .collect())
    })
}

/// Makes `recording` this thread's batch, for the key of `tag`.
pub(crate) fn start(tag: KeyTag, recording: Recording) {
    RECORDING.with(|r| *r.borrow_mut() = Some(Active { tag, recording }));
}

/// Ends this thread's batch, returning its recording (`None` if there was none).
pub(crate) fn stop() -> Option<Recording> {
    RECORDING
        .try_with(|r| r.borrow_mut().take().map(|active| active.recording))
        .ok()
        .flatten()
}
