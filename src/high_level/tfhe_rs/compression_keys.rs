//! The compression keys of server keys, plain and seeded, between gpufhe and
//! TFHE-rs's data.
//!
//! TFHE-rs's compression key is gpufhe's packing keyswitching key (its levels in
//! the other order, `core_crypto::algorithms::tfhe_rs_layout`; seeded, the bodies
//! and seed as they are), its decompression key gpufhe's classical decompression
//! bootstrap key (Fourier, as the server key's; seeded, the bodies and seed as they
//! are). The keys do not hold the compression parameters' noise: they are those of
//! the known compression set whose shape they have.

use super::fourier::{fourier_polynomials, fourier_to_wire};
use super::parameters::{seed_from_wire, seed_to_wire};
use super::wire::core::{
    CiphertextModulus, CiphertextModulusLog, DecompositionBaseLog as WireBaseLog,
    DecompositionLevelCount as WireLevel, GlweSize, LweCiphertextCount,
    PolynomialSize as WirePolynomialSize, SeededGgswCiphertextList, SeededLweBootstrapKey,
};
use super::wire::server::{
    CompressedModulusSwitchConfiguration, IntegerCompressedCompressionKey,
    IntegerCompressedDecompressionKey, IntegerCompressionKey, IntegerDecompressionKey,
    LwePackingKeyswitchKey as WirePacking, ModulusSwitchConfiguration,
    SeededLwePackingKeyswitchKey as WireSeededPacking, ShortintBootstrappingKey,
    ShortintCompressedBootstrappingKey, ShortintCompressedCompressionKey,
    ShortintCompressedDecompressionKey, ShortintCompressionKey, ShortintDecompressionKey,
};
use crate::core_crypto::tfhe_rs_layout::{
    fourier_bootstrap_key_from_tfhe_rs_fourier, seeded_lwe_bootstrap_key_from_tfhe_rs_parts,
    tfhe_rs_fourier_from_fourier_bootstrap_key,
};
use crate::core_crypto::{self, BootstrapKeyShape, PackingKeyswitchKeyShape};
use crate::core_crypto::{
    lwe_packing_keyswitch_key_from_tfhe_rs_layout, lwe_packing_keyswitch_key_to_tfhe_rs_layout,
    seeded_lwe_packing_keyswitch_key_from_tfhe_rs_parts,
};
use crate::error::{Error, Result};
use crate::shortint::{
    CompressedCompressionKeys, CompressionKeys, CompressionParameters, ShortintParameters,
};

/// The compression parameter sets gpufhe knows (TFHE-rs's, and the insecure test
/// set where it exists), classical decompression only.
pub(super) fn known_compression_parameters() -> Vec<CompressionParameters> {
    use crate::shortint::*;
    #[allow(unused_mut)]
    let mut known = vec![
        COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
    ];
    #[cfg(any(test, feature = "test-params"))]
    known.push(COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
    known
}

/// What TFHE-rs's compression keys say of their parameters.
struct KeysShape {
    packing: PackingKeyswitchKeyShape,
    lwe_per_glwe: usize,
    storage_log_modulus: usize,
    decompression: BootstrapKeyShape,
}

impl KeysShape {
    /// The known compression parameters of this shape, for `blocks`; `Err` if
    /// there are none, or they do not suit `blocks`.
    fn parameters(&self, blocks: &ShortintParameters) -> Result<CompressionParameters> {
        let c = known_compression_parameters()
            .into_iter()
            .find(|c| {
                let packing = &self.packing;
                c.packing_ks_base_log == packing.base_log
                    && c.packing_ks_level == packing.level
                    && c.packing_ks_glwe_dimension == packing.output_glwe_dimension
                    && c.packing_ks_polynomial_size == packing.output_polynomial_size
                    && c.lwe_per_glwe == self.lwe_per_glwe
                    && c.storage_log_modulus as usize == self.storage_log_modulus
                    && c.br_base_log == self.decompression.base_log
                    && c.br_level == self.decompression.level
            })
            .ok_or_else(|| {
                Error::InvalidParameter(
                    "TFHE-rs compression keys of a shape that matches no compression \
                     parameter set gpufhe knows (the keys do not hold their noise \
                     parameters): gpufhe reads the keys of TFHE-rs's named sets"
                        .into(),
                )
            })?;
        c.validate(blocks)?;
        if c.check_security(blocks).is_err()
            && !crate::serialization::codec::insecure_parameters_allowed()
        {
            c.check_security(blocks)?;
        }
        let ok = self.packing.input_lwe_dimension == blocks.big_lwe_dimension()
            && self.decompression == c.decompression_key_shape(blocks);
        if !ok {
            return Err(Error::InvalidParameter(
                "TFHE-rs compression keys whose dimensions are not those of the server \
                 key's blocks"
                    .into(),
            ));
        }
        Ok(c)
    }
}

/// `Err` unless the server key has both compression keys or neither.
fn both<A, B>(compression: Option<A>, decompression: Option<B>) -> Result<Option<(A, B)>> {
    match (compression, decompression) {
        (Some(a), Some(b)) => Ok(Some((a, b))),
        (None, None) => Ok(None),
        _ => Err(Error::InvalidParameter(
            "a TFHE-rs server key with a compression key but no decompression key, or the \
             reverse: gpufhe holds both or neither"
                .into(),
        )),
    }
}

/// `Err` unless the decompression key has the plain modulus switch TFHE-rs gives it.
fn check_standard(standard: bool) -> Result<()> {
    if standard {
        Ok(())
    } else {
        Err(Error::InvalidParameter(
            "a TFHE-rs decompression key with a modulus switch other than the standard \
             one, which TFHE-rs does not make and gpufhe does not read"
                .into(),
        ))
    }
}

/// `Err` for a multi-bit decompression key.
fn multi_bit_unsupported<T>() -> Result<T> {
    Err(Error::InvalidParameter(
        "a TFHE-rs multi-bit decompression key, which gpufhe does not read or write in \
         TFHE-rs's form in this version (classical decompression keys only)"
            .into(),
    ))
}

/// The bootstrap shape a TFHE-rs decompression key states.
fn decompression_shape(
    input: usize,
    glwe_size: usize,
    polynomial_size: usize,
    base_log: usize,
    level: usize,
) -> BootstrapKeyShape {
    BootstrapKeyShape {
        input_lwe_dimension: core_crypto::LweDimension(input),
        glwe_dimension: core_crypto::GlweDimension(glwe_size.saturating_sub(1)),
        polynomial_size: core_crypto::PolynomialSize(polynomial_size),
        base_log: core_crypto::DecompositionBaseLog(base_log),
        level: core_crypto::DecompositionLevelCount(level),
    }
}

/// The packing shape of TFHE-rs's key fields (its input dimension left for the
/// conversion to find).
fn packing_fields(
    base_log: WireBaseLog,
    level: WireLevel,
    glwe_size: GlweSize,
    polynomial_size: WirePolynomialSize,
) -> (
    core_crypto::DecompositionBaseLog,
    core_crypto::DecompositionLevelCount,
    core_crypto::GlweSize,
    core_crypto::PolynomialSize,
) {
    (
        core_crypto::DecompositionBaseLog(base_log.0),
        core_crypto::DecompositionLevelCount(level.0),
        core_crypto::GlweSize(glwe_size.0),
        core_crypto::PolynomialSize(polynomial_size.0),
    )
}

/// `Err` unless gpufhe's keys have a TFHE-rs form (a classical decompression key).
fn check_classic(c: &CompressionParameters) -> Result<()> {
    match c.decompression_grouping_factor {
        None => Ok(()),
        Some(_) => multi_bit_unsupported(),
    }
}

/// TFHE-rs's compression and decompression keys of gpufhe's expanded `keys`.
pub(super) fn compression_keys_to_wire(
    keys: &CompressionKeys,
) -> Result<(IntegerCompressionKey, IntegerDecompressionKey)> {
    let c = &keys.parameters;
    check_classic(c)?;
    let shape = keys.packing.shape();
    let compression = ShortintCompressionKey {
        packing_key_switching_key: WirePacking {
            data: lwe_packing_keyswitch_key_to_tfhe_rs_layout(&keys.packing),
            decomp_base_log: WireBaseLog(shape.base_log.0),
            decomp_level_count: WireLevel(shape.level.0),
            output_glwe_size: GlweSize(shape.output_glwe_dimension.0 + 1),
            output_polynomial_size: WirePolynomialSize(shape.output_polynomial_size.0),
            ciphertext_modulus: CiphertextModulus::NATIVE_U64,
        },
        lwe_per_glwe: LweCiphertextCount(c.lwe_per_glwe),
        storage_log_modulus: CiphertextModulusLog(c.storage_log_modulus as usize),
    };
    let bsk_shape = keys.decompression.shape();
    let decompression = ShortintDecompressionKey {
        bsk: ShortintBootstrappingKey::Classic {
            bsk: fourier_to_wire(
                &bsk_shape,
                tfhe_rs_fourier_from_fourier_bootstrap_key(&keys.decompression),
            ),
            modulus_switch_noise_reduction_key: ModulusSwitchConfiguration::Standard,
        },
        lwe_per_glwe: LweCiphertextCount(c.lwe_per_glwe),
    };
    Ok((
        IntegerCompressionKey { key: compression },
        IntegerDecompressionKey { key: decompression },
    ))
}

/// gpufhe's expanded compression keys of TFHE-rs's keys, for the blocks of
/// `blocks`; `None` when the server key has neither.
pub(super) fn compression_keys_from_wire(
    compression: Option<IntegerCompressionKey>,
    decompression: Option<IntegerDecompressionKey>,
    blocks: &ShortintParameters,
) -> Result<Option<CompressionKeys>> {
    let Some((compression, decompression)) = both(compression, decompression)? else {
        return Ok(None);
    };
    let (ck, dk) = (compression.key, decompression.key);
    let ShortintBootstrappingKey::Classic {
        bsk,
        modulus_switch_noise_reduction_key: switch,
    } = dk.bsk
    else {
        return multi_bit_unsupported();
    };
    check_standard(switch == ModulusSwitchConfiguration::Standard)?;
    let pk = ck.packing_key_switching_key;
    pk.ciphertext_modulus
        .check_native_u64("packing keyswitching key")?;
    let decompression_shape = decompression_shape(
        bsk.input_lwe_dimension.0,
        bsk.glwe_size.0,
        bsk.fourier.0.polynomial_size,
        bsk.decomposition_base_log.0,
        bsk.decomposition_level_count.0,
    );
    crate::error::check_eq(
        "lwe_per_glwe of the decompression key",
        ck.lwe_per_glwe.0,
        dk.lwe_per_glwe.0,
    )?;
    let (base_log, level, glwe_size, polynomial_size) = packing_fields(
        pk.decomp_base_log,
        pk.decomp_level_count,
        pk.output_glwe_size,
        pk.output_polynomial_size,
    );
    let _memory = crate::memory::reserve_host_memory(
        (pk.data.len() as u64).saturating_mul(8),
        "reading TFHE-rs compression keys",
    )?;
    let packing = lwe_packing_keyswitch_key_from_tfhe_rs_layout(
        pk.data,
        base_log,
        level,
        glwe_size,
        polynomial_size,
    )?;
    let parameters = KeysShape {
        packing: packing.shape(),
        lwe_per_glwe: ck.lwe_per_glwe.0,
        storage_log_modulus: ck.storage_log_modulus.0,
        decompression: decompression_shape,
    }
    .parameters(blocks)?;
    let decompression = fourier_bootstrap_key_from_tfhe_rs_fourier(
        &fourier_polynomials(bsk.fourier.0.values),
        decompression_shape,
    )?;
    let keys = CompressionKeys {
        packing,
        decompression,
        parameters,
    };
    keys.validate(blocks)?;
    Ok(Some(keys))
}

/// TFHE-rs's seeded compression and decompression keys of gpufhe's `keys`.
pub(super) fn compressed_compression_keys_to_wire(
    keys: &CompressedCompressionKeys,
) -> Result<(
    IntegerCompressedCompressionKey,
    IntegerCompressedDecompressionKey,
)> {
    let c = &keys.parameters;
    check_classic(c)?;
    let shape = keys.packing.shape();
    let compression = ShortintCompressedCompressionKey {
        packing_key_switching_key: WireSeededPacking {
            data: keys.packing.bodies.clone(),
            decomp_base_log: WireBaseLog(shape.base_log.0),
            decomp_level_count: WireLevel(shape.level.0),
            output_glwe_size: GlweSize(shape.output_glwe_dimension.0 + 1),
            output_polynomial_size: WirePolynomialSize(shape.output_polynomial_size.0),
            compression_seed: seed_to_wire(keys.packing.seed),
            ciphertext_modulus: CiphertextModulus::NATIVE_U64,
        },
        lwe_per_glwe: LweCiphertextCount(c.lwe_per_glwe),
        storage_log_modulus: CiphertextModulusLog(c.storage_log_modulus as usize),
    };
    let bsk = &keys.decompression;
    let bsk_shape = bsk.shape();
    let decompression = ShortintCompressedDecompressionKey {
        bsk: ShortintCompressedBootstrappingKey::Classic {
            bsk: SeededLweBootstrapKey {
                ggsw_list: SeededGgswCiphertextList {
                    data: bsk.bodies().to_vec(),
                    glwe_size: GlweSize(bsk_shape.glwe_dimension.0 + 1),
                    polynomial_size: WirePolynomialSize(bsk_shape.polynomial_size.0),
                    decomp_base_log: WireBaseLog(bsk_shape.base_log.0),
                    decomp_level_count: WireLevel(bsk_shape.level.0),
                    compression_seed: seed_to_wire(bsk.seed()),
                    ciphertext_modulus: CiphertextModulus::NATIVE_U64,
                },
            },
            modulus_switch_noise_reduction_key: CompressedModulusSwitchConfiguration::Standard,
        },
        lwe_per_glwe: LweCiphertextCount(c.lwe_per_glwe),
    };
    Ok((
        IntegerCompressedCompressionKey { key: compression },
        IntegerCompressedDecompressionKey { key: decompression },
    ))
}

/// gpufhe's seeded compression keys of TFHE-rs's, for the blocks of `blocks`;
/// `None` when the compressed server key has neither.
pub(super) fn compressed_compression_keys_from_wire(
    compression: Option<IntegerCompressedCompressionKey>,
    decompression: Option<IntegerCompressedDecompressionKey>,
    blocks: &ShortintParameters,
) -> Result<Option<CompressedCompressionKeys>> {
    let Some((compression, decompression)) = both(compression, decompression)? else {
        return Ok(None);
    };
    let (ck, dk) = (compression.key, decompression.key);
    let ShortintCompressedBootstrappingKey::Classic {
        bsk,
        modulus_switch_noise_reduction_key: switch,
    } = dk.bsk
    else {
        return multi_bit_unsupported();
    };
    check_standard(switch == CompressedModulusSwitchConfiguration::Standard)?;
    let pk = ck.packing_key_switching_key;
    pk.ciphertext_modulus
        .check_native_u64("packing keyswitching key")?;
    let ggsw = bsk.ggsw_list;
    ggsw.ciphertext_modulus
        .check_native_u64("decompression key")?;
    crate::error::check_eq(
        "lwe_per_glwe of the decompression key",
        ck.lwe_per_glwe.0,
        dk.lwe_per_glwe.0,
    )?;
    let (base_log, level, glwe_size, polynomial_size) = packing_fields(
        pk.decomp_base_log,
        pk.decomp_level_count,
        pk.output_glwe_size,
        pk.output_polynomial_size,
    );
    let packing = seeded_lwe_packing_keyswitch_key_from_tfhe_rs_parts(
        pk.data,
        base_log,
        level,
        glwe_size,
        polynomial_size,
        seed_from_wire(&pk.compression_seed)?,
    )?;
    // The seeded list states no input dimension: it is the packing key's output
    // GLWE key read as an LWE key.
    let rows = (ggsw.glwe_size.0).saturating_mul(ggsw.decomp_level_count.0);
    let per_ggsw = rows.saturating_mul(ggsw.polynomial_size.0).max(1);
    let decompression_shape = decompression_shape(
        ggsw.data.len() / per_ggsw,
        ggsw.glwe_size.0,
        ggsw.polynomial_size.0,
        ggsw.decomp_base_log.0,
        ggsw.decomp_level_count.0,
    );
    let parameters = KeysShape {
        packing: packing.shape(),
        lwe_per_glwe: ck.lwe_per_glwe.0,
        storage_log_modulus: ck.storage_log_modulus.0,
        decompression: decompression_shape,
    }
    .parameters(blocks)?;
    let decompression = seeded_lwe_bootstrap_key_from_tfhe_rs_parts(
        ggsw.data,
        decompression_shape,
        seed_from_wire(&ggsw.compression_seed)?,
    )?;
    let keys = CompressedCompressionKeys {
        packing,
        decompression,
        parameters,
    };
    keys.validate(blocks)?;
    Ok(Some(keys))
}
