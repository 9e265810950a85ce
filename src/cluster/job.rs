//! The job: a batch spread over the processes of an MPI job (see [`super`]): the
//! plan, the shares, the reports and the verdict, every message checked.

use super::transport::{broadcast_bytes, receive_bytes, send_bytes, ROOT};
use super::wire::{
    decode, encode, read_values, short, values_limit, write_values, Failure, Plan, Report,
    ShareDone, Speed, Verdict,
};
use super::{ClusterValue, MESSAGE_SIZE_LIMIT};
use crate::error::{Error, Result};
use crate::high_level::{BatchOutput, CompressedServerKey, ServerKey};
use crate::scheduler::{Calibration, CalibrationOptions, CostModel, SchedulerConfig};
use crate::serialization::{safe_deserialize, safe_serialize, ConformanceParams};
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::Communicator;
use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

/// The most bytes the compressed server key may take on the wire or in a key
/// file: 4 GiB.
pub const KEY_SIZE_LIMIT: u64 = 1 << 32;

/// This process's place in an MPI job. One per process: MPI is initialized by
/// [`Cluster::init`] and finalized when the `Cluster` is dropped.
pub struct Cluster {
    // Dropped before the universe, which finalizes MPI.
    world: SimpleCommunicator,
    _universe: Universe,
    rank: usize,
    size: usize,
    host: String,
}

impl fmt::Debug for Cluster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cluster")
            .field("rank", &self.rank)
            .field("size", &self.size)
            .field("host", &self.host)
            .finish()
    }
}

/// Where the processes get the compressed server key from. Every process must
/// pass the same variant (MPI matches the calls of all processes).
#[derive(Debug, Clone, Copy)]
pub enum KeySource<'a> {
    /// Rank 0's key, broadcast to every process: `Some` on rank 0, `None` (ignored)
    /// elsewhere.
    Broadcast(Option<&'a CompressedServerKey>),
    /// A file every process can read (a shared file system), written with
    /// [`safe_serialize`].
    File(&'a Path),
}

/// A process of the job, as rank 0 knows it after [`Cluster::load_key`].
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessInfo {
    /// Its rank.
    pub rank: usize,
    /// Its host (MPI's processor name).
    pub host: String,
    /// The speeds it measured.
    pub calibration: Calibration,
    /// Whether its CPU worker computes beside its GPUs (always on a CPU key).
    pub cpu_computes: bool,
}

impl ProcessInfo {
    /// The cost model its shares are planned with: its calibration, less the CPU
    /// worker if that does not compute.
    pub fn cost_model(&self) -> CostModel {
        let mut model = self.calibration.cost_model();
        if !self.cpu_computes {
            model.cpu = None;
        }
        model
    }
}

impl fmt::Display for ProcessInfo {
    /// `rank R on HOST:` then one line per worker.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "rank {} on {}:", self.rank, self.host)?;
        for line in self.cost_model().to_string().lines() {
            writeln!(f, "  {line}")?;
        }
        Ok(())
    }
}

/// One process's part of a batch: what it was given, what its calibration
/// predicted, and how long its local batch took.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessTiming {
    /// Its rank.
    pub rank: usize,
    /// Its host.
    pub host: String,
    /// Operations it computed.
    pub operations: usize,
    /// The time its calibration predicted for them.
    pub predicted: Duration,
    /// The time its local batch took (decryption-free: from its items to its
    /// results, without the network).
    pub compute: Duration,
}

impl ProcessTiming {
    /// Operations per second of its local batch (0 without operations).
    ///
    /// ```
    /// use gpufhe::cluster::ProcessTiming;
    /// use std::time::Duration;
    /// let t = ProcessTiming {
    ///     rank: 1,
    ///     host: "node1".into(),
    ///     operations: 10,
    ///     predicted: Duration::from_secs(4),
    ///     compute: Duration::from_secs(5),
    /// };
    /// assert_eq!(t.operations_per_second(), 2.0);
    /// ```
    pub fn operations_per_second(&self) -> f64 {
        let seconds = self.compute.as_secs_f64();
        if self.operations == 0 || seconds <= 0.0 {
            0.0
        } else {
            self.operations as f64 / seconds
        }
    }
}

/// What [`ClusterServerKey::run_batch`] returns.
#[derive(Debug)]
pub struct ClusterBatch<R> {
    /// On rank 0, one result per item in item order; empty elsewhere.
    pub results: Vec<R>,
    /// On rank 0, every process's part, by rank; elsewhere, only its own.
    pub processes: Vec<ProcessTiming>,
}

/// The server key of every process of a job, with each process's calibration
/// known to rank 0 ([`Cluster::load_key`]).
#[derive(Debug)]
pub struct ClusterServerKey<'c> {
    cluster: &'c Cluster,
    key: ServerKey,
    processes: Vec<ProcessInfo>,
}

impl Cluster {
    /// Initializes MPI and joins the job (a process started without `mpirun` is a
    /// job of one). `Err` if MPI was already initialized in this process, or
    /// finalized by dropping an earlier `Cluster`.
    pub fn init() -> Result<Self> {
        let (universe, _) =
            mpi::initialize_with_threading(mpi::Threading::Funneled).ok_or_else(|| {
                Error::InvalidParameter(
                    "MPI was already initialized (or finalized) in this process: create \
                     one Cluster per process"
                        .into(),
                )
            })?;
        let world = universe.world();
        let rank = usize::try_from(world.rank()).unwrap_or(0);
        let size = usize::try_from(world.size()).unwrap_or(1).max(1);
        let host = mpi::environment::processor_name().unwrap_or_else(|_| "unknown host".into());
        Ok(Self {
            world,
            _universe: universe,
            rank,
            size,
            host,
        })
    }

    /// This process's rank, from 0.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The number of processes in the job.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether this is rank 0: the one that holds the inputs and gets the results.
    pub fn is_root(&self) -> bool {
        self.rank == ROOT as usize
    }

    /// This process's host (MPI's processor name).
    pub fn host(&self) -> &str {
        &self.host
    }

    /// Gives every process the server key: each gets the compressed key from
    /// `source`, decompresses it with `config` (its own GPUs or CPU, as on one
    /// machine), calibrates its workers with `options` ([`Calibration::measure_with`])
    /// and uses the calibration for its own batches; rank 0 gathers every
    /// calibration. Every process must call it. `Err` on every process, naming the
    /// first failed rank, if any process fails.
    pub fn load_key(
        &self,
        source: KeySource<'_>,
        config: &SchedulerConfig,
        options: &CalibrationOptions,
    ) -> Result<ClusterServerKey<'_>> {
        let outcome = self.local_key(source, config, options);
        let report = Report {
            host: self.host.clone(),
            outcome: outcome
                .as_ref()
                .map(|(_, speed)| speed.clone())
                .map_err(|e| short(e.to_string())),
        };
        let mut failures = Vec::new();
        let mut processes = Vec::new();
        for (rank, bytes) in self.gather(encode_or_error(&report), |_| MESSAGE_SIZE_LIMIT) {
            let from = format!("rank {rank}");
            match bytes.and_then(|b| decode_all::<Report<Speed>>(&b, &from)) {
                Ok(Report {
                    host,
                    outcome: Ok(speed),
                }) => processes.push(ProcessInfo {
                    rank,
                    host,
                    calibration: speed.calibration,
                    cpu_computes: speed.cpu_computes,
                }),
                Ok(Report {
                    host,
                    outcome: Err(message),
                }) => failures.push(Failure {
                    rank,
                    host,
                    message,
                }),
                Err(e) => failures.push(unreadable(rank, e)),
            }
        }
        self.conclude("loading the server key", failures)?;
        let (key, speed) = outcome?;
        if !self.is_root() {
            processes = vec![ProcessInfo {
                rank: self.rank,
                host: self.host.clone(),
                calibration: speed.calibration,
                cpu_computes: speed.cpu_computes,
            }];
        }
        Ok(ClusterServerKey {
            cluster: self,
            key,
            processes,
        })
    }

    /// This process's key from `source`, decompressed and calibrated.
    fn local_key(
        &self,
        source: KeySource<'_>,
        config: &SchedulerConfig,
        options: &CalibrationOptions,
    ) -> Result<(ServerKey, Speed)> {
        let compressed = match source {
            KeySource::Broadcast(key) => self.broadcast_key(key)?,
            KeySource::File(path) => {
                let file = std::fs::File::open(path).map_err(|e| {
                    Error::Serialization(format!("cannot open the key {}: {e}", path.display()))
                })?;
                safe_deserialize(std::io::BufReader::new(file), KEY_SIZE_LIMIT)
                    .map_err(|e| Error::Serialization(format!("the key {}: {e}", path.display())))?
            }
        };
        let key = compressed.decompress_with(config)?;
        let calibration = Calibration::measure_with(&key, options)?;
        key.use_calibration(&calibration)?;
        let cpu_computes = key.gpus().is_empty() || key.scheduler().cpu_threads() > 0;
        Ok((
            key,
            Speed {
                calibration,
                cpu_computes,
            },
        ))
    }

    /// Rank 0's `key`, broadcast; every process takes part even if rank 0 has no
    /// key to send (it then sends nothing and reports why).
    fn broadcast_key(&self, key: Option<&CompressedServerKey>) -> Result<CompressedServerKey> {
        if !self.is_root() {
            let bytes = broadcast_bytes(&self.world, None, KEY_SIZE_LIMIT)?;
            return safe_deserialize(bytes.as_slice(), KEY_SIZE_LIMIT).map_err(|e| {
                Error::Serialization(format!("the server key broadcast by rank {ROOT}: {e}"))
            });
        }
        let serialized = key
            .ok_or_else(|| {
                Error::InvalidParameter(
                    "rank 0 must pass its key: KeySource::Broadcast(Some(&key))".into(),
                )
            })
            .and_then(|key| {
                let mut bytes = Vec::new();
                safe_serialize(key, &mut bytes, KEY_SIZE_LIMIT)?;
                Ok((key, bytes))
            });
        match serialized {
            Ok((key, bytes)) => {
                broadcast_bytes(&self.world, Some(bytes), KEY_SIZE_LIMIT)?;
                Ok(key.clone())
            }
            Err(e) => {
                broadcast_bytes(&self.world, Some(Vec::new()), KEY_SIZE_LIMIT)?;
                Err(e)
            }
        }
    }

    /// Sends `mine` to rank 0. On rank 0, every process's message by rank (its own
    /// first, as given), each read within `limit(rank)` bytes; elsewhere, nothing.
    fn gather(&self, mine: Vec<u8>, limit: impl Fn(usize) -> u64) -> Vec<(usize, Result<Vec<u8>>)> {
        if !self.is_root() {
            send_bytes(&self.world, ROOT, &mine);
            return Vec::new();
        }
        let mut all = vec![(0, Ok(mine))];
        for rank in 1..self.size {
            all.push((rank, receive_bytes(&self.world, rank as i32, limit(rank))));
        }
        all
    }

    /// Ends a phase: rank 0 tells every process the `failures` it found; `Err` on
    /// every process, naming the first failed rank, if there is one.
    fn conclude(&self, phase: &str, failures: Vec<Failure>) -> Result<()> {
        let bytes = self
            .is_root()
            .then(|| encode_or_error(&Verdict { failures }));
        let verdict = broadcast_bytes(&self.world, bytes, MESSAGE_SIZE_LIMIT)
            .and_then(|b| decode_all::<Verdict>(&b, "rank 0"));
        match verdict {
            Ok(verdict) => verdict.into_result(phase),
            Err(e) => Err(Error::Cluster {
                rank: ROOT as usize,
                host: UNKNOWN_HOST.into(),
                message: format!("{phase}: {e}"),
            }),
        }
    }
}

impl ClusterServerKey<'_> {
    /// This process's server key (its own GPUs or CPU).
    pub fn server_key(&self) -> &ServerKey {
        &self.key
    }

    /// On rank 0, every process of the job and its calibration, by rank; elsewhere,
    /// only this process.
    pub fn processes(&self) -> &[ProcessInfo] {
        &self.processes
    }

    /// `f` on every item, spread over the job's processes: rank 0 splits `items`
    /// by the processes' calibrated speeds (as one machine splits a batch over its
    /// workers, see [`crate::scheduler::plan`]), ships each share, each process
    /// computes its share with [`ServerKey::run_batch`] and sends the results back.
    /// Every process must call it, with the same `f`; `items` are read on rank 0
    /// only (pass `&[]` elsewhere). On rank 0 the results come back in item order,
    /// with every process's timing. `Err` on every process, naming the first
    /// failed rank, if any process fails. The split uses the circuit of `f` on the
    /// first item, recorded as [`ServerKey::run_batch`] records it.
    pub fn run_batch<T, R>(&self, items: &[T], f: impl Fn(&T) -> R) -> Result<ClusterBatch<R>>
    where
        T: ClusterValue,
        R: ClusterValue + BatchOutput,
    {
        let cluster = self.cluster;
        let key = ConformanceParams::from(&self.key);
        let (plan, shares) = self.share_plan(items, &f);
        let planned = |rank: usize| plan.as_ref().map_or(0, |p| p[rank].0 as usize);
        let received = self.exchange_shares::<T>(&plan, shares, planned(cluster.rank), &key);

        let started = Instant::now();
        let results = received.and_then(|mine| match mine {
            Some(mine) => self.key.run_batch(&mine, &f),
            None => {
                let own = items.get(..planned(0)).ok_or_else(|| {
                    Error::InvalidParameter("the plan gives rank 0 more items than it has".into())
                })?;
                self.key.run_batch(own, &f)
            }
        });
        let seconds = started.elapsed().as_secs_f64();
        self.gather_results(results, seconds, &plan, items.len(), &key)
    }

    /// Sends this process's `results` (and the `seconds` they took) to rank 0,
    /// which reads every process's, checks there is one per item of the plan, and
    /// tells every process the verdict. On rank 0, every result in item order and
    /// every process's timing; elsewhere, its own timing.
    fn gather_results<R: ClusterValue>(
        &self,
        results: Result<Vec<R>>,
        seconds: f64,
        plan: &Result<Planned>,
        items: usize,
        key: &ConformanceParams,
    ) -> Result<ClusterBatch<R>> {
        let cluster = self.cluster;
        let planned = |rank: usize| plan.as_ref().map_or(0, |p| p[rank].0 as usize);
        let report = Report {
            host: cluster.host.clone(),
            outcome: results
                .as_ref()
                .map(|r| ShareDone {
                    operations: r.len() as u64,
                    seconds,
                })
                .map_err(|e| short(e.to_string())),
        };
        let message = match &results {
            Ok(values) if !cluster.is_root() => write_values(values)
                .map(|v| [encode_or_error(&report), v].concat())
                .unwrap_or_else(|e| {
                    encode_or_error(&Report::<ShareDone> {
                        host: cluster.host.clone(),
                        outcome: Err(short(e.to_string())),
                    })
                }),
            _ => encode_or_error(&report),
        };
        let limit =
            |rank: usize| MESSAGE_SIZE_LIMIT.saturating_add(values_limit::<R>(planned(rank)));
        let gathered = cluster.gather(message, limit);

        let timing = |rank: usize, host: String, seconds: f64| ProcessTiming {
            rank,
            host,
            operations: planned(rank),
            predicted: duration(plan.as_ref().map_or(0.0, |p| p[rank].1)),
            compute: duration(seconds),
        };
        let mut failures = Vec::new();
        let mut all = Vec::new();
        let mut processes = Vec::new();
        match results {
            Ok(values) => {
                processes.push(timing(cluster.rank, cluster.host.clone(), seconds));
                all = values;
            }
            Err(e) if cluster.is_root() => failures.push(Failure {
                rank: 0,
                host: cluster.host.clone(),
                message: short(e.to_string()),
            }),
            Err(_) => {}
        }
        for (rank, bytes) in gathered.into_iter().skip(1) {
            match read_results::<R>(rank, bytes, planned(rank), key) {
                Ok((host, seconds, values)) => {
                    processes.push(timing(rank, host, seconds));
                    all.extend(values);
                }
                Err(failure) => failures.push(failure),
            }
        }
        if cluster.is_root() && failures.is_empty() && all.len() != items {
            failures.push(Failure {
                rank: 0,
                host: cluster.host.clone(),
                message: format!("gathered {} results for {items} items", all.len()),
            });
        }
        cluster.conclude("running the batch", failures)?;
        if !cluster.is_root() {
            all = Vec::new();
        }
        Ok(ClusterBatch {
            results: all,
            processes,
        })
    }

    /// The plan of a batch, made on rank 0 and broadcast: operations and predicted
    /// seconds per rank (the same on every process, or `Err`); on rank 0 also the
    /// bytes of each other rank's share.
    fn share_plan<T: ClusterValue, R: BatchOutput>(
        &self,
        items: &[T],
        f: &impl Fn(&T) -> R,
    ) -> (Result<Planned>, Vec<Vec<u8>>) {
        let cluster = self.cluster;
        let mut shares = Vec::new();
        let bytes = cluster.is_root().then(|| {
            let planned = self.plan(items, f).and_then(|plan| {
                let mut start = plan[0].0 as usize;
                for &(n, _) in &plan[1..] {
                    let end = start + n as usize;
                    shares.push(write_values(&items[start..end])?);
                    start = end;
                }
                Ok(plan)
            });
            encode_or_error(&Plan {
                outcome: planned.map_err(|e| short(e.to_string())),
            })
        });
        let plan = broadcast_bytes(&cluster.world, bytes, MESSAGE_SIZE_LIMIT)
            .and_then(|b| decode_all::<Plan>(&b, "rank 0"))
            .and_then(|p| {
                p.outcome.map_err(|m| {
                    Error::InvalidParameter(format!("rank 0 could not plan the batch: {m}"))
                })
            })
            .and_then(|plan| {
                if plan.len() == cluster.size {
                    Ok(plan)
                } else {
                    Err(Error::InvalidParameter(format!(
                        "rank 0 planned the batch for {} processes, the job has {}",
                        plan.len(),
                        cluster.size
                    )))
                }
            });
        (plan, shares)
    }

    /// The split of `items` over the processes by their calibrations (rank 0).
    fn plan<T, R: BatchOutput>(&self, items: &[T], f: &impl Fn(&T) -> R) -> Result<Planned> {
        let models: Vec<CostModel> = self.processes.iter().map(ProcessInfo::cost_model).collect();
        let Some(first) = items.first() else {
            return Ok(vec![(0, 0.0); models.len()]);
        };
        let (stats, input_bytes) = self.key.operation_cost(first, f, items.len())?;
        let shares = super::split::split_over_processes(items.len(), &stats, input_bytes, &models)?;
        Ok(shares
            .iter()
            .map(|s| (s.operations as u64, s.predicted.as_secs_f64()))
            .collect())
    }

    /// Rank 0 sends each process its share (nothing if there is no plan); the
    /// others read theirs: `count` items that must belong to `key`. `None` on rank
    /// 0, whose share stays where it is.
    fn exchange_shares<T: ClusterValue>(
        &self,
        plan: &Result<Planned>,
        shares: Vec<Vec<u8>>,
        count: usize,
        key: &ConformanceParams,
    ) -> Result<Option<Vec<T>>> {
        let cluster = self.cluster;
        if cluster.is_root() {
            let mut shares = shares.into_iter();
            for rank in 1..cluster.size {
                let bytes = shares.next().unwrap_or_default();
                send_bytes(&cluster.world, rank as i32, &bytes);
            }
            return plan.as_ref().map(|_| None).map_err(Clone::clone);
        }
        let limit = if plan.is_ok() {
            values_limit::<T>(count)
        } else {
            0
        };
        let bytes = receive_bytes(&cluster.world, ROOT, limit);
        plan.as_ref().map_err(Clone::clone)?;
        read_values(&bytes?, count, key, "rank 0").map(Some)
    }
}

/// A batch's plan: operations and predicted seconds per rank.
type Planned = Vec<(u64, f64)>;

/// `seconds` (finite and non-negative, as checked where they are read) as a
/// `Duration`, saturating.
fn duration(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::MAX)
}

/// The host named when a process's own report could not be read.
const UNKNOWN_HOST: &str = "unknown host";

/// `message`'s bytes, or none if it cannot be written (its reader then reports it
/// as unreadable).
fn encode_or_error<T: crate::serialization::SafeSerialization>(message: &T) -> Vec<u8> {
    encode(message).unwrap_or_default()
}

/// The message `bytes` hold, which must be all of them.
fn decode_all<T: crate::serialization::SafeSerialization>(bytes: &[u8], from: &str) -> Result<T> {
    let mut input = bytes;
    let message = decode(&mut input, from)?;
    if input.is_empty() {
        Ok(message)
    } else {
        Err(Error::Serialization(format!(
            "{from} sent {} bytes after its message",
            input.len()
        )))
    }
}

/// The failure of a process whose message could not be read.
fn unreadable(rank: usize, e: Error) -> Failure {
    Failure {
        rank,
        host: UNKNOWN_HOST.into(),
        message: short(e.to_string()),
    }
}

/// What `rank` sent back for its share of `expected` items: its host, its seconds
/// and exactly `expected` results of `key`; or its failure.
fn read_results<R: ClusterValue>(
    rank: usize,
    bytes: Result<Vec<u8>>,
    expected: usize,
    key: &ConformanceParams,
) -> std::result::Result<(String, f64, Vec<R>), Failure> {
    let from = format!("rank {rank}");
    let bytes = bytes.map_err(|e| unreadable(rank, e))?;
    let mut input = bytes.as_slice();
    let report: Report<ShareDone> = decode(&mut input, &from).map_err(|e| unreadable(rank, e))?;
    let fail = |message: String| Failure {
        rank,
        host: report.host.clone(),
        message,
    };
    let done = report.outcome.clone().map_err(&fail)?;
    if done.operations != expected as u64 {
        return Err(fail(format!(
            "sent {} results for its {expected} items",
            done.operations
        )));
    }
    if !(done.seconds.is_finite() && done.seconds >= 0.0) {
        return Err(fail(format!("reported a time of {} s", done.seconds)));
    }
    let values =
        read_values(input, expected, key, &from).map_err(|e| fail(short(e.to_string())))?;
    Ok((report.host, done.seconds, values))
}
