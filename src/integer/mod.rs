//! Encrypted integers as radix ciphertexts: little-endian lists of blocks, each
//! holding one base-`message_modulus` digit.
//!
//! Every algorithm is a function that builds its part of a [`Circuit`] from the wires
//! of its operands, so it is written once and runs on every
//! [`crate::backend::Backend`]; [`run`] builds and executes a circuit in one call.
//! Operands and results are *clean*: every block holds a digit (degree below the
//! message modulus) with noise level at most 1.

mod add;
mod bit_count;
mod bitwise;
mod carry;
mod checked;
mod circuit;
mod comparison;
mod div;
mod execute;
mod mul;
mod operation;
mod oprf;
mod ordering;
mod select;
mod shift;
mod signed;
mod sum;
mod u256;

pub use crate::shortint::seed_block_info;
pub use add::{
    add, clear_sub, neg, overflowing_add, overflowing_scalar_add, overflowing_scalar_sub,
    overflowing_sub, scalar_add, scalar_sub, sub,
};
pub use bit_count::{count_bits, ilog2, reverse_bits, CountOp};
pub use bitwise::{bitnot, bitwise, scalar_bitwise, BitOp};
pub use checked::{overflowing_mul, overflowing_scalar_mul};
pub use circuit::{Circuit, CircuitStats, Wire};
pub use comparison::{eq, ne};
pub use div::{div_rem, scalar_div_rem};
pub use execute::{execute, execute_observed, run};
pub use mul::{mul, scalar_mul, sum};
pub use operation::{binary, comparison, to_boolean, BinaryOp, Rhs};
pub use oprf::oblivious_random;
pub use ordering::{compare, max, min, scalar_compare, scalar_max, scalar_min, CmpOp};
pub use select::select;
pub use shift::{shift, shift_encrypted, ShiftOp};
pub(crate) use signed::sign_extend_clear;
pub use signed::{
    abs, arithmetic_shr, arithmetic_shr_encrypted, sign_bit, sign_block, sign_extend,
    signed_binary, signed_compare, signed_comparison, signed_scalar_compare,
};
pub use u256::U256;

use crate::error::{check_eq, Error, Result};
use crate::shortint::{Ciphertext, ClientKey};

/// The blocks of one integer in a circuit, least significant first.
pub type Radix = Vec<Wire>;

/// The number of blocks of an integer of `bits` bits under `parameters` (`bits`
/// divided by the message bits of a block, rounded up; one block for a boolean).
pub(crate) fn block_count(parameters: &crate::shortint::ShortintParameters, bits: u32) -> usize {
    let message_bits = parameters.message_modulus.trailing_zeros().max(1);
    bits.div_ceil(message_bits) as usize
}

/// Encrypts the `num_blocks` low base-`message_modulus` digits of `value`, least
/// significant first. `Err` if `value` does not fit.
///
/// ```
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, U256};
/// use gpufhe::shortint::{ClientKey, DEFAULT_PARAMETERS};
/// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
/// let blocks = encrypt_radix(&ck, 200u8, 4).unwrap(); // 4 blocks of 2 bits: 8 bits
/// assert_eq!(decrypt_radix(&ck, &blocks).unwrap(), U256::from(200u8));
/// assert!(encrypt_radix(&ck, 256u16, 4).is_err());
/// ```
pub fn encrypt_radix(
    client_key: &ClientKey,
    value: impl Into<U256>,
    num_blocks: usize,
) -> Result<Vec<Ciphertext>> {
    let value: U256 = value.into();
    let base = client_key.parameters().message_modulus;
    let bits = num_blocks as u32 * base.trailing_zeros();
    if !value.fits_in(bits) {
        return Err(Error::InvalidParameter(format!(
            "{value} does not fit in {num_blocks} blocks ({bits} bits)"
        )));
    }
    clear_digits(value, base, num_blocks)
        .into_iter()
        .map(|digit| client_key.encrypt(digit))
        .collect()
}

/// Decrypts a radix ciphertext: `sum_i m_i * message_modulus^i` modulo
/// `message_modulus^num_blocks` (carries are ignored: blocks should be clean).
pub fn decrypt_radix(client_key: &ClientKey, blocks: &[Ciphertext]) -> Result<U256> {
    let digits = blocks
        .iter()
        .map(|block| client_key.decrypt(block))
        .collect::<Result<Vec<u64>>>()?;
    from_digits(&digits, client_key.parameters().message_modulus)
}

/// The value of base-`base` digits, least significant first; `Err` if they hold more
/// than the 256 bits a [`U256`] can return.
pub(crate) fn from_digits(digits: &[u64], base: u64) -> Result<U256> {
    let digit_bits = base.trailing_zeros();
    let bits = u32::try_from(digits.len())
        .unwrap_or(u32::MAX)
        .saturating_mul(digit_bits);
    if bits > U256::BITS {
        return Err(Error::InvalidParameter(format!(
            "{} blocks hold {bits} bits, more than the 256 a U256 can return",
            digits.len()
        )));
    }
    Ok(digits.iter().rev().fold(U256::ZERO, |value, &digit| {
        (value << digit_bits) | U256::from(digit % base)
    }))
}

/// The `count` low base-`base` digits of `value` (`base` a power of two), least
/// significant first (digits beyond 256 bits are 0).
pub(crate) fn clear_digits(value: impl Into<U256>, base: u64, count: usize) -> Vec<u64> {
    let digit_bits = base.trailing_zeros();
    let mut rest: U256 = value.into();
    (0..count)
        .map(|_| {
            let digit = (rest.low_u128() % base as u128) as u64;
            rest = rest.checked_shr(digit_bits).unwrap_or(U256::ZERO);
            digit
        })
        .collect()
}

/// `x` resized to `num_blocks` blocks: truncated (keeping the low digits, like an `as`
/// cast to a narrower type) or extended with trivial zeros. Costs nothing.
pub fn cast(c: &mut Circuit, x: &[Wire], num_blocks: usize) -> Result<Radix> {
    check_radix(c, x)?;
    let mut out: Radix = x.iter().copied().take(num_blocks).collect();
    while out.len() < num_blocks {
        out.push(c.constant(0)?);
    }
    Ok(out)
}

/// `Err` unless every block of `x` is clean: a digit below the message modulus with
/// noise level at most 1.
pub(crate) fn check_radix(c: &Circuit, x: &[Wire]) -> Result<()> {
    let m = c.message_modulus();
    for (i, &w) in x.iter().enumerate() {
        let info = c.info(w);
        if info.degree >= m || info.noise_level > 1 {
            return Err(Error::CapacityExceeded(format!(
                "block {i} is not clean (degree {}, noise level {}): integer operations take \
                 blocks holding one digit with noise level at most 1",
                info.degree, info.noise_level
            )));
        }
    }
    Ok(())
}

/// `Err` unless both operands have the same number of blocks.
pub(crate) fn check_same_length(lhs: &[Wire], rhs: &[Wire]) -> Result<()> {
    check_eq(
        "number of blocks of the right operand",
        lhs.len(),
        rhs.len(),
    )
}

#[cfg(test)]
pub(crate) mod tests;
