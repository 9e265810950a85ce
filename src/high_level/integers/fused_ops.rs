//! Fused multiply-divide on encrypted integers ([`FusedMulScalarDiv`],
//! [`FusedScalarMulScalarDiv`]): one circuit each
//! ([`crate::integer::fused_mul_scalar_div`],
//! [`crate::integer::signed_fused_mul_scalar_div`]), for every width.

use super::operands::{Operand, OperandKind, SignedOperand};
use super::signed::base::{clear_bits, FheInt, FheIntId, SignedClear};
use super::unsigned::base::{FheUint, FheUintId, UnsignedClear};
use crate::error::Result;
use crate::high_level::traits::{FusedMulScalarDiv, FusedScalarMulScalarDiv};
use crate::integer;

impl<Id: FheUintId> FheUint<Id> {
    /// `(self * mul) / d` as one circuit.
    fn fused(&self, mul: OperandKind<'_, Id>, d: Id::Clear) -> Result<Self> {
        let d = d.to_wide();
        self.binary_with(mul, |c, a, b| integer::fused_mul_scalar_div(c, a, b, d))
    }
}

impl<Id: FheIntId> FheInt<Id> {
    /// `(self * mul) / d` as one circuit, signed.
    fn fused(&self, mul: OperandKind<'_, Id::Unsigned>, d: Id::Clear) -> Result<Self> {
        let d = d.to_wide();
        self.inner
            .binary_with(mul, |c, a, b| {
                integer::signed_fused_mul_scalar_div(c, a, b, d)
            })
            .map(FheInt::from_inner)
    }
}

impl<'r, Id: FheUintId, M: Into<Operand<'r, Id>>> FusedMulScalarDiv<M, Id::Clear> for &FheUint<Id> {
    type Output = FheUint<Id>;

    fn try_fused_mul_scalar_div(self, mul: M, div_scalar: Id::Clear) -> Result<FheUint<Id>> {
        self.fused(mul.into().0, div_scalar)
    }
}

impl<'r, Id: FheUintId, M: Into<Operand<'r, Id>>> FusedMulScalarDiv<M, Id::Clear> for FheUint<Id> {
    type Output = FheUint<Id>;

    fn try_fused_mul_scalar_div(self, mul: M, div_scalar: Id::Clear) -> Result<FheUint<Id>> {
        (&self).try_fused_mul_scalar_div(mul, div_scalar)
    }
}

impl<Id: FheUintId> FusedScalarMulScalarDiv<Id::Clear> for &FheUint<Id> {
    type Output = FheUint<Id>;

    fn try_fused_scalar_mul_scalar_div(
        self,
        mul_scalar: Id::Clear,
        div_scalar: Id::Clear,
    ) -> Result<FheUint<Id>> {
        self.fused(OperandKind::Clear(mul_scalar.to_wide()), div_scalar)
    }
}

impl<Id: FheUintId> FusedScalarMulScalarDiv<Id::Clear> for FheUint<Id> {
    type Output = FheUint<Id>;

    fn try_fused_scalar_mul_scalar_div(
        self,
        mul_scalar: Id::Clear,
        div_scalar: Id::Clear,
    ) -> Result<FheUint<Id>> {
        (&self).try_fused_scalar_mul_scalar_div(mul_scalar, div_scalar)
    }
}

impl<'r, Id: FheIntId, M: Into<SignedOperand<'r, Id>>> FusedMulScalarDiv<M, Id::Clear>
    for &FheInt<Id>
{
    type Output = FheInt<Id>;

    fn try_fused_mul_scalar_div(self, mul: M, div_scalar: Id::Clear) -> Result<FheInt<Id>> {
        self.fused(mul.into().0, div_scalar)
    }
}

impl<'r, Id: FheIntId, M: Into<SignedOperand<'r, Id>>> FusedMulScalarDiv<M, Id::Clear>
    for FheInt<Id>
{
    type Output = FheInt<Id>;

    fn try_fused_mul_scalar_div(self, mul: M, div_scalar: Id::Clear) -> Result<FheInt<Id>> {
        (&self).try_fused_mul_scalar_div(mul, div_scalar)
    }
}

impl<Id: FheIntId> FusedScalarMulScalarDiv<Id::Clear> for &FheInt<Id> {
    type Output = FheInt<Id>;

    fn try_fused_scalar_mul_scalar_div(
        self,
        mul_scalar: Id::Clear,
        div_scalar: Id::Clear,
    ) -> Result<FheInt<Id>> {
        self.fused(OperandKind::Clear(clear_bits::<Id>(mul_scalar)), div_scalar)
    }
}

impl<Id: FheIntId> FusedScalarMulScalarDiv<Id::Clear> for FheInt<Id> {
    type Output = FheInt<Id>;

    fn try_fused_scalar_mul_scalar_div(
        self,
        mul_scalar: Id::Clear,
        div_scalar: Id::Clear,
    ) -> Result<FheInt<Id>> {
        (&self).try_fused_scalar_mul_scalar_div(mul_scalar, div_scalar)
    }
}
