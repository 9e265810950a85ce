//! The new operations of `bit_operations.rs` on the default (secure) parameters,
//! a few batched cases on one key: counts and `checked_ilog2` on FheUint64,
//! overflowing and checked arithmetic and selection on FheUint8.

use crate::common;

use common::{counting_setup, setup};
use gpufhe::prelude::*;
use gpufhe::{FheBool, FheUint32, FheUint64, FheUint8};

#[test]
fn counts_and_ilog2_on_u64() {
    let (ck, server_key) = counting_setup();
    let v = 0x0000_f00d_0000_0400u64;
    let x = FheUint64::encrypt(v, ck);
    let count = |y: FheUint32| -> u32 { y.decrypt(ck) };
    let before = server_key.pbs_count();
    let ones = x.count_ones();
    println!(
        "FheUint64 count_ones: {} bootstraps",
        server_key.pbs_count() - before
    );
    assert_eq!(count(ones), v.count_ones());
    assert_eq!(count(x.leading_zeros()), v.leading_zeros());
    assert_eq!(count(x.trailing_zeros()), v.trailing_zeros());
    let (log, valid) = x.checked_ilog2();
    assert_eq!(count(log), v.ilog2());
    assert!(valid.decrypt(ck));
    let (_, valid) = FheUint64::encrypt(0u64, ck).checked_ilog2();
    assert!(!valid.decrypt(ck));
}

#[test]
fn u8_bits_overflow_and_selection() {
    let ck = setup();
    let dec = |x: &FheUint8| -> u8 { x.decrypt(ck) };
    for (a, b) in [(0xb4u8, 3u8), (200, 2), (15, 17)] {
        let (ea, eb) = (FheUint8::encrypt(a, ck), FheUint8::encrypt(b, ck));
        assert_eq!(
            FheDecrypt::<u32>::decrypt(&ea.trailing_ones(), ck),
            a.trailing_ones()
        );
        assert_eq!(
            FheDecrypt::<u32>::decrypt(&ea.leading_ones(), ck),
            a.leading_ones()
        );
        assert_eq!(dec(&ea.reverse_bits()), a.reverse_bits());
        let (p, o) = (&ea).overflowing_mul(&eb);
        assert_eq!((dec(&p), o.decrypt(ck)), a.overflowing_mul(b));
        let (s, ok) = ea.checked_sub(&eb);
        assert_eq!(ok.decrypt(ck), a.checked_sub(b).is_some());
        assert_eq!(dec(&s), a.wrapping_sub(b));
        let (_, ok) = ea.checked_add(b);
        assert_eq!(ok.decrypt(ck), a.checked_add(b).is_some());
        let cond = ea.gt(&eb);
        assert_eq!(dec(&cond.select(&ea, &eb)), a.max(b));
        assert_eq!(dec(&cond.cmux(&eb, &ea)), a.min(b));
        let t = FheBool::encrypt(true, ck);
        assert_eq!(cond.if_then_else(&t, &cond).decrypt(ck), a > b);
    }
}
