//! Correctness on the default (128-bit secure) parameters: lookup tables on every
//! block value, keyswitch, compressed keys, the bootstrap's noise, and bad inputs.

use gpufhe::core_crypto::noise::{keyswitch_added_variance, pbs_output_variance};
use gpufhe::core_crypto::*;
use gpufhe::shortint::{
    ClientKey, CompressedServerKey, LookupTable, ServerKey, ShortintParameters, DEFAULT_PARAMETERS,
};
use gpufhe::Error;
use std::sync::OnceLock;

const P: ShortintParameters = DEFAULT_PARAMETERS;

/// One key pair for the whole file: key generation on real parameters takes a second.
fn keys() -> &'static (ClientKey, ServerKey) {
    static KEYS: OnceLock<(ClientKey, ServerKey)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let ck = ClientKey::new(P).expect("client key");
        let sk = ServerKey::new(&ck).expect("server key");
        (ck, sk)
    })
}

#[test]
fn every_block_value_goes_through_identity_and_non_linear_tables() {
    let (ck, sk) = keys();
    let total = P.total_modulus();
    type Table = (&'static str, fn(u64) -> u64);
    let tables: [Table; 3] = [
        ("identity", |x| x),
        ("x^2 + 3 mod 16", |x| (x * x + 3) % 16),
        ("x < 6", |x| (x < 6) as u64),
    ];
    for (name, f) in tables {
        let lut = sk.generate_lookup_table(f).unwrap();
        for x in 0..total {
            let ct = ck.encrypt_with_carry(x).unwrap();
            let out = sk.apply_lookup_table(&ct, &lut).unwrap();
            assert_eq!(
                ck.decrypt_message_and_carry(&out).unwrap(),
                f(x),
                "{name} at {x}"
            );
            assert_eq!(out.noise_level(), 1);
        }
    }
}

#[test]
fn bivariate_tables_on_every_pair_of_messages() {
    let (ck, sk) = keys();
    let m = P.message_modulus;
    let mul = sk.generate_lookup_table_bivariate(|a, b| a * b).unwrap();
    for a in 0..m {
        for b in 0..m {
            let (ca, cb) = (ck.encrypt(a).unwrap(), ck.encrypt(b).unwrap());
            let out = sk.apply_lookup_table_bivariate(&ca, &cb, &mul).unwrap();
            assert_eq!(
                ck.decrypt_message_and_carry(&out).unwrap(),
                a * b,
                "{a} * {b}"
            );
        }
    }
}

#[test]
fn batched_and_many_function_bootstraps() {
    let (ck, sk) = keys();
    let double = sk.generate_lookup_table(|x| 2 * x).unwrap();
    let negate = sk.generate_lookup_table(|x| 16 - x).unwrap();
    let cts: Vec<_> = (0..6).map(|x| ck.encrypt_with_carry(x).unwrap()).collect();
    let luts: Vec<&LookupTable> = (0..6)
        .map(|j| if j % 2 == 0 { &double } else { &negate })
        .collect();
    let outs = sk.apply_lookup_table_batch(&cts, &luts).unwrap();
    for (x, out) in outs.iter().enumerate() {
        let x = x as u64;
        let expected = if x % 2 == 0 { 2 * x } else { (16 - x) % 16 };
        assert_eq!(
            ck.decrypt_message_and_carry(out).unwrap(),
            expected,
            "batch entry {x}"
        );
    }

    let fs: [&dyn Fn(u64) -> u64; 2] = [&|x| x * x, &|x| x / 2];
    let many = sk.generate_many_lookup_table(&fs).unwrap();
    // A table whose outputs stay below 8 gives blocks of degree 7, as the table needs.
    let below_8 = sk.generate_lookup_table(|x| x % 8).unwrap();
    for x in 0..many.input_bound() {
        let ct = sk
            .apply_lookup_table(&ck.encrypt_with_carry(x).unwrap(), &below_8)
            .unwrap();
        assert_eq!(ct.degree(), 7);
        let outs = sk.apply_many_lookup_table(&ct, &many).unwrap();
        assert_eq!(ck.decrypt_message_and_carry(&outs[0]).unwrap(), x * x % 16);
        assert_eq!(ck.decrypt_message_and_carry(&outs[1]).unwrap(), x / 2);
    }
}

#[test]
fn keyswitch_preserves_every_message() {
    let (ck, sk) = keys();
    let delta = P.delta();
    for x in 0..P.total_modulus() {
        let ct = ck.encrypt_with_carry(x).unwrap();
        let small = sk.keyswitch(&ct).unwrap();
        assert_eq!(small.lwe_dimension(), P.lwe_dimension);
        let phase = decrypt_lwe_ciphertext(ck.small_lwe_secret_key(), &small).unwrap();
        let decoded = phase.wrapping_add(delta / 2) / delta % P.total_modulus();
        assert_eq!(decoded, x, "keyswitch of {x}");
        // The keyswitch noise stays far below half a message step.
        let err = phase.wrapping_sub(x * delta) as i64;
        assert!(
            err.unsigned_abs() < delta / 8,
            "keyswitch error {err} for {x}"
        );
    }
}

#[test]
fn compressed_keys_expand_to_bit_identical_keys_and_outputs() {
    let ck = ClientKey::from_secret_generator(
        P,
        &mut SecretRandomGenerator::from_seed_insecure(Seed([7; 32])),
    )
    .unwrap();
    let (ks_seed, bs_seed, noise_seed) = (
        CompressionSeed::new(1),
        CompressionSeed::new(2),
        Seed([3; 32]),
    );

    // Compressed: seeds + bodies, expanded.
    let mut rng =
        EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(9), noise_seed);
    let compressed = CompressedServerKey::with_seeds(&ck, ks_seed, bs_seed, &mut rng).unwrap();
    let expanded = compressed.decompress().unwrap();

    // Uncompressed: the same mask seeds and the same noise stream.
    let mut rng = EncryptionRandomGenerator::from_seeds_insecure(ks_seed, noise_seed);
    let ksk = generate_lwe_keyswitch_key(
        ck.big_lwe_secret_key(),
        ck.small_lwe_secret_key(),
        P.ks_base_log,
        P.ks_level,
        P.lwe_noise_distribution,
        &mut rng,
    )
    .unwrap();
    rng.reseed_masks(bs_seed);
    let bsk = generate_lwe_bootstrap_key(
        ck.small_lwe_secret_key(),
        ck.glwe_secret_key(),
        P.pbs_base_log,
        P.pbs_level,
        P.glwe_noise_distribution,
        &mut rng,
    )
    .unwrap();
    let fourier = FourierLweBootstrapKey::from_standard(&bsk);

    assert!(
        ksk.as_slice() == expanded.keyswitch_key().as_slice(),
        "keyswitching keys differ"
    );
    assert!(
        fourier.as_slice() == expanded.bootstrap_key().as_slice(),
        "Fourier bootstrap keys differ"
    );
    // The compressed key is much smaller than the key it expands to.
    assert!(compressed.bootstrap_key().bodies().len() * 2 == bsk.as_slice().len());

    let lut = expanded
        .generate_lookup_table(|x| (x * 5 + 1) % 16)
        .unwrap();
    for x in [0, 5, 15] {
        let ct = ck.encrypt_with_carry(x).unwrap();
        let mut small_a = LweCiphertextOwned::new_zero(P.lwe_dimension.to_lwe_size());
        let mut small_b = small_a.clone();
        keyswitch_lwe_ciphertext(&ksk, ct.as_lwe(), &mut small_a).unwrap();
        keyswitch_lwe_ciphertext(expanded.keyswitch_key(), ct.as_lwe(), &mut small_b).unwrap();
        assert_eq!(small_a, small_b, "keyswitch outputs differ for {x}");

        let mut out_a = LweCiphertextOwned::new_zero(P.big_lwe_dimension().to_lwe_size());
        let mut out_b = out_a.clone();
        programmable_bootstrap_lwe_ciphertext(
            &small_a,
            &mut out_a,
            lut.accumulator(),
            &fourier,
            P.modulus_switch,
        )
        .unwrap();
        programmable_bootstrap_lwe_ciphertext(
            &small_b,
            &mut out_b,
            lut.accumulator(),
            expanded.bootstrap_key(),
            P.modulus_switch,
        )
        .unwrap();
        assert_eq!(out_a, out_b, "bootstrap outputs differ for {x}");
        let got = ck
            .decrypt_message_and_carry(&expanded.apply_lookup_table(&ct, &lut).unwrap())
            .unwrap();
        assert_eq!(got, (x * 5 + 1) % 16);
    }
}

/// The variance of the bootstrap's output error over 4096 bootstraps matches
/// [`pbs_output_variance`] within 10 %.
///
/// The model's three terms on the default parameters: key noise 2^96.7, decomposition
/// rounding 2^97.3, FFT error 2^96.3 (its constant measured on single CMuxes against
/// exact integer products, in the unit tests of `core_crypto::noise`). The relative
/// standard deviation of a 4096-sample variance is sqrt(2/4096) = 2.2 %, so a correct
/// model fails this test with probability below 10^-5.
#[test]
fn bootstrap_noise_variance_matches_the_model_within_ten_percent() {
    let (ck, sk) = keys();
    let samples = 4096;
    let delta = P.delta();
    let f = |x: u64| (3 * x + 1) % 16;
    let lut = sk.generate_lookup_table(f).unwrap();
    let (mut sum, mut sum_sq) = (0.0, 0.0);
    let inputs: Vec<u64> = (0..samples as u64).map(|i| i % P.total_modulus()).collect();
    for chunk in inputs.chunks(256) {
        let cts: Vec<_> = chunk
            .iter()
            .map(|&x| ck.encrypt_with_carry(x).unwrap())
            .collect();
        let outs = sk
            .apply_lookup_table_batch(&cts, &vec![&lut; cts.len()])
            .unwrap();
        for (&x, out) in chunk.iter().zip(&outs) {
            let phase = decrypt_lwe_ciphertext(ck.big_lwe_secret_key(), out.as_lwe()).unwrap();
            let err = phase.wrapping_sub(f(x) * delta) as i64 as f64;
            sum += err;
            sum_sq += err * err;
        }
    }
    let n = samples as f64;
    let measured = (sum_sq - sum * sum / n) / (n - 1.0);
    let predicted = pbs_output_variance(
        &P.bootstrap_key_shape(),
        P.glwe_noise_distribution,
        ck.small_lwe_secret_key().hamming_weight(),
        ck.big_lwe_secret_key().hamming_weight(),
    );
    check_variance("bootstrap", measured, predicted, 0.9..=1.1);
    // The mean error is zero up to sampling noise: 5 standard errors, exceeded by
    // chance once in 1.7 million runs (the keys are fresh each run; 4 would fail
    // one run in 16,000), while a bias of a tenth of the deviation is 6.4 of them.
    let mean = sum / n;
    assert!(
        mean.abs() < 5.0 * (measured / n).sqrt(),
        "biased bootstrap error, mean {mean}"
    );
}

/// The keyswitch's output variance matches the input variance plus
/// [`keyswitch_added_variance`] within [0.8, 1.25] over 400 keyswitches.
#[test]
fn keyswitch_noise_variance_matches_the_formula() {
    let (ck, sk) = keys();
    let samples = 400;
    let delta = P.delta();
    let mut sum_sq = 0.0;
    for i in 0..samples {
        let x = i as u64 % P.total_modulus();
        let small = sk.keyswitch(&ck.encrypt_with_carry(x).unwrap()).unwrap();
        let phase = decrypt_lwe_ciphertext(ck.small_lwe_secret_key(), &small).unwrap();
        sum_sq += (phase.wrapping_sub(x * delta) as i64 as f64).powi(2);
    }
    let measured = sum_sq / samples as f64;
    let predicted = P.glwe_noise_distribution.variance()
        + keyswitch_added_variance(
            &P.keyswitch_key_shape(),
            P.lwe_noise_distribution,
            ck.big_lwe_secret_key().hamming_weight(),
        );
    check_variance("keyswitch", measured, predicted, 0.8..=1.25);
}

/// Prints measured against predicted variance and checks their ratio is in `range`.
fn check_variance(what: &str, measured: f64, predicted: f64, range: std::ops::RangeInclusive<f64>) {
    let ratio = measured / predicted;
    println!(
        "{what} noise: measured 2^{:.3}, predicted 2^{:.3}, ratio {ratio:.3}",
        measured.log2(),
        predicted.log2()
    );
    assert!(
        range.contains(&ratio),
        "{what}: measured/predicted variance = {ratio}"
    );
}

#[test]
fn bad_inputs_give_errors_naming_both_values() {
    let (ck, sk) = keys();
    let ct = ck.encrypt(1).unwrap();

    // A lookup table of the wrong size.
    let short = LookupTable::from_body_polynomial(&P, vec![0; 1024], 0);
    match short {
        Err(Error::DimensionMismatch {
            expected: 2048,
            got: 1024,
            ..
        }) => {}
        other => panic!("expected a size mismatch, got {other:?}"),
    }
    let mut small_params = P;
    small_params.polynomial_size = PolynomialSize(1024);
    let foreign = LookupTable::new(&small_params, |x| x).unwrap();
    let err = sk.apply_lookup_table(&ct, &foreign).unwrap_err();
    assert_eq!(
        err.to_string(),
        "polynomial size of the lookup table mismatch: expected 2048, got 1024"
    );

    // A ciphertext of the wrong dimension.
    let mut out = LweCiphertextOwned::new_zero(P.lwe_dimension.to_lwe_size());
    let wrong = LweCiphertextOwned::new_zero(LweSize(100));
    let err = keyswitch_lwe_ciphertext(sk.keyswitch_key(), &wrong, &mut out).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                expected: 2048,
                got: 99,
                ..
            }
        ),
        "{err}"
    );
    let mut wrong_out = LweCiphertextOwned::new_zero(LweSize(10));
    let err =
        keyswitch_lwe_ciphertext(sk.keyswitch_key(), ct.as_lwe(), &mut wrong_out).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                expected: 919,
                got: 10,
                ..
            }
        ),
        "{err}"
    );
    let err = decrypt_lwe_ciphertext(ck.small_lwe_secret_key(), ct.as_lwe()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                expected: 919,
                got: 2049,
                ..
            }
        ),
        "{err}"
    );

    // Values outside the block, and operations beyond its capacity.
    assert!(ck.encrypt(4).is_err());
    assert!(ck.encrypt_with_carry(16).is_err());
    let big = ck.encrypt_with_carry(15).unwrap();
    let mut sum = big.clone();
    assert!(matches!(
        sk.unchecked_add_assign(&mut sum, &big),
        Err(Error::CapacityExceeded(_))
    ));
    assert_eq!(
        sum, big,
        "a failed operation must leave its operand unchanged"
    );
    let mul = sk.generate_lookup_table_bivariate(|a, b| a * b).unwrap();
    assert!(sk.apply_lookup_table_bivariate(&big, &ct, &mul).is_err());
}
