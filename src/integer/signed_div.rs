//! Division with remainder of two's complement radix integers, truncating toward
//! zero like Rust's `/` and `%` on `i64`: the remainder has the sign of the dividend,
//! and `MIN / -1` wraps to `MIN` (remainder 0).
//!
//! **By an encrypted divisor**: the magnitudes `|n|` and `|d|` ([`abs`]; `|MIN|` is
//! `2^(bits - 1)`, which the same blocks hold as an unsigned value) go through the
//! unsigned [`div_rem`], then the quotient is negated where the signs differ and the
//! remainder where the dividend is negative. Each negation is `(x ^ s) + flag`: one
//! bivariate table per block and an addition, its flag one table of the top blocks in
//! the first layer. An **encrypted zero divisor** gives what TFHE-rs gives: the
//! unsigned division returns `MAX` and `|n|`, so the quotient is -1 for `n >= 0` and 1
//! for `n < 0`, and the remainder is `n`.
//!
//! **By a clear divisor** `d`: `|n|` through [`scalar_div_rem`] by `|d|` (a shift for
//! a power of two, a product by a reciprocal otherwise), and the same negations, the
//! quotient's by the sign of `n` (flipped for a negative `d`). `d = 1` is free and
//! `d = -1` a negation; a clear zero is an `Err`.
//!
//! Costs in bootstraps (layers) on the default parameters, with the CPU's parallelism
//! of 2 and a GPU's, against the unsigned division of the same width (the tests pin
//! these):
//!
//! | divisor   | `FheInt8` CPU | GPU       | `FheInt64` CPU | GPU          |
//! |-----------|---------------|-----------|----------------|--------------|
//! | encrypted | 134 (60)      | 162 (56)  | 4,778 (1,377)  | 6,938 (570)  |
//! | clear 10  | 50 (17)       | 78 (19)   | 1,039 (77)     | 1,768 (37)   |
//! | clear 1   | 0             | 0         | 0              | 0            |
//!
//! (Unsigned, [`div_rem`]: `FheUint8` 99 (50) and 111 (48), `FheUint64` 4,519 (1,312)
//! and 6,439 (556); by 10: 25 (12), 41 (12), 846 (69), 1,401 (25). The magnitudes and
//! the negations cost about 4 bootstraps per block with ripple carries.)

use super::div::{div_rem, scalar_div_rem};
use super::signed::{abs, abs_and_sign, negate_where};
use super::{cast, check_radix, check_same_length, Radix, I2048};
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};

/// `(n / d, n % d)` of two's complement radix integers of the same length, truncating
/// toward zero (see the module docs; `MIN / -1` is `MIN`, and a zero divisor gives
/// TFHE-rs's `(-1, n)` for `n >= 0` and `(1, n)` for `n < 0`).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, signed_div_rem};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let n = encrypt_radix(&ck, 0xf3u128, 4).unwrap(); // -13 as an i8
/// let d = encrypt_radix(&ck, 4u128, 4).unwrap();
/// let out = run(&backend, &[&n, &d], |c, x| {
///     let (q, r) = signed_div_rem(c, &x[0], &x[1])?;
///     Ok(vec![q, r])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 0xfd); // -3
/// assert_eq!(decrypt_radix(&ck, &out[1]).unwrap(), 0xff); // -1
/// ```
pub fn signed_div_rem(c: &mut Circuit, n: &[Wire], d: &[Wire]) -> Result<(Radix, Radix)> {
    check_same_length(n, d)?;
    check_radix(c, n)?;
    check_radix(c, d)?;
    let (Some(&n_top), Some(&d_top)) = (n.last(), d.last()) else {
        return Ok((Vec::new(), Vec::new()));
    };
    let half = c.message_modulus() / 2;
    let signs_differ = c.bivariate(n_top, d_top, move |a, b| {
        u64::from((a >= half) != (b >= half))
    })?;
    let (abs_n, n_negative) = abs_and_sign(c, n)?;
    let abs_d = abs(c, d)?;
    let (q, r) = div_rem(c, &abs_n, &abs_d)?;
    Ok((
        negate_where(c, &q, signs_differ)?,
        negate_where(c, &r, n_negative)?,
    ))
}

/// `(n / d, n % d)` for a two's complement `n` and a clear `d`, truncating toward zero;
/// `Err` if `d` is 0. A `d` outside the range of `n` divides as the integer it is
/// (the quotient 0, or -1 for `MIN / 2^(bits - 1)`).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, signed_scalar_div_rem};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let n = encrypt_radix(&ck, 100u128, 4).unwrap();
/// let out = run(&backend, &[&n], |c, x| {
///     let (q, r) = signed_scalar_div_rem(c, &x[0], -7)?;
///     Ok(vec![q, r])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), (-14i8) as u8 as u128);
/// assert_eq!(decrypt_radix(&ck, &out[1]).unwrap(), 2);
/// ```
pub fn signed_scalar_div_rem(
    c: &mut Circuit,
    n: &[Wire],
    d: impl Into<I2048>,
) -> Result<(Radix, Radix)> {
    let d: I2048 = d.into();
    check_radix(c, n)?;
    if d == I2048::ZERO {
        return Err(Error::InvalidParameter(
            "division by a clear zero (an encrypted zero divisor gives -1 or 1 and the \
             dividend, as in TFHE-rs)"
                .into(),
        ));
    }
    if d == I2048::ONE {
        return Ok((n.to_vec(), cast(c, &[], n.len())?));
    }
    if d == I2048::from(-1i8) {
        return Ok((super::neg(c, n)?, cast(c, &[], n.len())?));
    }
    let (abs_n, n_negative) = abs_and_sign(c, n)?;
    let q_negative = match d.is_negative() {
        true => c.linear(&[(n_negative, -1)], 1)?,
        false => n_negative,
    };
    let (q, r) = scalar_div_rem(c, &abs_n, d.unsigned_abs())?;
    Ok((
        negate_where(c, &q, q_negative)?,
        negate_where(c, &r, n_negative)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::signed::sign_extend_clear;
    use crate::integer::sum::tests::check_clear;
    use crate::integer::tests::{check_radix_op, circuit_with_inputs, mask, table_costs};

    /// The two's complement bits of `v` on `blocks` blocks.
    fn bits_of(v: i128, blocks: usize) -> u128 {
        v as u128 & mask(2 * blocks)
    }

    /// `(n / d, n % d)` of `blocks`-block two's complement bit patterns, as bit
    /// patterns: Rust's wrapping division, TFHE-rs's `(n < 0 ? 1 : -1, n)` for `d = 0`.
    fn expected(n: u128, d: u128, blocks: usize) -> (u128, u128) {
        let bits = 2 * blocks as u32;
        let (n, d) = (sign_extend_clear(n, bits), sign_extend_clear(d, bits));
        let (q, r) = match d {
            0 => (if n < 0 { 1 } else { -1 }, n),
            // i128 holds every quotient of up to 128 bits but -2^127 / -1.
            _ => (n.wrapping_div(d), n.wrapping_rem(d)),
        };
        (bits_of(q, blocks), bits_of(r, blocks))
    }

    /// `count` values of `blocks` blocks spread over their range (all of them when
    /// there are that many), with the edges.
    fn operands(blocks: usize, count: usize) -> Vec<u128> {
        let all = 1u128 << (2 * blocks);
        let max = all / 2 - 1;
        let mut values = vec![0, 1, 2, 3, max, max - 1, max + 1, max + 2, all - 1, all - 2];
        let step = (all / count as u128).max(1);
        values.extend((0..all).step_by(step as usize).map(|v| (v * 7 + 3) % all));
        values.sort_unstable();
        values.dedup();
        values
    }

    #[test]
    fn every_pair_up_to_6_bits_and_spread_8_bit_pairs_in_the_clear() {
        for (blocks, count) in [(1, 4), (2, 16), (3, 64), (4, 64)] {
            let values = operands(blocks, count);
            let pairs: Vec<Vec<u128>> = values
                .iter()
                .flat_map(|&n| values.iter().map(move |&d| vec![n, d]))
                .collect();
            check_clear(
                2,
                blocks,
                &pairs,
                &|c, x| {
                    let (q, r) = signed_div_rem(c, &x[0], &x[1])?;
                    Ok(vec![q, r])
                },
                &|v| {
                    let (q, r) = expected(v[0], v[1], blocks);
                    vec![q, r]
                },
            );
        }
    }

    #[test]
    fn clear_divisors_in_the_clear() {
        for blocks in [1usize, 2, 4, 5] {
            let bits = 2 * blocks as u32;
            let half = 1i128 << (bits - 1);
            let values: Vec<Vec<u128>> =
                operands(blocks, 64).into_iter().map(|v| vec![v]).collect();
            for d in [
                1,
                -1,
                2,
                -2,
                3,
                -3,
                7,
                -10,
                16,
                half - 1,
                -half,
                -(half - 1),
            ] {
                if d == 0 || sign_extend_clear(bits_of(d, blocks), bits) != d {
                    continue;
                }
                check_clear(
                    2,
                    blocks,
                    &values,
                    &|c, x| {
                        let (q, r) = signed_scalar_div_rem(c, &x[0], d)?;
                        Ok(vec![q, r])
                    },
                    &|v| {
                        let (q, r) = expected(v[0], bits_of(d, blocks), blocks);
                        vec![q, r]
                    },
                );
            }
        }
        let (mut c, x) = circuit_with_inputs(2, &[4]);
        let err = signed_scalar_div_rem(&mut c, &x[0], 0).unwrap_err();
        assert!(err.to_string().contains("clear zero"), "{err}");
    }

    /// The divisor of a test: encrypted, zero blocks (a trivial zero) or clear.
    #[derive(Clone, Copy)]
    enum Divisor {
        Encrypted,
        KnownZero,
        Clear(i128),
    }

    #[test]
    fn divisions_on_the_backend_by_encrypted_known_zero_and_clear_divisors() {
        let blocks = 2;
        let dividends = [0xbu128, 8, 5, 9, 8, 7, 15];
        let divisors = [3u128, 15, 0, 0, 0, 14, 13];
        let pairs: Vec<(u128, u128)> = dividends.into_iter().zip(divisors).collect();
        for divisor in [Divisor::Encrypted, Divisor::KnownZero, Divisor::Clear(-3)] {
            let cases: Vec<Vec<u128>> = match divisor {
                Divisor::Encrypted => pairs.iter().map(|&(n, d)| vec![n, d]).collect(),
                _ => pairs.iter().map(|&(n, _)| vec![n]).collect(),
            };
            let build = |c: &mut Circuit, x: &[Radix]| {
                let (q, r) = match divisor {
                    Divisor::Encrypted => signed_div_rem(c, &x[0], &x[1])?,
                    Divisor::KnownZero => {
                        let zero = cast(c, &[], blocks)?;
                        signed_div_rem(c, &x[0], &zero)?
                    }
                    Divisor::Clear(d) => signed_scalar_div_rem(c, &x[0], d)?,
                };
                Ok([q, r].concat())
            };
            let want = |v: &[u128]| {
                let d = match divisor {
                    Divisor::Encrypted => v[1],
                    Divisor::KnownZero => 0,
                    Divisor::Clear(d) => bits_of(d, blocks),
                };
                let (q, r) = expected(v[0], d, blocks);
                q | r << (2 * blocks)
            };
            check_radix_op(blocks, &cases, &build, &want, Some(2 * blocks));
        }
    }

    /// The costs of the module docs' table: by an encrypted divisor, by 10 and by 1.
    #[test]
    fn signed_division_costs() {
        let got = [None, Some(10), Some(1)].map(|divisor| {
            table_costs(&|c, x| {
                let (q, r) = match divisor {
                    None => signed_div_rem(c, &x[0], &x[1])?,
                    Some(d) => signed_scalar_div_rem(c, &x[0], d)?,
                };
                Ok(vec![q, r])
            })
        });
        println!("signed division (encrypted, by 10, by 1): {got:?}");
        let encrypted = vec![(134, 60), (162, 56), (4778, 1377), (6938, 570)];
        let by_ten = vec![(50, 17), (78, 19), (1039, 77), (1768, 37)];
        assert_eq!(got, [encrypted, by_ten, vec![(0, 0); 4]]);
    }
}
