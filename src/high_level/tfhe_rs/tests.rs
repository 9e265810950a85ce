//! The wire types against TFHE-rs 1.8.2's own bytes (tests/data/tfhe-rs-1.8.2).

use super::wire;
use serde::{de::DeserializeOwned, Serialize};
use tfhe_safe_serialize::Named;
use tfhe_versionable::{Unversionize, Versionize};

impl Named for wire::high_level::FheUint {
    const NAME: &'static str = "high_level_api::FheUint";
}
impl Named for wire::high_level::ClientKey {
    const NAME: &'static str = "high_level_api::ClientKey";
}

/// The golden file `file`, read as `T` and written back byte for byte.
fn round_trip<T: Named + DeserializeOwned + Serialize + Versionize + Unversionize>(file: &str) -> T {
    let path = format!("{}/tests/data/tfhe-rs-1.8.2/{file}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(path).unwrap();
    let value: T = tfhe_safe_serialize::safe_deserialize(bytes.as_slice(), 1 << 30).unwrap();
    let mut out = vec![];
    tfhe_safe_serialize::safe_serialize(&value, &mut out, 1 << 30).unwrap();
    assert_eq!(out, bytes);
    value
}

#[test]
fn golden_files_round_trip_through_the_wire_types() {
    let x: wire::high_level::FheUint = round_trip("fheuint8-165.bin");
    assert_eq!(x.ciphertext.0.blocks.len(), 4);
    let _: wire::high_level::ClientKey = round_trip("client_key-default.bin");
}
