//! Compression in TFHE-rs 1.8's form: the configuration's compression parameters
//! and the client key's compression private key written and read in TFHE-rs's
//! layout (byte for byte), and a key read back compressing and decompressing with
//! server keys made from it; TFHE-rs's own small client key with compression (a
//! golden file of `compare/examples/tfhers_golden.rs`) read the same way.

use gpufhe::prelude::*;
use gpufhe::safe_serialization::{safe_deserialize, safe_serialize};
use gpufhe::serialization::with_insecure_parameters_allowed;
use gpufhe::shortint::{
    COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
    COMP_PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
};
use gpufhe::{
    ClientKey, CompressedCiphertextListBuilder, Config, ConfigBuilder, FheBool, FheInt16, FheUint8,
    ServerKey,
};

use crate::tfhe_rs_support::{golden, round_trip, LIMIT};

fn config(compression: gpufhe::shortint::CompressionParameters) -> Config {
    ConfigBuilder::default()
        .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
        .unwrap()
        .enable_compression(compression)
        .build()
}

/// Values of mixed types packed with `server_key` and read back, decrypted by
/// `client_key`.
fn compress_and_read_back(client_key: &ClientKey, server_key: &ServerKey) {
    let mut builder = CompressedCiphertextListBuilder::new();
    builder
        .push(FheUint8::encrypt(201u8, client_key))
        .push(FheInt16::encrypt(-12345i16, client_key))
        .push(FheBool::encrypt(true, client_key));
    let list = builder.build_with(server_key).unwrap();
    let a: FheUint8 = list.get_with(0, server_key).unwrap().unwrap();
    let b: FheInt16 = list.get_with(1, server_key).unwrap().unwrap();
    let c: FheBool = list.get_with(2, server_key).unwrap().unwrap();
    let clears: (u8, i16, bool) = (
        a.decrypt(client_key),
        b.decrypt(client_key),
        c.decrypt(client_key),
    );
    assert_eq!(clears, (201, -12345, true));
}

#[test]
fn configurations_with_compression_have_tfhe_rs_form() {
    for compression in [
        COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
        COMP_PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2,
    ] {
        let config = config(compression);
        let mut written = Vec::new();
        gpufhe::safe_serialization::SerializationConfig::new(LIMIT)
            .serialize_into(&config, &mut written)
            .unwrap();
        let read: Config = with_insecure_parameters_allowed(|| {
            gpufhe::safe_serialization::DeserializationConfig::new(LIMIT)
                .disable_conformance()
                .deserialize_from(written.as_slice())
        })
        .unwrap();
        assert_eq!(read, config);
        assert_eq!(read.compression_parameters(), Some(&compression));
    }
}

#[test]
fn client_keys_with_compression_round_trip_and_keep_their_compression_key() {
    let client_key = ClientKey::generate(config(COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2));
    let read = round_trip(&client_key);
    assert_eq!(
        read.config().compression_parameters(),
        Some(&COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
    );
    // Keys made from the key read back compress what the original key encrypts.
    let server_key = ServerKey::new(&read);
    compress_and_read_back(&client_key, &server_key);
}

/// TFHE-rs's small client key with its compression private key (TFHE-rs's scheme
/// and parameters): read byte for byte; gpufhe's keys made from it compress and
/// decompress.
#[test]
fn tfhe_rs_client_keys_with_compression_read_exactly() {
    let bytes = golden("small-compression-client_key.bin");
    let client_key: ClientKey =
        with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), LIMIT)).unwrap();
    let mut again = Vec::new();
    safe_serialize(&client_key, &mut again, LIMIT).unwrap();
    assert!(again == bytes, "not written back byte for byte");
    assert_eq!(
        client_key.config().compression_parameters(),
        Some(&COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
    );
    compress_and_read_back(&client_key, &ServerKey::new(&client_key));
}

/// Truncations and corrupted bytes of TFHE-rs's client key with compression: an
/// `Err` or a key that still reads, never a panic.
#[test]
fn corrupted_client_keys_with_compression_are_errs() {
    let bytes = golden("small-compression-client_key.bin");
    for len in (0..bytes.len()).step_by(61) {
        assert!(with_insecure_parameters_allowed(|| {
            safe_deserialize::<ClientKey>(&bytes[..len], LIMIT)
        })
        .is_err());
    }
    for at in (0..bytes.len()).step_by(37) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x5a;
        let _ = with_insecure_parameters_allowed(|| {
            safe_deserialize::<ClientKey>(bad.as_slice(), LIMIT)
        });
    }
}
