//! Splitting a batch of independent operations over workers ([`plan`],
//! [`split_even`]), and the advice built on it ([`CostModel::advise`]): what a
//! workload would cost on the CPU, on the GPUs, and how the dispatcher would split
//! it.
//!
//! The split minimizes the time of the slowest share: given each worker's
//! (non-decreasing) cost of a share of `s` operations, it finds the least makespan
//! `T` at which the workers' largest shares costing at most `T` add up to the batch,
//! then spreads what is left as evenly as those bounds allow. A worker that would
//! only slow the batch down gets nothing.

use super::cost::{format_seconds, CostModel, Prediction, Worker};
use super::speed::Provenance;
use crate::backend::BlockInfo;
use crate::error::{Error, Result};
use crate::integer::{self, BinaryOp, Circuit, CircuitStats, CmpOp, Rhs};
use crate::scheduler::Device;
use crate::shortint::ShortintParameters;
use std::fmt;
use std::time::Duration;

/// Splits `count` independent operations over workers so that the slowest share
/// finishes as early as possible. `costs[i](s)` is worker `i`'s time (any unit) for
/// a share of `s` operations; it must be non-decreasing in `s` (NaN counts as
/// infinite, negative as 0, and a share of 0 costs nothing whatever `costs[i](0)`
/// says). Returns one share per worker, in order, summing to `count` (an empty list
/// when there is no worker). Among the splits of least makespan it spreads the work
/// as evenly as the makespan allows (identical workers differ by at most 1; the
/// extra ones go to the first workers). Deterministic, and about `64 * 64` cost
/// evaluations per worker whatever `count` is.
///
/// ```
/// use gpufhe::scheduler::plan;
/// let cpu = |s: usize| 3.0 * s as f64; // three times slower
/// let gpu = |s: usize| s as f64;
/// assert_eq!(plan(100, &[&cpu, &gpu]), vec![25, 75]);
/// let crawl = |s: usize| 1e9 * s as f64;
/// assert_eq!(plan(100, &[&crawl, &gpu, &gpu]), vec![0, 50, 50]);
/// ```
pub fn plan(count: usize, costs: &[&dyn Fn(usize) -> f64]) -> Vec<usize> {
    if costs.is_empty() {
        return Vec::new();
    }
    let cost = |i: usize, s: usize| -> f64 {
        if s == 0 {
            return 0.0;
        }
        let c = costs[i](s);
        if c.is_nan() {
            f64::INFINITY
        } else {
            c.max(0.0)
        }
    };
    // The largest share of worker i that costs at most t.
    let largest = |i: usize, t: f64| -> usize {
        let (mut lo, mut hi) = (0usize, count);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if cost(i, mid) <= t {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    };
    let capacity = |t: f64| -> usize {
        (0..costs.len()).fold(0usize, |sum, i| sum.saturating_add(largest(i, t)))
    };
    // Non-negative floats are ordered like their bits: search the least feasible
    // makespan among them, up to infinity (always feasible).
    let (mut lo, mut hi) = (0u64, f64::INFINITY.to_bits());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if capacity(f64::from_bits(mid)) >= count {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let makespan = f64::from_bits(lo);
    // Shares that fit strictly below the makespan are given; what is left goes where
    // the makespan leaves room, evenly.
    let mut shares: Vec<usize> = match lo.checked_sub(1) {
        Some(below) => (0..costs.len())
            .map(|i| largest(i, f64::from_bits(below)))
            .collect(),
        None => vec![0; costs.len()],
    };
    let room: Vec<usize> = (0..costs.len())
        .map(|i| largest(i, makespan) - shares[i])
        .collect();
    let given = shares.iter().fold(0usize, |a, &s| a.saturating_add(s));
    let extra = spread(count.saturating_sub(given), &room);
    for (share, e) in shares.iter_mut().zip(extra) {
        *share += e;
    }
    shares
}

/// Seconds `model` predicts for a share of `ops` operations of statistics `per_op`
/// on `worker`, with `bytes_per_op` bytes of inputs copied onto it per operation:
/// the cost function [`plan`] takes for that worker (infinite where the model
/// cannot predict).
pub(crate) fn share_seconds<'m>(
    model: &'m CostModel,
    worker: Worker,
    per_op: &'m CircuitStats,
    bytes_per_op: usize,
) -> impl Fn(usize) -> f64 + 'm {
    move |ops: usize| {
        model
            .predict(worker, per_op, ops, bytes_per_op.saturating_mul(ops), 0)
            .map_or(f64::INFINITY, |p| p.total().as_secs_f64())
    }
}

/// `count` spread over slots of capacity `room` as evenly as the capacities allow
/// (the first slots get one more); less than `count` only if the room runs out.
fn spread(mut count: usize, room: &[usize]) -> Vec<usize> {
    let mut out = vec![0usize; room.len()];
    let mut open: Vec<usize> = (0..room.len()).filter(|&i| room[i] > 0).collect();
    while count > 0 && !open.is_empty() {
        let k = open.len();
        let smallest = open.iter().map(|&i| room[i] - out[i]).min().unwrap_or(0);
        let even = count / k;
        if even >= smallest {
            for &i in &open {
                out[i] += smallest;
            }
            count -= smallest * k;
            open.retain(|&i| room[i] > out[i]);
        } else {
            for (j, &i) in open.iter().enumerate() {
                out[i] += even + usize::from(j < count % k);
            }
            count = 0;
        }
    }
    out
}

/// `count` operations split evenly over `k` workers (a GPU's share over its streams
/// or logical workers): the first `count % k` get one more. Empty if `k` is 0.
///
/// ```
/// use gpufhe::scheduler::split_even;
/// assert_eq!(split_even(10, 4), vec![3, 3, 2, 2]);
/// assert_eq!(split_even(2, 3), vec![1, 1, 0]);
/// ```
pub fn split_even(count: usize, k: usize) -> Vec<usize> {
    (0..k)
        .map(|i| count / k + usize::from(i < count % k))
        .collect()
}

/// The right operand of an operation of a [`Workload`].
// The clear value is the circuits' 2048-bit clear type.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RightOperand {
    /// An encrypted integer of the same width.
    Encrypted,
    /// A clear value (its digits decide some costs: `x + 0` is free).
    Clear(crate::integer::U2048),
}

/// One high-level operation on two integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    /// `lhs op rhs`, an integer.
    Binary(BinaryOp, RightOperand),
    /// `lhs op rhs`, a boolean.
    Comparison(CmpOp, RightOperand),
}

impl Operation {
    /// The right operand.
    ///
    /// ```
    /// use gpufhe::integer::CmpOp;
    /// use gpufhe::scheduler::{Operation, RightOperand};
    /// let eq = Operation::Comparison(CmpOp::Eq, RightOperand::Clear(7u8.into()));
    /// assert_eq!(eq.rhs(), RightOperand::Clear(7u8.into()));
    /// assert_eq!(eq.to_string(), "eq 7");
    /// ```
    pub fn rhs(&self) -> RightOperand {
        match *self {
            Self::Binary(_, rhs) | Self::Comparison(_, rhs) => rhs,
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Self::Binary(op, _) => format!("{op:?}"),
            Self::Comparison(op, _) => format!("{op:?}"),
        }
        .to_lowercase();
        match self.rhs() {
            RightOperand::Encrypted => write!(f, "{name}"),
            RightOperand::Clear(k) => write!(f, "{name} {k}"),
        }
    }
}

/// A batch of identical independent operations to advise on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Workload {
    /// What each operation computes.
    pub operation: Operation,
    /// The width of the integers (8 for `FheUint8`).
    pub bits: u32,
    /// How many operations.
    pub count: usize,
    /// Where the operands live; results are brought back there.
    pub operands: Device,
}

impl Workload {
    /// The circuit statistics of one operation of this workload on blocks of
    /// `params`, built for `parallelism` bootstraps at once (the worker's, see
    /// [`CostModel::parallelism`]). `Err` for a width of 0.
    ///
    /// ```
    /// use gpufhe::integer::BinaryOp;
    /// use gpufhe::scheduler::{Operation, RightOperand, Workload};
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// use gpufhe::Device;
    /// let add = Workload {
    ///     operation: Operation::Binary(BinaryOp::Add, RightOperand::Encrypted),
    ///     bits: 64,
    ///     count: 1,
    ///     operands: Device::Cpu,
    /// };
    /// let stats = add.stats(&DEFAULT_PARAMETERS, 2).unwrap(); // a few cores: ripple carry
    /// assert_eq!((stats.bootstraps, stats.depth), (32, 32));
    /// ```
    pub fn stats(&self, params: &ShortintParameters, parallelism: usize) -> Result<CircuitStats> {
        if self.bits == 0 {
            return Err(Error::InvalidParameter(
                "a workload on integers of 0 bits".into(),
            ));
        }
        let mut c = Circuit::new(*params).with_parallelism(parallelism);
        let fresh = BlockInfo {
            degree: params.message_modulus - 1,
            noise_level: 1,
        };
        let blocks = vec![fresh; self.blocks(params)];
        let lhs = c.add_input(&blocks)?;
        let rhs_wires = match self.operation.rhs() {
            RightOperand::Encrypted => Some(c.add_input(&blocks)?),
            RightOperand::Clear(_) => None,
        };
        let rhs = match (self.operation.rhs(), &rhs_wires) {
            (RightOperand::Clear(k), _) => Rhs::Clear(k),
            (RightOperand::Encrypted, Some(w)) => Rhs::Wires(w),
            (RightOperand::Encrypted, None) => unreachable!("encrypted operands have wires"),
        };
        let out = match self.operation {
            Operation::Binary(op, _) => integer::binary(&mut c, op, &lhs, rhs)?,
            Operation::Comparison(op, _) => vec![integer::comparison(&mut c, op, &lhs, rhs)?],
        };
        c.add_output(&out);
        Ok(c.stats())
    }

    /// Blocks of one integer.
    fn blocks(&self, params: &ShortintParameters) -> usize {
        let message_bits = params.message_modulus.trailing_zeros().max(1);
        self.bits.div_ceil(message_bits) as usize
    }

    /// Bytes of the operands and of the result of one operation.
    fn bytes(&self, params: &ShortintParameters) -> (usize, usize) {
        let block = params.big_lwe_dimension().to_lwe_size().0 * 8;
        let blocks = self.blocks(params);
        let operands = match self.operation.rhs() {
            RightOperand::Encrypted => 2 * blocks,
            RightOperand::Clear(_) => blocks,
        };
        let results = match self.operation {
            Operation::Binary(..) => blocks,
            Operation::Comparison(..) => 1,
        };
        (operands * block, results * block)
    }
}

/// What a [`Workload`] would cost: on the CPU alone, on the GPUs, and split over
/// every worker as the dispatcher would ([`CostModel::advise`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    /// The workload.
    pub workload: Workload,
    /// The statistics of one operation's circuit as built for each worker.
    pub stats: Vec<(Worker, CircuitStats)>,
    /// The whole batch on each worker alone.
    pub alone: Vec<(Worker, Prediction)>,
    /// The whole batch on the CPU alone, if the model has a CPU.
    pub cpu: Option<Prediction>,
    /// The whole batch split over the GPUs only: the compute and transfer of the
    /// slowest share. `None` without GPUs.
    pub gpu: Option<Prediction>,
    /// CPU time over GPU time (both totals), when both exist.
    pub speedup: Option<f64>,
    /// Operations per worker of the dispatcher's split over every worker.
    pub split: Vec<(Worker, usize)>,
    /// The time of that split: its slowest share.
    pub split_time: Duration,
    /// Where the GPU figures come from: modelled if any GPU speed is. `None`
    /// without GPUs.
    pub gpu_provenance: Option<Provenance>,
    /// Where the CPU figures come from; `None` without a CPU.
    pub cpu_provenance: Option<Provenance>,
}

impl CostModel {
    /// What `workload` costs on each worker of this model and how the dispatcher
    /// would split it, from the circuit of one operation built for each worker (with
    /// its [`CostModel::parallelism`]). Operands that live elsewhere than a worker
    /// are copied to it and the results copied back where the operands live (between
    /// two GPUs through the host). `Err` if the model is invalid, has no worker, or
    /// the operands live on a GPU it does not know.
    ///
    /// ```
    /// use gpufhe::integer::CmpOp;
    /// use gpufhe::scheduler::{CostModel, Operation, RightOperand, Worker, Workload};
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// use gpufhe::{Device, GpuIndex};
    /// let model = CostModel::modelled(&DEFAULT_PARAMETERS, 8, &[GpuIndex::new(0)]);
    /// let workload = Workload {
    ///     operation: Operation::Comparison(CmpOp::Lt, RightOperand::Encrypted),
    ///     bits: 64,
    ///     count: 10_000,
    ///     operands: Device::Cpu,
    /// };
    /// let advice = model.advise(&DEFAULT_PARAMETERS, &workload).unwrap();
    /// assert!(advice.speedup.unwrap() > 1.0);
    /// assert_eq!(advice.split.iter().map(|&(_, n)| n).sum::<usize>(), 10_000);
    /// assert!(advice.to_string().contains("modelled"));
    /// ```
    pub fn advise(&self, params: &ShortintParameters, workload: &Workload) -> Result<Advice> {
        self.validate()?;
        let workers = self.workers();
        if workers.is_empty() {
            return Err(Error::InvalidParameter(
                "the cost model has no worker to advise on".into(),
            ));
        }
        if let Device::CudaGpu(gpu) = workload.operands {
            self.gpu(gpu)?;
        }
        let mut stats: Vec<(Worker, CircuitStats)> = Vec::with_capacity(workers.len());
        for &w in &workers {
            let parallelism = self.parallelism(w)?;
            let built = match stats
                .iter()
                .find(|(v, _)| self.parallelism(*v).ok() == Some(parallelism))
            {
                Some((_, s)) => s.clone(),
                None => workload.stats(params, parallelism)?,
            };
            stats.push((w, built));
        }
        let (in_bytes, out_bytes) = workload.bytes(params);
        let time = |i: usize, ops: usize| -> Result<Prediction> {
            let (worker, per_op) = (&stats[i].0, &stats[i].1);
            let bytes_in = in_bytes.saturating_mul(ops);
            let bytes_out = out_bytes.saturating_mul(ops);
            let here = match worker {
                Worker::Cpu => Device::Cpu,
                Worker::Gpu(g) => Device::CudaGpu(*g),
            };
            if here == workload.operands {
                return self.predict(*worker, per_op, ops, 0, 0);
            }
            let (to_worker, from_worker) = match worker {
                Worker::Cpu => (0, 0),
                Worker::Gpu(_) => (bytes_in, bytes_out),
            };
            let mut p = self.predict(*worker, per_op, ops, to_worker, from_worker)?;
            if let Device::CudaGpu(source) = workload.operands {
                // Down from the operands' GPU, and the results back up to it.
                let extra = self.transfer(source, bytes_out, bytes_in)?;
                p.transfer = p.transfer.saturating_add(extra);
            }
            Ok(p)
        };
        let seconds = |i: usize| {
            move |ops: usize| time(i, ops).map_or(f64::INFINITY, |p| p.total().as_secs_f64())
        };
        let alone = (0..workers.len())
            .map(|i| Ok((workers[i], time(i, workload.count)?)))
            .collect::<Result<Vec<_>>>()?;
        let cpu = alone
            .iter()
            .find(|(w, _)| *w == Worker::Cpu)
            .map(|&(_, p)| p);

        // Over the GPUs only, then over every worker.
        let split_over = |ids: &[usize]| -> Result<(Vec<usize>, Prediction)> {
            let fns: Vec<Box<dyn Fn(usize) -> f64 + '_>> = ids
                .iter()
                .map(|&i| Box::new(seconds(i)) as Box<_>)
                .collect();
            let refs: Vec<&dyn Fn(usize) -> f64> = fns.iter().map(|f| f.as_ref()).collect();
            let shares = plan(workload.count, &refs);
            let mut slowest = Prediction::default();
            for (&i, &s) in ids.iter().zip(&shares) {
                let p = time(i, s)?;
                if s > 0 && p.total() >= slowest.total() {
                    slowest = p;
                }
            }
            Ok((shares, slowest))
        };
        let gpu_ids: Vec<usize> = (0..workers.len())
            .filter(|&i| workers[i] != Worker::Cpu)
            .collect();
        let gpu = if gpu_ids.is_empty() {
            None
        } else {
            Some(split_over(&gpu_ids)?.1)
        };
        let all: Vec<usize> = (0..workers.len()).collect();
        let (shares, slowest) = split_over(&all)?;
        let speedup = match (cpu, gpu) {
            (Some(c), Some(g)) if g.total() > Duration::ZERO => {
                Some(c.total().as_secs_f64() / g.total().as_secs_f64())
            }
            _ => None,
        };
        let gpu_provenance =
            self.gpus
                .iter()
                .map(|g| g.provenance)
                .fold(None, |acc, p| match (acc, p) {
                    (Some(Provenance::Modelled), _) | (_, Provenance::Modelled) => {
                        Some(Provenance::Modelled)
                    }
                    _ => Some(Provenance::Measured),
                });
        Ok(Advice {
            workload: *workload,
            stats,
            alone,
            cpu,
            gpu,
            speedup,
            split: workers.iter().copied().zip(shares).collect(),
            split_time: slowest.total(),
            gpu_provenance,
            cpu_provenance: self.cpu.as_ref().map(|c| c.provenance),
        })
    }
}

impl Advice {
    /// The header line of the table [`Advice`]'s `Display` rows fit in.
    ///
    /// ```
    /// use gpufhe::scheduler::Advice;
    /// assert!(Advice::header().contains("speedup"));
    /// ```
    pub fn header() -> String {
        format!(
            "{:<20} {:>6} {:>9} | {:>10} | {:>10} {:>10} | {:>9} | split (ops per worker) in its time",
            "operation", "count", "PBS/op", "CPU", "GPU", "transfer", "speedup"
        )
    }
}

impl fmt::Display for Advice {
    /// One table row (see [`Advice::header`]); GPU figures from a modelled speed
    /// carry "(modelled)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = &self.workload;
        let name = format!("FheUint{} {}", w.bits, w.operation);
        // Bootstraps of one operation: on the CPU / on the first GPU when they differ.
        let cpu_pbs = self.stats.iter().find(|(w, _)| *w == Worker::Cpu);
        let gpu_pbs = self.stats.iter().find(|(w, _)| *w != Worker::Cpu);
        let pbs = match (cpu_pbs, gpu_pbs) {
            (Some((_, c)), Some((_, g))) if c.bootstraps != g.bootstraps => {
                format!("{}/{}", c.bootstraps, g.bootstraps)
            }
            (Some((_, s)), _) | (None, Some((_, s))) => s.bootstraps.to_string(),
            (None, None) => "-".into(),
        };
        let time = |d: Duration| format_seconds(d.as_secs_f64());
        let cpu = self.cpu.map_or("-".into(), |p| time(p.total()));
        let (gpu, transfer) = self.gpu.map_or(("-".into(), "-".into()), |p| {
            (time(p.compute), time(p.transfer))
        });
        let speedup = self.speedup.map_or("-".into(), |s| format!("{s:.2}x"));
        let split: Vec<String> = self
            .split
            .iter()
            .map(|(worker, n)| format!("{worker}: {n}"))
            .collect();
        write!(
            f,
            "{name:<20} {:>6} {pbs:>9} | {cpu:>10} | {gpu:>10} {transfer:>10} | {speedup:>9} | {} in {}",
            w.count,
            split.join(", "),
            time(self.split_time)
        )?;
        if self.gpu_provenance == Some(Provenance::Modelled) {
            write!(f, " (GPU modelled)")?;
        }
        if self.cpu_provenance == Some(Provenance::Modelled) {
            write!(f, " (CPU modelled)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreading_respects_room_and_is_even() {
        assert_eq!(spread(10, &[100, 100, 100]), vec![4, 3, 3]);
        assert_eq!(spread(10, &[1, 100, 100]), vec![1, 5, 4]);
        assert_eq!(spread(10, &[0, 2, 3]), vec![0, 2, 3]);
        assert_eq!(spread(0, &[5]), vec![0]);
        assert_eq!(
            spread(usize::MAX, &[usize::MAX, usize::MAX])
                .iter()
                .fold(0usize, |a, &b| a.saturating_add(b)),
            usize::MAX
        );
    }

    #[test]
    fn flat_costs_are_shared_evenly() {
        // A GPU whose launch takes as long for 1 as for 1000.
        let flat = |s: usize| {
            if s <= 1000 {
                3.5
            } else {
                3.5 * s as f64 / 1000.0
            }
        };
        assert_eq!(plan(50, &[&flat, &flat]), vec![25, 25]);
        assert_eq!(plan(0, &[&flat, &flat]), vec![0, 0]);
        let zero = |_: usize| 0.0;
        assert_eq!(plan(7, &[&zero, &zero, &zero]), vec![3, 2, 2]);
    }
}
