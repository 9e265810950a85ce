//! Oblivious pseudo-random values on the default (secure) parameters: determinism per
//! seed, the bound, every value reached about equally often (a chi-square test on
//! `FheUint2`), booleans, and the error without a server key.

use crate::common;

use common::setup;
use gpufhe::prelude::*;
use gpufhe::{unset_server_key, FheBool, FheUint2, FheUint64, FheUint8, Seed};

#[test]
fn values_are_uniform_and_fixed_by_their_seed() {
    let ck = setup();
    // 96 values of 2 bits through one batch-sized loop: each of 4 values about 24
    // times. Chi-square with 3 degrees of freedom: above 33 with probability 3.2e-7
    // (the key is fresh in every run, so the threshold bounds false alarms per run).
    let mut counts = [0usize; 4];
    for s in 0..96u128 {
        let v: u8 = FheUint2::generate_oblivious_pseudo_random(Seed(s)).decrypt(ck);
        counts[v as usize] += 1;
    }
    let chi2: f64 = counts
        .iter()
        .map(|&n| (n as f64 - 24.0).powi(2) / 24.0)
        .sum();
    assert!(chi2 < 33.0, "counts {counts:?}, chi2 {chi2}");

    let a: u8 = FheUint8::generate_oblivious_pseudo_random(Seed(7)).decrypt(ck);
    let b: u8 = FheUint8::generate_oblivious_pseudo_random(Seed(7)).decrypt(ck);
    assert_eq!(a, b, "one seed, one value");
    let wide: Vec<u64> = (0..3u128)
        .map(|s| FheUint64::generate_oblivious_pseudo_random(Seed(1000 + s)).decrypt(ck))
        .collect();
    assert!(
        wide[0] != wide[1] || wide[1] != wide[2],
        "three equal 64-bit values: {wide:?}"
    );
}

#[test]
fn bounded_values_booleans_and_errors() {
    let ck = setup();
    for bits in [0u64, 1, 3, 8] {
        let v: u8 = FheUint8::generate_oblivious_pseudo_random_bounded(Seed(bits as u128), bits)
            .decrypt(ck);
        assert!(u64::from(v) < 1 << bits, "{v} has more than {bits} bits");
    }
    let err = FheUint8::try_generate_oblivious_pseudo_random_bounded(Seed(0), 9).unwrap_err();
    assert!(err.to_string().contains("9 random bits"), "{err}");
    let bits: Vec<bool> = (0..20u128)
        .map(|s| FheBool::generate_oblivious_pseudo_random(Seed(s)).decrypt(ck))
        .collect();
    assert!(bits.contains(&true) && bits.contains(&false), "{bits:?}");
    unset_server_key();
    let err = FheUint8::try_generate_oblivious_pseudo_random(Seed(0)).unwrap_err();
    assert!(err.to_string().contains("set_server_key"), "{err}");
}

#[test]
fn byte_seeds_match_their_seed_and_differ_from_each_other() {
    let ck = setup();
    // 16 bytes are the `Seed` of those bytes (little-endian).
    let seed = 0x0102_0304_0506_0708_090a_0b0c_0d0e_0f10u128;
    let from_seed: u64 = FheUint64::generate_oblivious_pseudo_random(Seed(seed)).decrypt(ck);
    let bytes = seed.to_le_bytes().to_vec();
    let from_bytes: u64 = FheUint64::generate_oblivious_pseudo_random(&bytes).decrypt(ck);
    assert_eq!(from_seed, from_bytes);
    // Other lengths: one value per byte string, distinct from each other.
    let a: u64 = FheUint64::generate_oblivious_pseudo_random(b"session-42".as_slice()).decrypt(ck);
    let again: u64 =
        FheUint64::generate_oblivious_pseudo_random(b"session-42".to_vec()).decrypt(ck);
    let b: u64 = FheUint64::generate_oblivious_pseudo_random(b"session-43".as_slice()).decrypt(ck);
    let nonce = vec![7u8; 24];
    let c: u64 = FheUint64::generate_oblivious_pseudo_random(&nonce).decrypt(ck);
    let same: u64 = FheUint64::generate_oblivious_pseudo_random(nonce).decrypt(ck);
    assert_eq!(c, same);
    assert_eq!(a, again);
    assert!(a != b || b != c, "three equal 64-bit values: {a} {b} {c}");
}
