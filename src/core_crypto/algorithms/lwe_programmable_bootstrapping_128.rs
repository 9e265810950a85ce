//! The 128-bit bootstrap (noise squashing, TFHE-rs 1.8's
//! `blind_rotate_f128_lwe_ciphertext`): a 64-bit LWE ciphertext is switched to the
//! modulus `2N` and blind-rotated through a bootstrap key whose GGSW ciphertexts are
//! modulo 2^128, so that the output, a 128-bit LWE ciphertext under the GLWE key, has
//! a noise of about 2^-90 of the torus or less instead of 2^-40.
//!
//! The algorithm is the 64-bit one over a wider torus: the accumulator (a GLWE
//! encryption of the lookup table, modulo 2^128) is rotated by `X^(-b')`, then for
//! every coefficient `a'_i` of the switched mask `ACC += GGSW(s_i) ⊡ (X^(a'_i) ACC -
//! ACC)`. The external product decomposes each polynomial of its input into `l`
//! signed digits of `B` bits (the `lB` most significant bits, rounded), transforms
//! each digit polynomial with the 128-bit FFT ([`crate::core_crypto::fft128`]),
//! multiplies it by the matching GGSW row in the Fourier domain and accumulates;
//! each output polynomial returns to integers once. Every step is a plain loop over
//! arrays laid out as TFHE-rs lays them out, the shape a GPU kernel mirrors (one
//! block per ciphertext, one thread per coefficient).
//!
//! Key generation and the conversion to the Fourier domain run on the rayon pool,
//! one GGSW ciphertext per task; a batch of bootstraps runs one per task.

use super::modulus_switch::ModulusSwitchedLweCiphertext;
use super::polynomial::polynomial_wrapping_add_mul_binary_assign;
use crate::core_crypto::commons::{DecompositionBaseLog, DecompositionLevelCount};
use crate::core_crypto::entities::{
    validate_shape_128, BootstrapKeyShape, Fourier128LweBootstrapKey, GlweSecretKey,
    LweBootstrapKey128, LweCiphertext128, LweSecretKey, SeededLweBootstrapKey128,
};
use crate::core_crypto::fft128::{fft128_for, Fft128};
use crate::core_crypto::fft128_simd::{complex_mul_add_simd, i64_to_dd};
use crate::core_crypto::random::{CompressionSeed, EncryptionRandomGenerator, NoiseDistribution};
use crate::error::{check_eq, Error, Result};
use rayon::prelude::*;
use zeroize::Zeroize;

/// `out += a * s` modulo `X^N + 1` and 2^128 for a binary `s`, exactly: `a` is cut
/// into two 32-bit limbs and a 64-bit one, each multiplied with the 64-bit SIMD
/// product (sums of `N` terms below 2^43 for the 32-bit limbs; the top limb only
/// matters modulo 2^64).
fn polynomial_wrapping_add_mul_binary_assign_128(out: &mut [u128], a: &[u128], s: &[u64]) {
    let n = out.len();
    let limb = |shift: u32, mask: u128| -> Vec<u64> {
        let input: Vec<u64> = a.iter().map(|&x| ((x >> shift) & mask) as u64).collect();
        let mut prod = vec![0u64; n];
        polynomial_wrapping_add_mul_binary_assign(&mut prod, &input, s);
        prod
    };
    let p0 = limb(0, 0xffff_ffff);
    let p1 = limb(32, 0xffff_ffff);
    let p2 = limb(64, u128::from(u64::MAX));
    for (j, o) in out.iter_mut().enumerate() {
        let low = (p0[j] as i64 as i128 as u128).wrapping_add((p1[j] as i64 as i128 as u128) << 32);
        *o = o.wrapping_add(low).wrapping_add(u128::from(p2[j]) << 64);
    }
}

/// One uniform mask coefficient modulo 2^128: 16 bytes of the mask stream, little
/// endian (TFHE-rs's uniform `u128`).
pub(crate) fn fill_mask_128(rng: &mut EncryptionRandomGenerator, out: &mut [u128]) {
    let mut words = vec![0u64; 2 * out.len()];
    rng.fill_mask(&mut words);
    for (o, w) in out.iter_mut().zip(words.chunks_exact(2)) {
        *o = u128::from(w[0]) | u128::from(w[1]) << 64;
    }
}

/// A noise sample modulo 2^128 (TUniform only: the bound is the same integer range
/// whatever the modulus).
fn check_noise_128(noise: NoiseDistribution) -> Result<()> {
    match noise {
        NoiseDistribution::TUniform { .. } => noise.validate(),
        NoiseDistribution::Gaussian { .. } => Err(Error::InvalidParameter(
            "128-bit keys take a TUniform noise distribution (TFHE-rs 1.8's parameters)".into(),
        )),
    }
}

/// Encrypts the polynomial `plaintext` modulo 2^128 under `key` into `mask` (drawn)
/// and `body`.
pub(crate) fn encrypt_glwe_128(
    key: &GlweSecretKey,
    mask: &mut [u128],
    body: &mut [u128],
    plaintext: &[u128],
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
) {
    let n = key.polynomial_size().0;
    fill_mask_128(rng, mask);
    for (b, p) in body.iter_mut().zip(plaintext) {
        *b = p.wrapping_add(rng.sample(noise) as i64 as i128 as u128);
    }
    for (c, a) in mask.chunks_exact(n).enumerate() {
        polynomial_wrapping_add_mul_binary_assign_128(body, a, key.polynomial(c));
    }
}

/// Encrypts the GGSW ciphertext of the bit `bit` row by row, in the layout's order,
/// handing each row's mask and body to `emit`.
fn encrypt_ggsw_128(
    key: &GlweSecretKey,
    bit: u64,
    shape: &BootstrapKeyShape,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
    mut emit: impl FnMut(usize, &[u128], &[u128]),
) {
    let (n, k, b) = (
        shape.polynomial_size.0,
        shape.glwe_dimension.0,
        shape.base_log.0,
    );
    let mut mask = vec![0u128; k * n];
    let mut body = vec![0u128; n];
    let mut plaintext = vec![0u128; n];
    let mut row = 0;
    for j in (1..=shape.level.0).rev() {
        let factor = u128::from(bit) << (128 - j * b);
        for c in 0..=k {
            if c < k {
                for (p, s) in plaintext.iter_mut().zip(key.polynomial(c)) {
                    *p = factor.wrapping_mul(u128::from(*s)).wrapping_neg();
                }
            } else {
                plaintext.fill(0);
                plaintext[0] = factor;
            }
            encrypt_glwe_128(key, &mut mask, &mut body, &plaintext, noise, rng);
            emit(row, &mask, &body);
            row += 1;
        }
    }
    plaintext.zeroize();
}

/// The shape of a 128-bit key from `input_key` to `output_key`, checked.
fn shape_128(
    input_key: &LweSecretKey,
    output_key: &GlweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
) -> Result<BootstrapKeyShape> {
    check_noise_128(noise)?;
    let shape = BootstrapKeyShape {
        input_lwe_dimension: input_key.lwe_dimension(),
        glwe_dimension: output_key.glwe_dimension(),
        polynomial_size: output_key.polynomial_size(),
        base_log,
        level,
    };
    validate_shape_128(&shape)?;
    Ok(shape)
}

/// Encrypts every GGSW ciphertext on the rayon pool, each from a fork of `rng` at
/// the point one generator encrypting them in order would reach (so the result does
/// not depend on the thread count), into `out` (`piece` values per GGSW); `rng` ends
/// past all of them.
fn encrypt_ggsws_128(
    input_key: &LweSecretKey,
    output_key: &GlweSecretKey,
    shape: &BootstrapKeyShape,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
    out: &mut [u128],
    with_masks: bool,
) {
    let n = shape.polynomial_size.0;
    let rows = shape.rows_per_ggsw();
    let mask_words = (rows * 2 * shape.glwe_dimension.0 * n) as u64;
    let noise_draws = (rows * n) as u64 * noise.draws_per_sample();
    let row_len = if with_masks {
        shape.ggsw_size() / rows
    } else {
        n
    };
    let start = &*rng;
    out.par_chunks_mut(rows * row_len)
        .enumerate()
        .for_each(|(i, ggsw)| {
            let mut fork = start.fork_after(i as u64 * mask_words, i as u64 * noise_draws);
            let bit = input_key.as_slice()[i];
            encrypt_ggsw_128(output_key, bit, shape, noise, &mut fork, |r, mask, body| {
                let row = &mut ggsw[r * row_len..(r + 1) * row_len];
                let (m, b) = row.split_at_mut(row_len - n);
                if with_masks {
                    m.copy_from_slice(mask);
                }
                b.copy_from_slice(body);
            });
        });
    let count = input_key.lwe_dimension().0 as u64;
    rng.skip(count * mask_words, count * noise_draws);
}

/// Generates the 128-bit bootstrap key of `input_key` (64-bit LWE key) under
/// `output_key`, on the rayon pool.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let lwe_key = LweSecretKey::generate_binary(LweDimension(4), &mut secret);
/// let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 30 };
/// let (b, l) = (DecompositionBaseLog(24), DecompositionLevelCount(3));
/// let bsk = generate_lwe_bootstrap_key_128(&lwe_key, &glwe_key, b, l, noise, &mut rng).unwrap();
/// assert_eq!(bsk.as_slice().len(), 4 * 3 * 2 * 2 * 64);
/// // Gaussian noise is not a 128-bit parameter of TFHE-rs 1.8.
/// let gaussian = NoiseDistribution::Gaussian { std_dev: 1e-20 };
/// assert!(generate_lwe_bootstrap_key_128(&lwe_key, &glwe_key, b, l, gaussian, &mut rng).is_err());
/// ```
pub fn generate_lwe_bootstrap_key_128(
    input_key: &LweSecretKey,
    output_key: &GlweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
) -> Result<LweBootstrapKey128> {
    let shape = shape_128(input_key, output_key, base_log, level, noise)?;
    let mut data = vec![0u128; shape.ggsw_size() * shape.input_lwe_dimension.0];
    encrypt_ggsws_128(input_key, output_key, &shape, noise, rng, &mut data, true);
    Ok(LweBootstrapKey128 { data, shape })
}

/// Generates a seeded 128-bit bootstrap key: the masks from `mask_seed`, the noise
/// from `rng`. [`SeededLweBootstrapKey128::decompress`] gives exactly what
/// [`generate_lwe_bootstrap_key_128`] gives with the same mask seed and noise state.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let lwe_key = LweSecretKey::generate_binary(LweDimension(3), &mut secret);
/// let glwe_key = GlweSecretKey::generate_binary(GlweDimension(2), PolynomialSize(64), &mut secret).unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 30 };
/// let (b, l) = (DecompositionBaseLog(24), DecompositionLevelCount(2));
/// let (mask_seed, noise_seed) = (CompressionSeed::new(7), Seed([1; 32]));
/// let mut rng = EncryptionRandomGenerator::from_seeds_insecure(mask_seed, noise_seed);
/// let plain = generate_lwe_bootstrap_key_128(&lwe_key, &glwe_key, b, l, noise, &mut rng).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(0), noise_seed);
/// let seeded = generate_seeded_lwe_bootstrap_key_128(&lwe_key, &glwe_key, b, l, noise, mask_seed, &mut rng).unwrap();
/// assert_eq!(seeded.decompress(), plain);
/// ```
pub fn generate_seeded_lwe_bootstrap_key_128(
    input_key: &LweSecretKey,
    output_key: &GlweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
    mask_seed: CompressionSeed,
    rng: &mut EncryptionRandomGenerator,
) -> Result<SeededLweBootstrapKey128> {
    let shape = shape_128(input_key, output_key, base_log, level, noise)?;
    rng.reseed_masks(mask_seed);
    let n = shape.polynomial_size.0;
    let mut bodies = vec![0u128; shape.rows_per_ggsw() * n * shape.input_lwe_dimension.0];
    encrypt_ggsws_128(
        input_key,
        output_key,
        &shape,
        noise,
        rng,
        &mut bodies,
        false,
    );
    Ok(SeededLweBootstrapKey128 {
        bodies,
        seed: mask_seed,
        shape,
    })
}

impl SeededLweBootstrapKey128 {
    /// The masks of GGSW ciphertext `i` regenerated in front of its bodies: the
    /// GGSW of the standard key.
    fn ggsw(&self, i: usize, out: &mut [u128]) {
        let shape = &self.shape;
        let (n, k, rows) = (
            shape.polynomial_size.0,
            shape.glwe_dimension.0,
            shape.rows_per_ggsw(),
        );
        let mask_words = (rows * 2 * k * n) as u64;
        let mut rng = EncryptionRandomGenerator::masks_only(self.seed);
        rng.skip(i as u64 * mask_words, 0);
        let bodies = &self.bodies[i * rows * n..(i + 1) * rows * n];
        for (row, body) in out
            .chunks_exact_mut((k + 1) * n)
            .zip(bodies.chunks_exact(n))
        {
            let (m, b) = row.split_at_mut(k * n);
            fill_mask_128(&mut rng, m);
            b.copy_from_slice(body);
        }
    }

    /// The standard-domain key: masks regenerated from the seed, on the rayon pool.
    pub fn decompress(&self) -> LweBootstrapKey128 {
        let size = self.shape.ggsw_size();
        let mut data = vec![0u128; size * self.shape.input_lwe_dimension.0];
        data.par_chunks_mut(size)
            .enumerate()
            .for_each(|(i, ggsw)| self.ggsw(i, ggsw));
        LweBootstrapKey128 {
            data,
            shape: self.shape,
        }
    }

    /// The Fourier-domain key, GGSW by GGSW (never the whole standard key in memory).
    pub fn decompress_to_fourier(&self) -> Fourier128LweBootstrapKey {
        let size = self.shape.ggsw_size();
        convert_ggsws(self.shape, |i, out| {
            let mut ggsw = vec![0u128; size];
            self.ggsw(i, &mut ggsw);
            forward_ggsw(self.shape, &ggsw, out);
        })
    }
}

/// Transforms the polynomials of one standard GGSW into `out` (four arrays).
fn forward_ggsw(shape: BootstrapKeyShape, ggsw: &[u128], out: [&mut [f64]; 4]) {
    let n = shape.polynomial_size.0;
    let fft = fft128_for(shape.polynomial_size).expect("shape validated at construction");
    let [re0, re1, im0, im1] = out;
    for (p, poly) in ggsw.chunks_exact(n).enumerate() {
        let r = p * n / 2..(p + 1) * n / 2;
        fft.forward_as_torus(
            [
                &mut re0[r.clone()],
                &mut re1[r.clone()],
                &mut im0[r.clone()],
                &mut im1[r],
            ],
            poly,
        );
    }
}

/// A Fourier key of `shape` whose GGSW `i` is written by `ggsw(i, arrays)`, on the
/// rayon pool.
fn convert_ggsws(
    shape: BootstrapKeyShape,
    ggsw: impl Fn(usize, [&mut [f64]; 4]) + Sync,
) -> Fourier128LweBootstrapKey {
    let len = shape.ggsw_size() / 2;
    let total = len * shape.input_lwe_dimension.0;
    let [mut re0, mut re1, mut im0, mut im1] = [(); 4].map(|_| vec![0f64; total]);
    re0.par_chunks_mut(len)
        .zip(re1.par_chunks_mut(len))
        .zip(im0.par_chunks_mut(len))
        .zip(im1.par_chunks_mut(len))
        .enumerate()
        .for_each(|(i, (((a, b), c), d))| ggsw(i, [a, b, c, d]));
    Fourier128LweBootstrapKey {
        parts: [re0, re1, im0, im1],
        shape,
    }
}

impl Fourier128LweBootstrapKey {
    /// The Fourier transform of a standard 128-bit key, on the rayon pool.
    pub fn from_standard(key: &LweBootstrapKey128) -> Self {
        let size = key.shape.ggsw_size();
        convert_ggsws(key.shape, |i, out| {
            forward_ggsw(key.shape, &key.data[i * size..(i + 1) * size], out)
        })
    }
}

/// `out = X^(-power) input` modulo `X^N + 1`, `power` in `[0, 2N)`.
fn rotate_left_128(out: &mut [u128], input: &[u128], power: usize) {
    let n = input.len();
    let (p, flip) = if power >= n {
        (power - n, true)
    } else {
        (power, false)
    };
    for t in 0..n {
        let (x, wrapped) = if t + p < n {
            (input[t + p], false)
        } else {
            (input[t + p - n], true)
        };
        *out.get_mut(t).expect("same length") = if wrapped != flip { x.wrapping_neg() } else { x };
    }
}

/// The signed digits of `x` (the `level * base_log` most significant bits, rounded)
/// into `digits[0..level]`, least significant level (`l`) first: the order of the
/// key's levels.
#[inline(always)]
pub(crate) fn decompose_128(x: u128, base_log: usize, level: usize, digits: &mut [u128]) {
    let kept = base_log * level;
    let mut state = if kept == 128 {
        x
    } else {
        let shift = 128 - kept;
        ((x >> shift) + ((x >> (shift - 1)) & 1)) & (u128::MAX >> shift)
    };
    let mask = (1u128 << base_log) - 1;
    let half = 1u128 << (base_log - 1);
    for d in digits[..level].iter_mut() {
        let raw = state & mask;
        state >>= base_log;
        let carry = u128::from((raw > half) | ((raw == half) & (state & 1 == 1)));
        state += carry;
        *d = raw.wrapping_sub(carry << base_log);
    }
}

/// The scratch of one blind rotation.
pub(super) struct Scratch {
    /// The input of the external product (`X^(a_i) ACC - ACC`).
    pub(super) diff: Vec<u128>,
    /// The digits of one polynomial as double-doubles, then their transforms:
    /// per level, four arrays of `N/2` (`[re0, re1, im0, im1]`).
    levels: Vec<f64>,
    /// The transforms of the `k + 1` output polynomials.
    acc_fourier: Vec<f64>,
}

impl Scratch {
    /// The scratch of a rotation with a key of `shape`.
    pub(super) fn new(shape: &BootstrapKeyShape) -> Self {
        let (n, glwe_size) = (shape.polynomial_size.0, shape.glwe_dimension.0 + 1);
        Self {
            diff: vec![0u128; glwe_size * n],
            levels: vec![0f64; 2 * n * shape.level.0],
            acc_fourier: vec![0f64; 2 * n * glwe_size],
        }
    }
}

pub(super) fn split4(v: &mut [f64]) -> [&mut [f64]; 4] {
    let q = v.len() / 4;
    let (a, rest) = v.split_at_mut(q);
    let (b, rest) = rest.split_at_mut(q);
    let (c, d) = rest.split_at_mut(q);
    [a, b, c, d]
}

/// Decomposes the polynomial `poly` into `level` digit polynomials folded for the
/// FFT (coefficient `t` and `t + N/2` as one complex value), written as exact
/// double-doubles into `levels` (per level `[re0, re1, im0, im1]`, level index `li`
/// = level `l - li`, the key's order): [`decompose_128`]'s digits, with the digit
/// arithmetic on 64 bits (`B <= 63`).
#[inline(always)]
fn decompose_into_levels(poly: &[u128], base_log: usize, level: usize, levels: &mut [f64]) {
    let n = poly.len();
    let half = n / 2;
    let shift = 128 - base_log * level;
    let mask = (1u64 << base_log) - 1;
    let half_base = 1u64 << (base_log - 1);
    for (t, &x) in poly.iter().enumerate() {
        let mut state = if shift == 0 {
            x
        } else {
            ((x >> shift) + ((x >> (shift - 1)) & 1)) & (u128::MAX >> shift)
        };
        let at = if t < half { t } else { t - half + n };
        for li in 0..level {
            let raw = state as u64 & mask;
            state >>= base_log;
            let carry =
                u64::from((raw > half_base) | ((raw == half_base) & (state as u64 & 1 == 1)));
            state += u128::from(carry);
            // |d| <= 2^(B-1) <= 2^62: exact as a double-double.
            let (hi, lo) = i64_to_dd((raw as i64).wrapping_sub((carry << base_log) as i64));
            levels[li * 2 * n + at] = hi;
            levels[li * 2 * n + at + half] = lo;
        }
    }
}

/// `acc += GGSW_i ⊡ diff`.
pub(super) fn external_product_128(
    fft: &Fft128,
    key: &Fourier128LweBootstrapKey,
    i: usize,
    acc: &mut [u128],
    s: &mut Scratch,
) {
    struct Op<'a> {
        key: &'a Fourier128LweBootstrapKey,
        ggsw: usize,
        fft: &'a Fft128,
        s: &'a mut Scratch,
    }
    impl pulp::WithSimd for Op<'_> {
        type Output = ();
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, simd: S) {
            let Op { key, ggsw, fft, s } = self;
            let shape = key.shape;
            let (n, glwe_size, level, base_log) = (
                shape.polynomial_size.0,
                shape.glwe_dimension.0 + 1,
                shape.level.0,
                shape.base_log.0,
            );
            let half = n / 2;
            let parts = &key.parts;
            s.acc_fourier.fill(0.0);
            for c in 0..glwe_size {
                decompose_into_levels(&s.diff[c * n..(c + 1) * n], base_log, level, &mut s.levels);
                for (li, digit) in s.levels.chunks_exact_mut(2 * n).enumerate() {
                    fft.forward_in_place(split4(digit));
                    let [d0, d1, d2, d3] = split4(digit);
                    let digit = [&*d0, &*d1, &*d2, &*d3];
                    // Row (li, c): its k + 1 polynomials.
                    let row = ggsw + (li * glwe_size + c) * glwe_size * half;
                    for (p, out) in s.acc_fourier.chunks_exact_mut(4 * half).enumerate() {
                        let at = row + p * half..row + (p + 1) * half;
                        complex_mul_add_simd(
                            simd,
                            split4(out),
                            digit,
                            [
                                &parts[0][at.clone()],
                                &parts[1][at.clone()],
                                &parts[2][at.clone()],
                                &parts[3][at],
                            ],
                        );
                    }
                }
            }
        }
    }
    let n = key.shape.polynomial_size.0;
    let half = n / 2;
    pulp::Arch::new().dispatch(Op {
        key,
        ggsw: i * key.ggsw_len(),
        fft,
        s: &mut *s,
    });
    for (p, out) in s.acc_fourier.chunks_exact_mut(4 * half).enumerate() {
        fft.add_backward_as_torus(&mut acc[p * n..(p + 1) * n], split4(out));
    }
}

/// Blind-rotates `acc` (a GLWE ciphertext modulo 2^128 of the key's shape, `(k + 1)
/// N` values) by the phase of `switched` (modulo `2N`) and extracts its constant
/// coefficient: the 128-bit programmable bootstrap of TFHE-rs's noise squashing.
///
/// ```
/// use gpufhe::core_crypto::*;
/// // Toy, insecure dimensions: a 4-bit message m * 2^59 (one padding bit).
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let lwe_key = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
/// let (poly, k) = (PolynomialSize(256), GlweDimension(1));
/// let glwe_key = GlweSecretKey::generate_binary(k, poly, &mut secret).unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 30 };
/// let bsk = generate_lwe_bootstrap_key_128(
///     &lwe_key, &glwe_key, DecompositionBaseLog(24), DecompositionLevelCount(3), noise, &mut rng,
/// ).unwrap();
/// let bsk = Fourier128LweBootstrapKey::from_standard(&bsk);
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&lwe_key, 5 << 59, NoiseDistribution::TUniform { log2_bound: 20 }, &mut rng).unwrap();
/// let switched = modulus_switch_lwe_ciphertext(&ct, poly.log2() + 1, ModulusSwitchType::CenteredMeanNoiseReduction).unwrap();
/// let delta = 1u128 << 123;
/// let lut = identity_lookup_table_128(poly, k, 16, delta).unwrap();
/// let out = programmable_bootstrap_128(&switched, &lut, &bsk).unwrap();
/// let phase = decrypt_lwe_ciphertext_128(&glwe_key, &out).unwrap();
/// assert_eq!(phase.wrapping_add(delta / 2) >> 123, 5);
/// ```
pub fn programmable_bootstrap_128(
    switched: &ModulusSwitchedLweCiphertext,
    accumulator: &[u128],
    key: &Fourier128LweBootstrapKey,
) -> Result<LweCiphertext128> {
    let shape = key.shape;
    let n = shape.polynomial_size.0;
    check_eq(
        "LWE dimension of the switched input",
        shape.input_lwe_dimension.0,
        switched.mask.len(),
    )?;
    check_modulus_and_accumulator_128(switched, accumulator, &shape)?;
    let acc = blind_rotate_128(switched, accumulator, key)?;
    Ok(sample_extract_128(&acc, n))
}

/// `Err` unless `switched` is modulo `2N` and `accumulator` a GLWE ciphertext of
/// `shape`.
pub(super) fn check_modulus_and_accumulator_128(
    switched: &ModulusSwitchedLweCiphertext,
    accumulator: &[u128],
    shape: &BootstrapKeyShape,
) -> Result<()> {
    let (n, glwe_size) = (shape.polynomial_size.0, shape.glwe_dimension.0 + 1);
    check_eq(
        "modulus of the switched input (log2, must be log2(2N))",
        shape.polynomial_size.log2() + 1,
        switched.log_modulus,
    )?;
    check_eq(
        "length of the accumulator",
        glwe_size * n,
        accumulator.len(),
    )
}

/// `accumulator` (polynomials of `n` coefficients) rotated by `X^(-body)`.
pub(super) fn rotate_accumulator_128(accumulator: &[u128], body: usize, n: usize) -> Vec<u128> {
    let mut acc = vec![0u128; accumulator.len()];
    for (out, poly) in acc.chunks_exact_mut(n).zip(accumulator.chunks_exact(n)) {
        rotate_left_128(out, poly, body);
    }
    acc
}

/// The constant coefficient of the GLWE ciphertext `acc` (polynomials of `n`
/// coefficients) as an LWE ciphertext under its key read as an LWE key.
pub(super) fn sample_extract_128(acc: &[u128], n: usize) -> LweCiphertext128 {
    let k = acc.len() / n - 1;
    let mut data = vec![0u128; k * n + 1];
    for (a, o) in acc.chunks_exact(n).zip(data.chunks_exact_mut(n)) {
        o[0] = a[0];
        for j in 1..n {
            o[j] = a[n - j].wrapping_neg();
        }
    }
    data[k * n] = acc[k * n];
    LweCiphertext128 { data }
}

/// The blind rotation of [`programmable_bootstrap_128`] (shapes checked by it): the
/// rotated accumulator, `(k + 1) N` values.
pub(crate) fn blind_rotate_128(
    switched: &ModulusSwitchedLweCiphertext,
    accumulator: &[u128],
    key: &Fourier128LweBootstrapKey,
) -> Result<Vec<u128>> {
    let shape = key.shape;
    let n = shape.polynomial_size.0;
    let fft = fft128_for(shape.polynomial_size)?;
    let mut acc = rotate_accumulator_128(accumulator, switched.body, n);
    let mut s = Scratch::new(&shape);
    for (i, &a) in switched.mask.iter().enumerate() {
        if a == 0 {
            continue;
        }
        // diff = X^a ACC - ACC = X^-(2N - a) ACC - ACC.
        for (d, poly) in s.diff.chunks_exact_mut(n).zip(acc.chunks_exact(n)) {
            rotate_left_128(d, poly, 2 * n - a);
            for (x, y) in d.iter_mut().zip(poly) {
                *x = x.wrapping_sub(*y);
            }
        }
        external_product_128(fft, key, i, &mut acc, &mut s);
    }
    Ok(acc)
}

/// The accumulator of the identity over `p` values with a padding bit, each value
/// `m` encoded as `m * delta` (TFHE-rs's `generate_programmable_bootstrap_glwe_lut`
/// with `|x| x`): a trivial GLWE ciphertext (zero masks) whose body gives each value
/// a box of `N / p` coefficients, shifted by half a box.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let lut = identity_lookup_table_128(PolynomialSize(64), GlweDimension(1), 4, 1 << 125).unwrap();
/// assert_eq!(lut.len(), 128);
/// assert_eq!(lut[64], 0); // first coefficient: value 0
/// assert_eq!(lut[64 + 8], 1 << 125); // box 1 starts half a box (8) earlier
/// assert!(identity_lookup_table_128(PolynomialSize(64), GlweDimension(1), 3, 1).is_err());
/// ```
pub fn identity_lookup_table_128(
    polynomial_size: crate::core_crypto::PolynomialSize,
    glwe_dimension: crate::core_crypto::GlweDimension,
    p: usize,
    delta: u128,
) -> Result<Vec<u128>> {
    let n = polynomial_size.0;
    if !p.is_power_of_two() || p > n {
        return Err(Error::InvalidParameter(format!(
            "a lookup table of {p} values needs a power of two at most N = {n}"
        )));
    }
    let k = glwe_dimension.0;
    let box_size = n / p;
    let mut acc = vec![0u128; (k + 1) * n];
    let body = &mut acc[k * n..];
    for (j, c) in body.iter_mut().enumerate() {
        let x = j + box_size / 2;
        *c = if x < n {
            (x / box_size) as u128 * delta
        } else {
            0 // f(0) * delta, negated
        };
    }
    Ok(acc)
}

/// `<a, s>` modulo 2^128 for a binary `s`.
fn binary_dot_128(a: &[u128], s: &[u64]) -> u128 {
    a.iter()
        .zip(s)
        .filter(|(_, s)| **s == 1)
        .fold(0u128, |acc, (a, _)| acc.wrapping_add(*a))
}

/// The phase `b - <a, s>` modulo 2^128 of a 128-bit LWE ciphertext under the GLWE
/// key read as an LWE key.
pub fn decrypt_lwe_ciphertext_128(key: &GlweSecretKey, ct: &LweCiphertext128) -> Result<u128> {
    check_eq(
        "LWE dimension of the 128-bit ciphertext",
        key.lwe_dimension().0,
        ct.lwe_dimension().0,
    )?;
    Ok(ct
        .body()
        .wrapping_sub(binary_dot_128(ct.mask(), key.as_slice())))
}

/// Encrypts `plaintext` (modulo 2^128) under the GLWE key read as an LWE key, with
/// TUniform noise (tests and the noise measurements).
pub fn encrypt_lwe_ciphertext_128(
    key: &GlweSecretKey,
    plaintext: u128,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
) -> Result<LweCiphertext128> {
    check_noise_128(noise)?;
    let n = key.lwe_dimension().0;
    let mut data = vec![0u128; n + 1];
    fill_mask_128(rng, &mut data[..n]);
    let dot = binary_dot_128(&data[..n], key.as_slice());
    data[n] = dot
        .wrapping_add(plaintext)
        .wrapping_add(rng.sample(noise) as i64 as i128 as u128);
    Ok(LweCiphertext128 { data })
}

#[cfg(test)]
#[path = "lwe_programmable_bootstrapping_128_tests.rs"]
mod tests;
