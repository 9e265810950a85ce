//! Order comparisons, comparisons with clear values, minimum and maximum.
//!
//! `<`, `<=`, `>`, `>=` follow the plans of [`crate::integer::comparison`]
//! (carry-propagation-like state trees, chosen by the circuit's parallelism); `==` and
//! `!=` fold per-block equality flags. Costs (bootstraps / sequential layers):
//!
//! | operation                  | 8 bits, par. 2 | 64 bits, par. 1 | par. 2   | par. 10 000 |
//! |----------------------------|----------------|-----------------|----------|-------------|
//! | `lt le gt ge`              | 5 / 2          | 32 / 32         | 45 / 6   | 46 / 4      |
//! | `eq ne`                    | 5 / 2          | 42 / 4          | 42 / 4   | 42 / 4      |
//! | `lt ... ge` with a clear   | 3 / 2          | 21 / 6          | 22 / 4   | 22 / 4      |
//! | `eq ne` with a clear       | 3 / 2          | 20 / 3          | 20 / 3   | 20 / 3      |
//! | `min max`                  | 13 / 4         | 96 / 34         | 109 / 8  | 110 / 6     |
//! | `min max` with a clear     | 7 / 3          | 53 / 7          | 54 / 5   | 54 / 5      |
//!
//! (TFHE-rs: 47 bootstraps for a 64-bit `lt`, 42 for `eq`.) `min`/`max` are a `>`
//! then a [`crate::integer::select`] (2 bootstraps per block, 1 against a clear block).

use super::comparison::{self, Relation, Rhs};
use super::{check_radix, clear_digits, select, Radix, U2048};
use crate::error::Result;
use crate::integer::circuit::{Circuit, Wire};

/// A comparison of two integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// Every comparison.
    pub const ALL: [CmpOp; 6] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ];

    /// The comparison on clear values (of any ordered type: [`U2048`] for unsigned
    /// integers, `i128` for signed ones).
    ///
    /// ```
    /// use gpufhe::integer::CmpOp;
    /// assert!(CmpOp::Le.apply(3u128, 3) && !CmpOp::Gt.apply(2u128, 5));
    /// assert!(CmpOp::Lt.apply(-1i128, 0));
    /// ```
    pub fn apply<T: Ord>(self, a: T, b: T) -> bool {
        match self {
            Self::Eq => a == b,
            Self::Ne => a != b,
            Self::Lt => a < b,
            Self::Le => a <= b,
            Self::Gt => a > b,
            Self::Ge => a >= b,
        }
    }

    /// The order relation of `<`, `<=`, `>`, `>=` (`None` for `==`, `!=`).
    pub(crate) fn relation(self) -> Option<Relation> {
        let (greater, strict) = match self {
            Self::Eq | Self::Ne => return None,
            Self::Lt => (false, true),
            Self::Le => (false, false),
            Self::Gt => (true, true),
            Self::Ge => (true, false),
        };
        Some(Relation {
            greater,
            strict,
            signed: false,
        })
    }
}

/// `lhs op rhs` (unsigned) as one block holding 0 or 1. Operands must be clean and of
/// equal length. See the module docs for the costs.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{compare, encrypt_radix, run, CmpOp};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 200u128, 4).unwrap();
/// let b = encrypt_radix(&ck, 201u128, 4).unwrap();
/// let out = run(&backend, &[&a, &b], |c, x| {
///     Ok(vec![
///         vec![compare(c, CmpOp::Lt, &x[0], &x[1])?],
///         vec![compare(c, CmpOp::Ge, &x[0], &x[1])?],
///     ])
/// })
/// .unwrap();
/// assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 1);
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 0);
/// ```
pub fn compare(c: &mut Circuit, op: CmpOp, lhs: &[Wire], rhs: &[Wire]) -> Result<Wire> {
    match op.relation() {
        None if op == CmpOp::Eq => comparison::eq(c, lhs, rhs),
        None => comparison::ne(c, lhs, rhs),
        Some(rel) => comparison::order(c, lhs, Rhs::Encrypted(rhs), rel),
    }
}

/// `x op clear` (unsigned) as one block holding 0 or 1; a `clear` beyond the width of
/// `x` compares as the larger value (no bootstrap). Two blocks of `x` go through each
/// per-block table and known parts fold away, so this costs about half of
/// [`compare`] (see the module docs).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{encrypt_radix, run, scalar_compare, CmpOp};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 77u128, 4).unwrap();
/// let out = run(&backend, &[&a], |c, x| {
///     Ok(vec![
///         vec![scalar_compare(c, CmpOp::Gt, &x[0], 76u128)?],
///         vec![scalar_compare(c, CmpOp::Lt, &x[0], 1000u128)?], // 1000 needs 10 bits
///     ])
/// })
/// .unwrap();
/// assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 1);
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 1);
/// ```
pub fn scalar_compare(
    c: &mut Circuit,
    op: CmpOp,
    x: &[Wire],
    clear: impl Into<U2048>,
) -> Result<Wire> {
    let clear: U2048 = clear.into();
    check_radix(c, x)?;
    if !fits(c, x.len(), clear) {
        // Every value of x is below `clear`.
        return c.constant(op.apply(U2048::ZERO, clear) as u64);
    }
    let largest = largest(c, x.len());
    if op.relation().is_some() && op.apply(U2048::ZERO, clear) == op.apply(largest, clear) {
        // Order relations are monotonic in x: equal at both ends means constant.
        return c.constant(op.apply(U2048::ZERO, clear) as u64);
    }
    let digits = clear_digits(clear, c.message_modulus(), x.len());
    match op.relation() {
        None => comparison::scalar_equality(c, x, &digits, op == CmpOp::Eq),
        Some(rel) => comparison::order(c, x, Rhs::Clear(digits), rel),
    }
}

/// The largest value of `blocks` blocks (saturating at `U2048::MAX`).
fn largest(c: &Circuit, blocks: usize) -> U2048 {
    let bits = u32::try_from(blocks).unwrap_or(u32::MAX);
    U2048::mask(bits.saturating_mul(c.message_modulus().trailing_zeros()))
}

/// Whether `clear` fits in `blocks` blocks.
fn fits(c: &Circuit, blocks: usize, clear: U2048) -> bool {
    clear <= largest(c, blocks)
}

/// The smaller of `lhs` and `rhs`: a `>` then a [`select`].
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, min, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let (a, b) = (encrypt_radix(&ck, 13u128, 2).unwrap(), encrypt_radix(&ck, 6u128, 2).unwrap());
/// let out = run(&backend, &[&a, &b], |c, x| Ok(vec![min(c, &x[0], &x[1])?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 6);
/// ```
pub fn min(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<Radix> {
    let greater = compare(c, CmpOp::Gt, lhs, rhs)?;
    select(c, greater, rhs, lhs)
}

/// The larger of `lhs` and `rhs`: a `>` then a [`select`].
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, max, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let (a, b) = (encrypt_radix(&ck, 13u128, 2).unwrap(), encrypt_radix(&ck, 6u128, 2).unwrap());
/// let out = run(&backend, &[&a, &b], |c, x| Ok(vec![max(c, &x[0], &x[1])?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 13);
/// ```
pub fn max(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<Radix> {
    let greater = compare(c, CmpOp::Gt, lhs, rhs)?;
    select(c, greater, lhs, rhs)
}

/// `x > clear` and the blocks of `clear` (modulo `base^blocks`) as trivial constants.
fn against_clear(c: &mut Circuit, x: &[Wire], clear: U2048) -> Result<(Wire, Radix)> {
    let greater = scalar_compare(c, CmpOp::Gt, x, clear)?;
    let digits = clear_digits(clear, c.message_modulus(), x.len());
    let blocks = digits
        .into_iter()
        .map(|d| c.constant(d))
        .collect::<Result<Radix>>()?;
    Ok((greater, blocks))
}

/// The smaller of `x` and `clear`: a clear `>` then a [`select`] that costs one
/// bootstrap per block (none where the digits agree or differ by one). A `clear`
/// beyond the width of `x` leaves `x` (no bootstrap).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, scalar_min};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 13u128, 2).unwrap();
/// let out = run(&backend, &[&a], |c, x| Ok(vec![scalar_min(c, &x[0], 9u128)?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 9);
/// ```
pub fn scalar_min(c: &mut Circuit, x: &[Wire], clear: impl Into<U2048>) -> Result<Radix> {
    let (greater, clear_blocks) = against_clear(c, x, clear.into())?;
    select(c, greater, &clear_blocks, x)
}

/// The larger of `x` and `clear`, modulo `base^blocks` like every integer result: a
/// `clear` beyond the width of `x` gives its low digits (no bootstrap).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, scalar_max};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 13u128, 2).unwrap();
/// let out = run(&backend, &[&a], |c, x| Ok(vec![scalar_max(c, &x[0], 9u128)?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 13);
/// ```
pub fn scalar_max(c: &mut Circuit, x: &[Wire], clear: impl Into<U2048>) -> Result<Radix> {
    let (greater, clear_blocks) = against_clear(c, x, clear.into())?;
    select(c, greater, x, &clear_blocks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::tests::{check_with, mask, SplitMix};

    const OPS: [CmpOp; 6] = CmpOp::ALL;

    /// Edge pairs of `blocks`-block operands plus `random` pseudo-random ones.
    fn pairs(blocks: usize, random: usize, seed: u64) -> Vec<Vec<u128>> {
        let bits = 2 * blocks;
        let max = mask(bits);
        let top = 1u128 << (bits - 2);
        let v = 0x9c3a_51e7_2b84_d60f_u128 & max;
        let mut out = vec![
            vec![0, 0],
            vec![max, max],
            vec![0, max],
            vec![max, 0],
            vec![v, v],
            vec![v, v ^ 1],     // equal but the lowest block
            vec![v ^ 2, v],     // equal but the lowest block
            vec![v, v ^ top],   // equal but the highest block
            vec![v ^ top, v],   // equal but the highest block
            vec![v, v ^ 0b100], // equal but one middle block (or the top one)
        ];
        let mut rng = SplitMix(seed);
        out.extend((0..random).map(|_| vec![rng.value(bits), rng.value(bits)]));
        out
    }

    #[test]
    fn comparisons_for_every_length_and_both_variants() {
        for blocks in [1usize, 2, 3, 4, 5, 8] {
            let cases = pairs(blocks, 4, blocks as u64);
            for (parallelism, ops) in [(1, &OPS[..]), (10_000, &OPS[2..])] {
                for &op in ops {
                    check_with(
                        parallelism,
                        &[blocks, blocks],
                        &cases,
                        1,
                        &|c, x| Ok(vec![compare(c, op, &x[0], &x[1])?]),
                        &|v| op.apply(v[0], v[1]) as u128,
                    );
                }
            }
        }
    }

    #[test]
    fn comparison_costs_by_parallelism() {
        // (blocks, parallelism, bootstraps, depth) of `<`; `<=`, `>`, `>=` cost the same.
        let expected = [
            (1, 1, 1, 1),
            (1, 10_000, 1, 1),
            (4, 1, 4, 4),
            (4, 2, 5, 2),
            (4, 10_000, 5, 2),
            (32, 1, 32, 32),
            (32, 2, 45, 6),
            (32, 10_000, 46, 4),
        ];
        for (blocks, parallelism, bootstraps, depth) in expected {
            for op in [CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge] {
                let stats = check_with(
                    parallelism,
                    &[blocks, blocks],
                    &[],
                    1,
                    &|c, x| Ok(vec![compare(c, op, &x[0], &x[1])?]),
                    &|_| 0,
                );
                assert_eq!(
                    (stats.bootstraps, stats.depth),
                    (bootstraps, depth),
                    "{op:?} on {blocks} blocks, parallelism {parallelism}"
                );
            }
        }
    }

    #[test]
    fn u64_comparisons_on_random_and_edge_operands() {
        let cases = pairs(32, 2, 64);
        for (parallelism, op) in [(1, CmpOp::Lt), (10_000, CmpOp::Ge), (2, CmpOp::Gt)] {
            check_with(
                parallelism,
                &[32, 32],
                &cases,
                1,
                &|c, x| Ok(vec![compare(c, op, &x[0], &x[1])?]),
                &|v| op.apply(v[0], v[1]) as u128,
            );
        }
    }

    #[test]
    fn scalar_comparisons_including_clears_that_do_not_fit() {
        for blocks in [1usize, 2, 3, 4, 5, 8, 32] {
            let bits = 2 * blocks;
            let max = mask(bits);
            let mut rng = SplitMix(1000 + blocks as u64);
            let mut clears = vec![0, 1, max, max - 1, max + 1, u128::MAX, rng.value(bits)];
            clears.dedup();
            let mut values = vec![0, max, rng.value(bits)];
            if blocks <= 8 {
                values.extend(clears.iter().filter(|&&k| k <= max).copied());
            }
            let cases: Vec<Vec<u128>> = values.iter().map(|&v| vec![v]).collect();
            for &clear in &clears {
                // Equality has one variant; order comparisons two.
                for (parallelism, ops) in [(1, &OPS[..]), (10_000, &OPS[2..])] {
                    for &op in ops {
                        let stats = check_with(
                            parallelism,
                            &[blocks],
                            &cases,
                            1,
                            &|c, x| Ok(vec![scalar_compare(c, op, &x[0], clear)?]),
                            &|v| op.apply(v[0], clear) as u128,
                        );
                        if clear > max {
                            assert_eq!(stats.bootstraps, 0, "{op:?} {clear} needs no bootstrap");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn scalar_comparison_costs() {
        // (blocks, parallelism, op, clear, bootstraps, depth)
        let k = 0x1234_5678_9abc_def1u128;
        let expected = [
            (4, 2, CmpOp::Lt, 77, 3, 2),
            (4, 2, CmpOp::Eq, 77, 3, 2),
            (32, 1, CmpOp::Lt, k, 21, 6),
            (32, 2, CmpOp::Le, k, 22, 4),
            (32, 10_000, CmpOp::Gt, k, 22, 4),
            (32, 2, CmpOp::Eq, k, 20, 3),
            // `x < 0x...0` needs no table for its lowest two blocks.
            (32, 2, CmpOp::Lt, k - 1, 21, 4),
            // `x >= 0` and `x > max` are known.
            (32, 2, CmpOp::Ge, 0, 0, 0),
            (32, 2, CmpOp::Gt, u64::MAX as u128, 0, 0),
        ];
        for (blocks, parallelism, op, clear, bootstraps, depth) in expected {
            let stats = check_with(
                parallelism,
                &[blocks],
                &[],
                1,
                &|c, x| Ok(vec![scalar_compare(c, op, &x[0], clear)?]),
                &|_| 0,
            );
            assert_eq!(
                (stats.bootstraps, stats.depth),
                (bootstraps, depth),
                "{op:?} {clear} on {blocks} blocks, parallelism {parallelism}"
            );
        }
    }

    #[test]
    fn min_and_max_with_encrypted_and_clear_operands() {
        for blocks in [1usize, 3, 4, 8] {
            let cases = pairs(blocks, 4, 77 + blocks as u64);
            for parallelism in [1, 10_000] {
                check_with(
                    parallelism,
                    &[blocks, blocks],
                    &cases,
                    blocks,
                    &|c, x| min(c, &x[0], &x[1]),
                    &|v| v[0].min(v[1]),
                );
                check_with(
                    parallelism,
                    &[blocks, blocks],
                    &cases,
                    blocks,
                    &|c, x| max(c, &x[0], &x[1]),
                    &|v| v[0].max(v[1]),
                );
            }
            let max_value = mask(2 * blocks);
            let values: Vec<Vec<u128>> = cases.iter().map(|v| vec![v[0]]).collect();
            for clear in [0, 5, max_value, max_value + 7] {
                check_with(
                    2,
                    &[blocks],
                    &values,
                    blocks,
                    &|c, x| scalar_min(c, &x[0], clear),
                    &|v| v[0].min(clear),
                );
                check_with(
                    2,
                    &[blocks],
                    &values,
                    blocks,
                    &|c, x| scalar_max(c, &x[0], clear),
                    &|v| v[0].max(clear),
                );
            }
        }
    }

    #[test]
    fn min_max_costs() {
        // (blocks, parallelism, bootstraps, depth) of min (max is the same).
        for (blocks, parallelism, bootstraps, depth) in [
            (4, 2, 13, 4),
            (32, 1, 96, 34),
            (32, 2, 109, 8),
            (32, 10_000, 110, 6),
        ] {
            let stats = check_with(
                parallelism,
                &[blocks, blocks],
                &[],
                blocks,
                &|c, x| min(c, &x[0], &x[1]),
                &|_| 0,
            );
            assert_eq!((stats.bootstraps, stats.depth), (bootstraps, depth));
        }
        let k = 0x1234_5678_9abc_def1u128;
        let stats = check_with(2, &[32], &[], 32, &|c, x| scalar_max(c, &x[0], k), &|_| 0);
        assert_eq!((stats.bootstraps, stats.depth), (54, 5));
    }
}
