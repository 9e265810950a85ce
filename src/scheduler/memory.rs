//! How much GPU memory a circuit needs, known before it runs and without a GPU.
//!
//! The CUDA backend runs a circuit as one step per bootstrap layer, then one step
//! that gathers the outputs (see [`crate::integer::execute`]). Every layer's
//! results stay on the device until the last step that reads them, so the peak is:
//! the input blocks, plus the largest sum over a step of the results held then and
//! the step's working memory (each of its expressions' [`gpu_expression_bytes`] and
//! its lookup tables' bodies; for the gather, the gathered outputs). The server key (already on
//! the device) is not counted. The backend cuts a step that does not fit the free
//! memory into chunks, so this is what the circuit needs to run in one piece.

use super::{CircuitInput, CostModel, GpuIndex, Recording, Scheduler, Target, Worker};
pub(crate) use crate::backend::gpu::big_lwe_bytes;
pub use crate::backend::gpu::gpu_expression_bytes;
use crate::error::Result;
use crate::integer::{self, Circuit, Radix, Wire};

/// The device bytes `circuit` needs on a GPU to run in one piece (see the module
/// docs), for inputs that are not on the GPU yet.
///
/// ```
/// use gpufhe::integer::{add, Circuit};
/// use gpufhe::backend::BlockInfo;
/// use gpufhe::scheduler::circuit_gpu_memory_bytes;
/// use gpufhe::shortint::DEFAULT_PARAMETERS;
/// let mut c = Circuit::new(DEFAULT_PARAMETERS).with_parallelism(4096);
/// let fresh = BlockInfo { degree: 3, noise_level: 1 };
/// let a = c.add_input(&[fresh; 32]).unwrap();
/// let b = c.add_input(&[fresh; 32]).unwrap();
/// let sum = add(&mut c, &a, &b).unwrap();
/// c.add_output(&sum);
/// let bytes = circuit_gpu_memory_bytes(&c);
/// // At least the 64 input blocks and the 32 output blocks of 2049 words each.
/// assert!(bytes > 96 * 2049 * 8 && bytes < 10_000_000, "{bytes}");
/// ```
pub fn circuit_gpu_memory_bytes(circuit: &Circuit) -> u64 {
    let params = circuit.parameters();
    let big = big_lwe_bytes(params) as u64;
    let table_bytes = params.polynomial_size.0 as u64 * 8;
    let inputs: u64 = circuit.inputs().iter().map(|i| i.len() as u64 * big).sum();
    let layers = circuit.live_layers();
    let mut layer_scratch = vec![0u64; layers.len()];
    let mut layer_tables: Vec<Vec<usize>> = vec![Vec::new(); layers.len()];
    for (layer, &b) in layers
        .iter()
        .enumerate()
        .flat_map(|(l, bs)| bs.iter().map(move |b| (l, b)))
    {
        let bootstrap = circuit.bootstrap(b);
        layer_scratch[layer] +=
            gpu_expression_bytes(params, bootstrap.input.terms.len(), true) as u64;
        if !layer_tables[layer].contains(&bootstrap.table) {
            layer_tables[layer].push(bootstrap.table);
        }
    }
    let gather: u64 = circuit
        .outputs()
        .iter()
        .flatten()
        .map(|&w| gpu_expression_bytes(params, circuit.linear_form(w).terms.len(), false) as u64)
        .sum();
    // Each step: the results held then (see `integer::held_blocks`) and its working
    // memory; the gather is the last step.
    let scratch = layer_scratch
        .iter()
        .zip(&layer_tables)
        .map(|(scratch, tables)| scratch + tables.len() as u64 * table_bytes)
        .chain([gather]);
    let peak = integer::held_blocks(circuit)
        .into_iter()
        .zip(scratch)
        .map(|(held, scratch)| held as u64 * big + scratch)
        .max()
        .unwrap_or(0);
    inputs + peak
}

/// The host bytes of the bootstrap results `circuit` holds at its peak on the CPU
/// (see [`integer::held_blocks`]; the inputs exist already).
pub(crate) fn circuit_host_bytes(circuit: &Circuit) -> u64 {
    let big = big_lwe_bytes(circuit.parameters()) as u64;
    let held = integer::held_blocks(circuit).into_iter().max().unwrap_or(0);
    held as u64 * big
}

impl Scheduler {
    /// The device bytes ([`circuit_gpu_memory_bytes`]) of the circuit `build` makes
    /// on `inputs`, built as it would be for this key's first GPU (for a key without
    /// GPUs, for a modelled H100). Nothing runs.
    pub(crate) fn gpu_memory_bytes(
        &self,
        inputs: &[CircuitInput<'_>],
        build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    ) -> Result<u64> {
        let has_gpus = !self.gpus.is_empty();
        let parallelism = if !has_gpus {
            let gpu = GpuIndex::new(0);
            CostModel::modelled(&self.parameters, 0, &[gpu]).parallelism(Worker::Gpu(gpu))?
        } else {
            self.parallelism(Target::Gpu(0), 1)?
        };
        let mut recording = Recording::new(&self.parameters, parallelism);
        let outputs = recording.record(inputs, build)?;
        let wires: Vec<&[Wire]> = outputs.iter().map(Vec::as_slice).collect();
        let (circuit, _) = recording.finish(&wires);
        Ok(circuit_gpu_memory_bytes(&circuit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::tests::circuit_with_inputs;

    #[test]
    fn memory_grows_with_the_work_and_counts_every_part() {
        let (mut c, x) = circuit_with_inputs(4096, &[4, 4]);
        let empty = circuit_gpu_memory_bytes(&c);
        let big = big_lwe_bytes(c.parameters()) as u64;
        assert_eq!(empty, 8 * big, "inputs only");
        let sum = crate::integer::add(&mut c, &x[0], &x[1]).expect("add");
        c.add_output(&sum);
        let add = circuit_gpu_memory_bytes(&c);
        let product = crate::integer::mul(&mut c, &x[0], &x[1]).expect("mul");
        c.add_output(&product);
        let both = circuit_gpu_memory_bytes(&c);
        assert!(add > empty + 4 * big && both > add, "{empty} {add} {both}");
    }
}
