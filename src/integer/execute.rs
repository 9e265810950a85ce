//! Running a [`Circuit`] on a [`Backend`]: one step per bootstrap depth, then one
//! step that gathers the outputs.

use super::circuit::{Circuit, Linear, Source, Wire};
use crate::backend::{Backend, BlockExpr, BlockInfo, Step, Table, Term};
use crate::error::{check_eq, Error, Result};

/// Runs `circuit` on `inputs` (one block list per [`Circuit::add_input`], in order)
/// and returns one block list per [`Circuit::add_output`].
///
/// Every bootstrap of a depth runs in one backend step, whatever operation it belongs
/// to. The inputs must match what the circuit was built for: same number of blocks
/// and degrees and noise levels no larger than declared.
///
/// ```
/// use gpufhe::backend::{cpu::CpuBackend, Backend};
/// use gpufhe::integer::{execute, Circuit};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let blocks = vec![ck.encrypt(2).unwrap(), ck.encrypt(3).unwrap()];
/// let mut c = Circuit::new(PARAMETERS);
/// let x = c.add_input(&backend.block_infos(&blocks)).unwrap();
/// let sum = c.add(x[0], x[1]).unwrap();
/// let parts = c.tables(sum, &[&|v| v % 4, &|v| v / 4]).unwrap();
/// c.add_output(&parts);
/// let out = execute(&backend, &c, &[&blocks]).unwrap();
/// assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 1); // (2 + 3) % 4
/// assert_eq!(ck.decrypt(&out[0][1]).unwrap(), 1); // (2 + 3) / 4
/// assert_eq!(backend.pbs_count(), 1);
/// ```
pub fn execute<B: Backend>(
    backend: &B,
    circuit: &Circuit,
    inputs: &[&B::Blocks],
) -> Result<Vec<B::Blocks>> {
    execute_observed(backend, circuit, inputs, &mut |_| {})
}

/// [`execute`], calling `layer_done` with the number of bootstraps of each
/// bootstrap layer once it has run (for progress reports).
///
/// ```
/// use gpufhe::backend::{cpu::CpuBackend, Backend};
/// use gpufhe::integer::{execute_observed, Circuit};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let blocks = vec![ck.encrypt(2).unwrap()];
/// let mut c = Circuit::new(PARAMETERS);
/// let x = c.add_input(&backend.block_infos(&blocks)).unwrap();
/// let once = c.table(x[0], |v| v + 1).unwrap();
/// let twice = c.table(once, |v| v + 1).unwrap();
/// c.add_output(&[twice]);
/// let mut layers = Vec::new();
/// let out = execute_observed(&backend, &c, &[&blocks], &mut |n| layers.push(n)).unwrap();
/// assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 0); // (2 + 2) % 4
/// assert_eq!(layers, [1, 1]);
/// ```
pub fn execute_observed<B: Backend>(
    backend: &B,
    circuit: &Circuit,
    inputs: &[&B::Blocks],
    layer_done: &mut dyn FnMut(usize),
) -> Result<Vec<B::Blocks>> {
    if backend.parameters() != circuit.parameters() {
        return Err(Error::InvalidParameter(
            "the circuit was built for other parameters than the backend's".into(),
        ));
    }
    check_inputs(backend, circuit, inputs)?;
    let plan = Plan::new(circuit);
    let depth = plan.layers.len();
    // Each layer's results, dropped once no later step reads them.
    let mut produced: Vec<Option<B::Blocks>> = Vec::with_capacity(depth);
    for (l, layer) in plan.layers.iter().enumerate() {
        let (parts, offsets) = plan.live_parts(backend, inputs, &produced);
        let mut tables: Vec<&Table> = Vec::new();
        let mut table_slot: Vec<(usize, usize)> = Vec::new();
        let mut exprs = Vec::with_capacity(layer.len());
        for &b in layer {
            let bootstrap = circuit.bootstrap(b);
            let slot = match table_slot.iter().find(|(id, _)| *id == bootstrap.table) {
                Some(&(_, s)) => s,
                None => {
                    tables.push(circuit.table_by_id(bootstrap.table));
                    table_slot.push((bootstrap.table, tables.len() - 1));
                    tables.len() - 1
                }
            };
            let mut expr = plan.block_expr(circuit, &bootstrap.input, &offsets);
            expr.table = Some(slot);
            exprs.push(expr);
        }
        let out = backend.eval(&parts, &Step { exprs, tables })?;
        layer_done(layer.len());
        produced.push(Some(out));
        for (k, part) in produced.iter_mut().enumerate() {
            if plan.last_use[k] <= l {
                *part = None;
            }
        }
    }

    let outputs = circuit.outputs();
    let (parts, offsets) = plan.live_parts(backend, inputs, &produced);
    let exprs: Vec<BlockExpr> = outputs
        .iter()
        .flatten()
        .map(|&w| plan.block_expr(circuit, &circuit.linear_form(w), &offsets))
        .collect();
    let gathered = backend.eval(
        &parts,
        &Step {
            exprs,
            tables: Vec::new(),
        },
    )?;
    let lengths: Vec<usize> = outputs.iter().map(Vec::len).collect();
    backend.split(gathered, &lengths)
}

/// How a circuit's layers run: the live bootstraps by layer, where each one's
/// outputs sit in its layer's results, and the last step that reads each layer (the
/// gather is step `depth`), after which its results are dropped: a circuit holds the
/// results it will still read, not every block it ever made.
struct Plan {
    layers: Vec<Vec<usize>>,
    /// Per bootstrap: its layer and the index of its first output in that layer's
    /// results (`usize::MAX` for a dead bootstrap).
    position: Vec<(usize, usize)>,
    /// Per layer: the last step that reads its results.
    last_use: Vec<usize>,
}

/// The bootstrap results a circuit holds while each step runs (one entry per
/// bootstrap layer, then the gather's): the results of the layers a later step
/// reads, and the step's own outputs. [`execute`] drops a layer's results after its
/// last reader, so the largest entry, with the inputs, is the memory a circuit needs.
pub(crate) fn held_blocks(circuit: &Circuit) -> Vec<usize> {
    let plan = Plan::new(circuit);
    let sizes: Vec<usize> = plan
        .layers
        .iter()
        .map(|layer| {
            layer
                .iter()
                .map(|&b| {
                    circuit
                        .table_by_id(circuit.bootstrap(b).table)
                        .function_count()
                })
                .sum()
        })
        .collect();
    let held = |step: usize| -> usize {
        (0..sizes.len().min(step + 1))
            .filter(|&k| k == step || plan.last_use[k] >= step)
            .map(|k| sizes[k])
            .sum()
    };
    let gathered: usize = circuit.outputs().iter().map(Vec::len).sum();
    (0..sizes.len())
        .map(held)
        .chain([held(sizes.len()) + gathered])
        .collect()
}

/// Where each part of a step starts in the concatenation of its parts: the inputs',
/// then each layer's still held (`None` for a dropped layer).
struct Offsets {
    inputs: Vec<usize>,
    layers: Vec<Option<usize>>,
}

impl Plan {
    fn new(circuit: &Circuit) -> Self {
        let layers = circuit.live_layers();
        let count = layers.iter().flatten().max().map_or(0, |&b| b + 1);
        let mut position = vec![(usize::MAX, usize::MAX); count];
        for (l, layer) in layers.iter().enumerate() {
            let mut next = 0;
            for &b in layer {
                position[b] = (l, next);
                next += circuit
                    .table_by_id(circuit.bootstrap(b).table)
                    .function_count();
            }
        }
        let mut last_use = vec![0; layers.len()];
        let mut read = |linear: &Linear, step: usize| {
            for &(id, _) in &linear.terms {
                if let Source::Bootstrap { bootstrap, .. } = circuit.source(id) {
                    let layer = position[bootstrap].0;
                    last_use[layer] = last_use[layer].max(step);
                }
            }
        };
        for (l, layer) in layers.iter().enumerate() {
            for &b in layer {
                read(&circuit.bootstrap(b).input, l);
            }
        }
        for &w in circuit.outputs().iter().flatten() {
            read(&circuit.linear_form(w), layers.len());
        }
        Self {
            layers,
            position,
            last_use,
        }
    }

    /// The inputs and the layers' results still held, and where each one starts.
    fn live_parts<'a, B: Backend>(
        &self,
        backend: &B,
        inputs: &[&'a B::Blocks],
        produced: &'a [Option<B::Blocks>],
    ) -> (Vec<&'a B::Blocks>, Offsets) {
        let mut parts = Vec::with_capacity(inputs.len() + produced.len());
        let mut total = 0;
        let mut place = |part: &'a B::Blocks| {
            let at = total;
            total += backend.block_count(part);
            parts.push(part);
            at
        };
        let inputs = inputs.iter().map(|&part| place(part)).collect();
        let layers = produced
            .iter()
            .map(|part| part.as_ref().map(&mut place))
            .collect();
        (parts, Offsets { inputs, layers })
    }

    /// The block expression of `linear` over the parts placed at `offsets`.
    fn block_expr(&self, circuit: &Circuit, linear: &Linear, offsets: &Offsets) -> BlockExpr {
        let terms = linear
            .terms
            .iter()
            .map(|&(id, scalar)| {
                let block = match circuit.source(id) {
                    Source::Input { part, index } => offsets.inputs[part] + index,
                    Source::Bootstrap { bootstrap, slot } => {
                        let (layer, start) = self.position[bootstrap];
                        // A layer read by a later step is still held (`last_use`).
                        offsets.layers[layer].map_or(usize::MAX, |at| at + start + slot)
                    }
                };
                Term { block, scalar }
            })
            .collect();
        BlockExpr {
            terms,
            constant: linear.constant,
            table: None,
        }
    }
}

fn check_inputs<B: Backend>(backend: &B, circuit: &Circuit, inputs: &[&B::Blocks]) -> Result<()> {
    let declared = circuit.inputs();
    check_eq("number of input lists", declared.len(), inputs.len())?;
    for (wires, blocks) in declared.iter().zip(inputs) {
        let infos = backend.block_infos(blocks);
        check_eq("number of blocks of an input", wires.len(), infos.len())?;
        for (&w, got) in wires.iter().zip(&infos) {
            let want: BlockInfo = circuit.info(w);
            if got.degree > want.degree || got.noise_level > want.noise_level {
                return Err(Error::InvalidParameter(format!(
                    "an input block has degree {} and noise level {}, the circuit was built \
                     for at most {} and {}",
                    got.degree, got.noise_level, want.degree, want.noise_level
                )));
            }
        }
    }
    Ok(())
}

/// Builds a circuit on the blocks of `inputs` with `build`, which returns the output
/// lists, and runs it. The circuit's parallelism hint is the backend's.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 0b1110u128, 2).unwrap();
/// let out = run(&backend, &[&a], |c, x| {
///     // Swap the two blocks: no bootstrap at all.
///     Ok(vec![vec![x[0][1], x[0][0]]])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 0b1011);
/// ```
pub fn run<B: Backend>(
    backend: &B,
    inputs: &[&B::Blocks],
    build: impl FnOnce(&mut Circuit, &[Vec<Wire>]) -> Result<Vec<Vec<Wire>>>,
) -> Result<Vec<B::Blocks>> {
    let mut circuit = Circuit::new(*backend.parameters()).with_parallelism(backend.parallelism());
    let wires = inputs
        .iter()
        .map(|blocks| circuit.add_input(&backend.block_infos(blocks)))
        .collect::<Result<Vec<_>>>()?;
    for out in build(&mut circuit, &wires)? {
        circuit.add_output(&out);
    }
    execute(backend, &circuit, inputs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::sum::tests::eval_clear;
    use crate::integer::tests::circuit_with_inputs;
    use crate::integer::{add, clear_digits, from_digits, U2048};

    /// A ripple addition of 512 bits (256 blocks, a digit and a carry per bootstrap)
    /// holds its outputs and their carries, as it must; a comparison drops each
    /// layer of its reduction tree once the next one has read it. Both compute what
    /// they should (the clear evaluation runs the same plan of layers).
    #[test]
    fn layers_are_held_until_their_last_reader() {
        let (mut c, x) = circuit_with_inputs(1, &[256, 256]);
        let sum = add(&mut c, &x[0], &x[1]).unwrap();
        c.add_output(&sum);
        let peak = held_blocks(&c).into_iter().max().unwrap();
        assert!(peak <= 3 * 256, "{peak}");
        let (a, b) = (U2048::MAX >> 1537u32, U2048::ONE << 300u32);
        let got = eval_clear(&c, &[clear_digits(a, 4, 256), clear_digits(b, 4, 256)]);
        assert_eq!(from_digits(&got[0], 4).unwrap(), a + b);

        let (mut c, x) = circuit_with_inputs(4096, &[256, 256]);
        let lt = crate::integer::compare(&mut c, crate::integer::CmpOp::Lt, &x[0], &x[1]).unwrap();
        c.add_output(&[lt]);
        let held = held_blocks(&c);
        let (peak, total) = (held.iter().copied().max().unwrap(), c.stats().bootstraps);
        // 381 bootstraps; held by step: 253, 338, 113, 38, 14, 5, then the gather 2.
        assert!(peak < total, "{peak} of {total}");
        assert!(held[held.len() - 1] <= 2, "{held:?}");
        let got = eval_clear(&c, &[clear_digits(b, 4, 256), clear_digits(a, 4, 256)]);
        assert_eq!(got[0], [1]);
    }
}
