//! The parameters of compact public-key encryption (TFHE-rs's
//! `CompactPublicKeyEncryptionParameters`): those of the block parameters
//! (encryption under the big key, blocks used as they expand), or dedicated ones,
//! whose lists are encrypted under a key of their own and keyswitched to the
//! computation key when they expand (TFHE-rs's "casting").

use super::{CarryModulus, MessageModulus, ShortintParameters};
use crate::core_crypto::{LweDimension, NoiseDistribution};
use crate::error::{Error, Result};

/// What expanding a compact list of these parameters needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum CompactCiphertextListExpansionKind {
    /// A keyswitch to the computation key, then a bootstrap (dedicated parameters).
    RequiresCasting,
    /// Nothing: the blocks are computation blocks of the standard (keyswitch then
    /// bootstrap) pattern, the only one this crate runs.
    NoCasting,
}

/// Which zero-knowledge proofs a compact public key's lists may carry (made and
/// verified with the `zk-pok` feature: `gpufhe::zk`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SupportedCompactPkeZkScheme {
    /// None.
    ZkNotSupported,
    /// TFHE-rs's version 1 proofs.
    V1,
    /// TFHE-rs's version 2 proofs.
    V2,
}

/// The parameters of compact public-key encryption (TFHE-rs's type of this name;
/// the ciphertext modulus is always the native `2^64`).
///
/// ```
/// use gpufhe::shortint::parameters::{
///     CompactCiphertextListExpansionKind, CompactPublicKeyEncryptionParameters,
///     PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as PKE,
/// };
/// use gpufhe::shortint::DEFAULT_PARAMETERS;
/// // Dedicated: their own key of dimension 2048, keyswitched when expanded.
/// assert_eq!(PKE.encryption_lwe_dimension.0, 2048);
/// assert_eq!(PKE.expansion_kind, CompactCiphertextListExpansionKind::RequiresCasting);
/// // Those of block parameters: the big key, no keyswitch.
/// let own = CompactPublicKeyEncryptionParameters::try_from(DEFAULT_PARAMETERS)?;
/// assert_eq!(own.expansion_kind, CompactCiphertextListExpansionKind::NoCasting);
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompactPublicKeyEncryptionParameters {
    /// The dimension of the encryption key (a power of two: the key is one ring
    /// element).
    pub encryption_lwe_dimension: LweDimension,
    /// The noise of encryption (of the key's sample and of each list).
    pub encryption_noise_distribution: NoiseDistribution,
    /// The message modulus of the blocks.
    pub message_modulus: MessageModulus,
    /// The carry modulus of the blocks.
    pub carry_modulus: CarryModulus,
    /// Whether expansion keyswitches to the computation key.
    pub expansion_kind: CompactCiphertextListExpansionKind,
    /// The proofs lists may carry.
    pub zk_scheme: SupportedCompactPkeZkScheme,
}

impl TryFrom<ShortintParameters> for CompactPublicKeyEncryptionParameters {
    type Error = Error;

    /// The parameters of compact keys of the block parameters `p` (TFHE-rs's
    /// conversion): the big key, the GLWE noise, no casting, no proofs; `Err` if `p`
    /// is invalid.
    fn try_from(p: ShortintParameters) -> Result<Self> {
        p.validate()?;
        Ok(Self::of_blocks(&p))
    }
}

impl CompactPublicKeyEncryptionParameters {
    /// The parameters of compact keys of the (valid) block parameters `p`.
    pub(crate) fn of_blocks(p: &ShortintParameters) -> Self {
        Self {
            encryption_lwe_dimension: p.big_lwe_dimension(),
            encryption_noise_distribution: p.glwe_noise_distribution,
            message_modulus: MessageModulus(p.message_modulus),
            carry_modulus: CarryModulus(p.carry_modulus),
            expansion_kind: CompactCiphertextListExpansionKind::NoCasting,
            zk_scheme: SupportedCompactPkeZkScheme::ZkNotSupported,
        }
    }

    /// Whether lists of these parameters are keyswitched to the computation key when
    /// they expand.
    pub fn requires_casting(&self) -> bool {
        self.expansion_kind == CompactCiphertextListExpansionKind::RequiresCasting
    }

    /// The block parameters a key of these parameters is held as, for blocks of
    /// `block`: `block` with one GLWE polynomial of the encryption dimension and the
    /// encryption noise (exactly `block` when these are `block`'s own). `Err` unless
    /// the dimension is a power of two, the moduli are `block`'s and the result is
    /// valid.
    pub(crate) fn carrier(&self, block: &ShortintParameters) -> Result<ShortintParameters> {
        let n = self.encryption_lwe_dimension.0;
        if !n.is_power_of_two() || n < 2 {
            return Err(Error::InvalidParameter(format!(
                "a compact public-key encryption dimension of {n}: it must be a power of two"
            )));
        }
        if (self.message_modulus.0, self.carry_modulus.0)
            != (block.message_modulus, block.carry_modulus)
        {
            return Err(Error::InvalidParameter(format!(
                "compact public-key parameters of {}x{} blocks for {}x{} computation blocks \
                 (gpufhe casts between blocks of the same moduli only)",
                self.message_modulus.0,
                self.carry_modulus.0,
                block.message_modulus,
                block.carry_modulus
            )));
        }
        let mut carrier = *block;
        carrier.glwe_dimension = crate::core_crypto::GlweDimension(1);
        carrier.polynomial_size = crate::core_crypto::PolynomialSize(n);
        carrier.glwe_noise_distribution = self.encryption_noise_distribution;
        carrier.validate()?;
        Ok(carrier)
    }
}

/// TFHE-rs 1.8's dedicated compact public-key parameters for the default blocks
/// (its `V1_8_PARAM_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128_ZKV2`): a key
/// of dimension 2048, TUniform(17) noise, keyswitched to the computation key on
/// expansion, for version 2 proofs.
pub const PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: CompactPublicKeyEncryptionParameters =
    CompactPublicKeyEncryptionParameters {
        encryption_lwe_dimension: LweDimension(2048),
        encryption_noise_distribution: NoiseDistribution::TUniform { log2_bound: 17 },
        message_modulus: MessageModulus(4),
        carry_modulus: CarryModulus(4),
        expansion_kind: CompactCiphertextListExpansionKind::RequiresCasting,
        zk_scheme: SupportedCompactPkeZkScheme::V2,
    };

/// TFHE-rs 1.8's dedicated parameters for version 1 proofs (its
/// `..._TUNIFORM_2M128_ZKV1`): dimension 1024, TUniform(43) noise.
pub const PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128_ZKV1:
    CompactPublicKeyEncryptionParameters = CompactPublicKeyEncryptionParameters {
    encryption_lwe_dimension: LweDimension(1024),
    encryption_noise_distribution: NoiseDistribution::TUniform { log2_bound: 43 },
    message_modulus: MessageModulus(4),
    carry_modulus: CarryModulus(4),
    expansion_kind: CompactCiphertextListExpansionKind::RequiresCasting,
    zk_scheme: SupportedCompactPkeZkScheme::V1,
};

/// **Insecure**: [`PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2`] for version 2
/// zero-knowledge proofs (feature `zk-pok`), for tests only: small keys and CRS,
/// fast proofs.
#[cfg(any(test, feature = "test-params"))]
pub const PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2: CompactPublicKeyEncryptionParameters =
    CompactPublicKeyEncryptionParameters {
        zk_scheme: SupportedCompactPkeZkScheme::V2,
        ..PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2
    };

/// **Insecure**: dedicated compact public-key parameters for the insecure test
/// blocks ([`super::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2`]), for tests only: a key
/// of dimension 512 (the test blocks' big dimension), keyswitched on expansion.
#[cfg(any(test, feature = "test-params"))]
pub const PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2: CompactPublicKeyEncryptionParameters =
    CompactPublicKeyEncryptionParameters {
        encryption_lwe_dimension: LweDimension(512),
        encryption_noise_distribution: NoiseDistribution::TUniform { log2_bound: 20 },
        message_modulus: MessageModulus(4),
        carry_modulus: CarryModulus(4),
        expansion_kind: CompactCiphertextListExpansionKind::RequiresCasting,
        zk_scheme: SupportedCompactPkeZkScheme::ZkNotSupported,
    };
