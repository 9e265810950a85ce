//! Execution backends and the step abstraction the integer layer is written against.
//!
//! An integer operation is a short sequence of **steps**. A step computes a list of
//! output blocks, each `lut(sum_k scalar_k * input[block_k] + constant)` or just the
//! linear combination: the linear parts cost nothing but noise, the lookup tables
//! cost one keyswitch + bootstrap each and run as one batch. Independent operations
//! advance together by concatenating their expressions into one step, so a batch of
//! additions is one bootstrap batch per carry layer. The CPU backend runs a step with
//! rayon; the CUDA backend (feature `gpu`) will run it as a few kernel launches.

pub mod cpu;
#[cfg(feature = "gpu")]
#[allow(unsafe_code)]
pub mod cuda;

use crate::error::Result;
use crate::shortint::{Ciphertext, LookupTable, ShortintParameters};

/// One term of a linear combination: `scalar * input[block]`. Negative factors
/// subtract; the expression's constant must then keep the result non-negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    /// Index of the input block.
    pub block: usize,
    /// The clear factor it is multiplied by.
    pub scalar: i64,
}

/// One output block of a step: `lut(sum of terms + constant)`, or the sum alone when
/// `lut` is `None`. `constant` is a clear value in block units (not encoded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockExpr {
    /// The linear combination of input blocks (at least one term).
    pub terms: Vec<Term>,
    /// A clear value added to the combination.
    pub constant: u64,
    /// Index into [`Step::luts`] of the table applied afterwards, if any.
    pub lut: Option<usize>,
}

impl BlockExpr {
    /// `input[block]` through `lut`.
    pub fn lut_of(block: usize, lut: usize) -> Self {
        Self {
            terms: vec![Term { block, scalar: 1 }],
            constant: 0,
            lut: Some(lut),
        }
    }

    /// `factor * input[lhs] + input[rhs]` through `lut` (a bivariate table).
    pub fn bivariate(lhs: usize, rhs: usize, factor: i64, lut: usize) -> Self {
        Self {
            terms: vec![
                Term {
                    block: lhs,
                    scalar: factor,
                },
                Term {
                    block: rhs,
                    scalar: 1,
                },
            ],
            constant: 0,
            lut: Some(lut),
        }
    }
}

/// A batch of block expressions sharing a list of lookup tables.
#[derive(Debug, Clone, Default)]
pub struct Step<'a> {
    /// The outputs, in order.
    pub exprs: Vec<BlockExpr>,
    /// The tables the expressions refer to.
    pub luts: Vec<&'a LookupTable>,
}

/// What a backend provides: blocks in its own memory and the evaluation of steps.
pub trait Backend: Send + Sync {
    /// A list of blocks in the backend's memory.
    type Blocks: Send + Sync;

    /// The parameters of the blocks.
    fn parameters(&self) -> &ShortintParameters;

    /// Evaluates every expression of `step` on `inputs`; the outputs come in order.
    /// Degrees and noise levels are checked before anything runs: an expression that
    /// could exceed a block or its noise budget is an `Err`, and nothing is computed.
    fn eval(&self, inputs: &Self::Blocks, step: &Step<'_>) -> Result<Self::Blocks>;

    /// How many bootstraps this backend has run since it was created.
    fn pbs_count(&self) -> u64;

    /// Moves blocks from the CPU into the backend's memory.
    fn upload(&self, blocks: Vec<Ciphertext>) -> Result<Self::Blocks>;

    /// Copies blocks back to the CPU.
    fn download(&self, blocks: &Self::Blocks) -> Result<Vec<Ciphertext>>;

    /// The blocks of `parts`, one after the other (the input pool of a step).
    fn concat(&self, parts: &[&Self::Blocks]) -> Result<Self::Blocks>;

    /// The number of blocks in `blocks`.
    fn block_count(&self, blocks: &Self::Blocks) -> usize;

    /// The public degree (upper bound of the value) of every block.
    fn degrees(&self, blocks: &Self::Blocks) -> Vec<u64>;
}

/// The degree and noise level of `expr` given those of its inputs, or `Err` if an
/// index is out of range, the result could leave `[0, block size)` or exceed the
/// noise budget.
/// Shared by every backend, so they accept and reject exactly the same steps.
pub(crate) fn check_expr(
    params: &ShortintParameters,
    expr: &BlockExpr,
    lut_count: usize,
    input_count: usize,
    degree_and_noise: impl Fn(usize) -> (u64, u64),
) -> Result<(u64, u64)> {
    use crate::error::Error;
    if expr.terms.is_empty() {
        return Err(Error::InvalidParameter(
            "a block expression needs at least one term".into(),
        ));
    }
    if let Some(l) = expr.lut {
        if l >= lut_count {
            return Err(Error::InvalidParameter(format!(
                "lookup table {l} requested, the step has {lut_count}"
            )));
        }
    }
    // The value lies in [low, high]; the noise level adds |scalar| * level.
    let (mut low, mut high, mut noise) = (expr.constant as i128, expr.constant as i128, 0u64);
    for t in &expr.terms {
        if t.block >= input_count {
            return Err(Error::InvalidParameter(format!(
                "input block {} requested, the step has {input_count}",
                t.block
            )));
        }
        let (d, n) = degree_and_noise(t.block);
        let reach = d as i128 * t.scalar as i128;
        if reach < 0 {
            low += reach;
        } else {
            high += reach;
        }
        noise = noise.saturating_add(n.saturating_mul(t.scalar.unsigned_abs()));
    }
    if low < 0 {
        return Err(Error::CapacityExceeded(format!(
            "a block expression may go down to {low}: add a constant that keeps it non-negative"
        )));
    }
    let degree = u64::try_from(high).unwrap_or(u64::MAX);
    params.check_capacity(degree, noise)?;
    Ok((degree, noise))
}
