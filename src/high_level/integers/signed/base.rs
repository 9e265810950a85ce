//! Encrypted signed integers: [`FheInt<Id>`], one type per width (the widths are in
//! `static_`), two's complement over the blocks of the unsigned type of the same
//! width; its clear types, encryption and decryption.

use crate::error::{Error, Result};
use crate::high_level::integers::unsigned::base::UnsignedView;
use crate::high_level::integers::unsigned::base::{
    sealed, wrap_to_bits, FheUint, FheUintId, UnsignedClear,
};
use crate::high_level::internals::expect_op;
use crate::high_level::internals::storage::Storage;
use crate::high_level::keys::client::ClientKey;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::traits::{
    FheDecrypt, FheEncrypt, FheTrivialEncrypt, FheTryDecrypt, FheTryEncrypt, FheTryTrivialEncrypt,
};
use crate::integer::bigint::{StaticSignedBigInt, I2048, U1024, U2048, U256, U512};
use crate::integer::sign_extend_wide;
use crate::scheduler::Device;
use serde::{Deserialize, Serialize};

/// The clear signed types (`i8` to `i128`, and [`I256`](crate::integer::I256) ... [`I2048`]) that
/// encrypt into and decrypt from encrypted signed integers.
pub trait SignedClear: Copy + Send + Sync + 'static + sealed::Sealed {
    /// The width in bits.
    const BITS: u32;
    /// The low 128 bits of the value, sign included (all of it up to `i128`).
    fn to_i128(self) -> i128;
    /// The low bits of `value`, like an `as` cast.
    fn from_i128_wrapping(value: i128) -> Self;
    /// The value as an [`I2048`], the widest signed clear value.
    fn to_wide(self) -> I2048;
    /// The low bits of `value`, like an `as` cast.
    fn from_wide_wrapping(value: I2048) -> Self;
}

macro_rules! signed_clear {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl SignedClear for $t {
            const BITS: u32 = <$t>::BITS;
            fn to_i128(self) -> i128 {
                self as i128
            }
            fn from_i128_wrapping(value: i128) -> Self {
                value as $t
            }
            fn to_wide(self) -> I2048 {
                I2048::from(self)
            }
            fn from_wide_wrapping(value: I2048) -> Self {
                value.as_unsigned().low_u128() as $t
            }
        }
    )*};
}
signed_clear!(i8, i16, i32, i64, i128);

/// The wide signed clear types, `StaticSignedBigInt<N>` of the named widths.
macro_rules! wide_signed_clear {
    ($($n:literal),*) => {$(
        impl sealed::Sealed for StaticSignedBigInt<$n> {}
        impl SignedClear for StaticSignedBigInt<$n> {
            const BITS: u32 = Self::BITS;
            fn to_i128(self) -> i128 {
                self.as_unsigned().low_u128() as i128
            }
            fn from_i128_wrapping(value: i128) -> Self {
                Self::from(value)
            }
            fn to_wide(self) -> I2048 {
                self.resize()
            }
            fn from_wide_wrapping(value: I2048) -> Self {
                value.resize()
            }
        }
    )*};
}
wide_signed_clear!(4, 8, 16, 32);

/// The width of an [`FheInt`]: one zero-sized type per width.
pub trait FheIntId:
    Copy + Default + std::fmt::Debug + Send + Sync + 'static + sealed::Sealed
{
    /// The name of the encrypted type, e.g. `"FheInt8"` (used in serialized headers).
    const NAME: &'static str;
    /// The clear type of the same width.
    type Clear: SignedClear;
    /// The unsigned width of as many bits, whose blocks, storage and circuits the
    /// signed type shares.
    type Unsigned: FheUintId;
}

/// An encrypted signed integer of `Id::Unsigned::BITS` bits in two's complement (use
/// the aliases [`FheInt8`](crate::FheInt8) ... [`FheInt128`](crate::FheInt128)). Arithmetic wraps around like
/// `wrapping_*` on the clear type (division truncates toward zero, `MIN / -1` is
/// `MIN`); comparisons, `min`/`max` and `>>` (which copies the sign) follow the
/// signed order, overflow flags the signed range; casts sign-extend.
///
/// Everything else is as for [`FheUint`]: the key tag, the thread's server key, the
/// `try_` forms that return errors instead of panicking, trivial encryption,
/// devices and serialization.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{FheInt16, FheInt8};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = gpufhe::generate_keys(config);
/// gpufhe::set_server_key(server_key);
/// let a = FheInt8::encrypt(-100i8, &client_key);
/// let b = FheInt8::encrypt(50i8, &client_key);
/// let sum: i8 = (&a - &b).decrypt(&client_key); // wraps like i8::wrapping_sub
/// assert_eq!(sum, 106);
/// assert!(a.lt(&b).decrypt(&client_key)); // signed order
/// let wide: FheInt16 = a.cast_into(); // sign extension
/// assert_eq!(FheDecrypt::<i16>::decrypt(&wide, &client_key), -100);
/// ```
pub struct FheInt<Id: FheIntId> {
    pub(crate) inner: FheUint<Id::Unsigned>,
}

impl<Id: FheIntId> Clone for FheInt<Id> {
    fn clone(&self) -> Self {
        Self::from_inner(self.inner.clone())
    }
}

impl<Id: FheIntId> std::fmt::Debug for FheInt<Id> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.tag() {
            Some(tag) => write!(f, "{} {{ tag: {tag}, .. }}", Id::NAME),
            None => write!(f, "{} {{ trivial, .. }}", Id::NAME),
        }
    }
}

/// The two's complement bits of `value` in the width of `Id`.
pub(crate) fn clear_bits<Id: FheIntId>(value: Id::Clear) -> U2048 {
    twos_complement(value.to_wide(), FheInt::<Id>::bits())
}

/// The `bits` low bits of `value` in two's complement.
pub(crate) fn twos_complement(value: I2048, bits: u32) -> U2048 {
    wrap_to_bits(value.as_unsigned(), bits)
}

/// `Err` unless `value` is in the range of a `bits`-bit signed integer.
pub(crate) fn check_signed_fits(value: I2048, bits: u32, what: &str) -> Result<()> {
    if sign_extend_wide(value.as_unsigned(), bits) == value {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "{value} does not fit in {what} ({bits} bits, signed)"
        )))
    }
}

impl<Id: FheIntId> FheInt<Id> {
    pub(crate) fn from_inner(inner: FheUint<Id::Unsigned>) -> Self {
        Self { inner }
    }

    pub(crate) fn from_storage(storage: Storage) -> Self {
        Self::from_inner(FheUint::from_storage(storage))
    }

    /// Its re-randomization metadata (TFHE-rs's accessor): bytes that a
    /// [`crate::ReRandomizationContext`] hashes with the value.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheInt8;
    /// let mut a = FheInt8::encrypt_trivial(-3i8);
    /// a.re_randomization_metadata_mut().set_data(b"origin");
    /// assert_eq!(a.re_randomization_metadata().data(), b"origin");
    /// ```
    pub fn re_randomization_metadata(&self) -> &crate::high_level::ReRandomizationMetadata {
        self.inner.re_randomization_metadata()
    }

    /// Its re-randomization metadata, to change.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheInt8;
    /// let mut a = FheInt8::encrypt_trivial(-3i8);
    /// a.re_randomization_metadata_mut().set_data(b"x");
    /// assert_eq!(a.re_randomization_metadata().data(), b"x");
    /// ```
    pub fn re_randomization_metadata_mut(
        &mut self,
    ) -> &mut crate::high_level::ReRandomizationMetadata {
        self.inner.re_randomization_metadata_mut()
    }

    /// The width in bits.
    ///
    /// ```
    /// assert_eq!(gpufhe::FheInt16::bits(), 16);
    /// ```
    pub const fn bits() -> u32 {
        <Id::Unsigned as FheUintId>::BITS
    }

    /// The bits of the value as the unsigned type of the same width (no bootstrap,
    /// like `x as u8` for an `i8`).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheInt8;
    /// let x = FheInt8::encrypt_trivial(-1i8);
    /// assert_eq!(x.as_unsigned().try_decrypt_trivial::<u8>().unwrap(), -1i8 as u8);
    /// ```
    pub fn as_unsigned(&self) -> &FheUint<Id::Unsigned> {
        &self.inner
    }

    /// The value whose two's complement bits are those of `value` (no bootstrap, like
    /// `x as i8` for a `u8`).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheInt8, FheUint8};
    /// let x = FheInt8::from_unsigned_bits(FheUint8::encrypt_trivial(200u8));
    /// assert_eq!(x.try_decrypt_trivial::<i8>().unwrap(), 200u8 as i8);
    /// ```
    pub fn from_unsigned_bits(value: FheUint<Id::Unsigned>) -> Self {
        Self::from_inner(value)
    }

    /// The tag of the client key it was encrypted under, `None` if it is a trivial
    /// encryption (which works with every key).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheInt8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let x = FheInt8::encrypt(-5i8, &client_key);
    /// assert_eq!(x.tag(), Some(client_key.tag()));
    /// assert_eq!(FheInt8::encrypt_trivial(-5i8).tag(), None);
    /// ```
    pub fn tag(&self) -> Option<KeyTag> {
        self.inner.tag()
    }

    /// Whether it is a trivial encryption (readable without a key).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheInt8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// assert!(FheInt8::encrypt_trivial(-5i8).is_trivial());
    /// assert!(!FheInt8::encrypt(-5i8, &client_key).is_trivial());
    /// ```
    pub fn is_trivial(&self) -> bool {
        self.inner.is_trivial()
    }

    /// The value of a trivial encryption; `Err` if it is a real encryption.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheInt16;
    /// let x = FheInt16::encrypt_trivial(-1234i16);
    /// assert_eq!(x.try_decrypt_trivial::<i16>().unwrap(), -1234);
    /// ```
    pub fn try_decrypt_trivial<Clear: SignedClear>(&self) -> Result<Clear> {
        let bits: U2048 = self.inner.try_decrypt_trivial()?;
        Ok(Clear::from_wide_wrapping(sign_extend_wide(
            bits,
            Self::bits(),
        )))
    }

    /// Where its blocks live (see [`FheUint::current_device`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{Device, FheInt8};
    /// assert_eq!(FheInt8::encrypt_trivial(-5i8).current_device(), Device::Cpu);
    /// ```
    pub fn current_device(&self) -> Device {
        self.inner.current_device()
    }

    /// Moves its blocks to `device` (see [`FheUint::move_to_device`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{Device, FheInt8, GpuIndex};
    /// let mut x = FheInt8::encrypt_trivial(-5i8);
    /// assert!(x.move_to_device(Device::Cpu).is_ok()); // already there
    /// // A trivial value stays on the CPU, but a GPU that does not exist is an error.
    /// assert!(x.move_to_device(Device::CudaGpu(GpuIndex::new(u32::MAX))).is_err());
    /// ```
    pub fn move_to_device(&mut self, device: Device) -> Result<()> {
        self.inner.move_to_device(device)
    }

    /// `Err` unless the value is well formed (see [`FheUint::validate`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheInt8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// assert!(FheInt8::encrypt(-5i8, &client_key).validate().is_ok());
    /// assert!(FheInt8::encrypt_trivial(-5i8).validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.inner.validate()
    }

    /// The value of decrypted or trivial bits, as a signed `T` (wrapping).
    fn signed_value(&self, key: &ClientKey) -> Result<I2048> {
        let bits = key.decrypt_storage(&self.inner.storage)?;
        Ok(sign_extend_wide(bits, Self::bits()))
    }
}

impl<Id: FheIntId> UnsignedView for FheInt<Id> {
    type Bits = Id::Unsigned;

    fn unsigned_view(&self) -> &FheUint<Id::Unsigned> {
        &self.inner
    }

    fn from_unsigned_view(bits: FheUint<Id::Unsigned>) -> Self {
        Self::from_inner(bits)
    }
}

impl<Id: FheIntId, T: SignedClear> FheTryEncrypt<T, ClientKey> for FheInt<Id> {
    /// `Err` if `value` is out of the range of the type.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, ConfigBuilder, FheInt8};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// assert!(FheInt8::try_encrypt(-128i64, &client_key).is_ok());
    /// assert!(FheInt8::try_encrypt(128i64, &client_key).is_err());
    /// ```
    fn try_encrypt(value: T, key: &ClientKey) -> Result<Self> {
        let value = value.to_wide();
        check_signed_fits(value, Self::bits(), Id::NAME)?;
        let bits = twos_complement(value, Self::bits());
        Ok(Self::from_storage(key.encrypt_storage(bits, Self::bits())?))
    }
}

impl<Id: FheIntId, T: SignedClear> FheEncrypt<T, ClientKey> for FheInt<Id> {
    /// Encrypts the low bits of `value` (like `value as i8` for [`FheInt8`](crate::FheInt8)).
    #[track_caller]
    fn encrypt(value: T, key: &ClientKey) -> Self {
        let bits = twos_complement(value.to_wide(), Self::bits());
        expect_op(
            key.encrypt_storage(bits, Self::bits())
                .map(Self::from_storage),
            "encrypt",
        )
    }
}

impl<Id: FheIntId, T: SignedClear> FheTryDecrypt<T> for FheInt<Id> {
    /// `Err` if the value belongs to another client key or does not fit in `T`.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, ConfigBuilder, FheInt16};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = FheInt16::encrypt(-300i16, &client_key);
    /// assert_eq!(FheTryDecrypt::<i16>::try_decrypt(&x, &client_key).unwrap(), -300);
    /// assert!(FheTryDecrypt::<i8>::try_decrypt(&x, &client_key).is_err());
    /// ```
    fn try_decrypt(&self, key: &ClientKey) -> Result<T> {
        let value = self.signed_value(key)?;
        check_signed_fits(value, T::BITS, "the clear type")?;
        Ok(T::from_wide_wrapping(value))
    }
}

impl<Id: FheIntId, T: SignedClear> FheDecrypt<T> for FheInt<Id> {
    /// The value, wrapped to `T` like an `as` cast (sign-extended to a wider `T`).
    #[track_caller]
    fn decrypt(&self, key: &ClientKey) -> T {
        expect_op(self.signed_value(key).map(T::from_wide_wrapping), "decrypt")
    }
}

impl<Id: FheIntId, T: SignedClear> FheTrivialEncrypt<T> for FheInt<Id> {
    /// The low bits of `value`, unencrypted; needs no key.
    fn encrypt_trivial(value: T) -> Self {
        let bits = twos_complement(value.to_wide(), Self::bits());
        Self::from_storage(Storage::trivial(bits))
    }
}

impl<Id: FheIntId, T: SignedClear> FheTryTrivialEncrypt<T> for FheInt<Id> {
    /// `Err` if `value` is out of the range of the type.
    fn try_encrypt_trivial(value: T) -> Result<Self> {
        let value = value.to_wide();
        check_signed_fits(value, Self::bits(), Id::NAME)?;
        Ok(Self::encrypt_trivial(value))
    }
}

/// [`FheTrivialEncrypt`] and [`FheTryTrivialEncrypt`] of [`FheInt<Id>`] from the
/// unsigned clears, as TFHE-rs accepts any integer: the low bits of the value (the
/// `try_` form is `Err` if the value is above the maximum of the type).
macro_rules! trivial_from_unsigned {
    ($($t:ty),*) => {$(
        impl<Id: FheIntId> FheTrivialEncrypt<$t> for FheInt<Id> {
            /// The low bits of `value`, unencrypted; needs no key.
            fn encrypt_trivial(value: $t) -> Self {
                let bits = wrap_to_bits(value.to_wide(), Self::bits());
                Self::from_storage(Storage::trivial(bits))
            }
        }

        impl<Id: FheIntId> FheTryTrivialEncrypt<$t> for FheInt<Id> {
            /// `Err` if `value` is above the maximum of the type.
            fn try_encrypt_trivial(value: $t) -> Result<Self> {
                if !value.to_wide().fits_in(Self::bits() - 1) {
                    return Err(Error::InvalidParameter(format!(
                        "{value} does not fit in {} ({} bits, signed)",
                        Id::NAME,
                        Self::bits()
                    )));
                }
                Ok(Self::encrypt_trivial(value))
            }
        }
    )*};
}
trivial_from_unsigned!(u8, u16, u32, u64, u128, U256, U512, U1024, U2048);

/// Writes the key tag and the blocks (or the bits of a trivial encryption).
impl<Id: FheIntId> Serialize for FheInt<Id> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.inner.serialize(s)
    }
}

/// Runs [`FheInt::validate`] on what was read.
impl<'de, Id: FheIntId> Deserialize<'de> for FheInt<Id> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        FheUint::deserialize(d).map(Self::from_inner)
    }
}
