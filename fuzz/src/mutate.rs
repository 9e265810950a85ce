//! Deterministic mutations of a corpus entry, for the stable replay runner: the
//! classes a hostile sender tries (length and dimension fields set to extremes,
//! truncations, bit flips, byte insertions and deletions), each bounded, the same
//! on every run.

/// The values a `u64` field is set to.
pub const EXTREMES: [u64; 5] = [u64::MAX, 1 << 62, 1 << 32, 1 << 14, 0];

/// How many mutations of an entry to make.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// At most this many `u64` fields (offsets holding a value below 2^32: lengths,
    /// dimensions, moduli, degrees) are each set to every one of [`EXTREMES`].
    pub fields: usize,
    /// Pseudo-random mutations (flips, insertions, deletions, truncations, `u64`
    /// and byte overwrites), from a generator seeded by the entry.
    pub random: usize,
}

/// One change to an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// The entry as it is.
    Original,
    /// The `u64` at `at` (little endian, cut at the end) set to `value`.
    SetU64 { at: usize, value: u64 },
    /// Only the first `len` bytes.
    Truncate { len: usize },
    /// Bit `bit` of byte `at` flipped.
    FlipBit { at: usize, bit: u8 },
    /// `byte` inserted before byte `at`.
    Insert { at: usize, byte: u8 },
    /// `len` bytes removed from `at`.
    Delete { at: usize, len: usize },
    /// Byte `at` set to `byte`.
    SetByte { at: usize, byte: u8 },
}

impl Mutation {
    /// `input` changed by this mutation.
    pub fn apply(self, input: &[u8]) -> Vec<u8> {
        let mut out = input.to_vec();
        match self {
            Mutation::Original => {}
            Mutation::SetU64 { at, value } => {
                let end = (at + 8).min(out.len());
                out[at..end].copy_from_slice(&value.to_le_bytes()[..end - at]);
            }
            Mutation::Truncate { len } => out.truncate(len),
            Mutation::FlipBit { at, bit } => out[at] ^= 1 << bit,
            Mutation::Insert { at, byte } => out.insert(at, byte),
            Mutation::Delete { at, len } => {
                out.drain(at..(at + len).min(input.len()));
            }
            Mutation::SetByte { at, byte } => out[at] = byte,
        }
        out
    }
}

/// xorshift64*: the same mutations on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Below `n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    /// A position in `0..len`, half of the time among the first 256 bytes, where
    /// headers and lengths are.
    fn position(&mut self, len: usize) -> usize {
        if self.next() & 1 == 0 {
            self.below(len.min(256))
        } else {
            self.below(len)
        }
    }
}

/// FNV-1a of `bytes`: the seed of an entry's mutations.
pub fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The offsets of `input` that hold a `u64` below 2^32, at most `max` of them,
/// spread over the input.
fn field_offsets(input: &[u8], max: usize) -> Vec<usize> {
    let small: Vec<usize> = (0..input.len().saturating_sub(7))
        .filter(|&at| u64::from_le_bytes(input[at..at + 8].try_into().unwrap()) < 1 << 32)
        .collect();
    if small.len() <= max {
        return small;
    }
    (0..max).map(|i| small[i * small.len() / max]).collect()
}

/// Every mutation of `input` the budget allows, the original first.
pub fn plan(input: &[u8], budget: Budget) -> Vec<Mutation> {
    let len = input.len();
    let mut out = vec![Mutation::Original];
    for at in field_offsets(input, budget.fields) {
        out.extend(EXTREMES.map(|value| Mutation::SetU64 { at, value }));
    }
    let header = crate::tfhe_rs::named_header_len(input)
        .or_else(|| crate::header_len(input))
        .unwrap_or(0);
    let mut cuts = vec![0, 1, 12, 13, header, header + 4, header + 12, len / 2];
    cuts.push(len.saturating_sub(1));
    cuts.retain(|&c| c < len);
    cuts.dedup();
    out.extend(cuts.into_iter().map(|len| Mutation::Truncate { len }));
    let mut rng = Rng(fingerprint(input) | 1);
    for i in 0..budget.random {
        let at = rng.position(len);
        let byte = rng.next() as u8;
        let m = match (i % 6, len) {
            (1, _) => Mutation::Insert { at, byte },
            (_, 0) => continue,
            (0, _) => Mutation::FlipBit { at, bit: byte % 8 },
            (2, _) => Mutation::Delete {
                at,
                len: 1 + byte as usize % 8,
            },
            (3, _) => Mutation::Truncate {
                len: rng.below(len),
            },
            (4, _) => Mutation::SetU64 {
                at,
                value: EXTREMES[rng.below(EXTREMES.len())],
            },
            _ => Mutation::SetByte { at, byte },
        };
        out.push(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_are_deterministic_and_apply_within_bounds() {
        let input: Vec<u8> = (0..300u32).map(|i| (i * 7) as u8).collect();
        let budget = Budget {
            fields: 10,
            random: 60,
        };
        let plan = plan(&input, budget);
        assert_eq!(plan, super::plan(&input, budget));
        assert_eq!(plan[0], Mutation::Original);
        for m in &plan {
            let _ = m.apply(&input);
        }
        assert!(plan.len() > 60);
        assert_eq!(super::plan(&[], budget)[0], Mutation::Original);
        for m in super::plan(&[], budget) {
            assert!(m.apply(&[]).len() <= 1);
        }
    }
}
