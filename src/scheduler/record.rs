//! Recording operations into one circuit instead of running each: how a single
//! operation is built, and how a batch of any operations (the closure of
//! [`crate::ServerKey::run_batch`]) becomes one circuit per share.
//!
//! A recorded operation's results are [`Blocks::Pending`]: wires of the circuit
//! being recorded, usable as operands of later operations of the same recording
//! only. When the recording ends, the pending blocks the caller keeps become the
//! circuit's outputs and are replaced by real blocks once it has run.

use super::{Blocks, CircuitInput};
use crate::backend::BlockInfo;
use crate::error::{check_eq, Error, Result};
use crate::integer::{self, block_count, Circuit, Radix, Wire};
use crate::shortint::ShortintParameters;
use std::sync::atomic::{AtomicU64, Ordering};

/// A circuit being recorded, with copies of the encrypted blocks it reads.
#[derive(Debug)]
pub(crate) struct Recording {
    id: u64,
    circuit: Circuit,
    inputs: Vec<Blocks>,
}

impl Recording {
    /// An empty recording on blocks of `params`, for a backend running
    /// `parallelism` bootstraps per operation at once (see
    /// [`Circuit::with_parallelism`]).
    pub(crate) fn new(params: &ShortintParameters, parallelism: usize) -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Self {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            circuit: Circuit::new(*params).with_parallelism(parallelism),
            inputs: Vec::new(),
        }
    }

    /// Its identifier (that of its pending blocks).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// The encrypted blocks it reads so far, in circuit input order.
    pub(crate) fn inputs(&self) -> &[Blocks] {
        &self.inputs
    }

    /// The circuit so far.
    pub(crate) fn circuit(&self) -> &Circuit {
        &self.circuit
    }

    /// Records the operation `build` makes on `inputs` (clear values enter as
    /// constants, encrypted blocks as new circuit inputs, pending blocks of this
    /// recording as their wires); returns the wires of its outputs (see
    /// [`Recording::pending`]). `Err` if a pending input belongs to another
    /// recording or an output block is not clean; a failed operation leaves nothing
    /// reachable behind.
    pub(crate) fn record(
        &mut self,
        inputs: &[CircuitInput<'_>],
        build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    ) -> Result<Vec<Radix>> {
        let params = *self.circuit.parameters();
        let mut operands = Vec::with_capacity(inputs.len());
        for input in inputs {
            operands.push(match *input {
                CircuitInput::Clear { value, bits } => {
                    let count = block_count(&params, bits);
                    integer::clear_digits(value, params.message_modulus, count)
                        .into_iter()
                        .map(|d| self.circuit.constant(d))
                        .collect::<Result<Radix>>()?
                }
                CircuitInput::Encrypted { blocks, bits } => {
                    let wires = match blocks {
                        Blocks::Pending { recording, wires } => {
                            if *recording != self.id {
                                return Err(pending_elsewhere());
                            }
                            wires.clone()
                        }
                        _ => {
                            let wires = self.circuit.add_input(&block_infos(blocks)?)?;
                            self.inputs.push(blocks.clone());
                            wires
                        }
                    };
                    check_eq(
                        "number of blocks of an operand",
                        block_count(&params, bits),
                        wires.len(),
                    )?;
                    wires
                }
            });
        }
        let outputs = build(&mut self.circuit, &operands)?;
        for &w in outputs.iter().flatten() {
            let info = self.circuit.info(w);
            if info.degree >= params.message_modulus || info.noise_level > 1 {
                return Err(Error::CapacityExceeded(format!(
                    "internal: an operation returned a block that is not clean (degree {}, \
                     noise level {})",
                    info.degree, info.noise_level
                )));
            }
        }
        Ok(outputs)
    }

    /// Recorded wires as pending blocks of this recording.
    pub(crate) fn pending(&self, wires: Radix) -> Blocks {
        Blocks::Pending {
            recording: self.id,
            wires,
        }
    }

    /// The wires of `blocks` if they are pending in this recording.
    pub(crate) fn wires_of<'b>(&self, blocks: &'b Blocks) -> Option<&'b [Wire]> {
        match blocks {
            Blocks::Pending { recording, wires } if *recording == self.id => Some(wires),
            _ => None,
        }
    }

    /// Ends the recording: `outputs` (wires of its pending blocks) become the
    /// circuit's outputs, in order. Returns the circuit and its encrypted inputs.
    pub(crate) fn finish(mut self, outputs: &[&[Wire]]) -> (Circuit, Vec<Blocks>) {
        for wires in outputs {
            self.circuit.add_output(wires);
        }
        (self.circuit, self.inputs)
    }
}

/// The error for a pending value used where it cannot be.
pub(crate) fn pending_elsewhere() -> Error {
    Error::InvalidParameter(
        "this value was computed inside a batch (ServerKey::run_batch) and is only \
         available once the batch has run: return it from the batch's closure instead \
         of keeping it elsewhere"
            .into(),
    )
}

/// The bookkeeping of blocks that exist (not pending).
pub(crate) fn block_infos(blocks: &Blocks) -> Result<Vec<BlockInfo>> {
    match blocks {
        Blocks::Cpu(v) => Ok(v
            .iter()
            .map(|c| BlockInfo {
                degree: c.degree(),
                noise_level: c.noise_level(),
            })
            .collect()),
        Blocks::Cuda(b) => Ok(b.infos().to_vec()),
        Blocks::Pending { .. } => Err(pending_elsewhere()),
    }
}
