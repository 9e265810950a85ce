//! The server keys' noise-squashing keys between gpufhe and TFHE-rs's data: the
//! Fourier-128 bootstrap key of a `ServerKey` and the seeded 128-bit bootstrap key
//! of a `CompressedServerKey`.
//!
//! gpufhe keeps both in TFHE-rs's layout (`core_crypto::entities::bootstrap_key_128`):
//! the four `f64` arrays of the Fourier key and the row bodies of the seeded key
//! are TFHE-rs's as they are, and the seeded key's masks are drawn from its seed in
//! TFHE-rs's order, so that a seeded key decompresses to the same key in both
//! libraries. As for the other keys, TFHE-rs's keys do not hold their noise
//! parameters: they are those of the known noise-squashing parameter set whose shape
//! they have.
//!
//! A multi-bit key (TFHE-rs's `MultiBit` variants) is kept as TFHE-rs's arrays as
//! well: gpufhe's 128-bit key over the `(n/g) 2^g` indicator bits, in TFHE-rs's
//! GGSW order (`core_crypto::multi_bit_indicator_key_128`); TFHE-rs states the
//! small key's dimension `n`, its grouping factor, a thread count (a constant per
//! grouping factor) and the parameters' `deterministic_execution`.

use super::oprf::multi_bit_thread_count;
use super::parameters::{seed_from_wire, seed_to_wire};
use super::squashed::{check_native_u128, NATIVE_U128};
use super::wire::core::LweBskGroupingFactor;
use super::wire::core::{
    DecompositionBaseLog as WireBaseLog, DecompositionLevelCount as WireLevel, GlweSize,
    LweDimension as WireLweDimension, PolynomialSize as WirePolynomialSize,
};
use super::wire::server::{
    AtomicPatternNoiseSquashingKey, CompressedAtomicPatternNoiseSquashingKey,
    CompressedNoiseSquashingKey as WireCompressed, CompressedShortint128BootstrappingKey,
    CompressedStandardAtomicPatternNoiseSquashingKey, Fourier128LweBootstrapKey,
    NoiseSquashingKey as WireKey, SeededGgswCiphertextList128, SeededLweBootstrapKey128,
    Shortint128BootstrappingKey, ShortintCompressedNoiseSquashingKey, ShortintNoiseSquashingKey,
    StandardAtomicPatternNoiseSquashingKey, ThreadCount,
};
use super::wire::server::{CompressedModulusSwitchConfiguration, ModulusSwitchConfiguration};
use super::wire::shortint::{CarryModulus, MessageModulus};
use super::wire::squash_multi_bit::{
    Fourier128LweMultiBitBootstrapKey, SeededLweMultiBitBootstrapKey128,
};
use crate::core_crypto::{
    multi_bit_input_dimension_128, BootstrapKeyShape, DecompositionBaseLog,
    DecompositionLevelCount, GlweDimension, LweDimension, ModulusSwitchType, PolynomialSize,
};
use crate::error::{Error, Result};
use crate::shortint::{
    self, CompressedNoiseSquashingKey, NoiseSquashingKey, NoiseSquashingParameters,
    ShortintParameters,
};

/// gpufhe's modulus switch of TFHE-rs's configuration.
pub(super) fn modulus_switch(standard: bool, centered: bool) -> Result<ModulusSwitchType> {
    match (standard, centered) {
        (true, _) => Ok(ModulusSwitchType::Standard),
        (_, true) => Ok(ModulusSwitchType::CenteredMeanNoiseReduction),
        _ => Err(Error::InvalidParameter(
            "a server key with the drift-technique modulus switch, which gpufhe does not \
             support"
                .into(),
        )),
    }
}

/// What a TFHE-rs noise-squashing key says of its parameters.
struct StatedShape {
    bootstrap: BootstrapKeyShape,
    modulus_switch: ModulusSwitchType,
    message_modulus: u64,
    carry_modulus: u64,
    /// The grouping factor of a multi-bit key and its `deterministic_execution`.
    multi_bit: Option<(usize, bool)>,
}

/// The noise-squashing parameter sets gpufhe reads keys of, and whether each is
/// secure.
fn known_noise_squashing_parameters() -> Vec<(NoiseSquashingParameters, bool)> {
    #[allow(unused_mut)]
    let mut known = vec![
        (
            shortint::NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
            true,
        ),
        (
            shortint::NOISE_SQUASHING_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
            true,
        ),
    ];
    #[cfg(any(test, feature = "test-params"))]
    known.extend([
        (
            shortint::NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
            false,
        ),
        (
            shortint::NOISE_SQUASHING_PARAM_INSECURE_TEST_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2,
            false,
        ),
    ]);
    known
}

impl StatedShape {
    /// The known parameter set of this shape, for blocks of `host`'s parameters;
    /// an insecure one only inside
    /// [`crate::serialization::with_insecure_parameters_allowed`].
    fn parameters(&self, host: &ShortintParameters) -> Result<NoiseSquashingParameters> {
        let ggsw_count = self.bootstrap.input_lwe_dimension.0;
        crate::error::check_eq(
            "input LWE dimension of the noise-squashing key",
            host.lwe_dimension.0,
            match self.multi_bit {
                None => ggsw_count,
                Some((g, _)) => multi_bit_input_dimension_128(ggsw_count, g)?.0,
            },
        )?;
        let b = &self.bootstrap;
        let (mut p, secure) = known_noise_squashing_parameters()
            .into_iter()
            .find(|(p, _)| {
                p.glwe_dimension == b.glwe_dimension
                    && p.polynomial_size == b.polynomial_size
                    && p.decomp_base_log == b.base_log
                    && p.decomp_level_count == b.level
                    && p.modulus_switch == self.modulus_switch
                    && p.message_modulus == self.message_modulus
                    && p.carry_modulus == self.carry_modulus
                    && p.grouping_factor == self.multi_bit.map(|(g, _)| g)
            })
            .ok_or_else(|| {
                Error::InvalidParameter(
                    "a TFHE-rs noise-squashing key of a shape that matches no noise-squashing \
                     parameter set gpufhe knows (its keys do not hold their noise \
                     parameters): gpufhe reads the keys of TFHE-rs's default set"
                        .into(),
                )
            })?;
        if !secure && !crate::serialization::codec::insecure_parameters_allowed() {
            return Err(Error::InvalidParameter(
                "a noise-squashing key of insecure test parameters, read outside \
                 gpufhe::serialization::with_insecure_parameters_allowed"
                    .into(),
            ));
        }
        p.check_blocks(host)?;
        if let Some((_, deterministic)) = self.multi_bit {
            p.deterministic_execution = deterministic;
        }
        Ok(p)
    }
}

/// gpufhe's GGSW count of a multi-bit key TFHE-rs states for blocks of dimension
/// `n` and grouping factor `g`; `Err` unless `g` divides `n` and TFHE-rs uses it.
fn multi_bit_ggsw_count_128(n: usize, g: usize) -> Result<usize> {
    multi_bit_thread_count(g)?;
    crate::core_crypto::check_grouping_factor(n, g)?;
    Ok((n / g) << g)
}

/// `Err` unless `thread_count` is the one TFHE-rs 1.8 writes for grouping factor `g`.
fn check_thread_count(thread_count: &ThreadCount, g: usize) -> Result<()> {
    crate::error::check_eq(
        "thread count of the multi-bit noise-squashing key",
        multi_bit_thread_count(g)?,
        thread_count.0,
    )
}

/// The bootstrap-key shape TFHE-rs states for these sizes.
fn bootstrap_shape(
    input: &WireLweDimension,
    glwe_size: &GlweSize,
    polynomial_size: &WirePolynomialSize,
    base_log: &WireBaseLog,
    level: &WireLevel,
) -> BootstrapKeyShape {
    BootstrapKeyShape {
        input_lwe_dimension: LweDimension(input.0),
        glwe_dimension: GlweDimension(glwe_size.0.saturating_sub(1)),
        polynomial_size: PolynomialSize(polynomial_size.0),
        base_log: DecompositionBaseLog(base_log.0),
        level: DecompositionLevelCount(level.0),
    }
}

fn ks32_unsupported<T>() -> Result<T> {
    Err(Error::InvalidParameter(
        "a noise-squashing key of the KeySwitch32 atomic pattern, which gpufhe does not \
         support"
            .into(),
    ))
}

/// TFHE-rs's modulus switch configuration of `p`.
fn switch_to_wire(p: &NoiseSquashingParameters) -> ModulusSwitchConfiguration {
    match p.modulus_switch {
        ModulusSwitchType::Standard => ModulusSwitchConfiguration::Standard,
        ModulusSwitchType::CenteredMeanNoiseReduction => {
            ModulusSwitchConfiguration::CenteredMeanNoiseReduction
        }
    }
}

/// TFHE-rs's form of a noise-squashing key.
pub(super) fn noise_squashing_key_to_wire(key: &NoiseSquashingKey) -> Result<WireKey> {
    let p = key.parameters();
    let bsk = key.bootstrap_key();
    let shape = bsk.shape();
    let [re0, re1, im0, im1] = bsk.parts().clone();
    let (polynomial_size, glwe_size) = (
        WirePolynomialSize(shape.polynomial_size.0),
        GlweSize(shape.glwe_dimension.0 + 1),
    );
    let (base_log, level) = (WireBaseLog(shape.base_log.0), WireLevel(shape.level.0));
    let bootstrapping_key = match p.grouping_factor {
        None => Shortint128BootstrappingKey::Classic {
            bsk: Fourier128LweBootstrapKey {
                data_re0: re0,
                data_re1: re1,
                data_im0: im0,
                data_im1: im1,
                polynomial_size,
                input_lwe_dimension: WireLweDimension(shape.input_lwe_dimension.0),
                glwe_size,
                decomposition_base_log: base_log,
                decomposition_level_count: level,
            },
            modulus_switch_noise_reduction_key: switch_to_wire(p),
        },
        Some(g) => Shortint128BootstrappingKey::MultiBit {
            bsk: Fourier128LweMultiBitBootstrapKey {
                data_re0: re0,
                data_re1: re1,
                data_im0: im0,
                data_im1: im1,
                polynomial_size,
                input_lwe_dimension: WireLweDimension(
                    multi_bit_input_dimension_128(shape.input_lwe_dimension.0, g)?.0,
                ),
                glwe_size,
                decomposition_base_log: base_log,
                decomposition_level_count: level,
                grouping_factor: LweBskGroupingFactor(g),
            },
            thread_count: ThreadCount(multi_bit_thread_count(g)?),
            deterministic_execution: p.deterministic_execution,
        },
    };
    Ok(WireKey {
        key: ShortintNoiseSquashingKey {
            atomic_pattern: AtomicPatternNoiseSquashingKey::Standard(
                StandardAtomicPatternNoiseSquashingKey { bootstrapping_key },
            ),
            message_modulus: MessageModulus(p.message_modulus),
            carry_modulus: CarryModulus(p.carry_modulus),
            output_ciphertext_modulus: NATIVE_U128,
        },
    })
}

/// gpufhe's noise-squashing key of TFHE-rs's, for blocks of `host`'s parameters.
pub(super) fn noise_squashing_key_from_wire(
    wire: WireKey,
    host: &ShortintParameters,
) -> Result<NoiseSquashingKey> {
    let key = wire.key;
    check_native_u128(&key.output_ciphertext_modulus, "noise-squashing key")?;
    let AtomicPatternNoiseSquashingKey::Standard(ap) = key.atomic_pattern else {
        return ks32_unsupported();
    };
    let (parts, shape, switch, multi_bit) = match ap.bootstrapping_key {
        Shortint128BootstrappingKey::Classic {
            bsk,
            modulus_switch_noise_reduction_key: s,
        } => (
            [bsk.data_re0, bsk.data_re1, bsk.data_im0, bsk.data_im1],
            bootstrap_shape(
                &bsk.input_lwe_dimension,
                &bsk.glwe_size,
                &bsk.polynomial_size,
                &bsk.decomposition_base_log,
                &bsk.decomposition_level_count,
            ),
            s,
            None,
        ),
        Shortint128BootstrappingKey::MultiBit {
            bsk,
            thread_count,
            deterministic_execution,
        } => {
            let g = bsk.grouping_factor.0;
            check_thread_count(&thread_count, g)?;
            let count = multi_bit_ggsw_count_128(bsk.input_lwe_dimension.0, g)?;
            (
                [bsk.data_re0, bsk.data_re1, bsk.data_im0, bsk.data_im1],
                bootstrap_shape(
                    &WireLweDimension(count),
                    &bsk.glwe_size,
                    &bsk.polynomial_size,
                    &bsk.decomposition_base_log,
                    &bsk.decomposition_level_count,
                ),
                ModulusSwitchConfiguration::Standard,
                Some((g, deterministic_execution)),
            )
        }
    };
    let stated = StatedShape {
        bootstrap: shape,
        modulus_switch: modulus_switch(
            switch == ModulusSwitchConfiguration::Standard,
            switch == ModulusSwitchConfiguration::CenteredMeanNoiseReduction,
        )?,
        message_modulus: key.message_modulus.0,
        carry_modulus: key.carry_modulus.0,
        multi_bit,
    };
    let params = stated.parameters(host)?;
    let bsk = crate::core_crypto::Fourier128LweBootstrapKey::from_parts(parts, stated.bootstrap)?;
    Ok(NoiseSquashingKey { bsk, params })
}

/// TFHE-rs's form of a seeded noise-squashing key.
pub(super) fn compressed_noise_squashing_key_to_wire(
    key: &CompressedNoiseSquashingKey,
) -> Result<WireCompressed> {
    let p = key.parameters();
    let bsk = key.bootstrap_key();
    let shape = bsk.shape();
    let ggsw_list = SeededGgswCiphertextList128 {
        data: bsk.bodies().to_vec(),
        glwe_size: GlweSize(shape.glwe_dimension.0 + 1),
        polynomial_size: WirePolynomialSize(shape.polynomial_size.0),
        decomp_base_log: WireBaseLog(shape.base_log.0),
        decomp_level_count: WireLevel(shape.level.0),
        compression_seed: seed_to_wire(bsk.seed()),
        ciphertext_modulus: NATIVE_U128,
    };
    let bootstrapping_key = match p.grouping_factor {
        None => CompressedShortint128BootstrappingKey::Classic {
            bsk: SeededLweBootstrapKey128 { ggsw_list },
            modulus_switch_noise_reduction_key: match p.modulus_switch {
                ModulusSwitchType::Standard => CompressedModulusSwitchConfiguration::Standard,
                ModulusSwitchType::CenteredMeanNoiseReduction => {
                    CompressedModulusSwitchConfiguration::CenteredMeanNoiseReduction
                }
            },
        },
        Some(g) => CompressedShortint128BootstrappingKey::MultiBit {
            bsk: SeededLweMultiBitBootstrapKey128 {
                ggsw_list,
                grouping_factor: LweBskGroupingFactor(g),
            },
            thread_count: ThreadCount(multi_bit_thread_count(g)?),
            deterministic_execution: p.deterministic_execution,
        },
    };
    Ok(WireCompressed {
        key: ShortintCompressedNoiseSquashingKey {
            atomic_pattern: CompressedAtomicPatternNoiseSquashingKey::Standard(
                CompressedStandardAtomicPatternNoiseSquashingKey { bootstrapping_key },
            ),
            message_modulus: MessageModulus(p.message_modulus),
            carry_modulus: CarryModulus(p.carry_modulus),
            output_ciphertext_modulus: NATIVE_U128,
        },
    })
}

/// gpufhe's seeded noise-squashing key of TFHE-rs's, for blocks of `host`'s
/// parameters.
pub(super) fn compressed_noise_squashing_key_from_wire(
    wire: WireCompressed,
    host: &ShortintParameters,
) -> Result<CompressedNoiseSquashingKey> {
    let key = wire.key;
    check_native_u128(&key.output_ciphertext_modulus, "noise-squashing key")?;
    let CompressedAtomicPatternNoiseSquashingKey::Standard(ap) = key.atomic_pattern else {
        return ks32_unsupported();
    };
    let (ggsw, switch, multi_bit) = match ap.bootstrapping_key {
        CompressedShortint128BootstrappingKey::Classic {
            bsk,
            modulus_switch_noise_reduction_key: s,
        } => (bsk.ggsw_list, s, None),
        CompressedShortint128BootstrappingKey::MultiBit {
            bsk,
            thread_count,
            deterministic_execution,
        } => {
            let g = bsk.grouping_factor.0;
            check_thread_count(&thread_count, g)?;
            (
                bsk.ggsw_list,
                CompressedModulusSwitchConfiguration::Standard,
                Some((g, deterministic_execution)),
            )
        }
    };
    check_native_u128(&ggsw.ciphertext_modulus, "seeded noise-squashing key")?;
    // The seeded list does not state its input dimension: its GGSW count.
    let rows = (ggsw.glwe_size.0)
        .saturating_mul(ggsw.decomp_level_count.0)
        .saturating_mul(ggsw.polynomial_size.0);
    let input = ggsw.data.len().checked_div(rows).unwrap_or(0);
    let stated = StatedShape {
        bootstrap: bootstrap_shape(
            &WireLweDimension(input),
            &ggsw.glwe_size,
            &ggsw.polynomial_size,
            &ggsw.decomp_base_log,
            &ggsw.decomp_level_count,
        ),
        modulus_switch: modulus_switch(
            switch == CompressedModulusSwitchConfiguration::Standard,
            switch == CompressedModulusSwitchConfiguration::CenteredMeanNoiseReduction,
        )?,
        message_modulus: key.message_modulus.0,
        carry_modulus: key.carry_modulus.0,
        multi_bit,
    };
    let params = stated.parameters(host)?;
    let bsk = crate::core_crypto::SeededLweBootstrapKey128::from_parts(
        ggsw.data,
        seed_from_wire(&ggsw.compression_seed)?,
        stated.bootstrap,
    )?;
    Ok(CompressedNoiseSquashingKey { bsk, params })
}
