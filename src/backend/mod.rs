//! Execution backends and the step abstraction the integer layer is written against.
//!
//! An integer operation is a short sequence of **steps**. A step computes a list of
//! output blocks, each `table(sum_k scalar_k * input[block_k] + constant)` or just the
//! linear combination: the linear parts cost nothing but noise, the tables cost one
//! keyswitch + bootstrap each and run as one batch (a table of several functions
//! gives several outputs from one bootstrap). Independent operations advance together
//! by putting their expressions in one step, so a batch of additions is one bootstrap
//! batch per carry layer. The CPU backend runs a step with rayon; the CUDA backend
//! (feature `gpu`) runs it as a few kernel launches.
//!
//! Integer algorithms do not build steps by hand: they describe a circuit
//! ([`crate::integer::Circuit`]) that is cut into steps by bootstrap depth.

pub mod cpu;
#[cfg(feature = "gpu")]
#[allow(unsafe_code)]
pub mod cuda;
pub mod gpu;
#[cfg(not(feature = "gpu"))]
mod gpu_absent;
pub(crate) mod gpu_memory;
pub use crate::shortint::{BlockInfo, Table};
mod step;

pub use step::*;
