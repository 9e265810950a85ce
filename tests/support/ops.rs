//! Every high-level operation, on the parameters and the backend of the module
//! that includes this one (its `keys`, and its `setup` and `counting_setup`,
//! which set a server key on the thread, or return `None` after printing a skip
//! where the backend is missing): all of them on FheUint8, 64-bit addition and
//! subtraction, FheBool, casts and encryption; `ops_wide.rs` has the other 64-bit
//! and 256-bit ones. Expected values come from the same operation on the clear type.
//! Written once: included for the CPU and for a GPU, on the classical and the
//! multi-bit default parameters (on the CPU, the multi-bit ones run it on their
//! insecure test twin: `multi_bit_test_parameters.rs`).

use super::common::Rng;
use super::{counting_setup, setup};
use gpufhe::prelude::*;
use gpufhe::{FheBool, FheUint16, FheUint64, FheUint8};

fn enc8(v: u8) -> FheUint8 {
    FheUint8::encrypt(v, &super::keys().0)
}

fn dec8(x: &FheUint8) -> u8 {
    x.decrypt(&super::keys().0)
}

pub(super) fn enc64(v: u64) -> FheUint64 {
    FheUint64::encrypt(v, &super::keys().0)
}

pub(super) fn dec64(x: &FheUint64) -> u64 {
    x.decrypt(&super::keys().0)
}

pub(super) fn dec_bool(x: &FheBool) -> bool {
    x.decrypt(&super::keys().0)
}

/// Edge operands (zero, carries through every block, maximum) and random ones.
fn pairs8() -> Vec<(u8, u8)> {
    let mut rng = Rng::new(8);
    let mut pairs = vec![(0, 0), (255, 1), (255, 255), (0x5a, 0xa5)];
    pairs.extend((0..2).map(|_| (rng.next_u64() as u8, rng.next_u64() as u8)));
    pairs
}

pub(super) fn pairs64() -> Vec<(u64, u64)> {
    let mut rng = Rng::new(64);
    vec![
        (u64::MAX, 1), // the carry crosses all 32 blocks
        (0, 0),
        (u64::MAX, u64::MAX),
        (rng.next_u64(), rng.next_u64()),
    ]
}

#[test]
fn u8_addition_subtraction_and_negation() {
    let Some(_) = setup() else { return };
    for (a, b) in pairs8() {
        let (ea, eb) = (enc8(a), enc8(b));
        let ctx = format!("{a}, {b}");
        assert_eq!(dec8(&(&ea + &eb)), a.wrapping_add(b), "{ctx}");
        assert_eq!(dec8(&(ea.clone() + eb.clone())), a.wrapping_add(b), "{ctx}");
        assert_eq!(dec8(&(&ea + b)), a.wrapping_add(b), "{ctx}");
        assert_eq!(dec8(&(b + &ea)), a.wrapping_add(b), "{ctx}");
        assert_eq!(dec8(&(&ea - &eb)), a.wrapping_sub(b), "{ctx}");
        assert_eq!(dec8(&(&ea - b)), a.wrapping_sub(b), "{ctx}");
        assert_eq!(dec8(&(b - &ea)), b.wrapping_sub(a), "{ctx}");
        assert_eq!(dec8(&(-&ea)), a.wrapping_neg(), "{ctx}");
        assert_eq!(dec8(&ea.try_add(&eb).unwrap()), a.wrapping_add(b));
        assert_eq!(dec8(&ea.try_sub_from(b).unwrap()), b.wrapping_sub(a));
        let mut x = ea.clone();
        x += &eb;
        x -= b;
        x += eb.clone();
        assert_eq!(dec8(&x), a.wrapping_add(b), "{ctx}");
    }
}

#[test]
fn u8_multiplication() {
    let Some(_) = setup() else { return };
    for (a, b) in [(255u8, 255u8), (0x5a, 0xa5), (17, 15), (0, 200)] {
        let (ea, eb) = (enc8(a), enc8(b));
        assert_eq!(dec8(&(&ea * &eb)), a.wrapping_mul(b), "{a} * {b}");
        assert_eq!(dec8(&(&ea * b)), a.wrapping_mul(b), "{a} * {b} (clear)");
        assert_eq!(
            dec8(&(b * &ea)),
            a.wrapping_mul(b),
            "{b} * {a} (clear left)"
        );
        let mut x = ea.clone();
        x *= &eb;
        assert_eq!(dec8(&x), a.wrapping_mul(b));
    }
}

#[test]
fn u8_bitwise_operations() {
    let Some(_) = setup() else { return };
    for (a, b) in pairs8() {
        let (ea, eb) = (enc8(a), enc8(b));
        assert_eq!(dec8(&(&ea & &eb)), a & b);
        assert_eq!(dec8(&(&ea | &eb)), a | b);
        assert_eq!(dec8(&(&ea ^ &eb)), a ^ b);
        assert_eq!(dec8(&(ea.clone() & eb.clone())), a & b);
        assert_eq!(dec8(&(&ea & b)), a & b);
        assert_eq!(dec8(&(&ea | b)), a | b);
        assert_eq!(dec8(&(&ea ^ b)), a ^ b);
        assert_eq!(dec8(&(b & &ea)), a & b);
        assert_eq!(dec8(&(b | ea.clone())), a | b);
        assert_eq!(dec8(&(b ^ &ea)), a ^ b);
        assert_eq!(dec8(&!&ea), !a);
        assert_eq!(dec8(&ea.try_not().unwrap()), !a);
        let mut x = ea.clone();
        x &= &eb;
        x |= 0x81u8;
        x ^= &eb;
        assert_eq!(dec8(&x), ((a & b) | 0x81) ^ b);
    }
}

#[test]
fn u8_equality() {
    let Some(_) = setup() else { return };
    let mut pairs = pairs8();
    pairs.push((77, 77));
    for (a, b) in pairs {
        let (ea, eb) = (enc8(a), enc8(b));
        assert_eq!(dec_bool(&ea.eq(&eb)), a == b, "{a} == {b}");
        assert_eq!(dec_bool(&ea.ne(eb.clone())), a != b, "{a} != {b}");
        assert_eq!(dec_bool(&ea.try_eq(&eb).unwrap()), a == b);
    }
}

#[test]
fn u8_comparisons() {
    let Some(_) = setup() else { return };
    let mut pairs = pairs8();
    pairs.extend([(77, 77), (0, 255), (128, 127)]);
    for (a, b) in pairs {
        let (ea, eb) = (enc8(a), enc8(b));
        let ctx = format!("{a} vs {b}");
        assert_eq!(dec_bool(&ea.lt(&eb)), a < b, "{ctx}");
        assert_eq!(dec_bool(&ea.le(&eb)), a <= b, "{ctx}");
        assert_eq!(dec_bool(&ea.gt(&eb)), a > b, "{ctx}");
        assert_eq!(dec_bool(&ea.ge(&eb)), a >= b, "{ctx}");
        assert_eq!(dec_bool(&ea.lt(b)), a < b, "{ctx} (clear)");
        assert_eq!(dec_bool(&ea.le(b)), a <= b, "{ctx} (clear)");
        assert_eq!(dec_bool(&ea.gt(b)), a > b, "{ctx} (clear)");
        assert_eq!(dec_bool(&ea.ge(b)), a >= b, "{ctx} (clear)");
        assert_eq!(dec_bool(&ea.eq(b)), a == b, "{ctx} (clear)");
        assert_eq!(dec_bool(&ea.ne(b)), a != b, "{ctx} (clear)");
    }
}

#[test]
fn u8_min_and_max() {
    let Some(_) = setup() else { return };
    for (a, b) in pairs8() {
        let (ea, eb) = (enc8(a), enc8(b));
        assert_eq!(dec8(&ea.min(&eb)), a.min(b), "min({a}, {b})");
        assert_eq!(dec8(&ea.max(&eb)), a.max(b), "max({a}, {b})");
        assert_eq!(dec8(&ea.min(b)), a.min(b), "min({a}, {b}) (clear)");
        assert_eq!(dec8(&ea.max(b)), a.max(b), "max({a}, {b}) (clear)");
    }
}

#[test]
fn u8_selection() {
    let Some(ck) = setup() else { return };
    let (ea, eb) = (enc8(200), enc8(13));
    for cond in [false, true] {
        let c = FheBool::encrypt(cond, ck);
        let want = if cond { 200 } else { 13 };
        assert_eq!(dec8(&FheBool::select(&c, &ea, &eb)), want);
        assert_eq!(dec8(&c.if_then_else(&ea, &eb)), want);
        assert_eq!(dec8(&FheBool::try_select(&c, &ea, &eb).unwrap()), want);
        let (x, y) = (FheBool::encrypt(true, ck), FheBool::encrypt(false, ck));
        assert_eq!(dec_bool(&c.if_then_else(&x, &y)), cond);
        // A trivial condition picks without computing.
        let t = FheBool::encrypt_trivial(cond);
        assert_eq!(dec8(&t.if_then_else(&ea, &eb)), want);
    }
}

#[test]
fn u8_shifts_and_rotations_by_clear_amounts() {
    let Some(_) = setup() else { return };
    for a in [0x81u8, 0xff, 0x5a] {
        let ea = enc8(a);
        for k in [0u8, 1, 3, 7, 8, 13] {
            let ctx = format!("{a:#x} by {k}");
            let s = (k % 8) as u32;
            assert_eq!(dec8(&(&ea << k)), a.wrapping_shl(s), "{ctx}");
            assert_eq!(dec8(&(&ea >> k)), a.wrapping_shr(s), "{ctx}");
            assert_eq!(dec8(&(&ea << k as u32)), a.wrapping_shl(s), "{ctx} (u32)");
            assert_eq!(dec8(&(&ea).rotate_left(k)), a.rotate_left(s), "{ctx}");
            assert_eq!(
                dec8(&(&ea).rotate_right(k as u32)),
                a.rotate_right(s),
                "{ctx}"
            );
        }
        let mut x = ea.clone();
        x <<= 2u32;
        x >>= 1u8;
        x.rotate_left_assign(3u8);
        x.rotate_right_assign(1u32);
        assert_eq!(dec8(&x), ((a << 2) >> 1).rotate_left(3).rotate_right(1));
    }
}

#[test]
fn u8_shifts_and_rotations_by_encrypted_amounts() {
    let Some(_) = setup() else { return };
    let a = 0xb6u8;
    let ea = enc8(a);
    for k in [0u8, 3, 7, 9] {
        let ek = enc8(k);
        let s = (k % 8) as u32;
        assert_eq!(dec8(&(&ea << &ek)), a.wrapping_shl(s), "<< {k}");
        assert_eq!(dec8(&(&ea >> &ek)), a.wrapping_shr(s), ">> {k}");
        assert_eq!(dec8(&(&ea).rotate_left(&ek)), a.rotate_left(s), "rotl {k}");
        assert_eq!(
            dec8(&ea.clone().rotate_right(ek)),
            a.rotate_right(s),
            "rotr {k}"
        );
    }
}

#[test]
fn u8_overflowing_arithmetic() {
    let Some(_) = setup() else { return };
    for (a, b) in pairs8() {
        let (ea, eb) = (enc8(a), enc8(b));
        let (sum, carry) = (&ea).overflowing_add(&eb);
        assert_eq!(
            (dec8(&sum), dec_bool(&carry)),
            a.overflowing_add(b),
            "{a} + {b}"
        );
        let (sum, carry) = (&ea).overflowing_add(b);
        assert_eq!(
            (dec8(&sum), dec_bool(&carry)),
            a.overflowing_add(b),
            "{a} + {b}"
        );
        let (diff, borrow) = (&ea).overflowing_sub(&eb);
        assert_eq!(
            (dec8(&diff), dec_bool(&borrow)),
            a.overflowing_sub(b),
            "{a} - {b}"
        );
        let (diff, borrow) = ea.overflowing_sub(b);
        assert_eq!(
            (dec8(&diff), dec_bool(&borrow)),
            a.overflowing_sub(b),
            "{a} - {b}"
        );
    }
}

#[test]
fn u8_sums() {
    let Some(_) = setup() else { return };
    let clear = [255u8, 1, 7, 200, 0];
    let values: Vec<FheUint8> = clear.iter().map(|&v| enc8(v)).collect();
    let want = clear.iter().fold(0u8, |s, &v| s.wrapping_add(v));
    assert_eq!(dec8(&FheUint8::sum(&values).unwrap()), want);
    assert_eq!(dec8(&values.iter().sum::<FheUint8>()), want);
    assert_eq!(dec8(&values.clone().into_iter().sum::<FheUint8>()), want);
    assert_eq!(dec8(&FheUint8::sum(&values[..1]).unwrap()), 255);
    assert_eq!(dec8(&FheUint8::sum(&[]).unwrap()), 0);
    let sums = FheUint8::batch_sum(&[&values[..2], &values[2..], &[]]).unwrap();
    let got: Vec<u8> = sums.iter().map(dec8).collect();
    assert_eq!(got, [0, 207, 0]); // 255 + 1; 7 + 200 + 0; nothing
}

#[test]
fn integer_casts() {
    let Some(ck) = setup() else { return };
    let a = enc8(0xa7);
    let wide: FheUint16 = a.clone().cast_into();
    assert_eq!(FheDecrypt::<u16>::decrypt(&wide, ck), 0xa7);
    let big = FheUint64::cast_from(a.clone());
    assert_eq!(dec64(&big), 0xa7);
    let narrow: FheUint8 = FheUint16::encrypt(0x1234u16, ck).cast_into();
    assert_eq!(dec8(&narrow), 0x34);
    let same: FheUint8 = a.cast_into();
    assert_eq!(dec8(&same), 0xa7);
    for b in [false, true] {
        let as_int: FheUint8 = FheBool::encrypt(b, ck).cast_into();
        assert_eq!(dec8(&as_int), b as u8);
    }
}

#[test]
fn integer_to_boolean_cast_is_not_zero() {
    let Some(_) = setup() else { return };
    for v in [0u8, 1, 4, 255] {
        let b: FheBool = enc8(v).cast_into();
        assert_eq!(dec_bool(&b), v != 0, "{v}");
    }
}

#[test]
fn boolean_operations() {
    let Some(ck) = setup() else { return };
    for a in [false, true] {
        for b in [false, true] {
            let (ea, eb) = (FheBool::encrypt(a, ck), FheBool::encrypt(b, ck));
            let ctx = format!("{a}, {b}");
            assert_eq!(dec_bool(&(&ea & &eb)), a & b, "{ctx}");
            assert_eq!(dec_bool(&(&ea | &eb)), a | b, "{ctx}");
            assert_eq!(dec_bool(&(&ea ^ &eb)), a ^ b, "{ctx}");
            assert_eq!(dec_bool(&(ea.clone() & eb.clone())), a & b, "{ctx}");
            assert_eq!(dec_bool(&(&ea & b)), a & b, "{ctx} (clear)");
            assert_eq!(dec_bool(&(&ea | b)), a | b, "{ctx} (clear)");
            assert_eq!(dec_bool(&(&ea ^ b)), a ^ b, "{ctx} (clear)");
            assert_eq!(dec_bool(&(b ^ &ea)), a ^ b, "{ctx} (clear left)");
            assert_eq!(dec_bool(&ea.eq(&eb)), a == b, "{ctx}");
            assert_eq!(dec_bool(&ea.ne(&eb)), a != b, "{ctx}");
            assert_eq!(dec_bool(&ea.eq(b)), a == b, "{ctx} (clear)");
            assert_eq!(dec_bool(&ea.ne(b)), a != b, "{ctx} (clear)");
            let mut x = ea.clone();
            x &= &eb;
            x |= b;
            x ^= eb.clone();
            assert_eq!(dec_bool(&x), ((a & b) | b) ^ b, "{ctx}");
        }
        let ea = FheBool::encrypt(a, ck);
        // Boolean not is 1 - x: a second not gives the value back.
        assert_eq!(dec_bool(&!&ea), !a);
        assert_eq!(dec_bool(&!!ea.clone()), a);
        assert_eq!(dec_bool(&ea.try_not().unwrap()), !a);
    }
}

#[test]
fn encryption_wraps_and_try_forms_check() {
    let Some(ck) = setup() else { return };
    let x = FheUint8::encrypt(0x1234u16, ck);
    assert_eq!(dec8(&x), 0x34);
    assert!(FheUint8::try_encrypt(256u16, ck).is_err());
    let y = FheUint16::try_encrypt(300u64, ck).unwrap();
    let wrapped: u8 = y.decrypt(ck);
    assert_eq!(wrapped, 44);
    assert!(FheTryDecrypt::<u8>::try_decrypt(&y, ck).is_err());
    assert_eq!(FheTryDecrypt::<u16>::try_decrypt(&y, ck).unwrap(), 300);
    let wide: u128 = y.decrypt(ck);
    assert_eq!(wide, 300);
    let m = FheUint64::encrypt(u64::MAX, ck);
    let low: u32 = m.decrypt(ck);
    assert_eq!(low, u32::MAX);
    assert!(FheBool::try_encrypt(true, ck)
        .unwrap()
        .try_decrypt(ck)
        .unwrap());
}

#[test]
fn u64_addition_and_subtraction() {
    let Some(_) = setup() else { return };
    for (a, b) in pairs64() {
        let (ea, eb) = (enc64(a), enc64(b));
        assert_eq!(dec64(&(&ea + &eb)), a.wrapping_add(b), "{a} + {b}");
        assert_eq!(dec64(&(&ea - &eb)), a.wrapping_sub(b), "{a} - {b}");
        assert_eq!(dec64(&(&eb - &ea)), b.wrapping_sub(a), "{b} - {a}");
    }
    let (zero, one) = (enc64(0), enc64(1));
    assert_eq!(
        dec64(&(&zero - &one)),
        u64::MAX,
        "the borrow crosses all 32 blocks"
    );
    assert_eq!(dec64(&(u64::MAX - &one)), u64::MAX - 1);
}

#[test]
fn u8_addition_costs_at_most_eight_bootstraps() {
    let Some((_, key)) = counting_setup() else {
        return;
    };
    let (ea, eb) = (enc8(250), enc8(9));
    let before = key.pbs_count();
    assert_eq!(dec8(&(&ea + &eb)), 3);
    assert!(key.pbs_count() - before <= 8);
}
