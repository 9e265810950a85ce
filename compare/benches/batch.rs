//! What users run: many independent FheUint64 additions at once, gpufhe and tfhe side
//! by side on their default parameters (the same parameter values), same machine,
//! same rayon pool, in one run.
//!
//! - `compare/fheuint64/add_par_iter/<n>/{gpufhe,tfhe}`: the multi-GPU guide's
//!   pattern on the CPU: `par_iter` over the pairs, every task calling
//!   `set_server_key(key.clone())` and then `left + right`.
//! - `compare/fheuint64/batch_add/<n>/gpufhe`: the same additions through gpufhe's
//!   batch API (one call), next to the same tfhe `par_iter` for the ratio.
//! - `compare/fheuint64/add/{gpufhe,tfhe}`: one addition alone, for reference.
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo bench --bench batch
//!
//! Throughput is reported in additions per second. Every sum is decrypted and
//! checked once before timing.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
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
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            s ^ (s >> 29)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let (gck, gsk) = gpufhe::generate_keys(gpufhe::ConfigBuilder::default());
    let (tck, tsk) = tfhe::generate_keys(tfhe::ConfigBuilder::default().build());
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
        let want: Vec<u64> = left.iter().zip(&right).map(|(x, y)| x.wrapping_add(*y)).collect();
        let gl: Vec<_> = left.iter().map(|&v| gpufhe::FheUint64::encrypt(v, &gck)).collect();
        let gr: Vec<_> = right.iter().map(|&v| gpufhe::FheUint64::encrypt(v, &gck)).collect();
        let tl: Vec<_> = left.iter().map(|&v| tfhe::FheUint64::encrypt(v, &tck)).collect();
        let tr: Vec<_> = right.iter().map(|&v| tfhe::FheUint64::encrypt(v, &tck)).collect();

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

        // Correctness of every variant before timing.
        let got: Vec<u64> = gpufhe_par_iter().iter().map(|x| x.decrypt(&gck)).collect();
        assert_eq!(got, want, "gpufhe par_iter");
        let got: Vec<u64> = gpufhe_batch().iter().map(|x| x.decrypt(&gck)).collect();
        assert_eq!(got, want, "gpufhe batch_add");
        let got: Vec<u64> = tfhe_par_iter().iter().map(|x| x.decrypt(&tck)).collect();
        assert_eq!(got, want, "tfhe par_iter");

        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("add_par_iter", format!("{n}/gpufhe")), |bench| {
            bench.iter(|| black_box(gpufhe_par_iter()))
        });
        g.bench_function(BenchmarkId::new("add_par_iter", format!("{n}/tfhe")), |bench| {
            bench.iter(|| black_box(tfhe_par_iter()))
        });
        g.bench_function(BenchmarkId::new("batch_add", format!("{n}/gpufhe")), |bench| {
            bench.iter(|| black_box(gpufhe_batch()))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
