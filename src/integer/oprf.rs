//! Oblivious pseudo-random integers: encrypted values that the server computes from
//! a public seed and that nobody, the server included, knows without the client key.
//!
//! Each block starts from a **seed block**: an LWE ciphertext under the big key whose
//! mask is drawn from the seed (ChaCha20, the same bits on every machine) and whose
//! body is 0. Its phase `-<a, s>` is uniform on the whole torus, padding bit
//! included, and unknown without `s`. A bootstrap reads it as a cell `c` in
//! `[0, total)` (uniform) and a sign (the padding bit, uniform and independent), and
//! the negacyclic rotation returns `f(c)` for one sign and `-f(c)` for the other. With
//! `f(c) = 2 (c mod 2^(r-1)) + 1` the output is one of the `2^r` odd values
//! `±1, ±3, ..., ±(2^r - 1)`, equally likely; adding `2^r - 1` gives `2 u` with `u`
//! uniform in `[0, 2^r)`, and a second table halves it into a clean block of `r`
//! uniform bits. **2 bootstraps per block, in 2 layers**, all blocks at once.
//!
//! The same seed gives the same encrypted value (as in TFHE-rs); a fresh seed per
//! value gives independent values.

use super::Radix;
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};

/// Uniform `bits`-bit integers (`bits` at most the width of `seeds`), one block per
/// seed block, the blocks above `bits` zero; see the module docs. Each seed block
/// must be an input of the bookkeeping of [`seed_block_info`](crate::shortint::seed_block_info).
pub fn oblivious_random(c: &mut Circuit, seeds: &[Wire], bits: u32) -> Result<Radix> {
    let m = c.message_modulus();
    let block_bits = m.trailing_zeros();
    let total = c.parameters().total_modulus();
    if bits as usize > seeds.len() * block_bits as usize {
        return Err(Error::InvalidParameter(format!(
            "{bits} random bits do not fit in {} blocks of {block_bits} bits",
            seeds.len()
        )));
    }
    // 2 u reaches 2^(r + 1) - 2, which must stay inside the block.
    if (2 * m).saturating_sub(2) >= total {
        return Err(Error::InvalidParameter(format!(
            "oblivious random blocks need a carry space: message modulus {m}, total {total}"
        )));
    }
    let mut left = bits;
    seeds
        .iter()
        .map(|&seed| {
            let r = left.min(block_bits);
            left -= r;
            if r == 0 {
                return c.constant(0);
            }
            let half = 1u64 << (r - 1);
            let odd = c.table(seed, move |cell| 2 * (cell % half) + 1)?;
            let doubled = c.linear(&[(odd, 1)], (1 << r) - 1)?;
            c.table(doubled, |v| v / 2)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Backend;
    use crate::integer::tests::{circuit_with_inputs, test_backend};
    use crate::integer::{decrypt_radix, execute};
    use crate::shortint::{oprf_seed_blocks, seed_block_info};

    #[test]
    fn every_value_is_reached_about_equally_often() {
        let (ck, backend) = test_backend();
        let params = *backend.parameters();
        // 1024 values of 2 blocks (4 bits): each of the 16 values about 64 times.
        let samples = 1024;
        let mut c = Circuit::new(params).with_parallelism(backend.parallelism());
        let mut inputs = Vec::new();
        for s in 0..samples {
            let blocks = oprf_seed_blocks(&params, s as u128, 2);
            let wires = c.add_input(&[seed_block_info(&params); 2]).unwrap();
            let out = oblivious_random(&mut c, &wires, 4).unwrap();
            c.add_output(&out);
            inputs.push(blocks);
        }
        assert_eq!(c.stats().depth, 2);
        let refs: Vec<&Vec<_>> = inputs.iter().collect();
        let outputs = execute(backend, &c, &refs).unwrap();
        let mut counts = [0usize; 16];
        for out in &outputs {
            counts[decrypt_radix(ck, out).unwrap().low_u128() as usize] += 1;
        }
        // Chi-square with 15 degrees of freedom: above 60 with probability 2.5e-7. The
        // key is fresh in every run, so a 0.1 % threshold (37.7) failed one run in a
        // thousand on uniform values; a bias of 1.5x on one value still adds ~16.
        let expected = samples as f64 / 16.0;
        let chi2: f64 = counts
            .iter()
            .map(|&n| (n as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 60.0, "counts {counts:?}, chi2 {chi2}");
        // The same seed, the same value.
        let again = {
            let mut c = Circuit::new(params);
            let w = c.add_input(&[seed_block_info(&params); 2]).unwrap();
            let out = oblivious_random(&mut c, &w, 4).unwrap();
            c.add_output(&out);
            execute(backend, &c, &[&inputs[7]]).unwrap()
        };
        assert_eq!(
            decrypt_radix(ck, &again[0]).unwrap(),
            decrypt_radix(ck, &outputs[7]).unwrap()
        );
    }

    #[test]
    fn bounded_widths_and_costs() {
        let (mut c, x) = circuit_with_inputs(2, &[4]);
        let out = oblivious_random(&mut c, &x[0], 5).unwrap();
        c.add_output(&out);
        // Blocks of 2, 2 and 1 bits, and a zero block: 2 bootstraps each but the last.
        assert_eq!(c.stats().bootstraps, 6);
        assert_eq!(c.known_value(out[3]), Some(0));
        assert!(oblivious_random(&mut c, &x[0], 9).is_err());
    }
}
