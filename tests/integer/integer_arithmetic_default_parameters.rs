//! Radix addition, subtraction and multiplication on the default (secure)
//! parameters, through the CPU backend, with their bootstrap counts.

use gpufhe::backend::Backend;
use gpufhe::integer::{
    add, clear_sub, mul, neg, overflowing_add, overflowing_scalar_add, overflowing_scalar_sub,
    overflowing_sub, run, scalar_add, scalar_mul, scalar_sub, sub, sum,
};
use gpufhe::shortint::Ciphertext;

use crate::integer_support;
use integer_support::{backend, decrypt, encrypt, on_threads};

/// Runs `f` on two threads, as on the two-core machine the counts below are for.
fn on_two_threads<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    on_threads(2, f)
}

#[test]
fn u8_arithmetic_in_one_batch() {
    on_two_threads(u8_arithmetic);
}

fn u8_arithmetic() {
    let backend = backend();
    assert_eq!(backend.parallelism(), 2);
    let pairs = [(200u128, 77u128), (13, 255)];
    let values: Vec<u128> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    let encrypted = encrypt(&values, 4);
    let refs: Vec<&Vec<Ciphertext>> = encrypted.iter().collect();
    let out = run(&backend, &refs, |c, x| {
        let mut outputs = Vec::new();
        for ab in x.chunks(2) {
            let (a, b) = (&ab[0], &ab[1]);
            let (sum_ab, carry) = overflowing_add(c, a, b)?;
            let (difference, borrow) = overflowing_sub(c, a, b)?;
            let (plus, plus_overflow) = overflowing_scalar_add(c, a, 100u8)?;
            let (minus, minus_borrow) = overflowing_scalar_sub(c, a, 100u8)?;
            outputs.extend([
                add(c, a, b)?,
                sub(c, a, b)?,
                neg(c, a)?,
                scalar_add(c, a, 0x31u8)?,
                scalar_sub(c, a, 0x31u8)?,
                clear_sub(c, 7u8, a)?,
                mul(c, a, b)?,
                scalar_mul(c, a, 0x1bu8)?,
                sum(c, &[a, b, a])?,
                sum_ab,
                vec![carry],
                difference,
                vec![borrow],
                plus,
                vec![plus_overflow],
                minus,
                vec![minus_borrow],
            ]);
        }
        Ok(outputs)
    })
    .unwrap();
    for (results, &(a, b)) in out.chunks(17).zip(&pairs) {
        let got: Vec<u128> = results.iter().map(|r| decrypt(r)).collect();
        let want = [
            (a + b) % 256,
            (a + 256 - b) % 256,
            (256 - a) % 256,
            (a + 0x31) % 256,
            (a + 256 - 0x31) % 256,
            (7 + 256 - a) % 256,
            a * b % 256,
            a * 0x1b % 256,
            (2 * a + b) % 256,
            (a + b) % 256,
            (a + b >= 256) as u128,
            (a + 256 - b) % 256,
            (a < b) as u128,
            (a + 100) % 256,
            (a + 100 >= 256) as u128,
            (a + 256 - 100) % 256,
            (a < 100) as u128,
        ];
        assert_eq!(got, want, "{a} and {b}");
    }
    // Per pair: one bootstrap per block (4) for add, sub, neg, the scalar add and sub
    // of 0x31, clear_sub and the overflowing add and sub; 3 for the overflowing
    // scalar add and sub of 100 (its low digit is 0, -100 = 156 likewise); 21 for
    // mul, 10 for the scalar mul by 27 and 7 for the sum of three.
    let per_pair = 8 * 4 + 2 * 3 + 21 + 10 + 7;
    assert_eq!(backend.pbs_count(), 2 * per_pair);
}

#[test]
fn u64_additions_and_subtractions_in_one_batch() {
    on_two_threads(u64_additions);
}

fn u64_additions() {
    let backend = backend();
    let pairs = [
        (u64::MAX as u128, 1u128),
        (0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210),
        (5, 0xffff_0000_0000_0000),
    ];
    let values: Vec<u128> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    let encrypted = encrypt(&values, 32);
    let refs: Vec<&Vec<Ciphertext>> = encrypted.iter().collect();
    let clear = 0x8000_0000_0000_0001u128;
    let out = run(&backend, &refs, |c, x| {
        let mut outputs = Vec::new();
        for ab in x.chunks(2) {
            let (a, b) = (&ab[0], &ab[1]);
            let (wrapped, carry) = overflowing_add(c, a, b)?;
            outputs.extend([
                add(c, a, b)?,
                sub(c, a, b)?,
                wrapped,
                vec![carry],
                scalar_add(c, a, clear)?,
            ]);
        }
        Ok(outputs)
    })
    .unwrap();
    let m = u64::MAX as u128;
    for (results, &(a, b)) in out.chunks(5).zip(&pairs) {
        assert_eq!(decrypt(&results[0]), (a + b) & m);
        assert_eq!(decrypt(&results[1]), a.wrapping_sub(b) & m);
        assert_eq!(decrypt(&results[2]), (a + b) & m);
        assert_eq!(decrypt(&results[3]), (a + b > m) as u128);
        assert_eq!(decrypt(&results[4]), (a + clear) & m);
    }
    // 32 bootstraps per operation (TFHE-rs: 64 for add and sub, 63 for scalar add),
    // in 32 layers: on two cores the ripple propagation is the faster.
    assert_eq!(backend.pbs_count(), 3 * 4 * 32);
}

#[test]
fn u64_additions_with_parallel_carries() {
    // With many bootstraps at once (a GPU, a big CPU) the carries are propagated in a
    // depth logarithmic in the block count; here on the real parameters.
    on_threads(16, || {
        let backend = backend();
        let pairs = [
            (u64::MAX as u128, 1u128),
            (0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210),
        ];
        let values: Vec<u128> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        let encrypted = encrypt(&values, 32);
        let refs: Vec<&Vec<Ciphertext>> = encrypted.iter().collect();
        let out = run(&backend, &refs, |c, x| {
            let mut outputs = Vec::new();
            for ab in x.chunks(2) {
                let (wrapped, carry) = overflowing_add(c, &ab[0], &ab[1])?;
                outputs.extend([add(c, &ab[0], &ab[1])?, wrapped, vec![carry]]);
                outputs.push(sub(c, &ab[0], &ab[1])?);
            }
            Ok(outputs)
        })
        .unwrap();
        let m = u64::MAX as u128;
        for (results, &(a, b)) in out.chunks(4).zip(&pairs) {
            assert_eq!(decrypt(&results[0]), (a + b) & m);
            assert_eq!(decrypt(&results[1]), (a + b) & m);
            assert_eq!(decrypt(&results[2]), (a + b > m) as u128);
            assert_eq!(decrypt(&results[3]), a.wrapping_sub(b) & m);
        }
        // Per pair: 93 bootstraps for add and sub, 94 with the carry out, 6 layers.
        assert_eq!(backend.pbs_count(), 2 * (93 + 94 + 93));
    });
}

#[test]
fn u64_multiplication() {
    on_two_threads(u64_product);
}

fn u64_product() {
    let backend = backend();
    let (a, b) = (0xdead_beef_0bad_f00du128, 0x0123_4567_89ab_cdefu128);
    let encrypted = encrypt(&[a, b], 32);
    let out = run(&backend, &[&encrypted[0], &encrypted[1]], |c, x| {
        Ok(vec![mul(c, &x[0], &x[1])?])
    })
    .unwrap();
    assert_eq!(decrypt(&out[0]), a.wrapping_mul(b) & u64::MAX as u128);
    // TFHE-rs: 1,737.
    assert_eq!(backend.pbs_count(), 1550);
}
