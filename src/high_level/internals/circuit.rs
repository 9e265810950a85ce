//! Running one circuit on the thread's server key ([`run`]), taking its single
//! output ([`single`]), and which flag a checked operation reports ([`Flag`]).

use super::storage::{Input, Storage};
use crate::error::{check_eq, Result};
use crate::high_level::global_state::current_server_key;
use crate::integer::{Circuit, Radix};

/// Runs a circuit on the current thread's server key.
pub(crate) fn run(
    inputs: &[Input<'_>],
    build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
) -> Result<Vec<Storage>> {
    current_server_key()?.execute(inputs, build)
}

/// `Err` unless there is a server key on this thread and every input belongs to
/// it (its tag and parameters), as [`run`] checks them, without running anything:
/// for operations whose result needs no circuit for some input (an empty table, an
/// empty list to search), which must refuse what every other operation refuses.
pub(crate) fn check_operands(inputs: &[Input<'_>]) -> Result<()> {
    current_server_key()?.circuit_inputs(inputs).map(|_| ())
}

/// The only output of a circuit.
pub(crate) fn single(mut outputs: Vec<Storage>) -> Result<Storage> {
    check_eq("number of outputs of the circuit", 1, outputs.len())?;
    Ok(outputs.remove(0))
}

/// Which flag a checked operation reports.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flag {
    /// `true` when the result wrapped around (`overflowing_*`).
    Overflow,
    /// `true` when the result is exact (`checked_*`, like `Option::is_some`).
    Valid,
}
