//! TFHE-rs's dedicated compact public-key encryption, as serialized: the keyswitch
//! parameters, the keyswitching key material (shared with the keyswitching key
//! between key sets), the client's dedicated compact private key and the
//! server's casting key material (plain and compressed).

use super::core::{
    DecompositionBaseLog, DecompositionLevelCount, EncryptionKeyChoice, LweKeyswitchKey,
    LweSecretKey, SeededLweKeyswitchKey,
};
use super::shortint::CompactPublicKeyEncryptionParameters;

wire!(KeySwitchingKeyDestinationAtomicPatternVersions [] V0
KeySwitchingKeyDestinationAtomicPattern:
/// The atomic pattern of the destination server key.
#[derive(Copy)]
pub enum KeySwitchingKeyDestinationAtomicPattern {
    /// The standard pattern.
    Standard,
    /// TFHE-rs's 32-bit keyswitch pattern.
    KeySwitch32,
});

wire!(ShortintKeySwitchingKeyMaterialVersions [V0] V1 ShortintKeySwitchingKeyMaterial:
/// The keyswitching key and how switched blocks are used.
pub struct ShortintKeySwitchingKeyMaterial {
    pub(crate) key_switching_key: LweKeyswitchKey,
    pub(crate) cast_rshift: i8,
    pub(crate) destination_key: EncryptionKeyChoice,
    pub(crate) destination_atomic_pattern: KeySwitchingKeyDestinationAtomicPattern,
});

wire!(ShortintKeySwitchingParametersVersions [] V0 ShortintKeySwitchingParameters:
/// The decomposition of a keyswitch between two keys, and its destination.
#[derive(Copy)]
pub struct ShortintKeySwitchingParameters {
    pub(crate) ks_base_log: DecompositionBaseLog,
    pub(crate) ks_level: DecompositionLevelCount,
    pub(crate) destination_key: EncryptionKeyChoice,
});

wire!(ShortintCompactPrivateKeyVersions [] V0 ShortintCompactPrivateKey:
/// `shortint`'s dedicated compact private key: an LWE secret key and its
/// encryption parameters.
pub struct ShortintCompactPrivateKey {
    pub(crate) key: LweSecretKey,
    pub(crate) parameters: CompactPublicKeyEncryptionParameters,
});

wire!(IntegerCompactPrivateKeyVersions [] V0 IntegerCompactPrivateKey:
/// `integer`'s dedicated compact private key.
pub struct IntegerCompactPrivateKey {
    pub(crate) key: ShortintCompactPrivateKey,
});

/// The client key's dedicated compact private key and its keyswitch parameters.
pub(crate) type DedicatedCompactPrivateKey =
    (IntegerCompactPrivateKey, ShortintKeySwitchingParameters);

/// The configuration's dedicated compact public-key parameters and keyswitch.
pub(crate) type DedicatedCompactParameters = (
    CompactPublicKeyEncryptionParameters,
    ShortintKeySwitchingParameters,
);

wire!(IntegerKeySwitchingKeyMaterialVersions [] V0 IntegerKeySwitchingKeyMaterial:
/// `integer`'s keyswitching key material (the server key's casting key).
pub struct IntegerKeySwitchingKeyMaterial {
    pub(crate) material: ShortintKeySwitchingKeyMaterial,
});

wire!(ShortintCompressedKeySwitchingKeyMaterialVersions [V0 V1] V2
ShortintCompressedKeySwitchingKeyMaterial:
/// `shortint`'s keyswitching key material with a seeded keyswitching key.
pub struct ShortintCompressedKeySwitchingKeyMaterial {
    pub(crate) key_switching_key: SeededLweKeyswitchKey,
    pub(crate) cast_rshift: i8,
    pub(crate) destination_key: EncryptionKeyChoice,
    pub(crate) destination_atomic_pattern: KeySwitchingKeyDestinationAtomicPattern,
});

wire!(IntegerCompressedKeySwitchingKeyMaterialVersions [V0 V1] V2
IntegerCompressedKeySwitchingKeyMaterial:
/// `integer`'s compressed keyswitching key material (the compressed server key's
/// casting key).
pub struct IntegerCompressedKeySwitchingKeyMaterial {
    pub(crate) material: ShortintCompressedKeySwitchingKeyMaterial,
});

wire!(ReRandomizationParametersVersions [] V0 ReRandomizationParameters:
/// How ciphertexts are re-randomized.
#[derive(Copy)]
pub enum ReRandomizationParameters {
    /// A dedicated compact public key and a keyswitch of these parameters.
    LegacyDedicatedCPKWithKeySwitch {
        rerand_ksk_params: ShortintKeySwitchingParameters,
    },
    /// A compact public key of the computation key, in the server key.
    DerivedCPKWithoutKeySwitch,
});
