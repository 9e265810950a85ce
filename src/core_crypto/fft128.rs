//! The 128-bit negacyclic FFT: products of polynomials modulo `X^N + 1` over the
//! integers modulo 2^128, with `tfhe-fft`'s `fft128` module (double-double
//! arithmetic: every real is an unevaluated sum `hi + lo` of two `f64`, about 104
//! bits of precision).
//!
//! A polynomial of size `N` is folded into `N/2` complex numbers `p_j + i p_(j+N/2)`
//! (the plan applies the negacyclic twist itself) and stored as four arrays of `N/2`
//! reals: the high and low parts of the real and imaginary parts (`re0`, `re1`,
//! `im0`, `im1`), in the plan's (bit-reversed) order. This is the layout and the
//! scaling TFHE-rs 1.8 serializes for its `Fourier128LweBootstrapKey`: key
//! polynomials are read as torus values (signed coefficient times 2^-128), the
//! decomposition digits as small integers, and the inverse transform scales by
//! `2/N` and reduces the torus result modulo 1 back to 128-bit integers.
//!
//! Precision: a product of a digit polynomial (`|d| <= 2^(B-1)`) by a key polynomial
//! sums `N` terms; the result of an external product is a torus value of magnitude
//! at most about `(k+1) l N 2^(B-1)`, computed with a relative error near `2^-104`,
//! so its absolute error (in units of 2^-128) is about `2^(24 + log2((k+1) l N B/2))`,
//! far below the bootstrap noise (see docs/noise-squashing.md).

use crate::core_crypto::commons::PolynomialSize;
use crate::error::{Error, Result};
use std::sync::{Mutex, OnceLock};
use tfhe_fft::fft128::Plan;

/// The 128-bit FFT plan of one polynomial size.
pub struct Fft128 {
    plan: Plan,
    polynomial_size: usize,
}

impl std::fmt::Debug for Fft128 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Fft128 {{ polynomial_size: {} }}", self.polynomial_size)
    }
}

/// The process-wide 128-bit FFT of polynomial size `n`; `Err` unless `n` is a power
/// of two of at least 64 (the plan's smallest size is 32 complex numbers).
///
/// ```
/// use gpufhe::core_crypto::{fft128::fft128_for, PolynomialSize};
/// let fft = fft128_for(PolynomialSize(2048)).unwrap();
/// assert_eq!(fft.fourier_size(), 1024);
/// assert!(std::ptr::eq(fft, fft128_for(PolynomialSize(2048)).unwrap()));
/// assert!(fft128_for(PolynomialSize(32)).is_err());
/// ```
pub fn fft128_for(n: PolynomialSize) -> Result<&'static Fft128> {
    if !n.0.is_power_of_two() || n.0 < 64 || n.0 > 1 << 17 {
        return Err(Error::InvalidParameter(format!(
            "the 128-bit FFT needs a power-of-two polynomial size in [64, 2^17], got {}",
            n.0
        )));
    }
    static CACHE: OnceLock<Mutex<Vec<&'static Fft128>>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(f) = cache.iter().find(|f| f.polynomial_size == n.0) {
        return Ok(f);
    }
    let f: &'static Fft128 = Box::leak(Box::new(Fft128 {
        plan: Plan::new(n.0 / 2),
        polynomial_size: n.0,
    }));
    cache.push(f);
    Ok(f)
}

/// `x` read as a signed integer, as a double-double (exact: 106 bits hold 128 bits'
/// leading part and the rest).
#[inline(always)]
fn i128_to_f128(x: u128) -> (f64, f64) {
    let hi = x as i128 as f64;
    // `hi` back to an integer modulo 2^128 (|hi| <= 2^127 fits a u128 magnitude).
    let hi_int = if hi < 0.0 {
        ((-hi) as u128).wrapping_neg()
    } else {
        hi as u128
    };
    let lo = x.wrapping_sub(hi_int) as i128 as f64;
    (hi, lo)
}

/// `v` modulo 2^128, rounded to the nearest integer (exact for integral values,
/// whatever their magnitude).
#[inline(always)]
fn f64_mod_2_128(v: f64) -> u128 {
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        return 0; // zero or subnormal: rounds to 0
    }
    let mantissa = u128::from((bits & ((1u64 << 52) - 1)) | (1u64 << 52));
    // v = mantissa * 2^shift
    let shift = exp - 1075;
    let magnitude = if shift >= 128 {
        0
    } else if shift >= 0 {
        mantissa << shift
    } else if shift > -64 {
        let s = (-shift) as u32;
        (mantissa + (1u128 << (s - 1))) >> s
    } else {
        0
    };
    if v < 0.0 {
        magnitude.wrapping_neg()
    } else {
        magnitude
    }
}

impl Fft128 {
    /// The number of complex values of a transformed polynomial (`N/2`).
    pub fn fourier_size(&self) -> usize {
        self.polynomial_size / 2
    }

    /// The polynomial size `N`.
    pub fn polynomial_size(&self) -> PolynomialSize {
        PolynomialSize(self.polynomial_size)
    }

    /// Forward transform of `input` (`N` coefficients modulo 2^128) read as torus
    /// values (signed, times 2^-128), into `out` = `[re0, re1, im0, im1]` (`N/2`
    /// each): TFHE-rs's transform of a bootstrap key polynomial.
    pub fn forward_as_torus(&self, out: [&mut [f64]; 4], input: &[u128]) {
        let scale = 2f64.powi(-128);
        self.forward_with(out, input, |x| {
            let (h, l) = i128_to_f128(x);
            (h * scale, l * scale)
        });
    }

    /// Forward transform of `input` read as signed integers (decomposition digits).
    pub fn forward_as_integer(&self, out: [&mut [f64]; 4], input: &[u128]) {
        self.forward_with(out, input, i128_to_f128);
    }

    fn forward_with(
        &self,
        out: [&mut [f64]; 4],
        input: &[u128],
        convert: impl Fn(u128) -> (f64, f64),
    ) {
        let half = self.fourier_size();
        debug_assert_eq!(input.len(), 2 * half);
        let [re0, re1, im0, im1] = out;
        for j in 0..half {
            (re0[j], re1[j]) = convert(input[j]);
            (im0[j], im1[j]) = convert(input[j + half]);
        }
        self.plan.fwd(re0, re1, im0, im1);
    }

    /// Forward transform, in place, of a polynomial already folded into `data` =
    /// `[re0, re1, im0, im1]` (coefficient `j` as the real part and `j + N/2` as the
    /// imaginary part of value `j`, as double-doubles).
    pub(crate) fn forward_in_place(&self, data: [&mut [f64]; 4]) {
        let [re0, re1, im0, im1] = data;
        self.plan.fwd(re0, re1, im0, im1);
    }

    /// Inverse transform of `fourier` (a product of a digit polynomial by key
    /// polynomials: a torus value), added to `out` modulo 2^128. `fourier` is used as
    /// scratch (it holds the untransformed values afterwards).
    pub fn add_backward_as_torus(&self, out: &mut [u128], fourier: [&mut [f64]; 4]) {
        let half = self.fourier_size();
        debug_assert_eq!(out.len(), 2 * half);
        let [re0, re1, im0, im1] = fourier;
        self.plan.inv(re0, re1, im0, im1);
        // The inverse is unnormalised (times N/2); back to units of 2^-128.
        let scale = 2f64.powi(128 - half.trailing_zeros() as i32);
        let convert =
            |hi: f64, lo: f64| f64_mod_2_128(hi * scale).wrapping_add(f64_mod_2_128(lo * scale));
        let (out_re, out_im) = out.split_at_mut(half);
        for j in 0..half {
            out_re[j] = out_re[j].wrapping_add(convert(re0[j], re1[j]));
            out_im[j] = out_im[j].wrapping_add(convert(im0[j], im1[j]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};

    /// A negacyclic product of a key polynomial (uniform 128-bit) by a digit
    /// polynomial (|d| < 2^23) through the FFT equals the exact product up to an
    /// error far below 2^-64 of the torus.
    #[test]
    fn fft128_product_is_close_to_the_exact_negacyclic_product() {
        let n = 256;
        let fft = fft128_for(PolynomialSize(n)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let key: Vec<u128> = (0..n)
            .map(|_| u128::from(rng.next_u64()) | u128::from(rng.next_u64()) << 64)
            .collect();
        let digits: Vec<u128> = (0..n)
            .map(|_| ((rng.next_u64() % (1 << 24)) as i128 - (1 << 23)) as u128)
            .collect();
        let mut exact = vec![0u128; n];
        for i in 0..n {
            for j in 0..n {
                let p = key[i].wrapping_mul(digits[j]);
                if i + j < n {
                    exact[i + j] = exact[i + j].wrapping_add(p);
                } else {
                    exact[i + j - n] = exact[i + j - n].wrapping_sub(p);
                }
            }
        }
        let h = n / 2;
        let (mut k, mut d, mut acc) = (vec![0f64; 4 * h], vec![0f64; 4 * h], vec![0f64; 4 * h]);
        fn split(v: &mut [f64]) -> [&mut [f64]; 4] {
            let h = v.len() / 4;
            let (a, rest) = v.split_at_mut(h);
            let (b, rest) = rest.split_at_mut(h);
            let (c, e) = rest.split_at_mut(h);
            [a, b, c, e]
        }
        fft.forward_as_torus(split(&mut k), &key);
        fft.forward_as_integer(split(&mut d), &digits);
        {
            let kk = k.chunks(h).collect::<Vec<_>>();
            let dd = d.chunks(h).collect::<Vec<_>>();
            crate::core_crypto::fft128_simd::complex_mul_add(
                split(&mut acc),
                [kk[0], kk[1], kk[2], kk[3]],
                [dd[0], dd[1], dd[2], dd[3]],
            );
        }
        let mut out = vec![0u128; n];
        fft.add_backward_as_torus(&mut out, split(&mut acc));
        for (o, e) in out.iter().zip(&exact) {
            let err = o.wrapping_sub(*e) as i128;
            assert!(err.unsigned_abs() < 1 << 64, "error {err}");
        }
    }

    /// Values of at most 106 significant bits convert exactly; others keep their
    /// 106 leading bits (the double-double's precision).
    #[test]
    fn conversions_round_trip() {
        for x in [
            0u128,
            1,
            u128::MAX,
            1 << 127,
            0x3ff_ffff_ffff_ffff_ffff_ffff_ffff << 20,
        ] {
            let (h, l) = i128_to_f128(x);
            assert_eq!(f64_mod_2_128(h).wrapping_add(f64_mod_2_128(l)), x);
        }
        for x in [
            (1u128 << 127) - 1,
            0x1234_5678_9abc_def0_1122_3344_5566_7788,
        ] {
            let (h, l) = i128_to_f128(x);
            let back = f64_mod_2_128(h).wrapping_add(f64_mod_2_128(l));
            assert!((back.wrapping_sub(x) as i128).unsigned_abs() <= 1 << 22);
        }
        assert_eq!(f64_mod_2_128(2.5), 3);
        assert_eq!(f64_mod_2_128(-1.25), u128::MAX);
        assert_eq!(f64_mod_2_128(2f64.powi(130)), 0);
    }
}
