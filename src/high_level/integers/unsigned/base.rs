//! Encrypted unsigned integers: [`FheUint<Id>`], one type per width (the widths are
//! in `static_`), its clear types, encryption and decryption.

use crate::error::{Error, Result};
use crate::high_level::internals::expect_op;
use crate::high_level::internals::storage::{Input, Storage};
use crate::high_level::keys::client::ClientKey;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::traits::{
    FheDecrypt, FheEncrypt, FheTrivialEncrypt, FheTryDecrypt, FheTryEncrypt, FheTryTrivialEncrypt,
};
use crate::integer::bigint::{StaticUnsignedBigInt, U2048, U256};
use crate::scheduler::Device;
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

pub(crate) mod sealed {
    /// Restricts a public trait to the crate's own implementations.
    pub trait Sealed {}
}

/// The clear unsigned types (`u8` to `u128`, and [`U256`] ... [`U2048`]) that
/// encrypt into and decrypt from encrypted integers.
pub trait UnsignedClear: Copy + Send + Sync + 'static + sealed::Sealed {
    /// The width in bits.
    const BITS: u32;
    /// The low 128 bits of the value (all of it up to `u128`).
    fn to_u128(self) -> u128;
    /// The low bits of `value`, like an `as` cast.
    fn from_u128_wrapping(value: u128) -> Self;
    /// The low 256 bits of the value, as a [`U256`].
    fn to_u256(self) -> U256;
    /// The low bits of `value`, like an `as` cast.
    fn from_u256_wrapping(value: U256) -> Self;
    /// The value as a [`U2048`], the widest clear value.
    fn to_wide(self) -> U2048;
    /// The low bits of `value`, like an `as` cast.
    fn from_wide_wrapping(value: U2048) -> Self;
}

macro_rules! unsigned_clear {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl UnsignedClear for $t {
            const BITS: u32 = <$t>::BITS;
            fn to_u128(self) -> u128 {
                self as u128
            }
            fn from_u128_wrapping(value: u128) -> Self {
                value as $t
            }
            fn to_u256(self) -> U256 {
                U256::from(self)
            }
            fn from_u256_wrapping(value: U256) -> Self {
                value.low_u128() as $t
            }
            fn to_wide(self) -> U2048 {
                U2048::from(self)
            }
            fn from_wide_wrapping(value: U2048) -> Self {
                value.low_u128() as $t
            }
        }
    )*};
}
unsigned_clear!(u8, u16, u32, u64, u128);

/// The wide clear types, `StaticUnsignedBigInt<N>` of the named widths.
macro_rules! wide_unsigned_clear {
    ($($n:literal),*) => {$(
        impl sealed::Sealed for StaticUnsignedBigInt<$n> {}
        impl UnsignedClear for StaticUnsignedBigInt<$n> {
            const BITS: u32 = Self::BITS;
            fn to_u128(self) -> u128 {
                self.low_u128()
            }
            fn from_u128_wrapping(value: u128) -> Self {
                Self::from(value)
            }
            fn to_u256(self) -> U256 {
                self.resize()
            }
            fn from_u256_wrapping(value: U256) -> Self {
                value.resize()
            }
            fn to_wide(self) -> U2048 {
                self.resize()
            }
            fn from_wide_wrapping(value: U2048) -> Self {
                value.resize()
            }
        }
    )*};
}
wide_unsigned_clear!(4, 8, 16, 32);

/// The width of an [`FheUint`]: one zero-sized type per width.
pub trait FheUintId:
    Copy + Default + std::fmt::Debug + Send + Sync + 'static + sealed::Sealed
{
    /// The width in bits.
    const BITS: u32;
    /// The name of the encrypted type, e.g. `"FheUint8"` (used in serialized headers).
    const NAME: &'static str;
    /// The clear type of the same width.
    type Clear: UnsignedClear;
}

/// An encrypted unsigned integer of `Id::BITS` bits (use the aliases [`FheUint2`](crate::FheUint2) ...
/// [`FheUint256`](crate::FheUint256)). Arithmetic wraps around modulo `2^BITS`, like `wrapping_*` on
/// the clear type. The widths below 8 bits use `u8` as their clear type, those
/// from 10 to 14 bits `u16`, and [`FheUint256`](crate::FheUint256) [`U256`]: encryption keeps the low bits of a wider clear value
/// (`try_encrypt` refuses it), clear operands wrap the same way, and comparisons
/// with a clear value compare its whole value.
///
/// A value carries the tag of the client key it was encrypted under (see
/// [`KeyTag`]), or none if it is a trivial encryption. It is computed on with the
/// server key of the current thread ([`crate::set_server_key`]): operators panic if
/// none is set or the operands belong to different keys; every operator has a
/// `try_` form that returns the error instead.
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
/// let a = FheUint8::encrypt(0b1100_1010u8, &client_key);
/// let b = FheUint8::encrypt(0b0110_0110u8, &client_key);
/// let c = (&a ^ &b) | 1u8;
/// let same = a.eq(&b);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&c, &client_key), 0b1010_1101);
/// assert!(!same.decrypt(&client_key));
/// ```
///
/// [`FheUint256`](crate::FheUint256) takes and returns [`U256`] values:
///
/// ```
/// use gpufhe::integer::U256;
/// use gpufhe::prelude::*;
/// use gpufhe::FheUint256;
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = gpufhe::generate_keys(config);
/// gpufhe::set_server_key(server_key);
/// let big = U256::from((5u128, 1u128)); // 2^128 + 5
/// let a = FheUint256::encrypt(big, &client_key);
/// let sum = &a + U256::from(u128::MAX); // the carry crosses 2^128
/// let clear: U256 = sum.decrypt(&client_key);
/// assert_eq!(clear, U256::from((4u128, 2u128)));
/// assert!(FheUint256::try_encrypt(U256::MAX, &client_key).is_ok());
/// ```
pub struct FheUint<Id: FheUintId> {
    pub(crate) storage: Storage,
    id: PhantomData<Id>,
    /// The bytes a re-randomization context hashes with the value
    /// ([`crate::ReRandomize`]); results of operations have none.
    pub(crate) re_randomization_metadata: crate::high_level::ReRandomizationMetadata,
}

impl<Id: FheUintId> Clone for FheUint<Id> {
    fn clone(&self) -> Self {
        Self {
            storage: self.storage.clone(),
            id: PhantomData,
            re_randomization_metadata: self.re_randomization_metadata.clone(),
        }
    }
}

impl<Id: FheUintId> std::fmt::Debug for FheUint<Id> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.storage.tag() {
            Some(tag) => write!(f, "{} {{ tag: {tag}, .. }}", Id::NAME),
            None => write!(f, "{} {{ trivial, .. }}", Id::NAME),
        }
    }
}

/// A value computed on as the bits of an [`FheUint`]: an unsigned value itself, a
/// signed one its two's complement bits. The operations that only read bits (counts,
/// parity, reversal, ...) are written once on the view.
pub(crate) trait UnsignedView: Sized {
    /// The width of the bits.
    type Bits: FheUintId;
    /// The bits.
    fn unsigned_view(&self) -> &FheUint<Self::Bits>;
    /// The value of these bits.
    fn from_unsigned_view(bits: FheUint<Self::Bits>) -> Self;
}

impl<Id: FheUintId> UnsignedView for FheUint<Id> {
    type Bits = Id;

    fn unsigned_view(&self) -> &Self {
        self
    }

    fn from_unsigned_view(bits: Self) -> Self {
        bits
    }
}

/// `value` reduced to `bits` bits (wrapping like an `as` cast).
pub(crate) fn wrap_to_bits(value: U2048, bits: u32) -> U2048 {
    value.low_bits(bits)
}

/// `Err` unless `value` fits in `bits` bits.
pub(crate) fn check_fits(value: U2048, bits: u32, what: &str) -> Result<()> {
    if value.fits_in(bits) {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "{value} does not fit in {what} ({bits} bits)"
        )))
    }
}

impl<Id: FheUintId> FheUint<Id> {
    pub(crate) fn from_storage(storage: Storage) -> Self {
        Self {
            storage,
            id: PhantomData,
            re_randomization_metadata: Default::default(),
        }
    }

    /// Its re-randomization metadata (TFHE-rs's accessor): bytes that a
    /// [`crate::ReRandomizationContext`] hashes with the value.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// let mut a = FheUint8::encrypt_trivial(3u8);
    /// assert!(a.re_randomization_metadata().data().is_empty());
    /// a.re_randomization_metadata_mut().set_data(b"origin");
    /// assert_eq!(a.re_randomization_metadata().data(), b"origin");
    /// ```
    pub fn re_randomization_metadata(&self) -> &crate::high_level::ReRandomizationMetadata {
        &self.re_randomization_metadata
    }

    /// Its re-randomization metadata, to change.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// let mut a = FheUint8::encrypt_trivial(3u8);
    /// a.re_randomization_metadata_mut().set_data(b"x");
    /// a.re_randomization_metadata_mut().clear();
    /// assert!(a.re_randomization_metadata().data().is_empty());
    /// ```
    pub fn re_randomization_metadata_mut(
        &mut self,
    ) -> &mut crate::high_level::ReRandomizationMetadata {
        &mut self.re_randomization_metadata
    }

    /// The value as an input of a circuit.
    pub(crate) fn input(&self) -> Input<'_> {
        Input {
            storage: &self.storage,
            bits: Id::BITS,
        }
    }

    /// The width in bits.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// assert_eq!(FheUint8::bits(), 8);
    /// ```
    pub const fn bits() -> u32 {
        Id::BITS
    }

    /// The tag of the client key it was encrypted under, `None` if it is a trivial
    /// encryption (which works with every key).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = gpufhe::ClientKey::generate(config);
    /// let x = FheUint8::encrypt(3u8, &client_key);
    /// assert_eq!(x.tag(), Some(client_key.tag()));
    /// assert_eq!(FheUint8::encrypt_trivial(3u8).tag(), None);
    /// ```
    pub fn tag(&self) -> Option<KeyTag> {
        self.storage.tag()
    }

    /// Whether it is a trivial encryption (readable without a key).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// assert!(FheUint8::encrypt_trivial(3u8).is_trivial());
    /// ```
    pub fn is_trivial(&self) -> bool {
        self.tag().is_none()
    }

    /// The value of a trivial encryption as `Clear` (wrapping like `as`, as
    /// decryption does); `Err` if it is a real encryption.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint16;
    /// let x = FheUint16::encrypt_trivial(1234u16);
    /// assert_eq!(x.try_decrypt_trivial::<u16>().unwrap(), 1234);
    /// ```
    pub fn try_decrypt_trivial<Clear: UnsignedClear>(&self) -> Result<Clear> {
        match self.storage {
            Storage::Trivial(ref v) => Ok(Clear::from_wide_wrapping(**v)),
            Storage::Encrypted { .. } => Err(Error::InvalidParameter(format!(
                "this {} is encrypted, not trivial: decrypt it with its client key",
                Id::NAME
            ))),
        }
    }

    /// Where its blocks live: [`Device::Cpu`] after encryption, deserialization or
    /// for a trivial value, a GPU after an operation with a GPU key.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, ConfigBuilder, Device, FheUint16};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let mut x = FheUint16::encrypt(513u16, &client_key);
    /// assert_eq!(x.current_device(), Device::Cpu);
    /// x.move_to_device(Device::Cpu).unwrap(); // already there: nothing to do
    /// assert_eq!(FheDecrypt::<u16>::decrypt(&x, &client_key), 513);
    /// ```
    pub fn current_device(&self) -> Device {
        self.storage.device()
    }

    /// Moves its blocks to `device` (copied through the host between GPUs); nothing
    /// to do if they are there. `Err` if the GPU does not exist or lacks memory.
    /// A trivial value stays a clear value on the CPU.
    ///
    /// ```no_run
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, ConfigBuilder, Device, FheUint8, GpuIndex};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let mut x = FheUint8::encrypt(7u8, &client_key);
    /// x.move_to_device(Device::CudaGpu(GpuIndex::new(0))).unwrap();
    /// assert_eq!(x.current_device(), Device::CudaGpu(GpuIndex::new(0)));
    /// let clear: u8 = x.decrypt(&client_key); // copied back to decrypt
    /// assert_eq!(clear, 7);
    /// ```
    pub fn move_to_device(&mut self, device: Device) -> Result<()> {
        self.storage.move_to(device)
    }

    /// `Err` unless the value is well formed: a trivial value of `BITS` bits, or as
    /// many blocks as `BITS` needs, with consistent moduli and LWE sizes, each clean
    /// (degree below the message modulus, noise level at most 1). Deserialization
    /// runs it.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// assert!(FheUint8::encrypt_trivial(200u8).validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.storage.validate(Id::BITS, None)
    }
}

impl<Id: FheUintId, T: UnsignedClear> FheTryEncrypt<T, ClientKey> for FheUint<Id> {
    /// `Err` if `value` has more than `Id::BITS` bits.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, ConfigBuilder, FheUint8};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// assert!(FheUint8::try_encrypt(255u64, &client_key).is_ok());
    /// assert!(FheUint8::try_encrypt(256u64, &client_key).is_err());
    /// ```
    fn try_encrypt(value: T, key: &ClientKey) -> Result<Self> {
        let value = value.to_wide();
        check_fits(value, Id::BITS, Id::NAME)?;
        Ok(Self::from_storage(key.encrypt_storage(value, Id::BITS)?))
    }
}

impl<Id: FheUintId, T: UnsignedClear> FheEncrypt<T, ClientKey> for FheUint<Id> {
    /// Encrypts the low `Id::BITS` bits of `value` (like `value as u8` for
    /// [`FheUint8`](crate::FheUint8)).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, ConfigBuilder, FheUint8};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = FheUint8::encrypt(0x1234u16, &client_key);
    /// let clear: u8 = x.decrypt(&client_key);
    /// assert_eq!(clear, 0x34);
    /// ```
    #[track_caller]
    fn encrypt(value: T, key: &ClientKey) -> Self {
        let value = wrap_to_bits(value.to_wide(), Id::BITS);
        expect_op(
            key.encrypt_storage(value, Id::BITS).map(Self::from_storage),
            "encrypt",
        )
    }
}

impl<Id: FheUintId, T: UnsignedClear> FheTryDecrypt<T> for FheUint<Id> {
    /// `Err` if the value belongs to another client key or does not fit in `T`.
    fn try_decrypt(&self, key: &ClientKey) -> Result<T> {
        let value = key.decrypt_storage(&self.storage)?;
        check_fits(value, T::BITS, "the clear type")?;
        Ok(T::from_wide_wrapping(value))
    }
}

impl<Id: FheUintId, T: UnsignedClear> FheDecrypt<T> for FheUint<Id> {
    /// The value, wrapped to `T` like an `as` cast.
    #[track_caller]
    fn decrypt(&self, key: &ClientKey) -> T {
        expect_op(
            key.decrypt_storage(&self.storage)
                .map(T::from_wide_wrapping),
            "decrypt",
        )
    }
}

impl<Id: FheUintId, T: UnsignedClear> FheTrivialEncrypt<T> for FheUint<Id> {
    /// The low `Id::BITS` bits of `value`, unencrypted; needs no key.
    fn encrypt_trivial(value: T) -> Self {
        Self::from_storage(Storage::trivial(wrap_to_bits(value.to_wide(), Id::BITS)))
    }
}

impl<Id: FheUintId, T: UnsignedClear> FheTryTrivialEncrypt<T> for FheUint<Id> {
    /// `Err` if `value` has more than `Id::BITS` bits.
    fn try_encrypt_trivial(value: T) -> Result<Self> {
        let value = value.to_wide();
        check_fits(value, Id::BITS, Id::NAME)?;
        Ok(Self::from_storage(Storage::trivial(value)))
    }
}

/// Writes the key tag and the blocks (or the value of a trivial encryption); a value
/// with re-randomization metadata is an `Err` (gpufhe's own format has no place for
/// it; TFHE-rs's form carries it).
impl<Id: FheUintId> Serialize for FheUint<Id> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        crate::high_level::re_randomization_metadata::no_metadata_in_own_format(
            &self.re_randomization_metadata,
        )?;
        self.storage.serialize(s)
    }
}

/// Runs [`FheUint::validate`] on what was read.
impl<'de, Id: FheUintId> Deserialize<'de> for FheUint<Id> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let value = Self::from_storage(Storage::deserialize(d)?);
        value.validate().map_err(serde::de::Error::custom)?;
        Ok(value)
    }
}
