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
use crate::core_crypto::fft::{fft_for, Fft};
use crate::error::{check_eq, Result};
use dyn_stack::PodBuffer;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, RwLock};
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
    check_blind_rotation_shapes(acc, switched, bsk)?;
    rotate_by_body(
        acc.as_mut_slice(),
        switched.body,
        bsk.shape().polynomial_size.0,
    );
    pulp::Arch::new().dispatch(CmuxChain {
        accs: vec![acc.as_mut_slice()],
        masks: vec![&switched.mask],
        bsk,
    });
    Ok(())
}

fn check_blind_rotation_shapes<C: AsRef<[u64]>>(
    acc: &GlweCiphertext<C>,
    switched: &ModulusSwitchedLweCiphertext,
    bsk: &FourierLweBootstrapKey,
) -> Result<()> {
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
    )
}

/// `acc = X^(-body) acc`, polynomial by polynomial.
fn rotate_by_body(acc: &mut [u64], body: usize, n: usize) {
    let mut rotated = vec![0u64; n];
    for poly in acc.chunks_exact_mut(n) {
        polynomial_rotate_left(&mut rotated, poly, body);
        poly.copy_from_slice(&rotated);
    }
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
    batch_programmable_bootstrap_lwe_ciphertext(
        std::slice::from_ref(input),
        std::slice::from_mut(output),
        &[accumulator],
        bsk,
        modulus_switch,
    )
}

/// Bootstraps `inputs[j]` through `accumulators[j]` into `outputs[j]` for every `j`,
/// reading the bootstrap key once for the whole batch: each GGSW ciphertext is used
/// by every member of the batch while it is in cache. Results are bit-identical to
/// bootstrapping one at a time; a batch of 2 to 8 saves most of the memory traffic
/// of the key on one core.
pub fn batch_programmable_bootstrap_lwe_ciphertext<C, D, E>(
    inputs: &[LweCiphertext<C>],
    outputs: &mut [LweCiphertext<D>],
    accumulators: &[&GlweCiphertext<E>],
    bsk: &FourierLweBootstrapKey,
    modulus_switch: ModulusSwitchType,
) -> Result<()>
where
    C: AsRef<[u64]>,
    D: AsRef<[u64]> + AsMut<[u64]>,
    E: AsRef<[u64]>,
{
    let shape = bsk.shape();
    check_eq("number of bootstrap outputs", inputs.len(), outputs.len())?;
    for output in outputs.iter() {
        output.check_size(
            "LWE size of the bootstrap output",
            shape.output_lwe_dimension().to_lwe_size(),
        )?;
    }
    let accs = batch_blind_rotate_lwe_ciphertext(inputs, accumulators, bsk, modulus_switch)?;
    for (acc, output) in accs.iter().zip(outputs.iter_mut()) {
        extract_lwe_sample_from_glwe_ciphertext(acc, output, 0)?;
    }
    Ok(())
}

/// Modulus-switches each input and blind-rotates a copy of its accumulator by it,
/// reading the bootstrap key once for the whole batch; returns the rotated
/// accumulators, from which any coefficient can be extracted (several functions of
/// one bootstrap live at different coefficients).
pub fn batch_blind_rotate_lwe_ciphertext<C, E>(
    inputs: &[LweCiphertext<C>],
    accumulators: &[&GlweCiphertext<E>],
    bsk: &FourierLweBootstrapKey,
    modulus_switch: ModulusSwitchType,
) -> Result<Vec<GlweCiphertext<Vec<u64>>>>
where
    C: AsRef<[u64]>,
    E: AsRef<[u64]>,
{
    let shape = bsk.shape();
    check_eq(
        "number of bootstrap accumulators",
        inputs.len(),
        accumulators.len(),
    )?;
    let n = shape.polynomial_size.0;
    let mut switched = Vec::with_capacity(inputs.len());
    let mut accs = Vec::with_capacity(inputs.len());
    for (input, accumulator) in inputs.iter().zip(accumulators) {
        check_eq(
            "LWE dimension of the bootstrap input",
            shape.input_lwe_dimension.0,
            input.lwe_dimension().0,
        )?;
        let s =
            modulus_switch_lwe_ciphertext(input, shape.polynomial_size.log2() + 1, modulus_switch)?;
        let mut acc = GlweCiphertext::from_container(
            accumulator.as_slice().to_vec(),
            accumulator.polynomial_size(),
        )?;
        check_blind_rotation_shapes(&acc, &s, bsk)?;
        rotate_by_body(acc.as_mut_slice(), s.body, n);
        switched.push(s);
        accs.push(acc);
    }
    pulp::Arch::new().dispatch(CmuxChain {
        accs: accs.iter_mut().map(|a| a.as_mut_slice()).collect(),
        masks: switched.iter().map(|s| s.mask.as_slice()).collect(),
        bsk,
    });
    Ok(accs)
}

/// The CMux chain, compiled for the best SIMD level of the machine (AVX-512, AVX2,
/// or scalar) by pulp: everything it calls is inlined into that instantiation.
struct CmuxChain<'a> {
    accs: Vec<&'a mut [u64]>,
    masks: Vec<&'a [usize]>,
    bsk: &'a FourierLweBootstrapKey,
}

impl pulp::WithSimd for CmuxChain<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) {
        let mut accs = self.accs;
        cmux_chain(simd, &mut accs, &self.masks, self.bsk)
    }
}

/// The CMux chains of a batch over every GGSW of the key, GGSW-major so that each
/// GGSW is read from memory once per batch; shapes are checked by the caller.
#[inline(always)]
fn cmux_chain<S: pulp::Simd>(
    simd: S,
    accs: &mut [&mut [u64]],
    masks: &[&[usize]],
    bsk: &FourierLweBootstrapKey,
) {
    let shape = bsk.shape();
    let half = shape.polynomial_size.to_fourier_polynomial_size();
    let glwe_size = shape.glwe_dimension.0 + 1;
    let mut digits = DigitBuffers::new(bsk);
    let mut fourier_in = vec![c64::default(); glwe_size * shape.level.0 * half];
    let mut fourier_out = vec![c64::default(); glwe_size * half];
    for i in 0..shape.input_lwe_dimension.0 {
        let ggsw = bsk.ggsw(i);
        for (acc, mask) in accs.iter_mut().zip(masks) {
            let a = mask[i];
            if a == 0 {
                // X^0 ACC - ACC = 0: the CMux leaves ACC unchanged.
                continue;
            }
            // acc += GGSW ⊡ (X^a acc - acc).
            let n = acc.len() / glwe_size;
            let rows_per_poly = fourier_in.len() / glwe_size;
            for (poly, rows) in acc
                .chunks_exact(n)
                .zip(fourier_in.chunks_exact_mut(rows_per_poly))
            {
                digits.forward(simd, poly, a, rows);
            }
            let rows: Vec<&[c64]> = fourier_in.chunks_exact(half).collect();
            multiply_accumulate_ggsw(simd, &mut fourier_out, &rows, ggsw, glwe_size, 0);
            for (poly, f) in acc
                .chunks_exact_mut(n)
                .zip(fourier_out.chunks_exact_mut(half))
            {
                digits.backward_add(simd, poly, f);
            }
        }
    }
}

/// The per-polynomial work buffers of a CMux: rotation, decomposition and transforms.
struct DigitBuffers {
    fft: &'static Fft,
    scratch: PodBuffer,
    decomposer: SignedDecomposer,
    diff: Vec<u64>,
    digits: Vec<u64>,
    level_digits: Vec<u64>,
}

impl DigitBuffers {
    fn new(bsk: &FourierLweBootstrapKey) -> Self {
        let shape = bsk.shape();
        let n = shape.polynomial_size.0;
        let fft = fft_for(shape.polynomial_size);
        Self {
            fft,
            scratch: fft.make_scratch(),
            decomposer: SignedDecomposer::new(shape.base_log, shape.level),
            diff: vec![0u64; n],
            digits: vec![0u64; shape.level.0 * n],
            level_digits: vec![0u64; shape.level.0],
        }
    }

    /// Writes to `rows` (`level` Fourier polynomials) the decomposition digits of
    /// `X^a poly - poly`, level 1 first, in the Fourier domain.
    #[inline(always)]
    fn forward<S: pulp::Simd>(&mut self, simd: S, poly: &[u64], a: usize, rows: &mut [c64]) {
        let n = poly.len();
        let half = n / 2;
        let level = self.level_digits.len();
        if level == 1 {
            // Rotation, decomposition and folding in one pass.
            fold_rotated_level1_digits(rows, poly, a, &self.decomposer);
            self.fft
                .twist_and_forward_simd(simd, rows, &mut self.scratch);
            return;
        }
        polynomial_rotate_minus_self(&mut self.diff, poly, a);
        for (t, x) in self.diff.iter().enumerate() {
            self.decomposer.decompose_into(*x, &mut self.level_digits);
            for (j, d) in self.level_digits.iter().enumerate() {
                self.digits[j * n + t] = *d;
            }
        }
        for (d, out) in self.digits.chunks_exact(n).zip(rows.chunks_exact_mut(half)) {
            self.fft
                .forward_as_integer_simd(simd, out, d, &mut self.scratch);
        }
    }

    /// `poly += IFFT(f)`, rounded to the torus (destroys `f`).
    #[inline(always)]
    fn backward_add<S: pulp::Simd>(&mut self, simd: S, poly: &mut [u64], f: &mut [c64]) {
        self.fft
            .add_backward_as_integer_simd(simd, poly, f, &mut self.scratch);
    }
}

/// Blind-rotates one accumulator like [`blind_rotate_assign`], with each of its
/// `k + 1` polynomials on its own thread: thread `c` rotates, decomposes and
/// transforms polynomial `c`, and after a barrier multiplies every transformed row by
/// column `c` of the GGSW and transforms back into polynomial `c`. Bit-identical to
/// the single-threaded rotation; for steps with fewer bootstraps than cores. If a
/// thread cannot be started, it runs on the calling thread alone.
pub fn blind_rotate_assign_multithreaded<C>(
    acc: &mut GlweCiphertext<C>,
    switched: &ModulusSwitchedLweCiphertext,
    bsk: &FourierLweBootstrapKey,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
{
    check_blind_rotation_shapes(acc, switched, bsk)?;
    let shape = bsk.shape();
    let n = shape.polynomial_size.0;
    let glwe_size = shape.glwe_dimension.0 + 1;
    rotate_by_body(acc.as_mut_slice(), switched.body, n);
    let rows = shape.level.0 * (n / 2);
    // Two sets of transformed rows, alternating between CMuxes, so that one barrier
    // per CMux separates every write from the reads of the other threads.
    let shared = SplitChain {
        slots: (0..2 * glwe_size)
            .map(|_| RwLock::new(vec![c64::default(); rows]))
            .collect(),
        barrier: SpinBarrier::new(glwe_size),
        mask: &switched.mask,
        bsk,
    };
    let started = std::thread::scope(|scope| {
        let mut polys = acc.as_mut_slice().chunks_exact_mut(n).enumerate();
        let (c0, first) = polys.next().expect("k + 1 >= 1 polynomials");
        let shared = &shared;
        for (c, poly) in polys {
            let spawned = std::thread::Builder::new()
                .name("gpufhe-cmux".into())
                .spawn_scoped(scope, move || shared.run(c, poly));
            if spawned.is_err() {
                // Nothing has run yet (the barrier waits for every thread): give up
                // this split before the calling thread starts.
                shared.barrier.poison();
                return false;
            }
        }
        shared.run(c0, first);
        true
    });
    if !started {
        return Err(crate::error::Error::InvalidParameter(
            "could not start the bootstrap threads".into(),
        ));
    }
    Ok(())
}

/// The state shared by the threads of a split blind rotation.
struct SplitChain<'a> {
    slots: Vec<RwLock<Vec<c64>>>,
    barrier: SpinBarrier,
    mask: &'a [usize],
    bsk: &'a FourierLweBootstrapKey,
}

impl SplitChain<'_> {
    /// The CMux chain of polynomial `c`.
    fn run(&self, c: usize, poly: &mut [u64]) {
        struct Chain<'a, 'b>(&'a SplitChain<'b>, usize, &'a mut [u64]);
        impl pulp::WithSimd for Chain<'_, '_> {
            type Output = ();
            #[inline(always)]
            fn with_simd<S: pulp::Simd>(self, simd: S) {
                self.0.run_simd(simd, self.1, self.2)
            }
        }
        pulp::Arch::new().dispatch(Chain(self, c, poly))
    }

    #[inline(always)]
    fn run_simd<S: pulp::Simd>(&self, simd: S, c: usize, poly: &mut [u64]) {
        let shape = self.bsk.shape();
        let glwe_size = shape.glwe_dimension.0 + 1;
        let half = shape.polynomial_size.to_fourier_polynomial_size();
        let mut digits = DigitBuffers::new(self.bsk);
        let mut out = vec![c64::default(); half];
        let mut parity = 0;
        for (i, &a) in self.mask.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let set = &self.slots[parity * glwe_size..][..glwe_size];
            parity ^= 1;
            {
                let mut mine = set[c].write().unwrap_or_else(|p| p.into_inner());
                digits.forward(simd, poly, a, &mut mine);
            }
            if !self.barrier.wait() {
                return;
            }
            {
                let guards: Vec<_> = set
                    .iter()
                    .map(|s| s.read().unwrap_or_else(|p| p.into_inner()))
                    .collect();
                let rows: Vec<&[c64]> = guards.iter().flat_map(|g| g.chunks_exact(half)).collect();
                multiply_accumulate_ggsw(simd, &mut out, &rows, self.bsk.ggsw(i), glwe_size, c);
            }
            digits.backward_add(simd, poly, &mut out);
        }
    }
}

/// A barrier for a few threads: waiters spin briefly (a CMux lasts ~10 µs, less than
/// a sleeping thread's wake-up), then sleep, so a thread descheduled by a busy system
/// does not make its partner burn a core.
struct SpinBarrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
    poisoned: AtomicBool,
    sleepers: Mutex<usize>,
    wake: Condvar,
}

impl SpinBarrier {
    fn new(threads: usize) -> Self {
        Self {
            threads,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            poisoned: AtomicBool::new(false),
            sleepers: Mutex::new(0),
            wake: Condvar::new(),
        }
    }

    /// Waits for every thread; `false` if the barrier was poisoned.
    fn wait(&self) -> bool {
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            self.arrived.store(0, Ordering::Relaxed);
            self.release();
            return !self.poisoned.load(Ordering::Acquire);
        }
        for _ in 0..4_000 {
            if self.generation.load(Ordering::Acquire) != generation {
                return !self.poisoned.load(Ordering::Acquire);
            }
            std::hint::spin_loop();
        }
        let mut sleepers = self.sleepers.lock().unwrap_or_else(|p| p.into_inner());
        *sleepers += 1;
        while self.generation.load(Ordering::Acquire) == generation
            && !self.poisoned.load(Ordering::Acquire)
        {
            sleepers = self.wake.wait(sleepers).unwrap_or_else(|p| p.into_inner());
        }
        *sleepers -= 1;
        !self.poisoned.load(Ordering::Acquire)
    }

    /// Starts the next generation and wakes the sleepers. The generation changes under
    /// the lock, so a thread about to sleep either sees it or is woken.
    fn release(&self) {
        let sleepers = self.sleepers.lock().unwrap_or_else(|p| p.into_inner());
        self.generation.fetch_add(1, Ordering::Release);
        if *sleepers > 0 {
            self.wake.notify_all();
        }
    }

    /// Releases every waiting thread with a failure.
    fn poison(&self) {
        self.poisoned.store(true, Ordering::Release);
        self.release();
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

/// `out[c - first] = sum_r rows[r] * ggsw[r][c]`, pointwise in the Fourier domain, for
/// the output polynomials `c` from `first` on that fit in `out`.
///
/// All rows and output polynomials advance together, one SIMD vector at a time, so
/// the key (the only data that does not fit in cache) streams through
/// `rows * (k + 1)` sequential reads at once.
#[inline(always)]
fn multiply_accumulate_ggsw<S: pulp::Simd>(
    simd: S,
    out: &mut [c64],
    rows: &[&[c64]],
    ggsw: &[c64],
    glwe_size: usize,
    first: usize,
) {
    let half = rows[0].len();
    let columns = out.len() / half;
    let lanes = std::mem::size_of::<S::c64s>() / std::mem::size_of::<c64>();
    if half % lanes == 0 {
        let (out_v, _) = S::as_mut_simd_c64s(out);
        let rows_v: Vec<&[S::c64s]> = rows.iter().map(|r| S::as_simd_c64s(r).0).collect();
        let (key_v, _) = S::as_simd_c64s(ggsw);
        let hv = half / lanes;
        for j in 0..hv {
            for (o, c) in (first..first + columns).enumerate() {
                let mut acc = simd.mul_c64s(rows_v[0][j], key_v[c * hv + j]);
                for (r, row) in rows_v.iter().enumerate().skip(1) {
                    acc = simd.mul_add_c64s(row[j], key_v[(r * glwe_size + c) * hv + j], acc);
                }
                out_v[o * hv + j] = acc;
            }
        }
    } else {
        for j in 0..half {
            for (o, c) in (first..first + columns).enumerate() {
                let mut acc = c64::default();
                for (r, row) in rows.iter().enumerate() {
                    acc += row[j] * ggsw[(r * glwe_size + c) * half + j];
                }
                out[o * half + j] = acc;
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
