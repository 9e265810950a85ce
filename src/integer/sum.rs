//! Sums of many blocks per position (carry-save reduction by columns), the common
//! tail of multi-operand sums and multiplications.
//!
//! Column `k` holds blocks of weight `base^k` whose degrees may exceed a digit (a
//! product of two digits reaches 9). A round packs blocks of a column into sums that
//! fit a block (degrees up to 15, noise levels up to the maximum) and splits each
//! pack `v` into its digit `v % 4`, which stays, and its carry `v / 4`, which moves to
//! the next column: both from one bootstrap when `v <= 7`, else one bootstrap each.
//! The top column keeps only digits (`v % 4`, one bootstrap per pack). A round
//! reduces a column only as far as the final carry propagation needs, largest blocks
//! first; it prefers a small pack (one bootstrap) when that is enough, and otherwise
//! makes only nearly full packs (13 to 15), leaving the rest to wait for this round's
//! digits and carries as partners (unless no column could progress). Rounds repeat
//! until every column fits the propagation of the chosen finish (column sums up to
//! 12 for ripple, 6 for low latency), which then finishes the sum.

use super::carry::{propagate, Strategy};
use super::Radix;
use crate::backend::BlockInfo;
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};
use std::collections::VecDeque;

/// More rounds than the reduction of any column of a 2^32-block circuit needs; the
/// carries of the last rounds may move one column per round, so a sum of `n`
/// columns gets `n` more (the 256 columns of a 128-block product take 76).
const MAX_ROUNDS: usize = 64;

/// How column sums are finished: the propagation strategy, and whether the columns
/// are first reduced to the narrow sums of the low-latency strategy even for ripple
/// propagation (cheaper for a few blocks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Finish {
    pub(crate) strategy: Strategy,
    pub(crate) narrow: bool,
}

impl Finish {
    /// The ways to finish with `strategy` (every one for [`Strategy::Auto`]).
    pub(crate) fn candidates(strategy: Strategy) -> Vec<Finish> {
        let ripple = [false, true].map(|narrow| Finish {
            strategy: Strategy::Ripple,
            narrow,
        });
        let fast = Finish {
            strategy: Strategy::LowLatency,
            narrow: true,
        };
        match strategy {
            Strategy::Ripple => ripple.to_vec(),
            Strategy::LowLatency => vec![fast],
            Strategy::Auto => vec![ripple[0], ripple[1], fast],
        }
    }

    fn limit(self, c: &Circuit, column: usize) -> (u64, u64) {
        let strategy = if self.narrow {
            Strategy::LowLatency
        } else {
            self.strategy
        };
        strategy.sum_limit(c, column)
    }
}

/// The digits of `sum_k (sum of columns[k]) * base^k` modulo `base^columns.len()`.
pub(crate) fn sum_columns(
    c: &mut Circuit,
    columns: Vec<Vec<Wire>>,
    finish: Finish,
) -> Result<Radix> {
    let sums = reduce_columns(c, columns, finish)?;
    Ok(propagate(c, &sums, false, finish.strategy)?.0)
}

/// One block sum per column, within the limits of `finish`.
fn reduce_columns(
    c: &mut Circuit,
    mut columns: Vec<Vec<Wire>>,
    finish: Finish,
) -> Result<Vec<Wire>> {
    let n = columns.len();
    let mut force = false;
    for _ in 0..MAX_ROUNDS + n {
        let mut next: Vec<Vec<Wire>> = vec![Vec::new(); n];
        let mut packs = 0;
        let mut fits = true;
        for k in 0..n {
            let incoming = std::mem::take(&mut next[k]);
            let items = std::mem::take(&mut columns[k]);
            let limit = finish.limit(c, k);
            let column = reduce_column(c, items, &incoming, limit, k + 1 == n, force)?;
            packs += column.packs;
            fits &= column.fits;
            next[k] = column.blocks;
            next[k].extend(incoming);
            if k + 1 < n {
                next[k + 1].extend(column.carries);
            }
        }
        columns = next;
        if packs == 0 {
            if fits {
                return columns
                    .iter()
                    .map(|column| {
                        let terms: Vec<(Wire, i64)> = column.iter().map(|&w| (w, 1)).collect();
                        c.linear(&terms, 0)
                    })
                    .collect();
            }
            if force {
                break;
            }
        }
        // A round that could only make poorly filled packs makes them.
        force = packs == 0;
    }
    Err(Error::CapacityExceeded(
        "the columns of a sum did not reduce".into(),
    ))
}

/// What a round made of one column.
struct Column {
    /// The blocks kept and the new digits.
    blocks: Vec<Wire>,
    /// Carries for the next column.
    carries: Vec<Wire>,
    packs: usize,
    /// Whether the column, with its incoming carries, fits its limit.
    fits: bool,
}

/// Packs blocks of one column until, with the `incoming` carries, it fits `limit`.
/// A pack that needs two bootstraps is made only when nearly full (or with `force`):
/// its blocks otherwise wait for the digits and carries of this round as partners.
fn reduce_column(
    c: &mut Circuit,
    items: Vec<Wire>,
    incoming: &[Wire],
    limit: (u64, u64),
    top: bool,
    force: bool,
) -> Result<Column> {
    let params = *c.parameters();
    let m = c.message_modulus();
    let total = params.total_modulus();
    let (full, small) = (
        BlockInfo {
            degree: total - 1,
            noise_level: params.max_noise_level,
        },
        BlockInfo {
            degree: total / 2 - 1,
            noise_level: params.max_noise_level,
        },
    );
    let mut rest = Waiting::new(items.into_iter().map(|w| (w, c.info(w))).collect());
    let (mut degree, mut noise) = rest
        .infos()
        .chain(incoming.iter().map(|&w| c.info(w)))
        .fold((0, 0), |(d, n), info| {
            (d + info.degree, n + info.noise_level)
        });
    let mut out = Vec::new();
    let mut carries = Vec::new();
    let mut made = 0;
    while degree > limit.0 || noise > limit.1 {
        let need = (
            degree.saturating_sub(limit.0),
            noise.saturating_sub(limit.1),
        );
        let gain = |pack: &Pack| {
            let (d, n) = (pack.degree, pack.noise_level);
            (d - d.min(m - 1), n.saturating_sub(1))
        };
        let cheap = rest.first_fit(small);
        let (dg, ng) = gain(&cheap);
        let pack = if !top && dg >= need.0 && ng >= need.1 {
            cheap
        } else {
            let pack = rest.first_fit(full);
            if !force && pack.degree + m - 1 < full.degree {
                break;
            }
            pack
        };
        let (dg, ng) = gain(&pack);
        if dg == 0 && ng == 0 {
            break;
        }
        let terms = rest.take(&pack);
        let packed = c.linear(&terms, 0)?;
        let packed_degree = c.info(packed).degree;
        let digit = if top {
            c.table(packed, move |v| v % m)?
        } else if packed_degree < total / 2 {
            let parts = c.tables(packed, &[&move |v| v % m, &move |v| v / m])?;
            carries.push(parts[1]);
            parts[0]
        } else {
            carries.push(c.table(packed, move |v| v / m)?);
            c.table(packed, move |v| v % m)?
        };
        degree -= dg;
        noise -= ng;
        out.push(digit);
        made += 1;
    }
    out.extend(rest.into_wires());
    Ok(Column {
        blocks: out,
        carries,
        packs: made,
        fits: degree <= limit.0 && noise <= limit.1,
    })
}

/// The blocks of a column that wait to be packed, by decreasing degree and noise
/// level (a stable order), as runs of equal bookkeeping: a first-fit pack over that
/// order takes a prefix of each run, so a pack costs one step per run, not per block.
struct Waiting {
    runs: Vec<(BlockInfo, VecDeque<Wire>)>,
}

/// A first-fit pack: how many blocks it takes from the front of each run, and the
/// sums of their degrees and noise levels.
struct Pack {
    counts: Vec<(usize, usize)>,
    degree: u64,
    noise_level: u64,
}

impl Waiting {
    /// The blocks of nonzero degree of `items`.
    fn new(mut items: Vec<(Wire, BlockInfo)>) -> Waiting {
        items.retain(|(_, info)| info.degree > 0);
        items.sort_by_key(|(_, info)| std::cmp::Reverse((info.degree, info.noise_level)));
        let mut runs: Vec<(BlockInfo, VecDeque<Wire>)> = Vec::new();
        for (w, info) in items {
            match runs.last_mut() {
                Some((last, run)) if *last == info => run.push_back(w),
                _ => runs.push((info, VecDeque::from([w]))),
            }
        }
        Waiting { runs }
    }

    fn infos(&self) -> impl Iterator<Item = BlockInfo> + '_ {
        self.runs
            .iter()
            .flat_map(|(info, run)| std::iter::repeat_n(*info, run.len()))
    }

    /// The blocks that first-fit, in order, into one block of at most `cap`'s degree
    /// and noise level.
    fn first_fit(&self, cap: BlockInfo) -> Pack {
        let mut pack = Pack {
            counts: Vec::new(),
            degree: 0,
            noise_level: 0,
        };
        for (r, (info, run)) in self.runs.iter().enumerate() {
            let room = |used: u64, cap: u64, each: u64| match each {
                0 => usize::MAX,
                _ => usize::try_from(cap.saturating_sub(used) / each).unwrap_or(usize::MAX),
            };
            let count = run
                .len()
                .min(room(pack.degree, cap.degree, info.degree))
                .min(room(pack.noise_level, cap.noise_level, info.noise_level));
            if count > 0 {
                pack.counts.push((r, count));
                pack.degree += info.degree * count as u64;
                pack.noise_level += info.noise_level * count as u64;
            }
        }
        pack
    }

    /// Removes the blocks of `pack`, as the terms of their sum.
    fn take(&mut self, pack: &Pack) -> Vec<(Wire, i64)> {
        let mut terms = Vec::new();
        for &(r, count) in &pack.counts {
            terms.extend(self.runs[r].1.drain(..count).map(|w| (w, 1)));
        }
        terms
    }

    /// The blocks left, in order.
    fn into_wires(self) -> impl Iterator<Item = Wire> {
        self.runs.into_iter().flat_map(|(_, run)| run)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! A clear evaluator of circuits, for the tests of the arithmetic: every length,
    //! strategy and operand is checked without encryption (a circuit computes on
    //! clear values exactly what a backend computes on encryptions), the encrypted
    //! tests run a representative part.

    use super::*;
    use crate::integer::circuit::{Linear, Source};
    use crate::integer::tests::{circuit_with_inputs, mask as bit_mask, SplitMix};
    use crate::integer::CircuitStats;
    use std::collections::HashMap;

    /// A random value of `blocks` base-4 digits, from the splitmix64 state `state`.
    pub(crate) fn random_value(state: &mut u64, blocks: usize) -> u128 {
        let mut rng = SplitMix(*state);
        let value = rng.value(2 * blocks);
        *state = rng.0;
        value
    }

    /// `4^blocks - 1` (all ones for 64 blocks and more).
    pub(crate) fn mask(blocks: usize) -> u128 {
        bit_mask(2 * blocks)
    }

    /// Edge values of `blocks` blocks: 0, 1, max, max - 1, alternating digits, and a
    /// few random ones.
    pub(crate) fn edge_values(blocks: usize, seed: u64) -> Vec<u128> {
        let max = mask(blocks);
        let mut state = seed;
        let mut values = vec![0, 1 & max, max, max.saturating_sub(1), max / 3, max / 3 * 2];
        values.extend((0..4).map(|_| random_value(&mut state, blocks)));
        values
    }

    /// The outputs of `c` on clear input digits (one list per input), computed as a
    /// backend would on encryptions; panics if a value leaves its block or a table's
    /// domain.
    pub(crate) fn eval_clear(c: &Circuit, inputs: &[Vec<u64>]) -> Vec<Vec<u64>> {
        let mut memo: HashMap<usize, u64> = HashMap::new();
        c.outputs()
            .iter()
            .map(|wires| {
                wires
                    .iter()
                    .map(|&w| linear_value(c, &c.linear_form(w), inputs, &mut memo))
                    .collect()
            })
            .collect()
    }

    fn linear_value(
        c: &Circuit,
        linear: &Linear,
        inputs: &[Vec<u64>],
        memo: &mut HashMap<usize, u64>,
    ) -> u64 {
        let mut v = linear.constant as i128;
        for &(id, scalar) in &linear.terms {
            let x = match c.source(id) {
                Source::Input { part, index } => inputs[part][index],
                Source::Bootstrap { bootstrap, slot } => {
                    let key = bootstrap * 64 + slot;
                    match memo.get(&key) {
                        Some(&x) => x,
                        None => {
                            let b = c.bootstrap(bootstrap);
                            let input = linear_value(c, &b.input, inputs, memo);
                            let table = c.table_by_id(b.table);
                            assert!(input < table.input_bound(), "table input {input} too large");
                            let x = table.values()
                                [(slot as u64 * table.input_bound() + input) as usize];
                            memo.insert(key, x);
                            x
                        }
                    }
                }
            };
            v += scalar as i128 * x as i128;
        }
        let total = c.parameters().total_modulus() as i128;
        assert!((0..total).contains(&v), "block value {v} outside the block");
        v as u64
    }

    /// Digits of `value`, least significant first.
    pub(crate) fn digits(value: u128, blocks: usize) -> Vec<u64> {
        crate::integer::clear_digits(value, 4, blocks)
    }

    /// The value of digits (radix 4), modulo 2^128.
    pub(crate) fn value(digits: &[u64]) -> u128 {
        digits
            .iter()
            .rev()
            .fold(0u128, |v, &d| v.wrapping_mul(4) + d as u128)
    }

    /// Builds output lists on a circuit from operand lists.
    pub(crate) type Build<'a> = dyn Fn(&mut Circuit, &[Radix]) -> Result<Vec<Radix>> + 'a;

    /// Builds `build` once on fresh operands of `blocks` blocks (as many as each
    /// operand tuple has) on a circuit of the given parallelism, checks in clear that
    /// every operand tuple gives `expected` (one value per output list, compared
    /// modulo 4^(its length)), and returns the stats.
    pub(crate) fn check_clear(
        parallelism: usize,
        blocks: usize,
        operands: &[Vec<u128>],
        build: &Build<'_>,
        expected: &dyn Fn(&[u128]) -> Vec<u128>,
    ) -> CircuitStats {
        let arity = operands.first().map_or(0, Vec::len);
        let (mut c, wires) = circuit_with_inputs(parallelism, &vec![blocks; arity]);
        for out in build(&mut c, &wires).expect("circuit builds") {
            for &w in &out {
                let info = c.info(w);
                assert!(
                    info.degree < 4 && info.noise_level <= 1,
                    "unclean output {info:?}"
                );
            }
            c.add_output(&out);
        }
        for ops in operands {
            let inputs: Vec<Vec<u64>> = ops
                .iter()
                .map(|&v| digits(v & mask(blocks), blocks))
                .collect();
            let clear: Vec<u128> = ops.iter().map(|&v| v & mask(blocks)).collect();
            let got = eval_clear(&c, &inputs);
            let want = expected(&clear);
            assert_eq!(got.len(), want.len());
            for (k, (g, &w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(
                    value(g),
                    w & mask(g.len()),
                    "output {k} for {clear:?} ({blocks} blocks)"
                );
            }
        }
        c.stats()
    }
}
