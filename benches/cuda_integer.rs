//! Encrypted integers on one GPU, default parameters; every operation waits for
//! its stream before returning, so the clock stops after the GPU is done. Operands
//! are moved to the GPU first: the latencies are compute, not transfers. Skips
//! (printing why) without a GPU.
//!
//! - `cuda/fheuint64/{add,mul,eq,bitand}`: latency of one operation.
//! - `cuda/fheuint64/add_batch/<n>`: `n` additions as one batch (elements/s).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gpufhe::backend::cuda::gpu_for_tests;
use gpufhe::prelude::*;
use gpufhe::{
    set_server_key, BinaryOp, ClientKey, CompressedServerKey, ConfigBuilder, Device, FheUint64,
    GpuIndex,
};
use std::hint::black_box;
use std::time::Duration;

const BATCHES: [usize; 4] = [1, 16, 64, 256];

fn bench(c: &mut Criterion) {
    if gpu_for_tests().is_none() {
        return;
    }
    let gpu = Device::CudaGpu(GpuIndex::new(0));
    let client_key = ClientKey::generate(ConfigBuilder::default());
    let server_key = CompressedServerKey::new(&client_key)
        .decompress_to_specific_gpu(GpuIndex::new(0))
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
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("fheuint64/add", |bench| bench.iter(|| black_box(&a + &b)));
    group.bench_function("fheuint64/mul", |bench| bench.iter(|| black_box(&a * &b)));
    group.bench_function("fheuint64/eq", |bench| bench.iter(|| black_box(a.eq(&b))));
    group.bench_function("fheuint64/bitand", |bench| {
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
            BenchmarkId::new("fheuint64/add_batch", n),
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

criterion_group!(benches, bench);
criterion_main!(benches);
