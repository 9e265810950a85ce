//! Radix integers ([`Radix`]: the wires of a value's blocks, least significant
//! first), their block counts, and their encryption and decryption block by block.

use super::{Circuit, Wire, U2048};
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
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, U2048};
/// use gpufhe::shortint::ClientKey;
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let blocks = encrypt_radix(&ck, 200u8, 4).unwrap(); // 4 blocks of 2 bits: 8 bits
/// assert_eq!(decrypt_radix(&ck, &blocks).unwrap(), U2048::from(200u8));
/// assert!(encrypt_radix(&ck, 256u16, 4).is_err());
/// ```
pub fn encrypt_radix(
    client_key: &ClientKey,
    value: impl Into<U2048>,
    num_blocks: usize,
) -> Result<Vec<Ciphertext>> {
    let value: U2048 = value.into();
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
pub fn decrypt_radix(client_key: &ClientKey, blocks: &[Ciphertext]) -> Result<U2048> {
    let digits = blocks
        .iter()
        .map(|block| client_key.decrypt(block))
        .collect::<Result<Vec<u64>>>()?;
    from_digits(&digits, client_key.parameters().message_modulus)
}

/// The value of base-`base` digits, least significant first; `Err` if they hold more
/// than the 2048 bits a [`U2048`] can return.
pub(crate) fn from_digits(digits: &[u64], base: u64) -> Result<U2048> {
    let digit_bits = base.trailing_zeros();
    let bits = u32::try_from(digits.len())
        .unwrap_or(u32::MAX)
        .saturating_mul(digit_bits);
    if bits > U2048::BITS {
        return Err(Error::InvalidParameter(format!(
            "{} blocks hold {bits} bits, more than the 2048 a U2048 can return",
            digits.len()
        )));
    }
    Ok(digits.iter().rev().fold(U2048::ZERO, |value, &digit| {
        (value << digit_bits) | U2048::from(digit % base)
    }))
}

/// The `count` low base-`base` digits of `value` (`base` a power of two), least
/// significant first (digits beyond 2048 bits are 0).
pub(crate) fn clear_digits(value: impl Into<U2048>, base: u64, count: usize) -> Vec<u64> {
    let digit_bits = base.trailing_zeros();
    let mut rest: U2048 = value.into();
    (0..count)
        .map(|_| {
            let digit = (rest.low_u128() % base as u128) as u64;
            rest = rest.checked_shr(digit_bits).unwrap_or(U2048::ZERO);
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
