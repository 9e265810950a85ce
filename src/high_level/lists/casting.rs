//! Expanding compact lists of dedicated public-key parameters (TFHE-rs's
//! `CompactCiphertextListExpansionKind::RequiresCasting`): the blocks are expanded
//! under the dedicated key, then cast to computation blocks by the server key's
//! [`CastingKey`](crate::shortint::CastingKey), a keyswitch followed by a bootstrap
//! with the lookup table TFHE-rs applies there: the message (`x mod M`), a boolean
//! (`x mod M != 0`), or for packed lists the low and high digit of each pair. The
//! cast runs on the CPU threads, one block per thread, for a CPU key, and on the
//! GPU for a `CudaServerKey` (`cuda_expansion.rs`).

use crate::error::{Error, Result};
use crate::high_level::global_state::current_server_key;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::lists::kinds::DataKind;
use crate::high_level::ServerKey;
use crate::shortint::{self, Ciphertext, CompactPublicKeyEncryptionParameters};
use std::sync::Arc;

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

/// The server key that expands a list of `tag` whose blocks need one (`needs` says
/// why, for the error without one): `given`, else the thread's; `Err` if it is
/// another client key's.
pub(crate) fn expansion_server_key(
    tag: KeyTag,
    given: Option<&ServerKey>,
    needs: &str,
) -> Result<ServerKey> {
    let key = match given {
        Some(k) => k.clone(),
        None => current_server_key().map_err(|_| {
            Error::InvalidParameter(format!(
                "{needs}: set the server key of its client key first (gpufhe::set_server_key)"
            ))
        })?,
    };
    key.tag()
        .check("the compact list (expand it with its own server key)", tag)?;
    Ok(key)
}

/// The function that makes one block of an expanded list from a block as extracted:
/// TFHE-rs's (the message, or a boolean, of a lone block or of the low or high
/// digit of a packed pair).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Extract {
    /// `x mod M`.
    Low,
    /// `x / M mod M`.
    High,
    /// `x mod M != 0`.
    LowBoolean,
    /// `x / M mod M != 0`.
    HighBoolean,
}

impl Extract {
    /// Every function, in the order of [`Extract::index`].
    pub(crate) const ALL: [Self; 4] = [Self::Low, Self::High, Self::LowBoolean, Self::HighBoolean];

    /// Its position in [`Extract::ALL`].
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// Its value on `x`, for message modulus `m`.
    pub(crate) fn apply(self, m: u64, x: u64) -> u64 {
        match self {
            Self::Low => x % m,
            Self::High => (x / m) % m,
            Self::LowBoolean => u64::from(x % m != 0),
            Self::HighBoolean => u64::from((x / m) % m != 0),
        }
    }
}

/// The blocks an expansion bootstraps, in the order of the values: for each, the
/// block as extracted it reads (of `stored`, one per block or per pair if `packed`)
/// and its function, for values of `kinds` with `counts` blocks each. `Err` unless
/// `stored` is their number.
pub(crate) fn expansion_plan(
    kinds: &[DataKind],
    counts: &[usize],
    packed: bool,
    stored: usize,
) -> Result<Vec<(usize, Extract)>> {
    let booleans = kinds
        .iter()
        .zip(counts)
        .flat_map(|(&kind, &count)| std::iter::repeat_n(kind == DataKind::Boolean, count));
    let plan: Vec<(usize, Extract)> = booleans
        .enumerate()
        .map(|(b, boolean)| match (packed && b % 2 == 1, boolean) {
            (false, false) => (if packed { b / 2 } else { b }, Extract::Low),
            (false, true) => (if packed { b / 2 } else { b }, Extract::LowBoolean),
            (true, false) => (b / 2, Extract::High),
            (true, true) => (b / 2, Extract::HighBoolean),
        })
        .collect();
    let want = if packed {
        plan.len().div_ceil(2)
    } else {
        plan.len()
    };
    crate::error::check_eq("number of blocks of the compact list", want, stored)?;
    Ok(plan)
}

/// The degree of a block as extracted: `M² - 1` for a packed pair (`M` the message
/// modulus), else its own.
pub(crate) fn extracted_degree(packed: bool, m: u64, block: &Ciphertext) -> u64 {
    if packed {
        m * m - 1
    } else {
        block.degree
    }
}

/// The casting key of `key` for lists of `pke`: `Err` if it has none, or one for
/// another encryption dimension.
pub(crate) fn checked_casting_key<'a>(
    key: &'a ServerKey,
    pke: &CompactPublicKeyEncryptionParameters,
) -> Result<&'a Arc<shortint::CastingKey>> {
    let casting = key.shared_casting_key().ok_or_else(|| {
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
    Ok(casting)
}

/// The computation blocks of a list of dedicated parameters `pke`, on the CPU
/// threads: `expanded`, its blocks as extracted, cast by `key` as `plan` says
/// ([`expansion_plan`]).
pub(crate) fn cast_blocks(
    key: &ServerKey,
    pke: &CompactPublicKeyEncryptionParameters,
    expanded: Vec<Ciphertext>,
    plan: &[(usize, Extract)],
    packed: bool,
) -> Result<Vec<Ciphertext>> {
    let casting = checked_casting_key(key, pke)?;
    let host = key.scheduler().host_key();
    let (inputs, tables) = bootstrap_inputs(host, &expanded, plan, packed)?;
    let luts: Vec<_> = plan.iter().map(|&(_, e)| &tables[e.index()]).collect();
    casting.cast(host, &inputs, &luts)
}

/// What the CPU bootstraps of `plan` read: the blocks of `expanded` (with their
/// degree as extracted), and `host`'s tables of [`Extract::ALL`].
pub(crate) fn bootstrap_inputs(
    host: &shortint::ServerKey,
    expanded: &[Ciphertext],
    plan: &[(usize, Extract)],
    packed: bool,
) -> Result<(Vec<Ciphertext>, Vec<shortint::LookupTable>)> {
    let m = host.parameters().message_modulus;
    let tables = Extract::ALL
        .iter()
        .map(|e| host.generate_lookup_table(|x| e.apply(m, x)))
        .collect::<Result<Vec<_>>>()?;
    let inputs = plan
        .iter()
        .map(|&(source, _)| {
            let mut block = expanded[source].clone();
            block.degree = extracted_degree(packed, m, &block);
            block
        })
        .collect();
    Ok((inputs, tables))
}
