//! GGSW encryption of a small integer under a GLWE key.

use super::glwe_encryption::encrypt_glwe_into_mask;
use crate::core_crypto::commons::{DecompositionBaseLog, DecompositionLevelCount};
use crate::core_crypto::entities::{GgswCiphertext, GlweSecretKey};
use crate::core_crypto::random::{EncryptionRandomGenerator, NoiseDistribution};
use crate::error::{check_eq, Result};
use zeroize::Zeroize;

/// Encrypts the integer `message` (a key bit, for a bootstrap key) into `output`.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let n = PolynomialSize(256);
/// let key = GlweSecretKey::generate_binary(GlweDimension(1), n, &mut SecretRandomGenerator::from_os().unwrap()).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let mut ggsw = GgswCiphertextOwned::new_zero(GlweSize(2), n, DecompositionBaseLog(10), DecompositionLevelCount(2)).unwrap();
/// encrypt_ggsw_ciphertext(&key, &mut ggsw, 1, NoiseDistribution::TUniform { log2_bound: 17 }, &mut rng).unwrap();
/// // Rows are (component, level): the first body row (1, 1) encrypts 1 * 2^(64 - 10).
/// let row_len = ggsw.as_slice().len() / 4;
/// let row = &ggsw.as_slice()[2 * row_len..3 * row_len];
/// let body_row = GlweCiphertext::from_container(row, n).unwrap();
/// let mut phase = vec![0u64; 256];
/// decrypt_glwe_ciphertext(&key, &body_row, &mut phase).unwrap();
/// assert_eq!(phase[0].wrapping_add(1 << 40) >> 41, (1u64 << 54) >> 41);
/// ```
pub fn encrypt_ggsw_ciphertext<C>(
    key: &GlweSecretKey,
    output: &mut GgswCiphertext<C>,
    message: u64,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
{
    check_eq(
        "polynomial size of the GGSW ciphertext",
        key.polynomial_size().0,
        output.polynomial_size().0,
    )?;
    check_eq(
        "GLWE size of the GGSW ciphertext",
        key.glwe_dimension().0 + 1,
        output.glwe_size().0,
    )?;
    noise.validate()?;
    let (base_log, level) = (
        output.decomposition_base_log(),
        output.decomposition_level_count(),
    );
    let row_len = output.glwe_size().0 * key.polynomial_size().0;
    let mut rows: Vec<&mut [u64]> = output.as_mut_slice().chunks_exact_mut(row_len).collect();
    encrypt_ggsw_rows(
        key,
        message,
        base_log,
        level,
        noise,
        rng,
        |r, mask, body| {
            let (m, b) = rows[r].split_at_mut(mask.len());
            m.copy_from_slice(mask);
            b.copy_from_slice(body);
        },
    );
    Ok(())
}

/// Encrypts the rows of a GGSW ciphertext one after the other in TFHE-rs's order
/// (level `l` down to 1, then component), handing each row's index in gpufhe's
/// order (component, then level 1 to `l`), mask and body to `emit`. The plain and
/// the seeded generations share it, so they draw the same randomness in the same
/// order, TFHE-rs's.
pub(crate) fn encrypt_ggsw_rows(
    key: &GlweSecretKey,
    message: u64,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
    mut emit: impl FnMut(usize, &[u64], &[u64]),
) {
    let n = key.polynomial_size().0;
    let k = key.glwe_dimension().0;
    let mut mask = vec![0u64; k * n];
    let mut body = vec![0u64; n];
    let mut plaintext = vec![0u64; n];
    for j in (1..=level.0).rev() {
        for c in 0..=k {
            let factor = message.wrapping_mul(1u64 << (64 - j * base_log.0));
            if c < k {
                // -m * S_c / B^j in the body is the same as +m / B^j in the mask A_c.
                for (p, s) in plaintext.iter_mut().zip(key.polynomial(c)) {
                    *p = factor.wrapping_mul(*s).wrapping_neg();
                }
            } else {
                plaintext.fill(0);
                plaintext[0] = factor;
            }
            encrypt_glwe_into_mask(key, &mut mask, &mut body, &plaintext, noise, rng);
            emit(c * level.0 + (j - 1), &mask, &body);
        }
    }
    plaintext.zeroize(); // a multiple of the secret key
}
