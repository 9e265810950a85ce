//! Signed integers on the default (secure) parameters: one test per operation family
//! on FheInt8 (and FheInt16 casts), and one FheInt64 addition and comparison, against
//! the same operation on the clear type. Operations take seconds here, so each test
//! batches a few edge operands.

use crate::common;

use common::{counting_setup, setup};
use gpufhe::prelude::*;
use gpufhe::{FheInt16, FheInt64, FheInt8, FheUint16, FheUint8};

const PAIRS: [(i8, i8); 4] = [(i8::MIN, -1), (-1, 1), (100, 100), (i8::MAX, -128)];

fn enc8(v: i8) -> FheInt8 {
    FheInt8::encrypt(v, &common::keys().0)
}

fn dec8(x: &FheInt8) -> i8 {
    x.decrypt(&common::keys().0)
}

#[test]
fn arithmetic_wraps() {
    let ck = setup();
    for (a, b) in PAIRS {
        let (x, y) = (enc8(a), enc8(b));
        assert_eq!(dec8(&(&x + &y)), a.wrapping_add(b), "{a} + {b}");
        assert_eq!(dec8(&(&x - b)), a.wrapping_sub(b), "{a} - {b}");
        assert_eq!(dec8(&(&x * &y)), a.wrapping_mul(b), "{a} * {b}");
        assert_eq!(dec8(&(&x ^ &y)), a ^ b, "{a} ^ {b}");
        assert_eq!(dec8(&-&x), a.wrapping_neg(), "-{a}");
    }
    let x = FheInt64::encrypt(-5_000_000_000i64, ck);
    let y = FheInt64::encrypt(i64::MAX, ck);
    let sum: i64 = (&x + &y).decrypt(ck);
    assert_eq!(sum, (-5_000_000_000i64).wrapping_add(i64::MAX));
}

#[test]
fn comparisons_and_min_max() {
    let (ck, server_key) = counting_setup();
    for (a, b) in PAIRS {
        let (x, y) = (enc8(a), enc8(b));
        assert_eq!(x.lt(&y).decrypt(ck), a < b, "{a} < {b}");
        assert_eq!(x.ge(b).decrypt(ck), a >= b, "{a} >= {b}");
        assert_eq!(x.eq(&y).decrypt(ck), a == b, "{a} == {b}");
        assert_eq!(dec8(&x.min(&y)), a.min(b), "min({a}, {b})");
        assert_eq!(dec8(&x.max(b)), a.max(b), "max({a}, {b})");
    }
    let x = FheInt64::encrypt(-1i64, ck);
    let y = FheInt64::encrypt(1i64, ck);
    let before = server_key.stats().bootstraps;
    assert!(x.lt(&y).decrypt(ck));
    let used = server_key.stats().bootstraps - before;
    assert!(
        used <= 47,
        "a 64-bit signed comparison took {used} bootstraps"
    );
    assert!(!y.le(i64::MIN).decrypt(ck));
}

#[test]
fn shifts_abs_and_casts() {
    let ck = setup();
    for (a, _) in PAIRS {
        let x = enc8(a);
        assert_eq!(dec8(&(&x >> 3u32)), a >> 3, "{a} >> 3");
        assert_eq!(dec8(&(&x << 9u32)), a.wrapping_shl(9), "{a} << 9");
        assert_eq!(dec8(&x.abs()), a.wrapping_abs(), "abs({a})");
        let wide: i16 = FheInt16::cast_from(x.clone()).decrypt(ck);
        assert_eq!(wide, a as i16);
        let unsigned: u16 = FheUint16::cast_from(x).decrypt(ck);
        assert_eq!(unsigned, a as u16);
    }
    let x = enc8(-100);
    let amount = FheUint8::encrypt(5u8, ck);
    assert_eq!(dec8(&(&x >> &amount)), -100 >> 5);
    let narrow: i8 = FheInt8::cast_from(FheUint16::encrypt(0x1ff_u16, ck)).decrypt(ck);
    assert_eq!(narrow, 0x1ff_u16 as i8);
}
