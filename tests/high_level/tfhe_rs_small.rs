//! TFHE-rs 1.8.2's data on small (insecure) parameters, the values of gpufhe's
//! `PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2`: the golden `small-*` files of
//! `tests/data/tfhe-rs-1.8.2/` (written by `compare/examples/tfhers_golden.rs`)
//! read, computed on with a gpufhe server key of the TFHE-rs client key, written
//! back byte for byte, and gpufhe's results decrypted by that client key.

use gpufhe::prelude::*;
use gpufhe::safe_serialization::{safe_deserialize, safe_serialize};
use gpufhe::serialization::with_insecure_parameters_allowed;
use gpufhe::{
    ClientKey, CompactCiphertextList, CompressedFheUint16, CompressedFheUint8, FheBool, FheInt16,
    FheUint64, FheUint8, ServerKey,
};
use std::sync::OnceLock;

use crate::tfhe_rs_support::{golden, read_small_exactly as read_exactly, LIMIT};

/// TFHE-rs's small client key and a gpufhe server key made from it.
fn keys() -> &'static (ClientKey, ServerKey) {
    static KEYS: OnceLock<(ClientKey, ServerKey)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let client_key: ClientKey = read_exactly("small-client_key.bin");
        let server_key = ServerKey::new(&client_key);
        (client_key, server_key)
    })
}

#[test]
fn tfhe_rs_values_compute_in_gpufhe() {
    let (client_key, server_key) = keys();
    gpufhe::set_server_key(server_key.clone());
    let a: FheUint8 = read_exactly("small-fheuint8-a-201.bin");
    let b: FheUint8 = read_exactly("small-fheuint8-b-87.bin");
    // TFHE-rs's own results decrypt here.
    let sum: FheUint8 = read_exactly("small-fheuint8-a-plus-b.bin");
    let product: FheUint8 = read_exactly("small-fheuint8-a-times-b.bin");
    let less: FheBool = read_exactly("small-fhebool-a-lt-b.bin");
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&sum, client_key),
        201u8.wrapping_add(87)
    );
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&product, client_key),
        201u8.wrapping_mul(87)
    );
    assert!(!less.decrypt(client_key));
    // gpufhe computes the same on TFHE-rs's values.
    let mine = &a + &b;
    assert_eq!(FheDecrypt::<u8>::decrypt(&mine, client_key), 32);
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&a * &b), client_key), 79);
    assert!(!a.lt(&b).decrypt(client_key));
    // Written in TFHE-rs's layout (the same size as TFHE-rs's result).
    let mut bytes = Vec::new();
    safe_serialize(&mine, &mut bytes, LIMIT).unwrap();
    assert_eq!(bytes.len(), golden("small-fheuint8-a-plus-b.bin").len());
    let wide: FheUint64 = read_exactly("small-fheuint64-18364758544493064720.bin");
    assert_eq!(
        FheDecrypt::<u64>::decrypt(&wide, client_key),
        18364758544493064720
    );
    let signed: FheInt16 = read_exactly("small-fheint16-minus-12345.bin");
    assert_eq!(
        FheDecrypt::<i16>::decrypt(&(&signed + 45i16), client_key),
        -12300
    );
    gpufhe::unset_server_key();
}

#[test]
fn tfhe_rs_compressed_values_and_packed_lists_expand_in_gpufhe() {
    let (client_key, server_key) = keys();
    gpufhe::set_server_key(server_key.clone());
    // Compressed by TFHE-rs after a computation (two blocks per ciphertext).
    let compressed: CompressedFheUint8 = read_exactly("small-compressed_fheuint8-a.bin");
    let a: FheUint8 = compressed.decompress();
    assert_eq!(FheDecrypt::<u8>::decrypt(&a, client_key), 201);
    // gpufhe compresses the same way: TFHE-rs's size.
    let again = a.compress();
    let mut bytes = Vec::new();
    safe_serialize(&again, &mut bytes, LIMIT).unwrap();
    assert_eq!(bytes.len(), golden("small-compressed_fheuint8-a.bin").len());
    let back: CompressedFheUint8 = safe_deserialize(bytes.as_slice(), LIMIT).unwrap();
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&back.decompress(), client_key),
        201
    );
    // Packed lists (build_packed) bootstrap their blocks apart.
    for name in [
        "small-compact_list-7-true-minus-3-48879.bin",
        "small-compact_list_packed-7-true-minus-3-48879.bin",
    ] {
        let list: CompactCiphertextList = read_exactly(name);
        let expander = list.expand().unwrap();
        let x: FheUint8 = expander.get(0).unwrap().unwrap();
        let y: FheBool = expander.get(1).unwrap().unwrap();
        let z: gpufhe::FheInt8 = expander.get(2).unwrap().unwrap();
        let w: gpufhe::FheUint16 = expander.get(3).unwrap().unwrap();
        assert_eq!(FheDecrypt::<u8>::decrypt(&x, client_key), 7, "{name}");
        assert!(y.decrypt(client_key), "{name}");
        assert_eq!(FheDecrypt::<i8>::decrypt(&z, client_key), -3, "{name}");
        assert_eq!(FheDecrypt::<u16>::decrypt(&w, client_key), 48879, "{name}");
    }
    gpufhe::unset_server_key();
    let seeded: CompressedFheUint16 = read_exactly("small-compressed_fheuint16-4660.bin");
    assert_eq!(
        FheDecrypt::<u16>::decrypt(&seeded.decompress(), client_key),
        4660
    );
}

#[test]
fn tfhe_rs_server_keys_compute_in_gpufhe_and_round_trip_exactly() {
    let (client_key, _) = keys();
    // TFHE-rs's compressed server key: seeds and bodies, written back as read.
    let compressed: gpufhe::CompressedServerKey = read_exactly("small-compressed_server_key.bin");
    let server_key = compressed.decompress();
    let a: FheUint8 = read_exactly("small-fheuint8-a-201.bin");
    let b: FheUint8 = read_exactly("small-fheuint8-b-87.bin");
    gpufhe::set_server_key(server_key.clone());
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&a + &b), client_key), 32);
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&a * &b), client_key), 79);
    // The decompressed key in TFHE-rs's form (its Fourier key an exact permutation
    // of gpufhe's): read back, it computes the same and is written the same.
    let mut bytes = Vec::new();
    safe_serialize(&server_key, &mut bytes, LIMIT).unwrap();
    let read: ServerKey =
        with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), LIMIT)).unwrap();
    let mut again = Vec::new();
    safe_serialize(&read, &mut again, LIMIT).unwrap();
    assert!(
        again == bytes,
        "a server key is not written back byte for byte"
    );
    gpufhe::set_server_key(read);
    assert!(a.gt(&b).decrypt(client_key));
    gpufhe::unset_server_key();
    // Outside the insecure scope, keys of insecure parameters are refused.
    let err = safe_deserialize::<ServerKey>(bytes.as_slice(), LIMIT).unwrap_err();
    assert!(err.contains("insecure"), "{err}");
}

#[test]
fn a_tfhe_rs_compressed_server_key_computes_on_the_gpu() {
    if gpufhe::get_number_of_gpus() == 0 {
        crate::skip::report_skipped(format_args!("(no CUDA device)"));
        return;
    }
    let (client_key, _) = keys();
    let compressed: gpufhe::CompressedServerKey = read_exactly("small-compressed_server_key.bin");
    gpufhe::set_server_key(compressed.decompress_to_gpu());
    let a: FheUint8 = read_exactly("small-fheuint8-a-201.bin");
    let b: FheUint8 = read_exactly("small-fheuint8-b-87.bin");
    let sum = &a + &b;
    assert!(matches!(sum.current_device(), gpufhe::Device::CudaGpu(_)));
    assert_eq!(FheDecrypt::<u8>::decrypt(&sum, client_key), 32);
    // Written in TFHE-rs's format from the GPU: the size of TFHE-rs's own result.
    let mut bytes = Vec::new();
    safe_serialize(&sum, &mut bytes, LIMIT).unwrap();
    assert_eq!(bytes.len(), golden("small-fheuint8-a-plus-b.bin").len());
    // A packed list (TFHE-rs's build_packed): its pairs bootstrapped apart on the GPU,
    // where the values stay.
    let list: CompactCiphertextList =
        read_exactly("small-compact_list_packed-7-true-minus-3-48879.bin");
    let expander = list.expand().unwrap();
    let y: FheBool = expander.get(1).unwrap().unwrap();
    let w: gpufhe::FheUint16 = expander.get(3).unwrap().unwrap();
    assert!(matches!(w.current_device(), gpufhe::Device::CudaGpu(_)));
    assert!(y.decrypt(client_key));
    assert_eq!(FheDecrypt::<u16>::decrypt(&w, client_key), 48879);
    gpufhe::unset_server_key();
}
