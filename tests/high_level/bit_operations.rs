//! Bit counts, `ilog2`, bit reversal, overflowing and checked arithmetic, the
//! method forms of selection and the GPU helpers through the high-level API, on
//! the insecure test parameters (fast): every width, edge and random operands,
//! trivial operands and errors. Expected values come from Rust's methods on the
//! clear type. The default parameters run a few of them in
//! `high_level_bit_operations_default_parameters.rs`.

use crate::insecure_keys;

use gpufhe::prelude::*;
use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
use gpufhe::{
    generate_keys, set_server_key, unset_server_key, ClientKey, ConfigBuilder, Error, FheBool,
    FheUint, FheUint128, FheUint16, FheUint32, FheUint64, FheUint8,
};
use insecure_keys::setup;

/// xorshift64*.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// Edge values of a `bits`-bit type and random ones (some with leading zeros).
fn values(bits: u32, seed: u64) -> Vec<u128> {
    let mask = u128::MAX >> (128 - bits);
    let mut state = seed | 1;
    let mut out = vec![0, 1, mask, mask >> 1, 1 << (bits - 1), 0b110 & mask];
    for _ in 0..3 {
        let v = ((next(&mut state) as u128) << 64 | next(&mut state) as u128) & mask;
        out.push(v);
        out.push(v >> (next(&mut state) % bits as u64));
    }
    out
}

/// Every count, `ilog2`, `checked_ilog2` and `reverse_bits` of `values` of the
/// width `Id`, against `clear` (the same methods on the clear type, as u128s).
fn check_counts<Id: gpufhe::high_level::FheUintId>(ck: &ClientKey, values: &[u128])
where
    FheUint<Id>: FheEncrypt<u128, ClientKey> + FheDecrypt<u128>,
{
    let bits = Id::BITS;
    let unused = 128 - bits;
    for &v in values {
        let x = FheUint::<Id>::encrypt(v, ck);
        let count = |y: FheUint32| -> u32 { y.decrypt(ck) };
        assert_eq!(count(x.count_ones()), v.count_ones(), "count_ones {v:#x}");
        assert_eq!(
            count(x.count_zeros()),
            bits - v.count_ones(),
            "count_zeros {v:#x}"
        );
        assert_eq!(
            count(x.leading_zeros()),
            v.leading_zeros() - unused,
            "lz {v:#x}"
        );
        assert_eq!(
            count(x.trailing_zeros()),
            v.trailing_zeros().min(bits),
            "tz {v:#x}"
        );
        assert_eq!(
            count(x.leading_ones()),
            (v << unused).leading_ones().min(bits),
            "lo {v:#x}"
        );
        assert_eq!(count(x.trailing_ones()), v.trailing_ones(), "to {v:#x}");
        let (log, valid) = x.checked_ilog2();
        assert_eq!(valid.decrypt(ck), v != 0, "checked_ilog2 flag {v:#x}");
        if v != 0 {
            assert_eq!(count(log), v.ilog2(), "checked_ilog2 {v:#x}");
            assert_eq!(count(x.ilog2()), v.ilog2(), "ilog2 {v:#x}");
        }
        let reversed: u128 = x.reverse_bits().decrypt(ck);
        assert_eq!(reversed, v.reverse_bits() >> unused, "reverse_bits {v:#x}");
    }
}

#[test]
fn counts_logarithms_and_reversal_on_every_width() {
    let ck = setup();
    check_counts::<gpufhe::high_level::FheUint8Id>(ck, &values(8, 8));
    check_counts::<gpufhe::high_level::FheUint16Id>(ck, &values(16, 16));
    check_counts::<gpufhe::high_level::FheUint32Id>(ck, &values(32, 32)[..8]);
    check_counts::<gpufhe::high_level::FheUint64Id>(ck, &values(64, 64)[..6]);
    check_counts::<gpufhe::high_level::FheUint128Id>(ck, &[0, 1 << 100, u128::MAX >> 3]);
}

#[test]
fn trivial_operands_count_without_bootstraps() {
    let ck = setup();
    // A key of its own: the shared key's counters also count the tests running
    // beside this one.
    let server_key = gpufhe::CompressedServerKey::new(ck).decompress();
    set_server_key(server_key.clone());
    let before = server_key.pbs_count();
    let x = FheUint16::encrypt_trivial(0b0000_0101_1000_0000u16);
    let count = |y: FheUint32| -> u32 { y.decrypt(ck) };
    assert_eq!(count(x.count_ones()), 3);
    assert_eq!(count(x.leading_zeros()), 5);
    assert_eq!(count(x.trailing_zeros()), 7);
    assert_eq!(count(x.ilog2()), 10);
    let reversed: u16 = x.reverse_bits().decrypt(ck);
    assert_eq!(reversed, 0b0000_0101_1000_0000u16.reverse_bits());
    assert_eq!(
        server_key.pbs_count(),
        before,
        "trivial values fold to constants"
    );
}

#[test]
fn overflowing_and_checked_arithmetic() {
    let ck = setup();
    let mut state = 5;
    let mut pairs: Vec<(u8, u8)> =
        vec![(0, 255), (255, 255), (16, 16), (15, 17), (1, 255), (128, 2)];
    pairs.extend((0..6).map(|_| (next(&mut state) as u8, next(&mut state) as u8)));
    for (a, b) in pairs {
        let (ea, eb) = (FheUint8::encrypt(a, ck), FheUint8::encrypt(b, ck));
        let dec = |x: &FheUint8| -> u8 { x.decrypt(ck) };
        let (p, o) = (&ea).overflowing_mul(&eb);
        assert_eq!((dec(&p), o.decrypt(ck)), a.overflowing_mul(b), "{a} * {b}");
        let (p, o) = ea.clone().overflowing_mul(b);
        assert_eq!(
            (dec(&p), o.decrypt(ck)),
            a.overflowing_mul(b),
            "{a} * clear {b}"
        );
        for (name, (value, ok), clear) in [
            ("add", ea.checked_add(&eb), a.checked_add(b)),
            ("sub", ea.checked_sub(&eb), a.checked_sub(b)),
            ("mul", ea.checked_mul(&eb), a.checked_mul(b)),
            ("add clear", ea.checked_add(b), a.checked_add(b)),
            ("sub clear", ea.checked_sub(b), a.checked_sub(b)),
            ("mul clear", ea.checked_mul(b), a.checked_mul(b)),
        ] {
            assert_eq!(ok.decrypt(ck), clear.is_some(), "checked_{name} {a} {b}");
            if let Some(c) = clear {
                assert_eq!(dec(&value), c, "checked_{name} {a} {b}");
            }
        }
    }
    let (a, b) = (0xffff_0001u32, 0x1_0001u32);
    let (p, o) = FheUint32::encrypt(a, ck).overflowing_mul(FheUint32::encrypt(b, ck));
    assert_eq!(
        (FheDecrypt::<u32>::decrypt(&p, ck), o.decrypt(ck)),
        a.overflowing_mul(b)
    );
    let (p, o) = FheUint16::encrypt(255u16, ck).overflowing_mul(257u16);
    assert_eq!(
        (FheDecrypt::<u16>::decrypt(&p, ck), o.decrypt(ck)),
        255u16.overflowing_mul(257)
    );
}

#[test]
fn selection_as_methods_on_every_type() {
    let ck = setup();
    for cond in [false, true] {
        let c = FheBool::encrypt(cond, ck);
        let (a, b) = (
            FheUint64::encrypt(u64::MAX, ck),
            FheUint64::encrypt(7u64, ck),
        );
        let want = if cond { u64::MAX } else { 7 };
        for picked in [
            c.select(&a, &b),
            c.if_then_else(&a, &b),
            c.cmux(&a, &b),
            FheBool::select(&c, &a, &b),
            c.try_select(&a, &b).unwrap(),
            c.try_if_then_else(&a, &b).unwrap(),
            c.try_cmux(&a, &b).unwrap(),
            IfThenElse::if_then_else(&c, &a, &b),
        ] {
            assert_eq!(FheDecrypt::<u64>::decrypt(&picked, ck), want);
        }
        let (a, b) = (
            FheUint128::encrypt(1u128 << 127, ck),
            FheUint128::encrypt(3u128, ck),
        );
        let picked: u128 = c.cmux(&a, &b).decrypt(ck);
        assert_eq!(picked, if cond { 1 << 127 } else { 3 });
        let (t, f) = (FheBool::encrypt(true, ck), FheBool::encrypt(false, ck));
        assert_eq!(c.select(&t, &f).decrypt(ck), cond);
        assert_eq!(c.if_then_else(&f, &t).decrypt(ck), !cond);
        assert!(c.cmux(&t, &t).decrypt(ck));
        let (a, b) = (FheUint8::encrypt(1u8, ck), FheUint8::encrypt(2u8, ck));
        let picked: u8 = FheBool::encrypt_trivial(cond).select(&a, &b).decrypt(ck);
        assert_eq!(picked, if cond { 1 } else { 2 });
    }
}

#[test]
fn without_a_server_key_every_new_operation_is_an_error() {
    let ck = setup();
    let x = FheUint8::encrypt(9u8, ck);
    let c = FheBool::encrypt(true, ck);
    unset_server_key();
    assert_eq!(x.try_count_ones().unwrap_err(), Error::NoServerKey);
    assert_eq!(x.try_leading_zeros().unwrap_err(), Error::NoServerKey);
    assert_eq!(x.try_checked_ilog2().unwrap_err(), Error::NoServerKey);
    assert_eq!(x.try_reverse_bits().unwrap_err(), Error::NoServerKey);
    assert_eq!(x.try_checked_mul(&x).unwrap_err(), Error::NoServerKey);
    assert_eq!(
        (&x).try_overflowing_mul(&x).unwrap_err(),
        Error::NoServerKey
    );
    assert_eq!(c.try_cmux(&x, &x).unwrap_err(), Error::NoServerKey);
    assert_eq!(
        x.try_get_size_on_gpu(gpufhe::BinaryOp::Add, &x)
            .unwrap_err(),
        Error::NoServerKey
    );
    // Values of another key are refused.
    let (other, other_server) = generate_keys(
        ConfigBuilder::default()
            .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .expect("test parameters"),
    );
    set_server_key(other_server);
    assert!(matches!(x.try_count_ones(), Err(Error::KeyMismatch { .. })));
    assert!(matches!(
        x.try_checked_add(&x),
        Err(Error::KeyMismatch { .. })
    ));
    let y = FheUint8::encrypt(1u8, &other);
    assert!(matches!(
        y.try_checked_add(&x),
        Err(Error::KeyMismatch { .. })
    ));
    // A sum of one value is an operation too (it was returned as it was).
    assert!(matches!(
        FheUint8::sum(std::slice::from_ref(&x)),
        Err(Error::KeyMismatch { .. })
    ));
    assert!(matches!(
        FheUint8::batch_sum(&[std::slice::from_ref(&x)]),
        Err(Error::KeyMismatch { .. })
    ));
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&FheUint8::sum(std::slice::from_ref(&y)).unwrap(), &other),
        1
    );
    unset_server_key();
    assert_eq!(
        FheUint8::sum(std::slice::from_ref(&x)).unwrap_err(),
        Error::NoServerKey
    );
    assert_eq!(
        FheUint8::batch_sum(&[&[x]]).unwrap_err(),
        Error::NoServerKey
    );
}

#[test]
fn gpu_helpers_work_without_a_gpu() {
    let ck = setup();
    let gpus = gpufhe::core_crypto::gpu::get_number_of_gpus();
    assert_eq!(gpus, gpufhe::get_number_of_gpus());
    let x = FheUint64::encrypt(5u64, ck);
    assert!(x.gpu_indexes().is_empty());
    assert!(FheBool::encrypt(true, ck).gpu_indexes().is_empty());
    let y = FheUint64::encrypt(6u64, ck);
    let big = 2049 * 8; // the test parameters' big LWE is smaller
    let add = x.get_add_size_on_gpu(&y);
    let mul = x.get_mul_size_on_gpu(&y);
    let lt = x.get_lt_size_on_gpu(&y);
    let shift = x.get_left_shift_size_on_gpu(3u32);
    let select = FheBool::encrypt(true, ck).get_select_size_on_gpu(&x, &y);
    assert!(add > 0 && add < 96 * big, "{add}");
    assert!(
        mul > add && lt > 0 && shift > 0 && select > add / 2,
        "{mul} {lt} {shift} {select}"
    );
    assert!(x.get_add_size_on_gpu(1u64) < add);
    assert_eq!(
        x.try_get_comparison_size_on_gpu(gpufhe::ComparisonOp::Lt, &y)
            .unwrap(),
        lt
    );
    // A CPU key stays set; nothing else is held per thread.
    gpufhe::core_crypto::gpu::clear_gpu_thread_locals();
    let sum: u64 = (&x + &y).decrypt(ck);
    assert_eq!(sum, 11);
}

#[test]
fn parity_of_edge_values() {
    let ck = setup();
    for v in [0u64, 1, 2, 3, u64::MAX, u64::MAX - 1, 1 << 63] {
        let x = FheUint64::encrypt(v, ck);
        let (even, odd): (bool, bool) = (x.is_even().decrypt(ck), x.is_odd().decrypt(ck));
        assert_eq!((even, odd), (v % 2 == 0, v % 2 == 1), "{v}");
    }
    let t = FheUint8::encrypt_trivial(7u8);
    assert!(t.is_odd().decrypt(ck));
}
