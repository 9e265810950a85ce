//! TFHE-rs 1.8's `KeySwitchingKey`, `PublicKey` and `CompressedPublicKey` in
//! gpufhe: written in TFHE-rs's form, read back, written again byte for byte, and
//! used (insecure test parameters; the TFHE-rs client key of the golden files where
//! a TFHE-rs key takes part).

use crate::insecure_keys::keys;
use gpufhe::prelude::*;
use gpufhe::safe_serialization::{safe_deserialize, safe_serialize};
use gpufhe::serialization::with_insecure_parameters_allowed;
use gpufhe::{
    ClientKey, CompressedPublicKey, FheBool, FheInt16, FheUint8, KeySwitchingKey, PublicKey,
    ServerKey,
};
use std::path::PathBuf;

const LIMIT: u64 = 1 << 30;

fn golden(name: &str) -> Vec<u8> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tfhe-rs-1.8.2");
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `bytes` read as a `T` (insecure parameters allowed).
fn read<T>(bytes: &[u8]) -> Result<T, String>
where
    T: serde::de::DeserializeOwned + gpufhe::Unversionize + gpufhe::named::Named,
{
    with_insecure_parameters_allowed(|| safe_deserialize(bytes, LIMIT))
}

/// `value` in TFHE-rs's form.
fn write<T>(value: &T) -> Vec<u8>
where
    T: serde::Serialize + gpufhe::Versionize + gpufhe::named::Named,
{
    let mut bytes = Vec::new();
    safe_serialize(value, &mut bytes, LIMIT).unwrap();
    bytes
}

/// `value` written, read back, and written again byte for byte.
fn round_trip<T>(value: &T) -> T
where
    T: serde::Serialize
        + serde::de::DeserializeOwned
        + gpufhe::Versionize
        + gpufhe::Unversionize
        + gpufhe::named::Named,
{
    let bytes = write(value);
    let read: T = read(&bytes).unwrap();
    assert!(write(&read) == bytes, "not written back byte for byte");
    read
}

/// TFHE-rs's small client key and a gpufhe server key of it.
fn tfhe_rs_keys() -> (ClientKey, ServerKey) {
    let client_key: ClientKey = read(&golden("small-client_key.bin")).unwrap();
    let server_key = ServerKey::new(&client_key);
    (client_key, server_key)
}

#[test]
fn tfhe_rs_keyswitching_key_round_trips_and_switches() {
    let (ck_1, sk_1) = keys();
    let (ck_2, sk_2) = tfhe_rs_keys();
    let ksk = KeySwitchingKey::new((ck_1, sk_1), (&ck_2, &sk_2)).unwrap();
    let bytes = write(&ksk);
    // TFHE-rs's header names it.
    assert!(bytes
        .windows(31)
        .any(|w| w == b"high_level_api::KeySwitchingKey"));
    let read_back: KeySwitchingKey = round_trip(&ksk);
    assert_eq!(read_back.tag_in(), ck_1.tag());
    assert_eq!(read_back.tag_out(), ck_2.tag());
    let a = FheUint8::encrypt(201u8, ck_1);
    let moved = read_back.keyswitch(&a);
    assert_eq!(FheDecrypt::<u8>::decrypt(&moved, &ck_2), 201);
    let b = FheInt16::encrypt(-12345i16, ck_1);
    assert_eq!(
        FheDecrypt::<i16>::decrypt(&read_back.keyswitch(&b), &ck_2),
        -12345
    );
    let t = FheBool::encrypt(true, ck_1);
    assert!(read_back.keyswitch(&t).decrypt(&ck_2));
}

#[test]
fn tfhe_rs_keyswitching_key_hostile_input_is_refused() {
    let (ck_1, sk_1) = keys();
    let ksk = KeySwitchingKey::new((ck_1, sk_1), (ck_1, sk_1)).unwrap();
    let bytes = write(&ksk);
    // Truncated anywhere: an Err.
    for cut in [0, 10, 60, 100, bytes.len() / 2, bytes.len() - 1] {
        assert!(read::<KeySwitchingKey>(&bytes[..cut]).is_err(), "cut {cut}");
    }
    // A server key is not a keyswitching key.
    assert!(read::<KeySwitchingKey>(&write(sk_1)).is_err());
    // Corrupted bytes after the header: an Err or a key (never a panic).
    for at in (60..bytes.len()).step_by(bytes.len() / 13 + 1) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x5a;
        let _ = read::<KeySwitchingKey>(&bad);
    }
}

/// FNV-1a, 64 bits: the fingerprint `small-public_key.fnv` holds of TFHE-rs's
/// PublicKey (135 MB, not committed).
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn tfhe_rs_public_keys_encrypt_for_tfhe_rs_client_key() {
    let (client_key, _) = tfhe_rs_keys();
    // TFHE-rs's values, encrypted with its public keys.
    let x: FheUint8 = read(&golden("small-fheuint8-public_key-173.bin")).unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 173);
    let y: FheInt16 = read(&golden(
        "small-fheint16-compressed_public_key-minus-1234.bin",
    ))
    .unwrap();
    assert_eq!(FheDecrypt::<i16>::decrypt(&y, &client_key), -1234);
    // TFHE-rs's keys, read, written back byte for byte, encrypting here.
    for name in ["small-public_key-16.bin", "small-compressed_public_key.bin"] {
        let bytes = golden(name);
        let encrypted = if name.contains("compressed") {
            let key: CompressedPublicKey = read(&bytes).unwrap();
            assert!(
                write(&key) == bytes,
                "{name} is not written back byte for byte"
            );
            assert!(key.is_classical());
            assert_eq!(key.tag(), client_key.tag());
            FheUint8::encrypt(99u8, &key)
        } else {
            let key: PublicKey = read(&bytes).unwrap();
            assert!(
                write(&key) == bytes,
                "{name} is not written back byte for byte"
            );
            FheUint8::encrypt(99u8, &key)
        };
        assert_eq!(
            FheDecrypt::<u8>::decrypt(&encrypted, &client_key),
            99,
            "{name}"
        );
    }
    // The compressed key decompresses into TFHE-rs's PublicKey, byte for byte.
    let compressed: CompressedPublicKey = read(&golden("small-compressed_public_key.bin")).unwrap();
    let public_key = compressed.decompress();
    let bytes = write(&public_key);
    let fingerprint = String::from_utf8(golden("small-public_key.fnv")).unwrap();
    assert_eq!(
        format!("{} {:016x}\n", bytes.len(), fnv1a64(&bytes)),
        fingerprint
    );
    let z = FheBool::encrypt(true, &public_key);
    assert!(z.decrypt(&client_key));
}

#[test]
fn classical_public_keys_round_trip_in_both_formats() {
    let (client_key, server_key) = keys();
    let compressed = CompressedPublicKey::new_classical(client_key);
    let compressed = round_trip(&compressed);
    // (Its plain form is 135 MB: written in TFHE-rs's form byte for byte in
    // `tfhe_rs_public_keys_encrypt_for_tfhe_rs_client_key`.)
    let public_key = compressed.decompress();
    assert!(public_key.is_classical());
    let a = FheUint8::encrypt(250u8, &public_key);
    let b = FheUint8::encrypt(9u8, &compressed);
    gpufhe::set_server_key(server_key.clone());
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&a + &b), client_key), 3);
    assert_eq!(a.tag(), Some(client_key.tag()));
    // gpufhe's own format keeps both forms.
    for key in [public_key.clone(), PublicKey::new(client_key)] {
        let mut bytes = Vec::new();
        gpufhe::serialization::safe_serialize(&key, &mut bytes, LIMIT).unwrap();
        let back: PublicKey = with_insecure_parameters_allowed(|| {
            gpufhe::serialization::safe_deserialize(bytes.as_slice(), LIMIT)
        })
        .unwrap();
        assert_eq!(back.is_classical(), key.is_classical());
        let x = FheInt16::encrypt(-300i16, &back);
        assert_eq!(FheDecrypt::<i16>::decrypt(&x, client_key), -300);
    }
    for key in [compressed.clone(), CompressedPublicKey::new(client_key)] {
        let mut bytes = Vec::new();
        gpufhe::serialization::safe_serialize(&key, &mut bytes, LIMIT).unwrap();
        let back: CompressedPublicKey = with_insecure_parameters_allowed(|| {
            gpufhe::serialization::safe_deserialize(bytes.as_slice(), LIMIT)
        })
        .unwrap();
        assert_eq!(back.is_classical(), key.is_classical());
        assert!(FheBool::encrypt(true, &back).decrypt(client_key));
    }
}

#[test]
fn compact_form_public_keys_have_no_tfhe_rs_form() {
    let (client_key, _) = keys();
    let mut bytes = Vec::new();
    let err = safe_serialize(&PublicKey::new(client_key), &mut bytes, LIMIT).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("new_classical"), "{message}");
    assert!(message.contains("gpufhe::serialization"), "{message}");
    let err = safe_serialize(
        &CompressedPublicKey::new(client_key),
        &mut Vec::new(),
        LIMIT,
    )
    .unwrap_err();
    assert!(err.to_string().contains("new_classical"), "{err}");
}

#[test]
fn tfhe_rs_public_keys_hostile_input_is_refused() {
    let bytes = golden("small-compressed_public_key.bin");
    for cut in [0, 20, 70, bytes.len() / 3, bytes.len() - 1] {
        assert!(
            read::<CompressedPublicKey>(&bytes[..cut]).is_err(),
            "cut {cut}"
        );
    }
    // A compressed key is not a plain one.
    assert!(read::<PublicKey>(&bytes).is_err());
    for at in (60..bytes.len()).step_by(bytes.len() / 89 + 1) {
        let mut bad = bytes.clone();
        bad[at] ^= 0xa5;
        let _ = read::<CompressedPublicKey>(&bad);
    }
    // A size limit below the key's size.
    let small = with_insecure_parameters_allowed(|| {
        safe_deserialize::<CompressedPublicKey>(bytes.as_slice(), bytes.len() as u64 / 2)
    });
    assert!(small.is_err());
    let plain = golden("small-public_key-16.bin");
    for cut in [0, 50, plain.len() / 2, plain.len() - 1] {
        assert!(read::<PublicKey>(&plain[..cut]).is_err(), "cut {cut}");
    }
}
