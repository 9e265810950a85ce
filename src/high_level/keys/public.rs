//! Encryption of single values with a public key: TFHE-rs's classical
//! [`PublicKey`] and [`CompressedPublicKey`], and the [`CompactPublicKey`], all
//! through [`FheEncrypt`] / [`FheTryEncrypt`] ([`PublicEncryptionKey`]).
//!
//! TFHE-rs's classical public key holds `(k N + 1) * 64 + 128` LWE encryptions of
//! zero: 131,264 ciphertexts of 2,049 words on its default parameters, 2.15 GB
//! (its compressed form keeps their bodies: about 1 MB). So `PublicKey::new` does
//! not build that key: it makes the **compact form**, the compact public key (one
//! GLWE encryption of zero, see [`crate::shortint::CompactPublicKey`]), 32,922
//! bytes serialized on the default parameters, and `CompressedPublicKey::new` the
//! compressed compact public key, 16,580 bytes. A value is then encrypted as a
//! compact list of one value and expanded at once.
//!
//! The **classical form** is TFHE-rs's key itself
//! ([`crate::shortint::ClassicalPublicKey`]): [`PublicKey::new_classical`] and
//! [`CompressedPublicKey::new_classical`] make it, and a TFHE-rs `PublicKey` or
//! `CompressedPublicKey` read with [`crate::safe_serialization`] is one. Each
//! block is the sum of a random subset of the encryptions of zero plus the
//! message, as in TFHE-rs. Only the classical form has a TFHE-rs form: writing a
//! compact-form key with [`crate::safe_serialization`] is an `Err` (gpufhe's own
//! format, [`crate::serialization`], writes both forms).
//!
//! Either form encrypts any value of its parameters; the blocks come out under
//! the client key's big key (**no server key is needed**) and the values carry the
//! client key's tag like client-key encryptions.

use super::client::ClientKey;
use super::compact_public::{CompactPublicKey, CompressedCompactPublicKey};
use super::public_forms::{
    read_compressed_public_key_form, read_public_key_form, ClassicalKey, CompressedPublicKeyForm,
    PublicKeyForm,
};
use super::tag::KeyTag;
use crate::error::{Error, Result};
use crate::high_level::integers::signed::base::{check_signed_fits, twos_complement};
use crate::high_level::integers::unsigned::base::{check_fits, wrap_to_bits};
use crate::high_level::internals::expect_op;
use crate::high_level::lists::compact::{CompactCiphertextList, DataKind};
use crate::high_level::lists::expander::Expandable;
use crate::high_level::serialization::conformance::{
    check_parameters, ConformanceParams, Conformant, VALUE_SIZE_LIMIT,
};
use crate::high_level::traits::{FheEncrypt, FheTryEncrypt};
use crate::high_level::{
    FheBool, FheInt, FheIntId, FheUint, FheUintId, SignedClear, UnsignedClear,
};
use crate::integer::U2048;
use crate::serialization::codec::SafeSerialization;
use crate::shortint;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

mod sealed {
    use super::{ClassicalKey, CompactPublicKey, KeyTag, Result};
    use std::borrow::Cow;

    /// Gives the key a public key encrypts with (restricts
    /// [`super::PublicEncryptionKey`] to the crate's keys).
    pub trait CompactKeySource {
        /// The compact public key (decompressed if need be); `Err` for a key of the
        /// classical form.
        fn compact_key(&self) -> Result<Cow<'_, CompactPublicKey>>;

        /// The classical key and its client key's tag, for a key of that form.
        fn classical_key(&self) -> Option<(KeyTag, ClassicalKey<'_>)> {
            None
        }
    }
}

/// A key that encrypts values without the secret: [`PublicKey`],
/// [`CompressedPublicKey`] and [`CompactPublicKey`]. `FheUint*`, `FheInt*` and
/// `FheBool` encrypt with each of them through [`FheEncrypt`] (wrapping wide values
/// like an `as` cast) and [`FheTryEncrypt`] (`Err` for them).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, CompactPublicKey, CompressedPublicKey, ConfigBuilder, FheUint32};
/// use gpufhe::{PublicEncryptionKey, PublicKey};
/// fn encrypt_with(key: &impl PublicEncryptionKey, value: u32) -> FheUint32 {
///     FheUint32::encrypt(value, key)
/// }
/// let client_key = ClientKey::generate(ConfigBuilder::default());
/// let a = encrypt_with(&PublicKey::new(&client_key), 1);
/// let b = encrypt_with(&CompressedPublicKey::new(&client_key), 2);
/// let c = encrypt_with(&CompactPublicKey::new(&client_key), 3);
/// let clear: Vec<u32> = [a, b, c].iter().map(|x| x.decrypt(&client_key)).collect();
/// assert_eq!(clear, vec![1, 2, 3]);
/// assert_eq!(PublicKey::new(&client_key).key_tag(), client_key.tag());
/// ```
pub trait PublicEncryptionKey: sealed::CompactKeySource {
    /// The tag of the client key it encrypts for.
    fn key_tag(&self) -> KeyTag;
}

/// A public key of one of two forms (see the module docs): the compact public key
/// ([`PublicKey::new`]: 32,922 bytes serialized on the default parameters, where
/// TFHE-rs's classical key takes 2.15 GB), or TFHE-rs's classical key
/// ([`PublicKey::new_classical`], and every TFHE-rs `PublicKey` read), the only
/// form that has TFHE-rs's serialized form. Values encrypted with either are
/// ordinary values of its client key; no server key is needed to encrypt.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, FheUint8, PublicKey};
/// let (client_key, server_key) = generate_keys(config);
/// let public_key = PublicKey::new(&client_key);
/// // Anyone with the public key:
/// let a = FheUint8::try_encrypt(255u8, &public_key).unwrap();
/// let b = FheUint8::encrypt(2u8, &public_key);
/// // The server:
/// set_server_key(server_key);
/// let sum: u8 = (&a + &b).decrypt(&client_key);
/// assert_eq!(sum, 1);
/// assert_eq!(a.tag(), Some(client_key.tag()));
/// assert!(FheUint8::try_encrypt(256u16, &public_key).is_err());
/// ```
#[derive(Debug, Clone, Serialize)]
pub struct PublicKey {
    form: PublicKeyForm,
}

impl<'de> Deserialize<'de> for PublicKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        read_public_key_form(d).map(|form| Self { form })
    }
}

impl PublicKey {
    /// The public key of `client_key`.
    ///
    /// # Panics
    ///
    /// If [`PublicKey::try_new`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheUint32, PublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = PublicKey::new(&client_key);
    /// let x = FheUint32::encrypt(123_456u32, &public_key);
    /// let back: u32 = x.decrypt(&client_key);
    /// assert_eq!(back, 123_456);
    /// ```
    #[track_caller]
    pub fn new(client_key: &ClientKey) -> Self {
        expect_op(Self::try_new(client_key), "PublicKey::new")
    }

    /// The public key of `client_key`; `Err` if the system's random generator fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheBool, PublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = PublicKey::try_new(&client_key)?;
    /// let x = FheBool::try_encrypt(false, &public_key)?;
    /// assert!(!x.decrypt(&client_key));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_new(client_key: &ClientKey) -> Result<Self> {
        CompactPublicKey::try_new(client_key).map(|key| Self {
            form: PublicKeyForm::Compact(Box::new(key)),
        })
    }

    /// TFHE-rs's classical public key of `client_key` (`(k N + 1) * 64 + 128` LWE
    /// encryptions of zero: 2.15 GB on the default parameters), which is written in
    /// TFHE-rs's form and which TFHE-rs reads as its `PublicKey`.
    ///
    /// # Panics
    ///
    /// If [`PublicKey::try_new_classical`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheUint8, PublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = PublicKey::new_classical(&client_key);
    /// assert!(public_key.is_classical());
    /// let x = FheUint8::encrypt(201u8, &public_key);
    /// let back: u8 = x.decrypt(&client_key);
    /// assert_eq!(back, 201);
    /// ```
    #[track_caller]
    pub fn new_classical(client_key: &ClientKey) -> Self {
        expect_op(
            Self::try_new_classical(client_key),
            "PublicKey::new_classical",
        )
    }

    /// [`PublicKey::new_classical`]; `Err` if the system's random generator fails
    /// or the key does not fit in the memory limit ([`crate::memory`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheInt8, PublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = PublicKey::try_new_classical(&client_key)?;
    /// let back: i8 = FheInt8::try_encrypt(-100i8, &public_key)?.decrypt(&client_key);
    /// assert_eq!(back, -100);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_new_classical(client_key: &ClientKey) -> Result<Self> {
        CompressedPublicKey::try_new_classical(client_key)?.try_decompress()
    }

    /// A key of the classical form, for the client key of `tag`.
    pub(crate) fn from_classical(tag: KeyTag, key: shortint::ClassicalPublicKey) -> Self {
        Self {
            form: PublicKeyForm::Classical {
                tag,
                key: Arc::new(key),
            },
        }
    }

    /// Its classical key, if it is of that form.
    pub(crate) fn classical(&self) -> Option<&shortint::ClassicalPublicKey> {
        match &self.form {
            PublicKeyForm::Classical { key, .. } => Some(key),
            PublicKeyForm::Compact(_) => None,
        }
    }

    /// Whether it is of the classical form (TFHE-rs's key), rather than the compact
    /// one.
    ///
    /// ```
    /// use gpufhe::{ClientKey, PublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// assert!(!PublicKey::new(&client_key).is_classical());
    /// assert!(PublicKey::new_classical(&client_key).is_classical());
    /// ```
    pub fn is_classical(&self) -> bool {
        self.classical().is_some()
    }

    /// The tag of the client key it encrypts for.
    ///
    /// ```
    /// use gpufhe::{ClientKey, PublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = PublicKey::new(&client_key);
    /// assert_eq!(public_key.tag(), client_key.tag());
    /// ```
    pub fn tag(&self) -> KeyTag {
        match &self.form {
            PublicKeyForm::Compact(key) => key.tag(),
            PublicKeyForm::Classical { tag, .. } => *tag,
        }
    }

    /// The compact public key it is, for a key of the compact form (which also
    /// builds [`CompactCiphertextList`]s of many values); `None` for the classical
    /// form.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompactCiphertextList, ConfigBuilder, PublicKey};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let public_key = PublicKey::new(&client_key);
    /// let compact = public_key.as_compact_public_key().unwrap();
    /// let list = CompactCiphertextList::builder(compact).push(1u8).push(true).build();
    /// assert_eq!(list.len(), 2);
    /// ```
    pub fn as_compact_public_key(&self) -> Option<&CompactPublicKey> {
        match &self.form {
            PublicKeyForm::Compact(key) => Some(&**key),
            PublicKeyForm::Classical { .. } => None,
        }
    }
}

/// A compressed public key of one of two forms (see the module docs): the
/// compressed compact public key ([`CompressedPublicKey::new`]: 16,580 bytes
/// serialized on the default parameters, half the [`PublicKey`] it decompresses
/// into), or TFHE-rs's compressed classical key
/// ([`CompressedPublicKey::new_classical`]: the bodies of the encryptions of zero
/// and their masks' seed, about 1 MB on the default parameters), the only form that
/// has TFHE-rs's serialized form. It also encrypts directly (regenerating its masks
/// for each value: 16 KiB of them for the compact form, the whole key's for the
/// classical one).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, CompressedPublicKey, ConfigBuilder, FheBool, FheInt16};
/// let client_key = ClientKey::generate(ConfigBuilder::default());
/// let compressed = CompressedPublicKey::new(&client_key);
/// let x = FheInt16::encrypt(-1234i16, &compressed);
/// assert_eq!(FheDecrypt::<i16>::decrypt(&x, &client_key), -1234);
/// let public_key = compressed.decompress();
/// assert!(FheBool::encrypt(true, &public_key).decrypt(&client_key));
/// assert_eq!(public_key.tag(), client_key.tag());
/// ```
#[derive(Debug, Clone, Serialize)]
pub struct CompressedPublicKey {
    form: CompressedPublicKeyForm,
}

impl<'de> Deserialize<'de> for CompressedPublicKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        read_compressed_public_key_form(d).map(|form| Self { form })
    }
}

impl CompressedPublicKey {
    /// The compressed public key of `client_key`.
    ///
    /// # Panics
    ///
    /// If [`CompressedPublicKey::try_new`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedPublicKey, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedPublicKey::new(&client_key);
    /// let x = FheUint8::encrypt(250u8, &compressed); // decompressed for each value
    /// let back: u8 = x.decrypt(&client_key);
    /// assert_eq!(back, 250);
    /// ```
    #[track_caller]
    pub fn new(client_key: &ClientKey) -> Self {
        expect_op(Self::try_new(client_key), "CompressedPublicKey::new")
    }

    /// The compressed public key of `client_key`; `Err` if the system's random
    /// generator fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedPublicKey, FheInt32};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedPublicKey::try_new(&client_key)?;
    /// let x = FheInt32::try_encrypt(-70_000i32, &compressed)?;
    /// let back: i32 = x.decrypt(&client_key);
    /// assert_eq!(back, -70_000);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_new(client_key: &ClientKey) -> Result<Self> {
        CompressedCompactPublicKey::try_new(client_key).map(|key| Self {
            form: CompressedPublicKeyForm::Compact(Box::new(key)),
        })
    }

    /// TFHE-rs's compressed classical public key of `client_key`: the bodies of
    /// `(k N + 1) * 64 + 128` LWE encryptions of zero and the seed of their masks
    /// (TFHE-rs's AES-CTR stream), which TFHE-rs reads as its
    /// `CompressedPublicKey`.
    ///
    /// # Panics
    ///
    /// If [`CompressedPublicKey::try_new_classical`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedPublicKey, FheUint16};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedPublicKey::new_classical(&client_key);
    /// let back: u16 = FheUint16::encrypt(4321u16, &compressed).decrypt(&client_key);
    /// assert_eq!(back, 4321);
    /// assert!(compressed.decompress().is_classical());
    /// ```
    #[track_caller]
    pub fn new_classical(client_key: &ClientKey) -> Self {
        expect_op(
            Self::try_new_classical(client_key),
            "CompressedPublicKey::new_classical",
        )
    }

    /// [`CompressedPublicKey::new_classical`]; `Err` if the system's random
    /// generator fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedPublicKey, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedPublicKey::try_new_classical(&client_key)?;
    /// assert!(FheBool::try_encrypt(true, &compressed)?.decrypt(&client_key));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_new_classical(client_key: &ClientKey) -> Result<Self> {
        let key = shortint::CompressedClassicalPublicKey::new(client_key.shortint_key())?;
        Ok(Self::from_classical(client_key.tag(), key))
    }

    /// A key of the classical form, for the client key of `tag`.
    pub(crate) fn from_classical(tag: KeyTag, key: shortint::CompressedClassicalPublicKey) -> Self {
        Self {
            form: CompressedPublicKeyForm::Classical {
                tag,
                key: Arc::new(key),
            },
        }
    }

    /// Its classical key, if it is of that form.
    pub(crate) fn classical(&self) -> Option<&shortint::CompressedClassicalPublicKey> {
        match &self.form {
            CompressedPublicKeyForm::Classical { key, .. } => Some(key),
            CompressedPublicKeyForm::Compact(_) => None,
        }
    }

    /// Whether it is of the classical form (TFHE-rs's key).
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// assert!(!CompressedPublicKey::new(&client_key).is_classical());
    /// assert!(CompressedPublicKey::new_classical(&client_key).is_classical());
    /// ```
    pub fn is_classical(&self) -> bool {
        self.classical().is_some()
    }

    /// The public key, its mask regenerated from the seed.
    ///
    /// # Panics
    ///
    /// If [`CompressedPublicKey::try_decompress`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedPublicKey, ConfigBuilder, FheUint8};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let public_key = CompressedPublicKey::new(&client_key).decompress();
    /// let x = FheUint8::encrypt(9u8, &public_key);
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 9);
    /// ```
    #[track_caller]
    pub fn decompress(&self) -> PublicKey {
        expect_op(self.try_decompress(), "CompressedPublicKey::decompress")
    }

    /// The public key (of the same form); `Err` if a classical key does not fit in
    /// the memory limit ([`crate::memory`]: 2.15 GB on the default parameters), or
    /// for a key whose fields do not match its parameters (which deserialization
    /// already refuses).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedPublicKey, FheUint16};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompressedPublicKey::new(&client_key).try_decompress()?;
    /// let x = FheUint16::encrypt(4321u16, &public_key);
    /// let back: u16 = x.decrypt(&client_key);
    /// assert_eq!(back, 4321);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_decompress(&self) -> Result<PublicKey> {
        match &self.form {
            CompressedPublicKeyForm::Compact(key) => key.try_decompress().map(|key| PublicKey {
                form: PublicKeyForm::Compact(Box::new(key)),
            }),
            CompressedPublicKeyForm::Classical { tag, key } => {
                Ok(PublicKey::from_classical(*tag, key.decompress()?))
            }
        }
    }

    /// The tag of the client key it encrypts for.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedPublicKey::new(&client_key);
    /// assert_eq!(compressed.tag(), client_key.tag());
    /// ```
    pub fn tag(&self) -> KeyTag {
        match &self.form {
            CompressedPublicKeyForm::Compact(key) => key.tag(),
            CompressedPublicKeyForm::Classical { tag, .. } => *tag,
        }
    }
}

/// `Err` for a key of the classical form asked for its compact key.
fn no_compact_key<T>() -> Result<T> {
    Err(Error::InvalidParameter(
        "a public key of the classical form has no compact public key".into(),
    ))
}

impl sealed::CompactKeySource for CompactPublicKey {
    fn compact_key(&self) -> Result<Cow<'_, CompactPublicKey>> {
        Ok(Cow::Borrowed(self))
    }
}

impl sealed::CompactKeySource for PublicKey {
    fn compact_key(&self) -> Result<Cow<'_, CompactPublicKey>> {
        match &self.form {
            PublicKeyForm::Compact(key) => Ok(Cow::Borrowed(&**key)),
            PublicKeyForm::Classical { .. } => no_compact_key(),
        }
    }

    fn classical_key(&self) -> Option<(KeyTag, ClassicalKey<'_>)> {
        self.classical()
            .map(|key| (self.tag(), ClassicalKey::Plain(key)))
    }
}

impl sealed::CompactKeySource for CompressedPublicKey {
    fn compact_key(&self) -> Result<Cow<'_, CompactPublicKey>> {
        match &self.form {
            CompressedPublicKeyForm::Compact(key) => key.try_decompress().map(Cow::Owned),
            CompressedPublicKeyForm::Classical { .. } => no_compact_key(),
        }
    }

    fn classical_key(&self) -> Option<(KeyTag, ClassicalKey<'_>)> {
        self.classical()
            .map(|key| (self.tag(), ClassicalKey::Compressed(key)))
    }
}

impl PublicEncryptionKey for CompactPublicKey {
    fn key_tag(&self) -> KeyTag {
        self.tag()
    }
}

impl PublicEncryptionKey for PublicKey {
    fn key_tag(&self) -> KeyTag {
        self.tag()
    }
}

impl PublicEncryptionKey for CompressedPublicKey {
    fn key_tag(&self) -> KeyTag {
        self.tag()
    }
}

/// One value of `kind` (its low bits in `bits`) encrypted with `key`: a compact list
/// of one value, expanded.
fn encrypt_value<T: Expandable>(
    key: &impl PublicEncryptionKey,
    kind: DataKind,
    bits: U2048,
) -> Result<T> {
    if let Some((tag, classical)) = key.classical_key() {
        return classical.encrypt_value(tag, kind, bits);
    }
    let key = key.compact_key()?;
    let mut builder = CompactCiphertextList::builder(&key);
    builder.push_kind(kind, bits);
    builder
        .try_build()?
        .expand()?
        .get(0)?
        .ok_or_else(|| Error::InvalidParameter("an empty compact list".into()))
}

impl<Id, T, K> FheTryEncrypt<T, K> for FheUint<Id>
where
    Id: FheUintId,
    T: UnsignedClear,
    K: PublicEncryptionKey,
{
    /// `Err` if `value` has more than `Id::BITS` bits.
    fn try_encrypt(value: T, key: &K) -> Result<Self> {
        let value = value.to_wide();
        check_fits(value, Id::BITS, Id::NAME)?;
        encrypt_value(key, DataKind::Unsigned(Id::BITS), value)
    }
}

impl<Id, T, K> FheEncrypt<T, K> for FheUint<Id>
where
    Id: FheUintId,
    T: UnsignedClear,
    K: PublicEncryptionKey,
{
    /// Encrypts the low `Id::BITS` bits of `value`.
    #[track_caller]
    fn encrypt(value: T, key: &K) -> Self {
        let value = wrap_to_bits(value.to_wide(), Id::BITS);
        expect_op(
            encrypt_value(key, DataKind::Unsigned(Id::BITS), value),
            "encrypt",
        )
    }
}

impl<Id, T, K> FheTryEncrypt<T, K> for FheInt<Id>
where
    Id: FheIntId,
    T: SignedClear,
    K: PublicEncryptionKey,
{
    /// `Err` if `value` is out of the range of the type.
    fn try_encrypt(value: T, key: &K) -> Result<Self> {
        let (value, bits) = (value.to_wide(), Self::bits());
        check_signed_fits(value, bits, Id::NAME)?;
        encrypt_value(key, DataKind::Signed(bits), twos_complement(value, bits))
    }
}

impl<Id, T, K> FheEncrypt<T, K> for FheInt<Id>
where
    Id: FheIntId,
    T: SignedClear,
    K: PublicEncryptionKey,
{
    /// Encrypts the low bits of `value` (like `value as i8` for an `FheInt8`).
    #[track_caller]
    fn encrypt(value: T, key: &K) -> Self {
        let bits = Self::bits();
        let value = twos_complement(value.to_wide(), bits);
        expect_op(encrypt_value(key, DataKind::Signed(bits), value), "encrypt")
    }
}

impl<K: PublicEncryptionKey> FheTryEncrypt<bool, K> for FheBool {
    /// Never fails for a well-formed key (unless the OS random source fails).
    fn try_encrypt(value: bool, key: &K) -> Result<Self> {
        encrypt_value(key, DataKind::Boolean, value.into())
    }
}

impl<K: PublicEncryptionKey> FheEncrypt<bool, K> for FheBool {
    #[track_caller]
    fn encrypt(value: bool, key: &K) -> Self {
        expect_op(Self::try_encrypt(value, key), "encrypt")
    }
}

/// The [`SafeSerialization`] name and the [`Conformant`] check (that of the compact
/// key it wraps: the configuration's parameters and, if a key was given, its tag) of
/// each public key.
macro_rules! wrapped_key_impls {
    ($($key:ident $form:ident),*) => {$(
        impl SafeSerialization for $key {
            const TYPE_NAME: &'static str = stringify!($key);
            const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
        }

        impl Conformant for $key {
            fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
                match &self.form {
                    $form::Compact(key) => key.conforms_to(params),
                    $form::Classical { tag, key } => {
                        params.check_tag("the public key", Some(*tag))?;
                        check_parameters(key.parameters(), params)
                    }
                }
            }
        }
    )*};
}
wrapped_key_impls!(PublicKey PublicKeyForm, CompressedPublicKey CompressedPublicKeyForm);
