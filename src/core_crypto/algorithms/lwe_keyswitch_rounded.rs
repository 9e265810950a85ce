//! The CPU's keyswitch of a group on 32-bit words: the key's coefficients rounded to
//! their 32 high bits, products and sums modulo 2^32.
//!
//! ## Why it is safe
//!
//! A keyswitch output is only ever modulus-switched to `2N` (2^12 on the defaults)
//! before a blind rotation, so its 32 low bits carry nothing but noise. Rounding each
//! key coefficient to a multiple of 2^32 adds an error `e` uniform in `[-2^31, 2^31]`
//! (variance 2^62 / 3) per coefficient; the output phase moves by
//! `sum_rows d * (e_body - <e_mask, s'>) - e_b` (`d` the digits, `s'` the binary output
//! key, `e_b` the rounding of the input body), of variance
//! `(sum d^2) * (|s'| + 1) * 2^62 / 3 + 2^62 / 3`. On the defaults (8192 rows, digits
//! in `[-8, 8]` with mean square about 21.5, `|s'|` about 459) that is a standard
//! deviation of about 2^43.3, against 2^52.1 for the keyswitch's own noise (the key's
//! TUniform(45) noise through the same digits) and more for the modulus switch: the
//! variance before the modulus switch grows by less than 2^-17, which moves
//! `log2 p_fail` (-129.58) by less than 0.001. A test measures this variance against
//! the formula.
//!
//! ## Why it is faster
//!
//! Half the bytes of key (the key, ~60 MB, does not fit in any cache), and 8 lanes of
//! native 32-bit multiplies per AVX2 vector instead of 4 lanes of 64-bit products
//! built from 32-bit halves.
//!
//! The results are not bit-identical to [`super::keyswitch_lwe_ciphertext`]: the exact
//! keyswitch stays the reference the GPU kernels are compared with.

use super::decomposition::SignedDecomposer;
use super::lwe_keyswitch::{check_keyswitch_shapes, for_each_column_range, zero_outputs};
use crate::core_crypto::entities::{
    round_to_high_half, LweCiphertext, LweCiphertextOwned, LweKeyswitchKey,
};
use crate::error::Result;

/// Keyswitches a group of ciphertexts with the key rounded to 32 bits (see the
/// module documentation for the noise it adds, negligible for the bootstrap that
/// follows), reading the rounded key (built once per key, 30 MB on the defaults) once
/// for the whole group. Outputs are multiples of 2^32.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
/// let small = LweSecretKey::generate_binary(LweDimension(32), &mut secret);
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 40 };
/// let ksk = generate_lwe_keyswitch_key(&big, &small, DecompositionBaseLog(4), DecompositionLevelCount(4), noise, &mut rng).unwrap();
/// let cts: Vec<_> = (0..3u64)
///     .map(|m| allocate_and_encrypt_new_lwe_ciphertext(&big, m << 60, noise, &mut rng).unwrap())
///     .collect();
/// let small_cts = keyswitch_lwe_ciphertext_batch_rounded(&ksk, &cts.iter().collect::<Vec<_>>()).unwrap();
/// for (m, ct) in small_cts.iter().enumerate() {
///     let phase = decrypt_lwe_ciphertext(&small, ct).unwrap();
///     assert_eq!(phase.wrapping_add(1 << 59) >> 60, m as u64);
/// }
/// ```
pub fn keyswitch_lwe_ciphertext_batch_rounded<C: AsRef<[u64]>>(
    ksk: &LweKeyswitchKey,
    inputs: &[&LweCiphertext<C>],
) -> Result<Vec<LweCiphertextOwned>> {
    let mut outputs = zero_outputs(ksk, inputs)?;
    let inputs: Vec<&[u64]> = inputs.iter().map(|ct| ct.as_slice()).collect();
    let mut outs: Vec<&mut [u64]> = outputs.iter_mut().map(|ct| ct.as_mut_slice()).collect();
    keyswitch_columns(ksk, &inputs, &mut outs, 0);
    Ok(outputs)
}

/// [`keyswitch_lwe_ciphertext_batch_rounded`] of one ciphertext on every thread of
/// the rayon pool: each thread computes a contiguous range of output coefficients and
/// so reads only its columns of the rounded key. Bit-identical to the group form
/// (the result of a bootstrap does not depend on how many threads computed it).
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let big = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
/// let small = LweSecretKey::generate_binary(LweDimension(128), &mut secret);
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 40 };
/// let (b, l) = (DecompositionBaseLog(4), DecompositionLevelCount(4));
/// let ksk = generate_lwe_keyswitch_key(&big, &small, b, l, noise, &mut rng).unwrap();
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&big, 2 << 60, noise, &mut rng).unwrap();
/// let mut out = LweCiphertextOwned::new_zero(LweSize(129));
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// pool.install(|| keyswitch_lwe_ciphertext_rounded_multithreaded(&ksk, &ct, &mut out)).unwrap();
/// // The same bits as the group form, whatever the number of threads.
/// assert_eq!(out, keyswitch_lwe_ciphertext_batch_rounded(&ksk, &[&ct]).unwrap()[0]);
/// assert_eq!(decrypt_lwe_ciphertext(&small, &out).unwrap().wrapping_add(1 << 59) >> 60, 2);
/// ```
pub fn keyswitch_lwe_ciphertext_rounded_multithreaded<C, D>(
    ksk: &LweKeyswitchKey,
    input: &LweCiphertext<C>,
    output: &mut LweCiphertext<D>,
) -> Result<()>
where
    C: AsRef<[u64]> + Sync,
    D: AsRef<[u64]> + AsMut<[u64]>,
{
    check_keyswitch_shapes(ksk, input, output)?;
    ksk.rounded.get_or_build(&ksk.data);
    for_each_column_range(output.as_mut_slice(), |first_column, columns| {
        keyswitch_columns(ksk, &[input.as_slice()], &mut [columns], first_column)
    });
    Ok(())
}

/// Computes the output coefficients `first_column..first_column + outputs[0].len()`
/// of the rounded keyswitch of each input, in the best SIMD level of the machine.
fn keyswitch_columns(
    ksk: &LweKeyswitchKey,
    inputs: &[&[u64]],
    outputs: &mut [&mut [u64]],
    first_column: usize,
) {
    struct Columns<'a, 'b> {
        ksk: &'a LweKeyswitchKey,
        rows: &'a [u32],
        inputs: &'a [&'a [u64]],
        outputs: &'a mut [&'b mut [u64]],
        first_column: usize,
    }
    impl pulp::WithSimd for Columns<'_, '_> {
        type Output = ();
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, _simd: S) {
            rounded_kernel(
                self.ksk,
                self.rows,
                self.inputs,
                self.outputs,
                self.first_column,
            )
        }
    }
    pulp::Arch::new().dispatch(Columns {
        ksk,
        rows: ksk.rounded.get_or_build(&ksk.data),
        inputs,
        outputs,
        first_column,
    });
}

/// For each key row, every ciphertext's digit times the row's columns, on 32-bit
/// words; then each output is widened back to 64 bits.
#[inline(always)]
fn rounded_kernel(
    ksk: &LweKeyswitchKey,
    rows32: &[u32],
    inputs: &[&[u64]],
    outputs: &mut [&mut [u64]],
    first_column: usize,
) {
    let shape = ksk.shape;
    let size = shape.output_lwe_dimension.to_lwe_size().0;
    let level = shape.level.0;
    let decomposer = SignedDecomposer::new(shape.base_log, shape.level);
    let width = outputs.first().map_or(0, |o| o.len());
    if width == 0 {
        return;
    }
    let columns = first_column..first_column + width;
    let mut acc = vec![0u32; width * inputs.len()];
    if let Some(body) = (size - 1).checked_sub(first_column).filter(|&b| b < width) {
        for (input, out) in inputs.iter().zip(acc.chunks_exact_mut(width)) {
            out[body] = round_to_high_half(input[input.len() - 1]);
        }
    }
    let mut digits = vec![0u64; 64 * inputs.len()];
    for (i, rows) in rows32.chunks_exact(level * size).enumerate() {
        for (input, d) in inputs.iter().zip(digits.chunks_exact_mut(64)) {
            decomposer.decompose_into(input[i], d);
        }
        for (j, row) in rows.chunks_exact(size).enumerate() {
            let row = &row[columns.clone()];
            for (out, d) in acc.chunks_exact_mut(width).zip(digits.chunks_exact(64)) {
                // A digit is a small signed value: its low 32 bits are its value
                // modulo 2^32.
                let d = d[j] as u32;
                if d != 0 {
                    for (o, r) in out.iter_mut().zip(row) {
                        *o = o.wrapping_sub(r.wrapping_mul(d));
                    }
                }
            }
        }
    }
    for (output, out) in outputs.iter_mut().zip(acc.chunks_exact(width)) {
        for (o, &x) in output.iter_mut().zip(out) {
            *o = u64::from(x) << 32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core_crypto::{
        decrypt_lwe_ciphertext, generate_lwe_keyswitch_key, keyswitch_lwe_ciphertext_batch,
        CompressionSeed, DecompositionBaseLog, DecompositionLevelCount, EncryptionRandomGenerator,
        LweDimension, LweSecretKey, NoiseDistribution, SecretRandomGenerator, Seed,
    };

    /// The big key of dimension `n` drawn from `seed`.
    fn big_key(n: usize, seed: u8) -> LweSecretKey {
        let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([seed; 32]));
        LweSecretKey::generate_binary(LweDimension(n), &mut secret)
    }

    /// The small key and a keyswitching key to it from [`big_key`]`(big, seed)`.
    fn keys(
        big: usize,
        small: usize,
        base_log: DecompositionBaseLog,
        level: DecompositionLevelCount,
        log2_bound: u32,
        seed: u8,
    ) -> (LweSecretKey, LweKeyswitchKey) {
        let big = big_key(big, seed);
        let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([seed + 1; 32]));
        let small = LweSecretKey::generate_binary(LweDimension(small), &mut secret);
        let mut rng = EncryptionRandomGenerator::from_seeds_insecure(
            CompressionSeed::new((seed) as u128),
            Seed([seed + 2; 32]),
        );
        let noise = NoiseDistribution::TUniform { log2_bound };
        let ksk =
            generate_lwe_keyswitch_key(&big, &small, base_log, level, noise, &mut rng).unwrap();
        (small, ksk)
    }

    /// On the default parameters' keyswitch (2048 -> 918, 4 levels of 2^4,
    /// TUniform(45)), the phase difference between the rounded and the exact
    /// keyswitch of uniformly random ciphertexts has the variance of the module's
    /// formula (each sample's variance computed from its own digits), within the
    /// spread of 256 samples.
    #[test]
    fn added_noise_has_the_modelled_variance() {
        let (base_log, level) = (DecompositionBaseLog(4), DecompositionLevelCount(4));
        let (small, ksk) = keys(2048, 918, base_log, level, 45, 3);
        let mut state = 11u64;
        let cts: Vec<LweCiphertextOwned> = (0..256)
            .map(|_| {
                let v = (0..2049)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        state ^ (state >> 29)
                    })
                    .collect();
                LweCiphertextOwned::from_container(v).unwrap()
            })
            .collect();
        let refs: Vec<&LweCiphertextOwned> = cts.iter().collect();
        let exact = keyswitch_lwe_ciphertext_batch(&ksk, &refs).unwrap();
        let rounded = keyswitch_lwe_ciphertext_batch_rounded(&ksk, &refs).unwrap();
        // One ciphertext split over threads gives the same bits as the group form.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for (ct, grouped) in cts.iter().zip(&rounded).take(4) {
            let mut split = LweCiphertextOwned::new_zero(ksk.output_lwe_size());
            pool.install(|| keyswitch_lwe_ciphertext_rounded_multithreaded(&ksk, ct, &mut split))
                .unwrap();
            assert_eq!(&split, grouped);
        }
        let weight = small.as_slice().iter().filter(|&&s| s == 1).count() as f64;
        let decomposer = SignedDecomposer::new(base_log, level);
        let rounding_variance = 2f64.powi(62) / 3.0;
        let mut ratio_sum = 0.0;
        for ((ct, e), r) in cts.iter().zip(&exact).zip(&rounded) {
            let delta = decrypt_lwe_ciphertext(&small, r)
                .unwrap()
                .wrapping_sub(decrypt_lwe_ciphertext(&small, e).unwrap())
                as i64 as f64;
            let mut digits = [0u64; 64];
            let mut square_sum = 0.0;
            for &a in &ct.as_slice()[..2048] {
                decomposer.decompose_into(a, &mut digits);
                square_sum += digits[..4]
                    .iter()
                    .map(|&d| (d as i64 as f64).powi(2))
                    .sum::<f64>();
            }
            let model = square_sum * (weight + 1.0) * rounding_variance + rounding_variance;
            ratio_sum += delta * delta / model;
        }
        let ratio = ratio_sum / cts.len() as f64;
        // 256 samples: the mean of squared standard normals has a spread of 0.09.
        assert!(
            (0.65..1.35).contains(&ratio),
            "measured / modelled variance {ratio}"
        );
    }

    #[test]
    fn outputs_decrypt_like_the_exact_keyswitch_and_shapes_are_checked() {
        let (base_log, level) = (DecompositionBaseLog(3), DecompositionLevelCount(5));
        let (small, ksk) = keys(128, 40, base_log, level, 30, 5);
        let noise = NoiseDistribution::TUniform { log2_bound: 30 };
        let mut rng =
            EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(9), Seed([8; 32]));
        let big = big_key(128, 5);
        let cts: Vec<LweCiphertextOwned> = (0..16u64)
            .map(|m| {
                crate::core_crypto::allocate_and_encrypt_new_lwe_ciphertext(
                    &big,
                    m << 60,
                    noise,
                    &mut rng,
                )
                .unwrap()
            })
            .collect();
        let refs: Vec<&LweCiphertextOwned> = cts.iter().collect();
        let out = keyswitch_lwe_ciphertext_batch_rounded(&ksk, &refs).unwrap();
        for (m, ct) in out.iter().enumerate() {
            assert!(ct.as_slice().iter().all(|x| x << 32 == 0));
            let phase = decrypt_lwe_ciphertext(&small, ct).unwrap();
            assert_eq!(phase.wrapping_add(1 << 59) >> 60, m as u64);
        }
        let wrong = LweCiphertextOwned::new_zero(crate::core_crypto::LweSize(100));
        assert!(keyswitch_lwe_ciphertext_batch_rounded(&ksk, &[&wrong]).is_err());
        assert!(
            keyswitch_lwe_ciphertext_batch_rounded::<Vec<u64>>(&ksk, &[])
                .unwrap()
                .is_empty()
        );
    }
}
