//! TFHE-rs 1.8's layouts of keyswitching and bootstrap keys, and the conversions
//! between them and gpufhe's in-memory layouts, once per entity.
//!
//! - **Keyswitching key.** Both store, per input coefficient `s_i`, `l` LWE
//!   ciphertexts of `s_i * 2^(64 - B j)` (same plaintexts, same signs: both
//!   keyswitches compute `(0, b) - sum digits * KSK`). gpufhe stores level `j = 1`
//!   (most significant) first, TFHE-rs level `j = l` first: the conversion reverses
//!   the levels of each coefficient.
//! - **Bootstrap key.** Both GGSW ciphertexts have the same rows: for component
//!   `c < k`, a GLWE encryption of `-m * S_c * 2^(64 - B j)`; for the body
//!   component, of `m * 2^(64 - B j)` (TFHE-rs writes it as factor `(-m) * 2^(64 - B
//!   j)` times `S_c` and `-factor`). gpufhe orders the rows of a GGSW
//!   component-major (`c`, then `j = 1..l`), TFHE-rs level-major (`j = l` down to
//!   1, then `c`): the conversion permutes the rows.
//! - **Packing keyswitching key** (compression): as the keyswitching key, with
//!   GLWE ciphertexts for rows; its conversions are beside it
//!   (`lwe_packing_keyswitch`, which this module's `reverse_levels` serves).
//! - **Seeded keys** store their bodies, and draw their masks, in TFHE-rs's order
//!   (so that a compressed key of either library expands in the other); their
//!   `decompress` converts to gpufhe's order.
//! - **Multi-bit bootstrap key.** Both encrypt, per group of `g` small-key
//!   coefficients, the indicators `f_T` of the group's bit assignments `T`.
//!   TFHE-rs keeps all `2^g` per group, its GGSW `i` holding the assignment whose
//!   bit for coefficient `j` is bit `g - 1 - j` of `i`; gpufhe's blind rotation
//!   uses the `2^g - 1` non-empty ones, `T` (bit `j` for coefficient `j`) at place
//!   `T - 1` (`multi_bit_lwe_secret_key`; the indicators sum to 1). gpufhe's seeded
//!   multi-bit keys are TFHE-rs's (all `2^g`, in its order); expanding one, or
//!   reading TFHE-rs's key, reorders the GGSW ciphertexts and sets the
//!   empty-assignment ones aside, to be written back.
//! - **Fourier bootstrap key.** TFHE-rs serializes each polynomial `p` as `Z_k =
//!   sum_j z_j e^(-2 pi i j k / (N/2))` in natural order `k`, with `z_j = (p_j + i
//!   p_(j + N/2)) 2^-64 e^(i pi j / N)` (coefficients read as signed); gpufhe's
//!   Fourier key holds the same transform unscaled (integers), in the order of its FFT
//!   plan.

// The conversions are called by the TFHE-rs wire layer (`high_level::tfhe_rs`).
#![cfg_attr(not(test), allow(dead_code))]

use crate::core_crypto::commons::{DecompositionBaseLog, DecompositionLevelCount, LweSize};
use crate::core_crypto::entities::{
    check_container_len, BootstrapKeyShape, FourierLweBootstrapKey, KeyswitchKeyShape,
    LweBootstrapKey, LweKeyswitchKey, SeededLweBootstrapKey, SeededLweKeyswitchKey,
};
use crate::core_crypto::fft::fft_for;
use crate::core_crypto::random::CompressionSeed;
use crate::error::{Error, Result};
use rayon::prelude::*;
use tfhe_fft::c64;

/// Reverses the order of the `level` rows of `row` values in each block of
/// `level * row` values (its own inverse).
pub(crate) fn reverse_levels(data: &mut [u64], level: usize, row: usize) {
    if level < 2 || row == 0 {
        return;
    }
    data.par_chunks_mut(level * row).for_each(|block| {
        for j in 0..level / 2 {
            let (lo, hi) = block.split_at_mut((level - 1 - j) * row);
            lo[j * row..(j + 1) * row].swap_with_slice(&mut hi[..row]);
        }
    });
}

/// The GGSW row index in gpufhe's order (component `c` major, level `j = 1..l`) of
/// the row at `tfhe_rs_row` in TFHE-rs's order (level `l` down to 1, then `c`).
pub(crate) fn gpufhe_row_of_tfhe_rs_row(
    tfhe_rs_row: usize,
    glwe_size: usize,
    level: usize,
) -> usize {
    let (level_from_last, c) = (tfhe_rs_row / glwe_size, tfhe_rs_row % glwe_size);
    let j = level - level_from_last; // 1..=level
    c * level + (j - 1)
}

/// Moves the rows (`row` values each) of every GGSW (`glwe_size * level` rows) of
/// `data`, in place, from one order to the other: `to_gpufhe` reads TFHE-rs's order
/// and writes gpufhe's.
pub(crate) fn permute_ggsw_rows<T: Copy + Default + Send + Sync>(
    data: &mut [T],
    shape: &BootstrapKeyShape,
    row: usize,
    to_gpufhe: bool,
) {
    let (glwe_size, level) = (shape.glwe_dimension.to_glwe_size().0, shape.level.0);
    let rows = glwe_size * level;
    if rows < 2 || row == 0 {
        return;
    }
    data.par_chunks_mut(rows * row).for_each_init(
        || vec![T::default(); rows * row],
        |copy, ggsw| {
            copy.copy_from_slice(ggsw);
            for t in 0..rows {
                let g = gpufhe_row_of_tfhe_rs_row(t, glwe_size, level);
                let (from, to) = if to_gpufhe { (t, g) } else { (g, t) };
                ggsw[to * row..(to + 1) * row].copy_from_slice(&copy[from * row..(from + 1) * row]);
            }
        },
    );
}

/// The shape of a keyswitching key of `len` values in TFHE-rs's form (no input
/// dimension stored: it is `len / (level * output_lwe_size)`).
fn ksk_shape_of(
    len: usize,
    per_coefficient: usize,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    output_lwe_size: LweSize,
) -> Result<KeyswitchKeyShape> {
    if per_coefficient == 0 || len % per_coefficient != 0 {
        return Err(Error::InvalidParameter(format!(
            "a keyswitching key of {len} values is not a whole number of input \
             coefficients of {per_coefficient} values"
        )));
    }
    let shape = KeyswitchKeyShape {
        input_lwe_dimension: crate::core_crypto::LweDimension(len / per_coefficient),
        output_lwe_dimension: crate::core_crypto::LweDimension(output_lwe_size.0.saturating_sub(1)),
        base_log,
        level,
    };
    shape.validate()?;
    Ok(shape)
}

/// A keyswitching key from TFHE-rs's `LweKeyswitchKey` data (levels least
/// significant first); `Err` for inconsistent sizes or an invalid decomposition.
pub(crate) fn lwe_keyswitch_key_from_tfhe_rs_layout(
    mut data: Vec<u64>,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    output_lwe_size: LweSize,
) -> Result<LweKeyswitchKey> {
    let per = level.0.saturating_mul(output_lwe_size.0);
    let shape = ksk_shape_of(data.len(), per, base_log, level, output_lwe_size)?;
    reverse_levels(&mut data, level.0, output_lwe_size.0);
    Ok(LweKeyswitchKey {
        data,
        shape,
        rounded: Default::default(),
    })
}

/// TFHE-rs's `LweKeyswitchKey` data of `ksk`.
pub(crate) fn lwe_keyswitch_key_to_tfhe_rs_layout(ksk: &LweKeyswitchKey) -> Vec<u64> {
    let mut data = ksk.data.clone();
    reverse_levels(&mut data, ksk.shape.level.0, ksk.output_lwe_size().0);
    data
}

/// A seeded keyswitching key from TFHE-rs's `SeededLweKeyswitchKey` parts: its
/// bodies are stored as they are (gpufhe's seeded keys use TFHE-rs's order; write
/// them back with [`SeededLweKeyswitchKey::bodies`] and
/// [`SeededLweKeyswitchKey::seed`]).
pub(crate) fn seeded_lwe_keyswitch_key_from_tfhe_rs_parts(
    bodies: Vec<u64>,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    output_lwe_size: LweSize,
    seed: CompressionSeed,
) -> Result<SeededLweKeyswitchKey> {
    let shape = ksk_shape_of(bodies.len(), level.0, base_log, level, output_lwe_size)?;
    Ok(SeededLweKeyswitchKey {
        bodies,
        seed,
        shape,
    })
}

/// A standard-domain bootstrap key from TFHE-rs's `LweBootstrapKey` data of `shape`.
pub(crate) fn lwe_bootstrap_key_from_tfhe_rs_layout(
    data: Vec<u64>,
    shape: BootstrapKeyShape,
) -> Result<LweBootstrapKey> {
    shape.validate()?;
    let glwe = shape.glwe_dimension.to_glwe_size().0;
    check_container_len(
        "number of coefficients of the bootstrap key",
        &[
            shape.input_lwe_dimension.0,
            glwe * shape.level.0,
            glwe,
            shape.polynomial_size.0,
        ],
        data.len(),
    )?;
    let mut data = data;
    permute_ggsw_rows(&mut data, &shape, glwe * shape.polynomial_size.0, true);
    Ok(LweBootstrapKey { data, shape })
}

/// TFHE-rs's `LweBootstrapKey` data of `bsk`.
pub(crate) fn lwe_bootstrap_key_to_tfhe_rs_layout(bsk: &LweBootstrapKey) -> Vec<u64> {
    let row = bsk.shape.glwe_dimension.to_glwe_size().0 * bsk.shape.polynomial_size.0;
    let mut data = bsk.data.clone();
    permute_ggsw_rows(&mut data, &bsk.shape, row, false);
    data
}

/// A seeded bootstrap key from TFHE-rs's `SeededGgswCiphertextList` parts (one body
/// polynomial per GLWE row, in TFHE-rs's order, which gpufhe's seeded keys keep).
pub(crate) fn seeded_lwe_bootstrap_key_from_tfhe_rs_parts(
    bodies: Vec<u64>,
    shape: BootstrapKeyShape,
    seed: CompressionSeed,
) -> Result<SeededLweBootstrapKey> {
    shape.validate()?;
    check_container_len(
        "number of body coefficients of the seeded bootstrap key",
        &[
            shape.input_lwe_dimension.0,
            shape.rows_per_ggsw(),
            shape.polynomial_size.0,
        ],
        bodies.len(),
    )?;
    Ok(SeededLweBootstrapKey {
        bodies,
        seed,
        shape,
    })
}

/// `2^64`, the scale between gpufhe's integer Fourier values and TFHE-rs's torus ones.
const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;

/// gpufhe's Fourier key of `shape` from TFHE-rs's serialized Fourier polynomials
/// (`FourierLweBootstrapKey`'s list: TFHE-rs's GGSW order, natural DFT order, torus
/// scale). Exact: a permutation and a scaling by `2^64`. `Err` for a wrong number of
/// values or a value that is not finite.
pub(crate) fn fourier_bootstrap_key_from_tfhe_rs_fourier(
    polys: &[c64],
    shape: BootstrapKeyShape,
) -> Result<FourierLweBootstrapKey> {
    shape.validate()?;
    let glwe = shape.glwe_dimension.to_glwe_size().0;
    let half = shape.polynomial_size.to_fourier_polynomial_size();
    check_container_len(
        "number of Fourier coefficients of the bootstrap key",
        &[
            shape.input_lwe_dimension.0,
            glwe * shape.level.0,
            glwe,
            half,
        ],
        polys.len(),
    )?;
    if let Some(bad) = polys
        .iter()
        .position(|c| !(c.re.is_finite() && c.im.is_finite()))
    {
        return Err(Error::InvalidParameter(format!(
            "Fourier bootstrap key value {bad} is not finite"
        )));
    }
    let natural = fft_for(shape.polynomial_size).natural_order();
    let mut data = polys.to_vec();
    permute_ggsw_rows(&mut data, &shape, glwe * half, true);
    data.par_chunks_mut(half).for_each(|poly| {
        let torus = poly.to_vec();
        for (k, &p) in natural.iter().enumerate() {
            poly[p] = torus[k] * TWO_POW_64;
        }
    });
    Ok(FourierLweBootstrapKey { data, shape })
}

/// TFHE-rs's serialized Fourier polynomials of `key` (exact: the inverse of
/// [`fourier_bootstrap_key_from_tfhe_rs_fourier`]).
pub(crate) fn tfhe_rs_fourier_from_fourier_bootstrap_key(key: &FourierLweBootstrapKey) -> Vec<c64> {
    let shape = key.shape;
    let glwe = shape.glwe_dimension.to_glwe_size().0;
    let half = shape.polynomial_size.to_fourier_polynomial_size();
    let natural = fft_for(shape.polynomial_size).natural_order();
    let mut data = key.data.clone();
    permute_ggsw_rows(&mut data, &shape, glwe * half, false);
    data.par_chunks_mut(half).for_each(|poly| {
        let plan_order = poly.to_vec();
        for (k, &p) in natural.iter().enumerate() {
            poly[k] = plan_order[p] / TWO_POW_64;
        }
    });
    data
}

/// A standard-domain bootstrap key from TFHE-rs's serialized Fourier polynomials:
/// the inverse transform, each coefficient rounded to the nearest integer modulo
/// 2^64 (the Fourier form holds about 53 significant bits, so the low bits of a
/// key that went through it are the FFT's rounding, as in TFHE-rs). `Err` as
/// [`fourier_bootstrap_key_from_tfhe_rs_fourier`].
pub(crate) fn standard_bootstrap_key_from_tfhe_rs_fourier(
    polys: &[c64],
    shape: BootstrapKeyShape,
) -> Result<LweBootstrapKey> {
    let fourier = fourier_bootstrap_key_from_tfhe_rs_fourier(polys, shape)?;
    let n = shape.polynomial_size;
    let fft = fft_for(n);
    let half = n.to_fourier_polynomial_size();
    let mut data = vec![0u64; fourier.data.len() * 2];
    data.par_chunks_mut(n.0)
        .zip(fourier.data.par_chunks(half))
        .for_each_init(
            || (fft.make_scratch(), vec![c64::default(); half]),
            |(scratch, buf), (out, poly)| {
                buf.copy_from_slice(poly);
                fft.add_backward_as_integer(out, buf, scratch);
            },
        );
    Ok(LweBootstrapKey { data, shape })
}

/// TFHE-rs's serialized Fourier polynomials of a standard-domain key (the forward
/// transform, in natural order, torus scale).
pub(crate) fn tfhe_rs_fourier_from_standard_bootstrap_key(bsk: &LweBootstrapKey) -> Vec<c64> {
    tfhe_rs_fourier_from_fourier_bootstrap_key(&FourierLweBootstrapKey::from_standard(bsk))
}

/// gpufhe's place in its group (`T - 1`) of TFHE-rs's multi-bit GGSW `index`;
/// `None` for the empty assignment.
pub(crate) fn multi_bit_place(index: usize, grouping_factor: usize) -> Option<usize> {
    let assignment = (0..grouping_factor).fold(0, |t, j| {
        t | (((index >> (grouping_factor - 1 - j)) & 1) << j)
    });
    assignment.checked_sub(1)
}

/// A multi-bit key's GGSW ciphertexts (`ggsw_len` values each) in TFHE-rs's order
/// (`2^g` per group) split into gpufhe's (`2^g - 1` per group) and the
/// empty-assignment ones. `Err` unless `theirs` holds whole groups.
pub(crate) fn multi_bit_from_tfhe_rs_order<T: Copy + Default>(
    theirs: &[T],
    ggsw_len: usize,
    grouping_factor: usize,
) -> Result<(Vec<T>, Vec<T>)> {
    let per_group = 1usize << grouping_factor;
    let group_len = per_group * ggsw_len;
    if ggsw_len == 0 || theirs.len() % group_len != 0 {
        return Err(Error::InvalidParameter(format!(
            "a TFHE-rs multi-bit key of {} values, not whole groups of {per_group} GGSW \
             ciphertexts of {ggsw_len}",
            theirs.len()
        )));
    }
    let groups = theirs.len() / group_len;
    let mut ours = vec![T::default(); groups * (per_group - 1) * ggsw_len];
    let mut empty = Vec::with_capacity(groups * ggsw_len);
    for (theirs, ours) in theirs
        .chunks_exact(group_len)
        .zip(ours.chunks_exact_mut((per_group - 1) * ggsw_len))
    {
        for (index, ggsw) in theirs.chunks_exact(ggsw_len).enumerate() {
            match multi_bit_place(index, grouping_factor) {
                Some(place) => ours[place * ggsw_len..(place + 1) * ggsw_len].copy_from_slice(ggsw),
                None => empty.extend_from_slice(ggsw),
            }
        }
    }
    Ok((ours, empty))
}

/// The inverse of [`multi_bit_from_tfhe_rs_order`]. `Err` unless `ours` and
/// `empty` hold the same number of whole groups.
pub(crate) fn multi_bit_to_tfhe_rs_order<T: Copy>(
    ours: &[T],
    empty: &[T],
    ggsw_len: usize,
    grouping_factor: usize,
) -> Result<Vec<T>> {
    let per_group = 1usize << grouping_factor;
    let group_len = (per_group - 1) * ggsw_len;
    if ggsw_len == 0
        || ours.len() % group_len != 0
        || empty.len() != ours.len() / group_len * ggsw_len
    {
        return Err(Error::InvalidParameter(format!(
            "a multi-bit key of {} values and {} of empty assignments, not whole groups of \
             GGSW ciphertexts of {ggsw_len}",
            ours.len(),
            empty.len()
        )));
    }
    let mut theirs = Vec::with_capacity(ours.len() + empty.len());
    for (group, constant) in ours
        .chunks_exact(group_len)
        .zip(empty.chunks_exact(ggsw_len))
    {
        for index in 0..per_group {
            match multi_bit_place(index, grouping_factor) {
                Some(place) => {
                    theirs.extend_from_slice(&group[place * ggsw_len..(place + 1) * ggsw_len])
                }
                None => theirs.extend_from_slice(constant),
            }
        }
    }
    Ok(theirs)
}

/// What gpufhe's multi-bit key lacks of TFHE-rs's, kept beside it to be written
/// in TFHE-rs's form: the empty-assignment GGSW ciphertext of every group (in
/// TFHE-rs's serialized Fourier form, group by group) and the key's execution flag.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TfheRsMultiBitExtra {
    pub(crate) empty_assignments: Vec<c64>,
    pub(crate) deterministic_execution: bool,
}

/// gpufhe's multi-bit key (standard domain) of a key in TFHE-rs's order (as a
/// seeded key expands), and what it leaves out (TFHE-rs's default execution flag,
/// `false`). `Err` unless `theirs` holds whole groups.
pub(crate) fn split_tfhe_rs_multi_bit_key(
    theirs: &LweBootstrapKey,
    grouping_factor: usize,
) -> Result<(LweBootstrapKey, TfheRsMultiBitExtra)> {
    let shape = theirs.shape;
    let (ours, empty) =
        multi_bit_from_tfhe_rs_order(&theirs.data, shape.ggsw_size(), grouping_factor)?;
    let groups = shape.input_lwe_dimension.0 >> grouping_factor;
    let with_ggsws = |count: usize| BootstrapKeyShape {
        input_lwe_dimension: crate::core_crypto::LweDimension(count),
        ..shape
    };
    let empty = LweBootstrapKey {
        data: empty,
        shape: with_ggsws(groups),
    };
    Ok((
        LweBootstrapKey {
            data: ours,
            shape: with_ggsws(groups * ((1 << grouping_factor) - 1)),
        },
        TfheRsMultiBitExtra {
            empty_assignments: tfhe_rs_fourier_from_standard_bootstrap_key(&empty),
            deterministic_execution: false,
        },
    ))
}

/// The indicator bits of a multi-bit key in TFHE-rs's order: for each group of
/// `g` coefficients of `key`, its `2^g` assignments (see the module docs), 1
/// exactly for the group's own. A seeded bootstrap key over these bits is
/// TFHE-rs's seeded multi-bit key.
pub(crate) fn tfhe_rs_multi_bit_lwe_secret_key(
    key: &crate::core_crypto::entities::LweSecretKey,
    grouping_factor: usize,
) -> Result<crate::core_crypto::entities::LweSecretKey> {
    let n = key.lwe_dimension().0;
    crate::core_crypto::check_grouping_factor(n, grouping_factor)?;
    let mut bits = Vec::with_capacity((n / grouping_factor) << grouping_factor);
    for group in key.as_slice().chunks_exact(grouping_factor) {
        bits.extend((0..1usize << grouping_factor).map(|index| {
            group
                .iter()
                .enumerate()
                .all(|(j, &s)| s as usize == (index >> (grouping_factor - 1 - j)) & 1)
                as u64
        }));
    }
    crate::core_crypto::entities::LweSecretKey::from_binary_coefficients(bits)
}

#[cfg(test)]
#[path = "tfhe_rs_layout_tests.rs"]
mod tests;
