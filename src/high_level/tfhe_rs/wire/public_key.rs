//! TFHE-rs's classical public keys, plain and compressed, as serialized: the high
//! level's key (the integer key and a tag) over `integer`'s and `shortint`'s (the
//! LWE encryptions of zero, the parameter set, the atomic pattern).

use super::core::{CiphertextModulus, CompressionSeed, LweCiphertextList, LweSize};
use super::high_level::Tag;
use super::shortint::{AtomicPatternKind, KeySwitch32Parameters, PBSParameters, WopbsParameters};

wire!(SeededLweCiphertextListVersions [] V0 SeededLweCiphertextList:
/// Seeded LWE ciphertexts of one size: their bodies, and their masks' seed.
pub struct SeededLweCiphertextList {
    pub(crate) data: Vec<u64>,
    pub(crate) lwe_size: LweSize,
    pub(crate) compression_seed: CompressionSeed,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(ShortintParameterSetInnerVersions [] V0 ShortintParameterSetInner:
/// The parameters of a `shortint` key.
pub enum ShortintParameterSetInner {
    /// Bootstrapping parameters only.
    PBSOnly(PBSParameters),
    /// WoPBS parameters only (not supported).
    WopbsOnly(WopbsParameters),
    /// Both (not supported).
    PBSAndWopbs(PBSParameters, WopbsParameters),
    /// TFHE-rs's 32-bit keyswitch pattern (not supported).
    KS32PBS(KeySwitch32Parameters),
});

wire!(ShortintParameterSetVersions [] V0 ShortintParameterSet:
/// The parameter set of a `shortint` key.
pub struct ShortintParameterSet {
    pub(crate) inner: ShortintParameterSetInner,
});

wire!(LwePublicKeyVersions [] V0 LwePublicKey:
/// LWE encryptions of zero.
pub struct LwePublicKey {
    pub(crate) lwe_list: LweCiphertextList,
});

wire!(SeededLwePublicKeyVersions [] V0 SeededLwePublicKey:
/// Seeded LWE encryptions of zero.
pub struct SeededLwePublicKey {
    pub(crate) lwe_list: SeededLweCiphertextList,
});

wire!(ShortintPublicKeyVersions [V0] V1 ShortintPublicKey:
/// `shortint`'s public key.
pub struct ShortintPublicKey {
    pub(crate) lwe_public_key: LwePublicKey,
    pub(crate) parameters: ShortintParameterSet,
    pub(crate) atomic_pattern: AtomicPatternKind,
});

wire!(ShortintCompressedPublicKeyVersions [V0] V1 ShortintCompressedPublicKey:
/// `shortint`'s compressed public key.
pub struct ShortintCompressedPublicKey {
    pub(crate) lwe_public_key: SeededLwePublicKey,
    pub(crate) parameters: ShortintParameterSet,
    pub(crate) atomic_pattern: AtomicPatternKind,
});

wire!(IntegerPublicKeyVersions [] V0 IntegerPublicKey:
/// `integer`'s public key.
pub struct IntegerPublicKey {
    pub(crate) key: ShortintPublicKey,
});

wire!(IntegerCompressedPublicKeyVersions [] V0 IntegerCompressedPublicKey:
/// `integer`'s compressed public key.
pub struct IntegerCompressedPublicKey {
    pub(crate) key: ShortintCompressedPublicKey,
});

wire!(PublicKeyVersions [V0] V1 PublicKey:
/// The high level's public key.
pub struct PublicKey {
    pub(crate) key: IntegerPublicKey,
    pub(crate) tag: Tag,
});

wire!(CompressedPublicKeyVersions [V0] V1 CompressedPublicKey:
/// The high level's compressed public key.
pub struct CompressedPublicKey {
    pub(crate) key: IntegerCompressedPublicKey,
    pub(crate) tag: Tag,
});
