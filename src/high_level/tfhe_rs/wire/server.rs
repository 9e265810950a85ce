//! TFHE-rs's server keys, plain and compressed, as serialized
//! (docs/tfhe-rs-format.md, section 7).

use super::core::{
    CiphertextModulus, CiphertextModulusLog, CompressionSeed, DecompositionBaseLog,
    DecompositionLevelCount, GlweSize, LweBskGroupingFactor, LweCiphertextCount, LweDimension,
    LweKeyswitchKey, PBSOrder, PolynomialSize, SeededLweBootstrapKey, SeededLweKeyswitchKey,
    SeededLweMultiBitBootstrapKey,
};
use super::high_level::Tag;
use super::shortint::{
    CarryModulus, KeySwitch32Key, MaxDegree, MaxNoiseLevel, MessageModulus, TranscipheringKey,
};
pub(crate) use super::squash_multi_bit::SeededGgswCiphertextList128;
use super::squash_multi_bit::{
    Fourier128LweMultiBitBootstrapKey, SeededLweMultiBitBootstrapKey128,
};
use serde::de::{Error as _, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use tfhe_versionable::NotVersioned;

/// Fourier polynomials as TFHE-rs writes them (a sequence: the polynomial size,
/// the count, then each polynomial as `N/2` complex numbers `(re, im)`, natural
/// DFT order). `values` holds the `count * N/2` complex numbers, `re` then `im`.
#[derive(Clone, Debug, PartialEq, NotVersioned)]
pub struct FourierPolynomials {
    pub(crate) polynomial_size: usize,
    pub(crate) values: Vec<(f64, f64)>,
}

impl serde::Serialize for FourierPolynomials {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let half = self.polynomial_size / 2;
        let count = self.values.len().checked_div(half).unwrap_or(0);
        let mut seq = s.serialize_seq(Some(2 + count))?;
        seq.serialize_element(&(self.polynomial_size as u64))?;
        seq.serialize_element(&(count as u64))?;
        if half > 0 {
            for polynomial in self.values.chunks_exact(half) {
                seq.serialize_element(polynomial)?;
            }
        }
        seq.end()
    }
}

impl<'de> serde::Deserialize<'de> for FourierPolynomials {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Polynomials;
        impl<'de> Visitor<'de> for Polynomials {
            type Value = FourierPolynomials;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("TFHE-rs's Fourier polynomials")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let missing = || A::Error::custom("truncated Fourier polynomials");
                // Before any element: bincode's hint is what remains.
                let declared = seq.size_hint();
                let size: u64 = seq.next_element()?.ok_or_else(missing)?;
                let count: u64 = seq.next_element()?.ok_or_else(missing)?;
                if declared.is_some_and(|d| Some(d) != count.checked_add(2).map(|c| c as usize)) {
                    return Err(A::Error::custom(
                        "the Fourier polynomials' count disagrees with their sequence's length",
                    ));
                }
                let half = usize::try_from(size / 2).map_err(A::Error::custom)?;
                if size < 2 || !size.is_power_of_two() {
                    return Err(A::Error::custom(format!(
                        "Fourier polynomials of size {size}, not a power of two"
                    )));
                }
                let mut values = Vec::new();
                for _ in 0..count {
                    let polynomial: Vec<(f64, f64)> = seq.next_element()?.ok_or_else(missing)?;
                    if polynomial.len() != half {
                        return Err(A::Error::custom(format!(
                            "a Fourier polynomial of {} values, not {half}",
                            polynomial.len()
                        )));
                    }
                    values.extend(polynomial);
                }
                Ok(FourierPolynomials {
                    polynomial_size: half * 2,
                    values,
                })
            }
        }
        d.deserialize_seq(Polynomials)
    }
}

wire!(FourierPolynomialListVersions [] V0 FourierPolynomialList:
    /// A list of Fourier polynomials.
    pub struct FourierPolynomialList(pub(crate) FourierPolynomials););

wire!(FourierLweBootstrapKeyVersions [V0] V1 FourierLweBootstrapKey:
/// A bootstrapping key in the Fourier domain.
pub struct FourierLweBootstrapKey {
    pub(crate) fourier: FourierPolynomialList,
    pub(crate) input_lwe_dimension: LweDimension,
    pub(crate) glwe_size: GlweSize,
    pub(crate) decomposition_base_log: DecompositionBaseLog,
    pub(crate) decomposition_level_count: DecompositionLevelCount,
});

wire!(FourierLweMultiBitBootstrapKeyVersions [V0] V1 FourierLweMultiBitBootstrapKey:
/// A multi-bit bootstrapping key in the Fourier domain.
pub struct FourierLweMultiBitBootstrapKey {
    pub(crate) fourier: FourierPolynomialList,
    pub(crate) input_lwe_dimension: LweDimension,
    pub(crate) glwe_size: GlweSize,
    pub(crate) decomposition_base_log: DecompositionBaseLog,
    pub(crate) decomposition_level_count: DecompositionLevelCount,
    pub(crate) grouping_factor: LweBskGroupingFactor,
});

wire!(ModulusSwitchConfigurationVersions [] V0 ModulusSwitchConfiguration:
/// How a bootstrap's modulus switch reduces its noise.
pub enum ModulusSwitchConfiguration {
    /// Plain rounding.
    Standard,
    /// The drift technique (not supported).
    DriftTechniqueNoiseReduction(KeySwitch32Key),
    /// Centered-mean rounding.
    CenteredMeanNoiseReduction,
});

wire!(SerializableShortintBootstrappingKeyVersions [V0 V1] V2 ShortintBootstrappingKey:
/// The bootstrapping key of the standard pattern.
pub enum ShortintBootstrappingKey {
    /// Classic bootstrapping.
    Classic {
        /// The key.
        bsk: FourierLweBootstrapKey,
        /// The modulus switch.
        modulus_switch_noise_reduction_key: ModulusSwitchConfiguration,
    },
    /// Multi-bit bootstrapping.
    MultiBit {
        /// The key.
        fourier_bsk: FourierLweMultiBitBootstrapKey,
        /// Whether its result is the same on every run.
        deterministic_execution: bool,
    },
});

wire!(StandardAtomicPatternServerKeyVersions [] V0 StandardAtomicPatternServerKey:
/// The server keys of the standard pattern.
pub struct StandardAtomicPatternServerKey {
    pub(crate) key_switching_key: LweKeyswitchKey,
    pub(crate) bootstrapping_key: ShortintBootstrappingKey,
    pub(crate) pbs_order: PBSOrder,
});

wire!(AtomicPatternServerKeyVersions [] V0 AtomicPatternServerKey:
/// The server keys of an atomic pattern.
pub enum AtomicPatternServerKey {
    /// The standard pattern.
    Standard(StandardAtomicPatternServerKey),
    /// TFHE-rs's 32-bit keyswitch pattern (not supported).
    KeySwitch32(KeySwitch32Key),
});

wire!(GenericServerKeyVersions [V0 V1] V2 ShortintServerKey:
/// `shortint`'s server key.
pub struct ShortintServerKey {
    pub(crate) atomic_pattern: AtomicPatternServerKey,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) max_degree: MaxDegree,
    pub(crate) max_noise_level: MaxNoiseLevel,
    pub(crate) ciphertext_modulus: CiphertextModulus,
});

wire!(IntegerServerKeyVersions [V0] V1 IntegerServerKey:
/// `integer`'s server key.
pub struct IntegerServerKey {
    pub(crate) key: ShortintServerKey,
});

wire!(ThreadCountVersions [] V0 ThreadCount:
    /// A thread count.
    #[derive(Copy)]
    pub struct ThreadCount(pub(crate) usize););

wire!(OprfBootstrappingKeyVersions [] V0 OprfBootstrappingKey:
/// The bootstrapping key of oblivious pseudo-random values.
pub enum OprfBootstrappingKey {
    /// Classic bootstrapping.
    Classic {
        /// The key.
        bsk: FourierLweBootstrapKey,
    },
    /// Multi-bit bootstrapping.
    MultiBit {
        /// The key.
        fourier_bsk: FourierLweMultiBitBootstrapKey,
        /// Threads.
        thread_count: ThreadCount,
        /// Whether its result is the same on every run.
        deterministic_execution: bool,
    },
});

wire!(ShortintOprfServerKeyVersions [] V0 ShortintOprfServerKey:
/// `shortint`'s OPRF server key.
pub struct ShortintOprfServerKey {
    pub(crate) inner: OprfBootstrappingKey,
});

wire!(OprfServerKeyVersions [] V0 OprfServerKey:
/// `integer`'s OPRF server key.
pub struct OprfServerKey {
    pub(crate) key: ShortintOprfServerKey,
});

wire!(HlIntegerServerKeyVersions [V0 V1 V2 V3 V4 V5 V6 V7 V8 V9] V10 HlIntegerServerKey:
/// The high level's server key with its optional keys.
pub struct HlIntegerServerKey {
    pub(crate) key: IntegerServerKey,
    pub(crate) cpk_key_switching_key_material:
        Option<super::dedicated::IntegerKeySwitchingKeyMaterial>,
    pub(crate) compression_key: Option<IntegerCompressionKey>,
    pub(crate) decompression_key: Option<IntegerDecompressionKey>,
    pub(crate) noise_squashing_key: Option<NoiseSquashingKey>,
    pub(crate) noise_squashing_compression_key:
        Option<super::squashed_compression_keys::NoiseSquashingCompressionKey>,
    pub(crate) cpk_re_randomization_key: Option<super::re_randomization::ReRandomizationKey>,
    pub(crate) oprf_key: Option<OprfServerKey>,
    pub(crate) transciphering_key: Option<TranscipheringKey>,
});

wire!(ServerKeyVersions [V0 V1 V2] V3 ServerKey:
/// The high level's server key.
pub struct ServerKey {
    pub(crate) key: HlIntegerServerKey,
    pub(crate) tag: Tag,
});

wire!(CompressedModulusSwitchConfigurationVersions [] V0 CompressedModulusSwitchConfiguration:
/// How a bootstrap's modulus switch reduces its noise (compressed keys).
pub enum CompressedModulusSwitchConfiguration {
    /// Plain rounding.
    Standard,
    /// The drift technique (not supported).
    DriftTechniqueNoiseReduction(KeySwitch32Key),
    /// Centered-mean rounding.
    CenteredMeanNoiseReduction,
});

wire!(ShortintCompressedBootstrappingKeyVersions [V0 V1 V2] V3 ShortintCompressedBootstrappingKey:
/// The seeded bootstrapping key of the standard pattern.
pub enum ShortintCompressedBootstrappingKey {
    /// Classic bootstrapping.
    Classic {
        /// The key.
        bsk: SeededLweBootstrapKey,
        /// The modulus switch.
        modulus_switch_noise_reduction_key: CompressedModulusSwitchConfiguration,
    },
    /// Multi-bit bootstrapping.
    MultiBit {
        /// The key.
        seeded_bsk: SeededLweMultiBitBootstrapKey,
        /// Whether its result is the same on every run.
        deterministic_execution: bool,
    },
});

wire!(CompressedStandardAtomicPatternServerKeyVersions [] V0
CompressedStandardAtomicPatternServerKey:
/// The seeded server keys of the standard pattern.
pub struct CompressedStandardAtomicPatternServerKey {
    pub(crate) key_switching_key: SeededLweKeyswitchKey,
    pub(crate) bootstrapping_key: ShortintCompressedBootstrappingKey,
    pub(crate) pbs_order: PBSOrder,
});

wire!(CompressedAtomicPatternServerKeyVersions [] V0 CompressedAtomicPatternServerKey:
/// The seeded server keys of an atomic pattern.
pub enum CompressedAtomicPatternServerKey {
    /// The standard pattern.
    Standard(CompressedStandardAtomicPatternServerKey),
    /// TFHE-rs's 32-bit keyswitch pattern (not supported).
    KeySwitch32(KeySwitch32Key),
});

wire!(ShortintCompressedServerKeyVersions [V0 V1 V2] V3 ShortintCompressedServerKey:
/// `shortint`'s seeded server key.
pub struct ShortintCompressedServerKey {
    pub(crate) compressed_ap_server_key: CompressedAtomicPatternServerKey,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) max_degree: MaxDegree,
    pub(crate) max_noise_level: MaxNoiseLevel,
});

wire!(IntegerCompressedServerKeyVersions [V0 V1] V2 IntegerCompressedServerKey:
/// `integer`'s seeded server key.
pub struct IntegerCompressedServerKey {
    pub(crate) key: ShortintCompressedServerKey,
});

wire!(CompressedOprfBootstrappingKeyVersions [] V0 CompressedOprfBootstrappingKey:
/// The seeded bootstrapping key of oblivious pseudo-random values.
pub enum CompressedOprfBootstrappingKey {
    /// Classic bootstrapping.
    Classic {
        /// The key.
        seeded_bsk: SeededLweBootstrapKey,
    },
    /// Multi-bit bootstrapping.
    MultiBit {
        /// The key.
        seeded_bsk: SeededLweMultiBitBootstrapKey,
        /// Whether its result is the same on every run.
        deterministic_execution: bool,
    },
});

wire!(ShortintCompressedOprfServerKeyVersions [] V0 ShortintCompressedOprfServerKey:
/// `shortint`'s seeded OPRF server key.
pub struct ShortintCompressedOprfServerKey {
    pub(crate) inner: CompressedOprfBootstrappingKey,
});

wire!(CompressedOprfServerKeyVersions [] V0 CompressedOprfServerKey:
    /// `integer`'s seeded OPRF server key.
    pub struct CompressedOprfServerKey(pub(crate) ShortintCompressedOprfServerKey););

wire!(HlIntegerCompressedServerKeyVersions [V0 V1 V2 V3 V4 V5 V6 V7] V8
HlIntegerCompressedServerKey:
/// The high level's seeded server key with its optional keys.
pub struct HlIntegerCompressedServerKey {
    pub(crate) key: IntegerCompressedServerKey,
    pub(crate) cpk_key_switching_key_material:
        Option<super::dedicated::IntegerCompressedKeySwitchingKeyMaterial>,
    pub(crate) compression_key: Option<IntegerCompressedCompressionKey>,
    pub(crate) decompression_key: Option<IntegerCompressedDecompressionKey>,
    pub(crate) noise_squashing_key: Option<CompressedNoiseSquashingKey>,
    pub(crate) noise_squashing_compression_key:
        Option<super::squashed_compression_keys::CompressedNoiseSquashingCompressionKey>,
    pub(crate) cpk_re_randomization_key:
        Option<super::re_randomization::CompressedReRandomizationKey>,
    pub(crate) oprf_key: Option<CompressedOprfServerKey>,
    pub(crate) transciphering_key: Option<TranscipheringKey>,
});

wire!(CompressedServerKeyVersions [V0 V1] V2 CompressedServerKey:
/// The high level's seeded server key.
pub struct CompressedServerKey {
    pub(crate) integer_key: HlIntegerCompressedServerKey,
    pub(crate) tag: Tag,
});

// The server keys' compression keys (`integer::compression_keys`,
// `shortint::list_compression`, `core_crypto`'s packing keyswitching keys).

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

// The noise-squashing keys of the server (a Fourier-128 bootstrap key; seeded,
// a `u128` bootstrap key).

wire!(Fourier128LweBootstrapKeyVersions [V0] V1 Fourier128LweBootstrapKey:
/// A 128-bit bootstrap key in the Fourier domain: the high and low parts of the
/// real and imaginary parts, `N/2` values per polynomial, over the whole key.
pub struct Fourier128LweBootstrapKey {
    pub(crate) data_re0: Vec<f64>,
    pub(crate) data_re1: Vec<f64>,
    pub(crate) data_im0: Vec<f64>,
    pub(crate) data_im1: Vec<f64>,
    pub(crate) polynomial_size: PolynomialSize,
    pub(crate) input_lwe_dimension: LweDimension,
    pub(crate) glwe_size: GlweSize,
    pub(crate) decomposition_base_log: DecompositionBaseLog,
    pub(crate) decomposition_level_count: DecompositionLevelCount,
});

wire!(Shortint128BootstrappingKeyVersions [V0] V1 Shortint128BootstrappingKey:
/// The 128-bit bootstrapping key of noise squashing.
pub enum Shortint128BootstrappingKey {
    /// Classic bootstrapping.
    Classic {
        /// The key.
        bsk: Fourier128LweBootstrapKey,
        /// The modulus switch.
        modulus_switch_noise_reduction_key: ModulusSwitchConfiguration,
    },
    /// Multi-bit bootstrapping.
    MultiBit {
        /// The key.
        bsk: Fourier128LweMultiBitBootstrapKey,
        /// Threads.
        thread_count: ThreadCount,
        /// Whether its result is the same on every run.
        deterministic_execution: bool,
    },
});

wire!(StandardAtomicPatternNoiseSquashingKeyVersions [] V0
StandardAtomicPatternNoiseSquashingKey:
/// The noise-squashing key of the standard atomic pattern.
pub struct StandardAtomicPatternNoiseSquashingKey {
    pub(crate) bootstrapping_key: Shortint128BootstrappingKey,
});

wire!(AtomicPatternNoiseSquashingKeyVersions [] V0 AtomicPatternNoiseSquashingKey:
/// The noise-squashing key of an atomic pattern.
pub enum AtomicPatternNoiseSquashingKey {
    /// The standard pattern.
    Standard(StandardAtomicPatternNoiseSquashingKey),
    /// TFHE-rs's 32-bit keyswitch pattern (not supported).
    KeySwitch32(KeySwitch32Key),
});

wire!(GenericNoiseSquashingKeyVersions [V0 V1 V2] V3 ShortintNoiseSquashingKey:
/// `shortint`'s noise-squashing key.
pub struct ShortintNoiseSquashingKey {
    pub(crate) atomic_pattern: AtomicPatternNoiseSquashingKey,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) output_ciphertext_modulus: CiphertextModulus,
});

wire!(NoiseSquashingKeyVersions [] V0 NoiseSquashingKey:
/// `integer`'s noise-squashing key.
pub struct NoiseSquashingKey {
    pub(crate) key: ShortintNoiseSquashingKey,
});

wire!(SeededLweBootstrapKey128Versions [V0] V1 SeededLweBootstrapKey128:
/// A seeded 128-bit bootstrapping key.
pub struct SeededLweBootstrapKey128 {
    pub(crate) ggsw_list: SeededGgswCiphertextList128,
});

wire!(CompressedShortint128BootstrappingKeyVersions [V0] V1
CompressedShortint128BootstrappingKey:
/// The seeded 128-bit bootstrapping key of noise squashing.
pub enum CompressedShortint128BootstrappingKey {
    /// Classic bootstrapping.
    Classic {
        /// The key.
        bsk: SeededLweBootstrapKey128,
        /// The modulus switch.
        modulus_switch_noise_reduction_key: CompressedModulusSwitchConfiguration,
    },
    /// Multi-bit bootstrapping.
    MultiBit {
        /// The key.
        bsk: SeededLweMultiBitBootstrapKey128,
        /// Threads.
        thread_count: ThreadCount,
        /// Whether its result is the same on every run.
        deterministic_execution: bool,
    },
});

wire!(CompressedStandardAtomicPatternNoiseSquashingKeyVersions [] V0
CompressedStandardAtomicPatternNoiseSquashingKey:
/// The seeded noise-squashing key of the standard atomic pattern.
pub struct CompressedStandardAtomicPatternNoiseSquashingKey {
    pub(crate) bootstrapping_key: CompressedShortint128BootstrappingKey,
});

wire!(CompressedAtomicPatternNoiseSquashingKeyVersions [] V0
CompressedAtomicPatternNoiseSquashingKey:
/// The seeded noise-squashing key of an atomic pattern.
pub enum CompressedAtomicPatternNoiseSquashingKey {
    /// The standard pattern.
    Standard(CompressedStandardAtomicPatternNoiseSquashingKey),
    /// TFHE-rs's 32-bit keyswitch pattern (not supported).
    KeySwitch32(KeySwitch32Key),
});

wire!(CompressedNoiseSquashingKeyVersions [V0 V1 V2] V3 ShortintCompressedNoiseSquashingKey:
/// `shortint`'s seeded noise-squashing key.
pub struct ShortintCompressedNoiseSquashingKey {
    pub(crate) atomic_pattern: CompressedAtomicPatternNoiseSquashingKey,
    pub(crate) message_modulus: MessageModulus,
    pub(crate) carry_modulus: CarryModulus,
    pub(crate) output_ciphertext_modulus: CiphertextModulus,
});

wire!(IntegerCompressedNoiseSquashingKeyVersions [] V0 CompressedNoiseSquashingKey:
/// `integer`'s seeded noise-squashing key.
pub struct CompressedNoiseSquashingKey {
    pub(crate) key: ShortintCompressedNoiseSquashingKey,
});
