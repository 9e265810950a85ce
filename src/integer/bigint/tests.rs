//! [`U256`] against `u128` arithmetic on values that fit, and hand-checked 256-bit
//! cases.

use super::U256;
use crate::integer::tests::SplitMix;

fn u(v: u128) -> U256 {
    U256::from(v)
}

fn lh(low: u128, high: u128) -> U256 {
    U256::from((low, high))
}

/// 64-bit values (their products and sums fit in a u128) and edge values.
fn small_values() -> Vec<u128> {
    let mut rng = SplitMix(7);
    let mut values = vec![0, 1, 2, 3, 10, u64::MAX as u128, 1 << 63];
    values.extend((0..12).map(|_| rng.value(64)));
    values.extend((0..6).map(|_| rng.value(20)));
    values
}

#[test]
fn matches_u128_on_values_that_fit() {
    let values = small_values();
    for &a in &values {
        for &b in &values {
            assert_eq!(u(a) + u(b), u(a + b), "{a} + {b}");
            assert_eq!(u(a) * u(b), u(a * b), "{a} * {b}");
            assert_eq!(u(a) & u(b), u(a & b));
            assert_eq!(u(a) | u(b), u(a | b));
            assert_eq!(u(a) ^ u(b), u(a ^ b));
            assert_eq!(u(a).cmp(&u(b)), a.cmp(&b), "{a} cmp {b}");
            if a >= b {
                assert_eq!(u(a) - u(b), u(a - b));
            }
            if b != 0 {
                assert_eq!(u(a).div_rem(u(b)), (u(a / b), u(a % b)), "{a} / {b}");
                assert_eq!(u(a).div_ceil(u(b)), u(a.div_ceil(b)));
            }
        }
        for s in [0u32, 1, 5, 63, 64, 100] {
            assert_eq!((u(a) << s).low_u128(), a << s, "{a} << {s}");
            assert_eq!(u(a) << s >> s, u(a), "{a} << {s} >> {s}");
            assert_eq!(u(a) >> s, u(a >> s), "{a} >> {s}");
        }
        assert_eq!(u(a).count_ones(), a.count_ones());
        assert_eq!(
            u(a).trailing_zeros(),
            a.trailing_zeros() + 128 * u32::from(a == 0)
        );
        assert_eq!(u(a).leading_zeros(), a.leading_zeros() + 128);
        assert_eq!(u(a).is_power_of_two(), a.is_power_of_two());
        assert_eq!(u(a).checked_ilog2(), a.checked_ilog2());
        assert_eq!(u(a).to_string(), a.to_string());
        assert_eq!(format!("{:x}", u(a)), format!("{a:x}"));
        assert_eq!(format!("{:#010X}", u(a)), format!("{a:#010X}"));
        assert_eq!(u128::try_from(u(a)), Ok(a));
        assert_eq!(u(a).to_low_high_u128(), (a, 0));
    }
}

#[test]
fn wraps_around_modulo_2_256() {
    assert_eq!(U256::MAX + U256::ONE, U256::ZERO);
    assert_eq!(U256::ZERO - U256::ONE, U256::MAX);
    assert_eq!(U256::MAX.overflowing_add(U256::ONE), (U256::ZERO, true));
    assert!(U256::ONE.overflowing_sub(lh(0, 1)).1);
    assert_eq!(U256::MAX * U256::MAX, U256::ONE); // (-1)^2
    assert_eq!(U256::MAX.wrapping_neg(), U256::ONE);
    assert_eq!(lh(0, 1).overflowing_mul(lh(0, 1)), (U256::ZERO, true));
    assert_eq!(lh(0, 1 << 127).overflowing_mul(u(2)), (U256::ZERO, true));
    assert_eq!(
        lh(0, 1 << 126).overflowing_mul(u(2)),
        (lh(0, 1 << 127), false)
    );
    assert_eq!(U256::MAX.checked_add(U256::ONE), None);
    assert_eq!(U256::ZERO.checked_sub(U256::ONE), None);
    assert_eq!(u(3).saturating_sub(u(5)), U256::ZERO);
}

#[test]
fn carries_across_the_halves() {
    assert_eq!(u(u128::MAX) + U256::ONE, lh(0, 1));
    assert_eq!(lh(0, 1) - U256::ONE, u(u128::MAX));
    // (2^128 - 1)^2 = 2^256 - 2^129 + 1.
    assert_eq!(u(u128::MAX) * u(u128::MAX), lh(1, u128::MAX - 1));
    // 2^64 * 2^64 = 2^128.
    assert_eq!(u(1 << 64) * u(1 << 64), lh(0, 1));
    // (2^128 + 3) * 5 = 5 * 2^128 + 15.
    assert_eq!(lh(3, 1) * u(5), lh(15, 5));
    assert_eq!(U256::ONE << 255u32, lh(0, 1 << 127));
    assert_eq!(
        U256::ONE << 256u32,
        U256::ONE,
        "the amount is taken modulo 256"
    );
    assert_eq!(lh(0, 1 << 127) >> 255u32, U256::ONE);
    assert_eq!(lh(1 << 127, 0) << 1u32, lh(0, 1));
    assert_eq!(lh(0, 1) >> 1u32, lh(1 << 127, 0));
    assert_eq!(lh(0x1234, 0x5678) << 8u32, lh(0x123400, 0x567800));
    assert_eq!(lh(0, 0xff) >> 4u32, lh(0xf << 124, 0xf));
    assert_eq!(lh(0, 1 << 127).rotate_left(1), U256::ONE);
    assert_eq!(U256::ONE.rotate_right(1), lh(0, 1 << 127));
    assert_eq!(lh(5, 9).rotate_left(128), lh(9, 5));
    assert_eq!(U256::ONE.reverse_bits(), lh(0, 1 << 127));
    assert_eq!(!U256::ZERO, U256::MAX);
}

#[test]
fn counts_and_logarithms_above_2_128() {
    let x = lh(0b1011, 0b100);
    assert_eq!(x.count_ones(), 4);
    assert_eq!(x.leading_zeros(), 125);
    assert_eq!(x.trailing_zeros(), 0);
    assert_eq!(lh(0, 8).trailing_zeros(), 131);
    assert_eq!(x.ilog2(), 130);
    assert!(lh(0, 1 << 20).is_power_of_two() && !x.is_power_of_two());
    assert_eq!(U256::ZERO.checked_ilog2(), None);
    assert_eq!(U256::MAX.ilog2(), 255);
    assert_eq!(U256::MAX.count_ones(), 256);
    assert_eq!(U256::MAX.leading_ones(), 256);
    assert_eq!(U256::ZERO.leading_zeros(), 256);
    assert_eq!(U256::ZERO.count_zeros(), 256);
    assert_eq!(u(0b0111).trailing_ones(), 3);
    assert!(x.bit(130) && !x.bit(129) && x.bit(0) && !x.bit(300));
    assert_eq!(U256::mask(130), lh(u128::MAX, 3));
    assert_eq!(U256::mask(128), lh(u128::MAX, 0));
    assert_eq!(U256::mask(127), lh(u128::MAX >> 1, 0));
    assert_eq!(U256::mask(255), lh(u128::MAX, u128::MAX >> 1));
    assert_eq!(U256::mask(0), U256::ZERO);
    assert!(lh(u128::MAX, 0).fits_in(128) && !lh(0, 1).fits_in(128));
    assert_eq!(U256::MAX.low_bits(7), u(127));
    assert!(lh(0, 3).fits_in(130) && !lh(0, 4).fits_in(130) && U256::MAX.fits_in(256));
}

#[test]
fn divides_256_bit_values() {
    // 2^255 / 2^130 = 2^125.
    assert_eq!(lh(0, 1 << 127).div_rem(lh(0, 4)), (u(1 << 125), U256::ZERO));
    // (7 * 2^128 + 5) / 2^128 = 7 rest 5.
    assert_eq!(lh(5, 7).div_rem(lh(0, 1)), (u(7), u(5)));
    // (2^256 - 1) / 3 = 0x5555...5 rest 0.
    let third = lh(u128::MAX / 3, u128::MAX / 3);
    assert_eq!(U256::MAX.div_rem(u(3)), (third, U256::ZERO));
    // (2^256 - 1) / 10 is 0x1999...9 rest 5.
    let (q, r) = U256::MAX.div_rem(u(10));
    assert_eq!(r, u(5));
    assert_eq!(q * u(10) + r, U256::MAX);
    // A divisor above 2^128 and a random dividend: q * d + r = n with r < d.
    let mut rng = SplitMix(3);
    for _ in 0..50 {
        let n = lh(rng.value(128), rng.value(128));
        let d = lh(rng.value(128), rng.value(70)) >> (rng.next_u64() % 256) as u32;
        if d.is_zero() {
            continue;
        }
        let (q, r) = n.div_rem(d);
        assert!(r < d);
        assert_eq!(q.checked_mul(d).and_then(|p| p.checked_add(r)), Some(n));
    }
    assert_eq!(u(5).checked_div(U256::ZERO), None);
    assert_eq!(lh(9, 1).checked_rem(lh(0, 1)), Some(u(9)));
    assert_eq!(lh(1, 1).div_ceil(lh(0, 1)), u(2));
}

#[test]
#[should_panic(expected = "divide by zero")]
fn division_by_zero_panics() {
    let _ = U256::ONE / U256::ZERO;
}

#[test]
fn converts_and_formats() {
    assert_eq!(U256::from(7u8), u(7));
    assert_eq!(U256::from(u64::MAX), u(u64::MAX as u128));
    assert_eq!(U256::from((1u128, 2u128)).to_low_high_u128(), (1, 2));
    assert!(u128::try_from(lh(0, 1)).is_err());
    assert_eq!(U256::BITS, 256);
    assert_eq!(U256::default(), U256::ZERO);
    assert_eq!(
        U256::MAX.to_string(),
        "115792089237316195423570985008687907853269984665640564039457584007913129639935"
    );
    assert_eq!(
        lh(0, 1).to_string(),
        "340282366920938463463374607431768211456"
    );
    assert_eq!(format!("{:?}", lh(0, 1)), lh(0, 1).to_string());
    assert_eq!(format!("{:>42}", lh(0, 1)), format!("   {}", lh(0, 1)));
    assert_eq!(format!("{:x}", lh(0xab, 0x1)), format!("1{:032x}", 0xab));
    assert_eq!(format!("{:#x}", U256::MAX), format!("0x{}", "f".repeat(64)));
    assert_eq!(format!("{:b}", lh(1, 1)), format!("1{}1", "0".repeat(127)));
    let mut x = lh(3, 4);
    x += U256::ONE;
    x *= u(2);
    x -= u(1);
    x <<= 1u32;
    x >>= 1u32;
    x /= u(1);
    x %= U256::MAX;
    x |= u(0x10);
    x &= !u(1);
    x ^= u(2);
    assert_eq!(x, lh(0x14, 8));
    assert_eq!([u(1), u(2), lh(0, 1)].into_iter().sum::<U256>(), lh(3, 1));
}

#[test]
fn serde_round_trip() {
    let x = lh(0x0123_4567_89ab_cdef, 42);
    let config = bincode::config::standard();
    let bytes = bincode::serde::encode_to_vec(x, config).expect("serializes");
    let (y, _): (U256, usize) = bincode::serde::decode_from_slice(&bytes, config).expect("reads");
    assert_eq!(x, y);
}

#[test]
fn bytes_round_trip_both_ways() {
    let x = U256::from([
        0x0123_4567_89ab_cdef,
        0xfedc_ba98_7654_3210,
        0x1111_2222_3333_4444,
        0x8000_0000_0000_0001,
    ]);
    let (mut le, mut be) = ([0u8; 32], [0u8; 32]);
    x.copy_to_le_byte_slice(&mut le);
    x.copy_to_be_byte_slice(&mut be);
    assert_eq!(le[0], 0xef);
    assert_eq!(le[31], 0x80);
    let mut reversed = le;
    reversed.reverse();
    assert_eq!(reversed, be);
    let (mut a, mut b) = (U256::ZERO, U256::MAX);
    a.copy_from_le_byte_slice(&le);
    b.copy_from_be_byte_slice(&be);
    assert_eq!((a, b), (x, x));
}

#[test]
#[should_panic(expected = "8 bytes per word")]
fn a_short_slice_is_refused() {
    let mut x = U256::ZERO;
    x.copy_from_le_byte_slice(&[0u8; 31]);
}

#[test]
fn limbs_constants_and_ceil_log() {
    let x = U256::from((1u64, 2u64, 3u64, 4u64));
    assert_eq!(x, U256::from([1, 2, 3, 4]));
    let low = 1u128 | (2u128 << 64);
    let high = 3u128 | (4u128 << 64);
    assert_eq!(x.to_low_high_u128(), (low, high));
    assert_eq!(U256::MIN, U256::ZERO);
    assert_eq!(U256::TWO, U256::from(2u8));
    assert_eq!(U256::ONE.ceil_ilog2(), 0);
    assert_eq!(U256::TWO.ceil_ilog2(), 1);
    assert_eq!(U256::from(3u8).ceil_ilog2(), 2);
    assert_eq!((U256::ONE << 200u32).ceil_ilog2(), 200);
    assert_eq!(((U256::ONE << 200u32) + U256::ONE).ceil_ilog2(), 201);
    assert_eq!(U256::MAX.ceil_ilog2(), 256);
}

/// The wider widths agree with the 256-bit type on values that fit, and the
/// arithmetic identities hold across their full width.
#[test]
fn wider_widths_agree_with_256_bits_and_hold_identities() {
    use super::{U1024, U2048, U512};
    let mut rng = SplitMix(11);
    let random = |rng: &mut SplitMix| -> U256 { U256::from((rng.value(128), rng.value(128))) };
    for _ in 0..40 {
        let (a, b) = (random(&mut rng), random(&mut rng));
        let (wa, wb): (U512, U512) = (a.resize(), b.resize());
        // The 512-bit product is exact; its low half is the wrapping product.
        let product = wa * wb;
        assert_eq!(product.resize::<4>(), a.wrapping_mul(b));
        assert_eq!(product.wrapping_shr(256).is_zero(), !a.overflowing_mul(b).1);
        if !b.is_zero() {
            let (q, r) = product.div_rem(wb);
            assert_eq!((q, r), (wa, U512::ZERO));
            let (q, r) = a.div_rem(b);
            assert_eq!(wa.div_rem(wb), (q.resize(), r.resize()));
        }
        assert_eq!((wa + wb).resize::<4>(), a.wrapping_add(b));
        assert_eq!(wa.cmp(&wb), a.cmp(&b));
        assert_eq!((wa << 256u32) >> 256u32, wa);
        assert_eq!((wa << 300u32) >> 300u32, wa.low_bits(212));
        assert_eq!(wa.rotate_left(500).rotate_right(500), wa);
        assert_eq!(wa.reverse_bits().reverse_bits(), wa);
        assert_eq!(wa.count_ones(), a.count_ones());
        assert_eq!(wa.leading_zeros(), a.leading_zeros() + 256);
    }
    let big = U2048::MAX;
    assert_eq!(big.count_ones(), 2048);
    assert_eq!(big.wrapping_add(U2048::ONE), U2048::ZERO);
    assert!(big.overflowing_mul(U2048::TWO).1);
    assert_eq!((U2048::ONE << 2047u32).ilog2(), 2047);
    assert_eq!(U2048::mask(1000).count_ones(), 1000);
    assert!(U2048::mask(1000).fits_in(1000) && !U2048::mask(1000).fits_in(999));
    let x = U1024::from(10u8).wrapping_shl(700) + U1024::from(7u8);
    assert_eq!(x.checked_div_rem_u64(10).map(|(_, r)| r), Some(7));
    assert_eq!(x % U1024::from(10u8), U1024::from(7u8));
    assert_eq!(U1024::MAX.checked_resize::<8>(), None);
    assert_eq!(
        U1024::from(5u8).checked_resize::<8>(),
        Some(U512::from(5u8))
    );
}

#[test]
fn wide_formatting_bytes_and_serialization() {
    use super::U512;
    let x = U512::ONE << 400u32;
    // 2^400, checked digit by digit against repeated doubling in decimal.
    let mut decimal = vec![1u8];
    for _ in 0..400 {
        let mut carry = 0;
        for d in decimal.iter_mut() {
            let v = *d * 2 + carry;
            *d = v % 10;
            carry = v / 10;
        }
        if carry > 0 {
            decimal.push(carry);
        }
    }
    let expected: String = decimal.iter().rev().map(|d| char::from(b'0' + d)).collect();
    assert_eq!(x.to_string(), expected);
    assert_eq!(format!("{x:x}"), format!("1{}", "0".repeat(100)));
    assert_eq!(format!("{:#X}", U512::from(255u8)), "0xFF");
    assert_eq!(format!("{:b}", U512::from(5u8)), "101");
    assert_eq!(format!("{:>6}", U512::from(42u8)), "    42");
    let bytes = x.to_le_bytes();
    assert_eq!(U512::try_from_le_bytes(&bytes), Some(x));
    // bincode writes the words least significant first, 8 little-endian bytes each:
    // for 256 bits, the bytes the type always had.
    let encoded = bincode::serde::encode_to_vec(x, bincode::config::legacy()).unwrap();
    assert_eq!(encoded, bytes);
    let (back, _): (U512, usize) =
        bincode::serde::decode_from_slice(&encoded, bincode::config::legacy()).unwrap();
    assert_eq!(back, x);
    assert!(bincode::serde::decode_from_slice::<U512, _>(
        &encoded[..63],
        bincode::config::legacy()
    )
    .is_err());
}

#[test]
fn signed_values_match_i128_where_they_fit() {
    use super::{I256, I512};
    let mut rng = SplitMix(5);
    let mut values: Vec<i128> = vec![0, 1, -1, 2, -2, i64::MIN as i128, i64::MAX as i128, -7, 7];
    values.extend((0..10).map(|_| rng.value(60) as i128 - (1 << 59)));
    let s = |v: i128| I256::from(v);
    for &a in &values {
        for &b in &values {
            assert_eq!(s(a) + s(b), s(a + b), "{a} + {b}");
            assert_eq!(s(a) - s(b), s(a - b), "{a} - {b}");
            assert_eq!(s(a) * s(b), s(a.wrapping_mul(b)), "{a} * {b}");
            assert_eq!(s(a).cmp(&s(b)), a.cmp(&b), "{a} cmp {b}");
            if b != 0 {
                assert_eq!(s(a) / s(b), s(a / b), "{a} / {b}");
                assert_eq!(s(a) % s(b), s(a % b), "{a} % {b}");
            }
        }
        assert_eq!(-s(a), s(-a));
        assert_eq!(s(a) >> 3u32, s(a >> 3));
        assert_eq!(s(a) << 3u32, s(a << 3));
        assert_eq!(!s(a), s(!a));
        assert_eq!(i128::try_from(s(a)), Ok(a));
        assert_eq!(s(a).to_string(), a.to_string());
        assert_eq!(s(a).resize::<8>(), I512::from(a));
        assert_eq!(I512::from(a).resize::<4>(), s(a));
    }
    assert_eq!(I256::MIN.wrapping_neg(), I256::MIN);
    assert_eq!(I256::MIN / I256::from(-1i8), I256::MIN);
    assert_eq!(I256::MAX.overflowing_add(I256::ONE), (I256::MIN, true));
    assert_eq!(I256::MIN.overflowing_sub(I256::ONE), (I256::MAX, true));
    assert!(i128::try_from(I256::MAX).is_err());
    assert_eq!(I256::from(-1i8).as_unsigned(), U256::MAX);
    assert_eq!(I256::MIN.unsigned_abs(), U256::ONE << 255u32);
    assert_eq!(I256::from(-5i8).to_string(), "-5");
}
