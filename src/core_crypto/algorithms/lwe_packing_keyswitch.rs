//! Packing keyswitch: many LWE ciphertexts into the coefficients of one GLWE
//! ciphertext under another key, and the keys it needs (plain and seeded).
//!
//! The key holds, for every coefficient `s_i` of the input LWE key and level `j`, a
//! GLWE encryption of the constant polynomial `s_i / B^j` under the output GLWE key.
//! Ciphertext `t` of the list is keyswitched like an LWE ciphertext, with GLWE rows
//! instead of LWE rows, and lands at coefficient `t` after a multiplication by
//! `X^t`: `out = sum_t X^t ((0, b_t) - sum_ij d_tij * K_ij)`. Every coefficient of
//! the result carries the keyswitch noise of every packed ciphertext, so the noise
//! grows with the number of ciphertexts packed.

use super::decomposition::SignedDecomposer;
use super::glwe_encryption::encrypt_glwe_into_mask;
use super::lwe_encryption::{draw_in_parallel, expand_seeded_rows};
use super::tfhe_rs_layout::reverse_levels;
use crate::core_crypto::commons::{
    DecompositionBaseLog, DecompositionLevelCount, GlweDimension, GlweSize, LweDimension,
    PolynomialSize,
};
use crate::core_crypto::entities::{
    check_container_len, check_decomposition, check_dimensions, check_polynomial_size,
    GlweCiphertextOwned, GlweSecretKey, LweCiphertext, LweSecretKey,
};
use crate::core_crypto::random::{CompressionSeed, EncryptionRandomGenerator, NoiseDistribution};
use crate::error::{check_eq, Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

thread_local! {
    /// Whether the seeded packing keys being read come from gpufhe's own format
    /// before it drew their masks in TFHE-rs's order (format version 5).
    static READING_OLD_PACKING_ORDER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with the deserialization of [`SeededLwePackingKeyswitchKey`] refusing
/// the keys of gpufhe's own format before version 5 (whose masks were drawn in
/// another order) when `legacy`; restored afterwards.
pub(crate) fn with_legacy_packing_order<R>(legacy: bool, f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            READING_OLD_PACKING_ORDER.with(|v| v.set(self.0));
        }
    }
    let _restore = Restore(READING_OLD_PACKING_ORDER.with(|v| v.replace(legacy)));
    f()
}

/// The shape of a packing keyswitching key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackingKeyswitchKeyShape {
    /// Dimension of the key the input LWE ciphertexts are encrypted under.
    pub input_lwe_dimension: LweDimension,
    /// `k` of the output GLWE key.
    pub output_glwe_dimension: GlweDimension,
    /// `N` of the output GLWE key: at most this many ciphertexts pack into one.
    pub output_polynomial_size: PolynomialSize,
    /// `log2(B)` of the decomposition.
    pub base_log: DecompositionBaseLog,
    /// Number of levels of the decomposition.
    pub level: DecompositionLevelCount,
}

impl PackingKeyswitchKeyShape {
    /// Number of GLWE ciphertexts in the key: one per input coefficient and level.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let shape = PackingKeyswitchKeyShape {
    ///     input_lwe_dimension: LweDimension(2048),
    ///     output_glwe_dimension: GlweDimension(1),
    ///     output_polynomial_size: PolynomialSize(2048),
    ///     base_log: DecompositionBaseLog(20),
    ///     level: DecompositionLevelCount(1),
    /// };
    /// assert_eq!(shape.ciphertext_count(), 2048);
    /// ```
    pub fn ciphertext_count(&self) -> usize {
        self.input_lwe_dimension.0 * self.level.0
    }

    /// Coefficients of one GLWE ciphertext of the key, `(k + 1) * N`.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let shape = PackingKeyswitchKeyShape {
    ///     input_lwe_dimension: LweDimension(2048),
    ///     output_glwe_dimension: GlweDimension(1),
    ///     output_polynomial_size: PolynomialSize(2048),
    ///     base_log: DecompositionBaseLog(20),
    ///     level: DecompositionLevelCount(1),
    /// };
    /// assert_eq!(shape.glwe_len(), 2 * 2048);
    /// ```
    pub fn glwe_len(&self) -> usize {
        (self.output_glwe_dimension.0 + 1) * self.output_polynomial_size.0
    }

    /// `Err` unless the dimensions are in `[1, 2^17]`, `N` is a valid polynomial size
    /// and the decomposition is valid.
    pub(crate) fn validate(&self) -> Result<()> {
        check_dimensions(
            "packing keyswitching key",
            &[self.input_lwe_dimension.0, self.output_glwe_dimension.0],
        )?;
        check_polynomial_size(self.output_polynomial_size)?;
        check_decomposition(self.base_log, self.level)
    }
}

/// A packing keyswitching key (see the module docs). Layout: input coefficient,
/// level (1 first), then the `(k + 1) * N` coefficients of a GLWE ciphertext
/// (TFHE-rs stores the levels the other way, `l` first: `tfhe_rs_layout`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "PackingKeyParts")]
pub struct LwePackingKeyswitchKey {
    pub(crate) data: Vec<u64>,
    pub(crate) shape: PackingKeyswitchKeyShape,
}

#[derive(Deserialize)]
struct PackingKeyParts {
    data: Vec<u64>,
    shape: PackingKeyswitchKeyShape,
}

impl TryFrom<PackingKeyParts> for LwePackingKeyswitchKey {
    type Error = Error;

    fn try_from(parts: PackingKeyParts) -> Result<Self> {
        parts.shape.validate()?;
        check_container_len(
            "number of coefficients of the packing keyswitching key",
            &[parts.shape.ciphertext_count(), parts.shape.glwe_len()],
            parts.data.len(),
        )?;
        Ok(Self {
            data: parts.data,
            shape: parts.shape,
        })
    }
}

/// A packing keyswitching key as a seed and its body polynomials, `k + 1` times
/// smaller; [`SeededLwePackingKeyswitchKey::decompress`] regenerates the masks.
/// The bodies are stored, and the masks drawn, in TFHE-rs's order (per input
/// coefficient, the least significant level first), so that the key is TFHE-rs's
/// `SeededLwePackingKeyswitchKey` with the same seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SeededPackingKeyParts")]
pub struct SeededLwePackingKeyswitchKey {
    pub(crate) bodies: Vec<u64>,
    pub(crate) seed: CompressionSeed,
    pub(crate) shape: PackingKeyswitchKeyShape,
}

#[derive(Deserialize)]
struct SeededPackingKeyParts {
    bodies: Vec<u64>,
    seed: CompressionSeed,
    shape: PackingKeyswitchKeyShape,
}

impl TryFrom<SeededPackingKeyParts> for SeededLwePackingKeyswitchKey {
    type Error = Error;

    fn try_from(parts: SeededPackingKeyParts) -> Result<Self> {
        if READING_OLD_PACKING_ORDER.with(|v| v.get()) {
            return Err(Error::InvalidParameter(
                "a seeded packing keyswitching key of gpufhe's format before version 5, whose \
                 masks are drawn in an order this version of gpufhe no longer uses: generate \
                 the compression keys again (or keep the expanded ServerKey)"
                    .into(),
            ));
        }
        parts.shape.validate()?;
        check_container_len(
            "number of bodies of the seeded packing keyswitching key",
            &[
                parts.shape.ciphertext_count(),
                parts.shape.output_polynomial_size.0,
            ],
            parts.bodies.len(),
        )?;
        Ok(Self {
            bodies: parts.bodies,
            seed: parts.seed,
            shape: parts.shape,
        })
    }
}

impl LwePackingKeyswitchKey {
    /// The key's dimensions and decomposition.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(32), &mut secret).unwrap();
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(8), DecompositionLevelCount(3));
    /// let seeded = generate_seeded_lwe_packing_keyswitch_key(&lwe_key, &glwe_key, b, l, noise, CompressionSeed::new(1), &mut rng).unwrap();
    /// let key = seeded.decompress();
    /// assert_eq!(key.shape().input_lwe_dimension, LweDimension(16));
    /// assert_eq!(key.shape().output_polynomial_size, PolynomialSize(32));
    /// ```
    pub fn shape(&self) -> PackingKeyswitchKeyShape {
        self.shape
    }

    /// All coefficients.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(32), &mut secret).unwrap();
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(8), DecompositionLevelCount(3));
    /// let seeded = generate_seeded_lwe_packing_keyswitch_key(&lwe_key, &glwe_key, b, l, noise, CompressionSeed::new(1), &mut rng).unwrap();
    /// let key = seeded.decompress();
    /// let shape = key.shape();
    /// // One GLWE ciphertext per input coefficient and level.
    /// assert_eq!(key.as_slice().len(), shape.ciphertext_count() * shape.glwe_len());
    /// ```
    pub fn as_slice(&self) -> &[u64] {
        &self.data
    }
}

impl SeededLwePackingKeyswitchKey {
    /// The key's dimensions and decomposition.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(32), &mut secret).unwrap();
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// let (b, l) = (DecompositionBaseLog(8), DecompositionLevelCount(3));
    /// let seeded = generate_seeded_lwe_packing_keyswitch_key(&lwe_key, &glwe_key, b, l, noise, CompressionSeed::new(1), &mut rng).unwrap();
    /// assert_eq!(seeded.shape().level, l);
    /// assert_eq!(seeded.shape().ciphertext_count(), 16 * 3);
    /// ```
    pub fn shape(&self) -> PackingKeyswitchKeyShape {
        self.shape
    }

    /// Regenerates the masks from the seed: the full key.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(32), &mut secret).unwrap();
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(8), DecompositionLevelCount(3));
    /// let seeded = generate_seeded_lwe_packing_keyswitch_key(&lwe_key, &glwe_key, b, l, noise, CompressionSeed::new(1), &mut rng).unwrap();
    /// let key = seeded.decompress();
    /// assert_eq!(key.shape(), seeded.shape());
    /// // The masks come from the seed: the same seed gives the same key.
    /// assert_eq!(key.as_slice()[..32], seeded.decompress().as_slice()[..32]);
    /// ```
    pub fn decompress(&self) -> LwePackingKeyswitchKey {
        let n = self.shape.output_polynomial_size.0;
        let mask_len = self.shape.output_glwe_dimension.0 * n;
        let mut data = expand_seeded_rows(self.seed, &self.bodies, mask_len, n);
        reverse_levels(&mut data, self.shape.level.0, mask_len + n);
        LwePackingKeyswitchKey {
            data,
            shape: self.shape,
        }
    }
}

/// Generates a seeded packing keyswitching key from `input_key` to `output_key`:
/// masks from `mask_seed` (public), noise from `rng`.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let lwe_key = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
/// let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(32), &mut secret).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let key = generate_seeded_lwe_packing_keyswitch_key(
///     &lwe_key, &glwe_key, DecompositionBaseLog(8), DecompositionLevelCount(3), noise,
///     CompressionSeed::from_os().unwrap(), &mut rng,
/// ).unwrap().decompress();
/// let cts: Vec<_> = (0..5u64)
///     .map(|m| allocate_and_encrypt_new_lwe_ciphertext(&lwe_key, m << 59, noise, &mut rng).unwrap())
///     .collect();
/// let glwe = keyswitch_lwe_ciphertexts_into_glwe(&key, &cts).unwrap();
/// let mut phase = vec![0u64; 32];
/// decrypt_glwe_ciphertext(&glwe_key, &glwe, &mut phase).unwrap();
/// for m in 0..5u64 {
///     assert_eq!(phase[m as usize].wrapping_add(1 << 58) >> 59, m);
/// }
/// ```
pub fn generate_seeded_lwe_packing_keyswitch_key(
    input_key: &LweSecretKey,
    output_key: &GlweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
    mask_seed: CompressionSeed,
    rng: &mut EncryptionRandomGenerator,
) -> Result<SeededLwePackingKeyswitchKey> {
    noise.validate()?;
    let shape = PackingKeyswitchKeyShape {
        input_lwe_dimension: input_key.lwe_dimension(),
        output_glwe_dimension: output_key.glwe_dimension(),
        output_polynomial_size: output_key.polynomial_size(),
        base_log,
        level,
    };
    shape.validate()?;
    rng.reseed_masks(mask_seed);
    let n = shape.output_polynomial_size.0;
    let mask_len = shape.output_glwe_dimension.0 * n;
    let mut bodies = vec![0u64; shape.ciphertext_count() * n];
    // A body per input coefficient and level (TFHE-rs's order: level l first), on
    // the rayon pool (the values of one generator drawing in order).
    let draws = (mask_len as u64, n as u64 * noise.draws_per_sample());
    let scratch = || (vec![0u64; mask_len], vec![0u64; n]);
    draw_in_parallel(
        rng,
        &mut bodies,
        n,
        draws,
        scratch,
        |(mask, plaintext), i, body, rng| {
            let (s, j) = (input_key.as_slice()[i / level.0], level.0 - i % level.0);
            plaintext[0] = s.wrapping_mul(1u64 << (64 - j * base_log.0));
            encrypt_glwe_into_mask(output_key, mask, body, plaintext, noise, rng);
            plaintext[0] = 0; // a multiple of a secret key coefficient
        },
    );
    Ok(SeededLwePackingKeyswitchKey {
        bodies,
        seed: mask_seed,
        shape,
    })
}

/// Packs `inputs` (at most `N`, under the key's input LWE key) into one GLWE
/// ciphertext under its output key: coefficient `t` of its phase is the phase of
/// `inputs[t]`, the coefficients past the inputs are noise around zero. Each output
/// polynomial is computed on its own thread.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let lwe_key = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
/// let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(32), &mut secret).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let (b, l) = (DecompositionBaseLog(8), DecompositionLevelCount(3));
/// let key = generate_seeded_lwe_packing_keyswitch_key(&lwe_key, &glwe_key, b, l, noise, CompressionSeed::from_os().unwrap(), &mut rng)
///     .unwrap()
///     .decompress();
/// let cts: Vec<_> = [3u64, 1, 4, 1, 5]
///     .iter()
///     .map(|&m| allocate_and_encrypt_new_lwe_ciphertext(&lwe_key, m << 59, noise, &mut rng).unwrap())
///     .collect();
/// let glwe = keyswitch_lwe_ciphertexts_into_glwe(&key, &cts).unwrap();
/// let mut phase = vec![0u64; 32];
/// decrypt_glwe_ciphertext(&glwe_key, &glwe, &mut phase).unwrap();
/// let decoded: Vec<u64> = phase.iter().map(|p| p.wrapping_add(1 << 58) >> 59).collect();
/// assert_eq!(decoded[..6], [3, 1, 4, 1, 5, 0]);
/// // At most N = 32 ciphertexts fit.
/// let too_many = vec![cts[0].clone(); 33];
/// assert!(keyswitch_lwe_ciphertexts_into_glwe(&key, &too_many).is_err());
/// ```
pub fn keyswitch_lwe_ciphertexts_into_glwe<C: AsRef<[u64]> + Sync>(
    key: &LwePackingKeyswitchKey,
    inputs: &[LweCiphertext<C>],
) -> Result<GlweCiphertextOwned> {
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
            "LWE dimension of a packed ciphertext",
            shape.input_lwe_dimension.0,
            input.lwe_dimension().0,
        )?;
    }
    if inputs.is_empty() {
        return GlweCiphertextOwned::new_zero(
            shape.output_glwe_dimension.to_glwe_size(),
            shape.output_polynomial_size,
        );
    }
    let decomposer = SignedDecomposer::new(shape.base_log, shape.level);
    let levels = shape.level.0;
    // digits[(i * levels + j) * count + t]: digit j of mask coefficient i of input t.
    let count = inputs.len();
    let mut digits = vec![0u64; shape.ciphertext_count() * count];
    let mut scratch = vec![0u64; levels];
    for (t, input) in inputs.iter().enumerate() {
        for (i, &a) in input.mask().iter().enumerate() {
            decomposer.decompose_into(a, &mut scratch);
            for (j, &d) in scratch.iter().enumerate() {
                digits[(i * levels + j) * count + t] = d;
            }
        }
    }
    let glwe_len = shape.glwe_len();
    let mut out = vec![0u64; glwe_len];
    let body_start = glwe_len - n;
    out.par_chunks_exact_mut(n)
        .enumerate()
        .for_each(|(c, poly)| {
            if c * n == body_start {
                for (t, input) in inputs.iter().enumerate() {
                    poly[t] = input.body();
                }
            }
            for (row, row_digits) in key
                .data
                .chunks_exact(glwe_len)
                .zip(digits.chunks_exact(count))
            {
                let k_poly = &row[c * n..(c + 1) * n];
                for (t, &d) in row_digits.iter().enumerate() {
                    if d != 0 {
                        // poly -= d * X^t * k_poly (negacyclic).
                        sub_scaled_rotated(poly, k_poly, d, t);
                    }
                }
            }
        });
    GlweCiphertextOwned::from_container(out, shape.output_polynomial_size)
}

/// `out -= d * X^t * p` modulo `X^N + 1`.
#[inline]
fn sub_scaled_rotated(out: &mut [u64], p: &[u64], d: u64, t: usize) {
    let n = out.len();
    let (low, high) = out.split_at_mut(t);
    // Coefficients m < N - t land at m + t; the others wrap to m + t - N, negated.
    for (o, &x) in high.iter_mut().zip(&p[..n - t]) {
        *o = o.wrapping_sub(x.wrapping_mul(d));
    }
    for (o, &x) in low.iter_mut().zip(&p[n - t..]) {
        *o = o.wrapping_add(x.wrapping_mul(d));
    }
}

// TFHE-rs's layout of the packing keyswitching key (`tfhe_rs_layout` explains the
// level order).

/// The shape of a packing keyswitching key of `len` values (`per_coefficient` per
/// input coefficient) in TFHE-rs's form, which stores no input dimension.
fn packing_shape_of(
    len: usize,
    per_coefficient: usize,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    output_glwe_size: GlweSize,
    output_polynomial_size: PolynomialSize,
) -> Result<PackingKeyswitchKeyShape> {
    if per_coefficient == 0 || len % per_coefficient != 0 {
        return Err(Error::InvalidParameter(format!(
            "a packing keyswitching key of {len} values is not a whole number of input \
             coefficients of {per_coefficient} values"
        )));
    }
    let shape = PackingKeyswitchKeyShape {
        input_lwe_dimension: LweDimension(len / per_coefficient),
        output_glwe_dimension: GlweDimension(output_glwe_size.0.saturating_sub(1)),
        output_polynomial_size,
        base_log,
        level,
    };
    shape.validate()?;
    Ok(shape)
}

/// A packing keyswitching key from TFHE-rs's `LwePackingKeyswitchKey` data (levels
/// least significant first, as the LWE keyswitching key); `Err` for inconsistent
/// sizes or an invalid decomposition.
pub(crate) fn lwe_packing_keyswitch_key_from_tfhe_rs_layout(
    mut data: Vec<u64>,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    output_glwe_size: GlweSize,
    output_polynomial_size: PolynomialSize,
) -> Result<LwePackingKeyswitchKey> {
    let row = output_glwe_size.0.saturating_mul(output_polynomial_size.0);
    let per = level.0.saturating_mul(row);
    let shape = packing_shape_of(
        data.len(),
        per,
        base_log,
        level,
        output_glwe_size,
        output_polynomial_size,
    )?;
    reverse_levels(&mut data, level.0, row);
    Ok(LwePackingKeyswitchKey { data, shape })
}

/// TFHE-rs's `LwePackingKeyswitchKey` data of `key`.
pub(crate) fn lwe_packing_keyswitch_key_to_tfhe_rs_layout(
    key: &LwePackingKeyswitchKey,
) -> Vec<u64> {
    let mut data = key.data.clone();
    reverse_levels(&mut data, key.shape.level.0, key.shape.glwe_len());
    data
}

/// A seeded packing keyswitching key from TFHE-rs's `SeededLwePackingKeyswitchKey`
/// parts: its body polynomials as they are (gpufhe's seeded packing keys use
/// TFHE-rs's order).
pub(crate) fn seeded_lwe_packing_keyswitch_key_from_tfhe_rs_parts(
    bodies: Vec<u64>,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    output_glwe_size: GlweSize,
    output_polynomial_size: PolynomialSize,
    seed: CompressionSeed,
) -> Result<SeededLwePackingKeyswitchKey> {
    let per = level.0.saturating_mul(output_polynomial_size.0);
    let shape = packing_shape_of(
        bodies.len(),
        per,
        base_log,
        level,
        output_glwe_size,
        output_polynomial_size,
    )?;
    Ok(SeededLwePackingKeyswitchKey {
        bodies,
        seed,
        shape,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core_crypto::{
        allocate_and_encrypt_new_lwe_ciphertext, decrypt_glwe_ciphertext, SecretRandomGenerator,
        Seed,
    };

    #[test]
    fn packed_phases_are_the_inputs_phases_and_the_seeded_key_expands_deterministically() {
        let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([7; 32]));
        let lwe_key = LweSecretKey::generate_binary(LweDimension(300), &mut secret);
        let glwe_key =
            GlweSecretKey::generate_binary(GlweDimension(2), PolynomialSize(64), &mut secret)
                .unwrap();
        let noise = NoiseDistribution::TUniform { log2_bound: 10 };
        let mut rng =
            EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(1), Seed([2; 32]));
        let seeded = generate_seeded_lwe_packing_keyswitch_key(
            &lwe_key,
            &glwe_key,
            DecompositionBaseLog(12),
            DecompositionLevelCount(4),
            noise,
            CompressionSeed::new(3),
            &mut rng,
        )
        .unwrap();
        let key = seeded.decompress();
        assert_eq!(key, seeded.decompress());
        let messages: Vec<u64> = (0..64u64).map(|t| (t * 37 % 64) << 58).collect();
        let cts: Vec<_> = messages
            .iter()
            .map(|&m| allocate_and_encrypt_new_lwe_ciphertext(&lwe_key, m, noise, &mut rng))
            .collect::<Result<_>>()
            .unwrap();
        for count in [0, 1, 17, 64] {
            let glwe = keyswitch_lwe_ciphertexts_into_glwe(&key, &cts[..count]).unwrap();
            let mut phase = vec![0u64; 64];
            decrypt_glwe_ciphertext(&glwe_key, &glwe, &mut phase).unwrap();
            for (t, p) in phase.iter().enumerate() {
                let expected = if t < count { messages[t] } else { 0 };
                let error = p.wrapping_sub(expected) as i64;
                // Fresh noise 2^10 plus the keyswitch noise of up to 64 inputs and
                // the rounding of 48 bits kept: far below 2^30.
                assert!(
                    error.unsigned_abs() < 1 << 30,
                    "coefficient {t}: error {error}"
                );
            }
        }
        assert!(keyswitch_lwe_ciphertexts_into_glwe(&key, &[cts.clone(), cts].concat()).is_err());
    }
}
