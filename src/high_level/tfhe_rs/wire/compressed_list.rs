//! TFHE-rs's compressed lists, as serialized: `core_crypto`'s modulus-switched
//! GLWE ciphertexts, the `shortint`, `integer` and high-level
//! `CompressedCiphertextList`.

use super::core::{CiphertextModulus, GlweDimension, LweCiphertextCount, PolynomialSize};
use super::high_level::{DataKind, ReRandomizationMetadata, Tag};
use super::shortint::{AtomicPatternKind, CarryModulus, MessageModulus, PackedIntegers};

wire!(CompressedModulusSwitchedGlweCiphertextVersions [] V0
CompressedModulusSwitchedGlweCiphertext:
/// A GLWE ciphertext switched to the storage modulus: its mask and its first
/// `bodies_count` body coefficients, packed.
pub struct CompressedModulusSwitchedGlweCiphertext {
    pub(crate) packed_integers: PackedIntegers,
    pub(crate) glwe_dimension: GlweDimension,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) bodies_count: LweCiphertextCount,
    pub(crate) uncompressed_ciphertext_modulus: CiphertextModulus,
});

wire!(CompressedCiphertextListMetaVersions [] V0 CompressedCiphertextListMeta:
/// What the blocks of a compressed list are.
pub struct CompressedCiphertextListMeta {
    pub(crate) ciphertext_modulus: CiphertextModulus,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) atomic_pattern: AtomicPatternKind,
    pub(crate) lwe_per_glwe: LweCiphertextCount,
});

wire!(ShortintCompressedCiphertextListVersions [V0 V1] V2 ShortintCompressedCiphertextList:
/// `shortint`'s compressed list: packed GLWE ciphertexts (none and no metadata
/// when empty).
pub struct ShortintCompressedCiphertextList {
    pub(crate) modulus_switched_glwe_ciphertext_list: Vec<CompressedModulusSwitchedGlweCiphertext>,
    pub(crate) meta: Option<CompressedCiphertextListMeta>,
});

wire!(IntegerCompressedCiphertextListVersions [] V0 IntegerCompressedCiphertextList:
/// `integer`'s compressed list: the blocks and what values they make.
pub struct IntegerCompressedCiphertextList {
    pub(crate) packed_list: ShortintCompressedCiphertextList,
    pub(crate) info: Vec<DataKind>,
});

wire!(CompressedCiphertextListVersions [V0 V1 V2] V3 CompressedCiphertextList:
/// The high level's compressed list (its inner list is always on the CPU in
/// data).
pub struct CompressedCiphertextList {
    pub(crate) inner: IntegerCompressedCiphertextList,
    pub(crate) tag: Tag,
    pub(crate) re_randomization_metadata: Vec<ReRandomizationMetadata>,
});
