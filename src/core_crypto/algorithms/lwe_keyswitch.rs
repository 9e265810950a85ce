//! LWE keyswitch: changes the key of a ciphertext with a keyswitching key, and the
//! generation of such keys (plain and seeded).

use super::decomposition::SignedDecomposer;
use super::lwe_encryption::{draw_in_parallel, encrypt_lwe_into_mask, expand_seeded_rows};
use super::tfhe_rs_layout::reverse_levels;
use crate::core_crypto::commons::{DecompositionBaseLog, DecompositionLevelCount};
use crate::core_crypto::entities::{
    check_decomposition, KeyswitchKeyShape, LweCiphertext, LweCiphertextOwned, LweKeyswitchKey,
    LweSecretKey, SeededLweKeyswitchKey,
};
use crate::core_crypto::random::{CompressionSeed, EncryptionRandomGenerator, NoiseDistribution};
use crate::error::{check_eq, Result};

/// Generates a keyswitching key from `input_key` to `output_key`.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
/// let small = LweSecretKey::generate_binary(LweDimension(32), &mut secret);
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let ksk = generate_lwe_keyswitch_key(&big, &small, DecompositionBaseLog(4), DecompositionLevelCount(4), noise, &mut rng).unwrap();
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&big, 3 << 60, noise, &mut rng).unwrap();
/// let mut out = LweCiphertextOwned::new_zero(LweSize(33));
/// keyswitch_lwe_ciphertext(&ksk, &ct, &mut out).unwrap();
/// let phase = decrypt_lwe_ciphertext(&small, &out).unwrap();
/// assert_eq!(phase.wrapping_add(1 << 59) >> 60, 3);
/// ```
pub fn generate_lwe_keyswitch_key(
    input_key: &LweSecretKey,
    output_key: &LweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
) -> Result<LweKeyswitchKey> {
    let shape = ksk_shape(input_key, output_key, base_log, level, noise)?;
    let row = output_key.lwe_dimension().0 + 1;
    let mut data = vec![0u64; shape.ciphertext_count() * row];
    encrypt_keyswitch_key_rows(input_key, output_key, shape, noise, rng, &mut data, row);
    reverse_levels(&mut data, shape.level.0, row);
    Ok(LweKeyswitchKey {
        data,
        shape,
        rounded: Default::default(),
    })
}

/// Generates a keyswitching key as a seed and its bodies. The masks are drawn from
/// `mask_seed` (public); the noise from `rng`'s secret noise generator. The bodies
/// are stored, and the masks drawn, in TFHE-rs's order (per input coefficient, the
/// least significant level first), so that the key is TFHE-rs's
/// `SeededLweKeyswitchKey` with the same seed.
/// [`SeededLweKeyswitchKey::decompress`] gives exactly the key that
/// [`generate_lwe_keyswitch_key`] gives with a generator whose masks start at
/// `mask_seed` and whose noise is in the same state.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
/// let small = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let (b, l) = (DecompositionBaseLog(4), DecompositionLevelCount(4));
/// let (mask_seed, noise_seed) = (CompressionSeed::from_os().unwrap(), Seed::from_os().unwrap());
/// let mut rng = EncryptionRandomGenerator::from_seeds_insecure(mask_seed, noise_seed);
/// let plain = generate_lwe_keyswitch_key(&big, &small, b, l, noise, &mut rng).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(0), noise_seed);
/// let seeded = generate_seeded_lwe_keyswitch_key(&big, &small, b, l, noise, mask_seed, &mut rng).unwrap();
/// assert_eq!(seeded.decompress(), plain);
/// // One body per ciphertext instead of 17 coefficients.
/// assert_eq!(17 * seeded.bodies().len(), plain.as_slice().len());
/// ```
pub fn generate_seeded_lwe_keyswitch_key(
    input_key: &LweSecretKey,
    output_key: &LweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
    mask_seed: CompressionSeed,
    rng: &mut EncryptionRandomGenerator,
) -> Result<SeededLweKeyswitchKey> {
    let shape = ksk_shape(input_key, output_key, base_log, level, noise)?;
    rng.reseed_masks(mask_seed);
    let mut bodies = vec![0u64; shape.ciphertext_count()];
    encrypt_keyswitch_key_rows(input_key, output_key, shape, noise, rng, &mut bodies, 1);
    Ok(SeededLweKeyswitchKey {
        bodies,
        seed: mask_seed,
        shape,
    })
}

impl SeededLweKeyswitchKey {
    /// Regenerates the masks from the seed: the full keyswitching key.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
    /// let small = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    /// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// let (b, l) = (DecompositionBaseLog(4), DecompositionLevelCount(4));
    /// let seeded = generate_seeded_lwe_keyswitch_key(&big, &small, b, l, noise, CompressionSeed::from_os().unwrap(), &mut rng).unwrap();
    /// let ksk = seeded.decompress();
    /// let ct = allocate_and_encrypt_new_lwe_ciphertext(&big, 6 << 60, noise, &mut rng).unwrap();
    /// let mut out = LweCiphertextOwned::new_zero(LweSize(17));
    /// keyswitch_lwe_ciphertext(&ksk, &ct, &mut out).unwrap();
    /// assert_eq!(decrypt_lwe_ciphertext(&small, &out).unwrap().wrapping_add(1 << 59) >> 60, 6);
    /// ```
    pub fn decompress(&self) -> LweKeyswitchKey {
        let row = self.shape.output_lwe_dimension.to_lwe_size().0;
        let mut data = expand_seeded_rows(self.seed, &self.bodies, row - 1, 1);
        reverse_levels(&mut data, self.shape.level.0, row);
        LweKeyswitchKey {
            data,
            shape: self.shape,
            rounded: Default::default(),
        }
    }
}

fn ksk_shape(
    input_key: &LweSecretKey,
    output_key: &LweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
) -> Result<KeyswitchKeyShape> {
    check_decomposition(base_log, level)?;
    noise.validate()?;
    Ok(KeyswitchKeyShape {
        input_lwe_dimension: input_key.lwe_dimension(),
        output_lwe_dimension: output_key.lwe_dimension(),
        base_log,
        level,
    })
}

/// Encrypts `s_i / B^j` for every input coefficient `i` and level `j`, in TFHE-rs's
/// order (`j = l` down to 1 for each `i`; on the rayon pool, the values of one
/// generator drawing in order), into `out`: rows of `row` values, whole ciphertexts
/// (mask, body) or, for a seeded key (`row` = 1), the bodies alone.
fn encrypt_keyswitch_key_rows(
    input_key: &LweSecretKey,
    output_key: &LweSecretKey,
    shape: KeyswitchKeyShape,
    noise: NoiseDistribution,
    rng: &mut EncryptionRandomGenerator,
    out: &mut [u64],
    row: usize,
) {
    let dimension = output_key.lwe_dimension().0;
    let level = shape.level.0;
    let draws = (dimension as u64, noise.draws_per_sample());
    let scratch = || vec![0u64; dimension];
    draw_in_parallel(rng, out, row, draws, scratch, |mask, i, out, rng| {
        let s = input_key.as_slice()[i / level];
        let j = level - i % level;
        let plaintext = s.wrapping_mul(1u64 << (64 - j * shape.base_log.0));
        let key = output_key.as_slice();
        match out {
            [body] => *body = encrypt_lwe_into_mask(key, mask, plaintext, noise, rng),
            _ => {
                let (body, mask) = out.split_last_mut().expect("a row holds its body");
                *body = encrypt_lwe_into_mask(key, mask, plaintext, noise, rng);
            }
        }
    });
}

/// Keyswitches `input` (under the key's input key) into `output` (under its output
/// key): `output = (0, b) - sum_i sum_j d_ij * KSK_ij` where `d_ij` are the digits of
/// the mask coefficient `a_i`. Zero digits are skipped.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let big = LweSecretKey::generate_binary(LweDimension(128), &mut secret);
/// let small = LweSecretKey::generate_binary(LweDimension(32), &mut secret);
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let (b, l) = (DecompositionBaseLog(5), DecompositionLevelCount(4));
/// let ksk = generate_lwe_keyswitch_key(&big, &small, b, l, noise, &mut rng).unwrap();
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&big, 9 << 60, noise, &mut rng).unwrap();
/// let mut out = LweCiphertextOwned::new_zero(small.lwe_dimension().to_lwe_size());
/// keyswitch_lwe_ciphertext(&ksk, &ct, &mut out).unwrap();
/// // The same message, now under the small key.
/// assert_eq!(decrypt_lwe_ciphertext(&small, &out).unwrap().wrapping_add(1 << 59) >> 60, 9);
/// // The output must have the size of the output key.
/// let mut wrong = LweCiphertextOwned::new_zero(LweSize(129));
/// assert!(keyswitch_lwe_ciphertext(&ksk, &ct, &mut wrong).is_err());
/// ```
pub fn keyswitch_lwe_ciphertext<C, D>(
    ksk: &LweKeyswitchKey,
    input: &LweCiphertext<C>,
    output: &mut LweCiphertext<D>,
) -> Result<()>
where
    C: AsRef<[u64]>,
    D: AsRef<[u64]> + AsMut<[u64]>,
{
    check_keyswitch_shapes(ksk, input, output)?;
    pulp::Arch::new().dispatch(Keyswitch {
        ksk,
        input: input.as_slice(),
        output: output.as_mut_slice(),
        first_column: 0,
    });
    Ok(())
}

/// [`keyswitch_lwe_ciphertext`] of several ciphertexts at once, reading each row of
/// the key (~60 MB in all on the default parameters, more than any cache) once for
/// the whole group instead of once per ciphertext. Bit-identical to keyswitching
/// them one by one.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
/// let small = LweSecretKey::generate_binary(LweDimension(32), &mut secret);
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let ksk = generate_lwe_keyswitch_key(&big, &small, DecompositionBaseLog(4), DecompositionLevelCount(4), noise, &mut rng).unwrap();
/// let cts: Vec<_> = (0..3u64)
///     .map(|m| allocate_and_encrypt_new_lwe_ciphertext(&big, m << 60, noise, &mut rng).unwrap())
///     .collect();
/// let together = keyswitch_lwe_ciphertext_batch(&ksk, &cts.iter().collect::<Vec<_>>()).unwrap();
/// for (ct, out) in cts.iter().zip(&together) {
///     let mut alone = LweCiphertextOwned::new_zero(LweSize(33));
///     keyswitch_lwe_ciphertext(&ksk, ct, &mut alone).unwrap();
///     assert_eq!(&alone, out);
/// }
/// ```
pub fn keyswitch_lwe_ciphertext_batch<C: AsRef<[u64]>>(
    ksk: &LweKeyswitchKey,
    inputs: &[&LweCiphertext<C>],
) -> Result<Vec<LweCiphertextOwned>> {
    let mut outputs = zero_outputs(ksk, inputs)?;
    struct Batch<'a, C> {
        ksk: &'a LweKeyswitchKey,
        inputs: &'a [&'a LweCiphertext<C>],
        outputs: &'a mut [LweCiphertextOwned],
    }
    impl<C: AsRef<[u64]>> pulp::WithSimd for Batch<'_, C> {
        type Output = ();
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, _simd: S) {
            keyswitch_batch_kernel(self.ksk, self.inputs, self.outputs)
        }
    }
    pulp::Arch::new().dispatch(Batch {
        ksk,
        inputs,
        outputs: &mut outputs,
    });
    Ok(outputs)
}

/// [`keyswitch_lwe_ciphertext`] on every thread of the rayon pool: each thread
/// computes a contiguous range of output coefficients and so reads only its columns
/// of the key (the key, ~60 MB on the default parameters, is what limits a single
/// keyswitch). Bit-identical to the single-threaded keyswitch; meant for steps with
/// fewer keyswitches than threads.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let big = LweSecretKey::generate_binary(LweDimension(128), &mut secret);
/// let small = LweSecretKey::generate_binary(LweDimension(128), &mut secret);
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// let (b, l) = (DecompositionBaseLog(5), DecompositionLevelCount(4));
/// let ksk = generate_lwe_keyswitch_key(&big, &small, b, l, noise, &mut rng).unwrap();
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&big, 5 << 60, noise, &mut rng).unwrap();
/// let (mut one, mut many) = (LweCiphertextOwned::new_zero(LweSize(129)), LweCiphertextOwned::new_zero(LweSize(129)));
/// keyswitch_lwe_ciphertext(&ksk, &ct, &mut one).unwrap();
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// pool.install(|| keyswitch_lwe_ciphertext_multithreaded(&ksk, &ct, &mut many)).unwrap();
/// assert_eq!(one, many);
/// assert_eq!(decrypt_lwe_ciphertext(&small, &many).unwrap().wrapping_add(1 << 59) >> 60, 5);
/// ```
pub fn keyswitch_lwe_ciphertext_multithreaded<C, D>(
    ksk: &LweKeyswitchKey,
    input: &LweCiphertext<C>,
    output: &mut LweCiphertext<D>,
) -> Result<()>
where
    C: AsRef<[u64]> + Sync,
    D: AsRef<[u64]> + AsMut<[u64]>,
{
    check_keyswitch_shapes(ksk, input, output)?;
    for_each_column_range(output.as_mut_slice(), |first_column, columns| {
        pulp::Arch::new().dispatch(Keyswitch {
            ksk,
            input: input.as_slice(),
            output: columns,
            first_column,
        })
    });
    Ok(())
}

/// Cuts the output coefficients into one contiguous range per thread of the rayon
/// pool (at least 64 each) and calls `f(first_column, range)` on each, in parallel.
pub(super) fn for_each_column_range(out: &mut [u64], f: impl Fn(usize, &mut [u64]) + Sync) {
    use rayon::prelude::*;
    let chunk = out
        .len()
        .div_ceil(rayon::current_num_threads().max(1))
        .max(64);
    out.par_chunks_mut(chunk)
        .enumerate()
        .for_each(|(k, columns)| f(k * chunk, columns));
}

/// A zero output per input, once every input's shape is checked against the key.
pub(super) fn zero_outputs<C: AsRef<[u64]>>(
    ksk: &LweKeyswitchKey,
    inputs: &[&LweCiphertext<C>],
) -> Result<Vec<LweCiphertextOwned>> {
    let outputs: Vec<LweCiphertextOwned> = inputs
        .iter()
        .map(|_| LweCiphertextOwned::new_zero(ksk.output_lwe_size()))
        .collect();
    for (input, output) in inputs.iter().zip(&outputs) {
        check_keyswitch_shapes(ksk, input, output)?;
    }
    Ok(outputs)
}

pub(super) fn check_keyswitch_shapes<C: AsRef<[u64]>, D: AsRef<[u64]>>(
    ksk: &LweKeyswitchKey,
    input: &LweCiphertext<C>,
    output: &LweCiphertext<D>,
) -> Result<()> {
    check_eq(
        "LWE dimension of the keyswitch input",
        ksk.shape.input_lwe_dimension.0,
        input.lwe_dimension().0,
    )?;
    output.check_size("LWE size of the keyswitch output", ksk.output_lwe_size())
}

/// The keyswitch loop, compiled for the best SIMD level of the machine by pulp, on
/// the output coefficients `first_column..first_column + output.len()`.
struct Keyswitch<'a> {
    ksk: &'a LweKeyswitchKey,
    input: &'a [u64],
    output: &'a mut [u64],
    first_column: usize,
}

impl pulp::WithSimd for Keyswitch<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        keyswitch_kernel(self.ksk, self.input, self.output, self.first_column)
    }
}

#[inline(always)]
fn keyswitch_kernel(ksk: &LweKeyswitchKey, input: &[u64], out: &mut [u64], first_column: usize) {
    let shape = ksk.shape;
    let size = shape.output_lwe_dimension.to_lwe_size().0;
    let level = shape.level.0;
    let decomposer = SignedDecomposer::new(shape.base_log, shape.level);
    let (in_mask, in_body) = input.split_at(input.len() - 1);
    out.fill(0);
    if let Some(body) = (size - 1)
        .checked_sub(first_column)
        .and_then(|b| out.get_mut(b))
    {
        *body = in_body[0];
    }
    let columns = first_column..first_column + out.len();
    let mut digits = [0u64; 64];
    for (&a, rows) in in_mask.iter().zip(ksk.data.chunks_exact(level * size)) {
        decomposer.decompose_into(a, &mut digits);
        for (&d, row) in digits[..level].iter().zip(rows.chunks_exact(size)) {
            if d != 0 {
                sub_digit_multiple(out, &row[columns.clone()], d);
            }
        }
    }
}

/// The keyswitch of a group: for each key row, every ciphertext's digit times it.
#[inline(always)]
fn keyswitch_batch_kernel<C: AsRef<[u64]>>(
    ksk: &LweKeyswitchKey,
    inputs: &[&LweCiphertext<C>],
    outputs: &mut [LweCiphertextOwned],
) {
    let shape = ksk.shape;
    let size = shape.output_lwe_dimension.to_lwe_size().0;
    let level = shape.level.0;
    let decomposer = SignedDecomposer::new(shape.base_log, shape.level);
    for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
        let body = input.as_slice()[input.as_slice().len() - 1];
        let out = output.as_mut_slice();
        out.fill(0);
        out[size - 1] = body;
    }
    let mut digits = vec![0u64; 64 * inputs.len()];
    for (i, rows) in ksk.data.chunks_exact(level * size).enumerate() {
        for (input, d) in inputs.iter().zip(digits.chunks_exact_mut(64)) {
            decomposer.decompose_into(input.as_slice()[i], d);
        }
        for (j, row) in rows.chunks_exact(size).enumerate() {
            for (output, d) in outputs.iter_mut().zip(digits.chunks_exact(64)) {
                let d = d[j];
                if d != 0 {
                    sub_digit_multiple(output.as_mut_slice(), row, d);
                }
            }
        }
    }
}

/// `out -= d * row` modulo 2^64, for a decomposition digit `d` (a signed value
/// stored as `u64`). A digit is small, so the product goes through the 32-bit halves
/// of `row` (`d * r = d * r_lo + (d * r_hi) << 32`): 32-bit multiplies vectorize on
/// AVX2, which has no 64-bit one. Same result as the plain product.
#[inline(always)]
fn sub_digit_multiple(out: &mut [u64], row: &[u64], d: u64) {
    let magnitude = (d as i64).unsigned_abs();
    if magnitude >> 32 != 0 {
        for (o, r) in out.iter_mut().zip(row) {
            *o = o.wrapping_sub(r.wrapping_mul(d));
        }
        return;
    }
    let m = magnitude as u32 as u64;
    let times = |r: u64| (r as u32 as u64 * m).wrapping_add(((r >> 32) as u32 as u64 * m) << 32);
    if (d as i64) < 0 {
        for (o, r) in out.iter_mut().zip(row) {
            *o = o.wrapping_add(times(*r));
        }
    } else {
        for (o, r) in out.iter_mut().zip(row) {
            *o = o.wrapping_sub(times(*r));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core_crypto::{
        allocate_and_encrypt_new_lwe_ciphertext, LweCiphertextOwned, LweDimension,
        SecretRandomGenerator, Seed,
    };

    #[test]
    fn digit_multiples_match_the_plain_product() {
        let row: Vec<u64> = (0..37u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(i as u32))
            .chain([
                0,
                1,
                u64::MAX,
                1 << 63,
                u32::MAX as u64,
                (u32::MAX as u64) << 32,
            ])
            .collect();
        for d in [
            1u64,
            7,
            8,
            u64::MAX,
            (-8i64) as u64,
            1 << 31,
            1 << 32,
            0x1234_5678_9abc,
        ] {
            let mut fast: Vec<u64> = row.iter().map(|x| x ^ 0x5555).collect();
            let mut plain = fast.clone();
            sub_digit_multiple(&mut fast, &row, d);
            for (o, r) in plain.iter_mut().zip(&row) {
                *o = o.wrapping_sub(r.wrapping_mul(d));
            }
            assert_eq!(fast, plain, "digit {d:#x}");
        }
    }

    #[test]
    fn multithreaded_keyswitch_is_bit_identical() {
        let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([9; 32]));
        let big = LweSecretKey::generate_binary(LweDimension(300), &mut secret);
        let small = LweSecretKey::generate_binary(LweDimension(150), &mut secret);
        let mut rng =
            EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(1), Seed([2; 32]));
        let noise = NoiseDistribution::TUniform { log2_bound: 10 };
        let ksk = generate_lwe_keyswitch_key(
            &big,
            &small,
            DecompositionBaseLog(4),
            DecompositionLevelCount(4),
            noise,
            &mut rng,
        )
        .unwrap();
        let ct = allocate_and_encrypt_new_lwe_ciphertext(&big, 5 << 59, noise, &mut rng).unwrap();
        let mut one = LweCiphertextOwned::new_zero(ksk.output_lwe_size());
        let mut many = one.clone();
        keyswitch_lwe_ciphertext(&ksk, &ct, &mut one).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        pool.install(|| keyswitch_lwe_ciphertext_multithreaded(&ksk, &ct, &mut many))
            .unwrap();
        assert_eq!(one, many);
        let mut wrong = LweCiphertextOwned::new_zero(crate::core_crypto::LweSize(152));
        assert!(keyswitch_lwe_ciphertext_multithreaded(&ksk, &ct, &mut wrong).is_err());
    }
}
