//! Batches of independent operations: split into shares over the workers, each
//! share run as one circuit per chunk (one bootstrap launch per layer), chunks
//! capped by memory, results gathered in input order.

use super::{
    build_circuit, plan, resident_inputs, split_even, Blocks, CircuitInput, Device, Scheduler,
    Worker,
};
#[cfg(feature = "gpu")]
use crate::backend::Backend;
use crate::error::{Error, Result};
use crate::integer::{self, Circuit, CircuitStats, Radix};
use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Host memory one chunk of a batch may fill with the blocks of its circuit on the
/// CPU (inputs and every layer's outputs stay alive until the circuit ends).
const CPU_CHUNK_BYTES: usize = 1 << 30;

/// How far a batch is, as told to a progress callback (see
/// [`crate::FheUint::batch_with_progress`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchProgress {
    /// Operations whose circuits have finished.
    pub operations_done: usize,
    /// Operations in the batch.
    pub operations: usize,
    /// Bootstraps run so far, counted as each bootstrap layer finishes.
    pub bootstraps_done: u64,
    /// Bootstraps of the whole batch (from the size of its first operation).
    pub bootstraps: u64,
}

impl BatchProgress {
    /// The part done, from 0 to 1, by bootstraps (the cost of a batch).
    ///
    /// ```
    /// use gpufhe::scheduler::BatchProgress;
    /// let p = BatchProgress { operations_done: 1, operations: 4, bootstraps_done: 32, bootstraps: 128 };
    /// assert_eq!(p.fraction(), 0.25);
    /// ```
    pub fn fraction(&self) -> f64 {
        if self.bootstraps == 0 {
            self.operations_done as f64 / self.operations.max(1) as f64
        } else {
            (self.bootstraps_done as f64 / self.bootstraps as f64).min(1.0)
        }
    }
}

/// What running a batch gave.
pub(crate) struct BatchRun {
    /// The outputs of every operation, in order.
    pub(crate) outputs: Vec<Blocks>,
    /// Circuits run.
    pub(crate) circuits: usize,
    /// Their bootstrap layers, summed.
    pub(crate) layers: usize,
}

/// A progress callback, called from the threads running the batch.
pub(crate) type Progress<'p> = Option<&'p (dyn Fn(BatchProgress) + Sync)>;

/// The progress of one batch, shared by its shares.
struct Tracker<'p> {
    callback: Progress<'p>,
    operations: usize,
    bootstraps: u64,
    operations_done: AtomicUsize,
    bootstraps_done: AtomicU64,
    circuits: AtomicUsize,
    layers: AtomicUsize,
}

impl Tracker<'_> {
    /// The run of the batch that gave `outputs`.
    fn finish(self, outputs: Vec<Blocks>) -> BatchRun {
        BatchRun {
            outputs,
            circuits: self.circuits.into_inner(),
            layers: self.layers.into_inner(),
        }
    }

    /// Counts a circuit of `depth` layers that has run.
    fn circuit_done(&self, depth: usize) {
        self.circuits.fetch_add(1, Ordering::Relaxed);
        self.layers.fetch_add(depth, Ordering::Relaxed);
    }

    fn report(&self, operations: usize, bootstraps: usize) {
        let Some(callback) = self.callback else {
            return;
        };
        let operations_done =
            self.operations_done.fetch_add(operations, Ordering::AcqRel) + operations;
        let bootstraps_done = self
            .bootstraps_done
            .fetch_add(bootstraps as u64, Ordering::AcqRel)
            + bootstraps as u64;
        callback(BatchProgress {
            operations_done,
            operations: self.operations,
            bootstraps_done: bootstraps_done.min(self.bootstraps),
            bootstraps: self.bootstraps,
        });
    }
}

/// `range` cut into consecutive chunks of at most `cap` operations.
pub(crate) fn chunks(range: Range<usize>, cap: usize) -> impl Iterator<Item = Range<usize>> {
    let cap = cap.max(1);
    range
        .clone()
        .step_by(cap)
        .map(move |start| start..(start + cap).min(range.end))
}

/// Where a share of a batch runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// The CPU worker.
    Cpu,
    /// A stream-bound worker of the GPU at this position among the key's GPUs.
    Gpu(usize),
}

/// Bytes of the encrypted inputs of one operation that must move to reach a device.
fn inputs_bytes<'i>(inputs: &'i [CircuitInput<'_>]) -> impl Fn(Device) -> usize + 'i {
    move |device| {
        inputs
            .iter()
            .map(|input| match input {
                CircuitInput::Clear { .. } => 0,
                CircuitInput::Encrypted { blocks, .. } => blocks.bytes_to_move(device),
            })
            .sum()
    }
}

/// Bytes of blocks one operation of `stats` keeps alive while its circuit runs: its
/// inputs, every bootstrap output (up to two functions each) and its outputs.
fn bytes_per_operation(circuit: &Circuit, stats: &CircuitStats) -> usize {
    let lwe = circuit.parameters().big_lwe_dimension().to_lwe_size().0 * 8;
    let inputs: usize = circuit.inputs().iter().map(Vec::len).sum();
    let outputs: usize = circuit.outputs().iter().map(Vec::len).sum();
    (inputs + outputs + 2 * stats.bootstraps).max(1) * lwe
}

impl Scheduler {
    /// Runs `count` independent operations: `circuit(range)` gives the inputs and
    /// the builder of the operations in `range` (their outputs in order). The batch
    /// is split over the workers, each share run as circuits of as many operations
    /// as memory allows; the outputs come back in the order of the operations.
    pub(crate) fn run_batch<'a, B>(
        &self,
        count: usize,
        circuit: &(dyn Fn(Range<usize>) -> Result<(Vec<CircuitInput<'a>>, B)> + Sync),
        progress: Progress<'_>,
    ) -> Result<BatchRun>
    where
        B: FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    {
        if count == 0 {
            return Ok(BatchRun {
                outputs: Vec::new(),
                circuits: 0,
                layers: 0,
            });
        }
        // The first operation alone tells the cost and size of one.
        let (inputs, build) = circuit(0..1)?;
        let probe = build_circuit(&self.parameters, 1, &inputs, build)?;
        let stats = probe.stats();
        let bytes = bytes_per_operation(&probe, &stats);
        let tracker = Tracker {
            callback: progress,
            operations: count,
            bootstraps: (stats.bootstraps as u64).saturating_mul(count as u64),
            operations_done: AtomicUsize::new(0),
            bootstraps_done: AtomicU64::new(0),
            circuits: AtomicUsize::new(0),
            layers: AtomicUsize::new(0),
        };
        let shares = self.plan_shares(count, &probe, &inputs_bytes(&inputs));
        // Consecutive ranges, one per worker in the order of `shares`, each on a
        // thread of its own; the caller waits for all and concatenates in order.
        let mut start = 0;
        let mut jobs = Vec::new();
        for (target, n) in shares {
            jobs.push((target, start..start + n));
            start += n;
        }
        let results: Vec<Result<Vec<Blocks>>> = std::thread::scope(|scope| {
            let running: Vec<_> = jobs
                .into_iter()
                .filter(|(_, range)| !range.is_empty())
                .map(|(target, range)| {
                    let tracker = &tracker;
                    std::thread::Builder::new()
                        .name("gpufhe-share".into())
                        .spawn_scoped(scope, move || {
                            self.run_share(target, range, circuit, bytes, tracker)
                        })
                })
                .collect();
            running
                .into_iter()
                .map(|spawned| match spawned {
                    Ok(handle) => handle
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                    Err(e) => Err(Error::InvalidParameter(format!(
                        "could not start a thread for a share of the batch: {e}"
                    ))),
                })
                .collect()
        });
        let mut outputs = Vec::with_capacity(count);
        for result in results {
            outputs.extend(result?);
        }
        Ok(tracker.finish(outputs))
    }

    /// How many of `count` operations like `probe` each worker takes: a share per
    /// stream-bound worker of each GPU and one for the CPU worker, sized by the cost
    /// model so that they all finish together (see [`super::plan`]).
    fn plan_shares(
        &self,
        count: usize,
        probe: &Circuit,
        input_bytes: &dyn Fn(Device) -> usize,
    ) -> Vec<(Target, usize)> {
        let stats = probe.stats();
        let model = self.cost_model();
        let mut workers: Vec<(Worker, Device)> = self
            .gpu_indices()
            .into_iter()
            .map(|g| (Worker::Gpu(g), Device::CudaGpu(g)))
            .collect();
        if workers.is_empty() || self.counts.cpu_threads > 0 {
            workers.push((Worker::Cpu, Device::Cpu));
        }
        let costs: Vec<Box<dyn Fn(usize) -> f64>> = workers
            .iter()
            .map(|&(worker, device)| {
                let (model, stats, per_op) = (&model, &stats, input_bytes(device));
                Box::new(move |ops: usize| {
                    model
                        .predict(worker, stats, ops, per_op.saturating_mul(ops), 0)
                        .map_or(f64::INFINITY, |p| p.total().as_secs_f64())
                }) as Box<dyn Fn(usize) -> f64>
            })
            .collect();
        let cost_refs: Vec<&dyn Fn(usize) -> f64> = costs.iter().map(|c| c.as_ref()).collect();
        let mut shares = Vec::new();
        for ((worker, _), n) in workers.iter().zip(plan(count, &cost_refs)) {
            match *worker {
                Worker::Cpu => shares.push((Target::Cpu, n)),
                Worker::Gpu(gpu) => {
                    let position = self
                        .gpu_indices()
                        .iter()
                        .position(|&g| g == gpu)
                        .unwrap_or(0);
                    let streams = self.gpu_workers_count(position);
                    shares.extend(
                        split_even(n, streams)
                            .into_iter()
                            .map(|k| (Target::Gpu(position), k)),
                    );
                }
            }
        }
        shares
    }

    /// Runs the operations `range` on `target`, as circuits of as many operations
    /// as memory allows.
    fn run_share<'a, B>(
        &self,
        target: Target,
        range: Range<usize>,
        circuit: &(dyn Fn(Range<usize>) -> Result<(Vec<CircuitInput<'a>>, B)> + Sync),
        bytes: usize,
        tracker: &Tracker<'_>,
    ) -> Result<Vec<Blocks>>
    where
        B: FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    {
        let mut outputs = Vec::with_capacity(range.len());
        match target {
            Target::Cpu => {
                for chunk in chunks(range, (CPU_CHUNK_BYTES / bytes).max(1)) {
                    outputs.extend(self.run_cpu_chunk(chunk, circuit, tracker)?);
                }
            }
            #[cfg(feature = "gpu")]
            Target::Gpu(position) => {
                let gpu = &self.gpus[position];
                let (free, _) = gpu.key().device().memory_info()?;
                let cap = (free / 2 / gpu.workers() / bytes).max(1);
                for chunk in chunks(range, cap) {
                    outputs.extend(self.run_gpu_chunk(gpu, chunk, circuit, tracker)?);
                }
            }
            #[cfg(not(feature = "gpu"))]
            Target::Gpu(_) => return Err(super::no_gpu_error("a share of a batch")),
        }
        Ok(outputs)
    }

    /// One chunk of a batch as one circuit on the CPU worker.
    fn run_cpu_chunk<'a, B>(
        &self,
        chunk: Range<usize>,
        circuit: &(dyn Fn(Range<usize>) -> Result<(Vec<CircuitInput<'a>>, B)> + Sync),
        tracker: &Tracker<'_>,
    ) -> Result<Vec<Blocks>>
    where
        B: FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    {
        let worker = self.cpu_worker()?;
        let operations = chunk.len();
        let hint = (worker.parallelism_hint() / operations).max(1);
        let (inputs, build) = circuit(chunk)?;
        let circuit = build_circuit(&self.parameters, hint, &inputs, build)?;
        let resident = resident_inputs(&inputs, Blocks::on_cpu)?;
        let refs: Vec<_> = resident.iter().map(|b| b.as_ref()).collect();
        let results = worker.run(|backend| {
            integer::execute_observed(backend, &circuit, &refs, &mut |n| tracker.report(0, n))
        })?;
        tracker.circuit_done(circuit.stats().depth);
        tracker.report(operations, 0);
        Ok(results.into_iter().map(Blocks::Cpu).collect())
    }

    /// One chunk of a batch as one circuit on a leased worker of `gpu`.
    #[cfg(feature = "gpu")]
    fn run_gpu_chunk<'a, B>(
        &self,
        gpu: &super::GpuWorkers,
        chunk: Range<usize>,
        circuit: &(dyn Fn(Range<usize>) -> Result<(Vec<CircuitInput<'a>>, B)> + Sync),
        tracker: &Tracker<'_>,
    ) -> Result<Vec<Blocks>>
    where
        B: FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    {
        let lease = gpu.lease();
        let backend: &crate::backend::cuda::CudaBackend = &lease;
        let operations = chunk.len();
        let hint = (backend.parallelism() / operations).max(1);
        let (inputs, build) = circuit(chunk)?;
        let circuit = build_circuit(&self.parameters, hint, &inputs, build)?;
        let resident = resident_inputs(&inputs, |b| b.on_gpu(backend))?;
        let refs: Vec<_> = resident.iter().map(|b| b.as_ref()).collect();
        let results =
            integer::execute_observed(backend, &circuit, &refs, &mut |n| tracker.report(0, n))?;
        tracker.circuit_done(circuit.stats().depth);
        tracker.report(operations, 0);
        Ok(results.into_iter().map(Blocks::Cuda).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_range_in_order() {
        let got: Vec<_> = chunks(3..10, 3).collect();
        assert_eq!(got, vec![3..6, 6..9, 9..10]);
        assert_eq!(chunks(0..2, 0).count(), 2);
        assert_eq!(chunks(5..5, 4).count(), 0);
    }

    #[test]
    fn progress_fraction_counts_bootstraps() {
        let p = BatchProgress {
            operations_done: 0,
            operations: 2,
            bootstraps_done: 10,
            bootstraps: 40,
        };
        assert_eq!(p.fraction(), 0.25);
        let none = BatchProgress {
            operations_done: 1,
            operations: 2,
            bootstraps_done: 0,
            bootstraps: 0,
        };
        assert_eq!(none.fraction(), 0.5);
    }
}
