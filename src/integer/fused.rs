//! Fused multiply-divide, TFHE-rs's `FusedMulScalarDiv` and
//! `FusedScalarMulScalarDiv`: `(a * b) / d` for an encrypted `a`, an encrypted or
//! clear `b` and a clear `d`, with the product computed on twice the blocks of `a`,
//! so that it never overflows before the division; the quotient is then truncated to
//! the width of `a` (it wraps if it does not fit, as the truncation of TFHE-rs does).
//!
//! One circuit: `a` and `b` are zero-extended (their high blocks are constants, so
//! the product costs what the exact `n x n -> 2n`-block product costs), multiplied,
//! divided by `d` ([`scalar_div_rem`]), and the low blocks kept. The signed form
//! divides the magnitudes and gives the quotient the sign of `a b d`: Rust's
//! truncating division of the exact product.

use super::div::scalar_div_rem;
use super::mul::{mul, scalar_mul};
use super::signed::{abs_and_sign, negate_where, sign_extend_wide};
use super::{cast, check_radix, check_same_length, Radix, Rhs, I2048, U2048};
use crate::error::Result;
use crate::integer::circuit::{Circuit, Wire};

/// `(a * b) / d` of unsigned radix integers, the product on twice the blocks of `a`,
/// the quotient truncated to them; `Err` if `d` is 0 (see the module docs).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, fused_mul_scalar_div, run, Rhs};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 200u8, 4).unwrap(); // 8 bits
/// let b = encrypt_radix(&ck, 150u8, 4).unwrap();
/// let out = run(&backend, &[&a, &b], |c, x| {
///     Ok(vec![
///         fused_mul_scalar_div(c, &x[0], Rhs::Wires(&x[1]), 300u16)?, // 30000 / 300
///         fused_mul_scalar_div(c, &x[0], Rhs::Clear(250u8.into()), 7u8)?, // 50000 / 7
///     ])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 100);
/// assert_eq!(decrypt_radix(&ck, &out[1]).unwrap(), (50000u32 / 7) as u8 as u128);
/// ```
pub fn fused_mul_scalar_div(
    c: &mut Circuit,
    a: &[Wire],
    b: Rhs,
    d: impl Into<U2048>,
) -> Result<Radix> {
    check_radix(c, a)?;
    let blocks = a.len();
    let wide_a = cast(c, a, 2 * blocks)?;
    let product = match b {
        Rhs::Wires(b) => {
            check_same_length(a, b)?;
            let wide_b = cast(c, b, 2 * blocks)?;
            mul(c, &wide_a, &wide_b)?
        }
        Rhs::Clear(k) => {
            let bits = blocks as u32 * c.message_modulus().trailing_zeros();
            scalar_mul(c, &wide_a, k.low_bits(bits))?
        }
    };
    let (q, _) = scalar_div_rem(c, &product, d)?;
    cast(c, &q, blocks)
}

/// `(a * b) / d` of two's complement radix integers, truncating toward zero as Rust
/// does on the exact product, the quotient truncated to the width of `a` (a clear
/// `b` is read as the two's complement bits of that width); `Err` if `d` is 0.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, signed_fused_mul_scalar_div, Rhs};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, (-100i8) as u8, 4).unwrap();
/// let b = encrypt_radix(&ck, 90u8, 4).unwrap();
/// let out = run(&backend, &[&a, &b], |c, x| {
///     Ok(vec![signed_fused_mul_scalar_div(c, &x[0], Rhs::Wires(&x[1]), -60)?])
/// })
/// .unwrap(); // -9000 / -60 = 150, which wraps to -106 in 8 bits
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 150);
/// ```
pub fn signed_fused_mul_scalar_div(
    c: &mut Circuit,
    a: &[Wire],
    b: Rhs,
    d: impl Into<I2048>,
) -> Result<Radix> {
    let d: I2048 = d.into();
    check_radix(c, a)?;
    let blocks = a.len();
    let bits = blocks as u32 * c.message_modulus().trailing_zeros();
    // |a| read as unsigned is exact, also for the minimum (2^(bits - 1)).
    let (abs_a, a_negative) = abs_and_sign(c, a)?;
    // The multiplier's magnitude: encrypted blocks, or a clear value.
    let (abs_b, clear_b, negative) = match b {
        Rhs::Wires(b) => {
            check_same_length(a, b)?;
            let (abs_b, b_negative) = abs_and_sign(c, b)?;
            let differ = c.bivariate(a_negative, b_negative, |x, y| x ^ y)?;
            (abs_b, U2048::ZERO, differ)
        }
        Rhs::Clear(k) => {
            let k = sign_extend_wide(k, bits);
            let negative = match k.is_negative() {
                true => c.linear(&[(a_negative, -1)], 1)?,
                false => a_negative,
            };
            (Vec::new(), k.unsigned_abs(), negative)
        }
    };
    let negative = match d.is_negative() {
        true => c.linear(&[(negative, -1)], 1)?,
        false => negative,
    };
    let abs_b = match b {
        Rhs::Wires(_) => Rhs::Wires(&abs_b),
        Rhs::Clear(_) => Rhs::Clear(clear_b),
    };
    let q = fused_mul_scalar_div(c, &abs_a, abs_b, d.unsigned_abs())?;
    negate_where(c, &q, negative)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::signed::sign_extend_clear;
    use crate::integer::sum::tests::check_clear;
    use crate::integer::tests::circuit_with_inputs;

    /// Every pair of 8-bit values from a spread, divided by a few divisors, against
    /// the exact product's quotient truncated to 8 bits, unsigned and signed, with
    /// encrypted and clear multipliers.
    #[test]
    fn fused_products_match_the_exact_quotient() {
        let values: [u128; 8] = [0, 1, 2, 7, 100, 127, 128, 255];
        let pairs: Vec<Vec<u128>> = values
            .iter()
            .flat_map(|&a| values.iter().map(move |&b| vec![a, b]))
            .collect();
        let signed = |v: u128| sign_extend_clear(v, 8);
        for d in [1u128, 3, 7, 200, 255] {
            check_clear(
                2,
                4,
                &pairs,
                &|c, x| Ok(vec![fused_mul_scalar_div(c, &x[0], Rhs::Wires(&x[1]), d)?]),
                &|v| vec![v[0] * v[1] / d],
            );
            let ds = signed(d);
            check_clear(
                2,
                4,
                &pairs,
                &|c, x| {
                    Ok(vec![signed_fused_mul_scalar_div(
                        c,
                        &x[0],
                        Rhs::Wires(&x[1]),
                        ds,
                    )?])
                },
                &|v| vec![(signed(v[0]) * signed(v[1]) / ds) as u128],
            );
        }
    }

    #[test]
    fn clear_multipliers_and_the_cost_of_the_product() {
        let singles: Vec<Vec<u128>> = [0u128, 5, 128, 200, 255].iter().map(|&a| vec![a]).collect();
        let signed = |v: u128| sign_extend_clear(v, 8);
        for k in [0u128, 1, 3, 250, 255] {
            check_clear(
                2,
                4,
                &singles,
                &|c, x| {
                    Ok(vec![fused_mul_scalar_div(
                        c,
                        &x[0],
                        Rhs::Clear(k.into()),
                        9u8,
                    )?])
                },
                &|v| vec![v[0] * k / 9],
            );
            check_clear(
                2,
                4,
                &singles,
                &|c, x| {
                    Ok(vec![signed_fused_mul_scalar_div(
                        c,
                        &x[0],
                        Rhs::Clear(k.into()),
                        -9,
                    )?])
                },
                &|v| vec![(signed(v[0]) * signed(k) / -9) as u128],
            );
        }
        // The zero-extended high blocks are constants: the product (49 bootstraps for
        // 8 x 8 -> 16 bits) costs about half a product of two 16-bit values (95).
        let product_cost = |blocks: usize| {
            let (mut c, x) = circuit_with_inputs(2, &[blocks, blocks]);
            let wide = [
                cast(&mut c, &x[0], 8).unwrap(),
                cast(&mut c, &x[1], 8).unwrap(),
            ];
            let out = mul(&mut c, &wide[0], &wide[1]).unwrap();
            c.add_output(&out);
            c.stats().bootstraps
        };
        assert!(
            product_cost(4) < product_cost(8),
            "{} vs {}",
            product_cost(4),
            product_cost(8)
        );
        let (mut c, x) = circuit_with_inputs(2, &[4]);
        assert!(fused_mul_scalar_div(&mut c, &x[0], Rhs::Clear(U2048::ONE), 0u8).is_err());
        assert!(signed_fused_mul_scalar_div(&mut c, &x[0], Rhs::Clear(U2048::ONE), 0).is_err());
    }
}
