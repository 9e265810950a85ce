//! TFHE-rs's own data (issue 37): the golden files in `tests/data/tfhe-rs-1.8.2/`,
//! written by tfhe 1.8.2 (`compare/examples/tfhers_golden.rs`). gpufhe does not
//! read TFHE-rs's format yet: every file must give an `Err` that says it is TFHE-rs
//! data and of which type, never a panic or an error about magic bytes.

use gpufhe::serialization::{safe_deserialize, safe_deserialize_default};
use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, FheBool, FheInt8, FheUint8};
use std::path::PathBuf;

const LIMIT: u64 = 1 << 30;

fn golden(name: &str) -> Vec<u8> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tfhe-rs-1.8.2");
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn says_tfhe_rs(result: gpufhe::Result<impl Sized>, name: &str) {
    let Err(err) = result else {
        panic!("{name} read as gpufhe data");
    };
    let text = err.to_string();
    assert!(
        text.contains("the input is TFHE-rs data (a high_level_api::")
            && text.contains("serialization header 0.5, versioned 0.1"),
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
