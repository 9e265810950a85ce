//! Batches of independent operations: split into shares over the workers by the
//! cost model, each share recorded as circuits of as many operations as memory
//! allows (one bootstrap launch per layer), run concurrently, gathered in order.
//!
//! [`crate::ServerKey::run_batch`] drives it: it records the first operation to
//! learn its cost and size ([`Scheduler::plan_batch`]), records each chunk of the
//! plan, then runs them all ([`Scheduler::run_chunks`]).

use super::{plan, share_seconds, split_even, Blocks, Device, Scheduler, Worker};
use crate::error::{Error, Result};
use crate::integer::Circuit;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Host memory one chunk of a batch may fill with the blocks of its circuit on the
/// CPU (inputs and every layer's outputs stay alive until the circuit ends).
const CPU_CHUNK_BYTES: usize = 1 << 30;

/// Where a circuit runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// The CPU worker.
    Cpu,
    /// A stream-bound worker of the GPU at this position among the key's GPUs.
    Gpu(usize),
}

/// How far a batch is, as told to a progress callback (see
/// [`crate::ServerKey::run_batch_with_progress`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchProgress {
    /// Operations whose circuits have finished.
    pub operations_done: usize,
    /// Operations in the batch.
    pub operations: usize,
    /// Bootstraps run so far, counted as each bootstrap layer finishes.
    pub bootstraps_done: u64,
    /// Bootstraps of the whole batch.
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

/// A progress callback, called from the threads running the batch.
pub(crate) type Progress<'p> = Option<&'p (dyn Fn(BatchProgress) + Sync)>;

/// A recorded chunk of a batch, ready to run.
pub(crate) struct Chunk {
    /// Where it runs.
    pub(crate) target: Target,
    /// Its circuit.
    pub(crate) circuit: Circuit,
    /// The encrypted blocks it reads, in circuit input order.
    pub(crate) inputs: Vec<Blocks>,
    /// The operations it holds.
    pub(crate) operations: usize,
}

/// What running the chunks of a batch gave.
pub(crate) struct BatchRun {
    /// The outputs of each chunk, in chunk order.
    pub(crate) outputs: Vec<Vec<Blocks>>,
    /// Their bootstrap layers, summed.
    pub(crate) layers: usize,
}

/// The progress of one batch, shared by the threads running its chunks.
struct Tracker<'p> {
    callback: Progress<'p>,
    operations: usize,
    bootstraps: u64,
    operations_done: AtomicUsize,
    bootstraps_done: AtomicU64,
}

impl Tracker<'_> {
    fn report(&self, operations: usize, bootstraps: usize) {
        let Some(callback) = self.callback else {
            return;
        };
        let operations_done =
            self.operations_done.fetch_add(operations, Ordering::AcqRel) + operations;
        let bootstraps = bootstraps as u64;
        let bootstraps_done =
            self.bootstraps_done.fetch_add(bootstraps, Ordering::AcqRel) + bootstraps;
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

/// Bytes of blocks `operations` operations of `circuit` keep alive while it runs:
/// inputs, every bootstrap output (up to two functions each) and outputs.
fn bytes_per_operation(circuit: &Circuit, operations: usize) -> usize {
    let lwe = circuit.parameters().big_lwe_dimension().to_lwe_size().0 * 8;
    let inputs: usize = circuit.inputs().iter().map(Vec::len).sum();
    let outputs: usize = circuit.outputs().iter().map(Vec::len).sum();
    let blocks = inputs + outputs + 2 * circuit.stats().bootstraps;
    (blocks.div_ceil(operations.max(1))).max(1) * lwe
}

impl Scheduler {
    /// The parallelism hint for the first operation of a batch of `count`
    /// (recorded before the plan exists): as if spread evenly over the workers.
    pub(crate) fn batch_parallelism(&self, count: usize) -> Result<usize> {
        let gpus = self.gpu_indices().len();
        if gpus == 0 {
            return self.parallelism(Target::Cpu, count);
        }
        let workers = gpus * self.gpu_workers_count(0).max(1);
        self.parallelism(Target::Gpu(0), count.div_ceil(workers))
    }

    /// The chunks `count` operations like the one recorded in `probe` are run as:
    /// consecutive ranges, each with its target, in order. Shares come from the cost
    /// model (see [`super::plan`]), a GPU's split evenly over its stream-bound
    /// workers; each share is cut into chunks that fit in memory.
    /// `input_bytes(device)` is what one operation's inputs need to move to reach
    /// `device`.
    pub(crate) fn plan_batch(
        &self,
        count: usize,
        probe: &Circuit,
        input_bytes: &dyn Fn(Device) -> usize,
    ) -> Result<Vec<(Target, Range<usize>)>> {
        let bytes = bytes_per_operation(probe, 1);
        let mut start = 0;
        let mut chunked = Vec::new();
        for (target, n) in self.plan_shares(count, probe, input_bytes) {
            let cap = match target {
                Target::Cpu => CPU_CHUNK_BYTES / bytes,
                Target::Gpu(position) => {
                    let gpu = &self.gpus[position];
                    let (free, _) = gpu.key().device().memory_info()?;
                    free / 2 / gpu.workers() / bytes
                }
            };
            chunked.extend(chunks(start..start + n, cap).map(|range| (target, range)));
            start += n;
        }
        Ok(chunked)
    }

    /// How many of `count` operations like `probe` each worker takes: one share
    /// per stream-bound worker of each GPU and one for the CPU worker, sized by the
    /// cost model so that they all finish together.
    fn plan_shares(
        &self,
        count: usize,
        probe: &Circuit,
        input_bytes: &dyn Fn(Device) -> usize,
    ) -> Vec<(Target, usize)> {
        let stats = probe.stats();
        let model = self.cost_model();
        let gpus = self.gpu_indices();
        let mut workers: Vec<(Worker, Device)> = gpus
            .iter()
            .map(|&g| (Worker::Gpu(g), Device::CudaGpu(g)))
            .collect();
        if workers.is_empty() || self.cpu_threads() > 0 {
            workers.push((Worker::Cpu, Device::Cpu));
        }
        let costs: Vec<Box<dyn Fn(usize) -> f64 + '_>> = workers
            .iter()
            .map(|&(worker, device)| {
                Box::new(share_seconds(&model, worker, &stats, input_bytes(device)))
                    as Box<dyn Fn(usize) -> f64>
            })
            .collect();
        let cost_refs: Vec<&dyn Fn(usize) -> f64> = costs.iter().map(|c| c.as_ref()).collect();
        let mut shares = Vec::new();
        for ((worker, _), n) in workers.iter().zip(plan(count, &cost_refs)) {
            match *worker {
                Worker::Cpu => shares.push((Target::Cpu, n)),
                Worker::Gpu(gpu) => {
                    let position = gpus.iter().position(|&g| g == gpu).unwrap_or(0);
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

    /// Runs recorded chunks concurrently, each on a thread of its own (the CPU pool
    /// and the GPUs' stream leases bound how many compute at once); returns their
    /// outputs in chunk order. `progress` hears of every bootstrap layer and chunk.
    pub(crate) fn run_chunks(
        &self,
        chunks: Vec<Chunk>,
        progress: Progress<'_>,
    ) -> Result<BatchRun> {
        let tracker = Tracker {
            callback: progress,
            operations: chunks.iter().map(|c| c.operations).sum(),
            bootstraps: chunks
                .iter()
                .map(|c| c.circuit.stats().bootstraps as u64)
                .sum(),
            operations_done: AtomicUsize::new(0),
            bootstraps_done: AtomicU64::new(0),
        };
        let layers = chunks.iter().map(|c| c.circuit.stats().depth).sum();
        let tracker = &tracker;
        let results: Vec<Result<Vec<Blocks>>> = std::thread::scope(|scope| {
            let running: Vec<_> = chunks
                .iter()
                .map(|chunk| {
                    std::thread::Builder::new()
                        .name("gpufhe-chunk".into())
                        .spawn_scoped(scope, move || {
                            let outputs = self.run_circuit(
                                chunk.target,
                                &chunk.circuit,
                                &chunk.inputs,
                                &mut |n| tracker.report(0, n),
                            )?;
                            tracker.report(chunk.operations, 0);
                            Ok(outputs)
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
                        "could not start a thread for a chunk of the batch: {e}"
                    ))),
                })
                .collect()
        });
        Ok(BatchRun {
            outputs: results.into_iter().collect::<Result<_>>()?,
            layers,
        })
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
