//! Moving blocks from one client key to another: [`KeySwitchingKey`], a keyswitching
//! key from the big LWE key of one [`ClientKey`] to the big LWE key of another of the
//! same encoding. A switched block carries the switch's noise on top of its own; the
//! high level bootstraps it with the destination's server key before returning it
//! (`gpufhe::KeySwitchingKey`).

use super::{Ciphertext, ClientKey};
use crate::core_crypto::{
    generate_lwe_keyswitch_key, keyswitch_lwe_ciphertext, DecompositionBaseLog,
    DecompositionLevelCount, EncryptionRandomGenerator, LweCiphertextOwned, LweKeyswitchKey,
};
use crate::error::{Error, Result};

/// Which key of the destination the blocks are switched to (TFHE-rs's
/// `EncryptionKeyChoice`). This crate's blocks always live under the big key, so
/// only [`EncryptionKeyChoice::Big`] is supported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EncryptionKeyChoice {
    /// The big LWE key (the GLWE key seen as an LWE key).
    Big,
    /// The small LWE key (not supported: key switching then fails).
    Small,
}

/// The decomposition of a keyswitch between two key sets (TFHE-rs's
/// `ShortintKeySwitchingParameters`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShortintKeySwitchingParameters {
    /// The logarithm of the decomposition base.
    pub ks_base_log: DecompositionBaseLog,
    /// The number of decomposition levels.
    pub ks_level: DecompositionLevelCount,
    /// The destination key ([`EncryptionKeyChoice::Big`]).
    pub destination_key: EncryptionKeyChoice,
}

/// The keyswitch between two key sets of the default parameters: to the
/// destination's big key, with the decomposition of the default parameters'
/// keyswitch (`2^4`, 4 levels). TFHE-rs's set of this name switches to the small key
/// instead; the bootstrap that follows gives the same kind of block either way.
pub const PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: ShortintKeySwitchingParameters =
    ShortintKeySwitchingParameters {
        ks_base_log: DecompositionBaseLog(4),
        ks_level: DecompositionLevelCount(4),
        destination_key: EncryptionKeyChoice::Big,
    };

/// A keyswitching key from one client key's blocks to another's.
///
/// ```
/// use gpufhe::shortint::{ClientKey, KeySwitchingKey, PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let (from, to) = (ClientKey::new(PARAMETERS)?, ClientKey::new(PARAMETERS)?);
/// let ksk = KeySwitchingKey::new(&from, &to, PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128)?;
/// let switched = ksk.keyswitch(&from.encrypt(3)?)?;
/// assert_eq!(to.decrypt(&switched)?, 3);
/// # Ok::<(), gpufhe::Error>(())
/// ```
///
/// Serialized as its keyswitching key and destination parameters (the
/// destination's big LWE dimension times the decomposition levels times the
/// source's big LWE dimension coefficients, about 256 MiB on the default
/// parameters); reading one back checks the parameters and the key's shape.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "KeySwitchingKeyParts")]
pub struct KeySwitchingKey {
    key: LweKeyswitchKey,
    /// The destination's maximum noise level: switched blocks are marked with it, so
    /// that they are bootstrapped before any linear operation.
    max_noise_level: u64,
    destination: super::ShortintParameters,
}

/// A [`KeySwitchingKey`] as read, before its checks.
#[derive(serde::Deserialize)]
struct KeySwitchingKeyParts {
    key: LweKeyswitchKey,
    max_noise_level: u64,
    destination: super::ShortintParameters,
}

impl TryFrom<KeySwitchingKeyParts> for KeySwitchingKey {
    type Error = Error;

    /// `Err` unless the destination parameters are valid, and the key switches to
    /// their big LWE key and marks blocks with their maximum noise level.
    fn try_from(parts: KeySwitchingKeyParts) -> Result<Self> {
        parts.destination.validate()?;
        if parts.key.shape().output_lwe_dimension != parts.destination.big_lwe_dimension()
            || parts.max_noise_level != parts.destination.max_noise_level
        {
            return Err(Error::InvalidParameter(
                "the keyswitching key does not switch to its destination parameters".into(),
            ));
        }
        Ok(Self {
            key: parts.key,
            max_noise_level: parts.max_noise_level,
            destination: parts.destination,
        })
    }
}

impl KeySwitchingKey {
    /// A key switching blocks of `from` to `to`; `Err` unless both encode messages
    /// alike (the same message and carry moduli), the destination is the big key
    /// and the decomposition is valid, or if the OS random source fails.
    pub fn new(
        from: &ClientKey,
        to: &ClientKey,
        parameters: ShortintKeySwitchingParameters,
    ) -> Result<Self> {
        let (p_from, p_to) = (from.parameters(), to.parameters());
        if (p_from.message_modulus, p_from.carry_modulus)
            != (p_to.message_modulus, p_to.carry_modulus)
        {
            return Err(Error::InvalidParameter(format!(
                "key switching needs keys of the same encoding: {}x{} blocks to {}x{} blocks",
                p_from.message_modulus,
                p_from.carry_modulus,
                p_to.message_modulus,
                p_to.carry_modulus
            )));
        }
        if parameters.destination_key != EncryptionKeyChoice::Big {
            return Err(Error::InvalidParameter(
                "key switching to the small key is not supported: blocks live under the big key"
                    .into(),
            ));
        }
        let mut rng = EncryptionRandomGenerator::from_os()?;
        let key = generate_lwe_keyswitch_key(
            from.big_lwe_secret_key(),
            to.big_lwe_secret_key(),
            parameters.ks_base_log,
            parameters.ks_level,
            p_to.glwe_noise_distribution,
            &mut rng,
        )?;
        Ok(Self {
            key,
            max_noise_level: p_to.max_noise_level,
            destination: *p_to,
        })
    }

    /// `block` (under the source key) under the destination key, with the switch's
    /// noise added: bootstrap it before computing on it. `Err` if the block is not
    /// of the source key's size.
    pub fn keyswitch(&self, block: &Ciphertext) -> Result<Ciphertext> {
        let mut out =
            LweCiphertextOwned::new_zero(self.destination.big_lwe_dimension().to_lwe_size());
        keyswitch_lwe_ciphertext(&self.key, &block.ct, &mut out)?;
        Ok(Ciphertext::from_parts(
            out,
            block.degree,
            self.max_noise_level,
            &self.destination,
        ))
    }

    /// The destination's block parameters.
    pub fn destination_parameters(&self) -> &super::ShortintParameters {
        &self.destination
    }

    /// A key switching with `key` to the big key of `destination`; `Err` as when
    /// one is read (the parameters invalid, or `key` switches to another size).
    pub(crate) fn from_key(
        key: LweKeyswitchKey,
        destination: super::ShortintParameters,
    ) -> Result<Self> {
        Self::try_from(KeySwitchingKeyParts {
            key,
            max_noise_level: destination.max_noise_level,
            destination,
        })
    }

    /// The LWE keyswitching key.
    pub(crate) fn lwe_keyswitch_key(&self) -> &LweKeyswitchKey {
        &self.key
    }
}
