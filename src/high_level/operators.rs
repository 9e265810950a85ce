//! The std operators and the comparison, min/max, rotation, overflow and sum traits,
//! for every combination of owned and borrowed operands. Each one calls its `try_`
//! form and panics with the error's message if it fails (no server key on the
//! thread, operands of different keys): see the `# Panics` sections of the traits.

use super::bit_ops::Flag;
use super::fhe_bool::{BoolOperand, FheBool};
use super::fhe_uint::{FheUint, FheUintId, Operand, ShiftAmount};
use super::operations::BinaryOp;
use super::traits::{
    expect_op, FheEq, FheMax, FheMin, FheOrd, OverflowingAdd, OverflowingMul, OverflowingSub,
    RotateLeft, RotateLeftAssign, RotateRight, RotateRightAssign,
};
use crate::error::Result;
use crate::integer::CmpOp;
use std::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Div, DivAssign,
    Mul, MulAssign, Neg, Not, Rem, RemAssign, Shl, ShlAssign, Shr, ShrAssign, Sub, SubAssign,
};

/// `Op` and `OpAssign` for `FheUint` with any right operand that converts into
/// `$Rhs` (borrowed or owned encrypted, or clear).
macro_rules! encrypted_operator {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $try:ident, $Rhs:ident) => {
        impl<'r, Id: FheUintId, R: Into<$Rhs<'r, Id>>> $Op<R> for &FheUint<Id> {
            type Output = FheUint<Id>;
            #[track_caller]
            fn $op(self, rhs: R) -> FheUint<Id> {
                expect_op(self.$try(rhs), stringify!($op))
            }
        }

        impl<'r, Id: FheUintId, R: Into<$Rhs<'r, Id>>> $Op<R> for FheUint<Id> {
            type Output = FheUint<Id>;
            #[track_caller]
            fn $op(self, rhs: R) -> FheUint<Id> {
                (&self).$op(rhs)
            }
        }

        impl<'r, Id: FheUintId, R: Into<$Rhs<'r, Id>>> $OpAssign<R> for FheUint<Id> {
            #[track_caller]
            fn $op_assign(&mut self, rhs: R) {
                *self = (&*self).$op(rhs);
            }
        }
    };
}

encrypted_operator!(Add, add, AddAssign, add_assign, try_add, Operand);
encrypted_operator!(Sub, sub, SubAssign, sub_assign, try_sub, Operand);
encrypted_operator!(Mul, mul, MulAssign, mul_assign, try_mul, Operand);
encrypted_operator!(Div, div, DivAssign, div_assign, try_div, Operand);
encrypted_operator!(Rem, rem, RemAssign, rem_assign, try_rem, Operand);
encrypted_operator!(
    BitAnd,
    bitand,
    BitAndAssign,
    bitand_assign,
    try_bitand,
    Operand
);
encrypted_operator!(BitOr, bitor, BitOrAssign, bitor_assign, try_bitor, Operand);
encrypted_operator!(
    BitXor,
    bitxor,
    BitXorAssign,
    bitxor_assign,
    try_bitxor,
    Operand
);
encrypted_operator!(Shl, shl, ShlAssign, shl_assign, try_shl, ShiftAmount);
encrypted_operator!(Shr, shr, ShrAssign, shr_assign, try_shr, ShiftAmount);

/// `clear op x` for one width: the commutative operators swap their operands,
/// `clear - x` is [`FheUint::try_sub_from`].
macro_rules! clear_left_operators {
    ($id:ty, $clear:ty) => {
        $crate::high_level::operators::clear_left_operators!(@commutative $id, $clear,
            Add add, Mul mul, BitAnd bitand, BitOr bitor, BitXor bitxor);

        impl std::ops::Sub<&$crate::high_level::FheUint<$id>> for $clear {
            type Output = $crate::high_level::FheUint<$id>;
            #[track_caller]
            fn sub(self, rhs: &$crate::high_level::FheUint<$id>) -> Self::Output {
                $crate::high_level::traits::expect_op(rhs.try_sub_from(self), "sub")
            }
        }

        impl std::ops::Sub<$crate::high_level::FheUint<$id>> for $clear {
            type Output = $crate::high_level::FheUint<$id>;
            #[track_caller]
            fn sub(self, rhs: $crate::high_level::FheUint<$id>) -> Self::Output {
                self - &rhs
            }
        }
    };
    (@commutative $id:ty, $clear:ty, $($Op:ident $op:ident),*) => {$(
        impl std::ops::$Op<&$crate::high_level::FheUint<$id>> for $clear {
            type Output = $crate::high_level::FheUint<$id>;
            #[track_caller]
            fn $op(self, rhs: &$crate::high_level::FheUint<$id>) -> Self::Output {
                std::ops::$Op::$op(rhs, self)
            }
        }

        impl std::ops::$Op<$crate::high_level::FheUint<$id>> for $clear {
            type Output = $crate::high_level::FheUint<$id>;
            #[track_caller]
            fn $op(self, rhs: $crate::high_level::FheUint<$id>) -> Self::Output {
                std::ops::$Op::$op(&rhs, self)
            }
        }
    )*};
}
pub(crate) use clear_left_operators;

/// A unary operator on owned and borrowed values.
macro_rules! unary_operator {
    ($Op:ident, $op:ident, $try:ident, $T:ty $(, $Id:ident)?) => {
        impl$(<$Id: FheUintId>)? $Op for &$T {
            type Output = $T;
            #[track_caller]
            fn $op(self) -> $T {
                expect_op(self.$try(), stringify!($op))
            }
        }

        impl$(<$Id: FheUintId>)? $Op for $T {
            type Output = $T;
            #[track_caller]
            fn $op(self) -> $T {
                (&self).$op()
            }
        }
    };
}

unary_operator!(Neg, neg, try_neg, FheUint<Id>, Id);
unary_operator!(Not, not, try_not, FheUint<Id>, Id);
unary_operator!(Not, not, try_not, FheBool);

impl<'r, Id: FheUintId, R: Into<Operand<'r, Id>>> FheEq<R> for FheUint<Id> {
    fn try_eq(&self, other: R) -> Result<FheBool> {
        self.compare(CmpOp::Eq, other.into().0)
    }

    fn try_ne(&self, other: R) -> Result<FheBool> {
        self.compare(CmpOp::Ne, other.into().0)
    }
}

impl<'r, Id: FheUintId, R: Into<Operand<'r, Id>>> FheOrd<R> for FheUint<Id> {
    fn try_lt(&self, other: R) -> Result<FheBool> {
        self.compare(CmpOp::Lt, other.into().0)
    }

    fn try_le(&self, other: R) -> Result<FheBool> {
        self.compare(CmpOp::Le, other.into().0)
    }

    fn try_gt(&self, other: R) -> Result<FheBool> {
        self.compare(CmpOp::Gt, other.into().0)
    }

    fn try_ge(&self, other: R) -> Result<FheBool> {
        self.compare(CmpOp::Ge, other.into().0)
    }
}

impl<'r, Id: FheUintId, R: Into<Operand<'r, Id>>> FheMin<R> for FheUint<Id> {
    type Output = FheUint<Id>;

    fn try_min(&self, other: R) -> Result<FheUint<Id>> {
        self.binary(BinaryOp::Min, other.into().0)
    }
}

impl<'r, Id: FheUintId, R: Into<Operand<'r, Id>>> FheMax<R> for FheUint<Id> {
    type Output = FheUint<Id>;

    fn try_max(&self, other: R) -> Result<FheUint<Id>> {
        self.binary(BinaryOp::Max, other.into().0)
    }
}

/// A trait taking `self` by value, for owned and borrowed receivers.
macro_rules! by_value_receivers {
    ($Trait:ident, $Rhs:ident, $try:ident, |$x:ident, $rhs:ident| $body:expr, $Out:ty) => {
        impl<'r, Id: FheUintId, R: Into<$Rhs<'r, Id>>> $Trait<R> for &FheUint<Id> {
            type Output = FheUint<Id>;

            fn $try(self, rhs: R) -> Result<$Out> {
                let ($x, $rhs) = (self, rhs.into().0);
                $body
            }
        }

        impl<'r, Id: FheUintId, R: Into<$Rhs<'r, Id>>> $Trait<R> for FheUint<Id> {
            type Output = FheUint<Id>;

            fn $try(self, rhs: R) -> Result<$Out> {
                (&self).$try(rhs)
            }
        }
    };
}

by_value_receivers!(
    RotateLeft,
    ShiftAmount,
    try_rotate_left,
    |x, amount| x.binary(BinaryOp::RotateLeft, amount),
    FheUint<Id>
);
by_value_receivers!(
    RotateRight,
    ShiftAmount,
    try_rotate_right,
    |x, amount| x.binary(BinaryOp::RotateRight, amount),
    FheUint<Id>
);
by_value_receivers!(
    OverflowingAdd,
    Operand,
    try_overflowing_add,
    |x, rhs| x.overflowing(BinaryOp::Add, rhs, Flag::Overflow),
    (FheUint<Id>, FheBool)
);
by_value_receivers!(
    OverflowingMul,
    Operand,
    try_overflowing_mul,
    |x, rhs| x.overflowing(BinaryOp::Mul, rhs, Flag::Overflow),
    (FheUint<Id>, FheBool)
);
by_value_receivers!(
    OverflowingSub,
    Operand,
    try_overflowing_sub,
    |x, rhs| x.overflowing(BinaryOp::Sub, rhs, Flag::Overflow),
    (FheUint<Id>, FheBool)
);

impl<'r, Id: FheUintId, R: Into<ShiftAmount<'r, Id>>> RotateLeftAssign<R> for FheUint<Id> {
    #[track_caller]
    fn rotate_left_assign(&mut self, amount: R) {
        *self = (&*self).rotate_left(amount);
    }
}

impl<'r, Id: FheUintId, R: Into<ShiftAmount<'r, Id>>> RotateRightAssign<R> for FheUint<Id> {
    #[track_caller]
    fn rotate_right_assign(&mut self, amount: R) {
        *self = (&*self).rotate_right(amount);
    }
}

impl<Id: FheUintId> std::iter::Sum for FheUint<Id> {
    /// The wrapping sum as one circuit (see [`FheUint::sum`]).
    ///
    /// # Panics
    ///
    /// If the sum fails: no server key on this thread, or values of different keys.
    #[track_caller]
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        let values: Vec<Self> = iter.collect();
        let refs: Vec<&Self> = values.iter().collect();
        expect_op(FheUint::sum_of(&refs), "sum")
    }
}

impl<'a, Id: FheUintId> std::iter::Sum<&'a FheUint<Id>> for FheUint<Id> {
    /// The wrapping sum as one circuit (see [`FheUint::sum`]).
    ///
    /// # Panics
    ///
    /// If the sum fails: no server key on this thread, or values of different keys.
    #[track_caller]
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        let refs: Vec<&Self> = iter.collect();
        expect_op(FheUint::sum_of(&refs), "sum")
    }
}

/// `Op` and `OpAssign` for `FheBool` with a borrowed or owned `FheBool` or a `bool`,
/// and `bool op FheBool`.
macro_rules! bool_operator {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $try:ident) => {
        impl<'r, R: Into<BoolOperand<'r>>> $Op<R> for &FheBool {
            type Output = FheBool;
            #[track_caller]
            fn $op(self, rhs: R) -> FheBool {
                expect_op(self.$try(rhs), stringify!($op))
            }
        }

        impl<'r, R: Into<BoolOperand<'r>>> $Op<R> for FheBool {
            type Output = FheBool;
            #[track_caller]
            fn $op(self, rhs: R) -> FheBool {
                (&self).$op(rhs)
            }
        }

        impl<'r, R: Into<BoolOperand<'r>>> $OpAssign<R> for FheBool {
            #[track_caller]
            fn $op_assign(&mut self, rhs: R) {
                *self = (&*self).$op(rhs);
            }
        }

        impl $Op<&FheBool> for bool {
            type Output = FheBool;
            #[track_caller]
            fn $op(self, rhs: &FheBool) -> FheBool {
                rhs.$op(self)
            }
        }

        impl $Op<FheBool> for bool {
            type Output = FheBool;
            #[track_caller]
            fn $op(self, rhs: FheBool) -> FheBool {
                (&rhs).$op(self)
            }
        }
    };
}

bool_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, try_and);
bool_operator!(BitOr, bitor, BitOrAssign, bitor_assign, try_or);
bool_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, try_xor);
