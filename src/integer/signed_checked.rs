//! Two's complement arithmetic that reports **signed** overflow, as Rust's
//! `i64::overflowing_add`, `overflowing_sub` and `overflowing_mul` do, and the
//! signed `checked_ilog2`.
//!
//! - **`+` and `-`**: the wrapping result of the unsigned circuit, and the sign rule
//!   (`a + b` overflows when the operands have the same sign and the result another;
//!   `a - b` when the operands' signs differ and the result's is not `a`'s): one
//!   bivariate table of the operands' top blocks in the first layer says whether the
//!   signs can overflow and which sign `a` has, one more of it and the result's top
//!   block closes: 2 bootstraps and one layer over the unsigned operation.
//! - **`*`**: the exact product of the magnitudes (the unsigned
//!   [`overflowing_mul`](super::overflowing_mul), about twice a multiplication), negated
//!   where the signs differ. It fits when its high half is zero and its low half is
//!   below `2^(bits - 1)`, or equal to it for a negative product (`MIN`): one table of
//!   the top block, one equality with `2^(bits - 1)` and two tables merge the flags.
//!   TFHE-rs multiplies the operands sign-extended to twice their width instead
//!   (about four times a multiplication).
//! - **`checked_ilog2`**: the unsigned [`ilog2`] and its flag, cleared for a negative
//!   value (TFHE-rs's flag is `x > 0`): one table of the sign and one bivariate table.
//!
//! Costs in bootstraps (layers) on the default parameters, CPU (parallelism 2) and
//! GPU, against the unsigned forms (the tests pin these):
//!
//! | operation          | `FheInt8` CPU | GPU      | `FheInt64` CPU | GPU          |
//! |--------------------|---------------|----------|----------------|--------------|
//! | `overflowing_add`  | 6 (5)         | 10 (4)   | 34 (33)        | 95 (7)       |
//! | `overflowing_mul`  | 84 (15)       | 100 (13) | 3,343 (74)     | 3,677 (27)   |
//! | `checked_ilog2`    | 15 (8)        | 19 (7)   | 95 (40)        | 159 (15)     |
//!
//! (Unsigned: `overflowing_add` 4 (4), 10 (3), 32 (32), 94 (6); `overflowing_mul` 64
//! bits 3,192 (67), 3,337 (27); `checked_ilog2` 13 (8), 17 (7), 93 (39), 157 (15).)

use super::bit_count::ilog2;
use super::checked::no_overflowing_form;
use super::checked::{overflowing_mul, overflowing_scalar_mul};
use super::signed::{abs, abs_and_sign, negate_where, sign_bit, sign_extend_wide};
use super::{add, check_radix, check_same_length, clear_digits, scalar_add, scalar_compare};
use super::{scalar_sub, sub, BinaryOp, CmpOp, Radix, Rhs, U2048};
use crate::error::Result;
use crate::integer::circuit::{Circuit, Wire};

/// The circuit of `lhs op rhs` for `op` among `+ - *` on two's complement integers,
/// with whether it overflowed the signed range (a block holding 0 or 1). A clear right
/// operand is given as its two's complement bits. `Err` for another `op`.
pub fn signed_overflowing(
    c: &mut Circuit,
    op: BinaryOp,
    lhs: &[Wire],
    rhs: Rhs,
) -> Result<(Radix, Wire)> {
    match op {
        BinaryOp::Add => signed_overflowing_add(c, lhs, rhs),
        BinaryOp::Sub => signed_overflowing_sub(c, lhs, rhs),
        BinaryOp::Mul => signed_overflowing_mul(c, lhs, rhs),
        _ => Err(no_overflowing_form(op)),
    }
}

/// `lhs + rhs` (wrapping) and whether it overflowed the signed range, as
/// `i64::overflowing_add` (see the module docs).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, signed_overflowing_add, Rhs};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 100u128, 4).unwrap(); // an i8
/// let b = encrypt_radix(&ck, 50u128, 4).unwrap();
/// let out = run(&backend, &[&a, &b], |c, x| {
///     let (sum, overflow) = signed_overflowing_add(c, &x[0], Rhs::Wires(&x[1]))?;
///     Ok(vec![sum, vec![overflow]])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 150); // -106 as an i8
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 1);
/// ```
pub fn signed_overflowing_add(c: &mut Circuit, lhs: &[Wire], rhs: Rhs) -> Result<(Radix, Wire)> {
    add_or_sub(c, lhs, rhs, false)
}

/// `lhs - rhs` (wrapping) and whether it overflowed the signed range, as
/// `i64::overflowing_sub` (example at [`signed_overflowing_add`]).
pub fn signed_overflowing_sub(c: &mut Circuit, lhs: &[Wire], rhs: Rhs) -> Result<(Radix, Wire)> {
    add_or_sub(c, lhs, rhs, true)
}

/// `lhs + rhs` or `lhs - rhs` and the sign rule's overflow flag.
fn add_or_sub(c: &mut Circuit, lhs: &[Wire], rhs: Rhs, subtract: bool) -> Result<(Radix, Wire)> {
    check_radix(c, lhs)?;
    let m = c.message_modulus();
    let (value, rhs_top) = match rhs {
        Rhs::Wires(r) => {
            check_same_length(lhs, r)?;
            let value = match subtract {
                true => sub(c, lhs, r)?,
                false => add(c, lhs, r)?,
            };
            (value, r.last().copied())
        }
        Rhs::Clear(k) => {
            let value = match subtract {
                true => scalar_sub(c, lhs, k)?,
                false => scalar_add(c, lhs, k)?,
            };
            let top = clear_digits(k, m, lhs.len()).last().copied();
            (value, top.map(|d| c.constant(d)).transpose()?)
        }
    };
    let (Some(&a), Some(b), Some(&r)) = (lhs.last(), rhs_top, value.last()) else {
        return Ok((value, c.constant(0)?));
    };
    let half = m / 2;
    // 0 if the signs cannot overflow, else 1 + the sign bit of lhs.
    let risk = c.bivariate(a, b, move |a, b| {
        let (a_negative, b_negative) = (a >= half, b >= half);
        match (a_negative == b_negative) != subtract {
            true => 1 + u64::from(a_negative),
            false => 0,
        }
    })?;
    let overflow = c.bivariate(risk, r, move |risk, r| {
        u64::from(risk != 0 && (r >= half) != (risk == 2))
    })?;
    Ok((value, overflow))
}

/// `lhs * rhs` (wrapping) and whether it overflowed the signed range, as
/// `i64::overflowing_mul` (see the module docs for the circuit).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, signed_overflowing_mul, Rhs, U2048};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 0xf0u128, 4).unwrap(); // -16 as an i8
/// let out = run(&backend, &[&a], |c, x| {
///     let (exact, no) = signed_overflowing_mul(c, &x[0], Rhs::Clear(U2048::from(8u8)))?;
///     let (wrapped, yes) = signed_overflowing_mul(c, &x[0], Rhs::Clear(U2048::from(9u8)))?;
///     Ok(vec![exact, vec![no], wrapped, vec![yes]])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 0x80); // -128 fits
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 0);
/// assert_eq!(decrypt_radix(&ck, &out[2]).unwrap(), (-144i32 as u8) as u128);
/// assert_eq!(ck.decrypt(&out[3][0]).unwrap(), 1);
/// ```
pub fn signed_overflowing_mul(c: &mut Circuit, lhs: &[Wire], rhs: Rhs) -> Result<(Radix, Wire)> {
    check_radix(c, lhs)?;
    let n = lhs.len();
    let Some(&lhs_top) = lhs.last() else {
        return Ok((Vec::new(), c.constant(0)?));
    };
    let m = c.message_modulus();
    let half = m / 2;
    let bits = n as u32 * m.trailing_zeros();
    let (abs_lhs, lhs_negative) = abs_and_sign(c, lhs)?;
    // The magnitude of the product, exact, and whether the product is negative.
    let (low, high_nonzero, negative) = match rhs {
        Rhs::Wires(r) => {
            check_same_length(lhs, r)?;
            let abs_rhs = abs(c, r)?;
            let (low, high) = overflowing_mul(c, &abs_lhs, &abs_rhs)?;
            let r_top = *r.last().unwrap_or(&lhs_top);
            let differ = c.bivariate(lhs_top, r_top, move |a, b| {
                u64::from((a >= half) != (b >= half))
            })?;
            (low, high, differ)
        }
        Rhs::Clear(k) => {
            let k = sign_extend_wide(k, bits);
            let (low, high) = overflowing_scalar_mul(c, &abs_lhs, k.unsigned_abs())?;
            let negative = match k.is_negative() {
                true => c.linear(&[(lhs_negative, -1)], 1)?,
                false => lhs_negative,
            };
            (low, high, negative)
        }
    };
    let low_top = *low.last().unwrap_or(&lhs_top);
    let top_bit = c.table(low_top, move |v| u64::from(v >= half))?;
    let min = U2048::ONE << (bits - 1);
    let is_min = scalar_compare(c, CmpOp::Eq, &low, min)?;
    let min_allowed = c.bivariate(is_min, negative, |e, s| e & s)?;
    // high + top_bit + (1 - min_allowed) >= 2 exactly when the product overflows
    // (min_allowed implies top_bit).
    let score = c.linear(&[(high_nonzero, 1), (top_bit, 1), (min_allowed, -1)], 1)?;
    let overflow = c.table(score, |v| u64::from(v >= 2))?;
    Ok((negate_where(c, &low, negative)?, overflow))
}

/// `floor(log2(x))` of a two's complement `x` (its bits' logarithm, as TFHE-rs
/// returns it: `bits - 1` for a negative `x`) on `out_blocks` blocks, and whether it
/// is meaningful, `x > 0` (a block holding 0 or 1).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{encrypt_radix, run, signed_ilog2};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 0xffu128, 4).unwrap(); // -1 as an i8
/// let out = run(&backend, &[&a], |c, x| {
///     let (_, valid) = signed_ilog2(c, &x[0], 4)?;
///     Ok(vec![vec![valid]])
/// })
/// .unwrap();
/// assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 0);
/// ```
pub fn signed_ilog2(c: &mut Circuit, x: &[Wire], out_blocks: usize) -> Result<(Radix, Wire)> {
    let (log, nonzero) = ilog2(c, x, out_blocks)?;
    let negative = sign_bit(c, x)?;
    let positive = c.bivariate(nonzero, negative, |v, s| u64::from(v == 1 && s == 0))?;
    Ok((log, positive))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::signed::sign_extend_clear;
    use crate::integer::sum::tests::check_clear;
    use crate::integer::tests::{check_radix_op, circuit_with_inputs, mask, table_costs};

    fn signed(v: u128, blocks: usize) -> i128 {
        sign_extend_clear(v, 2 * blocks as u32)
    }

    /// The wrapped result and Rust's overflow flag of `a op b` on `blocks` blocks.
    fn expected(op: BinaryOp, a: u128, b: u128, blocks: usize) -> (u128, u128) {
        let bits = 2 * blocks as u32;
        let (a, b) = (signed(a, blocks), signed(b, blocks));
        let exact = match op {
            BinaryOp::Add => a + b,
            BinaryOp::Sub => a - b,
            _ => a * b,
        };
        let wrapped = sign_extend_clear(exact as u128, bits);
        (
            exact as u128 & mask(bits as usize),
            u128::from(wrapped != exact),
        )
    }

    const OPS: [BinaryOp; 3] = [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul];

    #[test]
    fn every_pair_up_to_8_bits_in_the_clear_encrypted_and_clear_rhs() {
        for blocks in 1..=4usize {
            let all: Vec<u128> = (0..1u128 << (2 * blocks)).collect();
            // Every pair up to 6 bits; for 8 bits every value against a spread.
            let rhs: Vec<u128> = match blocks {
                4 => all
                    .iter()
                    .copied()
                    .filter(|v| v % 5 == 0 || *v >= 0x7e)
                    .collect(),
                _ => all.clone(),
            };
            let pairs: Vec<Vec<u128>> = all
                .iter()
                .flat_map(|&a| rhs.iter().map(move |&b| vec![a, b]))
                .collect();
            for op in OPS {
                check_clear(
                    2,
                    blocks,
                    &pairs,
                    &|c, x| {
                        let (value, flag) = signed_overflowing(c, op, &x[0], Rhs::Wires(&x[1]))?;
                        Ok(vec![value, vec![flag]])
                    },
                    &|v| {
                        let (value, flag) = expected(op, v[0], v[1], blocks);
                        vec![value, flag]
                    },
                );
                let values: Vec<Vec<u128>> = all.iter().map(|&a| vec![a]).collect();
                let max = mask(2 * blocks) >> 1;
                for k in [0u128, 1, 2, 3, mask(2 * blocks), max, max + 1] {
                    check_clear(
                        2,
                        blocks,
                        &values,
                        &|c, x| {
                            let rhs = Rhs::Clear(U2048::from(k));
                            let (value, flag) = signed_overflowing(c, op, &x[0], rhs)?;
                            Ok(vec![value, vec![flag]])
                        },
                        &|v| {
                            let (value, flag) = expected(op, v[0], k, blocks);
                            vec![value, flag]
                        },
                    );
                }
            }
        }
    }

    #[test]
    fn overflow_flags_on_the_backend() {
        let blocks = 2;
        let cases: Vec<Vec<u128>> = [(7u128, 1u128), (8, 15), (8, 8), (3, 5), (12, 2), (15, 15)]
            .iter()
            .map(|&(a, b)| vec![a, b])
            .collect();
        for op in OPS {
            check_radix_op(
                blocks,
                &cases,
                &|c, x| {
                    let (mut value, flag) = signed_overflowing(c, op, &x[0], Rhs::Wires(&x[1]))?;
                    value.push(flag);
                    Ok(value)
                },
                &|v| {
                    let (value, flag) = expected(op, v[0], v[1], blocks);
                    value | flag << (2 * blocks)
                },
                Some(blocks + 1),
            );
        }
        let (mut c, x) = circuit_with_inputs(2, &[2, 2]);
        assert!(signed_overflowing(&mut c, BinaryOp::Shl, &x[0], Rhs::Wires(&x[1])).is_err());
    }

    #[test]
    fn checked_ilog2_is_valid_for_positive_values_only() {
        for blocks in [1usize, 2, 4, 5] {
            let bits = 2 * blocks as u32;
            let values: Vec<Vec<u128>> = (1..1u128 << bits)
                .step_by(if blocks > 4 { 7 } else { 1 })
                .map(|v| vec![v])
                .collect();
            // The bits' logarithm (bits - 1 for a negative value), as TFHE-rs returns it.
            check_clear(
                2,
                blocks,
                &values,
                &|c, x| {
                    let (log, valid) = signed_ilog2(c, &x[0], 4)?;
                    Ok(vec![log, vec![valid]])
                },
                &|v| {
                    vec![
                        u128::from(v[0].ilog2()),
                        u128::from(signed(v[0], blocks) > 0),
                    ]
                },
            );
            // 0: meaningless logarithm, invalid.
            check_clear(
                2,
                blocks,
                &[vec![0]],
                &|c, x| Ok(vec![vec![signed_ilog2(c, &x[0], 4)?.1]]),
                &|_| vec![0],
            );
        }
    }

    /// Builds a value and its flag from two operands.
    type Build<'a> = dyn Fn(&mut Circuit, &[Radix]) -> Result<(Radix, Wire)> + 'a;

    /// The costs of the module docs' table.
    #[test]
    fn signed_overflow_and_ilog2_costs() {
        let add =
            |c: &mut Circuit, x: &[Radix]| signed_overflowing_add(c, &x[0], Rhs::Wires(&x[1]));
        let mul =
            |c: &mut Circuit, x: &[Radix]| signed_overflowing_mul(c, &x[0], Rhs::Wires(&x[1]));
        let log = |c: &mut Circuit, x: &[Radix]| signed_ilog2(c, &x[0], 16);
        let rows: [(&str, &Build<'_>, _); 3] = [
            (
                "overflowing_add",
                &add,
                [(6, 5), (10, 4), (34, 33), (95, 7)],
            ),
            (
                "overflowing_mul",
                &mul,
                [(84, 15), (100, 13), (3343, 74), (3677, 27)],
            ),
            (
                "checked_ilog2",
                &log,
                [(15, 8), (19, 7), (95, 40), (159, 15)],
            ),
        ];
        let lines: Vec<Vec<(usize, usize)>> = rows
            .iter()
            .map(|(_, build, _)| {
                table_costs(&|c, x| {
                    let (value, flag) = build(c, x)?;
                    Ok(vec![value, vec![flag]])
                })
            })
            .collect();
        println!("signed overflowing_add, overflowing_mul, checked_ilog2: {lines:?}");
        for ((name, _, expected), line) in rows.iter().zip(lines) {
            assert_eq!(line, expected, "{name}");
        }
    }
}
