//! What `FheInt` has as `FheUint` has it (as TFHE-rs's `FheInt` does): division and
//! remainder, bit counts, parity, reversal, `ilog2`, overflowing and checked
//! arithmetic, GPU size queries. Encrypt, operate, decrypt, compare with Rust's
//! wrapping, `overflowing_*` and bit methods on the clear type (TFHE-rs's results
//! where Rust has none: a zero divisor, the logarithm of a value <= 0).
//!
//! The default (secure) parameters run a few cases of every operation on `FheInt8`
//! as one batch; the insecure test parameters run edge and random cases, and count
//! the bootstraps of a division against the unsigned one.

use crate::{common, insecure_keys};

use gpufhe::prelude::*;
use gpufhe::{
    BinaryOp, ClientKey, ComparisonOp, FheBool, FheInt16, FheInt64, FheInt8, FheUint32, FheUint8,
    ServerKey,
};

const EDGES: [i8; 8] = [i8::MIN, i8::MIN + 1, -77, -1, 0, 1, 93, i8::MAX];

/// `(n / d, n % d)` of Rust's wrapping division on `bits` bits, TFHE-rs's `(-1, n)`
/// (`(1, n)` for a negative `n`) for `d = 0`.
fn div_rem(n: i128, d: i128, bits: u32) -> (i128, i128) {
    let wrap = |v: i128| (v << (128 - bits)) >> (128 - bits);
    match d {
        0 => (if n < 0 { 1 } else { -1 }, n),
        _ => (wrap(n / d), wrap(n % d)),
    }
}

/// A count of bits: the encrypted method and the clear one.
type Count = (fn(&FheInt8) -> FheUint32, fn(i8) -> u32);

const COUNTS: [Count; 6] = [
    (FheInt8::count_ones, i8::count_ones),
    (FheInt8::count_zeros, i8::count_zeros),
    (FheInt8::leading_zeros, i8::leading_zeros),
    (FheInt8::trailing_zeros, i8::trailing_zeros),
    (FheInt8::leading_ones, i8::leading_ones),
    (FheInt8::trailing_ones, i8::trailing_ones),
];

/// The counts of `x` and its logarithm, the logarithm's validity, parity and
/// reversal.
fn encrypted_bits(x: &FheInt8) -> (Vec<FheUint32>, FheBool, FheBool, FheInt8) {
    let (log, valid) = x.checked_ilog2();
    let mut counts: Vec<FheUint32> = COUNTS.iter().map(|(count, _)| count(x)).collect();
    counts.push(log);
    (counts, valid, x.is_even(), x.reverse_bits())
}

/// Decrypts [`encrypted_bits`] of `v` and checks them against Rust's methods (the
/// logarithm of the bits, as TFHE-rs computes it; valid for `v > 0`).
fn check_bits(v: i8, out: &(Vec<FheUint32>, FheBool, FheBool, FheInt8), ck: &ClientKey) {
    let (counts, valid, even, reversed) = out;
    let mut want: Vec<u32> = COUNTS.iter().map(|(_, count)| count(v)).collect();
    want.push((v as u8).checked_ilog2().unwrap_or(0));
    let mut got: Vec<u32> = counts.iter().map(|c| c.decrypt(ck)).collect();
    if v == 0 {
        got[6] = 0; // the logarithm of 0 is meaningless
    }
    assert_eq!(got, want, "counts and ilog2 of {v}");
    assert_eq!(valid.decrypt(ck), v > 0, "checked_ilog2 flag of {v}");
    assert_eq!(even.decrypt(ck), v % 2 == 0, "is_even({v})");
    assert_eq!(FheDecrypt::<i8>::decrypt(reversed, ck), v.reverse_bits());
}

/// `a op b` for `op` among `+ - *` on i8, with Rust's overflow flag.
fn overflowing(op: BinaryOp, a: i8, b: i8) -> (i8, bool) {
    match op {
        BinaryOp::Add => a.overflowing_add(b),
        BinaryOp::Sub => a.overflowing_sub(b),
        _ => a.overflowing_mul(b),
    }
}

/// The overflowing form of `op` on encrypted `x` and `rhs`.
fn encrypted_overflowing(op: BinaryOp, x: &FheInt8, rhs: &FheInt8) -> (FheInt8, FheBool) {
    match op {
        BinaryOp::Add => x.overflowing_add(rhs),
        BinaryOp::Sub => x.overflowing_sub(rhs),
        _ => x.overflowing_mul(rhs),
    }
}

const OPS: [BinaryOp; 3] = [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul];

/// One case of each operation (the cheap one where there is a choice), as one batch:
/// about 280 bootstraps.
#[test]
fn every_new_operation_on_fhe_int8_on_the_default_parameters() {
    let ck = common::setup();
    let server_key: &ServerKey = &common::keys().2;
    let enc = |v: i8| FheInt8::encrypt(v, ck);
    let (min, minus_one, a) = (enc(i8::MIN), enc(-1), enc(-100));
    let out = server_key
        .run_batch(&[()], |_| {
            let divisions = [
                min.div_rem(&minus_one), // wraps
                a.div_rem(-8i8),         // clear divisor, negative remainder
            ];
            let overflows = [
                (&min).overflowing_sub(&minus_one),
                (&a).overflowing_mul(2i8),
                a.checked_add(i8::MAX),
            ];
            (divisions, overflows, encrypted_bits(&a))
        })
        .expect("the batch runs")
        .remove(0);
    let (divisions, overflows, bits) = out;
    for ((q, r), (n, d)) in divisions.iter().zip([(i8::MIN, -1i8), (-100, -8)]) {
        let got: (i8, i8) = (q.decrypt(ck), r.decrypt(ck));
        assert_eq!(got, (n.wrapping_div(d), n.wrapping_rem(d)), "{n} / {d}");
    }
    let want = [
        i8::MIN.overflowing_sub(-1),
        (-100i8).overflowing_mul(2),
        (27, true), // checked_add: the flag says "valid"
    ];
    for ((value, flag), want) in overflows.iter().zip(want) {
        assert_eq!((value.decrypt(ck), flag.decrypt(ck)), want);
    }
    check_bits(-100, &bits, ck);
    // A clear zero divisor is refused before anything runs.
    assert!(a.try_div_rem(0i8).is_err());
}

#[test]
fn division_of_edge_and_random_pairs_matches_wrapping_div() {
    let ck = insecure_keys::setup();
    let server_key = &insecure_keys::keys().1;
    let mut rng = common::Rng::new(0x5eed);
    let mut pairs = vec![
        (i8::MIN, -1i8),
        (i8::MIN, 1),
        (i8::MIN, i8::MIN),
        (-77, 7),
        (77, -7),
        (-77, -7),
        (-1, 0), // TFHE-rs's (1, n) for an encrypted zero
        (0, 0),
        (i8::MAX, 0),
        (i8::MIN, 0),
        (93, i8::MAX),
        (i8::MAX, i8::MIN),
    ];
    pairs.extend((0..4).map(|_| (rng.next_u64() as i8, (rng.next_u64() >> 5) as i8)));
    let encrypted: Vec<(FheInt8, FheInt8)> = pairs
        .iter()
        .map(|&(n, d)| (FheInt8::encrypt(n, ck), FheInt8::encrypt(d, ck)))
        .collect();
    let out = server_key
        .run_batch(&encrypted, |(n, d)| n.div_rem(d))
        .expect("the batch runs");
    for (&(n, d), (q, r)) in pairs.iter().zip(&out) {
        let got: (i8, i8) = (q.decrypt(ck), r.decrypt(ck));
        let (q, r) = div_rem(n.into(), d.into(), 8);
        assert_eq!(got, (q as i8, r as i8), "{n} / {d}");
    }
}

#[test]
fn clear_divisors_operators_and_zero_divisors() {
    let ck = insecure_keys::setup();
    let server_key = &insecure_keys::keys().1;
    let divisors = [1i8, -1, 2, -3, 7, -10, i8::MIN, i8::MAX];
    let dividends = [i8::MIN, -77, -1, 93];
    let values: Vec<FheInt8> = dividends.iter().map(|&v| FheInt8::encrypt(v, ck)).collect();
    let out = server_key
        .run_batch(&values, |x| divisors.map(|d| x.div_rem(d)))
        .expect("the batch runs");
    for (&n, results) in dividends.iter().zip(&out) {
        for (&d, (q, r)) in divisors.iter().zip(results) {
            let got: (i8, i8) = (q.decrypt(ck), r.decrypt(ck));
            let (q, r) = div_rem(n.into(), d.into(), 8);
            assert_eq!(got, (q as i8, r as i8), "{n} / clear {d}");
        }
    }
    // The operators with borrowed, owned and clear right operands.
    let (x, y) = (FheInt8::encrypt(-125i8, ck), FheInt8::encrypt(6i8, ck));
    let dec = |v: &FheInt8| -> i8 { v.decrypt(ck) };
    assert_eq!(dec(&(&x / &y)), -20);
    assert_eq!(dec(&(x.clone() % -7i8)), -6);
    let mut z = x.clone();
    z /= -7i8;
    z %= &y;
    assert_eq!(dec(&z), 5); // -125 / -7 = 17, 17 % 6 = 5
                            // A clear zero is an error (the operators panic); an encrypted or trivial zero
                            // gives TFHE-rs's result.
    assert!(x.try_div(0i8).is_err() && x.try_rem(0i8).is_err());
    let panicked = std::panic::catch_unwind(|| &FheInt8::encrypt_trivial(1i8) / 0i8);
    assert!(panicked.is_err());
    let trivial_zero = FheInt8::encrypt_trivial(0i8);
    for (n, q) in [(&x, 1i8), (&y, -1)] {
        let (got_q, got_r) = n.div_rem(&trivial_zero);
        assert_eq!((dec(&got_q), dec(&got_r)), (q, dec(n)));
    }
}

#[test]
fn wider_signed_divisions() {
    let ck = insecure_keys::setup();
    for (n, d) in [(i16::MIN, -1i16), (-30_000, 7)] {
        let (q, r) = FheInt16::encrypt(n, ck).div_rem(FheInt16::encrypt(d, ck));
        let got: (i16, i16) = (q.decrypt(ck), r.decrypt(ck));
        let (q, r) = div_rem(n.into(), d.into(), 16);
        assert_eq!(got, (q as i16, r as i16), "{n} / {d}");
    }
    let n = -0x7edc_ba98_7654_3210i64;
    let x = FheInt64::encrypt(n, ck);
    for d in [1 << 40, i64::MIN] {
        let (q, r) = x.div_rem(d);
        let got: (i64, i64) = (q.decrypt(ck), r.decrypt(ck));
        assert_eq!(got, (n / d, n % d), "{n} / clear {d}");
    }
}

#[test]
fn bit_counts_parity_reversal_and_ilog2() {
    let ck = insecure_keys::setup();
    let server_key = &insecure_keys::keys().1;
    let mut values: Vec<i8> = EDGES.to_vec();
    values.extend([2, 64, -64, 0b0101_0000, -2]);
    let encrypted: Vec<FheInt8> = values.iter().map(|&v| FheInt8::encrypt(v, ck)).collect();
    let out = server_key
        .run_batch(&encrypted, encrypted_bits)
        .expect("the batch runs");
    for (&v, out) in values.iter().zip(&out) {
        check_bits(v, out, ck);
    }
    let x = FheInt8::encrypt(-3i8, ck);
    assert!(x.is_odd().decrypt(ck) && !x.try_is_even().unwrap().decrypt(ck));
    assert_eq!(FheDecrypt::<u32>::decrypt(&x.ilog2(), ck), 7); // the bits' logarithm
    let wide = FheInt16::encrypt(-1000i16, ck);
    let (log, valid) = wide.try_checked_ilog2().unwrap();
    assert_eq!(FheDecrypt::<u32>::decrypt(&log, ck), 15);
    assert!(!valid.decrypt(ck));
    let ones: u32 = wide.try_count_ones().unwrap().decrypt(ck);
    assert_eq!(ones, (-1000i16).count_ones());
    let reversed: i16 = wide.try_reverse_bits().unwrap().decrypt(ck);
    assert_eq!(reversed, (-1000i16).reverse_bits());
}

#[test]
fn overflowing_and_checked_arithmetic_flag_the_signed_range() {
    let ck = insecure_keys::setup();
    let server_key = &insecure_keys::keys().1;
    let corners = [i8::MIN, -1, 1, i8::MAX];
    let mut pairs: Vec<(i8, i8)> = corners
        .iter()
        .flat_map(|&a| corners.iter().map(move |&b| (a, b)))
        .collect();
    pairs.extend([(-77, 93), (93, 35), (-12, 11), (-12, -11)]);
    let encrypted: Vec<(FheInt8, FheInt8)> = pairs
        .iter()
        .map(|&(a, b)| (FheInt8::encrypt(a, ck), FheInt8::encrypt(b, ck)))
        .collect();
    let out = server_key
        .run_batch(&encrypted, |(x, y)| {
            OPS.map(|op| encrypted_overflowing(op, x, y))
        })
        .expect("the batch runs");
    for (&(a, b), results) in pairs.iter().zip(&out) {
        for (op, (value, flag)) in OPS.into_iter().zip(results) {
            let got: (i8, bool) = (value.decrypt(ck), flag.decrypt(ck));
            assert_eq!(got, overflowing(op, a, b), "{a} {op:?} {b}");
        }
    }
    // Clear right operands, owned receivers, and the checked forms' flags.
    let x = FheInt8::encrypt(-100i8, ck);
    for b in [i8::MIN, -29, 28] {
        let (value, flag) = x.clone().overflowing_add(b);
        assert_eq!(
            (value.decrypt(ck), flag.decrypt(ck)),
            (-100i8).overflowing_add(b)
        );
        let (value, flag) = (&x).overflowing_sub(b);
        assert_eq!(
            (value.decrypt(ck), flag.decrypt(ck)),
            (-100i8).overflowing_sub(b)
        );
        let (value, valid) = x.checked_mul(b);
        let want = (-100i8).overflowing_mul(b);
        assert_eq!((value.decrypt(ck), !valid.decrypt(ck)), want, "-100 * {b}");
    }
    let (value, valid) = x.try_checked_sub(FheInt8::encrypt(29i8, ck)).unwrap();
    assert_eq!(
        (FheDecrypt::<i8>::decrypt(&value, ck), valid.decrypt(ck)),
        (127, false)
    );
    let (value, valid) = x.try_checked_add(-28i8).unwrap();
    assert_eq!(
        (FheDecrypt::<i8>::decrypt(&value, ck), valid.decrypt(ck)),
        (-128, true)
    );
    let wide = FheInt64::encrypt(i64::MAX, ck);
    let (value, overflowed) = wide.overflowing_add(1i64);
    assert_eq!(FheDecrypt::<i64>::decrypt(&value, ck), i64::MIN);
    assert!(overflowed.decrypt(ck));
}

/// Bootstraps of one operation on a key of its own (tests run in parallel).
fn bootstraps(server_key: &ServerKey, op: impl FnOnce()) -> u64 {
    let before = server_key.stats().bootstraps;
    op();
    server_key.stats().bootstraps - before
}

#[test]
fn bootstraps_of_signed_division_against_unsigned() {
    let (ck, _) = insecure_keys::keys();
    let server_key = ServerKey::new(ck);
    gpufhe::set_server_key(server_key.clone());
    let (a, b) = (FheInt8::encrypt(-100i8, ck), FheInt8::encrypt(7i8, ck));
    let (ua, ub) = (FheUint8::encrypt(200u8, ck), FheUint8::encrypt(7u8, ck));
    let int8 = bootstraps(&server_key, || drop(a.div_rem(&b)));
    let uint8 = bootstraps(&server_key, || drop(ua.div_rem(&ub)));
    let int8_clear = bootstraps(&server_key, || drop(a.div_rem(10i8)));
    let uint8_clear = bootstraps(&server_key, || drop(ua.div_rem(10u8)));
    println!(
        "bootstraps per division (CPU key): FheInt8 {int8} (FheUint8 {uint8}), by a clear 10 \
         {int8_clear} ({uint8_clear})"
    );
    // Two magnitudes, the unsigned division, two conditional negations (fewer
    // bootstraps with the ripple carries of a few cores than with low-latency ones;
    // the 64-bit costs are pinned on the circuits, `integer::signed_div_rem`).
    assert!(
        int8 <= uint8 + 52 && int8_clear <= uint8_clear + 38,
        "{int8} {int8_clear}"
    );
}

#[test]
fn gpu_size_queries_need_no_gpu() {
    let ck = insecure_keys::setup();
    let a = FheInt8::encrypt(-7i8, ck);
    let b = FheInt8::encrypt(9i8, ck);
    let add = a.get_add_size_on_gpu(&b);
    assert!(add > 0 && a.get_add_size_on_gpu(3i8) < add);
    assert!(a.get_mul_size_on_gpu(&b) > add);
    assert!(a.get_lt_size_on_gpu(&b) > 0 && a.get_min_size_on_gpu(-3i8) > 0);
    assert!(a.get_right_shift_size_on_gpu(&b) > a.get_right_shift_size_on_gpu(2u32));
    let sizes = [
        a.try_get_size_on_gpu(BinaryOp::Max, &b).unwrap(),
        a.try_get_comparison_size_on_gpu(ComparisonOp::Ge, 5i8)
            .unwrap(),
    ];
    assert!(sizes.iter().all(|&s| s > 0));
}
