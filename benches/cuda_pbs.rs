//! GPU bootstrap and keyswitch on the default parameters, and on the multi-bit
//! defaults, stream synchronized before the clock stops. Skips without a GPU.
//!
//! - `cuda/pbs/latency`: one programmable bootstrap alone (input already keyswitched).
//! - `cuda/ks_pbs/latency`: one keyswitch followed by one bootstrap.
//! - `cuda/pbs/throughput/<batch>`: one batched bootstrap launch (elements/s).
//! - `cuda/keyswitch/<batch>`: one batched keyswitch (elements/s).
//! - `cuda/multi_bit_pbs/latency`, `cuda/multi_bit_ks_pbs/latency`,
//!   `cuda/multi_bit_pbs/throughput/<batch>`, `cuda/multi_bit_keyswitch/<batch>`:
//!   the same on multi-bit keys (grouping factor 4).

#[path = "../tests/support/cuda_support.rs"]
mod cuda_support;
#[path = "../tests/support/skip.rs"]
mod skip;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use cuda_support::{big_zeros, bootstrap_list, bootstrap_one, gpu_for_tests, small_zeros, Keys};
use gpufhe::backend::cuda::*;
use gpufhe::backend::Table;
use gpufhe::core_crypto::LweCiphertextList;
use gpufhe::shortint::{
    ShortintParameters, DEFAULT_PARAMETERS,
    PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};
use std::time::Duration;

const BATCHES: [usize; 6] = [1, 16, 256, 1024, 4096, 8192];

fn bench(c: &mut Criterion) {
    let Some(gpu) = gpu_for_tests() else { return };
    bench_parameters(c, &gpu, DEFAULT_PARAMETERS, "");
    bench_parameters(
        c,
        &gpu,
        PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        "multi_bit_",
    );
}

/// The benches of `p`, their names prefixed by `prefix`.
fn bench_parameters(c: &mut Criterion, gpu: &CudaDevice, p: ShortintParameters, prefix: &str) {
    let gpu = gpu.clone();
    let keys = Keys::new(&gpu, p);
    let (ck, bsk, ksk) = (&keys.ck, &keys.bsk, &keys.ksk);
    let table = Table::new(&p, |x| (x * x + 1) % 16).expect("table");
    let luts = CudaLookupTableList::from_tables(&gpu, &p, &[&table]).expect("tables");

    // The largest batch of distinct encryptions, keyswitched once; smaller batches
    // use its prefix.
    let max = *BATCHES.iter().max().expect("batches");
    let blocks: Vec<u64> = (0..max)
        .flat_map(|i| {
            ck.encrypt_with_carry(i as u64 % 16)
                .expect("encrypt")
                .as_lwe()
                .as_slice()
                .to_vec()
        })
        .collect();
    let big_size = p.big_lwe_dimension().to_lwe_size();
    let upload = |len: usize| {
        let host = LweCiphertextList::from_container(blocks[..len * big_size.0].to_vec(), big_size)
            .expect("list");
        CudaLweCiphertextList::from_cpu(&gpu, &host).expect("upload")
    };

    let mut group = c.benchmark_group("cuda");
    {
        let big = upload(1);
        let mut small = small_zeros(&gpu, &p, 1);
        cuda_keyswitch_lwe_ciphertext_list(ksk, &big, &mut small).expect("keyswitch");
        let mut out = big_zeros(&gpu, &p, 1);
        group.bench_function(format!("{prefix}pbs/latency"), |b| {
            b.iter(|| {
                bootstrap_one(bsk, &small, &mut out, &luts, &p).expect("bootstrap");
                gpu.synchronize().expect("sync");
            })
        });
        group.bench_function(format!("{prefix}ks_pbs/latency"), |b| {
            b.iter(|| {
                cuda_keyswitch_lwe_ciphertext_list(ksk, &big, &mut small).expect("keyswitch");
                bootstrap_one(bsk, &small, &mut out, &luts, &p).expect("bootstrap");
                gpu.synchronize().expect("sync");
            })
        });
    }
    for batch in BATCHES {
        let big = upload(batch);
        let mut small = small_zeros(&gpu, &p, batch);
        group.throughput(Throughput::Elements(batch as u64));
        group.bench_with_input(
            BenchmarkId::new(format!("{prefix}keyswitch"), batch),
            &batch,
            |b, _| {
                b.iter(|| {
                    cuda_keyswitch_lwe_ciphertext_list(ksk, &big, &mut small).expect("keyswitch");
                    gpu.synchronize().expect("sync");
                })
            },
        );
        let mut out = big_zeros(&gpu, &p, batch);
        let lut_indexes = vec![0; batch];
        let slots: Vec<usize> = (0..batch).collect();
        group.bench_with_input(
            BenchmarkId::new(format!("{prefix}pbs/throughput"), batch),
            &batch,
            |b, _| {
                b.iter(|| {
                    bootstrap_list(bsk, &small, &mut out, &luts, &lut_indexes, &slots, &p)
                        .expect("bootstrap");
                    gpu.synchronize().expect("sync");
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
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
