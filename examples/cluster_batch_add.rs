//! The multi-GPU guide's batch of FheUint64 additions spread over every process of
//! an MPI job, and so over every GPU of every server (or every CPU where there are
//! none). Rank 0 makes the keys and the inputs; every process gets the compressed
//! server key by broadcast, decompresses it to its own GPUs (`GPUFHE_DEVICES`,
//! default every visible GPU, else the CPU), calibrates them and reports to rank 0,
//! which splits the batch by the calibrated speeds, ships the shares, gathers the
//! sums in order and checks every one by decryption. Rank 0 prints each process's
//! additions, the time its calibration predicted for them next to the time its
//! share took, its additions per second, and the total.
//!
//! ```text
//! cargo build --release --features cluster --example cluster_batch_add
//! mpirun -np 3 --oversubscribe target/release/examples/cluster_batch_add        # 100 per GPU, or 2 per CPU process
//! mpirun -np 3 --oversubscribe target/release/examples/cluster_batch_add 12     # 12 additions in all
//! mpirun -np 4 --hostfile hosts --map-by node --bind-to none target/release/examples/cluster_batch_add
//! ```
//!
//! As root, Open MPI also wants `--allow-run-as-root`. `docs/cluster.md` tells how
//! to start it on several hosts (a hostfile, or `srun` under Slurm).

use gpufhe::cluster::{Cluster, ClusterServerKey, KeySource, ProcessTiming};
use gpufhe::prelude::*;
use gpufhe::scheduler::{format_seconds, CalibrationOptions, SchedulerConfig};
use gpufhe::{ClientKey, CompressedServerKey, ConfigBuilder, FheUint64};
use std::process::ExitCode;
use std::time::Instant;
#[path = "support/cli.rs"]
mod cli;
use cli::next;

/// The environment variable that sets the batch size (the argument wins).
const BATCH_SIZE_VARIABLE: &str = "GPUFHE_EXAMPLE_BATCH_SIZE";
/// Additions per GPU by default, as in the guide.
const DEFAULT_PER_GPU: usize = 100;
/// Additions per process without a GPU by default (seconds each on a CPU).
const DEFAULT_PER_CPU_PROCESS: usize = 2;

/// The default batch: 100 additions per GPU of the job, 2 per process without one.
fn default_batch(key: &ClusterServerKey<'_>) -> usize {
    key.processes()
        .iter()
        .map(|p| match p.calibration.gpus().len() {
            0 => DEFAULT_PER_CPU_PROCESS,
            gpus => DEFAULT_PER_GPU * gpus,
        })
        .sum()
}

/// Rank 0's table: each process's share, predicted and measured.
fn print_split(processes: &[ProcessTiming], total: usize) {
    println!(
        "{:>4}  {:<16} {:>9} {:>7}  {:>10}  {:>10}  {:>11}",
        "rank", "host", "additions", "share", "predicted", "measured", "additions/s"
    );
    for p in processes {
        println!(
            "{:>4}  {:<16} {:>9} {:>6.1}%  {:>10}  {:>10}  {:>11.2}",
            p.rank,
            p.host,
            p.operations,
            100.0 * p.operations as f64 / total.max(1) as f64,
            format_seconds(p.predicted.as_secs_f64()),
            format_seconds(p.compute.as_secs_f64()),
            p.operations_per_second()
        );
    }
}

fn run(cluster: &Cluster) -> Result<(), String> {
    let root = cluster.is_root();
    let client_key = root.then(|| ClientKey::generate(ConfigBuilder::default()));
    let compressed = client_key.as_ref().map(CompressedServerKey::new);
    let settings = SchedulerConfig::from_env().map_err(|e| e.to_string())?;
    let key = cluster
        .load_key(
            KeySource::Broadcast(compressed.as_ref()),
            &settings,
            &CalibrationOptions::default(),
        )
        .map_err(|e| e.to_string())?;
    let Some(client_key) = client_key else {
        // The other ranks compute their shares; rank 0 reports.
        key.run_batch::<(FheUint64, FheUint64), FheUint64>(&[], |(a, b)| a + b)
            .map_err(|e| e.to_string())?;
        return Ok(());
    };

    println!("{} process(es), calibrated:", cluster.size());
    for process in key.processes() {
        print!("{process}");
    }
    let batch_size = cli::count(
        BATCH_SIZE_VARIABLE,
        default_batch(&key),
        "additions",
        "cluster_batch_add --features cluster",
    )?;
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let clear: Vec<(u64, u64)> = (0..batch_size)
        .map(|_| (next(&mut rng), next(&mut rng)))
        .collect();
    let pairs: Vec<(FheUint64, FheUint64)> = clear
        .iter()
        .map(|&(a, b)| {
            (
                FheUint64::encrypt(a, &client_key),
                FheUint64::encrypt(b, &client_key),
            )
        })
        .collect();

    let start = Instant::now();
    let batch = key
        .run_batch(&pairs, |(a, b)| a + b)
        .map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();

    let wrong = batch
        .results
        .iter()
        .zip(&clear)
        .filter(|(sum, (a, b))| FheDecrypt::<u64>::decrypt(*sum, &client_key) != a.wrapping_add(*b))
        .count();
    println!(
        "{batch_size} FheUint64 additions over {} process(es) in {}: {:.2} additions/s in \
         total (shipping included); each process's share, predicted by its calibration \
         and measured:",
        cluster.size(),
        format_seconds(seconds),
        batch_size as f64 / seconds
    );
    print_split(&batch.processes, batch_size);
    let sum_of_rates: f64 = batch
        .processes
        .iter()
        .map(ProcessTiming::operations_per_second)
        .sum();
    println!("sum of the processes' additions/s: {sum_of_rates:.2}");
    if wrong > 0 || batch.results.len() != batch_size {
        return Err(format!(
            "{wrong} of {} sums decrypt wrongly ({} results)",
            batch_size,
            batch.results.len()
        ));
    }
    println!("all {batch_size} sums decrypt correctly");
    Ok(())
}

fn main() -> ExitCode {
    let cluster = match Cluster::init() {
        Ok(cluster) => cluster,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match run(&cluster) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rank {}: error: {e}", cluster.rank());
            ExitCode::FAILURE
        }
    }
}
