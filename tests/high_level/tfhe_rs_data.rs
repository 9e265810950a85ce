//! TFHE-rs's own data (issue 37): the golden files in `tests/data/tfhe-rs-1.8.2/`,
//! written by tfhe 1.8.2 (`compare/examples/tfhers_golden.rs`), read and written by
//! `gpufhe::safe_serialization` (TFHE-rs's format), decrypted with the client key
//! read from the same files, and written back byte for byte. gpufhe's own format
//! (`gpufhe::serialization`) refuses them with an `Err` that says they are TFHE-rs
//! data, of which type, and how to read them.

use gpufhe::prelude::*;
use gpufhe::serialization::{safe_deserialize, safe_deserialize_default};
use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, FheBool, FheInt8, FheUint8};
use std::path::PathBuf;

use crate::tfhe_rs_support::{golden, read_exactly, LIMIT};

fn says_tfhe_rs(result: gpufhe::Result<impl Sized>, name: &str) {
    let Err(err) = result else {
        panic!("{name} read as gpufhe data");
    };
    let text = err.to_string();
    assert!(
        text.contains("the input is TFHE-rs data (a high_level_api::")
            && text.contains("serialization header 0.5, versioned 0.1")
            && text.contains("read it with gpufhe::safe_serialization::safe_deserialize"),
        "{name}: {text}"
    );
}

#[test]
fn tfhe_rs_files_are_named_as_such_in_the_error() {
    says_tfhe_rs(
        safe_deserialize::<ClientKey>(golden("client_key-default.bin").as_slice(), LIMIT),
        "client key",
    );
    says_tfhe_rs(
        safe_deserialize::<FheBool>(golden("fhebool-true.bin").as_slice(), LIMIT),
        "FheBool",
    );
    for name in ["fheuint8-165.bin", "compressed_fheuint8-42.bin"] {
        says_tfhe_rs(
            safe_deserialize_default::<FheUint8>(golden(name).as_slice()),
            name,
        );
    }
    says_tfhe_rs(
        safe_deserialize::<FheInt8>(golden("fheint8-minus-77.bin").as_slice(), LIMIT),
        "FheInt8",
    );
    says_tfhe_rs(
        safe_deserialize::<CompactPublicKey>(
            golden("compact_public_key-default.bin").as_slice(),
            LIMIT,
        ),
        "compact public key",
    );
    says_tfhe_rs(
        safe_deserialize::<CompactCiphertextList>(
            golden("compact_list-7-true-minus-3.bin").as_slice(),
            LIMIT,
        ),
        "compact list",
    );
    // The type name is in the message.
    let err = safe_deserialize::<FheUint8>(golden("fheuint8-165.bin").as_slice(), LIMIT);
    assert!(err
        .unwrap_err()
        .to_string()
        .contains("a high_level_api::FheUint,"));
    // Truncated headers, and gpufhe's own errors for what is no header at all.
    let bytes = golden("fhebool-true.bin");
    for cut in [8, 11, 20, 40] {
        let err = safe_deserialize::<FheBool>(&bytes[..cut], LIMIT).unwrap_err();
        assert!(err.to_string().contains("magic bytes"), "{cut}: {err}");
    }
    let mut long = bytes.clone();
    long[0] = 200; // a 200-byte header version: not read
    let err = safe_deserialize::<FheBool>(long.as_slice(), LIMIT).unwrap_err();
    assert!(err.to_string().contains("magic bytes"), "{err}");
}

/// The clear values of the golden files (`clears.txt`: a file name, then its
/// values).
fn clears(name: &str) -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tfhe-rs-1.8.2");
    let text = std::fs::read_to_string(dir.join("clears.txt")).unwrap();
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("{name} is not in clears.txt"));
    line.split_whitespace().skip(1).map(String::from).collect()
}

#[test]
fn tfhe_rs_values_decrypt_with_the_tfhe_rs_client_key_and_round_trip_exactly() {
    let client_key: ClientKey = read_exactly("client_key-default.bin");
    let x: FheUint8 = read_exactly("fheuint8-165.bin");
    let clear: u8 = x.decrypt(&client_key);
    assert_eq!(clear.to_string(), clears("fheuint8-165.bin")[0]);
    let b: FheBool = read_exactly("fhebool-true.bin");
    assert_eq!(
        b.decrypt(&client_key).to_string(),
        clears("fhebool-true.bin")[0]
    );
    let s: FheInt8 = read_exactly("fheint8-minus-77.bin");
    let clear: i8 = s.decrypt(&client_key);
    assert_eq!(clear.to_string(), clears("fheint8-minus-77.bin")[0]);
    // The same key encrypts values whose bytes are TFHE-rs's: same header, same size.
    let mine = FheUint8::encrypt(165u8, &client_key);
    let mut bytes = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&mine, &mut bytes, LIMIT).unwrap();
    let theirs = golden("fheuint8-165.bin");
    assert_eq!(bytes.len(), theirs.len());
    assert_eq!(bytes[..57], theirs[..57]);
    // A width is its block count: 8 bits are not read as 16.
    let err =
        gpufhe::safe_serialization::safe_deserialize::<gpufhe::FheUint16>(theirs.as_slice(), LIMIT)
            .unwrap_err();
    assert!(err.contains("number of blocks"), "{err}");
}

#[test]
fn tfhe_rs_compact_keys_and_lists_work_in_gpufhe_and_round_trip_exactly() {
    use gpufhe::{CompactCiphertextList, CompactPublicKey};
    let client_key: ClientKey = read_exactly("client_key-default.bin");
    // TFHE-rs's list (7u8, true, -3i8) expands and decrypts here.
    let list: CompactCiphertextList = read_exactly("compact_list-7-true-minus-3.bin");
    let expander = list.expand().unwrap();
    let a: FheUint8 = expander.get(0).unwrap().unwrap();
    let b: FheBool = expander.get(1).unwrap().unwrap();
    let c: FheInt8 = expander.get(2).unwrap().unwrap();
    let (a, b, c): (u8, bool, i8) = (
        a.decrypt(&client_key),
        b.decrypt(&client_key),
        c.decrypt(&client_key),
    );
    let expected = clears("compact_list-7-true-minus-3.bin");
    assert_eq!(vec![a.to_string(), b.to_string(), c.to_string()], expected);
    // TFHE-rs's public key encrypts lists here that its client key decrypts.
    let public_key: CompactPublicKey = read_exactly("compact_public_key-default.bin");
    let mine = CompactCiphertextList::builder(&public_key)
        .push(201u8)
        .push(false)
        .push(-100i8)
        .build();
    let expander = mine.expand().unwrap();
    let a: FheUint8 = expander.get(0).unwrap().unwrap();
    let b: FheBool = expander.get(1).unwrap().unwrap();
    let c: FheInt8 = expander.get(2).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&a, &client_key), 201);
    assert!(!b.decrypt(&client_key));
    assert_eq!(FheDecrypt::<i8>::decrypt(&c, &client_key), -100);
    // Written in TFHE-rs's layout: the size TFHE-rs gives such a list.
    let mut bytes = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&mine, &mut bytes, LIMIT).unwrap();
    assert_eq!(bytes.len(), golden("compact_list-7-true-minus-3.bin").len());
    let back: CompactCiphertextList =
        gpufhe::safe_serialization::safe_deserialize(bytes.as_slice(), LIMIT).unwrap();
    let a: FheUint8 = back.expand().unwrap().get(0).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&a, &client_key), 201);
}

#[test]
fn tfhe_rs_seeded_compressed_values_expand_here_and_the_reverse() {
    use gpufhe::CompressedFheUint8;
    let client_key: ClientKey = read_exactly("client_key-default.bin");
    // TFHE-rs gives each block its own seed: the masks are its AES-CTR streams.
    let theirs: CompressedFheUint8 = read_exactly("compressed_fheuint8-42.bin");
    let clear: u8 = theirs.decompress().decrypt(&client_key);
    assert_eq!(clear.to_string(), clears("compressed_fheuint8-42.bin")[0]);
    // gpufhe's one seed per value is written as TFHE-rs's seed per block (the
    // stream's position of each mask): the size TFHE-rs gives it.
    let mine = CompressedFheUint8::encrypt(42u8, &client_key);
    let mut bytes = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&mine, &mut bytes, LIMIT).unwrap();
    assert_eq!(bytes.len(), golden("compressed_fheuint8-42.bin").len());
    let back: CompressedFheUint8 =
        gpufhe::safe_serialization::safe_deserialize(bytes.as_slice(), LIMIT).unwrap();
    let clear: u8 = back.decompress().decrypt(&client_key);
    assert_eq!(clear, 42);
    let mut again = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&back, &mut again, LIMIT).unwrap();
    assert!(again == bytes);
}

#[test]
fn tfhe_rs_compressed_compact_public_keys_encrypt_here() {
    use gpufhe::{CompactCiphertextList, CompressedCompactPublicKey};
    let client_key: ClientKey = read_exactly("client_key-default.bin");
    let compressed: CompressedCompactPublicKey =
        read_exactly("compressed_compact_public_key-default.bin");
    let list = CompactCiphertextList::builder(&compressed.decompress())
        .push(99u8)
        .build();
    let x: FheUint8 = list.expand().unwrap().get(0).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 99);
    // gpufhe's compressed key of this client key: TFHE-rs's size, and it works.
    let mine = CompressedCompactPublicKey::new(&client_key);
    let mut bytes = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&mine, &mut bytes, LIMIT).unwrap();
    assert_eq!(
        bytes.len(),
        golden("compressed_compact_public_key-default.bin").len()
    );
    let list = CompactCiphertextList::builder(&mine.decompress())
        .push(7u8)
        .build();
    let x: FheUint8 = list.expand().unwrap().get(0).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 7);
}
