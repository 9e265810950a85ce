//! Shared harness of the integer tests: one key on the insecure test parameters, and
//! checks that run a whole list of operand pairs as **one batched circuit** on the
//! CPU backend and compare every result with the clear computation.

use super::{decrypt_radix, encrypt_radix, execute, Circuit, CircuitStats, Radix, Wire, U2048};
use crate::backend::{cpu::CpuBackend, Backend, BlockInfo};
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

/// `2^bits - 1` (all ones for 128 bits or more).
pub(crate) fn mask(bits: usize) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// A deterministic pseudo-random sequence (splitmix64).
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value of `bits` bits (at most 128).
    pub(crate) fn value(&mut self, bits: usize) -> u128 {
        let v = ((self.next_u64() as u128) << 64) | self.next_u64() as u128;
        v & mask(bits)
    }
}

/// A block as encryption or a bootstrap leaves it: any digit, noise level 1.
pub(crate) const FRESH: BlockInfo = BlockInfo {
    degree: 3,
    noise_level: 1,
};

/// A circuit on the test parameters for `parallelism` bootstraps at once, with one
/// input of [`FRESH`] blocks per width.
pub(crate) fn circuit_with_inputs(parallelism: usize, widths: &[usize]) -> (Circuit, Vec<Radix>) {
    let mut c = Circuit::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).with_parallelism(parallelism);
    let inputs = widths
        .iter()
        .map(|&w| c.add_input(&vec![FRESH; w]).expect("input"))
        .collect();
    (c, inputs)
}

/// Bootstraps and layers of the outputs `build` makes on fresh operands of the given
/// widths, on a circuit of the given parallelism.
pub(crate) fn cost_of(
    parallelism: usize,
    widths: &[usize],
    build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
) -> (usize, usize) {
    let (mut c, operands) = circuit_with_inputs(parallelism, widths);
    for out in build(&mut c, &operands).expect("circuit builds") {
        c.add_output(&out);
    }
    let stats = c.stats();
    (stats.bootstraps, stats.depth)
}

/// The costs of a two-operand operation as the modules' cost tables give them: on 8
/// and 64 bits (4 and 32 blocks), each at the CPU's parallelism of 2 and a GPU's.
pub(crate) fn table_costs(build: &super::sum::tests::Build<'_>) -> Vec<(usize, usize)> {
    [(4, 2), (4, 4096), (32, 2), (32, 4096)]
        .iter()
        .map(|&(blocks, parallelism)| cost_of(parallelism, &[blocks, blocks], build))
        .collect()
}

/// Asserts every output block is clean (a digit with noise level at most 1).
fn assert_clean(blocks: &[Ciphertext], case: &[u128]) {
    for (i, b) in blocks.iter().enumerate() {
        assert!(
            b.degree() < b.message_modulus() && b.noise_level() <= 1,
            "output block {i} is not clean for {case:?}: degree {}, noise {}",
            b.degree(),
            b.noise_level()
        );
    }
}

/// Runs `build` on every case (one value per operand, operand `i` on `widths[i]`
/// blocks) as ONE circuit of the given parallelism on the shared test key, checks
/// every result is clean and decrypts to `expected` modulo `2^(2 out_blocks)`, and
/// returns the stats of one operation on fresh operands.
pub(crate) fn check_with(
    parallelism: usize,
    widths: &[usize],
    cases: &[Vec<u128>],
    out_blocks: usize,
    build: &dyn Fn(&mut Circuit, &[Radix]) -> Result<Radix>,
    expected: &dyn Fn(&[u128]) -> u128,
) -> CircuitStats {
    let (ck, backend) = test_backend();
    let encrypted: Vec<Vec<Ciphertext>> = cases
        .iter()
        .flat_map(|case| {
            case.iter()
                .zip(widths)
                .map(|(&v, &w)| encrypt_radix(ck, v & mask(2 * w), w).expect("encrypt"))
        })
        .collect();
    let mut c = Circuit::new(*backend.parameters()).with_parallelism(parallelism);
    let wires: Vec<Radix> = encrypted
        .iter()
        .map(|blocks| c.add_input(&backend.block_infos(blocks)).expect("input"))
        .collect();
    for operands in wires.chunks(widths.len().max(1)) {
        let out = build(&mut c, operands).expect("circuit builds");
        c.add_output(&out);
    }
    let refs: Vec<&Vec<Ciphertext>> = encrypted.iter().collect();
    let outputs = execute(backend, &c, &refs).expect("circuit runs");
    assert_eq!(outputs.len(), cases.len(), "one result per case");
    for (case, out) in cases.iter().zip(&outputs) {
        assert_eq!(out.len(), out_blocks, "output blocks for {case:?}");
        assert_clean(out, case);
        let clear: Vec<u128> = case
            .iter()
            .zip(widths)
            .map(|(&v, &w)| v & mask(2 * w))
            .collect();
        assert_eq!(
            decrypt_radix(ck, out).expect("decrypt"),
            U2048::from(expected(&clear) & mask(2 * out_blocks)),
            "operands {clear:?} on {widths:?} blocks, parallelism {parallelism}"
        );
    }
    let (mut single, inputs) = circuit_with_inputs(parallelism, widths);
    let out = build(&mut single, &inputs).expect("circuit builds");
    single.add_output(&out);
    single.stats()
}

/// [`check_with`] on the test backend's own parallelism, every operand on `blocks`
/// blocks, the result on `output_blocks` (default `blocks`).
pub(crate) fn check_radix_op(
    blocks: usize,
    operands: &[Vec<u128>],
    build: &dyn Fn(&mut Circuit, &[Radix]) -> Result<Radix>,
    expected: &dyn Fn(&[u128]) -> u128,
    output_blocks: Option<usize>,
) -> CircuitStats {
    let arity = operands.first().map_or(0, Vec::len);
    check_with(
        test_backend().1.parallelism(),
        &vec![blocks; arity],
        operands,
        output_blocks.unwrap_or(blocks),
        build,
        expected,
    )
}

/// Builds an operation of two operands.
type BuildPair<'a> = dyn Fn(&mut Circuit, &[Wire], &[Wire]) -> Result<Radix> + 'a;

/// [`check_radix_op`] on pairs of operands.
fn check_pairs(
    blocks: usize,
    pairs: &[(u128, u128)],
    build: &BuildPair<'_>,
    expected: &dyn Fn(u128, u128) -> u128,
    output_blocks: Option<usize>,
) -> CircuitStats {
    let operands: Vec<Vec<u128>> = pairs.iter().map(|&(a, b)| vec![a, b]).collect();
    check_radix_op(
        blocks,
        &operands,
        &|c, x| build(c, &x[0], &x[1]),
        &|v| expected(v[0], v[1]),
        output_blocks,
    )
}

/// [`check_radix_op`] for two operands.
pub(crate) fn check_binary(
    blocks: usize,
    pairs: &[(u128, u128)],
    build: impl Fn(&mut Circuit, &[Wire], &[Wire]) -> Result<Radix>,
    expected: impl Fn(u128, u128) -> u128,
) -> CircuitStats {
    check_pairs(blocks, pairs, &build, &expected, None)
}

/// [`check_radix_op`] for a two-operand predicate returning one block (0 or 1).
pub(crate) fn check_predicate(
    blocks: usize,
    pairs: &[(u128, u128)],
    build: impl Fn(&mut Circuit, &[Wire], &[Wire]) -> Result<Wire>,
    expected: impl Fn(u128, u128) -> bool,
) -> CircuitStats {
    check_pairs(
        blocks,
        pairs,
        &|c, a, b| Ok(vec![build(c, a, b)?]),
        &|a, b| u128::from(expected(a, b)),
        Some(1),
    )
}

/// [`check_radix_op`] for one operand.
pub(crate) fn check_unary(
    blocks: usize,
    values: &[u128],
    build: impl Fn(&mut Circuit, &[Wire]) -> Result<Radix>,
    expected: impl Fn(u128) -> u128,
) -> CircuitStats {
    let operands: Vec<Vec<u128>> = values.iter().map(|&a| vec![a]).collect();
    check_radix_op(
        blocks,
        &operands,
        &|c, x| build(c, &x[0]),
        &|v| expected(v[0]),
        None,
    )
}

mod wide;
