//! The traits of the high-level API: `use gpufhe::prelude::*;`.

pub use super::array::FheSliceDotProduct;
pub use super::re_randomization::ReRandomize;
pub use super::squashed::SquashNoise;
pub use super::traits::{
    CastFrom, CastInto, DivRem, FheDecrypt, FheEncrypt, FheEq, FheMax, FheMin, FheOrd,
    FheTrivialEncrypt, FheTryDecrypt, FheTryEncrypt, FheTryTrivialEncrypt, FheWait, IfThenElse,
    OverflowingAdd, OverflowingMul, OverflowingNeg, OverflowingSub, RotateLeft, RotateLeftAssign,
    RotateRight, RotateRightAssign,
};
pub use super::{
    AddSizeOnGpu, BitAndSizeOnGpu, BitNotSizeOnGpu, BitOrSizeOnGpu, BitXorSizeOnGpu,
    DivRemSizeOnGpu, DivSizeOnGpu, FheEqSizeOnGpu, FheMaxSizeOnGpu, FheMinSizeOnGpu,
    FheOrdSizeOnGpu, IfThenElseSizeOnGpu, MulSizeOnGpu, NegSizeOnGpu, RemSizeOnGpu,
    RotateLeftSizeOnGpu, RotateRightSizeOnGpu, ShlSizeOnGpu, ShrSizeOnGpu, SizeOnGpu, SubSizeOnGpu,
};
pub use super::{BitSlice, Flip, FusedMulScalarDiv, FusedScalarMulScalarDiv, ScalarIfThenElse};
pub use super::{CiphertextList, FheKeyswitch, IfThenZero, ParameterSetConformant};
pub use crate::backend::gpu::{check_valid_cuda_malloc, check_valid_cuda_malloc_assert_oom};
