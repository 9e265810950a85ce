//! Multiplication that reports overflow, and [`overflowing`], the circuit of each
//! operation that reports overflow (`+ - *`, encrypted or clear right operand).
//!
//! `overflowing_mul` multiplies the operands zero-extended to twice their blocks
//! (only the `n^2` block products of the real blocks exist: the known-zero blocks
//! cost nothing), keeps the low half and flags whether the high half is not zero
//! (a comparison against 0). A 64-bit `overflowing_mul` costs about twice a
//! multiplication: 3,192 bootstraps in 67 layers with ripple carries (CPU; `mul`
//! 1,550 in 33), 3,337 in 27 with low-latency carries (GPU; `mul` 1,616 in 12).

use super::{cast, check_radix, check_same_length, BinaryOp, Radix, Rhs, U2048};
use crate::error::Result;
use crate::integer::circuit::{Circuit, Wire};
use crate::integer::CmpOp;

/// `lhs * rhs` modulo `base^blocks` and whether the exact product does not fit (a
/// block holding 0 or 1).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, overflowing_mul, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 13u128, 2).unwrap(); // 4 bits
/// let b = encrypt_radix(&ck, 3u128, 2).unwrap();
/// let out = run(&backend, &[&a, &b], |c, x| {
///     let (product, overflow) = overflowing_mul(c, &x[0], &x[1])?;
///     Ok(vec![product, vec![overflow]])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 13 * 3 % 16);
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 1);
/// ```
pub fn overflowing_mul(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<(Radix, Wire)> {
    check_same_length(lhs, rhs)?;
    check_radix(c, lhs)?;
    check_radix(c, rhs)?;
    let n = lhs.len();
    let (a, b) = (cast(c, lhs, 2 * n)?, cast(c, rhs, 2 * n)?);
    let full = super::mul(c, &a, &b)?;
    split_product(c, full, n)
}

/// `x * clear` modulo `base^blocks` and whether the exact product does not fit (a
/// block holding 0 or 1; always 1 when `clear` does not fit and `x` is not 0).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, overflowing_scalar_mul, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 5u128, 2).unwrap(); // 4 bits
/// let out = run(&backend, &[&a], |c, x| {
///     let (product, overflow) = overflowing_scalar_mul(c, &x[0], 3u128)?;
///     Ok(vec![product, vec![overflow]])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 15);
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 0);
/// ```
pub fn overflowing_scalar_mul(
    c: &mut Circuit,
    x: &[Wire],
    clear: impl Into<U2048>,
) -> Result<(Radix, Wire)> {
    let clear: U2048 = clear.into();
    check_radix(c, x)?;
    let n = x.len();
    let bits = n as u32 * c.message_modulus().trailing_zeros();
    if !clear.fits_in(bits) {
        // The product overflows unless x is 0; its low part is x * (clear mod 2^bits).
        let low = super::scalar_mul(c, x, clear)?;
        let nonzero = super::scalar_compare(c, CmpOp::Ne, x, U2048::ZERO)?;
        return Ok((low, super::to_boolean(c, nonzero)?));
    }
    let wide = cast(c, x, 2 * n)?;
    let full = super::scalar_mul(c, &wide, clear)?;
    split_product(c, full, n)
}

/// The circuit of `lhs op rhs` for `op` among `+ - *`, with whether it overflowed (a
/// block holding 0 or 1: the carry, the borrow, or a product that does not fit).
/// `Err` for another `op`.
pub fn overflowing(c: &mut Circuit, op: BinaryOp, lhs: &[Wire], rhs: Rhs) -> Result<(Radix, Wire)> {
    match (op, rhs) {
        (BinaryOp::Add, Rhs::Wires(r)) => super::overflowing_add(c, lhs, r),
        (BinaryOp::Sub, Rhs::Wires(r)) => super::overflowing_sub(c, lhs, r),
        (BinaryOp::Mul, Rhs::Wires(r)) => overflowing_mul(c, lhs, r),
        (BinaryOp::Add, Rhs::Clear(k)) => super::overflowing_scalar_add(c, lhs, k),
        (BinaryOp::Sub, Rhs::Clear(k)) => super::overflowing_scalar_sub(c, lhs, k),
        (BinaryOp::Mul, Rhs::Clear(k)) => overflowing_scalar_mul(c, lhs, k),
        _ => Err(no_overflowing_form(op)),
    }
}

/// The error of an `op` that has no overflowing form.
pub(crate) fn no_overflowing_form(op: BinaryOp) -> crate::error::Error {
    crate::error::Error::InvalidParameter(format!(
        "{op:?} has no overflowing form (only Add, Sub and Mul)"
    ))
}

/// The low `n` blocks of `full` and whether its high blocks are not all zero.
fn split_product(c: &mut Circuit, mut full: Radix, n: usize) -> Result<(Radix, Wire)> {
    let high = full.split_off(n);
    let nonzero = super::scalar_compare(c, CmpOp::Ne, &high, U2048::ZERO)?;
    Ok((full, super::to_boolean(c, nonzero)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::tests::{check_radix_op, circuit_with_inputs, mask, SplitMix};

    fn expected(a: u128, b: u128, bits: u32) -> u128 {
        let product = a * b;
        (product & mask(bits as usize)) | u128::from(product >> bits != 0) << bits
    }

    #[test]
    fn overflowing_mul_on_edges_and_random_operands() {
        for blocks in [1usize, 2, 3, 4] {
            let bits = 2 * blocks as u32;
            let max = mask(bits as usize);
            let mut rng = SplitMix(blocks as u64 + 11);
            let mut pairs = vec![
                (0, max),
                (max, max),
                (1, max),
                (2, max >> 1),
                (2, max / 2 + 1),
            ];
            pairs.extend((0..4).map(|_| (rng.value(bits as usize), rng.value(bits as usize))));
            let sqrt = 1u128 << (bits / 2);
            pairs.push((sqrt, sqrt - 1));
            pairs.push((sqrt, sqrt));
            let operands: Vec<Vec<u128>> = pairs.iter().map(|&(a, b)| vec![a, b]).collect();
            check_radix_op(
                blocks,
                &operands,
                &|c, x| {
                    let (mut low, flag) = overflowing_mul(c, &x[0], &x[1])?;
                    low.push(flag);
                    Ok(low)
                },
                &|v| expected(v[0], v[1], bits),
                Some(blocks + 1),
            );
            for k in [0u128, 1, 3, max, max + 1, 1 << 100] {
                let operands: Vec<Vec<u128>> = pairs.iter().map(|&(a, _)| vec![a]).collect();
                check_radix_op(
                    blocks,
                    &operands,
                    &|c, x| {
                        let (mut low, flag) = overflowing_scalar_mul(c, &x[0], k)?;
                        low.push(flag);
                        Ok(low)
                    },
                    &|v| {
                        let low = v[0].wrapping_mul(k) & max;
                        let over = v[0] != 0 && (k > max || v[0] * k > max);
                        low | u128::from(over) << bits
                    },
                    Some(blocks + 1),
                );
            }
        }
    }

    #[test]
    fn overflowing_mul_bootstraps_on_64_bits() {
        for parallelism in [2, 4096] {
            let (mut c, x) = circuit_with_inputs(parallelism, &[32, 32]);
            let mut plain = c.clone();
            let product = crate::integer::mul(&mut plain, &x[0], &x[1]).expect("builds");
            plain.add_output(&product);
            let (low, flag) = overflowing_mul(&mut c, &x[0], &x[1]).expect("builds");
            c.add_output(&low);
            c.add_output(&[flag]);
            let (plain, checked) = (plain.stats(), c.stats());
            println!(
                "FheUint64 mul: {} ({}), overflowing_mul: {} ({})",
                plain.bootstraps, plain.depth, checked.bootstraps, checked.depth
            );
            assert!(checked.bootstraps <= 3 * plain.bootstraps, "{checked:?}");
        }
    }
}
