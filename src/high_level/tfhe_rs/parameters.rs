//! Block parameters, tags and mask seeds between gpufhe and TFHE-rs's data.

use super::wire::core::CompressionSeed as WireSeed;
use super::wire::core::{
    CiphertextModulus, DecompositionBaseLog as WireBaseLog,
    DecompositionLevelCount as WireLevelCount, DynamicDistribution, EncryptionKeyChoice, Gaussian,
    GlweDimension as WireGlweDimension, LweBskGroupingFactor, LweDimension as WireLweDimension,
    PolynomialSize as WirePolynomialSize, TUniform,
};
use super::wire::high_level::Tag;
use super::wire::shortint::{
    CarryModulus, ClassicPBSParameters, MaxNoiseLevel, MessageModulus, ModulusSwitchType,
    MultiBitPBSParameters, PBSParameters,
};
use crate::core_crypto::CompressionSeed;
use crate::core_crypto::{
    DecompositionBaseLog, DecompositionLevelCount, GlweDimension, LweDimension,
    ModulusSwitchType as GpufheModulusSwitch, NoiseDistribution, PolynomialSize,
};
use crate::error::{Error, Result};
use crate::high_level::keys::tag::KeyTag;
use crate::shortint::{PbsKind, ShortintParameters};
use tfhe_csprng::generators::aes_ctr::{AesCtrParams, AesIndex, ByteIndex, TableIndex};
use tfhe_csprng::seeders::{Seed, SeedKind};

/// TFHE-rs's form of a noise distribution.
pub(crate) fn distribution_to_wire(d: NoiseDistribution) -> DynamicDistribution {
    match d {
        NoiseDistribution::TUniform { log2_bound } => DynamicDistribution::TUniform(TUniform {
            bound_log2: log2_bound,
        }),
        NoiseDistribution::Gaussian { std_dev } => DynamicDistribution::Gaussian(Gaussian {
            std: std_dev,
            mean: 0.0,
        }),
    }
}

/// A noise distribution of TFHE-rs's data (centered Gaussians only).
pub(crate) fn distribution_from_wire(d: &DynamicDistribution) -> Result<NoiseDistribution> {
    match d {
        DynamicDistribution::TUniform(t) => Ok(NoiseDistribution::TUniform {
            log2_bound: t.bound_log2,
        }),
        DynamicDistribution::Gaussian(g) if g.mean == 0.0 => {
            Ok(NoiseDistribution::Gaussian { std_dev: g.std })
        }
        DynamicDistribution::Gaussian(g) => Err(Error::InvalidParameter(format!(
            "a Gaussian noise of mean {} (gpufhe's noise is centered)",
            g.mean
        ))),
    }
}

/// TFHE-rs's parameter set of `p` (its blocks live under the big key).
pub(crate) fn parameters_to_wire(p: &ShortintParameters) -> PBSParameters {
    let modulus_switch = match p.modulus_switch {
        GpufheModulusSwitch::Standard => ModulusSwitchType::Standard,
        GpufheModulusSwitch::CenteredMeanNoiseReduction => {
            ModulusSwitchType::CenteredMeanNoiseReduction
        }
    };
    let classic = ClassicPBSParameters {
        lwe_dimension: WireLweDimension(p.lwe_dimension.0),
        glwe_dimension: WireGlweDimension(p.glwe_dimension.0),
        polynomial_size: WirePolynomialSize(p.polynomial_size.0),
        lwe_noise_distribution: distribution_to_wire(p.lwe_noise_distribution),
        glwe_noise_distribution: distribution_to_wire(p.glwe_noise_distribution),
        pbs_base_log: WireBaseLog(p.pbs_base_log.0),
        pbs_level: WireLevelCount(p.pbs_level.0),
        ks_base_log: WireBaseLog(p.ks_base_log.0),
        ks_level: WireLevelCount(p.ks_level.0),
        message_modulus: MessageModulus(p.message_modulus),
        carry_modulus: CarryModulus(p.carry_modulus),
        max_noise_level: MaxNoiseLevel(p.max_noise_level),
        log2_p_fail: p.log2_p_fail,
        ciphertext_modulus: CiphertextModulus::NATIVE_U64,
        encryption_key_choice: EncryptionKeyChoice::Big,
        modulus_switch_noise_reduction_params: modulus_switch,
    };
    match p.pbs_kind {
        PbsKind::Classical => PBSParameters::PBS(classic),
        PbsKind::MultiBit { grouping_factor } => {
            PBSParameters::MultiBitPBS(MultiBitPBSParameters {
                lwe_dimension: classic.lwe_dimension,
                glwe_dimension: classic.glwe_dimension,
                polynomial_size: classic.polynomial_size,
                lwe_noise_distribution: classic.lwe_noise_distribution,
                glwe_noise_distribution: classic.glwe_noise_distribution,
                pbs_base_log: classic.pbs_base_log,
                pbs_level: classic.pbs_level,
                ks_base_log: classic.ks_base_log,
                ks_level: classic.ks_level,
                message_modulus: classic.message_modulus,
                carry_modulus: classic.carry_modulus,
                max_noise_level: classic.max_noise_level,
                log2_p_fail: classic.log2_p_fail,
                ciphertext_modulus: classic.ciphertext_modulus,
                encryption_key_choice: classic.encryption_key_choice,
                grouping_factor: LweBskGroupingFactor(grouping_factor),
                deterministic_execution: true,
            })
        }
    }
}

/// The parameter set of TFHE-rs's data, validated; its security is gpufhe's
/// estimate ([`ShortintParameters::check_security`]): 128 bits if the set passes
/// it, else 0, and then it is read only inside
/// [`crate::serialization::with_insecure_parameters_allowed`].
pub(crate) fn parameters_from_wire(w: &PBSParameters) -> Result<ShortintParameters> {
    let (c, pbs_kind, modulus_switch) = match w {
        PBSParameters::PBS(c) => {
            let switch = match &c.modulus_switch_noise_reduction_params {
                ModulusSwitchType::Standard => GpufheModulusSwitch::Standard,
                ModulusSwitchType::CenteredMeanNoiseReduction => {
                    GpufheModulusSwitch::CenteredMeanNoiseReduction
                }
                ModulusSwitchType::DriftTechniqueNoiseReduction(_) => {
                    return Err(Error::InvalidParameter(
                        "parameters with the drift-technique modulus switch, which gpufhe \
                         does not support (it supports the standard and centered-mean ones)"
                            .into(),
                    ))
                }
            };
            (Common::from(c), PbsKind::Classical, switch)
        }
        PBSParameters::MultiBitPBS(m) => (
            Common::from(m),
            PbsKind::MultiBit {
                grouping_factor: m.grouping_factor.0,
            },
            GpufheModulusSwitch::Standard,
        ),
    };
    c.ciphertext_modulus.check_native_u64("parameter set")?;
    if c.encryption_key_choice != EncryptionKeyChoice::Big {
        return Err(Error::InvalidParameter(
            "parameters whose blocks live under the small key (PBS order bootstrap then \
             keyswitch); gpufhe's blocks live under the big key"
                .into(),
        ));
    }
    let mut p = ShortintParameters {
        lwe_dimension: LweDimension(c.lwe_dimension),
        glwe_dimension: GlweDimension(c.glwe_dimension),
        polynomial_size: PolynomialSize(c.polynomial_size),
        lwe_noise_distribution: distribution_from_wire(c.lwe_noise)?,
        glwe_noise_distribution: distribution_from_wire(c.glwe_noise)?,
        pbs_base_log: DecompositionBaseLog(c.pbs_base_log),
        pbs_level: DecompositionLevelCount(c.pbs_level),
        ks_base_log: DecompositionBaseLog(c.ks_base_log),
        ks_level: DecompositionLevelCount(c.ks_level),
        message_modulus: c.message_modulus,
        carry_modulus: c.carry_modulus,
        max_noise_level: c.max_noise_level,
        log2_p_fail: c.log2_p_fail,
        modulus_switch,
        security_bits: 128,
        pbs_kind,
    };
    p.validate()?;
    if p.check_security().is_err() {
        p.security_bits = 0;
        if !crate::serialization::codec::insecure_parameters_allowed() {
            p.check_security()?;
        }
    }
    Ok(p)
}

/// The fields that TFHE-rs's classic and multi-bit parameters share.
struct Common<'a> {
    lwe_dimension: usize,
    glwe_dimension: usize,
    polynomial_size: usize,
    lwe_noise: &'a DynamicDistribution,
    glwe_noise: &'a DynamicDistribution,
    pbs_base_log: usize,
    pbs_level: usize,
    ks_base_log: usize,
    ks_level: usize,
    message_modulus: u64,
    carry_modulus: u64,
    max_noise_level: u64,
    log2_p_fail: f64,
    ciphertext_modulus: CiphertextModulus,
    encryption_key_choice: EncryptionKeyChoice,
}

macro_rules! common_from {
    ($($t:ty),*) => {$(
        impl<'a> From<&'a $t> for Common<'a> {
            fn from(c: &'a $t) -> Self {
                Self {
                    lwe_dimension: c.lwe_dimension.0,
                    glwe_dimension: c.glwe_dimension.0,
                    polynomial_size: c.polynomial_size.0,
                    lwe_noise: &c.lwe_noise_distribution,
                    glwe_noise: &c.glwe_noise_distribution,
                    pbs_base_log: c.pbs_base_log.0,
                    pbs_level: c.pbs_level.0,
                    ks_base_log: c.ks_base_log.0,
                    ks_level: c.ks_level.0,
                    message_modulus: c.message_modulus.0,
                    carry_modulus: c.carry_modulus.0,
                    max_noise_level: c.max_noise_level.0,
                    log2_p_fail: c.log2_p_fail,
                    ciphertext_modulus: c.ciphertext_modulus,
                    encryption_key_choice: c.encryption_key_choice,
                }
            }
        }
    )*};
}
common_from!(ClassicPBSParameters, MultiBitPBSParameters);

/// TFHE-rs's tag of a key or value: empty for [`KeyTag::UNTAGGED`] (TFHE-rs's
/// default), else the tag's 8 little-endian bytes (what TFHE-rs's `set_u64`
/// writes).
pub(crate) fn tag_to_wire(tag: KeyTag) -> Tag {
    if tag == KeyTag::UNTAGGED {
        Tag::default()
    } else {
        Tag {
            inner: tag.value().to_le_bytes().to_vec(),
        }
    }
}

/// The gpufhe tag of TFHE-rs's tag bytes: empty is [`KeyTag::UNTAGGED`]; up to 8
/// bytes are read as TFHE-rs's `as_u64` reads them (little endian, zero-padded);
/// longer tags are told apart by the first 8 bytes of their SHA-256 digest. Only
/// empty and 8-byte tags are written back as they were read.
pub(crate) fn tag_from_wire(tag: &Tag) -> KeyTag {
    let bytes = &tag.inner;
    let mut word = [0u8; 8];
    if bytes.len() <= 8 {
        word[..bytes.len()].copy_from_slice(bytes);
    } else {
        word.copy_from_slice(&crate::core_crypto::sha256::sha256(bytes)[..8]);
    }
    KeyTag::from_value(u64::from_le_bytes(word))
}

/// The parameter sets gpufhe knows by name.
pub(crate) fn known_parameters() -> Vec<ShortintParameters> {
    use crate::shortint::parameters::*;
    #[allow(unused_mut)]
    let mut known = vec![
        DEFAULT_PARAMETERS,
        PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        // Multi-bit (the key says its grouping factor, not its noise: TUniform first).
        PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
    ];
    #[cfg(any(test, feature = "test-params"))]
    known.extend([
        crate::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
        crate::shortint::PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2,
    ]);
    known
}

/// TFHE-rs's form of a mask seed.
pub(crate) fn seed_to_wire(seed: CompressionSeed) -> WireSeed {
    WireSeed {
        inner: AesCtrParams {
            seed: SeedKind::Ctr(Seed(seed.seed())),
            first_index: TableIndex::new(
                AesIndex(seed.first_aes_index()),
                ByteIndex(seed.first_byte_index()),
            ),
        },
    }
}

/// The mask seed of TFHE-rs's data (AES-CTR seeds; XOF seeds are refused).
pub(crate) fn seed_from_wire(seed: &WireSeed) -> Result<CompressionSeed> {
    let SeedKind::Ctr(Seed(key)) = &seed.inner.seed else {
        return Err(Error::InvalidParameter(
            "a mask seed of TFHE-rs's XOF kind, which gpufhe does not support".into(),
        ));
    };
    // TableIndex keeps its parts private: its distance from the first index.
    let offset = TableIndex::distance(&seed.inner.first_index, &TableIndex::FIRST)
        .map(|c| c.0)
        .ok_or_else(|| Error::InvalidParameter("a mask seed before the first index".into()))?;
    CompressionSeed::with_first_index(*key, offset / 16, (offset % 16) as usize)
}
