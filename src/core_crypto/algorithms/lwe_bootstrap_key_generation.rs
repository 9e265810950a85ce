//! Generation of bootstrap keys (plain and seeded) and their conversion to the
//! Fourier domain.

use super::ggsw_encryption::encrypt_ggsw_rows;
use super::lwe_encryption::{draw_in_parallel, expand_seeded_rows};
use super::tfhe_rs_layout::permute_ggsw_rows;
use crate::core_crypto::commons::{DecompositionBaseLog, DecompositionLevelCount};
use crate::core_crypto::entities::{
    check_decomposition, BootstrapKeyShape, FourierLweBootstrapKey, GlweSecretKey, LweBootstrapKey,
    LweSecretKey, SeededLweBootstrapKey,
};
use crate::core_crypto::fft::fft_for;
use crate::core_crypto::random::{CompressionSeed, EncryptionRandomGenerator, NoiseDistribution};
use crate::error::Result;
use tfhe_fft::c64;

/// Generates a bootstrap key: a GGSW encryption of every bit of `input_key` under
/// `output_key`.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let lwe_key = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
/// let poly = PolynomialSize(256);
/// let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), poly, &mut secret).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
/// let bsk = generate_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, &mut rng).unwrap();
/// assert_eq!(bsk.shape().input_lwe_dimension, LweDimension(16));
/// // GGSW i encrypts the bit s_i: its rows are (component, level), and the first row of
/// // the body component (row k * l = 2) encrypts s_i * 2^(64 - 15) as a constant.
/// let (ggsw, row) = (bsk.shape().ggsw_size(), 2 * poly.0);
/// for (i, &bit) in lwe_key.as_slice().iter().enumerate() {
///     let rows = &bsk.as_slice()[i * ggsw..(i + 1) * ggsw];
///     let body_row = GlweCiphertext::from_container(&rows[2 * row..3 * row], poly).unwrap();
///     let mut phase = vec![0u64; poly.0];
///     decrypt_glwe_ciphertext(&glwe_key, &body_row, &mut phase).unwrap();
///     assert_eq!(phase[0].wrapping_add(1 << 48) >> 49, bit);
/// }
/// ```
pub fn generate_lwe_bootstrap_key(
    input_key: &LweSecretKey,
    output_key: &GlweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
) -> Result<LweBootstrapKey> {
    let shape = bsk_shape(input_key, output_key, base_log, level, noise)?;
    let mut data = vec![0u64; shape.ggsw_size() * input_key.lwe_dimension().0];
    encrypt_bootstrap_key(input_key, output_key, shape, noise, rng, &mut data, true);
    Ok(LweBootstrapKey { data, shape })
}

/// Generates a bootstrap key as a seed and its body polynomials; the masks come from
/// `mask_seed`, the noise from `rng`. Expands with
/// [`SeededLweBootstrapKey::decompress`] to exactly what
/// [`generate_lwe_bootstrap_key`] gives with the same mask seed and noise state.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let lwe_key = LweSecretKey::generate_binary(LweDimension(8), &mut secret);
/// let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
/// let (mask_seed, noise_seed) = (CompressionSeed::from_os().unwrap(), Seed::from_os().unwrap());
/// // The same masks and noise, with and without the compression.
/// let mut rng = EncryptionRandomGenerator::from_seeds_insecure(mask_seed, noise_seed);
/// let plain = generate_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, &mut rng).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(0), noise_seed);
/// let seeded =
///     generate_seeded_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, mask_seed, &mut rng).unwrap();
/// assert_eq!(seeded.decompress(), plain);
/// // Only the bodies are stored: half of the key for k = 1.
/// assert_eq!(2 * seeded.bodies().len(), plain.as_slice().len());
/// ```
pub fn generate_seeded_lwe_bootstrap_key(
    input_key: &LweSecretKey,
    output_key: &GlweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
    mask_seed: CompressionSeed,
    rng: &mut EncryptionRandomGenerator,
) -> Result<SeededLweBootstrapKey> {
    let shape = bsk_shape(input_key, output_key, base_log, level, noise)?;
    rng.reseed_masks(mask_seed);
    let n = shape.polynomial_size.0;
    let mut bodies = vec![0u64; shape.rows_per_ggsw() * n * input_key.lwe_dimension().0];
    encrypt_bootstrap_key(input_key, output_key, shape, noise, rng, &mut bodies, false);
    Ok(SeededLweBootstrapKey {
        bodies,
        seed: mask_seed,
        shape,
    })
}

impl SeededLweBootstrapKey {
    /// Regenerates the masks from the seed: the full standard-domain key.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(8), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
    /// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// let seeded =
    ///     generate_seeded_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, CompressionSeed::new(2), &mut rng).unwrap();
    /// let bsk = seeded.decompress();
    /// assert_eq!(bsk.shape(), seeded.shape());
    /// // Each GLWE row gets its mask back in front of its stored body: the first body
    /// // stored (TFHE-rs's order: level 2, component 0) is gpufhe's row 1 of GGSW 0.
    /// assert_eq!(&bsk.as_slice()[192..256], &seeded.bodies()[..64]);
    /// ```
    pub fn decompress(&self) -> LweBootstrapKey {
        let n = self.shape.polynomial_size.0;
        let mask_len = self.shape.glwe_dimension.0 * n;
        let mut data = expand_seeded_rows(self.seed, &self.bodies, mask_len, n);
        permute_ggsw_rows(&mut data, &self.shape, mask_len + n, true);
        LweBootstrapKey {
            data,
            shape: self.shape,
        }
    }
}

impl FourierLweBootstrapKey {
    /// Converts every polynomial of a standard-domain key to the Fourier domain.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(8), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
    /// let bsk = generate_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, &mut rng).unwrap();
    /// let fourier = FourierLweBootstrapKey::from_standard(&bsk);
    /// assert_eq!(fourier.shape(), bsk.shape());
    /// // Every polynomial of N integers becomes N / 2 complex numbers.
    /// assert_eq!(2 * fourier.as_slice().len(), bsk.as_slice().len());
    /// ```
    pub fn from_standard(key: &LweBootstrapKey) -> Self {
        use rayon::prelude::*;
        let n = key.shape.polynomial_size;
        let fft = fft_for(n);
        let half = n.to_fourier_polynomial_size();
        let mut data = vec![c64::default(); key.data.len() / 2];
        // On the rayon pool, a GGSW ciphertext's polynomials at a time.
        let polys = key.shape.ggsw_size() / n.0;
        data.par_chunks_mut(polys * half)
            .zip(key.data.par_chunks(polys * n.0))
            .for_each_init(
                || fft.make_scratch(),
                |scratch, (out, ggsw)| {
                    for (out, poly) in out.chunks_exact_mut(half).zip(ggsw.chunks_exact(n.0)) {
                        fft.forward_as_integer(out, poly, scratch);
                    }
                },
            );
        Self {
            data,
            shape: key.shape,
        }
    }
}

/// Encrypts the GGSW ciphertext of every bit of `input_key` under `output_key`, in
/// key order (on the rayon pool, the values of one generator drawing in order), into
/// `out`: whole GGSW ciphertexts (`with_masks`), or the bodies of their rows alone
/// for a seeded key.
fn encrypt_bootstrap_key(
    input_key: &LweSecretKey,
    output_key: &GlweSecretKey,
    shape: BootstrapKeyShape,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
    out: &mut [u64],
    with_masks: bool,
) {
    let n = shape.polynomial_size.0;
    let mask_len = shape.glwe_dimension.0 * n;
    let rows = shape.rows_per_ggsw();
    let piece = rows * if with_masks { mask_len + n } else { n };
    let draws = (
        (rows * mask_len) as u64,
        (rows * n) as u64 * noise.draws_per_sample(),
    );
    draw_in_parallel(
        rng,
        out,
        piece,
        draws,
        || (),
        |_, i, out, rng| {
            // One row per GLWE encryption: mask then body, or the body alone.
            // Plain keys in gpufhe's row order, seeded bodies in the order drawn
            // (TFHE-rs's).
            let mut glwe_rows: Vec<&mut [u64]> = out.chunks_exact_mut(piece / rows).collect();
            let mut drawn = 0;
            let bit = input_key.as_slice()[i];
            let (base_log, level) = (shape.base_log, shape.level);
            encrypt_ggsw_rows(
                output_key,
                bit,
                base_log,
                level,
                noise,
                rng,
                |r, mask, body| {
                    let row = &mut glwe_rows[if with_masks { r } else { drawn }];
                    drawn += 1;
                    let (m, b) = row.split_at_mut(row.len() - body.len());
                    m.copy_from_slice(if with_masks { mask } else { &[] });
                    b.copy_from_slice(body);
                },
            );
        },
    );
}

fn bsk_shape(
    input_key: &LweSecretKey,
    output_key: &GlweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
) -> Result<BootstrapKeyShape> {
    check_decomposition(base_log, level)?;
    noise.validate()?;
    Ok(BootstrapKeyShape {
        input_lwe_dimension: input_key.lwe_dimension(),
        glwe_dimension: output_key.glwe_dimension(),
        polynomial_size: output_key.polynomial_size(),
        base_log,
        level,
    })
}

#[cfg(test)]
mod tests {
    use crate::core_crypto::*;

    /// Keys (keyswitching, bootstrap and packing keys, plain and seeded) are
    /// generated on the rayon pool from forks of the generator: the same
    /// values as one generator encrypting every row in order (so a seed gives the
    /// same keys, and compressed keys expand to the same masks, as before), whatever
    /// the thread count, and the generator ends where the sequential run ends.
    #[test]
    fn parallel_key_generation_draws_what_one_generator_draws_in_order() {
        let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([3; 32]));
        let small = LweSecretKey::generate_binary(LweDimension(37), &mut secret);
        let big = LweSecretKey::generate_binary(LweDimension(70), &mut secret);
        let n = PolynomialSize(64);
        let glwe = GlweSecretKey::generate_binary(GlweDimension(2), n, &mut secret).unwrap();
        let mask_seed = CompressionSeed::new(5);
        let fresh = || EncryptionRandomGenerator::from_seeds_insecure(mask_seed, Seed([6; 32]));
        let (b, l) = (DecompositionBaseLog(6), DecompositionLevelCount(3));
        for noise in [
            NoiseDistribution::TUniform { log2_bound: 20 },
            NoiseDistribution::Gaussian { std_dev: 1e-9 },
        ] {
            // The sequential references: one ciphertext after the other, and the
            // noise sample each generator draws next. Keyswitching key ciphertexts
            // are drawn in TFHE-rs's order (least significant level first) and
            // stored in gpufhe's (most significant first).
            let mut rng = fresh();
            let mut ksk = Vec::new();
            for &s in big.as_slice() {
                let mut levels = Vec::new();
                for j in (1..=l.0).rev() {
                    let mut ct = LweCiphertextOwned::new_zero(small.lwe_dimension().to_lwe_size());
                    let m = s.wrapping_mul(1 << (64 - j * b.0));
                    encrypt_lwe_ciphertext(&small, &mut ct, m, noise, &mut rng).unwrap();
                    levels.push(ct);
                }
                for ct in levels.iter().rev() {
                    ksk.extend_from_slice(ct.as_slice());
                }
            }
            let after_ksk = rng.noise(noise).unwrap();
            let mut rng = fresh();
            let mut bsk = Vec::new();
            for &bit in small.as_slice() {
                let mut ggsw = GgswCiphertextOwned::new_zero(GlweSize(3), n, b, l).unwrap();
                encrypt_ggsw_ciphertext(&glwe, &mut ggsw, bit, noise, &mut rng).unwrap();
                bsk.extend_from_slice(ggsw.as_slice());
            }
            let after_bsk = rng.noise(noise).unwrap();
            let mut rng = fresh();
            // Packing keys too: drawn in TFHE-rs's level order, expanded to gpufhe's.
            let mut packing = Vec::new();
            for &s in big.as_slice() {
                let mut levels = Vec::new();
                for j in (1..=l.0).rev() {
                    let mut ct = GlweCiphertextOwned::new_zero(GlweSize(3), n).unwrap();
                    let mut m = vec![0u64; n.0];
                    m[0] = s.wrapping_mul(1 << (64 - j * b.0));
                    encrypt_glwe_ciphertext(&glwe, &mut ct, &m, noise, &mut rng).unwrap();
                    levels.push(ct);
                }
                for ct in levels.iter().rev() {
                    packing.extend_from_slice(ct.as_slice());
                }
            }
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| {
                    let what = format!("{threads} threads, {noise:?}");
                    let mut rng = fresh();
                    let key =
                        generate_lwe_keyswitch_key(&big, &small, b, l, noise, &mut rng).unwrap();
                    assert!(key.as_slice() == ksk, "keyswitching key, {what}");
                    assert_eq!(rng.noise(noise).unwrap(), after_ksk, "{what}");
                    let mut rng = fresh();
                    let key =
                        generate_lwe_bootstrap_key(&small, &glwe, b, l, noise, &mut rng).unwrap();
                    assert!(key.as_slice() == bsk, "bootstrap key, {what}");
                    assert_eq!(rng.noise(noise).unwrap(), after_bsk, "{what}");
                    // Seeded keys hold the same bodies and expand to the same masks.
                    let seeded = [
                        generate_seeded_lwe_keyswitch_key(
                            &big,
                            &small,
                            b,
                            l,
                            noise,
                            mask_seed,
                            &mut fresh(),
                        )
                        .map(|k| (k.decompress().as_slice().to_vec(), &ksk)),
                        generate_seeded_lwe_bootstrap_key(
                            &small,
                            &glwe,
                            b,
                            l,
                            noise,
                            mask_seed,
                            &mut fresh(),
                        )
                        .map(|k| (k.decompress().as_slice().to_vec(), &bsk)),
                        generate_seeded_lwe_packing_keyswitch_key(
                            &big,
                            &glwe,
                            b,
                            l,
                            noise,
                            mask_seed,
                            &mut fresh(),
                        )
                        .map(|k| (k.decompress().as_slice().to_vec(), &packing)),
                    ];
                    for (i, key) in seeded.into_iter().enumerate() {
                        let (got, want) = key.unwrap();
                        assert!(
                            &got == want,
                            "seeded key {i} (keyswitching, bootstrap, packing), {what}"
                        );
                    }
                });
            }
        }
    }
}
