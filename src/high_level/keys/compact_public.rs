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

/// `make` applied to the key compact public keys of `client_key` encrypt under, as
/// a `shortint` client key: its dedicated compact key if it has one (returned with
/// its parameters), else its own.
fn with_encryption_key<T>(
    client_key: &ClientKey,
    make: impl FnOnce(&shortint::ClientKey) -> Result<T>,
) -> Result<(T, Option<shortint::CompactPublicKeyEncryptionParameters>)> {
    match client_key.dedicated_compact_key() {
        Some(d) => Ok((
            make(&d.as_client_key(client_key.shortint_key())?)?,
            Some(*d.parameters()),
        )),
        None => Ok((make(client_key.shortint_key())?, None)),
    }
}

/// A public key that encrypts values for the client key it was made from (see the
/// module docs).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "KeyFields")]
pub struct CompactPublicKey {
    pub(crate) tag: KeyTag,
    pub(crate) key: shortint::CompactPublicKey,
    /// The dedicated public-key parameters it encrypts with, if its client key's
    /// configuration has them (its key is then the dedicated key); not in gpufhe's
    /// own format.
    #[serde(serialize_with = "crate::high_level::lists::casting::not_dedicated_in_own_format")]
    pub(crate) dedicated: Option<shortint::CompactPublicKeyEncryptionParameters>,
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
            dedicated: None,
        })
    }
}

impl CompactPublicKey {
    /// The public key of `client_key`.
    ///
    /// # Panics
    ///
    /// If [`CompactPublicKey::try_new`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactPublicKey, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let x = FheUint8::encrypt(42u8, &public_key); // no secret needed
    /// let back: u8 = x.decrypt(&client_key);
    /// assert_eq!(back, 42);
    /// ```
    #[track_caller]
    pub fn new(client_key: &ClientKey) -> Self {
        expect_op(Self::try_new(client_key), "CompactPublicKey::new")
    }

    /// The public key of `client_key`; `Err` if the system's random generator fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactPublicKey, FheInt8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::try_new(&client_key)?;
    /// let x = FheInt8::try_encrypt(-5i8, &public_key)?;
    /// let back: i8 = x.decrypt(&client_key);
    /// assert_eq!(back, -5);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_new(client_key: &ClientKey) -> Result<Self> {
        let (key, dedicated) = with_encryption_key(client_key, shortint::CompactPublicKey::new)?;
        Ok(Self {
            tag: client_key.tag(),
            key,
            dedicated,
        })
    }

    /// The tag of the client key it encrypts for.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompactPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// assert_eq!(public_key.tag(), client_key.tag());
    /// ```
    pub fn tag(&self) -> KeyTag {
        self.tag
    }

    /// The parameters it encrypts under (as TFHE-rs's `parameters`): its client
    /// key's dedicated ones, else those of its block parameters.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompactPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// assert_eq!(public_key.parameters(), TEST_PARAMS.try_into()?);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn parameters(&self) -> shortint::CompactPublicKeyEncryptionParameters {
        self.dedicated.unwrap_or_else(|| {
            shortint::CompactPublicKeyEncryptionParameters::of_blocks(self.key.parameters())
        })
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
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, CompressedCompactPublicKey, FheUint8};
/// let client_key = ClientKey::generate(config);
/// let compressed = CompressedCompactPublicKey::new(&client_key);
/// let public_key = compressed.decompress();
/// let a = FheUint8::try_encrypt(42u8, &public_key).unwrap();
/// let b: u8 = a.decrypt(&client_key);
/// assert_eq!(b, 42);
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "CompressedKeyFields")]
pub struct CompressedCompactPublicKey {
    pub(crate) tag: KeyTag,
    pub(crate) key: shortint::CompressedCompactPublicKey,
    /// The dedicated public-key parameters it encrypts with, if its client key's
    /// configuration has them (its key is then the dedicated key); not in gpufhe's
    /// own format.
    #[serde(serialize_with = "crate::high_level::lists::casting::not_dedicated_in_own_format")]
    pub(crate) dedicated: Option<shortint::CompactPublicKeyEncryptionParameters>,
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
            dedicated: None,
        })
    }
}

impl CompressedCompactPublicKey {
    /// The compressed public key of `client_key`.
    ///
    /// # Panics
    ///
    /// If [`CompressedCompactPublicKey::try_new`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedCompactPublicKey, FheUint16};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedCompactPublicKey::new(&client_key);
    /// let x = FheUint16::encrypt(1234u16, &compressed.decompress());
    /// let back: u16 = x.decrypt(&client_key);
    /// assert_eq!(back, 1234);
    /// ```
    #[track_caller]
    pub fn new(client_key: &ClientKey) -> Self {
        expect_op(Self::try_new(client_key), "CompressedCompactPublicKey::new")
    }

    /// The compressed public key of `client_key`; `Err` if the system's random
    /// generator fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedCompactPublicKey, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedCompactPublicKey::try_new(&client_key)?;
    /// let x = FheBool::try_encrypt(true, &compressed.try_decompress()?)?;
    /// assert!(x.decrypt(&client_key));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_new(client_key: &ClientKey) -> Result<Self> {
        let (key, dedicated) =
            with_encryption_key(client_key, shortint::CompressedCompactPublicKey::new)?;
        Ok(Self {
            tag: client_key.tag(),
            key,
            dedicated,
        })
    }

    /// The public key (its mask regenerated from the seed).
    ///
    /// # Panics
    ///
    /// If [`CompressedCompactPublicKey::try_decompress`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedCompactPublicKey, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompressedCompactPublicKey::new(&client_key).decompress();
    /// assert_eq!(public_key.tag(), client_key.tag());
    /// let back: u8 = FheUint8::encrypt(200u8, &public_key).decrypt(&client_key);
    /// assert_eq!(back, 200);
    /// ```
    #[track_caller]
    pub fn decompress(&self) -> CompactPublicKey {
        expect_op(
            self.try_decompress(),
            "CompressedCompactPublicKey::decompress",
        )
    }

    /// The public key; `Err` only for a key whose fields do not match its parameters
    /// (which deserialization already refuses).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedCompactPublicKey, FheInt16};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompressedCompactPublicKey::new(&client_key).try_decompress()?;
    /// let back: i16 = FheInt16::encrypt(-300i16, &public_key).decrypt(&client_key);
    /// assert_eq!(back, -300);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_decompress(&self) -> Result<CompactPublicKey> {
        Ok(CompactPublicKey {
            tag: self.tag,
            key: self.key.decompress()?,
            dedicated: self.dedicated,
        })
    }

    /// The tag of the client key it encrypts for.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedCompactPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedCompactPublicKey::new(&client_key);
    /// assert_eq!(compressed.tag(), client_key.tag());
    /// ```
    pub fn tag(&self) -> KeyTag {
        self.tag
    }

    /// The parameters it encrypts under (as TFHE-rs's `parameters`): its client
    /// key's dedicated ones, else those of its block parameters.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedCompactPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedCompactPublicKey::new(&client_key);
    /// assert_eq!(compressed.parameters(), compressed.decompress().parameters());
    /// assert_eq!(compressed.parameters(), client_key.config().public_key_encryption_parameters()?);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn parameters(&self) -> shortint::CompactPublicKeyEncryptionParameters {
        self.dedicated.unwrap_or_else(|| {
            shortint::CompactPublicKeyEncryptionParameters::of_blocks(self.key.parameters())
        })
    }
}
