//! Steps, the unit of work of a backend ([`Step`] of [`BlockExpr`]s of [`Term`]s), the
//! [`Backend`] trait that runs them, the checks every backend makes before running
//! one, and the cache of lookup tables the backends share.

use crate::error::{Error, Result};
use crate::shortint::{BlockInfo, Ciphertext, ShortintParameters, Table};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// One term of a linear combination: `scalar * input[block]`. Negative factors
/// subtract; the expression's constant must then keep the result non-negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Term {
    /// Index of the input block in the concatenation of the step's input lists.
    pub block: usize,
    /// The clear factor it is multiplied by.
    pub scalar: i64,
}

/// One expression of a step: `table(sum of terms + constant)`, or the sum alone when
/// `table` is `None`. `constant` is a clear value in block units (not encoded). With
/// no terms the expression is a trivial (noiseless) block holding `constant`. A table
/// of `k` functions makes the expression produce `k` consecutive outputs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BlockExpr {
    /// The linear combination of input blocks.
    pub terms: Vec<Term>,
    /// A clear value added to the combination.
    pub constant: u64,
    /// Index into [`Step::tables`] of the table applied afterwards, if any.
    pub table: Option<usize>,
}

impl BlockExpr {
    /// `input[block]` through table `table`.
    pub fn table_of(block: usize, table: usize) -> Self {
        Self {
            terms: vec![Term { block, scalar: 1 }],
            constant: 0,
            table: Some(table),
        }
    }

    /// A copy of `input[block]`.
    pub fn copy_of(block: usize) -> Self {
        Self {
            terms: vec![Term { block, scalar: 1 }],
            constant: 0,
            table: None,
        }
    }
}

/// A batch of block expressions sharing a list of tables.
#[derive(Debug, Clone, Default)]
pub struct Step<'a> {
    /// The expressions; their outputs come in order.
    pub exprs: Vec<BlockExpr>,
    /// The tables the expressions refer to.
    pub tables: Vec<&'a Table>,
}

impl Step<'_> {
    /// The number of blocks the step outputs.
    pub fn output_count(&self) -> usize {
        self.exprs
            .iter()
            .map(|e| {
                e.table
                    .and_then(|t| self.tables.get(t))
                    .map_or(1, |t| t.function_count())
            })
            .sum()
    }

    /// The number of bootstraps the step runs.
    pub fn bootstrap_count(&self) -> usize {
        self.exprs.iter().filter(|e| e.table.is_some()).count()
    }
}

/// What a backend provides: blocks in its own memory and the evaluation of steps.
pub trait Backend: Send + Sync {
    /// A list of blocks in the backend's memory.
    type Blocks: Send + Sync;

    /// The parameters of the blocks.
    fn parameters(&self) -> &ShortintParameters;

    /// About how many bootstraps the backend runs at once without slowing each of
    /// them down: integer algorithms trade more bootstraps for fewer sequential steps
    /// only when this is large.
    fn parallelism(&self) -> usize;

    /// Evaluates every expression of `step` on the concatenation of `inputs`; the
    /// outputs come in order. Degrees and noise levels are checked before anything
    /// runs: an expression that could exceed a block or its noise budget is an `Err`,
    /// and nothing is computed.
    fn eval(&self, inputs: &[&Self::Blocks], step: &Step<'_>) -> Result<Self::Blocks>;

    /// How many bootstraps this backend has run since it was created.
    fn pbs_count(&self) -> u64;

    /// Moves blocks from the CPU into the backend's memory.
    fn upload(&self, blocks: Vec<Ciphertext>) -> Result<Self::Blocks>;

    /// Copies blocks back to the CPU.
    fn download(&self, blocks: &Self::Blocks) -> Result<Vec<Ciphertext>>;

    /// Cuts `blocks` into consecutive lists of the given lengths (which must add up to
    /// the number of blocks).
    fn split(&self, blocks: Self::Blocks, lengths: &[usize]) -> Result<Vec<Self::Blocks>>;

    /// The number of blocks in `blocks`.
    fn block_count(&self, blocks: &Self::Blocks) -> usize;

    /// The degree and noise level of every block.
    fn block_infos(&self, blocks: &Self::Blocks) -> Vec<BlockInfo>;
}

/// The bookkeeping of a step: of the linear part of each expression, and of each output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StepInfo {
    /// One per expression: its linear combination (the bootstrap input if it has a table).
    pub(crate) linear: Vec<BlockInfo>,
    /// One per output block.
    pub(crate) outputs: Vec<BlockInfo>,
}

/// The bookkeeping of `step` given that of its inputs, or `Err` if an index is out of
/// range, a table does not belong to `params`, or a result could leave
/// `[0, block size)`, exceed the noise budget or a table's input bound. Shared by
/// every backend, so they accept and reject exactly the same steps.
pub(crate) fn check_step(
    params: &ShortintParameters,
    step: &Step<'_>,
    inputs: &[BlockInfo],
) -> Result<StepInfo> {
    for t in &step.tables {
        t.check_parameters(params)?;
    }
    let mut out = Vec::with_capacity(step.output_count());
    let mut linears = Vec::with_capacity(step.exprs.len());
    for expr in &step.exprs {
        let linear = check_linear(params, expr, inputs)?;
        linears.push(linear);
        match expr.table {
            None => out.push(linear),
            Some(l) => {
                let table = step.tables.get(l).ok_or_else(|| {
                    Error::InvalidParameter(format!(
                        "lookup table {l} requested, the step has {}",
                        step.tables.len()
                    ))
                })?;
                if linear.degree >= table.input_bound() {
                    return Err(Error::CapacityExceeded(format!(
                        "a bootstrap input may reach {}, its table of {} function(s) reads \
                         values below {}",
                        linear.degree,
                        table.function_count(),
                        table.input_bound()
                    )));
                }
                out.extend(table.degrees().iter().map(|&degree| BlockInfo {
                    degree,
                    noise_level: 1,
                }));
            }
        }
    }
    Ok(StepInfo {
        linear: linears,
        outputs: out,
    })
}

/// The bookkeeping of the linear part of `expr`.
fn check_linear(
    params: &ShortintParameters,
    expr: &BlockExpr,
    inputs: &[BlockInfo],
) -> Result<BlockInfo> {
    // The value lies in [low, high]; the noise level adds |scalar| * level.
    let (mut low, mut high, mut noise) = (expr.constant as i128, expr.constant as i128, 0u64);
    for t in &expr.terms {
        let info = inputs.get(t.block).ok_or_else(|| {
            Error::InvalidParameter(format!(
                "input block {} requested, the step has {}",
                t.block,
                inputs.len()
            ))
        })?;
        let reach = info.degree as i128 * t.scalar as i128;
        if reach < 0 {
            low += reach;
        } else {
            high += reach;
        }
        noise = noise.saturating_add(info.noise_level.saturating_mul(t.scalar.unsigned_abs()));
    }
    if low < 0 {
        return Err(Error::CapacityExceeded(format!(
            "a block expression may go down to {low}: add a constant that keeps it non-negative"
        )));
    }
    let degree = u64::try_from(high).unwrap_or(u64::MAX);
    params.check_capacity(degree, noise)?;
    Ok(BlockInfo {
        degree,
        noise_level: noise,
    })
}

/// What a backend makes of lookup tables (accumulators on the CPU, table lists in
/// GPU memory), kept so that the tables of a step are not rebuilt and uploaded again
/// every time a circuit uses them. Bounded: past [`TableCache::CAPACITY`] entries it
/// starts afresh.
pub(crate) struct TableCache<K, V> {
    entries: Mutex<HashMap<K, Arc<V>>>,
}

impl<K: Hash + Eq + Clone, V> TableCache<K, V> {
    /// Most entries kept.
    pub(crate) const CAPACITY: usize = 1024;

    /// An empty cache.
    pub(crate) fn new() -> Self {
        Self {
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The value of `key`, made by `make` if it is not cached (an error is not).
    pub(crate) fn get_or_make(&self, key: &K, make: impl FnOnce() -> Result<V>) -> Result<Arc<V>> {
        if let Some(found) = self.lock().get(key) {
            return Ok(found.clone());
        }
        // Made outside the lock: making may take a while (an upload).
        let made = Arc::new(make()?);
        let mut entries = self.lock();
        if entries.len() >= Self::CAPACITY {
            entries.clear();
        }
        Ok(entries.entry(key.clone()).or_insert(made).clone())
    }

    /// The number of entries.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, Arc<V>>> {
        // Entries are only inserted whole: a poisoned lock is still consistent.
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl<K, V> std::fmt::Debug for TableCache<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let len = self.entries.lock().map_or(0, |e| e.len());
        write!(f, "TableCache({len} entries)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_made_once_and_the_cache_stays_bounded() {
        let cache: TableCache<usize, usize> = TableCache::new();
        let mut made = 0;
        for round in 0..3 {
            for k in 0..10 {
                let v = cache
                    .get_or_make(&k, || {
                        made += 1;
                        Ok(k * 2)
                    })
                    .unwrap();
                assert_eq!(*v, k * 2, "round {round}");
            }
        }
        assert_eq!(made, 10);
        assert!(cache.get_or_make(&99, || Err(Error::NoServerKey)).is_err());
        assert_eq!(cache.len(), 10, "a failure is not cached");
        for k in 0..2 * TableCache::<usize, usize>::CAPACITY {
            cache.get_or_make(&k, || Ok(k)).unwrap();
        }
        assert!(cache.len() <= TableCache::<usize, usize>::CAPACITY);
    }
}
