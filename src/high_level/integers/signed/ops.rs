//! The operations of [`FheInt`]: the unsigned circuits where two's complement
//! computes the same bits (`+ - * & | ^ ! <<`, negation, rotations, `==`), the
//! signed ones of [`crate::integer`] for the order, `min`/`max`, `>>`, `abs`, the
//! overflow flags and division. Each runs on the value's blocks as an [`FheUint`] of
//! the same width.

use super::base::{clear_bits, FheInt, FheIntId};
use super::static_::signed_widths;
use crate::error::Result;
use crate::high_level::booleans::base::FheBool;
use crate::high_level::integers::operands::{
    OperandKind, ShiftAmount, SignedComparand, SignedOperand, SignedOverflowingOperand,
};
use crate::high_level::integers::operators::{
    clear_left_operators, comparison_traits, iter_sum, overflowing_neg_trait, overflowing_traits,
    rotations, std_operators, try_binary_methods,
};
use crate::high_level::integers::unsigned::base::{FheUint, UnsignedClear, UnsignedView};
use crate::high_level::integers::unsigned::bits::bit_methods;
use crate::high_level::integers::unsigned::overflowing_ops::{
    checked_methods, clear_left_overflowing,
};
use crate::high_level::internals::circuit::Flag;
use crate::high_level::internals::expect_op;
use crate::high_level::traits::{
    FheEq, FheMax, FheMin, FheOrd, FheTrivialEncrypt, FheWait, OverflowingAdd, OverflowingMul,
    OverflowingNeg, OverflowingSub, RotateLeft, RotateLeftAssign, RotateRight, RotateRightAssign,
};
use crate::integer::{self, BinaryOp, CmpOp, I1024, I2048, I256, I512, U2048};
use std::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Mul, MulAssign,
    Neg, Not, Shl, ShlAssign, Shr, ShrAssign, Sub, SubAssign,
};

impl<Id: FheIntId> FheInt<Id> {
    /// `self op rhs` as one circuit, in the signed sense.
    pub(crate) fn binary(&self, op: BinaryOp, rhs: OperandKind<'_, Id::Unsigned>) -> Result<Self> {
        self.inner
            .binary_with(rhs, |c, l, r| integer::signed_binary(c, op, l, r))
            .map(Self::from_inner)
    }

    /// `self op rhs` as one circuit, in the signed order.
    pub(crate) fn compare(&self, op: CmpOp, rhs: OperandKind<'_, Id::Unsigned>) -> Result<FheBool> {
        self.inner
            .compare_with(rhs, |c, l, r| integer::signed_comparison(c, op, l, r))
    }

    /// `self op rhs` for `op` among `+ - *`, with its signed overflow `flag` (or its
    /// negation), as one circuit. `Err` for another `op`.
    pub(crate) fn overflowing(
        &self,
        op: BinaryOp,
        rhs: OperandKind<'_, Id::Unsigned>,
        flag: Flag,
    ) -> Result<(Self, FheBool)> {
        let (value, flag) = self.inner.overflowing_with(rhs, flag, |c, l, r| {
            integer::signed_overflowing(c, op, l, r)
        })?;
        Ok((Self::from_inner(value), flag))
    }

    /// `self + rhs`, wrapping like `i64::wrapping_add`; `Err` if there is no server
    /// key on this thread or the operands belong to different keys. The operator `+`
    /// panics instead.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheInt8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// let a = FheInt8::encrypt(-1i8, &client_key);
    /// assert!(a.try_add(&a).is_err()); // no server key on this thread yet
    /// gpufhe::set_server_key(server_key);
    /// let sum: i8 = a.try_add(i8::MIN).unwrap().decrypt(&client_key);
    /// assert_eq!(sum, i8::MAX); // wraps around
    /// ```
    pub fn try_add<'r>(&self, rhs: impl Into<SignedOperand<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::Add, rhs.into().0)
    }

    try_binary_methods!(SignedOperand<'r, Id>, ShiftAmount<'r, Id::Unsigned>);

    /// `clear - self`, wrapping; `Err` on failure. The operator form is `clear - &x`.
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
    /// let x = FheInt8::encrypt(30i8, &client_key);
    /// let y: i8 = x.try_sub_from(-10i8).unwrap().decrypt(&client_key);
    /// assert_eq!(y, -40);
    /// ```
    pub fn try_sub_from(&self, clear: Id::Clear) -> Result<Self> {
        let clear = UnsignedClear::from_wide_wrapping(clear_bits::<Id>(clear));
        self.inner.try_sub_from(clear).map(Self::from_inner)
    }

    /// `self >> amount`, arithmetic: the sign fills the vacated bits, like `>>` on
    /// `i64` (the amount modulo the width); `Err` on failure.
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
    /// let a = FheInt8::encrypt(-100i8, &client_key);
    /// assert_eq!(FheDecrypt::<i8>::decrypt(&(&a >> 3u32), &client_key), -100 >> 3);
    /// ```
    pub fn try_shr<'r>(&self, amount: impl Into<ShiftAmount<'r, Id::Unsigned>>) -> Result<Self> {
        self.binary(BinaryOp::Shr, amount.into().0)
    }

    /// `-self`, wrapping (`-MIN` is `MIN`); `Err` on failure.
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
    /// let x = FheInt8::encrypt(-5i8, &client_key);
    /// let y: i8 = x.try_neg().unwrap().decrypt(&client_key);
    /// assert_eq!(y, 5);
    /// ```
    pub fn try_neg(&self) -> Result<Self> {
        self.inner.try_neg().map(Self::from_inner)
    }

    /// `!self` (every bit flipped, no bootstrap); `Err` on failure.
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
    /// let x = FheInt8::encrypt(5i8, &client_key);
    /// let y: i8 = x.try_not().unwrap().decrypt(&client_key);
    /// assert_eq!(y, !5);
    /// ```
    pub fn try_not(&self) -> Result<Self> {
        self.inner.try_not().map(Self::from_inner)
    }

    /// `|self|`, wrapping like `i64::wrapping_abs` (`abs(MIN)` is `MIN`); `Err` on
    /// failure. Costs one bootstrap per block and an addition.
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
    /// let a = FheInt8::encrypt(-100i8, &client_key);
    /// assert_eq!(FheDecrypt::<i8>::decrypt(&a.try_abs().unwrap(), &client_key), 100);
    /// ```
    pub fn try_abs(&self) -> Result<Self> {
        self.inner.unary(integer::abs).map(Self::from_inner)
    }

    /// `|self|`, wrapping.
    ///
    /// # Panics
    ///
    /// If [`FheInt::try_abs`] fails.
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
    /// let x = FheInt8::encrypt(-128i8, &client_key);
    /// let y: i8 = x.abs().decrypt(&client_key);
    /// assert_eq!(y, -128); // wrapping, as i8::wrapping_abs
    /// ```
    #[track_caller]
    pub fn abs(&self) -> Self {
        expect_op(self.try_abs(), "abs")
    }

    /// The wrapping sum of `values` as one circuit (a trivial zero for an empty slice).
    /// `Err` on failure.
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
    /// let values: Vec<FheInt8> = [-100i8, 50, 7].iter().map(|&v| FheInt8::encrypt(v, &client_key)).collect();
    /// let total: i8 = FheInt8::sum(&values).unwrap().decrypt(&client_key);
    /// assert_eq!(total, -43);
    /// ```
    pub fn sum(values: &[Self]) -> Result<Self> {
        Self::sum_of(&values.iter().collect::<Vec<_>>())
    }

    pub(crate) fn sum_of(values: &[&Self]) -> Result<Self> {
        let inner: Vec<&FheUint<Id::Unsigned>> = values.iter().map(|x| &x.inner).collect();
        FheUint::sum_of(&inner).map(Self::from_inner)
    }

    /// The width of the type in bits (TFHE-rs's name for `bits`).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheInt8;
    /// assert_eq!(FheInt8::num_bits(), 8);
    /// ```
    pub const fn num_bits() -> usize {
        Self::bits() as usize
    }
}

std_operators!(
    FheInt<FheIntId>,
    SignedOperand<'r, Id>,
    ShiftAmount<'r, Id::Unsigned>
);
comparison_traits!(FheInt<FheIntId>, SignedComparand<'r, Id>);
overflowing_traits!(FheInt<FheIntId>, SignedOverflowingOperand<'r, Id>);
rotations!(FheInt<FheIntId>, ShiftAmount<'r, Id::Unsigned>);
iter_sum!(FheInt<FheIntId>);

// `-x` wraps only for `MIN`.
overflowing_neg_trait!(
    FheInt<FheIntId>,
    CmpOp::Eq,
    U2048::ONE.wrapping_shl(FheInt::<Id>::bits() - 1)
);

impl<Id: FheIntId> FheWait for FheInt<Id> {
    /// Returns at once: the value was computed when its operation returned.
    fn wait(&self) {}
}

/// The clear operators on the left for each width.
macro_rules! clear_left {
    ($($name:ident, $id:ident, $clear:ty, $unsigned:ty, $c:ident, $p:ident, $cp:ident;)*) => {$(
        clear_left_operators!(@type FheInt, $crate::high_level::$id, $clear);
    )*};
}
signed_widths!(clear_left);

clear_left_overflowing!(
    SignedOverflowingOperand,
    FheInt<FheIntId>: i8, i16, i32, i64, i128, I256, I512, I1024, I2048
);

bit_methods! {
    FheInt<FheIntId>, integer::signed_ilog2,
    counts: [
        /// On the two's complement bits, as TFHE-rs counts them:
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
        /// let x = FheInt8::encrypt(-20i8, &client_key); // 0b1110_1100
        /// let ones: u32 = x.count_ones().decrypt(&client_key);
        /// let zeros: u32 = x.count_zeros().decrypt(&client_key);
        /// let leading: u32 = x.leading_ones().decrypt(&client_key);
        /// let trailing: u32 = x.trailing_zeros().decrypt(&client_key);
        /// let reversed: i8 = x.reverse_bits().decrypt(&client_key);
        /// assert_eq!((ones, zeros, leading, trailing), (5, 3, 3, 2));
        /// assert_eq!(reversed, (-20i8).reverse_bits());
        /// let y = FheInt8::encrypt(11i8, &client_key);
        /// let (lead, trail): (u32, u32) =
        ///     (y.leading_zeros().decrypt(&client_key), y.trailing_ones().decrypt(&client_key));
        /// assert_eq!((lead, trail), (4, 2));
        /// ```
    ],
    ilog2: [
        /// The logarithm of a negative value is that of its bits (`bits - 1`), invalid:
        ///
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::FheInt16;
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = gpufhe::ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = gpufhe::generate_keys(config);
        /// gpufhe::set_server_key(server_key);
        /// let (log, valid) = FheInt16::encrypt(1000i16, &client_key).checked_ilog2();
        /// assert_eq!(FheDecrypt::<u32>::decrypt(&log, &client_key), 9);
        /// assert!(valid.decrypt(&client_key));
        /// let x = FheInt16::encrypt(-1i16, &client_key);
        /// let (log, valid) = x.checked_ilog2();
        /// assert_eq!(FheDecrypt::<u32>::decrypt(&log, &client_key), 15);
        /// assert_eq!(FheDecrypt::<u32>::decrypt(&x.ilog2(), &client_key), 15);
        /// assert!(!valid.decrypt(&client_key));
        /// let (_, valid) = FheInt16::encrypt(0i16, &client_key).checked_ilog2();
        /// assert!(!valid.decrypt(&client_key));
        /// ```
    ],
    parity: [
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::FheInt16;
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = gpufhe::ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = gpufhe::generate_keys(config);
        /// gpufhe::set_server_key(server_key);
        /// let x = FheInt16::encrypt(-1235i16, &client_key);
        /// assert!(!x.is_even().decrypt(&client_key));
        /// assert!(x.is_odd().decrypt(&client_key));
        /// ```
    ],
}

checked_methods!(
    FheInt<FheIntId>,
    SignedOperand<'r, Id>,
    [
        /// The flags of Rust's `i8::checked_add` etc.:
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
        /// let a = FheInt8::encrypt(-100i8, &client_key);
        /// let (sum, ok) = a.checked_add(-100i8);
        /// assert_eq!(FheDecrypt::<i8>::decrypt(&sum, &client_key), 56);
        /// assert!(!ok.decrypt(&client_key));
        /// let (difference, ok) = a.checked_sub(&FheInt8::encrypt(-28i8, &client_key));
        /// assert_eq!(FheDecrypt::<i8>::decrypt(&difference, &client_key), -72);
        /// assert!(ok.decrypt(&client_key));
        /// let (product, ok) = a.checked_mul(-2i8);
        /// assert_eq!(FheDecrypt::<i8>::decrypt(&product, &client_key), -56);
        /// assert!(!ok.decrypt(&client_key));
        /// ```
    ],
);
