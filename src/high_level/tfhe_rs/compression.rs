//! Compression parameters and the compression private key between gpufhe and
//! TFHE-rs's data (the same scheme and fields: a field-by-field copy, checked when
//! read).

use super::parameters::{distribution_from_wire, distribution_to_wire};
use super::wire::compression::{
    ClassicCompressionParameters, CompressionParameters as WireParameters,
    IntegerCompressionPrivateKeys, MultiBitCompressionParameters, ShortintCompressionPrivateKeys,
};
use super::wire::core::{
    CiphertextModulusLog, DecompositionBaseLog, DecompositionLevelCount, GlweDimension,
    GlweSecretKey as WireGlweKey, LweBskGroupingFactor, LweCiphertextCount, PolynomialSize,
};
use crate::core_crypto::{self, GlweSecretKey};
use crate::error::{Error, Result};
use crate::shortint::{CompressionParameters, CompressionPrivateKey};

/// TFHE-rs's form of `c`: its classical variant, or its multi-bit one when `c` has a
/// decompression grouping factor.
pub(crate) fn compression_parameters_to_wire(c: &CompressionParameters) -> WireParameters {
    let classic = ClassicCompressionParameters {
        br_level: DecompositionLevelCount(c.br_level.0),
        br_base_log: DecompositionBaseLog(c.br_base_log.0),
        packing_ks_level: DecompositionLevelCount(c.packing_ks_level.0),
        packing_ks_base_log: DecompositionBaseLog(c.packing_ks_base_log.0),
        packing_ks_polynomial_size: PolynomialSize(c.packing_ks_polynomial_size.0),
        packing_ks_glwe_dimension: GlweDimension(c.packing_ks_glwe_dimension.0),
        lwe_per_glwe: LweCiphertextCount(c.lwe_per_glwe),
        storage_log_modulus: CiphertextModulusLog(c.storage_log_modulus as usize),
        packing_ks_key_noise_distribution: distribution_to_wire(
            c.packing_ks_key_noise_distribution,
        ),
    };
    match c.decompression_grouping_factor {
        None => WireParameters::Classic(classic),
        Some(g) => WireParameters::MultiBit(MultiBitCompressionParameters {
            br_level: classic.br_level,
            br_base_log: classic.br_base_log,
            packing_ks_level: classic.packing_ks_level,
            packing_ks_base_log: classic.packing_ks_base_log,
            packing_ks_polynomial_size: classic.packing_ks_polynomial_size,
            packing_ks_glwe_dimension: classic.packing_ks_glwe_dimension,
            lwe_per_glwe: classic.lwe_per_glwe,
            storage_log_modulus: classic.storage_log_modulus,
            packing_ks_key_noise_distribution: classic.packing_ks_key_noise_distribution,
            decompression_grouping_factor: LweBskGroupingFactor(g),
        }),
    }
}

/// The compression parameters of TFHE-rs's form (not yet checked against blocks:
/// the configuration that takes them does).
pub(crate) fn compression_parameters_from_wire(
    w: &WireParameters,
) -> Result<CompressionParameters> {
    let (c, grouping_factor) = match w {
        WireParameters::Classic(c) => (c.clone(), None),
        WireParameters::MultiBit(m) => (
            ClassicCompressionParameters {
                br_level: m.br_level,
                br_base_log: m.br_base_log,
                packing_ks_level: m.packing_ks_level,
                packing_ks_base_log: m.packing_ks_base_log,
                packing_ks_polynomial_size: m.packing_ks_polynomial_size,
                packing_ks_glwe_dimension: m.packing_ks_glwe_dimension,
                lwe_per_glwe: m.lwe_per_glwe,
                storage_log_modulus: m.storage_log_modulus,
                packing_ks_key_noise_distribution: m.packing_ks_key_noise_distribution.clone(),
            },
            Some(m.decompression_grouping_factor.0),
        ),
    };
    let storage_log_modulus = u32::try_from(c.storage_log_modulus.0)
        .ok()
        .filter(|&b| b <= 64)
        .ok_or_else(|| {
            Error::InvalidParameter(format!(
                "a storage modulus of 2^{} (at most 2^64)",
                c.storage_log_modulus.0
            ))
        })?;
    Ok(CompressionParameters {
        br_level: core_crypto::DecompositionLevelCount(c.br_level.0),
        br_base_log: core_crypto::DecompositionBaseLog(c.br_base_log.0),
        packing_ks_level: core_crypto::DecompositionLevelCount(c.packing_ks_level.0),
        packing_ks_base_log: core_crypto::DecompositionBaseLog(c.packing_ks_base_log.0),
        packing_ks_polynomial_size: core_crypto::PolynomialSize(c.packing_ks_polynomial_size.0),
        packing_ks_glwe_dimension: core_crypto::GlweDimension(c.packing_ks_glwe_dimension.0),
        lwe_per_glwe: c.lwe_per_glwe.0,
        storage_log_modulus,
        packing_ks_key_noise_distribution: distribution_from_wire(
            &c.packing_ks_key_noise_distribution,
        )?,
        decompression_grouping_factor: grouping_factor,
    })
}

/// TFHE-rs's form of the compression private key.
pub(crate) fn private_key_to_wire(key: &CompressionPrivateKey) -> IntegerCompressionPrivateKeys {
    IntegerCompressionPrivateKeys {
        key: ShortintCompressionPrivateKeys {
            post_packing_ks_key: WireGlweKey {
                data: key.key.as_slice().to_vec(),
                polynomial_size: PolynomialSize(key.key.polynomial_size().0),
            },
            params: compression_parameters_to_wire(&key.parameters),
        },
    }
}

/// The compression private key of TFHE-rs's form: binary coefficients, of the
/// shape of its parameters (checked against the blocks by the client key).
pub(crate) fn private_key_from_wire(
    wire: IntegerCompressionPrivateKeys,
) -> Result<CompressionPrivateKey> {
    let parameters = compression_parameters_from_wire(&wire.key.params)?;
    let glwe = wire.key.post_packing_ks_key;
    let key = GlweSecretKey::from_binary_coefficients(
        glwe.data,
        core_crypto::PolynomialSize(glwe.polynomial_size.0),
    )?;
    let key = CompressionPrivateKey { key, parameters };
    key.check_shape()?;
    Ok(key)
}
