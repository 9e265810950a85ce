//! TFHE-rs's `integer` radix values and high-level values and client key, as
//! serialized (docs/tfhe-rs-format.md, sections 3.4-3.9 and 4).

use super::core::LweSecretKey;
use super::shortint::{
    Ciphertext, ClientKey as ShortintClientKey,
    CompactCiphertextList as ShortintCompactCiphertextList,
    CompactPublicKey as ShortintCompactPublicKey, CompressedCiphertext,
    CompressedCompactPublicKey as ShortintCompressedCompactPublicKey,
    CompressedModulusSwitchedCiphertext, TranscipheringKey,
};

wire!(TagVersions [] V0 Tag:
/// A key's tag: bytes, empty by default.
#[derive(Default)]
pub struct Tag {
    pub(crate) inner: Vec<u8>,
});

wire!(ReRandomizationMetadataVersions [] V0 ReRandomizationMetadata:
/// Re-randomization metadata carried by a value: bytes, empty by default.
#[derive(Default)]
pub struct ReRandomizationMetadata {
    pub(crate) inner: Vec<u8>,
});

wire!(BaseRadixCiphertextVersions [] V0 RadixCiphertext:
/// The blocks of an integer, least significant first (signed integers have the
/// same bytes).
pub struct RadixCiphertext {
    pub(crate) blocks: Vec<Ciphertext>,
});

wire!(CompressedRadixCiphertextVersions [] V0 CompressedRadixCiphertext:
/// The seeded blocks of an integer, least significant first.
pub struct CompressedRadixCiphertext {
    pub(crate) blocks: Vec<CompressedCiphertext>,
});

wire!(CompressedModulusSwitchedRadixCiphertextGenericVersions [] V0
CompressedModulusSwitchedRadixCiphertextGeneric:
/// Modulus-switched blocks, two per packed block.
pub struct CompressedModulusSwitchedRadixCiphertextGeneric {
    pub(crate) paired_blocks: Vec<CompressedModulusSwitchedCiphertext>,
    pub(crate) last_block: Option<CompressedModulusSwitchedCiphertext>,
});

wire!(CompressedModulusSwitchedRadixCiphertextVersions [] V0
    CompressedModulusSwitchedRadixCiphertext:
    /// A modulus-switched integer.
    pub struct CompressedModulusSwitchedRadixCiphertext(
        pub(crate) CompressedModulusSwitchedRadixCiphertextGeneric,
    ););

wire!(InnerRadixVersions [] V0 InnerRadix:
    /// The high level's wrapper of an integer's blocks (always on the CPU in data).
    pub struct InnerRadix(pub(crate) RadixCiphertext););

wire!(BooleanBlockVersions [] V0 BooleanBlock:
    /// One block holding 0 or 1.
    pub struct BooleanBlock(pub(crate) Ciphertext););

wire!(InnerBooleanVersions [] V0 InnerBoolean:
    /// The high level's wrapper of a boolean block.
    pub struct InnerBoolean(pub(crate) BooleanBlock););

/// Declares the wire form of `FheUint` and `FheInt` (the same fields).
macro_rules! integer_value {
    ($($name:ident $versions:ident $compressed:ident $compressed_versions:ident
        $inner:ident $inner_versions:ident;)*) => {$(
        wire!($versions [V0 V1] V2 $name:
            /// An encrypted integer (its width is its block count).
            pub struct $name {
                pub(crate) ciphertext: InnerRadix,
                pub(crate) tag: Tag,
                pub(crate) re_randomization_metadata: ReRandomizationMetadata,
            });

        wire!($inner_versions [V0] V1 $inner:
            /// The two compressed forms of an integer.
            pub enum $inner {
                /// Seeded blocks.
                Seeded(CompressedRadixCiphertext),
                /// Modulus-switched blocks.
                ModulusSwitched(CompressedModulusSwitchedRadixCiphertext),
            });

        wire!($compressed_versions [V0] V1 $compressed:
            /// A compressed encrypted integer.
            pub struct $compressed {
                pub(crate) ciphertext: $inner,
                pub(crate) tag: Tag,
            });
    )*};
}

integer_value!(
    FheUint FheUintVersions CompressedFheUint CompressedFheUintVersions
        CompressedUnsignedRadix CompressedUnsignedRadixVersions;
    FheInt FheIntVersions CompressedFheInt CompressedFheIntVersions
        CompressedSignedRadix CompressedSignedRadixVersions;
);

wire!(FheBoolVersions [V0 V1] V2 FheBool:
/// An encrypted boolean.
pub struct FheBool {
    pub(crate) ciphertext: InnerBoolean,
    pub(crate) tag: Tag,
    pub(crate) re_randomization_metadata: ReRandomizationMetadata,
});

wire!(InnerCompressedFheBoolVersions [] V0 InnerCompressedFheBool:
/// The two compressed forms of a boolean.
pub enum InnerCompressedFheBool {
    /// A seeded block.
    Seeded(CompressedCiphertext),
    /// A modulus-switched block.
    ModulusSwitched(CompressedModulusSwitchedCiphertext),
});

wire!(CompressedFheBoolVersions [V0] V1 CompressedFheBool:
/// A compressed encrypted boolean.
pub struct CompressedFheBool {
    pub(crate) inner: InnerCompressedFheBool,
    pub(crate) tag: Tag,
});

wire!(AtomicPatternOprfPrivateKeyVersions [] V0 AtomicPatternOprfPrivateKey:
/// The dedicated secret key of oblivious pseudo-random values.
pub enum AtomicPatternOprfPrivateKey {
    /// For the standard pattern.
    Standard(LweSecretKey),
    /// For the KeySwitch32 pattern (not supported).
    KeySwitch32(super::shortint::KeySwitch32Key),
});

wire!(ShortintOprfPrivateKeyVersions [] V0 ShortintOprfPrivateKey:
    /// `shortint`'s wrapper of the OPRF secret key.
    pub struct ShortintOprfPrivateKey(pub(crate) AtomicPatternOprfPrivateKey););

wire!(OprfPrivateKeyVersions [] V0 OprfPrivateKey:
    /// `integer`'s wrapper of the OPRF secret key.
    pub struct OprfPrivateKey(pub(crate) ShortintOprfPrivateKey););

wire!(IntegerClientKeyVersions [] V0 IntegerClientKey:
/// `integer`'s client key.
pub struct IntegerClientKey {
    pub(crate) key: ShortintClientKey,
});

wire!(HlIntegerClientKeyVersions [V0 V1 V2 V3 V4 V5 V6 V7 V8] V9 HlIntegerClientKey:
/// The high level's client key with its optional keys.
pub struct HlIntegerClientKey {
    pub(crate) key: IntegerClientKey,
    pub(crate) dedicated_compact_private_key:
        Option<super::dedicated::DedicatedCompactPrivateKey>,
    pub(crate) compression_key: Option<super::compression::IntegerCompressionPrivateKeys>,
    pub(crate) noise_squashing_private_key:
        Option<super::noise_squashing::NoiseSquashingPrivateKey>,
    pub(crate) noise_squashing_compression_private_key:
        Option<super::squashed_compression_keys::NoiseSquashingCompressionPrivateKey>,
    pub(crate) cpk_re_randomization_params:
        Option<super::dedicated::ReRandomizationParameters>,
    pub(crate) dedicated_oprf_private_key: Option<OprfPrivateKey>,
    pub(crate) transciphering_private_key: Option<TranscipheringKey>,
});

wire!(ClientKeyVersions [V0] V1 ClientKey:
/// The high level's client key.
pub struct ClientKey {
    pub(crate) key: HlIntegerClientKey,
    pub(crate) tag: Tag,
});

wire!(IntegerCompactPublicKeyVersions [] V0 IntegerCompactPublicKey:
/// `integer`'s compact public key.
pub struct IntegerCompactPublicKey {
    pub(crate) key: ShortintCompactPublicKey,
});

wire!(HlCompactPublicKeyInnerVersions [] V0 HlCompactPublicKeyInner:
/// The high level's wrapper of the compact public key.
pub struct HlCompactPublicKeyInner {
    pub(crate) key: IntegerCompactPublicKey,
});

wire!(CompactPublicKeyVersions [V0] V1 CompactPublicKey:
/// The high level's compact public key.
pub struct CompactPublicKey {
    pub(crate) key: HlCompactPublicKeyInner,
    pub(crate) tag: Tag,
});

wire!(IntegerCompressedCompactPublicKeyVersions [] V0 IntegerCompressedCompactPublicKey:
/// `integer`'s seeded compact public key.
pub struct IntegerCompressedCompactPublicKey {
    pub(crate) key: ShortintCompressedCompactPublicKey,
});

wire!(HlCompressedCompactPublicKeyInnerVersions [] V0 HlCompressedCompactPublicKeyInner:
/// The high level's wrapper of the seeded compact public key.
pub struct HlCompressedCompactPublicKeyInner {
    pub(crate) key: IntegerCompressedCompactPublicKey,
});

wire!(CompressedCompactPublicKeyVersions [V0] V1 CompressedCompactPublicKey:
/// The high level's seeded compact public key.
pub struct CompressedCompactPublicKey {
    pub(crate) key: HlCompressedCompactPublicKeyInner,
    pub(crate) tag: Tag,
});

wire!(DataKindVersions [V0] V1 DataKind:
/// What a value of a list is: its kind and block count.
pub enum DataKind {
    /// An unsigned integer of this many blocks.
    Unsigned(std::num::NonZeroUsize),
    /// A signed integer of this many blocks.
    Signed(std::num::NonZeroUsize),
    /// A boolean (one block).
    Boolean,
    /// A string (not supported by gpufhe).
    String {
        /// Its characters.
        n_chars: u32,
        /// Whether it is padded.
        padded: bool,
    },
});

wire!(IntegerCompactCiphertextListVersions [V0] V1 IntegerCompactCiphertextList:
/// `integer`'s compact list: the blocks and what values they make.
pub struct IntegerCompactCiphertextList {
    pub(crate) ct_list: ShortintCompactCiphertextList,
    pub(crate) info: Vec<DataKind>,
});

wire!(CompactCiphertextListVersions [V0] V1 CompactCiphertextList:
/// The high level's compact list.
pub struct CompactCiphertextList {
    pub(crate) inner: IntegerCompactCiphertextList,
    pub(crate) tag: Tag,
});

wire!(IntegerConfigVersions [V0 V1] V2 IntegerConfig:
/// The parameters of the high level's keys.
pub struct IntegerConfig {
    pub(crate) block_parameters: super::shortint::AtomicPatternParameters,
    pub(crate) dedicated_compact_public_key_parameters:
        Option<super::dedicated::DedicatedCompactParameters>,
    pub(crate) compression_parameters: Option<super::compression::CompressionParameters>,
    pub(crate) noise_squashing_parameters:
        Option<super::noise_squashing::NoiseSquashingParameters>,
    pub(crate) noise_squashing_compression_parameters:
        Option<super::squashed_compression_keys::NoiseSquashingCompressionParameters>,
    pub(crate) cpk_re_randomization_params:
        Option<super::dedicated::ReRandomizationParameters>,
    pub(crate) dedicated_oprf_key: bool,
    pub(crate) transciphering_parameters: Option<TranscipheringKey>,
});

wire!(ConfigVersions [] V0 Config:
/// The high level's configuration.
pub struct Config {
    pub(crate) inner: IntegerConfig,
});
