use super::*;
use crate::integer::tests::{check_binary, check_predicate, check_unary, check_with, mask};

/// Edge values of `blocks`-block two's complement integers (as bit patterns): 0, 1,
/// -1, MIN, MAX, MIN + 1, MAX - 1 and two others.
fn edges(blocks: usize) -> Vec<u128> {
    let bits = 2 * blocks;
    let max = mask(bits) >> 1;
    let min = max + 1;
    let mut v = vec![0, 1, mask(bits), min, max, min + 1, max - 1];
    v.extend([0x5a3c_9e1f_u128 & mask(bits), 0xa5c3_61e0_u128 & mask(bits)]);
    v.sort_unstable();
    v.dedup();
    v
}

fn pairs(blocks: usize) -> Vec<(u128, u128)> {
    let e = edges(blocks);
    e.iter()
        .flat_map(|&a| e.iter().map(move |&b| (a, b)))
        .collect()
}

fn signed(v: u128, blocks: usize) -> i128 {
    sign_extend_clear(v, 2 * blocks as u32)
}

fn bits_of(v: i128, blocks: usize) -> u128 {
    v as u128 & mask(2 * blocks)
}

#[test]
fn signed_comparisons_on_edge_values() {
    for blocks in [1usize, 2, 3, 4] {
        let pairs = pairs(blocks);
        for op in CmpOp::ALL {
            let expected = |a, b| op.apply(signed(a, blocks), signed(b, blocks));
            check_predicate(
                blocks,
                &pairs,
                |c, a, b| signed_comparison(c, op, a, Rhs::Wires(b)),
                expected,
            );
            // The same against the clear right operand.
            let cases: Vec<Vec<u128>> = edges(blocks).into_iter().map(|a| vec![a]).collect();
            for b in edges(blocks) {
                check_with(
                    2,
                    &[blocks],
                    &cases,
                    1,
                    &|c, x| Ok(vec![signed_comparison(c, op, &x[0], Rhs::Clear(b.into()))?]),
                    &|v| expected(v[0], b) as u128,
                );
            }
        }
    }
}

#[test]
fn signed_comparison_at_every_parallelism_matches_the_clear_order() {
    // Parallelism 1 plans ripples, which need the extra table on the top block.
    let blocks = 5;
    let cases: Vec<Vec<u128>> = pairs(blocks).into_iter().map(|(a, b)| vec![a, b]).collect();
    for parallelism in [1, 3, 10_000] {
        for op in [CmpOp::Lt, CmpOp::Ge] {
            check_with(
                parallelism,
                &[blocks, blocks],
                &cases,
                1,
                &|c, x| Ok(vec![signed_compare(c, op, &x[0], &x[1])?]),
                &|v| op.apply(signed(v[0], blocks), signed(v[1], blocks)) as u128,
            );
        }
    }
}

#[test]
fn clear_operands_out_of_range_are_constants() {
    let (mut c, x) = crate::integer::tests::circuit_with_inputs(2, &[4]);
    for (clear, lt) in [(128i128, true), (-129, false), (i128::MAX, true)] {
        let w = signed_scalar_compare(&mut c, CmpOp::Lt, &x[0], clear).unwrap();
        assert_eq!(c.known_value(w), Some(lt as u64));
    }
    assert_eq!(c.stats().bootstraps, 0);
}

#[test]
fn signed_min_and_max() {
    for blocks in [1usize, 3] {
        let pairs = pairs(blocks);
        let s = |v| signed(v, blocks);
        check_binary(
            blocks,
            &pairs,
            |c, a, b| signed_binary(c, BinaryOp::Min, a, Rhs::Wires(b)),
            |a, b| bits_of(s(a).min(s(b)), blocks),
        );
        check_binary(
            blocks,
            &pairs,
            |c, a, b| signed_binary(c, BinaryOp::Max, a, Rhs::Wires(b)),
            |a, b| bits_of(s(a).max(s(b)), blocks),
        );
        let values = edges(blocks);
        for b in edges(blocks) {
            for (op, f) in [
                (BinaryOp::Min, i128::min as fn(i128, i128) -> i128),
                (BinaryOp::Max, i128::max),
            ] {
                check_unary(
                    blocks,
                    &values,
                    |c, a| signed_binary(c, op, a, Rhs::Clear(b.into())),
                    |a| bits_of(f(s(a), s(b)), blocks),
                );
            }
        }
    }
}

#[test]
fn arithmetic_shifts_by_clear_and_encrypted_amounts() {
    for blocks in [1usize, 2, 4] {
        let bits = 2 * blocks as u32;
        let amounts: Vec<u128> = (0..=bits as u128 + 1).collect();
        let values = edges(blocks);
        let pairs: Vec<(u128, u128)> = values
            .iter()
            .flat_map(|&a| amounts.iter().map(move |&k| (a, k & mask(2 * blocks))))
            .collect();
        let expected = |a, k: u128| bits_of(signed(a, blocks) >> (k % bits as u128), blocks);
        check_binary(
            blocks,
            &pairs,
            |c, a, k| signed_binary(c, BinaryOp::Shr, a, Rhs::Wires(k)),
            expected,
        );
        for k in amounts {
            check_unary(
                blocks,
                &values,
                |c, a| signed_binary(c, BinaryOp::Shr, a, Rhs::Clear(k.into())),
                |a| expected(a, k),
            );
        }
    }
}

#[test]
fn abs_and_sign_extension() {
    for blocks in [1usize, 2, 4] {
        let values = edges(blocks);
        let stats = check_unary(blocks, &values, abs, |a| {
            bits_of(signed(a, blocks).wrapping_abs(), blocks)
        });
        assert!(stats.bootstraps <= 3 * blocks + 1, "{stats:?}");
        for to in [1usize, blocks, blocks + 1, 2 * blocks + 3] {
            let cases: Vec<Vec<u128>> = values.iter().map(|&a| vec![a]).collect();
            check_with(
                2,
                &[blocks],
                &cases,
                to,
                &|c, x| sign_extend(c, &x[0], to),
                &|v| bits_of(signed(v[0], blocks), to),
            );
        }
    }
}

#[test]
fn costs_of_64_bit_operations() {
    for parallelism in [1, 2, 10_000] {
        let stats = |signed: bool| {
            let (mut c, x) = crate::integer::tests::circuit_with_inputs(parallelism, &[32, 32]);
            let lt = match signed {
                true => signed_compare(&mut c, CmpOp::Lt, &x[0], &x[1]).unwrap(),
                false => crate::integer::compare(&mut c, CmpOp::Lt, &x[0], &x[1]).unwrap(),
            };
            c.add_output(&[lt]);
            c.stats()
        };
        let (signed, unsigned) = (stats(true), stats(false));
        // The same cost as unsigned, except the ripple of one thread: one more table
        // for the signed top block, in the first layer.
        let extra = usize::from(parallelism == 1);
        assert!(
            signed.bootstraps <= unsigned.bootstraps + extra,
            "{signed:?} {unsigned:?}"
        );
        assert!(
            signed.depth <= unsigned.depth + 2,
            "{signed:?} {unsigned:?}"
        );
    }
    for (build, expected) in [
        (
            &(|c: &mut Circuit, x: &[Radix]| abs(c, &x[0]))
                as &dyn Fn(&mut Circuit, &[Radix]) -> Result<Radix>,
            (65, 33),
        ),
        (
            &|c: &mut Circuit, x: &[Radix]| arithmetic_shr(c, &x[0], 7),
            (30, 2),
        ),
        (
            &|c: &mut Circuit, x: &[Radix]| arithmetic_shr_encrypted(c, &x[0], &x[1]),
            (388, 9),
        ),
    ] {
        let (mut c, x) = crate::integer::tests::circuit_with_inputs(2, &[32, 32]);
        let out = build(&mut c, &x).unwrap();
        c.add_output(&out);
        let stats = c.stats();
        assert_eq!((stats.bootstraps, stats.depth), expected, "{stats:?}");
    }
}
