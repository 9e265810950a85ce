//! TFHE-rs's smaller traits and associated functions of the integer types:
//! [`DivRem`], [`OverflowingNeg`], [`FheWait`], `num_bits` and `contains`, written
//! on the existing circuits.

use super::array::contains;
use super::fhe_bool::FheBool;
use super::fhe_int::{FheInt, FheIntId, SignedOperand};
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
