//! Parts that gpufhe's own format does not hold (the noise-squashing keys and
//! parameters, whose serialized form is TFHE-rs's): written as nothing when absent,
//! an `Err` when present, so that a key never loses them silently.

use std::sync::OnceLock;

/// The error of writing noise-squashing parts in gpufhe's own format.
fn squashing_in_own_format<E: serde::ser::Error>() -> E {
    E::custom(
        "noise-squashing keys and parameters have no form in gpufhe's own format: write \
         them with gpufhe::safe_serialization (TFHE-rs's format)",
    )
}

/// For `#[serde(serialize_with)]` on an `Option` of noise-squashing parts.
pub(crate) fn no_squashing<T, S: serde::Serializer>(
    part: &Option<T>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match part {
        Some(_) => Err(squashing_in_own_format()),
        None => s.serialize_unit(),
    }
}

/// For `#[serde(serialize_with)]` on a `OnceLock` of noise-squashing parts.
pub(crate) fn no_squashing_lock<T, S: serde::Serializer>(
    part: &OnceLock<T>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match part.get() {
        Some(_) => Err(squashing_in_own_format()),
        None => s.serialize_unit(),
    }
}
