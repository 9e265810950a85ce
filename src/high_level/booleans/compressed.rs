//! A compressed [`FheBool`]: [`CompressedFheBool`].

use super::base::FheBool;
use crate::error::Result;
use crate::high_level::internals::compressed::CompressedStorage;
use crate::high_level::internals::expect_op;
use crate::high_level::keys::client::ClientKey;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::serialization::conformance::{
    ConformanceParams, Conformant, VALUE_SIZE_LIMIT,
};
use crate::high_level::traits::{FheEncrypt, FheTryEncrypt};
use crate::serialization::codec::SafeSerialization;
use serde::{Deserialize, Serialize};

/// A compressed [`FheBool`]: encrypted with a seed by the client key (one block's
/// body and the seed of its mask), or compressed by [`FheBool::compress`].
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::CompressedFheBool;
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = gpufhe::generate_keys(config);
/// gpufhe::set_server_key(server_key);
/// let a = CompressedFheBool::encrypt(true, &client_key).decompress();
/// let b = CompressedFheBool::try_encrypt(false, &client_key).unwrap().try_decompress().unwrap();
/// assert!((&a ^ &b).decrypt(&client_key));
/// assert_eq!(CompressedFheBool::encrypt(true, &client_key).tag(), client_key.tag());
/// ```
#[derive(Clone)]
pub struct CompressedFheBool {
    storage: CompressedStorage,
}

impl std::fmt::Debug for CompressedFheBool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CompressedFheBool {{ tag: {}, .. }}", self.tag())
    }
}

impl CompressedFheBool {
    pub(crate) fn from_storage(storage: CompressedStorage) -> Self {
        Self { storage }
    }

    pub(crate) fn compressed_storage(&self) -> &CompressedStorage {
        &self.storage
    }

    /// The tag of the client key it was encrypted under.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{CompressedFheBool, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = gpufhe::ClientKey::generate(config);
    /// let x = CompressedFheBool::encrypt(true, &client_key);
    /// assert_eq!(x.tag(), client_key.tag());
    /// ```
    pub fn tag(&self) -> KeyTag {
        self.storage.tag
    }

    /// The [`FheBool`] it stands for (see [`CompressedFheUint::decompress`](crate::CompressedFheUint::decompress)).
    ///
    /// # Panics
    ///
    /// If [`CompressedFheBool::try_decompress`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{CompressedFheBool, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = gpufhe::ClientKey::generate(config);
    /// let x = CompressedFheBool::encrypt(false, &client_key);
    /// assert!(!x.decompress().decrypt(&client_key));
    /// ```
    #[track_caller]
    pub fn decompress(&self) -> FheBool {
        expect_op(self.try_decompress(), "decompress")
    }

    /// [`CompressedFheBool::decompress`], with `Err` instead of a panic (see
    /// [`CompressedFheUint::try_decompress`](crate::CompressedFheUint::try_decompress)).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheBool, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = CompressedFheBool::encrypt(true, &client_key);
    /// assert!(x.validate().is_ok());
    /// assert!(x.try_decompress()?.decrypt(&client_key));
    /// assert!(x.decompress().decrypt(&client_key));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_decompress(&self) -> Result<FheBool> {
        Ok(FheBool::from_storage(self.storage.decompress(1)?))
    }

    /// `Err` unless the value is well formed: one block, moduli that are powers of
    /// two.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{CompressedFheBool, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = gpufhe::ClientKey::generate(config);
    /// assert!(CompressedFheBool::encrypt(true, &client_key).validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.storage.validate(1)
    }
}

impl FheTryEncrypt<bool, ClientKey> for CompressedFheBool {
    /// Never fails for a well-formed key (unless the OS random source fails).
    fn try_encrypt(value: bool, key: &ClientKey) -> Result<Self> {
        let storage = CompressedStorage::encrypt(key, value.into(), 1)?;
        Ok(Self { storage })
    }
}

impl FheEncrypt<bool, ClientKey> for CompressedFheBool {
    #[track_caller]
    fn encrypt(value: bool, key: &ClientKey) -> Self {
        expect_op(Self::try_encrypt(value, key), "encrypt")
    }
}

/// Writes the key tag, the moduli, the seed and the body.
impl Serialize for CompressedFheBool {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.storage.serialize(s)
    }
}

/// Runs [`CompressedFheBool::validate`] on what was read.
impl<'de> Deserialize<'de> for CompressedFheBool {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        CompressedStorage::deserialize_checked(d, 1).map(|storage| Self { storage })
    }
}

impl Conformant for CompressedFheBool {
    /// One block of the configuration's parameters and, if a key was given, its tag.
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        self.storage.conforms_to(params, 1)
    }
}

impl FheBool {
    /// The value compressed by the server key of the thread (see
    /// [`FheUint::compress`](crate::FheUint::compress)).
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_compress`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let lt = FheUint8::encrypt(3u8, &client_key).lt(7u8);
    /// assert!(lt.compress().decompress().decrypt(&client_key));
    /// assert!(gpufhe::FheBool::encrypt_trivial(true).try_compress().is_err());
    /// ```
    #[track_caller]
    pub fn compress(&self) -> CompressedFheBool {
        expect_op(self.try_compress(), "compress")
    }

    /// [`FheBool::compress`]; `Err` as [`FheUint::try_compress`](crate::FheUint::try_compress).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{CompressedFheBool, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let x = FheBool::encrypt(true, &client_key);
    /// assert!(x.try_compress().unwrap().decompress().decrypt(&client_key));
    /// ```
    pub fn try_compress(&self) -> Result<CompressedFheBool> {
        CompressedStorage::compress(self.input()).map(|storage| CompressedFheBool { storage })
    }
}

impl SafeSerialization for CompressedFheBool {
    const TYPE_NAME: &'static str = "CompressedFheBool";
    const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
    fn expanded_bytes(&self) -> u64 {
        self.storage.expanded_bytes()
    }
}

/// The [`ConformanceParams`] of a `CompressedFheBool` (TFHE-rs's name).
pub type CompressedFheBoolConformanceParams = ConformanceParams;
