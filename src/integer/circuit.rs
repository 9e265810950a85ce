//! Circuits of blocks: how every integer algorithm is written.
//!
//! An algorithm does not touch ciphertexts. It describes, on a [`Circuit`], which
//! blocks are linear combinations of which, and which go through a lookup table
//! (one keyswitch + bootstrap, possibly several functions at once). The circuit
//! tracks the public degree and noise level of every block and refuses anything that
//! could overflow a block or its noise budget, so a circuit that builds runs
//! correctly. [`crate::integer::execute`] then cuts it into one backend step per
//! bootstrap depth: independent operations built on the same circuit share their
//! steps, which is how a batch of operations runs as a few large bootstrap batches.
//!
//! Because the circuit is data-independent, its cost is known before it runs:
//! [`Circuit::stats`] gives the number of bootstraps and of sequential bootstrap
//! layers.

use crate::backend::{BlockInfo, Table};
use crate::error::{Error, Result};
use crate::shortint::ShortintParameters;
use std::collections::HashMap;

/// A block of a circuit: an input block, a bootstrap output or a linear combination
/// of those.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Wire(u32);

/// Where a materialized block comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// Block `index` of input list `part`.
    Input { part: usize, index: usize },
    /// Output `slot` of bootstrap `bootstrap`.
    Bootstrap { bootstrap: usize, slot: usize },
}

/// A linear combination of materialized blocks (node ids of sources) plus a constant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Linear {
    pub(crate) terms: Vec<(u32, i64)>,
    pub(crate) constant: u64,
}

#[derive(Debug, Clone)]
enum Form {
    Source(Source),
    Linear(Linear),
}

#[derive(Debug, Clone)]
struct Node {
    form: Form,
    info: BlockInfo,
    depth: u32,
}

/// One keyswitch + bootstrap of a linear combination through a table.
#[derive(Debug, Clone)]
pub(crate) struct Bootstrap {
    pub(crate) input: Linear,
    pub(crate) table: usize,
    pub(crate) depth: u32,
}

/// The cost of a circuit, known before it runs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CircuitStats {
    /// Keyswitch + bootstrap evaluations (a bootstrap computing several functions
    /// counts once).
    pub bootstraps: usize,
    /// Sequential bootstrap layers: the latency in units of one bootstrap batch.
    pub depth: usize,
    /// Bootstraps of each layer, first layer first.
    pub per_layer: Vec<usize>,
}

/// A data-independent description of computations on blocks (see the module docs).
///
/// ```
/// use gpufhe::backend::BlockInfo;
/// use gpufhe::integer::Circuit;
/// use gpufhe::shortint::DEFAULT_PARAMETERS;
/// let mut c = Circuit::new(DEFAULT_PARAMETERS);
/// let fresh = BlockInfo { degree: 3, noise_level: 1 };
/// let x = c.add_input(&[fresh, fresh]).unwrap();
/// let sum = c.linear(&[(x[0], 1), (x[1], 1)], 0).unwrap(); // no bootstrap
/// let parts = c.tables(sum, &[&|v| v % 4, &|v| v / 4]).unwrap(); // one bootstrap
/// assert_eq!(c.info(parts[1]).degree, 1);
/// c.add_output(&parts);
/// assert_eq!(c.stats().bootstraps, 1);
/// // 3 * (3 + 3) would leave the block, and is refused.
/// assert!(c.linear(&[(sum, 3)], 0).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Circuit {
    params: ShortintParameters,
    parallelism: usize,
    nodes: Vec<Node>,
    bootstraps: Vec<Bootstrap>,
    tables: Vec<Table>,
    table_ids: HashMap<Table, usize>,
    inputs: Vec<Vec<Wire>>,
    outputs: Vec<Vec<Wire>>,
}

impl Circuit {
    /// An empty circuit on blocks of `params`.
    pub fn new(params: ShortintParameters) -> Self {
        Self {
            params,
            parallelism: 1,
            nodes: Vec::new(),
            bootstraps: Vec::new(),
            tables: Vec::new(),
            table_ids: HashMap::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
        }
    }

    /// Tells algorithms how many bootstraps per operation the backend can run at once
    /// (see [`crate::backend::Backend::parallelism`]); they choose between
    /// work-efficient and low-latency variants with it.
    pub fn with_parallelism(mut self, parallelism: usize) -> Self {
        self.parallelism = parallelism.max(1);
        self
    }

    /// The bootstraps per operation the backend runs at once.
    pub fn parallelism(&self) -> usize {
        self.parallelism
    }

    /// The block parameters.
    pub fn parameters(&self) -> &ShortintParameters {
        &self.params
    }

    /// The message modulus of the blocks (the radix base).
    pub fn message_modulus(&self) -> u64 {
        self.params.message_modulus
    }

    /// Declares a list of input blocks with their bookkeeping; returns their wires.
    pub fn add_input(&mut self, infos: &[BlockInfo]) -> Result<Vec<Wire>> {
        let part = self.inputs.len();
        let mut wires = Vec::with_capacity(infos.len());
        for (index, info) in infos.iter().enumerate() {
            self.params.check_capacity(info.degree, info.noise_level)?;
            wires.push(self.push(Node {
                form: Form::Source(Source::Input { part, index }),
                info: *info,
                depth: 0,
            })?);
        }
        self.inputs.push(wires.clone());
        Ok(wires)
    }

    /// Marks `wires` as one output list; returns its index among the outputs.
    pub fn add_output(&mut self, wires: &[Wire]) -> usize {
        self.outputs.push(wires.to_vec());
        self.outputs.len() - 1
    }

    /// The bookkeeping (degree and noise level) of a block.
    pub fn info(&self, w: Wire) -> BlockInfo {
        self.nodes[w.0 as usize].info
    }

    /// The value of `w` if it is known without decryption: a trivial block, or a
    /// block of degree 0 (which can only hold 0).
    pub fn known_value(&self, w: Wire) -> Option<u64> {
        let node = &self.nodes[w.0 as usize];
        match &node.form {
            Form::Linear(l) if l.terms.is_empty() => Some(l.constant),
            _ if node.info.degree == 0 => Some(0),
            _ => None,
        }
    }

    /// A trivial block holding `value` (no noise, no encryption).
    pub fn constant(&mut self, value: u64) -> Result<Wire> {
        self.linear(&[], value)
    }

    /// `sum_k scalar_k * w_k + constant`, without bootstrap. `Err` if the result could
    /// be negative, reach the block size, or exceed the noise budget.
    pub fn linear(&mut self, terms: &[(Wire, i64)], constant: u64) -> Result<Wire> {
        let mut acc = Terms::default();
        let mut constant = constant as i128;
        for &(w, scalar) in terms {
            match &self.nodes[w.0 as usize].form {
                Form::Source(_) => acc.add(w.0, scalar),
                Form::Linear(l) => {
                    for &(id, s) in &l.terms {
                        acc.add(id, s.saturating_mul(scalar));
                    }
                    constant += l.constant as i128 * scalar as i128;
                }
            }
        }
        // Known-zero blocks (degree 0) contribute nothing but noise: drop them.
        let terms: Vec<(u32, i64)> = acc
            .terms
            .into_iter()
            .filter(|&(id, s)| s != 0 && self.nodes[id as usize].info.degree != 0)
            .collect();
        let (mut low, mut high, mut noise) = (constant, constant, 0u64);
        let mut depth = 0;
        for &(id, s) in &terms {
            let n = &self.nodes[id as usize];
            let reach = n.info.degree as i128 * s as i128;
            if reach < 0 {
                low += reach;
            } else {
                high += reach;
            }
            noise = noise.saturating_add(n.info.noise_level.saturating_mul(s.unsigned_abs()));
            depth = depth.max(n.depth);
        }
        if low < 0 {
            return Err(Error::CapacityExceeded(format!(
                "a block expression may go down to {low}: add a constant that keeps it non-negative"
            )));
        }
        let degree = u64::try_from(high).unwrap_or(u64::MAX);
        self.params.check_capacity(degree, noise)?;
        let constant = constant as u64;
        if constant == 0 && terms.len() == 1 && terms[0].1 == 1 {
            return Ok(Wire(terms[0].0));
        }
        self.push(Node {
            form: Form::Linear(Linear { terms, constant }),
            info: BlockInfo {
                degree,
                noise_level: noise,
            },
            depth,
        })
    }

    /// `a + b`, without bootstrap.
    pub fn add(&mut self, a: Wire, b: Wire) -> Result<Wire> {
        self.linear(&[(a, 1), (b, 1)], 0)
    }

    /// `f(w)` through one bootstrap (none if `w` is known).
    pub fn table(&mut self, w: Wire, f: impl Fn(u64) -> u64) -> Result<Wire> {
        Ok(self.tables(w, &[&f])?[0])
    }

    /// Every `f_j(w)` from a single bootstrap (none if `w` is known). With `k`
    /// functions (rounded up to a power of two) the value of `w` must be below
    /// `message_modulus * carry_modulus / k`.
    pub fn tables(&mut self, w: Wire, fs: &[&dyn Fn(u64) -> u64]) -> Result<Vec<Wire>> {
        let total = self.params.total_modulus();
        if let Some(v) = self.known_value(w) {
            return fs.iter().map(|f| self.constant(f(v) % total)).collect();
        }
        let zero = |_: u64| 0;
        let mut padded: Vec<&dyn Fn(u64) -> u64> = fs.to_vec();
        while !padded.len().is_power_of_two() {
            padded.push(&zero);
        }
        let node = self.nodes[w.0 as usize].clone();
        let table = Table::on_domain(&self.params, node.info.degree, &padded)?;
        let degrees = table.degrees().to_vec();
        let table = self.table_id(table);
        let input = match node.form {
            Form::Source(_) => Linear {
                terms: vec![(w.0, 1)],
                constant: 0,
            },
            Form::Linear(l) => l,
        };
        let bootstrap = self.bootstraps.len();
        let depth = node.depth + 1;
        self.bootstraps.push(Bootstrap {
            input,
            table,
            depth,
        });
        let mut wires = Vec::with_capacity(fs.len());
        for (slot, &degree) in degrees.iter().enumerate() {
            let wire = self.push(Node {
                form: Form::Source(Source::Bootstrap { bootstrap, slot }),
                info: BlockInfo {
                    degree,
                    noise_level: 1,
                },
                depth,
            })?;
            if slot < fs.len() {
                wires.push(wire);
            }
        }
        Ok(wires)
    }

    /// `f(a, b)` through one bootstrap of `a * (deg(b) + 1) + b`; `Err` if that packing
    /// does not fit in a block or its noise budget.
    pub fn bivariate(&mut self, a: Wire, b: Wire, f: impl Fn(u64, u64) -> u64) -> Result<Wire> {
        let factor = self.info(b).degree + 1;
        let packed = self.linear(&[(a, factor as i64), (b, 1)], 0)?;
        self.table(packed, move |x| f(x / factor, x % factor))
    }

    /// A fresh copy of `w` (noise level 1), through one bootstrap.
    pub fn refresh(&mut self, w: Wire) -> Result<Wire> {
        self.table(w, |x| x)
    }

    /// The cost of the blocks that lead to the outputs.
    pub fn stats(&self) -> CircuitStats {
        let layers = self.live_layers();
        CircuitStats {
            bootstraps: layers.iter().map(Vec::len).sum(),
            depth: layers.len(),
            per_layer: layers.iter().map(Vec::len).collect(),
        }
    }

    /// The bootstraps whose results reach an output, by layer (first layer first),
    /// each layer in creation order.
    pub(crate) fn live_layers(&self) -> Vec<Vec<usize>> {
        let live = self.live_bootstraps();
        let depth = live
            .iter()
            .map(|&b| self.bootstraps[b].depth as usize)
            .max()
            .unwrap_or(0);
        let mut layers = vec![Vec::new(); depth];
        for b in live {
            layers[self.bootstraps[b].depth as usize - 1].push(b);
        }
        layers
    }

    /// The bootstraps whose results reach an output, in creation order.
    fn live_bootstraps(&self) -> Vec<usize> {
        let mut live = vec![false; self.bootstraps.len()];
        let mut stack: Vec<u32> = self.outputs.iter().flatten().map(|w| w.0).collect();
        let mut seen = vec![false; self.nodes.len()];
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id as usize], true) {
                continue;
            }
            match &self.nodes[id as usize].form {
                Form::Source(Source::Input { .. }) => {}
                Form::Source(Source::Bootstrap { bootstrap, .. }) => {
                    if !std::mem::replace(&mut live[*bootstrap], true) {
                        stack.extend(self.bootstraps[*bootstrap].input.terms.iter().map(|t| t.0));
                    }
                }
                Form::Linear(l) => stack.extend(l.terms.iter().map(|t| t.0)),
            }
        }
        (0..self.bootstraps.len()).filter(|&b| live[b]).collect()
    }

    pub(crate) fn bootstrap(&self, b: usize) -> &Bootstrap {
        &self.bootstraps[b]
    }

    pub(crate) fn table_by_id(&self, t: usize) -> &Table {
        &self.tables[t]
    }

    pub(crate) fn inputs(&self) -> &[Vec<Wire>] {
        &self.inputs
    }

    pub(crate) fn outputs(&self) -> &[Vec<Wire>] {
        &self.outputs
    }

    /// The source of a materialized node id.
    pub(crate) fn source(&self, id: u32) -> Source {
        match &self.nodes[id as usize].form {
            Form::Source(s) => *s,
            Form::Linear(_) => unreachable!("linear terms always refer to sources"),
        }
    }

    /// `w` as a linear combination of sources.
    pub(crate) fn linear_form(&self, w: Wire) -> Linear {
        match &self.nodes[w.0 as usize].form {
            Form::Source(_) => Linear {
                terms: vec![(w.0, 1)],
                constant: 0,
            },
            Form::Linear(l) => l.clone(),
        }
    }

    fn table_id(&mut self, table: Table) -> usize {
        if let Some(&id) = self.table_ids.get(&table) {
            return id;
        }
        self.tables.push(table.clone());
        self.table_ids.insert(table, self.tables.len() - 1);
        self.tables.len() - 1
    }

    fn push(&mut self, node: Node) -> Result<Wire> {
        let id = u32::try_from(self.nodes.len())
            .map_err(|_| Error::InvalidParameter("a circuit holds at most 2^32 blocks".into()))?;
        self.nodes.push(node);
        Ok(Wire(id))
    }
}

/// The terms of a linear form being gathered, in order of first appearance. Most
/// forms have a few terms, which a scan finds faster than a hash; an index by block
/// takes over past [`Terms::SCAN`] terms.
#[derive(Default)]
struct Terms {
    terms: Vec<(u32, i64)>,
    index: HashMap<u32, usize>,
}

impl Terms {
    const SCAN: usize = 32;

    fn add(&mut self, id: u32, scalar: i64) {
        let found = if self.terms.len() <= Self::SCAN {
            self.terms.iter().position(|&(t, _)| t == id)
        } else {
            if self.index.is_empty() {
                self.index = self
                    .terms
                    .iter()
                    .enumerate()
                    .map(|(i, &(t, _))| (t, i))
                    .collect();
            }
            self.index.get(&id).copied()
        };
        match found {
            Some(i) => self.terms[i].1 = self.terms[i].1.saturating_add(scalar),
            None => {
                if !self.index.is_empty() {
                    self.index.insert(id, self.terms.len());
                }
                self.terms.push((id, scalar));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shortint::DEFAULT_PARAMETERS;

    use crate::integer::tests::FRESH;

    #[test]
    fn linear_combinations_flatten_and_track_bounds() {
        let mut c = Circuit::new(DEFAULT_PARAMETERS);
        let x = c.add_input(&[FRESH, FRESH]).unwrap();
        let s = c.add(x[0], x[1]).unwrap();
        let t = c.linear(&[(s, 2), (x[0], -1)], 3).unwrap();
        // t = x0 + 2 x1 + 3: degree 3 + 6 + 3, noise 1 + 2.
        assert_eq!(
            c.info(t),
            BlockInfo {
                degree: 12,
                noise_level: 3
            }
        );
        assert_eq!(c.linear_form(t).terms, vec![(0, 1), (1, 2)]);
        // Negative results and noise overflow are refused.
        assert!(c.linear(&[(x[0], -1)], 2).is_err());
        assert!(c.linear(&[(t, 2)], 0).is_err());
        // Constants fold through tables without bootstraps.
        let k = c.constant(5).unwrap();
        let f = c.table(k, |v| v * 3).unwrap();
        assert_eq!(c.known_value(f), Some(15));
        c.add_output(&[f]);
        assert_eq!(c.stats().bootstraps, 0);
    }

    #[test]
    fn stats_count_only_live_bootstraps_by_depth() {
        let mut c = Circuit::new(DEFAULT_PARAMETERS);
        let x = c.add_input(&[FRESH, FRESH]).unwrap();
        let a = c.refresh(x[0]).unwrap();
        let _dead = c.refresh(x[1]).unwrap();
        let b = c.bivariate(a, x[1], |p, q| p & q).unwrap();
        let many = c.tables(x[1], &[&|v| v, &|v| v + 1, &|v| v + 2]).unwrap();
        assert_eq!(many.len(), 3);
        c.add_output(&[b, many[2]]);
        let stats = c.stats();
        assert_eq!(stats.bootstraps, 3);
        assert_eq!(stats.depth, 2);
        assert_eq!(stats.per_layer, vec![2, 1]);
        // Three functions are padded to four: inputs must be below 16 / 4.
        let big = c.linear(&[(x[0], 2)], 0).unwrap();
        assert!(c.tables(big, &[&|v| v, &|v| v, &|v| v]).is_err());
    }
}
