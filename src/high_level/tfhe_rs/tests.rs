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
fn round_trip<T: Named + DeserializeOwned + Serialize + Versionize + Unversionize>(
    file: &str,
) -> T {
    let path = format!(
        "{}/tests/data/tfhe-rs-1.8.2/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
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

#[test]
fn the_default_configuration_has_tfhe_rs_bytes() {
    // docs/tfhe-rs-format.md, section 5: 239 bytes, verified against tfhe 1.8.2.
    let mut bytes = vec![];
    tfhe_safe_serialize::safe_serialize(&crate::Config::default(), &mut bytes, 1 << 20).unwrap();
    let header = 34 + "high_level_api::Config".len();
    let payload = &bytes[header..];
    assert_eq!(payload.len(), 239);
    let tags: Vec<u32> = payload[..28]
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // Config V0, IntegerConfig V2, AtomicPatternParameters V0, Standard,
    // PBSParameters V0, PBS, ClassicPBSParameters V2.
    assert_eq!(tags, [0, 2, 0, 0, 0, 0, 2]);
    // lwe_dimension 918 after its own version tag.
    assert_eq!(payload[32..40], 918u64.to_le_bytes());
    // The five absent options, the dedicated OPRF key, no transciphering.
    assert_eq!(payload[232..], [0, 0, 0, 0, 0, 1, 0]);
    let back: crate::Config =
        tfhe_safe_serialize::safe_deserialize(bytes.as_slice(), 1 << 20).unwrap();
    assert_eq!(back, crate::Config::default());
}
