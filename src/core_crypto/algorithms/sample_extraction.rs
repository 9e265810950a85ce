//! Sample extraction: the `nth` coefficient of a GLWE ciphertext as an LWE
//! ciphertext under the GLWE key read as an LWE key of dimension `k * N`.

use crate::core_crypto::entities::{GlweCiphertext, LweCiphertext};
use crate::error::{Error, Result};

/// Writes to `output` an LWE encryption of coefficient `nth` of the plaintext of `glwe`.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let n = PolynomialSize(32);
/// let glwe_key = GlweSecretKey::generate_binary(GlweDimension(2), n, &mut SecretRandomGenerator::from_os().unwrap()).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let mut glwe = GlweCiphertextOwned::new_zero(GlweSize(3), n).unwrap();
/// let message: Vec<u64> = (0..32).map(|i| (i % 16) << 59).collect();
/// encrypt_glwe_ciphertext(&glwe_key, &mut glwe, &message, NoiseDistribution::TUniform { log2_bound: 17 }, &mut rng).unwrap();
/// let mut lwe = LweCiphertextOwned::new_zero(LweSize(65));
/// extract_lwe_sample_from_glwe_ciphertext(&glwe, &mut lwe, 7).unwrap();
/// let phase = decrypt_lwe_ciphertext(&glwe_key.as_lwe_secret_key(), &lwe).unwrap();
/// assert_eq!(phase.wrapping_add(1 << 58) >> 59, 7);
/// ```
pub fn extract_lwe_sample_from_glwe_ciphertext<C, D>(
    glwe: &GlweCiphertext<C>,
    output: &mut LweCiphertext<D>,
    nth: usize,
) -> Result<()>
where
    C: AsRef<[u64]>,
    D: AsRef<[u64]> + AsMut<[u64]>,
{
    let n = glwe.polynomial_size().0;
    let k = glwe.glwe_size().0 - 1;
    output.check_size(
        "LWE size of the extracted sample",
        crate::core_crypto::LweSize(k * n + 1),
    )?;
    if nth >= n {
        return Err(Error::InvalidParameter(format!(
            "cannot extract coefficient {nth} of a polynomial of size {n}"
        )));
    }
    let (out_mask, out_body) = output.mask_and_body_mut();
    *out_body = glwe.body()[nth];
    // (A * S)_nth = sum_{j <= nth} a_{nth - j} s_j - sum_{j > nth} a_{N + nth - j} s_j.
    for (a, o) in glwe
        .as_slice()
        .chunks_exact(n)
        .zip(out_mask.chunks_exact_mut(n))
    {
        for (j, o) in o.iter_mut().enumerate() {
            *o = if j <= nth {
                a[nth - j]
            } else {
                a[n + nth - j].wrapping_neg()
            };
        }
    }
    Ok(())
}
