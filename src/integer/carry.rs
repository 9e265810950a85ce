//! Carry propagation: turning per-block sums into clean digits.
//!
//! Every addition-like algorithm first forms, without bootstrap, one *block sum* per
//! position (`s_i = a_i + b_i`, `a_i + (3 - b_i)`, `a_i + k_i`, a column of a
//! multiplication...), with the carry-in of the whole operation folded into `s_0`.
//! [`propagate`] then produces the clean digits `(s + carries) mod 4^n` and, on
//! request, the carry out of the top block. Two strategies exist:
//!
//! * **Ripple** (work-efficient): block `i` bootstraps `x_i = s_i + c_i` once with
//!   two functions, the digit `x % 4` and the next carry `x / 4` (`x <= 7`). One
//!   bootstrap per block (the top one computes only the digit unless the carry out is
//!   requested), depth one per block: a 64-bit addition is 32 bootstraps in 32
//!   layers. Sums up to 12 are accepted (then the block needs two bootstraps, one per
//!   function, and its carry may reach 3).
//! * **Low latency** (for backends running hundreds of bootstraps at once): depth
//!   logarithmic in the number of blocks. A first layer gives every block its digit
//!   `s % 4` and its *state* (kill 0, propagate 1, generate 2 when `s >= 4`),
//!   multiplied inside the table by `2^(i mod 3)`. A sum of three such states is the
//!   sum of two 3-bit numbers, so one bootstrap of it gives the state of the three
//!   blocks together, and one bootstrap of a resolved carry plus up to three states of
//!   consecutive aligned windows gives the carry after them. Windows of `3^k` blocks
//!   are built level by level; each needed carry is planned for the least depth (then
//!   the fewest new bootstraps). A last layer gives block `g + p` of every group of
//!   three `((2 m + t + C) >> 1) mod 4`, where `C` is the carry into the group and
//!   `t` the state of the `p` blocks below it in the group. A 64-bit addition is 93
//!   bootstraps in 6 layers (94 with the carry out), an 8-bit one 8 in 3.
//!
//! [`Strategy::Auto`] picks the strategy of least estimated latency, the sum over
//! bootstrap layers of `ceil(width / parallelism)`, for the circuit's
//! [`Circuit::parallelism`]: ripple on a few CPU cores, low latency on a GPU.

use super::Radix;
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};
use std::collections::HashMap;

/// How carries are propagated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Strategy {
    /// The strategy of least estimated latency on the circuit's parallelism.
    Auto,
    /// One bootstrap per block, one layer per block.
    Ripple,
    /// About three bootstraps per block in a depth logarithmic in the block count.
    LowLatency,
}

impl Strategy {
    /// `self`, or for [`Strategy::Auto`] the concrete strategy whose version of
    /// `build` is [`cheapest`] (ripple on a tie).
    pub(crate) fn resolve(
        self,
        c: &Circuit,
        operands: &[&[Wire]],
        build: impl Fn(&mut Circuit, &[Radix], Strategy) -> Result<Vec<Wire>>,
    ) -> Strategy {
        match self {
            Strategy::Auto => {
                let both = [Strategy::Ripple, Strategy::LowLatency];
                cheapest(c, operands, &both, build).unwrap_or(Strategy::Ripple)
            }
            concrete => concrete,
        }
    }

    /// The largest (degree, noise level) of the block sum of position `i` that
    /// [`propagate`] accepts with this strategy.
    pub(crate) fn sum_limit(self, c: &Circuit, i: usize) -> (u64, u64) {
        let params = c.parameters();
        let (m, total, noise) = (
            c.message_modulus(),
            params.total_modulus(),
            params.max_noise_level,
        );
        match (self, i) {
            (Strategy::LowLatency, 0) => (2 * m - 1, noise),
            (Strategy::LowLatency, _) => (2 * m - 2, noise),
            (_, 0) => (total - 1, noise),
            // Room for a carry of up to (total - 1) / m.
            _ => (total - 1 - (total - 1) / m, noise - 1),
        }
    }
}

/// The candidate whose version of `build` has the least estimated latency on `c`'s
/// parallelism, then the fewest bootstraps (the first on a tie; `None` if none
/// builds). Each candidate is built on a scratch circuit whose inputs mirror
/// `operands` (their degrees and noise levels, constants kept); the latency is the
/// sum over its layers of `ceil(width / parallelism)`.
pub(crate) fn cheapest<T: Copy>(
    c: &Circuit,
    operands: &[&[Wire]],
    candidates: &[T],
    build: impl Fn(&mut Circuit, &[Radix], T) -> Result<Vec<Wire>>,
) -> Option<T> {
    let p = c.parallelism();
    let mut best: Option<((usize, usize), T)> = None;
    for &candidate in candidates {
        let cost = (|| -> Result<(usize, usize)> {
            let mut scratch = Circuit::new(*c.parameters()).with_parallelism(p);
            let mut mirrored = Vec::with_capacity(operands.len());
            for operand in operands {
                let mut wires = Vec::with_capacity(operand.len());
                for &w in operand.iter() {
                    wires.push(match c.known_value(w) {
                        Some(v) => scratch.constant(v)?,
                        None => scratch.add_input(&[c.info(w)])?[0],
                    });
                }
                mirrored.push(wires);
            }
            let out = build(&mut scratch, &mirrored, candidate)?;
            scratch.add_output(&out);
            let stats = scratch.stats();
            let latency = stats.per_layer.iter().map(|w| w.div_ceil(p)).sum();
            Ok((latency, stats.bootstraps))
        })();
        if let Ok(cost) = cost {
            if best.as_ref().is_none_or(|(b, _)| cost < *b) {
                best = Some((cost, candidate));
            }
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// The clean digits of `sum_i sums[i] * base^i` modulo `base^n`, and with
/// `want_carry` the carry out of the top block (0 or 1 when every sum is within the
/// low-latency limits). Any carry-in must already be folded into `sums[0]`. `Err` if a
/// sum exceeds [`Strategy::sum_limit`].
pub(crate) fn propagate(
    c: &mut Circuit,
    sums: &[Wire],
    want_carry: bool,
    strategy: Strategy,
) -> Result<(Radix, Option<Wire>)> {
    let strategy = strategy.resolve(c, &[sums], |s, ops, strategy| {
        let (mut out, carry) = propagate(s, &ops[0], want_carry, strategy)?;
        out.extend(carry);
        Ok(out)
    });
    for (i, &s) in sums.iter().enumerate() {
        let (degree, noise) = strategy.sum_limit(c, i);
        let info = c.info(s);
        if info.degree > degree || info.noise_level > noise {
            return Err(Error::CapacityExceeded(format!(
                "block sum {i} (degree {}, noise level {}) exceeds the {strategy:?} carry \
                 propagation limits ({degree}, {noise})",
                info.degree, info.noise_level
            )));
        }
    }
    match strategy {
        Strategy::LowLatency => low_latency(c, sums, want_carry),
        _ => ripple(c, sums, want_carry),
    }
}

/// Block by block: `x = s + carry`, digit `x % base` and carry `x / base` from one
/// bootstrap (two when `x` is too large for two functions). Blocks that are already
/// clean while the carry is known to be 0 pass through.
fn ripple(c: &mut Circuit, sums: &[Wire], want_carry: bool) -> Result<(Radix, Option<Wire>)> {
    let m = c.message_modulus();
    let half = c.parameters().total_modulus() / 2;
    let mut carry = c.constant(0)?;
    let mut digits = Vec::with_capacity(sums.len());
    for (i, &s) in sums.iter().enumerate() {
        let x = c.add(s, carry)?;
        let info = c.info(x);
        let last = i + 1 == sums.len() && !want_carry;
        if info.degree < m && info.noise_level <= 1 {
            digits.push(x);
            carry = c.constant(0)?;
        } else if last {
            digits.push(c.table(x, move |v| v % m)?);
        } else if info.degree < half {
            let parts = c.tables(x, &[&move |v| v % m, &move |v| v / m])?;
            digits.push(parts[0]);
            carry = parts[1];
        } else {
            digits.push(c.table(x, move |v| v % m)?);
            carry = c.table(x, move |v| v / m)?;
        }
    }
    Ok((digits, want_carry.then_some(carry)))
}

/// The state of a sum of states or block sums, as kill (0), propagate (1) or generate
/// (2): with a carry-in `c` of at most 1, the carry out is `[c + sum >= threshold]`.
/// A block sum's threshold is the base; `r` states multiplied by `2^position` have
/// threshold `2^r` (they add like two `r`-bit numbers).
fn state(sum: u64, threshold: u64) -> u64 {
    if sum >= threshold {
        2
    } else {
        (sum + 1 == threshold) as u64
    }
}

/// Blocks per group of the last layer and windows per parent window.
const RADIX: usize = 3;

fn low_latency(c: &mut Circuit, sums: &[Wire], want_carry: bool) -> Result<(Radix, Option<Wire>)> {
    let m = c.message_modulus();
    // Leading blocks already clean stay as they are, with a carry of 0 after them.
    let start = sums
        .iter()
        .position(|&s| {
            let info = c.info(s);
            info.degree >= m || info.noise_level > 1
        })
        .unwrap_or(sums.len());
    let mut digits: Radix = sums[..start].to_vec();
    let sums = &sums[start..];
    if sums.is_empty() {
        let carry = if want_carry {
            Some(c.constant(0)?)
        } else {
            None
        };
        return Ok((digits, carry));
    }
    let n = sums.len();
    let mut messages = Vec::with_capacity(n);
    let mut states = Vec::with_capacity(n);
    for (i, &s) in sums.iter().enumerate() {
        let shift = 1 << (i % RADIX);
        let parts = c.tables(s, &[&move |v| v % m, &move |v| state(v, m) * shift])?;
        messages.push(parts[0]);
        states.push(parts[1]);
    }
    let mut plan = CarryPlan::new(n, states.clone());
    // The last layer comes one after the deepest carry into a group.
    let deadline = (RADIX..n)
        .step_by(RADIX)
        .map(|g| plan.least_depth(g) + 1)
        .max()
        .unwrap_or(1)
        .max(2);
    // Carries depend on carries into lower positions only: building the higher
    // ones first lets each lower one meet the tightest of its consumers' deadlines.
    let mut carries = HashMap::new();
    for g in (RADIX..n).step_by(RADIX).rev() {
        carries.insert(g, plan.carry(c, g, deadline - 1)?.0);
    }
    for i in 0..n {
        let group = i - i % RADIX;
        let position = i % RADIX;
        if i == 0 {
            digits.push(messages[0]);
            continue;
        }
        let carry = match carries.get(&group) {
            Some(&w) => w,
            None => c.constant(0)?,
        };
        // The state of the blocks of the group below block i: none (propagate, so the
        // group's carry passes), one block's, or two blocks' combined.
        let below = match position {
            0 => None,
            1 => Some(states[group]),
            _ => {
                let pair = c.add(states[group], states[group + 1])?;
                Some(c.table(pair, |v| state(v, 4))?)
            }
        };
        // (2 m + t + C) >> 1 = m + [t + C >= 2]; with no block below, m + C. The top
        // block's state is unused without carry out: its sum replaces its message
        // where the noise allows, and its first bootstrap is dead.
        let (scale, below): (i64, Vec<(Wire, i64)>) = match below {
            None => (1, vec![(carry, 1)]),
            Some(t) => (2, vec![(t, 1), (carry, 1)]),
        };
        let with = |source: Wire| {
            let mut terms = vec![(source, scale)];
            terms.extend(below.iter().copied());
            terms
        };
        let top_only = i + 1 == n && !want_carry;
        let x = match top_only.then(|| c.linear(&with(sums[i]), 0).ok()).flatten() {
            Some(x) => x,
            None => c.linear(&with(messages[i]), 0)?,
        };
        let digit = c.table(x, move |v| (v / scale as u64) % m)?;
        digits.push(digit);
    }
    let carry = if want_carry {
        Some(plan.carry_out(c, deadline)?)
    } else {
        None
    };
    Ok((digits, carry))
}

/// One way to resolve the carry into position `to`: the resolved carry into `from`,
/// weighted `2^shift`, plus the pre-shifted states of `count` consecutive windows of
/// `3^level` blocks starting with window `first`, all inside one parent window.
#[derive(Debug, Clone, Copy)]
struct Step {
    level: u32,
    first: usize,
    count: usize,
    from: usize,
    shift: u32,
}

/// Resolved carries between blocks, built on demand from windows of `3^k` blocks.
/// Window `j` of level `k` covers blocks `[3^k j, 3^k (j + 1))` and its state is
/// multiplied by `2^(j mod 3)`, its position in its parent. Blocks beyond the top are
/// virtual and propagate, so the carry into any position past the top is the carry
/// out. Window 0 of a level `k >= 1` is never built: the carry into `3^k` replaces it.
///
/// Depths count bootstrap layers after the block sums (the block states are at 1, a
/// window of level `k` at `k + 1`). Each carry is built by the step that needs the
/// fewest new bootstraps among those meeting its deadline.
struct CarryPlan {
    n: usize,
    states: Vec<Wire>,
    windows: HashMap<(u32, usize), Wire>,
    /// Built carries and their depths (a carry needed earlier than it was built is
    /// built again).
    carries: HashMap<usize, Vec<(Wire, u32)>>,
    least_depths: HashMap<usize, u32>,
}

/// A cost for what cannot meet its deadline.
const NEVER: usize = usize::MAX / 4;

impl CarryPlan {
    fn new(n: usize, states: Vec<Wire>) -> Self {
        Self {
            n,
            states,
            windows: HashMap::new(),
            carries: HashMap::new(),
            least_depths: HashMap::new(),
        }
    }

    /// Whether window `j` of `level` lies entirely past the top (a constant).
    fn is_virtual(&self, level: u32, j: usize) -> bool {
        RADIX.pow(level) * j >= self.n
    }

    /// Every way to resolve the carry into `to` (> 0).
    fn steps(&self, to: usize) -> Vec<Step> {
        let mut steps = Vec::new();
        let (mut size, mut level) = (1usize, 0u32);
        while size <= to && to % size == 0 {
            let q = to / size;
            let parent = (q - 1) / RADIX;
            let end = q - RADIX * parent;
            for shift in 0..end {
                if level > 0 && parent == 0 && shift == 0 {
                    continue;
                }
                let first = RADIX * parent + shift;
                steps.push(Step {
                    level,
                    first,
                    count: end - shift,
                    from: size * first,
                    shift: shift as u32,
                });
            }
            size *= RADIX;
            level += 1;
        }
        steps
    }

    /// The depth of the deepest window of `step`.
    fn windows_depth(&self, step: Step) -> u32 {
        (0..step.count)
            .map(|t| {
                if self.is_virtual(step.level, step.first + t) {
                    0
                } else {
                    step.level + 1
                }
            })
            .max()
            .unwrap_or(0)
    }

    /// The least depth at which the carry into `to` can be resolved.
    fn least_depth(&mut self, to: usize) -> u32 {
        if to == 0 {
            return 0;
        }
        if let Some(&d) = self.least_depths.get(&to) {
            return d;
        }
        let mut best = u32::MAX;
        for step in self.steps(to) {
            let d = self.least_depth(step.from).max(self.windows_depth(step)) + 1;
            best = best.min(d);
        }
        self.least_depths.insert(to, best);
        best
    }

    /// Bootstraps still needed for window `j` of `level`.
    fn window_missing(&self, level: u32, j: usize) -> usize {
        if level == 0 || self.is_virtual(level, j) || self.windows.contains_key(&(level, j)) {
            return 0;
        }
        1 + (0..RADIX)
            .map(|r| self.window_missing(level - 1, RADIX * j + r))
            .sum::<usize>()
    }

    /// The step to resolve `to` by `deadline` needing the fewest new bootstraps, and
    /// that number ([`NEVER`] if none meets the deadline).
    fn best_step(
        &mut self,
        to: usize,
        deadline: u32,
        memo: &mut HashMap<(usize, u32), usize>,
    ) -> (Option<Step>, usize) {
        let mut best: (Option<Step>, usize) = (None, NEVER);
        if deadline == 0 {
            return best;
        }
        for step in self.steps(to) {
            if self.windows_depth(step) >= deadline {
                continue;
            }
            let windows: usize = (0..step.count)
                .map(|t| self.window_missing(step.level, step.first + t))
                .sum();
            let cost = windows + self.carry_missing(step.from, deadline - 1, memo);
            if cost < best.1 {
                best = (Some(step), cost);
            }
        }
        best
    }

    /// Bootstraps still needed for the carry into `to` by `deadline`.
    fn carry_missing(
        &mut self,
        to: usize,
        deadline: u32,
        memo: &mut HashMap<(usize, u32), usize>,
    ) -> usize {
        if to == 0 {
            return 0;
        }
        if self.built(to, deadline).is_some() {
            return 0;
        }
        if self.least_depth(to) > deadline {
            return NEVER;
        }
        if let Some(&cost) = memo.get(&(to, deadline)) {
            return cost;
        }
        let cost = (1 + self.best_step(to, deadline, memo).1).min(NEVER);
        memo.insert((to, deadline), cost);
        cost
    }

    /// The pre-shifted state of window `j` of `level`.
    fn window(&mut self, c: &mut Circuit, level: u32, j: usize) -> Result<Wire> {
        let shift = 1u64 << (j % RADIX);
        if self.is_virtual(level, j) {
            return c.constant(shift);
        }
        if level == 0 {
            return Ok(self.states[j]);
        }
        if j == 0 {
            return Err(Error::InvalidParameter(
                "internal: window 0 above level 0 is a carry".into(),
            ));
        }
        if let Some(&w) = self.windows.get(&(level, j)) {
            return Ok(w);
        }
        let mut terms = Vec::with_capacity(RADIX);
        for r in 0..RADIX {
            terms.push((self.window(c, level - 1, RADIX * j + r)?, 1));
        }
        let sum = c.linear(&terms, 0)?;
        let w = c.table(sum, move |v| state(v, 8) * shift)?;
        self.windows.insert((level, j), w);
        Ok(w)
    }

    /// A built carry into `to` of depth at most `deadline`.
    fn built(&self, to: usize, deadline: u32) -> Option<(Wire, u32)> {
        self.carries
            .get(&to)?
            .iter()
            .copied()
            .find(|&(_, depth)| depth <= deadline)
    }

    /// The resolved carry (0 or 1) into block `to` and its depth, at most `deadline`
    /// or else the least possible.
    fn carry(&mut self, c: &mut Circuit, to: usize, deadline: u32) -> Result<(Wire, u32)> {
        if to == 0 {
            return Ok((c.constant(0)?, 0));
        }
        let deadline = deadline.max(self.least_depth(to));
        if let Some(built) = self.built(to, deadline) {
            return Ok(built);
        }
        let step = self
            .best_step(to, deadline, &mut HashMap::new())
            .0
            .ok_or_else(|| {
                Error::InvalidParameter(format!("internal: no way to resolve carry {to}"))
            })?;
        let (from, from_depth) = self.carry(c, step.from, deadline - 1)?;
        let mut terms = vec![(from, 1i64 << step.shift)];
        for t in 0..step.count {
            terms.push((self.window(c, step.level, step.first + t)?, 1));
        }
        let sum = c.linear(&terms, 0)?;
        let threshold = 1u64 << (step.shift as usize + step.count);
        let w = c.table(sum, move |v| (v >= threshold) as u64)?;
        let depth = from_depth.max(self.windows_depth(step)) + 1;
        self.carries.entry(to).or_default().push((w, depth));
        Ok((w, depth))
    }

    /// The carry out of the top block by `deadline` where possible: the carry into
    /// the cheapest of the positions at or past the top (virtual blocks propagate).
    fn carry_out(&mut self, c: &mut Circuit, deadline: u32) -> Result<Wire> {
        let mut candidates = vec![self.n];
        let mut size = RADIX;
        while size < RADIX * self.n {
            candidates.push(self.n.div_ceil(size) * size);
            size *= RADIX;
        }
        let mut memo = HashMap::new();
        let mut best = (u32::MAX, NEVER, self.n);
        for p in candidates {
            let least = self.least_depth(p);
            let cost = self.carry_missing(p, deadline.max(least), &mut memo);
            best = best.min((least.max(deadline), cost, p));
        }
        Ok(self.carry(c, best.2, best.0)?.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::sum::tests::{check_clear, mask, random_value};
    use crate::integer::tests::circuit_with_inputs;

    fn propagated(c: &mut Circuit, x: &[Radix], strategy: Strategy) -> Result<Vec<Radix>> {
        let sums: Vec<Wire> = x[0]
            .iter()
            .zip(&x[1])
            .map(|(&a, &b)| c.add(a, b))
            .collect::<Result<_>>()?;
        let (digits, carry) = propagate(c, &sums, true, strategy)?;
        Ok(vec![digits, vec![carry.expect("carry requested")]])
    }

    #[test]
    fn both_strategies_add_every_length_up_to_64_blocks() {
        let mut state = 7;
        for blocks in 1..=64 {
            let max = mask(blocks);
            let mut pairs = vec![
                vec![0, 0],
                vec![max, 1],
                vec![max, max],
                vec![max / 3, max / 3 * 2],
                vec![max / 3 * 2 + 1, max / 3],
            ];
            pairs.extend((0..12).map(|_| {
                vec![
                    random_value(&mut state, blocks),
                    random_value(&mut state, blocks),
                ]
            }));
            let expected = |v: &[u128]| {
                let (sum, carry) = v[0].overflowing_add(v[1]);
                let carry = if blocks >= 64 {
                    carry
                } else {
                    sum >> (2 * blocks) != 0
                };
                vec![sum, carry as u128]
            };
            for strategy in [Strategy::Ripple, Strategy::LowLatency] {
                let stats = check_clear(
                    1,
                    blocks,
                    &pairs,
                    &|c, x| propagated(c, x, strategy),
                    &expected,
                );
                if strategy == Strategy::Ripple {
                    assert_eq!((stats.bootstraps, stats.depth), (blocks, blocks));
                } else {
                    // About 3 bootstraps per block, in a logarithmic depth.
                    let depth = match blocks {
                        1..=2 => 2,
                        3..=6 => 3,
                        7..=12 => 4,
                        13..=21 => 5,
                        22..=39 => 6,
                        _ => 7,
                    };
                    assert_eq!(stats.depth, depth, "{blocks} blocks");
                    assert!(
                        stats.bootstraps <= 3 * blocks + 5,
                        "{blocks} blocks: {stats:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn low_latency_targets_for_32_blocks() {
        let pairs = vec![vec![u64::MAX as u128, 1]];
        let build = |c: &mut Circuit, x: &[Radix]| propagated(c, x, Strategy::LowLatency);
        let stats = check_clear(1, 32, &pairs, &build, &|v| vec![v[0] + v[1], 1]);
        // 32 block states and digits, 31 last-layer digits, 10 states of pairs, 10
        // carries into groups of three, 10 window states, the carry out.
        assert_eq!((stats.bootstraps, stats.depth), (94, 6));
        assert_eq!(stats.per_layer, vec![32, 20, 8, 10, 15, 9]);
    }

    #[test]
    fn auto_picks_ripple_on_few_cores_and_low_latency_on_many() {
        let pairs = vec![vec![12345, 678], vec![u64::MAX as u128, 1]];
        let build = |c: &mut Circuit, x: &[Radix]| propagated(c, x, Strategy::Auto);
        for (blocks, parallelism, want) in [
            (32, 1, (32, 32)),
            (32, 2, (32, 32)),
            (32, 4, (94, 6)),
            (32, 10_000, (94, 6)),
            // Short additions have no faster form: ripple even on a GPU.
            (3, 10_000, (3, 3)),
        ] {
            let expected = |v: &[u128]| vec![v[0] + v[1], (v[0] + v[1]) >> (2 * blocks)];
            let stats = check_clear(parallelism, blocks, &pairs, &build, &expected);
            assert_eq!(
                (stats.bootstraps, stats.depth),
                want,
                "{blocks} blocks, parallelism {parallelism}"
            );
        }
    }

    #[test]
    fn sums_beyond_the_limits_are_refused() {
        let (mut c, x) = circuit_with_inputs(1, &[3]);
        let x = &x[0];
        let big = c.linear(&[(x[0], 1), (x[1], 1), (x[2], 1)], 0).unwrap(); // up to 9
        assert!(propagate(&mut c, &[x[0], big], false, Strategy::LowLatency).is_err());
        assert!(propagate(&mut c, &[x[0], big], false, Strategy::Ripple).is_ok());
        let huge = c.linear(&[(big, 1), (x[0], 1)], 0).unwrap(); // up to 12, noise 4
        assert!(propagate(&mut c, &[x[0], huge], false, Strategy::Ripple).is_ok());
        let too_much = c.linear(&[(huge, 1), (x[1], 1)], 0).unwrap(); // 15, noise 5
        assert!(propagate(&mut c, &[x[0], too_much], false, Strategy::Ripple).is_err());
    }
}
