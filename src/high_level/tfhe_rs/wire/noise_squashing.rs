//! TFHE-rs 1.8's noise-squashing data, as serialized: the parameters, the private
//! key, and the squashed blocks and integers with their 128-bit LWE ciphertexts
//! (docs/noise-squashing.md, "TFHE-rs's form"); the high level's squashed values
//! are in `squashed_values.rs`.

use super::core::{
    CiphertextModulus, DecompositionBaseLog, DecompositionLevelCount, DynamicDistribution,
    GlweDimension, LweBskGroupingFactor, PolynomialSize,
};
use super::shortint::{CarryModulus, Degree, MessageModulus, ModulusSwitchType};

wire!(NoiseSquashingClassicParametersVersions [] V0 NoiseSquashingClassicParameters:
/// Classical noise-squashing parameters.
pub struct NoiseSquashingClassicParameters {
    pub(crate) glwe_dimension: GlweDimension,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) glwe_noise_distribution: DynamicDistribution,
    pub(crate) decomp_base_log: DecompositionBaseLog,
    pub(crate) decomp_level_count: DecompositionLevelCount,
    pub(crate) modulus_switch_noise_reduction_params: ModulusSwitchType,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(NoiseSquashingMultiBitParametersVersions [] V0 NoiseSquashingMultiBitParameters:
/// Multi-bit noise-squashing parameters.
pub struct NoiseSquashingMultiBitParameters {
    pub(crate) glwe_dimension: GlweDimension,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) glwe_noise_distribution: DynamicDistribution,
    pub(crate) decomp_base_log: DecompositionBaseLog,
    pub(crate) decomp_level_count: DecompositionLevelCount,
    pub(crate) grouping_factor: LweBskGroupingFactor,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) ciphertext_modulus: CiphertextModulus,
    pub(crate) deterministic_execution: bool,
});

wire!(NoiseSquashingParametersVersions [V0 V1] V2 NoiseSquashingParameters:
/// Noise-squashing parameters.
pub enum NoiseSquashingParameters {
    /// A classical 128-bit bootstrap key.
    Classic(NoiseSquashingClassicParameters),
    /// A multi-bit 128-bit bootstrap key.
    MultiBit(NoiseSquashingMultiBitParameters),
});

wire!(GlweSecretKey128Versions [] V0 GlweSecretKey128:
/// A GLWE secret key of `u128` coefficients (binary).
pub struct GlweSecretKey128 {
    pub(crate) data: Vec<u128>,
    pub(crate) polynomial_size: PolynomialSize,
});

wire!(ShortintNoiseSquashingPrivateKeyVersions [] V0 ShortintNoiseSquashingPrivateKey:
/// The `shortint` noise-squashing private key.
pub struct ShortintNoiseSquashingPrivateKey {
    pub(crate) post_noise_squashing_secret_key: GlweSecretKey128,
    pub(crate) params: NoiseSquashingParameters,
});

wire!(NoiseSquashingPrivateKeyVersions [] V0 NoiseSquashingPrivateKey:
/// The `integer` noise-squashing private key.
pub struct NoiseSquashingPrivateKey {
    pub(crate) key: ShortintNoiseSquashingPrivateKey,
});

wire!(LweCiphertext128Versions [] V0 LweCiphertext128:
/// An LWE ciphertext modulo 2^128: the mask, then the body.
pub struct LweCiphertext128 {
    pub(crate) data: Vec<u128>,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(SquashedNoiseCiphertextVersions [] V0 SquashedNoiseCiphertext:
/// A squashed block.
pub struct SquashedNoiseCiphertext {
    pub(crate) ct: LweCiphertext128,
    pub(crate) degree: Degree,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
});

wire!(SquashedNoiseRadixCiphertextVersions [] V0 SquashedNoiseRadixCiphertext:
/// A squashed radix integer (signed ones have the same fields).
pub struct SquashedNoiseRadixCiphertext {
    pub(crate) packed_blocks: Vec<SquashedNoiseCiphertext>,
    pub(crate) original_block_count: usize,
});

wire!(InnerSquashedRadixVersions [] V0 InnerSquashedRadix:
/// The high level's inner squashed integer (its versioned form: version 0, then
/// the integer's).
pub struct InnerSquashedRadix(pub(crate) SquashedNoiseRadixCiphertext););

wire!(SquashedNoiseBooleanBlockVersions [] V0 SquashedNoiseBooleanBlock:
/// A squashed boolean block.
pub struct SquashedNoiseBooleanBlock {
    pub(crate) ciphertext: SquashedNoiseCiphertext,
});

wire!(InnerSquashedBoolVersions [] V0 InnerSquashedBool:
/// The high level's inner squashed boolean.
pub struct InnerSquashedBool(pub(crate) SquashedNoiseBooleanBlock););
