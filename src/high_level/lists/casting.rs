//! Expanding compact lists of dedicated public-key parameters (TFHE-rs's
//! `CompactCiphertextListExpansionKind::RequiresCasting`): the blocks are expanded
//! under the dedicated key, then cast to computation blocks by the server key's
//! [`CastingKey`](crate::shortint::CastingKey), a keyswitch followed by a bootstrap
//! with the lookup table TFHE-rs applies there: the message (`x mod M`), a boolean
//! (`x mod M != 0`), or for packed lists the low and high digit of each pair. The
//! cast runs on the CPU threads, one block per thread (also for a `CudaServerKey`,
//! whose host key casts).

use crate::error::{Error, Result};
use crate::high_level::global_state::current_server_key;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::lists::kinds::DataKind;
use crate::high_level::ServerKey;
use crate::shortint::{self, Ciphertext, CompactPublicKeyEncryptionParameters};

/// Writes nothing for a key or list without dedicated public-key parts (the field
/// is not in gpufhe's own format) and refuses one with them, which that format
/// cannot hold.
pub(crate) fn not_dedicated_in_own_format<T, S: serde::Serializer>(
    dedicated: &Option<T>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    if dedicated.is_some() {
        Err(dedicated_in_own_format())
    } else {
        s.serialize_unit()
    }
}

/// The error of writing keys or lists of dedicated public-key parameters in
/// gpufhe's own format.
pub(crate) fn dedicated_in_own_format<E: serde::ser::Error>() -> E {
    E::custom(
        "keys and lists of dedicated compact public-key parameters have no form in gpufhe's \
         own format: write them with gpufhe::safe_serialization (TFHE-rs's format)",
    )
}

/// The server key that casts a list of `tag`: the given one, else the thread's.
fn casting_server_key(tag: KeyTag, given: Option<&ServerKey>) -> Result<ServerKey> {
    let key = match given {
        Some(k) => k.clone(),
        None => current_server_key().map_err(|_| {
            Error::InvalidParameter(
                "expanding a compact list of dedicated public-key parameters keyswitches its \
                 blocks to the computation key: set the server key of its client key first \
                 (gpufhe::set_server_key)"
                    .into(),
            )
        })?,
    };
    key.tag()
        .check("the compact list (expand it with its own server key)", tag)?;
    Ok(key)
}

/// The computation blocks of a list of dedicated parameters `pke`: `expanded`, its
/// blocks as extracted (pairs if `packed`), of values of `kinds` with `counts`
/// blocks each.
pub(crate) fn cast_blocks(
    tag: KeyTag,
    server_key: Option<&ServerKey>,
    pke: &CompactPublicKeyEncryptionParameters,
    expanded: Vec<Ciphertext>,
    kinds: &[DataKind],
    counts: &[usize],
    packed: bool,
) -> Result<Vec<Ciphertext>> {
    let key = casting_server_key(tag, server_key)?;
    let casting = key.casting_key().ok_or_else(|| {
        Error::InvalidParameter(
            "the server key has no casting key (its configuration has no dedicated compact \
             public-key parameters): it cannot expand this list"
                .into(),
        )
    })?;
    if casting.parameters().encryption_lwe_dimension != pke.encryption_lwe_dimension {
        return Err(Error::InvalidParameter(format!(
            "the compact list was encrypted under a key of dimension {}, the server key \
             casts blocks of dimension {}",
            pke.encryption_lwe_dimension.0,
            casting.parameters().encryption_lwe_dimension.0
        )));
    }
    let host = key.scheduler().host_key();
    let m = host.parameters().message_modulus;
    let message = host.generate_lookup_table(|x| x % m)?;
    let boolean = host.generate_lookup_table(|x| u64::from(x % m != 0))?;
    let high = host.generate_lookup_table(|x| (x / m) % m)?;
    let high_boolean = host.generate_lookup_table(|x| u64::from((x / m) % m != 0))?;
    // One (low, high) pair of tables per block of the values, in order.
    let tables: Vec<(&shortint::LookupTable, &shortint::LookupTable)> = kinds
        .iter()
        .zip(counts)
        .flat_map(|(&kind, &count)| {
            let pair = if kind == DataKind::Boolean {
                (&boolean, &high_boolean)
            } else {
                (&message, &high)
            };
            std::iter::repeat_n(pair, count)
        })
        .collect();
    let total = tables.len();
    let stored = if packed { total.div_ceil(2) } else { total };
    crate::error::check_eq(
        "number of blocks of the compact list",
        stored,
        expanded.len(),
    )?;
    let (mut inputs, mut luts) = (Vec::with_capacity(total), Vec::with_capacity(total));
    if packed {
        let packed_degree = m * m - 1;
        for (t, mut block) in expanded.into_iter().enumerate() {
            block.degree = packed_degree;
            inputs.push(block.clone());
            luts.push(tables[2 * t].0);
            if let Some(pair) = tables.get(2 * t + 1) {
                inputs.push(block);
                luts.push(pair.1);
            }
        }
    } else {
        for (block, pair) in expanded.into_iter().zip(&tables) {
            inputs.push(block);
            luts.push(pair.0);
        }
    }
    casting.cast(host, &inputs, &luts)
}
