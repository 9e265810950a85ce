//! Polynomial arithmetic modulo `X^N + 1` over `u64` (integers modulo 2^64).

/// `out += a * s` modulo `X^N + 1`, where `s` has coefficients in {0, 1}.
///
/// Exact (no floating point): it adds `X^j * a` for every `j` with `s_j = 1`, which
/// is `N * weight(s)` additions. Used by encryption, where exactness matters.
pub(crate) fn polynomial_wrapping_add_mul_binary_assign(out: &mut [u64], a: &[u64], s: &[u64]) {
    pulp::Arch::new().dispatch(AddMulBinary { out, a, s });
}

struct AddMulBinary<'a> {
    out: &'a mut [u64],
    a: &'a [u64],
    s: &'a [u64],
}

impl pulp::WithSimd for AddMulBinary<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        add_mul_binary(self.out, self.a, self.s)
    }
}

/// Output coefficients summed in registers at a time by [`add_mul_binary`] (8 AVX-512
/// registers).
const PRODUCT_BLOCK: usize = 64;

#[inline(always)]
fn add_mul_binary(out: &mut [u64], a: &[u64], s: &[u64]) {
    let n = out.len();
    debug_assert!(a.len() == n && s.len() == n);
    // With ext = (-a, a): (X^j * a)_t = ext[n + t - j] for every t and j in [0, n), so
    // each block of outputs sums contiguous slices of ext in registers, and is
    // stored once (instead of once per key bit).
    let mut ext = vec![0u64; 2 * n];
    for (e, x) in ext.iter_mut().zip(a) {
        *e = x.wrapping_neg();
    }
    ext[n..].copy_from_slice(a);
    let starts: Vec<usize> = (0..n).filter(|&j| s[j] == 1).map(|j| n - j).collect();
    for (t, block) in (0..n)
        .step_by(PRODUCT_BLOCK)
        .zip(out.chunks_mut(PRODUCT_BLOCK))
    {
        let mut sum = [0u64; PRODUCT_BLOCK];
        if block.len() == PRODUCT_BLOCK {
            for &start in &starts {
                let x = &ext[start + t..start + t + PRODUCT_BLOCK];
                for (s, x) in sum.iter_mut().zip(x) {
                    *s = s.wrapping_add(*x);
                }
            }
        } else {
            for &start in &starts {
                for (s, x) in sum.iter_mut().zip(&ext[start + t..start + t + block.len()]) {
                    *s = s.wrapping_add(*x);
                }
            }
        }
        for (o, s) in block.iter_mut().zip(&sum) {
            *o = o.wrapping_add(*s);
        }
    }
}

/// `out = X^power * input - input` modulo `X^N + 1`, for `power` in `[0, 2N)`.
#[inline(always)]
pub(crate) fn polynomial_rotate_minus_self(out: &mut [u64], input: &[u64], power: usize) {
    let n = input.len();
    let (p, sign_flip) = if power >= n {
        (power - n, true)
    } else {
        (power, false)
    };
    // (X^p * a)_t = a_{t-p} for t >= p, -a_{t-p+N} for t < p; then negated if power >= N.
    let (out_low, out_high) = out.split_at_mut(p);
    let (in_low, in_high) = input.split_at(p);
    let (a_low, a_high) = input.split_at(n - p);
    if sign_flip {
        for ((o, x), y) in out_low.iter_mut().zip(a_high).zip(in_low) {
            *o = x.wrapping_sub(*y);
        }
        for ((o, x), y) in out_high.iter_mut().zip(a_low).zip(in_high) {
            *o = 0u64.wrapping_sub(*x).wrapping_sub(*y);
        }
    } else {
        for ((o, x), y) in out_low.iter_mut().zip(a_high).zip(in_low) {
            *o = 0u64.wrapping_sub(*x).wrapping_sub(*y);
        }
        for ((o, x), y) in out_high.iter_mut().zip(a_low).zip(in_high) {
            *o = x.wrapping_sub(*y);
        }
    }
}

/// `out = X^(-power) * input` modulo `X^N + 1`, for `power` in `[0, 2N)`.
pub(crate) fn polynomial_rotate_left(out: &mut [u64], input: &[u64], power: usize) {
    let n = input.len();
    let (p, sign_flip) = if power >= n {
        (power - n, true)
    } else {
        (power, false)
    };
    // (X^-p * a)_t = a_{t+p} for t < N - p, and -a_{t+p-N} otherwise.
    let (out_low, out_high) = out.split_at_mut(n - p);
    for (o, x) in out_low.iter_mut().zip(&input[p..]) {
        *o = if sign_flip { x.wrapping_neg() } else { *x };
    }
    for (o, x) in out_high.iter_mut().zip(&input[..p]) {
        *o = if sign_flip { *x } else { x.wrapping_neg() };
    }
}

/// Schoolbook negacyclic product modulo 2^64: the reference of the tests.
#[cfg(test)]
pub(crate) fn naive_negacyclic_mul(a: &[u64], b: &[u64]) -> Vec<u64> {
    let n = a.len();
    let mut out = vec![0u64; n];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            let p = x.wrapping_mul(*y);
            if i + j < n {
                out[i + j] = out[i + j].wrapping_add(p);
            } else {
                out[i + j - n] = out[i + j - n].wrapping_sub(p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use naive_negacyclic_mul as naive_mul;

    fn monomial(n: usize, power: usize) -> Vec<u64> {
        let mut m = vec![0u64; n];
        if power < n {
            m[power] = 1;
        } else {
            m[power - n] = u64::MAX;
        }
        m
    }

    #[test]
    fn binary_product_matches_schoolbook() {
        // Below one block of outputs, and several blocks; added to what `out` holds.
        for n in [16, 256] {
            let a: Vec<u64> = (0..n as u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            let s: Vec<u64> = (0..n).map(|i| ((i * 7 + 3) % 5 < 2) as u64).collect();
            let before: Vec<u64> = (0..n as u64).map(|i| i << 50).collect();
            let mut out = before.clone();
            polynomial_wrapping_add_mul_binary_assign(&mut out, &a, &s);
            let expected: Vec<u64> = naive_mul(&a, &s)
                .iter()
                .zip(&before)
                .map(|(x, y)| x.wrapping_add(*y))
                .collect();
            assert_eq!(out, expected, "N = {n}");
        }
    }

    #[test]
    fn rotations_match_monomial_products() {
        let n = 8;
        let a: Vec<u64> = (1..=n as u64).map(|i| i * 1000 + 7).collect();
        for power in 0..2 * n {
            let mut out = vec![0u64; n];
            polynomial_rotate_minus_self(&mut out, &a, power);
            let expected: Vec<u64> = naive_mul(&a, &monomial(n, power))
                .iter()
                .zip(&a)
                .map(|(x, y)| x.wrapping_sub(*y))
                .collect();
            assert_eq!(out, expected, "X^{power} a - a");

            polynomial_rotate_left(&mut out, &a, power);
            let back = naive_mul(&out, &monomial(n, power));
            assert_eq!(back, a, "X^{power} X^-{power} a");
        }
    }
}
