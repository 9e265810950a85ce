//! Noise squashing between gpufhe and TFHE-rs's data: the parameters, the private
//! key and the squashed values (`SquashedNoiseFheUint`, `SquashedNoiseFheInt`,
//! `SquashedNoiseFheBool`).

use super::parameters::{distribution_from_wire, distribution_to_wire, tag_from_wire, tag_to_wire};
use super::wire::core::{
    CiphertextModulus, DecompositionBaseLog as WireBaseLog,
    DecompositionLevelCount as WireLevelCount, GlweDimension as WireGlweDimension,
    LweBskGroupingFactor, PolynomialSize as WirePolynomialSize,
};
use super::wire::noise_squashing::{
    GlweSecretKey128, InnerSquashedBool, InnerSquashedRadix, LweCiphertext128 as WireLwe128,
    NoiseSquashingClassicParameters, NoiseSquashingMultiBitParameters,
    NoiseSquashingParameters as WireParams, NoiseSquashingPrivateKey as WirePrivateKey,
    ShortintNoiseSquashingPrivateKey, SquashedNoiseBooleanBlock, SquashedNoiseCiphertext,
    SquashedNoiseRadixCiphertext as WireRadixInner,
};
use super::wire::shortint::{CarryModulus, Degree, MessageModulus, ModulusSwitchType};
use super::wire::squashed_values::{
    SquashedNoiseCiphertextState, SquashedNoiseFheBool as WireBool,
    SquashedNoiseFheUint as WireRadix,
};
use super::{versionize_through_wire, TfheRsForm};
use crate::core_crypto::{
    DecompositionBaseLog, DecompositionLevelCount, GlweDimension, GlweSecretKey, LweCiphertext128,
    ModulusSwitchType as GpufheModulusSwitch, PolynomialSize,
};
use crate::error::{Error, Result};
use crate::high_level::{SquashedNoiseFheBool, SquashedNoiseFheInt, SquashedNoiseFheUint};
use crate::integer::noise_squashing::SquashedNoiseRadixCiphertext;
use crate::shortint::{NoiseSquashingParameters, NoiseSquashingPrivateKey, SquashedNoiseBlock};

/// The native modulus 2^128 of TFHE-rs's `u128` data.
pub(super) const NATIVE_U128: CiphertextModulus = CiphertextModulus {
    modulus: 0,
    scalar_bits: 128,
};

pub(super) fn check_native_u128(m: &CiphertextModulus, what: &str) -> Result<()> {
    if *m == NATIVE_U128 {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "the {what} has ciphertext modulus {} on {}-bit words; noise squashing computes \
             on the native modulus 2^128 only",
            m.modulus, m.scalar_bits
        )))
    }
}

/// TFHE-rs's form of noise-squashing parameters.
pub(crate) fn noise_squashing_parameters_to_wire(p: &NoiseSquashingParameters) -> WireParams {
    let (glwe_dimension, polynomial_size, glwe_noise_distribution) = (
        WireGlweDimension(p.glwe_dimension.0),
        WirePolynomialSize(p.polynomial_size.0),
        distribution_to_wire(p.glwe_noise_distribution),
    );
    let (decomp_base_log, decomp_level_count) = (
        WireBaseLog(p.decomp_base_log.0),
        WireLevelCount(p.decomp_level_count.0),
    );
    let (message_modulus, carry_modulus) = (
        MessageModulus(p.message_modulus),
        CarryModulus(p.carry_modulus),
    );
    match p.grouping_factor {
        None => WireParams::Classic(NoiseSquashingClassicParameters {
            glwe_dimension,
            polynomial_size,
            glwe_noise_distribution,
            decomp_base_log,
            decomp_level_count,
            modulus_switch_noise_reduction_params: match p.modulus_switch {
                GpufheModulusSwitch::Standard => ModulusSwitchType::Standard,
                GpufheModulusSwitch::CenteredMeanNoiseReduction => {
                    ModulusSwitchType::CenteredMeanNoiseReduction
                }
            },
            message_modulus,
            carry_modulus,
            ciphertext_modulus: NATIVE_U128,
        }),
        Some(g) => WireParams::MultiBit(NoiseSquashingMultiBitParameters {
            glwe_dimension,
            polynomial_size,
            glwe_noise_distribution,
            decomp_base_log,
            decomp_level_count,
            grouping_factor: LweBskGroupingFactor(g),
            message_modulus,
            carry_modulus,
            ciphertext_modulus: NATIVE_U128,
            deterministic_execution: p.deterministic_execution,
        }),
    }
}

/// The noise-squashing parameters of TFHE-rs's data (not validated: key generation
/// and key reading validate them).
pub(crate) fn noise_squashing_parameters_from_wire(
    w: &WireParams,
) -> Result<NoiseSquashingParameters> {
    Ok(match w {
        WireParams::Classic(c) => {
            check_native_u128(&c.ciphertext_modulus, "noise-squashing parameter set")?;
            NoiseSquashingParameters {
                glwe_dimension: GlweDimension(c.glwe_dimension.0),
                polynomial_size: PolynomialSize(c.polynomial_size.0),
                glwe_noise_distribution: distribution_from_wire(&c.glwe_noise_distribution)?,
                decomp_base_log: DecompositionBaseLog(c.decomp_base_log.0),
                decomp_level_count: DecompositionLevelCount(c.decomp_level_count.0),
                modulus_switch: match &c.modulus_switch_noise_reduction_params {
                    ModulusSwitchType::Standard => GpufheModulusSwitch::Standard,
                    ModulusSwitchType::CenteredMeanNoiseReduction => {
                        GpufheModulusSwitch::CenteredMeanNoiseReduction
                    }
                    ModulusSwitchType::DriftTechniqueNoiseReduction(_) => {
                        return Err(Error::InvalidParameter(
                            "noise-squashing parameters with the drift-technique modulus \
                             switch, which gpufhe does not support"
                                .into(),
                        ))
                    }
                },
                message_modulus: c.message_modulus.0,
                carry_modulus: c.carry_modulus.0,
                grouping_factor: None,
                deterministic_execution: false,
            }
        }
        WireParams::MultiBit(m) => {
            check_native_u128(&m.ciphertext_modulus, "noise-squashing parameter set")?;
            NoiseSquashingParameters {
                glwe_dimension: GlweDimension(m.glwe_dimension.0),
                polynomial_size: PolynomialSize(m.polynomial_size.0),
                glwe_noise_distribution: distribution_from_wire(&m.glwe_noise_distribution)?,
                decomp_base_log: DecompositionBaseLog(m.decomp_base_log.0),
                decomp_level_count: DecompositionLevelCount(m.decomp_level_count.0),
                modulus_switch: GpufheModulusSwitch::Standard,
                message_modulus: m.message_modulus.0,
                carry_modulus: m.carry_modulus.0,
                grouping_factor: Some(m.grouping_factor.0),
                deterministic_execution: m.deterministic_execution,
            }
        }
    })
}

impl TfheRsForm for NoiseSquashingPrivateKey {
    type Wire = WirePrivateKey;

    fn to_wire(&self) -> Result<WirePrivateKey> {
        Ok(WirePrivateKey {
            key: ShortintNoiseSquashingPrivateKey {
                post_noise_squashing_secret_key: glwe_key_128_to_wire(&self.key),
                params: noise_squashing_parameters_to_wire(&self.params),
            },
        })
    }

    /// `Err` for coefficients other than 0 and 1, or a key of another shape than
    /// its parameters'.
    fn from_wire(wire: WirePrivateKey) -> Result<Self> {
        let key = glwe_key_128_from_wire(wire.key.post_noise_squashing_secret_key)?;
        Self::from_parts(key, noise_squashing_parameters_from_wire(&wire.key.params)?)
    }
}

/// TFHE-rs's form of a binary 128-bit GLWE key.
pub(super) fn glwe_key_128_to_wire(key: &GlweSecretKey) -> GlweSecretKey128 {
    GlweSecretKey128 {
        data: key.as_slice().iter().map(|&s| u128::from(s)).collect(),
        polynomial_size: WirePolynomialSize(key.polynomial_size().0),
    }
}

/// A binary 128-bit GLWE key of TFHE-rs's; `Err` for coefficients other than 0
/// and 1 or an invalid shape.
pub(super) fn glwe_key_128_from_wire(k: GlweSecretKey128) -> Result<GlweSecretKey> {
    let data = k
        .data
        .iter()
        .map(|&s| {
            u64::try_from(s).ok().filter(|&s| s <= 1).ok_or_else(|| {
                Error::InvalidParameter(
                    "a 128-bit secret key coefficient other than 0 and 1".into(),
                )
            })
        })
        .collect::<Result<Vec<u64>>>()?;
    GlweSecretKey::from_binary_coefficients(data, PolynomialSize(k.polynomial_size.0))
}

versionize_through_wire!(
    "integer::NoiseSquashingPrivateKey",
    WirePrivateKey,
    [] NoiseSquashingPrivateKey
);

fn block_to_wire(b: &SquashedNoiseBlock) -> SquashedNoiseCiphertext {
    SquashedNoiseCiphertext {
        ct: WireLwe128 {
            data: b.ct.as_slice().to_vec(),
            ciphertext_modulus: NATIVE_U128,
        },
        degree: Degree(b.degree),
        message_modulus: MessageModulus(b.message_modulus),
        carry_modulus: CarryModulus(b.carry_modulus),
    }
}

/// A squashed block of TFHE-rs's data: `Err` for another modulus, an empty
/// ciphertext, moduli that are not powers of two or a degree past them.
fn block_from_wire(b: SquashedNoiseCiphertext) -> Result<SquashedNoiseBlock> {
    check_native_u128(&b.ct.ciphertext_modulus, "squashed block")?;
    let (msg, carry) = (b.message_modulus.0, b.carry_modulus.0);
    let space = msg
        .checked_mul(carry)
        .filter(|s| s.is_power_of_two() && *s >= 2);
    match space {
        Some(space) if msg.is_power_of_two() && b.degree.0 < space => {}
        _ => {
            return Err(Error::InvalidParameter(format!(
                "a squashed block of message modulus {msg}, carry modulus {carry} and degree {}",
                b.degree.0
            )))
        }
    }
    Ok(SquashedNoiseBlock {
        ct: LweCiphertext128::from_container(b.ct.data)?,
        degree: b.degree.0,
        message_modulus: msg,
        carry_modulus: carry,
    })
}

/// TFHE-rs's state of a squashed value.
fn state_to_wire(post_decompression: bool) -> SquashedNoiseCiphertextState {
    if post_decompression {
        SquashedNoiseCiphertextState::PostDecompression
    } else {
        SquashedNoiseCiphertextState::Normal
    }
}

fn radix_to_wire(
    r: &SquashedNoiseRadixCiphertext,
    tag: crate::KeyTag,
    post_decompression: bool,
) -> WireRadix {
    WireRadix {
        inner: InnerSquashedRadix(WireRadixInner {
            packed_blocks: r.packed_blocks.iter().map(block_to_wire).collect(),
            original_block_count: r.original_block_count,
        }),
        state: state_to_wire(post_decompression),
        tag: tag_to_wire(tag),
    }
}

fn radix_from_wire(w: WireRadix) -> Result<(SquashedNoiseRadixCiphertext, crate::KeyTag)> {
    let inner = w.inner.0;
    if inner.packed_blocks.len() != inner.original_block_count.div_ceil(2) {
        return Err(Error::InvalidParameter(format!(
            "{} squashed blocks cannot hold {} packed blocks",
            inner.packed_blocks.len(),
            inner.original_block_count
        )));
    }
    let packed_blocks = inner
        .packed_blocks
        .into_iter()
        .map(block_from_wire)
        .collect::<Result<Vec<_>>>()?;
    Ok((
        SquashedNoiseRadixCiphertext {
            packed_blocks,
            original_block_count: inner.original_block_count,
        },
        tag_from_wire(&w.tag),
    ))
}

macro_rules! squashed_radix_form {
    ($ty:ident, $name:literal) => {
        impl TfheRsForm for $ty {
            type Wire = WireRadix;

            fn to_wire(&self) -> Result<WireRadix> {
                Ok(radix_to_wire(&self.inner, self.tag, self.post_decompression))
            }

            fn from_wire(wire: WireRadix) -> Result<Self> {
                let post_decompression =
                    wire.state == SquashedNoiseCiphertextState::PostDecompression;
                let (inner, tag) = radix_from_wire(wire)?;
                Ok(Self {
                    inner,
                    tag,
                    post_decompression,
                })
            }
        }

        versionize_through_wire!($name, WireRadix, [] $ty);
    };
}

squashed_radix_form!(SquashedNoiseFheUint, "high_level_api::SquashedNoiseFheUint");
squashed_radix_form!(SquashedNoiseFheInt, "high_level_api::SquashedNoiseFheInt");

impl TfheRsForm for SquashedNoiseFheBool {
    type Wire = WireBool;

    fn to_wire(&self) -> Result<WireBool> {
        Ok(WireBool {
            inner: InnerSquashedBool(SquashedNoiseBooleanBlock {
                ciphertext: block_to_wire(&self.inner),
            }),
            state: state_to_wire(self.post_decompression),
            tag: tag_to_wire(self.tag),
        })
    }

    fn from_wire(wire: WireBool) -> Result<Self> {
        Ok(Self {
            inner: block_from_wire(wire.inner.0.ciphertext)?,
            tag: tag_from_wire(&wire.tag),
            post_decompression: wire.state == SquashedNoiseCiphertextState::PostDecompression,
        })
    }
}

versionize_through_wire!("high_level_api::SquashedNoiseFheBool", WireBool, [] SquashedNoiseFheBool);
