//! TFHE-rs 1.8 API forms on the insecure test parameters (fast), against clear
//! results: the traits' default right operand, `DivRem`, `OverflowingNeg`,
//! `FheWait`, `select`/`cmux`, `num_bits` and `contains`.

use crate::insecure_keys::setup;

use gpufhe::prelude::*;
use gpufhe::{FheBool, FheInt16, FheInt8, FheUint16, FheUint32, FheUint8};

/// Bounds through the default right operand (`Self`).
fn order_and_extremes<T>(a: &T, b: T) -> (FheBool, FheBool, T, T)
where
    T: FheEq + FheOrd + FheMin<Output = T> + FheMax<Output = T> + Clone,
{
    (a.eq(b.clone()), a.lt(b.clone()), a.min(b.clone()), a.max(b))
}

fn rotate_by_self<T>(a: T, by: T) -> T
where
    T: RotateLeft<Output = T> + RotateRight<Output = T> + Clone,
{
    a.rotate_left(by.clone())
        .rotate_right(by.clone())
        .rotate_left(by)
}

fn quot_rem<'a, T>(a: &'a T, b: &'a T) -> (T, T)
where
    &'a T: DivRem<&'a T, Output = (T, T)>,
{
    a.div_rem(b)
}

fn negate_checked<T: OverflowingNeg<Output = T>>(x: T) -> (T, FheBool) {
    x.overflowing_neg()
}

#[test]
fn default_rhs_bounds() {
    let ck = setup();
    let a = FheUint8::encrypt(7u8, ck);
    let b = FheUint8::encrypt(200u8, ck);
    let (eq, lt, min, max) = order_and_extremes(&a, b);
    assert!(!eq.decrypt(ck));
    assert!(lt.decrypt(ck));
    assert_eq!(FheDecrypt::<u8>::decrypt(&min, ck), 7);
    assert_eq!(FheDecrypt::<u8>::decrypt(&max, ck), 200);
    let x = FheUint8::encrypt(0b1000_0110u8, ck);
    let by = FheUint8::encrypt(3u8, ck);
    let r: u8 = rotate_by_self(x, by).decrypt(ck);
    assert_eq!(r, 0b1000_0110u8.rotate_left(3));
}

#[test]
fn div_rem_trait() {
    let ck = setup();
    let a = FheUint16::encrypt(1000u16, ck);
    let b = FheUint16::encrypt(7u16, ck);
    let (q, r) = quot_rem(&a, &b);
    let got: (u16, u16) = (q.decrypt(ck), r.decrypt(ck));
    assert_eq!(got, (142, 6));
    let (q, r) = DivRem::div_rem(&a, 9u16);
    let got: (u16, u16) = (q.decrypt(ck), r.decrypt(ck));
    assert_eq!(got, (111, 1));
    let (q, r) = DivRem::div_rem(&a, b);
    let got: (u16, u16) = (q.decrypt(ck), r.decrypt(ck));
    assert_eq!(got, (142, 6));
    // The inherent method still borrows.
    let (q, _) = a.div_rem(3u16);
    assert_eq!(FheDecrypt::<u16>::decrypt(&q, ck), 333);
    assert_eq!(FheDecrypt::<u16>::decrypt(&a, ck), 1000);

    let x = FheInt16::encrypt(-1000i16, ck);
    let y = FheInt16::encrypt(7i16, ck);
    let (q, r) = quot_rem(&x, &y);
    let got: (i16, i16) = (q.decrypt(ck), r.decrypt(ck));
    assert_eq!(got, (-142, -6));
    let (q, r) = DivRem::div_rem(&x, -9i16);
    let got: (i16, i16) = (q.decrypt(ck), r.decrypt(ck));
    assert_eq!(got, (111, -1));
}

#[test]
fn overflowing_neg() {
    let ck = setup();
    for v in [0u8, 1, 128, 255] {
        let x = FheUint8::encrypt(v, ck);
        let (n, f) = (&x).overflowing_neg();
        let got: (u8, bool) = (n.decrypt(ck), f.decrypt(ck));
        assert_eq!(got, v.overflowing_neg(), "-{v}");
        let (n, f) = negate_checked(x);
        let got: (u8, bool) = (n.decrypt(ck), f.decrypt(ck));
        assert_eq!(got, v.overflowing_neg(), "-{v} (owned)");
    }
    for v in [i8::MIN, -1, 0, 1, i8::MAX] {
        let x = FheInt8::encrypt(v, ck);
        let (n, f) = (&x).overflowing_neg();
        let got: (i8, bool) = (n.decrypt(ck), f.decrypt(ck));
        assert_eq!(got, v.overflowing_neg(), "-{v}");
        let (n, f) = negate_checked(x);
        let got: (i8, bool) = (n.decrypt(ck), f.decrypt(ck));
        assert_eq!(got, v.overflowing_neg(), "-{v} (owned)");
    }
}

#[test]
fn wait_select_cmux() {
    let ck = setup();
    let a = FheUint8::encrypt(3u8, ck);
    let b = FheUint8::encrypt(9u8, ck);
    let c = a.lt(&b);
    a.wait();
    c.wait();
    FheInt8::encrypt(-1i8, ck).wait();
    assert_eq!(FheDecrypt::<u8>::decrypt(&c.select(&a, &b), ck), 3);
    assert_eq!(FheDecrypt::<u8>::decrypt(&(!&c).cmux(&a, &b), ck), 9);
    let t = FheBool::encrypt(true, ck);
    assert!(!c.select(&!&t, &t).decrypt(ck));
}

#[test]
fn num_bits_and_contains() {
    assert_eq!(FheUint8::num_bits(), 8);
    assert_eq!(FheUint32::num_bits(), 32);
    assert_eq!(FheInt16::num_bits(), 16);
    assert_eq!(FheBool::num_bits(), 1);
    let ck = setup();
    let values: Vec<FheUint16> = [5u16, 300, 7]
        .iter()
        .map(|&v| FheUint16::encrypt(v, ck))
        .collect();
    assert!(FheUint16::contains(&values, &FheUint16::encrypt(300u16, ck)).decrypt(ck));
    assert!(!FheUint16::contains(&values, &FheUint16::encrypt(6u16, ck)).decrypt(ck));
    assert!(!FheUint16::contains(&[], &values[0]).decrypt(ck));
    let signed: Vec<FheInt8> = [-5i8, 7].iter().map(|&v| FheInt8::encrypt(v, ck)).collect();
    assert!(FheInt8::contains(&signed, &FheInt8::encrypt(-5i8, ck)).decrypt(ck));
    assert!(!FheInt8::contains(&signed, &FheInt8::encrypt(5i8, ck)).decrypt(ck));
}

#[test]
fn shifts_by_another_width() {
    use gpufhe::{FheUint10, FheUint64};
    let ck = setup();
    let x = FheUint32::encrypt(0x8000_00f1u32, ck);
    for amount in [0u8, 3, 31, 32, 37, 255] {
        let a = FheUint8::encrypt(amount, ck);
        let k = u32::from(amount);
        let shl: u32 = (&x << &a).decrypt(ck);
        assert_eq!(shl, 0x8000_00f1u32.wrapping_shl(k), "<< {amount}");
        let shr: u32 = (&x >> a.clone()).decrypt(ck);
        assert_eq!(shr, 0x8000_00f1u32.wrapping_shr(k), ">> {amount}");
        let rl: u32 = (&x).rotate_left(&a).decrypt(ck);
        assert_eq!(rl, 0x8000_00f1u32.rotate_left(k), "rotate_left {amount}");
        let rr: u32 = x.clone().rotate_right(a.clone()).decrypt(ck);
        assert_eq!(rr, 0x8000_00f1u32.rotate_right(k), "rotate_right {amount}");
        let mut y = x.clone();
        y <<= &a;
        y >>= a.clone();
        y.rotate_left_assign(&a);
        y.rotate_right_assign(a);
        let want = (0x8000_00f1u32.wrapping_shl(k) >> (k % 32))
            .rotate_left(k)
            .rotate_right(k);
        assert_eq!(FheDecrypt::<u32>::decrypt(&y, ck), want, "assign {amount}");
    }
    // A wider amount than the value.
    let b = FheUint8::encrypt(0b1001_0110u8, ck);
    for amount in [1u64, 9, 1 << 40 | 3, u64::MAX] {
        let a = FheUint64::encrypt(amount, ck);
        let k = (amount % 8) as u32;
        assert_eq!(
            FheDecrypt::<u8>::decrypt(&(&b << &a), ck),
            0b1001_0110u8 << k
        );
        let rl: u8 = (&b).rotate_left(&a).decrypt(ck);
        assert_eq!(rl, 0b1001_0110u8.rotate_left(k), "rotate_left {amount}");
    }
    // A width that is not a power of two reads the whole amount.
    let t = FheUint10::encrypt(0b11_0000_0001u16, ck);
    for amount in [13u16, 1000, 65535] {
        let a = FheUint16::encrypt(amount, ck);
        let k = u32::from(amount % 10);
        let got: u16 = (&t).rotate_left(&a).decrypt(ck);
        assert_eq!(
            got,
            ((0b11_0000_0001u16 << k) | (0b11_0000_0001u16 >> (10 - k))) & 0x3ff
        );
    }
    // A trivial amount of another width, and signed values.
    let trivial = FheUint16::encrypt_trivial(35u16);
    assert_eq!(
        FheDecrypt::<u32>::decrypt(&(&x >> &trivial), ck),
        0x8000_00f1u32 >> 3
    );
    let s = FheInt16::encrypt(-1000i16, ck);
    let a = FheUint8::encrypt(4u8, ck);
    assert_eq!(FheDecrypt::<i16>::decrypt(&(&s >> &a), ck), -1000i16 >> 4);
    assert_eq!(FheDecrypt::<i16>::decrypt(&(&s << a), ck), -1000i16 << 4);
}

#[test]
#[allow(clippy::op_ref)] // the borrowed clears are the point
fn borrowed_clear_on_the_left() {
    let ck = setup();
    let a = FheUint8::encrypt(9u8, ck);
    let k = 200u8;
    let got: [u8; 6] = [
        (&k + &a).decrypt(ck),
        (&k - &a).decrypt(ck),
        (&k * a.clone()).decrypt(ck),
        (&k & &a).decrypt(ck),
        (&k | a.clone()).decrypt(ck),
        (&k ^ &a).decrypt(ck),
    ];
    assert_eq!(
        got,
        [209, 191, 200u8.wrapping_mul(9), 200 & 9, 200 | 9, 200 ^ 9]
    );
    let s = FheInt16::encrypt(-300i16, ck);
    let m = -7i16;
    let got: [i16; 3] = [
        (&m - &s).decrypt(ck),
        (&m * s.clone()).decrypt(ck),
        (&m ^ &s).decrypt(ck),
    ];
    assert_eq!(got, [293, 2100, -7 ^ -300]);
    // Clear arithmetic still infers its types.
    let (x, y) = (&k + 1, &m - 1);
    assert_eq!((x, y), (201u8, -8i16));
}

fn lt_generic<Id: gpufhe::FheUintId>(x: &gpufhe::FheUint<Id>) -> FheBool {
    x.lt(16u8)
}

#[test]
fn comparisons_with_clears_of_any_type() {
    use gpufhe::{FheInt128, FheUint2};
    let ck = setup();
    let a = FheUint8::encrypt(200u8, ck);
    let checks = [
        (a.eq(200u16), true),
        (a.eq(456u16), false), // 456 wraps to 200 as a u8
        (a.ne(456u64), true),
        (a.lt(300u16), true),
        (a.le(300u32), true),
        (a.gt(300u64), false),
        (a.ge(u128::MAX), false),
        (a.gt(-1i32), true),
        (a.ge(-1i8), true),
        (a.lt(-300i64), false),
        (a.le(-1i16), false),
        (a.eq(-56i8), false), // -56 is 200 as a u8
        (a.ne(-1i128), true),
        (a.lt(201i32), true),
        (a.ge(200u64), true),
        (a.eq(3), false), // an unsuffixed literal (i32)
        (lt_generic(&a), false),
        (lt_generic(&FheUint2::encrypt(3u8, ck)), true),
    ];
    for (i, (got, want)) in checks.into_iter().enumerate() {
        assert_eq!(got.decrypt(ck), want, "check {i}");
    }
    let s = FheInt8::encrypt(-100i8, ck);
    let checks = [
        (s.eq(-100i64), true),
        (s.eq(156u8), false), // 156 is -100 as an i8
        (s.lt(200u8), true),
        (s.gt(-129i16), true),
        (s.le(-1000i32), false),
        (s.ge(-100i16), true),
        (s.ne(u64::MAX), true),
        (s.gt(-101i128), true),
        (FheInt128::encrypt(i128::MIN, ck).le(i128::MIN), true),
        (FheInt128::encrypt(-1i128, ck).lt(u128::MAX), true),
    ];
    for (i, (got, want)) in checks.into_iter().enumerate() {
        assert_eq!(got.decrypt(ck), want, "signed check {i}");
    }
    // min and max clamp a clear outside the range.
    let got: [u8; 4] = [
        a.min(300u16).decrypt(ck),
        a.max(300u16).decrypt(ck),
        a.min(-5i32).decrypt(ck),
        a.max(7u64).decrypt(ck),
    ];
    assert_eq!(got, [200, 255, 0, 200]);
    let got: [i8; 2] = [s.min(-1000i32).decrypt(ck), s.max(5u32).decrypt(ck)];
    assert_eq!(got, [-128, 5]);
    // Encrypted operands and inference of clear arithmetic are unchanged.
    let b = FheUint8::encrypt(201u8, ck);
    assert!(a.lt(&b).decrypt(ck));
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&a + 1), ck), 201);
}
