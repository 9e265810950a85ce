//! Ciphertext compression through the high-level API on the insecure test
//! parameters (fast): values of every kind, computed and trivial values, many lists
//! of one GLWE ciphertext and more, serialization, and every mismatch as an `Err`.
//! The default parameters run in the doc example of
//! `CompressedCiphertextListBuilder` and in the shortint unit tests.

use gpufhe::prelude::*;
use gpufhe::serialization::{
    safe_deserialize, safe_deserialize_conformant, safe_serialize, with_insecure_parameters_allowed,
};
use gpufhe::shortint::{
    COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
};
use gpufhe::{
    generate_keys, set_server_key, ClientKey, CompressedCiphertextList,
    CompressedCiphertextListBuilder, ConfigBuilder, FheBool, FheInt16, FheUint128, FheUint2,
    FheUint256, FheUint64, FheUint8, ServerKey,
};
use std::sync::OnceLock;

fn config(compression: bool) -> gpufhe::Config {
    let builder = ConfigBuilder::default()
        .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
        .unwrap();
    if compression {
        builder
            .try_enable_compression(COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .unwrap()
            .build()
    } else {
        builder.build()
    }
}

fn keys() -> &'static (ClientKey, ServerKey) {
    static KEYS: OnceLock<(ClientKey, ServerKey)> = OnceLock::new();
    KEYS.get_or_init(|| generate_keys(config(true)))
}

fn setup() -> &'static ClientKey {
    let (client_key, server_key) = keys();
    set_server_key(server_key.clone());
    client_key
}

#[test]
fn values_of_every_kind_come_back() {
    let ck = setup();
    let a = FheUint64::encrypt(0xdead_beef_0123_4567u64, ck);
    let b = FheUint64::encrypt(0x1111_2222_3333_4444u64, ck);
    let sum = &a + &b; // a computed value
    let trivial = FheUint8::encrypt_trivial(77u8);
    let signed = FheInt16::encrypt(-12_345i16, ck);
    let flag = sum.gt(&a);
    let wide = FheUint128::encrypt(u128::MAX - 5, ck);
    let tiny = FheUint2::encrypt(3u8, ck);
    let huge_value = gpufhe::integer::U256::from((u128::MAX / 3, u128::MAX / 11));
    let huge = FheUint256::encrypt(huge_value, ck);
    let mut builder = CompressedCiphertextListBuilder::new();
    builder
        .push(sum)
        .push(trivial)
        .push(signed)
        .push(flag)
        .push(wide)
        .push(tiny)
        .push(huge);
    let list = builder.build().unwrap();
    assert_eq!(list.len(), 7);
    assert_eq!(list.get_kind_of(3), Some(gpufhe::FheTypes::Bool));
    assert_eq!(list.get_kind_of(6), Some(gpufhe::FheTypes::Uint256));
    assert_eq!(list.get_kind_of(7), None);
    let sum: FheUint64 = list.get(0).unwrap().unwrap();
    let trivial: FheUint8 = list.get(1).unwrap().unwrap();
    let signed: FheInt16 = list.get(2).unwrap().unwrap();
    let flag: FheBool = list.get(3).unwrap().unwrap();
    let wide: FheUint128 = list.get(4).unwrap().unwrap();
    let tiny: FheUint2 = list.get(5).unwrap().unwrap();
    let huge: FheUint256 = list.get(6).unwrap().unwrap();
    assert_eq!(
        FheDecrypt::<gpufhe::integer::U256>::decrypt(&huge, ck),
        huge_value
    );
    let expected = 0xdead_beef_0123_4567u64.wrapping_add(0x1111_2222_3333_4444);
    assert_eq!(FheDecrypt::<u64>::decrypt(&sum, ck), expected);
    assert_eq!(FheDecrypt::<u8>::decrypt(&trivial, ck), 77);
    assert_eq!(FheDecrypt::<i16>::decrypt(&signed, ck), -12_345);
    assert!(flag.decrypt(ck));
    assert_eq!(FheDecrypt::<u128>::decrypt(&wide, ck), u128::MAX - 5);
    assert_eq!(FheDecrypt::<u8>::decrypt(&tiny, ck), 3);
    // Decompressed values compute like any other.
    let again: u64 = (&sum + 1u64).decrypt(ck);
    assert_eq!(again, expected.wrapping_add(1));
    let both: u8 = (&trivial ^ &FheUint8::encrypt(1u8, ck)).decrypt(ck);
    assert_eq!(both, 76);
    assert!(list.get::<FheUint64>(7).unwrap().is_none());
    assert!(list.get::<FheUint8>(0).is_err());
}

#[test]
fn lists_longer_than_one_glwe_ciphertext() {
    let ck = setup();
    // 20 FheUint64 = 640 blocks: five GLWE ciphertexts of 128 blocks.
    let values: Vec<u64> = (0..20u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let mut builder = CompressedCiphertextListBuilder::new();
    builder.extend(values.iter().map(|&v| FheUint64::encrypt(v, ck)));
    let list = builder.build().unwrap();
    for (i, &v) in values.iter().enumerate() {
        let x: FheUint64 = list.get(i).unwrap().unwrap();
        assert_eq!(FheDecrypt::<u64>::decrypt(&x, ck), v, "value {i}");
    }
    let empty = CompressedCiphertextListBuilder::new().build().unwrap();
    assert!(empty.is_empty());
    assert!(empty.get::<FheUint8>(0).unwrap().is_none());
}

#[test]
fn serialized_lists_are_checked() {
    let ck = setup();
    let mut builder = CompressedCiphertextListBuilder::new();
    builder
        .push(FheUint8::encrypt(200u8, ck))
        .push(FheBool::encrypt(true, ck));
    let list = builder.build().unwrap();
    let mut bytes = Vec::new();
    safe_serialize(&list, &mut bytes, 1 << 20).unwrap();
    let read: CompressedCiphertextList = with_insecure_parameters_allowed(|| {
        safe_deserialize_conformant(bytes.as_slice(), 1 << 20, &ck.into())
    })
    .unwrap();
    let x: FheUint8 = read.get(0).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, ck), 200);
    // Of the configuration without compression: not conformant.
    let other = config(false);
    assert!(with_insecure_parameters_allowed(|| {
        safe_deserialize_conformant::<CompressedCiphertextList>(
            bytes.as_slice(),
            1 << 20,
            &(&other).into(),
        )
    })
    .is_err());
    // Every truncation and a flipped byte in each part: an Err or a list that
    // still reads (no panic).
    for len in 0..bytes.len() {
        let _ = with_insecure_parameters_allowed(|| {
            safe_deserialize::<CompressedCiphertextList>(&bytes[..len], 1 << 20)
        });
    }
    for at in (0..bytes.len()).step_by(97) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x5a;
        if let Ok(list) = with_insecure_parameters_allowed(|| {
            safe_deserialize::<CompressedCiphertextList>(bad.as_slice(), 1 << 20)
        }) {
            for i in 0..list.len() {
                let _ = list.get::<FheUint8>(i);
                let _ = list.get::<FheBool>(i);
            }
        }
    }
}

#[test]
fn keys_without_compression_and_other_keys_are_refused() {
    let ck = setup();
    let mut builder = CompressedCiphertextListBuilder::new();
    builder.push(FheUint8::encrypt(5u8, ck));
    let list = builder.build().unwrap();

    let (other_ck, other_sk) = generate_keys(config(true));
    assert!(list.get_with::<FheUint8>(0, &other_sk).is_err());
    let mut foreign = CompressedCiphertextListBuilder::new();
    foreign.push(FheUint8::encrypt(5u8, &other_ck));
    assert!(foreign.build().is_err()); // this thread's key is not its key
    assert!(foreign.build_with(&other_sk).is_ok());

    let (plain_ck, plain_sk) = generate_keys(config(false));
    let mut plain = CompressedCiphertextListBuilder::new();
    plain.push(FheUint8::encrypt(5u8, &plain_ck));
    let err = plain.build_with(&plain_sk).unwrap_err();
    assert!(err.to_string().contains("enable_compression"), "{err}");

    // Invalid compression parameters: key generation says so.
    let mut bad = COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
    bad.storage_log_modulus = 6; // too much rounding noise
    let builder = ConfigBuilder::default()
        .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
        .unwrap();
    assert!(builder.try_enable_compression(bad).is_err());
    assert!(ClientKey::try_generate(builder.enable_compression(bad)).is_err());
}

#[test]
fn keys_with_compression_serialize() {
    let (ck, sk) = keys();
    let mut bytes = Vec::new();
    safe_serialize(sk, &mut bytes, 1 << 30).unwrap();
    let read: ServerKey =
        with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), 1 << 30)).unwrap();
    let mut client_bytes = Vec::new();
    safe_serialize(ck, &mut client_bytes, 1 << 30).unwrap();
    let client: ClientKey =
        with_insecure_parameters_allowed(|| safe_deserialize(client_bytes.as_slice(), 1 << 30))
            .unwrap();
    let mut builder = CompressedCiphertextListBuilder::new();
    builder.push(FheUint8::encrypt(9u8, &client));
    let list = builder.build_with(&read).unwrap();
    let x: FheUint8 = list.get_with(0, &read).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, ck), 9);
}
