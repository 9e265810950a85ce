//! TFHE-rs's zero-knowledge data (`tfhe::zk`, proven compact lists): the CRS and
//! the proofs are `tfhe-zk-pok`'s own types (the crate TFHE-rs uses, which
//! versions them itself), wrapped in TFHE-rs's enums of the two proof schemes.

use super::high_level::{DataKind, Tag};
use super::shortint::CompactCiphertextList;
use tfhe_zk_pok::curve_api::Bls12_446;
use tfhe_zk_pok::proofs::{pke, pke_v2};

/// The curve of TFHE-rs's proofs.
pub(crate) type Curve = Bls12_446;

wire!(CompactPkeProofVersions [V0 V1] V2 CompactPkeProof:
/// A proof of compact public-key encryption, of either scheme.
pub enum CompactPkeProof {
    /// Version 1 proofs.
    PkeV1(pke::Proof<Curve>),
    /// Version 2 proofs.
    PkeV2(pke_v2::Proof<Curve>),
});

/// TFHE-rs's CRS of either scheme (`zk::CompactPkeCrs`; not compared, so not
/// through `wire!`, which derives `PartialEq`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, tfhe_versionable::Versionize)]
#[versionize(CompactPkeCrsVersions)]
#[allow(clippy::large_enum_variant)]
pub enum CompactPkeCrs {
    /// The CRS of version 1 proofs.
    PkeV1(pke::PublicParams<Curve>),
    /// The CRS of version 2 proofs.
    PkeV2(pke_v2::PublicParams<Curve>),
}

impl tfhe_versionable::deprecation::Deprecable for CompactPkeCrs {
    const TYPE_NAME: &'static str = "CompactPkeCrs";
    const MIN_SUPPORTED_APP_VERSION: &'static str =
        "the version that TFHE-rs 1.8 writes (convert older data with TFHE-rs 1.8 first)";
}

/// The versions of [`CompactPkeCrs`].
#[derive(tfhe_versionable::VersionsDispatch)]
#[allow(dead_code, clippy::large_enum_variant)]
pub enum CompactPkeCrsVersions {
    V0(tfhe_versionable::deprecation::Deprecated<CompactPkeCrs>),
    V1(CompactPkeCrs),
}

wire!(ShortintProvenCompactCiphertextListVersions [] V0 ShortintProvenCompactCiphertextList:
/// `shortint`'s proven list: compact lists (one mask each), each with its proof.
pub struct ShortintProvenCompactCiphertextList {
    pub(crate) proved_lists: Vec<(CompactCiphertextList, CompactPkeProof)>,
});

wire!(IntegerProvenCompactCiphertextListVersions [] V0 IntegerProvenCompactCiphertextList:
/// `integer`'s proven list: the proven blocks and what values they make.
pub struct IntegerProvenCompactCiphertextList {
    pub(crate) ct_list: ShortintProvenCompactCiphertextList,
    pub(crate) info: Vec<DataKind>,
});

wire!(ProvenCompactCiphertextListVersions [] V0 ProvenCompactCiphertextList:
/// The high level's proven compact list.
pub struct ProvenCompactCiphertextList {
    pub(crate) inner: IntegerProvenCompactCiphertextList,
    pub(crate) tag: Tag,
});
