//! Compressed signed values ([`CompressedFheInt`]), as compressed unsigned values of
//! the same width (see `integers::unsigned::compressed`).

use super::base::{check_signed_fits, twos_complement, FheInt, FheIntId, SignedClear};
use super::static_::signed_widths;
use super::static_::*;
use crate::error::Result;
use crate::high_level::integers::unsigned::compressed::{compressed_types, CompressedFheUint};
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

/// A compressed [`FheInt`], as [`CompressedFheUint`] is a compressed [`FheUint`](crate::FheUint)
/// (two's complement on the same blocks): encrypted with a seed by the client key,
/// or compressed by [`FheInt::compress`]. Use the aliases [`CompressedFheInt8`] ...
/// [`CompressedFheInt128`].
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::CompressedFheInt16;
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = gpufhe::generate_keys(config);
/// gpufhe::set_server_key(server_key);
/// let x = CompressedFheInt16::encrypt(-300i16, &client_key).decompress();
/// let y: i16 = (&x * 3i16).decrypt(&client_key);
/// assert_eq!(y, -900);
/// assert!(CompressedFheInt16::try_encrypt(40_000i32, &client_key).is_err());
/// ```
pub struct CompressedFheInt<Id: FheIntId> {
    inner: CompressedFheUint<Id::Unsigned>,
}

impl<Id: FheIntId> Clone for CompressedFheInt<Id> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

impl<Id: FheIntId> std::fmt::Debug for CompressedFheInt<Id> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Compressed{} {{ tag: {}, .. }}", Id::NAME, self.tag())
    }
}

impl<Id: FheIntId> CompressedFheInt<Id> {
    /// The tag of the client key it was encrypted under.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{CompressedFheInt8, FheInt8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = gpufhe::ClientKey::generate(config);
    /// let x = CompressedFheInt8::encrypt(-3i8, &client_key);
    /// assert_eq!(x.tag(), client_key.tag());
    /// ```
    pub fn tag(&self) -> KeyTag {
        self.inner.tag()
    }

    /// The [`FheInt`] it stands for (see [`CompressedFheUint::decompress`]).
    ///
    /// # Panics
    ///
    /// If [`CompressedFheInt::try_decompress`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheInt64, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = CompressedFheInt64::encrypt(i64::MIN, &client_key).decompress();
    /// assert_eq!(FheDecrypt::<i64>::decrypt(&x, &client_key), i64::MIN);
    /// ```
    #[track_caller]
    pub fn decompress(&self) -> FheInt<Id> {
        expect_op(self.try_decompress(), "decompress")
    }

    /// [`CompressedFheInt::decompress`], with `Err` instead of a panic (see
    /// [`CompressedFheUint::try_decompress`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheInt32, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = CompressedFheInt32::encrypt(-5i32, &client_key);
    /// assert!(x.validate().is_ok());
    /// assert_eq!(x.tag(), client_key.tag());
    /// assert_eq!(FheDecrypt::<i32>::decrypt(&x.try_decompress()?, &client_key), -5);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_decompress(&self) -> Result<FheInt<Id>> {
        self.inner.try_decompress().map(FheInt::from_inner)
    }

    /// `Err` unless the value is well formed (see [`CompressedFheUint::validate`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{CompressedFheInt8, FheInt8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = gpufhe::ClientKey::generate(config);
    /// let x = CompressedFheInt8::encrypt(-3i8, &client_key);
    /// assert!(x.validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.inner.validate()
    }
}

impl<Id: FheIntId, T: SignedClear> FheTryEncrypt<T, ClientKey> for CompressedFheInt<Id> {
    /// `Err` if `value` is out of the range of the type.
    fn try_encrypt(value: T, key: &ClientKey) -> Result<Self> {
        let (value, bits) = (value.to_wide(), FheInt::<Id>::bits());
        check_signed_fits(value, bits, Id::NAME)?;
        let inner = CompressedStorage::encrypt(key, twos_complement(value, bits), bits)?;
        Ok(Self {
            inner: CompressedFheUint::from_storage(inner),
        })
    }
}

impl<Id: FheIntId, T: SignedClear> FheEncrypt<T, ClientKey> for CompressedFheInt<Id> {
    /// Encrypts the low bits of `value` (like `value as i8` for
    /// [`CompressedFheInt8`]).
    #[track_caller]
    fn encrypt(value: T, key: &ClientKey) -> Self {
        let bits = FheInt::<Id>::bits();
        let inner = CompressedStorage::encrypt(key, twos_complement(value.to_wide(), bits), bits);
        Self {
            inner: CompressedFheUint::from_storage(expect_op(inner, "encrypt")),
        }
    }
}

/// Writes the key tag, the moduli, the seed and the bodies.
impl<Id: FheIntId> Serialize for CompressedFheInt<Id> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.inner.serialize(s)
    }
}

/// Runs [`CompressedFheInt::validate`] on what was read.
impl<'de, Id: FheIntId> Deserialize<'de> for CompressedFheInt<Id> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        CompressedFheUint::deserialize(d).map(|inner| Self { inner })
    }
}

impl<Id: FheIntId> Conformant for CompressedFheInt<Id> {
    /// As [`CompressedFheUint`]'s.
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        self.inner.conforms_to(params)
    }
}

impl<Id: FheIntId> FheInt<Id> {
    /// The value compressed by the server key of the thread (see
    /// [`FheUint::compress`](crate::FheUint::compress)).
    ///
    /// # Panics
    ///
    /// If [`FheInt::try_compress`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheInt8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let x = -FheInt8::encrypt(100i8, &client_key);
    /// let back: i8 = x.compress().decompress().decrypt(&client_key);
    /// assert_eq!(back, -100);
    /// ```
    #[track_caller]
    pub fn compress(&self) -> CompressedFheInt<Id> {
        expect_op(self.try_compress(), "compress")
    }

    /// [`FheInt::compress`]; `Err` as [`FheUint::try_compress`](crate::FheUint::try_compress).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{CompressedFheInt8, FheInt8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let x = FheInt8::encrypt(-3i8, &client_key);
    /// let back: i8 = x.try_compress().unwrap().decompress().decrypt(&client_key);
    /// assert_eq!(back, -3);
    /// assert!(FheInt8::encrypt_trivial(1i8).try_compress().is_err());
    /// ```
    pub fn try_compress(&self) -> Result<CompressedFheInt<Id>> {
        self.as_unsigned()
            .try_compress()
            .map(|inner| CompressedFheInt { inner })
    }
}

impl<Id: FheIntId> CompressedFheInt<Id> {
    pub(crate) fn compressed_storage(&self) -> &CompressedStorage {
        self.inner.compressed_storage()
    }

    pub(crate) fn from_storage(storage: CompressedStorage) -> Self {
        Self {
            inner: CompressedFheUint::from_storage(storage),
        }
    }
}

/// The compressed alias of each width.
macro_rules! compressed_aliases {
    ($($name:ident, $id:ident, $clear:ty, $unsigned:ty, $c:ident, $p:ident, $cp:ident;)*) => {
        compressed_types! {
            $($c, $cp, CompressedFheInt, $id, $name;)*
        }
    };
}
signed_widths!(compressed_aliases);
