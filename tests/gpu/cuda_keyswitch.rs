//! The batched GPU keyswitch against the CPU's, bit for bit. Prints `SKIPPED (no
//! CUDA device)` and passes where there is no GPU; fails under `GPUFHE_REQUIRE_GPU=1`.

use crate::cuda_support;

use cuda_support::*;
use gpufhe::backend::cuda::*;
use gpufhe::core_crypto::*;
use gpufhe::shortint::{Ciphertext, DEFAULT_PARAMETERS};
use gpufhe::Error;

/// Keyswitches `cts` on the GPU and on the CPU and asserts equal bits; returns the
/// GPU's results.
fn check_batch(
    gpu: &CudaDevice,
    keys: &Keys,
    cts: &[LweCiphertextOwned],
) -> LweCiphertextListOwned {
    let ksk = keys.cpu.keyswitch_key();
    let input = CudaLweCiphertextList::from_cpu(gpu, &lwe_list(cts)).unwrap();
    let mut output =
        CudaLweCiphertextList::new_zero(gpu, ksk.output_lwe_size(), LweCiphertextCount(cts.len()))
            .unwrap();
    cuda_keyswitch_lwe_ciphertext_list(&keys.ksk, &input, &mut output).unwrap();
    let from_gpu = output.to_cpu().unwrap();
    assert_eq!(from_gpu.count().0, cts.len());
    for (j, (g, ct)) in from_gpu.iter().zip(cts).enumerate() {
        let mut c = LweCiphertextOwned::new_zero(ksk.output_lwe_size());
        keyswitch_lwe_ciphertext(ksk, ct, &mut c).unwrap();
        assert_eq!(
            g.as_slice(),
            c.as_slice(),
            "ciphertext {j} of {}",
            cts.len()
        );
    }
    from_gpu
}

fn encrypt_blocks(keys: &Keys, count: usize) -> Vec<Ciphertext> {
    (0..count)
        .map(|i| keys.ck.encrypt_with_carry(i as u64 * 7 % 16).unwrap())
        .collect()
}

/// Keyswitches encryptions of known values and checks bits and decryptions.
fn check_blocks(gpu: &CudaDevice, keys: &Keys, blocks: &[Ciphertext]) {
    let cts: Vec<LweCiphertextOwned> = blocks.iter().map(|b| b.as_lwe().clone()).collect();
    let out = check_batch(gpu, keys, &cts);
    let delta = keys.params().delta();
    for (j, (ct, block)) in out.iter().zip(blocks).enumerate() {
        let phase = decrypt_lwe_ciphertext(keys.ck.small_lwe_secret_key(), &ct).unwrap();
        let value = phase.wrapping_add(delta / 2) / delta % 32;
        let expected = keys.ck.decrypt_message_and_carry(block).unwrap();
        assert_eq!(value, expected, "ciphertext {j}");
    }
}

/// Ciphertexts with uniformly random coefficients: every digit value appears,
/// B/2 with both tie outcomes included.
fn random_ciphertexts(size: LweSize, count: usize, seed: u64) -> Vec<LweCiphertextOwned> {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    (0..count)
        .map(|_| LweCiphertextOwned::from_container((0..size.0).map(|_| next()).collect()).unwrap())
        .collect()
}

#[test]
fn batched_keyswitch_is_bit_identical_to_the_cpu() {
    let Some(gpu) = gpu_for_tests() else { return };
    let keys = Keys::new(&gpu, small_parameters());
    // 1 and 17 exercise the split key rows and a partial tile of ciphertexts; 1000
    // fills the GPU without splits.
    let blocks = encrypt_blocks(&keys, 1000);
    for count in [1, 17, 1000] {
        check_blocks(&gpu, &keys, &blocks[..count]);
    }
    let size = keys.params().big_lwe_dimension().to_lwe_size();
    check_batch(&gpu, &keys, &random_ciphertexts(size, 300, 1));
}

#[test]
fn batched_keyswitch_on_the_default_parameters_is_bit_identical() {
    let Some(gpu) = gpu_for_tests() else { return };
    let keys = Keys::new(&gpu, DEFAULT_PARAMETERS);
    let blocks = encrypt_blocks(&keys, 200);
    check_blocks(&gpu, &keys, &blocks[..3]);
    check_blocks(&gpu, &keys, &blocks);
    let size = DEFAULT_PARAMETERS.big_lwe_dimension().to_lwe_size();
    check_batch(&gpu, &keys, &random_ciphertexts(size, 40, 2));
}

#[test]
fn mismatched_keyswitch_lists_are_errors() {
    let Some(gpu) = gpu_for_tests() else { return };
    let keys = Keys::new(&gpu, small_parameters());
    let p = keys.params();
    let blocks = encrypt_blocks(&keys, 4);
    let input = CudaLweCiphertextList::from_cpu(&gpu, &block_list(&blocks)).unwrap();
    let small = p.lwe_dimension.to_lwe_size();
    let mut fewer = CudaLweCiphertextList::new_zero(&gpu, small, LweCiphertextCount(3)).unwrap();
    let err = cuda_keyswitch_lwe_ciphertext_list(&keys.ksk, &input, &mut fewer).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                expected: 4,
                got: 3,
                ..
            }
        ),
        "{err}"
    );
    let mut wrong_size =
        CudaLweCiphertextList::new_zero(&gpu, LweSize(small.0 + 1), LweCiphertextCount(4)).unwrap();
    assert!(cuda_keyswitch_lwe_ciphertext_list(&keys.ksk, &input, &mut wrong_size).is_err());
    // A list of small ciphertexts is not a valid input.
    let mut out = CudaLweCiphertextList::new_zero(&gpu, small, LweCiphertextCount(4)).unwrap();
    let small_input = CudaLweCiphertextList::new_zero(&gpu, small, LweCiphertextCount(4)).unwrap();
    assert!(cuda_keyswitch_lwe_ciphertext_list(&keys.ksk, &small_input, &mut out).is_err());
    assert_eq!(
        out.to_cpu().unwrap().as_slice(),
        vec![0u64; 4 * small.0].as_slice(),
        "a failed call must not touch its output"
    );
    // An empty batch is fine.
    let empty_in =
        CudaLweCiphertextList::new_zero(&gpu, input.lwe_size(), LweCiphertextCount(0)).unwrap();
    let mut empty_out =
        CudaLweCiphertextList::new_zero(&gpu, small, LweCiphertextCount(0)).unwrap();
    cuda_keyswitch_lwe_ciphertext_list(&keys.ksk, &empty_in, &mut empty_out).unwrap();
}
