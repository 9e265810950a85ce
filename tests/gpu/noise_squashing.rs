//! Noise squashing on a GPU (on the fake driver in CI): the 128-bit bootstrap kernel
//! (`cuda/noise_squashing_bootstrap.cu`) against the CPU's squashing on the same
//! blocks and key, and `SquashNoise` on a GPU key (packed pairs keyswitched and
//! bootstrapped on its GPU) decrypting as on a CPU key. Insecure test parameters
//! (k = 1, N = 512): an emulated 128-bit bootstrap of them takes about a second.

use crate::skip::gpu_for_tests;
use gpufhe::backend::cuda::{
    cuda_programmable_bootstrap_128_lwe_ciphertext_list, CudaFourierBootstrapKey128,
    CudaLweCiphertextList,
};
use gpufhe::core_crypto::{LweCiphertextList, ModulusSwitchType};
use gpufhe::prelude::*;
use gpufhe::shortint::{
    self, CompressedNoiseSquashingKey, NoiseSquashingPrivateKey,
    NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_NS,
    PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS,
};
use gpufhe::{
    set_server_key, ClientKey, CompressedServerKey, ConfigBuilder, FheBool, FheUint8, GpuIndex,
};

/// The kernel on keyswitched blocks, with the server's key converted from the CPU's
/// Fourier form (`CudaFourierBootstrapKey128::from_cpu`), against
/// `NoiseSquashingKey::squash`: every output's phase within 2^-48 of the torus of the
/// CPU's (the two FFTs round differently, see `cuda_emulation_128.rs`), the same
/// cleartext.
#[test]
fn the_gpu_128_bit_bootstrap_matches_the_cpu_squashing() {
    let Some(gpu) = gpu_for_tests() else { return };
    let ck = shortint::ClientKey::new(TEST_PARAMS).unwrap();
    let sk = shortint::ServerKey::new(&ck).unwrap();
    let private = NoiseSquashingPrivateKey::new(TEST_NS).unwrap();
    let nsk = CompressedNoiseSquashingKey::new(&ck, &private)
        .unwrap()
        .decompress();
    let blocks: Vec<shortint::Ciphertext> =
        [13, 0, 6].map(|m| ck.encrypt_with_carry(m).unwrap()).into();
    let small: Vec<u64> = blocks
        .iter()
        .flat_map(|b| sk.keyswitch(b).unwrap().as_slice().to_vec())
        .collect();
    let size = TEST_PARAMS.lwe_dimension.to_lwe_size();
    let input = CudaLweCiphertextList::from_cpu(
        &gpu,
        &LweCiphertextList::from_container(small, size).unwrap(),
    )
    .unwrap();
    let bsk = CudaFourierBootstrapKey128::from_cpu(&gpu, nsk.bootstrap_key()).unwrap();
    let lut = gpufhe::core_crypto::identity_lookup_table_128(
        TEST_NS.polynomial_size,
        TEST_NS.glwe_dimension,
        16,
        1 << TEST_NS.log2_delta(),
    )
    .unwrap();
    let out = cuda_programmable_bootstrap_128_lwe_ciphertext_list(
        &bsk,
        &input,
        &lut,
        ModulusSwitchType::CenteredMeanNoiseReduction,
    )
    .unwrap();
    assert_eq!(out.len(), 3);
    let phase_of = |ct: &gpufhe::core_crypto::LweCiphertext128| {
        gpufhe::core_crypto::decrypt_lwe_ciphertext_128(private.glwe_secret_key(), ct).unwrap()
    };
    for ((block, gpu_ct), m) in blocks.iter().zip(&out).zip([13u128, 0, 6]) {
        let cpu = nsk.squash(&sk, block).unwrap();
        let phase = phase_of(gpu_ct);
        let diff = (phase.wrapping_sub(phase_of(cpu.as_lwe())) as i128).unsigned_abs();
        assert!(
            diff < 1 << 80,
            "GPU and CPU phases 2^{:.1} apart",
            (diff as f64).log2()
        );
        let log2_delta = TEST_NS.log2_delta();
        assert_eq!(phase.wrapping_add(1 << (log2_delta - 1)) >> log2_delta, m);
    }
    // An input of another LWE size is an error, not a launch.
    let wrong = CudaLweCiphertextList::from_cpu(
        &gpu,
        &LweCiphertextList::from_container(vec![0u64; 10], gpufhe::core_crypto::LweSize(10))
            .unwrap(),
    )
    .unwrap();
    assert!(cuda_programmable_bootstrap_128_lwe_ciphertext_list(
        &bsk,
        &wrong,
        &lut,
        ModulusSwitchType::Standard
    )
    .is_err());
}

/// `SquashNoise` of an FheUint8 and an FheBool computed on a GPU key, squashed on
/// its GPU: they decrypt to the clear results, as the same values squashed by the
/// CPU key of the same compressed key.
#[test]
fn a_gpu_key_squashes_on_its_gpu() {
    if gpu_for_tests().is_none() {
        return;
    }
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST_PARAMS)
        .unwrap()
        .enable_noise_squashing(TEST_NS);
    let client = ClientKey::generate(config);
    let compressed = CompressedServerKey::new(&client);
    let gpu = compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .unwrap();
    assert!(gpu.supports_noise_squashing());
    set_server_key(gpu);
    let x = FheUint8::encrypt(100u8, &client);
    let y = FheUint8::encrypt(55u8, &client);
    let sum = &x ^ &y; // computed on the GPU
    let is_83: FheBool = sum.eq(83u8); // 100 ^ 55
    let squashed = sum.squash_noise().unwrap();
    let squashed_bool = is_83.squash_noise().unwrap();
    let back: u8 = squashed.decrypt(&client);
    assert_eq!(back, 100 ^ 55);
    assert!(squashed_bool.decrypt(&client));
    set_server_key(compressed.decompress());
    let on_cpu: u8 = sum.squash_noise().unwrap().decrypt(&client);
    let bool_on_cpu: bool = is_83.squash_noise().unwrap().decrypt(&client);
    assert_eq!((on_cpu, bool_on_cpu), (back, true));
}
