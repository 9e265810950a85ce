//! Batches of independent operations: split into shares over the workers, each
//! share run as one circuit per chunk (one bootstrap launch per layer), chunks
//! capped by memory, results gathered in input order.

use super::{build_circuit, resident_inputs, Blocks, CircuitInput, Scheduler};
#[cfg(feature = "gpu")]
use crate::backend::Backend;
#[cfg(feature = "gpu")]
use crate::error::Error;
use crate::error::Result;
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

/// Consecutive shares of `count` operations, the `i`-th of `weights[i]` parts of
/// the total (at least 1 in all): largest remainders go to the first workers.
pub(crate) fn weighted_shares(count: usize, weights: &[usize]) -> Vec<Range<usize>> {
    let total: u128 = weights.iter().map(|&w| w as u128).sum();
    if total == 0 {
        return Vec::new();
    }
    let mut sizes: Vec<usize> = weights
        .iter()
        .map(|&w| (count as u128 * w as u128 / total) as usize)
        .collect();
    let mut left = count - sizes.iter().sum::<usize>();
    for (size, &w) in sizes.iter_mut().zip(weights) {
        if left == 0 {
            break;
        }
        if w > 0 {
            *size += 1;
            left -= 1;
        }
    }
    let mut start = 0;
    sizes
        .into_iter()
        .map(|n| {
            start += n;
            start - n..start
        })
        .collect()
}

/// `range` cut into consecutive chunks of at most `cap` operations.
pub(crate) fn chunks(range: Range<usize>, cap: usize) -> impl Iterator<Item = Range<usize>> {
    let cap = cap.max(1);
    range
        .clone()
        .step_by(cap)
        .map(move |start| start..(start + cap).min(range.end))
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
        #[cfg(feature = "gpu")]
        if !self.gpus.is_empty() {
            let outputs = self.run_batch_on_gpus(count, circuit, bytes, &tracker)?;
            return Ok(tracker.finish(outputs));
        }
        let cap = (CPU_CHUNK_BYTES / bytes).max(1);
        let mut outputs = Vec::new();
        for chunk in chunks(0..count, cap) {
            outputs.extend(self.run_cpu_chunk(chunk, circuit, &tracker)?);
        }
        Ok(tracker.finish(outputs))
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

    /// A batch over the GPUs: an even share per GPU (they are alike), split over
    /// its stream-bound workers, each running on a thread of its own.
    #[cfg(feature = "gpu")]
    fn run_batch_on_gpus<'a, B>(
        &self,
        count: usize,
        circuit: &(dyn Fn(Range<usize>) -> Result<(Vec<CircuitInput<'a>>, B)> + Sync),
        bytes: usize,
        tracker: &Tracker<'_>,
    ) -> Result<Vec<Blocks>>
    where
        B: FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    {
        // One share per logical worker, in GPU order.
        let mut owners = Vec::new();
        for gpu in &self.gpus {
            owners.extend(std::iter::repeat_n(gpu, gpu.workers()));
        }
        let shares = weighted_shares(count, &vec![1; owners.len()]);
        let results: Vec<Result<Vec<Blocks>>> = std::thread::scope(|scope| {
            let running: Vec<_> = shares
                .into_iter()
                .zip(&owners)
                .filter(|(share, _)| !share.is_empty())
                .map(|(share, gpu)| {
                    std::thread::Builder::new()
                        .name("gpufhe-gpu-share".into())
                        .spawn_scoped(scope, move || {
                            let (free, _) = gpu.key().device().memory_info()?;
                            let cap = (free / 2 / gpu.workers() / bytes).max(1);
                            let mut outputs = Vec::new();
                            for chunk in chunks(share, cap) {
                                outputs.extend(self.run_gpu_chunk(gpu, chunk, circuit, tracker)?);
                            }
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
                        "could not start a thread for a share of the batch: {e}"
                    ))),
                })
                .collect()
        });
        let mut outputs = Vec::new();
        for result in results {
            outputs.extend(result?);
        }
        Ok(outputs)
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
    fn weighted_shares_are_consecutive_and_proportional() {
        assert_eq!(weighted_shares(10, &[1, 1, 1]), vec![0..4, 4..7, 7..10]);
        assert_eq!(weighted_shares(8, &[3, 1]), vec![0..6, 6..8]);
        assert_eq!(
            weighted_shares(2, &[1, 1, 1, 1]),
            vec![0..1, 1..2, 2..2, 2..2]
        );
        assert_eq!(weighted_shares(5, &[0, 1]), vec![0..0, 0..5]);
        assert!(weighted_shares(5, &[0, 0]).is_empty());
        assert!(weighted_shares(5, &[]).is_empty());
        let big = weighted_shares(usize::MAX, &[usize::MAX / 2, usize::MAX / 2]);
        assert_eq!(big.last().map(|r| r.end), Some(usize::MAX));
    }

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
