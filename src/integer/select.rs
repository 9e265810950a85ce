//! Selection between two integers by an encrypted condition.
//!
//! Block by block, with `c` the condition (0 or 1), `a` the block of `if_true`, `b` the
//! block of `if_false` and `m` the message modulus:
//! - `a` and `b` the same block, or `c` known: no bootstrap;
//! - both clear: nothing if the digits are equal, `b + c` or `b - c` if they differ by
//!   one, else one table of `c`;
//! - one clear digit `k`: one table of `2 x + c` (`c ? x : k`);
//! - both encrypted: `g = table(2 (a - b + m - 1) + c)`, which is `a - b + m - 1` when
//!   `c = 1` and `m - 1` when `c = 0` (noise 2 + 2 + 1, value at most 13), then
//!   `table(b + g) = b + g - (m - 1)`: **2 bootstraps per block in 2 layers**, clean.
//!   The usual way (zero out each side with a bivariate table, add, clean up) needs 3
//!   in the same 2 layers.
//!
//! An 8-bit select costs 8 bootstraps at depth 2, a 64-bit one 64 at depth 2.

use super::{check_radix, check_same_length, Radix};
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};

/// `if cond { if_true } else { if_false }`, where `cond` is a block holding 0 or 1
/// (degree at most 1, noise level at most 1) and the operands are clean and of equal
/// length. The result is clean. See the module docs for the costs.
///
/// ```
/// use gpufhe::backend::{cpu::CpuBackend, Backend};
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, select};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let bit = vec![ck.encrypt(3).unwrap()];
/// let a = encrypt_radix(&ck, 0xabu128, 4).unwrap();
/// let b = encrypt_radix(&ck, 0x12u128, 4).unwrap();
/// let out = run(&backend, &[&bit, &a, &b], |c, x| {
///     // A fresh block has degree 3: a table makes a 0/1 condition (1 bootstrap).
///     let cond = c.table(x[0][0], |v| v & 1)?;
///     Ok(vec![select(c, cond, &x[1], &x[2])?])
/// })
/// .unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 0xab);
/// assert_eq!(backend.pbs_count(), 1 + 8);
/// ```
pub fn select(c: &mut Circuit, cond: Wire, if_true: &[Wire], if_false: &[Wire]) -> Result<Radix> {
    check_same_length(if_true, if_false)?;
    check_radix(c, if_true)?;
    check_radix(c, if_false)?;
    let info = c.info(cond);
    if info.degree > 1 || info.noise_level > 1 {
        return Err(Error::CapacityExceeded(format!(
            "a selection condition must hold 0 or 1 with noise level at most 1, not degree {} \
             and noise level {}",
            info.degree, info.noise_level
        )));
    }
    if let Some(v) = c.known_value(cond) {
        return Ok(if v == 1 { if_true } else { if_false }.to_vec());
    }
    if_true
        .iter()
        .zip(if_false)
        .map(|(&a, &b)| select_block(c, cond, a, b))
        .collect()
}

/// `cond ? a : b` for one block (see the module docs).
fn select_block(c: &mut Circuit, cond: Wire, a: Wire, b: Wire) -> Result<Wire> {
    if a == b {
        return Ok(a);
    }
    let top = c.message_modulus() - 1;
    match (c.known_value(a), c.known_value(b)) {
        (Some(ka), Some(kb)) if ka == kb => c.constant(ka),
        (Some(ka), Some(kb)) if ka == kb + 1 => c.linear(&[(cond, 1)], kb),
        (Some(ka), Some(kb)) if kb == ka + 1 => c.linear(&[(cond, -1)], kb),
        (Some(ka), Some(kb)) => c.table(cond, move |v| if v == 1 { ka } else { kb }),
        (None, Some(kb)) => {
            let packed = c.linear(&[(a, 2), (cond, 1)], 0)?;
            c.table(
                packed,
                move |v| if v % 2 == 1 { (v / 2).min(top) } else { kb },
            )
        }
        (Some(ka), None) => {
            let packed = c.linear(&[(b, 2), (cond, 1)], 0)?;
            c.table(
                packed,
                move |v| if v % 2 == 1 { ka } else { (v / 2).min(top) },
            )
        }
        (None, None) => {
            // g = cond ? a - b + top : top, so that b + g = top + (cond ? a : b).
            let packed = c.linear(&[(a, 2), (b, -2), (cond, 1)], 2 * top)?;
            let g = c.table(packed, move |v| if v % 2 == 1 { v / 2 } else { top })?;
            let sum = c.add(b, g)?;
            c.table(sum, move |v| v.saturating_sub(top).min(top))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::tests::{check_with, mask, SplitMix};

    #[test]
    fn select_every_block_kind_and_length() {
        for blocks in [1usize, 2, 3, 5, 8] {
            let max = mask(2 * blocks);
            let mut rng = SplitMix(blocks as u64);
            let mut cases = Vec::new();
            for cond in [0, 1] {
                for (a, b) in [
                    (0, max),
                    (max, 0),
                    (max, max),
                    (rng.value(64), rng.value(64)),
                ] {
                    cases.push(vec![cond, a, b]);
                }
            }
            let stats = check_with(
                2,
                &[1, blocks, blocks],
                &cases,
                blocks,
                &|c, x| {
                    let cond = c.table(x[0][0], |v| v & 1)?;
                    select(c, cond, &x[1], &x[2])
                },
                &|v| if v[0] == 1 { v[1] } else { v[2] },
            );
            // One bootstrap makes the condition; then 2 per block in 2 layers.
            assert_eq!((stats.bootstraps, stats.depth), (1 + 2 * blocks, 3));
            // Against clear blocks: digits 0..3 against 3, 2, 1, 0 (and equal ones).
            let clear = 0b00_01_10_11_00_01_10_11_00_01_10_11u128 & max;
            let stats = check_with(
                2,
                &[1, blocks],
                &cases.iter().map(|v| vec![v[0], v[1]]).collect::<Vec<_>>(),
                blocks,
                &|c, x| {
                    let k = crate::integer::clear_digits(clear, 4, blocks)
                        .into_iter()
                        .map(|d| c.constant(d))
                        .collect::<Result<Vec<_>>>()?;
                    let cond = c.table(x[0][0], |v| v & 1)?;
                    select(c, cond, &x[1], &k)
                },
                &|v| if v[0] == 1 { v[1] } else { clear },
            );
            assert_eq!((stats.bootstraps, stats.depth), (1 + blocks, 2));
        }
    }

    #[test]
    fn select_between_clear_digits_and_with_known_conditions() {
        // Digit pairs (3, 0) need a table of the condition, (2, 1) and (1, 2) none
        // (plus one bootstrap that makes the condition).
        let stats = check_with(
            2,
            &[1],
            &[vec![0], vec![1]],
            3,
            &|c, x| {
                let t = [3, 2, 1].map(|d| c.constant(d).expect("constant"));
                let f = [0, 1, 2].map(|d| c.constant(d).expect("constant"));
                let cond = c.table(x[0][0], |v| v & 1)?;
                select(c, cond, &t, &f)
            },
            &|v| if v[0] == 1 { 0b01_10_11 } else { 0b10_01_00 },
        );
        assert_eq!(stats.bootstraps, 1 + 1);
        let stats = check_with(
            2,
            &[4, 4],
            &[vec![0x12, 0x34]],
            8,
            &|c, x| {
                let (one, zero) = (c.constant(1)?, c.constant(0)?);
                let mut out = select(c, one, &x[0], &x[1])?;
                out.extend(select(c, zero, &x[0], &x[1])?);
                Ok(out)
            },
            &|v| v[0] | v[1] << 8,
        );
        assert_eq!(stats.bootstraps, 0);
    }

    #[test]
    fn select_rejects_wide_conditions_and_unequal_lengths() {
        let (mut c, x) = crate::integer::tests::circuit_with_inputs(1, &[2]);
        let x = x[0].clone();
        assert!(select(&mut c, x[0], &x[..1], &x[1..]).is_err());
        let bit = c.table(x[0], |v| v & 1).expect("table");
        assert!(select(&mut c, bit, &x, &x[..1]).is_err());
        assert!(select(&mut c, bit, &x[..1], &x[1..]).is_ok());
    }
}
