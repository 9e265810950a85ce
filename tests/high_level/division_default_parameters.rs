//! Division and remainder on the default (secure) parameters: `FheUint8` by encrypted
//! divisors (with zero) and clear ones, one `FheUint16` division. Expected values come
//! from Rust's `/` and `%`, with TFHE-rs's `(MAX, n)` for an encrypted zero.

use crate::common;

use common::setup;
use gpufhe::prelude::*;
use gpufhe::{FheUint16, FheUint64, FheUint8};

#[test]
fn fhe_uint8_by_encrypted_divisors_with_zero() {
    let ck = setup();
    for (n, d) in [(200u8, 7u8), (255, 0), (13, 255), (255, 1)] {
        let (q, r) = FheUint8::encrypt(n, ck).div_rem(FheUint8::encrypt(d, ck));
        let got: (u8, u8) = (q.decrypt(ck), r.decrypt(ck));
        let want = n.checked_div(d).map_or((u8::MAX, n), |q| (q, n % d));
        assert_eq!(got, want, "{n} / {d}");
    }
}

#[test]
fn fhe_uint8_by_clear_divisors_and_fhe_uint16() {
    let ck = setup();
    let x = FheUint8::encrypt(231u8, ck);
    for d in [10u8, 16, 3] {
        let q: u8 = (&x / d).decrypt(ck);
        let r: u8 = (&x % d).decrypt(ck);
        assert_eq!((q, r), (231 / d, 231 % d), "231 / {d}");
    }
    assert!(x.try_div(0u8).is_err());
    // FheUint64 by a clear 10: the quotient through a reciprocal (846 bootstraps).
    let n = 0xfedc_ba98_7654_3210u64;
    let (q, r) = FheUint64::encrypt(n, ck).div_rem(10u64);
    let got: (u64, u64) = (q.decrypt(ck), r.decrypt(ck));
    assert_eq!(got, (n / 10, n % 10));
    let (q, r) = FheUint16::encrypt(54321u16, ck).div_rem(FheUint16::encrypt(123u16, ck));
    let got: (u16, u16) = (q.decrypt(ck), r.decrypt(ck));
    assert_eq!(got, (54321 / 123, 54321 % 123));
}
