//! Batches spread over the processes of an MPI job on this machine (Open MPI's
//! `mpirun`), on the insecure test parameters: three processes add FheUint64s and
//! every sum is checked; a process that cannot load the key, or reads a corrupted
//! key file, makes every process end with an error naming its rank; a process that
//! dies mid-run ends the job, named by `mpirun`.
//!
//! The job's processes are this test binary again, running the (otherwise ignored)
//! test `process` with the role the launching test gives in
//! `GPUFHE_CLUSTER_TEST_ROLE`.

use gpufhe::cluster::{Cluster, ClusterServerKey, KeySource};
use gpufhe::prelude::*;
use gpufhe::scheduler::{CalibrationOptions, SchedulerConfig};
use gpufhe::serialization::safe_serialize;
use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
use gpufhe::{ClientKey, CompressedServerKey, Config, ConfigBuilder, Error, FheUint64, FheUint8};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a process of the job does (`add` when unset).
const ROLE: &str = "GPUFHE_CLUSTER_TEST_ROLE";
/// The key file of the `bad-file` role.
const KEY_FILE: &str = "GPUFHE_CLUSTER_TEST_KEY_FILE";
/// How long a job may take before the test kills it and fails.
const JOB_LIMIT: Duration = Duration::from_secs(300);
/// Additions of the `add` role.
const ADDITIONS: u64 = 12;

fn config() -> Config {
    ConfigBuilder::default()
        .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
        .expect("test parameters")
        .build()
}

/// Calibration options that take a moment on the test parameters.
fn options() -> CalibrationOptions {
    CalibrationOptions {
        repetitions: 1,
        cpu_batch_per_thread: 2,
        ..CalibrationOptions::default()
    }
}

/// Starts an MPI job of this test binary running `process` with `role`: one
/// `-np N` group per entry of `groups`, each with its extra variables; returns
/// whether it succeeded and its output (stdout then stderr). Fails the test if
/// `mpirun` is missing or the job outlives [`JOB_LIMIT`].
fn mpirun(role: &str, groups: &[(usize, &[(&str, &str)])]) -> (bool, String) {
    let exe = std::env::current_exe().expect("the test executable");
    let mut command = Command::new("mpirun");
    command.arg("--oversubscribe");
    for (i, (processes, variables)) in groups.iter().enumerate() {
        if i > 0 {
            command.arg(":");
        }
        command.args(["-np", &processes.to_string()]);
        for (name, value) in *variables {
            command.args(["-x", &format!("{name}={value}")]);
        }
        command
            .arg(&exe)
            .args(["process", "--exact", "--ignored", "--nocapture"]);
    }
    command
        .env(ROLE, role)
        .env("GPUFHE_DEVICES", "cpu")
        .env("GPUFHE_CPU_THREADS", "1")
        // Open MPI refuses root unless told; containers lack its single-copy path.
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command
        .spawn()
        .expect("mpirun runs (install Open MPI: apt-get install openmpi-bin libopenmpi-dev)");
    let out = drain(child.stdout.take().expect("a pipe"));
    let err = drain(child.stderr.take().expect("a pipe"));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for mpirun") {
            break status;
        }
        if start.elapsed() > JOB_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the MPI job ({role}) took more than {JOB_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let output = format!(
        "{}\n{}",
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default()
    );
    (status.success(), output)
}

/// Reads `pipe` to its end on a thread of its own.
fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    })
}

/// Runs a job as [`mpirun`] does; fails the test unless it succeeded and printed
/// every line of `expected`.
fn successful_job(role: &str, groups: &[(usize, &[(&str, &str)])], expected: &[String]) {
    let (ok, output) = mpirun(role, groups);
    assert!(ok, "the job failed:\n{output}");
    for line in expected {
        assert!(output.contains(line.as_str()), "no {line:?} in:\n{output}");
    }
}

/// What rank 0 of the `add` role prints once every sum of a job of `processes`
/// is checked, and what each rank prints at the end.
fn added(processes: usize) -> Vec<String> {
    let checked = format!("rank 0: {ADDITIONS} sums checked over {processes} process(es)");
    let done = (0..processes).map(|rank| format!("rank {rank}: done"));
    std::iter::once(checked).chain(done).collect()
}

/// What every rank of a job of `processes` prints when its error names `failed`.
fn named(processes: usize, failed: usize) -> Vec<String> {
    (0..processes)
        .map(|rank| format!("rank {rank}: error names rank {failed}"))
        .collect()
}

#[test]
fn three_processes_add_and_every_sum_is_checked() {
    successful_job("add", &[(3, &[])], &added(3));
}

#[test]
fn one_process_is_a_job_too() {
    successful_job("add", &[(1, &[])], &added(1));
}

#[test]
fn a_process_that_cannot_load_the_key_is_named_everywhere() {
    // Rank 2 asks for GPUs this machine does not have.
    let mut expected = named(3, 2);
    expected.push("loading the server key".into());
    successful_job(
        "bad-key",
        &[(2, &[]), (1, &[("GPUFHE_DEVICES", "7")])],
        &expected,
    );
}

/// Files removed when the test ends, passed or failed.
struct Remove<const N: usize>([std::path::PathBuf; N]);

impl<const N: usize> Drop for Remove<N> {
    fn drop(&mut self) {
        for path in &self.0 {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[test]
fn a_corrupted_key_file_is_refused_and_named() {
    let dir = std::env::temp_dir();
    let good = dir.join(format!("gpufhe-cluster-key-{}.bin", std::process::id()));
    let bad = dir.join(format!("gpufhe-cluster-bad-{}.bin", std::process::id()));
    let _remove = Remove([good.clone(), bad.clone()]);
    let key = CompressedServerKey::new(&ClientKey::generate(config()));
    let mut bytes = Vec::new();
    safe_serialize(&key, &mut bytes, 1 << 32).expect("serialize the key");
    std::fs::write(&good, &bytes).expect("write the key");
    let middle = bytes.len() / 2;
    bytes.truncate(middle);
    std::fs::write(&bad, &bytes).expect("write the truncated key");
    let (good_path, bad_path) = (good.display().to_string(), bad.display().to_string());
    let mut expected = named(2, 1);
    expected.push(bad_path.clone());
    let groups: [(usize, &[(&str, &str)]); 2] = [
        (1, &[(KEY_FILE, good_path.as_str())]),
        (1, &[(KEY_FILE, bad_path.as_str())]),
    ];
    successful_job("bad-file", &groups, &expected);
}

#[test]
fn a_process_that_dies_ends_the_job_and_mpirun_names_it() {
    let (ok, output) = mpirun("die", &[(3, &[])]);
    assert!(!ok, "the job should fail:\n{output}");
    assert!(output.contains("rank 1: exiting"), "{output}");
    // Open MPI names the process: "Process name: [[job,1],1]" and its exit code.
    assert!(
        output.contains(",1],1]") && output.contains("Exit code:    3"),
        "mpirun does not name rank 1:\n{output}"
    );
}

/// One process of a job started by the tests above: does what
/// `GPUFHE_CLUSTER_TEST_ROLE` says. Not run in the test binary's own process: MPI
/// there would share it with the `mpirun` children of the other tests.
#[test]
#[ignore = "a process of the MPI jobs the other tests start (they run it with --ignored)"]
fn process() {
    // The test parameters are insecure: every process reads them (the key, the
    // calibrations) inside the named scope.
    gpufhe::serialization::with_insecure_parameters_allowed(run_process);
}

/// [`process`], inside the scope that admits the insecure test parameters.
fn run_process() {
    let role = std::env::var(ROLE).expect("run by the other tests, with a role");
    let cluster = Cluster::init().expect("MPI starts");
    let rank = cluster.rank();
    let client_key = cluster.is_root().then(|| ClientKey::generate(config()));
    let compressed = client_key.as_ref().map(CompressedServerKey::new);
    let settings = SchedulerConfig::from_env().expect("valid settings");
    match role.as_str() {
        "add" | "die" => {
            let source = KeySource::Broadcast(compressed.as_ref());
            let key = cluster
                .load_key(source, &settings, &options())
                .expect("every process loads the key");
            if role == "die" && rank == 1 {
                println!("rank 1: exiting");
                std::process::exit(3);
            }
            add(&cluster, &key, client_key.as_ref());
        }
        "bad-key" => {
            let source = KeySource::Broadcast(compressed.as_ref());
            let err = cluster.load_key(source, &settings, &options()).unwrap_err();
            expect_named(rank, 2, &err);
        }
        "bad-file" => {
            let path = std::env::var(KEY_FILE).expect("the key file");
            let source = KeySource::File(std::path::Path::new(&path));
            let err = cluster.load_key(source, &settings, &options()).unwrap_err();
            expect_named(rank, 1, &err);
        }
        other => panic!("unknown role {other:?}"),
    }
}

/// Asserts that `err` is a cluster error naming `failed`, and says so.
fn expect_named(rank: usize, failed: usize, err: &Error) {
    match err {
        Error::Cluster { rank: named, .. } if *named == failed => {
            println!("rank {rank}: error names rank {failed}: {err}")
        }
        other => panic!("rank {rank}: expected an error naming rank {failed}, got {other}"),
    }
}

/// The `add` role: FheUint64 additions, then FheUint8 additions and comparisons
/// (fewer items than processes: some shares are empty), all checked on rank 0.
fn add(cluster: &Cluster, key: &ClusterServerKey<'_>, client_key: Option<&ClientKey>) {
    let rank = cluster.rank();
    let clear: Vec<(u64, u64)> = (0..ADDITIONS)
        .map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15), u64::MAX - 3 * i))
        .collect();
    let pairs: Vec<(FheUint64, FheUint64)> = match client_key {
        Some(ck) => clear
            .iter()
            .map(|&(a, b)| (FheUint64::encrypt(a, ck), FheUint64::encrypt(b, ck)))
            .collect(),
        None => Vec::new(),
    };
    let batch = key
        .run_batch(&pairs, |(a, b)| a + b)
        .expect("the batch runs");
    let small: Vec<(FheUint8, FheUint8)> = match client_key {
        Some(ck) => vec![
            (FheUint8::encrypt(200u8, ck), FheUint8::encrypt(100u8, ck)),
            (FheUint8::encrypt(7u8, ck), FheUint8::encrypt(7u8, ck)),
        ],
        None => Vec::new(),
    };
    let mixed = key
        .run_batch(&small, |(a, b)| (a + b, a.eq(b)))
        .expect("the second batch runs");
    let Some(ck) = client_key else {
        assert!(batch.results.is_empty() && mixed.results.is_empty());
        assert_eq!(batch.processes.len(), 1);
        println!("rank {rank}: done");
        return;
    };
    assert_eq!(key.processes().len(), cluster.size());
    assert_eq!(batch.results.len(), clear.len());
    for (sum, &(a, b)) in batch.results.iter().zip(&clear) {
        let got: u64 = sum.decrypt(ck);
        assert_eq!(got, a.wrapping_add(b));
    }
    let ranks: Vec<usize> = batch.processes.iter().map(|p| p.rank).collect();
    assert_eq!(ranks, (0..cluster.size()).collect::<Vec<_>>());
    let shares: usize = batch.processes.iter().map(|p| p.operations).sum();
    assert_eq!(shares as u64, ADDITIONS);
    for p in &batch.processes {
        println!(
            "rank {}: {} additions, predicted {:?}, took {:?}",
            p.rank, p.operations, p.predicted, p.compute
        );
    }
    let got: Vec<(u8, bool)> = mixed
        .results
        .iter()
        .map(|(s, e)| (s.decrypt(ck), e.decrypt(ck)))
        .collect();
    assert_eq!(got, [(44, false), (14, true)]);
    println!(
        "rank 0: {ADDITIONS} sums checked over {} process(es)",
        cluster.size()
    );
    println!("rank {rank}: done");
}
