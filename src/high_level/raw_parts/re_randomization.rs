//! The re-randomization key material as raw parts of the server keys (TFHE-rs's
//! `ReRandomizationKey` and `CompressedReRandomizationKey`, seventh of their
//! parts): the compact public key of the computation key (gpufhe's high-level
//! [`CompactPublicKey`], where TFHE-rs has its `integer` key) or the legacy mode's
//! keyswitch.

use crate::error::{check_eq, Error, Result};
use crate::high_level::keys::re_randomization::{
    CompressedReRandomizationKey as CompressedMaterial, ReRandomizationKey as Material,
};
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::{CompactPublicKey, CompressedCompactPublicKey};
use crate::shortint::{self, EncryptionKeyChoice, ShortintParameters};
use std::sync::Arc;

/// A server key's re-randomization material, as a raw part.
///
/// ```
/// use gpufhe::shortint::parameters::ReRandomizationParameters;
/// use gpufhe::{ConfigBuilder, ReRandomizationKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// let config = ConfigBuilder::default()
///     .with_insecure_custom_parameters(TEST_PARAMS)?
///     .enable_ciphertext_re_randomization(ReRandomizationParameters::DerivedCPKWithoutKeySwitch);
/// let (_client_key, server_key) = gpufhe::generate_keys(config);
/// let (key, cpk, c, d, ns, nsc, rerand, oprf, tc, tag) = server_key.into_raw_parts();
/// assert!(matches!(rerand, Some(ReRandomizationKey::DerivedCPKWithoutKeySwitch { .. })));
/// let server_key = ServerKey::try_from_raw_parts(key, cpk, c, d, ns, nsc, rerand, oprf, tc, tag)?;
/// assert!(server_key.supports_ciphertext_re_randomization());
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Debug, Clone)]
pub enum ReRandomizationKey {
    /// The legacy mode's keyswitch.
    LegacyDedicatedCPK {
        /// The keyswitch from the dedicated key to the big key.
        ksk: ReRandomizationKeySwitchingKey,
    },
    /// A compact public key of the computation's big key.
    DerivedCPKWithoutKeySwitch {
        /// The key (of the server key's block parameters).
        cpk: CompactPublicKey,
    },
}

/// The legacy mode's keyswitch, as a raw part.
#[derive(Debug, Clone)]
pub enum ReRandomizationKeySwitchingKey {
    /// The server key's casting key of compact lists.
    UseCPKEncryptionKSK,
    /// A keyswitching key of its own (to the big key).
    DedicatedKSK(shortint::CastingKey),
}

/// [`ReRandomizationKey`] with seeded masks, a raw part of the compressed server
/// key.
#[derive(Debug, Clone)]
pub enum CompressedReRandomizationKey {
    /// The legacy mode's keyswitch.
    LegacyDedicatedCPK {
        /// The keyswitch from the dedicated key to the big key.
        ksk: CompressedReRandomizationKeySwitchingKey,
    },
    /// A compact public key of the computation's big key.
    DerivedCPKWithoutKeySwitch {
        /// The key (of the server key's block parameters).
        cpk: CompressedCompactPublicKey,
    },
}

/// [`ReRandomizationKeySwitchingKey`], seeded.
#[derive(Debug, Clone)]
pub enum CompressedReRandomizationKeySwitchingKey {
    /// The server key's casting key of compact lists.
    UseCPKEncryptionKSK,
    /// A keyswitching key of its own (to the big key).
    DedicatedKSK(shortint::CompressedCastingKey),
}

/// `Err` unless a derived key of `p` (one polynomial) suits blocks of `block`.
fn check_derived(
    dedicated: bool,
    p: &ShortintParameters,
    block: &ShortintParameters,
) -> Result<()> {
    if dedicated || p != block {
        return Err(Error::InvalidParameter(
            "a re-randomization compact public key of other parameters than the server key's \
             blocks (or a dedicated one)"
                .into(),
        ));
    }
    Ok(())
}

/// `Err` unless a legacy keyswitch goes from some key to `block`'s big key.
fn check_keyswitch(
    destination: EncryptionKeyChoice,
    output: usize,
    block: &ShortintParameters,
) -> Result<()> {
    if destination != EncryptionKeyChoice::Big {
        return Err(Error::InvalidParameter(
            "a re-randomization keyswitch to the small key (it must target the big key)".into(),
        ));
    }
    check_eq(
        "output dimension of the re-randomization keyswitch",
        block.big_lwe_dimension().0,
        output,
    )
}

/// The raw part of `m`, tagged `tag`.
pub(super) fn to_raw(m: &Material, tag: KeyTag) -> ReRandomizationKey {
    match m {
        Material::Derived { cpk } => ReRandomizationKey::DerivedCPKWithoutKeySwitch {
            cpk: CompactPublicKey {
                tag,
                key: cpk.clone(),
                dedicated: None,
            },
        },
        Material::Legacy { ksk } => ReRandomizationKey::LegacyDedicatedCPK {
            ksk: match ksk {
                None => ReRandomizationKeySwitchingKey::UseCPKEncryptionKSK,
                Some(k) => ReRandomizationKeySwitchingKey::DedicatedKSK((**k).clone()),
            },
        },
    }
}

/// The material of the raw part `r`, for blocks of `block`.
pub(super) fn from_raw(r: ReRandomizationKey, block: &ShortintParameters) -> Result<Material> {
    Ok(match r {
        ReRandomizationKey::DerivedCPKWithoutKeySwitch { cpk } => {
            check_derived(cpk.dedicated.is_some(), cpk.key.parameters(), block)?;
            Material::Derived { cpk: cpk.key }
        }
        ReRandomizationKey::LegacyDedicatedCPK { ksk } => Material::Legacy {
            ksk: match ksk {
                ReRandomizationKeySwitchingKey::UseCPKEncryptionKSK => None,
                ReRandomizationKeySwitchingKey::DedicatedKSK(k) => {
                    let output = k.lwe_keyswitch_key().shape().output_lwe_dimension.0;
                    check_keyswitch(k.destination(), output, block)?;
                    Some(Arc::new(k))
                }
            },
        },
    })
}

/// The raw part of the seeded `m`, tagged `tag`.
pub(super) fn compressed_to_raw(
    m: &CompressedMaterial,
    tag: KeyTag,
) -> CompressedReRandomizationKey {
    match m {
        CompressedMaterial::Derived { cpk } => {
            CompressedReRandomizationKey::DerivedCPKWithoutKeySwitch {
                cpk: CompressedCompactPublicKey {
                    tag,
                    key: (**cpk).clone(),
                    dedicated: None,
                },
            }
        }
        CompressedMaterial::Legacy { ksk } => CompressedReRandomizationKey::LegacyDedicatedCPK {
            ksk: match ksk {
                None => CompressedReRandomizationKeySwitchingKey::UseCPKEncryptionKSK,
                Some(k) => CompressedReRandomizationKeySwitchingKey::DedicatedKSK((**k).clone()),
            },
        },
    }
}

/// The seeded material of the raw part `r`, for blocks of `block`.
pub(super) fn compressed_from_raw(
    r: CompressedReRandomizationKey,
    block: &ShortintParameters,
) -> Result<CompressedMaterial> {
    Ok(match r {
        CompressedReRandomizationKey::DerivedCPKWithoutKeySwitch { cpk } => {
            check_derived(cpk.dedicated.is_some(), cpk.key.parameters(), block)?;
            CompressedMaterial::Derived {
                cpk: Box::new(cpk.key),
            }
        }
        CompressedReRandomizationKey::LegacyDedicatedCPK { ksk } => CompressedMaterial::Legacy {
            ksk: match ksk {
                CompressedReRandomizationKeySwitchingKey::UseCPKEncryptionKSK => None,
                CompressedReRandomizationKeySwitchingKey::DedicatedKSK(k) => {
                    let output = k.seeded_keyswitch_key().shape().output_lwe_dimension.0;
                    check_keyswitch(k.destination(), output, block)?;
                    Some(Arc::new(k))
                }
            },
        },
    })
}
