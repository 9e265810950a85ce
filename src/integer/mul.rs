//! Multiplication of radix integers (encrypted or clear right operand) and sums of
//! many integers.
//!
//! * `sum`: the blocks of every term at position `k` form column `k`, reduced by the
//!   carry-save rounds of `sum.rs` and finished by one carry propagation.
//! * `mul`: each product `a_i * b_j` with `i + j < blocks` is one bivariate bootstrap
//!   giving the whole product (up to 9, so it spans two digits) in column `i + j`;
//!   the top column takes only `(a_i * b_j) mod 4`. Then `sum`'s reduction.
//! * `scalar_mul`: zero digits of the clear cost nothing and digit 1 uses `x` as it
//!   is. Digits 2 and 3 use, per block of `x`, either the linear `d * x_i` or the low
//!   and high digits of `2 x_i` and `3 x_i`, all four from one bootstrap (a digit is
//!   small enough for four functions); the cheaper circuit is kept. A power of two is
//!   a shift of blocks, plus one carry propagation when the exponent is odd.
//!
//! Costs in bootstraps (layers), ripple strategy (few cores) / low latency (GPU):
//!
//! | operation | 8-bit | 64-bit |
//! |-----------|-------|--------|
//! | `a * b` ripple | 22 (9) | 1,501 (37) |
//! | `a * b` low latency | 31 (7) | 1,673 (14) |
//!
//! TFHE-rs needs 1,737 bootstraps for a 64-bit multiplication.

use super::carry::{estimate, Strategy};
use super::sum::sum_columns;
use super::{check_radix, check_same_length, clear_digits, Radix};
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
    let strategy = strategy.resolve(c, &[lhs, rhs], |s, x, strategy| {
        mul_with(s, &x[0], &x[1], strategy)
    });
    let n = lhs.len();
    let mut columns: Vec<Vec<Wire>> = vec![Vec::new(); n];
    let m = c.message_modulus();
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
    sum_columns(c, columns, strategy)
}

/// `lhs * rhs` modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, mul, run};
/// use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};
/// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 13, 2).unwrap(); // 2 blocks: 4 bits
/// let b = encrypt_radix(&ck, 7, 2).unwrap();
/// let out = run(&backend, &[&a, &b], |c, x| Ok(vec![mul(c, &x[0], &x[1])?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 13 * 7 % 16);
/// ```
pub fn mul(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<Radix> {
    mul_with(c, lhs, rhs, Strategy::Auto)
}

/// How `scalar_mul` forms the multiples `d * x_i` of the digits 2 and 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Multiples {
    /// `d * x_i` as a linear combination (degree `3 d`, noise level `d`).
    Linear,
    /// The low and high digits of `d * x_i` from one bootstrap per block.
    Digits,
}

/// [`scalar_mul`] with carries propagated by `strategy`.
pub(crate) fn scalar_mul_with(
    c: &mut Circuit,
    x: &[Wire],
    clear: u128,
    strategy: Strategy,
) -> Result<Radix> {
    check_radix(c, x)?;
    let strategies = match strategy {
        Strategy::Auto => vec![Strategy::Ripple, Strategy::LowLatency],
        concrete => vec![concrete],
    };
    // The candidate of least estimated latency, then fewest bootstraps.
    let mut best = (usize::MAX, usize::MAX, Multiples::Linear, strategies[0]);
    for multiples in [Multiples::Linear, Multiples::Digits] {
        for &strategy in &strategies {
            let cost = estimate(c, &[x], |s, y| {
                scalar_mul_by(s, &y[0], clear, multiples, strategy)
            });
            if let Ok((latency, bootstraps)) = cost {
                best = best.min((latency, bootstraps, multiples, strategy));
            }
        }
    }
    scalar_mul_by(c, x, clear, best.2, best.3)
}

/// `d * x_i` as its low part and, where needed, its high part (digits), or whole
/// (linear).
type Multiple = (Wire, Option<Wire>);

fn scalar_mul_by(
    c: &mut Circuit,
    x: &[Wire],
    clear: u128,
    multiples: Multiples,
    strategy: Strategy,
) -> Result<Radix> {
    let m = c.message_modulus();
    let n = x.len();
    let digits = clear_digits(clear, m, n);
    let mut columns: Vec<Vec<Wire>> = vec![Vec::new(); n];
    // Per block of x and digit d: (low part, high part) of d * x_i.
    let mut parts: Vec<Vec<Option<Multiple>>> = vec![vec![None; m as usize]; n];
    for (i, &w) in x.iter().enumerate() {
        // Which digits > 1 this block meets, and whether their high part is needed.
        let mut needed = vec![None::<bool>; m as usize];
        for (j, &d) in digits.iter().enumerate().take(n - i) {
            if d > 1 {
                let high = i + j + 1 < n;
                needed[d as usize] = Some(needed[d as usize].unwrap_or(false) || high);
            }
        }
        let in_digits = multiples == Multiples::Digits && c.known_value(w).is_none();
        if in_digits {
            let mut fs: Vec<Box<dyn Fn(u64) -> u64>> = Vec::new();
            let mut slots = Vec::new();
            for (d, high) in needed.iter().enumerate() {
                if let Some(high) = *high {
                    let d = d as u64;
                    fs.push(Box::new(move |v| d * v % m));
                    if high {
                        fs.push(Box::new(move |v| d * v / m));
                    }
                    slots.push((d as usize, high));
                }
            }
            if fs.is_empty() {
                continue;
            }
            let refs: Vec<&dyn Fn(u64) -> u64> = fs.iter().map(|f| f.as_ref()).collect();
            let outs = c.tables(w, &refs)?;
            let mut next = outs.into_iter();
            for (d, high) in slots {
                let low = next.next().ok_or_else(internal)?;
                let high = if high { next.next() } else { None };
                parts[i][d] = Some((low, high));
            }
        } else {
            for (d, high) in needed.iter().enumerate() {
                if high.is_some() {
                    parts[i][d] = Some((c.linear(&[(w, d as i64)], 0)?, None));
                }
            }
        }
    }
    for (j, &d) in digits.iter().enumerate() {
        if d == 0 {
            continue;
        }
        for (i, &w) in x.iter().enumerate().take(n - j) {
            if d == 1 {
                columns[i + j].push(w);
                continue;
            }
            let (low, high) = parts[i][d as usize].ok_or_else(internal)?;
            columns[i + j].push(low);
            if let (Some(high), true) = (high, i + j + 1 < n) {
                columns[i + j + 1].push(high);
            }
        }
    }
    sum_columns(c, columns, strategy)
}

fn internal() -> Error {
    Error::InvalidParameter("internal: missing multiple in scalar_mul".into())
}

/// `x * clear` modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, scalar_mul};
/// use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};
/// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 11, 2).unwrap();
/// let out = run(&backend, &[&a], |c, x| {
///     Ok(vec![scalar_mul(c, &x[0], 6)?, scalar_mul(c, &x[0], 4)?])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 11 * 6 % 16);
/// assert_eq!(decrypt_radix(&ck, &out[1]).unwrap(), 11 * 4 % 16);
/// ```
pub fn scalar_mul(c: &mut Circuit, x: &[Wire], clear: u128) -> Result<Radix> {
    scalar_mul_with(c, x, clear, Strategy::Auto)
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
    let strategy = strategy.resolve(c, terms, |s, x, strategy| {
        let refs: Vec<&[Wire]> = x.iter().map(Vec::as_slice).collect();
        sum_with(s, &refs, strategy)
    });
    let columns = (0..first.len())
        .map(|k| terms.iter().map(|term| term[k]).collect())
        .collect();
    sum_columns(c, columns, strategy)
}

/// The sum of `terms` (at least one, all of the same length) modulo `base^blocks`.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, sum};
/// use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};
/// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let terms: Vec<_> = [9, 14, 5].iter().map(|&v| encrypt_radix(&ck, v, 2).unwrap()).collect();
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
