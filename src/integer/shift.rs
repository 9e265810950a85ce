//! Shifts and rotations by clear or encrypted amounts, taken modulo the number of bits
//! `bits = 2 * blocks` (like `u64::wrapping_shl` and `u64::rotate_left`).
//!
//! **Clear amounts.** Moving whole blocks is free (wires are picked, zeros are trivial
//! blocks). A remaining 1-bit shift inside the base-4 digits costs one bivariate table
//! per output block, of the two input blocks it takes bits from, all in one layer: an
//! 8-bit rotation by an odd amount costs 4 bootstraps, a 64-bit one 32, a shift by
//! `k` bits `blocks - k / 2`; amounts that are multiples of 2 cost nothing.
//!
//! **Encrypted amounts** go through a barrel shifter whose blocks never leave the
//! bookkeeping of the circuit (every bound below is checked, none is assumed):
//! - *Round 0*, on the two lowest amount bits (the raw amount digit `d`, no extraction):
//!   each input block `y` goes through up to 3 tables of `y + 4 d` (noise 5), giving
//!   its part of the block it lands in and of the next two (bits shifted by `d`).
//!   Every block is then a sum of at most 3 parts (noise 3, degree 7).
//! - *Stage* `t >= 2` moves blocks by `2^(t-1)` under bit `t` of the amount, extracted
//!   from its digit together with its neighbour bit (one 4-function bootstrap per
//!   digit, giving each bit times 4 and times 8). A clean block `y` gives both its
//!   kept part and its moved part from one bootstrap of `y + 4 bit` (value below 8: two
//!   functions); a block that is a sum of parts needs one table of `v + 8 bit` per part.
//!   Blocks shifted out need no moved part, blocks that receive one part stay clean.
//! - Blocks still holding two or three parts are cleaned by one last table.
//!
//! The depth is `1 + stages + 1`, one more for right shifts and rotations: there the
//! farthest part of round 0 carries a high bit (degree 2), so a block of three parts
//! may reach 8, and such blocks are refreshed before the first stage. Bootstraps /
//! layers with an amount as wide as the value:
//!
//! | operation     | 8 bits  | 16 bits  | 64 bits  |
//! |---------------|---------|----------|----------|
//! | `<<`          | 17 / 3  | 49 / 4   | 322 / 6  |
//! | `>>`          | 19 / 4  | 51 / 5   | 324 / 7  |
//! | rotate left   | 25 / 3  | 65 / 4   | 386 / 6  |
//! | rotate right  | 25 / 4  | 65 / 5   | 386 / 7  |
//!
//! A one-block amount of an 8-bit value (only round 0) costs 12 (shifts) or 16
//! (rotations) in 2 layers. Each stage costs about 2 bootstraps per block because the
//! sum of a kept and a moved part is bounded by 6 in the bookkeeping (its value is a
//! digit, but the circuit and the backend's step checks only see the bounds of the
//! parts), so it cannot feed a two-function table. TFHE-rs' barrel shifter declares
//! that sum a digit and so needs about one bootstrap per block and stage.
//!
//! When `bits` is not a power of two the amount is first reduced modulo `bits`: its bits
//! (one bootstrap per digit) drive a one-hot Horner evaluation `r <- (2 r + a) mod bits`
//! (`bits / 2` two-function bootstraps per amount bit), whose flags are folded into the
//! bits of `r`, which feed the barrel shifter.

use super::{check_radix, Radix};
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};

/// A shift or rotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShiftOp {
    /// `<<`, zeros enter from the right.
    Shl,
    /// `>>` (logical), zeros enter from the left.
    Shr,
    /// Rotation towards the most significant bit.
    RotateLeft,
    /// Rotation towards the least significant bit.
    RotateRight,
}

impl ShiftOp {
    /// Every shift and rotation.
    pub const ALL: [ShiftOp; 4] = [
        ShiftOp::Shl,
        ShiftOp::Shr,
        ShiftOp::RotateLeft,
        ShiftOp::RotateRight,
    ];

    /// The operation on a clear `bits`-bit value (`bits` in 1..=128), the amount taken
    /// modulo `bits`.
    ///
    /// ```
    /// use gpufhe::integer::ShiftOp;
    /// assert_eq!(ShiftOp::RotateLeft.apply(0b1001, 1, 4), 0b0011);
    /// assert_eq!(ShiftOp::Shl.apply(0b1001, 5, 4), 0b0010);
    /// ```
    pub fn apply(self, value: u128, amount: u64, bits: u32) -> u128 {
        let mask = u128::MAX >> (128 - bits.clamp(1, 128));
        let value = value & mask;
        let k = (amount % bits.clamp(1, 128) as u64) as u32;
        let back = (bits - k) % bits.max(1);
        match self {
            Self::Shl => (value << k) & mask,
            Self::Shr => value >> k,
            Self::RotateLeft if k == 0 => value,
            Self::RotateRight if k == 0 => value,
            Self::RotateLeft => ((value << k) | (value >> back)) & mask,
            Self::RotateRight => ((value >> k) | (value << back)) & mask,
        }
    }

    /// Whether bits move towards the most significant end.
    fn leftwards(self) -> bool {
        matches!(self, Self::Shl | Self::RotateLeft)
    }

    /// Where block `i` of `n` lands when moved by `s` blocks (`None`: shifted out).
    fn block_dest(self, n: usize, i: usize, s: usize) -> Option<usize> {
        match self {
            Self::Shl => (i + s < n).then_some(i + s),
            Self::Shr => i.checked_sub(s),
            Self::RotateLeft => Some((i + s) % n),
            Self::RotateRight => Some((i + n - s % n) % n),
        }
    }
}

/// `x op amount` on `bits = blocks * log2(base)` bits; the amount is taken modulo
/// `bits` (like `u64::wrapping_shl`). Free when the amount is a multiple of the digit
/// size; otherwise one bootstrap per block that receives bits (all in one layer).
///
/// ```
/// use gpufhe::backend::{cpu::CpuBackend, Backend};
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, shift, ShiftOp};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 0b1011_0110u128, 4).unwrap();
/// let out = run(&backend, &[&a], |c, x| {
///     Ok(vec![
///         shift(c, ShiftOp::Shl, &x[0], 2)?,        // block move: free
///         shift(c, ShiftOp::RotateRight, &x[0], 3)?, // 4 bootstraps
///     ])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 0b1101_1000);
/// assert_eq!(decrypt_radix(&ck, &out[1]).unwrap(), 0b1101_0110);
/// assert_eq!(backend.pbs_count(), 4);
/// ```
pub fn shift(c: &mut Circuit, op: ShiftOp, x: &[Wire], amount: u64) -> Result<Radix> {
    check_radix(c, x)?;
    let n = x.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let m = c.message_modulus();
    let digit_bits = m.trailing_zeros() as u64;
    let amount = amount % (n as u64 * digit_bits);
    let moved = move_blocks(c, op, x, (amount / digit_bits) as usize)?;
    let r = amount % digit_bits;
    if r == 0 {
        return Ok(moved);
    }
    let left = op.leftwards();
    let combine = move |a: u64, b: u64| {
        if left {
            ((a << r) | (b >> (digit_bits - r))) % m
        } else {
            ((a >> r) | (b << (digit_bits - r))) % m
        }
    };
    (0..n)
        .map(|j| {
            // The block the missing bits come from: the next lower one for left shifts.
            let from = match op {
                ShiftOp::Shl | ShiftOp::RotateLeft if j > 0 => Some(j - 1),
                ShiftOp::Shr | ShiftOp::RotateRight if j + 1 < n => Some(j + 1),
                ShiftOp::RotateLeft => Some(n - 1),
                ShiftOp::RotateRight => Some(0),
                ShiftOp::Shl | ShiftOp::Shr => None,
            };
            let a = moved[j];
            let b = match from {
                Some(k) => moved[k],
                None => c.constant(0)?,
            };
            if a == b {
                c.table(a, move |v| combine(v, v))
            } else {
                c.bivariate(a, b, combine)
            }
        })
        .collect()
}

/// `v` with every block moved by `s` blocks (zeros or wrapped blocks enter): free.
fn move_blocks(c: &mut Circuit, op: ShiftOp, v: &[Wire], s: usize) -> Result<Radix> {
    let zero = c.constant(0)?;
    let mut out = vec![zero; v.len()];
    for (i, &w) in v.iter().enumerate() {
        if let Some(d) = op.block_dest(v.len(), i, s) {
            out[d] = w;
        }
    }
    Ok(out)
}

/// `x op amount` with an encrypted amount (a clean radix integer of any length), taken
/// modulo `bits` (see the module docs for the algorithm and its costs). Needs 2-bit
/// blocks with 2 carry bits.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, shift_encrypted, ShiftOp};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 0b1011_0110u128, 4).unwrap();
/// let amount = encrypt_radix(&ck, 11u128, 4).unwrap(); // 11 mod 8 = 3
/// let out = run(&backend, &[&a, &amount], |c, x| {
///     Ok(vec![shift_encrypted(c, ShiftOp::RotateLeft, &x[0], &x[1])?])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 0b1011_0101);
/// ```
pub fn shift_encrypted(c: &mut Circuit, op: ShiftOp, x: &[Wire], amount: &[Wire]) -> Result<Radix> {
    check_radix(c, x)?;
    check_radix(c, amount)?;
    let p = c.parameters();
    if p.message_modulus != 4 || p.total_modulus() < 16 || p.max_noise_level < 5 {
        return Err(Error::InvalidParameter(
            "encrypted shifts are written for 2-bit blocks with 2 carry bits".into(),
        ));
    }
    let n = x.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let bits = 2 * n;
    let amount = if bits.is_power_of_two() {
        amount_bits(c, amount, bits.trailing_zeros() as usize)?
    } else {
        amount_mod_bits(c, amount, bits)?
    };
    let mut v = round0(c, op, x, amount.low4)?;
    for (index, bit) in amount.high.iter().enumerate() {
        v = stage(c, op, &v, 1 << (index + 1), *bit)?;
    }
    v.into_iter().map(|w| clean(c, w)).collect()
}

/// A bit of the amount times 4 and times 8 (one 0/1 value, two scalings).
#[derive(Debug, Clone, Copy)]
struct ScaledBit {
    x4: Wire,
    x8: Wire,
}

/// The shift amount as the barrel shifter reads it.
struct BarrelAmount {
    /// Four times the two lowest bits (`4 (amount mod 4)`), a linear block.
    low4: Wire,
    /// Bits 2, 3, ... that matter.
    high: Vec<ScaledBit>,
}

/// The bits below `log2(bits)` of a clean amount: digit 0 as it is, the other bits from
/// one bootstrap per digit (both bits, each times 4 and times 8).
fn amount_bits(c: &mut Circuit, amount: &[Wire], log_bits: usize) -> Result<BarrelAmount> {
    let low4 = match amount.first() {
        Some(&d) => c.linear(&[(d, 4)], 0)?,
        None => c.constant(0)?,
    };
    let mut high = Vec::new();
    for t in (2..log_bits).step_by(2) {
        let digit = match amount.get(t / 2) {
            Some(&d) => d,
            None => c.constant(0)?,
        };
        let both = t + 1 < log_bits;
        let b0x4 = |d: u64| 4 * (d & 1);
        let b0x8 = |d: u64| 8 * (d & 1);
        let b1x4 = |d: u64| 4 * (d >> 1 & 1);
        let b1x8 = |d: u64| 8 * (d >> 1 & 1);
        let fs: Vec<&dyn Fn(u64) -> u64> = if both {
            vec![&b0x4, &b0x8, &b1x4, &b1x8]
        } else {
            vec![&b0x4, &b0x8]
        };
        let out = c.tables(digit, &fs)?;
        for pair in out.chunks(2) {
            high.push(ScaledBit {
                x4: pair[0],
                x8: pair[1],
            });
        }
    }
    Ok(BarrelAmount { low4, high })
}

/// The bits of `amount mod bits` (for `bits` not a power of two), by a one-hot Horner
/// evaluation over the amount's bits, most significant first.
fn amount_mod_bits(c: &mut Circuit, amount: &[Wire], bits: usize) -> Result<BarrelAmount> {
    let mut amount_bits = Vec::with_capacity(2 * amount.len());
    for &d in amount {
        amount_bits.extend(c.tables(d, &[&|v| v & 1, &|v| v >> 1 & 1])?);
    }
    let half = bits / 2;
    let zero = c.constant(0)?;
    let mut onehot = vec![zero; bits];
    onehot[0] = c.constant(1)?;
    for &a in amount_bits.iter().rev() {
        // r in {j, j + half} becomes 2j + a.
        let mut next = vec![zero; bits];
        for j in 0..half {
            let either = c.add(onehot[j], onehot[j + half])?;
            match c.known_value(either) {
                Some(0) => {}
                Some(_) => {
                    next[2 * j] = c.linear(&[(a, -1)], 1)?;
                    next[2 * j + 1] = a;
                }
                None => {
                    let packed = c.linear(&[(either, 2), (a, 1)], 0)?;
                    let out = c.tables(
                        packed,
                        &[&|p| (p >= 2 && p % 2 == 0) as u64, &|p| {
                            (p >= 3 && p % 2 == 1) as u64
                        }],
                    )?;
                    next[2 * j] = out[0];
                    next[2 * j + 1] = out[1];
                }
            }
        }
        onehot = next;
    }
    let width = bits.next_power_of_two().trailing_zeros() as usize;
    let scaled = (0..width)
        .map(|t| {
            let flags = (0..bits)
                .filter(|k| k >> t & 1 == 1)
                .map(|k| onehot[k])
                .collect();
            any_scaled(c, flags)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(BarrelAmount {
        low4: c.add(scaled[0].x4, scaled[1].x8)?,
        high: scaled[2..].to_vec(),
    })
}

/// Whether any of the 0/1 flags is 1, times 4 and times 8: sums of up to 5 flags
/// folded by one bootstrap each, the last one giving both scalings.
fn any_scaled(c: &mut Circuit, flags: Vec<Wire>) -> Result<ScaledBit> {
    let group = c.parameters().max_noise_level.clamp(1, 7) as usize;
    let mut flags: Vec<Wire> = flags
        .into_iter()
        .filter(|&w| c.known_value(w) != Some(0))
        .collect();
    loop {
        if flags.len() <= group {
            let terms: Vec<(Wire, i64)> = flags.iter().map(|&w| (w, 1)).collect();
            let sum = c.linear(&terms, 0)?;
            let out = c.tables(sum, &[&|s| 4 * (s >= 1) as u64, &|s| 8 * (s >= 1) as u64])?;
            return Ok(ScaledBit {
                x4: out[0],
                x8: out[1],
            });
        }
        flags = flags
            .chunks(group)
            .map(|members| {
                if members.len() == 1 {
                    return Ok(members[0]);
                }
                let terms: Vec<(Wire, i64)> = members.iter().map(|&w| (w, 1)).collect();
                let sum = c.linear(&terms, 0)?;
                c.table(sum, |s| (s >= 1) as u64)
            })
            .collect::<Result<Vec<_>>>()?;
    }
}

/// Part of block `y` shifted by `k` bits that lands `e` blocks away (leftwards or
/// rightwards).
fn part(left: bool, y: u64, k: u64, e: u64) -> u64 {
    if left {
        ((y << k) >> (2 * e)) & 3
    } else {
        ((y << (2 * e)) >> k) & 3
    }
}

/// Round 0: `x` shifted by `low4 / 4` bits (mod `bits`), each block a sum of parts.
fn round0(c: &mut Circuit, op: ShiftOp, x: &[Wire], low4: Wire) -> Result<Vec<Wire>> {
    if let Some(v) = c.known_value(low4) {
        return shift(c, op, x, v / 4);
    }
    let n = x.len();
    let bits = 2 * n as u64;
    let left = op.leftwards();
    let mut parts: Vec<Vec<Wire>> = vec![Vec::new(); n];
    for (i, &y) in x.iter().enumerate() {
        if c.known_value(y) == Some(0) {
            continue;
        }
        // Distances e = 0, 1, 2 grouped by destination (they coincide for rotations of
        // one or two blocks).
        let mut groups: Vec<(usize, Vec<u64>)> = Vec::new();
        for e in 0..3 {
            if let Some(d) = op.block_dest(n, i, e) {
                match groups.iter_mut().find(|(dest, _)| *dest == d) {
                    Some((_, es)) => es.push(e as u64),
                    None => groups.push((d, vec![e as u64])),
                }
            }
        }
        for (dest, es) in groups {
            let f = move |v: u64| {
                let (y, k) = (v % 4, (v / 4) % bits);
                es.iter().map(|&e| part(left, y, k, e)).sum::<u64>()
            };
            if (0..16).all(|v| f(v) == 0) {
                continue;
            }
            let packed = c.linear(&[(y, 1), (low4, 1)], 0)?;
            parts[dest].push(c.table(packed, f)?);
        }
    }
    parts.into_iter().map(|p| sum(c, &p)).collect()
}

/// One barrel stage: blocks moved by `s` where `bit` is 1.
fn stage(c: &mut Circuit, op: ShiftOp, v: &[Wire], s: usize, bit: ScaledBit) -> Result<Vec<Wire>> {
    if let Some(b) = c.known_value(bit.x4) {
        return if b == 0 {
            Ok(v.to_vec())
        } else {
            move_blocks(c, op, v, s)
        };
    }
    let n = v.len();
    let max_noise = c.parameters().max_noise_level;
    let mut parts: Vec<Vec<Wire>> = vec![Vec::new(); n];
    for (i, &w) in v.iter().enumerate() {
        if c.known_value(w) == Some(0) {
            continue;
        }
        let mut w = w;
        if c.info(w).degree > 7 || c.info(w).noise_level >= max_noise {
            w = clean(c, w)?;
        }
        let dest = op.block_dest(n, i, s);
        let keep;
        let mut moved = None;
        if c.info(w).degree <= 3 {
            // Value below 8: the kept and the moved part from one bootstrap.
            let packed = c.linear(&[(w, 1), (bit.x4, 1)], 0)?;
            let kept = |p: u64| if p >= 4 { 0 } else { p };
            let gone = |p: u64| p.saturating_sub(4);
            if dest.is_some() {
                let out = c.tables(packed, &[&kept, &gone])?;
                keep = out[0];
                moved = Some(out[1]);
            } else {
                keep = c.table(packed, kept)?;
            }
        } else {
            let packed = c.linear(&[(w, 1), (bit.x8, 1)], 0)?;
            keep = c.table(packed, |p| if p >= 8 { 0 } else { p.min(3) })?;
            if dest.is_some() {
                moved = Some(c.table(packed, |p| if p >= 8 { (p - 8).min(3) } else { 0 })?);
            }
        }
        parts[i].push(keep);
        if let (Some(d), Some(m)) = (dest, moved) {
            parts[d].push(m);
        }
    }
    parts.into_iter().map(|p| sum(c, &p)).collect()
}

/// The sum of parts (a trivial 0 when there is none).
fn sum(c: &mut Circuit, parts: &[Wire]) -> Result<Wire> {
    let terms: Vec<(Wire, i64)> = parts.iter().map(|&w| (w, 1)).collect();
    c.linear(&terms, 0)
}

/// `w` itself if it is a clean digit, else a fresh copy (its value is a digit).
fn clean(c: &mut Circuit, w: Wire) -> Result<Wire> {
    let info = c.info(w);
    if info.degree < c.message_modulus() && info.noise_level <= 1 {
        return Ok(w);
    }
    let top = c.message_modulus() - 1;
    c.table(w, move |v| v.min(top))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::tests::{check_with, circuit_with_inputs, mask, SplitMix};

    const OPS: [ShiftOp; 4] = ShiftOp::ALL;

    /// Edge and pseudo-random amounts for `bits`-bit values, below `limit`.
    fn amounts(bits: u64, limit: u128, rng: &mut SplitMix) -> Vec<u128> {
        let b = bits as u128;
        let mut out = vec![0, 1, 2, 3, b - 1, b, b + 1, 2 * b + 3];
        out.extend([limit - 1, rng.value(64) % limit]);
        out.retain(|&a| a < limit);
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn clear_shifts_move_blocks_for_free() {
        for blocks in [1usize, 2, 3, 4, 5, 8, 32] {
            let bits = 2 * blocks as u64;
            let mut rng = SplitMix(blocks as u64);
            let values: Vec<Vec<u128>> = [mask(2 * blocks), rng.value(64), rng.value(64)]
                .iter()
                .map(|&v| vec![v])
                .collect();
            let mut list: Vec<u64> = amounts(bits, u128::MAX, &mut rng)
                .into_iter()
                .map(|a| a as u64)
                .collect();
            list.push(u64::MAX);
            for op in OPS {
                for &amount in &list {
                    let stats = check_with(
                        2,
                        &[blocks],
                        &values,
                        blocks,
                        &|c, x| shift(c, op, &x[0], amount),
                        &|v| op.apply(v[0], amount, bits as u32),
                    );
                    let k = amount % bits;
                    // One table per output block that receives bits, when k is odd.
                    let receiving = match op {
                        _ if k % 2 == 0 => 0,
                        ShiftOp::Shl | ShiftOp::Shr => blocks - (k / 2) as usize,
                        ShiftOp::RotateLeft | ShiftOp::RotateRight => blocks,
                    };
                    assert_eq!(stats.bootstraps, receiving, "{op:?} {amount} on {blocks}");
                    assert_eq!(stats.depth, (receiving > 0) as usize);
                }
            }
        }
    }

    #[test]
    fn encrypted_shifts_for_every_length_and_amount() {
        for blocks in [1usize, 2, 3, 4, 5, 8] {
            let bits = 2 * blocks as u64;
            let mut rng = SplitMix(100 + blocks as u64);
            let widths: &[usize] = if blocks < 8 { &[1, 2] } else { &[3] };
            for &width in widths {
                let limit = 1u128 << (2 * width);
                let values = [mask(2 * blocks), rng.value(64)];
                let cases: Vec<Vec<u128>> = amounts(bits, limit, &mut rng)
                    .into_iter()
                    .flat_map(|a| values.iter().map(move |&v| vec![v, a]))
                    .collect();
                for op in OPS {
                    check_with(
                        2,
                        &[blocks, width],
                        &cases,
                        blocks,
                        &|c, x| shift_encrypted(c, op, &x[0], &x[1]),
                        &|v| op.apply(v[0], v[1] as u64, bits as u32),
                    );
                }
            }
        }
    }

    #[test]
    fn encrypted_shift_costs() {
        // (blocks, amount blocks, [bootstraps, depth] for Shl, Shr, RotateLeft, RotateRight)
        let expected = [
            (1, 1, [(1, 1), (1, 1), (1, 1), (1, 1)]),
            (2, 2, [(4, 2), (4, 2), (6, 2), (6, 2)]),
            (4, 1, [(12, 2), (12, 2), (16, 2), (16, 2)]),
            (4, 4, [(17, 3), (19, 4), (25, 3), (25, 4)]),
            (8, 8, [(49, 4), (51, 5), (65, 4), (65, 5)]),
            (32, 32, [(322, 6), (324, 7), (386, 6), (386, 7)]),
            // Not a power of two: the amount is reduced modulo 6 or 10 first.
            (3, 2, [(23, 8), (24, 9), (31, 8), (31, 9)]),
            (5, 2, [(42, 9), (44, 10), (57, 9), (57, 10)]),
        ];
        for (blocks, width, costs) in expected {
            for (op, cost) in OPS.into_iter().zip(costs) {
                let stats = check_with(
                    2,
                    &[blocks, width],
                    &[],
                    blocks,
                    &|c, x| shift_encrypted(c, op, &x[0], &x[1]),
                    &|_| 0,
                );
                assert_eq!(
                    (stats.bootstraps, stats.depth),
                    cost,
                    "{op:?} on {blocks} blocks by {width} blocks"
                );
            }
        }
    }

    #[test]
    fn u64_encrypted_shifts() {
        let mut rng = SplitMix(64);
        let cases: Vec<Vec<u128>> = [0, 1, 63, 64, 65, rng.value(64)]
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                vec![
                    if i == 0 {
                        u64::MAX as u128
                    } else {
                        rng.value(64)
                    },
                    a,
                ]
            })
            .collect();
        for op in [ShiftOp::Shl, ShiftOp::RotateRight] {
            check_with(
                2,
                &[32, 32],
                &cases,
                32,
                &|c, x| shift_encrypted(c, op, &x[0], &x[1]),
                &|v| op.apply(v[0], v[1] as u64, 64),
            );
        }
    }

    #[test]
    fn shifts_of_nothing_and_by_nothing() {
        let (mut c, x) = circuit_with_inputs(1, &[3]);
        let x = x[0].clone();
        for op in OPS {
            assert!(shift(&mut c, op, &[], 5).expect("empty").is_empty());
            assert!(shift_encrypted(&mut c, op, &[], &x)
                .expect("empty")
                .is_empty());
            assert_eq!(shift_encrypted(&mut c, op, &x, &[]).expect("by 0"), x);
        }
        let dirty = c.add(x[0], x[1]).expect("sum");
        assert!(shift(&mut c, ShiftOp::Shl, &[dirty], 1).is_err());
        assert!(shift_encrypted(&mut c, ShiftOp::Shl, &x, &[dirty]).is_err());
    }
}
