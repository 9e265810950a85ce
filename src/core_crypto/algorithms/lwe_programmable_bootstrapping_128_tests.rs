//! Tests of the 128-bit bootstrap: exactness of the key generation, decryption of
//! the bootstrap, and its output noise against the model.

use super::*;
use crate::core_crypto::noise::decomposition_digit_variance;
use crate::core_crypto::*;

/// The phase polynomial `B - sum A_c S_c` of a 128-bit GLWE ciphertext.
fn glwe_phase(key: &GlweSecretKey, glwe: &[u128]) -> Vec<u128> {
    let n = key.polynomial_size().0;
    let k = key.glwe_dimension().0;
    let mut dot = vec![0u128; n];
    for c in 0..k {
        polynomial_wrapping_add_mul_binary_assign_128(
            &mut dot,
            &glwe[c * n..(c + 1) * n],
            key.polynomial(c),
        );
    }
    glwe[k * n..]
        .iter()
        .zip(&dot)
        .map(|(b, d)| b.wrapping_sub(*d))
        .collect()
}

#[test]
fn ggsw_rows_encrypt_the_gadget_multiples_of_the_bit() {
    let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([1; 32]));
    let lwe = LweSecretKey::generate_binary(LweDimension(2), &mut secret);
    let glwe =
        GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
    let mut rng =
        EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(3), Seed([2; 32]));
    let noise = NoiseDistribution::TUniform { log2_bound: 10 };
    let bsk = generate_lwe_bootstrap_key_128(
        &lwe,
        &glwe,
        DecompositionBaseLog(20),
        DecompositionLevelCount(2),
        noise,
        &mut rng,
    )
    .unwrap();
    let (n, rows) = (64, 4);
    for (i, &bit) in lwe.as_slice().iter().enumerate() {
        for r in 0..rows {
            let row = &bsk.as_slice()[(i * rows + r) * 2 * n..(i * rows + r + 1) * 2 * n];
            let phase = glwe_phase(&glwe, row);
            let j = 2 - r / 2; // level l first
            let factor = u128::from(bit) << (128 - 20 * j);
            let expected: Vec<u128> = if r % 2 == 0 {
                glwe.polynomial(0)
                    .iter()
                    .map(|&s| factor.wrapping_mul(u128::from(s)).wrapping_neg())
                    .collect()
            } else {
                (0..n).map(|t| if t == 0 { factor } else { 0 }).collect()
            };
            for (p, e) in phase.iter().zip(&expected) {
                assert!((p.wrapping_sub(*e) as i128).unsigned_abs() <= 1 << 10);
            }
        }
    }
}

/// Output variance of the 128-bit blind rotation with a noiseless accumulator, the
/// 64-bit model over the modulus 2^128 (the FFT's error is negligible here).
fn model_variance(
    shape: &BootstrapKeyShape,
    bsk_noise: NoiseDistribution,
    h_lwe: usize,
    h_glwe: usize,
) -> f64 {
    let (n, k1, l, big_n) = (
        shape.input_lwe_dimension.0 as f64,
        (shape.glwe_dimension.0 + 1) as f64,
        shape.level.0 as f64,
        shape.polynomial_size.0 as f64,
    );
    let dropped = 128 - (shape.base_log.0 * shape.level.0) as i32;
    let rounding = (2f64.powi(2 * dropped) - 1.0) / 12.0;
    n * k1 * l * big_n * decomposition_digit_variance(shape.base_log.0) * bsk_noise.variance()
        + h_lwe as f64 * rounding * (1.0 + h_glwe as f64)
}

/// The noise of every coefficient of blind-rotated accumulators (20 rotations of 256
/// coefficients) has the variance of the model within 10 %.
#[test]
fn blind_rotation_noise_matches_the_model() {
    let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([5; 32]));
    let lwe = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
    let (n, k) = (PolynomialSize(256), GlweDimension(1));
    let glwe = GlweSecretKey::generate_binary(k, n, &mut secret).unwrap();
    let mut rng =
        EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(6), Seed([7; 32]));
    let noise = NoiseDistribution::TUniform { log2_bound: 50 };
    let bsk = generate_lwe_bootstrap_key_128(
        &lwe,
        &glwe,
        DecompositionBaseLog(24),
        DecompositionLevelCount(3),
        noise,
        &mut rng,
    )
    .unwrap();
    let bsk = Fourier128LweBootstrapKey::from_standard(&bsk);
    let mut lut = vec![0u128; 2 * n.0];
    let mut words = vec![0u64; 2 * n.0];
    rng.fill_mask(&mut words);
    for (c, w) in lut[n.0..].iter_mut().zip(words.chunks(2)) {
        *c = u128::from(w[0]) | u128::from(w[1]) << 64;
    }
    let samples: Vec<f64> = (0..20)
        .into_par_iter()
        .flat_map_iter(|t| {
            let mask: Vec<usize> = (0..16).map(|i| (t * 7919 + i * 104_729) % 512).collect();
            let body = (t * 31) % 512;
            let phase = (body + 512 * 16
                - mask
                    .iter()
                    .zip(lwe.as_slice())
                    .map(|(a, &s)| a * s as usize)
                    .sum::<usize>()
                    % 512)
                % 512;
            let switched = ModulusSwitchedLweCiphertext {
                mask,
                body,
                log_modulus: 9,
            };
            let acc = blind_rotate_128(&switched, &lut, &bsk).unwrap();
            let mut expected = vec![0u128; 256];
            rotate_left_128(&mut expected, &lut[256..], phase);
            let got = glwe_phase(&glwe, &acc);
            got.iter()
                .zip(expected)
                .map(|(g, e)| g.wrapping_sub(e) as i128 as f64)
                .collect::<Vec<_>>()
        })
        .collect();
    let var = samples.iter().map(|e| e * e).sum::<f64>() / samples.len() as f64;
    let h_lwe = lwe.hamming_weight();
    let h_glwe = glwe.as_slice().iter().filter(|&&s| s == 1).count();
    let predicted = model_variance(&bsk.shape(), noise, h_lwe, h_glwe);
    let ratio = var / predicted;
    assert!(
        (0.9..1.1).contains(&ratio),
        "measured 2^{:.2}, predicted 2^{:.2}",
        var.log2(),
        predicted.log2()
    );
}

#[test]
fn bootstrap_of_every_message_decrypts() {
    let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([8; 32]));
    let lwe = LweSecretKey::generate_binary(LweDimension(24), &mut secret);
    let (n, k) = (PolynomialSize(512), GlweDimension(1));
    let glwe = GlweSecretKey::generate_binary(k, n, &mut secret).unwrap();
    let mut rng =
        EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(9), Seed([10; 32]));
    let noise = NoiseDistribution::TUniform { log2_bound: 30 };
    let mut seeded_rng =
        EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(0), Seed([10; 32]));
    let seeded = generate_seeded_lwe_bootstrap_key_128(
        &lwe,
        &glwe,
        DecompositionBaseLog(24),
        DecompositionLevelCount(3),
        noise,
        CompressionSeed::new(9),
        &mut seeded_rng,
    )
    .unwrap();
    let bsk = generate_lwe_bootstrap_key_128(
        &lwe,
        &glwe,
        DecompositionBaseLog(24),
        DecompositionLevelCount(3),
        noise,
        &mut rng,
    )
    .unwrap();
    let fourier = Fourier128LweBootstrapKey::from_standard(&bsk);
    assert_eq!(seeded.decompress_to_fourier(), fourier);
    let delta = 1u128 << 123;
    let lut = identity_lookup_table_128(n, k, 16, delta).unwrap();
    for m in 0..16u64 {
        let ct = allocate_and_encrypt_new_lwe_ciphertext(
            &lwe,
            m << 59,
            NoiseDistribution::TUniform { log2_bound: 40 },
            &mut rng,
        )
        .unwrap();
        let switched =
            modulus_switch_lwe_ciphertext(&ct, 10, ModulusSwitchType::CenteredMeanNoiseReduction)
                .unwrap();
        let out = programmable_bootstrap_128(&switched, &lut, &fourier).unwrap();
        let phase = decrypt_lwe_ciphertext_128(&glwe, &out).unwrap();
        let err = phase.wrapping_sub(u128::from(m) * delta) as i128;
        // m = 15 may wrap through the padding to -0 only with a huge noise; here it cannot.
        assert!(
            err.unsigned_abs() < 1 << 80,
            "m = {m}: error 2^{}",
            (err.unsigned_abs() as f64).log2()
        );
    }
}

/// The folded double-double digits of the external product are the digits of
/// `decompose_128`, for decompositions that keep fewer bits than 128, all 128, and
/// the widest base.
#[test]
fn folded_levels_hold_the_decomposition_digits() {
    let n = 64;
    let mut x = 0x0123_4567_89ab_cdef_u128 * 0x9e37_79b9_7f4a_7c15;
    let poly: Vec<u128> = (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(0x2545_f491_4f6c_dd1d_9e37_79b9_7f4a_7c15)
                .wrapping_add(1);
            x
        })
        .collect();
    for (base_log, level) in [(24, 3), (32, 4), (63, 2), (1, 1)] {
        let mut levels = vec![0f64; 2 * n * level];
        decompose_into_levels(&poly, base_log, level, &mut levels);
        let mut digits = [0u128; 8];
        for (t, &c) in poly.iter().enumerate() {
            decompose_128(c, base_log, level, &mut digits);
            let at = if t < n / 2 { t } else { t - n / 2 + n };
            for (li, &d) in digits[..level].iter().enumerate() {
                let (hi, lo) = (levels[li * 2 * n + at], levels[li * 2 * n + at + n / 2]);
                assert_eq!(hi as i128 + lo as i128, d as i128, "B {base_log} l {level}");
            }
        }
    }
}
