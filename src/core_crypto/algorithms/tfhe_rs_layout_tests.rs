//! Keys built by hand in TFHE-rs's layout (the plaintexts as TFHE-rs defines them)
//! compute correctly once converted; seeded keys' masks are TFHE-rs's AES-CTR
//! stream in TFHE-rs's order; the Fourier conversions are exact or within the FFT's
//! rounding.

use super::*;
use crate::core_crypto::*;
use tfhe_csprng::generators::{RandomGenerator, SoftwareRandomGenerator};

const NOISE: NoiseDistribution = NoiseDistribution::TUniform { log2_bound: 20 };
const DELTA: u64 = 1 << 61;

struct Keys {
    small: LweSecretKey,
    glwe: GlweSecretKey,
    big: LweSecretKey,
    rng: EncryptionRandomGenerator,
}

/// Insecure toy keys: n = 64, k = 1, N = 512.
fn keys(seed: u8) -> Keys {
    let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([seed; 32]));
    let small = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
    let glwe =
        GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(512), &mut secret).unwrap();
    let big = glwe.as_lwe_secret_key();
    let rng = EncryptionRandomGenerator::from_seeds_insecure(
        CompressionSeed::new(u128::from(seed)),
        Seed([seed + 1; 32]),
    );
    Keys {
        small,
        glwe,
        big,
        rng,
    }
}

/// The first `words` 64-bit words of TFHE-rs's mask stream of `seed`, from
/// tfhe-csprng's own generator.
fn tfhe_rs_stream(seed: u128, words: usize) -> Vec<u64> {
    let bytes: Vec<u8> = SoftwareRandomGenerator::new(tfhe_csprng::seeders::Seed(seed))
        .take(8 * words)
        .collect();
    bytes
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

/// Keyswitches an encryption of each 2-bit message under the big key and decrypts.
fn keyswitch_decrypts(k: &mut Keys, ksk: &LweKeyswitchKey) {
    for m in 0..4 {
        let ct =
            allocate_and_encrypt_new_lwe_ciphertext(&k.big, m * DELTA, NOISE, &mut k.rng).unwrap();
        let mut out = LweCiphertextOwned::new_zero(k.small.lwe_dimension().to_lwe_size());
        keyswitch_lwe_ciphertext(ksk, &ct, &mut out).unwrap();
        let phase = decrypt_lwe_ciphertext(&k.small, &out).unwrap();
        assert_eq!(phase.wrapping_add(DELTA / 2) / DELTA, m);
    }
}

/// Bootstraps an encryption of each 2-bit message under the small key through the
/// identity table and decrypts.
fn bootstrap_decrypts(k: &mut Keys, bsk: &FourierLweBootstrapKey) {
    let poly = k.glwe.polynomial_size().0;
    let box_size = poly / 4;
    let mut accumulator = vec![0u64; poly];
    for j in 0..poly {
        let x = j + box_size / 2;
        accumulator.push(if x < poly {
            (x / box_size) as u64 * DELTA
        } else {
            0
        });
    }
    let accumulator =
        GlweCiphertext::from_container(accumulator, k.glwe.polynomial_size()).unwrap();
    for m in 0..4 {
        let ct = allocate_and_encrypt_new_lwe_ciphertext(&k.small, m * DELTA, NOISE, &mut k.rng)
            .unwrap();
        let mut out = LweCiphertextOwned::new_zero(k.big.lwe_dimension().to_lwe_size());
        programmable_bootstrap_lwe_ciphertext(
            &ct,
            &mut out,
            &accumulator,
            bsk,
            ModulusSwitchType::CenteredMeanNoiseReduction,
        )
        .unwrap();
        let phase = decrypt_lwe_ciphertext(&k.big, &out).unwrap();
        assert_eq!(phase.wrapping_add(DELTA / 2) / DELTA, m);
    }
}

#[test]
fn a_keyswitching_key_in_tfhe_rs_layout_keyswitches_once_converted() {
    let mut k = keys(3);
    let (base_log, level) = (DecompositionBaseLog(5), DecompositionLevelCount(4));
    // TFHE-rs: per input coefficient, ciphertext j encrypts s_i 2^(64 - B (l - j)).
    let mut data = vec![];
    for &s in k.big.as_slice() {
        for j in 0..level.0 {
            let plaintext = s.wrapping_mul(1u64 << (64 - base_log.0 * (level.0 - j)));
            let ct =
                allocate_and_encrypt_new_lwe_ciphertext(&k.small, plaintext, NOISE, &mut k.rng)
                    .unwrap();
            data.extend_from_slice(ct.as_slice());
        }
    }
    let size = k.small.lwe_dimension().to_lwe_size();
    let ksk = lwe_keyswitch_key_from_tfhe_rs_layout(data.clone(), base_log, level, size).unwrap();
    assert_eq!(ksk.shape().input_lwe_dimension, k.big.lwe_dimension());
    keyswitch_decrypts(&mut k, &ksk);
    assert_eq!(lwe_keyswitch_key_to_tfhe_rs_layout(&ksk), data);
    // Sizes that are not whole keys are errors.
    assert!(lwe_keyswitch_key_from_tfhe_rs_layout(vec![0; 7], base_log, level, size).is_err());
    assert!(lwe_keyswitch_key_from_tfhe_rs_layout(vec![], base_log, level, size).is_err());
}

#[test]
fn seeded_keyswitching_keys_draw_tfhe_rs_masks_in_tfhe_rs_order() {
    let mut k = keys(5);
    let (base_log, level) = (DecompositionBaseLog(5), DecompositionLevelCount(4));
    let seed = 0x1234_5678_9abc_def0_0fed_cba9_8765_4321u128;
    let seeded = generate_seeded_lwe_keyswitch_key(
        &k.big,
        &k.small,
        base_log,
        level,
        NOISE,
        CompressionSeed::new(seed),
        &mut k.rng,
    )
    .unwrap();
    let tfhe_rs = lwe_keyswitch_key_to_tfhe_rs_layout(&seeded.decompress());
    let (n, size) = (k.small.lwe_dimension().0, k.small.lwe_dimension().0 + 1);
    let stream = tfhe_rs_stream(seed, seeded.bodies().len() * n);
    for (t, ct) in tfhe_rs.chunks_exact(size).enumerate() {
        assert_eq!(
            &ct[..n],
            &stream[t * n..(t + 1) * n],
            "mask of ciphertext {t}"
        );
        assert_eq!(ct[n], seeded.bodies()[t], "body of ciphertext {t}");
    }
    // TFHE-rs's parts read back to the same key, which keyswitches.
    let back = seeded_lwe_keyswitch_key_from_tfhe_rs_parts(
        seeded.bodies().to_vec(),
        base_log,
        level,
        LweSize(size),
        seeded.seed(),
    )
    .unwrap();
    assert_eq!(back, seeded);
    keyswitch_decrypts(&mut k, &back.decompress());
}

/// TFHE-rs's GGSW rows of `bit`: level l down to 1, then row r; row r < k encrypts
/// `S_r * factor`, the last row `-factor` at X^0, with `factor = (-bit) 2^(64 - B
/// level)`.
fn tfhe_rs_bootstrap_key(k: &mut Keys, base_log: usize, level: usize) -> Vec<u64> {
    let (glwe_dim, poly) = (k.glwe.glwe_dimension().0, k.glwe.polynomial_size());
    let mut data = vec![];
    for &bit in k.small.as_slice() {
        for lvl in (1..=level).rev() {
            let factor = bit
                .wrapping_neg()
                .wrapping_mul(1u64 << (64 - base_log * lvl));
            for r in 0..=glwe_dim {
                let plaintext: Vec<u64> = if r < glwe_dim {
                    k.glwe
                        .polynomial(r)
                        .iter()
                        .map(|s| s.wrapping_mul(factor))
                        .collect()
                } else {
                    let mut p = vec![0u64; poly.0];
                    p[0] = factor.wrapping_neg();
                    p
                };
                let mut row = GlweCiphertextOwned::new_zero(GlweSize(glwe_dim + 1), poly).unwrap();
                encrypt_glwe_ciphertext(&k.glwe, &mut row, &plaintext, NOISE, &mut k.rng).unwrap();
                data.extend_from_slice(row.as_slice());
            }
        }
    }
    data
}

#[test]
fn a_bootstrap_key_in_tfhe_rs_layout_bootstraps_once_converted() {
    let mut k = keys(7);
    let (base_log, level) = (15, 2);
    let data = tfhe_rs_bootstrap_key(&mut k, base_log, level);
    let shape = BootstrapKeyShape {
        input_lwe_dimension: k.small.lwe_dimension(),
        glwe_dimension: k.glwe.glwe_dimension(),
        polynomial_size: k.glwe.polynomial_size(),
        base_log: DecompositionBaseLog(base_log),
        level: DecompositionLevelCount(level),
    };
    let bsk = lwe_bootstrap_key_from_tfhe_rs_layout(data.clone(), shape).unwrap();
    bootstrap_decrypts(&mut k, &FourierLweBootstrapKey::from_standard(&bsk));
    assert_eq!(lwe_bootstrap_key_to_tfhe_rs_layout(&bsk), data);
    assert!(lwe_bootstrap_key_from_tfhe_rs_layout(data[1..].to_vec(), shape).is_err());

    // TFHE-rs's Fourier form: exact both ways from gpufhe's Fourier key.
    let fourier = FourierLweBootstrapKey::from_standard(&bsk);
    let tfhe_rs = tfhe_rs_fourier_from_fourier_bootstrap_key(&fourier);
    assert_eq!(
        fourier_bootstrap_key_from_tfhe_rs_fourier(&tfhe_rs, shape).unwrap(),
        fourier
    );
    // Through the standard domain: within the FFT's rounding, and it bootstraps.
    let standard = standard_bootstrap_key_from_tfhe_rs_fourier(&tfhe_rs, shape).unwrap();
    let worst = standard
        .as_slice()
        .iter()
        .zip(bsk.as_slice())
        .map(|(a, b)| a.wrapping_sub(*b) as i64)
        .map(i64::unsigned_abs)
        .max()
        .unwrap();
    assert!(
        worst < 1 << 16,
        "standard -> Fourier -> standard moved a coefficient by {worst}"
    );
    bootstrap_decrypts(&mut k, &FourierLweBootstrapKey::from_standard(&standard));
    assert_eq!(tfhe_rs_fourier_from_standard_bootstrap_key(&bsk), tfhe_rs);
    // Values that are not finite are refused.
    let mut bad = tfhe_rs.clone();
    bad[5].im = f64::NAN;
    assert!(standard_bootstrap_key_from_tfhe_rs_fourier(&bad, shape).is_err());
    assert!(fourier_bootstrap_key_from_tfhe_rs_fourier(&tfhe_rs[1..], shape).is_err());
}

#[test]
fn seeded_bootstrap_keys_draw_tfhe_rs_masks_in_tfhe_rs_order() {
    let mut k = keys(9);
    let seed = 0xfeed_0037u128;
    let seeded = generate_seeded_lwe_bootstrap_key(
        &k.small,
        &k.glwe,
        DecompositionBaseLog(15),
        DecompositionLevelCount(2),
        NOISE,
        CompressionSeed::new(seed),
        &mut k.rng,
    )
    .unwrap();
    let bsk = seeded.decompress();
    let tfhe_rs = lwe_bootstrap_key_to_tfhe_rs_layout(&bsk);
    let poly = k.glwe.polynomial_size().0;
    let mask = k.glwe.glwe_dimension().0 * poly;
    let rows = seeded.bodies().len() / poly;
    let stream = tfhe_rs_stream(seed, rows * mask);
    for (r, row) in tfhe_rs.chunks_exact(mask + poly).enumerate() {
        assert_eq!(
            &row[..mask],
            &stream[r * mask..(r + 1) * mask],
            "mask of row {r}"
        );
        assert_eq!(
            &row[mask..],
            &seeded.bodies()[r * poly..(r + 1) * poly],
            "body of row {r}"
        );
    }
    let back = seeded_lwe_bootstrap_key_from_tfhe_rs_parts(
        seeded.bodies().to_vec(),
        seeded.shape(),
        seeded.seed(),
    )
    .unwrap();
    assert_eq!(back, seeded);
    bootstrap_decrypts(&mut k, &FourierLweBootstrapKey::from_standard(&bsk));
}

#[test]
fn tfhe_rs_fourier_values_are_the_natural_order_dft_of_the_twisted_polynomial() {
    // The formula of TFHE-rs's serialized Fourier polynomials, computed directly.
    let n = 64;
    let half = n / 2;
    let mut rng =
        EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(11), Seed([1; 32]));
    let mut p = vec![0u64; n];
    rng.fill_mask(&mut p);
    let fft = fft_for(PolynomialSize(n));
    let mut plan_order = vec![c64::default(); half];
    fft.forward_as_integer(&mut plan_order, &p, &mut fft.make_scratch());
    let natural = fft.natural_order();
    let scale = 2f64.powi(-64);
    for (k, &pos) in natural.iter().enumerate() {
        let mut expected = c64::default();
        for j in 0..half {
            let z = c64::new(
                p[j] as i64 as f64 * scale,
                p[j + half] as i64 as f64 * scale,
            );
            let angle = std::f64::consts::PI * j as f64 / n as f64
                - std::f64::consts::TAU * (j * k) as f64 / half as f64;
            expected += z * c64::new(angle.cos(), angle.sin());
        }
        let got = plan_order[pos] * scale;
        assert!(
            (got - expected).norm() < 1e-12,
            "frequency {k}: {got} vs {expected}"
        );
    }
}

/// TFHE-rs's multi-bit indicator bits, split as a key's GGSW ciphertexts are, are
/// gpufhe's plus one empty-assignment bit per group (1 for an all-zero group).
#[test]
fn tfhe_rs_multi_bit_indicators_split_into_gpufhe_ones() {
    let key = LweSecretKey::from_binary_coefficients(vec![1, 0, 0, 0, 1, 1, 0, 1, 1]).unwrap();
    for g in [1, 3] {
        let theirs = tfhe_rs_multi_bit_lwe_secret_key(&key, g).unwrap();
        assert_eq!(theirs.lwe_dimension().0, (9 / g) << g);
        let (ours, empty) = multi_bit_from_tfhe_rs_order(theirs.as_slice(), 1, g).unwrap();
        assert_eq!(ours, multi_bit_lwe_secret_key(&key, g).unwrap().as_slice());
        let groups: Vec<u64> = key
            .as_slice()
            .chunks(g)
            .map(|c| c.iter().all(|&b| b == 0) as u64)
            .collect();
        assert_eq!(empty, groups);
        assert_eq!(
            multi_bit_to_tfhe_rs_order(&ours, &empty, 1, g).unwrap(),
            theirs.as_slice()
        );
    }
    assert!(multi_bit_from_tfhe_rs_order(&[0u64; 7], 1, 2).is_err());
    assert!(multi_bit_to_tfhe_rs_order(&[0u64; 6], &[0u64; 3], 1, 2).is_err());
}

/// Packs an encryption of each 2-bit message under the small key with `key` and
/// decrypts the coefficients.
fn packing_decrypts(k: &mut Keys, key: &LwePackingKeyswitchKey) {
    let cts: Vec<_> = (0..4u64)
        .map(|m| {
            allocate_and_encrypt_new_lwe_ciphertext(&k.small, m * DELTA, NOISE, &mut k.rng).unwrap()
        })
        .collect();
    let glwe = keyswitch_lwe_ciphertexts_into_glwe(key, &cts).unwrap();
    let mut phase = vec![0u64; k.glwe.polynomial_size().0];
    decrypt_glwe_ciphertext(&k.glwe, &glwe, &mut phase).unwrap();
    let decoded: Vec<u64> = phase[..4]
        .iter()
        .map(|p| p.wrapping_add(DELTA / 2) / DELTA)
        .collect();
    assert_eq!(decoded, [0, 1, 2, 3]);
}

#[test]
fn a_packing_key_in_tfhe_rs_layout_packs_once_converted_and_seeded_ones_are_tfhe_rs_s() {
    let mut k = keys(7);
    let (base_log, level) = (DecompositionBaseLog(6), DecompositionLevelCount(3));
    let (n, glwe_size) = (k.glwe.polynomial_size(), GlweSize(2));
    // TFHE-rs: per input coefficient, GLWE ciphertext j encrypts the constant
    // s_i 2^(64 - B (l - j)).
    let mut data = vec![];
    for &s in k.small.as_slice() {
        for j in 0..level.0 {
            let mut plaintext = vec![0u64; n.0];
            plaintext[0] = s.wrapping_mul(1u64 << (64 - base_log.0 * (level.0 - j)));
            let mut ct = GlweCiphertextOwned::new_zero(glwe_size, n).unwrap();
            encrypt_glwe_ciphertext(&k.glwe, &mut ct, &plaintext, NOISE, &mut k.rng).unwrap();
            data.extend_from_slice(ct.as_slice());
        }
    }
    let key =
        lwe_packing_keyswitch_key_from_tfhe_rs_layout(data.clone(), base_log, level, glwe_size, n)
            .unwrap();
    assert_eq!(key.shape().input_lwe_dimension, k.small.lwe_dimension());
    packing_decrypts(&mut k, &key);
    assert_eq!(lwe_packing_keyswitch_key_to_tfhe_rs_layout(&key), data);
    assert!(lwe_packing_keyswitch_key_from_tfhe_rs_layout(
        vec![0; 7],
        base_log,
        level,
        glwe_size,
        n
    )
    .is_err());
    // A seeded key: TFHE-rs's masks (the AES-CTR stream), row after row in
    // TFHE-rs's order; read back from its parts, it packs.
    let seed = 0x0bad_5eed_0000_1111_2222_3333_4444_5555u128;
    let seeded = generate_seeded_lwe_packing_keyswitch_key(
        &k.small,
        &k.glwe,
        base_log,
        level,
        NOISE,
        CompressionSeed::new(seed),
        &mut k.rng,
    )
    .unwrap();
    let tfhe_rs = lwe_packing_keyswitch_key_to_tfhe_rs_layout(&seeded.decompress());
    let rows = seeded.bodies.len() / n.0;
    let stream = tfhe_rs_stream(seed, rows * n.0);
    for (t, row) in tfhe_rs.chunks_exact(2 * n.0).enumerate() {
        assert_eq!(
            &row[..n.0],
            &stream[t * n.0..(t + 1) * n.0],
            "mask of row {t}"
        );
        assert_eq!(
            &row[n.0..],
            &seeded.bodies[t * n.0..(t + 1) * n.0],
            "body of row {t}"
        );
    }
    let back = seeded_lwe_packing_keyswitch_key_from_tfhe_rs_parts(
        seeded.bodies.clone(),
        base_log,
        level,
        glwe_size,
        n,
        seeded.seed,
    )
    .unwrap();
    assert_eq!(back, seeded);
    packing_decrypts(&mut k, &back.decompress());
}
