//! The traits that make and open encrypted values: encryption (with a key or
//! trivial), decryption, and casts between encrypted types (all in
//! [`crate::prelude`]). They sit below the value types, which implement them.

use crate::error::Result;
use crate::high_level::internals::expect_op;
use crate::high_level::keys::client::ClientKey;

/// Encryption of a clear value with a key, wrapping values wider than the type like
/// an `as` cast (see [`FheTryEncrypt`] for the checked form).
pub trait FheEncrypt<T, Key>: Sized {
    /// Encrypts `value` under `key`.
    ///
    /// # Panics
    ///
    /// Only if the key's encryption fails, which it does not for a well-formed key.
    fn encrypt(value: T, key: &Key) -> Self;
}

/// Encryption that returns `Err` when `value` does not fit the type.
pub trait FheTryEncrypt<T, Key>: Sized {
    /// Encrypts `value` under `key`; `Err` if it does not fit.
    fn try_encrypt(value: T, key: &Key) -> Result<Self>;
}

/// Decryption into a clear type, wrapping like an `as` cast when the value is wider.
pub trait FheDecrypt<T> {
    /// Decrypts with `key`.
    ///
    /// # Panics
    ///
    /// If the value was encrypted under another client key (see [`FheTryDecrypt`]).
    fn decrypt(&self, key: &ClientKey) -> T;
}

/// Decryption that returns `Err` instead of panicking or wrapping.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, ConfigBuilder, FheUint16};
/// let client_key = ClientKey::generate(ConfigBuilder::default());
/// let x = FheUint16::encrypt(300u16, &client_key);
/// assert_eq!(FheTryDecrypt::<u16>::try_decrypt(&x, &client_key).unwrap(), 300);
/// assert!(FheTryDecrypt::<u8>::try_decrypt(&x, &client_key).is_err()); // too wide
/// let wrapped: u8 = x.decrypt(&client_key); // FheDecrypt wraps instead
/// assert_eq!(wrapped, 44);
/// ```
pub trait FheTryDecrypt<T> {
    /// Decrypts with `key`; `Err` if the value belongs to another client key or does
    /// not fit in `T`.
    fn try_decrypt(&self, key: &ClientKey) -> Result<T>;
}

/// Trivial encryption: a noiseless value anyone can read, which needs no key. It
/// belongs to no client key and can be combined with values of any key. As a right
/// operand it counts as a clear value (`x & trivial(0)` costs no bootstrap); an
/// operation on trivial values alone costs no bootstrap.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{FheBool, FheUint8};
/// let x = FheUint8::encrypt_trivial(0x1234u16); // no key needed; wraps to 0x34
/// assert!(x.is_trivial() && x.tag().is_none());
/// assert_eq!(x.try_decrypt_trivial::<u8>().unwrap(), 0x34);
/// assert!(FheUint8::try_encrypt_trivial(0x1234u16).is_err());
/// assert!(FheBool::encrypt_trivial(true).try_decrypt_trivial().unwrap());
/// ```
pub trait FheTrivialEncrypt<T>: Sized {
    /// The trivial encryption of `value`, wrapping like an `as` cast.
    fn encrypt_trivial(value: T) -> Self;
}

/// Trivial encryption that returns `Err` when `value` does not fit the type.
pub trait FheTryTrivialEncrypt<T>: Sized {
    /// The trivial encryption of `value`; `Err` if it does not fit.
    fn try_encrypt_trivial(value: T) -> Result<Self>;
}

/// Conversion between encrypted types: integers are truncated or zero-extended like
/// an `as` cast, a boolean becomes 0 or 1, an integer becomes the boolean `!= 0`.
pub trait CastFrom<T>: Sized {
    /// The conversion of `value`; `Err` on failure.
    fn try_cast_from(value: T) -> Result<Self>;

    /// The conversion of `value`.
    ///
    /// # Panics
    ///
    /// If [`CastFrom::try_cast_from`] fails.
    #[track_caller]
    fn cast_from(value: T) -> Self {
        expect_op(Self::try_cast_from(value), "cast")
    }
}

/// The other direction of [`CastFrom`] (implemented for every [`CastFrom`]).
pub trait CastInto<T> {
    /// The conversion of `self`; `Err` on failure.
    fn try_cast_into(self) -> Result<T>;

    /// The conversion of `self`.
    ///
    /// # Panics
    ///
    /// If [`CastInto::try_cast_into`] fails.
    fn cast_into(self) -> T;
}

impl<T, U: CastFrom<T>> CastInto<U> for T {
    fn try_cast_into(self) -> Result<U> {
        U::try_cast_from(self)
    }

    #[track_caller]
    fn cast_into(self) -> U {
        U::cast_from(self)
    }
}
