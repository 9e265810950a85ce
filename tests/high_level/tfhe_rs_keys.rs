//! TFHE-rs 1.8's `KeySwitchingKey`, `PublicKey` and `CompressedPublicKey` in
//! gpufhe: written in TFHE-rs's form, read back, written again byte for byte, and
//! used (insecure test parameters; the TFHE-rs client key of the golden files where
//! a TFHE-rs key takes part).

use crate::insecure_keys::keys;
use gpufhe::prelude::*;
use gpufhe::safe_serialization::{safe_deserialize, safe_serialize};
use gpufhe::serialization::with_insecure_parameters_allowed;
use gpufhe::{ClientKey, FheBool, FheInt16, FheUint8, KeySwitchingKey, ServerKey};
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
    for at in (60..bytes.len()).step_by(bytes.len() / 97 + 1) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x5a;
        let _ = read::<KeySwitchingKey>(&bad);
    }
}
