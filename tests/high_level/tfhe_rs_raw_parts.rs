//! Raw parts as TFHE-rs's clients use them: values taken apart into radix
//! ciphertexts and blocks (`gpufhe::integer::ciphertext`), blocks moved between
//! values and layers, values and server keys put back together, then computed on
//! and decrypted; parts that make no value are refused with a reason.

use crate::insecure_keys::setup;
use gpufhe::integer::ciphertext::{
    BooleanBlock, IntegerCiphertext, IntegerRadixCiphertext, RadixCiphertext, SignedRadixCiphertext,
};
use gpufhe::prelude::*;
use gpufhe::serialization::with_insecure_parameters_allowed;
use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
use gpufhe::{
    CompressedServerKey, ConfigBuilder, FheBool, FheInt8, FheInt8Id, FheUint16, FheUint16Id,
    FheUint8, FheUint8Id, ReRandomizationMetadata, ServerKey,
};

#[test]
fn two_bytes_concatenate_into_a_word_and_split_back() {
    let client_key = setup();
    let (low, id, tag, metadata) = FheUint8::encrypt(0xCDu8, client_key).into_raw_parts();
    assert_eq!(id, FheUint8Id);
    assert_eq!(tag, client_key.tag());
    assert!(metadata.data().is_empty());
    assert_eq!(low.blocks().len(), 4);
    assert!(low.is_clean());
    let (high, ..) = FheUint8::encrypt(0xABu8, client_key).into_raw_parts();
    let mut blocks = low.into_blocks();
    blocks.extend(high.into_blocks());
    let word = FheUint16::from_raw_parts(RadixCiphertext::from(blocks), FheUint16Id, tag, metadata);
    assert_eq!(FheDecrypt::<u16>::decrypt(&word, client_key), 0xABCD);
    // The assembled value computes like any other.
    let sum = &word + 0x0101u16;
    assert_eq!(FheDecrypt::<u16>::decrypt(&sum, client_key), 0xACCE);
    // Split it again: the low and the high byte of the sum.
    let (radix, _, tag, metadata) = sum.into_raw_parts();
    let mut blocks = radix.into_blocks();
    let high = blocks.split_off(4);
    let low = FheUint8::from_raw_parts(
        RadixCiphertext::from(blocks),
        FheUint8Id,
        tag,
        metadata.clone(),
    );
    let high = FheUint8::from_raw_parts(RadixCiphertext::from(high), FheUint8Id, tag, metadata);
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&(&low ^ &high), client_key),
        0xCE ^ 0xAC
    );
}

#[test]
fn bits_move_between_signed_and_unsigned_values() {
    let client_key = setup();
    // The blocks of an unsigned byte read as a signed one: two's complement.
    let (radix, _, tag, metadata) = FheUint8::encrypt(200u8, client_key).into_raw_parts();
    let signed = SignedRadixCiphertext::from_blocks(radix.into_blocks());
    let x = FheInt8::from_raw_parts(signed, FheInt8Id, tag, metadata);
    assert_eq!(FheDecrypt::<i8>::decrypt(&x, client_key), -56);
    let negated = -&x;
    assert_eq!(FheDecrypt::<i8>::decrypt(&negated, client_key), 56);
    // And back.
    let (signed, id, tag, metadata) = negated.into_raw_parts();
    assert_eq!(id, FheInt8Id);
    let unsigned = RadixCiphertext::from(signed.into_blocks());
    let y = FheUint8::from_raw_parts(unsigned, FheUint8Id, tag, metadata);
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&y * 3u8), client_key), 168);
}

#[test]
fn booleans_move_between_layers() {
    let client_key = setup();
    let a = FheUint8::encrypt(17u8, client_key);
    let lt = a.lt(40u8);
    let tag = lt.tag().expect("an encrypted boolean");
    let block = lt.into_raw_parts();
    assert!(block.degree() <= 1);
    // Through the integer layer's boolean block and back.
    let boolean = BooleanBlock::new_unchecked(block);
    let radix = RadixCiphertext::from(vec![boolean.as_ref().clone()]);
    assert!(radix.holds_boolean_value());
    let boolean = BooleanBlock::try_new(&radix).expect("a boolean");
    let lt = FheBool::from_raw_parts(boolean.into_raw_parts(), tag);
    assert!(lt.decrypt(client_key));
    let both = &lt & a.eq(17u8);
    assert!(both.decrypt(client_key));
    assert!(!(!&both).decrypt(client_key));
}

#[test]
fn trivial_values_become_trivial_blocks_and_back() {
    let client_key = setup();
    let trivial = FheUint8::encrypt_trivial(77u8);
    let (radix, _, tag, metadata) = trivial.into_raw_parts();
    assert_eq!(
        tag.value(),
        0,
        "a trivial value carries TFHE-rs's empty tag"
    );
    assert_eq!(radix.blocks().len(), 4);
    assert!(radix.blocks().iter().all(|b| b.noise_level() == 0));
    let back = FheUint8::from_raw_parts(radix, FheUint8Id, tag, metadata);
    assert_eq!(back.tag(), None, "trivial blocks make a trivial value");
    let sum = &back + &FheUint8::encrypt(100u8, client_key);
    assert_eq!(FheDecrypt::<u8>::decrypt(&sum, client_key), 177);
    let yes = FheBool::encrypt_trivial(true).into_raw_parts();
    assert_eq!(yes.noise_level(), 0);
    assert!(FheBool::from_raw_parts(yes, tag).tag().is_none());
}

#[test]
fn parts_that_make_no_value_are_refused_with_a_reason() {
    let client_key = setup();
    let (byte, _, tag, metadata) = FheUint8::encrypt(3u8, client_key).into_raw_parts();
    // Too few or too many blocks for the width.
    let err = FheUint16::try_from_raw_parts(byte.clone(), FheUint16Id, tag, metadata.clone())
        .unwrap_err();
    assert!(err.to_string().contains("number of blocks"), "{err}");
    let mut blocks = byte.clone().into_blocks();
    blocks.pop();
    let short = RadixCiphertext::from(blocks);
    assert!(FheUint8::try_from_raw_parts(short, FheUint8Id, tag, metadata.clone()).is_err());
    assert!(FheUint8::try_from_raw_parts(
        RadixCiphertext::from(vec![]),
        FheUint8Id,
        tag,
        metadata.clone()
    )
    .is_err());
    // A block whose carry is not empty.
    let shortint_key = client_key.shortint_key();
    let mut blocks = byte.clone().into_blocks();
    blocks[0] = shortint_key.encrypt_with_carry(9).unwrap();
    let dirty = RadixCiphertext::from(blocks);
    assert!(!dirty.block_carries_are_empty());
    let err =
        FheUint8::try_from_raw_parts(dirty.clone(), FheUint8Id, tag, metadata.clone()).unwrap_err();
    assert!(err.to_string().contains("not clean"), "{err}");
    // The infallible form panics with that reason.
    let panic = std::panic::catch_unwind(|| {
        FheUint8::from_raw_parts(dirty, FheUint8Id, tag, ReRandomizationMetadata::default())
    })
    .unwrap_err();
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("from_raw_parts"), "{message}");
    // A digit is not a boolean.
    let digit = byte.blocks()[0].clone();
    assert!(FheBool::try_from_raw_parts(digit, tag).is_err());
    // Blocks of another key's tag assemble, but do not mix with this key's values.
    let (_, other_server_key) = gpufhe::generate_keys(
        ConfigBuilder::default()
            .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .unwrap(),
    );
    let foreign = FheUint8::from_raw_parts(byte, FheUint8Id, other_server_key.tag(), metadata);
    let err = foreign
        .try_add(FheUint8::encrypt(1u8, client_key))
        .unwrap_err();
    assert!(matches!(err, gpufhe::Error::KeyMismatch { .. }), "{err}");
}

#[test]
fn server_key_parts_reassemble_into_a_key_that_computes() {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
        .unwrap()
        .enable_compression(gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
    let (client_key, server_key) = gpufhe::generate_keys(config);
    let (key, cpk, compression, decompression, ns, nsc, rr, oprf, tc, tag) =
        server_key.clone().into_raw_parts();
    assert_eq!(tag, server_key.tag());
    assert!(compression.is_some());
    assert!(cpk.is_none() && decompression.is_none() && oprf.is_none());
    assert!(ns.is_none() && nsc.is_none() && rr.is_none() && tc.is_none());
    // The integer key is the block key.
    let block_key = key.into_raw_parts();
    assert_eq!(
        block_key.parameters(),
        &PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2
    );
    let key = gpufhe::integer::ServerKey::from_raw_parts(block_key);
    let rebuilt =
        ServerKey::from_raw_parts(key, cpk, compression, None, ns, nsc, rr, oprf, tc, tag);
    assert_eq!(
        rebuilt.config().compression_parameters(),
        server_key.config().compression_parameters()
    );
    gpufhe::set_server_key(rebuilt);
    let a = FheUint8::encrypt(151u8, &client_key);
    let b = FheUint8::encrypt(29u8, &client_key);
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&(&a * &b), &client_key),
        151u8.wrapping_mul(29)
    );
    assert!(a.gt(&b).decrypt(&client_key));
    // A key assembled with another tag refuses this client's values.
    let (key, .., other) = gpufhe::generate_keys(
        ConfigBuilder::default()
            .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .unwrap(),
    )
    .1
    .into_raw_parts();
    gpufhe::set_server_key(ServerKey::from_raw_parts(
        key, None, None, None, None, None, None, None, None, other,
    ));
    assert!(a.try_add(&b).is_err());
    gpufhe::unset_server_key();
}

#[test]
fn compressed_server_key_parts_reassemble_and_decompress() {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
        .unwrap()
        .enable_compression(gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
    let client_key = gpufhe::ClientKey::generate(config);
    let compressed = CompressedServerKey::new(&client_key);
    let (key, cpk, compression, decompression, ns, nsc, rr, oprf, tc, tag) =
        compressed.clone().into_raw_parts();
    assert_eq!(tag, client_key.tag());
    assert!(compression.is_some() && oprf.is_none());
    // The seeded block key decompresses on its own too.
    let block_key = key.shortint_key().decompress().unwrap();
    assert_eq!(
        block_key.parameters(),
        &PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2
    );
    let rebuilt = CompressedServerKey::from_raw_parts(
        key.clone(),
        cpk,
        compression,
        decompression,
        ns,
        nsc,
        rr,
        oprf,
        tc,
        tag,
    );
    assert!(rebuilt.has_compression_key());
    // Its serialized bytes (gpufhe's own form: compression keys have no TFHE-rs
    // form yet) are the original key's.
    let same = crate::common::to_bytes(&compressed) == crate::common::to_bytes(&rebuilt);
    assert!(same, "the reassembled key is not the same key");
    gpufhe::set_server_key(rebuilt.decompress());
    let a = FheUint16::encrypt(40_000u16, &client_key);
    let quotient = &a / 7u16;
    assert_eq!(
        FheDecrypt::<u16>::decrypt(&quotient, &client_key),
        40_000 / 7
    );
    gpufhe::unset_server_key();
    // Without its compression keys, the key is assembled without compression.
    let bare = CompressedServerKey::from_raw_parts(
        key, None, None, None, None, None, None, None, None, tag,
    );
    assert!(!bare.has_compression_key());
}

#[test]
fn a_tfhe_rs_key_taken_apart_and_put_back_is_written_byte_for_byte() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tfhe-rs-1.8.2/small-compressed_server_key.bin");
    let bytes = std::fs::read(path).unwrap();
    let limit = 1 << 30;
    let compressed: CompressedServerKey = with_insecure_parameters_allowed(|| {
        gpufhe::safe_serialization::safe_deserialize(bytes.as_slice(), limit)
    })
    .unwrap();
    let (key, cpk, compression, decompression, ns, nsc, rr, oprf, tc, tag) =
        compressed.into_raw_parts();
    assert!(compression.is_none()); // this key has no compression keys
    let rebuilt = CompressedServerKey::from_raw_parts(
        key,
        cpk,
        compression,
        decompression,
        ns,
        nsc,
        rr,
        oprf,
        tc,
        tag,
    );
    let mut again = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&rebuilt, &mut again, limit).unwrap();
    assert!(
        again == bytes,
        "TFHE-rs's key is not written back byte for byte"
    );
}

#[test]
fn client_key_parts_reassemble_into_the_same_key() {
    let (client_key, server_key) = crate::insecure_keys::keys();
    let x = FheUint8::encrypt(211u8, client_key);
    let (key, cpk, compression, ns, nsc, rr, oprf, tc, tag) = client_key.clone().into_raw_parts();
    assert!(cpk.is_none() && compression.is_none() && oprf.is_none());
    assert!(ns.is_none() && nsc.is_none() && rr.is_none() && tc.is_none());
    let block = key.shortint_key().encrypt(2).unwrap();
    let rebuilt =
        gpufhe::ClientKey::from_raw_parts(key, cpk, compression, ns, nsc, rr, oprf, tc, tag);
    assert_eq!(rebuilt.tag(), client_key.tag());
    // The same secret key: values of either decrypt with the other, and compute
    // with the original key's server key.
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, &rebuilt), 211);
    assert_eq!(client_key.shortint_key().decrypt(&block).unwrap(), 2);
    gpufhe::set_server_key(server_key.clone());
    let y = FheUint8::encrypt(45u8, &rebuilt);
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&x + &y), client_key), 0);
}

#[test]
fn a_tfhe_rs_client_key_taken_apart_and_put_back_is_written_byte_for_byte() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tfhe-rs-1.8.2/small-client_key.bin");
    let bytes = std::fs::read(path).unwrap();
    let limit = 1 << 30;
    let client_key: gpufhe::ClientKey = with_insecure_parameters_allowed(|| {
        gpufhe::safe_serialization::safe_deserialize(bytes.as_slice(), limit)
    })
    .unwrap();
    let (key, cpk, compression, ns, nsc, rr, oprf, tc, tag) = client_key.into_raw_parts();
    let rebuilt =
        gpufhe::ClientKey::from_raw_parts(key, cpk, compression, ns, nsc, rr, oprf, tc, tag);
    let mut again = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&rebuilt, &mut again, limit).unwrap();
    assert!(
        again == bytes,
        "TFHE-rs's client key is not written back byte for byte"
    );
}

#[test]
fn default_parameter_values_round_trip_through_their_parts() {
    let client_key = crate::common::setup();
    let (radix, id, tag, metadata) = FheUint8::encrypt(250u8, client_key).into_raw_parts();
    let value = FheUint8::from_raw_parts(radix, id, tag, metadata);
    let sum = &value + 9u8;
    assert_eq!(FheDecrypt::<u8>::decrypt(&sum, client_key), 3);
}

#[test]
fn values_on_a_gpu_come_to_the_cpu_as_parts() {
    if gpufhe::get_number_of_gpus() == 0 {
        crate::skip::report_skipped(format_args!("(no CUDA device)"));
        return;
    }
    let client_key = gpufhe::ClientKey::generate(
        ConfigBuilder::default()
            .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .unwrap(),
    );
    let gpu_key = CompressedServerKey::new(&client_key)
        .try_decompress_to_gpu()
        .unwrap();
    gpufhe::set_server_key(gpu_key.clone());
    let sum = FheUint8::encrypt(120u8, &client_key) + 9u8;
    assert!(matches!(sum.current_device(), gpufhe::Device::CudaGpu(_)));
    let (radix, id, tag, metadata) = sum.try_into_raw_parts().unwrap();
    assert_eq!(radix.blocks().len(), 4);
    let back = FheUint8::from_raw_parts(radix, id, tag, metadata);
    assert_eq!(back.current_device(), gpufhe::Device::Cpu);
    let doubled = &back * 2u8;
    assert_eq!(FheDecrypt::<u8>::decrypt(&doubled, &client_key), 2);
    let flag = back.gt(100u8);
    let block = flag.try_into_raw_parts().unwrap();
    assert!(FheBool::from_raw_parts(block, tag).decrypt(&client_key));
    // A GPU key's parts hold its host key: the rebuilt key computes on the CPU.
    let (key, .., tag) = gpu_key.into_raw_parts();
    let cpu_key =
        ServerKey::from_raw_parts(key, None, None, None, None, None, None, None, None, tag);
    assert!(cpu_key.gpus().is_empty());
    gpufhe::set_server_key(cpu_key);
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&back + 1u8), &client_key), 130);
    gpufhe::unset_server_key();
}
