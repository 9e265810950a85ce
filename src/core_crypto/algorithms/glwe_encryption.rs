//! GLWE encryption and decryption: `B = sum_c A_c * S_c + M + E`.

use super::polynomial::polynomial_wrapping_add_mul_binary_assign;
use crate::core_crypto::entities::{GlweCiphertext, GlweSecretKey};
use crate::core_crypto::random::{EncryptionRandomGenerator, NoiseDistribution};
use crate::error::{check_eq, Result};
use zeroize::Zeroize;

/// Encrypts the encoded polynomial `plaintext` (`N` coefficients) into `output`.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let n = PolynomialSize(64);
/// let key = GlweSecretKey::generate_binary(GlweDimension(1), n, &mut SecretRandomGenerator::from_os().unwrap()).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let mut ct = GlweCiphertextOwned::new_zero(GlweSize(2), n).unwrap();
/// let message: Vec<u64> = (0..64).map(|i| (i % 16) << 59).collect();
/// encrypt_glwe_ciphertext(&key, &mut ct, &message, NoiseDistribution::TUniform { log2_bound: 17 }, &mut rng).unwrap();
/// let mut phase = vec![0u64; 64];
/// decrypt_glwe_ciphertext(&key, &ct, &mut phase).unwrap();
/// for (p, m) in phase.iter().zip(&message) {
///     assert_eq!(p.wrapping_add(1 << 58) >> 59, m >> 59);
/// }
/// ```
pub fn encrypt_glwe_ciphertext<C>(
    key: &GlweSecretKey,
    output: &mut GlweCiphertext<C>,
    plaintext: &[u64],
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
{
    check_glwe_shapes(key, output)?;
    check_eq(
        "number of plaintext coefficients",
        key.polynomial_size().0,
        plaintext.len(),
    )?;
    noise.validate()?;
    let (mask, body) = output.mask_and_body_mut();
    encrypt_glwe_into_mask(key, mask, body, plaintext, noise, rng);
    Ok(())
}

/// Draws the masks into `mask` and writes the body. Shared by the plain and the
/// seeded encryptions, which must draw exactly the same values.
pub(crate) fn encrypt_glwe_into_mask(
    key: &GlweSecretKey,
    mask: &mut [u64],
    body: &mut [u64],
    plaintext: &[u64],
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
) {
    let n = key.polynomial_size().0;
    rng.fill_mask(mask);
    body.copy_from_slice(plaintext);
    for x in body.iter_mut() {
        *x = x.wrapping_add(rng.sample(noise)); // `noise` validated by the callers
    }
    for (c, a) in mask.chunks_exact(n).enumerate() {
        polynomial_wrapping_add_mul_binary_assign(body, a, key.polynomial(c));
    }
}

/// Writes the phase `B - sum_c A_c * S_c` (plaintext + noise) to `output`.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let n = PolynomialSize(64);
/// let key = GlweSecretKey::generate_binary(GlweDimension(1), n, &mut SecretRandomGenerator::from_os().unwrap()).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let mut ct = GlweCiphertextOwned::new_zero(GlweSize(2), n).unwrap();
/// let message: Vec<u64> = (0..64).map(|i| (i % 8) << 61).collect();
/// encrypt_glwe_ciphertext(&key, &mut ct, &message, NoiseDistribution::TUniform { log2_bound: 20 }, &mut rng).unwrap();
/// let mut phase = vec![0u64; 64];
/// decrypt_glwe_ciphertext(&key, &ct, &mut phase).unwrap();
/// let decoded: Vec<u64> = phase.iter().map(|p| p.wrapping_add(1 << 60) >> 61).collect();
/// assert_eq!(decoded, (0..64).map(|i| i % 8).collect::<Vec<u64>>());
/// // The output must hold N coefficients.
/// assert!(decrypt_glwe_ciphertext(&key, &ct, &mut [0u64; 32]).is_err());
/// ```
pub fn decrypt_glwe_ciphertext<C: AsRef<[u64]>>(
    key: &GlweSecretKey,
    ct: &GlweCiphertext<C>,
    output: &mut [u64],
) -> Result<()> {
    check_glwe_shapes(key, ct)?;
    check_eq(
        "number of output coefficients",
        key.polynomial_size().0,
        output.len(),
    )?;
    let n = key.polynomial_size().0;
    let mut sum = vec![0u64; n];
    for c in 0..key.glwe_dimension().0 {
        polynomial_wrapping_add_mul_binary_assign(
            &mut sum,
            &ct.as_slice()[c * n..(c + 1) * n],
            key.polynomial(c),
        );
    }
    for ((o, b), s) in output.iter_mut().zip(ct.body()).zip(&sum) {
        *o = b.wrapping_sub(*s);
    }
    sum.zeroize(); // derived from the secret key
    Ok(())
}

pub(crate) fn check_glwe_shapes<C: AsRef<[u64]>>(
    key: &GlweSecretKey,
    ct: &GlweCiphertext<C>,
) -> Result<()> {
    check_eq(
        "polynomial size of the GLWE ciphertext",
        key.polynomial_size().0,
        ct.polynomial_size().0,
    )?;
    check_eq(
        "GLWE size of the ciphertext",
        key.glwe_dimension().0 + 1,
        ct.glwe_size().0,
    )
}
