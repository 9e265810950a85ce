//! Radix integers on the default (secure) parameters, through the CPU backend.

use gpufhe::backend::{cpu::CpuBackend, Backend};
use gpufhe::integer::{bitnot, bitwise, decrypt_radix, encrypt_radix, eq, ne, BitOp};
use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};

#[test]
fn u64_bitwise_operations_cost_one_bootstrap_per_block() {
    let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
    let (a, b) = (0x0123_4567_89ab_cdefu128, 0xfedc_ba98_7654_3210u128);
    let ca = encrypt_radix(&ck, a, 32).unwrap();
    let cb = encrypt_radix(&ck, b, 32).unwrap();
    let and = bitwise(&backend, BitOp::And, &ca, &cb).unwrap();
    assert_eq!(decrypt_radix(&ck, &and).unwrap(), a & b);
    // 32 blocks, one bootstrap each: the same count as TFHE-rs.
    assert_eq!(backend.pbs_count(), 32);
    let xor = bitwise(&backend, BitOp::Xor, &ca, &u64_max(&ck)).unwrap();
    assert_eq!(decrypt_radix(&ck, &xor).unwrap(), a ^ u64::MAX as u128);
    let not = bitnot(&backend, &ca).unwrap();
    assert_eq!(decrypt_radix(&ck, &not).unwrap(), !(a as u64) as u128);
    assert_eq!(backend.pbs_count(), 64, "bitnot needs no bootstrap");
}

#[test]
fn u64_equality_costs_42_bootstraps() {
    let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
    let a = encrypt_radix(&ck, 0xdead_beef_0000_0001, 32).unwrap();
    let b = encrypt_radix(&ck, 0xdead_beef_0000_0001, 32).unwrap();
    let c = encrypt_radix(&ck, 0xdead_beef_0000_0000, 32).unwrap();
    let same = eq(&backend, &a, &b).unwrap();
    assert_eq!(ck.decrypt(&same[0]).unwrap(), 1);
    assert_eq!(
        backend.pbs_count(),
        42,
        "32 block comparisons + 7 + 2 + 1 folds"
    );
    let different = eq(&backend, &a, &c).unwrap();
    assert_eq!(ck.decrypt(&different[0]).unwrap(), 0);
    let different = ne(&backend, &a, &c).unwrap();
    assert_eq!(ck.decrypt(&different[0]).unwrap(), 1);
}

fn u64_max(ck: &ClientKey) -> Vec<gpufhe::shortint::Ciphertext> {
    encrypt_radix(ck, u64::MAX as u128, 32).unwrap()
}
