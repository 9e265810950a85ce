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
