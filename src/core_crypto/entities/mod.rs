//! The objects of TFHE: keys and ciphertexts, each wrapping a container.

mod bootstrap_key;
mod ggsw;
mod glwe;
mod keyswitch_key;
mod lwe;

pub use bootstrap_key::*;
pub use ggsw::*;
pub use glwe::*;
pub use keyswitch_key::*;
pub use lwe::*;

use crate::core_crypto::commons::{DecompositionBaseLog, DecompositionLevelCount};
use crate::error::{Error, Result};

/// `Err` unless `1 <= base_log`, `1 <= level` and `base_log * level <= 64`.
pub(crate) fn check_decomposition(
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
) -> Result<()> {
    if base_log.0 >= 1 && level.0 >= 1 && base_log.0.saturating_mul(level.0) <= 64 {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "decomposition base 2^{} with {} levels needs 1 <= base_log, 1 <= level, base_log * level <= 64",
            base_log.0, level.0
        )))
    }
}

pub(crate) use glwe::check_polynomial_size;
