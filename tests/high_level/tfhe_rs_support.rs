//! What the tests of TFHE-rs's data share: the golden files of
//! `tests/data/tfhe-rs-1.8.2/` (written by tfhe 1.8.2,
//! `compare/examples/tfhers_golden.rs`) and exact round trips through
//! `gpufhe::safe_serialization` (TFHE-rs's format).

use gpufhe::safe_serialization::{safe_deserialize, safe_serialize};
use gpufhe::serialization::with_insecure_parameters_allowed;
use std::path::PathBuf;

/// The size limit of every read and write.
pub const LIMIT: u64 = 1 << 30;

/// The bounds of a type TFHE-rs's format reads and writes.
pub trait TfheRsData:
    serde::Serialize
    + serde::de::DeserializeOwned
    + gpufhe::Versionize
    + gpufhe::Unversionize
    + gpufhe::named::Named
{
}

impl<T> TfheRsData for T where
    T: serde::Serialize
        + serde::de::DeserializeOwned
        + gpufhe::Versionize
        + gpufhe::Unversionize
        + gpufhe::named::Named
{
}

/// The bytes of golden file `name`.
pub fn golden(name: &str) -> Vec<u8> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tfhe-rs-1.8.2");
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `bytes` read as a `T` (insecure parameters allowed when `insecure`), checked
/// to be written back byte for byte; `what` names them in a failure.
pub fn read_exactly_from<T: TfheRsData>(bytes: &[u8], insecure: bool, what: &str) -> T {
    let read = || safe_deserialize(bytes, LIMIT);
    let value: T = if insecure {
        with_insecure_parameters_allowed(read)
    } else {
        read()
    }
    .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut again = Vec::new();
    safe_serialize(&value, &mut again, LIMIT).unwrap();
    assert!(again == bytes, "{what} is not written back byte for byte");
    value
}

/// Golden file `name` of default (secure) parameters, read exactly.
pub fn read_exactly<T: TfheRsData>(name: &str) -> T {
    read_exactly_from(&golden(name), false, name)
}

/// Golden file `name` of small insecure parameters, read exactly.
pub fn read_small_exactly<T: TfheRsData>(name: &str) -> T {
    read_exactly_from(&golden(name), true, name)
}

/// `value` written, read back (insecure parameters allowed) and written again:
/// the same bytes.
pub fn round_trip<T: TfheRsData>(value: &T) -> T {
    let mut bytes = Vec::new();
    safe_serialize(value, &mut bytes, LIMIT).unwrap();
    read_exactly_from(&bytes, true, "the value written")
}
