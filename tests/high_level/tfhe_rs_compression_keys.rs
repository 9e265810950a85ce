//! Compression in TFHE-rs 1.8's form, keys and lists: TFHE-rs's own
//! CompressedCiphertextList (a golden file of `compare/examples/tfhers_golden.rs`)
//! read, decompressed and written back byte for byte; gpufhe's server keys and
//! compressed server keys with compression keys written in TFHE-rs's form, read
//! back byte for byte, compressing and decompressing; hostile input refused.

use gpufhe::prelude::*;
use gpufhe::safe_serialization::{safe_deserialize, safe_serialize};
use gpufhe::serialization::with_insecure_parameters_allowed;
use gpufhe::shortint::{
    COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
};
use gpufhe::{
    ClientKey, CompressedCiphertextList, CompressedCiphertextListBuilder, CompressedServerKey,
    ConfigBuilder, FheBool, FheInt16, FheUint8, ServerKey,
};

use crate::tfhe_rs_support::{golden, read_small_exactly, round_trip, LIMIT};

const LIST: &str = "small-compression-list-201-minus-12345-true.bin";

/// The values of the golden list (and of the lists these tests make), read with
/// `server_key` and decrypted.
fn read_values(list: &CompressedCiphertextList, client_key: &ClientKey, server_key: &ServerKey) {
    let a: FheUint8 = list.get_with(0, server_key).unwrap().unwrap();
    let b: FheInt16 = list.get_with(1, server_key).unwrap().unwrap();
    let c: FheBool = list.get_with(2, server_key).unwrap().unwrap();
    let clears: (u8, i16, bool) = (
        a.decrypt(client_key),
        b.decrypt(client_key),
        c.decrypt(client_key),
    );
    assert_eq!(clears, (201, -12345, true));
    assert!(list.get_with::<FheBool>(3, server_key).unwrap().is_none());
}

/// The values of the golden list, packed with `server_key`.
fn compress(client_key: &ClientKey, server_key: &ServerKey) -> CompressedCiphertextList {
    let mut builder = CompressedCiphertextListBuilder::new();
    builder
        .push(FheUint8::encrypt(201u8, client_key))
        .push(FheInt16::encrypt(-12345i16, client_key))
        .push(FheBool::encrypt(true, client_key));
    builder.build_with(server_key).unwrap()
}

/// TFHE-rs's list, read exactly and decompressed with gpufhe's keys of TFHE-rs's
/// client key; gpufhe's server keys with compression keys, in TFHE-rs's form,
/// read exactly (compressed and expanded) and compressing what TFHE-rs's client key
/// encrypts; gpufhe's list of them read exactly.
#[test]
fn tfhe_rs_lists_and_server_keys_with_compression_keys_round_trip_exactly() {
    let client_key: ClientKey = read_small_exactly("small-compression-client_key.bin");
    let list: CompressedCiphertextList = read_small_exactly(LIST);
    assert_eq!(list.len(), 3);
    let compressed = CompressedServerKey::new(&client_key);
    let compressed = round_trip(&compressed);
    let server_key = round_trip(&compressed.decompress());
    read_values(&list, &client_key, &server_key);
    let ours = round_trip(&compress(&client_key, &server_key));
    read_values(&ours, &client_key, &server_key);
}

/// Hostile lists and keys: truncations, a list of unknown compression parameters,
/// a list that names gpufhe's earlier own form, a list decompressed by a key
/// without compression keys: `Err`, never a panic.
#[test]
fn hostile_lists_and_compression_keys_are_errs() {
    let bytes = golden(LIST);
    let read = |bytes: &[u8]| {
        with_insecure_parameters_allowed(|| {
            safe_deserialize::<CompressedCiphertextList>(bytes, LIMIT)
        })
    };
    for len in (0..bytes.len()).step_by(7) {
        assert!(read(&bytes[..len]).is_err(), "truncated to {len} bytes");
    }
    for at in (0..bytes.len()).step_by(3) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x41;
        let _ = read(&bad);
    }
    // lwe_per_glwe of the list's metadata (128, after the moduli and the atomic
    // pattern) set to 64: no known compression set packs so.
    let meta: Vec<u8> = [
        &[0u8; 4][..],
        &4u64.to_le_bytes(),
        &[0; 4],
        &4u64.to_le_bytes(),
        &[0; 16],
        &[0; 4],
        &128u64.to_le_bytes(),
    ]
    .concat();
    let at = bytes
        .windows(meta.len())
        .position(|w| w == meta.as_slice())
        .expect("the list's metadata");
    let mut other = bytes.clone();
    other[at + meta.len() - 8] = 64;
    let e = read(&other).unwrap_err().to_string();
    assert!(e.contains("compression parameter"), "{e}");
    // gpufhe's earlier list, under its own name: an error that says how to convert.
    let (tfhe_rs_name, own_name) = (
        "high_level_api::CompressedCiphertextList",
        "gpufhe::CompressedCiphertextList",
    );
    let at = bytes
        .windows(tfhe_rs_name.len())
        .position(|w| w == tfhe_rs_name.as_bytes())
        .unwrap();
    let mut earlier = bytes[..at - 8].to_vec();
    earlier.extend((own_name.len() as u64).to_le_bytes());
    earlier.extend(own_name.as_bytes());
    earlier.extend(&bytes[at + tfhe_rs_name.len()..]);
    let e = read(&earlier).unwrap_err().to_string();
    assert!(e.contains("gpufhe::serialization::safe_serialize"), "{e}");
    // A server key of these blocks without compression keys cannot decompress it.
    let list = read(&bytes).unwrap();
    let plain: CompressedServerKey = with_insecure_parameters_allowed(|| {
        safe_deserialize(golden("small-compressed_server_key.bin").as_slice(), LIMIT)
    })
    .unwrap();
    assert!(list.get_with::<FheUint8>(0, &plain.decompress()).is_err());
}

/// Truncated and corrupted compressed server keys with compression keys: `Err` or
/// a key, never a panic; gpufhe's own files of such keys before format version 5:
/// `Err`.
#[test]
fn hostile_server_keys_with_compression_keys_are_errs() {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
        .unwrap()
        .enable_compression(COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
    let client_key = ClientKey::generate(config);
    let key = CompressedServerKey::new(&client_key);
    // gpufhe's own format before version 5 drew the seeded packing key's masks in
    // another order: refused, saying to regenerate.
    let mut own = Vec::new();
    gpufhe::serialization::safe_serialize(&key, &mut own, LIMIT).unwrap();
    assert_eq!(own[8..12], 5u32.to_le_bytes());
    own[8..12].copy_from_slice(&4u32.to_le_bytes());
    let e = with_insecure_parameters_allowed(|| {
        gpufhe::serialization::safe_deserialize::<CompressedServerKey>(own.as_slice(), LIMIT)
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("generate the compression keys again"), "{e}");
    let mut bytes = Vec::new();
    safe_serialize(&key, &mut bytes, LIMIT).unwrap();
    let read = |bytes: &[u8]| {
        with_insecure_parameters_allowed(|| safe_deserialize::<CompressedServerKey>(bytes, LIMIT))
    };
    assert!(read(&bytes).is_ok());
    for len in (0..bytes.len()).step_by(bytes.len() / 97) {
        assert!(read(&bytes[..len]).is_err(), "truncated to {len} bytes");
    }
    // The end of the key: the compression keys, the OPRF key and the tag.
    for at in (bytes.len() - 200..bytes.len()).step_by(3) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x41;
        let _ = read(&bad);
    }
}
