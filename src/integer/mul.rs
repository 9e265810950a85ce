//! Multiplication of radix integers (encrypted or clear right operand) and sums of
//! many integers.

use super::Radix;
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};

fn pending() -> Error {
    Error::InvalidParameter("pending".into())
}

/// `lhs * rhs` modulo `base^blocks`.
pub fn mul(_c: &mut Circuit, _lhs: &[Wire], _rhs: &[Wire]) -> Result<Radix> {
    Err(pending())
}

/// `x * clear` modulo `base^blocks`.
pub fn scalar_mul(_c: &mut Circuit, _x: &[Wire], _clear: u128) -> Result<Radix> {
    Err(pending())
}

/// The sum of `terms` (at least one, all of the same length) modulo `base^blocks`.
pub fn sum(_c: &mut Circuit, _terms: &[&[Wire]]) -> Result<Radix> {
    Err(pending())
}
