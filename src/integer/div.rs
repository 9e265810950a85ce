//! Division with remainder of radix integers, by an encrypted or a clear divisor.
//!
//! **Restoring division, one bit at a time** from the most significant: the partial
//! remainder `r` takes the next bit of the dividend (`r = 2 r + n_i`), the divisor is
//! subtracted with a borrow, and where it did not borrow the difference replaces `r`
//! and the quotient bit is 1. After bit `i` the remainder is below `2^(bits - i)`, so
//! it is kept in just the blocks that width needs: the subtraction works on those
//! blocks of the divisor, and the divisor's higher blocks only say "too large" through
//! a flag computed once at the start (the suffix "some block above is not zero",
//! a tree of sums per suffix). Per bit, on `k` live blocks: the shift that takes in
//! the bit (one bivariate table per block), the subtraction with its borrow, one table
//! that merges the borrow with the flag, and a selection (2 bootstraps per block).
//! The quotient bits, 0 or 1 each, are gathered into blocks by one table per block.
//!
//! **Division by zero** gives what TFHE-rs defines: the subtraction never borrows, so
//! the quotient is all ones (`MAX`) and the remainder is the dividend.
//!
//! A **clear divisor** `d` is a shift and a mask when it is a power of two. Otherwise
//! the quotient is a product, `n / d = (n m) >> (bits + l)` with `l = ceil(log2 d)`
//! and the reciprocal `m = ceil(2^(bits + l) / d)` (exact for every `n`, see
//! `reciprocal`), and the remainder `n - (n / d) d`: two products by constants and a
//! subtraction, 846 bootstraps in 69 layers for `FheUint64` where the restoring loop
//! took 4,273 in 1,238 (TFHE-rs 1.8.2: 1,095). From `bits + l >= 128` on (128- and
//! 256-bit values, 64-bit ones by more than 2^63) the division takes the cheaper of
//! the reciprocal and the restoring loop, which skips every step whose remainder is
//! still narrower than the divisor and subtracts a constant: `FheUint128 / 10` in
//! 3,076 bootstraps (133 layers), `FheUint256 / 10` in 11,666 (262) where the loop
//! takes 66,033; a wide divisor leaves the loop few steps. A clear zero is an `Err`.
//!
//! Costs in bootstraps (layers) on the default parameters, with the CPU's parallelism
//! of 2 (ripple carries) and a GPU's (low-latency carries); the tests pin these:
//!
//! | divisor              | `FheUint8` CPU | GPU      | `FheUint64` CPU | GPU        |
//! |----------------------|----------------|----------|-----------------|------------|
//! | encrypted            | 99 (50)        | 111 (48) | 4,519 (1,312)   | 6,439 (556)|
//! | clear 10             | 25 (12)        | 41 (12)  | 846 (69)        | 1,401 (25) |
//! | clear power of two   | 0              | 0        | 0               | 0          |
//!
//! (A power of two that is a whole number of blocks costs nothing; others cost one
//! table per block of the quotient and one for the remainder's partial block.)

use super::add::{add, overflowing_scalar_sub, overflowing_sub, sub};
use super::bitwise::{scalar_bitwise, BitOp};
use super::carry::cheapest;
use super::comparison::all_ones;
use super::mul::scalar_mul;
use super::select::select;
use super::shift::{shift, ShiftOp};
use super::{check_radix, check_same_length, Radix, U2048};
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};

/// The divisor of [`div_rem`]: encrypted blocks, or a clear value.
// The clear value is the circuits' 2048-bit clear type; a divisor lives on the
// stack while a circuit is built.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy)]
enum Divisor<'a> {
    Encrypted(&'a [Wire]),
    Clear(U2048),
}

/// `(n / d, n % d)` of two radix integers of the same length: see the module docs
/// (division by zero gives `(MAX, n)`, as in TFHE-rs).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, div_rem, encrypt_radix, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let n = encrypt_radix(&ck, 14u128, 2).unwrap();
/// let d = encrypt_radix(&ck, 4u128, 2).unwrap();
/// let out = run(&backend, &[&n, &d], |c, x| {
///     let (q, r) = div_rem(c, &x[0], &x[1])?;
///     Ok(vec![q, r])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 3);
/// assert_eq!(decrypt_radix(&ck, &out[1]).unwrap(), 2);
/// ```
pub fn div_rem(c: &mut Circuit, n: &[Wire], d: &[Wire]) -> Result<(Radix, Radix)> {
    check_same_length(n, d)?;
    check_radix(c, d)?;
    restoring(c, n, Divisor::Encrypted(d))
}

/// `(n / d, n % d)` for a clear `d`; `Err` if `d` is 0. A `d` wider than `n` gives
/// `(0, n)`.
pub fn scalar_div_rem(c: &mut Circuit, n: &[Wire], d: impl Into<U2048>) -> Result<(Radix, Radix)> {
    let d: U2048 = d.into();
    check_radix(c, n)?;
    if d.is_zero() {
        return Err(Error::InvalidParameter(
            "division by a clear zero (an encrypted zero divisor gives MAX and the dividend, \
             as in TFHE-rs)"
                .into(),
        ));
    }
    let bits = n.len() as u32 * c.message_modulus().trailing_zeros();
    if !d.fits_in(bits) {
        let zeros = super::cast(c, &[], n.len())?;
        return Ok((zeros, n.to_vec()));
    }
    if d.is_power_of_two() {
        let log = d.trailing_zeros();
        let q = shift(c, ShiftOp::Shr, n, u64::from(log))?;
        let r = scalar_bitwise(c, BitOp::And, n, d - U2048::ONE)?;
        return Ok((q, r));
    }
    // ceil(log2 d): d > 1 is not a power of two here.
    let l = U2048::BITS - (d - U2048::ONE).leading_zeros();
    if bits + l < 128 {
        return reciprocal(c, n, d, bits, l);
    }
    if bits > U2048::BITS {
        return restoring(c, n, Divisor::Clear(d));
    }
    // The product grows with the divisor while the restoring loop skips more steps
    // the wider it is: the cheaper of the two.
    let by_reciprocal = cheapest(c, &[n], &[true, false], |s, x, by_reciprocal| {
        let (q, r) = match by_reciprocal {
            true => reciprocal(s, &x[0], d, bits, l)?,
            false => restoring(s, &x[0], Divisor::Clear(d))?,
        };
        Ok([q, r].concat())
    });
    match by_reciprocal {
        Some(true) => reciprocal(c, n, d, bits, l),
        _ => restoring(c, n, Divisor::Clear(d)),
    }
}

/// `ceil(2^e / d) - 2^bits` modulo `2^2048`, for `e` up to 4096: long division one bit
/// at a time (the reciprocal of a `bits`-bit division, without its top bit).
fn reciprocal_low(d: U2048, e: u32, bits: u32) -> U2048 {
    let (mut rest, mut quotient) = (U2048::ZERO, U2048::ZERO);
    for i in (0..=e).rev() {
        // rest < d, so 2 rest + 1 - d < d: the bit shifted out only says "subtract".
        let carry = rest.bit(U2048::BITS - 1);
        rest = (rest << 1u32) | U2048::from(i == e);
        let bit = carry || rest >= d;
        if bit {
            rest = rest.wrapping_sub(d);
        }
        quotient = (quotient << 1u32) | U2048::from(bit);
    }
    let ceil = quotient.wrapping_add(U2048::from(!rest.is_zero()));
    ceil.wrapping_sub(U2048::ONE.checked_shl(bits).unwrap_or(U2048::ZERO))
}

/// `n / d` for a clear `d` as a product (see the module docs): the quotient is the
/// high part of `n m` with `m = ceil(2^(bits + l) / d)`, `l = ceil(log2 d)`, and the
/// remainder is `n - (n / d) d`. Exact for every `n < 2^bits`: `m d - 2^(bits + l)`
/// is below `d`, so `n m / 2^(bits + l)` exceeds `n / d` by less than `2^-l <= 1/d`,
/// which never reaches the next integer. `m < 2^(bits + 1)`, so the product fits in
/// `2 bits + 1` bits. Where `m` does not fit a [`U2048`], `m = 2^bits + m'` (`m` is
/// above `2^bits`, as `d < 2^l`): `n m` is `n` moved up by whole blocks plus `n m'`.
fn reciprocal(c: &mut Circuit, n: &[Wire], d: U2048, bits: u32, l: u32) -> Result<(Radix, Radix)> {
    let blocks = n.len();
    let wide = super::cast(c, n, 2 * blocks + 1)?;
    let product = match U2048::ONE.checked_shl(bits + l) {
        Some(power) => scalar_mul(c, &wide, power.div_ceil(d))?,
        None => {
            let low = scalar_mul(c, &wide, reciprocal_low(d, bits + l, bits))?;
            let mut high = super::cast(c, &[], blocks)?;
            high.extend_from_slice(n);
            let high = super::cast(c, &high, 2 * blocks + 1)?;
            add(c, &low, &high)?
        }
    };
    // The whole blocks of the shift are dropped before shifting the rest.
    let block_bits = c.message_modulus().trailing_zeros();
    let skip = ((bits + l) / block_bits) as usize;
    let high = shift(
        c,
        ShiftOp::Shr,
        &product[skip..],
        u64::from((bits + l) % block_bits),
    )?;
    // The quotient has at most bits - l + 1 bits: the high part may be narrower than n.
    let q = super::cast(c, &high[..high.len().min(blocks)], blocks)?;
    let qd = scalar_mul(c, &q, d)?;
    let r = sub(c, n, &qd)?;
    Ok((q, r))
}

/// Restoring division (see the module docs).
fn restoring(c: &mut Circuit, n: &[Wire], d: Divisor<'_>) -> Result<(Radix, Radix)> {
    check_radix(c, n)?;
    let m = c.message_modulus();
    let block_bits = m.trailing_zeros() as usize;
    if !m.is_power_of_two() || block_bits == 0 {
        return Err(Error::InvalidParameter(format!(
            "division needs a power-of-two message modulus above 1, not {m}"
        )));
    }
    let blocks = n.len();
    let bits = blocks * block_bits;
    let dividend_bits = dividend_bits(c, n, block_bits)?;
    // too_large[k]: the divisor has a non-zero block at k or above (a clear divisor
    // answers that itself).
    let too_large = match d {
        Divisor::Encrypted(d) => high_blocks_nonzero(c, d)?,
        Divisor::Clear(_) => Vec::new(),
    };
    let mut r: Radix = Vec::new();
    let mut quotient_bits = vec![c.constant(0)?; bits];
    for i in (0..bits).rev() {
        let live = (bits - i).div_ceil(block_bits);
        r = shift_in(c, &r, live, dividend_bits[i])?;
        let (difference, borrow) = match d {
            Divisor::Encrypted(d) => {
                let (difference, borrow) = overflowing_sub(c, &r, &d[..live])?;
                let borrow = match too_large.get(live) {
                    Some(&flag) => either(c, borrow, flag)?,
                    None => as_condition(c, borrow)?,
                };
                (difference, borrow)
            }
            Divisor::Clear(d) => {
                if !d.fits_in((live * block_bits).try_into().unwrap_or(u32::MAX)) {
                    // The remainder is narrower than d: no subtraction, quotient bit 0.
                    continue;
                }
                let (difference, borrow) = overflowing_scalar_sub(c, &r, d)?;
                (difference, as_condition(c, borrow)?)
            }
        };
        r = select(c, borrow, &r, &difference)?;
        quotient_bits[i] = c.linear(&[(borrow, -1)], 1)?;
    }
    let remainder = super::cast(c, &r, blocks)?;
    let quotient = gather_bits(c, &quotient_bits, block_bits)?;
    Ok((quotient, remainder))
}

/// The bits of `n`, least significant first, each a clean block of 0 or 1: one
/// bootstrap per block gives all of its bits.
fn dividend_bits(c: &mut Circuit, n: &[Wire], block_bits: usize) -> Result<Vec<Wire>> {
    let mut bits = Vec::with_capacity(n.len() * block_bits);
    for &block in n {
        let extract: Vec<Box<dyn Fn(u64) -> u64>> = (0..block_bits)
            .map(|b| Box::new(move |v: u64| (v >> b) & 1) as Box<dyn Fn(u64) -> u64>)
            .collect();
        let refs: Vec<&dyn Fn(u64) -> u64> = extract.iter().map(|f| f.as_ref()).collect();
        bits.extend(c.tables(block, &refs)?);
    }
    Ok(bits)
}

/// `flags[k]` for `k` in `1..d.len()`: whether some block of `d` at `k` or above is
/// not zero (`flags[0]` is unused and known).
fn high_blocks_nonzero(c: &mut Circuit, d: &[Wire]) -> Result<Vec<Wire>> {
    let zero: Vec<Wire> = d
        .iter()
        .map(|&w| c.table(w, |v| u64::from(v == 0)))
        .collect::<Result<_>>()?;
    let mut flags = vec![c.constant(0)?];
    for k in 1..d.len() {
        // all_ones(.., false): whether one of the "is zero" flags is 0.
        let flag = all_ones(c, zero[k..].to_vec(), false)?;
        flags.push(flag);
    }
    Ok(flags)
}

/// `2 r + bit` on `live` blocks (`r` has `live` or `live - 1` of them; the shift out
/// of the top is zero by construction): one bivariate table per block.
fn shift_in(c: &mut Circuit, r: &[Wire], live: usize, bit: Wire) -> Result<Radix> {
    let m = c.message_modulus();
    let top = m.trailing_zeros() - 1;
    let block = |c: &mut Circuit, j: usize| -> Result<Wire> {
        match r.get(j) {
            Some(&w) => Ok(w),
            None => c.constant(0),
        }
    };
    (0..live)
        .map(|j| {
            let own = block(c, j)?;
            if j == 0 && c.known_value(own) == Some(0) {
                return Ok(bit);
            }
            let carry_in = if j == 0 { bit } else { block(c, j - 1)? };
            let shift_in_bit = j == 0;
            c.bivariate(own, carry_in, move |x, y| {
                let incoming = if shift_in_bit { y } else { y >> top };
                ((x << 1) | incoming) % m
            })
        })
        .collect()
}

/// `a or b` for two 0/1 blocks, as a clean 0/1 block (one bootstrap).
fn either(c: &mut Circuit, a: Wire, b: Wire) -> Result<Wire> {
    let sum = c.add(a, b)?;
    c.table(sum, |v| u64::from(v > 0))
}

/// A 0/1 block usable as a selection condition: itself if clean, else refreshed.
fn as_condition(c: &mut Circuit, w: Wire) -> Result<Wire> {
    let info = c.info(w);
    if info.degree <= 1 && info.noise_level <= 1 {
        Ok(w)
    } else {
        c.table(w, |v| v.min(1))
    }
}

/// Bits (0/1 blocks, least significant first) gathered `block_bits` to a clean block.
fn gather_bits(c: &mut Circuit, bits: &[Wire], block_bits: usize) -> Result<Radix> {
    bits.chunks(block_bits)
        .map(|group| {
            let terms: Vec<(Wire, i64)> = group
                .iter()
                .enumerate()
                .map(|(t, &w)| (w, 1i64 << t))
                .collect();
            let packed = c.linear(&terms, 0)?;
            if c.info(packed).noise_level <= 1 {
                Ok(packed)
            } else {
                c.refresh(packed)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::sum::tests::edge_values;
    use crate::integer::tests::{check_radix_op, circuit_with_inputs, mask};

    /// `(q, r)` of `n / d` on `bits` bits as one radix `q + r * 2^bits` (`(MAX, n)`
    /// for `d = 0`).
    fn packed(n: u128, d: u128, bits: usize) -> u128 {
        let (q, r) = n.checked_div(d).map_or((mask(bits), n), |q| (q, n % d));
        q | r << bits
    }

    #[test]
    fn encrypted_divisors_of_every_width_with_zero() {
        for blocks in 1..=3 {
            let bits = 2 * blocks;
            let mut pairs: Vec<Vec<u128>> = Vec::new();
            for &n in &edge_values(blocks, 3) {
                for &d in &edge_values(blocks, 5) {
                    pairs.push(vec![n, d]);
                }
            }
            pairs.truncate(24);
            pairs.push(vec![mask(bits), 0]);
            pairs.push(vec![5 & mask(bits), 1]);
            check_radix_op(
                blocks,
                &pairs,
                &|c, x| {
                    let (q, r) = div_rem(c, &x[0], &x[1])?;
                    Ok([q, r].concat())
                },
                &|v| packed(v[0] & mask(bits), v[1] & mask(bits), bits),
                Some(2 * blocks),
            );
        }
    }

    #[test]
    fn clear_divisors_powers_of_two_wide_ones_and_zero() {
        for blocks in 1..=3 {
            let bits = 2 * blocks;
            let values = edge_values(blocks, 9);
            let divisors = [
                1u128,
                2,
                3,
                5,
                7,
                8,
                13,
                mask(bits),
                mask(bits) + 1,
                1 << 40,
            ];
            for d in divisors {
                let cases: Vec<Vec<u128>> = values.iter().take(6).map(|&v| vec![v]).collect();
                check_radix_op(
                    blocks,
                    &cases,
                    &|c, x| {
                        let (q, r) = scalar_div_rem(c, &x[0], d)?;
                        Ok([q, r].concat())
                    },
                    &|v| packed(v[0] & mask(bits), d, bits),
                    Some(2 * blocks),
                );
            }
        }
        let (mut c, x) = circuit_with_inputs(2, &[2]);
        let err = scalar_div_rem(&mut c, &x[0], 0u8).unwrap_err();
        assert!(err.to_string().contains("clear zero"), "{err}");
    }

    /// Bootstraps and layers of one division on fresh operands.
    fn cost(blocks: usize, parallelism: usize, divisor: Option<u128>) -> (usize, usize) {
        let (mut c, x) = circuit_with_inputs(parallelism, &[blocks, blocks]);
        let (q, r) = match divisor {
            None => div_rem(&mut c, &x[0], &x[1]).unwrap(),
            Some(d) => scalar_div_rem(&mut c, &x[0], d).unwrap(),
        };
        c.add_output(&q);
        c.add_output(&r);
        let stats = c.stats();
        (stats.bootstraps, stats.depth)
    }

    #[test]
    fn reciprocals_match_the_direct_ones() {
        for (bits, d) in [
            (8u32, 3u128),
            (64, 10),
            (120, 1_000_000_007),
            (128, 3),
            (1000, 7),
        ] {
            let d = U2048::from(d);
            let l = U2048::BITS - (d - U2048::ONE).leading_zeros();
            let direct = (U2048::ONE << (bits + l)).div_ceil(d) - (U2048::ONE << bits);
            assert_eq!(
                reciprocal_low(d, bits + l, bits),
                direct,
                "{bits} bits / {d}"
            );
        }
        // Beyond the clear type (2048-bit divisions), against twice its width.
        type U4096 = crate::integer::bigint::StaticUnsignedBigInt<64>;
        for d in [3u128, 10, 1_000_000_007, u128::MAX] {
            let l = U2048::BITS - (U2048::from(d) - U2048::ONE).leading_zeros();
            let direct =
                (U4096::ONE << (2048 + l)).div_ceil(U4096::from(d)) - (U4096::ONE << 2048u32);
            assert_eq!(
                reciprocal_low(U2048::from(d), 2048 + l, 2048),
                direct.resize(),
                "/ {d}"
            );
        }
    }

    #[test]
    fn the_split_reciprocal_of_2048_bit_divisions() {
        use crate::integer::sum::tests::eval_clear;
        use crate::integer::{clear_digits, from_digits};
        let n = [
            U2048::ZERO,
            U2048::MAX,
            U2048::MAX - U2048::ONE,
            U2048::from(crate::integer::U256::from((u128::MAX / 3, u128::MAX / 7))) << 1500u32,
            U2048::MAX / U2048::from(10u8),
        ];
        let divisors = [
            U2048::from(3u8),
            U2048::from(10u8),
            U2048::from(crate::integer::U256::from((3u128, 1u128))),
            U2048::MAX - U2048::from(4u8),
        ];
        for d in divisors {
            let l = U2048::BITS - (d - U2048::ONE).leading_zeros();
            let (mut c, x) = circuit_with_inputs(2, &[1024]);
            let (q, r) = reciprocal(&mut c, &x[0], d, 2048, l).unwrap();
            c.add_output(&q);
            c.add_output(&r);
            for &v in &n {
                let got = eval_clear(&c, &[clear_digits(v, 4, 1024)]);
                let got: Vec<U2048> = got.iter().map(|g| from_digits(g, 4).unwrap()).collect();
                assert_eq!(got, [v / d, v % d], "{v} / {d}");
            }
        }
    }

    /// The costs of the module docs' table (the test parameters have the default
    /// parameters' block shape, 2 + 2 bits).
    #[test]
    fn division_costs() {
        let rows = [
            (None, [(99, 50), (111, 48), (4519, 1312), (6439, 556)]),
            (Some(10), [(25, 12), (41, 12), (846, 69), (1401, 25)]),
            (Some(16), [(0, 0); 4]),
        ];
        for (divisor, expected) in rows {
            let line: Vec<(usize, usize)> = [(4, 2), (4, 4096), (32, 2), (32, 4096)]
                .iter()
                .map(|&(b, p)| cost(b, p, divisor))
                .collect();
            assert_eq!(line, expected, "divisor {divisor:?}");
        }
        // A shift that is not a whole number of blocks: one table per block, and one
        // for the remainder's partial block.
        assert_eq!(cost(4, 2, Some(2)), (5, 1));
    }
}
