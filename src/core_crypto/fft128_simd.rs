//! SIMD kernels of the 128-bit bootstrap's Fourier-domain arithmetic, on `pulp`'s
//! runtime dispatch (AVX-512, AVX2 + FMA, or the portable scalar path, chosen
//! once per call from the CPU's features; every path computes the same bits).
//!
//! Double-double numbers (`hi + lo`, [`crate::core_crypto::fft128`]) are handled
//! lane-wise with the textbook error-free transformations: `two_sum` (Knuth),
//! `quick_two_sum` (Dekker, `|a| >= |b|`) and `two_prod` through a fused
//! multiply-add, in the same order as `tfhe-fft`'s scalar `f128` operations, so
//! that the vector paths and the scalar tail agree bit for bit.
//!
//! The kernels take structure-of-arrays operands: four slices (`re.hi`, `re.lo`,
//! `im.hi`, `im.lo`) of equal length per complex array, the layout of
//! [`crate::core_crypto::Fourier128LweBootstrapKey`].

use pulp::Simd;
use tfhe_fft::fft128::f128;

/// `(a + b, err)` exactly.
#[inline(always)]
fn two_sum<S: Simd>(s: S, a: S::f64s, b: S::f64s) -> (S::f64s, S::f64s) {
    let sum = s.add_f64s(a, b);
    let bb = s.sub_f64s(sum, a);
    let err = s.add_f64s(s.sub_f64s(a, s.sub_f64s(sum, bb)), s.sub_f64s(b, bb));
    (sum, err)
}

/// `(a - b, err)` exactly.
#[inline(always)]
fn two_diff<S: Simd>(s: S, a: S::f64s, b: S::f64s) -> (S::f64s, S::f64s) {
    let diff = s.sub_f64s(a, b);
    let bb = s.sub_f64s(diff, a);
    let err = s.sub_f64s(s.sub_f64s(a, s.sub_f64s(diff, bb)), s.add_f64s(b, bb));
    (diff, err)
}

/// `(a + b, err)` exactly when `|a| >= |b|`.
#[inline(always)]
fn quick_two_sum<S: Simd>(s: S, a: S::f64s, b: S::f64s) -> (S::f64s, S::f64s) {
    let sum = s.add_f64s(a, b);
    (sum, s.sub_f64s(b, s.sub_f64s(sum, a)))
}

/// A double-double vector: high and low parts.
type Dd<S> = (<S as Simd>::f64s, <S as Simd>::f64s);

/// `a + b` (the accurate double-double sum).
#[inline(always)]
fn dd_add<S: Simd>(s: S, a: Dd<S>, b: Dd<S>) -> Dd<S> {
    let (s1, s2) = two_sum(s, a.0, b.0);
    let (t1, t2) = two_sum(s, a.1, b.1);
    let (s1, s2) = quick_two_sum(s, s1, s.add_f64s(s2, t1));
    quick_two_sum(s, s1, s.add_f64s(s2, t2))
}

/// `a - b` (the accurate double-double difference).
#[inline(always)]
fn dd_sub<S: Simd>(s: S, a: Dd<S>, b: Dd<S>) -> Dd<S> {
    let (s1, s2) = two_diff(s, a.0, b.0);
    let (t1, t2) = two_diff(s, a.1, b.1);
    let (s1, s2) = quick_two_sum(s, s1, s.add_f64s(s2, t1));
    quick_two_sum(s, s1, s.add_f64s(s2, t2))
}

/// `a * b`: the exact product of the high parts (fused multiply-add) plus the
/// cross terms.
#[inline(always)]
fn dd_mul<S: Simd>(s: S, a: Dd<S>, b: Dd<S>) -> Dd<S> {
    let p1 = s.mul_f64s(a.0, b.0);
    let p2 = s.mul_add_f64s(a.0, b.0, s.neg_f64s(p1));
    let cross = s.add_f64s(s.mul_f64s(a.0, b.1), s.mul_f64s(a.1, b.0));
    quick_two_sum(s, p1, s.add_f64s(p2, cross))
}

/// `acc += a * b` on double-double complex numbers, in a dispatched SIMD context.
#[inline(always)]
pub(crate) fn complex_mul_add_simd<S: Simd>(
    s: S,
    acc: [&mut [f64]; 4],
    a: [&[f64]; 4],
    b: [&[f64]; 4],
) {
    let n = acc[0].len();
    assert!(
        acc.iter().all(|x| x.len() == n) && a.iter().chain(&b).all(|x| x.len() == n),
        "operands of one length"
    );
    let [acc0, acc1, acc2, acc3] = acc.map(S::as_mut_simd_f64s);
    let [a0, a1, a2, a3] = a.map(S::as_simd_f64s);
    let [b0, b1, b2, b3] = b.map(S::as_simd_f64s);
    for j in 0..acc0.0.len() {
        let ar = (a0.0[j], a1.0[j]);
        let ai = (a2.0[j], a3.0[j]);
        let br = (b0.0[j], b1.0[j]);
        let bi = (b2.0[j], b3.0[j]);
        let re = dd_sub(s, dd_mul(s, ar, br), dd_mul(s, ai, bi));
        let im = dd_add(s, dd_mul(s, ar, bi), dd_mul(s, ai, br));
        let re = dd_add(s, (acc0.0[j], acc1.0[j]), re);
        let im = dd_add(s, (acc2.0[j], acc3.0[j]), im);
        (acc0.0[j], acc1.0[j]) = re;
        (acc2.0[j], acc3.0[j]) = im;
    }
    // The tail (none for the FFT's sizes, whose halves are multiples of 8).
    for j in 0..acc0.1.len() {
        let ar = f128(a0.1[j], a1.1[j]);
        let ai = f128(a2.1[j], a3.1[j]);
        let br = f128(b0.1[j], b1.1[j]);
        let bi = f128(b2.1[j], b3.1[j]);
        let re = f128(acc0.1[j], acc1.1[j]) + (ar * br - ai * bi);
        let im = f128(acc2.1[j], acc3.1[j]) + (ar * bi + ai * br);
        (acc0.1[j], acc1.1[j]) = (re.0, re.1);
        (acc2.1[j], acc3.1[j]) = (im.0, im.1);
    }
}

/// `acc += a * b` on double-double complex numbers stored as four arrays each, on
/// the best SIMD path of this CPU (the bootstrap calls
/// [`complex_mul_add_simd`] inside its own dispatched context; the multi-bit one
/// builds its key bundles with this).
pub(crate) fn complex_mul_add(acc: [&mut [f64]; 4], a: [&[f64]; 4], b: [&[f64]; 4]) {
    struct Op<'a>([&'a mut [f64]; 4], [&'a [f64]; 4], [&'a [f64]; 4]);
    impl pulp::WithSimd for Op<'_> {
        type Output = ();
        #[inline(always)]
        fn with_simd<S: Simd>(self, simd: S) {
            complex_mul_add_simd(simd, self.0, self.1, self.2)
        }
    }
    pulp::Arch::new().dispatch(Op(acc, a, b))
}

/// The digit `d` (a signed integer of at most 63 bits) as a double-double, exact.
#[inline(always)]
pub(crate) fn i64_to_dd(d: i64) -> (f64, f64) {
    let hi = d as f64;
    // |hi| <= 2^63 rounds back to an i64 (2^63 itself only from d near i64::MAX,
    // which saturates to i64::MAX: the low part then carries the difference).
    (hi, d.wrapping_sub(hi as i64) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(acc: &mut [f64; 4], a: [f64; 4], b: [f64; 4]) {
        let (ar, ai) = (f128(a[0], a[1]), f128(a[2], a[3]));
        let (br, bi) = (f128(b[0], b[1]), f128(b[2], b[3]));
        let re = f128(acc[0], acc[1]) + (ar * br - ai * bi);
        let im = f128(acc[2], acc[3]) + (ar * bi + ai * br);
        *acc = [re.0, re.1, im.0, im.1];
    }

    /// Every SIMD path gives the bits of the scalar double-double operations, on
    /// lengths with and without a tail.
    #[test]
    fn simd_mul_add_matches_scalar_f128() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let hi = (x >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            (hi, hi * 2f64.powi(-60) * ((x & 0xff) as f64 / 256.0))
        };
        for len in [1usize, 8, 19, 64] {
            let mut draw = |_| {
                let v: Vec<(f64, f64)> = (0..len).map(|_| next()).collect();
                let (h, l): (Vec<f64>, Vec<f64>) = v.into_iter().unzip();
                let (h2, l2): (Vec<f64>, Vec<f64>) = (0..len).map(|_| next()).unzip();
                [h, l, h2, l2]
            };
            let [a, b, acc] = [0; 3].map(&mut draw);
            let mut out = acc.clone();
            {
                let [o0, o1, o2, o3] = &mut out;
                complex_mul_add(
                    [o0, o1, o2, o3],
                    [&a[0], &a[1], &a[2], &a[3]],
                    [&b[0], &b[1], &b[2], &b[3]],
                );
            }
            for j in 0..len {
                let mut want = [acc[0][j], acc[1][j], acc[2][j], acc[3][j]];
                scalar(
                    &mut want,
                    [a[0][j], a[1][j], a[2][j], a[3][j]],
                    [b[0][j], b[1][j], b[2][j], b[3][j]],
                );
                let got = [out[0][j], out[1][j], out[2][j], out[3][j]];
                assert_eq!(
                    got.map(f64::to_bits),
                    want.map(f64::to_bits),
                    "len {len} j {j}"
                );
            }
        }
    }

    #[test]
    fn digits_convert_exactly() {
        for d in [0i64, 1, -1, (1 << 53) + 1, -(1 << 62) + 3, (1 << 62) - 1] {
            let (h, l) = i64_to_dd(d);
            assert_eq!(h as i128 + l as i128, d as i128);
        }
    }
}
