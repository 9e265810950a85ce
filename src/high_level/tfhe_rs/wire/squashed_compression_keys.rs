//! TFHE-rs 1.8's compression keys of squashed values, as serialized: their
//! parameters, the client's compression private key and the server's packing keys
//! (plain and seeded, `u128`).

use super::core::{
    CiphertextModulus, CompressionSeed, DecompositionBaseLog, DecompositionLevelCount,
    DynamicDistribution, GlweDimension, GlweSize, LweCiphertextCount, PolynomialSize,
};
use super::noise_squashing::GlweSecretKey128;
use super::shortint::{CarryModulus, MessageModulus};

wire!(NoiseSquashingCompressionParametersVersions [] V0 NoiseSquashingCompressionParameters:
/// The parameters of the compression of squashed values.
pub struct NoiseSquashingCompressionParameters {
    pub(crate) packing_ks_level: DecompositionLevelCount,
    pub(crate) packing_ks_base_log: DecompositionBaseLog,
    pub(crate) packing_ks_polynomial_size: PolynomialSize,
    pub(crate) packing_ks_glwe_dimension: GlweDimension,
    pub(crate) lwe_per_glwe: LweCiphertextCount,
    pub(crate) packing_ks_key_noise_distribution: DynamicDistribution,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(ShortintNoiseSquashingCompressionPrivateKeyVersions [] V0
ShortintNoiseSquashingCompressionPrivateKey:
/// `shortint`'s compression private key of squashed values.
pub struct ShortintNoiseSquashingCompressionPrivateKey {
    pub(crate) post_packing_ks_key: GlweSecretKey128,
    pub(crate) params: NoiseSquashingCompressionParameters,
});

wire!(NoiseSquashingCompressionPrivateKeyVersions [] V0 NoiseSquashingCompressionPrivateKey:
/// `integer`'s compression private key of squashed values.
pub struct NoiseSquashingCompressionPrivateKey {
    pub(crate) key: ShortintNoiseSquashingCompressionPrivateKey,
});

wire!(LwePackingKeyswitchKey128Versions [V0 V1] V2 LwePackingKeyswitchKey128:
/// A packing keyswitching key modulo 2^128 (per input coefficient, its levels
/// least significant first, each a GLWE ciphertext).
pub struct LwePackingKeyswitchKey128 {
    pub(crate) data: Vec<u128>,
    pub(crate) decomp_base_log: DecompositionBaseLog,
    pub(crate) decomp_level_count: DecompositionLevelCount,
    pub(crate) output_glwe_size: GlweSize,
    pub(crate) output_polynomial_size: PolynomialSize,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(SeededLwePackingKeyswitchKey128Versions [V0 V1] V2 SeededLwePackingKeyswitchKey128:
/// A seeded packing keyswitching key modulo 2^128: the body polynomials only.
pub struct SeededLwePackingKeyswitchKey128 {
    pub(crate) data: Vec<u128>,
    pub(crate) decomp_base_log: DecompositionBaseLog,
    pub(crate) decomp_level_count: DecompositionLevelCount,
    pub(crate) output_glwe_size: GlweSize,
    pub(crate) output_polynomial_size: PolynomialSize,
    pub(crate) compression_seed: CompressionSeed,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(ShortintNoiseSquashingCompressionKeyVersions [] V0 ShortintNoiseSquashingCompressionKey:
/// `shortint`'s compression key of squashed values.
pub struct ShortintNoiseSquashingCompressionKey {
    pub(crate) packing_key_switching_key: LwePackingKeyswitchKey128,
    pub(crate) lwe_per_glwe: LweCiphertextCount,
});

wire!(NoiseSquashingCompressionKeyVersions [] V0 NoiseSquashingCompressionKey:
/// `integer`'s compression key of squashed values.
pub struct NoiseSquashingCompressionKey {
    pub(crate) key: ShortintNoiseSquashingCompressionKey,
});

wire!(ShortintCompressedNoiseSquashingCompressionKeyVersions [] V0
ShortintCompressedNoiseSquashingCompressionKey:
/// `shortint`'s seeded compression key of squashed values.
pub struct ShortintCompressedNoiseSquashingCompressionKey {
    pub(crate) packing_key_switching_key: SeededLwePackingKeyswitchKey128,
    pub(crate) lwe_per_glwe: LweCiphertextCount,
});

wire!(CompressedNoiseSquashingCompressionKeyVersions [] V0
CompressedNoiseSquashingCompressionKey:
/// `integer`'s seeded compression key of squashed values.
pub struct CompressedNoiseSquashingCompressionKey {
    pub(crate) key: ShortintCompressedNoiseSquashingCompressionKey,
});
