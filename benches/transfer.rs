//! Confidential token transfers (`examples/confidential_transfers.rs`): a batch of
//! `n` independent transfers through `ServerKey::run_batch`, default (secure)
//! parameters, throughput in transfers, for both ways of writing a transfer:
//!
//! - `cpu/transfer/<variant>/<n>`: the key on the CPU;
//! - `cuda/transfer/<variant>/<n>`: the key on every visible GPU (only when there is
//!   one; its streams and the CPU share the batch by the key's cost model).
//!
//! `<variant>` is `whitepaper` (the amount or zero), `no_cmux` (the amount times the
//! comparison) or `two_selects` (both balances selected), `n` 4 on the CPU and 64
//! and 512 on GPUs. Every new balance of one
//! batch is decrypted and checked before timing.
//!
//! ```text
//! cargo bench --bench transfer
//! cargo bench --bench transfer -- 'cpu/transfer/no_cmux'
//! ```

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gpufhe::prelude::*;
use gpufhe::{
    get_number_of_gpus, ClientKey, CompressedServerKey, ConfigBuilder, FheUint64, ServerKey,
};
use std::hint::black_box;
#[path = "../examples/support/transfers.rs"]
mod transfers;
use transfers::{clear_transfer, Variant};

/// Balances and amounts of `n` transfers, about half of them lacking the funds.
fn clear_transfers(n: usize) -> Vec<(u64, u64, u64)> {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        s >> 44
    };
    (0..n).map(|_| (next(), next(), next() << 1)).collect()
}

/// Benchmarks every variant on `key` under `prefix` (`cpu` or `cuda`) for `sizes`.
fn bench_key(
    c: &mut Criterion,
    prefix: &str,
    key: &ServerKey,
    client_key: &ClientKey,
    sizes: &[usize],
) {
    for variant in Variant::ALL {
        let mut group = c.benchmark_group(format!("{prefix}/transfer/{}", variant.name()));
        for &n in sizes {
            let clear = clear_transfers(n);
            let encrypted: Vec<[FheUint64; 3]> = clear
                .iter()
                .map(|&(f, t, a)| [f, t, a].map(|v| FheUint64::encrypt(v, client_key)))
                .collect();
            let run = || {
                key.run_batch(&encrypted, |[from, to, amount]| {
                    variant.transfer(from, to, amount)
                })
                .expect("the batch runs")
            };
            group.throughput(Throughput::Elements(n as u64));
            // Checked on the first call (before any timing), so that a filtered run
            // only checks what it measures.
            let mut checked = false;
            group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
                if !checked {
                    for ((from, to), &(f, t, a)) in run().iter().zip(&clear) {
                        let got: (u64, u64) = (from.decrypt(client_key), to.decrypt(client_key));
                        assert_eq!(got, clear_transfer(f, t, a), "{prefix} {}", variant.name());
                    }
                    checked = true;
                }
                b.iter(|| black_box(run()))
            });
        }
        group.finish();
    }
}

fn transfers(c: &mut Criterion) {
    let client_key = ClientKey::generate(ConfigBuilder::default());
    let compressed = CompressedServerKey::new(&client_key);
    bench_key(c, "cpu", &compressed.decompress(), &client_key, &[4]);
    if get_number_of_gpus() > 0 {
        let gpu_key = compressed
            .try_decompress_to_gpu()
            .expect("the key decompresses to the GPUs");
        bench_key(c, "cuda", &gpu_key, &client_key, &[64, 512]);
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = transfers
}
criterion_main!(benches);
