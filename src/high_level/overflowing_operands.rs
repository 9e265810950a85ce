//! The operands of [`OverflowingAdd`], [`OverflowingSub`] and [`OverflowingMul`] as
//! TFHE-rs takes them: on the right, an encrypted value of the type or a clear of
//! any width of the same signedness ([`OverflowingOperand`],
//! [`SignedOverflowingOperand`]); on the left of an addition or subtraction, a clear
//! of any such width (`OverflowingAdd::overflowing_add(3u8, &x)`).
//!
//! A clear operand is cast to the type first, as an `as` cast would (its low bits;
//! a signed clear sign-extended), so the flag reports the overflow of the
//! operation on the cast value.

use super::bit_ops::Flag;
use super::fhe_int::{twos_complement, FheInt, FheIntId, SignedClear, SignedOperand};
use super::fhe_uint::{wrap_to_bits, FheUint, FheUintId, Operand, OperandKind, UnsignedClear};
use super::operations::BinaryOp;
use super::traits::{FheTrivialEncrypt, OverflowingAdd, OverflowingSub};
use crate::error::Result;
use crate::high_level::fhe_bool::FheBool;
use crate::integer::U256;

/// The right operand of an overflowing operation on [`FheUint<Id>`]: an
/// `&FheUint<Id>`, an `FheUint<Id>` or a clear unsigned integer of any width (`u8`
/// ... `u128`, [`U256`]), cast to the type.
pub struct OverflowingOperand<'a, Id: FheUintId>(pub(crate) OperandKind<'a, Id>);

/// The right operand of an overflowing operation on [`FheInt<Id>`]: an
/// `&FheInt<Id>`, an `FheInt<Id>` or a clear signed integer of any width (`i8` ...
/// `i128`), cast to the type.
pub struct SignedOverflowingOperand<'a, Id: FheIntId>(pub(crate) OperandKind<'a, Id::Unsigned>);

/// `From` the borrowed and owned encrypted values, through `$Plain`.
macro_rules! encrypted_operands {
    ($Operand:ident, $Plain:ident, $T:ident<$IdT:ident>) => {
        impl<'a, Id: $IdT> From<&'a $T<Id>> for $Operand<'a, Id> {
            fn from(value: &'a $T<Id>) -> Self {
                Self($Plain::from(value).0)
            }
        }

        impl<Id: $IdT> From<$T<Id>> for $Operand<'_, Id> {
            fn from(value: $T<Id>) -> Self {
                Self($Plain::from(value).0)
            }
        }
    };
}
encrypted_operands!(OverflowingOperand, Operand, FheUint<FheUintId>);
encrypted_operands!(SignedOverflowingOperand, SignedOperand, FheInt<FheIntId>);

/// For each clear type: `From` it for the right operand (`|$v| $bits`: the bits of
/// the cast value) and `OverflowingAdd` / `OverflowingSub` with it on the left
/// (through a trivial value of the type).
macro_rules! clear_operands {
    ($Operand:ident, $T:ident<$IdT:ident>: $($clear:ty),* => |$v:ident| $bits:expr) => {$(
        impl<Id: $IdT> From<$clear> for $Operand<'_, Id> {
            fn from($v: $clear) -> Self {
                Self(OperandKind::Clear($bits))
            }
        }

        clear_operands!(@left $Operand, $T<$IdT>, $clear, OverflowingAdd, try_overflowing_add, Add);
        clear_operands!(@left $Operand, $T<$IdT>, $clear, OverflowingSub, try_overflowing_sub, Sub);
    )*};
    (@left $Operand:ident, $T:ident<$IdT:ident>, $clear:ty, $Trait:ident, $try:ident, $op:ident) => {
        impl<Id: $IdT> $Trait<&$T<Id>> for $clear {
            type Output = $T<Id>;

            fn $try(self, rhs: &$T<Id>) -> Result<($T<Id>, FheBool)> {
                $T::<Id>::encrypt_trivial(self).overflowing(
                    BinaryOp::$op,
                    $Operand::from(rhs).0,
                    Flag::Overflow,
                )
            }
        }
    };
}
clear_operands!(OverflowingOperand, FheUint<FheUintId>: u8, u16, u32, u64, u128, U256
    => |v| wrap_to_bits(v.to_u256(), Id::BITS));
clear_operands!(SignedOverflowingOperand, FheInt<FheIntId>: i8, i16, i32, i64, i128
    => |v| twos_complement(v.to_i128(), FheInt::<Id>::bits()));
