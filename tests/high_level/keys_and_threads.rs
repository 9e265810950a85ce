//! Keys and context of the high-level API on the default parameters: the missing
//! server key, mixed keys, trivial encryption, one key per thread, and batches.

use crate::common;

use common::{counting_setup, keys, setup};
use gpufhe::prelude::*;
use gpufhe::{
    generate_keys, set_server_key, unset_server_key, BinaryOp, ClientKey, ComparisonOp,
    ConfigBuilder, Error, FheBool, FheUint8, ServerKey,
};
use rayon::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

/// A second, independent key pair.
fn other_keys() -> &'static (ClientKey, ServerKey) {
    static KEYS: OnceLock<(ClientKey, ServerKey)> = OnceLock::new();
    KEYS.get_or_init(|| generate_keys(ConfigBuilder::default()))
}

/// The panic message of `f`, which must panic.
pub(crate) fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("the operation must panic");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn operations_without_a_server_key_name_set_server_key() {
    let (client_key, _, _) = keys();
    let a = FheUint8::encrypt(5u8, client_key);
    let b = FheBool::encrypt(true, client_key);
    unset_server_key();
    let err = a.try_bitand(&a).unwrap_err();
    assert_eq!(err, Error::NoServerKey);
    assert!(err.to_string().contains("set_server_key"), "{err}");
    assert_eq!(a.try_eq(&a).unwrap_err(), Error::NoServerKey);
    assert_eq!(a.try_add(1u8).unwrap_err(), Error::NoServerKey);
    assert_eq!(b.try_not().unwrap_err(), Error::NoServerKey);
    assert_eq!(
        FheUint8::batch(BinaryOp::BitOr, std::slice::from_ref(&a), [&a]).unwrap_err(),
        Error::NoServerKey
    );
    let message = panic_message(|| drop(&a & &a));
    assert!(message.contains("set_server_key"), "{message}");
    let message = panic_message(|| drop(!&b));
    assert!(message.contains("set_server_key"), "{message}");
    // Decryption and trivial values need no server key.
    assert_eq!(FheDecrypt::<u8>::decrypt(&a, client_key), 5);
    assert_eq!(
        FheUint8::sum(&[])
            .unwrap()
            .try_decrypt_trivial::<u8>()
            .unwrap(),
        0
    );
}

#[test]
fn values_of_different_keys_do_not_mix() {
    let (ck1, _, sk1) = keys();
    let (ck2, sk2) = other_keys();
    assert_ne!(ck1.tag(), ck2.tag());
    assert_eq!(sk1.tag(), ck1.tag());
    let a = FheUint8::encrypt(0x3cu8, ck1);
    let b = FheUint8::encrypt(0x0fu8, ck2);
    assert_eq!(a.tag(), Some(ck1.tag()));
    set_server_key(sk1.clone());
    let mismatch = |r: gpufhe::Result<FheUint8>| matches!(r, Err(Error::KeyMismatch { .. }));
    assert!(mismatch(a.try_bitand(&b)));
    assert!(mismatch(b.try_bitand(&b)));
    assert!(matches!(
        FheTryDecrypt::<u8>::try_decrypt(&a, ck2),
        Err(Error::KeyMismatch { .. })
    ));
    let message = panic_message(|| {
        let _: u8 = a.decrypt(ck2);
    });
    assert!(message.contains("key mismatch"), "{message}");
    let message = panic_message(|| drop(&a ^ &b));
    assert!(message.contains("key mismatch"), "{message}");
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&a ^ &a), ck1), 0);
    set_server_key(sk2.clone());
    assert!(mismatch(a.try_bitxor(&b)));
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&b | 0xf0u8), ck2), 0xff);
    let t = FheBool::encrypt(true, ck1);
    assert!(matches!(t.try_and(true), Err(Error::KeyMismatch { .. })));
}

#[test]
fn trivial_values_need_no_key_and_work_with_every_key() {
    let t = FheUint8::encrypt_trivial(0x3cu8);
    assert!(t.is_trivial());
    assert_eq!(t.tag(), None);
    assert_eq!(t.try_decrypt_trivial::<u8>().unwrap(), 0x3c);
    assert_eq!(
        FheUint8::encrypt_trivial(0x1234u16)
            .try_decrypt_trivial::<u8>()
            .unwrap(),
        0x34
    );
    assert!(FheUint8::try_encrypt_trivial(0x1234u16).is_err());
    assert!(FheBool::encrypt_trivial(true)
        .try_decrypt_trivial()
        .unwrap());

    let (ck1, key1) = counting_setup();
    assert_eq!(FheDecrypt::<u8>::decrypt(&t, ck1), 0x3c);
    let a = FheUint8::encrypt(0xa5u8, ck1);
    assert!(a.try_decrypt_trivial::<u8>().is_err());
    let before = key1.pbs_count();
    let masked = &a & &FheUint8::encrypt_trivial(0u8);
    let all = &a | &FheUint8::encrypt_trivial(0xffu8);
    let folded = &t & &FheUint8::encrypt_trivial(0x0fu8);
    assert_eq!(
        key1.pbs_count(),
        before,
        "a trivial operand costs no bootstrap here"
    );
    assert_eq!(FheDecrypt::<u8>::decrypt(&masked, ck1), 0);
    assert_eq!(FheDecrypt::<u8>::decrypt(&all, ck1), 0xff);
    assert_eq!(
        folded.tag(),
        Some(ck1.tag()),
        "results belong to the key that computed"
    );
    assert_eq!(FheDecrypt::<u8>::decrypt(&folded, ck1), 0x0c);
    let mixed = &a ^ &t;
    assert_eq!(FheDecrypt::<u8>::decrypt(&mixed, ck1), 0xa5 ^ 0x3c);

    let (ck2, sk2) = other_keys();
    set_server_key(sk2.clone());
    let b = FheUint8::encrypt(0x55u8, ck2);
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&t ^ &b), ck2), 0x3c ^ 0x55);
    assert_eq!(FheDecrypt::<u8>::decrypt(&t, ck2), 0x3c);
}

#[test]
fn each_thread_computes_with_its_own_key() {
    let (ck1, _, sk1) = keys();
    let (ck2, sk2) = other_keys();
    let handles: Vec<_> = (0u8..4)
        .map(|i| {
            std::thread::spawn(move || {
                let (ck, sk) = if i % 2 == 0 { (ck1, sk1) } else { (ck2, sk2) };
                let a = FheUint8::encrypt(i * 16 + 3, ck);
                assert_eq!(a.try_bitxor(0xffu8).unwrap_err(), Error::NoServerKey);
                set_server_key(sk.clone());
                let r = &a ^ 0x0fu8;
                FheDecrypt::<u8>::decrypt(&r, ck)
            })
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        assert_eq!(h.join().unwrap(), (i as u8 * 16 + 3) ^ 0x0f);
    }
}

/// The shape of the multi-GPU guide's example, with CPU keys: chunks of a batch
/// dispatched over keys with rayon, `set_server_key` inside the parallel loop.
#[test]
fn parallel_chunks_with_one_key_each() {
    let (client_key, compressed, _) = keys();
    let sks_vec: Vec<ServerKey> = (0..2).map(|_| compressed.decompress()).collect();
    let batch_size = 8;
    let left: Vec<FheUint8> = (0..batch_size)
        .map(|i| FheUint8::encrypt(i as u8 * 17, client_key))
        .collect();
    let right: Vec<FheUint8> = (0..batch_size)
        .map(|i| FheUint8::encrypt(0xf0u8 >> (i % 4), client_key))
        .collect();
    let chunk_size = batch_size / sks_vec.len();
    let results: Vec<Vec<FheUint8>> = left
        .par_chunks(chunk_size)
        .zip(right.par_chunks(chunk_size))
        .enumerate()
        .map(|(i, (left_i, right_i))| {
            left_i
                .par_iter()
                .zip(right_i.par_iter())
                .map(|(l, r)| {
                    set_server_key(sks_vec[i].clone());
                    l & r
                })
                .collect()
        })
        .collect();
    for (i, r) in results.iter().flatten().enumerate() {
        let want = (i as u8 * 17) & (0xf0u8 >> (i % 4));
        assert_eq!(FheDecrypt::<u8>::decrypt(r, client_key), want, "{i}");
    }
    let total: u64 = sks_vec.iter().map(ServerKey::pbs_count).sum();
    assert_eq!(total, 8 * 4, "one bootstrap per block");
}

/// A batch of `n` operations costs `n` times the bootstraps of one, in as many
/// layers as one: one circuit.
fn check_batch(op: BinaryOp, clear: fn(u8, u8) -> u8) {
    let (client_key, key) = counting_setup();
    let pairs: Vec<(u8, u8)> = vec![(255, 1), (0, 0), (0x5a, 0xa5), (200, 100), (17, 254)];
    let lhs: Vec<FheUint8> = pairs
        .iter()
        .map(|&(a, _)| FheUint8::encrypt(a, client_key))
        .collect();
    let rhs: Vec<FheUint8> = pairs
        .iter()
        .map(|&(_, b)| FheUint8::encrypt(b, client_key))
        .collect();
    let start = key.stats();
    let single = FheUint8::batch(op, &lhs[..1], &rhs[..1]).unwrap();
    let one = key.stats();
    let out = FheUint8::batch(op, &lhs, &rhs).unwrap();
    let all = key.stats();
    let (one_pbs, one_layers) = (
        one.bootstraps - start.bootstraps,
        one.bootstrap_layers - start.bootstrap_layers,
    );
    assert!(one_pbs > 0);
    assert_eq!(
        all.bootstraps - one.bootstraps,
        pairs.len() as u64 * one_pbs,
        "{op:?}"
    );
    assert_eq!(
        all.bootstrap_layers - one.bootstrap_layers,
        one_layers,
        "{op:?}"
    );
    assert_eq!(all.circuits - one.circuits, 1);
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&single[0], client_key),
        clear(pairs[0].0, pairs[0].1)
    );
    for ((a, b), x) in pairs.iter().zip(&out) {
        assert_eq!(
            FheDecrypt::<u8>::decrypt(x, client_key),
            clear(*a, *b),
            "{op:?} {a} {b}"
        );
    }
}

#[test]
fn batched_bitand_is_one_circuit() {
    check_batch(BinaryOp::BitAnd, |a, b| a & b);
}

#[test]
fn batched_addition_is_one_circuit() {
    check_batch(BinaryOp::Add, u8::wrapping_add);
}

#[test]
fn batches_with_clear_operands_and_comparisons() {
    let client_key = setup();
    let lhs: Vec<FheUint8> = [3u8, 200, 77]
        .iter()
        .map(|&v| FheUint8::encrypt(v, client_key))
        .collect();
    let xored = FheUint8::batch(BinaryOp::BitXor, &lhs, [1u8, 2, 3]).unwrap();
    let clear: Vec<u8> = xored.iter().map(|x| x.decrypt(client_key)).collect();
    assert_eq!(clear, [2, 202, 78]);
    let eq = FheUint8::batch_compare(ComparisonOp::Eq, &lhs, lhs.iter().rev()).unwrap();
    let clear: Vec<bool> = eq.iter().map(|x| x.decrypt(client_key)).collect();
    assert_eq!(clear, [false, true, false]);
    assert!(matches!(
        FheUint8::batch(BinaryOp::BitAnd, &lhs, [1u8]),
        Err(Error::DimensionMismatch { .. })
    ));
}
