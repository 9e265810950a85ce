//! Division and remainder through the high-level API on the insecure test parameters
//! (fast): every width up to 64 bits, edge and random operands, encrypted, clear and
//! trivial divisors, zero divisors of each kind. Expected values come from Rust's
//! `/` and `%` (with TFHE-rs's results for an encrypted zero divisor). The default
//! parameters run `FheUint8` and `FheUint16` in `division_default_parameters.rs`.

use crate::insecure_keys;

use gpufhe::prelude::*;
use gpufhe::{FheUint16, FheUint32, FheUint64, FheUint8};
use insecure_keys::setup;

/// `(n / d, n % d)`, with `(MAX, n)` for `d = 0`.
fn expected<
    T: Copy + std::ops::Div<Output = T> + std::ops::Rem<Output = T> + PartialEq + Default,
>(
    n: T,
    d: T,
    max: T,
) -> (T, T) {
    if d == T::default() {
        (max, n)
    } else {
        (n / d, n % d)
    }
}

macro_rules! check_width {
    ($ty:ty, $clear:ty, $pairs:expr) => {{
        let ck = setup();
        for (n, d) in $pairs {
            let (en, ed) = (<$ty>::encrypt(n, ck), <$ty>::encrypt(d, ck));
            let want = expected::<$clear>(n, d, <$clear>::MAX);
            let (q, r) = en.div_rem(&ed);
            let got: ($clear, $clear) = (q.decrypt(ck), r.decrypt(ck));
            assert_eq!(got, want, "{} {n} / {d}", stringify!($ty));
            if d != 0 {
                let q: $clear = (&en / d).decrypt(ck);
                let r: $clear = (&en % d).decrypt(ck);
                assert_eq!((q, r), want, "{} {n} / clear {d}", stringify!($ty));
            }
        }
    }};
}

#[test]
fn fhe_uint8_edge_values_and_zero() {
    let pairs = [
        (255u8, 0u8),
        (0, 0),
        (255, 1),
        (255, 255),
        (254, 255),
        (200, 7),
        (7, 200),
        (128, 2),
        (129, 3),
        (1, 1),
    ];
    check_width!(FheUint8, u8, pairs);
}

#[test]
fn fhe_uint16_and_fhe_uint32() {
    check_width!(FheUint16, u16, [(65535u16, 257u16), (40000, 3), (12345, 0)]);
    check_width!(
        FheUint32,
        u32,
        [(u32::MAX, 65537u32), (123_456_789, 10_000)]
    );
}

#[test]
fn fhe_uint64_encrypted_and_clear_divisors() {
    let ck = setup();
    let n = 0xfedc_ba98_7654_3210u64;
    for d in [0x1_0000_0001u64, 3] {
        let (q, r) = FheUint64::encrypt(n, ck).div_rem(FheUint64::encrypt(d, ck));
        let got: (u64, u64) = (q.decrypt(ck), r.decrypt(ck));
        assert_eq!(got, (n / d, n % d), "{n} / {d}");
    }
    // Clear divisors: by a reciprocal (10, 7, a 33-bit odd one), a shift (2^20), and
    // the restoring loop where the reciprocal would need more than 128 bits (above
    // 2^63), on edge and random dividends.
    for n in [
        n,
        0,
        u64::MAX,
        0x8000_0000_0000_0000,
        69_999_999_999_999_999,
    ] {
        let x = FheUint64::encrypt(n, ck);
        for d in [10u64, 7, 0x1_2345_6789, 1 << 20, u64::MAX, (1 << 63) + 1] {
            let (q, r) = x.div_rem(d);
            let got: (u64, u64) = (q.decrypt(ck), r.decrypt(ck));
            assert_eq!(got, (n / d, n % d), "{n} / clear {d}");
        }
    }
}

#[test]
fn zero_divisors_and_assign_forms() {
    let ck = setup();
    let x = FheUint8::encrypt(77u8, ck);
    // A clear zero is an error of the try_ forms.
    for err in [
        x.try_div(0u8).unwrap_err(),
        x.try_rem(0u8).unwrap_err(),
        x.try_div_rem(0u8).unwrap_err(),
    ] {
        assert!(err.to_string().contains("clear zero"), "{err}");
    }
    // A trivial encryption of zero is an encrypted divisor: MAX and the dividend.
    let zero = FheUint8::encrypt_trivial(0u8);
    let q: u8 = (&x / &zero).decrypt(ck);
    let r: u8 = (&x % &zero).decrypt(ck);
    assert_eq!((q, r), (u8::MAX, 77));
    // Trivial operands alone: the result belongs to the key that computed it.
    let t = FheUint8::encrypt_trivial(77u8) / FheUint8::encrypt_trivial(5u8);
    assert_eq!(FheDecrypt::<u8>::decrypt(&t, ck), 15);
    let mut y = FheUint8::encrypt(100u8, ck);
    y /= 7u8;
    let mut z = FheUint8::encrypt(100u8, ck);
    z %= FheUint8::encrypt(7u8, ck);
    let (y, z): (u8, u8) = (y.decrypt(ck), z.decrypt(ck));
    assert_eq!((y, z), (14, 2));
    // The operator with a clear zero panics with the error.
    let panic = std::panic::catch_unwind(|| {
        let _ = &FheUint8::encrypt_trivial(1u8) / 0u8;
    });
    assert!(panic.is_err());
}
