//! Order comparisons, comparisons with clear values, minimum and maximum.

use super::Radix;
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};

fn pending() -> Error {
    Error::InvalidParameter("pending".into())
}

/// A comparison of two integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The comparison on clear values.
    pub fn apply(self, a: u128, b: u128) -> bool {
        match self {
            Self::Eq => a == b,
            Self::Ne => a != b,
            Self::Lt => a < b,
            Self::Le => a <= b,
            Self::Gt => a > b,
            Self::Ge => a >= b,
        }
    }
}

/// `lhs op rhs` (unsigned) as one block holding 0 or 1.
pub fn compare(_c: &mut Circuit, _op: CmpOp, _lhs: &[Wire], _rhs: &[Wire]) -> Result<Wire> {
    Err(pending())
}

/// `x op clear` (unsigned) as one block holding 0 or 1.
pub fn scalar_compare(_c: &mut Circuit, _op: CmpOp, _x: &[Wire], _clear: u128) -> Result<Wire> {
    Err(pending())
}

/// The smaller of `lhs` and `rhs`.
pub fn min(_c: &mut Circuit, _lhs: &[Wire], _rhs: &[Wire]) -> Result<Radix> {
    Err(pending())
}

/// The larger of `lhs` and `rhs`.
pub fn max(_c: &mut Circuit, _lhs: &[Wire], _rhs: &[Wire]) -> Result<Radix> {
    Err(pending())
}

/// The smaller of `x` and `clear`.
pub fn scalar_min(_c: &mut Circuit, _x: &[Wire], _clear: u128) -> Result<Radix> {
    Err(pending())
}

/// The larger of `x` and `clear`.
pub fn scalar_max(_c: &mut Circuit, _x: &[Wire], _clear: u128) -> Result<Radix> {
    Err(pending())
}
