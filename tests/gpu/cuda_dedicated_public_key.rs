//! Compact lists of dedicated public-key parameters, plain and proven (packed),
//! expanded with a GPU server key: the cast (keyswitch to the computation key, then
//! a bootstrap) and the unpacking run on the key's GPU, the values stay there and
//! decrypt as the CPU key's expansion does. The proven list is TFHE-rs 1.8.2's
//! golden one (its CRS is not needed to expand it; making one here would take most
//! of the test's time). Skips (`SKIPPED (no CUDA device)`) without a GPU.

use crate::cuda_high_level::GPU0;
use crate::skip::gpu_for_tests;
use gpufhe::prelude::*;
use gpufhe::safe_serialization::safe_deserialize;
use gpufhe::serialization::with_insecure_parameters_allowed;
use gpufhe::{
    set_server_key, unset_server_key, ClientKey, CompactCiphertextList,
    CompactCiphertextListExpander, CompactPublicKey, CompressedServerKey, Device, FheBool,
    FheInt16, FheUint8, GpuIndex, ProvenCompactCiphertextList, ServerKey,
};

/// TFHE-rs 1.8.2's golden file `name` (small insecure parameters).
fn golden(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tfhe-rs-1.8.2")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The values of `expander` (201u8, true, -1234i16), checked to live on `device`,
/// decrypted, and again after an operation each (with the thread's key).
fn clears(
    expander: &CompactCiphertextListExpander,
    ck: &ClientKey,
    device: Device,
) -> ((u8, bool, i16), (u8, bool, i16)) {
    let a: FheUint8 = expander.get(0).unwrap().unwrap();
    let b: FheBool = expander.get(1).unwrap().unwrap();
    let c: FheInt16 = expander.get(2).unwrap().unwrap();
    for d in [a.current_device(), b.current_device(), c.current_device()] {
        assert_eq!(d, device);
    }
    let read = (a.decrypt(ck), b.decrypt(ck), c.decrypt(ck));
    let (a, b, c) = (&a + 1u8, !&b, &c * 3i16);
    assert_eq!(a.current_device(), device);
    (read, (a.decrypt(ck), b.decrypt(ck), c.decrypt(ck)))
}

#[test]
fn dedicated_lists_expand_on_the_gpu_of_a_gpu_key() {
    if gpu_for_tests().is_none() {
        return;
    }
    // TFHE-rs's small parameters of dedicated keys for ZK v2 proofs (gpufhe's
    // PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 with the KS_PBS casting).
    let (ck, proven): (ClientKey, ProvenCompactCiphertextList) =
        with_insecure_parameters_allowed(|| {
            Ok::<_, String>((
                safe_deserialize(golden("small-zk-client_key.bin").as_slice(), 1 << 30)?,
                safe_deserialize(
                    golden("small-zk-proven_list-201-true-minus-1234.bin").as_slice(),
                    1 << 30,
                )?,
            ))
        })
        .unwrap();
    let compressed = CompressedServerKey::new(&ck);
    let gpu = compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .unwrap();
    let cpu = compressed.decompress();
    let pk = CompactPublicKey::new(&ck);
    let list = CompactCiphertextList::builder(&pk)
        .push(201u8)
        .push(true)
        .push(-1234i16)
        .build();
    let want = ((201, true, -1234), (202, false, -3702));
    let run = |key: &ServerKey, device: Device| {
        set_server_key(key.clone());
        assert_eq!(clears(&list.expand().unwrap(), &ck, device), want);
        // Packed: the GPU also bootstraps each pair apart.
        let expander = proven.expand_without_verification().unwrap();
        assert_eq!(clears(&expander, &ck, device), want);
        unset_server_key();
    };
    run(&gpu, GPU0);
    run(&cpu, Device::Cpu);
    // Given explicitly (no key on the thread), as a CudaServerKey.
    let cuda_key = compressed.decompress_to_specific_gpu(GpuIndex::new(0));
    let expander = list.expand_with_key(&cuda_key).unwrap();
    set_server_key(gpu.clone());
    assert_eq!(clears(&expander, &ck, GPU0), want);
    unset_server_key();
    // A list of another key: refused by the GPU key too, and a GPU key that could
    // not be made is an error, not a panic; without a server key, a dedicated list
    // cannot be cast.
    let other = ClientKey::generate(*ck.config());
    let other_list = CompactCiphertextList::builder(&CompactPublicKey::new(&other))
        .push(1u8)
        .build();
    assert!(other_list.expand_with_key(&gpu).is_err());
    let missing = compressed.decompress_to_specific_gpu(GpuIndex::new(99));
    assert!(list.expand_with_key(&missing).is_err());
    assert!(proven.expand_without_verification().is_err());
}
