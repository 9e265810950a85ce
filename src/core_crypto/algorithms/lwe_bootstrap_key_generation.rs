//! Generation of bootstrap keys (plain and seeded) and their conversion to the
//! Fourier domain.

use super::ggsw_encryption::encrypt_ggsw_rows;
use crate::core_crypto::commons::{DecompositionBaseLog, DecompositionLevelCount};
use crate::core_crypto::entities::{
    check_decomposition, BootstrapKeyShape, FourierLweBootstrapKey, GlweSecretKey, LweBootstrapKey,
    LweSecretKey, SeededLweBootstrapKey,
};
use crate::core_crypto::fft::fft_for;
use crate::core_crypto::random::{EncryptionRandomGenerator, NoiseDistribution, Seed};
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
    let mut data = Vec::with_capacity(shape.ggsw_size() * input_key.lwe_dimension().0);
    for &bit in input_key.as_slice() {
        encrypt_ggsw_rows(
            output_key,
            bit,
            base_log,
            level,
            noise,
            rng,
            |mask, body| {
                data.extend_from_slice(mask);
                data.extend_from_slice(body);
            },
        );
    }
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
/// let (mask_seed, noise_seed) = (Seed::from_os().unwrap(), Seed::from_os().unwrap());
/// // The same masks and noise, with and without the compression.
/// let mut rng = EncryptionRandomGenerator::from_seeds_insecure(mask_seed, noise_seed);
/// let plain = generate_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, &mut rng).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_seeds_insecure(Seed([0; 32]), noise_seed);
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
    mask_seed: Seed,
    rng: &mut EncryptionRandomGenerator,
) -> Result<SeededLweBootstrapKey> {
    let shape = bsk_shape(input_key, output_key, base_log, level, noise)?;
    rng.reseed_masks(mask_seed);
    let n = shape.polynomial_size.0;
    let mut bodies = Vec::with_capacity(shape.rows_per_ggsw() * n * input_key.lwe_dimension().0);
    for &bit in input_key.as_slice() {
        encrypt_ggsw_rows(output_key, bit, base_log, level, noise, rng, |_, body| {
            bodies.extend_from_slice(body);
        });
    }
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
    ///     generate_seeded_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, Seed([2; 32]), &mut rng).unwrap();
    /// let bsk = seeded.decompress();
    /// assert_eq!(bsk.shape(), seeded.shape());
    /// // Each GLWE row gets its mask back in front of its stored body.
    /// assert_eq!(&bsk.as_slice()[64..128], &seeded.bodies()[..64]);
    /// ```
    pub fn decompress(&self) -> LweBootstrapKey {
        let n = self.shape.polynomial_size.0;
        let mask_len = self.shape.glwe_dimension.0 * n;
        let mut masks = EncryptionRandomGenerator::masks_only(self.seed);
        let mut data = vec![0u64; self.bodies.len() / n * (mask_len + n)];
        for (row, body) in data
            .chunks_exact_mut(mask_len + n)
            .zip(self.bodies.chunks_exact(n))
        {
            let (m, b) = row.split_at_mut(mask_len);
            masks.fill_mask(m);
            b.copy_from_slice(body);
        }
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
        let n = key.shape.polynomial_size;
        let fft = fft_for(n);
        let mut scratch = fft.make_scratch();
        let half = n.to_fourier_polynomial_size();
        let mut data = vec![c64::default(); key.data.len() / 2];
        for (out, poly) in data.chunks_exact_mut(half).zip(key.data.chunks_exact(n.0)) {
            fft.forward_as_integer(out, poly, &mut scratch);
        }
        Self {
            data,
            shape: key.shape,
        }
    }
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
