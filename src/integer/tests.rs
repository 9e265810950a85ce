//! Shared harness of the integer tests: one key on the insecure test parameters, and
//! checks that run a whole list of operand pairs as **one batched circuit** on the
//! CPU backend and compare every result with the clear computation.

use super::{decrypt_radix, encrypt_radix, run, Circuit, CircuitStats, Radix, Wire};
use crate::backend::{cpu::CpuBackend, Backend};
use crate::error::Result;
use crate::shortint::{Ciphertext, ClientKey, ServerKey, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2};
use std::sync::OnceLock;

/// One key pair on the insecure test parameters for every integer unit test.
pub(crate) fn test_backend() -> (&'static ClientKey, &'static CpuBackend) {
    static KEYS: OnceLock<(ClientKey, CpuBackend)> = OnceLock::new();
    let (ck, backend) = KEYS.get_or_init(|| {
        let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).expect("client key");
        let backend = CpuBackend::new(ServerKey::new(&ck).expect("server key"));
        (ck, backend)
    });
    (ck, backend)
}

fn modulus_mask(blocks: usize) -> u128 {
    if 2 * blocks >= 128 {
        u128::MAX
    } else {
        (1u128 << (2 * blocks)) - 1
    }
}

/// Asserts every output block is clean (a digit with noise level at most 1).
fn assert_clean(blocks: &[Ciphertext]) {
    for (i, b) in blocks.iter().enumerate() {
        assert!(
            b.degree() < b.message_modulus() && b.noise_level() <= 1,
            "output block {i} is not clean: degree {}, noise {}",
            b.degree(),
            b.noise_level()
        );
    }
}

/// The stats of one operation of `blocks`-block operands.
fn stats_of(
    backend: &CpuBackend,
    operands: usize,
    blocks: usize,
    build: &dyn Fn(&mut Circuit, &[Radix]) -> Result<Radix>,
) -> CircuitStats {
    let mut c = Circuit::new(*backend.parameters()).with_parallelism(backend.parallelism());
    let fresh = crate::backend::BlockInfo {
        degree: 3,
        noise_level: 1,
    };
    let inputs: Vec<Radix> = (0..operands)
        .map(|_| c.add_input(&vec![fresh; blocks]).expect("input"))
        .collect();
    let out = build(&mut c, &inputs).expect("circuit builds");
    c.add_output(&out);
    c.stats()
}

/// Runs `build` on every operand list as one circuit and checks each result against
/// `expected` (both modulo `2^(2 blocks)`, results compared as integers); returns the
/// stats of a single operation.
pub(crate) fn check_radix_op(
    ck: &ClientKey,
    backend: &CpuBackend,
    blocks: usize,
    operands: &[Vec<u128>],
    build: &dyn Fn(&mut Circuit, &[Radix]) -> Result<Radix>,
    expected: &dyn Fn(&[u128]) -> u128,
    output_blocks: Option<usize>,
) -> CircuitStats {
    let mask = modulus_mask(blocks);
    let encrypted: Vec<Vec<Vec<Ciphertext>>> = operands
        .iter()
        .map(|ops| {
            ops.iter()
                .map(|&v| encrypt_radix(ck, v & mask, blocks).expect("encrypt"))
                .collect()
        })
        .collect();
    let refs: Vec<&Vec<Ciphertext>> = encrypted.iter().flatten().collect();
    let arity = operands.first().map_or(0, Vec::len);
    let outputs = run(backend, &refs, |c, wires| {
        wires
            .chunks(arity.max(1))
            .map(|ops| build(c, ops))
            .collect()
    })
    .expect("circuit runs");
    for (ops, out) in operands.iter().zip(&outputs) {
        assert_clean(out);
        let out_blocks = output_blocks.unwrap_or(blocks);
        assert_eq!(out.len(), out_blocks, "number of output blocks for {ops:?}");
        let clear: Vec<u128> = ops.iter().map(|v| v & mask).collect();
        let want = expected(&clear) & modulus_mask(out_blocks);
        assert_eq!(
            decrypt_radix(ck, out).expect("decrypt"),
            want,
            "operands {clear:?} ({blocks} blocks)"
        );
    }
    stats_of(backend, arity, blocks, build)
}

/// [`check_radix_op`] for two operands.
pub(crate) fn check_binary(
    ck: &ClientKey,
    backend: &CpuBackend,
    blocks: usize,
    pairs: &[(u128, u128)],
    build: impl Fn(&mut Circuit, &[Wire], &[Wire]) -> Result<Radix>,
    expected: impl Fn(u128, u128) -> u128,
) -> CircuitStats {
    let operands: Vec<Vec<u128>> = pairs.iter().map(|&(a, b)| vec![a, b]).collect();
    check_radix_op(
        ck,
        backend,
        blocks,
        &operands,
        &|c, x| build(c, &x[0], &x[1]),
        &|v| expected(v[0], v[1]),
        None,
    )
}

/// [`check_radix_op`] for one operand.
pub(crate) fn check_unary(
    ck: &ClientKey,
    backend: &CpuBackend,
    blocks: usize,
    values: &[u128],
    build: impl Fn(&mut Circuit, &[Wire]) -> Result<Radix>,
    expected: impl Fn(u128) -> u128,
) -> CircuitStats {
    let operands: Vec<Vec<u128>> = values.iter().map(|&a| vec![a]).collect();
    check_radix_op(
        ck,
        backend,
        blocks,
        &operands,
        &|c, x| build(c, &x[0]),
        &|v| expected(v[0]),
        None,
    )
}

/// [`check_radix_op`] for a two-operand predicate returning one block (0 or 1).
pub(crate) fn check_predicate(
    ck: &ClientKey,
    backend: &CpuBackend,
    blocks: usize,
    pairs: &[(u128, u128)],
    build: impl Fn(&mut Circuit, &[Wire], &[Wire]) -> Result<Wire>,
    expected: impl Fn(u128, u128) -> bool,
) -> CircuitStats {
    let operands: Vec<Vec<u128>> = pairs.iter().map(|&(a, b)| vec![a, b]).collect();
    check_radix_op(
        ck,
        backend,
        blocks,
        &operands,
        &|c, x| Ok(vec![build(c, &x[0], &x[1])?]),
        &|v| expected(v[0], v[1]) as u128,
        Some(1),
    )
}
