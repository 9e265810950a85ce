//! The two-operand operations of the high-level API as circuit builders, in one
//! place: [`binary`] for [`BinaryOp`], [`comparison`] for [`CmpOp`] (and
//! [`overflowing`](super::overflowing) for `+ - *` with their flags). The high level
//! builds them, and the scheduler's cost model counts their bootstraps.

use super::{BitOp, Circuit, CmpOp, Radix, ShiftOp, Wire, U2048};
use crate::error::Result;

/// A two-operand operation on encrypted integers (the right operand encrypted or
/// clear), for [`crate::FheUint::batch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// Wrapping `+`.
    Add,
    /// Wrapping `-`.
    Sub,
    /// Wrapping `*`.
    Mul,
    /// `&`.
    BitAnd,
    /// `|`.
    BitOr,
    /// `^`.
    BitXor,
    /// `<<`, the amount taken modulo the width.
    Shl,
    /// `>>` (logical), the amount taken modulo the width.
    Shr,
    /// Rotation left, the amount taken modulo the width.
    RotateLeft,
    /// Rotation right, the amount taken modulo the width.
    RotateRight,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
}

/// The right operand of a [`binary`] or [`comparison`] operation inside a circuit.
// The clear value is the circuits' 2048-bit clear type (`Copy`, built and
// consumed while a circuit is built).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy)]
pub enum Rhs<'w> {
    /// The blocks of an encrypted operand.
    Wires(&'w [Wire]),
    /// A clear value.
    Clear(U2048),
}

/// The circuit of `lhs op rhs`.
pub fn binary(c: &mut Circuit, op: BinaryOp, lhs: &[Wire], rhs: Rhs) -> Result<Radix> {
    use BinaryOp::*;
    let bit_op = |op| match op {
        BitAnd => BitOp::And,
        BitOr => BitOp::Or,
        _ => BitOp::Xor,
    };
    let shift_op = |op| match op {
        Shl => ShiftOp::Shl,
        Shr => ShiftOp::Shr,
        RotateLeft => ShiftOp::RotateLeft,
        _ => ShiftOp::RotateRight,
    };
    match rhs {
        Rhs::Wires(rhs) => match op {
            Add => super::add(c, lhs, rhs),
            Sub => super::sub(c, lhs, rhs),
            Mul => super::mul(c, lhs, rhs),
            BitAnd | BitOr | BitXor => super::bitwise(c, bit_op(op), lhs, rhs),
            Shl | Shr | RotateLeft | RotateRight => {
                super::shift_encrypted(c, shift_op(op), lhs, rhs)
            }
            Min => super::min(c, lhs, rhs),
            Max => super::max(c, lhs, rhs),
        },
        Rhs::Clear(k) => match op {
            Add => super::scalar_add(c, lhs, k),
            Sub => super::scalar_sub(c, lhs, k),
            Mul => super::scalar_mul(c, lhs, k),
            BitAnd | BitOr | BitXor => super::scalar_bitwise(c, bit_op(op), lhs, k),
            Shl | Shr | RotateLeft | RotateRight => {
                let amount = clear_shift_amount(c, lhs.len(), k);
                super::shift(c, shift_op(op), lhs, amount)
            }
            Min => super::scalar_min(c, lhs, k),
            Max => super::scalar_max(c, lhs, k),
        },
    }
}

/// A clear shift amount `k` of `blocks` blocks, modulo their width (0 for none).
pub(crate) fn clear_shift_amount(c: &Circuit, blocks: usize, k: U2048) -> u64 {
    let bits = blocks as u128 * u128::from(c.message_modulus().trailing_zeros());
    match bits {
        0 => 0,
        bits => k.div_rem(U2048::from(bits)).1.low_u128() as u64,
    }
}

/// The circuit of `lhs op rhs` as a boolean block.
pub fn comparison(c: &mut Circuit, op: CmpOp, lhs: &[Wire], rhs: Rhs) -> Result<Wire> {
    let w = match (op, rhs) {
        (CmpOp::Eq, Rhs::Wires(r)) => super::eq(c, lhs, r)?,
        (CmpOp::Ne, Rhs::Wires(r)) => super::ne(c, lhs, r)?,
        (_, Rhs::Wires(r)) => super::compare(c, op, lhs, r)?,
        (_, Rhs::Clear(k)) => super::scalar_compare(c, op, lhs, k)?,
    };
    to_boolean(c, w)
}

/// `w` as a boolean block (0 or 1): itself if it already is one, else `min(w, 1)`
/// through one bootstrap.
pub fn to_boolean(c: &mut Circuit, w: Wire) -> Result<Wire> {
    if c.info(w).degree <= 1 {
        Ok(w)
    } else {
        c.table(w, |x| x.min(1))
    }
}
