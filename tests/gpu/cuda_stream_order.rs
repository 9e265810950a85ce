//! Buffers used from several streams of one GPU: a `CudaLweCiphertextList` read on
//! two streams and then freed or written waits for both readers, not only the last
//! one (cudarc's own event per buffer remembers only the last read).
//!
//! On the fake driver the streams run synchronously unless
//! `GPUFHE_FAKE_CUDA_DEFERRED=1`, which queues each stream's work until something
//! waits for it: then a missing wait runs a read after the free (an illegal address)
//! or after the write (a wrong sum), whatever the timing. .ci/run runs this test so:
//!
//! ```text
//! GPUFHE_FAKE_CUDA_DEFERRED=1 scripts/fake-cuda.sh cargo test --release --test gpu cuda_stream_order::
//! ```
//!
//! On a GPU the same orders are checked under real concurrency (a missing wait is
//! then a race that may or may not show). Without a device: `SKIPPED (no CUDA
//! device)`, a failure with `GPUFHE_REQUIRE_GPU=1`.

use crate::skip::gpu_for_tests;
use gpufhe::backend::cuda::*;
use gpufhe::core_crypto::{LweCiphertextList, LweSize};

const SIZE: LweSize = LweSize(513);
const COUNT: usize = 64;

fn values() -> LweCiphertextList<Vec<u64>> {
    let data = (0..(SIZE.0 * COUNT) as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    LweCiphertextList::from_container(data, SIZE).expect("list")
}

/// Zeros on `gpu`'s stream plus `source`, read there (one kernel).
fn read_into_sum(gpu: &CudaDevice, source: &CudaLweCiphertextList) -> CudaLweCiphertextList {
    let mut sum = CudaLweCiphertextList::new_zero(gpu, SIZE, source.count()).expect("zeros");
    cuda_add_lwe_ciphertext_list_assign(&mut sum, source).expect("add");
    sum
}

#[test]
fn a_list_read_on_two_streams_is_freed_after_both_reads() {
    let Some(gpu) = gpu_for_tests() else { return };
    let (a, b) = (
        gpu.with_new_stream().unwrap(),
        gpu.with_new_stream().unwrap(),
    );
    let host = values();
    let source = CudaLweCiphertextList::from_cpu(&gpu, &host).unwrap();
    let on_a = read_into_sum(&a, &source);
    let on_b = read_into_sum(&b, &source);
    // Freed in the order of its own stream, which must first wait for a and b.
    drop(source);
    gpu.synchronize().unwrap();
    assert_eq!(on_b.to_cpu().unwrap().as_slice(), host.as_slice());
    assert_eq!(on_a.to_cpu().unwrap().as_slice(), host.as_slice());
}

#[test]
fn a_list_read_on_two_streams_is_written_after_both_reads() {
    let Some(gpu) = gpu_for_tests() else { return };
    let (a, b) = (
        gpu.with_new_stream().unwrap(),
        gpu.with_new_stream().unwrap(),
    );
    let host = values();
    let mut source = CudaLweCiphertextList::from_cpu(&gpu, &host).unwrap();
    let on_a = read_into_sum(&a, &source);
    let on_b = read_into_sum(&b, &source);
    // Written on its own stream, which must first wait for a and b.
    cuda_negate_lwe_ciphertext_list_assign(&mut source).unwrap();
    gpu.synchronize().unwrap();
    assert_eq!(on_b.to_cpu().unwrap().as_slice(), host.as_slice());
    assert_eq!(on_a.to_cpu().unwrap().as_slice(), host.as_slice());
    let negated: Vec<u64> = host.as_slice().iter().map(|x| x.wrapping_neg()).collect();
    assert_eq!(source.to_cpu().unwrap().as_slice(), negated.as_slice());
}

#[test]
fn reads_and_writes_on_every_stream_keep_program_order() {
    let Some(gpu) = gpu_for_tests() else { return };
    let streams: Vec<CudaDevice> = (0..3).map(|_| gpu.with_new_stream().unwrap()).collect();
    let host = values();
    let mut source = CudaLweCiphertextList::from_cpu(&streams[0], &host).unwrap();
    let mut expected = host.as_slice().to_vec();
    let mut sums = Vec::new();
    for round in 0..4 {
        for s in &streams {
            sums.push((read_into_sum(s, &source), expected.clone()));
        }
        // Each write on the source's stream after reads on all three.
        cuda_negate_lwe_ciphertext_list_assign(&mut source).unwrap();
        expected.iter_mut().for_each(|x| *x = x.wrapping_neg());
        if round % 2 == 1 {
            streams[round % 3].synchronize().unwrap();
        }
    }
    drop(source);
    for (sum, want) in sums.iter().rev() {
        assert_eq!(sum.to_cpu().unwrap().as_slice(), want.as_slice());
    }
}
