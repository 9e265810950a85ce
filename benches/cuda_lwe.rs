//! `cuda/lwe_add/1000x2049`: one batched addition of 1000 ciphertexts of size 2049
//! on the GPU, stream synchronized before the clock stops. Skips without a GPU.

#[path = "../tests/support/skip.rs"]
mod skip;

use criterion::{criterion_group, criterion_main, Criterion};
use gpufhe::backend::cuda::*;
use gpufhe::core_crypto::{LweCiphertextList, LweSize};
use skip::gpu_for_tests;

fn bench(c: &mut Criterion) {
    let Some(gpu) = gpu_for_tests() else { return };
    let size = LweSize(2049);
    let host: Vec<u64> = (0..1000 * size.0 as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let list = LweCiphertextList::from_container(host, size).expect("list");
    let mut a = CudaLweCiphertextList::from_cpu(&gpu, &list).expect("upload");
    let b = CudaLweCiphertextList::from_cpu(&gpu, &list).expect("upload");
    c.bench_function("cuda/lwe_add/1000x2049", |bench| {
        bench.iter(|| {
            cuda_add_lwe_ciphertext_list_assign(&mut a, &b).expect("launch");
            gpu.synchronize().expect("sync");
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
