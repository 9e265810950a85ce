//! Equality of radix integers: per-block comparisons, then a tree of sums and
//! bootstraps that folds up to `max_noise_level` flags per bootstrap. `FheUint64`
//! equality costs 32 + 7 + 2 + 1 = 42 bootstraps in 4 steps.

use crate::backend::{Backend, BlockExpr, Step, Term};
use crate::error::{check_eq, Result};
use crate::shortint::{BivariateLookupTable, LookupTable};

/// `lhs == rhs` as one block holding 0 or 1.
pub fn eq<B: Backend>(backend: &B, lhs: &B::Blocks, rhs: &B::Blocks) -> Result<B::Blocks> {
    equality(backend, lhs, rhs, true)
}

/// `lhs != rhs` as one block holding 0 or 1.
pub fn ne<B: Backend>(backend: &B, lhs: &B::Blocks, rhs: &B::Blocks) -> Result<B::Blocks> {
    equality(backend, lhs, rhs, false)
}

fn equality<B: Backend>(
    backend: &B,
    lhs: &B::Blocks,
    rhs: &B::Blocks,
    want_equal: bool,
) -> Result<B::Blocks> {
    let n = backend.block_count(lhs);
    check_eq(
        "number of blocks of the right operand",
        n,
        backend.block_count(rhs),
    )?;
    let params = backend.parameters();
    let m = params.message_modulus;
    super::bitwise::check_clean(backend, lhs, m)?;
    super::bitwise::check_clean(backend, rhs, m)?;
    // Step 1: a flag per block, "equal" (or the final answer when there is one block).
    let first_is_last = n == 1;
    let block_eq = BivariateLookupTable::new(params, move |a, b| {
        ((a == b) == (want_equal || !first_is_last)) as u64
    })?;
    let inputs = backend.concat(&[lhs, rhs])?;
    let exprs = (0..n)
        .map(|i| BlockExpr::bivariate(i, n + i, m as i64, 0))
        .collect();
    let mut flags = backend.eval(
        &inputs,
        &Step {
            exprs,
            luts: vec![block_eq.as_univariate()],
        },
    )?;
    // Then fold `group` flags per bootstrap: all equal iff their sum is the group size.
    let group = params
        .max_noise_level
        .min(params.total_modulus() - 1)
        .max(2) as usize;
    let mut count = n;
    while count > 1 {
        let groups = count.div_ceil(group);
        let last = groups == 1;
        let tables: Vec<LookupTable> = (0..=group as u64)
            .map(|size| {
                LookupTable::new(params, move |x| {
                    ((x == size) == (want_equal || !last)) as u64
                })
            })
            .collect::<Result<_>>()?;
        let exprs = (0..groups)
            .map(|g| {
                let members = g * group..((g + 1) * group).min(count);
                let size = members.len();
                BlockExpr {
                    terms: members.map(|block| Term { block, scalar: 1 }).collect(),
                    constant: 0,
                    lut: Some(size),
                }
            })
            .collect();
        flags = backend.eval(
            &flags,
            &Step {
                exprs,
                luts: tables.iter().collect(),
            },
        )?;
        count = groups;
    }
    Ok(flags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu::CpuBackend;
    use crate::integer::encrypt_radix;
    use crate::shortint::{ClientKey, ServerKey, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2};

    #[test]
    fn equality_for_every_length_and_many_values() {
        let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
        let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
        for blocks in [1usize, 2, 5, 6, 11] {
            let max = 1u128 << (2 * blocks);
            for (a, b) in [
                (0, 0),
                (1, 0),
                (max - 1, max - 1),
                (max - 1, max - 2),
                (max / 3, max / 3),
            ] {
                let ca = encrypt_radix(&ck, a, blocks).unwrap();
                let cb = encrypt_radix(&ck, b, blocks).unwrap();
                let e = eq(&backend, &ca, &cb).unwrap();
                let d = ne(&backend, &ca, &cb).unwrap();
                assert_eq!(e.len(), 1);
                assert_eq!(
                    ck.decrypt(&e[0]).unwrap(),
                    (a == b) as u64,
                    "{blocks} blocks: {a} == {b}"
                );
                assert_eq!(
                    ck.decrypt(&d[0]).unwrap(),
                    (a != b) as u64,
                    "{blocks} blocks: {a} != {b}"
                );
                assert_eq!(e[0].degree(), 1);
            }
        }
    }
}
