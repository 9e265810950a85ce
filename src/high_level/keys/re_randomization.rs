//! The re-randomization key material of server keys (TFHE-rs 1.8's
//! `ReRandomizationKey` and its compressed form), made from the client key when
//! its configuration enables re-randomization. The server key's side of
//! [`crate::ReRandomize`] is in `high_level::re_randomization`.

use super::client::ClientKey;
use crate::error::{Error, Result};
use crate::shortint::{self, ReRandomizationParameters};
use std::sync::Arc;

/// A server key's re-randomization key material.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ReRandomizationKey {
    /// The keyswitch from the dedicated compact public key's secret to the big key:
    /// `None` when it is the casting key of compact lists
    /// (TFHE-rs's `UseCPKEncryptionKSK`), else a key of its own.
    Legacy {
        ksk: Option<Arc<shortint::CastingKey>>,
    },
    /// A compact public key of the computation's big key.
    Derived { cpk: shortint::CompactPublicKey },
}

/// [`ReRandomizationKey`] with seeded masks.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum CompressedReRandomizationKey {
    /// As [`ReRandomizationKey::Legacy`].
    Legacy {
        ksk: Option<Arc<shortint::CompressedCastingKey>>,
    },
    /// As [`ReRandomizationKey::Derived`].
    Derived {
        cpk: Box<shortint::CompressedCompactPublicKey>,
    },
}

impl CompressedReRandomizationKey {
    /// The material of `client_key`'s configuration, if it enables re-randomization.
    pub(crate) fn new(client_key: &ClientKey) -> Result<Option<Self>> {
        let config = client_key.config();
        let Some(parameters) = config.re_randomization_parameters() else {
            return Ok(None);
        };
        let key = match parameters {
            ReRandomizationParameters::DerivedCPKWithoutKeySwitch => Self::Derived {
                cpk: Box::new(shortint::CompressedCompactPublicKey::new(
                    client_key.shortint_key(),
                )?),
            },
            ReRandomizationParameters::LegacyDedicatedCPKWithKeySwitch { rerand_ksk_params } => {
                let dedicated = client_key.dedicated_compact_key().ok_or_else(|| {
                    Error::InvalidParameter(
                        "legacy re-randomization needs a client key with a dedicated compact \
                         secret key"
                            .into(),
                    )
                })?;
                let ksk = if *dedicated.casting_parameters() == rerand_ksk_params {
                    None
                } else {
                    let key = dedicated
                        .compressed_keyswitch_key(client_key.shortint_key(), &rerand_ksk_params)?;
                    Some(Arc::new(key))
                };
                Self::Legacy { ksk }
            }
        };
        Ok(Some(key))
    }

    /// The material with its masks regenerated.
    pub(crate) fn decompress(&self) -> Result<ReRandomizationKey> {
        Ok(match self {
            Self::Derived { cpk } => ReRandomizationKey::Derived {
                cpk: cpk.decompress()?,
            },
            Self::Legacy { ksk } => ReRandomizationKey::Legacy {
                ksk: ksk.as_ref().map(|k| Arc::new(k.decompress())),
            },
        })
    }
}
