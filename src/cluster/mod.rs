//! A batch spread over the processes of an MPI job: several GPU servers (or CPU
//! machines), each process with its own GPUs and scheduler (feature `cluster`).
//!
//! The job is started the way HPC clusters start MPI programs (`mpirun`, or
//! `srun` under Slurm); every process runs the same program. [`Cluster::init`]
//! joins the job. [`Cluster::load_key`] gives every process the compressed server
//! key once (broadcast from the first process, rank 0, or read from a shared file),
//! decompresses it with the process's own [`SchedulerConfig`](crate::scheduler::SchedulerConfig) (its GPUs, or its
//! CPU), calibrates its workers and reports the calibration to rank 0.
//! [`ClusterServerKey::run_batch`] then splits a batch of independent operations
//! over the processes by their calibrated speeds, ships each share as
//! [`safe_serialize`](crate::serialization::safe_serialize)d ciphertexts, computes
//! it there with the local scheduler ([`ServerKey::run_batch`](crate::ServerKey::run_batch)) and gathers the
//! results on rank 0, in input order.
//!
//! ```text
//! rank 0: plan ─ send shares ─ own share (run_batch) ─ gather results ─ verdict ─▶ results
//! rank r:        receive share ─ its share (run_batch) ─ send results ─ verdict
//! ```
//!
//! **Failures.** Every phase ends with a collective step in which each process
//! reports its outcome to rank 0, which tells every process the verdict: a process
//! that cannot load the key (a GPU it does not have, an unreadable key file, bytes
//! that fail [`safe_deserialize`](crate::serialization::safe_deserialize)), or whose
//! share fails, makes **every** process return [`Error::Cluster`](crate::Error::Cluster) naming its rank
//! and host, instead of a hang. Every byte received from a peer is read with a size
//! limit ([`KEY_SIZE_LIMIT`], [`VALUE_SIZE_LIMIT`], [`MESSAGE_SIZE_LIMIT`]) and,
//! for ciphertexts, checked to belong to the job's key; rank 0 checks that it got
//! exactly one result per input. A process that *dies* (killed, out of memory, a
//! lost node) is MPI's to handle: under its default error handler the MPI library
//! and the launcher end the whole job, and `mpirun` names the rank that died
//! (`docs/cluster.md` shows it). Its share is not re-run elsewhere.
//!
//! Why MPI, and how to start a job on one machine or several: `docs/cluster.md`.
//!
//! ```no_run
//! use gpufhe::cluster::{Cluster, KeySource};
//! use gpufhe::prelude::*;
//! use gpufhe::scheduler::{CalibrationOptions, SchedulerConfig};
//! use gpufhe::{ClientKey, CompressedServerKey, ConfigBuilder, FheUint64};
//!
//! let cluster = Cluster::init()?;
//! // Rank 0 holds the client key and the inputs; the others only compute.
//! let client_key = cluster.is_root().then(|| ClientKey::generate(ConfigBuilder::default()));
//! let compressed = client_key.as_ref().map(CompressedServerKey::new);
//! let key = cluster.load_key(
//!     KeySource::Broadcast(compressed.as_ref()),
//!     &SchedulerConfig::from_env()?,
//!     &CalibrationOptions::default(),
//! )?;
//! let pairs: Vec<(FheUint64, FheUint64)> = match &client_key {
//!     Some(ck) => (0..100u64)
//!         .map(|i| (FheUint64::encrypt(i, ck), FheUint64::encrypt(2 * i, ck)))
//!         .collect(),
//!     None => Vec::new(),
//! };
//! let batch = key.run_batch(&pairs, |(a, b)| a + b)?;
//! if let Some(ck) = &client_key {
//!     for (i, sum) in batch.results.iter().enumerate() {
//!         let clear: u64 = sum.decrypt(ck);
//!         assert_eq!(clear, 3 * i as u64);
//!     }
//! }
//! # Ok::<(), gpufhe::Error>(())
//! ```

mod job;
mod split;
mod transport;
mod wire;

pub use wire::{ClusterValue, MESSAGE_SIZE_LIMIT, VALUE_SIZE_LIMIT};

pub use job::*;
