//! The checks every entity makes of the shape it is built or read with: dimensions
//! in bounds, decompositions that fit 64 bits, containers of exactly the length the
//! shape implies (computed without overflow).

use crate::core_crypto::commons::{DecompositionBaseLog, DecompositionLevelCount};
use crate::error::{Error, Result};

/// `Err` unless `1 <= base_log <= 63`, `1 <= level` and `base_log * level <= 64`:
/// the decompositions the 64-bit arithmetic carries (a digit and its carry are
/// shifted by `base_log`, which must stay below the word's 64 bits). Every
/// parameter validation and every key read from bytes goes through it.
pub(crate) fn check_decomposition(
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
) -> Result<()> {
    if (1..64).contains(&base_log.0) && level.0 >= 1 && base_log.0.saturating_mul(level.0) <= 64 {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "decomposition base 2^{} with {} levels needs 1 <= base_log <= 63, 1 <= level, base_log * level <= 64",
            base_log.0, level.0
        )))
    }
}

/// `Err` unless a container read from serialized data holds `product(factors)`
/// elements (computed without overflow, whatever the factors claim).
pub(crate) fn check_container_len(what: &'static str, factors: &[usize], got: usize) -> Result<()> {
    let expected = factors
        .iter()
        .try_fold(1usize, |acc, &f| acc.checked_mul(f))
        .ok_or_else(|| {
            Error::InvalidParameter(format!("the shape of the {what} overflows: {factors:?}"))
        })?;
    crate::error::check_eq(what, expected, got)
}

/// The largest dimension (LWE dimension, GLWE dimension, polynomial size) a key's
/// shape may have: with every dimension at most 2^17 and at most 64 levels, the
/// sizes computed from a shape fit in a `u64` before they are checked against the
/// data actually read.
pub const MAX_SHAPE_DIMENSION: usize = 1 << 17;

/// `Err` unless every dimension is in `[1, MAX_SHAPE_DIMENSION]`.
pub(crate) fn check_dimensions(what: &str, dims: &[usize]) -> Result<()> {
    if dims.iter().all(|&d| (1..=MAX_SHAPE_DIMENSION).contains(&d)) {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "the dimensions of the {what} must be in [1, {MAX_SHAPE_DIMENSION}], got {dims:?}"
        )))
    }
}

/// The fields of a key read from serialized data, before they are checked against
/// the shape.
#[derive(serde::Deserialize)]
pub(crate) struct KeyParts<T, S> {
    pub(crate) data: Vec<T>,
    pub(crate) shape: S,
}

/// The fields of a seeded key or ciphertext list read from serialized data, before
/// they are checked against the shape.
#[derive(serde::Deserialize)]
pub(crate) struct SeededKeyParts<S> {
    pub(crate) bodies: Vec<u64>,
    pub(crate) seed: crate::core_crypto::random::CompressionSeed,
    pub(crate) shape: S,
}
