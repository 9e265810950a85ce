//! The traits of the high-level API (all in [`crate::prelude`]): [`encrypt`] below
//! the value types (encryption, decryption, casts), [`ops`] above them (the
//! operations), [`gpu_size`] (GPU memory queries).

pub(crate) mod encrypt;
pub(crate) mod gpu_size;
pub(crate) mod ops;

pub use encrypt::{
    CastFrom, CastInto, FheDecrypt, FheEncrypt, FheTrivialEncrypt, FheTryDecrypt, FheTryEncrypt,
    FheTryTrivialEncrypt,
};
pub use ops::{
    BitSlice, DivRem, FheEq, FheMax, FheMin, FheOrd, FheWait, Flip, FusedMulScalarDiv,
    FusedScalarMulScalarDiv, IfThenElse, IfThenZero, OverflowingAdd, OverflowingMul,
    OverflowingNeg, OverflowingSub, RotateLeft, RotateLeftAssign, RotateRight, RotateRightAssign,
    ScalarArm, ScalarIfThenElse,
};
