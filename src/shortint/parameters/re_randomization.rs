//! How ciphertexts are re-randomized (TFHE-rs 1.8's `ReRandomizationParameters`).

use crate::shortint::key_switching::ShortintKeySwitchingParameters;

/// How a server key re-randomizes ciphertexts
/// ([`crate::ConfigBuilder::enable_ciphertext_re_randomization`]).
///
/// ```
/// use gpufhe::shortint::parameters::{
///     ReRandomizationParameters, PARAM_KEYSWITCH_TO_BIG_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
/// };
/// let legacy: ReRandomizationParameters = KS.into();
/// assert_eq!(
///     legacy,
///     ReRandomizationParameters::LegacyDedicatedCPKWithKeySwitch { rerand_ksk_params: KS }
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ReRandomizationParameters {
    /// The dedicated compact public key (of
    /// [`crate::ConfigBuilder::use_dedicated_compact_public_key_parameters`])
    /// encrypts the zeros, and a keyswitch of these parameters (to the big key)
    /// brings them to the computation key. The caller passes the compact public key.
    LegacyDedicatedCPKWithKeySwitch {
        /// The keyswitch from the dedicated key to the computation's big key.
        rerand_ksk_params: ShortintKeySwitchingParameters,
    },
    /// The server key holds a compact public key of the computation's big key
    /// (recommended: no keyswitch).
    DerivedCPKWithoutKeySwitch,
}

impl From<ShortintKeySwitchingParameters> for ReRandomizationParameters {
    fn from(value: ShortintKeySwitchingParameters) -> Self {
        Self::LegacyDedicatedCPKWithKeySwitch {
            rerand_ksk_params: value,
        }
    }
}
