//! Circuits on 256-bit values (128 blocks of 2 bits) with operands and clear values
//! above 2^128: every operation evaluated in clear on the circuit (what a backend
//! computes on encryptions), and a representative batch encrypted on the test key.

use crate::integer::sum::tests::eval_clear;
use crate::integer::tests::{circuit_with_inputs, test_backend, SplitMix};
use crate::integer::*;
use crate::shortint::Ciphertext;

/// The blocks of a 256-bit value.
const BLOCKS: usize = 128;

fn wide(low: u128, high: u128) -> U256 {
    U256::from((low, high))
}

fn random(rng: &mut SplitMix) -> U256 {
    wide(rng.value(128), rng.value(128))
}

/// Edge values around 2^128 and 2^256 and random ones.
fn values() -> Vec<U256> {
    let mut rng = SplitMix(256);
    let mut values = vec![
        U256::ZERO,
        U256::ONE,
        U256::MAX,
        U256::MAX - U256::ONE,
        wide(0, 1),
        wide(u128::MAX, 0),
        wide(0, 1 << 127),
        wide(u128::MAX / 3, u128::MAX / 5),
    ];
    values.extend((0..4).map(|_| random(&mut rng)));
    values
}

/// Pairs of [`values`], a few of them equal or one apart.
fn pairs() -> Vec<Vec<U256>> {
    let v = values();
    let mut pairs: Vec<Vec<U256>> = v
        .iter()
        .zip(v.iter().rev())
        .map(|(&a, &b)| vec![a, b])
        .collect();
    pairs.push(vec![v[9], v[9]]);
    pairs.push(vec![v[10], v[10] + U256::ONE]);
    pairs.push(vec![wide(5, 7), wide(5, 6)]);
    pairs
}

/// Builds a circuit's output lists from its inputs.
type Build<'a> = dyn Fn(&mut Circuit, &[Radix]) -> Result<Vec<Radix>> + 'a;

/// Builds `build` once on fresh 128-block operands and checks in clear that every
/// case gives `expected` (each output compared modulo 4^(its blocks)).
fn check_clear(cases: &[Vec<U256>], build: &Build<'_>, expected: &dyn Fn(&[U256]) -> Vec<U256>) {
    let arity = cases.first().map_or(0, Vec::len);
    let (mut c, wires) = circuit_with_inputs(8, &vec![BLOCKS; arity]);
    for out in build(&mut c, &wires).expect("circuit builds") {
        c.add_output(&out);
    }
    for case in cases {
        let inputs: Vec<Vec<u64>> = case.iter().map(|&v| clear_digits(v, 4, BLOCKS)).collect();
        let got = eval_clear(&c, &inputs);
        let want = expected(case);
        assert_eq!(got.len(), want.len());
        for (k, (g, w)) in got.iter().zip(want).enumerate() {
            let bits = 2 * g.len() as u32;
            let g = from_digits(g, 4).expect("at most 256 bits");
            assert_eq!(g, U2048::from(w.low_bits(bits)), "output {k} for {case:?}");
        }
    }
}

fn flag(b: bool) -> U256 {
    U256::from(b)
}

#[test]
fn addition_subtraction_and_multiplication() {
    check_clear(
        &pairs(),
        &|c, x| {
            let (sum, carry) = overflowing_add(c, &x[0], &x[1])?;
            let (difference, borrow) = overflowing_sub(c, &x[0], &x[1])?;
            Ok(vec![
                sum,
                vec![carry],
                difference,
                vec![borrow],
                neg(c, &x[0])?,
            ])
        },
        &|v| {
            let (s, carry) = v[0].overflowing_add(v[1]);
            let (d, borrow) = v[0].overflowing_sub(v[1]);
            vec![s, flag(carry), d, flag(borrow), v[0].wrapping_neg()]
        },
    );
    check_clear(
        &pairs(),
        &|c, x| {
            let (product, overflow) = overflowing_mul(c, &x[0], &x[1])?;
            Ok(vec![product, vec![overflow]])
        },
        &|v| {
            let (p, overflow) = v[0].overflowing_mul(v[1]);
            vec![p, flag(overflow)]
        },
    );
}

#[test]
fn scalar_operations_with_clears_above_2_128() {
    let cases: Vec<Vec<U256>> = values().into_iter().map(|v| vec![v]).collect();
    for k in [
        U256::from(3u8),
        wide(0x1234_5678, 0x9abc),
        U256::MAX,
        wide(0, 1 << 100),
    ] {
        check_clear(
            &cases,
            &|c, x| {
                let x = &x[0];
                Ok(vec![
                    scalar_add(c, x, k)?,
                    scalar_sub(c, x, k)?,
                    clear_sub(c, k, x)?,
                    scalar_mul(c, x, k)?,
                    scalar_bitwise(c, BitOp::And, x, k)?,
                    scalar_bitwise(c, BitOp::Or, x, k)?,
                    scalar_bitwise(c, BitOp::Xor, x, k)?,
                    scalar_min(c, x, k)?,
                    scalar_max(c, x, k)?,
                    overflowing_scalar_mul(c, x, k)?.0,
                    vec![overflowing_scalar_mul(c, x, k)?.1],
                ])
            },
            &|v| {
                let x = v[0];
                vec![
                    x + k,
                    x - k,
                    k - x,
                    x * k,
                    x & k,
                    x | k,
                    x ^ k,
                    x.min(k),
                    x.max(k),
                    x * k,
                    flag(x.checked_mul(k).is_none()),
                ]
            },
        );
    }
}

#[test]
fn comparisons_min_and_max() {
    let ops = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ];
    check_clear(
        &pairs(),
        &|c, x| {
            let mut out = vec![min(c, &x[0], &x[1])?, max(c, &x[0], &x[1])?];
            for op in ops {
                out.push(vec![comparison(c, op, &x[0], Rhs::Wires(&x[1]))?]);
            }
            Ok(out)
        },
        &|v| {
            let mut out = vec![v[0].min(v[1]), v[0].max(v[1])];
            out.extend(ops.iter().map(|op| flag(op.apply(v[0], v[1]))));
            out
        },
    );
    let cases: Vec<Vec<U256>> = values().into_iter().map(|v| vec![v]).collect();
    for k in [
        U256::ZERO,
        wide(0, 1),
        U256::MAX,
        wide(u128::MAX / 3, u128::MAX / 5),
    ] {
        check_clear(
            &cases,
            &|c, x| {
                let out = ops
                    .iter()
                    .map(|&op| Ok(vec![scalar_compare(c, op, &x[0], k)?]));
                out.collect()
            },
            &|v| ops.iter().map(|op| flag(op.apply(v[0], k))).collect(),
        );
    }
}

/// The clear result of a shift or rotation of a 256-bit value.
fn shifted(op: ShiftOp, x: U256, amount: u32) -> U256 {
    match op {
        ShiftOp::Shl => x << amount,
        ShiftOp::Shr => x >> amount,
        ShiftOp::RotateLeft => x.rotate_left(amount),
        ShiftOp::RotateRight => x.rotate_right(amount),
    }
}

#[test]
fn shifts_and_rotations_by_clear_and_encrypted_amounts() {
    let cases: Vec<Vec<U256>> = values().into_iter().map(|v| vec![v]).collect();
    for amount in [0u32, 1, 3, 127, 128, 130, 255, 256 + 5] {
        check_clear(
            &cases,
            &|c, x| {
                let amount = U256::from(amount);
                let out = ShiftOp::ALL.iter().map(|&op| {
                    let op = match op {
                        ShiftOp::Shl => BinaryOp::Shl,
                        ShiftOp::Shr => BinaryOp::Shr,
                        ShiftOp::RotateLeft => BinaryOp::RotateLeft,
                        ShiftOp::RotateRight => BinaryOp::RotateRight,
                    };
                    binary(c, op, &x[0], Rhs::Clear(amount.into()))
                });
                out.collect()
            },
            &|v| {
                ShiftOp::ALL
                    .iter()
                    .map(|&op| shifted(op, v[0], amount))
                    .collect()
            },
        );
    }
    let x = wide(
        0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
        0xdead_beef << 64 | 0xf00d,
    );
    let cases: Vec<Vec<U256>> = [0u32, 2, 129, 200, 255]
        .iter()
        .map(|&a| vec![x, U256::from(a)])
        .chain([vec![x, wide(7, 1)]]) // 2^128 + 7: the amount modulo 256 is 7
        .collect();
    check_clear(
        &cases,
        &|c, x| {
            let out = ShiftOp::ALL
                .iter()
                .map(|&op| shift_encrypted(c, op, &x[0], &x[1]));
            out.collect()
        },
        &|v| {
            let amount = (v[1].low_u128() % 256) as u32;
            ShiftOp::ALL
                .iter()
                .map(|&op| shifted(op, v[0], amount))
                .collect()
        },
    );
}

#[test]
fn division_by_clear_values() {
    let cases: Vec<Vec<U256>> = values().into_iter().take(9).map(|v| vec![v]).collect();
    // Small, a power of two above 2^128, wide, and wider than most dividends.
    for d in [
        U256::from(10u8),
        wide(0, 4),
        wide(3, 1),
        wide(u128::MAX, u128::MAX >> 1),
    ] {
        check_clear(
            &cases,
            &|c, x| {
                let (q, r) = scalar_div_rem(c, &x[0], d)?;
                Ok(vec![q, r])
            },
            &|v| {
                let (q, r) = v[0].div_rem(d);
                vec![q, r]
            },
        );
    }
}

#[test]
fn the_reciprocal_path_on_128_bits() {
    // 128-bit dividends divided by constants through the reciprocal (bits + l < 256),
    // and by one above 2^127 through the restoring loop.
    let cases: Vec<Vec<U256>> = [0, 1, 9, 10, u128::MAX, u128::MAX - 1, u128::MAX / 3 + 17]
        .iter()
        .map(|&v| vec![U256::from(v)])
        .collect();
    for d in [3u128, 10, 1_000_000_007, (1 << 127) + 1] {
        let (mut c, x) = circuit_with_inputs(8, &[64]);
        let (q, r) = scalar_div_rem(&mut c, &x[0], d).unwrap();
        c.add_output(&q);
        c.add_output(&r);
        for case in &cases {
            let n = case[0].low_u128();
            let got = eval_clear(&c, &[clear_digits(n, 4, 64)]);
            let got: Vec<U256> = got
                .iter()
                .map(|g| from_digits(g, 4).unwrap().resize())
                .collect();
            assert_eq!(got, [U256::from(n / d), U256::from(n % d)], "{n} / {d}");
        }
    }
}

#[test]
fn bit_counts_and_logarithm() {
    let cases: Vec<Vec<U256>> = values().into_iter().map(|v| vec![v]).collect();
    check_clear(
        &cases,
        &|c, x| {
            let mut out: Vec<Radix> = CountOp::ALL
                .iter()
                .map(|&op| count_bits(c, op, &x[0], 5))
                .collect::<Result<_>>()?;
            let (log, valid) = ilog2(c, &x[0], 5)?;
            out.extend([log, vec![valid], reverse_bits(c, &x[0])?]);
            Ok(out)
        },
        &|v| {
            let x = v[0];
            let counts = [
                x.count_ones(),
                x.count_zeros(),
                x.leading_zeros(),
                x.trailing_zeros(),
                x.leading_ones(),
                x.trailing_ones(),
            ];
            let mut out: Vec<U256> = counts.iter().map(|&n| U256::from(n)).collect();
            // 255 - leading_zeros: the logarithm, and -1 (all ones) for 0.
            out.push(U256::from(255u8) - U256::from(x.leading_zeros()));
            out.push(flag(!x.is_zero()));
            out.push(x.reverse_bits());
            out
        },
    );
}

/// Encrypts the cases, runs `build` on each as one circuit on the test key and
/// checks the decrypted outputs.
fn check_encrypted(
    cases: &[Vec<U256>],
    build: &Build<'_>,
    expected: &dyn Fn(&[U256]) -> Vec<U256>,
) {
    let (ck, backend) = test_backend();
    let encrypted: Vec<Vec<Vec<Ciphertext>>> = cases
        .iter()
        .map(|case| {
            case.iter()
                .map(|&v| encrypt_radix(ck, v, BLOCKS).unwrap())
                .collect()
        })
        .collect();
    let refs: Vec<&Vec<Ciphertext>> = encrypted.iter().flatten().collect();
    let arity = cases[0].len();
    let outputs = run(backend, &refs, |c, wires| {
        let mut all = Vec::new();
        for operands in wires.chunks(arity) {
            all.extend(build(c, operands)?);
        }
        Ok(all)
    })
    .expect("circuit runs");
    let per_case = outputs.len() / cases.len();
    for (case, outs) in cases.iter().zip(outputs.chunks(per_case)) {
        let got: Vec<U256> = outs
            .iter()
            .map(|o| decrypt_radix(ck, o).unwrap().resize())
            .collect();
        let want: Vec<U256> = expected(case)
            .into_iter()
            .zip(outs)
            .map(|(w, o)| w.low_bits(2 * o.len() as u32))
            .collect();
        assert_eq!(got, want, "{case:?}");
    }
}

#[test]
fn encrypted_256_bit_operations() {
    let a = wide(0xfedc_ba98_7654_3210_0123_4567_89ab_cdef, u128::MAX / 3);
    let b = wide(u128::MAX - 5, 0x8000_0000_0000_0000_0000_0000_0000_0001);
    let k = wide(12345, 3);
    check_encrypted(
        &[vec![a, b], vec![b, a]],
        &|c, x| {
            Ok(vec![
                add(c, &x[0], &x[1])?,
                scalar_mul(c, &x[0], k)?,
                vec![compare(c, CmpOp::Lt, &x[0], &x[1])?],
                vec![scalar_compare(c, CmpOp::Gt, &x[0], k)?],
                shift(c, ShiftOp::Shr, &x[0], 130)?,
                count_bits(c, CountOp::Ones, &x[0], 5)?,
            ])
        },
        &|v| {
            vec![
                v[0] + v[1],
                v[0] * k,
                flag(v[0] < v[1]),
                flag(v[0] > k),
                v[0] >> 130u32,
                U256::from(v[0].count_ones()),
            ]
        },
    );
}

#[test]
fn radix_encryption_of_256_bits() {
    let (ck, _) = test_backend();
    let x = wide(7, u128::MAX);
    let blocks = encrypt_radix(ck, x, BLOCKS).unwrap();
    assert_eq!(decrypt_radix(ck, &blocks).unwrap(), U2048::from(x));
    assert!(
        encrypt_radix(ck, x, BLOCKS - 1).is_err(),
        "does not fit in 254 bits"
    );
    let more = encrypt_radix(ck, x, BLOCKS + 1).unwrap();
    assert_eq!(
        decrypt_radix(ck, &more).unwrap(),
        U2048::from(x),
        "258 bits"
    );
    // Past the 2048 bits of the circuits' clear values.
    let too_many = encrypt_radix(ck, 1u8, 1025).unwrap();
    assert!(decrypt_radix(ck, &too_many).is_err(), "2050 bits");
}
