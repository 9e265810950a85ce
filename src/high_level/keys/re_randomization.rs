//! The re-randomization key material of server keys (TFHE-rs 1.8's
//! `ReRandomizationKey` and its compressed form), made from the client key when
//! its configuration enables re-randomization, and the server key's side of
//! [`crate::ReRandomize`]. Re-randomization runs on the CPU threads (the
//! encryptions of zero, the keyswitch of the legacy mode and the sums), also for a
//! `CudaServerKey`: a value on a GPU is copied to the host, re-randomized there,
//! and moves back to a GPU with the next operation that needs it.

use super::client::ClientKey;
use super::compact_public::CompactPublicKey;
use super::compressed_server::CompressedServerKey;
use super::server::ServerKey;
use crate::error::{Error, Result};
use crate::high_level::global_state::current_server_key;
use crate::high_level::re_randomization::ReRandomizationMode;
use crate::shortint::re_randomization::re_randomize_blocks;
use crate::shortint::{self, EncryptionKeyChoice, ReRandomizationParameters, ReRandomizationSeed};
use std::sync::Arc;

/// What a server key can re-randomize with (TFHE-rs's `ReRandomizationSupport`).
///
/// ```
/// use gpufhe::{ReRandomizationSupport, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (_client_key, server_key) = gpufhe::generate_keys(config);
/// assert_eq!(server_key.re_randomization_support(), ReRandomizationSupport::NoSupport);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReRandomizationSupport {
    /// The key cannot re-randomize.
    NoSupport,
    /// The key re-randomizes with a dedicated compact public key the caller passes
    /// (deprecated in TFHE-rs).
    LegacyDedicatedCPKWithKeySwitch,
    /// The key holds a compact public key of its computation key and needs nothing
    /// from the caller.
    DerivedCPKWithoutKeySwitch,
}

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
        cpk: shortint::CompressedCompactPublicKey,
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
                cpk: shortint::CompressedCompactPublicKey::new(client_key.shortint_key())?,
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

impl ServerKey {
    /// What it can re-randomize with (TFHE-rs's method of this name): the legacy
    /// mode needs the casting key when its keyswitch is the casting one.
    ///
    /// ```
    /// use gpufhe::shortint::parameters::ReRandomizationParameters;
    /// use gpufhe::{ConfigBuilder, ReRandomizationSupport};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let config = ConfigBuilder::default()
    ///     .with_insecure_custom_parameters(TEST_PARAMS)?
    ///     .enable_ciphertext_re_randomization(ReRandomizationParameters::DerivedCPKWithoutKeySwitch);
    /// let (_client_key, server_key) = gpufhe::generate_keys(config);
    /// assert_eq!(
    ///     server_key.re_randomization_support(),
    ///     ReRandomizationSupport::DerivedCPKWithoutKeySwitch
    /// );
    /// assert!(server_key.supports_ciphertext_re_randomization());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn re_randomization_support(&self) -> ReRandomizationSupport {
        match self.re_randomization_key() {
            None => ReRandomizationSupport::NoSupport,
            Some(ReRandomizationKey::Derived { .. }) => {
                ReRandomizationSupport::DerivedCPKWithoutKeySwitch
            }
            Some(ReRandomizationKey::Legacy { ksk }) => {
                if ksk.is_some() || self.casting_key().is_some() {
                    ReRandomizationSupport::LegacyDedicatedCPKWithKeySwitch
                } else {
                    ReRandomizationSupport::NoSupport
                }
            }
        }
    }

    /// Whether it can re-randomize ciphertexts.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (_client_key, server_key) = gpufhe::generate_keys(config);
    /// assert!(!server_key.supports_ciphertext_re_randomization());
    /// ```
    pub fn supports_ciphertext_re_randomization(&self) -> bool {
        self.re_randomization_support() != ReRandomizationSupport::NoSupport
    }

    /// [`ServerKey::re_randomization_support`] of the current thread's server key;
    /// `Err` if there is none.
    ///
    /// ```
    /// use gpufhe::{set_server_key, ReRandomizationSupport, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// gpufhe::unset_server_key();
    /// assert!(ServerKey::current_server_key_re_randomization_support().is_err());
    /// let (_client_key, server_key) = gpufhe::generate_keys(config);
    /// set_server_key(server_key);
    /// let support = ServerKey::current_server_key_re_randomization_support()?;
    /// assert_eq!(support, ReRandomizationSupport::NoSupport);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn current_server_key_re_randomization_support() -> Result<ReRandomizationSupport> {
        Ok(current_server_key()?.re_randomization_support())
    }

    /// Re-randomizes `blocks` (of this key's parameters) with `seed` in `mode`:
    /// `Err` if the key cannot, if the legacy mode is not given a dedicated compact
    /// public key of its parameters, or if a block does not fit.
    pub(crate) fn re_randomize_blocks(
        &self,
        blocks: &mut [shortint::Ciphertext],
        mode: ReRandomizationMode<'_>,
        seed: ReRandomizationSeed,
    ) -> Result<()> {
        let p = self.config().parameters();
        match self.re_randomization_key() {
            None => Err(Error::InvalidParameter(
                "the server key does not support re-randomization (its configuration did not \
                 enable_ciphertext_re_randomization)"
                    .into(),
            )),
            Some(ReRandomizationKey::Derived { cpk }) => {
                re_randomize_blocks(blocks, cpk, None, p, seed)
            }
            Some(ReRandomizationKey::Legacy { ksk }) => {
                let ReRandomizationMode::UseLegacyCPKIfNeeded { cpk } = mode else {
                    return Err(Error::InvalidParameter(
                        "the server key re-randomizes with a dedicated compact public key \
                         (legacy mode) and none was given"
                            .into(),
                    ));
                };
                let ksk = match ksk {
                    Some(k) => &**k,
                    None => self.casting_key().ok_or_else(|| {
                        Error::InvalidParameter(
                            "the server key's legacy re-randomization uses its casting key, \
                             which it does not have"
                                .into(),
                        )
                    })?,
                };
                check_legacy_key(cpk, ksk)?;
                re_randomize_blocks(blocks, &cpk.key, Some(ksk.lwe_keyswitch_key()), p, seed)
            }
        }
    }
}

/// `Err` unless `cpk` is a dedicated compact public key of `ksk`'s parameters and
/// `ksk` switches to the big key.
fn check_legacy_key(cpk: &CompactPublicKey, ksk: &shortint::CastingKey) -> Result<()> {
    if ksk.destination() != EncryptionKeyChoice::Big {
        return Err(Error::InvalidParameter(
            "re-randomization's keyswitch must target the big key".into(),
        ));
    }
    if cpk.dedicated != Some(*ksk.parameters()) {
        return Err(Error::InvalidParameter(
            "the compact public key given for re-randomization is not the dedicated key of \
             the server key's re-randomization keyswitch (other parameters)"
                .into(),
        ));
    }
    Ok(())
}

impl CompressedServerKey {
    /// Its re-randomization material with the masks regenerated, if it has some.
    pub(crate) fn expand_re_randomization(&self) -> Result<Option<Arc<ReRandomizationKey>>> {
        self.re_randomization_key()
            .map(|k| k.decompress().map(Arc::new))
            .transpose()
    }
}
