//! Modulus switch of an LWE ciphertext from 2^64 to `2^log_modulus` (to `2N` before a
//! blind rotation), optionally with centered-mean noise reduction.

use crate::core_crypto::entities::LweCiphertext;
use crate::error::{Error, Result};

/// How the body is rounded in a modulus switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ModulusSwitchType {
    /// Round every coefficient independently.
    Standard,
    /// Centered-mean noise reduction: the rounding errors `e_i` of the mask are
    /// public, so `(1/2) sum e_i` is added to the body before rounding it; the
    /// remaining error `sum e_i (s_i - 1/2)` has half the variance of the standard
    /// switch for a uniform binary key.
    CenteredMeanNoiseReduction,
}

/// A ciphertext modulo `2^log_modulus`: every value is in `[0, 2^log_modulus)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModulusSwitchedLweCiphertext {
    /// The switched mask.
    pub mask: Vec<usize>,
    /// The switched body.
    pub body: usize,
    /// `log2` of the new modulus.
    pub log_modulus: usize,
}

/// Switches `ct` to the modulus `2^log_modulus` (`1 <= log_modulus <= 32`).
///
/// ```
/// use gpufhe::core_crypto::*;
/// let ct = LweCiphertext::from_container(vec![1u64 << 63, (3u64 << 61) + 5, 1 << 62]).unwrap();
/// let s = modulus_switch_lwe_ciphertext(&ct, 4, ModulusSwitchType::Standard).unwrap();
/// assert_eq!(s.mask, vec![8, 6]);
/// assert_eq!(s.body, 4);
/// ```
pub fn modulus_switch_lwe_ciphertext<C: AsRef<[u64]>>(
    ct: &LweCiphertext<C>,
    log_modulus: usize,
    kind: ModulusSwitchType,
) -> Result<ModulusSwitchedLweCiphertext> {
    if !(1..=32).contains(&log_modulus) {
        return Err(Error::InvalidParameter(format!(
            "modulus switch to 2^{log_modulus}: the exponent must be in [1, 32]"
        )));
    }
    let shift = 64 - log_modulus;
    let switch = |x: u64| -> u64 { ((x >> (shift - 1)) + 1) >> 1 };
    let modulus_mask = (1u64 << log_modulus) - 1;
    let mut error_sum: i128 = 0;
    let mask = ct
        .mask()
        .iter()
        .map(|&a| {
            let s = switch(a);
            // The rounding error of this coefficient, as a signed value modulo 2^64.
            error_sum += (s << shift).wrapping_sub(a) as i64 as i128;
            (s & modulus_mask) as usize
        })
        .collect();
    let body = match kind {
        ModulusSwitchType::Standard => ct.body(),
        ModulusSwitchType::CenteredMeanNoiseReduction => {
            ct.body().wrapping_add((error_sum >> 1) as u64)
        }
    };
    Ok(ModulusSwitchedLweCiphertext {
        mask,
        body: (switch(body) & modulus_mask) as usize,
        log_modulus,
    })
}
