//! `FheUint256` through the high-level API on the insecure test parameters:
//! operators with encrypted and `U256` operands above 2^128, casts to and from every
//! width with Rust's `as` semantics, trivial values, public-key encryption, OPRF
//! bounds, serialization and values that do not fit. The default parameters run
//! one case in `operations_default_parameters.rs`.

use crate::insecure_keys;

use gpufhe::integer::U256;
use gpufhe::prelude::*;
use gpufhe::serialization::{safe_deserialize, safe_serialize, with_insecure_parameters_allowed};
use gpufhe::{
    CompactCiphertextList, CompactPublicKey, FheBool, FheInt128, FheInt16, FheInt64, FheInt8,
    FheUint128, FheUint16, FheUint2, FheUint256, FheUint32, FheUint64, FheUint8, Seed,
};
use insecure_keys::setup;

fn wide(low: u128, high: u128) -> U256 {
    U256::from((low, high))
}

fn dec(x: &FheUint256) -> U256 {
    x.decrypt(setup())
}

#[test]
fn arithmetic_with_encrypted_and_clear_operands_above_2_128() {
    let ck = setup();
    let a = wide(0x0123_4567_89ab_cdef_0011_2233_4455_6677, u128::MAX / 3);
    let b = wide(u128::MAX - 2, 0x8000_0000_0000_0000_0000_0000_0000_0005);
    let k = wide(99, 5);
    let (ea, eb) = (FheUint256::encrypt(a, ck), FheUint256::encrypt(b, ck));
    assert_eq!(dec(&(&ea + &eb)), a + b);
    assert_eq!(dec(&(&ea - &eb)), a - b);
    assert_eq!(dec(&(&ea + k)), a + k);
    assert_eq!(dec(&(k - &ea)), k - a);
    assert_eq!(dec(&(&ea * k)), a * k);
    assert_eq!(dec(&(&ea & k)), a & k);
    assert_eq!(dec(&(&ea | &eb)), a | b);
    assert_eq!(dec(&(&ea ^ k)), a ^ k);
    assert_eq!(dec(&!&ea), !a);
    assert_eq!(dec(&-&ea), a.wrapping_neg());
    assert_eq!(dec(&(&ea << 130u32)), a << 130u32);
    assert_eq!(dec(&(&ea >> U256::from(200u8))), a >> 200u32);
    assert_eq!(dec(&(&ea >> &FheUint256::encrypt(129u8, ck))), a >> 129u32);
    assert_eq!(
        dec(&(&ea).rotate_left(U256::from(300u16))),
        a.rotate_left(300)
    );
    // By a power of two: a shift and a mask; by 10: a product by the reciprocal.
    let p = wide(0, 1 << 3);
    assert_eq!(dec(&(&ea / p)), a / p);
    assert_eq!(dec(&(&ea % p)), a % p);
    let (q, r) = ea.div_rem(U256::from(10u8));
    assert_eq!((dec(&q), dec(&r)), a.div_rem(U256::from(10u8)));
    assert_eq!(dec(&ea.min(k)), a.min(k));
    assert_eq!(dec(&ea.max(&eb)), a.max(b));
    let (sum, overflow) = (&ea).overflowing_add(&eb);
    assert_eq!((dec(&sum), overflow.decrypt(ck)), a.overflowing_add(b));
    let bool_of = |x: FheBool| -> bool { x.decrypt(ck) };
    assert!(bool_of(ea.lt(&eb)));
    assert!(bool_of(ea.gt(k)));
    assert!(bool_of(ea.ne(k)));
    assert!(bool_of(ea.eq(a)));
    assert!(!bool_of(eb.le(a)));
    let count = |x: FheUint32| -> u32 { x.decrypt(ck) };
    assert_eq!(count(ea.count_ones()), a.count_ones());
    assert_eq!(count(eb.leading_zeros()), b.leading_zeros());
    assert_eq!(
        count(FheUint256::encrypt(wide(0, 8), ck).trailing_zeros()),
        131
    );
    assert_eq!(count(ea.ilog2()), a.ilog2());
}

#[test]
fn encryption_decryption_and_trivial_values() {
    let ck = setup();
    let x = wide(7, u128::MAX);
    assert_eq!(dec(&FheUint256::encrypt(x, ck)), x);
    assert_eq!(
        dec(&FheUint256::encrypt(u128::MAX, ck)),
        U256::from(u128::MAX)
    );
    // Narrower clear types wrap, like `as`.
    let low: u64 = FheUint256::encrypt(x, ck).decrypt(ck);
    assert_eq!(low, 7);
    assert!(FheTryDecrypt::<u128>::try_decrypt(&FheUint256::encrypt(x, ck), ck).is_err());
    assert!(
        FheUint128::try_encrypt(wide(0, 1), ck).is_err(),
        "2^128 is too wide"
    );
    assert_eq!(
        FheDecrypt::<u128>::decrypt(&FheUint128::encrypt(wide(5, 1), ck), ck),
        5
    );
    assert_eq!(
        FheDecrypt::<U256>::decrypt(&FheUint8::encrypt(200u8, ck), ck),
        U256::from(200u8)
    );
    let t = FheUint256::encrypt_trivial(x);
    assert_eq!(t.try_decrypt_trivial::<U256>().unwrap(), x);
    assert_eq!(
        dec(&(&FheUint256::encrypt(U256::ONE, ck) + &t)),
        x + U256::ONE
    );
    assert!(FheUint64::try_encrypt_trivial(wide(0, 1)).is_err());
    assert_eq!(
        FheUint16::encrypt_trivial(wide(0x1_2345, 9))
            .try_decrypt_trivial::<u16>()
            .unwrap(),
        0x2345u16
    );
}

#[test]
fn casts_follow_as_semantics() {
    let ck = setup();
    let x = wide(0xfedc_ba98_7654_3210_8000_0000_0000_00ff, 0xabcd);
    let ex = FheUint256::encrypt(x, ck);
    let (low, _) = x.to_low_high_u128();
    let u8_: u8 = FheUint8::cast_from(ex.clone()).decrypt(ck);
    let u2: u8 = FheUint2::cast_from(ex.clone()).decrypt(ck);
    let u128_: u128 = FheUint128::cast_from(ex.clone()).decrypt(ck);
    let i64_: i64 = FheInt64::cast_from(ex.clone()).decrypt(ck);
    let i128_: i128 = FheInt128::cast_from(ex.clone()).decrypt(ck);
    assert_eq!((u8_, u2, u128_), (low as u8, low as u8 & 3, low));
    assert_eq!((i64_, i128_), (low as i64, low as i128));
    // Zero extension from unsigned types, sign extension from signed ones.
    let back = |v: FheUint256| dec(&v);
    assert_eq!(
        back(FheUint256::cast_from(FheUint64::encrypt(u64::MAX, ck))),
        U256::from(u64::MAX)
    );
    assert_eq!(
        back(FheUint256::cast_from(FheInt8::encrypt(-2i8, ck))),
        U256::MAX - U256::ONE
    );
    assert_eq!(
        back(FheUint256::cast_from(FheInt16::encrypt(300i16, ck))),
        U256::from(300u16)
    );
    assert_eq!(
        back(FheUint256::cast_from(FheInt128::encrypt(i128::MIN, ck))),
        wide(1 << 127, u128::MAX)
    );
    assert_eq!(
        back(FheUint256::cast_from(FheBool::encrypt(true, ck))),
        U256::ONE
    );
    assert!(FheBool::cast_from(ex.clone()).decrypt(ck));
    // The same on trivial values, which cast in clear.
    let t = FheUint256::cast_from(FheInt8::encrypt_trivial(-3i8));
    assert_eq!(
        t.try_decrypt_trivial::<U256>().unwrap(),
        U256::MAX - U256::from(2u8)
    );
    let t = FheUint32::cast_from(FheUint256::encrypt_trivial(x));
    assert_eq!(t.try_decrypt_trivial::<u32>().unwrap(), 0xff);
}

#[test]
fn public_key_lists_oprf_and_serialization() {
    let ck = setup();
    let x = wide(u128::MAX / 7, u128::MAX / 11);
    let pk = CompactPublicKey::new(ck);
    let list = CompactCiphertextList::builder(&pk)
        .push(x)
        .push(3u8)
        .push_with_num_bits(U256::from(5u8), 256)
        .unwrap()
        .build();
    let expander = list.expand().unwrap();
    let a: FheUint256 = expander.get(0).unwrap().unwrap();
    let b: FheUint8 = expander.get(1).unwrap().unwrap();
    let c: FheUint256 = expander.get(2).unwrap().unwrap();
    assert_eq!(
        (dec(&a), FheDecrypt::<u8>::decrypt(&b, ck), dec(&c)),
        (x, 3, U256::from(5u8))
    );
    assert!(CompactCiphertextList::builder(&pk)
        .push_with_num_bits(U256::MAX, 255)
        .is_err());
    assert_eq!(dec(&FheUint256::try_encrypt(x, &pk).unwrap()), x);

    let r = FheUint256::generate_oblivious_pseudo_random_bounded(Seed(5), 200);
    assert!(dec(&r) < U256::ONE << 200u32);
    let full = FheUint256::generate_oblivious_pseudo_random(Seed(6));
    let _ = dec(&full);

    for value in [FheUint256::encrypt(x, ck), FheUint256::encrypt_trivial(x)] {
        let mut bytes = Vec::new();
        safe_serialize(&value, &mut bytes, 1 << 30).unwrap();
        let back: FheUint256 =
            with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), 1 << 30))
                .unwrap();
        assert_eq!(dec(&back), x);
        // The header names the type: an FheUint128 reader refuses it.
        let other = with_insecure_parameters_allowed(|| {
            safe_deserialize::<FheUint128>(bytes.as_slice(), 1 << 30)
        });
        assert!(other.is_err());
    }
}
