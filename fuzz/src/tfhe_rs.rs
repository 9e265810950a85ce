//! The `tfhe_rs_data` target: TFHE-rs 1.8's format, as `gpufhe::safe_serialization`
//! reads and writes it (TFHE-rs's header, then the value's versioned form).
//!
//! The type is the one the input's header names: `high_level_api::FheUint` is read
//! as `FheUint8`, `FheUint16` and `FheUint64` (a width is a block count),
//! `high_level_api::FheInt` as `FheInt8` and `FheInt64`, and every other name as
//! the type gpufhe writes under it (TFHE-rs's names and the `gpufhe::`
//! names of the types written in gpufhe's own form), so that a type whose TFHE-rs
//! form lands later is fuzzed under its new name without a change here. An input
//! whose header names no known type is read as an `FheUint8` with the header
//! check disabled (the payload is still fuzzed).
//!
//! It is read as a user would, and again inside `with_insecure_parameters_allowed`
//! (the fixture keys are of insecure test parameters). A value that reads must
//! write back (a value read and refused on writing is a finding) and read again,
//! the second round giving the same bytes; then it is used once
//! ([`crate::exercise`]) with the fixture keys, and values conforming to the
//! TFHE-rs client key of the golden files are decrypted with it.

use crate::exercise::Exercise;
use crate::keys::{keys, Keys};
use crate::LIMIT;
use gpufhe::named::Named;
use gpufhe::prelude::*;
use gpufhe::safe_serialization::{safe_deserialize, safe_serialize, DeserializationConfig};
use gpufhe::serialization::{with_insecure_parameters_allowed, ConformanceParams};
use gpufhe::{
    ClientKey, CompactCiphertextList, CompactPublicKey, CompressedCiphertextList,
    CompressedCompactPublicKey, CompressedFheBool, CompressedFheInt8, CompressedFheUint64,
    CompressedFheUint8, CompressedServerKey, Config, FheBool, FheInt64, FheInt8, FheUint16,
    FheUint64, FheUint8, KeySwitchingKey, ServerKey, Unversionize, Versionize,
};
use gpufhe::{CompressedPublicKey, PublicKey};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The fields of TFHE-rs's header (`tfhe-safe-serialize`): three strings (`u64`
/// length, then bytes) around a `u32` versioning mode.
struct Header<'a> {
    /// The type's name.
    name: &'a [u8],
    /// Where the payload starts.
    end: usize,
}

/// TFHE-rs's header of `bytes`, if they hold one (of any versions).
fn header(bytes: &[u8]) -> Option<Header<'_>> {
    let string = |at: usize| -> Option<(usize, usize)> {
        let len = u64::from_le_bytes(bytes.get(at..at.checked_add(8)?)?.try_into().ok()?);
        let start = at + 8;
        let end = start.checked_add(usize::try_from(len).ok()?)?;
        (end <= bytes.len()).then_some((start, end))
    };
    let (_, version_end) = string(0)?;
    let (_, versioning_end) = string(version_end.checked_add(4)?)?;
    let (start, end) = string(versioning_end)?;
    Some(Header {
        name: &bytes[start..end],
        end,
    })
}

/// The length of TFHE-rs's header at the start of `bytes`, if they hold one.
pub fn header_len(bytes: &[u8]) -> Option<usize> {
    header(bytes).map(|h| h.end)
}

/// The length of TFHE-rs's header at the start of `bytes` if it names a type of
/// TFHE-rs's high-level API or of gpufhe (the cut points of the replay's
/// truncations; other targets' inputs keep theirs).
pub fn named_header_len(bytes: &[u8]) -> Option<usize> {
    let h = header(bytes)?;
    let known = [&b"high_level_api::"[..], b"gpufhe::"];
    known.iter().any(|p| h.name.starts_with(p)).then_some(h.end)
}

/// The type name in TFHE-rs's header of `bytes`, if they hold one.
pub fn header_name(bytes: &[u8]) -> Option<&[u8]> {
    header(bytes).map(|h| h.name)
}

/// A type the target reads in TFHE-rs's format (with a cheap first use).
pub trait TfheRsData:
    Exercise + Serialize + DeserializeOwned + Versionize + Unversionize + Named
{
    /// Decrypts the value with `client` (the golden files' TFHE-rs client key), to
    /// which it conforms: an `Err` is fine (coefficients are not authenticated), a
    /// panic is a finding. Nothing to do for keys.
    fn decrypt_with(&self, _client: &ClientKey) {}
}

/// Decrypts `value` as a `Clear`, ignoring the result.
fn decrypt<Clear>(value: &impl FheTryDecrypt<Clear>, client: &ClientKey) {
    let _ = value.try_decrypt(client);
}

/// [`TfheRsData`] of values (`Type: Clear`), decrypted as their clear type.
macro_rules! values {
    ($($ty:ty: $clear:ty),* $(,)?) => {$(
        impl TfheRsData for $ty {
            fn decrypt_with(&self, client: &ClientKey) {
                decrypt::<$clear>(self, client);
            }
        }
    )*};
}
values!(FheBool: bool, FheUint8: u8, FheUint16: u16, FheUint64: u64, FheInt8: i8, FheInt64: i64);

/// [`TfheRsData`] of compressed values (`Type: Clear`), decompressed, then
/// decrypted as their clear type.
macro_rules! compressed_values {
    ($($ty:ty: $clear:ty),* $(,)?) => {$(
        impl TfheRsData for $ty {
            fn decrypt_with(&self, client: &ClientKey) {
                if let Ok(value) = self.try_decompress() {
                    decrypt::<$clear>(&value, client);
                }
            }
        }
    )*};
}
compressed_values!(
    CompressedFheBool: bool,
    CompressedFheUint8: u8,
    CompressedFheUint64: u64,
    CompressedFheInt8: i8,
);

impl TfheRsData for CompactCiphertextList {
    fn decrypt_with(&self, client: &ClientKey) {
        // Expanded without a server key (the golden files' parameters have none
        // here), each value read as what it says it is.
        let Ok(values) = self.expand() else { return };
        for i in 0..values.len() {
            match values.get_kind_of(i) {
                Some(gpufhe::FheTypes::Bool) => {
                    if let Ok(Some(b)) = values.get::<FheBool>(i) {
                        decrypt::<bool>(&b, client);
                    }
                }
                Some(gpufhe::FheTypes::Int8) => {
                    if let Ok(Some(x)) = values.get::<FheInt8>(i) {
                        decrypt::<i8>(&x, client);
                    }
                }
                _ => {
                    if let Ok(Some(x)) = values.get::<FheUint8>(i) {
                        decrypt::<u8>(&x, client);
                    }
                }
            }
        }
    }
}
impl TfheRsData for ClientKey {}
impl TfheRsData for CompactPublicKey {}
impl TfheRsData for CompressedCompactPublicKey {}
impl TfheRsData for ServerKey {}
impl TfheRsData for CompressedServerKey {}
impl TfheRsData for Config {}
impl TfheRsData for KeySwitchingKey {}
impl TfheRsData for PublicKey {}
impl TfheRsData for CompressedPublicKey {}
impl TfheRsData for CompressedCiphertextList {}
impl TfheRsData for gpufhe::SquashedNoiseFheUint {}
impl TfheRsData for gpufhe::SquashedNoiseFheInt {}
impl TfheRsData for gpufhe::SquashedNoiseFheBool {}
impl TfheRsData for gpufhe::CompressedSquashedNoiseCiphertextList {
    fn decrypt_with(&self, client: &ClientKey) {
        crate::exercise::decrypt_squashed_list(self, client);
    }
}

/// Something done with one type, chosen at run time by [`visit_named`].
pub trait VisitTfheRs {
    /// Does it with `T`.
    fn visit<T: TfheRsData>(&mut self);
}

/// Calls `v.visit::<T>()` for every type of the target ([`TYPES`] of them).
fn visit_all(v: &mut impl VisitTfheRs) {
    v.visit::<FheBool>();
    v.visit::<FheUint8>();
    v.visit::<FheUint16>();
    v.visit::<FheUint64>();
    v.visit::<FheInt8>();
    v.visit::<FheInt64>();
    v.visit::<CompressedFheBool>();
    v.visit::<CompressedFheUint8>();
    v.visit::<CompressedFheUint64>();
    v.visit::<CompressedFheInt8>();
    v.visit::<ClientKey>();
    v.visit::<CompactPublicKey>();
    v.visit::<CompressedCompactPublicKey>();
    v.visit::<CompactCiphertextList>();
    v.visit::<CompressedCiphertextList>();
    v.visit::<ServerKey>();
    v.visit::<CompressedServerKey>();
    v.visit::<KeySwitchingKey>();
    v.visit::<PublicKey>();
    v.visit::<CompressedPublicKey>();
    v.visit::<Config>();
    v.visit::<gpufhe::SquashedNoiseFheUint>();
    v.visit::<gpufhe::SquashedNoiseFheInt>();
    v.visit::<gpufhe::SquashedNoiseFheBool>();
    v.visit::<gpufhe::CompressedSquashedNoiseCiphertextList>();
}

/// The number of types [`visit_all`] visits (several may share a name).
pub const TYPES: usize = 25;

/// Calls `v.visit::<T>()` for every type of the target named `name` (TFHE-rs's
/// name of the type, or gpufhe's `gpufhe::` name); returns how many there were.
pub fn visit_named(name: &[u8], v: &mut impl VisitTfheRs) -> usize {
    struct Named<'a, V> {
        name: &'a [u8],
        inner: &'a mut V,
        count: usize,
    }
    impl<V: VisitTfheRs> VisitTfheRs for Named<'_, V> {
        fn visit<T: TfheRsData>(&mut self) {
            if self.name == T::NAME.as_bytes() {
                self.count += 1;
                self.inner.visit::<T>();
            }
        }
    }
    let mut named = Named {
        name,
        inner: v,
        count: 0,
    };
    visit_all(&mut named);
    named.count
}

/// The TFHE-rs client key of the golden files (`tests/data/tfhe-rs-1.8.2/`), if it
/// reads: values of its parameters (TFHE-rs's defaults) are decrypted with it.
pub fn tfhe_rs_client_key() -> Option<&'static ClientKey> {
    static KEY: OnceLock<Option<ClientKey>> = OnceLock::new();
    KEY.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/tfhe-rs-1.8.2/client_key-default.bin");
        let bytes = std::fs::read(path).ok()?;
        safe_deserialize(bytes.as_slice(), LIMIT).ok()
    })
    .as_ref()
}

/// `value` written in TFHE-rs's format; a value that was read and does not write
/// back is a finding.
fn written<T: TfheRsData>(value: &T) -> Vec<u8> {
    let mut bytes = Vec::new();
    if let Err(e) = safe_serialize(value, &mut bytes, LIMIT) {
        panic!("a {} was read and does not write back: {e}", T::NAME);
    }
    bytes
}

/// `value` written, read back and written again: the bytes of the first write,
/// which the second must repeat (a finding otherwise).
fn round_trip<T: TfheRsData>(value: &T) -> Vec<u8> {
    let bytes = written(value);
    let again: T = safe_deserialize(bytes.as_slice(), LIMIT).unwrap_or_else(|e| {
        panic!(
            "a {} was read, written, and does not read back: {e}",
            T::NAME
        )
    });
    assert!(
        written(&again) == bytes,
        "a {} written twice gives other bytes",
        T::NAME
    );
    bytes
}

/// Reads `data` as a `T` as a user would (insecure parameters refused), then
/// inside [`with_insecure_parameters_allowed`] (the fixture keys are of insecure
/// test parameters), each value written back ([`round_trip`]); the value read
/// inside the scope is used once (what reads outside it reads the same inside).
fn read_and_use<T: TfheRsData>(data: &[u8], keys: &Keys) {
    let plain = safe_deserialize::<T>(data, LIMIT)
        .ok()
        .map(|value| round_trip(&value));
    with_insecure_parameters_allowed(|| {
        let Ok(value) = safe_deserialize::<T>(data, LIMIT) else {
            assert!(
                plain.is_none(),
                "a {} reads, and does not when insecure parameters are allowed",
                T::NAME
            );
            return;
        };
        let bytes = round_trip(&value);
        if let Some(plain) = &plain {
            assert!(
                *plain == bytes,
                "a {} reads differently when insecure parameters are allowed",
                T::NAME
            );
        }
        let conformant = value
            .conforms_to(&ConformanceParams::from(&keys.client))
            .is_ok();
        let _ = value.conforms_to(&keys.client.config().into());
        value.exercise(keys, conformant);
        if let Some(client) = tfhe_rs_client_key() {
            if value.conforms_to(&ConformanceParams::from(client)).is_ok() {
                value.decrypt_with(client);
            }
        }
    });
}

/// The `tfhe_rs_data` target.
pub fn tfhe_rs_data(data: &[u8]) {
    struct Read<'a>(&'a [u8]);
    impl VisitTfheRs for Read<'_> {
        fn visit<T: TfheRsData>(&mut self) {
            read_and_use::<T>(self.0, keys());
        }
    }
    let name = header_name(data).unwrap_or_default();
    if crate::zk::zk_data(name, data) {
        return;
    }
    if visit_named(name, &mut Read(data)) == 0 {
        // No type of that name: the payload as an `FheUint8`, whatever the header.
        let reader = DeserializationConfig::new(LIMIT)
            .disable_header_validation()
            .disable_conformance();
        let keys = keys();
        let read = || reader.deserialize_from::<FheUint8>(data);
        for value in [read(), with_insecure_parameters_allowed(read)]
            .into_iter()
            .flatten()
        {
            written(&value);
            value.exercise(keys, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the types it visits and the values that read.
    struct Count<'a>(&'a [u8], usize);
    impl VisitTfheRs for Count<'_> {
        fn visit<T: TfheRsData>(&mut self) {
            self.1 += usize::from(safe_deserialize::<T>(self.0, LIMIT).is_ok());
        }
    }

    #[test]
    fn the_golden_files_name_their_types_and_read_as_one_of_them() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tfhe-rs-1.8.2");
        for (file, types) in [
            ("fheuint8-165.bin", 3),
            ("fheint8-minus-77.bin", 2),
            ("fhebool-true.bin", 1),
            ("client_key-default.bin", 1),
            ("compact_public_key-default.bin", 1),
            ("compact_list-7-true-minus-3.bin", 1),
            ("small-noise_squashing-squashed_fheuint8-173.bin", 1),
        ] {
            let bytes = std::fs::read(dir.join(file)).unwrap();
            let name = header_name(&bytes).unwrap();
            assert!(name.starts_with(b"high_level_api::"), "{file}");
            assert_eq!(named_header_len(&bytes), Some(34 + name.len()));
            let mut count = Count(&bytes, 0);
            assert_eq!(visit_named(name, &mut count), types, "{file}");
            assert_eq!(count.1, 1, "{file} reads as exactly one type");
            tfhe_rs_data(&bytes);
        }
        assert!(tfhe_rs_client_key().is_some());
        struct All(usize);
        impl VisitTfheRs for All {
            fn visit<T: TfheRsData>(&mut self) {
                self.0 += 1;
            }
        }
        let mut all = All(0);
        visit_all(&mut all);
        assert_eq!(all.0, TYPES);
        assert_eq!(header_name(b"GPUFHE\x00\x00"), None);
    }
}
