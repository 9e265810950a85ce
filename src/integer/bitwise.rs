//! Bitwise operations: one bivariate bootstrap per block for `& | ^`, none for `!`.

use crate::backend::{Backend, BlockExpr, Step, Term};
use crate::error::{check_eq, Error, Result};

/// A two-operand bitwise operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BitOp {
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
}

impl BitOp {
    fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            Self::And => a & b,
            Self::Or => a | b,
            Self::Xor => a ^ b,
        }
    }
}

/// `lhs op rhs` block by block: one step of `num_blocks` bivariate bootstraps.
/// Both operands must have clean blocks (no carries) and the same length.
pub fn bitwise<B: Backend>(
    backend: &B,
    op: BitOp,
    lhs: &B::Blocks,
    rhs: &B::Blocks,
) -> Result<B::Blocks> {
    let n = backend.block_count(lhs);
    check_eq(
        "number of blocks of the right operand",
        n,
        backend.block_count(rhs),
    )?;
    let params = backend.parameters();
    let m = params.message_modulus;
    check_clean(backend, lhs, m)?;
    check_clean(backend, rhs, m)?;
    let lut = crate::shortint::BivariateLookupTable::new(params, |a, b| op.apply(a, b))?;
    let inputs = backend.concat(&[lhs, rhs])?;
    let exprs = (0..n)
        .map(|i| BlockExpr::bivariate(i, n + i, m as i64, 0))
        .collect();
    backend.eval(
        &inputs,
        &Step {
            exprs,
            luts: vec![lut.as_univariate()],
        },
    )
}

/// `!x` block by block, without bootstrap: each digit `d` becomes
/// `message_modulus - 1 - d`. Blocks must be clean.
pub fn bitnot<B: Backend>(backend: &B, x: &B::Blocks) -> Result<B::Blocks> {
    let m = backend.parameters().message_modulus;
    check_clean(backend, x, m)?;
    let exprs = (0..backend.block_count(x))
        .map(|i| BlockExpr {
            terms: vec![Term {
                block: i,
                scalar: -1,
            }],
            constant: m - 1,
            lut: None,
        })
        .collect();
    backend.eval(
        x,
        &Step {
            exprs,
            luts: vec![],
        },
    )
}

/// `Err` unless every block holds a value below `message_modulus` (no carries).
pub(crate) fn check_clean<B: Backend>(
    backend: &B,
    blocks: &B::Blocks,
    message_modulus: u64,
) -> Result<()> {
    match backend
        .degrees(blocks)
        .iter()
        .position(|&d| d >= message_modulus)
    {
        None => Ok(()),
        Some(i) => Err(Error::CapacityExceeded(format!(
            "block {i} may hold carries (degree {}); clean the carries first",
            backend.degrees(blocks)[i]
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu::CpuBackend;
    use crate::integer::{decrypt_radix, encrypt_radix};
    use crate::shortint::{ClientKey, ServerKey, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2};

    #[test]
    fn bitwise_operations_on_random_operands() {
        let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
        let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
        for (a, b) in [
            (0u128, 0xffffu128),
            (0xa5c3, 0x5a3c),
            (0xffff, 0xffff),
            (1234, 56789),
        ] {
            let ca = encrypt_radix(&ck, a, 8).unwrap();
            let cb = encrypt_radix(&ck, b, 8).unwrap();
            for (op, expected) in [(BitOp::And, a & b), (BitOp::Or, a | b), (BitOp::Xor, a ^ b)] {
                let out = bitwise(&backend, op, &ca, &cb).unwrap();
                assert_eq!(
                    decrypt_radix(&ck, &out).unwrap(),
                    expected,
                    "{a:#x} {op:?} {b:#x}"
                );
            }
            let not = bitnot(&backend, &ca).unwrap();
            assert_eq!(decrypt_radix(&ck, &not).unwrap(), !a & 0xffff);
        }
        assert_eq!(backend.pbs_count(), 4 * 3 * 8);
        // Different lengths and dirty blocks are errors.
        let short = encrypt_radix(&ck, 3, 2).unwrap();
        let long = encrypt_radix(&ck, 3, 8).unwrap();
        assert!(bitwise(&backend, BitOp::And, &short, &long).is_err());
        let dirty = vec![ck.encrypt_with_carry(9).unwrap()];
        assert!(bitwise(&backend, BitOp::And, &dirty, &dirty).is_err());
        assert!(bitnot(&backend, &dirty).is_err());
    }
}
