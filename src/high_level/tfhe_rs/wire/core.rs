//! TFHE-rs's `core_crypto` entities and parameters, as serialized
//! (docs/tfhe-rs-format.md, sections 3.1, 3.2, 3.9, 4.2, 4.3, 6, 7).

use tfhe_csprng::generators::aes_ctr::AesCtrParams;

/// Newtypes over a `usize`, each versioned by a one-version enum.
macro_rules! usize_newtypes {
    ($($name:ident $versions:ident),* $(,)?) => {$(
        wire!($versions [] V0 $name:
            /// A TFHE-rs parameter newtype (a `usize`, 8 bytes).
            #[derive(Copy)]
            pub struct $name(pub(crate) usize););
    )*};
}

usize_newtypes!(
    LweDimension LweDimensionVersions,
    LweSize LweSizeVersions,
    GlweDimension GlweDimensionVersions,
    GlweSize GlweSizeVersions,
    PolynomialSize PolynomialSizeVersions,
    DecompositionBaseLog DecompositionBaseLogVersions,
    DecompositionLevelCount DecompositionLevelCountVersions,
    CiphertextModulusLog CiphertextModulusLogVersions,
    LweBskGroupingFactor LweBskGroupingFactorVersions,
    LweCiphertextCount LweCiphertextCountVersions,
);

wire!(SerializableCiphertextModulusVersions [] V0 CiphertextModulus:
/// A ciphertext modulus: `modulus` 0 is the native one (2^`scalar_bits`).
#[derive(Copy)]
pub struct CiphertextModulus {
    pub(crate) modulus: u128,
    pub(crate) scalar_bits: usize,
});

impl CiphertextModulus {
    /// The native modulus of `u64` words, the only one gpufhe computes with.
    pub(crate) const NATIVE_U64: Self = Self {
        modulus: 0,
        scalar_bits: 64,
    };

    /// `Err` unless this is the native modulus of `u64` words.
    pub(crate) fn check_native_u64(&self, what: &str) -> crate::Result<()> {
        if *self == Self::NATIVE_U64 {
            Ok(())
        } else {
            Err(crate::Error::InvalidParameter(format!(
                "the {what} has ciphertext modulus {} on {}-bit words; gpufhe computes \
                 on the native modulus 2^64 only",
                self.modulus, self.scalar_bits
            )))
        }
    }
}

wire!(LweCiphertextVersions [] V0 LweCiphertext:
/// An LWE ciphertext: the mask, then the body.
pub struct LweCiphertext {
    pub(crate) data: Vec<u64>,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(LweCiphertextListVersions [] V0 LweCiphertextList:
/// LWE ciphertexts of one size, back to back.
pub struct LweCiphertextList {
    pub(crate) data: Vec<u64>,
    pub(crate) lwe_size: LweSize,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(LweCompactCiphertextListVersions [] V0 LweCompactCiphertextList:
/// A compact list: `ceil(count / n)` masks of `n` coefficients, then the bodies.
pub struct LweCompactCiphertextList {
    pub(crate) data: Vec<u64>,
    pub(crate) lwe_size: LweSize,
    pub(crate) lwe_ciphertext_count: LweCiphertextCount,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(GlweCiphertextVersions [] V0 GlweCiphertext:
/// A GLWE ciphertext: the mask polynomials, then the body.
pub struct GlweCiphertext {
    pub(crate) data: Vec<u64>,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(LweCompactPublicKeyVersions [] V0 LweCompactPublicKey:
/// A compact public key: a GLWE ciphertext of dimension 1 with N = n.
pub struct LweCompactPublicKey {
    pub(crate) glwe_ciphertext: GlweCiphertext,
});

wire!(CompressionSeedVersions [V0] V1 CompressionSeed:
/// Where the masks of a seeded entity come from: an AES-128-CTR stream.
pub struct CompressionSeed {
    pub(crate) inner: AesCtrParams,
});

wire!(SeededLweCiphertextVersions [] V0 SeededLweCiphertext:
/// A seeded LWE ciphertext: the body only.
pub struct SeededLweCiphertext {
    pub(crate) data: u64,
    pub(crate) lwe_size: LweSize,
    pub(crate) compression_seed: CompressionSeed,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(SeededGlweCiphertextVersions [] V0 SeededGlweCiphertext:
/// A seeded GLWE ciphertext: the body polynomial only.
pub struct SeededGlweCiphertext {
    pub(crate) data: Vec<u64>,
    pub(crate) glwe_size: GlweSize,
    pub(crate) compression_seed: CompressionSeed,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(SeededLweCompactPublicKeyVersions [] V0 SeededLweCompactPublicKey:
/// A seeded compact public key.
pub struct SeededLweCompactPublicKey {
    pub(crate) seeded_glwe_ciphertext: SeededGlweCiphertext,
});

wire!(GlweSecretKeyVersions [] V0 GlweSecretKey:
/// A GLWE secret key: k polynomials of N binary coefficients.
pub struct GlweSecretKey {
    pub(crate) data: Vec<u64>,
    pub(crate) polynomial_size: PolynomialSize,
});

wire!(LweSecretKeyVersions [] V0 LweSecretKey:
/// An LWE secret key of binary coefficients.
pub struct LweSecretKey {
    pub(crate) data: Vec<u64>,
});

wire!(GaussianVersions [] V0 Gaussian:
/// A Gaussian distribution (standard deviation relative to the modulus).
pub struct Gaussian {
    pub(crate) std: f64,
    pub(crate) mean: f64,
});

wire!(TUniformVersions [] V0 TUniform:
/// TUniform(b): integers in [-2^b, 2^b].
#[derive(Copy)]
pub struct TUniform {
    pub(crate) bound_log2: u32,
});

wire!(DynamicDistributionVersions [] V0 DynamicDistribution:
/// A noise distribution.
pub enum DynamicDistribution {
    /// Gaussian noise.
    Gaussian(Gaussian),
    /// TUniform noise.
    TUniform(TUniform),
});

wire!(EncryptionKeyChoiceVersions [] V0 EncryptionKeyChoice:
/// Which key fresh ciphertexts live under.
#[derive(Copy)]
pub enum EncryptionKeyChoice {
    /// The big key (k·N): keyswitch, then bootstrap.
    Big,
    /// The small key (n): bootstrap, then keyswitch.
    Small,
});

wire!(PBSOrderVersions [] V0 PBSOrder:
/// The order of the keyswitch and the bootstrap.
#[derive(Copy)]
pub enum PBSOrder {
    /// Keyswitch, then bootstrap (ciphertexts under the big key).
    KeyswitchBootstrap,
    /// Bootstrap, then keyswitch (ciphertexts under the small key).
    BootstrapKeyswitch,
});

wire!(LweKeyswitchKeyVersions [V0 V1] V2 LweKeyswitchKey:
/// A keyswitching key (TFHE-rs's layout: docs/tfhe-rs-format.md, 7.2).
pub struct LweKeyswitchKey {
    pub(crate) data: Vec<u64>,
    pub(crate) decomp_base_log: DecompositionBaseLog,
    pub(crate) decomp_level_count: DecompositionLevelCount,
    pub(crate) output_lwe_size: LweSize,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(SeededLweKeyswitchKeyVersions [V0 V1] V2 SeededLweKeyswitchKey:
/// A seeded keyswitching key: the bodies only.
pub struct SeededLweKeyswitchKey {
    pub(crate) data: Vec<u64>,
    pub(crate) decomp_base_log: DecompositionBaseLog,
    pub(crate) decomp_level_count: DecompositionLevelCount,
    pub(crate) output_lwe_size: LweSize,
    pub(crate) compression_seed: CompressionSeed,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(SeededGgswCiphertextListVersions [V0] V1 SeededGgswCiphertextList:
/// Seeded GGSW ciphertexts: the body polynomial of each row.
pub struct SeededGgswCiphertextList {
    pub(crate) data: Vec<u64>,
    pub(crate) glwe_size: GlweSize,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) decomp_base_log: DecompositionBaseLog,
    pub(crate) decomp_level_count: DecompositionLevelCount,
    pub(crate) compression_seed: CompressionSeed,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(SeededLweBootstrapKeyVersions [V0] V1 SeededLweBootstrapKey:
/// A seeded bootstrapping key.
pub struct SeededLweBootstrapKey {
    pub(crate) ggsw_list: SeededGgswCiphertextList,
});

wire!(SeededLweMultiBitBootstrapKeyVersions [V0] V1 SeededLweMultiBitBootstrapKey:
/// A seeded multi-bit bootstrapping key.
pub struct SeededLweMultiBitBootstrapKey {
    pub(crate) ggsw_list: SeededGgswCiphertextList,
    pub(crate) grouping_factor: LweBskGroupingFactor,
});
