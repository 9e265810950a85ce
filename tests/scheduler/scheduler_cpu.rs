//! The scheduler on the CPU, default (secure) parameters: the CPU worker's thread
//! budget under 16 user threads, and batches of any operations (`run_batch`):
//! results against the clear ones, progress, nesting, errors, and what values
//! recorded inside a batch may and may not do.
//!
//! The budget test measures the CPU time of the whole process, so it runs in a
//! process of its own (the other tests of the binary would count); the tests of
//! this file take one lock each.

use crate::child::{self, test_path};
use crate::common;

use common::{keys, Rng};
use gpufhe::prelude::*;
use gpufhe::scheduler::{BatchProgress, SchedulerConfig, WorkerInfo};
use gpufhe::{set_server_key, ClientKey, ConfigBuilder, FheBool, FheUint64, FheUint8, ServerKey};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// Serializes the tests of this binary.
fn exclusive() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|p| p.into_inner())
}

/// A CPU key of the shared client key with `threads` CPU threads.
fn cpu_key(threads: usize) -> ServerKey {
    let (_, compressed, _) = keys();
    let config = SchedulerConfig::builder()
        .devices("cpu")
        .cpu_threads(threads)
        .build()
        .expect("a valid configuration");
    compressed.decompress_with(&config).expect("a CPU key")
}

/// User plus system CPU time of this process so far, in seconds (Linux).
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may contain spaces) start after ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

#[test]
fn sixteen_user_threads_never_use_more_than_the_cpu_budget() {
    if !child::run_alone(&test_path!(
        "sixteen_user_threads_never_use_more_than_the_cpu_budget"
    )) {
        return;
    }
    let _lock = exclusive();
    let (client_key, _, _) = keys();
    let key = cpu_key(1);
    assert_eq!(key.workers(), [WorkerInfo::Cpu { threads: 1 }]);
    let mut rng = Rng::new(16);
    let operands: Vec<Vec<(u8, u8, FheUint8, FheUint8)>> = (0..16)
        .map(|_| {
            (0..2)
                .map(|_| {
                    let (a, b) = (rng.next_u64() as u8, rng.next_u64() as u8);
                    let ea = FheUint8::encrypt(a, client_key);
                    let eb = FheUint8::encrypt(b, client_key);
                    (a, b, ea, eb)
                })
                .collect()
        })
        .collect();
    let Some(cpu_before) = process_cpu_seconds() else {
        crate::skip::report_skipped(format_args!("(no /proc/self/stat to measure CPU time)"));
        return;
    };
    let start = Instant::now();
    std::thread::scope(|scope| {
        for (t, work) in operands.iter().enumerate() {
            let key = &key;
            scope.spawn(move || {
                set_server_key(key.clone());
                for (a, b, ea, eb) in work {
                    let sum: u8 = (ea + eb).decrypt(client_key);
                    assert_eq!(sum, a.wrapping_add(*b), "thread {t}");
                }
            });
        }
    });
    let wall = start.elapsed().as_secs_f64();
    let cpu = process_cpu_seconds().expect("CPU time") - cpu_before;
    println!("16 threads, budget 1: {cpu:.2} s of CPU in {wall:.2} s");
    // One compute thread; the user threads only build circuits and decrypt.
    assert!(
        cpu <= 1.3 * wall + 0.2,
        "{cpu:.2} s of CPU in {wall:.2} s: more than one thread computed"
    );
    assert_eq!(key.pbs_count(), 16 * 2 * 4);
}

#[test]
fn run_batch_matches_the_clear_results_on_the_default_parameters() {
    let _lock = exclusive();
    let (client_key, _, _) = keys();
    let key = cpu_key(2);
    let mut rng = Rng::new(64);
    let clear: Vec<(u64, u64)> = (0..3).map(|_| (rng.next_u64(), rng.next_u64())).collect();
    let pairs: Vec<(FheUint64, FheUint64)> = clear
        .iter()
        .map(|&(a, b)| {
            (
                FheUint64::encrypt(a, client_key),
                FheUint64::encrypt(b, client_key),
            )
        })
        .collect();
    let reports = Mutex::new(Vec::<BatchProgress>::new());
    let out = key
        .run_batch_with_progress(
            &pairs,
            |(a, b)| {
                let sum = a + b;
                // A value computed in the batch is an operand of the next operation.
                let twice = &sum + &sum;
                (sum, twice, a.lt(b), a & 0xffff_u64)
            },
            |p| reports.lock().unwrap().push(p),
        )
        .expect("the batch");
    for ((sum, twice, lt, low), &(a, b)) in out.iter().zip(&clear) {
        let sum: u64 = sum.decrypt(client_key);
        let twice: u64 = twice.decrypt(client_key);
        let low: u64 = low.decrypt(client_key);
        assert_eq!(sum, a.wrapping_add(b));
        assert_eq!(twice, a.wrapping_add(b).wrapping_mul(2));
        assert_eq!(lt.decrypt(client_key), a < b);
        assert_eq!(low, a & 0xffff);
    }
    // One circuit for the batch; progress reaches every bootstrap and operation.
    let stats = key.stats();
    assert_eq!(stats.circuits, 1);
    let reports = reports.into_inner().unwrap();
    let last = reports.iter().max_by_key(|p| p.bootstraps_done).unwrap();
    assert_eq!(last.bootstraps_done, stats.bootstraps);
    assert_eq!(last.bootstraps, stats.bootstraps);
    assert!(reports.iter().any(|p| p.operations_done == 3));
    assert_eq!(last.fraction(), 1.0);
}

#[test]
fn typed_batches_and_nested_batches_are_one_circuit() {
    let _lock = exclusive();
    let (client_key, _, _) = keys();
    let key = cpu_key(2);
    set_server_key(key.clone());
    let xs: Vec<FheUint8> = [3u8, 250, 77]
        .iter()
        .map(|&v| FheUint8::encrypt(v, client_key))
        .collect();
    let ys: Vec<FheUint8> = [4u8, 10, 77]
        .iter()
        .map(|&v| FheUint8::encrypt(v, client_key))
        .collect();
    let sums = FheUint8::batch_add(&xs, &ys).unwrap();
    let clear: Vec<u8> = sums.iter().map(|s| s.decrypt(client_key)).collect();
    assert_eq!(clear, [7, 4, 154]);
    let groups: Vec<&[FheUint8]> = vec![&xs, &ys[..1], &[]];
    let totals = FheUint8::batch_sum(&groups).unwrap();
    let clear: Vec<u8> = totals.iter().map(|s| s.decrypt(client_key)).collect();
    assert_eq!(clear, [3u8.wrapping_add(250).wrapping_add(77), 4, 0]);
    // A typed batch inside a batch joins the outer circuit.
    let before = key.stats().circuits;
    let nested = key
        .run_batch(&[0usize, 1], |&i| {
            FheUint8::batch_add(&xs[i..i + 1], &ys[i..i + 1]).map(|mut v| v.remove(0))
        })
        .unwrap();
    assert_eq!(key.stats().circuits - before, 1);
    let clear: Vec<u8> = nested
        .iter()
        .map(|r| r.as_ref().unwrap().decrypt(client_key))
        .collect();
    assert_eq!(clear, [7, 4]);
}

#[test]
fn values_of_a_batch_stay_inside_it_and_errors_stay_with_their_item() {
    let _lock = exclusive();
    let (client_key, _, _) = keys();
    let key = cpu_key(2);
    let x = FheUint8::encrypt(9u8, client_key);
    let escaped = Mutex::new(None);
    let out = key
        .run_batch(&[1u8, 2], |&k| {
            let y = &x + k;
            // Not computed yet: it cannot be decrypted inside the batch...
            assert!(FheTryDecrypt::<u8>::try_decrypt(&y, client_key).is_err());
            *escaped.lock().unwrap() = Some(y.clone());
            y
        })
        .unwrap();
    let clear: Vec<u8> = out.iter().map(|y| y.decrypt(client_key)).collect();
    assert_eq!(clear, [10, 11]);
    // ... and a copy kept elsewhere is never filled in: using it is an error that
    // says why.
    let kept = escaped.into_inner().unwrap().unwrap();
    let err = FheTryDecrypt::<u8>::try_decrypt(&kept, client_key).unwrap_err();
    assert!(err.to_string().contains("run_batch"), "{err}");
    set_server_key(key.clone());
    assert!(kept
        .try_add(&x)
        .unwrap_err()
        .to_string()
        .contains("run_batch"));

    // A value of another client key fails its own item only.
    let other = ClientKey::generate(ConfigBuilder::default());
    let foreign = FheUint8::encrypt(1u8, &other);
    let results = key
        .run_batch(&[0, 1], |&i| {
            if i == 0 {
                x.try_add(&x)
            } else {
                x.try_add(&foreign)
            }
        })
        .unwrap();
    assert_eq!(results[0].as_ref().map(|v| v.decrypt(client_key)), Ok(18u8));
    assert!(matches!(results[1], Err(gpufhe::Error::KeyMismatch { .. })));

    // A panic inside the closure comes out, and the thread is left as it was.
    let panicked = catch_unwind(AssertUnwindSafe(|| {
        key.run_batch(&[0], |_| -> FheBool { panic!("inside the batch") })
    }));
    assert!(panicked.is_err());
    let after: u8 = (&x + &x).decrypt(client_key);
    assert_eq!(after, 18);
}
