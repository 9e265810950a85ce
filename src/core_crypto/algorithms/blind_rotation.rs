//! Blind rotation and programmable bootstrapping (PBS).
//!
//! The accumulator, a GLWE encryption of a lookup-table polynomial, is rotated by
//! `X^(-b')` and then, for each coefficient `a'_i` of the modulus-switched mask, by
//! `X^(a'_i s_i)` through a CMux on the GGSW encryption of `s_i`:
//! `ACC += GGSW(s_i) ⊡ (X^(a'_i) ACC - ACC)`. The external product `⊡` decomposes
//! each polynomial of its GLWE input, multiplies by the GGSW rows in the Fourier
//! domain and returns to integers once per output polynomial.

use super::decomposition::SignedDecomposer;
use super::modulus_switch::{
    modulus_switch_lwe_ciphertext, ModulusSwitchType, ModulusSwitchedLweCiphertext,
};
use super::polynomial::{polynomial_rotate_left, polynomial_rotate_minus_self};
use super::sample_extraction::extract_lwe_sample_from_glwe_ciphertext;
use crate::core_crypto::entities::{FourierLweBootstrapKey, GlweCiphertext, LweCiphertext};
use crate::core_crypto::fft::fft_for;
use crate::error::{check_eq, Result};
use tfhe_fft::c64;

/// Blind-rotates `acc` by the phase of `switched` (modulo `2N`): afterwards its
/// constant coefficient encrypts the coefficient of index `b' - <a', s>` of the
/// original accumulator polynomial (negated past `N`).
pub fn blind_rotate_assign<C>(
    acc: &mut GlweCiphertext<C>,
    switched: &ModulusSwitchedLweCiphertext,
    bsk: &FourierLweBootstrapKey,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
{
    let shape = bsk.shape();
    check_eq(
        "polynomial size of the accumulator",
        shape.polynomial_size.0,
        acc.polynomial_size().0,
    )?;
    check_eq(
        "GLWE size of the accumulator",
        shape.glwe_dimension.0 + 1,
        acc.glwe_size().0,
    )?;
    check_eq(
        "LWE dimension of the switched input",
        shape.input_lwe_dimension.0,
        switched.mask.len(),
    )?;
    check_eq(
        "modulus of the switched input (log2, must be log2(2N))",
        shape.polynomial_size.log2() + 1,
        switched.log_modulus,
    )?;
    let n = shape.polynomial_size.0;
    let mut rotated = vec![0u64; n];
    for poly in acc.as_mut_slice().chunks_exact_mut(n) {
        polynomial_rotate_left(&mut rotated, poly, switched.body);
        poly.copy_from_slice(&rotated);
    }
    pulp::Arch::new().dispatch(CmuxChain {
        acc: acc.as_mut_slice(),
        mask: &switched.mask,
        bsk,
    });
    Ok(())
}

/// Programmable bootstrap: modulus switch of `input`, blind rotation of
/// `accumulator` and extraction of the constant coefficient into `output` (under the
/// GLWE key read as an LWE key). The noise of `output` is that of the bootstrap,
/// independent of the noise of `input`.
///
/// See [`crate::shortint`] for lookup tables that make this evaluate a function.
pub fn programmable_bootstrap_lwe_ciphertext<C, D, E>(
    input: &LweCiphertext<C>,
    output: &mut LweCiphertext<D>,
    accumulator: &GlweCiphertext<E>,
    bsk: &FourierLweBootstrapKey,
    modulus_switch: ModulusSwitchType,
) -> Result<()>
where
    C: AsRef<[u64]>,
    D: AsRef<[u64]> + AsMut<[u64]>,
    E: AsRef<[u64]>,
{
    let shape = bsk.shape();
    check_eq(
        "LWE dimension of the bootstrap input",
        shape.input_lwe_dimension.0,
        input.lwe_dimension().0,
    )?;
    output.check_size(
        "LWE size of the bootstrap output",
        shape.output_lwe_dimension().to_lwe_size(),
    )?;
    let switched =
        modulus_switch_lwe_ciphertext(input, shape.polynomial_size.log2() + 1, modulus_switch)?;
    let mut acc = GlweCiphertext::from_container(
        accumulator.as_slice().to_vec(),
        accumulator.polynomial_size(),
    )?;
    blind_rotate_assign(&mut acc, &switched, bsk)?;
    extract_lwe_sample_from_glwe_ciphertext(&acc, output, 0)
}

/// The CMux chain, compiled for the best SIMD level of the machine (AVX-512, AVX2,
/// or scalar) by pulp: everything it calls is inlined into that instantiation.
struct CmuxChain<'a> {
    acc: &'a mut [u64],
    mask: &'a [usize],
    bsk: &'a FourierLweBootstrapKey,
}

impl pulp::WithSimd for CmuxChain<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) {
        cmux_chain(simd, self.acc, self.mask, self.bsk)
    }
}

/// The CMux chain over every GGSW of the key; shapes are checked by the caller.
#[inline(always)]
fn cmux_chain<S: pulp::Simd>(
    simd: S,
    acc: &mut [u64],
    mask: &[usize],
    bsk: &FourierLweBootstrapKey,
) {
    let shape = bsk.shape();
    let n = shape.polynomial_size.0;
    let half = n / 2;
    let glwe_size = shape.glwe_dimension.0 + 1;
    let level = shape.level.0;
    let rows = glwe_size * level;
    let fft = fft_for(shape.polynomial_size);
    let mut scratch = fft.make_scratch();
    let decomposer = SignedDecomposer::new(shape.base_log, shape.level);
    let mut diff = vec![0u64; n];
    let mut digits = vec![0u64; level * n];
    let mut level_digits = vec![0u64; level];
    let mut fourier_in = vec![c64::default(); rows * half];
    let mut fourier_out = vec![c64::default(); glwe_size * half];

    for (i, &a) in mask.iter().enumerate() {
        if a == 0 {
            // X^0 ACC - ACC = 0: the CMux leaves ACC unchanged.
            continue;
        }
        for (c, poly) in acc.chunks_exact(n).enumerate() {
            if level == 1 {
                // Rotation, decomposition and folding in one pass.
                let out = &mut fourier_in[c * half..][..half];
                fold_rotated_level1_digits(out, poly, a, &decomposer);
                fft.twist_and_forward_simd(simd, out, &mut scratch);
                continue;
            }
            polynomial_rotate_minus_self(&mut diff, poly, a);
            for (t, x) in diff.iter().enumerate() {
                decomposer.decompose_into(*x, &mut level_digits);
                for (j, d) in level_digits.iter().enumerate() {
                    digits[j * n + t] = *d;
                }
            }
            for (j, d) in digits.chunks_exact(n).enumerate() {
                let out = &mut fourier_in[(c * level + j) * half..][..half];
                fft.forward_as_integer_simd(simd, out, d, &mut scratch);
            }
        }
        multiply_accumulate_ggsw(
            simd,
            &mut fourier_out,
            &fourier_in,
            bsk.ggsw(i),
            glwe_size,
            half,
        );
        for (poly, f) in acc
            .chunks_exact_mut(n)
            .zip(fourier_out.chunks_exact_mut(half))
        {
            fft.add_backward_as_integer_simd(simd, poly, f, &mut scratch);
        }
    }
}

/// Writes the folded level-1 digits of `X^power acc - acc` to `out`:
/// `out_j = d(r_j) + i d(r_{j + N/2})` with `r = X^power acc - acc`.
///
/// `[0, N/2)` is cut where `j` or `j + N/2` crosses `power mod N`; inside each piece
/// both rotated reads are contiguous with a fixed sign, so the loop vectorizes.
#[inline(always)]
fn fold_rotated_level1_digits(
    out: &mut [c64],
    acc: &[u64],
    power: usize,
    decomposer: &SignedDecomposer,
) {
    let n = acc.len();
    let half = n / 2;
    let (p, flip) = if power >= n {
        (power - n, true)
    } else {
        (power, false)
    };
    let mut cuts = [0, p.min(half), p.saturating_sub(half), half];
    cuts.sort_unstable();
    for w in cuts.windows(2) {
        let (start, end) = (w[0], w[1]);
        if start == end {
            continue;
        }
        let len = end - start;
        // (X^p acc)_t = acc_{t - p} for t >= p, -acc_{t - p + N} for t < p; negated if flip.
        let source = |t: usize| -> (usize, u64) {
            let wraps = t < p;
            let index = if wraps { t + n - p } else { t - p };
            (index, if wraps ^ flip { u64::MAX } else { 0 })
        };
        let (lo_src, lo_mask) = source(start);
        let (hi_src, hi_mask) = source(start + half);
        let lo_iter = acc[lo_src..lo_src + len].iter().zip(&acc[start..end]);
        let hi_iter = acc[hi_src..hi_src + len]
            .iter()
            .zip(&acc[start + half..end + half]);
        for ((o, (lr, ls)), (hr, hs)) in out[start..end].iter_mut().zip(lo_iter).zip(hi_iter) {
            let lo = ((lr ^ lo_mask).wrapping_sub(lo_mask)).wrapping_sub(*ls);
            let hi = ((hr ^ hi_mask).wrapping_sub(hi_mask)).wrapping_sub(*hs);
            let dl = decomposer.decompose_level1(lo) as i64 as f64;
            let dh = decomposer.decompose_level1(hi) as i64 as f64;
            *o = c64::new(dl, dh);
        }
    }
}

/// `out[c] = sum_r input[r] * ggsw[r][c]`, pointwise in the Fourier domain.
///
/// All rows and output polynomials advance together, one SIMD vector at a time, so
/// the key (the only data that does not fit in cache) streams through
/// `rows * (k + 1)` sequential reads at once.
#[inline(always)]
fn multiply_accumulate_ggsw<S: pulp::Simd>(
    simd: S,
    out: &mut [c64],
    input: &[c64],
    ggsw: &[c64],
    glwe_size: usize,
    half: usize,
) {
    let rows = input.len() / half;
    let lanes = std::mem::size_of::<S::c64s>() / std::mem::size_of::<c64>();
    if half % lanes == 0 {
        let (out_v, _) = S::as_mut_simd_c64s(out);
        let (in_v, _) = S::as_simd_c64s(input);
        let (key_v, _) = S::as_simd_c64s(ggsw);
        let hv = half / lanes;
        for j in 0..hv {
            for c in 0..glwe_size {
                let mut acc = simd.mul_c64s(in_v[j], key_v[c * hv + j]);
                for r in 1..rows {
                    acc = simd.mul_add_c64s(
                        in_v[r * hv + j],
                        key_v[(r * glwe_size + c) * hv + j],
                        acc,
                    );
                }
                out_v[c * hv + j] = acc;
            }
        }
    } else {
        for j in 0..half {
            for c in 0..glwe_size {
                let mut acc = c64::default();
                for r in 0..rows {
                    acc += input[r * half + j] * ggsw[(r * glwe_size + c) * half + j];
                }
                out[c * half + j] = acc;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core_crypto::{DecompositionBaseLog, DecompositionLevelCount};

    #[test]
    fn fused_fold_matches_rotate_then_decompose_for_every_power() {
        let n = 32;
        let decomposer = SignedDecomposer::new(DecompositionBaseLog(7), DecompositionLevelCount(1));
        let acc: Vec<u64> = (0..n as u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17))
            .collect();
        let mut diff = vec![0u64; n];
        let mut fused = vec![c64::default(); n / 2];
        for power in 0..2 * n {
            polynomial_rotate_minus_self(&mut diff, &acc, power);
            fold_rotated_level1_digits(&mut fused, &acc, power, &decomposer);
            for j in 0..n / 2 {
                let lo = decomposer.decompose_level1(diff[j]) as i64 as f64;
                let hi = decomposer.decompose_level1(diff[j + n / 2]) as i64 as f64;
                assert_eq!(fused[j], c64::new(lo, hi), "power {power}, index {j}");
            }
        }
    }
}
