//! Multi-bit bootstrap keys between gpufhe and TFHE-rs's data.
//!
//! Both encrypt, for each group of `g` coefficients of the small key, the
//! indicators `f_T` of the group's bit assignments `T` (1 exactly when the bits
//! equal `T`). TFHE-rs keeps all `2^g` of them per group, its GGSW `i` holding the
//! assignment whose bit for coefficient `j` is bit `g - 1 - j` of `i`; gpufhe keeps
//! the `2^g - 1` non-empty ones, assignment `T` (bit `j` for coefficient `j`) at
//! place `T - 1` (`core_crypto::multi_bit_lwe_secret_key`): since the indicators
//! sum to 1, the empty one is never needed. Reading TFHE-rs's key reorders its
//! GGSW ciphertexts and sets its empty-assignment ones aside, kept with the key so
//! that it is written back byte for byte; each GGSW ciphertext converts as the
//! classical key's do (`core_crypto::algorithms::tfhe_rs_layout`).

use crate::core_crypto::tfhe_rs_layout::{
    fourier_bootstrap_key_from_tfhe_rs_fourier, tfhe_rs_fourier_from_fourier_bootstrap_key,
};
use crate::core_crypto::{BootstrapKeyShape, FourierLweBootstrapKey};
use crate::error::{Error, Result};
use tfhe_fft::c64;

/// What gpufhe's multi-bit key lacks of TFHE-rs's: the empty-assignment GGSW
/// ciphertext of every group (TFHE-rs's serialized Fourier form, in group order)
/// and the key's execution flag, kept to be written back.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TfheRsMultiBitKept {
    pub(crate) empty_assignments: Vec<c64>,
    pub(crate) deterministic_execution: bool,
}

/// gpufhe's place in a group (`T - 1`) of TFHE-rs's GGSW `index`, `None` for the
/// empty assignment.
fn gpufhe_place(index: usize, grouping_factor: usize) -> Option<usize> {
    let assignment = (0..grouping_factor).fold(0, |t, j| {
        t | (((index >> (grouping_factor - 1 - j)) & 1) << j)
    });
    assignment.checked_sub(1)
}

/// Fourier coefficients of one GGSW ciphertext of `shape`.
fn ggsw_len(shape: &BootstrapKeyShape) -> usize {
    let glwe = shape.glwe_dimension.to_glwe_size().0;
    glwe * shape.level.0 * glwe * shape.polynomial_size.to_fourier_polynomial_size()
}

/// gpufhe's multi-bit key of `shape` (gpufhe's: one GGSW per non-empty
/// assignment) from TFHE-rs's serialized Fourier polynomials, and the
/// empty-assignment GGSW ciphertexts set aside. `Err` for a wrong number of values
/// or a value that is not finite.
pub(crate) fn multi_bit_key_from_tfhe_rs(
    polys: &[c64],
    shape: BootstrapKeyShape,
    grouping_factor: usize,
) -> Result<(FourierLweBootstrapKey, Vec<c64>)> {
    shape.validate()?;
    let per_group = (1usize << grouping_factor) - 1;
    let groups = shape.input_lwe_dimension.0 / per_group;
    let len = ggsw_len(&shape);
    let expected = groups
        .checked_mul(per_group + 1)
        .and_then(|c| c.checked_mul(len));
    if shape.input_lwe_dimension.0 % per_group != 0 || expected != Some(polys.len()) {
        return Err(Error::InvalidParameter(format!(
            "a TFHE-rs multi-bit key of {} Fourier coefficients, {} GGSW ciphertexts of {len} \
             for {groups} groups of {} expected",
            polys.len(),
            groups * (per_group + 1),
            per_group + 1
        )));
    }
    let mut ours = vec![c64::default(); groups * per_group * len];
    let mut empty = Vec::with_capacity(groups * len);
    for (group, theirs) in polys.chunks_exact((per_group + 1) * len).enumerate() {
        for (index, ggsw) in theirs.chunks_exact(len).enumerate() {
            match gpufhe_place(index, grouping_factor) {
                Some(place) => {
                    let at = (group * per_group + place) * len;
                    ours[at..at + len].copy_from_slice(ggsw);
                }
                None => empty.extend_from_slice(ggsw),
            }
        }
    }
    let key = fourier_bootstrap_key_from_tfhe_rs_fourier(&ours, shape)?;
    if let Some(bad) = empty
        .iter()
        .position(|c| !(c.re.is_finite() && c.im.is_finite()))
    {
        return Err(Error::InvalidParameter(format!(
            "Fourier bootstrap key value {bad} of an empty assignment is not finite"
        )));
    }
    Ok((key, empty))
}

/// TFHE-rs's serialized Fourier polynomials of gpufhe's multi-bit `key`, with the
/// empty-assignment GGSW ciphertexts `empty` (the inverse of
/// [`multi_bit_key_from_tfhe_rs`]). `Err` if `empty` is not one GGSW per group.
pub(crate) fn multi_bit_key_to_tfhe_rs(
    key: &FourierLweBootstrapKey,
    grouping_factor: usize,
    empty: &[c64],
) -> Result<Vec<c64>> {
    let shape = key.shape;
    let per_group = (1usize << grouping_factor) - 1;
    let groups = shape.input_lwe_dimension.0 / per_group;
    let len = ggsw_len(&shape);
    crate::error::check_eq(
        "Fourier coefficients of the empty assignments",
        groups * len,
        empty.len(),
    )?;
    let ours = tfhe_rs_fourier_from_fourier_bootstrap_key(key);
    let mut theirs = Vec::with_capacity(groups * (per_group + 1) * len);
    for (group, constant) in ours
        .chunks_exact(per_group * len)
        .zip(empty.chunks_exact(len))
    {
        for index in 0..=per_group {
            match gpufhe_place(index, grouping_factor) {
                Some(place) => theirs.extend_from_slice(&group[place * len..(place + 1) * len]),
                None => theirs.extend_from_slice(constant),
            }
        }
    }
    Ok(theirs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tfhe_rs_indices_are_assignments_read_from_the_top_bit() {
        // g = 2: TFHE-rs's 0b01 is (s_0 = 0, s_1 = 1), gpufhe's T = 0b10, place 1.
        let places: Vec<_> = (0..4).map(|i| gpufhe_place(i, 2)).collect();
        assert_eq!(places, [None, Some(1), Some(0), Some(2)]);
        // Every non-empty assignment once, for every grouping factor.
        for g in 1..=6 {
            let mut seen: Vec<usize> = (0..1 << g).filter_map(|i| gpufhe_place(i, g)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..(1 << g) - 1).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_tfhe_rs_key_converts_and_back_exactly_and_wrong_sizes_are_refused() {
        use crate::core_crypto::{
            DecompositionBaseLog, DecompositionLevelCount, GlweDimension, LweDimension,
            PolynomialSize,
        };
        // 2 groups of g = 2: 8 GGSW ciphertexts in TFHE-rs's form, 6 in gpufhe's.
        let shape = BootstrapKeyShape {
            input_lwe_dimension: LweDimension(6),
            glwe_dimension: GlweDimension(1),
            polynomial_size: PolynomialSize(256),
            base_log: DecompositionBaseLog(23),
            level: DecompositionLevelCount(1),
        };
        let len = ggsw_len(&shape);
        let theirs: Vec<c64> = (0..8 * len)
            .map(|i| c64::new(i as f64 * 0.25, -(i as f64)))
            .collect();
        let (key, empty) = multi_bit_key_from_tfhe_rs(&theirs, shape, 2).unwrap();
        assert_eq!(empty.len(), 2 * len);
        assert_eq!(empty[..len], theirs[..len]);
        assert_eq!(empty[len..], theirs[4 * len..5 * len]);
        assert_eq!(multi_bit_key_to_tfhe_rs(&key, 2, &empty).unwrap(), theirs);
        assert!(multi_bit_key_to_tfhe_rs(&key, 2, &empty[len..]).is_err());
        assert!(multi_bit_key_from_tfhe_rs(&theirs[len..], shape, 2).is_err());
        let mut bad = theirs;
        bad[3] = c64::new(f64::NAN, 0.0);
        assert!(multi_bit_key_from_tfhe_rs(&bad, shape, 2).is_err());
    }

    /// A multi-bit server key in TFHE-rs's form: written only with TFHE-rs's empty
    /// assignments, then read back and written again byte for byte, computing as
    /// before.
    #[test]
    fn multi_bit_server_keys_in_tfhe_rs_form() {
        use crate::prelude::*;
        use crate::safe_serialization::{safe_deserialize, safe_serialize};
        use crate::serialization::with_insecure_parameters_allowed;
        use crate::shortint::PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2 as P;
        use crate::{ClientKey, ConfigBuilder, FheUint8, ServerKey};
        let config = ConfigBuilder::default()
            .with_insecure_custom_parameters(P)
            .unwrap()
            .build();
        let client = ClientKey::generate(config);
        let key = ServerKey::new(&client);
        let mut bytes = Vec::new();
        let refused = safe_serialize(&key, &mut bytes, 1 << 30).unwrap_err();
        assert!(
            refused.to_string().contains("gpufhe::serialization"),
            "{refused}"
        );
        // Stand-ins for TFHE-rs's empty-assignment GGSW ciphertexts (gpufhe never
        // reads them): one per group.
        let shape = P.bootstrap_key_shape();
        let empty: Vec<c64> = (0..P.lwe_dimension.0 / 4 * ggsw_len(&shape))
            .map(|i| c64::new(i as f64, 0.5))
            .collect();
        let kept = TfheRsMultiBitKept {
            empty_assignments: empty,
            deterministic_execution: true,
        };
        key.tfhe_rs_multi_bit()
            .set(std::sync::Arc::new(kept.clone()))
            .unwrap();
        bytes.clear();
        safe_serialize(&key, &mut bytes, 1 << 30).unwrap();
        let back: ServerKey =
            with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), 1 << 30))
                .unwrap();
        assert_eq!(back.tfhe_rs_multi_bit().get().map(|k| &**k), Some(&kept));
        let mut again = Vec::new();
        safe_serialize(&back, &mut again, 1 << 30).unwrap();
        assert!(again == bytes);
        crate::set_server_key(back);
        let sum = FheUint8::encrypt(200u8, &client) + FheUint8::encrypt(99u8, &client);
        let clear: u8 = sum.decrypt(&client);
        assert_eq!(clear, 43);
        crate::unset_server_key();
    }
}
