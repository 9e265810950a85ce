//! The wide-operand half of `ops.rs` (which must be included beside it, as `ops`):
//! 64-bit products (on a GPU), comparisons, shifts, selection and bootstrap counts, and
//! `FheUint256` above 2^128, on the secure parameters and the backend of the module
//! that includes both. Included for the classical parameters on the CPU and on a
//! GPU, and for the multi-bit ones on a GPU. The multi-bit CPU suite runs only
//! `ops.rs`: its circuits are the classical ones block for block (same bootstrap
//! counts), so what the multi-bit key changes (every kind of table, bivariate and
//! many-function bootstraps, carries across 32 blocks) is covered there, in
//! two fifths of the CPU time.

use super::common::Rng;
use super::ops::{dec64, dec_bool, enc64, pairs64};
use super::{counting_setup, setup};
use gpufhe::prelude::*;
use gpufhe::FheBool;

/// A 64-bit product, within TFHE-rs's bootstrap count: a test of the GPU suites
/// (their `u64_multiplication`). On the CPU the integer layer runs the same circuit
/// on the default parameters with its exact count
/// (`tests/integer/integer_arithmetic_default_parameters.rs`, `u64_multiplication`):
/// twice would add a minute of CI for no new path.
#[allow(dead_code)]
pub(super) fn u64_multiplication() {
    let Some((_, key)) = counting_setup() else {
        return;
    };
    let mut rng = Rng::new(6464);
    let (a, b) = (rng.next_u64(), rng.next_u64());
    let (ea, eb) = (enc64(a), enc64(b));
    let before = key.pbs_count();
    let product = &ea * &eb;
    assert!(
        key.pbs_count() - before <= 1737,
        "TFHE-rs needs 1,737 bootstraps"
    );
    assert_eq!(dec64(&product), a.wrapping_mul(b), "{a} * {b}");
}

#[test]
fn u64_comparisons_and_bitand() {
    let Some(_) = setup() else { return };
    let mut pairs = pairs64();
    pairs.push((0xdead_beef_0000_0001, 0xdead_beef_0000_0001));
    pairs.push((1 << 63, (1 << 63) - 1));
    for (a, b) in pairs {
        let (ea, eb) = (enc64(a), enc64(b));
        assert_eq!(dec_bool(&ea.eq(&eb)), a == b, "{a} == {b}");
        assert_eq!(dec_bool(&ea.lt(&eb)), a < b, "{a} < {b}");
        assert_eq!(dec64(&(&ea & &eb)), a & b, "{a} & {b}");
    }
}

#[test]
fn u64_shift_left() {
    let Some(_) = setup() else { return };
    let a = 0x8000_0001_dead_beefu64;
    let ea = enc64(a);
    for k in [0u32, 1, 31, 63, 64, 100] {
        assert_eq!(dec64(&(&ea << k)), a.wrapping_shl(k), "<< {k}");
    }
    let k = 37u64;
    assert_eq!(dec64(&(&ea << &enc64(k))), a << k, "<< encrypted {k}");
}

#[test]
fn u64_selection() {
    let Some(ck) = setup() else { return };
    let (a, b) = (u64::MAX, 0x0123_4567_89ab_cdef);
    let (ea, eb) = (enc64(a), enc64(b));
    for cond in [false, true] {
        let c = FheBool::encrypt(cond, ck);
        assert_eq!(dec64(&c.if_then_else(&ea, &eb)), if cond { a } else { b });
    }
}

/// The bootstrap counts of the reference library (TFHE-rs) for 64-bit operands are
/// upper bounds; bitwise and equality have known exact counts.
#[test]
fn u64_bootstrap_counts() {
    let Some((_, key)) = counting_setup() else {
        return;
    };
    let (ea, eb) = (enc64(3), enc64(5));
    let count = |f: &dyn Fn()| {
        let before = key.pbs_count();
        f();
        key.pbs_count() - before
    };
    assert_eq!(count(&|| drop(&ea & &eb)), 32, "bitand");
    assert_eq!(count(&|| drop(ea.eq(&eb))), 42, "eq");
    assert!(count(&|| drop(&ea + &eb)) <= 64, "add");
    assert!(count(&|| drop(&ea - &eb)) <= 64, "sub");
    assert!(count(&|| drop(&ea + 12345u64)) <= 63, "scalar add");
    assert!(count(&|| drop(ea.lt(&eb))) <= 47, "lt");
}

/// `FheUint256` on the secure parameters with values above 2^128: an addition whose
/// carry crosses the middle, a product by a clear value, comparisons (the other
/// operations run on the test parameters in `fhe_uint256.rs`).
#[test]
fn u256_arithmetic_and_comparisons_above_2_128() {
    use gpufhe::integer::U256;
    use gpufhe::FheUint256;
    let Some((ck, key)) = counting_setup() else {
        return;
    };
    let a = U256::from((u128::MAX - 1, 0x0123_4567_89ab_cdef_0011_2233_4455_6677));
    let b = U256::from((3u128, 1u128 << 100));
    let (ea, eb) = (FheUint256::encrypt(a, ck), FheUint256::encrypt(b, ck));
    let dec = |x: &FheUint256| -> U256 { x.decrypt(ck) };
    let before = key.pbs_count();
    let sum = &ea + &eb;
    let add = key.pbs_count() - before;
    assert_eq!(dec(&sum), a + b);
    assert_eq!(
        dec(&sum),
        U256::from((
            1u128,
            (1u128 << 100) + 0x0123_4567_89ab_cdef_0011_2233_4455_6678
        ))
    );
    assert_eq!(dec(&(&ea * U256::from(3u8))), a * U256::from(3u8));
    assert!(eb.lt(&ea).decrypt(ck), "b < a");
    assert!(!sum.eq(a).decrypt(ck), "a + b != a");
    eprintln!("FheUint256 addition: {add} bootstraps");
    assert!(
        add <= 2 * 128 + 64,
        "{add} bootstraps for a 256-bit addition"
    );
}
