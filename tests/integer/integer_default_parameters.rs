//! Radix integers on the default (secure) parameters, through the CPU backend.

use gpufhe::backend::Backend;
use gpufhe::integer::{bitnot, bitwise, encrypt_radix, eq, ne, run, BitOp};

use crate::integer_support;
use integer_support::{backend, client_key, decrypt_u128};

#[test]
fn u64_bitwise_operations_cost_one_bootstrap_per_block() {
    let ck = client_key();
    let backend = backend();
    let (a, b) = (0x0123_4567_89ab_cdefu128, 0xfedc_ba98_7654_3210u128);
    let ca = encrypt_radix(ck, a, 32).unwrap();
    let cb = encrypt_radix(ck, b, 32).unwrap();
    let max = encrypt_radix(ck, u64::MAX as u128, 32).unwrap();
    let out = run(&backend, &[&ca, &cb, &max], |c, x| {
        Ok(vec![
            bitwise(c, BitOp::And, &x[0], &x[1])?,
            bitwise(c, BitOp::Xor, &x[0], &x[2])?,
            bitnot(c, &x[0])?,
        ])
    })
    .unwrap();
    assert_eq!(decrypt_u128(ck, &out[0]), a & b);
    assert_eq!(decrypt_u128(ck, &out[1]), a ^ u64::MAX as u128);
    assert_eq!(decrypt_u128(ck, &out[2]), !(a as u64) as u128);
    // 32 blocks, one bootstrap each (the same count as TFHE-rs); not is free.
    assert_eq!(backend.pbs_count(), 64);
}

#[test]
fn u64_equality_costs_42_bootstraps() {
    let ck = client_key();
    let backend = backend();
    let a = encrypt_radix(ck, 0xdead_beef_0000_0001u64, 32).unwrap();
    let b = encrypt_radix(ck, 0xdead_beef_0000_0001u64, 32).unwrap();
    let c = encrypt_radix(ck, 0xdead_beef_0000_0000u64, 32).unwrap();
    let out = run(&backend, &[&a, &b], |circuit, x| {
        Ok(vec![vec![eq(circuit, &x[0], &x[1])?]])
    })
    .unwrap();
    assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 1);
    assert_eq!(
        backend.pbs_count(),
        42,
        "32 block comparisons + 7 + 2 + 1 folds"
    );
    let out = run(&backend, &[&a, &c], |circuit, x| {
        Ok(vec![
            vec![eq(circuit, &x[0], &x[1])?],
            vec![ne(circuit, &x[0], &x[1])?],
        ])
    })
    .unwrap();
    assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 0);
    assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 1);
}
