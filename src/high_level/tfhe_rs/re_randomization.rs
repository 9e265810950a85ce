//! Re-randomization parameters and key material between gpufhe and TFHE-rs's data:
//! the configuration's and client key's parameters, the server key's material
//! (a compact public key of the computation key, or the legacy mode's keyswitch:
//! the casting key's or one of its own), plain and compressed.

use super::compact::{
    integer_compressed_key_from_wire, integer_compressed_key_to_wire, integer_key_from_wire,
    integer_key_to_wire,
};
use super::dedicated::{
    casting_key_from_wire, casting_key_to_wire, compressed_casting_key_from_wire,
    compressed_casting_key_to_wire, ks_from_wire, ks_to_wire,
};
use super::wire::dedicated::ReRandomizationParameters as WireParameters;
use super::wire::re_randomization::{
    CompressedReRandomizationKey as WireCompressedKey,
    CompressedReRandomizationKeySwitchingKey as WireCompressedKsk, ReRandomizationKey as WireKey,
    ReRandomizationKeySwitchingKey as WireKsk,
};
use crate::error::{Error, Result};
use crate::high_level::keys::re_randomization::{CompressedReRandomizationKey, ReRandomizationKey};
use crate::shortint::{
    CompactPublicKeyEncryptionParameters as Pke, EncryptionKeyChoice, ReRandomizationParameters,
    ShortintParameters,
};
use std::sync::Arc;

/// TFHE-rs's form of the parameters.
pub(crate) fn parameters_to_wire(p: &ReRandomizationParameters) -> WireParameters {
    match p {
        ReRandomizationParameters::DerivedCPKWithoutKeySwitch => {
            WireParameters::DerivedCPKWithoutKeySwitch
        }
        ReRandomizationParameters::LegacyDedicatedCPKWithKeySwitch { rerand_ksk_params } => {
            WireParameters::LegacyDedicatedCPKWithKeySwitch {
                rerand_ksk_params: ks_to_wire(rerand_ksk_params),
            }
        }
    }
}

/// The parameters of TFHE-rs's form.
pub(crate) fn parameters_from_wire(w: &WireParameters) -> ReRandomizationParameters {
    match w {
        WireParameters::DerivedCPKWithoutKeySwitch => {
            ReRandomizationParameters::DerivedCPKWithoutKeySwitch
        }
        WireParameters::LegacyDedicatedCPKWithKeySwitch { rerand_ksk_params } => {
            ReRandomizationParameters::LegacyDedicatedCPKWithKeySwitch {
                rerand_ksk_params: ks_from_wire(rerand_ksk_params),
            }
        }
    }
}

/// `Err` unless a legacy keyswitch read from TFHE-rs's data targets the big key.
fn check_big(destination: EncryptionKeyChoice) -> Result<()> {
    if destination == EncryptionKeyChoice::Big {
        Ok(())
    } else {
        Err(Error::InvalidParameter(
            "a TFHE-rs re-randomization keyswitch to the small key (it must target the big \
             key)"
                .into(),
        ))
    }
}

/// TFHE-rs's form of a server key's material, for blocks of `block`.
pub(crate) fn key_to_wire(k: &ReRandomizationKey, block: &ShortintParameters) -> Result<WireKey> {
    Ok(match k {
        ReRandomizationKey::Derived { cpk } => WireKey::DerivedCPKWithoutKeySwitch {
            cpk: integer_key_to_wire(cpk, &Pke::of_blocks(block))?,
        },
        ReRandomizationKey::Legacy { ksk } => WireKey::LegacyDedicatedCPK {
            ksk: match ksk {
                None => WireKsk::UseCPKEncryptionKSK,
                Some(k) => WireKsk::DedicatedKSK(casting_key_to_wire(k)),
            },
        },
    })
}

/// A server key's material of TFHE-rs's form, for blocks of `block`.
pub(crate) fn key_from_wire(w: WireKey, block: &ShortintParameters) -> Result<ReRandomizationKey> {
    Ok(match w {
        WireKey::DerivedCPKWithoutKeySwitch { cpk } => {
            check_derived(&cpk.key.parameters, block)?;
            ReRandomizationKey::Derived {
                cpk: integer_key_from_wire(cpk, *block)?,
            }
        }
        WireKey::LegacyDedicatedCPK { ksk } => ReRandomizationKey::Legacy {
            ksk: match ksk {
                WireKsk::UseCPKEncryptionKSK => None,
                WireKsk::DedicatedKSK(m) => {
                    let key = casting_key_from_wire(m, block)?;
                    check_big(key.destination())?;
                    Some(Arc::new(key))
                }
            },
        },
    })
}

/// TFHE-rs's form of a compressed server key's material, for blocks of `block`.
pub(crate) fn compressed_key_to_wire(
    k: &CompressedReRandomizationKey,
    block: &ShortintParameters,
) -> Result<WireCompressedKey> {
    Ok(match k {
        CompressedReRandomizationKey::Derived { cpk } => {
            WireCompressedKey::DerivedCPKWithoutKeySwitch {
                cpk: integer_compressed_key_to_wire(cpk, &Pke::of_blocks(block))?,
            }
        }
        CompressedReRandomizationKey::Legacy { ksk } => WireCompressedKey::LegacyDedicatedCPK {
            ksk: match ksk {
                None => WireCompressedKsk::UseCPKEncryptionKSK,
                Some(k) => WireCompressedKsk::DedicatedKSK(compressed_casting_key_to_wire(k)),
            },
        },
    })
}

/// A compressed server key's material of TFHE-rs's form, for blocks of `block`.
pub(crate) fn compressed_key_from_wire(
    w: WireCompressedKey,
    block: &ShortintParameters,
) -> Result<CompressedReRandomizationKey> {
    Ok(match w {
        WireCompressedKey::DerivedCPKWithoutKeySwitch { cpk } => {
            check_derived(&cpk.key.parameters, block)?;
            CompressedReRandomizationKey::Derived {
                cpk: Box::new(integer_compressed_key_from_wire(cpk, *block)?),
            }
        }
        WireCompressedKey::LegacyDedicatedCPK { ksk } => CompressedReRandomizationKey::Legacy {
            ksk: match ksk {
                WireCompressedKsk::UseCPKEncryptionKSK => None,
                WireCompressedKsk::DedicatedKSK(m) => {
                    let key = compressed_casting_key_from_wire(m, block)?;
                    check_big(key.destination())?;
                    Some(Arc::new(key))
                }
            },
        },
    })
}

/// `Err` unless the encryption parameters of a derived key are those of `block`
/// (TFHE-rs derives them from the computation parameters).
fn check_derived(
    e: &super::wire::shortint::CompactPublicKeyEncryptionParameters,
    block: &ShortintParameters,
) -> Result<()> {
    let pke = super::dedicated::pke_from_wire(e, "re-randomization compact public key")?;
    if pke == Pke::of_blocks(block) && block.glwe_dimension.0 == 1 {
        Ok(())
    } else {
        Err(Error::InvalidParameter(
            "a TFHE-rs re-randomization compact public key whose parameters are not derived \
             from the server key's"
                .into(),
        ))
    }
}
