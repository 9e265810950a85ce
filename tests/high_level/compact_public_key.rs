//! Public-key encryption on the default (secure) parameters: compact lists of mixed
//! types spanning several GLWE ciphertexts, expanded and computed on by the server,
//! single values encrypted with the public key, serialization, and malformed lists.

use crate::common;

use common::setup;
use gpufhe::prelude::*;
use gpufhe::serialization::{safe_deserialize, safe_serialize};
use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
use gpufhe::{
    generate_keys, CompactCiphertextList, CompactPublicKey, CompressedCompactPublicKey,
    ConfigBuilder, Error, FheBool, FheInt64, FheInt8, FheTypes, FheUint4, FheUint64, FheUint8,
    GpuIndex,
};

const LIMIT: u64 = 1 << 30;

#[test]
fn mixed_lists_expand_into_values_the_server_computes_on() {
    let ck = setup();
    let pk = CompactPublicKey::new(ck);
    // 70 FheUint64 (2240 blocks) and more: two GLWE ciphertexts of 2048 blocks.
    let mut builder = CompactCiphertextList::builder(&pk);
    for i in 0..70u64 {
        builder.push(u64::MAX - i * 0x0123_4567_89ab);
    }
    builder.push(-5i64).push(true).push(-128i8).push(200u8);
    builder.push_with_num_bits(9u8, 4).unwrap();
    assert!(builder.push_with_num_bits(16u8, 4).is_err());
    assert!(builder.push_with_num_bits(-9i8, 4).is_err());
    let list = builder.build();
    assert_eq!(list.len(), 75);

    let mut bytes = Vec::new();
    safe_serialize(&list, &mut bytes, LIMIT).unwrap();
    assert!(
        bytes.len() < 2 * 2 * 2048 * 8 + 4096,
        "{} bytes",
        bytes.len()
    );
    let list: CompactCiphertextList = safe_deserialize(bytes.as_slice(), LIMIT).unwrap();
    let expander = list.expand().unwrap();
    for i in [0usize, 63, 69] {
        let v: FheUint64 = expander.get(i).unwrap().unwrap();
        let clear: u64 = v.decrypt(ck);
        assert_eq!(clear, u64::MAX - i as u64 * 0x0123_4567_89ab, "value {i}");
    }
    let a: FheInt64 = expander.get(70).unwrap().unwrap();
    let b: FheBool = expander.get(71).unwrap().unwrap();
    let c: FheInt8 = expander.get(72).unwrap().unwrap();
    let d: FheUint8 = expander.get(73).unwrap().unwrap();
    let e: FheUint4 = expander.get(74).unwrap().unwrap();
    assert_eq!(FheDecrypt::<i64>::decrypt(&a, ck), -5);
    assert!(b.decrypt(ck));
    assert_eq!(FheDecrypt::<i8>::decrypt(&c, ck), -128);
    assert_eq!(FheDecrypt::<u8>::decrypt(&e, ck), 9);
    // Expanded values compute like client-key encryptions (their noise is far below
    // a bootstrap's).
    let sum: u8 = (&d + 100u8).decrypt(ck);
    assert_eq!(sum, 44);
    let picked: u8 = b.select(&d, &FheUint8::encrypt(1u8, ck)).decrypt(ck);
    assert_eq!(picked, 200);
    // The wrong type, and past the end.
    assert!(expander.get::<FheUint8>(70).is_err());
    assert!(expander.get::<FheUint8>(75).unwrap().is_none());
}

#[test]
fn single_values_and_malformed_lists() {
    let ck = setup();
    let pk = CompactPublicKey::new(ck);
    let mut bytes = Vec::new();
    safe_serialize(&pk, &mut bytes, LIMIT).unwrap();
    let pk: CompactPublicKey = safe_deserialize(bytes.as_slice(), LIMIT).unwrap();
    let x = FheUint8::try_encrypt(77u8, &pk).unwrap();
    let y = FheInt8::try_encrypt(-77i8, &pk).unwrap();
    let z = FheBool::try_encrypt(true, &pk).unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, ck), 77);
    assert_eq!(FheDecrypt::<i8>::decrypt(&y, ck), -77);
    assert!(z.decrypt(ck));
    assert!(FheUint8::try_encrypt(256u16, &pk).is_err());
    assert_eq!(x.tag(), Some(ck.tag()));

    // A list whose ciphertext lost a word, or whose kinds claim more blocks than it
    // holds, is refused when read.
    let mut builder = CompactCiphertextList::builder(&pk);
    builder.push(1u8).push(2u16);
    let list = builder.build();
    let mut bytes = Vec::new();
    safe_serialize(&list, &mut bytes, LIMIT).unwrap();
    for cut in [1, 8, 100, bytes.len() / 2] {
        let r: Result<CompactCiphertextList, Error> =
            safe_deserialize(&bytes[..bytes.len() - cut], LIMIT);
        assert!(r.is_err(), "a list cut by {cut} bytes was read");
    }
}

#[test]
fn compressed_public_keys_are_half_the_size_and_decompress_to_working_keys() {
    let ck = setup();
    let compressed = CompressedCompactPublicKey::new(ck);
    let mut bytes = Vec::new();
    safe_serialize(&compressed, &mut bytes, LIMIT).unwrap();
    let mut full = Vec::new();
    safe_serialize(&compressed.decompress(), &mut full, LIMIT).unwrap();
    println!(
        "serialized: compressed compact public key {} bytes, compact public key {} bytes",
        bytes.len(),
        full.len()
    );
    assert!(
        2 * bytes.len() < full.len() + 1024,
        "{} vs {}",
        bytes.len(),
        full.len()
    );
    let read: CompressedCompactPublicKey = safe_deserialize(bytes.as_slice(), LIMIT).unwrap();
    assert_eq!(read.tag(), ck.tag());
    let pk = read.decompress();
    let x = FheUint64::try_encrypt(0xdead_beef_u64, &pk).unwrap();
    assert_eq!(FheDecrypt::<u64>::decrypt(&x, ck), 0xdead_beef);
    let mut builder = CompactCiphertextList::builder(&pk);
    builder.push(-5i8).push(true);
    let expanded = builder.build().expand().unwrap();
    let a: FheInt8 = expanded.get(0).unwrap().unwrap();
    let b: FheBool = expanded.get(1).unwrap().unwrap();
    assert_eq!(FheDecrypt::<i8>::decrypt(&a, ck), -5);
    assert!(b.decrypt(ck));
    // A key that lost words of its body is refused when read.
    for cut in [1, 8, 100] {
        let r: Result<CompressedCompactPublicKey, Error> =
            safe_deserialize(&bytes[..bytes.len() - cut], LIMIT);
        assert!(r.is_err(), "a key cut by {cut} bytes was read");
    }
}

/// The types of a list's values, through the `CiphertextList` trait.
fn kinds_of<L: CiphertextList>(list: &L) -> Vec<Option<FheTypes>> {
    (0..list.len()).map(|i| list.get_kind_of(i)).collect()
}

#[test]
fn expand_with_key_checks_the_key_and_lists_compare() {
    let ck = setup();
    let (_, compressed, server_key) = common::keys();
    let pk = CompactPublicKey::new(ck);
    let mut builder = CompactCiphertextList::builder(&pk);
    builder.push(7u8).push(-2i32);
    assert!(builder.push_with_num_bits(1u8, usize::MAX).is_err());
    // A width TFHE-rs has no name for.
    builder.push_with_num_bits(5u8, 3).unwrap();
    let list = builder.build();
    assert_eq!(list.clone(), list);
    assert_ne!(builder.build(), list, "fresh randomness, another list");
    assert_eq!(list.get_kind_of(0), Some(FheTypes::Uint8));
    assert_eq!(list.get_kind_of(3), None);

    let expander = list.expand_with_key(server_key).unwrap();
    let expected = vec![Some(FheTypes::Uint8), Some(FheTypes::Int32), None];
    assert_eq!(kinds_of(&expander), expected);
    let x: FheUint8 = CiphertextList::get(&expander, 0).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, ck), 7);

    // A GPU key that could not be made, and another client's key.
    let failed = compressed.decompress_to_specific_gpu(GpuIndex::new(999));
    assert!(list.expand_with_key(&failed).is_err());
    let (_, other) = generate_keys(
        ConfigBuilder::default()
            .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .unwrap(),
    );
    assert!(matches!(
        list.expand_with_key(&other),
        Err(Error::KeyMismatch { .. })
    ));
}

#[test]
fn list_size_constraints_bound_the_number_of_values_read() {
    use gpufhe::conformance::ListSizeConstraint;
    use gpufhe::safe_serialization::safe_deserialize_conformant;
    use gpufhe::CompactCiphertextListConformanceParams as Params;
    let ck = setup();
    let two = CompactCiphertextList::builder(&CompactPublicKey::new(ck))
        .extend([1u8, 2].into_iter())
        .build_packed();
    let five = CompactCiphertextList::builder(&CompactPublicKey::new(ck))
        .extend([1u8, 2, 3, 4, 5].into_iter())
        .build_packed();
    let params = ck.config().parameters();
    let read = |list: &CompactCiphertextList, constraint| {
        let mut bytes = Vec::new();
        gpufhe::safe_serialization::safe_serialize(list, &mut bytes, LIMIT).unwrap();
        let conformance = Params::from_parameters_and_size_constraint(*params, constraint);
        safe_deserialize_conformant::<CompactCiphertextList>(bytes.as_slice(), LIMIT, &conformance)
    };
    let exact_two = ListSizeConstraint::exact_size(2);
    assert_eq!(read(&two, exact_two).unwrap().len(), 2);
    let err = read(&five, exact_two).unwrap_err();
    assert!(err.contains("5 values"), "{err}");
    let up_to_four = ListSizeConstraint::try_size_in_range(1, 4).unwrap();
    assert!(read(&two, up_to_four).is_ok());
    assert!(read(&five, up_to_four).is_err());
    assert!(read(&five, ListSizeConstraint::try_size_in_range(5, 8).unwrap()).is_ok());
    let pairs = ListSizeConstraint::try_size_of_group_in_range(2, 1, 4).unwrap();
    assert!(read(&two, pairs).is_ok());
    assert!(read(&five, pairs).is_err());
    assert!(ListSizeConstraint::try_size_in_range(3, 2).is_err());
    // Other parameters than the list's are still refused, whatever the size.
    let other = Params::from_parameters_and_size_constraint(
        PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
        ListSizeConstraint::exact_size(2),
    );
    assert!(!two.is_conformant(&other));
}

#[test]
fn compact_public_keys_conform_to_their_encryption_parameters() {
    use gpufhe::conformance::{Conformant, ParameterSetConformant};
    use gpufhe::safe_serialization::{safe_deserialize_conformant, DeserializationConfig};
    let ck = setup();
    let pke = ck.config().public_key_encryption_parameters().unwrap();
    let cpk = CompactPublicKey::new(ck);
    assert!(cpk.is_conformant(&pke));
    // Other encryption parameters (TFHE-rs's dedicated set).
    let other = gpufhe::shortint::PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    assert!(!cpk.is_conformant(&other));
    // The native check, against a key, remains.
    assert!(cpk.conforms_to(&ck.into()).is_ok());

    let compressed = CompressedCompactPublicKey::new(ck);
    let mut bytes = vec![];
    gpufhe::safe_serialization::safe_serialize(&compressed, &mut bytes, LIMIT).unwrap();
    let read: CompressedCompactPublicKey =
        safe_deserialize_conformant(bytes.as_slice(), LIMIT, &pke).unwrap();
    assert!(read.is_conformant(&pke));
    let err =
        safe_deserialize_conformant::<CompressedCompactPublicKey>(bytes.as_slice(), LIMIT, &other)
            .unwrap_err();
    assert!(err.contains("other parameters"), "{err}");
    let read: CompressedCompactPublicKey = DeserializationConfig::new(LIMIT)
        .deserialize_from(bytes.as_slice(), &pke)
        .unwrap();
    assert!(read.is_conformant(&pke));
}
