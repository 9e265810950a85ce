//! TFHE-rs 1.8's compressed squashed lists, as serialized: the `shortint`,
//! `integer` and high-level `CompressedSquashedNoiseCiphertextList` (their keys
//! are in `squashed_compression_keys.rs`).

use super::core::{
    CiphertextModulus, CiphertextModulusLog, GlweDimension, LweCiphertextCount, PolynomialSize,
};
use super::high_level::{DataKind, Tag};
use super::shortint::{CarryModulus, MessageModulus};

wire!(PackedIntegers128Versions [] V0 PackedIntegers128:
/// Integers of `log_modulus` bits packed LSB first into `u128` words.
pub struct PackedIntegers128 {
    pub(crate) packed_coeffs: Vec<u128>,
    pub(crate) log_modulus: CiphertextModulusLog,
    pub(crate) initial_len: usize,
});

wire!(CompressedModulusSwitchedGlweCiphertext128Versions [] V0
CompressedModulusSwitchedGlweCiphertext128:
/// A 128-bit GLWE ciphertext: its mask and its first `bodies_count` bodies, packed.
pub struct CompressedModulusSwitchedGlweCiphertext128 {
    pub(crate) packed_integers: PackedIntegers128,
    pub(crate) glwe_dimension: GlweDimension,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) bodies_count: LweCiphertextCount,
    pub(crate) uncompressed_ciphertext_modulus: CiphertextModulus,
});

wire!(CompressedSquashedNoiseCiphertextListMetaVersions [] V0
CompressedSquashedNoiseCiphertextListMeta:
/// What the blocks of a compressed squashed list are.
pub struct CompressedSquashedNoiseCiphertextListMeta {
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) lwe_per_glwe: LweCiphertextCount,
});

wire!(ShortintCompressedSquashedNoiseCiphertextListVersions [] V0
ShortintCompressedSquashedNoiseCiphertextList:
/// `shortint`'s compressed squashed list (no GLWE ciphertext and no metadata when
/// empty).
pub struct ShortintCompressedSquashedNoiseCiphertextList {
    pub(crate) glwe_ciphertext_list: Vec<CompressedModulusSwitchedGlweCiphertext128>,
    pub(crate) meta: Option<CompressedSquashedNoiseCiphertextListMeta>,
});

wire!(IntegerCompressedSquashedNoiseCiphertextListVersions [] V0
IntegerCompressedSquashedNoiseCiphertextList:
/// `integer`'s compressed squashed list: the blocks and what values they make.
pub struct IntegerCompressedSquashedNoiseCiphertextList {
    pub(crate) list: ShortintCompressedSquashedNoiseCiphertextList,
    pub(crate) info: Vec<DataKind>,
});

wire!(CompressedSquashedNoiseCiphertextListVersions [] V0 CompressedSquashedNoiseCiphertextList:
/// The high level's compressed squashed list.
pub struct CompressedSquashedNoiseCiphertextList {
    pub(crate) inner: IntegerCompressedSquashedNoiseCiphertextList,
    pub(crate) tag: Tag,
});
