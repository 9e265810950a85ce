//! What users run: many independent FheUint64 additions at once, gpufhe and tfhe side
//! by side on their default parameters (the same parameter values), same machine,
//! same rayon pool, in one run.
//!
//! - `compare/fheuint64/add_par_iter/<n>/{gpufhe,tfhe}`: the multi-GPU guide's
//!   pattern on the CPU, the same code on both crates: `par_iter` over the pairs,
//!   every task calling `set_server_key(key.clone())` and then `left + right`.
//! - `compare/fheuint64/batch_add/<n>/gpufhe`: the same additions through gpufhe's
//!   typed batch, `FheUint64::batch_add(&lhs, &rhs)` (one call).
//! - `compare/fheuint64/run_batch/<n>/gpufhe`: the same additions through gpufhe's
//!   general batch, `key.run_batch(&pairs, |(a, b)| a + b)` (one call).
//! - `compare/fheuint64/add/{gpufhe,tfhe}`: one addition alone, for reference.
//!
//! The ratios to read (throughput, additions per second):
//!
//! - guide pattern, gpufhe vs tfhe (the same program on both):
//!   `add_par_iter/<n>/gpufhe` over `add_par_iter/<n>/tfhe`.
//! - batch API, gpufhe vs tfhe's `par_iter` (tfhe has no batch API, so its
//!   `par_iter` is what a tfhe user writes for this): `batch_add/<n>/gpufhe` and
//!   `run_batch/<n>/gpufhe` over `add_par_iter/<n>/tfhe`.
//! - what the batch API gains inside gpufhe: `batch_add/<n>/gpufhe` and
//!   `run_batch/<n>/gpufhe` over `add_par_iter/<n>/gpufhe`.
//!
//! ```text
//! cd compare && RAYON_NUM_THREADS=2 cargo bench --bench batch
//! cd compare && cargo bench --bench batch -- '/8/'    # only n = 8
//! cd compare && COMPARE_MULTI_BIT=1 RAYON_NUM_THREADS=2 cargo bench --bench batch
//!                                 # both crates on the multi-bit parameters
//! ```
//!
//! `RAYON_NUM_THREADS` sets the rayon pool both crates' `par_iter` runs on (and
//! tfhe's own threads); gpufhe's CPU worker has its own threads,
//! `GPUFHE_CPU_THREADS` (default: the hardware threads). Set both to the same
//! number for a like-for-like run.
//!
//! Throughput is reported in additions per second. Every sum of every variant is
//! decrypted and checked once before timing (only for the ids a filter selects).

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use gpufhe::prelude::*;
use rayon::prelude::*;
use std::hint::black_box;
use tfhe::prelude::{FheDecrypt as _, FheEncrypt as _};

/// Batch sizes (additions per iteration).
const SIZES: [usize; 2] = [8, 32];

fn values(n: usize, seed: u64) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s ^ (s >> 29)
        })
        .collect()
}

/// Benchmarks `run` as `name/parameter`. Its sums are decrypted with `decrypt` and checked
/// against `want` on the first call (the warm-up, before any timing), so that a
/// filtered run checks only what it measures.
fn bench_checked<R>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    parameter: String,
    want: &[u64],
    run: impl Fn() -> Vec<R>,
    decrypt: impl Fn(&R) -> u64,
) {
    let what = format!("{name}/{parameter}");
    let mut checked = false;
    g.bench_function(BenchmarkId::new(name, parameter), |bench| {
        if !checked {
            let got: Vec<u64> = run().iter().map(&decrypt).collect();
            assert_eq!(got, want, "{what}: wrong sums");
            checked = true;
        }
        bench.iter(|| black_box(run()))
    });
}

fn bench(c: &mut Criterion) {
    // COMPARE_MULTI_BIT=1: both crates on the multi-bit parameters (grouping factor
    // 4, the same values).
    let multi_bit = std::env::var("COMPARE_MULTI_BIT").is_ok_and(|v| v == "1");
    let (gconfig, tconfig) = (
        gpufhe::ConfigBuilder::default(),
        tfhe::ConfigBuilder::default(),
    );
    let (gconfig, tconfig) = if multi_bit {
        use tfhe::shortint::parameters::current_params::V1_8_PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as P;
        (
            gconfig.use_multi_bit_pbs(),
            tconfig.use_custom_parameters(P),
        )
    } else {
        (gconfig, tconfig)
    };
    let (gck, gsk) = gpufhe::generate_keys(gconfig);
    let (tck, tsk) = tfhe::generate_keys(tconfig.build());
    gpufhe::set_server_key(gsk.clone());
    tfhe::set_server_key(tsk.clone());

    let mut g = c.benchmark_group("compare/fheuint64");
    g.sample_size(10);
    let (a, b) = (values(1, 1)[0], values(1, 2)[0]);
    let (ga, gb) = (
        gpufhe::FheUint64::encrypt(a, &gck),
        gpufhe::FheUint64::encrypt(b, &gck),
    );
    let (ta, tb) = (
        tfhe::FheUint64::encrypt(a, &tck),
        tfhe::FheUint64::encrypt(b, &tck),
    );
    g.bench_function("add/gpufhe", |bench| bench.iter(|| black_box(&ga + &gb)));
    g.bench_function("add/tfhe", |bench| bench.iter(|| black_box(&ta + &tb)));

    for n in SIZES {
        let (left, right) = (values(n, 3), values(n, 4));
        let want: Vec<u64> = left
            .iter()
            .zip(&right)
            .map(|(x, y)| x.wrapping_add(*y))
            .collect();
        let gl: Vec<_> = left
            .iter()
            .map(|&v| gpufhe::FheUint64::encrypt(v, &gck))
            .collect();
        let gr: Vec<_> = right
            .iter()
            .map(|&v| gpufhe::FheUint64::encrypt(v, &gck))
            .collect();
        let tl: Vec<_> = left
            .iter()
            .map(|&v| tfhe::FheUint64::encrypt(v, &tck))
            .collect();
        let tr: Vec<_> = right
            .iter()
            .map(|&v| tfhe::FheUint64::encrypt(v, &tck))
            .collect();

        let gpufhe_par_iter = || -> Vec<gpufhe::FheUint64> {
            gl.par_iter()
                .zip(gr.par_iter())
                .map(|(x, y)| {
                    gpufhe::set_server_key(gsk.clone());
                    x + y
                })
                .collect()
        };
        let tfhe_par_iter = || -> Vec<tfhe::FheUint64> {
            tl.par_iter()
                .zip(tr.par_iter())
                .map(|(x, y)| {
                    tfhe::set_server_key(tsk.clone());
                    x + y
                })
                .collect()
        };
        let gpufhe_batch =
            || gpufhe::FheUint64::batch_add(&gl, &gr).expect("the batch of additions");
        let pairs: Vec<(&gpufhe::FheUint64, &gpufhe::FheUint64)> = gl.iter().zip(&gr).collect();
        let gpufhe_run_batch = || {
            gsk.run_batch(&pairs, |&(x, y)| x + y)
                .expect("the batch of additions")
        };

        g.throughput(Throughput::Elements(n as u64));
        let gpufhe_sum = |x: &gpufhe::FheUint64| -> u64 { x.decrypt(&gck) };
        let tfhe_sum = |x: &tfhe::FheUint64| -> u64 { x.decrypt(&tck) };
        let id = |lib: &str| format!("{n}/{lib}");
        bench_checked(
            &mut g,
            "add_par_iter",
            id("gpufhe"),
            &want,
            gpufhe_par_iter,
            gpufhe_sum,
        );
        bench_checked(
            &mut g,
            "add_par_iter",
            id("tfhe"),
            &want,
            tfhe_par_iter,
            tfhe_sum,
        );
        bench_checked(
            &mut g,
            "batch_add",
            id("gpufhe"),
            &want,
            gpufhe_batch,
            gpufhe_sum,
        );
        bench_checked(
            &mut g,
            "run_batch",
            id("gpufhe"),
            &want,
            gpufhe_run_batch,
            gpufhe_sum,
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
