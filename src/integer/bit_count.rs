//! Counting bits of radix integers (`count_ones`, `leading_zeros`, `ilog2`, ...) and
//! reversing them.
//!
//! * **Population count**: the blocks are packed by as many as one bootstrap reads
//!   (`m x_1 + x_0`, two 2-bit blocks on the default parameters: 4 bits, noise 2),
//!   one table gives the number of ones of each pack (0 to 4), and the small counts
//!   are summed into a radix of just enough blocks for the width (`sum.rs`'s column
//!   reduction and carry propagation), zero-extended to the requested width.
//! * **Trailing zeros**: `!x & (x - 1)` has exactly `trailing_zeros(x)` ones (all
//!   of them for `x = 0`). The wrapping `x - 1` is one carry propagation (its borrows
//!   are the "every lower block is zero" prefix), then one bivariate table per block
//!   gives the ones of `!x_i & (x - 1)_i`, and those small counts are summed as above.
//! * **Leading zeros**: the same from the other end: the blocks in reverse order
//!   (free) minus one, and one bivariate table per block that counts its digit's
//!   leading zeros where the borrow reached it (no bit reversal). **Reversal**
//!   (`reverse_bits`) is one table per block (the bits of a digit reversed; none with
//!   1-bit blocks) and the block order reversed (free).
//! * `count_zeros`, `leading_ones` and `trailing_ones` count on `!x`, which costs no
//!   bootstrap. **`ilog2`** is `bits - 1 - leading_zeros(x)` on the narrow count (a
//!   clear-minus-radix of a few blocks), with the flag `leading_zeros(x) != bits` that
//!   `checked_ilog2` returns.
//!
//! Costs in bootstraps (layers) on the default parameters, for a result of 32 bits
//! (as TFHE-rs returns), with the CPU's parallelism of 2 (ripple carries) and a
//! GPU's (low-latency carries); the tests pin these:
//!
//! | operation        | `FheUint8` CPU | GPU    | `FheUint64` CPU | GPU      |
//! |------------------|----------------|--------|-----------------|----------|
//! | `count_ones`     | 4 (2)          | 4 (2)  | 33 (6)          | 33 (6)   |
//! | `trailing_zeros` | 10 (6)         | 14 (5) | 86 (37)         | 146 (12) |
//! | `leading_zeros`  | 10 (6)         | 14 (5) | 86 (37)         | 146 (12) |
//! | `ilog2` (+ flag) | 13 (8)         | 17 (7) | 93 (39)         | 157 (15) |
//! | `reverse_bits`   | 4 (1)          | 4 (1)  | 32 (1)          | 32 (1)   |

use super::carry::{cheapest, Strategy};
use super::sum::{sum_columns, Finish};
use super::{check_radix, Radix};
use crate::error::Result;
use crate::integer::circuit::{Circuit, Wire};

/// A count of bits of an unsigned integer, as Rust's integer methods of the same
/// names compute it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CountOp {
    /// `count_ones`: the bits set.
    Ones,
    /// `count_zeros`: the bits clear.
    Zeros,
    /// `leading_zeros`: the clear bits above the highest set one (the width for 0).
    LeadingZeros,
    /// `trailing_zeros`: the clear bits below the lowest set one (the width for 0).
    TrailingZeros,
    /// `leading_ones`: the set bits above the highest clear one.
    LeadingOnes,
    /// `trailing_ones`: the set bits below the lowest clear one.
    TrailingOnes,
}

impl CountOp {
    /// Every count, for tests and tables.
    pub const ALL: [CountOp; 6] = [
        Self::Ones,
        Self::Zeros,
        Self::LeadingZeros,
        Self::TrailingZeros,
        Self::LeadingOnes,
        Self::TrailingOnes,
    ];

    /// The count of the low `bits` bits (1 to 128) of `value` on clear values.
    ///
    /// ```
    /// use gpufhe::integer::CountOp;
    /// assert_eq!(CountOp::LeadingZeros.apply(1, 8), 7);
    /// assert_eq!(CountOp::TrailingZeros.apply(0, 8), 8);
    /// assert_eq!(CountOp::LeadingOnes.apply(0xf0, 8), 4);
    /// ```
    pub fn apply(self, value: u128, bits: u32) -> u32 {
        let bits = bits.clamp(1, 128);
        let mask = u128::MAX >> (128 - bits);
        let value = value & mask;
        let unused = 128 - bits;
        match self {
            Self::Ones => value.count_ones(),
            Self::Zeros => bits - value.count_ones(),
            Self::LeadingZeros => value.leading_zeros() - unused,
            Self::TrailingZeros => value.trailing_zeros().min(bits),
            Self::LeadingOnes => (value << unused).leading_ones().min(bits),
            Self::TrailingOnes => value.trailing_ones(),
        }
    }

    /// Whether the count is of the complement's ones or zeros.
    fn on_complement(self) -> bool {
        matches!(self, Self::Zeros | Self::LeadingOnes | Self::TrailingOnes)
    }
}

/// The bits of the digits of `x` (a digit's bits), `log2(message_modulus)`.
fn digit_bits(c: &Circuit) -> u32 {
    c.message_modulus().trailing_zeros()
}

/// The number of blocks a count of up to `max` needs.
fn count_blocks(c: &Circuit, max: u64) -> usize {
    let bits = u64::BITS - max.leading_zeros();
    bits.max(1).div_ceil(digit_bits(c).max(1)) as usize
}

/// The count `op` of `x` on `out_blocks` blocks (the count modulo the width of
/// `out_blocks`, which 32 bits always hold). See the module docs for the costs.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{count_bits, decrypt_radix, encrypt_radix, run, CountOp};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let x = encrypt_radix(&ck, 0b0010_1100u128, 4).unwrap(); // 8 bits
/// let out = run(&backend, &[&x], |c, w| {
///     Ok(vec![
///         count_bits(c, CountOp::Ones, &w[0], 16)?,
///         count_bits(c, CountOp::LeadingZeros, &w[0], 16)?,
///     ])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 3);
/// assert_eq!(decrypt_radix(&ck, &out[1]).unwrap(), 2);
/// ```
pub fn count_bits(c: &mut Circuit, op: CountOp, x: &[Wire], out_blocks: usize) -> Result<Radix> {
    let narrow = narrow_count(c, op, x)?;
    super::cast(c, &narrow, out_blocks)
}

/// The count `op` of `x` on just enough blocks for the width of `x`.
fn narrow_count(c: &mut Circuit, op: CountOp, x: &[Wire]) -> Result<Radix> {
    check_radix(c, x)?;
    let x = if op.on_complement() {
        super::bitnot(c, x)?
    } else {
        x.to_vec()
    };
    let width = x.len() as u64 * digit_bits(c) as u64;
    let blocks = count_blocks(c, width);
    match op {
        CountOp::Ones | CountOp::Zeros => {
            let counts = pack_counts(c, &x)?;
            sum_values(c, counts, blocks)
        }
        CountOp::TrailingZeros | CountOp::TrailingOnes => zeros_from_an_end(c, &x, blocks, false),
        CountOp::LeadingZeros | CountOp::LeadingOnes => zeros_from_an_end(c, &x, blocks, true),
    }
}

/// The number of ones of each pack of as many blocks as one bootstrap reads.
fn pack_counts(c: &mut Circuit, x: &[Wire]) -> Result<Vec<Wire>> {
    let params = *c.parameters();
    let m = c.message_modulus();
    let (mut per_pack, mut span) = (1usize, m);
    while span.saturating_mul(m) <= params.total_modulus()
        && (per_pack as u64) < params.max_noise_level
    {
        per_pack += 1;
        span = span.saturating_mul(m);
    }
    x.chunks(per_pack)
        .map(|pack| {
            let mut weight = 1i64;
            let mut terms = Vec::with_capacity(pack.len());
            for &w in pack {
                terms.push((w, weight));
                weight *= m as i64;
            }
            let packed = c.linear(&terms, 0)?;
            c.table(packed, |v| u64::from(v.count_ones()))
        })
        .collect()
}

/// The trailing (or, `leading`, leading) zeros of `x` on `blocks` blocks. The blocks
/// are taken from that end (for leading zeros, in reverse order, the digits as they
/// are) as a radix `y`; in `y - 1` a block receives a borrow exactly when every block
/// before it is zero, and `a - b` (its digit `a` minus its digit `b` of `y - 1`,
/// modulo m) is that borrow. Where it is 1 the block adds the zeros of its digit from
/// that end (all of them for 0), where 0 nothing: one bivariate table per block,
/// summed. (For trailing zeros that count is the ones of `!a & b`.)
fn zeros_from_an_end(c: &mut Circuit, x: &[Wire], blocks: usize, leading: bool) -> Result<Radix> {
    let m = c.message_modulus();
    let bits = digit_bits(c);
    let y: Vec<Wire> = if leading {
        x.iter().rev().copied().collect()
    } else {
        x.to_vec()
    };
    let minus_one = super::scalar_sub(c, &y, 1u8)?;
    let counts = y
        .iter()
        .zip(&minus_one)
        .map(|(&a, &b)| {
            c.bivariate(a, b, move |a, b| {
                let borrow = (a + m - b) % m == 1;
                let zeros = if leading {
                    bits - (u64::BITS - a.leading_zeros()).min(bits)
                } else {
                    a.trailing_zeros().min(bits)
                };
                if borrow {
                    u64::from(zeros)
                } else {
                    0
                }
            })
        })
        .collect::<Result<Vec<_>>>()?;
    sum_values(c, counts, blocks)
}

/// `sum(values)` (blocks of column weight 1 holding small numbers) as a clean radix
/// of `blocks` blocks, finished the cheapest way for the circuit's parallelism.
fn sum_values(c: &mut Circuit, values: Vec<Wire>, blocks: usize) -> Result<Radix> {
    if blocks == 0 {
        return Ok(Vec::new());
    }
    let columns = |values: &[Wire]| {
        let mut columns = vec![Vec::new(); blocks];
        columns[0] = values.to_vec();
        columns
    };
    let candidates = Finish::candidates(Strategy::Auto);
    let finish = cheapest(c, &[&values], &candidates, |s, x, finish| {
        sum_columns(s, columns(&x[0]), finish)
    })
    .unwrap_or(candidates[0]);
    sum_columns(c, columns(&values), finish)
}

/// `x` with its bits in reverse order: each digit's bits reversed (one table per
/// block, none for 1-bit digits or known blocks), then the blocks in reverse order.
///
/// ```
/// use gpufhe::backend::{cpu::CpuBackend, Backend};
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, reverse_bits, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let x = encrypt_radix(&ck, 0b0010_1101u128, 4).unwrap();
/// let out = run(&backend, &[&x], |c, w| Ok(vec![reverse_bits(c, &w[0])?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 0b1011_0100);
/// assert_eq!(backend.pbs_count(), 4);
/// ```
pub fn reverse_bits(c: &mut Circuit, x: &[Wire]) -> Result<Radix> {
    check_radix(c, x)?;
    let bits = digit_bits(c);
    x.iter()
        .rev()
        .map(|&w| {
            if bits <= 1 {
                Ok(w)
            } else {
                c.table(w, move |v| reverse_digit(v, bits))
            }
        })
        .collect()
}

/// The low `bits` bits of `v` in reverse order.
fn reverse_digit(v: u64, bits: u32) -> u64 {
    (v.reverse_bits() >> (u64::BITS - bits)) & ((1 << bits) - 1)
}

/// `floor(log2(x))` on `out_blocks` blocks, and whether it is meaningful (`x != 0`)
/// as a block holding 0 or 1. For `x = 0` the value is `bits - 1 - bits` modulo the
/// narrow count's width and carries no meaning, as in TFHE-rs.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, ilog2, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let x = encrypt_radix(&ck, 100u128, 4).unwrap();
/// let out = run(&backend, &[&x], |c, w| {
///     let (log, valid) = ilog2(c, &w[0], 16)?;
///     Ok(vec![log, vec![valid]])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 6);
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 1);
/// ```
pub fn ilog2(c: &mut Circuit, x: &[Wire], out_blocks: usize) -> Result<(Radix, Wire)> {
    let zeros = narrow_count(c, CountOp::LeadingZeros, x)?;
    let width = x.len() as u128 * digit_bits(c) as u128;
    let log = super::clear_sub(c, width.saturating_sub(1), &zeros)?;
    let valid = super::scalar_compare(c, super::CmpOp::Ne, &zeros, width)?;
    let valid = super::to_boolean(c, valid)?;
    Ok((super::cast(c, &log, out_blocks)?, valid))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::tests::{check_unary, check_with, mask, SplitMix};

    fn operands(blocks: usize, seed: u64) -> Vec<u128> {
        let bits = 2 * blocks;
        let mut rng = SplitMix(seed);
        let mut values = vec![0, 1, mask(bits), mask(bits) >> 1, 1 << (bits - 1), 2, 0b100];
        values.extend((0..4).map(|_| rng.value(bits)));
        values.extend((0..3).map(|_| rng.value(bits) >> (rng.next_u64() % bits as u64)));
        values.iter().map(|v| v & mask(bits)).collect()
    }

    #[test]
    fn every_count_on_every_length() {
        for blocks in [1usize, 2, 3, 4, 5, 8] {
            let bits = 2 * blocks as u32;
            for op in CountOp::ALL {
                let stats = check_unary(
                    blocks,
                    &operands(blocks, blocks as u64),
                    |c, x| count_bits(c, op, x, blocks),
                    |v| op.apply(v, bits) as u128,
                );
                assert!(
                    stats.bootstraps <= 8 * blocks,
                    "{op:?} on {blocks}: {stats:?}"
                );
            }
        }
    }

    #[test]
    fn counts_widen_to_32_bits_and_reverse_and_ilog2() {
        let blocks = 4;
        let values = operands(blocks, 7);
        for op in [CountOp::Ones, CountOp::LeadingZeros] {
            check_with(
                2,
                &[blocks],
                &values.iter().map(|&v| vec![v]).collect::<Vec<_>>(),
                16,
                &|c, x| count_bits(c, op, &x[0], 16),
                &|v| op.apply(v[0], 8) as u128,
            );
        }
        let stats = check_unary(blocks, &values, reverse_bits, |v| {
            (v as u8).reverse_bits() as u128
        });
        assert_eq!((stats.bootstraps, stats.depth), (4, 1));
        for blocks in [1usize, 4, 5] {
            let bits = 2 * blocks as u32;
            check_with(
                2,
                &[blocks],
                &operands(blocks, 3)
                    .iter()
                    .map(|&v| vec![v])
                    .collect::<Vec<_>>(),
                17,
                &|c, x| {
                    let (mut log, valid) = ilog2(c, &x[0], 16)?;
                    log.push(valid);
                    Ok(log)
                },
                &|v| match v[0] {
                    0 => ilog2_of_zero(bits),
                    v => v.ilog2() as u128 | 1 << 32,
                },
            );
        }
    }

    /// What `ilog2` leaves for 0: `bits - 1 - bits` modulo the narrow count's width.
    fn ilog2_of_zero(bits: u32) -> u128 {
        let narrow = 2 * (u32::BITS - bits.leading_zeros()).div_ceil(2);
        (1 << narrow) - 1
    }

    /// (bootstraps, layers) of count_ones, trailing_zeros, leading_zeros, ilog2 and
    /// reverse_bits of `blocks` blocks for `parallelism`.
    fn costs(blocks: usize, parallelism: usize) -> Vec<(usize, usize)> {
        let (c, x) = crate::integer::tests::circuit_with_inputs(parallelism, &[blocks]);
        let build = |f: &dyn Fn(&mut Circuit) -> Result<Vec<Radix>>| {
            let mut single = c.clone();
            for out in f(&mut single).expect("builds") {
                single.add_output(&out);
            }
            (single.stats().bootstraps, single.stats().depth)
        };
        let mut costs: Vec<(usize, usize)> =
            [CountOp::Ones, CountOp::TrailingZeros, CountOp::LeadingZeros]
                .iter()
                .map(|&op| build(&|c| Ok(vec![count_bits(c, op, &x[0], 16)?])))
                .collect();
        costs.push(build(&|c| {
            let (log, valid) = ilog2(c, &x[0], 16)?;
            Ok(vec![log, vec![valid]])
        }));
        costs.push(build(&|c| Ok(vec![reverse_bits(c, &x[0])?])));
        costs
    }

    #[test]
    fn bootstrap_counts_of_the_table() {
        let table = [(4, 2), (4, 4096), (32, 2), (32, 4096)].map(|(b, p)| costs(b, p));
        println!("count_ones, trailing_zeros, leading_zeros, ilog2, reverse_bits: {table:?}");
        assert_eq!(
            table,
            [
                vec![(4, 2), (10, 6), (10, 6), (13, 8), (4, 1)],
                vec![(4, 2), (14, 5), (14, 5), (17, 7), (4, 1)],
                vec![(33, 6), (86, 37), (86, 37), (93, 39), (32, 1)],
                vec![(33, 6), (146, 12), (146, 12), (157, 15), (32, 1)],
            ]
        );
    }
}
