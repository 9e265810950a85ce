//! Equality of radix integers: per-block comparisons, then a tree of sums and
//! bootstraps that folds up to `max_noise_level` flags per bootstrap. `FheUint64`
//! equality costs 32 + 7 + 2 + 1 = 42 bootstraps in 4 layers.

use super::{check_radix, check_same_length};
use crate::error::Result;
use crate::integer::circuit::{Circuit, Wire};

/// `lhs == rhs` as one block holding 0 or 1.
pub fn eq(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<Wire> {
    equality(c, lhs, rhs, true)
}

/// `lhs != rhs` as one block holding 0 or 1.
pub fn ne(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire]) -> Result<Wire> {
    equality(c, lhs, rhs, false)
}

fn equality(c: &mut Circuit, lhs: &[Wire], rhs: &[Wire], want_equal: bool) -> Result<Wire> {
    check_same_length(lhs, rhs)?;
    check_radix(c, lhs)?;
    check_radix(c, rhs)?;
    if lhs.is_empty() {
        return c.constant(want_equal as u64);
    }
    // A flag per block: 1 where the blocks are equal (the answer itself if single).
    let single = lhs.len() == 1;
    let flags = lhs
        .iter()
        .zip(rhs)
        .map(|(&a, &b)| {
            c.bivariate(a, b, move |x, y| {
                ((x == y) == (want_equal || !single)) as u64
            })
        })
        .collect::<Result<Vec<_>>>()?;
    if single {
        return Ok(flags[0]);
    }
    all_ones(c, flags, want_equal)
}

/// Whether every flag (a block holding 0 or 1) is 1 (or, with `want = false`, whether
/// one is 0): sums of up to `max_noise_level` flags, each through one bootstrap,
/// until one block remains.
pub(crate) fn all_ones(c: &mut Circuit, mut flags: Vec<Wire>, want: bool) -> Result<Wire> {
    let params = *c.parameters();
    let group = params
        .max_noise_level
        .min(params.total_modulus() - 1)
        .max(2) as usize;
    loop {
        let last = flags.len() <= group;
        let folded = flags
            .chunks(group)
            .map(|members| {
                let terms: Vec<(Wire, i64)> = members.iter().map(|&w| (w, 1)).collect();
                let size = members.len() as u64;
                let sum = c.linear(&terms, 0)?;
                c.table(sum, move |x| ((x == size) == (want || !last)) as u64)
            })
            .collect::<Result<Vec<_>>>()?;
        if last {
            return Ok(folded[0]);
        }
        flags = folded;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::tests::{check_predicate, test_backend};

    #[test]
    fn equality_for_every_length_and_edge_values() {
        let (ck, backend) = test_backend();
        for blocks in [1usize, 2, 5, 6, 11] {
            let max = 1u128 << (2 * blocks);
            let pairs = [
                (0, 0),
                (1, 0),
                (max - 1, max - 1),
                (max - 1, max - 2),
                (max / 3, max / 3),
            ];
            check_predicate(ck, backend, blocks, &pairs, eq, |a, b| a == b);
            check_predicate(ck, backend, blocks, &pairs, ne, |a, b| a != b);
        }
    }
}
