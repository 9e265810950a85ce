//! Multiplication of radix integers (encrypted or clear right operand) and sums of
//! many integers.
//!
//! * `sum`: the blocks of every term at position `k` form column `k`, reduced by the
//!   carry-save rounds of `sum.rs` and finished by one carry propagation (two terms
//!   cost exactly an addition).
//! * `mul`: the products `a_i * b_j` with `i + j < blocks` (the others fall beyond the
//!   width). Most are one bivariate bootstrap giving the whole product (up to 9, two
//!   digits' worth) in column `i + j`; since two whole products do not fit in one
//!   block, about a third of each column (`ceil((6 p - 2 s) / 18)` of its `p`, `s`
//!   being the previous column's count) is split instead into its low digit
//!   `(a b) mod 4` and high digit `(a b) / 4` (two bootstraps) so that every whole
//!   product finds partners to fill a block (`9 + 3 + 3`). The top column takes only
//!   `(a b) mod 4`. Then `sum`'s reduction.
//! * `scalar_mul`: zero digits of the clear cost nothing, digit 1 uses `x` as it is
//!   (so a power of 4 is a shift of blocks, free), and the multiples `2 x` and `3 x`
//!   are either linear (`d * x_i`, no bootstrap) or the low and high digits of `2 x_i`
//!   and `3 x_i`, all four from one bootstrap per block (a digit is small enough for
//!   four functions), possibly propagated into clean radices first. The cheapest of
//!   these circuits is kept. A power of two with an odd exponent is one carry
//!   propagation of `2 x` on the blocks it keeps.
//!
//! Costs of `a * b` in bootstraps (layers), with the ripple finish chosen on a few
//! cores and the low-latency one on a GPU:
//!
//! | bits | blocks | ripple | low latency |
//! |------|--------|--------|-------------|
//! | 8    | 4      | 21 (4) | 21 (4)      |
//! | 16   | 8      | 95 (9) | 100 (8)     |
//! | 32   | 16     | 387 (17) | 410 (11)  |
//! | 64   | 32     | 1,550 (33) | 1,616 (12) |
//! | 128  | 64     | 6,217 (65) | 6,366 (15) |
//!
//! A 64-bit `x * k` for a random `k` costs about 300 (283 to 357 bootstraps).
//!
//! TFHE-rs needs 1,737 bootstraps for a 64-bit multiplication.

use super::carry::{cheapest, propagate, Strategy};
use super::sum::{sum_columns, Finish};
use super::{check_radix, check_same_length, clear_digits, Radix, U2048};
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};

/// The product `a * b` of two clean blocks as one block of column weight (no
/// bootstrap when one of them is known); with `low_only`, its value modulo the base.
fn block_product(c: &mut Circuit, a: Wire, b: Wire, low_only: bool) -> Result<Option<Wire>> {
    let m = c.message_modulus();
    let (ka, kb) = (c.known_value(a), c.known_value(b));
    if ka == Some(0) || kb == Some(0) {
        return Ok(None);
    }
    let product = match (ka, kb) {
        (Some(x), Some(y)) => c.constant(if low_only { x * y % m } else { x * y })?,
        (Some(k), None) => c.linear(&[(b, k as i64)], 0)?,
        (None, Some(k)) => c.linear(&[(a, k as i64)], 0)?,
        (None, None) if low_only => c.bivariate(a, b, move |x, y| x * y % m)?,
        (None, None) => c.bivariate(a, b, |x, y| x * y)?,
    };
    Ok(Some(product))
}

/// [`mul`] with carries propagated by `strategy`.
pub(crate) fn mul_with(
    c: &mut Circuit,
    lhs: &[Wire],
    rhs: &[Wire],
    strategy: Strategy,
) -> Result<Radix> {
    check_same_length(lhs, rhs)?;
    check_radix(c, lhs)?;
    check_radix(c, rhs)?;
    let candidates = Finish::candidates(strategy);
    let finish = cheapest(c, &[lhs, rhs], &candidates, |s, x, finish| {
        mul_by(s, &x[0], &x[1], finish)
    })
    .unwrap_or(candidates[0]);
    mul_by(c, lhs, rhs, finish)
}

fn mul_by(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire], finish: Finish) -> Result<Radix> {
    let n = lhs.len();
    let m = c.message_modulus();
    let mut columns: Vec<Vec<Wire>> = vec![Vec::new(); n];
    let mut split_below = 0;
    for k in 0..n {
        // Whole products (up to 9) pack only with smaller blocks: split the first few
        // of each column into low and high digits to give the others partners.
        let split = if k + 1 == n {
            0
        } else {
            (6 * (k + 1))
                .saturating_sub(2 * split_below)
                .div_ceil(18)
                .min(k + 1)
        };
        for i in 0..=k {
            let (a, b) = (lhs[i], rhs[k - i]);
            let known = c.known_value(a).is_some() || c.known_value(b).is_some();
            if i < split && !known {
                columns[k].push(c.bivariate(a, b, move |x, y| x * y % m)?);
                columns[k + 1].push(c.bivariate(a, b, move |x, y| x * y / m)?);
            } else {
                columns[k].extend(block_product(c, a, b, k + 1 == n)?);
            }
        }
        split_below = split;
    }
    sum_columns(c, columns, finish)
}

/// `lhs * rhs` modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, mul, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 13u128, 2).unwrap(); // 2 blocks: 4 bits
/// let b = encrypt_radix(&ck, 7u128, 2).unwrap();
/// let out = run(&backend, &[&a, &b], |c, x| Ok(vec![mul(c, &x[0], &x[1])?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 13 * 7 % 16);
/// ```
pub fn mul(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<Radix> {
    mul_with(c, lhs, rhs, Strategy::Auto)
}

/// How `scalar_mul` forms the multiples `d * x` of the digits 2 and 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Multiples {
    /// `d * x_i` as a linear combination (degree `3 d`, noise level `d`).
    Linear,
    /// The low and high digits of `d * x_i` from one bootstrap per block (with every
    /// other digit's).
    Digits,
    /// `d * x` as a clean radix: those digits, then one carry propagation.
    Clean,
}

/// [`scalar_mul`] with carries propagated by `strategy`.
pub(crate) fn scalar_mul_with(
    c: &mut Circuit,
    x: &[Wire],
    clear: U2048,
    strategy: Strategy,
) -> Result<Radix> {
    check_radix(c, x)?;
    let mut candidates = Vec::new();
    for multiples in [Multiples::Linear, Multiples::Digits, Multiples::Clean] {
        for finish in Finish::candidates(strategy) {
            candidates.push((multiples, finish));
        }
    }
    let (multiples, finish) = cheapest(c, &[x], &candidates, |s, y, (multiples, finish)| {
        scalar_mul_by(s, &y[0], clear, multiples, finish)
    })
    .unwrap_or(candidates[0]);
    scalar_mul_by(c, x, clear, multiples, finish)
}

fn scalar_mul_by(
    c: &mut Circuit,
    x: &[Wire],
    clear: U2048,
    multiples: Multiples,
    finish: Finish,
) -> Result<Radix> {
    let m = c.message_modulus();
    let n = x.len();
    let digits = clear_digits(clear, m, n);
    // The blocks of x that digit d multiplies: those below n - (its lowest position).
    let mut width = vec![0; m as usize];
    for (j, &d) in digits.iter().enumerate() {
        width[d as usize] = width[d as usize].max(n - j);
    }
    // Per digit, the row d * x as (column offset, block) items.
    let mut rows: Vec<Vec<(usize, Wire)>> = vec![Vec::new(); m as usize];
    rows[1] = x.iter().copied().enumerate().collect();
    if multiples == Multiples::Linear {
        for d in 2..m as usize {
            for (i, &w) in x.iter().enumerate().take(width[d]) {
                rows[d].push((i, c.linear(&[(w, d as i64)], 0)?));
            }
        }
    } else {
        // One bootstrap per block: the low and high digits of every needed multiple.
        for (i, &w) in x.iter().enumerate() {
            // (digit, column offset): the low digit of d * x_i goes to offset i, the
            // high one to i + 1.
            let mut parts = Vec::new();
            for (d, &blocks) in width.iter().enumerate().skip(2) {
                parts.extend(
                    [i, i + 1]
                        .into_iter()
                        .filter(|&o| o < blocks)
                        .map(|o| (d, o)),
                );
            }
            if parts.is_empty() {
                continue;
            }
            let fs: Vec<_> = parts
                .iter()
                .map(|&(d, offset)| {
                    let (d, high) = (d as u64, offset > i);
                    move |v: u64| if high { d * v / m } else { d * v % m }
                })
                .collect();
            let refs: Vec<&dyn Fn(u64) -> u64> =
                fs.iter().map(|f| f as &dyn Fn(u64) -> u64).collect();
            let outs = c.tables(w, &refs)?;
            for (&(d, offset), out) in parts.iter().zip(outs) {
                rows[d].push((offset, out));
            }
        }
        if multiples == Multiples::Clean {
            for d in 2..m as usize {
                let mut sums = vec![Vec::new(); width[d]];
                for &(offset, w) in &rows[d] {
                    sums[offset].push((w, 1));
                }
                let sums: Vec<Wire> = sums
                    .iter()
                    .map(|terms| c.linear(terms, 0))
                    .collect::<Result<_>>()?;
                let clean = propagate(c, &sums, false, finish.strategy)?.0;
                rows[d] = clean.into_iter().enumerate().collect();
            }
        }
    }
    let mut columns: Vec<Vec<Wire>> = vec![Vec::new(); n];
    for (j, &d) in digits.iter().enumerate() {
        for &(offset, w) in &rows[d as usize] {
            if offset + j < n {
                columns[offset + j].push(w);
            }
        }
    }
    sum_columns(c, columns, finish)
}

/// `x * clear` modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, scalar_mul};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 11u128, 2).unwrap();
/// let out = run(&backend, &[&a], |c, x| {
///     Ok(vec![scalar_mul(c, &x[0], 6u128)?, scalar_mul(c, &x[0], 4u128)?])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 11 * 6 % 16);
/// assert_eq!(decrypt_radix(&ck, &out[1]).unwrap(), 11 * 4 % 16);
/// ```
pub fn scalar_mul(c: &mut Circuit, x: &[Wire], clear: impl Into<U2048>) -> Result<Radix> {
    scalar_mul_with(c, x, clear.into(), Strategy::Auto)
}

/// [`sum`] with carries propagated by `strategy`.
pub(crate) fn sum_with(c: &mut Circuit, terms: &[&[Wire]], strategy: Strategy) -> Result<Radix> {
    let first = terms
        .first()
        .ok_or_else(|| Error::InvalidParameter("a sum needs at least one term".into()))?;
    for term in terms {
        check_same_length(first, term)?;
        check_radix(c, term)?;
    }
    let candidates = Finish::candidates(strategy);
    let finish = cheapest(c, terms, &candidates, |s, x, finish| {
        sum_by(s, &x.iter().map(Vec::as_slice).collect::<Vec<_>>(), finish)
    })
    .unwrap_or(candidates[0]);
    sum_by(c, terms, finish)
}

fn sum_by(c: &mut Circuit, terms: &[&[Wire]], finish: Finish) -> Result<Radix> {
    let n = terms.first().map_or(0, |t| t.len());
    let columns = (0..n)
        .map(|k| terms.iter().map(|term| term[k]).collect())
        .collect();
    sum_columns(c, columns, finish)
}

/// The sum of `terms` (at least one, all of the same length) modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, sum};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let terms: Vec<_> = [9u128, 14, 5].iter().map(|&v| encrypt_radix(&ck, v, 2).unwrap()).collect();
/// let refs: Vec<_> = terms.iter().collect();
/// let out = run(&backend, &refs, |c, x| {
///     let all: Vec<&[_]> = x.iter().map(|t| t.as_slice()).collect();
///     Ok(vec![sum(c, &all)?])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), (9 + 14 + 5) % 16);
/// ```
pub fn sum(c: &mut Circuit, terms: &[&[Wire]]) -> Result<Radix> {
    sum_with(c, terms, Strategy::Auto)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::sum::tests::{check_clear, edge_values, mask, random_value};
    use crate::integer::tests::{check_binary, check_radix_op, check_unary, circuit_with_inputs};
    use crate::integer::CircuitStats;

    const FINISHES: [Finish; 3] = [
        Finish {
            strategy: Strategy::Ripple,
            narrow: false,
        },
        Finish {
            strategy: Strategy::Ripple,
            narrow: true,
        },
        Finish {
            strategy: Strategy::LowLatency,
            narrow: true,
        },
    ];

    fn pairs(blocks: usize) -> Vec<Vec<u128>> {
        let values = edge_values(blocks, 3);
        let mut state = 99;
        let mut pairs: Vec<Vec<u128>> = values
            .iter()
            .flat_map(|&a| [mask(blocks), a / 3 + 1].map(|b| vec![a, b]))
            .collect();
        pairs.extend((0..6).map(|_| vec![random_value(&mut state, blocks); 2]));
        pairs
    }

    #[test]
    fn products_of_every_finish_in_clear() {
        let mut lengths: Vec<usize> = (0..=9).collect();
        lengths.extend([12, 16, 31, 32]);
        for blocks in lengths {
            for finish in FINISHES {
                check_clear(
                    1,
                    blocks,
                    &pairs(blocks),
                    &|c, x| Ok(vec![mul_by(c, &x[0], &x[1], finish)?]),
                    &|v| vec![v[0].wrapping_mul(v[1])],
                );
            }
        }
    }

    #[test]
    fn scalar_products_of_every_form_in_clear() {
        for blocks in [0usize, 1, 2, 3, 4, 5, 8, 13, 32, 64] {
            let mut state = 1234 + blocks as u64;
            let clears = [
                0,
                1,
                2,
                3,
                4,
                8,
                2 << 10,
                mask(blocks),
                mask(blocks).wrapping_add(3),
                1 << 70,
                u128::MAX,
                0x2222_3333,
                random_value(&mut state, blocks),
            ];
            let values: Vec<Vec<u128>> = edge_values(blocks, 5)
                .into_iter()
                .map(|v| vec![v])
                .collect();
            for k in clears {
                for multiples in [Multiples::Linear, Multiples::Digits, Multiples::Clean] {
                    for finish in FINISHES {
                        check_clear(
                            1,
                            blocks,
                            &values,
                            &|c, x| Ok(vec![scalar_mul_by(c, &x[0], k.into(), multiples, finish)?]),
                            &|v| vec![v[0].wrapping_mul(k)],
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn sums_of_many_terms_in_clear() {
        for blocks in [0usize, 1, 2, 3, 4, 8, 32] {
            for terms in [1usize, 2, 3, 4, 5, 7, 12] {
                let mut state = (blocks * 31 + terms) as u64;
                let mut operands = vec![vec![mask(blocks); terms], vec![0; terms]];
                operands.extend((0..4).map(|_| {
                    (0..terms)
                        .map(|_| random_value(&mut state, blocks))
                        .collect::<Vec<_>>()
                }));
                for finish in FINISHES {
                    let build = |c: &mut Circuit, x: &[Radix]| {
                        let refs: Vec<&[Wire]> = x.iter().map(Vec::as_slice).collect();
                        Ok(vec![sum_by(c, &refs, finish)?])
                    };
                    let expected =
                        |v: &[u128]| vec![v.iter().fold(0u128, |s, &x| s.wrapping_add(x))];
                    let stats = check_clear(1, blocks, &operands, &build, &expected);
                    if terms == 1 {
                        assert_eq!(stats.bootstraps, 0);
                    }
                    if terms == 2 && finish.strategy == Strategy::Ripple {
                        assert_eq!(stats.bootstraps, blocks, "two terms: an addition");
                    }
                }
            }
        }
    }

    fn stats_of(
        blocks: usize,
        parallelism: usize,
        build: &dyn Fn(&mut Circuit, &[Radix]) -> Result<Radix>,
    ) -> (usize, usize) {
        let zero = vec![vec![0u128; 2]];
        let stats: CircuitStats = check_clear(
            parallelism,
            blocks,
            &zero,
            &|c, x| Ok(vec![build(c, x)?]),
            &|_| vec![0],
        );
        (stats.bootstraps, stats.depth)
    }

    #[test]
    fn costs_of_8_16_32_and_64_bit_products() {
        // (blocks, ripple, low latency) as (bootstraps, depth).
        let table = [
            (4, (21, 4), (21, 4)),
            (8, (95, 9), (100, 8)),
            (16, (387, 17), (410, 11)),
            (32, (1550, 33), (1616, 12)),
        ];
        for (blocks, ripple, fast) in table {
            let mul_of = |s| move |c: &mut Circuit, x: &[Radix]| mul_with(c, &x[0], &x[1], s);
            assert_eq!(
                stats_of(blocks, 1, &mul_of(Strategy::Ripple)),
                ripple,
                "{blocks} blocks"
            );
            assert_eq!(
                stats_of(blocks, 1, &mul_of(Strategy::LowLatency)),
                fast,
                "{blocks} blocks"
            );
            // The public function picks by parallelism.
            assert_eq!(stats_of(blocks, 2, &|c, x| mul(c, &x[0], &x[1])), ripple);
            assert_eq!(
                stats_of(blocks, 10_000, &|c, x| mul(c, &x[0], &x[1])).1,
                fast.1
            );
        }
        // TFHE-rs: 1,737 bootstraps for 64 bits.
        assert!(stats_of(32, 2, &|c, x| mul(c, &x[0], &x[1])).0 < 1737);
    }

    #[test]
    fn scalar_products_skip_zero_digits_and_shift_powers_of_four() {
        let scalar = |k: u128| move |c: &mut Circuit, x: &[Radix]| scalar_mul(c, &x[0], k);
        assert_eq!(stats_of(32, 2, &scalar(0)), (0, 0));
        assert_eq!(stats_of(32, 2, &scalar(1)), (0, 0));
        assert_eq!(stats_of(32, 2, &scalar(1 << 40)), (0, 0));
        // 2^41 = 2 * 4^20: doubling the 12 low blocks, one propagation.
        assert_eq!(stats_of(32, 2, &scalar(1 << 41)), (12, 12));
        // 3 * 4^30: the two low blocks times 3.
        assert_eq!(stats_of(32, 2, &scalar(3 << 60)).0, 3);
        let random = 0x9e37_79b9_7f4a_7c15;
        assert_eq!(stats_of(32, 2, &scalar(random)), (357, 31));
        assert_eq!(stats_of(4, 2, &scalar(random)), (4, 3)); // x + 4 x + 16 x
                                                             // 27 = 3 + 2 * 4 + 16: one bootstrap per block for the multiples, 6 to sum.
        assert_eq!(stats_of(4, 2, &scalar(27)), (10, 4));
    }

    #[test]
    fn encrypted_products_for_both_strategies() {
        for blocks in [1usize, 2, 3, 4, 5, 8] {
            let pairs: Vec<(u128, u128)> = pairs(blocks)
                .into_iter()
                .take(8)
                .map(|v| (v[0], v[1]))
                .collect();
            for strategy in [Strategy::Ripple, Strategy::LowLatency] {
                check_binary(
                    blocks,
                    &pairs,
                    |c, a, b| mul_with(c, a, b, strategy),
                    |a, b| a.wrapping_mul(b),
                );
            }
            for k in [3u128, 6, 0x2d, 1 << 70] {
                let values: Vec<u128> = pairs.iter().map(|p| p.0).collect();
                check_unary(
                    blocks,
                    &values,
                    |c, x| scalar_mul(c, x, k),
                    |a| a.wrapping_mul(k),
                );
            }
            let triples: Vec<Vec<u128>> = pairs.iter().map(|&(a, b)| vec![a, b, a ^ b]).collect();
            check_radix_op(
                blocks,
                &triples,
                &|c, x| sum(c, &[&x[0], &x[1], &x[2]]),
                &|v| v[0] + v[1] + v[2],
                None,
            );
        }
    }

    #[test]
    fn encrypted_64_bit_product_for_both_strategies() {
        let pairs = [(0xdead_beef_0123_4567u128, 0xfedc_ba98_7654_3210u128)];
        for (strategy, want) in [(Strategy::Ripple, 1550), (Strategy::LowLatency, 1616)] {
            let stats = check_binary(
                32,
                &pairs,
                |c, a, b| mul_with(c, a, b, strategy),
                |a, b| a.wrapping_mul(b),
            );
            assert_eq!(stats.bootstraps, want);
        }
    }

    #[test]
    fn bad_operands_are_refused() {
        let (mut c, x) = circuit_with_inputs(1, &[3, 2]);
        let (a, b) = (x[0].clone(), x[1].clone());
        assert!(mul(&mut c, &a, &b).is_err());
        assert!(sum(&mut c, &[&a, &b]).is_err());
        assert!(sum(&mut c, &[]).is_err());
        let dirty = c.add(a[0], a[1]).unwrap();
        assert!(scalar_mul(&mut c, &[dirty], 3u8).is_err());
        assert!(mul(&mut c, &[], &[]).unwrap().is_empty());
    }
}
