//! How a batch is split over the processes of a cluster: as if every worker of
//! every process (its CPU worker, its GPUs) were one machine's, by the speeds each
//! process calibrated, so that the slowest share ends as early as possible; a
//! process's share is what its workers get. Each process then splits its share
//! over its own workers again with the same speeds, so the two agree.

use crate::error::{Error, Result};
use crate::integer::CircuitStats;
use crate::scheduler::{plan, CostModel, Worker};
use std::time::Duration;

/// One process's part of a batch, as planned.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ProcessShare {
    /// Operations it computes.
    pub(crate) operations: usize,
    /// The time its calibration predicts for them (its slowest worker's).
    pub(crate) predicted: Duration,
}

/// Splits `count` operations of statistics `per_op` over processes of cost models
/// `processes` (a GPU worker also copies `input_bytes` per operation onto its GPU);
/// one share per process, in order, summing to `count`. `Err` if a model is invalid
/// or has no worker.
pub(crate) fn split_over_processes(
    count: usize,
    per_op: &CircuitStats,
    input_bytes: usize,
    processes: &[CostModel],
) -> Result<Vec<ProcessShare>> {
    let mut workers: Vec<(usize, &CostModel, Worker)> = Vec::new();
    for (p, model) in processes.iter().enumerate() {
        model.validate()?;
        let own = model.workers();
        if own.is_empty() {
            return Err(Error::InvalidParameter(format!(
                "process {p} has no worker to compute with"
            )));
        }
        workers.extend(own.into_iter().map(|w| (p, model, w)));
    }
    let costs: Vec<_> = workers
        .iter()
        .map(|&(_, model, worker)| {
            let bytes = match worker {
                Worker::Cpu => 0,
                Worker::Gpu(_) => input_bytes,
            };
            crate::scheduler::share_seconds(model, worker, per_op, bytes)
        })
        .collect();
    let refs: Vec<&dyn Fn(usize) -> f64> = costs.iter().map(|c| c as _).collect();
    let shares = plan(count, &refs);
    let mut out = vec![
        ProcessShare {
            operations: 0,
            predicted: Duration::ZERO,
        };
        processes.len()
    ];
    for (((p, _, _), cost), n) in workers.iter().zip(&costs).zip(shares) {
        let share = &mut out[*p];
        share.operations += n;
        if n > 0 {
            let seconds = Duration::try_from_secs_f64(cost(n)).unwrap_or(Duration::MAX);
            share.predicted = share.predicted.max(seconds);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheduler::{CpuSpeed, Provenance};
    use crate::shortint::DEFAULT_PARAMETERS;
    use crate::GpuIndex;

    fn cpu(threads: usize, seconds: f64) -> CostModel {
        CostModel {
            cpu: Some(CpuSpeed {
                threads,
                seconds_per_bootstrap_one_core: seconds,
                seconds_per_bootstrap_batched: seconds,
                provenance: Provenance::Measured,
            }),
            ..CostModel::default()
        }
    }

    /// A 64-bit addition on a few cores: 32 layers of one bootstrap.
    fn add() -> CircuitStats {
        CircuitStats {
            bootstraps: 32,
            depth: 32,
            per_layer: vec![1; 32],
        }
    }

    #[test]
    fn shares_follow_the_calibrated_speeds() {
        // One thread each; the second process is twice as fast.
        let split = split_over_processes(30, &add(), 0, &[cpu(1, 0.02), cpu(1, 0.01)]).unwrap();
        let ops: Vec<usize> = split.iter().map(|s| s.operations).collect();
        assert_eq!(ops, [10, 20]);
        // Both take 10 * 32 * 20 ms = 20 * 32 * 10 ms = 6.4 s.
        for share in &split {
            assert!(
                (share.predicted.as_secs_f64() - 6.4).abs() < 1e-9,
                "{share:?}"
            );
        }
        // Two threads count twice.
        let split = split_over_processes(9, &add(), 0, &[cpu(2, 0.01), cpu(1, 0.01)]).unwrap();
        assert_eq!(split.iter().map(|s| s.operations).sum::<usize>(), 9);
        assert_eq!(split[0].operations, 6);
    }

    #[test]
    fn a_gpu_process_takes_most_and_empty_shares_predict_nothing() {
        let gpu = CostModel::modelled(&DEFAULT_PARAMETERS, 0, &[GpuIndex::new(0)]);
        let split = split_over_processes(1000, &add(), 1 << 20, &[cpu(2, 0.03), gpu]).unwrap();
        assert_eq!(split[0].operations + split[1].operations, 1000);
        assert!(split[1].operations > 900, "{split:?}");
        let none = split_over_processes(0, &add(), 0, &[cpu(1, 0.01), cpu(1, 0.01)]).unwrap();
        assert!(none
            .iter()
            .all(|s| s.operations == 0 && s.predicted == Duration::ZERO));
    }

    #[test]
    fn a_process_without_workers_is_an_error() {
        let err =
            split_over_processes(4, &add(), 0, &[cpu(1, 0.01), CostModel::default()]).unwrap_err();
        assert!(err.to_string().contains("process 1"), "{err}");
        assert!(split_over_processes(4, &add(), 0, &[cpu(1, f64::NAN)]).is_err());
    }
}
