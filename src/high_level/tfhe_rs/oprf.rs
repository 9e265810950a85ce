//! TFHE-rs's dedicated OPRF key, expanded from its seeded form as TFHE-rs's
//! `CompressedServerKey::decompress` expands it: the masks of the seeded
//! bootstrapping key regenerated from its AES-128-CTR seed (gpufhe's seeded keys
//! are TFHE-rs's), the key converted to the Fourier domain and written in
//! TFHE-rs's layout (`core_crypto::algorithms::tfhe_rs_layout`). gpufhe does not
//! compute with it: it is kept to be written back with the server key.

use super::fourier::fourier_to_wire;
use super::parameters::seed_from_wire;
use super::wire::core::SeededGgswCiphertextList;
use super::wire::server::{
    CompressedOprfBootstrappingKey, CompressedOprfServerKey, FourierLweMultiBitBootstrapKey,
    OprfBootstrappingKey, OprfServerKey, ShortintOprfServerKey, ThreadCount,
};
use crate::core_crypto::tfhe_rs_layout::{
    seeded_lwe_bootstrap_key_from_tfhe_rs_parts, tfhe_rs_fourier_from_standard_bootstrap_key,
};
use crate::core_crypto::{
    BootstrapKeyShape, DecompositionBaseLog, DecompositionLevelCount, GlweDimension, LweDimension,
    PolynomialSize,
};
use crate::error::{Error, Result};

/// TFHE-rs's thread count of a multi-bit key of grouping factor `g` (a constant
/// of TFHE-rs 1.8 per grouping factor, written with the key).
pub(super) fn multi_bit_thread_count(g: usize) -> Result<usize> {
    match g {
        2 => Ok(5),
        3 => Ok(7),
        4 => Ok(9),
        _ => Err(Error::InvalidParameter(format!(
            "a TFHE-rs multi-bit key of grouping factor {g}, which TFHE-rs 1.8 does not use"
        ))),
    }
}

/// The Fourier key of the seeded GGSW ciphertexts `ggsw` (all of them, in their
/// order) and the shape TFHE-rs states for it (`stated_input` as its input
/// dimension).
fn expand(
    ggsw: &SeededGgswCiphertextList,
    stated_input: impl Fn(usize) -> Result<usize>,
) -> Result<super::wire::server::FourierLweBootstrapKey> {
    ggsw.ciphertext_modulus.check_native_u64("OPRF key")?;
    let per_ggsw = ggsw
        .glwe_size
        .0
        .saturating_mul(ggsw.decomp_level_count.0)
        .saturating_mul(ggsw.polynomial_size.0)
        .max(1);
    let shape = BootstrapKeyShape {
        input_lwe_dimension: LweDimension(ggsw.data.len() / per_ggsw),
        glwe_dimension: GlweDimension(ggsw.glwe_size.0.saturating_sub(1)),
        polynomial_size: PolynomialSize(ggsw.polynomial_size.0),
        base_log: DecompositionBaseLog(ggsw.decomp_base_log.0),
        level: DecompositionLevelCount(ggsw.decomp_level_count.0),
    };
    let seeded = seeded_lwe_bootstrap_key_from_tfhe_rs_parts(
        ggsw.data.clone(),
        shape,
        seed_from_wire(&ggsw.compression_seed)?,
    )?;
    // The standard key and its Fourier form (as many bytes each).
    let glwe = shape.glwe_dimension.to_glwe_size().0 as u64;
    let words = (ggsw.data.len() as u64).saturating_mul(glwe);
    let _memory = crate::memory::reserve_host_memory(
        words.saturating_mul(16),
        "expanding a TFHE-rs OPRF key",
    )?;
    let polys = tfhe_rs_fourier_from_standard_bootstrap_key(&seeded.decompress());
    let stated = BootstrapKeyShape {
        input_lwe_dimension: LweDimension(stated_input(shape.input_lwe_dimension.0)?),
        ..shape
    };
    Ok(fourier_to_wire(&stated, polys))
}

/// TFHE-rs's expanded OPRF key of the seeded `key`.
pub(crate) fn expand_oprf_key(key: &CompressedOprfServerKey) -> Result<OprfServerKey> {
    let inner = match &key.0.inner {
        CompressedOprfBootstrappingKey::Classic { seeded_bsk } => OprfBootstrappingKey::Classic {
            bsk: expand(&seeded_bsk.ggsw_list, Ok)?,
        },
        CompressedOprfBootstrappingKey::MultiBit {
            seeded_bsk,
            deterministic_execution,
        } => {
            let g = seeded_bsk.grouping_factor.0;
            let thread_count = multi_bit_thread_count(g)?;
            // 2^g GGSW ciphertexts per group of g coefficients.
            let bsk = expand(&seeded_bsk.ggsw_list, |ggsws| {
                let groups = ggsws >> g;
                if groups << g == ggsws {
                    Ok(groups * g)
                } else {
                    Err(Error::InvalidParameter(
                        "a TFHE-rs multi-bit OPRF key of a partial group".into(),
                    ))
                }
            })?;
            OprfBootstrappingKey::MultiBit {
                fourier_bsk: FourierLweMultiBitBootstrapKey {
                    fourier: bsk.fourier,
                    input_lwe_dimension: bsk.input_lwe_dimension,
                    glwe_size: bsk.glwe_size,
                    decomposition_base_log: bsk.decomposition_base_log,
                    decomposition_level_count: bsk.decomposition_level_count,
                    grouping_factor: seeded_bsk.grouping_factor,
                },
                thread_count: ThreadCount(thread_count),
                deterministic_execution: *deterministic_execution,
            }
        }
    };
    Ok(OprfServerKey {
        key: ShortintOprfServerKey { inner },
    })
}
