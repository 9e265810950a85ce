//! The right operands of the operations on encrypted integers: an encrypted value
//! of the type (borrowed or owned) or a clear value, as TFHE-rs takes them.
//!
//! - [`Operand`] / [`SignedOperand`]: arithmetic and bitwise operations, a clear of
//!   the type's own clear type;
//! - [`ShiftAmount`]: shifts and rotations, an encrypted amount of any width or a
//!   clear of any unsigned type, taken modulo the width;
//! - [`Comparand`] / [`SignedComparand`]: comparisons, `min` and `max`, a clear
//!   integer of any type, compared by its mathematical value;
//! - [`OverflowingOperand`] / [`SignedOverflowingOperand`]: the overflowing
//!   operations, a clear of any width of the same signedness, cast to the type.
//!
//! Each holds an [`OperandKind`]: what the circuits take.

use super::signed::base::{clear_bits, twos_complement, FheInt, FheIntId, SignedClear};
use super::signed::static_::*;
use super::unsigned::base::{wrap_to_bits, FheUint, FheUintId, UnsignedClear};
use super::unsigned::static_::*;
use crate::high_level::internals::storage::Storage;
use crate::integer::bigint::{I1024, I2048, I256, I512, U1024, U2048, U256, U512};
use crate::integer::CmpOp;
use std::borrow::Cow;

/// The right operand of an operation on [`FheUint<Id>`]: `&FheUint<Id>`,
/// `FheUint<Id>` or the clear type of the same width (`u8` for [`FheUint8`], ...).
/// Built by `Into`, so that `a.try_add(&b)`, `a.try_add(b)` and `a.try_add(3u8)` all
/// work.
pub struct Operand<'a, Id: FheUintId>(pub(crate) OperandKind<'a, Id>);

/// The amount of a shift or rotation of [`FheUint<Id>`]: an `&FheUint` or `FheUint`
/// of any width, or a clear `u8` ... `u128` (and the clear type of the same width).
/// It is taken modulo `Id::BITS`.
pub struct ShiftAmount<'a, Id: FheUintId>(pub(crate) OperandKind<'a, Id>);

/// An encrypted or a clear operand (the clear one is the circuits' 2048-bit clear
/// value; operands live on the stack while an operation is built).
#[allow(clippy::large_enum_variant)]
pub(crate) enum OperandKind<'a, Id: FheUintId> {
    Encrypted(Cow<'a, FheUint<Id>>),
    /// An encrypted shift amount of any width (its storage and width in bits): the
    /// shift circuits read the whole value of the amount, whatever its number of
    /// blocks, and take it modulo the width of the shifted value.
    Amount(Cow<'a, Storage>, u32),
    Clear(U2048),
}

impl<Id: FheUintId> OperandKind<'_, Id> {
    /// Whether it is an encrypted operand that is a trivial zero: an encrypted zero
    /// divisor for the division, which gives TFHE-rs's result rather than the
    /// clear-zero error.
    pub(crate) fn is_trivial_zero(&self) -> bool {
        matches!(self, Self::Encrypted(x) if matches!(&x.storage, Storage::Trivial(v) if v.is_zero()))
    }

    /// The same operand, borrowed.
    pub(crate) fn borrowed(&self) -> OperandKind<'_, Id> {
        match self {
            Self::Encrypted(x) => OperandKind::Encrypted(Cow::Borrowed(x.as_ref())),
            Self::Amount(x, bits) => OperandKind::Amount(Cow::Borrowed(x.as_ref()), *bits),
            Self::Clear(k) => OperandKind::Clear(*k),
        }
    }
}

impl<'a, Id: FheUintId> From<&'a FheUint<Id>> for Operand<'a, Id> {
    fn from(value: &'a FheUint<Id>) -> Self {
        Self(OperandKind::Encrypted(Cow::Borrowed(value)))
    }
}

impl<Id: FheUintId> From<FheUint<Id>> for Operand<'_, Id> {
    fn from(value: FheUint<Id>) -> Self {
        Self(OperandKind::Encrypted(Cow::Owned(value)))
    }
}

/// An encrypted amount of any width `Id2` (TFHE-rs's `FheUint<Id> << &FheUint<Id2>`).
impl<'a, Id: FheUintId, Id2: FheUintId> From<&'a FheUint<Id2>> for ShiftAmount<'a, Id> {
    fn from(value: &'a FheUint<Id2>) -> Self {
        Self(OperandKind::Amount(
            Cow::Borrowed(&value.storage),
            Id2::BITS,
        ))
    }
}

impl<Id: FheUintId, Id2: FheUintId> From<FheUint<Id2>> for ShiftAmount<'_, Id> {
    fn from(value: FheUint<Id2>) -> Self {
        Self(OperandKind::Amount(Cow::Owned(value.storage), Id2::BITS))
    }
}

/// `From` the clear type of each width, for [`Operand`].
macro_rules! own_clear_operands {
    ($($name:ident, $id:ident, $bits:expr, $clear:ty, $c:ident, $p:ident, $cp:ident;)*) => {$(
        impl<'a> From<$clear> for Operand<'a, $id> {
            fn from(value: $clear) -> Self {
                Self(OperandKind::Clear(value.to_wide()))
            }
        }
    )*};
}
unsigned_widths!(own_clear_operands);

/// Shift and rotation amounts of every clear unsigned type (as TFHE-rs takes them).
impl<Id: FheUintId, T: UnsignedClear> From<T> for ShiftAmount<'_, Id> {
    fn from(value: T) -> Self {
        Self(OperandKind::Clear(value.to_wide()))
    }
}

/// The right operand of an operation on [`FheInt<Id>`]: `&FheInt<Id>`, `FheInt<Id>`
/// or the clear type of the same width (`i8` for [`FheInt8`], ...).
///
/// Shift and rotation amounts are a [`ShiftAmount`] of the unsigned type of the same
/// width instead: `&FheInt<Id>`, `&FheUint<Id::Unsigned>` (owned or borrowed), a
/// clear unsigned value (`u8` ... `u128`), taken modulo the width (an
/// encrypted signed amount by its bits).
pub struct SignedOperand<'a, Id: FheIntId>(pub(crate) OperandKind<'a, Id::Unsigned>);

impl<'a, Id: FheIntId> From<&'a FheInt<Id>> for SignedOperand<'a, Id> {
    fn from(value: &'a FheInt<Id>) -> Self {
        Self(OperandKind::Encrypted(Cow::Borrowed(&value.inner)))
    }
}

impl<Id: FheIntId> From<FheInt<Id>> for SignedOperand<'_, Id> {
    fn from(value: FheInt<Id>) -> Self {
        Self(OperandKind::Encrypted(Cow::Owned(value.inner)))
    }
}

impl<'a, Id: FheIntId> From<&'a FheInt<Id>> for ShiftAmount<'a, Id::Unsigned> {
    fn from(value: &'a FheInt<Id>) -> Self {
        Self(OperandKind::Encrypted(Cow::Borrowed(&value.inner)))
    }
}

impl<Id: FheIntId> From<FheInt<Id>> for ShiftAmount<'_, Id::Unsigned> {
    fn from(value: FheInt<Id>) -> Self {
        Self(OperandKind::Encrypted(Cow::Owned(value.inner)))
    }
}

/// `From` the clear type of each width, for [`SignedOperand`].
macro_rules! own_signed_clear_operands {
    ($($name:ident, $id:ident, $clear:ty, $unsigned:ty, $c:ident, $p:ident, $cp:ident;)*) => {$(
        impl<'a> From<$clear> for SignedOperand<'a, $id> {
            fn from(value: $clear) -> Self {
                Self(OperandKind::Clear(clear_bits::<$id>(value)))
            }
        }
    )*};
}
signed_widths!(own_signed_clear_operands);

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
    NonNegative(U2048),
    Negative(I2048),
}

impl<Id: FheUintId> Comparand<'_, Id> {
    fn from_clear(value: Wide) -> Self {
        let max = U2048::mask(Id::BITS);
        match value {
            Wide::NonNegative(k) if k <= max => Self(OperandKind::Clear(k), Bound::Exact),
            Wide::NonNegative(_) => Self(OperandKind::Clear(max), Bound::Above),
            Wide::Negative(_) => Self(OperandKind::Clear(U2048::ZERO), Bound::Below),
        }
    }
}

impl<Id: FheIntId> SignedComparand<'_, Id> {
    fn from_clear(value: Wide) -> Self {
        let bits = FheInt::<Id>::bits();
        let min_bits = U2048::ONE.wrapping_shl(bits - 1);
        let max = min_bits.wrapping_sub(U2048::ONE);
        // -2^(bits - 1), sign-extended.
        let min = I2048::from_unsigned(U2048::MAX.wrapping_shl(bits - 1));
        let (kind, bound) = match value {
            Wide::NonNegative(k) if k <= max => (OperandKind::Clear(k), Bound::Exact),
            Wide::NonNegative(_) => (OperandKind::Clear(max), Bound::Above),
            Wide::Negative(v) if v >= min => {
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
    u8 => |v| Wide::NonNegative(v.into());
    u16 => |v| Wide::NonNegative(v.into());
    u32 => |v| Wide::NonNegative(v.into());
    u64 => |v| Wide::NonNegative(v.into());
    u128 => |v| Wide::NonNegative(v.into());
    U256 => |v| Wide::NonNegative(v.into());
    U512 => |v| Wide::NonNegative(v.into());
    U1024 => |v| Wide::NonNegative(v.into());
    U2048 => |v| Wide::NonNegative(v);
    i8 => |v| signed_wide(v.into());
    i16 => |v| signed_wide(v.into());
    i32 => |v| signed_wide(v.into());
    i64 => |v| signed_wide(v.into());
    i128 => |v| signed_wide(v.into());
    I256 => |v| signed_wide(v.resize());
    I512 => |v| signed_wide(v.resize());
    I1024 => |v| signed_wide(v.resize());
    I2048 => |v| signed_wide(v);
}

fn signed_wide(v: I2048) -> Wide {
    match v.is_negative() {
        false => Wide::NonNegative(v.as_unsigned()),
        true => Wide::Negative(v),
    }
}

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
/// the cast value).
macro_rules! clear_overflowing_operands {
    ($Operand:ident, $T:ident<$IdT:ident>: $($clear:ty),* => |$v:ident| $bits:expr) => {$(
        impl<Id: $IdT> From<$clear> for $Operand<'_, Id> {
            fn from($v: $clear) -> Self {
                Self(OperandKind::Clear($bits))
            }
        }
    )*};
}
clear_overflowing_operands!(
    OverflowingOperand,
    FheUint<FheUintId>: u8, u16, u32, u64, u128, U256, U512, U1024, U2048
    => |v| wrap_to_bits(v.to_wide(), Id::BITS)
);
clear_overflowing_operands!(
    SignedOverflowingOperand,
    FheInt<FheIntId>: i8, i16, i32, i64, i128, I256, I512, I1024, I2048
    => |v| twos_complement(v.to_wide(), FheInt::<Id>::bits())
);
