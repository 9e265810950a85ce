//! Addition, subtraction and negation of radix integers, with encrypted or clear
//! operands, wrapping or reporting overflow.

use super::Radix;
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};

fn pending() -> Error {
    Error::InvalidParameter("pending".into())
}

/// `lhs + rhs` modulo `base^blocks`.
pub fn add(_c: &mut Circuit, _lhs: &[Wire], _rhs: &[Wire]) -> Result<Radix> {
    Err(pending())
}

/// `lhs - rhs` modulo `base^blocks`.
pub fn sub(_c: &mut Circuit, _lhs: &[Wire], _rhs: &[Wire]) -> Result<Radix> {
    Err(pending())
}

/// `-x` modulo `base^blocks`.
pub fn neg(_c: &mut Circuit, _x: &[Wire]) -> Result<Radix> {
    Err(pending())
}

/// `x + clear` modulo `base^blocks`.
pub fn scalar_add(_c: &mut Circuit, _x: &[Wire], _clear: u128) -> Result<Radix> {
    Err(pending())
}

/// `x - clear` modulo `base^blocks`.
pub fn scalar_sub(_c: &mut Circuit, _x: &[Wire], _clear: u128) -> Result<Radix> {
    Err(pending())
}

/// `clear - x` modulo `base^blocks`.
pub fn clear_sub(_c: &mut Circuit, _clear: u128, _x: &[Wire]) -> Result<Radix> {
    Err(pending())
}

/// `lhs + rhs` and whether it overflowed (a block holding 0 or 1).
pub fn overflowing_add(_c: &mut Circuit, _lhs: &[Wire], _rhs: &[Wire]) -> Result<(Radix, Wire)> {
    Err(pending())
}

/// `lhs - rhs` and whether it underflowed, that is `lhs < rhs` (0 or 1).
pub fn overflowing_sub(_c: &mut Circuit, _lhs: &[Wire], _rhs: &[Wire]) -> Result<(Radix, Wire)> {
    Err(pending())
}

/// `x + clear` and whether it overflowed.
pub fn overflowing_scalar_add(
    _c: &mut Circuit,
    _x: &[Wire],
    _clear: u128,
) -> Result<(Radix, Wire)> {
    Err(pending())
}

/// `x - clear` and whether it underflowed.
pub fn overflowing_scalar_sub(
    _c: &mut Circuit,
    _x: &[Wire],
    _clear: u128,
) -> Result<(Radix, Wire)> {
    Err(pending())
}
