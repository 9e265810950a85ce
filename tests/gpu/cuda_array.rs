//! Encrypted arrays with a GPU server key (insecure small parameters): TFHE-rs's GPU
//! array program in our words (a 2-D slice plus a slice, plus a clear array, with
//! the `Gpu` names), results equal to the CPU key's and left on the GPU, and an
//! elementwise addition of `n` elements in the bootstrap layers of one per circuit
//! (one circuit per stream worker of the GPU). Skips
//! (`SKIPPED (no CUDA device)`) without a GPU.

use crate::cuda_high_level::{gpu_keys, GPU0};

use gpufhe::array::{GpuFheUint8Array, GpuFheUint8Slice};
use gpufhe::prelude::*;
use gpufhe::scheduler::WorkerInfo;
use gpufhe::{set_server_key, ClearArray, GpuIndex};

#[test]
fn a_2d_slice_adds_on_the_gpu_as_on_the_cpu() {
    let Some(keys) = gpu_keys() else { return };
    let ck = &keys.client;
    let values: Vec<u8> = (0..16).collect();
    let xs = GpuFheUint8Array::try_encrypt((&values[..], vec![4, 4]), ck).unwrap();
    let ys = GpuFheUint8Array::try_encrypt((&[1u8; 16][..], vec![4, 4]), ck).unwrap();
    let corner: GpuFheUint8Slice<'_> = xs.slice(&[2..4, 2..4]);
    let ones = ys.slice(&[2..4, 2..4]);
    let offsets = ClearArray::new(vec![10u8, 20, 30, 40], vec![2, 2]);
    let mut results = Vec::new();
    for key in [&keys.gpu, &keys.cpu] {
        set_server_key(key.clone());
        let sum = &corner + &ones;
        let shifted = &corner + &offsets;
        let mixed = (&sum ^ &shifted) * &offsets;
        let on_gpu = !key.gpus().is_empty();
        for x in sum.iter().chain(shifted.iter()).chain(mixed.iter()) {
            assert_eq!(x.current_device() == GPU0, on_gpu);
        }
        let sum: Vec<u8> = sum.decrypt(ck);
        let shifted: Vec<u8> = shifted.decrypt(ck);
        assert_eq!(sum, [11, 12, 15, 16]);
        assert_eq!(shifted, [20, 31, 44, 55]);
        results.push(FheDecrypt::<Vec<u8>>::decrypt(&mixed, ck));
    }
    let want: Vec<u8> = [(11u8, 20u8, 10u8), (12, 31, 20), (15, 44, 30), (16, 55, 40)]
        .iter()
        .map(|&(s, t, k)| (s ^ t).wrapping_mul(k))
        .collect();
    assert_eq!(results, [want.clone(), want]);
}

#[test]
fn an_elementwise_add_on_the_gpu_takes_the_layers_of_one() {
    let Some(keys) = gpu_keys() else { return };
    let ck = &keys.client;
    let key = keys
        .compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .expect("GPU key");
    set_server_key(key.clone());
    let a: Vec<u8> = (0..12).map(|i| i * 21).collect();
    let xs = GpuFheUint8Array::try_encrypt((&a[..], vec![3, 4]), ck).unwrap();
    // Bootstraps, layers and circuits of `f`'s operations, and its result.
    let measure = |f: &dyn Fn() -> GpuFheUint8Array| {
        let before = key.stats();
        let out = f();
        let after = key.stats();
        let counts = [
            after.bootstraps - before.bootstraps,
            after.bootstrap_layers - before.bootstrap_layers,
            after.circuits - before.circuits,
        ];
        (counts, out)
    };
    let ([one_pbs, one_layers, _], one) =
        measure(&|| &xs.slice(&[0..1, 0..1]) + &xs.slice(&[1..2, 0..1]));
    let ([all_pbs, all_layers, circuits], all) = measure(&|| &xs + &xs);
    println!(
        "GPU FheUint8 add: 1 element {one_pbs} bootstraps in {one_layers} layers; {} \
         elements {all_pbs} bootstraps in {circuits} circuits of {all_layers} layers in all",
        a.len()
    );
    assert!(one_layers > 0);
    assert_eq!(all_pbs, a.len() as u64 * one_pbs);
    // The batch is shared among the key's stream workers, one circuit each, which
    // run at once: each has the layers of one addition.
    let workers: usize = key
        .workers()
        .iter()
        .map(|w| match w {
            WorkerInfo::Gpu { streams, .. } => *streams,
            WorkerInfo::Cpu { .. } => 1,
        })
        .sum();
    assert!(
        (1..=workers as u64).contains(&circuits),
        "{circuits} circuits"
    );
    assert_eq!(all_layers, circuits * one_layers);
    assert_eq!(
        FheDecrypt::<Vec<u8>>::decrypt(&one, ck),
        [a[0].wrapping_add(a[4])]
    );
    let want: Vec<u8> = a.iter().map(|x| x.wrapping_add(*x)).collect();
    assert_eq!(FheDecrypt::<Vec<u8>>::decrypt(&all, ck), want);
}
