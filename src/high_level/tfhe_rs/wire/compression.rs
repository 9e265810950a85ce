//! TFHE-rs's compression parameters and compression private key, as serialized
//! (`shortint::parameters::list_compression`, `shortint::list_compression`,
//! `integer::compression_keys`); the server keys' compression keys are with the
//! server keys (`server.rs`), the compressed lists in `compressed_list.rs`.

use super::core::{
    CiphertextModulusLog, DecompositionBaseLog, DecompositionLevelCount, DynamicDistribution,
    GlweDimension, GlweSecretKey, LweBskGroupingFactor, LweCiphertextCount, PolynomialSize,
};

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
