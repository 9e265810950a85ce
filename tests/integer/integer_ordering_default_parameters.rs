//! Order comparisons, selection, minimum/maximum and shifts on the default (secure)
//! parameters, through the CPU backend. Each test runs its operations as one batched
//! circuit.

use gpufhe::backend::Backend;
use gpufhe::integer::{
    compare, encrypt_radix, execute, max, min, run, scalar_compare, select, shift, shift_encrypted,
    Circuit, CmpOp, ShiftOp,
};
use gpufhe::shortint::DEFAULT_PARAMETERS;

const OPS: [CmpOp; 6] = CmpOp::ALL;
const SHIFTS: [ShiftOp; 4] = ShiftOp::ALL;

use crate::integer_support;
use integer_support::{backend, decrypt_u128, keys};

#[test]
fn u8_comparisons_min_max_select_and_clear_comparisons() {
    let ck = &keys().0;
    let backend = backend();
    // Equal but the lowest block, equal, equal but the highest block.
    let pairs = [(200u128, 201u128), (77, 77), (0xc5, 0x45)];
    let mut inputs = Vec::new();
    for &(a, b) in &pairs {
        inputs.push(encrypt_radix(ck, a, 4).unwrap());
        inputs.push(encrypt_radix(ck, b, 4).unwrap());
    }
    let refs: Vec<_> = inputs.iter().collect();
    let out = run(&backend, &refs, |c, x| {
        let mut outs = Vec::new();
        for (pair, &(_, b)) in x.chunks(2).zip(&pairs) {
            for op in OPS {
                outs.push(vec![compare(c, op, &pair[0], &pair[1])?]);
                outs.push(vec![scalar_compare(c, op, &pair[0], b)?]);
            }
            outs.push(min(c, &pair[0], &pair[1])?);
            outs.push(max(c, &pair[0], &pair[1])?);
            let cond = c.table(pair[1][0], |v| v & 1)?;
            outs.push(select(c, cond, &pair[0], &pair[1])?);
        }
        Ok(outs)
    })
    .unwrap();
    let mut results = out.iter();
    for &(a, b) in &pairs {
        for op in OPS {
            let got = ck.decrypt(&results.next().unwrap()[0]).unwrap();
            assert_eq!(got, op.apply(a, b) as u64, "{a} {op:?} {b}");
            let got = ck.decrypt(&results.next().unwrap()[0]).unwrap();
            assert_eq!(got, op.apply(a, b) as u64, "{a} {op:?} clear {b}");
        }
        assert_eq!(decrypt_u128(ck, results.next().unwrap()), a.min(b));
        assert_eq!(decrypt_u128(ck, results.next().unwrap()), a.max(b));
        let picked = if b & 1 == 1 { a } else { b };
        assert_eq!(decrypt_u128(ck, results.next().unwrap()), picked);
    }
}

#[test]
fn u8_shifts_and_rotations_by_clear_and_encrypted_amounts() {
    let ck = &keys().0;
    let backend = backend();
    let value = 0b1011_0110u128;
    let amounts = [3u64, 11, 6];
    let x = encrypt_radix(ck, value, 4).unwrap();
    let encrypted: Vec<_> = amounts
        .iter()
        .map(|&a| encrypt_radix(ck, a as u128, 4).unwrap())
        .collect();
    let mut refs = vec![&x];
    refs.extend(encrypted.iter());
    let out = run(&backend, &refs, |c, w| {
        let mut outs = Vec::new();
        for op in SHIFTS {
            for (i, &a) in amounts.iter().enumerate() {
                outs.push(shift(c, op, &w[0], a)?);
                outs.push(shift_encrypted(c, op, &w[0], &w[1 + i])?);
            }
        }
        Ok(outs)
    })
    .unwrap();
    let mut results = out.iter();
    for op in SHIFTS {
        for &a in &amounts {
            let want = op.apply(value, a, 8);
            let clear = decrypt_u128(ck, results.next().unwrap());
            assert_eq!(clear, want, "{op:?} by clear {a}");
            let enc = decrypt_u128(ck, results.next().unwrap());
            assert_eq!(enc, want, "{op:?} by encrypted {a}");
        }
    }
}

#[test]
fn u64_lt_costs_at_most_47_bootstraps() {
    let ck = &keys().0;
    let backend = backend();
    let a = 0xdead_beef_0000_0001u128;
    let cases = [(a, a + 1), (a, a), (a | 1 << 63, a)];
    let blocks: Vec<_> = cases
        .iter()
        .flat_map(|&(x, y)| [x, y])
        .map(|v| encrypt_radix(ck, v, 32).unwrap())
        .collect();
    // One comparison alone, for the bootstrap count.
    let mut c = Circuit::new(DEFAULT_PARAMETERS).with_parallelism(backend.parallelism());
    let x = c.add_input(&backend.block_infos(&blocks[0])).unwrap();
    let y = c.add_input(&backend.block_infos(&blocks[1])).unwrap();
    let lt = compare(&mut c, CmpOp::Lt, &x, &y).unwrap();
    c.add_output(&[lt]);
    let stats = c.stats();
    let out = execute(&backend, &c, &[&blocks[0], &blocks[1]]).unwrap();
    assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 1);
    assert_eq!(backend.pbs_count(), stats.bootstraps as u64);
    let expected = match backend.parallelism() {
        1 => (32, 32),
        2 | 3 => (45, 6),
        _ => (46, 4),
    };
    assert_eq!((stats.bootstraps, stats.depth), expected);
    assert!(stats.bootstraps <= 47, "TFHE-rs needs 47");
    // All three as one batch.
    let refs: Vec<_> = blocks.iter().collect();
    let out = run(&backend, &refs, |c, w| {
        w.chunks(2)
            .map(|p| Ok(vec![compare(c, CmpOp::Lt, &p[0], &p[1])?]))
            .collect()
    })
    .unwrap();
    for (o, &(x, y)) in out.iter().zip(&cases) {
        assert_eq!(ck.decrypt(&o[0]).unwrap(), (x < y) as u64, "{x} < {y}");
    }
}

#[test]
fn u64_select_and_shifts_by_clear_and_encrypted_amounts() {
    let ck = &keys().0;
    let backend = backend();
    let (a, b) = (0x0123_4567_89ab_cdefu128, 0xfedc_ba98_7654_3210u128);
    let ca = encrypt_radix(ck, a, 32).unwrap();
    let cb = encrypt_radix(ck, b, 32).unwrap();
    let amount = encrypt_radix(ck, 45u8, 32).unwrap();
    let out = run(&backend, &[&ca, &cb, &amount], |c, x| {
        let cond = compare(c, CmpOp::Gt, &x[0], &x[1])?; // 0: selects b
        Ok(vec![
            select(c, cond, &x[0], &x[1])?,
            shift(c, ShiftOp::Shl, &x[0], 13)?,
            shift_encrypted(c, ShiftOp::Shl, &x[0], &x[2])?,
        ])
    })
    .unwrap();
    assert_eq!(decrypt_u128(ck, &out[0]), b);
    assert_eq!(decrypt_u128(ck, &out[1]), (a << 13) & u64::MAX as u128);
    assert_eq!(decrypt_u128(ck, &out[2]), (a << 45) & u64::MAX as u128);
}
