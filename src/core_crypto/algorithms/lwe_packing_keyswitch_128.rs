//! Packing keyswitch modulo 2^128 (the compression of squashed values, TFHE-rs
//! 1.8's `NoiseSquashingCompressionKey`): many 128-bit LWE ciphertexts into the
//! coefficients of one 128-bit GLWE ciphertext under another key, the keys it
//! needs (plain and seeded), and the extraction of one coefficient back into an LWE
//! ciphertext (no bootstrap: the squashed values keep their tiny noise).
//!
//! The keys are kept in TFHE-rs's layout and mask order: for every coefficient
//! `s_i` of the input key, its levels from `l` (least significant) down to 1, each
//! a GLWE encryption (masks then body, `(k + 1) N` values) of the constant
//! polynomial `s_i 2^(128 - jB)`; the masks of a seeded key are drawn from its seed
//! in that order, 16 bytes per coefficient. The packing itself is the 64-bit one's
//! (`lwe_packing_keyswitch`) on 128-bit words.

use super::lwe_packing_keyswitch::PackingKeyswitchKeyShape;
use super::lwe_programmable_bootstrapping_128::{decompose_128, encrypt_glwe_128, fill_mask_128};
use crate::core_crypto::commons::{
    DecompositionBaseLog, DecompositionLevelCount, GlweDimension, LweDimension, PolynomialSize,
};
use crate::core_crypto::entities::{
    check_container_len, check_decomposition_128, check_dimensions, check_polynomial_size,
    GlweSecretKey, LweCiphertext128,
};
use crate::core_crypto::random::{CompressionSeed, EncryptionRandomGenerator, NoiseDistribution};
use crate::error::{check_eq, Error, Result};
use rayon::prelude::*;

/// `Err` unless the shape is one a 128-bit packing keyswitching key may have.
fn validate_shape_128(shape: &PackingKeyswitchKeyShape) -> Result<()> {
    check_dimensions(
        "128-bit packing keyswitching key",
        &[shape.input_lwe_dimension.0, shape.output_glwe_dimension.0],
    )?;
    check_polynomial_size(shape.output_polynomial_size)?;
    check_decomposition_128(shape.base_log, shape.level)
}

/// A 128-bit packing keyswitching key (TFHE-rs's layout, see the module).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LwePackingKeyswitchKey128 {
    pub(crate) data: Vec<u128>,
    pub(crate) shape: PackingKeyswitchKeyShape,
}

/// A seeded 128-bit packing keyswitching key: the body polynomial of each GLWE
/// ciphertext (TFHE-rs's order) and the seed of its masks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeededLwePackingKeyswitchKey128 {
    pub(crate) bodies: Vec<u128>,
    pub(crate) seed: CompressionSeed,
    pub(crate) shape: PackingKeyswitchKeyShape,
}

impl LwePackingKeyswitchKey128 {
    /// The key of this data (TFHE-rs's layout) and shape; `Err` unless the shape is
    /// valid and the data has its length.
    pub fn from_container(data: Vec<u128>, shape: PackingKeyswitchKeyShape) -> Result<Self> {
        validate_shape_128(&shape)?;
        check_container_len(
            "128-bit packing keyswitching key",
            &[shape.ciphertext_count(), shape.glwe_len()],
            data.len(),
        )?;
        Ok(Self { data, shape })
    }

    /// Its shape.
    pub fn shape(&self) -> PackingKeyswitchKeyShape {
        self.shape
    }

    /// Its GLWE ciphertexts, in TFHE-rs's order.
    pub fn as_slice(&self) -> &[u128] {
        &self.data
    }
}

impl SeededLwePackingKeyswitchKey128 {
    /// The key of these bodies, seed and shape; `Err` unless the shape is valid and
    /// there is one body polynomial per GLWE ciphertext.
    pub fn from_parts(
        bodies: Vec<u128>,
        seed: CompressionSeed,
        shape: PackingKeyswitchKeyShape,
    ) -> Result<Self> {
        validate_shape_128(&shape)?;
        check_container_len(
            "seeded 128-bit packing keyswitching key",
            &[shape.ciphertext_count(), shape.output_polynomial_size.0],
            bodies.len(),
        )?;
        Ok(Self {
            bodies,
            seed,
            shape,
        })
    }

    /// Its shape.
    pub fn shape(&self) -> PackingKeyswitchKeyShape {
        self.shape
    }

    /// The seed of its masks.
    pub fn seed(&self) -> CompressionSeed {
        self.seed
    }

    /// The body polynomials.
    pub fn bodies(&self) -> &[u128] {
        &self.bodies
    }

    /// The key with its masks regenerated from the seed, on the rayon pool.
    pub fn decompress(&self) -> LwePackingKeyswitchKey128 {
        let shape = self.shape;
        let (n, glwe_len) = (shape.output_polynomial_size.0, shape.glwe_len());
        let mask_words = (2 * shape.output_glwe_dimension.0 * n) as u64;
        let mut data = vec![0u128; shape.ciphertext_count() * glwe_len];
        data.par_chunks_mut(glwe_len)
            .zip(self.bodies.par_chunks(n))
            .enumerate()
            .for_each(|(r, (glwe, body))| {
                let mut rng = EncryptionRandomGenerator::masks_only(self.seed);
                rng.skip(r as u64 * mask_words, 0);
                let (mask, b) = glwe.split_at_mut(glwe_len - n);
                fill_mask_128(&mut rng, mask);
                b.copy_from_slice(body);
            });
        LwePackingKeyswitchKey128 { data, shape }
    }
}

/// Generates a seeded 128-bit packing keyswitching key from `input_key` (a 128-bit
/// binary GLWE key read as an LWE key) to `output_key`: the masks from `mask_seed`,
/// the noise from `rng` (TUniform), on the rayon pool.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let input = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
/// let output = GlweSecretKey::generate_binary(GlweDimension(2), PolynomialSize(64), &mut secret).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 3 };
/// let key = generate_seeded_lwe_packing_keyswitch_key_128(
///     &input, &output, DecompositionBaseLog(41), DecompositionLevelCount(2), noise,
///     CompressionSeed::from_os().unwrap(), &mut rng,
/// ).unwrap().decompress();
/// let cts: Vec<_> = (0..5u128)
///     .map(|m| encrypt_lwe_ciphertext_128(&input, m << 124, noise, &mut rng).unwrap())
///     .collect();
/// let glwe = keyswitch_lwe_ciphertexts_into_glwe_128(&key, &cts).unwrap();
/// for m in 0..5usize {
///     let ct = extract_lwe_sample_128(&glwe, output.glwe_dimension(), m).unwrap();
///     let phase = decrypt_lwe_ciphertext_128(&output, &ct).unwrap();
///     assert_eq!(phase.wrapping_add(1 << 123) >> 124, m as u128);
/// }
/// ```
pub fn generate_seeded_lwe_packing_keyswitch_key_128(
    input_key: &GlweSecretKey,
    output_key: &GlweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
    mask_seed: CompressionSeed,
    rng: &mut EncryptionRandomGenerator,
) -> Result<SeededLwePackingKeyswitchKey128> {
    if !matches!(noise, NoiseDistribution::TUniform { .. }) {
        return Err(Error::InvalidParameter(
            "128-bit keys take a TUniform noise distribution (TFHE-rs 1.8's parameters)".into(),
        ));
    }
    noise.validate()?;
    let shape = PackingKeyswitchKeyShape {
        input_lwe_dimension: LweDimension(input_key.lwe_dimension().0),
        output_glwe_dimension: output_key.glwe_dimension(),
        output_polynomial_size: output_key.polynomial_size(),
        base_log,
        level,
    };
    validate_shape_128(&shape)?;
    rng.reseed_masks(mask_seed);
    let (n, k) = (
        shape.output_polynomial_size.0,
        shape.output_glwe_dimension.0,
    );
    let mask_words = (2 * k * n) as u64;
    let noise_draws = n as u64 * noise.draws_per_sample();
    let mut bodies = vec![0u128; shape.ciphertext_count() * n];
    let input = input_key.as_slice();
    let start = &*rng;
    bodies.par_chunks_mut(n).enumerate().for_each(|(r, body)| {
        let mut fork = start.fork_after(r as u64 * mask_words, r as u64 * noise_draws);
        let (s, j) = (input[r / level.0], level.0 - r % level.0);
        let mut plaintext = vec![0u128; n];
        plaintext[0] = u128::from(s) << (128 - j * base_log.0);
        let mut mask = vec![0u128; k * n];
        encrypt_glwe_128(output_key, &mut mask, body, &plaintext, noise, &mut fork);
    });
    let count = shape.ciphertext_count() as u64;
    rng.skip(count * mask_words, count * noise_draws);
    Ok(SeededLwePackingKeyswitchKey128 {
        bodies,
        seed: mask_seed,
        shape,
    })
}

/// Packs `inputs` (at most `N`, under the key's input key) into one 128-bit GLWE
/// ciphertext (`(k + 1) N` values) under its output key: coefficient `t` of its
/// phase is the phase of `inputs[t]`. Each output polynomial is computed on its own
/// thread. See [`generate_seeded_lwe_packing_keyswitch_key_128`].
pub fn keyswitch_lwe_ciphertexts_into_glwe_128(
    key: &LwePackingKeyswitchKey128,
    inputs: &[LweCiphertext128],
) -> Result<Vec<u128>> {
    let shape = key.shape;
    let n = shape.output_polynomial_size.0;
    if inputs.len() > n {
        return Err(Error::InvalidParameter(format!(
            "{} ciphertexts do not pack into a GLWE ciphertext of {n} coefficients",
            inputs.len()
        )));
    }
    for input in inputs {
        check_eq(
            "LWE dimension of a packed 128-bit ciphertext",
            shape.input_lwe_dimension.0,
            input.lwe_dimension().0,
        )?;
    }
    let (levels, base_log) = (shape.level.0, shape.base_log.0);
    let count = inputs.len();
    // digits[(i * levels + r) * count + t]: the digit of key row r (level l - r) of
    // mask coefficient i of input t.
    let mut digits = vec![0u128; shape.ciphertext_count() * count];
    let mut scratch = vec![0u128; levels];
    for (t, input) in inputs.iter().enumerate() {
        for (i, &a) in input.mask().iter().enumerate() {
            decompose_128(a, base_log, levels, &mut scratch);
            for (r, &d) in scratch.iter().enumerate() {
                digits[(i * levels + r) * count + t] = d;
            }
        }
    }
    let glwe_len = shape.glwe_len();
    let body_start = glwe_len - n;
    let mut out = vec![0u128; glwe_len];
    out.par_chunks_exact_mut(n)
        .enumerate()
        .for_each(|(c, poly)| {
            if c * n == body_start {
                for (t, input) in inputs.iter().enumerate() {
                    poly[t] = input.body();
                }
            }
            if count == 0 {
                return;
            }
            for (row, row_digits) in key
                .data
                .chunks_exact(glwe_len)
                .zip(digits.chunks_exact(count))
            {
                let k_poly = &row[c * n..(c + 1) * n];
                for (t, &d) in row_digits.iter().enumerate() {
                    if d != 0 {
                        sub_scaled_rotated_128(poly, k_poly, d, t);
                    }
                }
            }
        });
    Ok(out)
}

/// `out -= d * X^t * p` modulo `X^N + 1` and 2^128.
#[inline]
fn sub_scaled_rotated_128(out: &mut [u128], p: &[u128], d: u128, t: usize) {
    let n = out.len();
    let (low, high) = out.split_at_mut(t);
    for (o, &x) in high.iter_mut().zip(&p[..n - t]) {
        *o = o.wrapping_sub(x.wrapping_mul(d));
    }
    for (o, &x) in low.iter_mut().zip(&p[n - t..]) {
        *o = o.wrapping_add(x.wrapping_mul(d));
    }
}

/// The LWE ciphertext (under the GLWE key read as an LWE key) of coefficient `t`
/// of a 128-bit GLWE ciphertext of dimension `glwe_dimension`; `Err` for a
/// ciphertext of another size or `t` out of range.
pub fn extract_lwe_sample_128(
    glwe: &[u128],
    glwe_dimension: GlweDimension,
    t: usize,
) -> Result<LweCiphertext128> {
    let k = glwe_dimension.0;
    let n = glwe.len().checked_div(k + 1).unwrap_or(0);
    if n == 0 || n * (k + 1) != glwe.len() || t >= n {
        return Err(Error::InvalidParameter(format!(
            "coefficient {t} of a GLWE ciphertext of {} values and dimension {k}",
            glwe.len()
        )));
    }
    check_polynomial_size(PolynomialSize(n))?;
    let mut data = vec![0u128; k * n + 1];
    for (c, out) in data[..k * n].chunks_exact_mut(n).enumerate() {
        let a = &glwe[c * n..(c + 1) * n];
        for (j, o) in out.iter_mut().enumerate() {
            *o = if j <= t {
                a[t - j]
            } else {
                a[n + t - j].wrapping_neg()
            };
        }
    }
    data[k * n] = glwe[k * n + t];
    LweCiphertext128::from_container(data)
}
