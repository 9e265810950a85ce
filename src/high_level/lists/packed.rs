//! Compact lists whose blocks are packed two by two (TFHE-rs's `build_packed`):
//! block messages `m_{2t} + M·m_{2t+1}` (`M` the message modulus) encrypted as one
//! block of degree `M² - 1`. Expanding bootstraps each packed block twice, once
//! for each digit, with the server key of the thread, as TFHE-rs does.

use crate::error::{Error, Result};
use crate::high_level::global_state::current_server_key;
use crate::high_level::keys::tag::KeyTag;
use crate::shortint::{Ciphertext, ShortintParameters};

/// Writes nothing for an unpacked list (the field is not in gpufhe's own format)
/// and refuses a packed one, which that format cannot hold.
pub(crate) fn unpacked_in_own_format<S: serde::Serializer>(
    packed: &bool,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    if *packed {
        Err(serde::ser::Error::custom(
            "a packed compact list (TFHE-rs's build_packed) has no form in gpufhe's own \
             format: write it with gpufhe::safe_serialization (TFHE-rs's format)",
        ))
    } else {
        s.serialize_unit()
    }
}

/// The `total` blocks of `packed` (as extracted from a packed list): each packed
/// block bootstrapped into its low digit and, but for a last odd one, its high digit.
pub(crate) fn unpacked_blocks(
    tag: KeyTag,
    parameters: &ShortintParameters,
    packed: Vec<Ciphertext>,
    total: usize,
) -> Result<Vec<Ciphertext>> {
    let key = current_server_key().map_err(|_| {
        Error::InvalidParameter(
            "expanding a packed compact list (TFHE-rs's build_packed) bootstraps its \
             blocks apart: set the server key of its client key first (gpufhe::set_server_key)"
                .into(),
        )
    })?;
    key.tag().check(
        "the packed compact list (expand it with its own server key)",
        tag,
    )?;
    let host = key.scheduler().host_key();
    let m = parameters.message_modulus;
    let low = host.generate_lookup_table(|x| x % m)?;
    let high = host.generate_lookup_table(|x| (x / m) % m)?;
    crate::error::check_eq(
        "number of blocks of the packed compact list",
        total.div_ceil(2),
        packed.len(),
    )?;
    if m.checked_mul(m)
        .is_none_or(|mm| mm > parameters.total_modulus())
    {
        return Err(Error::InvalidParameter(format!(
            "packed blocks need a carry modulus at least the message modulus ({m}), not {}",
            parameters.carry_modulus
        )));
    }
    let (mut inputs, mut luts) = (Vec::with_capacity(total), Vec::with_capacity(total));
    for (t, mut block) in packed.into_iter().enumerate() {
        block.degree = m * m - 1;
        if 2 * t + 1 < total {
            inputs.push(block.clone());
            luts.push(&low);
            inputs.push(block);
            luts.push(&high);
        } else {
            inputs.push(block);
            luts.push(&low);
        }
    }
    host.apply_lookup_table_batch(&inputs, &luts)
}
