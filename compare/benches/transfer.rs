//! Confidential token transfers, gpufhe and tfhe side by side: a batch of `N`
//! independent `FheUint64` transfers, both libraries on their default parameters
//! (classical PBS, 2 message + 2 carry bits, TUniform, 2^-128: the same values),
//! same machine, same rayon pool, in one run. One group a variant
//! (`examples/support/transfers.rs`: TFHE-rs's `whitepaper` and `no_cmux`):
//!
//! - `compare/transfer/<variant>/par_iter/<n>/{gpufhe,tfhe}`: TFHE-rs's CPU
//!   throughput benchmark, the same code on both crates: `par_iter` over the
//!   transfers, every task calling `set_server_key(key.clone())`, then the transfer
//!   with its last two operations under `rayon::join`;
//! - `compare/transfer/<variant>/run_batch/<n>/gpufhe`: the same transfers through
//!   gpufhe's batch API, `key.run_batch(&transfers, |t| transfer(t))` (one call;
//!   `examples/confidential_transfers.rs`).
//!
//! Throughput is in transfers per second. Every new balance is decrypted and checked
//! once before timing (only for the ids a filter selects).
//!
//! ```text
//! cd compare && RAYON_NUM_THREADS=2 cargo bench --bench transfer
//! cd compare && RAYON_NUM_THREADS=2 cargo bench --bench transfer -- no_cmux
//! ```
//!
//! `RAYON_NUM_THREADS` sets the rayon pool of both crates' `par_iter` and tfhe's own
//! threads; gpufhe's CPU worker has its own, `GPUFHE_CPU_THREADS` (default: the
//! hardware threads). Bootstraps per transfer: `examples/pbs_counts.rs`.
//!
//! Medians of one run of the first command (2026-11-26), n = 4, `tfhe` 1.8.2, on a
//! shared 2-core AMD EPYC (family 25, model 17; KVM) that other builds kept at a load
//! of 4 to 7, so every time is inflated; compare ratios (batch seconds, transfers
//! per second):
//!
//! | variant | gpufhe `par_iter` | gpufhe `run_batch` | tfhe `par_iter` | gpufhe / tfhe time |
//! |---------|-------------------|--------------------|-----------------|--------------------|
//! | whitepaper | 15.9 s, 0.252 /s | 13.7 s, 0.292 /s | 35.8 s, 0.112 /s | 0.44 (`par_iter`), 0.38 (`run_batch`) |
//! | no_cmux | 16.2 s, 0.247 /s | 10.6 s, 0.377 /s | 36.2 s, 0.111 /s | 0.45 (`par_iter`), 0.29 (`run_batch`) |
//!
//! A rerun of `-- run_batch` right after: whitepaper 10.5 s (0.381 /s), no_cmux
//! 10.8 s (0.369 /s); the first whitepaper `run_batch` ran under more load.
//! Bootstraps per transfer (whitepaper and no_cmux alike): tfhe 207, gpufhe 141
//! alone, 128 in a `run_batch` of 4.

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode,
    Throughput,
};
use gpufhe::prelude::*;
use rayon::prelude::*;
use std::hint::black_box;
use std::time::Duration;
use tfhe::prelude::{FheDecrypt as _, FheEncrypt as _};
#[path = "../examples/support/transfers.rs"]
mod transfers;
use transfers::{clear_transfer, clear_transfers, gpufhe_side, tfhe_side, Variant};

/// Transfers a batch.
const N: usize = 4;

/// Benchmarks `run` as `name/parameter`. Its balances are decrypted with `decrypt`
/// and checked against `want` on the first call (before any timing), so that a
/// filtered run checks only what it measures.
fn bench_checked<R>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    parameter: String,
    want: &[(u64, u64)],
    run: impl Fn() -> Vec<R>,
    decrypt: impl Fn(&R) -> (u64, u64),
) {
    let what = format!("{name}/{parameter}");
    let mut checked = false;
    g.bench_function(BenchmarkId::new(name, parameter), |bench| {
        if !checked {
            let got: Vec<(u64, u64)> = run().iter().map(&decrypt).collect();
            assert_eq!(got, want, "{what}: wrong balances");
            checked = true;
        }
        bench.iter(|| black_box(run()))
    });
}

fn bench(c: &mut Criterion) {
    let (gck, gsk) = gpufhe::generate_keys(gpufhe::ConfigBuilder::default());
    let (tck, tsk) = tfhe::generate_keys(tfhe::ConfigBuilder::default().build());
    // Every rayon thread gets both keys once (TFHE-rs's benchmark does this), so that
    // a half of `rayon::join` stolen by a thread that has not run a task yet finds
    // one; each task sets it again, as the guide's pattern does.
    rayon::broadcast(|_| {
        gpufhe::set_server_key(gsk.clone());
        tfhe::set_server_key(tsk.clone());
    });

    let clear = clear_transfers(N);
    let want: Vec<(u64, u64)> = clear
        .iter()
        .map(|&(f, t, a)| clear_transfer(f, t, a))
        .collect();
    let genc: Vec<[gpufhe::FheUint64; 3]> = clear
        .iter()
        .map(|&(f, t, a)| [f, t, a].map(|v| gpufhe::FheUint64::encrypt(v, &gck)))
        .collect();
    let tenc: Vec<[tfhe::FheUint64; 3]> = clear
        .iter()
        .map(|&(f, t, a)| [f, t, a].map(|v| tfhe::FheUint64::encrypt(v, &tck)))
        .collect();
    let gpufhe_balances = |(f, t): &(gpufhe::FheUint64, gpufhe::FheUint64)| -> (u64, u64) {
        (f.decrypt(&gck), t.decrypt(&gck))
    };
    let tfhe_balances = |(f, t): &(tfhe::FheUint64, tfhe::FheUint64)| -> (u64, u64) {
        (f.decrypt(&tck), t.decrypt(&tck))
    };

    for variant in Variant::BENCHED {
        let gpufhe_par_iter = || -> Vec<(gpufhe::FheUint64, gpufhe::FheUint64)> {
            genc.par_iter()
                .map(|[from, to, amount]| {
                    gpufhe::set_server_key(gsk.clone());
                    gpufhe_side::transfer_par(variant, from, to, amount)
                })
                .collect()
        };
        let tfhe_par_iter = || -> Vec<(tfhe::FheUint64, tfhe::FheUint64)> {
            tenc.par_iter()
                .map(|[from, to, amount]| {
                    tfhe::set_server_key(tsk.clone());
                    tfhe_side::transfer_par(variant, from, to, amount)
                })
                .collect()
        };
        let gpufhe_run_batch = || {
            gsk.run_batch(&genc, |[from, to, amount]| {
                gpufhe_side::transfer(variant, from, to, amount)
            })
            .expect("the batch of transfers")
        };

        let mut g = c.benchmark_group(format!("compare/transfer/{}", variant.name()));
        // A batch takes seconds: one iteration a sample, ten samples.
        g.sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(1))
            .throughput(Throughput::Elements(N as u64));
        let id = |lib: &str| format!("{N}/{lib}");
        bench_checked(
            &mut g,
            "par_iter",
            id("gpufhe"),
            &want,
            gpufhe_par_iter,
            gpufhe_balances,
        );
        bench_checked(
            &mut g,
            "par_iter",
            id("tfhe"),
            &want,
            tfhe_par_iter,
            tfhe_balances,
        );
        bench_checked(
            &mut g,
            "run_batch",
            id("gpufhe"),
            &want,
            gpufhe_run_batch,
            gpufhe_balances,
        );
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
