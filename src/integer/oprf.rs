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

/// A value in `[0, bound)` on `out_blocks` blocks: `floor(r * bound / 2^bits)` for
/// `r` of `bits` uniform bits (one seed block per `bits / block_bits` rounded up),
/// whose distance to uniform is at most `(2^bits mod bound) (bound - 2^bits mod
/// bound) / (2^bits bound)` (see [`random_bits_for_distance`]). Costs the bootstraps
/// of [`oblivious_random`] and of a scalar multiplication by `bound` on the blocks of
/// `bits + 64` bits. `Err` if `bound` is 0 or needs more than `out_blocks` blocks, or
/// `bits` is not a whole number of blocks.
pub fn oblivious_random_below(
    c: &mut Circuit,
    seeds: &[Wire],
    bits: u32,
    bound: u64,
    out_blocks: usize,
) -> Result<Radix> {
    let block_bits = c.message_modulus().trailing_zeros();
    let bound_bits = u64::BITS - bound.leading_zeros();
    if bound == 0 || bound_bits.div_ceil(block_bits) as usize > out_blocks {
        return Err(Error::InvalidParameter(format!(
            "values below {bound} do not fit in {out_blocks} blocks of {block_bits} bits"
        )));
    }
    if bits % block_bits != 0 || (bits / block_bits) as usize > seeds.len() {
        return Err(Error::InvalidParameter(format!(
            "{bits} random bits are not a whole number of the {} blocks of {block_bits} bits",
            seeds.len()
        )));
    }
    let random_blocks = (bits / block_bits) as usize;
    let mut wide = oblivious_random(c, &seeds[..random_blocks], bits)?;
    // r * bound < 2^(bits + bound_bits): the product's blocks above `bits` hold it.
    let high_blocks = bound_bits.div_ceil(block_bits) as usize;
    for _ in 0..high_blocks {
        wide.push(c.constant(0)?);
    }
    let product = super::scalar_mul(c, &wide, bound)?;
    let mut out = product[random_blocks..].to_vec();
    while out.len() < out_blocks {
        out.push(c.constant(0)?);
    }
    out.truncate(out_blocks);
    Ok(out)
}

/// The fewest random bits, a whole number of blocks of `block_bits` bits, for which
/// [`oblivious_random_below`]'s distance to the uniform distribution on `[0, bound)`
/// is below `max_distance` (TFHE-rs's rule); `None` if no count up to 2048 bits
/// reaches it (`max_distance` not in `(0, 1)`, or too small).
pub fn random_bits_for_distance(bound: u64, max_distance: f64, block_bits: u32) -> Option<u32> {
    if !(max_distance > 0.0 && max_distance < 1.0) || bound == 0 || block_bits == 0 {
        return None;
    }
    (1..=2048 / block_bits)
        .map(|b| b * block_bits)
        .find(|&bits| {
            // 2^bits mod bound, by repeated doubling.
            let rest = (0..bits).fold(1u128 % u128::from(bound), |r, _| {
                (r * 2) % u128::from(bound)
            });
            let distance = rest as f64 * (bound as f64 - rest as f64)
                / (2f64.powi(bits as i32) * bound as f64);
            distance < max_distance
        })
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
    fn values_below_a_bound_cover_it_about_evenly() {
        let (ck, backend) = test_backend();
        let params = *backend.parameters();
        // 10 random bits (5 blocks) scaled to [0, 5): 2^10 mod 5 = 4, a distance of
        // 4 * 1 / (2^10 * 5) < 1e-3 (8 bits give 2.3e-3).
        assert_eq!(random_bits_for_distance(5, 1e-3, 2), Some(10));
        let samples = 80;
        let mut c = Circuit::new(params).with_parallelism(backend.parallelism());
        let mut inputs = Vec::new();
        for s in 0..samples {
            let wires = c.add_input(&[seed_block_info(&params); 5]).unwrap();
            let out = oblivious_random_below(&mut c, &wires, 10, 5, 2).unwrap();
            c.add_output(&out);
            inputs.push(oprf_seed_blocks(&params, 1000 + s as u128, 5));
        }
        let refs: Vec<&Vec<_>> = inputs.iter().collect();
        let outputs = execute(backend, &c, &refs).unwrap();
        let mut counts = [0usize; 5];
        for out in &outputs {
            let v = decrypt_radix(ck, out).unwrap().low_u128() as usize;
            assert!(v < 5, "{v}");
            counts[v] += 1;
        }
        // 80 samples over 5 values: each about 16; 3 or fewer with probability ~1e-5.
        assert!(counts.iter().all(|&n| n >= 4), "{counts:?}");
        let (mut c, x) = circuit_with_inputs(2, &[4]);
        assert!(oblivious_random_below(&mut c, &x[0], 8, 0, 2).is_err());
        assert!(oblivious_random_below(&mut c, &x[0], 8, 17, 2).is_err()); // 5 bits
        assert!(oblivious_random_below(&mut c, &x[0], 7, 5, 2).is_err());
        assert!(random_bits_for_distance(5, 0.0, 2).is_none());
        assert_eq!(
            random_bits_for_distance(6, 2f64.powi(-128), 2).unwrap() % 2,
            0
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
