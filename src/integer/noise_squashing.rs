//! Noise squashing of radix integers (TFHE-rs 1.8's
//! `integer::noise_squashing`): blocks are packed two by two (`low + high *
//! message_modulus`, the carry space of the low block holding the high digit) and
//! each pair is squashed once ([`crate::shortint::NoiseSquashingKey::squash`]), on
//! the rayon pool; a boolean is one squashed block.

use crate::error::{Error, Result};
use crate::integer::radix::from_digits;
use crate::integer::U2048;
use crate::shortint::{
    Ciphertext, NoiseSquashingKey, NoiseSquashingPrivateKey, ServerKey, SquashedNoiseBlock,
};
use rayon::prelude::*;

/// A squashed radix integer: the squashed pairs of its blocks (least significant
/// first) and its number of blocks before packing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SquashedNoiseRadixCiphertext {
    /// The squashed pairs.
    pub packed_blocks: Vec<SquashedNoiseBlock>,
    /// The number of blocks of the integer.
    pub original_block_count: usize,
}

/// `low + high * message_modulus` (the high block's digit moved into the low
/// block's carry bits); `Err` unless both are clean digits (degree below the
/// message modulus) and the carry modulus holds the high digit.
fn pack(server_key: &ServerKey, pair: &[Ciphertext]) -> Result<Ciphertext> {
    let p = server_key.parameters();
    let msg = p.message_modulus;
    for block in pair {
        if block.degree() >= msg {
            return Err(Error::InvalidParameter(format!(
                "noise squashing packs clean blocks (degree below {msg}), got degree {}",
                block.degree()
            )));
        }
    }
    if p.carry_modulus < msg {
        return Err(Error::InvalidParameter(
            "noise squashing packs two digits per block: the carry modulus must be at least \
             the message modulus"
                .into(),
        ));
    }
    let mut packed = pair[0].clone();
    if let Some(high) = pair.get(1) {
        let shifted = server_key.unchecked_scalar_mul(high, msg)?;
        server_key.unchecked_add_assign(&mut packed, &shifted)?;
    }
    Ok(packed)
}

/// Squashes the blocks of a radix integer (pairs packed, on the rayon pool).
pub fn squash_radix_blocks(
    key: &NoiseSquashingKey,
    server_key: &ServerKey,
    blocks: &[Ciphertext],
) -> Result<SquashedNoiseRadixCiphertext> {
    let packed_blocks = blocks
        .par_chunks(2)
        .map(|pair| key.squash(server_key, &pack(server_key, pair)?))
        .collect::<Result<Vec<_>>>()?;
    Ok(SquashedNoiseRadixCiphertext {
        packed_blocks,
        original_block_count: blocks.len(),
    })
}

/// The blocks of a radix integer packed two by two, as [`squash_radix_blocks`]
/// squashes them (for a squashing that runs elsewhere, the GPU's).
pub(crate) fn pack_radix_blocks(
    server_key: &ServerKey,
    blocks: &[Ciphertext],
) -> Result<Vec<Ciphertext>> {
    blocks
        .par_chunks(2)
        .map(|pair| pack(server_key, pair))
        .collect()
}

/// The value of a squashed radix integer, its `original_block_count` digits (the
/// caller sign-extends a signed one); `Err` if a block is not of this key's
/// encoding, or the block counts do not match.
pub fn decrypt_squashed_radix(
    key: &NoiseSquashingPrivateKey,
    ct: &SquashedNoiseRadixCiphertext,
) -> Result<U2048> {
    if ct.packed_blocks.len() != ct.original_block_count.div_ceil(2) {
        return Err(Error::InvalidParameter(format!(
            "{} squashed blocks cannot hold {} packed blocks",
            ct.packed_blocks.len(),
            ct.original_block_count
        )));
    }
    let params = key.parameters();
    let digits = ct
        .packed_blocks
        .iter()
        .map(|b| key.decrypt(b).map(|v| v as u64))
        .collect::<Result<Vec<_>>>()?;
    let value = from_digits(&digits, params.cleartext_space())?;
    let bits = params.message_modulus.trailing_zeros() as usize * ct.original_block_count;
    Ok(if bits == 0 {
        U2048::ZERO
    } else if bits >= U2048::BITS as usize {
        value
    } else {
        let drop = U2048::BITS - bits as u32;
        (value << drop) >> drop
    })
}

/// Trivial (noiseless) blocks of the `count` low digits of `value`, to be squashed
/// like encrypted ones.
pub fn trivial_radix_blocks(
    server_key: &ServerKey,
    value: U2048,
    count: usize,
) -> Result<Vec<Ciphertext>> {
    crate::integer::radix::clear_digits(value, server_key.parameters().message_modulus, count)
        .into_iter()
        .map(|digit| server_key.create_trivial(digit))
        .collect()
}
