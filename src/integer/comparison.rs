//! Comparisons of radix integers: the engines behind `==`, `!=`, `<`, `<=`, `>`, `>=`,
//! with encrypted or clear right operands.
//!
//! **Equality** compares blocks (one bivariate bootstrap per block, or one bootstrap per
//! *pair* of blocks against a clear value), then folds up to `max_noise_level` flags
//! per bootstrap. `FheUint64` equality costs 32 + 7 + 2 + 1 = 42 bootstraps in 4
//! layers; against a clear value 16 + 3 + 1 = 20 in 3 layers.
//!
//! **Order** works like carry propagation. Every block (or pair of blocks against a
//! clear value) has a *state*: 2 where the left operand "wins" (is greater for `>`,
//! smaller for `<`), 1 where the blocks are equal, 0 where it loses. The state of a
//! run of blocks is the state of its most significant non-equal block. States are
//! produced already multiplied by `2^q`, `q` their position in a group of up to 3, so
//! one table reads a whole group from the sum `S = sum_q state_q 2^q` (at most 14,
//! noise 3): the group wins when `S >= 2^g`, ties when `S = 2^g - 1`. The least
//! significant run is kept as a resolved 0/1 *flag* `C` instead, and `C + S` (noise
//! 4, at most 15) extends it by a group in one table: `C + S >= 2^g`. A *ripple* step
//! extends a flag by one raw block instead (`2 (a - b) + C + 6 >= 7`: one table, no
//! per-block table), the work-efficient way. A dynamic program over the number of
//! blocks and the depth finds, for every depth, the fewest bootstraps, and the
//! variant with the lowest estimated latency `sum over layers of
//! ceil(width / parallelism)` is built (ties: fewer bootstraps, then fewer layers):
//!
//! | `lt` on      | parallelism 1 (ripple) | parallelism 2 (CPU here) | large (GPU) |
//! |--------------|------------------------|--------------------------|-------------|
//! | 8 bits       | 4 bootstraps, depth 4  | 5, depth 2               | 5, depth 2  |
//! | 64 bits      | 32, depth 32           | 45, depth 6              | 46, depth 4 |
//!
//! (TFHE-rs: 47 bootstraps for 64 bits.) `<=` and `>=` cost the same as `<`: only the
//! least significant flag changes. Against a clear value the per-block tables read two
//! blocks at once (`4 x_1 + x_0` against the clear digit pair) and constant parts fold
//! away: 64-bit `x < clear` costs 22 bootstraps at depth 4 with parallelism 2.

use super::{check_radix, check_same_length};
use crate::error::Result;
use crate::integer::circuit::{Circuit, Wire};

/// `lhs == rhs` as one block holding 0 or 1.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{encrypt_radix, eq, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let (a, b) = (encrypt_radix(&ck, 9u128, 2).unwrap(), encrypt_radix(&ck, 9u128, 2).unwrap());
/// let out = run(&backend, &[&a, &b], |c, x| Ok(vec![vec![eq(c, &x[0], &x[1])?]])).unwrap();
/// assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 1);
/// ```
pub fn eq(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<Wire> {
    equality(c, lhs, rhs, true)
}

/// `lhs != rhs` as one block holding 0 or 1.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{encrypt_radix, ne, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let (a, b) = (encrypt_radix(&ck, 9u128, 2).unwrap(), encrypt_radix(&ck, 8u128, 2).unwrap());
/// let out = run(&backend, &[&a, &b], |c, x| Ok(vec![vec![ne(c, &x[0], &x[1])?]])).unwrap();
/// assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 1);
/// ```
pub fn ne(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<Wire> {
    equality(c, lhs, rhs, false)
}

/// Whether some item of `items` equals `value`, as one block holding 0 or 1: a `!=`
/// flag per item (as [`ne`]), then the flags folded as equality folds its blocks (one
/// of them 0?). No item gives a constant 0. `k` items of `n` blocks cost `k` times the
/// bootstraps of `ne`, then about `k / (max_noise_level - 1)` more.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{contains, encrypt_radix, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let xs: Vec<_> = [3u128, 9, 12].iter().map(|&v| encrypt_radix(&ck, v, 2).unwrap()).collect();
/// let nine = encrypt_radix(&ck, 9u128, 2).unwrap();
/// let out = run(&backend, &[&xs[0], &xs[1], &xs[2], &nine], |c, x| {
///     let items: Vec<&[_]> = x[..3].iter().map(Vec::as_slice).collect();
///     Ok(vec![vec![contains(c, &items, &x[3])?]])
/// })
/// .unwrap();
/// assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 1);
/// ```
pub fn contains(c: &mut Circuit, items: &[&[Wire]], value: &[Wire]) -> Result<Wire> {
    let flags = items
        .iter()
        .map(|item| ne(c, item, value))
        .collect::<Result<Vec<_>>>()?;
    match flags.as_slice() {
        [] => c.constant(0),
        [one] => c.linear(&[(*one, -1)], 1),
        _ => all_ones(c, flags, false),
    }
}

fn equality(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire], want_equal: bool) -> Result<Wire> {
    check_same_length(lhs, rhs)?;
    check_radix(c, lhs)?;
    check_radix(c, rhs)?;
    if lhs.is_empty() {
        return c.constant(want_equal as u64);
    }
    // A flag per block: 1 where the blocks are equal (the answer itself if single).
    let single = lhs.len() == 1;
    let flags = lhs
        .iter()
        .zip(rhs)
        .map(|(&a, &b)| {
            c.bivariate(a, b, move |x, y| {
                ((x == y) == (want_equal || !single)) as u64
            })
        })
        .collect::<Result<Vec<_>>>()?;
    if single {
        return Ok(flags[0]);
    }
    all_ones(c, flags, want_equal)
}

/// `x == clear` (or `x != clear` with `want_equal = false`) for the clear base-`m`
/// digits `digits` (as many as `x` has blocks): one bootstrap per pair of blocks
/// (`m x_1 + x_0` against the clear pair), then the folds of [`all_ones`].
pub(crate) fn scalar_equality(
    c: &mut Circuit,
    x: &[Wire],
    digits: &[u64],
    want_equal: bool,
) -> Result<Wire> {
    check_radix(c, x)?;
    let width = unit_width(c);
    let units: Vec<(usize, usize)> = (0..x.len())
        .step_by(width)
        .map(|start| (start, width.min(x.len() - start)))
        .collect();
    if units.is_empty() {
        return c.constant(want_equal as u64);
    }
    let single = units.len() == 1;
    let flags = units
        .iter()
        .map(|&(start, len)| {
            let unit = Unit::new(c, &x[start..start + len], &digits[start..start + len])?;
            c.table(unit.wire, move |u| {
                ((u == unit.clear) == (want_equal || !single)) as u64
            })
        })
        .collect::<Result<Vec<_>>>()?;
    if single {
        return Ok(flags[0]);
    }
    all_ones(c, flags, want_equal)
}

/// Whether every flag (a block holding 0 or 1) is 1 (or, with `want = false`, whether
/// one is 0): sums of up to `max_noise_level` flags, each through one bootstrap,
/// until one block remains. A lone flag left over in a round moves on as it is.
pub(crate) fn all_ones(c: &mut Circuit, mut flags: Vec<Wire>, want: bool) -> Result<Wire> {
    let params = *c.parameters();
    let group = params
        .max_noise_level
        .min(params.total_modulus() - 1)
        .max(2) as usize;
    loop {
        let last = flags.len() <= group;
        let folded = flags
            .chunks(group)
            .map(|members| {
                if members.len() == 1 && !last {
                    return Ok(members[0]);
                }
                let terms: Vec<(Wire, i64)> = members.iter().map(|&w| (w, 1)).collect();
                let size = members.len() as u64;
                let sum = c.linear(&terms, 0)?;
                c.table(sum, move |x| ((x == size) == (want || !last)) as u64)
            })
            .collect::<Result<Vec<_>>>()?;
        if last {
            return Ok(folded[0]);
        }
        flags = folded;
    }
}

/// How many blocks one table reads against a clear value: 2 when `m^2` values fit in a
/// block (`m x_1 + x_0`, noise `m + 1`), else 1.
fn unit_width(c: &Circuit) -> usize {
    let p = c.parameters();
    let m = p.message_modulus;
    if m * m <= p.total_modulus() && m < p.max_noise_level {
        2
    } else {
        1
    }
}

/// Consecutive blocks read as one number (`sum_q x_q m^q`, no bootstrap) and the
/// matching clear digits.
#[derive(Clone, Copy)]
struct Unit {
    wire: Wire,
    clear: u64,
    /// `m^len`: the number of values of the unit.
    size: u64,
}

impl Unit {
    fn new(c: &mut Circuit, x: &[Wire], digits: &[u64]) -> Result<Self> {
        let m = c.message_modulus();
        let mut terms = Vec::with_capacity(x.len());
        let (mut scale, mut clear) = (1u64, 0u64);
        for (&w, &d) in x.iter().zip(digits) {
            terms.push((w, scale as i64));
            clear += d * scale;
            scale *= m;
        }
        Ok(Self {
            wire: c.linear(&terms, 0)?,
            clear,
            size: scale,
        })
    }
}

/// The right operand of an order comparison.
pub(crate) enum Rhs<'a> {
    /// Encrypted blocks, as many as the left operand has.
    Encrypted(&'a [Wire]),
    /// Clear digits, as many as the left operand has blocks.
    Clear(Vec<u64>),
}

/// Which order relation a comparison computes: `greater` for `>`/`>=` (else `<`/`<=`),
/// `strict` for `>`/`<`, `signed` for two's complement operands (the tables that read
/// the most significant block flip its sign bit, which maps the signed order onto the
/// unsigned one at no cost).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Relation {
    pub(crate) greater: bool,
    pub(crate) strict: bool,
    pub(crate) signed: bool,
}

impl Relation {
    /// The state of one unit: 2 where `u` wins, 1 on a tie, 0 where it loses.
    fn state(self, u: u64, v: u64) -> u64 {
        if u == v {
            1
        } else if (u > v) == self.greater {
            2
        } else {
            0
        }
    }

    /// The relation itself on one unit: 0 or 1.
    fn holds(self, u: u64, v: u64) -> u64 {
        if u == v {
            !self.strict as u64
        } else {
            ((u > v) == self.greater) as u64
        }
    }
}

/// `lhs rel rhs` (unsigned) as one block holding 0 or 1, by the cheapest plan for the
/// circuit's parallelism (see the module docs). Operands must be clean.
pub(crate) fn order(c: &mut Circuit, lhs: &[Wire], rhs: Rhs<'_>, rel: Relation) -> Result<Wire> {
    check_radix(c, lhs)?;
    match &rhs {
        Rhs::Encrypted(r) => {
            check_same_length(lhs, r)?;
            check_radix(c, r)?;
        }
        Rhs::Clear(d) => crate::error::check_eq("number of clear digits", lhs.len(), d.len())?,
    }
    if lhs.is_empty() {
        return c.constant(rel.holds(0, 0));
    }
    let builder = OrderBuilder { lhs, rhs, rel };
    let group = group_size(c);
    let leaf_width = match builder.rhs {
        Rhs::Encrypted(_) => 1,
        Rhs::Clear(_) => unit_width(c),
    };
    let flag_leaf_cost = (1..=leaf_width.min(lhs.len()))
        .map(|k| builder.flag_leaf_cost(c, k))
        .collect();
    // A signed top block read raw by a ripple needs its own state table (see `ripple`).
    let top_ripple_extra = match builder.rhs {
        Rhs::Encrypted(_) => builder.sign_flip(2, lhs.len()) as usize,
        Rhs::Clear(_) => 0,
    };
    let planner = Planner::build(
        lhs.len(),
        leaf_width,
        group,
        flag_leaf_cost,
        top_ripple_extra,
    );
    let plan = planner.best(c.parallelism());
    builder.flag(c, &plan)
}

/// The most states one table combines: `g` with `2 (2^g - 1) + 1` below the block size
/// and `g + 1` within the noise budget (3 for 2-bit blocks).
fn group_size(c: &Circuit) -> usize {
    let p = c.parameters();
    let mut g = 1;
    while (1u64 << (g + 2)) - 1 < p.total_modulus() && g + 2 <= p.max_noise_level {
        g += 1;
    }
    g as usize
}

/// A plan of an order comparison: a tree of tables over consecutive blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Plan {
    /// One table on blocks `start..start + len` of both operands (a constant where the
    /// result cannot vary).
    Leaf { start: usize, len: usize },
    /// The flag of the blocks below `block`, extended by block `block` read raw.
    Ripple { below: Box<Plan>, block: usize },
    /// States of consecutive runs (least significant first) on top of an optional flag
    /// of the blocks below them: one table.
    Combine {
        flag: Option<Box<Plan>>,
        parts: Vec<Plan>,
    },
}

const INF: usize = usize::MAX / 4;

#[derive(Debug, Clone, Copy)]
enum StateChoice {
    Leaf,
    Same,
    Split(usize),
}

#[derive(Debug, Clone, Copy)]
enum FlagChoice {
    Leaf,
    Same,
    Ripple,
    Combine { below: usize, parts: usize },
}

/// The dynamic program behind [`order`]: for every depth `d` (leaves at depth 1), the
/// fewest bootstraps of a state of `m` consecutive blocks (`state[d][m]`), of `j`
/// consecutive states covering `m` blocks (`split[d][j][m]`) and of the flag of the
/// `k` lowest blocks (`flag[d][k]`).
struct Planner {
    n: usize,
    leaf_width: usize,
    group: usize,
    flag_leaf_cost: Vec<usize>,
    /// Bootstraps a ripple over the most significant block costs beyond its table.
    top_ripple_extra: usize,
    state: Vec<Vec<(usize, StateChoice)>>,
    split: Vec<Vec<Vec<(usize, usize)>>>,
    flag: Vec<Vec<(usize, FlagChoice)>>,
}

impl Planner {
    /// Depths beyond this are only explored by the pure ripple.
    const MAX_DEPTH: usize = 64;

    #[cfg(test)]
    fn new(n: usize, leaf_width: usize, group: usize, flag_leaf_cost: Vec<usize>) -> Self {
        Self::build(n, leaf_width, group, flag_leaf_cost, 0)
    }

    fn build(
        n: usize,
        leaf_width: usize,
        group: usize,
        flag_leaf_cost: Vec<usize>,
        top_ripple_extra: usize,
    ) -> Self {
        let mut p = Self {
            n,
            leaf_width,
            group,
            flag_leaf_cost,
            top_ripple_extra,
            state: Vec::new(),
            split: Vec::new(),
            flag: Vec::new(),
        };
        let depth = n.min(Self::MAX_DEPTH);
        // Depth 0: only a constant flag leaf.
        p.state.push(vec![(INF, StateChoice::Same); n + 1]);
        p.split.push(vec![vec![(INF, 0); n + 1]; group + 1]);
        let flag0 = (0..=n)
            .map(|k| match p.leaf_cost(k) {
                Some(0) => (0, FlagChoice::Leaf),
                _ => (INF, FlagChoice::Same),
            })
            .collect();
        p.flag.push(flag0);
        for d in 1..=depth {
            p.add_depth(d);
        }
        p
    }

    /// The extra bootstraps of a ripple over block `block`.
    fn ripple_extra(&self, block: usize) -> usize {
        if block + 1 == self.n {
            self.top_ripple_extra
        } else {
            0
        }
    }

    fn leaf_cost(&self, k: usize) -> Option<usize> {
        (k >= 1 && k <= self.flag_leaf_cost.len()).then(|| self.flag_leaf_cost[k - 1])
    }

    fn add_depth(&mut self, d: usize) {
        let n = self.n;
        let prev_state = &self.state[d - 1];
        let prev_split = &self.split[d - 1];
        let prev_flag = &self.flag[d - 1];
        let mut state = vec![(INF, StateChoice::Same); n + 1];
        for (m, entry) in state.iter_mut().enumerate().skip(1) {
            if m <= self.leaf_width {
                *entry = (1, StateChoice::Leaf);
                continue;
            }
            *entry = (prev_state[m].0, StateChoice::Same);
            for (j, split) in prev_split.iter().enumerate().skip(2) {
                let cost = split[m].0.saturating_add(1);
                if cost < entry.0 {
                    *entry = (cost, StateChoice::Split(j));
                }
            }
        }
        let mut flag = vec![(INF, FlagChoice::Same); n + 1];
        for k in 1..=n {
            let mut best = (prev_flag[k].0, FlagChoice::Same);
            if let Some(cost) = self.leaf_cost(k) {
                if cost < best.0 {
                    best = (cost, FlagChoice::Leaf);
                }
            }
            let ripple = prev_flag[k - 1].0 + 1 + self.ripple_extra(k - 1);
            if k >= 2 && ripple < best.0 {
                best = (ripple, FlagChoice::Ripple);
            }
            for below in 1..k {
                if prev_flag[below].0 >= INF {
                    continue;
                }
                for (j, split) in prev_split.iter().enumerate().skip(1) {
                    let cost = prev_flag[below].0 + 1 + split[k - below].0;
                    if cost < best.0 {
                        best = (cost, FlagChoice::Combine { below, parts: j });
                    }
                }
            }
            flag[k] = best;
        }
        // Splits at this depth, for the next one.
        let mut split = vec![vec![(INF, 0); n + 1]; self.group + 1];
        for m in 1..=n {
            split[1][m] = (state[m].0, m);
        }
        for j in 2..=self.group {
            for m in j..=n {
                let mut best = (INF, 0);
                for first in 1..m {
                    let cost = state[first].0.saturating_add(split[j - 1][m - first].0);
                    if cost < best.0 {
                        best = (cost, first);
                    }
                }
                split[j][m] = best;
            }
        }
        self.state.push(state);
        self.split.push(split);
        self.flag.push(flag);
    }

    /// The plan with the lowest estimated latency for `parallelism` (ties: fewer
    /// bootstraps, then fewer layers).
    fn best(&self, parallelism: usize) -> Plan {
        let mut candidates = Vec::new();
        for d in 1..self.flag.len() {
            if self.flag[d][self.n].0 < self.flag[d - 1][self.n].0 {
                candidates.push(self.flag_plan(d, self.n));
            }
        }
        if self.n > Self::MAX_DEPTH || candidates.is_empty() {
            candidates.push(self.ripple_plan());
        }
        candidates
            .into_iter()
            .min_by_key(|plan| {
                let widths = self.layer_widths(plan);
                let latency: usize = widths.iter().map(|w| w.div_ceil(parallelism)).sum();
                (latency, widths.iter().sum::<usize>(), widths.len())
            })
            .expect("at least the ripple plan")
    }

    fn ripple_plan(&self) -> Plan {
        let mut plan = Plan::Leaf { start: 0, len: 1 };
        for block in 1..self.n {
            plan = Plan::Ripple {
                below: Box::new(plan),
                block,
            };
        }
        plan
    }

    fn flag_plan(&self, d: usize, k: usize) -> Plan {
        match self.flag[d][k].1 {
            FlagChoice::Leaf => Plan::Leaf { start: 0, len: k },
            FlagChoice::Same => self.flag_plan(d - 1, k),
            FlagChoice::Ripple => Plan::Ripple {
                below: Box::new(self.flag_plan(d - 1, k - 1)),
                block: k - 1,
            },
            FlagChoice::Combine { below, parts } => Plan::Combine {
                flag: Some(Box::new(self.flag_plan(d - 1, below))),
                parts: self.parts_plan(d - 1, parts, below, k - below),
            },
        }
    }

    fn state_plan(&self, d: usize, start: usize, m: usize) -> Plan {
        match self.state[d][m].1 {
            StateChoice::Leaf => Plan::Leaf { start, len: m },
            StateChoice::Same => self.state_plan(d - 1, start, m),
            StateChoice::Split(j) => Plan::Combine {
                flag: None,
                parts: self.parts_plan(d - 1, j, start, m),
            },
        }
    }

    /// `j` states covering blocks `start..start + m` at depth at most `d`.
    fn parts_plan(&self, d: usize, j: usize, start: usize, m: usize) -> Vec<Plan> {
        if j == 1 {
            return vec![self.state_plan(d, start, m)];
        }
        let first = self.split[d][j][m].1;
        let mut parts = vec![self.state_plan(d, start, first)];
        parts.extend(self.parts_plan(d, j - 1, start + first, m - first));
        parts
    }
}

impl Planner {
    /// Bootstraps of each layer of a plan, each table built as soon as its inputs are
    /// ready (a flag leaf that costs nothing is a constant at depth 0).
    fn layer_widths(&self, plan: &Plan) -> Vec<usize> {
        let mut widths = Vec::new();
        self.visit(plan, true, &mut widths);
        widths
    }

    /// Records the tables of `plan` in `widths`; returns its depth.
    fn visit(&self, plan: &Plan, is_flag: bool, widths: &mut Vec<usize>) -> usize {
        let depth = match plan {
            Plan::Leaf { len, .. } if is_flag && self.leaf_cost(*len) == Some(0) => return 0,
            Plan::Leaf { .. } => 1,
            Plan::Ripple { below, block } => {
                if self.ripple_extra(*block) > 0 {
                    widths.resize(widths.len().max(1), 0);
                    widths[0] += self.ripple_extra(*block);
                }
                self.visit(below, true, widths) + 1
            }
            Plan::Combine { flag, parts } => {
                let below = flag.as_ref().map_or(0, |f| self.visit(f, true, widths));
                let top = parts.iter().map(|p| self.visit(p, false, widths)).max();
                top.unwrap_or(0).max(below) + 1
            }
        };
        if widths.len() < depth {
            widths.resize(depth, 0);
        }
        widths[depth - 1] += 1;
        depth
    }
}

/// Builds the tables of a [`Plan`].
struct OrderBuilder<'a> {
    lhs: &'a [Wire],
    rhs: Rhs<'a>,
    rel: Relation,
}

impl OrderBuilder<'_> {
    /// 0 when the flag of the `k` lowest blocks is known without decryption, else 1.
    fn flag_leaf_cost(&self, c: &Circuit, k: usize) -> usize {
        match &self.rhs {
            Rhs::Encrypted(r) => (self.lhs[..k] != r[..k]) as usize,
            Rhs::Clear(digits) => {
                let m = c.message_modulus();
                let clear = digits[..k].iter().rev().fold(0, |acc, &d| acc * m + d);
                let size = m.pow(k as u32);
                let flip = self.sign_flip(size, k);
                let holds = |u: u64| self.rel.holds(u ^ flip, clear ^ flip);
                let first = holds(0);
                (0..size).any(|u| holds(u) != first) as usize
            }
        }
    }

    /// What to XOR into a unit of `size` values that ends at block `end`: its sign bit
    /// when the comparison is signed and the unit holds the most significant block,
    /// else 0.
    fn sign_flip(&self, size: u64, end: usize) -> u64 {
        if self.rel.signed && end == self.lhs.len() {
            size / 2
        } else {
            0
        }
    }

    /// `f(lhs unit, rhs unit)` on blocks `start..start + len` in one table, or a
    /// constant where it cannot vary.
    fn leaf(
        &self,
        c: &mut Circuit,
        start: usize,
        len: usize,
        f: impl Fn(u64, u64) -> u64 + Copy + 'static,
    ) -> Result<Wire> {
        match &self.rhs {
            Rhs::Encrypted(r) => {
                let (a, b) = (self.lhs[start], r[start]);
                if a == b {
                    return c.constant(f(0, 0));
                }
                let flip = self.sign_flip(c.message_modulus(), start + 1);
                c.bivariate(a, b, move |u, v| f(u ^ flip, v ^ flip))
            }
            Rhs::Clear(digits) => {
                let range = start..start + len;
                let unit = Unit::new(c, &self.lhs[range.clone()], &digits[range])?;
                let flip = self.sign_flip(unit.size, start + len);
                let g = move |u: u64| f(u ^ flip, unit.clear ^ flip);
                let first = g(0);
                if (0..unit.size).all(|u| g(u) == first) {
                    return c.constant(first);
                }
                c.table(unit.wire, g)
            }
        }
    }

    /// The 0/1 flag of a plan.
    fn flag(&self, c: &mut Circuit, plan: &Plan) -> Result<Wire> {
        let rel = self.rel;
        match plan {
            Plan::Leaf { start, len } => self.leaf(c, *start, *len, move |u, v| rel.holds(u, v)),
            Plan::Ripple { below, block } => {
                let carry = self.flag(c, below)?;
                self.ripple(c, carry, *block)
            }
            Plan::Combine { flag, parts } => {
                let mut terms = Vec::with_capacity(parts.len() + 1);
                if let Some(f) = flag {
                    terms.push((self.flag(c, f)?, 1));
                }
                for (q, part) in parts.iter().enumerate() {
                    terms.push((self.state(c, part, 1 << q)?, 1));
                }
                let sum = c.linear(&terms, 0)?;
                let threshold = 1u64 << parts.len();
                c.table(sum, move |s| (s >= threshold) as u64)
            }
        }
    }

    /// `scale` times the state (0, 1, 2) of a plan.
    fn state(&self, c: &mut Circuit, plan: &Plan, scale: u64) -> Result<Wire> {
        let rel = self.rel;
        match plan {
            Plan::Leaf { start, len } => {
                self.leaf(c, *start, *len, move |u, v| scale * rel.state(u, v))
            }
            Plan::Combine { flag: None, parts } => {
                let terms = parts
                    .iter()
                    .enumerate()
                    .map(|(q, part)| Ok((self.state(c, part, 1 << q)?, 1)))
                    .collect::<Result<Vec<_>>>()?;
                let sum = c.linear(&terms, 0)?;
                let g = parts.len() as u32;
                c.table(sum, move |s| {
                    let tie = (1u64 << g) - 1;
                    scale * (if s > tie { 2 } else { (s == tie) as u64 })
                })
            }
            Plan::Ripple { .. } | Plan::Combine { flag: Some(_), .. } => {
                unreachable!("the planner only builds flags from ripples and flag combinations")
            }
        }
    }

    /// The flag `carry` of the blocks below `block`, extended by block `block` read raw.
    fn ripple(&self, c: &mut Circuit, carry: Wire, block: usize) -> Result<Wire> {
        let rel = self.rel;
        let x = self.lhs[block];
        match &self.rhs {
            Rhs::Encrypted(r) => {
                let y = r[block];
                if x == y {
                    return Ok(carry);
                }
                if self.sign_flip(2, block + 1) != 0 {
                    // A signed top block is not linear in its digits: its state from one
                    // table (in the first layer), then `carry + state >= 2`.
                    let state = self.leaf(c, block, 1, move |u, v| rel.state(u, v))?;
                    let sum = c.linear(&[(carry, 1), (state, 1)], 0)?;
                    return c.table(sum, |s| (s >= 2) as u64);
                }
                // 2 (win - lose) + carry + 2 (m - 1) >= 2 (m - 1) + 1.
                let (win, lose) = if rel.greater { (x, y) } else { (y, x) };
                let offset = 2 * (c.message_modulus() - 1);
                let sum = c.linear(&[(win, 2), (lose, -2), (carry, 1)], offset)?;
                c.table(sum, move |s| (s > offset) as u64)
            }
            Rhs::Clear(digits) => {
                let flip = self.sign_flip(c.message_modulus(), block + 1);
                let d = digits[block] ^ flip;
                let sum = c.linear(&[(x, 2), (carry, 1)], 0)?;
                c.table(sum, move |s| match rel.state((s / 2) ^ flip, d) {
                    2 => 1,
                    1 => s % 2,
                    _ => 0,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::tests::check_predicate;

    #[test]
    fn equality_for_every_length_and_edge_values() {
        for blocks in [1usize, 2, 5, 6, 11] {
            let max = 1u128 << (2 * blocks);
            let pairs = [
                (0, 0),
                (1, 0),
                (max - 1, max - 1),
                (max - 1, max - 2),
                (max / 3, max / 3),
            ];
            check_predicate(blocks, &pairs, eq, |a, b| a == b);
            check_predicate(blocks, &pairs, ne, |a, b| a != b);
        }
    }

    fn planned(n: usize, leaf_width: usize, parallelism: usize) -> Vec<usize> {
        let planner = Planner::new(n, leaf_width, 3, vec![1; leaf_width.min(n)]);
        planner.layer_widths(&planner.best(parallelism))
    }

    #[test]
    fn the_planner_trades_bootstraps_for_depth_with_parallelism() {
        // 64 bits: the ripple on one thread, a depth-4 tree of 46 on a GPU.
        assert_eq!(planned(32, 1, 1), vec![1; 32]);
        let gpu = planned(32, 1, 10_000);
        assert_eq!((gpu.iter().sum::<usize>(), gpu.len()), (46, 4));
        let cpu = planned(32, 1, 2);
        assert_eq!((cpu.iter().sum::<usize>(), cpu.len()), (45, 6));
        // The fewest layers any plan can have: a flag over 3^d ... blocks.
        assert_eq!(planned(4, 1, 10_000), vec![4, 1]);
        assert_eq!(planned(13, 1, 10_000).len(), 3);
        assert_eq!(planned(14, 1, 10_000).len(), 4);
    }
}
