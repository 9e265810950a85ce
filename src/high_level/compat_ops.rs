//! TFHE-rs's smaller traits and associated functions of the integer types:
//! [`DivRem`], [`OverflowingNeg`], [`FheWait`], `num_bits` and `contains`, written
//! on the existing circuits, and the right operands of comparisons ([`Comparand`]),
//! which take clear integers of any type.

use super::array::contains;
use super::fhe_bool::FheBool;
use super::fhe_int::{twos_complement, FheInt, FheIntId, SignedOperand};
use super::fhe_uint::{FheUint, FheUintId, Operand, OperandKind};
use super::traits::{expect_op, DivRem, FheWait, OverflowingNeg};
use crate::error::Result;
use crate::integer::{CmpOp, U256};

/// [`DivRem`] for `&$T<Id>`, through the inherent `try_div_rem`. Not for an owned
/// `$T<Id>`: `x.div_rem(&y)` would then take the trait's by-value method before the
/// inherent `div_rem(&self)` and move `x`.
macro_rules! div_rem_trait {
    ($T:ident<$IdT:ident>, $Operand:ty) => {
        impl<'r, Id: $IdT, R: Into<$Operand>> DivRem<R> for &$T<Id> {
            type Output = ($T<Id>, $T<Id>);

            fn try_div_rem(self, rhs: R) -> Result<Self::Output> {
                $T::try_div_rem(self, rhs)
            }
        }
    };
}

div_rem_trait!(FheUint<FheUintId>, Operand<'r, Id>);
div_rem_trait!(FheInt<FheIntId>, SignedOperand<'r, Id>);

/// [`OverflowingNeg`] for owned and borrowed `$T<Id>`: the negation, and the
/// comparison of `self` with `$edge` (a clear operand) by `$op`.
macro_rules! overflowing_neg_trait {
    ($T:ident<$IdT:ident>, $op:expr, $edge:expr) => {
        impl<Id: $IdT> OverflowingNeg for &$T<Id> {
            type Output = $T<Id>;

            fn try_overflowing_neg(self) -> Result<($T<Id>, FheBool)> {
                let flag = self.compare($op, OperandKind::Clear($edge))?;
                Ok((self.try_neg()?, flag))
            }
        }

        impl<Id: $IdT> OverflowingNeg for $T<Id> {
            type Output = $T<Id>;

            fn try_overflowing_neg(self) -> Result<($T<Id>, FheBool)> {
                (&self).try_overflowing_neg()
            }
        }
    };
}

// Unsigned: `-x` wraps unless `x == 0`; signed: only `-MIN` does.
overflowing_neg_trait!(FheUint<FheUintId>, CmpOp::Ne, U256::ZERO);
overflowing_neg_trait!(
    FheInt<FheIntId>,
    CmpOp::Eq,
    U256::ONE.wrapping_shl(FheInt::<Id>::bits() - 1)
);

impl<Id: FheUintId> FheWait for FheUint<Id> {
    /// Returns at once: the value was computed when its operation returned.
    fn wait(&self) {}
}

impl<Id: FheIntId> FheWait for FheInt<Id> {
    /// Returns at once: the value was computed when its operation returned.
    fn wait(&self) {}
}

impl FheWait for FheBool {
    /// Returns at once: the value was computed when its operation returned.
    fn wait(&self) {}
}

/// `num_bits` and `contains` of `$T<Id>`.
macro_rules! width_and_contains {
    ($T:ident<$IdT:ident>) => {
        impl<Id: $IdT> $T<Id> {
            /// The width of the type in bits (TFHE-rs's name for `bits`).
            pub const fn num_bits() -> usize {
                Self::bits() as usize
            }

            /// Whether `value` is one of `values`, as one circuit (an encrypted
            /// `false` for an empty slice); `Err` if there is no server key on this
            /// thread or the values belong to different keys.
            pub fn try_contains(values: &[Self], value: &Self) -> Result<FheBool> {
                contains(&values.iter().collect::<Vec<_>>(), value)
            }

            /// Whether `value` is one of `values` (see `try_contains`).
            ///
            /// # Panics
            ///
            /// If `try_contains` fails.
            #[track_caller]
            pub fn contains(values: &[Self], value: &Self) -> FheBool {
                expect_op(Self::try_contains(values, value), "contains")
            }
        }
    };
}

width_and_contains!(FheUint<FheUintId>);
width_and_contains!(FheInt<FheIntId>);

impl FheBool {
    /// The width of the type in bits: 1.
    pub const fn num_bits() -> usize {
        1
    }
}

/// The right operand of a comparison, `min` or `max` of [`FheUint<Id>`]: an
/// `&FheUint<Id>`, an `FheUint<Id>` or a clear integer of any type (`u8` ... `u128`,
/// [`U256`], `i8` ... `i128`), as TFHE-rs's `FheEq<Clear>`. A clear outside the range
/// of the type gives the mathematical comparison (`x.lt(300u16)` is true for an
/// [`crate::FheUint8`], `x.eq(-1i32)` false); for `min` and `max` it is clamped to
/// the range.
pub struct Comparand<'a, Id: FheUintId>(pub(crate) OperandKind<'a, Id>, pub(crate) Bound);

/// The right operand of a comparison, `min` or `max` of [`FheInt<Id>`]: an
/// `&FheInt<Id>`, an `FheInt<Id>` or a clear integer of any type, as [`Comparand`].
pub struct SignedComparand<'a, Id: FheIntId>(
    pub(crate) OperandKind<'a, Id::Unsigned>,
    pub(crate) Bound,
);

/// Where a clear comparand lies with respect to the range of the type: inside it
/// (the operand is its value), or above or below it (the operand is the bound).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    Above,
    Below,
}

impl Bound {
    /// The comparison with the bound that gives `self op clear` for a clear beyond
    /// it: against `MAX`, `<`, `<=` and `!=` hold (`<= MAX`), `>`, `>=` and `==` do
    /// not (`> MAX`); against `MIN` the other way around.
    pub(crate) fn op(self, op: CmpOp) -> CmpOp {
        use CmpOp::*;
        match (self, op) {
            (Self::Exact, op) => op,
            (Self::Above, Lt | Le | Ne) => Le,
            (Self::Above, _) => Gt,
            (Self::Below, Lt | Le | Eq) => Lt,
            (Self::Below, _) => Ge,
        }
    }
}

/// A clear integer of any type: non-negative (any magnitude) or negative.
#[derive(Clone, Copy)]
enum Wide {
    NonNegative(U256),
    Negative(i128),
}

impl<Id: FheUintId> Comparand<'_, Id> {
    fn from_clear(value: Wide) -> Self {
        let max = U256::MAX.wrapping_shr(256 - Id::BITS);
        match value {
            Wide::NonNegative(k) if k <= max => Self(OperandKind::Clear(k), Bound::Exact),
            Wide::NonNegative(_) => Self(OperandKind::Clear(max), Bound::Above),
            Wide::Negative(_) => Self(OperandKind::Clear(U256::ZERO), Bound::Below),
        }
    }
}

impl<Id: FheIntId> SignedComparand<'_, Id> {
    fn from_clear(value: Wide) -> Self {
        let bits = FheInt::<Id>::bits();
        let min_bits = U256::ONE.wrapping_shl(bits - 1);
        let max = min_bits.wrapping_sub(U256::ONE);
        let min = (min_bits.low_u128() as i128).wrapping_neg(); // -2^(bits-1)
        let (kind, bound) = match value {
            Wide::NonNegative(k) if k <= max => (OperandKind::Clear(k), Bound::Exact),
            Wide::NonNegative(_) => (OperandKind::Clear(max), Bound::Above),
            Wide::Negative(v) if bits == 128 || v >= min => {
                (OperandKind::Clear(twos_complement(v, bits)), Bound::Exact)
            }
            Wide::Negative(_) => (OperandKind::Clear(min_bits), Bound::Below),
        };
        Self(kind, bound)
    }
}

impl<'a, Id: FheUintId> From<&'a FheUint<Id>> for Comparand<'a, Id> {
    fn from(value: &'a FheUint<Id>) -> Self {
        Self(Operand::from(value).0, Bound::Exact)
    }
}

impl<Id: FheUintId> From<FheUint<Id>> for Comparand<'_, Id> {
    fn from(value: FheUint<Id>) -> Self {
        Self(Operand::from(value).0, Bound::Exact)
    }
}

impl<'a, Id: FheIntId> From<&'a FheInt<Id>> for SignedComparand<'a, Id> {
    fn from(value: &'a FheInt<Id>) -> Self {
        Self(SignedOperand::from(value).0, Bound::Exact)
    }
}

impl<Id: FheIntId> From<FheInt<Id>> for SignedComparand<'_, Id> {
    fn from(value: FheInt<Id>) -> Self {
        Self(SignedOperand::from(value).0, Bound::Exact)
    }
}

/// `From` every clear integer type for both comparands.
macro_rules! clear_comparands {
    ($($clear:ty => |$v:ident| $wide:expr;)*) => {$(
        impl<Id: FheUintId> From<$clear> for Comparand<'_, Id> {
            fn from($v: $clear) -> Self {
                Self::from_clear($wide)
            }
        }

        impl<Id: FheIntId> From<$clear> for SignedComparand<'_, Id> {
            fn from($v: $clear) -> Self {
                Self::from_clear($wide)
            }
        }
    )*};
}

clear_comparands! {
    u8 => |v| Wide::NonNegative(U256::from(u128::from(v)));
    u16 => |v| Wide::NonNegative(U256::from(u128::from(v)));
    u32 => |v| Wide::NonNegative(U256::from(u128::from(v)));
    u64 => |v| Wide::NonNegative(U256::from(u128::from(v)));
    u128 => |v| Wide::NonNegative(U256::from(v));
    U256 => |v| Wide::NonNegative(v);
    i8 => |v| signed_wide(v.into());
    i16 => |v| signed_wide(v.into());
    i32 => |v| signed_wide(v.into());
    i64 => |v| signed_wide(v.into());
    i128 => |v| signed_wide(v);
}

fn signed_wide(v: i128) -> Wide {
    match u128::try_from(v) {
        Ok(k) => Wide::NonNegative(U256::from(k)),
        Err(_) => Wide::Negative(v),
    }
}
