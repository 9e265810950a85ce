//! More TFHE-rs 1.8 API forms on the insecure test parameters, against clear
//! results: clear `CastFrom`, trivial signed values from unsigned clears,
//! overflowing operations with any clear, scalar selection and flips, match_value
//! and bitslice.

use crate::insecure_keys::setup;

use gpufhe::error::InvalidRangeError;
use gpufhe::prelude::*;
use gpufhe::{FheBool, FheInt16, FheInt8, FheUint16, FheUint32, FheUint8, MatchValues};

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

#[test]
fn overflowing_with_any_clear_and_clear_lhs() {
    let ck = setup();
    let a = FheUint16::encrypt(u16::MAX - 1, ck);
    let (s, of) = (&a).overflowing_add(3u8);
    assert_eq!((s.decrypt(ck), of.decrypt(ck)), (1u16, true));
    let (s, of) = OverflowingAdd::overflowing_add(1u16, &a);
    assert_eq!((s.decrypt(ck), of.decrypt(ck)), (u16::MAX, false));
    let (d, of) = OverflowingSub::overflowing_sub(5u64, &a);
    assert_eq!((d.decrypt(ck), of.decrypt(ck)), (7u16, true));
    let x = FheInt16::encrypt(i16::MAX, ck);
    let (s, of) = (&x).overflowing_add(1i8);
    assert_eq!((s.decrypt(ck), of.decrypt(ck)), (i16::MIN, true));
    let (s, of) = OverflowingAdd::overflowing_add(-5i64, &x);
    assert_eq!((s.decrypt(ck), of.decrypt(ck)), (i16::MAX - 5, false));
    let (d, of) = OverflowingSub::overflowing_sub(-2i16, &x);
    assert_eq!(
        (d.decrypt(ck), of.decrypt(ck)),
        ((-2i16).wrapping_sub(i16::MAX), true)
    );
}

#[test]
fn scalar_selects_flips_and_clear_arms_of_any_width() {
    let ck = setup();
    let a = FheUint32::encrypt(11u32, ck);
    let b = FheUint32::encrypt(22u32, ck);
    let (t, f) = (FheBool::encrypt(true, ck), FheBool::encrypt(false, ck));
    let d = |x: FheUint32| -> u32 { x.decrypt(ck) };
    assert_eq!(d(t.scalar_if_then_else(&a, 5u8)), 11);
    assert_eq!(d(f.scalar_select(9u64, &b)), 22);
    assert_eq!(d(f.scalar_cmux(&a, 0x1_0000_0007u64)), 7); // cast like `as`
    assert_eq!(d(FheUint32::if_then_else(&t, 1u8, 2u8)), 1);
    assert_eq!(d(FheUint32::select(&f, 500u16, 7u16)), 7);
    assert_eq!(d(FheUint32::cmux(&t, 3u128, 4u128)), 3);
    let (x, y) = t.flip(&a, &b);
    assert_eq!((d(x), d(y)), (22, 11));
    let (x, y) = f.flip(7u32, &b);
    assert_eq!((d(x), d(y)), (7, 22));
    let (x, y) = t.flip(&a, 7u16);
    assert_eq!((d(x), d(y)), (7, 11));
    let s = FheInt8::encrypt(-3i8, ck);
    let di = |x: FheInt8| -> i8 { x.decrypt(ck) };
    assert_eq!(di(t.scalar_select(-1i64, &s)), -1);
    assert_eq!(di(FheInt8::if_then_else(&f, -1i8, 1i8)), 1);
    let (x, y) = t.flip(&s, 100i32);
    assert_eq!((di(x), di(y)), (100, -3));
    let picked: bool = f.scalar_if_then_else(&t, &f).decrypt(ck);
    assert!(!picked);
}

#[test]
fn match_values_against_clear_lookups() {
    let ck = setup();
    assert!(MatchValues::new(vec![(1u8, 2u8), (1u8, 3u8)]).is_err());
    let table = MatchValues::new(vec![(0u8, 10u8), (1u8, 20u8), (3u8, 250u8)]).unwrap();
    assert_eq!(table.get_values().len(), 3);
    for x in [1u8, 3, 2] {
        let want = table
            .get_values()
            .iter()
            .find(|(i, _)| *i == x)
            .map(|p| p.1);
        let e = FheUint8::encrypt(x, ck);
        let (v, found): (FheUint16, _) = e.match_value(&table).unwrap();
        let v: u16 = v.decrypt(ck);
        assert_eq!(
            (v, found.decrypt(ck)),
            (want.map_or(0, u16::from), want.is_some())
        );
        let or: FheUint8 = e.match_value_or(&table, 7u8).unwrap();
        assert_eq!(FheDecrypt::<u8>::decrypt(&or, ck), want.unwrap_or(7));
    }
    let squares = MatchValues::from_fn_and_range(|x: u16| x * x, 0u16..20);
    let n = FheUint16::encrypt(19u16, ck);
    let too_narrow = n.match_value::<u16, gpufhe::FheUint8Id>(&squares);
    assert!(too_narrow.is_err()); // 19 * 19 = 361 needs 9 bits
    let sq: FheUint32 = n.match_value_or(&squares, 0u16).unwrap();
    assert_eq!(FheDecrypt::<u32>::decrypt(&sq, ck), 361);
}

#[test]
fn bitslice_against_clear_shifts() {
    let ck = setup();
    let w = FheUint32::encrypt(0xCAFE_F00Du32, ck);
    let d = |x: FheUint32| -> u32 { x.decrypt(ck) };
    assert_eq!(d((&w).bitslice(0usize..8).unwrap()), 0x0D);
    assert_eq!(d(w.clone().bitslice(28usize..).unwrap()), 0xC);
    assert_eq!(d((&w).bitslice(8u32..=15).unwrap()), 0xF0);
    assert_eq!(d(BitSlice::<usize>::bitslice(&w, ..).unwrap()), 0xCAFE_F00D);
    assert_eq!(d((&w).bitslice(5usize..5).unwrap()), 0);
    assert_eq!(
        (&w).bitslice(10usize..40).unwrap_err(),
        InvalidRangeError::SliceTooBig
    );
    #[allow(clippy::reversed_empty_ranges)]
    let reversed = (&w).bitslice(9usize..3);
    assert_eq!(reversed.unwrap_err(), InvalidRangeError::WrongOrder);
}
