//! Compact lists of dedicated public-key parameters expanded with a GPU server key:
//! the cast (keyswitch to the computation key, then a bootstrap) runs on the CPU
//! threads of the key's host part, and the values then compute on the GPU, as on the
//! CPU key. Skips (`SKIPPED (no CUDA device)`) without a GPU.

use crate::cuda_high_level::GPU0;
use crate::skip::gpu_for_tests;
use gpufhe::prelude::*;
use gpufhe::shortint::parameters::{
    PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
    PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2 as PKE,
};
use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
use gpufhe::{
    set_server_key, unset_server_key, ClientKey, CompactCiphertextList, CompactPublicKey,
    CompressedServerKey, ConfigBuilder, Device, FheBool, FheInt16, FheUint8, GpuIndex, ServerKey,
};

#[test]
fn dedicated_lists_expand_with_a_gpu_key() {
    if gpu_for_tests().is_none() {
        return;
    }
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST)
        .unwrap()
        .use_dedicated_compact_public_key_parameters((PKE, KS))
        .build();
    let ck = ClientKey::generate(config);
    let compressed = CompressedServerKey::new(&ck);
    let gpu = compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .unwrap();
    let pk = CompactPublicKey::new(&ck);
    let list = CompactCiphertextList::builder(&pk)
        .push(201u8)
        .push(true)
        .push(-1234i16)
        .build();
    let run = |key: &ServerKey, device: Device| -> (u8, bool, i16) {
        set_server_key(key.clone());
        let expander = list.expand().unwrap();
        let a: FheUint8 = expander.get(0).unwrap().unwrap();
        let b: FheBool = expander.get(1).unwrap().unwrap();
        let c: FheInt16 = expander.get(2).unwrap().unwrap();
        let (a, b, c) = (&a + 1u8, !&b, &c * 3i16);
        assert_eq!(a.current_device(), device);
        let clears = (a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck));
        unset_server_key();
        clears
    };
    let want = (202, false, -3702);
    assert_eq!(run(&gpu, GPU0), want);
    assert_eq!(run(&compressed.decompress(), Device::Cpu), want);
    // The list of another key: refused by the GPU key too.
    let other = ClientKey::generate(config);
    let other_list = CompactCiphertextList::builder(&CompactPublicKey::new(&other))
        .push(1u8)
        .build();
    assert!(other_list.expand_with_key(&gpu).is_err());
}
