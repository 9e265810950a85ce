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
/// use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};
/// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let blocks = vec![ck.encrypt(2).unwrap(), ck.encrypt(3).unwrap()];
/// let mut c = Circuit::new(DEFAULT_PARAMETERS);
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
/// use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};
/// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let blocks = vec![ck.encrypt(2).unwrap()];
/// let mut c = Circuit::new(DEFAULT_PARAMETERS);
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
    let layers = circuit.live_layers();
    let depth = layers.len();

    // Where each materialized block is in the concatenation of all parts so far:
    // the inputs, then one part per layer.
    let mut offsets: Vec<usize> = Vec::with_capacity(inputs.len() + depth);
    let mut total = 0;
    for part in inputs {
        offsets.push(total);
        total += backend.block_count(part);
    }
    let mut bootstrap_start = vec![usize::MAX; layers.iter().flatten().max().map_or(0, |&b| b + 1)];
    let mut produced: Vec<B::Blocks> = Vec::with_capacity(depth);
    for layer in &layers {
        let mut tables: Vec<&Table> = Vec::new();
        let mut table_slot: Vec<(usize, usize)> = Vec::new();
        let mut exprs = Vec::with_capacity(layer.len());
        let mut next = total;
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
            let mut expr = block_expr(circuit, &bootstrap.input, &offsets, &bootstrap_start);
            expr.table = Some(slot);
            exprs.push(expr);
            bootstrap_start[b] = next;
            next += circuit.table_by_id(bootstrap.table).function_count();
        }
        let step = Step { exprs, tables };
        let parts: Vec<&B::Blocks> = inputs.iter().copied().chain(produced.iter()).collect();
        let out = backend.eval(&parts, &step)?;
        layer_done(layer.len());
        offsets.push(total);
        total = next;
        produced.push(out);
    }

    let outputs = circuit.outputs();
    let exprs: Vec<BlockExpr> = outputs
        .iter()
        .flatten()
        .map(|&w| block_expr(circuit, &circuit.linear_form(w), &offsets, &bootstrap_start))
        .collect();
    let parts: Vec<&B::Blocks> = inputs.iter().copied().chain(produced.iter()).collect();
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

/// The backend expression of a linear combination of sources.
fn block_expr(
    circuit: &Circuit,
    linear: &Linear,
    offsets: &[usize],
    bootstrap_start: &[usize],
) -> BlockExpr {
    let terms = linear
        .terms
        .iter()
        .map(|&(id, scalar)| {
            let block = match circuit.source(id) {
                Source::Input { part, index } => offsets[part] + index,
                Source::Bootstrap { bootstrap, slot } => bootstrap_start[bootstrap] + slot,
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

/// `Err` unless `inputs` has the lists the circuit declared, with no larger degrees or
/// noise levels.
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
/// use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};
/// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
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
