//! Linear operations on LWE ciphertexts: they act on the encrypted messages without
//! a bootstrap (and add up the noise).

use crate::core_crypto::entities::{LweCiphertext, LweCiphertextList};
use crate::error::{check_eq, Result};

/// `lhs += rhs`, coefficient-wise modulo 2^64: the messages add up.
///
/// ```
/// use gpufhe::core_crypto::{add_lwe_ciphertext_assign, LweCiphertext};
/// let mut a = LweCiphertext::from_container(vec![1u64, 2, 3]).unwrap();
/// let b = LweCiphertext::from_container(vec![u64::MAX, 5, 6]).unwrap();
/// add_lwe_ciphertext_assign(&mut a, &b).unwrap();
/// assert_eq!(a.as_slice(), &[0, 7, 9]);
/// ```
pub fn add_lwe_ciphertext_assign<C, D>(
    lhs: &mut LweCiphertext<C>,
    rhs: &LweCiphertext<D>,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
    D: AsRef<[u64]>,
{
    rhs.check_size("LWE size of the right operand", lhs.lwe_size())?;
    zip_assign(lhs.as_mut_slice(), rhs.as_slice(), u64::wrapping_add);
    Ok(())
}

/// `lhs -= rhs`, coefficient-wise modulo 2^64: the messages are subtracted.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let key = LweSecretKey::generate_binary(LweDimension(32), &mut SecretRandomGenerator::from_os().unwrap());
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let mut a = allocate_and_encrypt_new_lwe_ciphertext(&key, 7 << 60, noise, &mut rng).unwrap();
/// let b = allocate_and_encrypt_new_lwe_ciphertext(&key, 2 << 60, noise, &mut rng).unwrap();
/// sub_lwe_ciphertext_assign(&mut a, &b).unwrap();
/// assert_eq!(decrypt_lwe_ciphertext(&key, &a).unwrap().wrapping_add(1 << 59) >> 60, 5);
/// ```
pub fn sub_lwe_ciphertext_assign<C, D>(
    lhs: &mut LweCiphertext<C>,
    rhs: &LweCiphertext<D>,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
    D: AsRef<[u64]>,
{
    rhs.check_size("LWE size of the right operand", lhs.lwe_size())?;
    zip_assign(lhs.as_mut_slice(), rhs.as_slice(), u64::wrapping_sub);
    Ok(())
}

/// `ct *= scalar` modulo 2^64: the message is multiplied by `scalar`.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let key = LweSecretKey::generate_binary(LweDimension(32), &mut SecretRandomGenerator::from_os().unwrap());
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let mut ct = allocate_and_encrypt_new_lwe_ciphertext(&key, 3 << 60, noise, &mut rng).unwrap();
/// mul_lwe_ciphertext_by_scalar_assign(&mut ct, 5);
/// // 3 * 5 = 15; the noise is multiplied by 5 too.
/// assert_eq!(decrypt_lwe_ciphertext(&key, &ct).unwrap().wrapping_add(1 << 59) >> 60, 15);
/// ```
pub fn mul_lwe_ciphertext_by_scalar_assign<C>(ct: &mut LweCiphertext<C>, scalar: u64)
where
    C: AsRef<[u64]> + AsMut<[u64]>,
{
    for x in ct.as_mut_slice() {
        *x = x.wrapping_mul(scalar);
    }
}

/// Adds `plaintext` (an already encoded value) to the body: the message grows by it.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let key = LweSecretKey::generate_binary(LweDimension(32), &mut SecretRandomGenerator::from_os().unwrap());
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let mut ct = allocate_and_encrypt_new_lwe_ciphertext(&key, 4 << 60, noise, &mut rng).unwrap();
/// add_plaintext_to_lwe_ciphertext_assign(&mut ct, 9 << 60);
/// assert_eq!(decrypt_lwe_ciphertext(&key, &ct).unwrap().wrapping_add(1 << 59) >> 60, 13);
/// ```
pub fn add_plaintext_to_lwe_ciphertext_assign<C>(ct: &mut LweCiphertext<C>, plaintext: u64)
where
    C: AsRef<[u64]> + AsMut<[u64]>,
{
    let (_, body) = ct.mask_and_body_mut();
    *body = body.wrapping_add(plaintext);
}

/// `lhs[i] += rhs[i]` for every ciphertext of two lists of the same size and count.
///
/// This is the CPU reference of the batched GPU kernel `cuda_add_lwe_ciphertext_list_assign`.
///
/// ```
/// use gpufhe::core_crypto::{add_lwe_ciphertext_list_assign, LweCiphertextList, LweSize};
/// let mut a = LweCiphertextList::from_container(vec![1u64, 2, 3, 4], LweSize(2)).unwrap();
/// let b = LweCiphertextList::from_container(vec![10u64, 20, 30, 40], LweSize(2)).unwrap();
/// add_lwe_ciphertext_list_assign(&mut a, &b).unwrap();
/// assert_eq!(a.as_slice(), &[11, 22, 33, 44]);
/// ```
pub fn add_lwe_ciphertext_list_assign<C, D>(
    lhs: &mut LweCiphertextList<C>,
    rhs: &LweCiphertextList<D>,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
    D: AsRef<[u64]>,
{
    check_eq(
        "LWE size of the right list",
        lhs.lwe_size().0,
        rhs.lwe_size().0,
    )?;
    check_eq(
        "ciphertext count of the right list",
        lhs.count().0,
        rhs.count().0,
    )?;
    zip_assign(lhs.as_mut_slice(), rhs.as_slice(), u64::wrapping_add);
    Ok(())
}

fn zip_assign(lhs: &mut [u64], rhs: &[u64], op: impl Fn(u64, u64) -> u64) {
    for (x, y) in lhs.iter_mut().zip(rhs) {
        *x = op(*x, *y);
    }
}
