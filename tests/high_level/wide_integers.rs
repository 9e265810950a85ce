//! The widths above 256 bits and the signed widths of TFHE-rs 1.8 (`FheUint160`,
//! `FheUint512`, `FheUint1024`, `FheUint2048`, `FheInt2` ... `FheInt2048`) through
//! the high-level API on the insecure test parameters, against their clear types
//! (`U256` ... `U2048`, `I256` ... `I2048`): arithmetic, comparisons with clears of
//! any type, casts between every family, trivial values, lists, compressed values,
//! OPRF, sums, lookups, fused multiply-divide, values that do not fit, and
//! serialization. The default parameters run `add` and `<` on 160 and 512 bits and a
//! 2048-bit encryption and cast in `wide_integers_default_parameters.rs`.

use crate::insecure_keys::setup;

use gpufhe::integer::bigint::{I1024, I2048, I256, I512, U1024, U2048, U256, U512};
use gpufhe::prelude::*;
use gpufhe::serialization::{safe_deserialize, safe_serialize, with_insecure_parameters_allowed};
use gpufhe::{
    CompactCiphertextList, CompactPublicKey, CompressedFheInt2048, CompressedFheUint512, FheBool,
    FheInt10, FheInt1024, FheInt14, FheInt160, FheInt2, FheInt2048, FheInt256, FheInt4, FheInt512,
    FheInt6, FheInt8, FheUint1024, FheUint16, FheUint160, FheUint2048, FheUint256, FheUint512,
    FheUint64, FheUint8, MatchValues, Seed,
};

/// A 512-bit value from a seed (its words mixed by SplitMix64).
fn u512(seed: u64) -> U512 {
    let mut state = seed;
    let words = [0u64; 8].map(|_| {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    });
    U512::from_words(words)
}

#[test]
fn unsigned_widths_above_256_bits_compute_as_their_clear_types() {
    let ck = setup();
    let (a, b) = (u512(1), u512(2) >> 3u32);
    let (ea, eb) = (FheUint512::encrypt(a, ck), FheUint512::encrypt(b, ck));
    let dec = |x: &FheUint512| -> U512 { x.decrypt(ck) };
    assert_eq!(dec(&(&ea + &eb)), a + b);
    assert_eq!(dec(&(&ea - b)), a - b);
    assert_eq!(dec(&(&ea & &eb)), a & b);
    assert_eq!(dec(&(&ea >> 300u32)), a >> 300u32);
    assert_eq!(dec(&ea.max(b)), a.max(b));
    assert!(FheBool::decrypt(&ea.ne(&eb), ck));
    assert_eq!(FheBool::decrypt(&ea.lt(&eb), ck), a < b);
    // Clears of any type compare by their value: beyond the range of 160 bits.
    let x160 = FheUint160::encrypt(U256::ONE << 159u32, ck);
    assert!(FheBool::decrypt(&x160.lt(U256::ONE << 160u32), ck));
    assert!(FheBool::decrypt(&x160.eq(U512::ONE << 159u32), ck));
    assert!(!FheBool::decrypt(&x160.eq(U512::ONE << 400u32), ck));
    assert!(FheBool::decrypt(&x160.gt(-1i64), ck));
    assert!(FheUint160::try_encrypt(U256::ONE << 160u32, ck).is_err());
    let p = FheUint160::encrypt(U256::from(1u128 << 100), ck) * U256::from(3u8);
    assert_eq!(
        FheDecrypt::<U256>::decrypt(&p, ck),
        U256::from(3u128 << 100)
    );
    // The widest: 2048 bits, 1,024 blocks.
    let big = U2048::MAX - U2048::from(5u8);
    let e = FheUint2048::encrypt(big, ck);
    let sum: U2048 = (&e + U2048::from(10u8)).decrypt(ck);
    assert_eq!(sum, U2048::from(4u8));
    assert!(FheBool::decrypt(&e.gt(U2048::ONE << 2000u32), ck));
    let x1024 = FheUint1024::encrypt(U1024::ONE << 1000u32, ck);
    let twice: U1024 = (&x1024 + &x1024).decrypt(ck);
    assert_eq!(twice, U1024::ONE << 1001u32);
}

#[test]
fn signed_widths_compute_in_twos_complement() {
    let ck = setup();
    for v in [-2i8, -1, 0, 1] {
        assert_eq!(FheDecrypt::<i8>::decrypt(&FheInt2::encrypt(v, ck), ck), v);
    }
    assert!(FheInt2::try_encrypt(2i8, ck).is_err());
    let a = FheInt4::encrypt(-8i8, ck);
    assert_eq!(FheDecrypt::<i8>::decrypt(&(&a - 1i8), ck), 7, "wraps");
    assert_eq!(
        FheDecrypt::<i8>::decrypt(&FheInt6::encrypt(-20i8, ck).abs(), ck),
        20
    );
    assert_eq!(
        FheDecrypt::<i16>::decrypt(&(FheInt10::encrypt(-500i16, ck) >> 2u32), ck),
        -125
    );
    assert!(FheBool::decrypt(
        &FheInt14::encrypt(-8000i16, ck).lt(-7999i16),
        ck
    ));
    let big = I512::from(-3i8) << 400u32;
    let e = FheInt512::encrypt(big, ck);
    let dec = |x: &FheInt512| -> I512 { x.decrypt(ck) };
    assert_eq!(dec(&(&e + I512::ONE)), big + I512::ONE);
    assert_eq!(dec(&-&e), -big);
    assert_eq!(dec(&(&e >> 399u32)), I512::from(-6i8));
    assert!(FheBool::decrypt(&e.lt(I256::MIN), ck));
    assert!(FheBool::decrypt(&e.lt(0u8), ck));
    let x160 = FheInt160::encrypt(I256::from(-5i8), ck);
    assert_eq!(
        FheDecrypt::<I256>::decrypt(&(&x160 * I256::from(-7i8)), ck),
        I256::from(35i8)
    );
    assert!(FheInt160::try_encrypt(I256::ONE << 159u32, ck).is_err());
    let min = FheInt2048::encrypt(I2048::MIN, ck);
    assert_eq!(FheDecrypt::<I2048>::decrypt(&min, ck), I2048::MIN);
    assert!(FheBool::decrypt(&min.le(I1024::MIN), ck));
    let narrow: i64 = min.decrypt(ck);
    assert_eq!(narrow, 0, "the low 64 bits of -2^2047");
}

#[test]
fn casts_between_every_family_follow_as() {
    let ck = setup();
    let x = u512(7);
    let e = FheUint512::encrypt(x, ck);
    let low: u64 = FheUint64::cast_from(e.clone()).decrypt(ck);
    assert_eq!(low, x.words()[0]);
    let wide: U2048 = FheUint2048::cast_from(e.clone()).decrypt(ck);
    assert_eq!(wide, U2048::from(x));
    let signed: I2048 = FheInt2048::cast_from(FheInt8::encrypt(-100i8, ck)).decrypt(ck);
    assert_eq!(signed, I2048::from(-100i8));
    let back: i8 = FheInt8::cast_from(FheInt2048::encrypt(I2048::from(-100i8), ck)).decrypt(ck);
    assert_eq!(back, -100);
    let from_bool: U512 = FheUint512::cast_from(FheBool::encrypt(true, ck)).decrypt(ck);
    assert_eq!(from_bool, U512::ONE);
    assert!(FheBool::cast_from(e).decrypt(ck));
    let t = FheUint256::cast_from(FheInt1024::encrypt_trivial(I1024::from(-1i8)));
    assert_eq!(t.try_decrypt_trivial::<U256>().unwrap(), U256::MAX);
}

#[test]
fn lists_compressed_values_oprf_sums_and_lookups() {
    let ck = setup();
    let pk = CompactPublicKey::new(ck);
    let x = u512(9);
    let list = CompactCiphertextList::builder(&pk)
        .push(x)
        .push(I2048::from(-42i16))
        .push(U256::MAX)
        .build();
    let expander = list.expand().unwrap();
    let a: FheUint512 = expander.get(0).unwrap().unwrap();
    let b: FheInt2048 = expander.get(1).unwrap().unwrap();
    let c: FheUint256 = expander.get(2).unwrap().unwrap();
    assert_eq!(FheDecrypt::<U512>::decrypt(&a, ck), x);
    assert_eq!(FheDecrypt::<I2048>::decrypt(&b, ck), I2048::from(-42i16));
    assert_eq!(FheDecrypt::<U256>::decrypt(&c, ck), U256::MAX);
    assert!(
        expander.get::<FheUint2048>(0).is_err(),
        "the first is 512 bits"
    );

    let compressed = CompressedFheUint512::encrypt(x, ck);
    assert_eq!(FheDecrypt::<U512>::decrypt(&compressed.decompress(), ck), x);
    let compressed = CompressedFheInt2048::encrypt(I2048::MIN, ck);
    assert_eq!(
        FheDecrypt::<I2048>::decrypt(&compressed.decompress(), ck),
        I2048::MIN
    );

    let r = FheUint512::generate_oblivious_pseudo_random_bounded(Seed(3), 300);
    assert!(FheDecrypt::<U512>::decrypt(&r, ck) < U512::ONE << 300u32);

    let values: Vec<FheUint160> = [1u8, 2, 3]
        .iter()
        .map(|&v| FheUint160::encrypt(U256::from(v) << 150u32, ck))
        .collect();
    let total: U256 = FheUint160::sum(&values).unwrap().decrypt(ck);
    assert_eq!(total, U256::from(6u8) << 150u32);
    let needle = FheUint160::encrypt(U256::from(2u8) << 150u32, ck);
    assert!(FheUint160::contains(&values, &needle).decrypt(ck));
    let table = MatchValues::new(vec![(U256::from(2u8) << 150u32, U256::from(7u8))]).unwrap();
    let (out, found): (FheUint8, _) = needle.match_value(&table).unwrap();
    assert_eq!(
        (FheDecrypt::<u8>::decrypt(&out, ck), found.decrypt(ck)),
        (7, true)
    );
}

#[test]
fn fused_multiply_divide_on_narrow_and_wide_types() {
    let ck = setup();
    let a = FheUint16::encrypt(60_000u16, ck);
    let b = FheUint16::encrypt(50_000u16, ck);
    let q: u16 = (&a).fused_mul_scalar_div(&b, 65_535u16).decrypt(ck);
    assert_eq!(q, (60_000u32 * 50_000 / 65_535) as u16);
    let q: u16 = a.fused_scalar_mul_scalar_div(3u16, 4u16).decrypt(ck);
    assert_eq!(q, 45_000);
    let s = FheInt8::encrypt(-100i8, ck);
    let q: i8 = (&s)
        .fused_mul_scalar_div(&FheInt8::encrypt(90i8, ck), 60i8)
        .decrypt(ck);
    assert_eq!(q, -150i16 as i8, "-9000 / 60 = -150 wraps in 8 bits");
    // 256 bits: the product on 512.
    let w = FheUint256::encrypt(U256::MAX, ck);
    let q: U256 = (&w)
        .fused_scalar_mul_scalar_div(U256::MAX, U256::MAX)
        .decrypt(ck);
    assert_eq!(q, U256::MAX);
    assert!((&w)
        .try_fused_scalar_mul_scalar_div(U256::ONE, U256::ZERO)
        .is_err());
}

#[test]
fn serialization_of_wide_values_and_their_trivial_forms() {
    let ck = setup();
    let x = U2048::MAX - (U2048::ONE << 1500u32);
    for value in [FheUint2048::encrypt(x, ck), FheUint2048::encrypt_trivial(x)] {
        let mut bytes = Vec::new();
        safe_serialize(&value, &mut bytes, 1 << 30).unwrap();
        let back: FheUint2048 =
            with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), 1 << 30))
                .unwrap();
        assert_eq!(FheDecrypt::<U2048>::decrypt(&back, ck), x);
        let other = with_insecure_parameters_allowed(|| {
            safe_deserialize::<FheUint1024>(bytes.as_slice(), 1 << 30)
        });
        assert!(other.is_err(), "the header names the type");
    }
    // A trivial value of 256 bits is written as before (the 256-bit form).
    let t = FheInt256::encrypt_trivial(I256::from(-1i8));
    let mut bytes = Vec::new();
    safe_serialize(&t, &mut bytes, 1 << 20).unwrap();
    let back: FheInt256 = safe_deserialize(bytes.as_slice(), 1 << 20).unwrap();
    assert_eq!(
        back.try_decrypt_trivial::<I256>().unwrap(),
        I256::from(-1i8)
    );
}
