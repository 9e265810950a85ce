//! Noise squashing with a GPU server key (on the fake driver in CI): the key
//! squashes on the CPU threads with its host key, values computed on the GPU
//! included, and decrypts as on the CPU.

use crate::skip::gpu_for_tests;
use gpufhe::prelude::*;
use gpufhe::shortint::{
    NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_NS,
    PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS,
};
use gpufhe::{set_server_key, ClientKey, CompressedServerKey, ConfigBuilder, FheUint8, GpuIndex};

#[test]
fn a_gpu_key_squashes_on_the_host() {
    if gpu_for_tests().is_none() {
        return;
    }
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST_PARAMS)
        .unwrap()
        .enable_noise_squashing(TEST_NS);
    let client = ClientKey::generate(config);
    let gpu = CompressedServerKey::new(&client)
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .unwrap();
    assert!(gpu.supports_noise_squashing());
    set_server_key(gpu);
    let x = FheUint8::encrypt(100u8, &client);
    let y = FheUint8::encrypt(55u8, &client);
    let sum = &x ^ &y; // computed on the GPU
    let squashed = sum.squash_noise().unwrap();
    let back: u8 = squashed.decrypt(&client);
    assert_eq!(back, 100 ^ 55);
}
