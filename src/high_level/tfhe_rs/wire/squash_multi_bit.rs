//! TFHE-rs's multi-bit 128-bit bootstrap keys of noise squashing, as serialized:
//! the Fourier key of a `ServerKey` and the seeded key of a `CompressedServerKey`;
//! and the seeded GGSW ciphertexts modulo 2^128 of the seeded keys, classical and
//! multi-bit.

use super::core::{
    CiphertextModulus, CompressionSeed, DecompositionBaseLog, DecompositionLevelCount, GlweSize,
    LweBskGroupingFactor, LweDimension, PolynomialSize,
};

wire!(SeededGgswCiphertextList128Versions [V0] V1 SeededGgswCiphertextList128:
/// Seeded GGSW ciphertexts modulo 2^128: the body polynomial of each row.
pub struct SeededGgswCiphertextList128 {
    pub(crate) data: Vec<u128>,
    pub(crate) glwe_size: GlweSize,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) decomp_base_log: DecompositionBaseLog,
    pub(crate) decomp_level_count: DecompositionLevelCount,
    pub(crate) compression_seed: CompressionSeed,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(Fourier128LweMultiBitBootstrapKeyVersions [] V0 Fourier128LweMultiBitBootstrapKey:
/// A multi-bit 128-bit bootstrap key in the Fourier domain: the four `f64` arrays
/// of its `(n/g) 2^g` GGSW ciphertexts, `N/2` values per polynomial.
pub struct Fourier128LweMultiBitBootstrapKey {
    pub(crate) data_re0: Vec<f64>,
    pub(crate) data_re1: Vec<f64>,
    pub(crate) data_im0: Vec<f64>,
    pub(crate) data_im1: Vec<f64>,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) input_lwe_dimension: LweDimension,
    pub(crate) glwe_size: GlweSize,
    pub(crate) decomposition_base_log: DecompositionBaseLog,
    pub(crate) decomposition_level_count: DecompositionLevelCount,
    pub(crate) grouping_factor: LweBskGroupingFactor,
});

wire!(SeededLweMultiBitBootstrapKey128Versions [V0] V1 SeededLweMultiBitBootstrapKey128:
/// A seeded multi-bit 128-bit bootstrap key.
pub struct SeededLweMultiBitBootstrapKey128 {
    pub(crate) ggsw_list: SeededGgswCiphertextList128,
    pub(crate) grouping_factor: LweBskGroupingFactor,
});
