//! Encrypted integers as radix ciphertexts: little-endian lists of blocks, each
//! holding one base-`message_modulus` digit. Every algorithm is written once against
//! [`crate::backend::Backend`], so it runs wherever a backend does.

mod bitwise;
mod comparison;

pub use bitwise::{bitnot, bitwise, BitOp};
pub use comparison::{eq, ne};

use crate::error::{Error, Result};
use crate::shortint::{Ciphertext, ClientKey};

/// Encrypts the `num_blocks` low base-`message_modulus` digits of `value`, least
/// significant first. `Err` if `value` does not fit.
///
/// ```
/// use gpufhe::integer::{decrypt_radix, encrypt_radix};
/// use gpufhe::shortint::{ClientKey, DEFAULT_PARAMETERS};
/// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
/// let blocks = encrypt_radix(&ck, 200, 4).unwrap(); // 4 blocks of 2 bits: 8 bits
/// assert_eq!(decrypt_radix(&ck, &blocks).unwrap(), 200);
/// assert!(encrypt_radix(&ck, 256, 4).is_err());
/// ```
pub fn encrypt_radix(
    client_key: &ClientKey,
    value: u128,
    num_blocks: usize,
) -> Result<Vec<Ciphertext>> {
    let base = client_key.parameters().message_modulus as u128;
    let bits = num_blocks as u32 * base.trailing_zeros();
    if bits < 128 && value >> bits != 0 {
        return Err(Error::InvalidParameter(format!(
            "{value} does not fit in {num_blocks} blocks ({bits} bits)"
        )));
    }
    let mut rest = value;
    (0..num_blocks)
        .map(|_| {
            let digit = (rest % base) as u64;
            rest /= base;
            client_key.encrypt(digit)
        })
        .collect()
}

/// Decrypts a radix ciphertext: `sum_i m_i * message_modulus^i` modulo
/// `message_modulus^num_blocks` (carries are ignored: blocks should be clean).
pub fn decrypt_radix(client_key: &ClientKey, blocks: &[Ciphertext]) -> Result<u128> {
    let base = client_key.parameters().message_modulus as u128;
    let bits = blocks.len() as u32 * base.trailing_zeros();
    if bits > 128 {
        return Err(Error::InvalidParameter(format!(
            "{} blocks hold {bits} bits, more than the 128 a u128 can return",
            blocks.len()
        )));
    }
    let mut value = 0u128;
    for block in blocks.iter().rev() {
        value = value.wrapping_mul(base) + client_key.decrypt(block)? as u128;
    }
    Ok(value)
}
