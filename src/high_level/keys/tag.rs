//! [`KeyTag`]: which client key a server key or a value belongs to.

use crate::core_crypto::sha256::sha256;
use crate::core_crypto::Seed;
use crate::error::{Error, Result};
use crate::high_level::config::Config;
use crate::serialization::codec::payload_bytes;
use serde::{Deserialize, Serialize};

/// The random 64-bit identifier of a client key. Its server keys and every value
/// encrypted under it carry it, so that values of different keys are never mixed:
/// combining them, or decrypting with another client key, is an
/// [`Error::KeyMismatch`]. A tag is public (it is not derived from the secret key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct KeyTag(u64);

impl KeyTag {
    /// A fresh random tag from the operating system.
    pub(crate) fn random() -> Result<Self> {
        loop {
            let seed = Seed::from_os()?;
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&seed.0[..8]);
            // 0 stands for TFHE-rs's empty tag (`KeyTag::UNTAGGED`).
            if let Some(tag) = Self::from_nonzero(u64::from_le_bytes(bytes)) {
                return Ok(tag);
            }
        }
    }

    /// The tag of keys and values that carry none: TFHE-rs's keys and values
    /// have an empty tag unless their user sets one.
    pub(crate) const UNTAGGED: KeyTag = KeyTag(0);

    /// The tag `value`, `None` for 0 (which is [`KeyTag::UNTAGGED`]).
    pub(crate) fn from_nonzero(value: u64) -> Option<Self> {
        (value != 0).then_some(Self(value))
    }

    /// The tag of `value` as written in TFHE-rs's data (0 is
    /// [`KeyTag::UNTAGGED`]).
    pub(crate) fn from_value(value: u64) -> Self {
        Self(value)
    }

    /// The tag of the client key that `seed` and `config` generate
    /// ([`ClientKey::generate_with_seed`](super::ClientKey::generate_with_seed)):
    /// the first 8 bytes of the SHA-256 digest of a domain label, the seed and the
    /// configuration's serialized bytes (its block and compression parameters), so
    /// that two configurations, which give different secret keys from one seed,
    /// also give different tags (with probability 1 - 2^-64), and the same seed and
    /// configuration give the same tag on every machine and release.
    pub(crate) fn seeded(seed: u128, config: &Config) -> Result<Self> {
        let mut material = b"gpufhe:key-tag:v2".to_vec();
        material.extend_from_slice(&seed.to_le_bytes());
        material.extend_from_slice(&payload_bytes(config, "configuration")?);
        let digest = sha256(&material);
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&digest[..8]);
        // 0 is TFHE-rs's empty tag; a digest starting with 8 zero bytes (chance
        // 2^-64) takes the next one.
        Ok(Self(u64::from_le_bytes(bytes).max(1)))
    }

    /// The tag as a number.
    ///
    /// ```
    /// use gpufhe::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let tag = ClientKey::generate(config).tag();
    /// assert_eq!(tag.to_string(), format!("{:#018x}", tag.value())); // as it is displayed
    /// ```
    pub fn value(self) -> u64 {
        self.0
    }

    /// `Err(KeyMismatch)` naming `what` unless `got` is this tag.
    pub(crate) fn check(self, what: &'static str, got: KeyTag) -> Result<()> {
        if self == got {
            Ok(())
        } else {
            Err(Error::KeyMismatch {
                what,
                expected: self.0,
                got: got.0,
            })
        }
    }
}

impl std::fmt::Display for KeyTag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#018x}", self.0)
    }
}
