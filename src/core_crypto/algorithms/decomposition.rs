//! Signed (balanced) gadget decomposition in base `B = 2^base_log`.
//!
//! A value `x` modulo 2^64 is first rounded to its `level * base_log` most
//! significant bits, then written as `sum_j d_j * 2^(64 - j * base_log)` with digits
//! `d_j` in `[-B/2, B/2]`. A digit equal to `B/2` is kept only when the next bit is
//! 0, so digits have mean zero and variance `(B^2 + 2) / 12` on uniform inputs.

use crate::core_crypto::commons::{DecompositionBaseLog, DecompositionLevelCount};

/// The rounding and digit extraction of one gadget decomposition.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SignedDecomposer {
    base_log: usize,
    level: usize,
}

impl SignedDecomposer {
    pub(crate) fn new(base_log: DecompositionBaseLog, level: DecompositionLevelCount) -> Self {
        debug_assert!(base_log.0 * level.0 <= 64 && (1..64).contains(&base_log.0) && level.0 > 0);
        Self {
            base_log: base_log.0,
            level: level.0,
        }
    }

    /// `x` rounded to the closest multiple of `2^(64 - level * base_log)`, shifted
    /// down: the value the digits represent.
    #[inline(always)]
    pub(crate) fn closest_representable_shifted(&self, x: u64) -> u64 {
        let kept = self.base_log * self.level;
        if kept == 64 {
            return x;
        }
        let shift = 64 - kept;
        (x >> shift).wrapping_add((x >> (shift - 1)) & 1) & (u64::MAX >> shift)
    }

    /// Writes the digits of `x` to `digits[0..level]`, most significant level first
    /// (level 1 first), each as a two's complement `u64`.
    #[inline(always)]
    pub(crate) fn decompose_into(&self, x: u64, digits: &mut [u64]) {
        let mut state = self.closest_representable_shifted(x);
        let mask = (1u64 << self.base_log) - 1;
        let half = 1u64 << (self.base_log - 1);
        for d in digits[..self.level].iter_mut().rev() {
            let raw = state & mask;
            state >>= self.base_log;
            // Carry when raw > B/2, or raw == B/2 and the next bit is 1.
            let carry = ((raw > half) | ((raw == half) & (state & 1 == 1))) as u64;
            state += carry;
            *d = raw.wrapping_sub(carry << self.base_log);
        }
    }

    /// `log2` of the base.
    #[inline(always)]
    pub(crate) fn base_log(&self) -> usize {
        self.base_log
    }

    /// The single digit of a level-1 decomposition (the hot path of the bootstrap).
    #[inline(always)]
    pub(crate) fn decompose_level1(&self, x: u64) -> u64 {
        let raw = self.closest_representable_shifted(x);
        let half = 1u64 << (self.base_log - 1);
        // Bits above base_log are always zero here, so the "next bit" of the tie rule
        // is zero: a digit equal to B/2 stays.
        let carry = (raw > half) as u64;
        raw.wrapping_sub(carry << self.base_log)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_recompose_to_the_rounded_value() {
        for (base_log, level) in [(4usize, 4usize), (23, 1), (3, 5), (8, 8), (1, 10)] {
            let dec = SignedDecomposer::new(
                DecompositionBaseLog(base_log),
                DecompositionLevelCount(level),
            );
            let mut digits = vec![0u64; level];
            let mut x = 0x0123_4567_89ab_cdefu64;
            for _ in 0..2000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                dec.decompose_into(x, &mut digits);
                let mut recomposed = 0u64;
                for (j, d) in digits.iter().enumerate() {
                    let d = *d as i64;
                    assert!(
                        d.unsigned_abs() <= 1 << (base_log - 1),
                        "digit {d} for B=2^{base_log}"
                    );
                    recomposed = recomposed
                        .wrapping_add((d as u64).wrapping_shl((64 - (j + 1) * base_log) as u32));
                }
                let kept = base_log * level;
                let err = recomposed.wrapping_sub(x) as i64;
                // Half of the dropped part at most (nothing is dropped at 64 bits).
                let bound = (1u64 << (64 - kept)) >> 1;
                assert!(err.unsigned_abs() <= bound, "rounding error {err}");
                if level == 1 {
                    assert_eq!(dec.decompose_level1(x), digits[0]);
                }
            }
        }
    }
}
