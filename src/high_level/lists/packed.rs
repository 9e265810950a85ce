//! Compact lists whose blocks are packed two by two (TFHE-rs's `build_packed`):
//! block messages `m_{2t} + M·m_{2t+1}` (`M` the message modulus) encrypted as one
//! block of degree `M² - 1`. Expanding bootstraps each packed block twice, once
//! for each digit, with the given server key or the thread's, as TFHE-rs does: on
//! the CPU threads for a CPU key, on the GPU for a `CudaServerKey`
//! (`cuda_expansion.rs`).

use super::casting::{bootstrap_inputs, Extract};
use crate::error::{Error, Result};
use crate::high_level::ServerKey;
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

/// `Err` unless blocks of `parameters` can hold a packed pair: a carry modulus at
/// least the message modulus.
pub(crate) fn check_packable(parameters: &ShortintParameters) -> Result<()> {
    let m = parameters.message_modulus;
    if m.checked_mul(m)
        .is_none_or(|mm| mm > parameters.total_modulus())
    {
        return Err(Error::InvalidParameter(format!(
            "packed blocks need a carry modulus at least the message modulus ({m}), not {}",
            parameters.carry_modulus
        )));
    }
    Ok(())
}

/// The blocks of `packed` (as extracted from a packed list), on the CPU threads:
/// each packed block bootstrapped by `key` into its low digit and, but for a last
/// odd one, its high digit, as `plan` says ([`super::casting::expansion_plan`]).
pub(crate) fn unpacked_blocks(
    key: &ServerKey,
    parameters: &ShortintParameters,
    packed: Vec<Ciphertext>,
    plan: &[(usize, Extract)],
) -> Result<Vec<Ciphertext>> {
    check_packable(parameters)?;
    let host = key.scheduler().host_key();
    let (inputs, tables) = bootstrap_inputs(host, &packed, plan, true)?;
    let luts: Vec<_> = plan.iter().map(|&(_, e)| &tables[e.index()]).collect();
    host.apply_lookup_table_batch(&inputs, &luts)
}
