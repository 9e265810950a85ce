//! LWE encryption and decryption: `b = <a, s> + m + e`.

use crate::core_crypto::entities::{
    LweCiphertext, LweCiphertextListOwned, LweCiphertextOwned, LweSecretKey,
    SeededLweCiphertextList,
};
use crate::core_crypto::random::{CompressionSeed, EncryptionRandomGenerator, NoiseDistribution};
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

/// Encrypts each of the encoded `plaintexts` under `key` as a seeded list: the
/// masks are drawn one after the other from `mask_seed` (public), the noise from
/// `rng`'s secret noise generator (whose mask stream restarts at `mask_seed`, as for
/// the seeded keys). [`SeededLweCiphertextList::decompress`] gives exactly the
/// ciphertexts [`encrypt_lwe_ciphertext`] writes with a generator whose masks start
/// at `mask_seed` and whose noise is in the same state.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let key = LweSecretKey::generate_binary(LweDimension(64), &mut SecretRandomGenerator::from_os().unwrap());
/// let noise = NoiseDistribution::TUniform { log2_bound: 10 };
/// let (mask_seed, noise_seed) = (CompressionSeed::from_os().unwrap(), Seed::from_os().unwrap());
/// let mut rng = EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(0), noise_seed);
/// let seeded = encrypt_seeded_lwe_ciphertext_list(&key, &[3 << 60, 5 << 60], noise, mask_seed, &mut rng).unwrap();
/// let list = seeded.decompress();
/// let clear: Vec<u64> = list.iter().map(|ct| decrypt_lwe_ciphertext(&key, &ct).unwrap().wrapping_add(1 << 59) >> 60).collect();
/// assert_eq!(clear, vec![3, 5]);
/// // The same ciphertexts as a plain encryption with the same mask seed and noise.
/// let mut rng = EncryptionRandomGenerator::from_seeds_insecure(mask_seed, noise_seed);
/// let first = allocate_and_encrypt_new_lwe_ciphertext(&key, 3 << 60, noise, &mut rng).unwrap();
/// assert_eq!(list.iter().next().unwrap().as_slice(), first.as_slice());
/// ```
pub fn encrypt_seeded_lwe_ciphertext_list(
    key: &LweSecretKey,
    plaintexts: &[u64],
    noise: NoiseDistribution,
    mask_seed: CompressionSeed,
    rng: &mut EncryptionRandomGenerator,
) -> Result<SeededLweCiphertextList> {
    noise.validate()?;
    rng.reseed_masks(mask_seed);
    let mut mask = vec![0u64; key.lwe_dimension().0];
    let bodies = plaintexts
        .iter()
        .map(|&plaintext| encrypt_lwe_into_mask(key.as_slice(), &mut mask, plaintext, noise, rng))
        .collect();
    SeededLweCiphertextList::from_parts(bodies, mask_seed, key.lwe_dimension().to_lwe_size())
}

impl SeededLweCiphertextList {
    /// Regenerates the masks from the seed: the ciphertexts themselves.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let key = LweSecretKey::generate_binary(LweDimension(32), &mut SecretRandomGenerator::from_os().unwrap());
    /// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// let noise = NoiseDistribution::TUniform { log2_bound: 10 };
    /// let seeded = encrypt_seeded_lwe_ciphertext_list(&key, &[9 << 60], noise, CompressionSeed::from_os().unwrap(), &mut rng).unwrap();
    /// let list = seeded.decompress();
    /// assert_eq!((list.lwe_size(), list.count()), (LweSize(33), LweCiphertextCount(1)));
    /// let ct = list.iter().next().unwrap();
    /// assert_eq!(ct.body(), seeded.bodies()[0]);
    /// assert_eq!(decrypt_lwe_ciphertext(&key, &ct).unwrap().wrapping_add(1 << 59) >> 60, 9);
    /// ```
    pub fn decompress(&self) -> LweCiphertextListOwned {
        LweCiphertextListOwned::from_container(self.decompress_words(), self.lwe_size)
            .expect("whole ciphertexts of a valid size")
    }

    /// The words of [`SeededLweCiphertextList::decompress`]'s list.
    pub(crate) fn decompress_words(&self) -> Vec<u64> {
        expand_seeded_rows(self.seed, &self.bodies, self.lwe_size.0 - 1, 1)
    }

    /// [`SeededLweCiphertextList::decompress`] into one owned ciphertext each.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let key = LweSecretKey::generate_binary(LweDimension(32), &mut SecretRandomGenerator::from_os().unwrap());
    /// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// let noise = NoiseDistribution::TUniform { log2_bound: 10 };
    /// let seeded = encrypt_seeded_lwe_ciphertext_list(&key, &[1 << 60, 2 << 60], noise, CompressionSeed::from_os().unwrap(), &mut rng).unwrap();
    /// let cts = seeded.decompress_to_ciphertexts();
    /// assert_eq!(cts[1].as_slice(), seeded.decompress().iter().nth(1).unwrap().as_slice());
    /// ```
    pub fn decompress_to_ciphertexts(&self) -> Vec<LweCiphertextOwned> {
        let data = expand_seeded_rows(self.seed, &self.bodies, self.lwe_size.0 - 1, 1);
        data.chunks_exact(self.lwe_size.0)
            .map(|ct| LweCiphertextOwned::from_container(ct.to_vec()).expect("a whole ciphertext"))
            .collect()
    }
}

/// The rows of a seeded entity (ciphertext lists, keyswitching, packing and bootstrap
/// keys), each a mask of `mask_len` values drawn from `seed` followed by its body of
/// `body_len` values from `bodies`, the masks in order of the stream (drawn on the
/// rayon pool, see [`draw_in_parallel`]).
pub(crate) fn expand_seeded_rows(
    seed: CompressionSeed,
    bodies: &[u64],
    mask_len: usize,
    body_len: usize,
) -> Vec<u64> {
    let mut masks = EncryptionRandomGenerator::masks_only(seed);
    let rows = bodies.len() / body_len.max(1);
    let mut data = vec![0u64; rows * (mask_len + body_len)];
    let draws = (mask_len as u64, 0);
    draw_in_parallel(
        &mut masks,
        &mut data,
        mask_len + body_len,
        draws,
        || (),
        |_, i, row, masks| {
            let (mask, body) = row.split_at_mut(mask_len);
            masks.fill_mask(mask);
            body.copy_from_slice(&bodies[i * body_len..(i + 1) * body_len]);
        },
    );
    data
}

/// Fills `out`, pieces of `len` values (rows of a key, GGSW ciphertexts), on the
/// rayon pool, with exactly the values of filling them one after the other with
/// `rng`: `piece(scratch, i, out_i, rng)` draws `draws.0` mask values and `draws.1`
/// noise words for each piece, so each chunk of pieces starts on a fork of `rng` at
/// the point the sequential run would reach (`scratch()`: per-chunk work space).
/// `rng` ends past every piece. The results do not depend on the thread count.
pub(crate) fn draw_in_parallel<S>(
    rng: &mut EncryptionRandomGenerator,
    out: &mut [u64],
    len: usize,
    draws: (u64, u64),
    scratch: impl Fn() -> S + Sync,
    piece: impl Fn(&mut S, usize, &mut [u64], &mut EncryptionRandomGenerator) + Sync,
) {
    use rayon::prelude::*;
    if len == 0 {
        return;
    }
    let pieces = out.len() / len;
    // A few chunks per thread, for balance; forking costs one ChaCha block.
    let per_chunk = pieces.div_ceil(4 * rayon::current_num_threads()).max(1);
    let start = &*rng;
    out.par_chunks_mut(per_chunk * len)
        .enumerate()
        .for_each(|(c, chunk)| {
            let first = (c * per_chunk) as u64;
            let mut fork = start.fork_after(first * draws.0, first * draws.1);
            let mut work = scratch();
            for (i, out) in chunk.chunks_exact_mut(len).enumerate() {
                piece(&mut work, c * per_chunk + i, out, &mut fork);
            }
        });
    rng.skip(pieces as u64 * draws.0, pieces as u64 * draws.1);
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
