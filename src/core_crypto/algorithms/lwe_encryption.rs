//! LWE encryption and decryption: `b = <a, s> + m + e`.

use crate::core_crypto::entities::{LweCiphertext, LweCiphertextOwned, LweSecretKey};
use crate::core_crypto::random::{EncryptionRandomGenerator, NoiseDistribution};
use crate::error::Result;

/// Encrypts the encoded `plaintext` into `output` under `key`.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let key = LweSecretKey::generate_binary(LweDimension(16), &mut SecretRandomGenerator::from_os().unwrap());
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let mut ct = LweCiphertextOwned::new_zero(LweSize(17));
/// let noise = NoiseDistribution::TUniform { log2_bound: 10 };
/// encrypt_lwe_ciphertext(&key, &mut ct, 5 << 60, noise, &mut rng).unwrap();
/// let phase = decrypt_lwe_ciphertext(&key, &ct).unwrap();
/// assert_eq!((phase.wrapping_add(1 << 59)) >> 60, 5);
/// ```
pub fn encrypt_lwe_ciphertext<C>(
    key: &LweSecretKey,
    output: &mut LweCiphertext<C>,
    plaintext: u64,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
{
    output.check_size(
        "LWE size of the output ciphertext",
        key.lwe_dimension().to_lwe_size(),
    )?;
    noise.validate()?;
    let (mask, body) = output.mask_and_body_mut();
    *body = encrypt_lwe_into_mask(key.as_slice(), mask, plaintext, noise, rng);
    Ok(())
}

/// Draws the mask into `mask` and returns the body. Shared by the plain and the
/// seeded (compressed) encryptions, which must draw exactly the same values.
pub(crate) fn encrypt_lwe_into_mask(
    key: &[u64],
    mask: &mut [u64],
    plaintext: u64,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
) -> u64 {
    rng.fill_mask(mask);
    let e = rng.sample(noise); // `noise` validated by the callers
    dot_product(mask, key)
        .wrapping_add(plaintext)
        .wrapping_add(e)
}

/// Encrypts `plaintext` into a new ciphertext under `key`.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let key = LweSecretKey::generate_binary(LweDimension(64), &mut SecretRandomGenerator::from_os().unwrap());
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 10 };
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&key, 3 << 60, noise, &mut rng).unwrap();
/// assert_eq!(ct.lwe_size(), LweSize(65));
/// assert_eq!(decrypt_lwe_ciphertext(&key, &ct).unwrap().wrapping_add(1 << 59) >> 60, 3);
/// ```
pub fn allocate_and_encrypt_new_lwe_ciphertext(
    key: &LweSecretKey,
    plaintext: u64,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
) -> Result<LweCiphertextOwned> {
    let mut ct = LweCiphertextOwned::new_zero(key.lwe_dimension().to_lwe_size());
    encrypt_lwe_ciphertext(key, &mut ct, plaintext, noise, rng)?;
    Ok(ct)
}

/// Returns the phase `b - <a, s>` = plaintext + noise; decoding is up to the caller.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let key = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// // Messages of 4 bits in the top bits: m * 2^60.
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&key, 11 << 60, NoiseDistribution::TUniform { log2_bound: 20 }, &mut rng).unwrap();
/// let phase = decrypt_lwe_ciphertext(&key, &ct).unwrap();
/// // The phase is 11 * 2^60 plus a small noise; rounding removes the noise.
/// assert_eq!(phase.wrapping_add(1 << 59) >> 60, 11);
/// assert_ne!(phase, 11 << 60);
/// // A key of another dimension cannot decrypt it.
/// let other = LweSecretKey::generate_binary(LweDimension(32), &mut secret);
/// assert!(decrypt_lwe_ciphertext(&other, &ct).is_err());
/// ```
pub fn decrypt_lwe_ciphertext<C: AsRef<[u64]>>(
    key: &LweSecretKey,
    ct: &LweCiphertext<C>,
) -> Result<u64> {
    ct.check_size(
        "LWE size of the ciphertext to decrypt",
        key.lwe_dimension().to_lwe_size(),
    )?;
    Ok(ct
        .body()
        .wrapping_sub(dot_product(ct.mask(), key.as_slice())))
}

/// `sum a_i * s_i` modulo 2^64.
pub(crate) fn dot_product(a: &[u64], s: &[u64]) -> u64 {
    a.iter()
        .zip(s)
        .fold(0u64, |acc, (x, y)| acc.wrapping_add(x.wrapping_mul(*y)))
}
