//! The operation traits of the high-level API (all in [`crate::prelude`]):
//! comparisons, `min`/`max`, rotations, overflowing arithmetic, division, selection
//! by an encrypted condition (with encrypted or clear arms), bit slices, waiting.
//!
//! Every operation has a fallible form: the `try_` methods return `Err` (no server
//! key on the thread, operands of different keys, ...); the short forms call them
//! and panic with the error's message (documented under `# Panics`).

use crate::error::{InvalidRangeError, Result};
use crate::high_level::booleans::base::FheBool;
use crate::high_level::internals::expect_op;
use std::ops::RangeBounds;

/// Encrypted equality. Implementors provide the `try_` forms. The right operand
/// is a `&FheUint`, an `FheUint` or a clear value (for [`FheBool`]: a `bool`).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
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
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
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
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
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
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
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
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
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
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
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
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
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
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
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
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// fn quot_rem<'a, T>(a: &'a T, b: &'a T) -> (T, T)
/// where
///     &'a T: DivRem<&'a T, Output = (T, T)>,
/// {
///     a.div_rem(b)
/// }
/// let (client_key, server_key) = generate_keys(config);
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

/// `(self * mul) / div_scalar` with an encrypted `mul` and a clear `div_scalar`
/// (TFHE-rs's trait of the same name): the product is computed on twice the width,
/// so it never overflows before the division; the quotient is then truncated to the
/// width of the type (it wraps if it does not fit). Signed values divide truncating
/// toward zero, as Rust does on the exact product. One circuit.
///
/// ```
/// use gpufhe::prelude::*;
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = gpufhe::generate_keys(config);
/// gpufhe::set_server_key(server_key);
/// let price = gpufhe::FheUint8::encrypt(200u8, &client_key);
/// let quantity = gpufhe::FheUint8::encrypt(150u8, &client_key);
/// // 200 * 150 = 30,000 does not fit in 8 bits; 30,000 / 250 = 120 does.
/// let share = (&price).fused_mul_scalar_div(&quantity, 250u8);
/// assert_eq!(FheDecrypt::<u8>::decrypt(&share, &client_key), 120);
/// ```
pub trait FusedMulScalarDiv<Mul, DivScalar> {
    /// The result type.
    type Output;
    /// `(self * mul) / div_scalar`; `Err` for a zero divisor, without a server key on
    /// this thread or for operands of different keys.
    fn try_fused_mul_scalar_div(self, mul: Mul, div_scalar: DivScalar) -> Result<Self::Output>;

    /// `(self * mul) / div_scalar`.
    ///
    /// # Panics
    ///
    /// If [`FusedMulScalarDiv::try_fused_mul_scalar_div`] fails.
    #[track_caller]
    fn fused_mul_scalar_div(self, mul: Mul, div_scalar: DivScalar) -> Self::Output
    where
        Self: Sized,
    {
        expect_op(
            self.try_fused_mul_scalar_div(mul, div_scalar),
            "fused_mul_scalar_div",
        )
    }
}

/// `(self * mul_scalar) / div_scalar` with both scalars clear (TFHE-rs's trait of
/// the same name), the product on twice the width as [`FusedMulScalarDiv`].
///
/// ```
/// use gpufhe::prelude::*;
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = gpufhe::generate_keys(config);
/// gpufhe::set_server_key(server_key);
/// let balance = gpufhe::FheInt16::encrypt(-200i16, &client_key);
/// // -200 * 200 = -40,000 overflows an i16; -40,000 / 100 = -400 does not.
/// let scaled = (&balance).fused_scalar_mul_scalar_div(200i16, 100i16);
/// assert_eq!(FheDecrypt::<i16>::decrypt(&scaled, &client_key), -400);
/// ```
pub trait FusedScalarMulScalarDiv<Scalar> {
    /// The result type.
    type Output;
    /// `(self * mul_scalar) / div_scalar`; `Err` for a zero divisor or without a
    /// server key on this thread.
    fn try_fused_scalar_mul_scalar_div(
        self,
        mul_scalar: Scalar,
        div_scalar: Scalar,
    ) -> Result<Self::Output>;

    /// `(self * mul_scalar) / div_scalar`.
    ///
    /// # Panics
    ///
    /// If [`FusedScalarMulScalarDiv::try_fused_scalar_mul_scalar_div`] fails.
    #[track_caller]
    fn fused_scalar_mul_scalar_div(self, mul_scalar: Scalar, div_scalar: Scalar) -> Self::Output
    where
        Self: Sized,
    {
        expect_op(
            self.try_fused_scalar_mul_scalar_div(mul_scalar, div_scalar),
            "fused_scalar_mul_scalar_div",
        )
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
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
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

/// A clear value that enters a selection as a trivial value of `T`: for
/// [`FheUint`](crate::FheUint) any unsigned clear (`u8` ... `u128`,
/// [`U256`](crate::integer::U256) ... [`U2048`](crate::integer::U2048)), for
/// [`FheInt`](crate::FheInt) any signed clear (`i8` ... `i128`,
/// [`I256`](crate::integer::I256) ... [`I2048`](crate::integer::I2048)).
///
/// A clear wider than `T` wraps to `T`'s width like an `as` cast (its low bits in
/// two's complement), in every selection alike (`scalar_if_then_else`,
/// `scalar_select`, `select`, `if_then_else`, `cmux`, `flip`): this is TFHE-rs
/// 1.8's result (it decomposes the clear into the value's blocks), checked against
/// it: `300u16` selected into an `FheUint8` is 44, `-200i16` into an `FheInt8` is
/// 56. Comparisons, by contrast, compare the whole clear (`FheUint8` `< 300u16` is
/// true), also as TFHE-rs does.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{FheBool, FheUint8};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = gpufhe::generate_keys(config);
/// gpufhe::set_server_key(server_key);
/// let no = FheBool::encrypt(false, &client_key);
/// let x = FheUint8::encrypt(7u8, &client_key);
/// let picked: u8 = no.scalar_if_then_else(&x, 300u16).decrypt(&client_key);
/// assert_eq!(picked, 300u16 as u8); // 44
/// ```
pub trait ScalarArm<T> {
    /// The clear value as a trivial value of `T`.
    fn into_trivial(self) -> T;
}

/// `if self { value_true } else { value_false }` where one arm is clear (TFHE-rs's
/// trait of the same name; the clear arm is a [`ScalarArm`]), or both arms are
/// [`FheBool`]s.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt32};
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let a = FheInt32::encrypt(-45i32, &client_key);
/// let b = FheInt32::encrypt(32i32, &client_key);
/// let a_is_smaller = a.lt(&b);
/// let picked: i32 = a_is_smaller.scalar_select(&a, 7i32).decrypt(&client_key);
/// assert_eq!(picked, -45);
/// let picked: i32 = a_is_smaller.scalar_if_then_else(7i8, &b).decrypt(&client_key);
/// assert_eq!(picked, 7);
/// ```
pub trait ScalarIfThenElse<Lhs, Rhs> {
    /// The type of the result.
    type Output;

    /// `if self { value_true } else { value_false }`; `Err` if there is no server
    /// key on this thread or the operands belong to different keys.
    fn try_scalar_if_then_else(&self, value_true: Lhs, value_false: Rhs) -> Result<Self::Output>;

    /// `if self { value_true } else { value_false }`.
    ///
    /// # Panics
    ///
    /// If [`ScalarIfThenElse::try_scalar_if_then_else`] fails.
    #[track_caller]
    fn scalar_if_then_else(&self, value_true: Lhs, value_false: Rhs) -> Self::Output {
        expect_op(
            self.try_scalar_if_then_else(value_true, value_false),
            "scalar_if_then_else",
        )
    }

    /// [`ScalarIfThenElse::scalar_if_then_else`] under TFHE-rs's other name.
    ///
    /// # Panics
    ///
    /// If [`ScalarIfThenElse::try_scalar_if_then_else`] fails.
    #[track_caller]
    fn scalar_select(&self, value_true: Lhs, value_false: Rhs) -> Self::Output {
        expect_op(
            self.try_scalar_if_then_else(value_true, value_false),
            "scalar_select",
        )
    }

    /// [`ScalarIfThenElse::scalar_if_then_else`] under TFHE-rs's name for the
    /// "controlled mux".
    ///
    /// # Panics
    ///
    /// If [`ScalarIfThenElse::try_scalar_if_then_else`] fails.
    #[track_caller]
    fn scalar_cmux(&self, value_true: Lhs, value_false: Rhs) -> Self::Output {
        expect_op(
            self.try_scalar_if_then_else(value_true, value_false),
            "scalar_cmux",
        )
    }
}

/// The two values, swapped when `self` is true: `(rhs, lhs)` if `self`, else
/// `(lhs, rhs)` (TFHE-rs's trait of the same name). Either value may be a clear
/// [`ScalarArm`].
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheBool, FheUint8};
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(1u8, &client_key);
/// let cond = FheBool::encrypt(true, &client_key);
/// let (x, y) = cond.flip(&a, 9u8);
/// let (x, y): (u8, u8) = (x.decrypt(&client_key), y.decrypt(&client_key));
/// assert_eq!((x, y), (9, 1));
/// ```
pub trait Flip<Lhs, Rhs> {
    /// The type of the two results.
    type Output;

    /// The two values, swapped when `self` is true; `Err` if there is no server key
    /// on this thread or the operands belong to different keys.
    fn try_flip(&self, lhs: Lhs, rhs: Rhs) -> Result<(Self::Output, Self::Output)>;

    /// The two values, swapped when `self` is true.
    ///
    /// # Panics
    ///
    /// If [`Flip::try_flip`] fails.
    #[track_caller]
    fn flip(&self, lhs: Lhs, rhs: Rhs) -> (Self::Output, Self::Output) {
        expect_op(self.try_flip(lhs, rhs), "flip")
    }
}

/// `if self { value } else { 0 }` (TFHE-rs's trait of the same name): one bootstrap
/// per block.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint64};
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let (balance, amount) = (FheUint64::encrypt(50u64, &client_key), FheUint64::encrypt(80u64, &client_key));
/// let sent = balance.ge(&amount).if_then_zero(&amount); // not enough funds: 0
/// let sent: u64 = sent.decrypt(&client_key);
/// assert_eq!(sent, 0);
/// ```
pub trait IfThenZero<T> {
    /// `if self { value } else { 0 }`; `Err` if there is no server key on this
    /// thread or the operands belong to different keys.
    fn try_if_then_zero(&self, value: &T) -> Result<T>;

    /// `if self { value } else { 0 }`.
    ///
    /// # Panics
    ///
    /// If [`IfThenZero::try_if_then_zero`] fails.
    #[track_caller]
    fn if_then_zero(&self, value: &T) -> T {
        expect_op(self.try_if_then_zero(value), "if_then_zero")
    }
}

/// Bits `start..end` of a value as a value of its type, shifted down to bit 0 (the
/// other bits zero).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint16};
/// # let config = ConfigBuilder::default().with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let x = FheUint16::encrypt(0xABCDu16, &client_key);
/// let nibble: u16 = (&x).bitslice(4usize..8).unwrap().decrypt(&client_key);
/// assert_eq!(nibble, 0xC);
/// assert!((&x).bitslice(8usize..17).is_err());
/// ```
pub trait BitSlice<Bounds> {
    /// The type of the slice.
    type Output;

    /// Bits `range` of `self`, shifted down; `Err` if the range ends beyond the
    /// width of the type or before its start.
    ///
    /// # Panics
    ///
    /// If the operation fails: no server key on this thread, or `self` belongs to
    /// another key.
    fn bitslice<R>(self, range: R) -> std::result::Result<Self::Output, InvalidRangeError>
    where
        R: RangeBounds<Bounds>;
}
