//! Multi-bit bootstrap keys between gpufhe and TFHE-rs's data.
//!
//! Both encrypt, for each group of `g` coefficients of the small key, the
//! indicators `f_T` of the group's bit assignments `T` (1 exactly when the bits
//! equal `T`). TFHE-rs keeps all `2^g` of them per group, its GGSW `i` holding the
//! assignment whose bit for coefficient `j` is bit `g - 1 - j` of `i`; gpufhe keeps
//! the `2^g - 1` non-empty ones, assignment `T` (bit `j` for coefficient `j`) at
//! place `T - 1` (`core_crypto::multi_bit_lwe_secret_key`): since the indicators
//! sum to 1, the empty one is never needed. Reading TFHE-rs's key reorders its
//! GGSW ciphertexts and sets its empty-assignment ones aside, kept with the key
//! (`TfheRsMultiBitExtra`, as a key expanded from its seeds keeps them) so that it
//! is written back byte for byte; each GGSW ciphertext converts as the classical
//! key's do (`core_crypto::algorithms::tfhe_rs_layout`).

use crate::core_crypto::tfhe_rs_layout::{
    fourier_bootstrap_key_from_tfhe_rs_fourier, multi_bit_from_tfhe_rs_order,
    multi_bit_to_tfhe_rs_order, tfhe_rs_fourier_from_fourier_bootstrap_key,
};
use crate::core_crypto::{BootstrapKeyShape, FourierLweBootstrapKey};
use crate::error::{Error, Result};
use tfhe_fft::c64;

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
    let (ours, empty) = multi_bit_from_tfhe_rs_order(polys, ggsw_len(&shape), grouping_factor)?;
    if ours.len() != shape.input_lwe_dimension.0 * ggsw_len(&shape) {
        return Err(Error::InvalidParameter(format!(
            "a TFHE-rs multi-bit key of {} Fourier coefficients for {} GGSW ciphertexts of \
             gpufhe's",
            polys.len(),
            shape.input_lwe_dimension.0
        )));
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
    let ours = tfhe_rs_fourier_from_fourier_bootstrap_key(key);
    multi_bit_to_tfhe_rs_order(&ours, empty, ggsw_len(&key.shape), grouping_factor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tfhe_rs_indices_are_assignments_read_from_the_top_bit() {
        // g = 2: TFHE-rs's 0b01 is (s_0 = 0, s_1 = 1), gpufhe's T = 0b10, place 1.
        use crate::core_crypto::tfhe_rs_layout::multi_bit_place as gpufhe_place;
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

    /// gpufhe's multi-bit keys in TFHE-rs's form, plain and compressed: written,
    /// read back and written again byte for byte, computing as before; a key
    /// through gpufhe's own format has no TFHE-rs form.
    #[test]
    fn multi_bit_server_keys_in_tfhe_rs_form() {
        use crate::prelude::*;
        use crate::safe_serialization::{safe_deserialize, safe_serialize};
        use crate::serialization::with_insecure_parameters_allowed;
        use crate::shortint::PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2 as P;
        use crate::{ClientKey, CompressedServerKey, ConfigBuilder, FheUint8, ServerKey};
        let config = ConfigBuilder::default()
            .with_insecure_custom_parameters(P)
            .unwrap()
            .build();
        let client = ClientKey::generate(config);
        let compressed = CompressedServerKey::new(&client);
        let write = |key: &dyn Fn(&mut Vec<u8>) -> crate::Result<()>| {
            let mut bytes = Vec::new();
            key(&mut bytes).map(|()| bytes)
        };
        let bytes = write(&|b| safe_serialize(&compressed, b, 1 << 30)).unwrap();
        let compressed: CompressedServerKey =
            with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), 1 << 30))
                .unwrap();
        assert!(write(&|b| safe_serialize(&compressed, b, 1 << 30)).unwrap() == bytes);
        let key = compressed.decompress();
        let bytes = write(&|b| safe_serialize(&key, b, 1 << 30)).unwrap();
        let back: ServerKey =
            with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), 1 << 30))
                .unwrap();
        assert!(write(&|b| safe_serialize(&back, b, 1 << 30)).unwrap() == bytes);
        crate::set_server_key(back);
        let sum = FheUint8::encrypt(200u8, &client) + FheUint8::encrypt(99u8, &client);
        let clear: u8 = sum.decrypt(&client);
        assert_eq!(clear, 43);
        crate::unset_server_key();
        // gpufhe's own format keeps only gpufhe's GGSW ciphertexts.
        let own = write(&|b| crate::serialization::safe_serialize(&key, b, 1 << 30)).unwrap();
        let own: ServerKey = with_insecure_parameters_allowed(|| {
            crate::serialization::safe_deserialize(own.as_slice(), 1 << 30)
        })
        .unwrap();
        let refused = write(&|b| safe_serialize(&own, b, 1 << 30)).unwrap_err();
        assert!(
            refused.to_string().contains("gpufhe::serialization"),
            "{refused}"
        );
    }
}
