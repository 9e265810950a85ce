//! Encrypted integers on one GPU, default parameters; every operation waits for
//! its stream before returning, so the clock stops after the GPU is done. Operands
//! are moved to the GPU first: the latencies are compute, not transfers. Skips
//! (printing why) without a GPU.
//!
//! - `cuda/fheuint64/{add,mul,eq,bitand}`: latency of one operation.
//! - `cuda/fheuint64/add_batch/<n>`: `n` additions as one batch (elements/s).
//! - `cuda/multi_bit_fheuint64/...`: the same on the multi-bit default parameters
//!   (`ConfigBuilder::use_multi_bit_pbs`).

#[path = "../tests/support/skip.rs"]
mod skip;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gpufhe::prelude::*;
use gpufhe::{
    set_server_key, BinaryOp, ClientKey, CompressedServerKey, ConfigBuilder, Device, FheUint64,
    GpuIndex,
};
use skip::gpu_for_tests;
use std::hint::black_box;
use std::time::Duration;

const BATCHES: [usize; 4] = [1, 16, 64, 256];

fn bench(c: &mut Criterion) {
    if gpu_for_tests().is_none() {
        return;
    }
    bench_config(c, ConfigBuilder::default(), "fheuint64");
    bench_config(
        c,
        ConfigBuilder::default().use_multi_bit_pbs(),
        "multi_bit_fheuint64",
    );
}

/// The benches of the keys of `config`, their ids under `cuda/<name>/`.
fn bench_config(c: &mut Criterion, config: ConfigBuilder, name: &str) {
    let gpu = Device::CudaGpu(GpuIndex::new(0));
    let client_key = ClientKey::generate(config);
    let server_key = CompressedServerKey::new(&client_key)
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .expect("GPU server key");
    set_server_key(server_key);
    let encrypt_on_gpu = |v: u64| {
        let mut x = FheUint64::encrypt(v, &client_key);
        x.move_to_device(gpu).expect("move to the GPU");
        x
    };
    let a = encrypt_on_gpu(0x0123_4567_89ab_cdef);
    let b = encrypt_on_gpu(0xfedc_ba98_7654_3210);

    let mut group = c.benchmark_group("cuda");
    group.bench_function(format!("{name}/add"), |bench| {
        bench.iter(|| black_box(&a + &b))
    });
    group.bench_function(format!("{name}/mul"), |bench| {
        bench.iter(|| black_box(&a * &b))
    });
    group.bench_function(format!("{name}/eq"), |bench| {
        bench.iter(|| black_box(a.eq(&b)))
    });
    group.bench_function(format!("{name}/bitand"), |bench| {
        bench.iter(|| black_box(&a & &b))
    });

    let max = *BATCHES.iter().max().expect("batches");
    let lhs: Vec<FheUint64> = (0..max as u64)
        .map(|i| encrypt_on_gpu(i * 0x9e37_79b9))
        .collect();
    let rhs: Vec<FheUint64> = (0..max as u64).map(|i| encrypt_on_gpu(!i)).collect();
    for n in BATCHES {
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(
            BenchmarkId::new(format!("{name}/add_batch"), n),
            &n,
            |bench, &n| {
                bench.iter(|| {
                    black_box(FheUint64::batch(BinaryOp::Add, &lhs[..n], &rhs[..n]).expect("batch"))
                })
            },
        );
    }
    group.finish();
}

// The settings as the group's defaults: `--warm-up-time`, `--measurement-time` and
// `--sample-size` on the command line override them.
criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    targets = bench
}
criterion_main!(benches);
