//! The operations of [`FheInt`]: the unsigned circuits where two's complement
//! computes the same bits (`+ - * & | ^ ! <<`, negation, rotations, `==`), the
//! signed ones of [`crate::integer`] for the order, `min`/`max`, `>>`, `abs`, the
//! overflow flags and division. Each runs on the value's blocks as an [`FheUint`] of
//! the same width.

use super::batch::{BatchOutput, ValueSlot};
use super::bit_ops::Flag;
use super::compat_ops::SignedComparand;
use super::fhe_bool::FheBool;
use super::fhe_int::{clear_bits, FheInt, FheIntId, SignedOperand};
use super::fhe_uint::{FheUint, OperandKind, ShiftAmount, UnsignedClear};
use super::operations::{try_binary_methods, BinaryOp, ComparisonOp};
use super::operators::{comparison_traits, division_operators, iter_sum, overflowing_traits};
use super::operators::{rotations, std_operators};
use super::overflowing_operands::SignedOverflowingOperand;
use super::traits::{
    expect_op, FheEq, FheMax, FheMin, FheOrd, IfThenElse, OverflowingAdd, OverflowingMul,
    OverflowingSub, RotateLeft, RotateLeftAssign, RotateRight, RotateRightAssign,
};
use crate::error::Result;
use crate::integer::{self, CmpOp};
use std::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Div, DivAssign,
    Mul, MulAssign, Neg, Not, Rem, RemAssign, Shl, ShlAssign, Shr, ShrAssign, Sub, SubAssign,
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
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// let a = FheInt8::encrypt(-1i8, &client_key);
    /// assert!(a.try_add(&a).is_err()); // no server key on this thread yet
    /// set_server_key(server_key);
    /// let sum: i8 = a.try_add(i8::MIN).unwrap().decrypt(&client_key);
    /// assert_eq!(sum, i8::MAX); // wraps around
    /// ```
    pub fn try_add<'r>(&self, rhs: impl Into<SignedOperand<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::Add, rhs.into().0)
    }

    try_binary_methods!(SignedOperand<'r, Id>, ShiftAmount<'r, Id::Unsigned>);

    /// `clear - self`, wrapping; `Err` on failure. The operator form is `clear - &x`.
    pub fn try_sub_from(&self, clear: Id::Clear) -> Result<Self> {
        let clear = UnsignedClear::from_u256_wrapping(clear_bits::<Id>(clear));
        self.inner.try_sub_from(clear).map(Self::from_inner)
    }

    /// `self >> amount`, arithmetic: the sign fills the vacated bits, like `>>` on
    /// `i64` (the amount modulo the width); `Err` on failure.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let a = FheInt8::encrypt(-100i8, &client_key);
    /// assert_eq!(FheDecrypt::<i8>::decrypt(&(&a >> 3u32), &client_key), -100 >> 3);
    /// ```
    pub fn try_shr<'r>(&self, amount: impl Into<ShiftAmount<'r, Id::Unsigned>>) -> Result<Self> {
        self.binary(BinaryOp::Shr, amount.into().0)
    }

    /// `-self`, wrapping (`-MIN` is `MIN`); `Err` on failure.
    pub fn try_neg(&self) -> Result<Self> {
        self.inner.try_neg().map(Self::from_inner)
    }

    /// `!self` (every bit flipped, no bootstrap); `Err` on failure.
    pub fn try_not(&self) -> Result<Self> {
        self.inner.try_not().map(Self::from_inner)
    }

    /// `|self|`, wrapping like `i64::wrapping_abs` (`abs(MIN)` is `MIN`); `Err` on
    /// failure. Costs one bootstrap per block and an addition.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
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
    #[track_caller]
    pub fn abs(&self) -> Self {
        expect_op(self.try_abs(), "abs")
    }

    /// The wrapping sum of `values` as one circuit (a trivial zero for an empty slice).
    /// `Err` on failure.
    pub fn sum(values: &[Self]) -> Result<Self> {
        Self::sum_of(&values.iter().collect::<Vec<_>>())
    }

    pub(crate) fn sum_of(values: &[&Self]) -> Result<Self> {
        let inner: Vec<&FheUint<Id::Unsigned>> = values.iter().map(|x| &x.inner).collect();
        FheUint::sum_of(&inner).map(Self::from_inner)
    }

    /// `lhs[i] op rhs[i]` for every `i` (signed: `>>` is arithmetic, `min`/`max`
    /// signed), as one circuit (see [`FheUint::batch`]). `Err` if the lengths differ,
    /// or as the single operation.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, BinaryOp, ConfigBuilder, FheInt8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let lhs: Vec<FheInt8> = [-1i8, 2].iter().map(|&v| FheInt8::encrypt(v, &client_key)).collect();
    /// let out = FheInt8::batch(BinaryOp::Min, &lhs, [0i8, 0]).unwrap();
    /// let clear: Vec<i8> = out.iter().map(|x| x.decrypt(&client_key)).collect();
    /// assert_eq!(clear, [-1, 0]);
    /// ```
    pub fn batch<'r, R: Into<SignedOperand<'r, Id>>>(
        op: BinaryOp,
        lhs: &'r [Self],
        rhs: impl IntoIterator<Item = R>,
    ) -> Result<Vec<Self>> {
        let out = Self::batch_with(lhs, rhs, |l, r| {
            l.binary_with(r, |c, l, r| integer::signed_binary(c, op, l, r))
        })?;
        Ok(out.into_iter().map(Self::from_inner).collect())
    }

    /// `lhs[i] op rhs[i]` for every `i` in the signed order, as one circuit.
    pub fn batch_compare<'r, R: Into<SignedOperand<'r, Id>>>(
        op: ComparisonOp,
        lhs: &'r [Self],
        rhs: impl IntoIterator<Item = R>,
    ) -> Result<Vec<FheBool>> {
        Self::batch_with(lhs, rhs, |l, r| {
            l.compare_with(r, |c, l, r| integer::signed_comparison(c, op, l, r))
        })
    }

    /// `op(lhs[i], rhs[i])` on the unsigned views for every `i`, as one batch.
    fn batch_with<'r, R: Into<SignedOperand<'r, Id>>, T: BatchOutput>(
        lhs: &'r [Self],
        rhs: impl IntoIterator<Item = R>,
        op: impl Fn(&FheUint<Id::Unsigned>, OperandKind<'_, Id::Unsigned>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let rhs = rhs.into_iter().map(|r| r.into().0);
        FheUint::batch_with(lhs.iter().map(|x| &x.inner), rhs, op)
    }
}

std_operators!(
    FheInt<FheIntId>,
    SignedOperand<'r, Id>,
    ShiftAmount<'r, Id::Unsigned>
);
division_operators!(FheInt<FheIntId>, SignedOperand<'r, Id>);
comparison_traits!(FheInt<FheIntId>, SignedComparand<'r, Id>);
overflowing_traits!(FheInt<FheIntId>, SignedOverflowingOperand<'r, Id>);
rotations!(FheInt<FheIntId>, ShiftAmount<'r, Id::Unsigned>);
iter_sum!(FheInt<FheIntId>);

impl<Id: FheIntId> IfThenElse<FheInt<Id>> for FheBool {
    fn try_if_then_else(&self, then: &FheInt<Id>, otherwise: &FheInt<Id>) -> Result<FheInt<Id>> {
        self.try_if_then_else(&then.inner, &otherwise.inner)
            .map(FheInt::from_inner)
    }
}

impl<Id: FheIntId> BatchOutput for FheInt<Id> {
    fn visit_values(&mut self, visit: &mut dyn FnMut(ValueSlot<'_>)) {
        self.inner.visit_values(visit)
    }
}
