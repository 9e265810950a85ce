//! TFHE-rs's `shortint` blocks, parameters and client key, as serialized
//! (docs/tfhe-rs-format.md, sections 3.1, 3.3, 3.9, 4).

use tfhe_versionable::NotVersioned;

use super::core::{
    CiphertextModulus, CiphertextModulusLog, DecompositionBaseLog, DecompositionLevelCount,
    DynamicDistribution, EncryptionKeyChoice, GlweDimension, GlweSecretKey, LweBskGroupingFactor,
    LweCiphertext, LweCiphertextCount, LweCompactCiphertextList, LweCompactPublicKey, LweDimension,
    LweSecretKey, PBSOrder, PolynomialSize, SeededLweCiphertext, SeededLweCompactPublicKey,
};

/// Newtypes over a `u64`, each versioned by a one-version enum.
macro_rules! u64_newtypes {
    ($($name:ident $versions:ident),* $(,)?) => {$(
        wire!($versions [] V0 $name:
            /// A TFHE-rs `shortint` newtype (a `u64`).
            #[derive(Copy)]
            pub struct $name(pub(crate) u64););
    )*};
}

u64_newtypes!(
    Degree DegreeVersions,
    NoiseLevel NoiseLevelVersions,
    MessageModulus MessageModulusVersions,
    CarryModulus CarryModulusVersions,
    MaxNoiseLevel MaxNoiseLevelVersions,
    MaxDegree MaxDegreeVersions,
);

/// Newtypes over an `f64`, each versioned by a one-version enum.
macro_rules! f64_newtypes {
    ($($name:ident $versions:ident),* $(,)?) => {$(
        wire!($versions [] V0 $name:
            /// A TFHE-rs noise-analysis newtype (an `f64`).
            #[derive(Copy)]
            pub struct $name(pub(crate) f64););
    )*};
}

f64_newtypes!(
    NoiseEstimationMeasureBound NoiseEstimationMeasureBoundVersions,
    RSigmaFactor RSigmaFactorVersions,
    Variance VarianceVersions,
);

/// Values of TFHE-rs data that gpufhe does not hold: writing one is impossible
/// (gpufhe never makes them) and reading one is a clear error naming it.
macro_rules! unsupported {
    ($($name:ident $what:literal),* $(,)?) => {$(
        #[doc = concat!("In TFHE-rs data: ", $what, ", which gpufhe does not support.")]
        #[derive(Clone, Debug, PartialEq, tfhe_versionable::NotVersioned)]
        pub struct $name;

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom(concat!(
                    "gpufhe cannot write ", $what
                )))
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
                Err(serde::de::Error::custom(concat!(
                    "this TFHE-rs data holds ", $what,
                    ", which this version of gpufhe does not support"
                )))
            }
        }
    )*};
}

unsupported!(
    KeySwitch32Key "a key of the KeySwitch32 atomic pattern",
    KeySwitch32Parameters "parameters of the KeySwitch32 atomic pattern",
    WopbsParameters "WoPBS parameters",
    TranscipheringKey "a transciphering key",
    MultiBitModulusSwitched "a multi-bit modulus-switched ciphertext",
);

wire!(AtomicPatternKindVersions [] V0 AtomicPatternKind:
/// How a block is bootstrapped.
#[derive(Copy)]
pub enum AtomicPatternKind {
    /// The standard pattern, in this order.
    Standard(PBSOrder),
    /// TFHE-rs's 32-bit keyswitch pattern.
    KeySwitch32,
});

wire!(CiphertextVersions [V0] V1 Ciphertext:
/// A block.
pub struct Ciphertext {
    pub(crate) ct: LweCiphertext,
    pub(crate) degree: Degree,
    pub(crate) noise_level: NoiseLevel,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) atomic_pattern: AtomicPatternKind,
});

wire!(CompressedCiphertextVersions [V0] V1 CompressedCiphertext:
/// A seeded block (note the field order, not the block's).
pub struct CompressedCiphertext {
    pub(crate) ct: SeededLweCiphertext,
    pub(crate) degree: Degree,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) atomic_pattern: AtomicPatternKind,
    pub(crate) noise_level: NoiseLevel,
});

wire!(PackedIntegersVersions [] V0 PackedIntegers:
/// Integers of `log_modulus` bits packed LSB first into words.
pub struct PackedIntegers {
    pub(crate) packed_coeffs: Vec<u64>,
    pub(crate) log_modulus: CiphertextModulusLog,
    pub(crate) initial_len: usize,
});

wire!(CompressedModulusSwitchedLweCiphertextVersions [V0 V1] V2
CompressedModulusSwitchedLweCiphertext:
/// An LWE ciphertext switched to a small modulus and packed.
pub struct CompressedModulusSwitchedLweCiphertext {
    pub(crate) packed_integers: PackedIntegers,
    pub(crate) lwe_dimension: LweDimension,
});

wire!(InternalCompressedModulusSwitchedCiphertextVersions [] V0
InternalCompressedModulusSwitchedCiphertext:
/// The packed LWE of a modulus-switched block.
pub enum InternalCompressedModulusSwitchedCiphertext {
    /// Classic bootstrapping.
    Classic(CompressedModulusSwitchedLweCiphertext),
    /// Multi-bit bootstrapping (not supported).
    MultiBit(MultiBitModulusSwitched),
});

wire!(CompressedModulusSwitchedCiphertextVersions [V0 V1] V2
CompressedModulusSwitchedCiphertext:
/// A modulus-switched block.
pub struct CompressedModulusSwitchedCiphertext {
    pub(crate) compressed_modulus_switched_lwe_ciphertext:
        InternalCompressedModulusSwitchedCiphertext,
    pub(crate) degree: Degree,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) atomic_pattern: AtomicPatternKind,
});

wire!(ModulusSwitchNoiseReductionParamsVersions [] V0 ModulusSwitchNoiseReductionParams:
/// The drift technique's parameters.
pub struct ModulusSwitchNoiseReductionParams {
    pub(crate) modulus_switch_zeros_count: LweCiphertextCount,
    pub(crate) ms_bound: NoiseEstimationMeasureBound,
    pub(crate) ms_r_sigma_factor: RSigmaFactor,
    pub(crate) ms_input_variance: Variance,
});

wire!(ModulusSwitchTypeVersions [] V0 ModulusSwitchType:
/// How the modulus switch before a blind rotation reduces its noise.
pub enum ModulusSwitchType {
    /// Plain rounding.
    Standard,
    /// The drift technique (a key of encryptions of zero).
    DriftTechniqueNoiseReduction(ModulusSwitchNoiseReductionParams),
    /// Centered-mean rounding.
    CenteredMeanNoiseReduction,
});

wire!(ClassicPBSParametersVersions [V0 V1] V2 ClassicPBSParameters:
/// A classic PBS parameter set.
pub struct ClassicPBSParameters {
    pub(crate) lwe_dimension: LweDimension,
    pub(crate) glwe_dimension: GlweDimension,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) lwe_noise_distribution: DynamicDistribution,
    pub(crate) glwe_noise_distribution: DynamicDistribution,
    pub(crate) pbs_base_log: DecompositionBaseLog,
    pub(crate) pbs_level: DecompositionLevelCount,
    pub(crate) ks_base_log: DecompositionBaseLog,
    pub(crate) ks_level: DecompositionLevelCount,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) max_noise_level: MaxNoiseLevel,
    pub(crate) log2_p_fail: f64,
    pub(crate) ciphertext_modulus: CiphertextModulus,
    pub(crate) encryption_key_choice: EncryptionKeyChoice,
    pub(crate) modulus_switch_noise_reduction_params: ModulusSwitchType,
});

wire!(MultiBitPBSParametersVersions [] V0 MultiBitPBSParameters:
/// A multi-bit PBS parameter set.
pub struct MultiBitPBSParameters {
    pub(crate) lwe_dimension: LweDimension,
    pub(crate) glwe_dimension: GlweDimension,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) lwe_noise_distribution: DynamicDistribution,
    pub(crate) glwe_noise_distribution: DynamicDistribution,
    pub(crate) pbs_base_log: DecompositionBaseLog,
    pub(crate) pbs_level: DecompositionLevelCount,
    pub(crate) ks_base_log: DecompositionBaseLog,
    pub(crate) ks_level: DecompositionLevelCount,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) max_noise_level: MaxNoiseLevel,
    pub(crate) log2_p_fail: f64,
    pub(crate) ciphertext_modulus: CiphertextModulus,
    pub(crate) encryption_key_choice: EncryptionKeyChoice,
    pub(crate) grouping_factor: LweBskGroupingFactor,
    pub(crate) deterministic_execution: bool,
});

wire!(PBSParametersVersions [] V0 PBSParameters:
/// Classic or multi-bit parameters.
pub enum PBSParameters {
    /// Classic bootstrapping.
    PBS(ClassicPBSParameters),
    /// Multi-bit bootstrapping.
    MultiBitPBS(MultiBitPBSParameters),
});

wire!(AtomicPatternParametersVersions [] V0 AtomicPatternParameters:
/// The parameters of an atomic pattern.
pub enum AtomicPatternParameters {
    /// The standard pattern.
    Standard(PBSParameters),
    /// TFHE-rs's 32-bit keyswitch pattern (not supported).
    KeySwitch32(KeySwitch32Parameters),
});

wire!(StandardAtomicPatternClientKeyVersions [] V0 StandardAtomicPatternClientKey:
/// The secret keys of the standard pattern.
pub struct StandardAtomicPatternClientKey {
    pub(crate) glwe_secret_key: GlweSecretKey,
    pub(crate) lwe_secret_key: LweSecretKey,
    pub(crate) parameters: PBSParameters,
    pub(crate) wopbs_parameters: Option<WopbsParameters>,
});

wire!(AtomicPatternClientKeyVersions [] V0 AtomicPatternClientKey:
/// The secret keys of an atomic pattern.
pub enum AtomicPatternClientKey {
    /// The standard pattern.
    Standard(StandardAtomicPatternClientKey),
    /// TFHE-rs's 32-bit keyswitch pattern (not supported).
    KeySwitch32(KeySwitch32Key),
});

wire!(GenericClientKeyVersions [V0] V1 ClientKey:
/// A `shortint` client key.
pub struct ClientKey {
    pub(crate) atomic_pattern: AtomicPatternClientKey,
});

wire!(SupportedCompactPkeZkSchemeVersions [] V0 SupportedCompactPkeZkScheme:
/// Which zero-knowledge proofs a compact public key's lists may carry.
#[derive(Copy)]
pub enum SupportedCompactPkeZkScheme {
    /// None.
    ZkNotSupported,
    /// Version 1 proofs.
    V1,
    /// Version 2 proofs.
    V2,
});

wire!(CompactCiphertextListExpansionKindVersions [V0] V1 CompactCiphertextListExpansionKind:
/// What expanding a compact list needs.
#[derive(Copy)]
pub enum CompactCiphertextListExpansionKind {
    /// A keyswitch to the computation key (dedicated encryption parameters).
    RequiresCasting,
    /// Nothing: the blocks are computation blocks of this pattern.
    NoCasting(AtomicPatternKind),
});

wire!(CompactPublicKeyEncryptionParametersVersions [V0] V1 CompactPublicKeyEncryptionParameters:
/// The parameters of compact public-key encryption.
pub struct CompactPublicKeyEncryptionParameters {
    pub(crate) encryption_lwe_dimension: LweDimension,
    pub(crate) encryption_noise_distribution: DynamicDistribution,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) ciphertext_modulus: CiphertextModulus,
    pub(crate) expansion_kind: CompactCiphertextListExpansionKind,
    pub(crate) zk_scheme: SupportedCompactPkeZkScheme,
});

wire!(CompactPublicKeyVersions [V0] V1 CompactPublicKey:
/// `shortint`'s compact public key.
pub struct CompactPublicKey {
    pub(crate) key: LweCompactPublicKey,
    pub(crate) parameters: CompactPublicKeyEncryptionParameters,
});

wire!(CompressedCompactPublicKeyVersions [V0] V1 CompressedCompactPublicKey:
/// `shortint`'s seeded compact public key.
pub struct CompressedCompactPublicKey {
    pub(crate) key: SeededLweCompactPublicKey,
    pub(crate) parameters: CompactPublicKeyEncryptionParameters,
});

wire!(CompactCiphertextListVersions [V0 V1] V2 CompactCiphertextList:
/// `shortint`'s compact list.
pub struct CompactCiphertextList {
    pub(crate) ct_list: LweCompactCiphertextList,
    pub(crate) degree: Degree,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) expansion_kind: CompactCiphertextListExpansionKind,
});
