//! More TFHE-rs 1.8 API forms on the insecure test parameters, against clear
//! results: clear `CastFrom`, trivial signed values from unsigned clears,
//! overflowing operations with any clear, scalar selection and flips, match_value
//! and bitslice.

use crate::insecure_keys::setup;

use gpufhe::prelude::*;
use gpufhe::{FheInt16, FheInt8};

#[test]
fn clear_casts_and_trivial_signed_from_unsigned() {
    let wide: u64 = 200u8.cast_into();
    assert_eq!(
        (wide, u8::cast_from(0x1234u32), u32::cast_from(true)),
        (200, 0x34, 1)
    );
    assert_eq!(i8::cast_from(200u8), -56);
    let ck = setup();
    let t = FheInt16::encrypt_trivial(5u8);
    let t2 = FheInt16::encrypt_trivial(-5i64);
    let v: i16 = (&t + &t2).decrypt(ck);
    assert_eq!(v, 0);
    let wrapped: i8 = FheInt8::encrypt_trivial(200u16).decrypt(ck);
    assert_eq!(wrapped, -56);
    assert!(FheInt8::try_encrypt_trivial(127u8).is_ok());
    assert!(FheInt8::try_encrypt_trivial(128u64).is_err());
}
