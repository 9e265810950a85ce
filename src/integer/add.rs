//! Addition, subtraction and negation of radix integers, with encrypted or clear
//! operands, wrapping or reporting overflow.
//!
//! Every operation forms one block sum per position without bootstrap and hands them
//! to the carry propagation of `carry.rs` (see there for both strategies):
//!
//! * `a + b`: `s_i = a_i + b_i`.
//! * `a - b = a + !b + 1`: `s_i = a_i + (3 - b_i)`, plus the carry-in 1 on `s_0`; the
//!   borrow is `1 - carry out`. `-x = 0 - x`, `k - x` likewise.
//! * `x + k`: `s_i = x_i + k_i` with the clear digits as constants. Low blocks where
//!   `k` is 0 pass through untouched, so `x + k` costs one bootstrap per block from the
//!   lowest non-zero digit of `k` up. `x - k = x + (base^n - k)`.
//!
//! Clear operands are taken modulo `base^blocks`; for the overflow flags a clear
//! operand that does not fit counts as it is: `x + k` and `x - k` always overflow when
//! `k >= base^blocks`, and `k - x` never does (with zero blocks, `x` is 0 and only
//! `k` decides).
//!
//! Costs in bootstraps (layers); the ripple strategy is the one chosen on a few cores,
//! the low-latency one on a GPU. Subtraction costs as much as addition; negation and
//! the scalar forms at most as much (in low latency their top block may skip its
//! first bootstrap); overflowing forms cost the same in ripple and one or two
//! bootstraps more in low latency:
//!
//! | bits | blocks | ripple | low latency | overflowing, low latency |
//! |------|--------|--------|-------------|--------------------------|
//! | 8    | 4      | 4 (4)  | 8 (3)       | 10 (3)                   |
//! | 16   | 8      | 8 (8)  | 19 (4)      | 20 (4)                   |
//! | 32   | 16     | 16 (16)| 44 (5)      | 46 (5)                   |
//! | 64   | 32     | 32 (32)| 93 (6)      | 94 (6)                   |
//! | 128  | 64     | 64 (64)| 193 (7)     | 195 (7)                  |
//!
//! TFHE-rs needs 8 bootstraps for an 8-bit addition, 64 for a 64-bit one and 63 for a
//! 64-bit scalar addition.

use super::carry::{propagate, Strategy};
use super::{check_radix, check_same_length, clear_digits, Radix, U2048};
use crate::error::Result;
use crate::integer::circuit::{Circuit, Wire};

/// An addition-like operation.
#[derive(Debug, Clone, Copy)]
pub(crate) enum AddOp<'a> {
    /// `lhs + rhs`; flag: carry out.
    Add(&'a [Wire], &'a [Wire]),
    /// `lhs - rhs`; flag: `lhs < rhs`.
    Sub(&'a [Wire], &'a [Wire]),
    /// `-x`; flag: `x != 0`.
    Neg(&'a [Wire]),
    /// `x + clear`; flag: the sum does not fit.
    ScalarAdd(&'a [Wire], U2048),
    /// `x - clear`; flag: `x < clear`.
    ScalarSub(&'a [Wire], U2048),
    /// `clear - x`; flag: `clear < x`.
    ClearSub(U2048, &'a [Wire]),
}

/// What the flag is made of.
enum Flag {
    Carry,
    Borrow,
    Known(u64),
}

/// The result of `op` and its flag (a block holding 0 or 1; meaningful only with
/// `want_flag`, a trivial 0 otherwise), with carries propagated by `strategy`.
pub(crate) fn add_op(
    c: &mut Circuit,
    op: AddOp<'_>,
    want_flag: bool,
    strategy: Strategy,
) -> Result<(Radix, Wire)> {
    let m = c.message_modulus();
    let x = match op {
        AddOp::Add(a, b) | AddOp::Sub(a, b) => {
            check_same_length(a, b)?;
            check_radix(c, b)?;
            a
        }
        AddOp::Neg(x) | AddOp::ScalarAdd(x, _) | AddOp::ScalarSub(x, _) | AddOp::ClearSub(_, x) => {
            x
        }
    };
    check_radix(c, x)?;
    let n = x.len();
    let bits = n as u64 * u64::from(m.trailing_zeros());
    let fits = |k: U2048| k.fits_in(bits.try_into().unwrap_or(u32::MAX));
    let zeros = vec![0; n];
    // (operands, complemented?), clear digits, carry-in, flag.
    type Form<'a> = (Vec<(&'a [Wire], bool)>, Vec<u64>, u64, Flag);
    let (terms, digits, carry_in, flag): Form<'_> = match op {
        AddOp::Add(a, b) => (vec![(a, false), (b, false)], zeros, 0, Flag::Carry),
        AddOp::Sub(a, b) => (vec![(a, false), (b, true)], zeros, 1, Flag::Borrow),
        AddOp::Neg(x) => (vec![(x, true)], zeros, 1, Flag::Borrow),
        AddOp::ScalarAdd(x, k) => {
            let flag = if fits(k) { Flag::Carry } else { Flag::Known(1) };
            (vec![(x, false)], clear_digits(k, m, n), 0, flag)
        }
        AddOp::ScalarSub(x, k) => {
            let digits = negated_digits(k, m, n);
            let flag = if !fits(k) {
                Flag::Known(1)
            } else if digits.iter().all(|&d| d == 0) {
                Flag::Known(0)
            } else {
                Flag::Borrow
            };
            (vec![(x, false)], digits, 0, flag)
        }
        AddOp::ClearSub(k, x) => {
            let flag = if fits(k) {
                Flag::Borrow
            } else {
                Flag::Known(0)
            };
            (vec![(x, true)], clear_digits(k, m, n), 1, flag)
        }
    };
    let mut sums = Vec::with_capacity(n);
    for (i, &digit) in digits.iter().enumerate() {
        let mut linear = Vec::with_capacity(terms.len());
        let mut constant = digit + if i == 0 { carry_in } else { 0 };
        for &(radix, complemented) in &terms {
            if complemented {
                linear.push((radix[i], -1));
                constant += m - 1;
            } else {
                linear.push((radix[i], 1));
            }
        }
        sums.push(c.linear(&linear, constant)?);
    }
    let need_carry = want_flag && !matches!(flag, Flag::Known(_));
    let (digits, carry) = propagate(c, &sums, need_carry, strategy)?;
    // With no block, the carry-in is the carry out.
    let carry = match carry {
        Some(carry) if n > 0 => carry,
        _ => c.constant(carry_in)?,
    };
    let flag = match flag {
        _ if !want_flag => c.constant(0)?,
        Flag::Carry => carry,
        Flag::Borrow => c.linear(&[(carry, -1)], 1)?,
        Flag::Known(v) => c.constant(v)?,
    };
    Ok((digits, flag))
}

/// The `count` digits of `-clear` modulo `base^count`.
fn negated_digits(clear: U2048, m: u64, count: usize) -> Vec<u64> {
    let mut carry = 1;
    clear_digits(clear, m, count)
        .into_iter()
        .map(|d| {
            let v = m - 1 - d + carry;
            carry = v / m;
            v % m
        })
        .collect()
}

/// `lhs + rhs` modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{add, decrypt_radix, encrypt_radix, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 13u128, 2).unwrap(); // 2 blocks: 4 bits
/// let b = encrypt_radix(&ck, 7u128, 2).unwrap();
/// let out = run(&backend, &[&a, &b], |c, x| Ok(vec![add(c, &x[0], &x[1])?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), (13 + 7) % 16);
/// ```
pub fn add(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<Radix> {
    Ok(add_op(c, AddOp::Add(lhs, rhs), false, Strategy::Auto)?.0)
}

/// `lhs - rhs` modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, sub};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 5u128, 2).unwrap();
/// let b = encrypt_radix(&ck, 9u128, 2).unwrap();
/// let out = run(&backend, &[&a, &b], |c, x| Ok(vec![sub(c, &x[0], &x[1])?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 16 + 5 - 9);
/// ```
pub fn sub(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<Radix> {
    Ok(add_op(c, AddOp::Sub(lhs, rhs), false, Strategy::Auto)?.0)
}

/// `-x` modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, neg, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 3u128, 2).unwrap();
/// let out = run(&backend, &[&a], |c, x| Ok(vec![neg(c, &x[0])?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 16 - 3);
/// ```
pub fn neg(c: &mut Circuit, x: &[Wire]) -> Result<Radix> {
    Ok(add_op(c, AddOp::Neg(x), false, Strategy::Auto)?.0)
}

/// `x + clear` modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::{cpu::CpuBackend, Backend};
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, scalar_add};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 6u128, 2).unwrap();
/// let out = run(&backend, &[&a], |c, x| Ok(vec![scalar_add(c, &x[0], 4u128)?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 10);
/// // The low digit of 4 is 0: block 0 passes through, one bootstrap for block 1.
/// assert_eq!(backend.pbs_count(), 1);
/// ```
pub fn scalar_add(c: &mut Circuit, x: &[Wire], clear: impl Into<U2048>) -> Result<Radix> {
    Ok(add_op(c, AddOp::ScalarAdd(x, clear.into()), false, Strategy::Auto)?.0)
}

/// `x - clear` modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, scalar_sub};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 6u128, 2).unwrap();
/// let out = run(&backend, &[&a], |c, x| Ok(vec![scalar_sub(c, &x[0], 7u128)?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 15); // 6 - 7 wraps modulo 16
/// ```
pub fn scalar_sub(c: &mut Circuit, x: &[Wire], clear: impl Into<U2048>) -> Result<Radix> {
    Ok(add_op(c, AddOp::ScalarSub(x, clear.into()), false, Strategy::Auto)?.0)
}

/// `clear - x` modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{clear_sub, decrypt_radix, encrypt_radix, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 6u128, 2).unwrap();
/// let out = run(&backend, &[&a], |c, x| Ok(vec![clear_sub(c, 10u128, &x[0])?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 4);
/// ```
pub fn clear_sub(c: &mut Circuit, clear: impl Into<U2048>, x: &[Wire]) -> Result<Radix> {
    Ok(add_op(c, AddOp::ClearSub(clear.into(), x), false, Strategy::Auto)?.0)
}

/// `lhs + rhs` and whether it overflowed (a block holding 0 or 1).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, overflowing_add, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 13u128, 2).unwrap();
/// let b = encrypt_radix(&ck, 7u128, 2).unwrap();
/// let out = run(&backend, &[&a, &b], |c, x| {
///     let (sum, overflow) = overflowing_add(c, &x[0], &x[1])?;
///     Ok(vec![sum, vec![overflow]])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 4);
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 1);
/// ```
pub fn overflowing_add(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<(Radix, Wire)> {
    add_op(c, AddOp::Add(lhs, rhs), true, Strategy::Auto)
}

/// `lhs - rhs` and whether it underflowed, that is `lhs < rhs` (0 or 1).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, overflowing_sub, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 5u128, 2).unwrap();
/// let b = encrypt_radix(&ck, 9u128, 2).unwrap();
/// let out = run(&backend, &[&a, &b], |c, x| {
///     let (difference, borrow) = overflowing_sub(c, &x[0], &x[1])?;
///     Ok(vec![difference, vec![borrow]])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 12);
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 1); // 5 < 9
/// ```
pub fn overflowing_sub(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<(Radix, Wire)> {
    add_op(c, AddOp::Sub(lhs, rhs), true, Strategy::Auto)
}

/// `x + clear` and whether it overflowed: the carry out, or 1 when `clear` itself
/// does not fit in the blocks.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, overflowing_scalar_add, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 6u128, 2).unwrap();
/// let out = run(&backend, &[&a], |c, x| {
///     let (small, no) = overflowing_scalar_add(c, &x[0], 9u128)?;
///     let (big, yes) = overflowing_scalar_add(c, &x[0], 16u128 + 1)?;
///     Ok(vec![small, vec![no], big, vec![yes]])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 15);
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 0);
/// assert_eq!(decrypt_radix(&ck, &out[2]).unwrap(), 7); // 6 + 17 modulo 16
/// assert_eq!(ck.decrypt(&out[3][0]).unwrap(), 1); // 17 does not fit in 4 bits
/// ```
pub fn overflowing_scalar_add(
    c: &mut Circuit,
    x: &[Wire],
    clear: impl Into<U2048>,
) -> Result<(Radix, Wire)> {
    add_op(c, AddOp::ScalarAdd(x, clear.into()), true, Strategy::Auto)
}

/// `x - clear` and whether it underflowed, that is `x < clear` (always when `clear`
/// does not fit in the blocks).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, overflowing_scalar_sub, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 6u128, 2).unwrap();
/// let out = run(&backend, &[&a], |c, x| {
///     let (difference, borrow) = overflowing_scalar_sub(c, &x[0], 7u128)?;
///     Ok(vec![difference, vec![borrow]])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 15);
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 1); // 6 < 7
/// ```
pub fn overflowing_scalar_sub(
    c: &mut Circuit,
    x: &[Wire],
    clear: impl Into<U2048>,
) -> Result<(Radix, Wire)> {
    add_op(c, AddOp::ScalarSub(x, clear.into()), true, Strategy::Auto)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::sum::tests::{check_clear, edge_values, mask, random_value};
    use crate::integer::tests::{check_radix_op, circuit_with_inputs};

    const STRATEGIES: [Strategy; 2] = [Strategy::Ripple, Strategy::LowLatency];

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Kind {
        Add,
        Sub,
        Neg,
        ScalarAdd,
        ScalarSub,
        ClearSub,
    }

    const KINDS: [Kind; 6] = [
        Kind::Add,
        Kind::Sub,
        Kind::Neg,
        Kind::ScalarAdd,
        Kind::ScalarSub,
        Kind::ClearSub,
    ];

    impl Kind {
        fn op<'a>(self, x: &'a [Radix], clear: u128) -> AddOp<'a> {
            match self {
                Kind::Add => AddOp::Add(&x[0], &x[1]),
                Kind::Sub => AddOp::Sub(&x[0], &x[1]),
                Kind::Neg => AddOp::Neg(&x[0]),
                Kind::ScalarAdd => AddOp::ScalarAdd(&x[0], clear.into()),
                Kind::ScalarSub => AddOp::ScalarSub(&x[0], clear.into()),
                Kind::ClearSub => AddOp::ClearSub(clear.into(), &x[0]),
            }
        }

        fn binary(self) -> bool {
            matches!(self, Kind::Add | Kind::Sub)
        }

        fn scalar(self) -> bool {
            matches!(self, Kind::ScalarAdd | Kind::ScalarSub | Kind::ClearSub)
        }

        /// (result modulo 4^blocks, flag) on operands below 4^blocks.
        fn expected(self, a: u128, b: u128, k: u128, blocks: usize) -> (u128, bool) {
            let max = mask(blocks);
            let (result, flag) = match self {
                Kind::Add => (a.wrapping_add(b), a.checked_add(b).is_none_or(|s| s > max)),
                Kind::Sub => (a.wrapping_sub(b), a < b),
                Kind::Neg => (a.wrapping_neg(), a != 0),
                Kind::ScalarAdd => (a.wrapping_add(k), a.checked_add(k).is_none_or(|s| s > max)),
                Kind::ScalarSub => (a.wrapping_sub(k), a < k),
                Kind::ClearSub => (k.wrapping_sub(a), k < a),
            };
            (result & max, flag)
        }
    }

    /// Bootstraps of the ripple form: one per block from the lowest block that a
    /// clear operand does not leave untouched.
    fn ripple_bootstraps(kind: Kind, k: u128, blocks: usize) -> usize {
        let k = k & mask(blocks);
        let low_zeros = |k: u128| (k.trailing_zeros() / 2) as usize;
        match kind {
            Kind::ScalarAdd | Kind::ScalarSub if k == 0 => 0,
            Kind::ScalarAdd | Kind::ScalarSub => blocks - low_zeros(k),
            _ => blocks,
        }
    }

    fn clears(blocks: usize) -> Vec<u128> {
        let max = mask(blocks);
        let mut state = blocks as u64;
        vec![
            0,
            1,
            3,
            4,
            max,
            max - max.min(1),
            max.wrapping_add(1),
            max.wrapping_add(5),
            1 << 70,
            u128::MAX,
            random_value(&mut state, blocks),
            random_value(&mut state, blocks) & !15,
        ]
    }

    #[test]
    fn every_operation_flag_and_strategy_in_clear() {
        let mut lengths: Vec<usize> = (0..=9).collect();
        lengths.extend([16, 31, 32, 33, 64]);
        for blocks in lengths {
            let values = edge_values(blocks, 11);
            let pairs: Vec<Vec<u128>> = values
                .iter()
                .flat_map(|&a| [a, 1, mask(blocks), a / 2 + 1].map(|b| vec![a, b]))
                .collect();
            for kind in KINDS {
                let clears = if kind.scalar() {
                    clears(blocks)
                } else {
                    vec![0]
                };
                for k in clears {
                    for strategy in STRATEGIES {
                        for flag in [false, true] {
                            let build = |c: &mut Circuit, x: &[Radix]| {
                                let (r, f) = add_op(c, kind.op(x, k), flag, strategy)?;
                                Ok(if flag { vec![r, vec![f]] } else { vec![r] })
                            };
                            let expected = |v: &[u128]| {
                                let b = if kind.binary() { v[1] } else { 0 };
                                let (r, f) = kind.expected(v[0], b, k, blocks);
                                if flag {
                                    vec![r, f as u128]
                                } else {
                                    vec![r]
                                }
                            };
                            let operands: Vec<Vec<u128>> = if kind.binary() {
                                pairs.clone()
                            } else {
                                values.iter().map(|&a| vec![a]).collect()
                            };
                            let stats = check_clear(1, blocks, &operands, &build, &expected);
                            if strategy == Strategy::Ripple {
                                assert_eq!(
                                    (stats.bootstraps, stats.depth),
                                    (
                                        ripple_bootstraps(kind, k, blocks),
                                        ripple_bootstraps(kind, k, blocks)
                                    ),
                                    "{kind:?} {k} on {blocks} blocks, flag {flag}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// Runs `kind` (with its flag as one more block) encrypted on `values` (operands
    /// paired with themselves reversed for binary operations); returns the stats.
    fn check_encrypted(
        kind: Kind,
        blocks: usize,
        values: &[u128],
        k: u128,
        strategy: Strategy,
    ) -> crate::integer::CircuitStats {
        let operands: Vec<Vec<u128>> = if kind.binary() {
            values
                .iter()
                .zip(values.iter().rev())
                .map(|(&a, &b)| vec![a, b])
                .collect()
        } else {
            values.iter().map(|&a| vec![a]).collect()
        };
        let build = |c: &mut Circuit, x: &[Radix]| {
            let (mut r, f) = add_op(c, kind.op(x, k), true, strategy)?;
            r.push(f);
            Ok(r)
        };
        let expected = |v: &[u128]| {
            let b = if kind.binary() { v[1] } else { 0 };
            let (r, f) = kind.expected(v[0], b, k, blocks);
            r | (f as u128) << (2 * blocks)
        };
        check_radix_op(blocks, &operands, &build, &expected, Some(blocks + 1))
    }

    #[test]
    fn encrypted_operations_with_flags_for_both_strategies() {
        // Low-latency (bootstraps, depth) with the flag, for add and sub.
        let low_latency = [
            (1, 2, 2),
            (2, 4, 2),
            (3, 7, 3),
            (4, 10, 3),
            (5, 12, 3),
            (8, 20, 4),
            (32, 94, 6),
        ];
        for (blocks, ll_bootstraps, ll_depth) in low_latency {
            let max = mask(blocks);
            let mut state = 5 + blocks as u64;
            let mut values = vec![0, 1, max, max / 3, max / 3 * 2 + 1];
            values.push(random_value(&mut state, blocks));
            for strategy in STRATEGIES {
                for kind in [Kind::Add, Kind::Sub, Kind::Neg] {
                    let stats = check_encrypted(kind, blocks, &values, 0, strategy);
                    if strategy == Strategy::Ripple {
                        assert_eq!(
                            (stats.bootstraps, stats.depth),
                            (blocks, blocks),
                            "{kind:?}"
                        );
                    } else if kind != Kind::Neg {
                        assert_eq!(
                            (stats.bootstraps, stats.depth),
                            (ll_bootstraps, ll_depth),
                            "{kind:?}"
                        );
                    }
                }
                for (kind, k) in [
                    (Kind::ScalarAdd, 1),
                    (Kind::ScalarAdd, max.wrapping_sub(4)),
                    (Kind::ScalarAdd, 1 << 70),
                    (Kind::ScalarSub, 4),
                    (Kind::ScalarSub, max),
                    (Kind::ClearSub, 2),
                ] {
                    let stats = check_encrypted(kind, blocks, &values, k, strategy);
                    if strategy == Strategy::Ripple {
                        let want = ripple_bootstraps(kind, k, blocks);
                        assert_eq!(
                            (stats.bootstraps, stats.depth),
                            (want, want),
                            "{kind:?} {k}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn trivial_blocks_fold() {
        for blocks in [1usize, 5, 32] {
            for strategy in STRATEGIES {
                let mut state = 3;
                let k = random_value(&mut state, blocks);
                let operands: Vec<Vec<u128>> = edge_values(blocks, 8)
                    .into_iter()
                    .map(|v| vec![v])
                    .collect();
                // The encrypted x plus the same clear as trivial blocks.
                let build = |c: &mut Circuit, x: &[Radix]| {
                    let trivial: Radix = clear_digits(k, 4, blocks)
                        .into_iter()
                        .map(|d| c.constant(d))
                        .collect::<Result<_>>()?;
                    let (r, f) = add_op(c, AddOp::Add(&x[0], &trivial), true, strategy)?;
                    let (all_trivial, g) =
                        add_op(c, AddOp::Sub(&trivial, &trivial), true, strategy)?;
                    Ok(vec![r, vec![f], all_trivial, vec![g]])
                };
                let expected = |v: &[u128]| {
                    let (r, f) = Kind::Add.expected(v[0], k, 0, blocks);
                    vec![r, f as u128, 0, 0]
                };
                let stats = check_clear(1, blocks, &operands, &build, &expected);
                let scalar = check_clear(
                    1,
                    blocks,
                    &operands,
                    &|c, x| {
                        let (r, f) = add_op(c, AddOp::ScalarAdd(&x[0], k.into()), true, strategy)?;
                        Ok(vec![r, vec![f]])
                    },
                    &|v| {
                        let (r, f) = Kind::ScalarAdd.expected(v[0], 0, k, blocks);
                        vec![r, f as u128]
                    },
                );
                assert_eq!(
                    stats, scalar,
                    "trivial blocks cost what a clear operand costs"
                );
            }
        }
    }

    #[test]
    fn operands_must_match_and_be_clean() {
        let (mut c, x) = circuit_with_inputs(1, &[3, 2]);
        let (a, b) = (x[0].clone(), x[1].clone());
        assert!(add(&mut c, &a, &b).is_err());
        assert!(overflowing_sub(&mut c, &a, &b).is_err());
        let dirty = c.add(a[0], a[1]).unwrap();
        assert!(neg(&mut c, &[dirty]).is_err());
        assert!(scalar_add(&mut c, &[a[0], dirty], 1u8).is_err());
        // Zero blocks: an empty result and no overflow.
        let (sum, flag) = overflowing_add(&mut c, &[], &[]).unwrap();
        assert!(sum.is_empty());
        assert_eq!(c.known_value(flag), Some(0));
        let (_, borrow) = overflowing_sub(&mut c, &[], &[]).unwrap();
        assert_eq!(c.known_value(borrow), Some(0));
        let (_, flag) = overflowing_scalar_add(&mut c, &[], 0u8).unwrap();
        assert_eq!(c.known_value(flag), Some(0));
        // A clear operand that does not fit overflows, even with no block.
        let (_, flag) = overflowing_scalar_add(&mut c, &[], 1u8).unwrap();
        assert_eq!(c.known_value(flag), Some(1));
        let (_, flag) = overflowing_scalar_sub(&mut c, &a, 1u8 << 6).unwrap();
        assert_eq!(c.known_value(flag), Some(1));
    }
}
