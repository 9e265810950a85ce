//! Bitwise operations: one bivariate bootstrap per block for `& | ^`, none for `!`
//! and none for a clear operand whose digit decides the block alone.

use super::{check_radix, check_same_length, Radix};
use crate::error::Result;
use crate::integer::circuit::{Circuit, Wire};

/// A two-operand bitwise operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BitOp {
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
}

impl BitOp {
    /// The operation on clear values.
    pub fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            Self::And => a & b,
            Self::Or => a | b,
            Self::Xor => a ^ b,
        }
    }
}

/// `lhs op rhs` block by block: one bootstrap per block, all in one layer.
pub fn bitwise(c: &mut Circuit, op: BitOp, lhs: &[Wire], rhs: &[Wire]) -> Result<Radix> {
    check_same_length(lhs, rhs)?;
    check_radix(c, lhs)?;
    check_radix(c, rhs)?;
    lhs.iter()
        .zip(rhs)
        .map(|(&a, &b)| c.bivariate(a, b, move |x, y| op.apply(x, y)))
        .collect()
}

/// `x op clear` block by block. Digits that fix the result (`& 0`, `| max`) or leave
/// the block as it is (`& max`, `| 0`, `^ 0`) cost nothing; `^ d` is `max - x` when
/// `d` is all ones; other digits cost one bootstrap.
pub fn scalar_bitwise(
    c: &mut Circuit,
    op: BitOp,
    x: &[Wire],
    clear: impl Into<super::U2048>,
) -> Result<Radix> {
    check_radix(c, x)?;
    let m = c.message_modulus();
    let digits = super::clear_digits(clear, m, x.len());
    x.iter()
        .zip(digits)
        .map(|(&w, d)| match (op, d) {
            (BitOp::And, 0) => c.constant(0),
            (BitOp::Or, d) if d == m - 1 => c.constant(m - 1),
            (BitOp::And, d) if d == m - 1 => Ok(w),
            (BitOp::Or | BitOp::Xor, 0) => Ok(w),
            (BitOp::Xor, d) if d == m - 1 => c.linear(&[(w, -1)], m - 1),
            _ => c.table(w, move |v| op.apply(v, d)),
        })
        .collect()
}

/// `!x` block by block, without bootstrap: each digit `d` becomes
/// `message_modulus - 1 - d`.
pub fn bitnot(c: &mut Circuit, x: &[Wire]) -> Result<Radix> {
    check_radix(c, x)?;
    let m = c.message_modulus();
    x.iter().map(|&w| c.linear(&[(w, -1)], m - 1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::tests::{check_binary, check_unary};

    #[test]
    fn bitwise_operations_on_edge_and_random_operands() {
        let pairs = [
            (0u128, 0xffffu128),
            (0xa5c3, 0x5a3c),
            (0xffff, 0xffff),
            (1234, 56789),
        ];
        for op in [BitOp::And, BitOp::Or, BitOp::Xor] {
            let stats = check_binary(
                8,
                &pairs,
                |c, a, b| bitwise(c, op, a, b),
                |a, b| op.apply(a as u64, b as u64) as u128,
            );
            assert_eq!(stats.bootstraps, 8, "{op:?}: one per block");
            assert_eq!(stats.depth, 1);
            for (a, k) in pairs {
                let stats = check_unary(
                    8,
                    &[a],
                    |c, x| scalar_bitwise(c, op, x, k),
                    |a| op.apply(a as u64, k as u64) as u128,
                );
                assert!(stats.bootstraps <= 8);
            }
        }
        let stats = check_unary(8, &[0, 0xffff, 0x1234], bitnot, |a| !a & 0xffff);
        assert_eq!(stats.bootstraps, 0);
    }
}
