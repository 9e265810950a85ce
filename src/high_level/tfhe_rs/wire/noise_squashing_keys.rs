//! TFHE-rs 1.8's noise-squashing keys of the server, plain (a Fourier-128
//! bootstrap key) and compressed (a seeded `u128` bootstrap key), as serialized
//! (docs/noise-squashing.md, "TFHE-rs's form").

use super::core::{
    CiphertextModulus, CompressionSeed, DecompositionBaseLog, DecompositionLevelCount, GlweSize,
    LweDimension, PolynomialSize,
};
use super::server::{
    CompressedModulusSwitchConfiguration, ModulusSwitchConfiguration, ThreadCount,
};
use super::shortint::{CarryModulus, KeySwitch32Key, MessageModulus, MultiBitNoiseSquashingKey};

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
    /// Multi-bit bootstrapping (not supported).
    MultiBit {
        /// The key.
        bsk: MultiBitNoiseSquashingKey,
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
    /// Multi-bit bootstrapping (not supported).
    MultiBit {
        /// The key.
        bsk: MultiBitNoiseSquashingKey,
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
