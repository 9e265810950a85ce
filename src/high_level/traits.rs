//! The traits of the high-level API (all in [`crate::prelude`]).
//!
//! Every operation has a fallible form: the `try_` methods return `Err` (no server
//! key on the thread, operands of different keys, ...); the short forms call them
//! and panic with the error's message (documented under `# Panics`).

use super::keys::ClientKey;
use super::FheBool;
use crate::error::Result;

/// Panics with the error of a failed operation, pointing at the caller.
#[track_caller]
pub(crate) fn expect_op<T>(result: Result<T>, operation: &str) -> T {
    match result {
        Ok(value) => value,
        Err(e) => panic!("gpufhe: {operation} failed: {e}"),
    }
}

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

/// Encrypted equality. Implementors provide the `try_` forms. The right operand
/// is a `&FheUint`, an `FheUint` or a clear value (for [`FheBool`]: a `bool`).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(7u8, &client_key);
/// let b = FheUint8::encrypt(7u8, &client_key);
/// assert!(a.eq(&b).decrypt(&client_key));
/// assert!(!a.ne(b).decrypt(&client_key));
/// ```
pub trait FheEq<Rhs = Self> {
    /// `self == other`; `Err` on failure.
    fn try_eq(&self, other: Rhs) -> Result<FheBool>;
    /// `self != other`; `Err` on failure.
    fn try_ne(&self, other: Rhs) -> Result<FheBool>;

    /// `self == other`.
    ///
    /// # Panics
    ///
    /// If [`FheEq::try_eq`] fails: no server key on this thread, or operands of
    /// different keys.
    #[track_caller]
    fn eq(&self, other: Rhs) -> FheBool {
        expect_op(self.try_eq(other), "eq")
    }

    /// `self != other`.
    ///
    /// # Panics
    ///
    /// If [`FheEq::try_ne`] fails.
    #[track_caller]
    fn ne(&self, other: Rhs) -> FheBool {
        expect_op(self.try_ne(other), "ne")
    }
}

/// Encrypted order comparisons (unsigned). Implementors provide the `try_` forms.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(7u8, &client_key);
/// let b = FheUint8::encrypt(200u8, &client_key);
/// assert!(a.lt(&b).decrypt(&client_key));
/// assert!(!a.ge(100u8).decrypt(&client_key)); // a clear right operand
/// ```
pub trait FheOrd<Rhs = Self> {
    /// `self < other`; `Err` on failure.
    fn try_lt(&self, other: Rhs) -> Result<FheBool>;
    /// `self <= other`; `Err` on failure.
    fn try_le(&self, other: Rhs) -> Result<FheBool>;
    /// `self > other`; `Err` on failure.
    fn try_gt(&self, other: Rhs) -> Result<FheBool>;
    /// `self >= other`; `Err` on failure.
    fn try_ge(&self, other: Rhs) -> Result<FheBool>;

    /// `self < other`.
    ///
    /// # Panics
    ///
    /// If [`FheOrd::try_lt`] fails.
    #[track_caller]
    fn lt(&self, other: Rhs) -> FheBool {
        expect_op(self.try_lt(other), "lt")
    }

    /// `self <= other`.
    ///
    /// # Panics
    ///
    /// If [`FheOrd::try_le`] fails.
    #[track_caller]
    fn le(&self, other: Rhs) -> FheBool {
        expect_op(self.try_le(other), "le")
    }

    /// `self > other`.
    ///
    /// # Panics
    ///
    /// If [`FheOrd::try_gt`] fails.
    #[track_caller]
    fn gt(&self, other: Rhs) -> FheBool {
        expect_op(self.try_gt(other), "gt")
    }

    /// `self >= other`.
    ///
    /// # Panics
    ///
    /// If [`FheOrd::try_ge`] fails.
    #[track_caller]
    fn ge(&self, other: Rhs) -> FheBool {
        expect_op(self.try_ge(other), "ge")
    }
}

/// Encrypted minimum (see also [`FheMax`]).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(7u8, &client_key);
/// let b = FheUint8::encrypt(200u8, &client_key);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&a.min(&b), &client_key), 7);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&a.max(9u8), &client_key), 9);
/// ```
pub trait FheMin<Rhs = Self> {
    /// The result type.
    type Output;
    /// The smaller of `self` and `other`; `Err` on failure.
    fn try_min(&self, other: Rhs) -> Result<Self::Output>;

    /// The smaller of `self` and `other`.
    ///
    /// # Panics
    ///
    /// If [`FheMin::try_min`] fails.
    #[track_caller]
    fn min(&self, other: Rhs) -> Self::Output {
        expect_op(self.try_min(other), "min")
    }
}

/// Encrypted maximum (example at [`FheMin`]).
pub trait FheMax<Rhs = Self> {
    /// The result type.
    type Output;
    /// The larger of `self` and `other`; `Err` on failure.
    fn try_max(&self, other: Rhs) -> Result<Self::Output>;

    /// The larger of `self` and `other`.
    ///
    /// # Panics
    ///
    /// If [`FheMax::try_max`] fails.
    #[track_caller]
    fn max(&self, other: Rhs) -> Self::Output {
        expect_op(self.try_max(other), "max")
    }
}

/// Rotation towards the most significant bit; the amount (clear or encrypted) is
/// taken modulo the width.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(0b1000_0001u8, &client_key);
/// let amount = FheUint8::encrypt(9u8, &client_key); // 9 mod 8 = 1
/// assert_eq!(FheDecrypt::<u8>::decrypt(&(&a).rotate_left(&amount), &client_key), 0b0000_0011);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&a.rotate_right(1u32), &client_key), 0b1100_0000);
/// ```
pub trait RotateLeft<Rhs = Self> {
    /// The result type.
    type Output;
    /// `self` rotated left by `amount`; `Err` on failure.
    fn try_rotate_left(self, amount: Rhs) -> Result<Self::Output>;

    /// `self` rotated left by `amount`.
    ///
    /// # Panics
    ///
    /// If [`RotateLeft::try_rotate_left`] fails.
    #[track_caller]
    fn rotate_left(self, amount: Rhs) -> Self::Output
    where
        Self: Sized,
    {
        expect_op(self.try_rotate_left(amount), "rotate_left")
    }
}

/// Rotation towards the least significant bit; the amount is taken modulo the width
/// (example at [`RotateLeft`]).
pub trait RotateRight<Rhs = Self> {
    /// The result type.
    type Output;
    /// `self` rotated right by `amount`; `Err` on failure.
    fn try_rotate_right(self, amount: Rhs) -> Result<Self::Output>;

    /// `self` rotated right by `amount`.
    ///
    /// # Panics
    ///
    /// If [`RotateRight::try_rotate_right`] fails.
    #[track_caller]
    fn rotate_right(self, amount: Rhs) -> Self::Output
    where
        Self: Sized,
    {
        expect_op(self.try_rotate_right(amount), "rotate_right")
    }
}

/// In-place [`RotateLeft`].
pub trait RotateLeftAssign<Rhs = Self> {
    /// Rotates `self` left by `amount`.
    ///
    /// # Panics
    ///
    /// If the rotation fails (see [`RotateLeft::try_rotate_left`]).
    fn rotate_left_assign(&mut self, amount: Rhs);
}

/// In-place [`RotateRight`].
pub trait RotateRightAssign<Rhs = Self> {
    /// Rotates `self` right by `amount`.
    ///
    /// # Panics
    ///
    /// If the rotation fails (see [`RotateRight::try_rotate_right`]).
    fn rotate_right_assign(&mut self, amount: Rhs);
}

/// Addition that also reports whether it wrapped around the range of the type (see
/// also [`OverflowingSub`]): for [`crate::FheUint`] the carry out, for
/// [`crate::FheInt`] the signed overflow of Rust's `i64::overflowing_add`.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(250u8, &client_key);
/// let (sum, overflowed) = (&a).overflowing_add(10u8);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&sum, &client_key), 4);
/// assert!(overflowed.decrypt(&client_key));
/// let (diff, borrowed) = a.overflowing_sub(10u8);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&diff, &client_key), 240);
/// assert!(!borrowed.decrypt(&client_key));
/// ```
///
/// Signed values overflow past `MIN` and `MAX`, as `i8::overflowing_add` etc.:
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheInt8::encrypt(-100i8, &client_key);
/// let b = FheInt8::encrypt(-50i8, &client_key);
/// let (sum, overflowed) = (&a).overflowing_add(&b);
/// assert_eq!(FheDecrypt::<i8>::decrypt(&sum, &client_key), 106);
/// assert!(overflowed.decrypt(&client_key));
/// let (diff, overflowed) = (&a).overflowing_sub(&b); // -50: no overflow
/// assert_eq!(FheDecrypt::<i8>::decrypt(&diff, &client_key), -50);
/// assert!(!overflowed.decrypt(&client_key));
/// let (product, overflowed) = a.overflowing_mul(-1i8);
/// assert_eq!(FheDecrypt::<i8>::decrypt(&product, &client_key), 100);
/// assert!(!overflowed.decrypt(&client_key));
/// ```
pub trait OverflowingAdd<Rhs> {
    /// The result type.
    type Output;
    /// `self + rhs` (wrapping) and whether it overflowed; `Err` on failure.
    fn try_overflowing_add(self, rhs: Rhs) -> Result<(Self::Output, FheBool)>;

    /// `self + rhs` (wrapping) and whether it overflowed.
    ///
    /// # Panics
    ///
    /// If [`OverflowingAdd::try_overflowing_add`] fails.
    #[track_caller]
    fn overflowing_add(self, rhs: Rhs) -> (Self::Output, FheBool)
    where
        Self: Sized,
    {
        expect_op(self.try_overflowing_add(rhs), "overflowing_add")
    }
}

/// Subtraction that also reports whether it wrapped around the range of the type
/// (for [`crate::FheUint`] `self < rhs`; example at [`OverflowingAdd`]).
pub trait OverflowingSub<Rhs> {
    /// The result type.
    type Output;
    /// `self - rhs` (wrapping) and whether it wrapped around; `Err` on failure.
    fn try_overflowing_sub(self, rhs: Rhs) -> Result<(Self::Output, FheBool)>;

    /// `self - rhs` (wrapping) and whether it wrapped around.
    ///
    /// # Panics
    ///
    /// If [`OverflowingSub::try_overflowing_sub`] fails.
    #[track_caller]
    fn overflowing_sub(self, rhs: Rhs) -> (Self::Output, FheBool)
    where
        Self: Sized,
    {
        expect_op(self.try_overflowing_sub(rhs), "overflowing_sub")
    }
}

/// Multiplication that also reports whether it wrapped around (the exact product
/// does not fit in the range of the type); about twice the bootstraps of a
/// multiplication (signed example at [`OverflowingAdd`]).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(20u8, &client_key);
/// let b = FheUint8::encrypt(13u8, &client_key);
/// let (product, overflowed) = (&a).overflowing_mul(&b);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&product, &client_key), 4); // 260 mod 256
/// assert!(overflowed.decrypt(&client_key));
/// let (product, overflowed) = a.overflowing_mul(12u8);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&product, &client_key), 240);
/// assert!(!overflowed.decrypt(&client_key));
/// ```
pub trait OverflowingMul<Rhs> {
    /// The result type.
    type Output;
    /// `self * rhs` (wrapping) and whether it overflowed; `Err` on failure.
    fn try_overflowing_mul(self, rhs: Rhs) -> Result<(Self::Output, FheBool)>;

    /// `self * rhs` (wrapping) and whether it overflowed.
    ///
    /// # Panics
    ///
    /// If [`OverflowingMul::try_overflowing_mul`] fails.
    #[track_caller]
    fn overflowing_mul(self, rhs: Rhs) -> (Self::Output, FheBool)
    where
        Self: Sized,
    {
        expect_op(self.try_overflowing_mul(rhs), "overflowing_mul")
    }
}

/// Negation that also reports whether it wrapped around: for [`crate::FheUint`]
/// whether the value is not zero (as `u8::overflowing_neg`), for [`crate::FheInt`]
/// whether it is `MIN`.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheInt8::encrypt(i8::MIN, &client_key);
/// let (negated, overflowed) = (&a).overflowing_neg();
/// assert_eq!(FheDecrypt::<i8>::decrypt(&negated, &client_key), i8::MIN);
/// assert!(overflowed.decrypt(&client_key));
/// ```
pub trait OverflowingNeg {
    /// The result type.
    type Output;
    /// `-self` (wrapping) and whether it wrapped around; `Err` on failure.
    fn try_overflowing_neg(self) -> Result<(Self::Output, FheBool)>;

    /// `-self` (wrapping) and whether it wrapped around.
    ///
    /// # Panics
    ///
    /// If [`OverflowingNeg::try_overflowing_neg`] fails.
    #[track_caller]
    fn overflowing_neg(self) -> (Self::Output, FheBool)
    where
        Self: Sized,
    {
        expect_op(self.try_overflowing_neg(), "overflowing_neg")
    }
}

/// Quotient and remainder in one circuit, as the inherent `div_rem` of
/// [`crate::FheUint`] and [`crate::FheInt`] (for generic code). Implemented for
/// borrowed values (`&FheUint`, `&FheInt`) only: for owned ones the trait's
/// by-value method would take precedence over the inherent `div_rem(&self)`.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
/// fn quot_rem<'a, T>(a: &'a T, b: &'a T) -> (T, T)
/// where
///     &'a T: DivRem<&'a T, Output = (T, T)>,
/// {
///     a.div_rem(b)
/// }
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(23u8, &client_key);
/// let b = FheUint8::encrypt(5u8, &client_key);
/// let (q, r) = quot_rem(&a, &b);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&q, &client_key), 4);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&r, &client_key), 3);
/// ```
pub trait DivRem<Rhs = Self> {
    /// The result type: the quotient and the remainder.
    type Output;
    /// `(self / rhs, self % rhs)`; `Err` on failure.
    fn try_div_rem(self, rhs: Rhs) -> Result<Self::Output>;

    /// `(self / rhs, self % rhs)`.
    ///
    /// # Panics
    ///
    /// If [`DivRem::try_div_rem`] fails.
    #[track_caller]
    fn div_rem(self, rhs: Rhs) -> Self::Output
    where
        Self: Sized,
    {
        expect_op(self.try_div_rem(rhs), "div_rem")
    }
}

/// Waiting for the computation of a value to finish. gpufhe's operations are
/// synchronous (a value is computed when the operation returns), so `wait` returns
/// at once; it exists for code written for backends that compute asynchronously.
pub trait FheWait {
    /// Returns once `self` is computed: at once in gpufhe.
    fn wait(&self);
}

/// Selection by an encrypted condition, implemented by [`FheBool`] for encrypted
/// integers and booleans.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(7u8, &client_key);
/// let b = FheUint8::encrypt(200u8, &client_key);
/// let smaller = a.lt(&b).if_then_else(&a, &b);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&smaller, &client_key), 7);
/// ```
pub trait IfThenElse<T> {
    /// `if self { then } else { otherwise }`; `Err` on failure.
    fn try_if_then_else(&self, then: &T, otherwise: &T) -> Result<T>;

    /// `if self { then } else { otherwise }`.
    ///
    /// # Panics
    ///
    /// If [`IfThenElse::try_if_then_else`] fails.
    #[track_caller]
    fn if_then_else(&self, then: &T, otherwise: &T) -> T {
        expect_op(self.try_if_then_else(then, otherwise), "if_then_else")
    }

    /// The same as [`IfThenElse::if_then_else`] (TFHE-rs's other name).
    ///
    /// # Panics
    ///
    /// If [`IfThenElse::try_if_then_else`] fails.
    #[track_caller]
    fn select(&self, then: &T, otherwise: &T) -> T {
        expect_op(self.try_if_then_else(then, otherwise), "select")
    }

    /// The same as [`IfThenElse::if_then_else`] (TFHE-rs's other name).
    ///
    /// # Panics
    ///
    /// If [`IfThenElse::try_if_then_else`] fails.
    #[track_caller]
    fn cmux(&self, then: &T, otherwise: &T) -> T {
        expect_op(self.try_if_then_else(then, otherwise), "cmux")
    }
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
