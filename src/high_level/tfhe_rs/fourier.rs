//! TFHE-rs's Fourier bootstrap keys as serialized, from and to their polynomials
//! (the server key's, the decompression key's and the OPRF key's share them).

use super::wire::core::{
    DecompositionBaseLog as WireBaseLog, DecompositionLevelCount as WireLevel, GlweSize,
    LweDimension as WireLweDimension,
};
use super::wire::server::{FourierLweBootstrapKey, FourierPolynomialList, FourierPolynomials};
use crate::core_crypto::BootstrapKeyShape;
use tfhe_fft::c64;

/// TFHE-rs's Fourier bootstrap key of `shape` (its input dimension as written)
/// from its polynomials.
pub(super) fn fourier_to_wire(
    shape: &BootstrapKeyShape,
    polys: Vec<c64>,
) -> FourierLweBootstrapKey {
    FourierLweBootstrapKey {
        fourier: FourierPolynomialList(FourierPolynomials {
            polynomial_size: shape.polynomial_size.0,
            values: polys.into_iter().map(|z| (z.re, z.im)).collect(),
        }),
        input_lwe_dimension: WireLweDimension(shape.input_lwe_dimension.0),
        glwe_size: GlweSize(shape.glwe_dimension.0 + 1),
        decomposition_base_log: WireBaseLog(shape.base_log.0),
        decomposition_level_count: WireLevel(shape.level.0),
    }
}

/// The complex values of TFHE-rs's Fourier polynomials as read.
pub(super) fn fourier_polynomials(values: Vec<(f64, f64)>) -> Vec<c64> {
    values
        .into_iter()
        .map(|(re, im)| c64::new(re, im))
        .collect()
}
