//! Compact public keys: a [`CompactPublicKey`] made from the client key encrypts
//! values for it without the secret, one block per coefficient of a GLWE ciphertext
//! (see [`crate::shortint::CompactPublicKey`] for the scheme and its noise), into a
//! [`CompactCiphertextList`](crate::CompactCiphertextList) or a single value. Its
//! compressed form ([`CompressedCompactPublicKey`]) stores the seed of its mask.
//!
//! Sizes on the default parameters, serialized with each library's safe
//! serialization (`cd compare && cargo run --release --example public_key_sizes`,
//! TFHE-rs 1.8.2 on its default parameters): the public key takes 32,925 bytes here
//! and 33,034 in TFHE-rs; its compressed form, 16,583 and 16,732.

use super::client::ClientKey;
use super::tag::KeyTag;
use crate::error::{Error, Result};
use crate::high_level::internals::expect_op;
use crate::shortint;
use serde::{Deserialize, Serialize};

/// A public key that encrypts values for the client key it was made from (see the
/// module docs).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "KeyFields")]
pub struct CompactPublicKey {
    pub(crate) tag: KeyTag,
    pub(crate) key: shortint::CompactPublicKey,
}

#[derive(Deserialize)]
struct KeyFields {
    tag: KeyTag,
    key: shortint::CompactPublicKey,
}

impl TryFrom<KeyFields> for CompactPublicKey {
    type Error = Error;
    fn try_from(fields: KeyFields) -> Result<Self> {
        fields.key.validate()?;
        Ok(Self {
            tag: fields.tag,
            key: fields.key,
        })
    }
}

impl CompactPublicKey {
    /// The public key of `client_key`.
    ///
    /// # Panics
    ///
    /// If [`CompactPublicKey::try_new`] fails.
    #[track_caller]
    pub fn new(client_key: &ClientKey) -> Self {
        expect_op(Self::try_new(client_key), "CompactPublicKey::new")
    }

    /// The public key of `client_key`; `Err` if the system's random generator fails.
    pub fn try_new(client_key: &ClientKey) -> Result<Self> {
        Ok(Self {
            tag: client_key.tag(),
            key: shortint::CompactPublicKey::new(client_key.shortint_key())?,
        })
    }

    /// The tag of the client key it encrypts for.
    pub fn tag(&self) -> KeyTag {
        self.tag
    }

    /// The parameters it encrypts under (as TFHE-rs's `parameters`): the block
    /// parameters of its client key, since this crate's compact public keys encrypt
    /// under them.
    pub fn parameters(&self) -> shortint::CompactPublicKeyEncryptionParameters {
        *self.key.parameters()
    }
}

/// A [`CompactPublicKey`] in about half the size, for sending it: its public mask
/// replaced by the 32-byte seed it was drawn from (16,583 bytes instead of 32,925
/// serialized on the default parameters; TFHE-rs 1.8.2's takes 16,732).
/// [`CompressedCompactPublicKey::decompress`] gives the public key back: it grows
/// (k + 1)×, 2× on the default parameters, to `(k + 1) N` words, at most a few MiB
/// for any valid parameters.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, CompressedCompactPublicKey, ConfigBuilder, FheUint8};
/// let (client_key, _server_key) = generate_keys(ConfigBuilder::default());
/// let compressed = CompressedCompactPublicKey::new(&client_key);
/// let public_key = compressed.decompress();
/// let a = FheUint8::try_encrypt(42u8, &public_key).unwrap();
/// let b: u8 = a.decrypt(&client_key);
/// assert_eq!(b, 42);
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "CompressedKeyFields")]
pub struct CompressedCompactPublicKey {
    tag: KeyTag,
    key: shortint::CompressedCompactPublicKey,
}

#[derive(Deserialize)]
struct CompressedKeyFields {
    tag: KeyTag,
    key: shortint::CompressedCompactPublicKey,
}

impl TryFrom<CompressedKeyFields> for CompressedCompactPublicKey {
    type Error = Error;
    fn try_from(fields: CompressedKeyFields) -> Result<Self> {
        fields.key.validate()?;
        Ok(Self {
            tag: fields.tag,
            key: fields.key,
        })
    }
}

impl CompressedCompactPublicKey {
    /// The compressed public key of `client_key`.
    ///
    /// # Panics
    ///
    /// If [`CompressedCompactPublicKey::try_new`] fails.
    #[track_caller]
    pub fn new(client_key: &ClientKey) -> Self {
        expect_op(Self::try_new(client_key), "CompressedCompactPublicKey::new")
    }

    /// The compressed public key of `client_key`; `Err` if the system's random
    /// generator fails.
    pub fn try_new(client_key: &ClientKey) -> Result<Self> {
        Ok(Self {
            tag: client_key.tag(),
            key: shortint::CompressedCompactPublicKey::new(client_key.shortint_key())?,
        })
    }

    /// The public key (its mask regenerated from the seed).
    ///
    /// # Panics
    ///
    /// If [`CompressedCompactPublicKey::try_decompress`] fails.
    #[track_caller]
    pub fn decompress(&self) -> CompactPublicKey {
        expect_op(
            self.try_decompress(),
            "CompressedCompactPublicKey::decompress",
        )
    }

    /// The public key; `Err` only for a key whose fields do not match its parameters
    /// (which deserialization already refuses).
    pub fn try_decompress(&self) -> Result<CompactPublicKey> {
        Ok(CompactPublicKey {
            tag: self.tag,
            key: self.key.decompress()?,
        })
    }

    /// The tag of the client key it encrypts for.
    pub fn tag(&self) -> KeyTag {
        self.tag
    }

    /// The parameters it encrypts under (as TFHE-rs's `parameters`): the block
    /// parameters of its client key, since this crate's compact public keys encrypt
    /// under them.
    pub fn parameters(&self) -> shortint::CompactPublicKeyEncryptionParameters {
        *self.key.parameters()
    }
}
