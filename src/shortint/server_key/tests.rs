//! Tests of the server key: every table on every value, batches against single
//! evaluations, and the checks of the inputs.

use super::*;
use crate::core_crypto::{DecompositionBaseLog, DecompositionLevelCount};
use crate::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;

fn check_all_values(params: ShortintParameters) {
    let ck = ClientKey::new(params).unwrap();
    let sk = ServerKey::new(&ck).unwrap();
    let f = |x: u64| (7 * x + 2) % 16;
    let lut = sk.generate_lookup_table(f).unwrap();
    for x in 0..params.total_modulus() {
        let out = sk
            .apply_lookup_table(&ck.encrypt_with_carry(x).unwrap(), &lut)
            .unwrap();
        assert_eq!(ck.decrypt_message_and_carry(&out).unwrap(), f(x), "f({x})");
    }
}

#[test]
fn lookup_tables_on_insecure_test_parameters() {
    check_all_values(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
}

#[test]
fn keyswitch_rounding_only_where_its_noise_is_negligible() {
    assert!(crate::shortint::DEFAULT_PARAMETERS.keyswitch_rounding_is_negligible());
    // Small test noise: the CPU keyswitches exactly, so batches give the same bits
    // as `apply_lookup_table` (the tests below).
    assert!(!PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2.keyswitch_rounding_is_negligible());
}

#[test]
fn batched_lookup_tables_match_one_at_a_time_bit_for_bit() {
    let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
    let sk = ServerKey::new(&ck).unwrap();
    let square = sk.generate_lookup_table(|x| x * x).unwrap();
    let plus_one = sk.generate_lookup_table(|x| x + 1).unwrap();
    let cts: Vec<Ciphertext> = (0..11).map(|x| ck.encrypt_with_carry(x).unwrap()).collect();
    let luts: Vec<&LookupTable> = (0..11)
        .map(|j| if j % 3 == 0 { &square } else { &plus_one })
        .collect();
    let batch = sk.apply_lookup_table_batch(&cts, &luts).unwrap();
    for (j, (ct, lut)) in cts.iter().zip(&luts).enumerate() {
        let one = sk.apply_lookup_table(ct, lut).unwrap();
        assert_eq!(batch[j], one, "block {j}");
        let x = j as u64;
        let expected = if j % 3 == 0 { x * x % 16 } else { x + 1 };
        assert_eq!(ck.decrypt_message_and_carry(&batch[j]).unwrap(), expected);
    }
    assert!(sk.apply_lookup_table_batch(&cts, &luts[..3]).is_err());
}

#[test]
fn bootstraps_split_over_threads_are_bit_identical() {
    let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
    let sk = ServerKey::new(&ck).unwrap();
    let lut = sk.generate_lookup_table(|x| (3 * x + 1) % 16).unwrap();
    for threads in [2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for count in [1usize, 2] {
            let cts: Vec<Ciphertext> = (0..count as u64)
                .map(|x| ck.encrypt_with_carry(x + 5).unwrap())
                .collect();
            let luts = vec![&lut; count];
            let split = pool.install(|| sk.apply_lookup_table_batch(&cts, &luts).unwrap());
            for (x, (ct, out)) in cts.iter().zip(&split).enumerate() {
                assert_eq!(*out, sk.apply_lookup_table(ct, &lut).unwrap());
                let x = x as u64 + 5;
                assert_eq!(ck.decrypt_message_and_carry(out).unwrap(), (3 * x + 1) % 16);
            }
        }
    }
}

#[test]
fn many_functions_from_one_bootstrap() {
    let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
    let sk = ServerKey::new(&ck).unwrap();
    let fs: [&dyn Fn(u64) -> u64; 4] = [&|x| x, &|x| x * 5, &|x| 15 - x, &|x| (x == 2) as u64];
    let lut = sk.generate_many_lookup_table(&fs).unwrap();
    assert_eq!(lut.input_bound(), 4);
    for x in 0..4 {
        let outs = sk
            .apply_many_lookup_table(&ck.encrypt(x).unwrap(), &lut)
            .unwrap();
        for (j, f) in fs.iter().enumerate() {
            assert_eq!(
                ck.decrypt_message_and_carry(&outs[j]).unwrap(),
                f(x),
                "f_{j}({x})"
            );
        }
    }
    // Inputs beyond the bound and counts that are not powers of two are errors.
    assert!(sk
        .apply_many_lookup_table(&ck.encrypt_with_carry(5).unwrap(), &lut)
        .is_err());
    assert!(sk.generate_many_lookup_table(&fs[..3]).is_err());
}

#[test]
fn multi_level_bootstrap_decomposition() {
    let mut params = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
    params.pbs_base_log = DecompositionBaseLog(12);
    params.pbs_level = DecompositionLevelCount(3);
    check_all_values(params);
}

#[test]
fn standard_modulus_switch_and_gaussian_noise() {
    let mut params = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
    params.modulus_switch = crate::core_crypto::ModulusSwitchType::Standard;
    params.glwe_noise_distribution = crate::core_crypto::NoiseDistribution::Gaussian {
        std_dev: 2f64.powi(-44),
    };
    params.lwe_noise_distribution = crate::core_crypto::NoiseDistribution::Gaussian {
        std_dev: 2f64.powi(-44),
    };
    check_all_values(params);
}

#[test]
fn invalid_parameters_are_rejected() {
    let mut params = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
    params.message_modulus = 3;
    assert!(ClientKey::new(params).is_err());
    let mut params = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
    params.ks_level = DecompositionLevelCount(17);
    assert!(ClientKey::new(params).is_err());
    let mut params = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
    params.polynomial_size = crate::core_crypto::PolynomialSize(1000);
    assert!(ClientKey::new(params).is_err());
}
