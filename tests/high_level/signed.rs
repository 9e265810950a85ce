//! Signed integers (`FheInt8` ... `FheInt128`) on **insecure** fast parameters: every
//! operation against Rust's wrapping arithmetic on edge values (MIN, MAX, -1, 0, ...),
//! shifts by 0 and by at least the width, casts both ways, encryption, trivial
//! values, serialization, selection and batches.

use crate::params;

use gpufhe::prelude::*;
use gpufhe::serialization::{safe_deserialize, safe_serialize, with_insecure_parameters_allowed};
use gpufhe::{
    set_server_key, BinaryOp, ClientKey, ComparisonOp, CompressedServerKey, ConfigBuilder, FheBool,
    FheInt128, FheInt16, FheInt32, FheInt64, FheInt8, FheUint16, FheUint32, FheUint64, FheUint8,
    ServerKey,
};
use params::small_parameters;
use std::sync::OnceLock;

/// One key pair on the insecure test parameters for the whole file.
fn setup() -> &'static ClientKey {
    static KEYS: OnceLock<(ClientKey, ServerKey)> = OnceLock::new();
    let (client_key, server_key) = KEYS.get_or_init(|| {
        let config = ConfigBuilder::default()
            .with_insecure_custom_parameters(small_parameters())
            .expect("parameters");
        let client_key = ClientKey::generate(config);
        let server_key = CompressedServerKey::new(&client_key).decompress();
        (client_key, server_key)
    });
    set_server_key(server_key.clone());
    client_key
}

const EDGES_8: [i8; 8] = [i8::MIN, i8::MIN + 1, -77, -1, 0, 1, 93, i8::MAX];

fn enc8(v: i8, ck: &ClientKey) -> FheInt8 {
    FheInt8::encrypt(v, ck)
}

fn dec8(x: &FheInt8, ck: &ClientKey) -> i8 {
    x.decrypt(ck)
}

#[test]
fn arithmetic_and_bitwise_wrap_like_rust() {
    let ck = setup();
    for &a in &EDGES_8 {
        let x = enc8(a, ck);
        assert_eq!(dec8(&-&x, ck), a.wrapping_neg(), "-{a}");
        assert_eq!(dec8(&!&x, ck), !a, "!{a}");
        assert_eq!(dec8(&(5i8 - &x), ck), 5i8.wrapping_sub(a), "5 - {a}");
        for &b in &EDGES_8 {
            let y = enc8(b, ck);
            assert_eq!(dec8(&(&x + &y), ck), a.wrapping_add(b), "{a} + {b}");
            assert_eq!(dec8(&(&x - &y), ck), a.wrapping_sub(b), "{a} - {b}");
            assert_eq!(dec8(&(&x * &y), ck), a.wrapping_mul(b), "{a} * {b}");
            assert_eq!(dec8(&(&x & &y), ck), a & b, "{a} & {b}");
            assert_eq!(dec8(&(&x | b), ck), a | b, "{a} | {b}");
            assert_eq!(dec8(&(&x ^ &y), ck), a ^ b, "{a} ^ {b}");
            assert_eq!(dec8(&(&x + b), ck), a.wrapping_add(b), "{a} + clear {b}");
            assert_eq!(dec8(&(&x - b), ck), a.wrapping_sub(b), "{a} - clear {b}");
            assert_eq!(dec8(&(b * &x), ck), a.wrapping_mul(b), "clear {b} * {a}");
        }
    }
    let mut acc = enc8(100, ck);
    acc += 100i8; // wraps to -56
    acc *= enc8(-2, ck);
    acc -= 1i8;
    assert_eq!(dec8(&acc, ck), 100i8.wrapping_add(100).wrapping_mul(-2) - 1);
}

#[test]
fn comparisons_min_max_follow_the_signed_order() {
    let ck = setup();
    for &a in &EDGES_8 {
        let x = enc8(a, ck);
        for &b in &EDGES_8 {
            let y = enc8(b, ck);
            let got =
                [x.eq(&y), x.ne(b), x.lt(&y), x.le(b), x.gt(&y), x.ge(b)].map(|f| f.decrypt(ck));
            assert_eq!(
                got,
                [a == b, a != b, a < b, a <= b, a > b, a >= b],
                "{a} vs {b}"
            );
            assert_eq!(dec8(&x.min(&y), ck), a.min(b), "min({a}, {b})");
            assert_eq!(dec8(&x.max(b), ck), a.max(b), "max({a}, clear {b})");
        }
    }
    // Wider types, every comparison against an encrypted and a clear operand.
    let values = [i16::MIN, -300, -1, 0, 255, 256, i16::MAX];
    for &a in &values {
        let x = FheInt16::encrypt(a, ck);
        for &b in &values {
            let y = FheInt16::encrypt(b, ck);
            assert_eq!(x.lt(&y).decrypt(ck), a < b, "{a} < {b}");
            assert_eq!(x.ge(b).decrypt(ck), a >= b, "{a} >= clear {b}");
            assert_eq!(FheDecrypt::<i16>::decrypt(&x.max(&y), ck), a.max(b));
        }
    }
    let values = [i64::MIN, -(1 << 40), -1, 0, 1 << 40, i64::MAX];
    for &a in &values {
        let x = FheInt64::encrypt(a, ck);
        for &b in &values {
            assert_eq!(
                x.le(&FheInt64::encrypt(b, ck)).decrypt(ck),
                a <= b,
                "{a} <= {b}"
            );
            assert_eq!(x.gt(b).decrypt(ck), a > b, "{a} > clear {b}");
        }
    }
}

#[test]
fn shifts_copy_the_sign_and_take_the_amount_modulo_the_width() {
    let ck = setup();
    for &a in &EDGES_8 {
        let x = enc8(a, ck);
        for k in [0u32, 1, 2, 3, 6, 7, 8, 9, 15, 200] {
            assert_eq!(dec8(&(&x >> k), ck), a.wrapping_shr(k), "{a} >> {k}");
            assert_eq!(dec8(&(&x << k), ck), a.wrapping_shl(k), "{a} << {k}");
            let amount = FheUint8::encrypt(k as u8, ck);
            assert_eq!(
                dec8(&(&x >> &amount), ck),
                a.wrapping_shr(k),
                "{a} >> enc {k}"
            );
            assert_eq!(
                dec8(&(&x << &amount), ck),
                a.wrapping_shl(k),
                "{a} << enc {k}"
            );
            assert_eq!(
                dec8(&(&x).rotate_right(k), ck),
                a.rotate_right(k),
                "{a} rotr {k}"
            );
        }
        // A signed encrypted amount counts by its bits: -1 is 255, 255 mod 8 = 7.
        let minus_one = enc8(-1, ck);
        assert_eq!(dec8(&(&x >> &minus_one), ck), a >> 7);
    }
    for a in [i64::MIN, -5_000_000_001, -1, 0, 77, i64::MAX] {
        let x = FheInt64::encrypt(a, ck);
        for k in [0u32, 1, 13, 32, 63, 64] {
            let got: i64 = (&x >> k).decrypt(ck);
            assert_eq!(got, a.wrapping_shr(k), "{a} >> {k}");
        }
        let got: i64 = (&x >> FheUint64::encrypt(37u64, ck)).decrypt(ck);
        assert_eq!(got, a >> 37);
    }
}

#[test]
fn abs_of_edge_values_wraps_at_min() {
    let ck = setup();
    for &a in &EDGES_8 {
        assert_eq!(dec8(&enc8(a, ck).abs(), ck), a.wrapping_abs(), "abs({a})");
    }
    for a in [i128::MIN, i128::MIN + 1, -(1 << 100), -1, 0, i128::MAX] {
        let x = FheInt128::encrypt(a, ck);
        let got: i128 = x.try_abs().unwrap().decrypt(ck);
        assert_eq!(got, a.wrapping_abs(), "abs({a})");
    }
    for a in [i32::MIN, -65536, 3, i32::MAX] {
        let got: i32 = FheInt32::encrypt(a, ck).abs().decrypt(ck);
        assert_eq!(got, a.wrapping_abs());
    }
}

#[test]
fn casts_follow_as_between_signed_and_unsigned_widths() {
    let ck = setup();
    for &a in &EDGES_8 {
        let x = enc8(a, ck);
        let i16_: i16 = FheInt16::cast_from(x.clone()).decrypt(ck);
        let i64_: i64 = FheInt64::cast_from(x.clone()).decrypt(ck);
        let u8_: u8 = FheUint8::cast_from(x.clone()).decrypt(ck);
        let u32_: u32 = FheUint32::cast_from(x.clone()).decrypt(ck);
        let b: bool = FheBool::cast_from(x.clone()).decrypt(ck);
        assert_eq!(
            (i16_, i64_, u8_, u32_, b),
            (a as i16, a as i64, a as u8, a as u32, a != 0)
        );
    }
    for a in [0u16, 1, 127, 128, 255, 256, 0x8000, 0xffff] {
        let x = FheUint16::encrypt(a, ck);
        let i8_: i8 = FheInt8::cast_from(x.clone()).decrypt(ck);
        let i16_: i16 = FheInt16::cast_from(x.clone()).decrypt(ck);
        let i32_: i32 = FheInt32::cast_from(x.clone()).decrypt(ck);
        assert_eq!((i8_, i16_, i32_), (a as i8, a as i16, a as i32), "{a}");
    }
    for a in [i32::MIN, -40_000, -129, -1, 0, 300, i32::MAX] {
        let x = FheInt32::encrypt(a, ck);
        let i8_: i8 = FheInt8::cast_from(x.clone()).decrypt(ck);
        let i64_: i64 = FheInt64::cast_from(x.clone()).decrypt(ck);
        let u16_: u16 = FheUint16::cast_from(x.clone()).decrypt(ck);
        let u64_: u64 = FheUint64::cast_from(x.clone()).decrypt(ck);
        let i128_: i128 = FheInt128::cast_from(x).decrypt(ck);
        assert_eq!(
            (i8_, i64_, u16_, u64_, i128_),
            (a as i8, a as i64, a as u16, a as u64, a as i128)
        );
    }
    for b in [false, true] {
        let x: FheInt16 = FheBool::encrypt(b, ck).cast_into();
        assert_eq!(FheDecrypt::<i16>::decrypt(&x, ck), b as i16);
    }
    // Trivial values are cast in the clear.
    let t = FheInt64::cast_from(FheInt8::encrypt_trivial(-3i8));
    assert_eq!(t.try_decrypt_trivial::<i64>().unwrap(), -3);
    let t = FheUint16::cast_from(FheInt8::encrypt_trivial(-3i8));
    assert_eq!(t.try_decrypt_trivial::<u16>().unwrap(), (-3i8) as u16);
}

#[test]
fn encryption_decryption_and_trivial_values() {
    let ck = setup();
    assert!(FheInt8::try_encrypt(-128i32, ck).is_ok());
    assert!(FheInt8::try_encrypt(127i64, ck).is_ok());
    assert!(FheInt8::try_encrypt(128i16, ck).is_err());
    assert!(FheInt8::try_encrypt(-129i128, ck).is_err());
    assert!(FheInt128::try_encrypt(i128::MIN, ck).is_ok());
    let wrapped = FheInt8::encrypt(300i32, ck); // 300 as i8 = 44
    assert_eq!(dec8(&wrapped, ck), 44);
    let x = FheInt16::encrypt(-200i16, ck);
    assert_eq!(FheDecrypt::<i64>::decrypt(&x, ck), -200); // sign-extended
    assert_eq!(FheDecrypt::<i8>::decrypt(&x, ck), -200i16 as i8); // wrapped
    assert_eq!(FheTryDecrypt::<i32>::try_decrypt(&x, ck).unwrap(), -200);
    assert!(FheTryDecrypt::<i8>::try_decrypt(&x, ck).is_err());
    let t = FheInt32::encrypt_trivial(-7i32);
    assert!(t.is_trivial() && t.tag().is_none());
    assert_eq!(t.try_decrypt_trivial::<i32>().unwrap(), -7);
    assert!(FheInt8::try_encrypt_trivial(1000i32).is_err());
    assert!(x.try_decrypt_trivial::<i32>().is_err());
    // Trivial operands: a clear right operand, and operations on trivial values alone.
    let y = &x + FheInt16::encrypt_trivial(-100i16);
    assert_eq!(FheDecrypt::<i16>::decrypt(&y, ck), -300);
    let u = FheInt16::encrypt_trivial(-5i16) >> 1u32;
    assert_eq!(FheDecrypt::<i16>::decrypt(&u, ck), -3);
    assert!(FheInt16::encrypt_trivial(-5i16)
        .lt(FheInt16::encrypt_trivial(2i16))
        .decrypt(ck));
    assert_eq!(format!("{:?}", t), "FheInt32 { trivial, .. }");
}

#[test]
fn safe_serialization_names_the_signed_type() {
    let ck = setup();
    let x = FheInt16::encrypt(-12345i16, ck);
    let mut bytes = Vec::new();
    safe_serialize(&x, &mut bytes, 1 << 24).unwrap();
    let read: FheInt16 =
        with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), 1 << 24)).unwrap();
    assert_eq!(FheDecrypt::<i16>::decrypt(&read, ck), -12345);
    let as_unsigned = with_insecure_parameters_allowed(|| {
        safe_deserialize::<FheUint16>(bytes.as_slice(), 1 << 24)
    });
    assert!(as_unsigned.unwrap_err().to_string().contains("FheInt16"));
    let as_other_width =
        with_insecure_parameters_allowed(|| safe_deserialize::<FheInt8>(bytes.as_slice(), 1 << 24));
    assert!(as_other_width.is_err());
}

#[test]
fn selection_batches_and_sums() {
    let ck = setup();
    let a = enc8(-5, ck);
    let b = enc8(9, ck);
    let smaller = a.lt(&b).if_then_else(&a, &b);
    assert_eq!(dec8(&smaller, ck), -5);
    let picked = FheBool::select(&FheBool::encrypt(false, ck), &a, &b);
    assert_eq!(dec8(&picked, ck), 9);
    let lhs: Vec<FheInt8> = [-128i8, -1, 5].iter().map(|&v| enc8(v, ck)).collect();
    let shifted = FheInt8::batch(BinaryOp::Shr, &lhs, [3u8 as i8, 1, 1]).unwrap();
    let clear: Vec<i8> = shifted.iter().map(|x| dec8(x, ck)).collect();
    assert_eq!(clear, [-16, -1, 2]);
    let cmp = FheInt8::batch_compare(ComparisonOp::Gt, &lhs, [&b, &b, &b]).unwrap();
    let clear: Vec<bool> = cmp.iter().map(|x| x.decrypt(ck)).collect();
    assert_eq!(clear, [false, false, false]);
    assert!(FheInt8::batch(BinaryOp::Add, &lhs, [1i8]).is_err());
    assert_eq!(dec8(&FheInt8::sum(&lhs).unwrap(), ck), -124);
    assert_eq!(dec8(&lhs.iter().sum(), ck), -124);
    assert_eq!(dec8(&lhs.into_iter().sum(), ck), -124);
}
