//! Throughput of many independent FheUint64 additions on the CPU, default (secure)
//! parameters, three ways of writing the same batch (throughput in additions):
//!
//! - `cpu/fheuint64/add_batch_par_iter/<n>`: the multi-GPU guide's pattern on the
//!   CPU: `par_iter` over the pairs, every task calling `set_server_key(key.clone())`
//!   and then `a + b` (each addition its own circuit).
//! - `cpu/fheuint64/batch_add/<n>`: the typed batch API,
//!   `FheUint64::batch_add(&lhs, &rhs)` (one circuit per share of the batch).
//! - `cpu/fheuint64/run_batch/<n>`: the general batch API,
//!   `key.run_batch(&pairs, |(a, b)| a + b)`.
//!
//! for `n` in 8 and 32, 10 samples each. Every sum is decrypted and checked once
//! before timing (only for the ids a filter selects).
//!
//! ```text
//! cargo bench --bench cpu_batch
//! cargo bench --bench cpu_batch -- 'batch_add/8'          # one id
//! RAYON_NUM_THREADS=4 GPUFHE_CPU_THREADS=4 cargo bench --bench cpu_batch
//! ```
//!
//! `RAYON_NUM_THREADS` sets the user's rayon pool (the one `par_iter` runs on);
//! the CPU worker that computes the bootstraps has its own threads,
//! `GPUFHE_CPU_THREADS` (default: the hardware threads).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gpufhe::prelude::*;
use gpufhe::{set_server_key, ClientKey, ConfigBuilder, FheUint64, ServerKey};
use rayon::prelude::*;
use std::hint::black_box;

/// Batch sizes (additions per iteration).
const SIZES: [usize; 2] = [8, 32];

/// `n` deterministic 64-bit values (an LCG, seeded).
fn values(n: usize, seed: u64) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            s ^ (s >> 29)
        })
        .collect()
}

/// Asserts that `sums` decrypt to `want`.
fn check(what: &str, sums: &[FheUint64], want: &[u64], client_key: &ClientKey) {
    let got: Vec<u64> = sums.iter().map(|s| s.decrypt(client_key)).collect();
    assert_eq!(got, want, "{what}: wrong sums");
}

/// The guide's pattern: a rayon task per addition, each setting the key.
fn par_iter_add(key: &ServerKey, pairs: &[(FheUint64, FheUint64)]) -> Vec<FheUint64> {
    pairs
        .par_iter()
        .map(|(a, b)| {
            set_server_key(key.clone());
            a + b
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let (client_key, key) = gpufhe::generate_keys(ConfigBuilder::default());
    set_server_key(key.clone());

    let mut g = c.benchmark_group("cpu/fheuint64");
    g.sample_size(10);
    for n in SIZES {
        let (left, right) = (values(n, 3), values(n, 4));
        let want: Vec<u64> = left
            .iter()
            .zip(&right)
            .map(|(x, y)| x.wrapping_add(*y))
            .collect();
        let lhs: Vec<FheUint64> = left
            .iter()
            .map(|&v| FheUint64::encrypt(v, &client_key))
            .collect();
        let rhs: Vec<FheUint64> = right
            .iter()
            .map(|&v| FheUint64::encrypt(v, &client_key))
            .collect();
        let pairs: Vec<(FheUint64, FheUint64)> =
            lhs.iter().cloned().zip(rhs.iter().cloned()).collect();

        let par_iter = || par_iter_add(&key, &pairs);
        let batch_add = || FheUint64::batch_add(&lhs, &rhs).expect("the batch of additions");
        let run_batch = || {
            key.run_batch(&pairs, |(a, b)| a + b)
                .expect("the batch of additions")
        };
        g.throughput(Throughput::Elements(n as u64));
        type Variant<'a> = (&'a str, &'a dyn Fn() -> Vec<FheUint64>);
        let variants: [Variant; 3] = [
            ("add_batch_par_iter", &par_iter),
            ("batch_add", &batch_add),
            ("run_batch", &run_batch),
        ];
        for (name, variant) in variants {
            // Checked on the first call (the warm-up, before any timing), so that a
            // filtered run only checks what it measures.
            let mut checked = false;
            g.bench_function(BenchmarkId::new(name, n), |b| {
                if !checked {
                    check(name, &variant(), &want, &client_key);
                    checked = true;
                }
                b.iter(|| black_box(variant()))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
