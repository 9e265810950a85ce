//! Heavy load: 64 threads, each with a clone of the key and a rayon pool of its own
//! that is created and dropped while the others run, thousands of operations
//! (single, batched and `run_batch`), every result checked, no deadlock (a watchdog
//! fails the test), and the process's resident memory back to its level after a
//! first round once the same work runs again (a leak grows it every round).
//!
//! Each test runs in a process of its own (the resident memory is the process's).
//! On the CPU always; on 4 GPUs when a driver has them: on the fake driver
//! (`GPUFHE_FAKE_CUDA_DEVICES=4 scripts/fake-cuda.sh cargo test --release --test
//! scheduler stress::`) with fewer operations (640), the kernels being emulated.

use crate::child::{self, test_path};
use crate::common;
use crate::params;

use common::Rng;
use gpufhe::prelude::*;
use gpufhe::{set_server_key, unset_server_key, ClientKey, ConfigBuilder, FheUint8, ServerKey};
use std::sync::mpsc;
use std::time::Duration;

const THREADS: u64 = 64;

/// A client key of the insecure test parameters and its compressed server key.
fn small_keys() -> (ClientKey, gpufhe::CompressedServerKey) {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(params::small_parameters())
        .unwrap();
    let client_key = ClientKey::generate(config);
    let compressed = gpufhe::CompressedServerKey::new(&client_key);
    (client_key, compressed)
}

/// How much work each thread does.
#[derive(Clone, Copy)]
struct Load {
    /// Rounds per thread per run, each with a fresh rayon pool.
    rounds: usize,
    /// Runs of all the threads (the first sets the memory baseline).
    runs: usize,
    /// Only the single and the batched additions (for emulated GPUs).
    light: bool,
}

/// One thread's work: `load.rounds` times, a fresh two-thread rayon pool runs a
/// single addition and a batched addition of four pairs, and unless `load.light` a
/// multiplication by a clear value, a comparison and a `run_batch` of two
/// subtractions, all checked. Returns the number of operations.
fn thread_work(client_key: &ClientKey, key: &ServerKey, thread: u64, load: Load) -> usize {
    let mut rng = Rng::new(7 + thread);
    let mut byte = || rng.next_u64() as u8;
    let mut ops = 0;
    for round in 0..load.rounds {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a rayon pool");
        let values: Vec<u8> = (0..12).map(|_| byte()).collect();
        ops += pool.install(|| {
            set_server_key(key.clone());
            let done = checked_operations(client_key, key, &values, load.light, (thread, round));
            unset_server_key();
            done
        });
        drop(pool);
    }
    ops
}

/// The operations of one round on `values`, each checked; returns their number.
fn checked_operations(
    client_key: &ClientKey,
    key: &ServerKey,
    values: &[u8],
    light: bool,
    (thread, round): (u64, usize),
) -> usize {
    let enc: Vec<FheUint8> = values
        .iter()
        .map(|&v| FheUint8::encrypt(v, client_key))
        .collect();
    let context = format!("thread {thread}, round {round}, values {values:?}");
    let sum: u8 = (&enc[0] + &enc[1]).decrypt(client_key);
    assert_eq!(sum, values[0].wrapping_add(values[1]), "{context}");
    let sums = FheUint8::batch_add(&enc[4..8], &enc[8..12]).expect("a batch");
    for (i, s) in sums.iter().enumerate() {
        let clear: u8 = s.decrypt(client_key);
        let expected = values[4 + i].wrapping_add(values[8 + i]);
        assert_eq!(clear, expected, "{context}");
    }
    if light {
        return 5;
    }
    let product: u8 = (&enc[2] * 3u8).decrypt(client_key);
    assert_eq!(product, values[2].wrapping_mul(3), "{context}");
    let less: bool = enc[3].lt(&enc[4]).decrypt(client_key);
    assert_eq!(less, values[3] < values[4], "{context}");
    let pairs = [(&enc[0], &enc[5]), (&enc[6], &enc[1])];
    let differences = key.run_batch(&pairs, |(a, b)| *a - *b).expect("run_batch");
    for ((a, b), d) in [(0, 5), (6, 1)].iter().zip(&differences) {
        let clear: u8 = d.decrypt(client_key);
        assert_eq!(clear, values[*a].wrapping_sub(values[*b]), "{context}");
    }
    9
}

/// Runs [`thread_work`] on [`THREADS`] threads with clones of `key`, under a
/// watchdog of `limit`; returns the number of operations checked.
fn run_threads(client_key: &ClientKey, key: &ServerKey, load: Load, limit: Duration) -> usize {
    let (done, finished) = mpsc::channel();
    let (client_key, key) = (client_key.clone(), key.clone());
    let runner = std::thread::spawn(move || {
        let total = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..THREADS)
                .map(|t| {
                    let (client_key, key) = (client_key.clone(), key.clone());
                    scope.spawn(move || thread_work(&client_key, &key, t, load))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a worker thread panicked"))
                .sum::<usize>()
        });
        let _ = done.send(total);
    });
    match finished.recv_timeout(limit) {
        Ok(total) => {
            runner.join().unwrap();
            total
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            std::panic::resume_unwind(runner.join().unwrap_err())
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("deadlock: {THREADS} threads did not finish within {limit:?}")
        }
    }
}

/// The resident memory of this process, in bytes.
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// Runs the load `load.runs` times; the resident memory after the last run may
/// exceed that after the first (allocator caches, thread stacks, warmed tables) by
/// at most `slack_mib`.
fn stress(client_key: &ClientKey, key: &ServerKey, load: Load, slack_mib: u64) {
    let limit = Duration::from_secs(900);
    let mut total = run_threads(client_key, key, load, limit);
    let baseline = resident_bytes();
    for _ in 1..load.runs {
        total += run_threads(client_key, key, load, limit);
    }
    let after = resident_bytes();
    println!(
        "{total} operations checked on {THREADS} threads; resident memory {} MiB after the \
         first run, {} MiB after the last",
        baseline >> 20,
        after >> 20
    );
    assert!(
        after <= baseline + (slack_mib << 20),
        "resident memory grew from {} MiB to {} MiB: a leak",
        baseline >> 20,
        after >> 20
    );
}

#[test]
fn sixty_four_threads_with_transient_pools_on_the_cpu() {
    if !child::run_alone(&test_path!(
        "sixty_four_threads_with_transient_pools_on_the_cpu"
    )) {
        return;
    }
    let (client_key, compressed) = small_keys();
    let key = compressed.decompress();
    // 64 threads x 2 rounds x 9 operations x 3 runs = 3456 operations.
    let load = Load {
        rounds: 2,
        runs: 3,
        light: false,
    };
    stress(&client_key, &key, load, 64);
}

#[cfg(feature = "gpu")]
#[test]
fn sixty_four_threads_with_transient_pools_on_four_gpus() {
    if crate::skip::gpu_for_tests().is_none() {
        return;
    }
    if !child::run_alone(&test_path!(
        "sixty_four_threads_with_transient_pools_on_four_gpus"
    )) {
        return;
    }
    let gpus = gpufhe::get_number_of_gpus();
    if std::env::var("GPUFHE_FAKE_CUDA").is_ok_and(|v| v == "1") {
        assert_eq!(gpus, 4, "run with GPUFHE_FAKE_CUDA_DEVICES=4");
    }
    let (client_key, compressed) = small_keys();
    let key = compressed
        .try_decompress_to_gpu()
        .expect("a key on every GPU");
    assert_eq!(key.gpus().len(), gpus as usize);
    // 64 threads x 1 round x 5 operations x 2 runs = 640 operations, emulated.
    let load = Load {
        rounds: 1,
        runs: 2,
        light: true,
    };
    stress(&client_key, &key, load, 64);
}
