//! Shifts and rotations by clear or encrypted amounts.

use super::Radix;
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};

fn pending() -> Error {
    Error::InvalidParameter("pending".into())
}

/// A shift or rotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShiftOp {
    /// `<<`, zeros enter from the right.
    Shl,
    /// `>>` (logical), zeros enter from the left.
    Shr,
    /// Rotation towards the most significant bit.
    RotateLeft,
    /// Rotation towards the least significant bit.
    RotateRight,
}

/// `x op amount` on `bits = blocks * log2(base)` bits; the amount is taken modulo
/// `bits` (like `u64::wrapping_shl`).
pub fn shift(_c: &mut Circuit, _op: ShiftOp, _x: &[Wire], _amount: u64) -> Result<Radix> {
    Err(pending())
}

/// `x op amount` with an encrypted amount (a radix integer), taken modulo `bits`.
pub fn shift_encrypted(
    _c: &mut Circuit,
    _op: ShiftOp,
    _x: &[Wire],
    _amount: &[Wire],
) -> Result<Radix> {
    Err(pending())
}
