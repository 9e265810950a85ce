//! Dedicated compact public-key encryption between gpufhe and TFHE-rs's data: the
//! encryption and keyswitch parameters, the client key's dedicated compact private
//! key and the server keys' casting key material (TFHE-rs's
//! `cpk_key_switching_key_material`, plain and compressed).

use super::parameters::{
    distribution_from_wire, distribution_to_wire, seed_from_wire, seed_to_wire,
};
use super::wire::core::{
    CiphertextModulus, DecompositionBaseLog as WireBaseLog, DecompositionLevelCount as WireLevel,
    EncryptionKeyChoice as WireChoice, LweDimension as WireLweDimension, LweKeyswitchKey,
    LweSecretKey as WireLweKey, LweSize as WireLweSize, PBSOrder, SeededLweKeyswitchKey,
};
use super::wire::dedicated::{
    DedicatedCompactPrivateKey as WirePrivateKey, IntegerCompactPrivateKey,
    IntegerCompressedKeySwitchingKeyMaterial, IntegerKeySwitchingKeyMaterial,
    KeySwitchingKeyDestinationAtomicPattern, ShortintCompactPrivateKey,
    ShortintCompressedKeySwitchingKeyMaterial, ShortintKeySwitchingKeyMaterial,
    ShortintKeySwitchingParameters as WireKs,
};
use super::wire::shortint::{
    AtomicPatternKind, CarryModulus as WireCarry, CompactCiphertextListExpansionKind as WireKind,
    CompactPublicKeyEncryptionParameters as WirePke, MessageModulus as WireMessage,
    SupportedCompactPkeZkScheme as WireZk,
};
use crate::core_crypto::tfhe_rs_layout::{
    lwe_keyswitch_key_from_tfhe_rs_layout, lwe_keyswitch_key_to_tfhe_rs_layout,
    seeded_lwe_keyswitch_key_from_tfhe_rs_parts,
};
use crate::core_crypto::{DecompositionBaseLog, DecompositionLevelCount, LweDimension, LweSize};
use crate::error::{Error, Result};
use crate::shortint::{
    CarryModulus, CastingKey, CompactCiphertextListExpansionKind,
    CompactPublicKeyEncryptionParameters, CompressedCastingKey, DedicatedCompactPrivateKey,
    EncryptionKeyChoice, MessageModulus, ShortintKeySwitchingParameters, ShortintParameters,
    SupportedCompactPkeZkScheme,
};

/// TFHE-rs's "no casting" kind: blocks of the standard pattern.
pub(crate) fn no_casting() -> WireKind {
    WireKind::NoCasting(AtomicPatternKind::Standard(PBSOrder::KeyswitchBootstrap))
}

/// TFHE-rs's form of an expansion kind.
pub(crate) fn expansion_kind_to_wire(kind: CompactCiphertextListExpansionKind) -> WireKind {
    match kind {
        CompactCiphertextListExpansionKind::RequiresCasting => WireKind::RequiresCasting,
        CompactCiphertextListExpansionKind::NoCasting => no_casting(),
    }
}

/// The expansion kind of TFHE-rs's data (`Err` for blocks of another pattern).
pub(crate) fn expansion_kind_from_wire(
    kind: &WireKind,
    what: &str,
) -> Result<CompactCiphertextListExpansionKind> {
    match kind {
        WireKind::RequiresCasting => Ok(CompactCiphertextListExpansionKind::RequiresCasting),
        k if *k == no_casting() => Ok(CompactCiphertextListExpansionKind::NoCasting),
        k => Err(Error::InvalidParameter(format!(
            "a TFHE-rs {what} of blocks of another atomic pattern ({k:?}), which gpufhe does \
             not run"
        ))),
    }
}

/// TFHE-rs's form of compact public-key encryption parameters.
pub(crate) fn pke_to_wire(p: &CompactPublicKeyEncryptionParameters) -> WirePke {
    WirePke {
        encryption_lwe_dimension: WireLweDimension(p.encryption_lwe_dimension.0),
        encryption_noise_distribution: distribution_to_wire(p.encryption_noise_distribution),
        message_modulus: WireMessage(p.message_modulus.0),
        carry_modulus: WireCarry(p.carry_modulus.0),
        ciphertext_modulus: CiphertextModulus::NATIVE_U64,
        expansion_kind: expansion_kind_to_wire(p.expansion_kind),
        zk_scheme: match p.zk_scheme {
            SupportedCompactPkeZkScheme::ZkNotSupported => WireZk::ZkNotSupported,
            SupportedCompactPkeZkScheme::V1 => WireZk::V1,
            SupportedCompactPkeZkScheme::V2 => WireZk::V2,
        },
    }
}

/// The compact public-key encryption parameters of TFHE-rs's data (native
/// modulus, standard pattern).
pub(crate) fn pke_from_wire(
    w: &WirePke,
    what: &str,
) -> Result<CompactPublicKeyEncryptionParameters> {
    w.ciphertext_modulus.check_native_u64(what)?;
    Ok(CompactPublicKeyEncryptionParameters {
        encryption_lwe_dimension: LweDimension(w.encryption_lwe_dimension.0),
        encryption_noise_distribution: distribution_from_wire(&w.encryption_noise_distribution)?,
        message_modulus: MessageModulus(w.message_modulus.0),
        carry_modulus: CarryModulus(w.carry_modulus.0),
        expansion_kind: expansion_kind_from_wire(&w.expansion_kind, what)?,
        zk_scheme: match w.zk_scheme {
            WireZk::ZkNotSupported => SupportedCompactPkeZkScheme::ZkNotSupported,
            WireZk::V1 => SupportedCompactPkeZkScheme::V1,
            WireZk::V2 => SupportedCompactPkeZkScheme::V2,
        },
    })
}

fn choice_to_wire(c: EncryptionKeyChoice) -> WireChoice {
    match c {
        EncryptionKeyChoice::Big => WireChoice::Big,
        EncryptionKeyChoice::Small => WireChoice::Small,
    }
}

fn choice_from_wire(c: WireChoice) -> EncryptionKeyChoice {
    match c {
        WireChoice::Big => EncryptionKeyChoice::Big,
        WireChoice::Small => EncryptionKeyChoice::Small,
    }
}

/// TFHE-rs's form of keyswitch parameters.
pub(crate) fn ks_to_wire(k: &ShortintKeySwitchingParameters) -> WireKs {
    WireKs {
        ks_base_log: WireBaseLog(k.ks_base_log.0),
        ks_level: WireLevel(k.ks_level.0),
        destination_key: choice_to_wire(k.destination_key),
    }
}

/// The keyswitch parameters of TFHE-rs's data.
pub(crate) fn ks_from_wire(k: &WireKs) -> ShortintKeySwitchingParameters {
    ShortintKeySwitchingParameters {
        ks_base_log: DecompositionBaseLog(k.ks_base_log.0),
        ks_level: DecompositionLevelCount(k.ks_level.0),
        destination_key: choice_from_wire(k.destination_key),
    }
}

/// TFHE-rs's form of the client key's dedicated compact private key.
pub(crate) fn private_key_to_wire(k: &DedicatedCompactPrivateKey) -> WirePrivateKey {
    (
        IntegerCompactPrivateKey {
            key: ShortintCompactPrivateKey {
                key: WireLweKey {
                    data: k.secret_key().as_slice().to_vec(),
                },
                parameters: pke_to_wire(k.parameters()),
            },
        },
        ks_to_wire(k.casting_parameters()),
    )
}

/// The dedicated compact private key of TFHE-rs's data, for blocks of `block`.
pub(crate) fn private_key_from_wire(
    w: WirePrivateKey,
    block: &ShortintParameters,
) -> Result<DedicatedCompactPrivateKey> {
    let (key, ks) = w;
    let parameters = pke_from_wire(&key.key.parameters, "dedicated compact private key")?;
    let secret = crate::core_crypto::LweSecretKey::from_binary_coefficients(key.key.key.data)?;
    DedicatedCompactPrivateKey::from_parts(secret, parameters, ks_from_wire(&ks), block)
}

/// `cast_rshift` of TFHE-rs's material: 0 (gpufhe casts between the same moduli).
fn check_material(cast_rshift: i8, pattern: KeySwitchingKeyDestinationAtomicPattern) -> Result<()> {
    if cast_rshift != 0 || pattern != KeySwitchingKeyDestinationAtomicPattern::Standard {
        return Err(Error::InvalidParameter(format!(
            "a TFHE-rs casting key to other moduli (shift {cast_rshift}) or to the {pattern:?} \
             pattern, which gpufhe does not support"
        )));
    }
    Ok(())
}

/// TFHE-rs's form of the server key's casting key material.
pub(crate) fn casting_key_to_wire(k: &CastingKey) -> IntegerKeySwitchingKeyMaterial {
    let ksk = k.lwe_keyswitch_key();
    let shape = ksk.shape();
    IntegerKeySwitchingKeyMaterial {
        material: ShortintKeySwitchingKeyMaterial {
            key_switching_key: LweKeyswitchKey {
                data: lwe_keyswitch_key_to_tfhe_rs_layout(ksk),
                decomp_base_log: WireBaseLog(shape.base_log.0),
                decomp_level_count: WireLevel(shape.level.0),
                output_lwe_size: WireLweSize(ksk.output_lwe_size().0),
                ciphertext_modulus: CiphertextModulus::NATIVE_U64,
            },
            cast_rshift: 0,
            destination_key: choice_to_wire(k.destination()),
            destination_atomic_pattern: KeySwitchingKeyDestinationAtomicPattern::Standard,
        },
    }
}

/// The dedicated encryption parameters of lists of dimension `n` for blocks of
/// `block`, which TFHE-rs's server keys and lists do not hold: the known set of
/// that dimension (TFHE-rs 1.8's, or the insecure test set), else that dimension
/// with `block`'s GLWE noise (the noise is the client's business: casting does not
/// use it).
pub(crate) fn inferred_pke(
    n: usize,
    block: &ShortintParameters,
) -> CompactPublicKeyEncryptionParameters {
    let known = [
        crate::shortint::PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        crate::shortint::PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128_ZKV1,
        #[cfg(any(test, feature = "test-params"))]
        crate::shortint::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2,
    ];
    let fallback = CompactPublicKeyEncryptionParameters {
        encryption_lwe_dimension: LweDimension(n),
        expansion_kind: CompactCiphertextListExpansionKind::RequiresCasting,
        ..CompactPublicKeyEncryptionParameters::of_blocks(block)
    };
    known
        .into_iter()
        .find(|p| {
            p.encryption_lwe_dimension.0 == n
                && (p.message_modulus.0, p.carry_modulus.0)
                    == (block.message_modulus, block.carry_modulus)
        })
        .unwrap_or(fallback)
}

/// The casting key of TFHE-rs's server key material, for blocks of `block`.
pub(crate) fn casting_key_from_wire(
    w: IntegerKeySwitchingKeyMaterial,
    block: &ShortintParameters,
) -> Result<CastingKey> {
    let m = w.material;
    check_material(m.cast_rshift, m.destination_atomic_pattern)?;
    let ksk = m.key_switching_key;
    ksk.ciphertext_modulus.check_native_u64("casting key")?;
    let ksk = lwe_keyswitch_key_from_tfhe_rs_layout(
        ksk.data,
        DecompositionBaseLog(ksk.decomp_base_log.0),
        DecompositionLevelCount(ksk.decomp_level_count.0),
        LweSize(ksk.output_lwe_size.0),
    )?;
    let pke = inferred_pke(ksk.shape().input_lwe_dimension.0, block);
    CastingKey::from_parts(ksk, choice_from_wire(m.destination_key), pke, block)
}

/// TFHE-rs's form of the compressed server key's casting key material.
pub(crate) fn compressed_casting_key_to_wire(
    k: &CompressedCastingKey,
) -> IntegerCompressedKeySwitchingKeyMaterial {
    let ksk = k.seeded_keyswitch_key();
    let shape = ksk.shape();
    IntegerCompressedKeySwitchingKeyMaterial {
        material: ShortintCompressedKeySwitchingKeyMaterial {
            key_switching_key: SeededLweKeyswitchKey {
                data: ksk.bodies().to_vec(),
                decomp_base_log: WireBaseLog(shape.base_log.0),
                decomp_level_count: WireLevel(shape.level.0),
                output_lwe_size: WireLweSize(shape.output_lwe_dimension.0 + 1),
                compression_seed: seed_to_wire(ksk.seed()),
                ciphertext_modulus: CiphertextModulus::NATIVE_U64,
            },
            cast_rshift: 0,
            destination_key: choice_to_wire(k.destination()),
            destination_atomic_pattern: KeySwitchingKeyDestinationAtomicPattern::Standard,
        },
    }
}

/// The compressed casting key of TFHE-rs's compressed server key material.
pub(crate) fn compressed_casting_key_from_wire(
    w: IntegerCompressedKeySwitchingKeyMaterial,
    block: &ShortintParameters,
) -> Result<CompressedCastingKey> {
    let m = w.material;
    check_material(m.cast_rshift, m.destination_atomic_pattern)?;
    let ksk = m.key_switching_key;
    ksk.ciphertext_modulus.check_native_u64("casting key")?;
    let ksk = seeded_lwe_keyswitch_key_from_tfhe_rs_parts(
        ksk.data,
        DecompositionBaseLog(ksk.decomp_base_log.0),
        DecompositionLevelCount(ksk.decomp_level_count.0),
        LweSize(ksk.output_lwe_size.0),
        seed_from_wire(&ksk.compression_seed)?,
    )?;
    let pke = inferred_pke(ksk.shape().input_lwe_dimension.0, block);
    CompressedCastingKey::from_parts(ksk, choice_from_wire(m.destination_key), pke, block)
}
