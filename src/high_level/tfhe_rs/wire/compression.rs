//! TFHE-rs's compression parameters, keys and compressed lists, as serialized
//! (`shortint::parameters::list_compression`, `shortint::list_compression`,
//! `integer::compression_keys`, `core_crypto`'s packing keyswitching keys and
//! modulus-switched GLWE ciphertexts, the `shortint`, `integer` and high-level
//! `CompressedCiphertextList`).

use super::core::{
    CiphertextModulus, CiphertextModulusLog, CompressionSeed, DecompositionBaseLog,
    DecompositionLevelCount, DynamicDistribution, GlweDimension, GlweSecretKey, GlweSize,
    LweBskGroupingFactor, LweCiphertextCount, PolynomialSize,
};
use super::high_level::{DataKind, ReRandomizationMetadata, Tag};
use super::server::{ShortintBootstrappingKey, ShortintCompressedBootstrappingKey};
use super::shortint::{AtomicPatternKind, CarryModulus, MessageModulus, PackedIntegers};

wire!(ClassicCompressionParametersVersions [] V0 ClassicCompressionParameters:
/// Compression with a classical decompression bootstrap key.
pub struct ClassicCompressionParameters {
    pub(crate) br_level: DecompositionLevelCount,
    pub(crate) br_base_log: DecompositionBaseLog,
    pub(crate) packing_ks_level: DecompositionLevelCount,
    pub(crate) packing_ks_base_log: DecompositionBaseLog,
    pub(crate) packing_ks_polynomial_size: PolynomialSize,
    pub(crate) packing_ks_glwe_dimension: GlweDimension,
    pub(crate) lwe_per_glwe: LweCiphertextCount,
    pub(crate) storage_log_modulus: CiphertextModulusLog,
    pub(crate) packing_ks_key_noise_distribution: DynamicDistribution,
});

wire!(MultiBitCompressionParametersVersions [] V0 MultiBitCompressionParameters:
/// Compression with a multi-bit decompression bootstrap key.
pub struct MultiBitCompressionParameters {
    pub(crate) br_level: DecompositionLevelCount,
    pub(crate) br_base_log: DecompositionBaseLog,
    pub(crate) packing_ks_level: DecompositionLevelCount,
    pub(crate) packing_ks_base_log: DecompositionBaseLog,
    pub(crate) packing_ks_polynomial_size: PolynomialSize,
    pub(crate) packing_ks_glwe_dimension: GlweDimension,
    pub(crate) lwe_per_glwe: LweCiphertextCount,
    pub(crate) storage_log_modulus: CiphertextModulusLog,
    pub(crate) packing_ks_key_noise_distribution: DynamicDistribution,
    pub(crate) decompression_grouping_factor: LweBskGroupingFactor,
});

wire!(CompressionParametersVersions [V0] V1 CompressionParameters:
/// The compression parameters.
pub enum CompressionParameters {
    /// A classical decompression key.
    Classic(ClassicCompressionParameters),
    /// A multi-bit decompression key.
    MultiBit(MultiBitCompressionParameters),
});

wire!(CompressionPrivateKeysVersions [] V0 ShortintCompressionPrivateKeys:
/// `shortint`'s compression private key: the GLWE key the blocks are packed under.
pub struct ShortintCompressionPrivateKeys {
    pub(crate) post_packing_ks_key: GlweSecretKey,
    pub(crate) params: CompressionParameters,
});

wire!(IntegerCompressionPrivateKeysVersions [] V0 IntegerCompressionPrivateKeys:
/// `integer`'s wrapper of the compression private key.
pub struct IntegerCompressionPrivateKeys {
    pub(crate) key: ShortintCompressionPrivateKeys,
});

wire!(LwePackingKeyswitchKeyVersions [V0 V1] V2 LwePackingKeyswitchKey:
/// A packing keyswitching key (per input coefficient, its levels least
/// significant first, each a GLWE ciphertext).
pub struct LwePackingKeyswitchKey {
    pub(crate) data: Vec<u64>,
    pub(crate) decomp_base_log: DecompositionBaseLog,
    pub(crate) decomp_level_count: DecompositionLevelCount,
    pub(crate) output_glwe_size: GlweSize,
    pub(crate) output_polynomial_size: PolynomialSize,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(SeededLwePackingKeyswitchKeyVersions [V0 V1] V2 SeededLwePackingKeyswitchKey:
/// A seeded packing keyswitching key: the body polynomials only.
pub struct SeededLwePackingKeyswitchKey {
    pub(crate) data: Vec<u64>,
    pub(crate) decomp_base_log: DecompositionBaseLog,
    pub(crate) decomp_level_count: DecompositionLevelCount,
    pub(crate) output_glwe_size: GlweSize,
    pub(crate) output_polynomial_size: PolynomialSize,
    pub(crate) compression_seed: CompressionSeed,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(CompressionKeyVersions [] V0 ShortintCompressionKey:
/// `shortint`'s compression key.
pub struct ShortintCompressionKey {
    pub(crate) packing_key_switching_key: LwePackingKeyswitchKey,
    pub(crate) lwe_per_glwe: LweCiphertextCount,
    pub(crate) storage_log_modulus: CiphertextModulusLog,
});

wire!(IntegerCompressionKeyVersions [] V0 IntegerCompressionKey:
/// `integer`'s compression key.
pub struct IntegerCompressionKey {
    pub(crate) key: ShortintCompressionKey,
});

wire!(DecompressionKeyVersions [V0 V1] V2 ShortintDecompressionKey:
/// `shortint`'s decompression key: a bootstrapping key from the compression key.
pub struct ShortintDecompressionKey {
    pub(crate) bsk: ShortintBootstrappingKey,
    pub(crate) lwe_per_glwe: LweCiphertextCount,
});

wire!(IntegerDecompressionKeyVersions [] V0 IntegerDecompressionKey:
/// `integer`'s decompression key.
pub struct IntegerDecompressionKey {
    pub(crate) key: ShortintDecompressionKey,
});

wire!(CompressedCompressionKeyVersions [V0 V1] V2 ShortintCompressedCompressionKey:
/// `shortint`'s seeded compression key.
pub struct ShortintCompressedCompressionKey {
    pub(crate) packing_key_switching_key: SeededLwePackingKeyswitchKey,
    pub(crate) lwe_per_glwe: LweCiphertextCount,
    pub(crate) storage_log_modulus: CiphertextModulusLog,
});

wire!(IntegerCompressedCompressionKeyVersions [V0 V1] V2 IntegerCompressedCompressionKey:
/// `integer`'s seeded compression key.
pub struct IntegerCompressedCompressionKey {
    pub(crate) key: ShortintCompressedCompressionKey,
});

wire!(CompressedDecompressionKeyVersions [V0 V1] V2 ShortintCompressedDecompressionKey:
/// `shortint`'s seeded decompression key.
pub struct ShortintCompressedDecompressionKey {
    pub(crate) bsk: ShortintCompressedBootstrappingKey,
    pub(crate) lwe_per_glwe: LweCiphertextCount,
});

wire!(IntegerCompressedDecompressionKeyVersions [V0] V1 IntegerCompressedDecompressionKey:
/// `integer`'s seeded decompression key.
pub struct IntegerCompressedDecompressionKey {
    pub(crate) key: ShortintCompressedDecompressionKey,
});

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
