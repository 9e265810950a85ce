//! The zero-knowledge types in the `tfhe_rs_data` target (headers
//! `high_level_api::ProvenCompactCiphertextList` and `zk::CompactPkeCrs`): read as
//! a user reads them (insecure parameters allowed: the golden files' are), written
//! back and read again to the same bytes, checked for conformance, then verified
//! with the golden files' compact public key (TFHE-rs 1.8.2's, small parameters)
//! and a CRS of their parameters, and a list that verifies is expanded. A panic anywhere is a finding; a changed list that still
//! verifies is one too.

use crate::LIMIT;
use gpufhe::conformance::ParameterSetConformant;
use gpufhe::named::Named;
use gpufhe::safe_serialization::{safe_deserialize, safe_serialize};
use gpufhe::serialization::with_insecure_parameters_allowed;
use gpufhe::zk::{
    new_compact_pke_crs_conformance_params, CompactPkeCrs,
    IntegerProvenCompactCiphertextListConformanceParams,
};
use gpufhe::{ClientKey, CompactPublicKey, ProvenCompactCiphertextList, ServerKey};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The metadata the golden list was proven for.
const METADATA: &[u8] = b"gpufhe-golden";

/// A CRS of the golden files' parameters, their compact public key and a server
/// key of their client key.
struct Fixture {
    crs: CompactPkeCrs,
    public_key: CompactPublicKey,
    server_key: ServerKey,
    /// The golden list's bytes (the only list allowed to verify).
    list: Vec<u8>,
}

fn golden(name: &str) -> Option<Vec<u8>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tfhe-rs-1.8.2")
        .join(name);
    std::fs::read(path).ok()
}

fn fixture() -> Option<&'static Fixture> {
    static FIXTURE: OnceLock<Option<Fixture>> = OnceLock::new();
    FIXTURE
        .get_or_init(|| {
            with_insecure_parameters_allowed(|| {
                let read = |name| golden(name);
                let client_key: ClientKey =
                    safe_deserialize(read("small-zk-client_key.bin")?.as_slice(), LIMIT).ok()?;
                // TFHE-rs's CRS is not committed (1.3 MB): a CRS of the same
                // parameters made here (the golden list does not verify with it).
                let crs = CompactPkeCrs::from_config(*client_key.config(), 16).ok()?;
                Some(Fixture {
                    crs,
                    public_key: safe_deserialize(
                        read("small-zk-compact_public_key.bin")?.as_slice(),
                        LIMIT,
                    )
                    .ok()?,
                    server_key: ServerKey::try_new(&client_key).ok()?,
                    list: read("small-zk-proven_list-201-true-minus-1234.bin")?,
                })
            })
        })
        .as_ref()
}

/// `value` written, read back and written again to the same bytes.
fn round_trip<T>(value: &T) -> Vec<u8>
where
    T: serde::Serialize
        + serde::de::DeserializeOwned
        + gpufhe::Versionize
        + gpufhe::Unversionize
        + Named,
{
    let mut bytes = Vec::new();
    safe_serialize(value, &mut bytes, LIMIT)
        .unwrap_or_else(|e| panic!("a {} was read and does not write back: {e}", T::NAME));
    let again: T = with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), LIMIT))
        .unwrap_or_else(|e| panic!("a {} written does not read back: {e}", T::NAME));
    let mut twice = Vec::new();
    safe_serialize(&again, &mut twice, LIMIT).unwrap();
    assert!(
        twice == bytes,
        "a {} written twice gives other bytes",
        T::NAME
    );
    bytes
}

/// Reads `data` if its header names a zero-knowledge type; `false` otherwise.
pub fn zk_data(name: &[u8], data: &[u8]) -> bool {
    if name == ProvenCompactCiphertextList::NAME.as_bytes() {
        let read = with_insecure_parameters_allowed(|| {
            safe_deserialize::<ProvenCompactCiphertextList>(data, LIMIT)
        });
        if let Ok(list) = read {
            proven_list(&list, data);
        }
        true
    } else if name == CompactPkeCrs::NAME.as_bytes() {
        if let Ok(crs) = safe_deserialize::<CompactPkeCrs>(data, LIMIT) {
            round_trip(&crs);
            let _ = crs.max_num_messages();
            if let Ok(params) = new_compact_pke_crs_conformance_params(
                gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2,
                crs.max_num_messages(),
            ) {
                let _ = crs.is_conformant(&params);
            }
            // Verifying the golden list with it: only the golden CRS may say Valid.
            if let Some(f) = fixture() {
                let list: Option<ProvenCompactCiphertextList> =
                    with_insecure_parameters_allowed(|| {
                        safe_deserialize(f.list.as_slice(), LIMIT).ok()
                    });
                if let Some(list) = list {
                    let _ = list.verify(&crs, &f.public_key, METADATA);
                }
            }
        }
        true
    } else {
        false
    }
}

fn proven_list(list: &ProvenCompactCiphertextList, data: &[u8]) {
    round_trip(list);
    let _ = (list.len(), list.get_kind_of(0));
    let Some(f) = fixture() else { return };
    let params = IntegerProvenCompactCiphertextListConformanceParams::from_crs_and_parameters(
        gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2,
        &f.crs,
    );
    let _ = list.is_conformant(&params);
    let valid = list.verify(&f.crs, &f.public_key, METADATA).is_valid();
    if valid {
        // Only the golden list itself verifies (its bytes may differ only where the
        // format lets two encodings mean the same value).
        assert!(
            round_trip(list) == f.list || data == f.list.as_slice(),
            "a changed proven list verifies"
        );
        gpufhe::set_server_key(f.server_key.clone());
        let values = list
            .expand_without_verification()
            .expect("a verified list expands");
        assert_eq!(values.len(), 3);
        gpufhe::unset_server_key();
    }
}
