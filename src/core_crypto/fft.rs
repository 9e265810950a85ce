//! The negacyclic FFT: products of polynomials modulo `X^N + 1` through `N/2`
//! complex numbers, with the `tfhe-fft` crate.
//!
//! A real polynomial `a` of size `N` is folded into the complex polynomial
//! `b_j = a_j + i a_{j + N/2}` (that is `a` modulo `X^{N/2} - i`), twisted by
//! `w^j` with `w = e^{i pi / N}` (which turns the reduction modulo `X^{N/2} - i` into
//! a cyclic one), and transformed by a cyclic FFT of size `N/2`. Products are then
//! pointwise; the inverse transform untwists, scales by `2/N` and unfolds.
//!
//! Coefficients are integers modulo 2^64 read as signed (`i64`) values; the inverse
//! rounds each result to the nearest integer and reduces it modulo 2^64. One plan
//! per size is built once per process, so results are reproducible within it.

use crate::core_crypto::commons::PolynomialSize;
use dyn_stack::{PodBuffer, PodStack};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;
use tfhe_fft::c64;
use tfhe_fft::unordered::{Method, Plan};

/// The FFT plan and twisting factors of one polynomial size.
pub struct Fft {
    plan: Plan,
    /// `w^j`, `j < N/2`.
    twist: Vec<c64>,
    /// `w^-j * 2 / N`: untwisting and normalisation in one product.
    untwist: Vec<c64>,
    /// `natural[k]`: the position in the plan's output of the DFT value of
    /// frequency `k` (the plan's order is its own).
    natural: Vec<usize>,
}

impl std::fmt::Debug for Fft {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Fft {{ polynomial_size: {} }}", 2 * self.twist.len())
    }
}

/// The process-wide FFT of polynomial size `n` (a power of two, at least 4).
///
/// ```
/// use gpufhe::core_crypto::{fft::fft_for, PolynomialSize};
/// let fft = fft_for(PolynomialSize(1024));
/// assert_eq!(fft.fourier_size(), 512);
/// // One plan per size and process.
/// assert!(std::ptr::eq(fft, fft_for(PolynomialSize(1024))));
/// ```
pub fn fft_for(n: PolynomialSize) -> &'static Fft {
    static CACHE: OnceLock<Mutex<Vec<&'static Fft>>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(f) = cache.iter().find(|f| 2 * f.twist.len() == n.0) {
        return f;
    }
    let f: &'static Fft = Box::leak(Box::new(Fft::new(n)));
    cache.push(f);
    f
}

/// How long the planner times each of its 8 candidate algorithms (twice, at
/// most, per size it tries): 10 ms, as TFHE-rs does, from 512 complex numbers
/// (polynomials of 1024 coefficients and more: every secure parameter set); 1 ms
/// below, where one transform takes under a microsecond, so that 1 ms is still
/// thousands of runs. The planner's time is spent once per process and size, but
/// it was most of a short process's time on small parameters: at 10 ms, planning
/// 256 complex numbers took 0.4 s (wall, two busy cores), more than the keys and
/// the bootstraps of a doctest on the insecure test parameters; at 1 ms, 0.1 s.
fn measure_time_per_algorithm(complex_size: usize) -> Duration {
    Duration::from_millis(if complex_size >= 512 { 10 } else { 1 })
}

impl Fft {
    fn new(n: PolynomialSize) -> Self {
        assert!(
            n.0.is_power_of_two() && n.0 >= 4,
            "polynomial size {} is not a power of two >= 4",
            n.0
        );
        let half = n.0 / 2;
        let plan = Plan::new(half, Method::Measure(measure_time_per_algorithm(half)));
        let angle = |j: usize| std::f64::consts::PI * j as f64 / n.0 as f64;
        let twist = (0..half)
            .map(|j| c64::new(angle(j).cos(), angle(j).sin()))
            .collect();
        let scale = 1.0 / half as f64;
        let untwist = (0..half)
            .map(|j| c64::new(angle(j).cos() * scale, -angle(j).sin() * scale))
            .collect();
        let natural = natural_order_of(&plan);
        Self {
            plan,
            twist,
            untwist,
            natural,
        }
    }

    /// Where the plan writes each frequency: `natural_order()[k]` is the index in a
    /// transform's output of `sum_j x_j e^(-2 pi i j k / (N/2))`.
    ///
    /// ```
    /// use gpufhe::core_crypto::{fft::fft_for, PolynomialSize};
    /// let order = fft_for(PolynomialSize(64)).natural_order();
    /// let mut sorted = order.to_vec();
    /// sorted.sort();
    /// assert_eq!(sorted, (0..32).collect::<Vec<_>>());
    /// ```
    pub fn natural_order(&self) -> &[usize] {
        &self.natural
    }

    /// A scratch buffer large enough for one transform.
    ///
    /// ```
    /// use gpufhe::core_crypto::{fft::fft_for, PolynomialSize};
    /// let fft = fft_for(PolynomialSize(16));
    /// let mut scratch = fft.make_scratch();
    /// let mut out = vec![tfhe_fft::c64::default(); 8];
    /// fft.forward_as_integer(&mut out, &[0u64; 16], &mut scratch);
    /// assert!(out.iter().all(|c| c.re == 0.0 && c.im == 0.0));
    /// ```
    pub fn make_scratch(&self) -> PodBuffer {
        PodBuffer::new(self.plan.fft_scratch())
    }

    /// `N/2`.
    ///
    /// ```
    /// use gpufhe::core_crypto::{fft::fft_for, PolynomialSize};
    /// assert_eq!(fft_for(PolynomialSize(2048)).fourier_size(), 1024);
    /// ```
    pub fn fourier_size(&self) -> usize {
        self.twist.len()
    }

    /// Transforms `input` (`N` coefficients read as `i64`) into `out` (`N/2` values).
    ///
    /// ```
    /// use gpufhe::core_crypto::{fft::fft_for, PolynomialSize};
    /// let fft = fft_for(PolynomialSize(8));
    /// let mut scratch = fft.make_scratch();
    /// let mut one = [0u64; 8];
    /// one[0] = 1;
    /// let mut out = vec![tfhe_fft::c64::default(); 4];
    /// fft.forward_as_integer(&mut out, &one, &mut scratch);
    /// // The constant polynomial 1 evaluates to 1 everywhere.
    /// assert!(out.iter().all(|c| (c.re - 1.0).abs() < 1e-9 && c.im.abs() < 1e-9));
    /// ```
    pub fn forward_as_integer(&self, out: &mut [c64], input: &[u64], scratch: &mut PodBuffer) {
        struct Forward<'a>(&'a Fft, &'a mut [c64], &'a [u64], &'a mut PodBuffer);
        impl pulp::WithSimd for Forward<'_> {
            type Output = ();
            #[inline(always)]
            fn with_simd<S: pulp::Simd>(self, simd: S) {
                self.0.forward_as_integer_simd(simd, self.1, self.2, self.3)
            }
        }
        pulp::Arch::new().dispatch(Forward(self, out, input, scratch))
    }

    /// [`Fft::forward_as_integer`] inside an already dispatched SIMD context.
    #[inline(always)]
    pub(crate) fn forward_as_integer_simd<S: pulp::Simd>(
        &self,
        simd: S,
        out: &mut [c64],
        input: &[u64],
        scratch: &mut PodBuffer,
    ) {
        let half = self.twist.len();
        let (lo, hi) = input.split_at(half);
        // Fold: b_j = a_j + i a_{j + N/2}.
        for ((o, &x), &y) in out.iter_mut().zip(lo).zip(hi) {
            *o = c64::new(x as i64 as f64, y as i64 as f64);
        }
        self.twist_and_forward_simd(simd, out, scratch);
    }

    /// Twists and transforms `out`, which already holds a folded polynomial
    /// `b_j = a_j + i a_{j + N/2}` (for callers that fold while computing `a`).
    #[inline(always)]
    pub(crate) fn twist_and_forward_simd<S: pulp::Simd>(
        &self,
        simd: S,
        out: &mut [c64],
        scratch: &mut PodBuffer,
    ) {
        // Twist: b_j w^j.
        let (out_simd, out_tail) = S::as_mut_simd_c64s(out);
        let (w_simd, w_tail) = S::as_simd_c64s(&self.twist);
        for (o, w) in out_simd.iter_mut().zip(w_simd) {
            *o = simd.mul_c64s(*o, *w);
        }
        for (o, w) in out_tail.iter_mut().zip(w_tail) {
            *o *= w;
        }
        self.plan.fwd(out, PodStack::new(scratch));
    }

    /// Inverse-transforms `fourier` (destroying it) and adds the rounded result,
    /// modulo 2^64, to `acc` (`N` coefficients).
    ///
    /// ```
    /// use gpufhe::core_crypto::{fft::fft_for, PolynomialSize};
    /// // (1 + X) * X^7 = X^7 + X^8 = X^7 - 1 modulo X^8 + 1.
    /// let fft = fft_for(PolynomialSize(8));
    /// let mut scratch = fft.make_scratch();
    /// let (mut a, mut b) = ([0u64; 8], [0u64; 8]);
    /// a[0] = 1;
    /// a[1] = 1;
    /// b[7] = 1;
    /// let (mut fa, mut fb) = (vec![tfhe_fft::c64::default(); 4], vec![tfhe_fft::c64::default(); 4]);
    /// fft.forward_as_integer(&mut fa, &a, &mut scratch);
    /// fft.forward_as_integer(&mut fb, &b, &mut scratch);
    /// let mut product: Vec<_> = fa.iter().zip(&fb).map(|(x, y)| x * y).collect();
    /// let mut acc = [0u64; 8];
    /// fft.add_backward_as_integer(&mut acc, &mut product, &mut scratch);
    /// assert_eq!(acc, [u64::MAX, 0, 0, 0, 0, 0, 0, 1]);
    /// ```
    pub fn add_backward_as_integer(
        &self,
        acc: &mut [u64],
        fourier: &mut [c64],
        scratch: &mut PodBuffer,
    ) {
        struct Backward<'a>(&'a Fft, &'a mut [u64], &'a mut [c64], &'a mut PodBuffer);
        impl pulp::WithSimd for Backward<'_> {
            type Output = ();
            #[inline(always)]
            fn with_simd<S: pulp::Simd>(self, simd: S) {
                self.0
                    .add_backward_as_integer_simd(simd, self.1, self.2, self.3)
            }
        }
        pulp::Arch::new().dispatch(Backward(self, acc, fourier, scratch))
    }

    /// [`Fft::add_backward_as_integer`] inside an already dispatched SIMD context.
    #[inline(always)]
    pub(crate) fn add_backward_as_integer_simd<S: pulp::Simd>(
        &self,
        simd: S,
        acc: &mut [u64],
        fourier: &mut [c64],
        scratch: &mut PodBuffer,
    ) {
        self.plan.inv(fourier, PodStack::new(scratch));
        // Untwist and scale: z_j w^-j 2/N.
        {
            let (f_simd, f_tail) = S::as_mut_simd_c64s(fourier);
            let (w_simd, w_tail) = S::as_simd_c64s(&self.untwist);
            for (f, w) in f_simd.iter_mut().zip(w_simd) {
                *f = simd.mul_c64s(*f, *w);
            }
            for (f, w) in f_tail.iter_mut().zip(w_tail) {
                *f *= w;
            }
        }
        // Unfold: a_j += Re z_j, a_{j + N/2} += Im z_j.
        let half = self.twist.len();
        let (lo, hi) = acc.split_at_mut(half);
        for ((a, b), z) in lo.iter_mut().zip(hi).zip(fourier.iter()) {
            *a = a.wrapping_add(f64_to_torus(z.re));
            *b = b.wrapping_add(f64_to_torus(z.im));
        }
    }
}

/// Rounds `x` to the nearest integer and reduces it modulo 2^64.
///
/// `x` may exceed 2^64 in magnitude (products of 64-bit values). The nearest
/// multiple of 2^64 is subtracted exactly, leaving `r` in `[-2^63, 2^63]`, which is
/// split as `hi * 2^32 + lo` with `|hi|, |lo| <= 2^31`; each half becomes an integer
/// by the exact "add 1.5 * 2^52 and read the bits" trick. Only float arithmetic,
/// bit casts and integer adds and shifts: it vectorizes on every SIMD level.
#[inline(always)]
/// The plan's output position of each frequency, read from the transform of the
/// impulse at 1: frequency `k` has the value `e^(-2 pi i k / n)`, distinct for each
/// `k`.
fn natural_order_of(plan: &Plan) -> Vec<usize> {
    let n = plan.fft_size();
    let mut buf = vec![c64::default(); n];
    buf[1 % n] = c64::new(1.0, 0.0);
    let mut scratch = PodBuffer::new(plan.fft_scratch());
    plan.fwd(&mut buf, PodStack::new(&mut scratch));
    let mut natural = vec![usize::MAX; n];
    for (p, v) in buf.iter().enumerate() {
        let turns = -v.im.atan2(v.re) / std::f64::consts::TAU;
        let k = (turns * n as f64).round().rem_euclid(n as f64) as usize % n;
        natural[k] = p;
    }
    assert!(
        natural.iter().all(|&p| p < n),
        "the FFT plan's output is not a permutation of the frequencies"
    );
    natural
}

pub(crate) fn f64_to_torus(x: f64) -> u64 {
    const TWO_POW_64: f64 = 18446744073709551616.0;
    const TWO_POW_32: f64 = 4294967296.0;
    const MAGIC: f64 = 6755399441055744.0; // 1.5 * 2^52
    let r = x - (x * (1.0 / TWO_POW_64)).round_ties_even() * TWO_POW_64;
    let hi = (r * (1.0 / TWO_POW_32)).round_ties_even();
    let lo = r - hi * TWO_POW_32;
    let hi_bits = (hi + MAGIC).to_bits().wrapping_sub(MAGIC.to_bits());
    let lo_bits = (lo + MAGIC).to_bits().wrapping_sub(MAGIC.to_bits());
    (hi_bits << 32).wrapping_add(lo_bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core_crypto::algorithms::polynomial::{
        naive_negacyclic_mul, polynomial_wrapping_add_mul_binary_assign,
    };

    #[test]
    fn fft_product_matches_the_exact_product_with_a_binary_polynomial() {
        let n = 2048;
        let fft = fft_for(PolynomialSize(n));
        let mut scratch = fft.make_scratch();
        let mut x = 0x1234_5678u64;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x
        };
        let a: Vec<u64> = (0..n).map(|_| next()).collect();
        let s: Vec<u64> = (0..n).map(|_| next() >> 63).collect();
        let mut exact = vec![0u64; n];
        polynomial_wrapping_add_mul_binary_assign(&mut exact, &a, &s);

        let (mut fa, mut fs) = (vec![c64::default(); n / 2], vec![c64::default(); n / 2]);
        fft.forward_as_integer(&mut fa, &a, &mut scratch);
        fft.forward_as_integer(&mut fs, &s, &mut scratch);
        for (p, q) in fa.iter_mut().zip(&fs) {
            *p *= q;
        }
        let mut approx = vec![0u64; n];
        fft.add_backward_as_integer(&mut approx, &mut fa, &mut scratch);
        // 64-bit inputs lose their low bits in f64: the error is small relative to 2^64.
        for (e, a) in exact.iter().zip(&approx) {
            let err = a.wrapping_sub(*e) as i64;
            assert!(err.unsigned_abs() < 1 << 24, "error {err}");
        }
    }

    #[test]
    fn small_integer_products_are_exact() {
        let n = 1024;
        let fft = fft_for(PolynomialSize(n));
        let mut scratch = fft.make_scratch();
        let a: Vec<u64> = (0..n as i64)
            .map(|i| ((i * 37) % 201 - 100) as u64)
            .collect();
        let b: Vec<u64> = (0..n as i64).map(|i| ((i * 91) % 77 - 38) as u64).collect();
        let exact = naive_negacyclic_mul(&a, &b);
        let (mut fa, mut fb) = (vec![c64::default(); n / 2], vec![c64::default(); n / 2]);
        fft.forward_as_integer(&mut fa, &a, &mut scratch);
        fft.forward_as_integer(&mut fb, &b, &mut scratch);
        for (p, q) in fa.iter_mut().zip(&fb) {
            *p *= q;
        }
        let mut out = vec![0u64; n];
        fft.add_backward_as_integer(&mut out, &mut fa, &mut scratch);
        assert_eq!(out, exact);
    }

    #[test]
    fn f64_to_torus_reduces_modulo_2_pow_64() {
        assert_eq!(f64_to_torus(-1.0), u64::MAX);
        assert_eq!(f64_to_torus(2.4), 2);
        assert_eq!(f64_to_torus(2f64.powi(70) + 2f64.powi(20)), 1 << 20);
        assert_eq!(
            f64_to_torus(-(2f64.powi(66)) - 3.0 * 2f64.powi(62)),
            1u64 << 62
        );
    }
}
