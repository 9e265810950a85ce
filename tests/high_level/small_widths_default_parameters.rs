//! The widths below 8 bits and between 8 and 16 (`FheUint2` ... `FheUint14`, as in
//! TFHE-rs) on the default parameters: every value of `FheUint2` through the main
//! operations, edge values of the others, casts, and the clear types' range checks.

use crate::common;

use common::{setup, Rng};
use gpufhe::prelude::*;
use gpufhe::{FheUint10, FheUint12, FheUint14, FheUint16, FheUint2, FheUint4, FheUint6, FheUint8};

/// Checks `+ - * & | ^ << >>`, `lt`, `eq`, `min`, `max` and the clear-operand forms of
/// one width on `pairs`, against the clear operations reduced to `bits` bits.
macro_rules! check_width {
    ($ty:ty, $clear:ty, $bits:expr, $pairs:expr) => {{
        let ck = setup();
        let mask: $clear = if $bits == <$clear>::BITS {
            <$clear>::MAX
        } else {
            (1 << $bits) - 1
        };
        let enc = |v: $clear| <$ty>::encrypt(v, ck);
        let dec = |x: &$ty| -> $clear { x.decrypt(ck) };
        for (a, b) in $pairs {
            let (ea, eb) = (enc(a), enc(b));
            let ctx = format!("{} {a}, {b}", stringify!($ty));
            assert_eq!(dec(&(&ea + &eb)), a.wrapping_add(b) & mask, "{ctx} +");
            assert_eq!(dec(&(&ea - &eb)), a.wrapping_sub(b) & mask, "{ctx} -");
            assert_eq!(dec(&(&ea * &eb)), a.wrapping_mul(b) & mask, "{ctx} *");
            assert_eq!(dec(&(&ea & &eb)), a & b, "{ctx} &");
            assert_eq!(dec(&(&ea | &eb)), a | b, "{ctx} |");
            assert_eq!(dec(&(&ea ^ &eb)), a ^ b, "{ctx} ^");
            assert_eq!(dec(&(&ea + b)), a.wrapping_add(b) & mask, "{ctx} + clear");
            assert_eq!(dec(&(b - &ea)), b.wrapping_sub(a) & mask, "{ctx} clear -");
            let shift = (b as u32) % $bits;
            assert_eq!(dec(&(&ea << b)), (a << shift) & mask, "{ctx} <<");
            assert_eq!(dec(&(&ea >> b)), a >> shift, "{ctx} >>");
            let lt: bool = ea.lt(&eb).decrypt(ck);
            assert_eq!(lt, a < b, "{ctx} lt");
            let eq: bool = ea.eq(b).decrypt(ck);
            assert_eq!(eq, a == b, "{ctx} eq clear");
            assert_eq!(dec(&ea.min(&eb)), a.min(b), "{ctx} min");
            assert_eq!(dec(&ea.max(&eb)), a.max(b), "{ctx} max");
        }
    }};
}

#[test]
fn fhe_uint2_every_pair_of_values() {
    let pairs: Vec<(u8, u8)> = (0..4).flat_map(|a| (0..4).map(move |b| (a, b))).collect();
    check_width!(FheUint2, u8, 2, pairs);
}

#[test]
fn fhe_uint4_and_fhe_uint6_edge_values() {
    check_width!(FheUint4, u8, 4, [(15u8, 1u8), (9, 14), (0, 15)]);
    check_width!(FheUint6, u8, 6, [(63u8, 63u8), (37, 5)]);
}

#[test]
fn fhe_uint10_12_14_edge_values() {
    let mut rng = Rng::new(10);
    check_width!(
        FheUint10,
        u16,
        10,
        [(1023u16, 1u16), (rng.next_u64() as u16 & 1023, 700)]
    );
    check_width!(FheUint12, u16, 12, [(4095u16, 4095u16)]);
    check_width!(FheUint14, u16, 14, [(0x3fffu16, 2u16), (0x2aaa, 0x1555)]);
}

#[test]
fn values_wider_than_the_type_wrap_or_are_rejected() {
    let ck = setup();
    // `encrypt` keeps the low bits, like `as`; `try_encrypt` refuses.
    let x = FheUint4::encrypt(0x1fu8, ck);
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, ck), 0xf);
    let err = FheUint4::try_encrypt(16u8, ck).unwrap_err();
    assert!(err.to_string().contains("FheUint4"), "{err}");
    assert!(FheUint10::try_encrypt(1024u16, ck).is_err());
    assert_eq!(
        FheUint14::encrypt_trivial(0xffffu16)
            .try_decrypt_trivial::<u16>()
            .unwrap(),
        0x3fff
    );
    // A clear operand wider than the type wraps too; comparisons see its real value.
    let sum = &x + 0x12u8;
    assert_eq!(FheDecrypt::<u8>::decrypt(&sum, ck), (0xf + 0x12) & 0xf);
    let eq: bool = x.eq(0x1fu8).decrypt(ck);
    assert!(!eq);
    assert_eq!(FheUint2::bits(), 2);
    assert_eq!(FheUint14::bits(), 14);
}

#[test]
fn casts_between_the_new_and_the_old_widths() {
    let ck = setup();
    let x = FheUint14::encrypt(0x2bcdu16, ck);
    let narrow: FheUint6 = x.clone().cast_into();
    assert_eq!(FheDecrypt::<u8>::decrypt(&narrow, ck), 0x0d);
    let byte: FheUint8 = x.clone().cast_into();
    assert_eq!(FheDecrypt::<u8>::decrypt(&byte, ck), 0xcd);
    let wide = FheUint16::cast_from(x);
    assert_eq!(FheDecrypt::<u16>::decrypt(&wide, ck), 0x2bcd);
    let back = FheUint12::cast_from(FheUint4::encrypt(9u8, ck));
    assert_eq!(FheDecrypt::<u16>::decrypt(&back, ck), 9);
}
