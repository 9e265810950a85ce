// The 128-bit programmable bootstrap of noise squashing, the GPU twin of
// core_crypto/algorithms/lwe_programmable_bootstrapping_128.rs (TFHE-rs 1.8's
// `blind_rotate_f128_lwe_ciphertext`): the 64-bit LWE ciphertext after the keyswitch
// is switched to the modulus 2N, blind-rotated through a bootstrap key whose GGSW
// ciphertexts are modulo 2^128, and the constant coefficient is extracted into a
// 128-bit LWE ciphertext under the GLWE key.
//
// Arithmetic (see docs/kernel-report.md, "The 128-bit bootstrap"): the torus is
// `unsigned __int128`; the negacyclic products of the external product go through a
// double-double FFT (every real an unevaluated sum hi + lo of two doubles, about 104
// bits of precision, as tfhe-fft's fft128 that the CPU uses). A polynomial of size N
// is folded into M = N/2 complex values b_e = (a_e + i a_{e+M}) w^e, w = e^{i pi / N},
// transformed by a cyclic FFT of size M (decimation in frequency, bit-reversed
// output), multiplied pointwise, transformed back (decimation in time), untwisted and
// scaled by 1/M. Key polynomials are torus values (signed coefficient times 2^-128),
// digits small integers, so a product is a torus value whose fractional part, times
// 2^128, is the 128-bit result.
//
// Work split: one block of T threads per ciphertext. The accumulator ((k + 1) N
// values of 128 bits) lives in a global scratch buffer (it does not fit beside the
// spectra in shared memory at N = 2048, k = 2); the shared memory holds the k + 1
// output spectra, one FFT buffer and the switched mask. One CMux (mask coefficient
// a_i != 0): for each input polynomial c and level j, every thread decomposes its
// coefficients of X^{a_i} ACC_c - ACC_c, folds and twists them into the buffer, the
// block transforms it and multiplies it into the k + 1 spectra by row (j, c) of
// GGSW_i; then each spectrum is transformed back and added to ACC_p.
//
// Fourier key layout: (GGSW i, row r = j (k + 1) + c with j = 0 the least
// significant level, output polynomial p, M values in the forward transform's
// order), each value four doubles (re.hi, re.lo, im.hi, im.lo); written by
// bsk128_to_fourier_<N> with the same transform, so the two always agree.

#include "negacyclic_fft.cuh"  // ilog2; torus.cuh

namespace gpufhe {

typedef unsigned __int128 u128;

// A double-double real: hi + lo, |lo| <= ulp(hi) / 2.
struct dd {
  double hi, lo;
};

// A complex double-double, the layout of the Fourier key and the shared buffers.
struct cdd {
  dd re, im;
};

__device__ __forceinline__ dd two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return dd{s, (a - (s - bb)) + (b - bb)};
}

__device__ __forceinline__ dd quick_two_sum(double a, double b) {
  const double s = a + b;
  return dd{s, b - (s - a)};
}

// The accurate double-double sum (both error terms kept).
__device__ __forceinline__ dd dd_add(dd a, dd b) {
  dd s = two_sum(a.hi, b.hi);
  const dd t = two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = quick_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return quick_two_sum(s.hi, s.lo);
}

__device__ __forceinline__ dd dd_neg(dd a) { return dd{-a.hi, -a.lo}; }

__device__ __forceinline__ dd dd_mul(dd a, dd b) {
  const double p = a.hi * b.hi;
  double e = fma(a.hi, b.hi, -p);
  e += a.hi * b.lo + a.lo * b.hi;
  return quick_two_sum(p, e);
}

__device__ __forceinline__ dd dd_scale(dd a, double power_of_two) {
  return dd{a.hi * power_of_two, a.lo * power_of_two};
}

__device__ __forceinline__ cdd cdd_add(cdd a, cdd b) {
  return cdd{dd_add(a.re, b.re), dd_add(a.im, b.im)};
}

__device__ __forceinline__ cdd cdd_sub(cdd a, cdd b) {
  return cdd{dd_add(a.re, dd_neg(b.re)), dd_add(a.im, dd_neg(b.im))};
}

__device__ __forceinline__ cdd cdd_mul(cdd a, cdd b) {
  return cdd{dd_add(dd_mul(a.re, b.re), dd_neg(dd_mul(a.im, b.im))),
             dd_add(dd_mul(a.re, b.im), dd_mul(a.im, b.re))};
}

// a * conj(b)
__device__ __forceinline__ cdd cdd_mul_conj(cdd a, cdd b) {
  return cdd{dd_add(dd_mul(a.re, b.re), dd_mul(a.im, b.im)),
             dd_add(dd_mul(a.im, b.re), dd_neg(dd_mul(a.re, b.im)))};
}

// x read as a signed integer, times 2^-128: four exact 32-bit pieces summed in
// double-double (the 106 leading bits of x).
__device__ __forceinline__ dd torus_to_dd(u128 x) {
  const int64_t h = (int64_t)(uint64_t)(x >> 64);
  const uint64_t l = (uint64_t)x;
  const double two32 = 4294967296.0;
  dd v = two_sum((double)(h >> 32) * two32, (double)(uint32_t)h);
  v = dd_add(dd_scale(v, two32), dd{(double)(uint32_t)(l >> 32), 0.0});
  v = dd_add(dd_scale(v, two32), dd{(double)(uint32_t)l, 0.0});
  // v = x as a signed integer; times 2^-128 (exact).
  return dd_scale(v, 1.0 / 340282366920938463463374607431768211456.0);
}

// v (an integer-valued or fractional double of any magnitude) rounded to the nearest
// integer modulo 2^128. The multiple of 2^128 nearest v is removed exactly, leaving
// r in [-2^127, 2^127] (2^127 folded to -2^127); its magnitude is split into 64-bit
// halves exactly (below 2^64 the low half is the magnitude itself; above, a multiple
// of 2^12 or more with at most 53 significant bits), then the sign applied.
__device__ __forceinline__ u128 f64_mod_2_128(double v) {
  const double two64 = 18446744073709551616.0;
  const double two127 = 170141183460469231731687303715884105728.0;
  const double two128 = 340282366920938463463374607431768211456.0;
  double r = rint(v - rint(v * (1.0 / two128)) * two128);
  if (r >= two127) r -= two128;
  const double magnitude = fabs(r);
  const double high = floor(magnitude * (1.0 / two64));
  const double low = magnitude - high * two64;  // in [0, 2^64), exact
  const u128 m = ((u128)(uint64_t)high << 64) | (u128)(uint64_t)low;
  return r < 0 ? (u128)0 - m : m;
}

// A double-double torus value (times 2^128) to 128 bits, each part on its own.
__device__ __forceinline__ u128 dd_to_torus(dd v) {
  const double two128 = 340282366920938463463374607431768211456.0;
  return f64_mod_2_128(v.hi * two128) + f64_mod_2_128(v.lo * two128);
}

// Digit `j` (0: the least significant level, the key's first) of the signed
// decomposition of x into `level` digits of `base_log` bits, as
// decompose_128 in lwe_programmable_bootstrapping_128.rs. Requires 1 <= base_log <= 63
// and base_log * level <= 128.
__device__ __forceinline__ int64_t decompose_digit_128(u128 x, uint32_t base_log,
                                                       uint32_t level, uint32_t j) {
  const uint32_t kept = base_log * level;
  u128 state = x;
  if (kept < 128) {
    const uint32_t shift = 128 - kept;
    state = ((x >> shift) + ((x >> (shift - 1)) & 1)) & (~(u128)0 >> shift);
  }
  const u128 mask = ((u128)1 << base_log) - 1;
  const u128 half = (u128)1 << (base_log - 1);
  u128 digit = 0;
  for (uint32_t d = 0; d <= j; ++d) {
    const u128 raw = state & mask;
    state >>= base_log;
    const u128 carry = (u128)((raw > half) | ((raw == half) & ((state & 1) == 1)));
    state += carry;
    digit = raw - (carry << base_log);
  }
  return (int64_t)(uint64_t)digit;
}

// (X^{-power} poly)[x] for power in [0, 2N).
template <int N>
__device__ __forceinline__ u128 rotated_left_128(const u128 *poly, int x, uint32_t power) {
  const bool flip = power >= (uint32_t)N;
  const int y = x + (int)(flip ? power - N : power);
  const u128 v = poly[y & (N - 1)];
  return (y >= N) != flip ? (u128)0 - v : v;
}

// (X^{power} poly)[x] for power in [0, 2N).
template <int N>
__device__ __forceinline__ u128 rotated_right_128(const u128 *poly, int x, uint32_t power) {
  const bool flip = power >= (uint32_t)N;
  const int y = x - (int)(flip ? power - N : power);
  const u128 v = poly[y & (N - 1)];
  return (y < 0) != flip ? (u128)0 - v : v;
}

// The cyclic transforms of M complex double-doubles in shared memory `x`, by the T
// threads of the block; `twiddles[j]` = W^j, W = e^{-2 pi i / M}, j < M/2. Each
// stage is one pass over the M/2 butterflies between barriers. The forward transform
// (decimation in frequency) maps natural order to bit-reversed order; the inverse
// (decimation in time, times M) maps it back. Every thread of the block calls them;
// they start and end with a barrier.
template <int M, int T>
__device__ __forceinline__ void forward_fft_128(cdd *x, const cdd *__restrict__ twiddles) {
  for (int span = M / 2; span >= 1; span >>= 1) {
    __syncthreads();
    for (int b = (int)threadIdx.x; b < M / 2; b += T) {
      const int i = b & (span - 1);
      const int e = ((b - i) << 1) + i;
      const cdd a = x[e], c = x[e + span];
      x[e] = cdd_add(a, c);
      x[e + span] = cdd_mul(cdd_sub(a, c), twiddles[i * (M / (2 * span))]);
    }
  }
  __syncthreads();
}

template <int M, int T>
__device__ __forceinline__ void inverse_fft_128(cdd *x, const cdd *__restrict__ twiddles) {
  for (int span = 1; span <= M / 2; span <<= 1) {
    __syncthreads();
    for (int b = (int)threadIdx.x; b < M / 2; b += T) {
      const int i = b & (span - 1);
      const int e = ((b - i) << 1) + i;
      const cdd a = x[e];
      const cdd c = cdd_mul_conj(x[e + span], twiddles[i * (M / (2 * span))]);
      x[e] = cdd_add(a, c);
      x[e + span] = cdd_sub(a, c);
    }
  }
  __syncthreads();
}

// Mirrors `Pbs128Params` in src/backend/cuda/algorithms/lwe_programmable_bootstrapping_128.rs.
struct Pbs128Params {
  uint64_t *out;             // count 128-bit LWE ciphertexts of size k N + 1 (lo, hi words)
  uint64_t *acc;             // scratch: count accumulators of (k + 1) N 128-bit values
  const uint64_t *in;        // count 64-bit LWE ciphertexts of size n + 1
  const uint64_t *lut;       // the accumulator of the lookup table, (k + 1) N 128-bit values
  const double *bsk;         // Fourier key (layout above)
  const double *twiddles;    // W^j, j < M/2, complex double-doubles
  const double *twist;       // w^e, e < M, complex double-doubles
  uint32_t lwe_dimension;    // n
  uint32_t glwe_dimension;   // k
  uint32_t base_log;
  uint32_t level;
  uint32_t centered;         // 1: centered-mean modulus switch
  uint32_t count;
};

// Mirrors `Bsk128ConversionParams` in src/backend/cuda/entities/bootstrap_key_128.rs.
struct Bsk128ConversionParams {
  double *out;               // Fourier key, M complex double-doubles per polynomial
  const uint64_t *in;        // standard key, N 128-bit coefficients per polynomial
  const double *twiddles;
  const double *twist;
  uint64_t polynomials;
};

// The modulus switch of `input` (n + 1 words) to 2N, as modulus_switch_lwe_ciphertext
// (core_crypto/algorithms/modulus_switch.rs), by thread 0 alone (n steps, against the
// n CMux of the rotation): mask[0..n] and the body at mask[n].
template <int LOG_2N>
__device__ __forceinline__ void switch_to_2n(const uint64_t *input, uint32_t n, bool centered,
                                            uint32_t *mask) {
  if (threadIdx.x != 0) return;
  __int128 error_sum = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t s = switch_modulus(input[i], LOG_2N);
    error_sum += (__int128)(int64_t)((s << (64 - LOG_2N)) - input[i]);
    mask[i] = (uint32_t)(s & ((1ull << LOG_2N) - 1));
  }
  uint64_t body = input[n];
  if (centered) body += (uint64_t)(error_sum >> 1);
  mask[n] = (uint32_t)(switch_modulus(body, LOG_2N) & ((1ull << LOG_2N) - 1));
}

template <int N, int T>
__device__ __forceinline__ void programmable_bootstrap_128(const Pbs128Params &p) {
  constexpr int M = N / 2;
  constexpr int LOG_2N = ilog2(2 * N);
  const uint32_t n = p.lwe_dimension, k = p.glwe_dimension, l = p.level;
  const uint32_t ct = blockIdx.x;
  const int t = threadIdx.x;
  GPUFHE_DYNAMIC_SHARED(cdd, smem);
  cdd *spectra = smem;                          // (k + 1) M
  cdd *buffer = smem + (size_t)(k + 1) * M;     // M
  uint32_t *mask = reinterpret_cast<uint32_t *>(buffer + M);  // n + 1
  const cdd *twiddles = reinterpret_cast<const cdd *>(p.twiddles);
  const cdd *twist = reinterpret_cast<const cdd *>(p.twist);
  const cdd *bsk = reinterpret_cast<const cdd *>(p.bsk);
  const u128 *lut = reinterpret_cast<const u128 *>(p.lut);
  u128 *acc = reinterpret_cast<u128 *>(p.acc) + (size_t)ct * (k + 1) * N;

  switch_to_2n<LOG_2N>(p.in + (size_t)ct * (n + 1), n, p.centered != 0, mask);
  __syncthreads();
  // ACC = X^{-body} LUT.
  for (uint32_t c = 0; c <= k; ++c)
    for (int x = t; x < N; x += T) acc[c * N + x] = rotated_left_128<N>(lut + c * N, x, mask[n]);

  const size_t ggsw_size = (size_t)(k + 1) * l * (k + 1) * M;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t a = mask[i];
    if (a == 0) continue;  // X^0 ACC - ACC = 0 (uniform over the block)
    const cdd *ggsw = bsk + (size_t)i * ggsw_size;
    __syncthreads();  // the previous CMux's additions to ACC are visible
    for (int e = t; e < (int)((k + 1) * M); e += T) spectra[e] = cdd{{0.0, 0.0}, {0.0, 0.0}};
    for (uint32_t c = 0; c <= k; ++c) {
      const u128 *poly = acc + c * N;
      for (uint32_t j = 0; j < l; ++j) {
        // Row (j, c): the digits of X^{a} ACC_c - ACC_c, folded and twisted.
        for (int e = t; e < M; e += T) {
          const u128 lo = rotated_right_128<N>(poly, e, a) - poly[e];
          const u128 hi = rotated_right_128<N>(poly, e + M, a) - poly[e + M];
          const cdd folded{{(double)decompose_digit_128(lo, p.base_log, l, j), 0.0},
                           {(double)decompose_digit_128(hi, p.base_log, l, j), 0.0}};
          buffer[e] = cdd_mul(folded, twist[e]);
        }
        forward_fft_128<M, T>(buffer, twiddles);
        const cdd *row = ggsw + (size_t)(j * (k + 1) + c) * (k + 1) * M;
        for (uint32_t q = 0; q <= k; ++q)
          for (int e = t; e < M; e += T)
            spectra[q * M + e] =
                cdd_add(spectra[q * M + e], cdd_mul(buffer[e], row[(size_t)q * M + e]));
      }
    }
    // Every thread has read ACC (and its row buffer) before any writes to it.
    for (uint32_t q = 0; q <= k; ++q) {
      __syncthreads();
      for (int e = t; e < M; e += T) buffer[e] = spectra[q * M + e];
      inverse_fft_128<M, T>(buffer, twiddles);
      u128 *out = acc + q * N;
      for (int e = t; e < M; e += T) {
        const cdd z = cdd_mul_conj(buffer[e], twist[e]);
        out[e] += dd_to_torus(dd_scale(z.re, 1.0 / M));
        out[e + M] += dd_to_torus(dd_scale(z.im, 1.0 / M));
      }
    }
  }
  __syncthreads();
  // Sample extraction of the constant coefficient.
  u128 *result = reinterpret_cast<u128 *>(p.out) + (size_t)ct * (k * N + 1);
  for (uint32_t c = 0; c < k; ++c)
    for (int x = t; x < N; x += T)
      result[c * N + x] = x == 0 ? acc[c * N] : (u128)0 - acc[c * N + N - x];
  if (t == 0) result[k * N] = acc[k * N];
}

template <int N, int T>
__device__ __forceinline__ void bsk128_to_fourier(const Bsk128ConversionParams &p) {
  constexpr int M = N / 2;
  GPUFHE_DYNAMIC_SHARED(cdd, buffer);
  const cdd *twiddles = reinterpret_cast<const cdd *>(p.twiddles);
  const cdd *twist = reinterpret_cast<const cdd *>(p.twist);
  for (uint64_t poly = blockIdx.x; poly < p.polynomials; poly += gridDim.x) {
    const u128 *in = reinterpret_cast<const u128 *>(p.in) + poly * N;
    for (int e = (int)threadIdx.x; e < M; e += T)
      buffer[e] = cdd_mul(cdd{torus_to_dd(in[e]), torus_to_dd(in[e + M])}, twist[e]);
    forward_fft_128<M, T>(buffer, twiddles);
    cdd *out = reinterpret_cast<cdd *>(p.out) + poly * M;
    for (int e = (int)threadIdx.x; e < M; e += T) out[e] = buffer[e];
    __syncthreads();  // the buffer is rewritten for the next polynomial
  }
}

}  // namespace gpufhe

using gpufhe::Bsk128ConversionParams;
using gpufhe::Pbs128Params;

// One instantiation per polynomial size N with T threads per block (M / 2 butterflies
// per stage, at most 256 threads). The host takes T from
// src/backend/cuda/kernels.rs (NOISE_SQUASHING_SIZES). The bootstrap asks for one
// block per SM at least and no more: without it, ptxas for sm_80 held the kernel to 64
// registers and spilled 16 bytes; with it, 92 registers and no local memory.
#define NOISE_SQUASHING_KERNELS(N, T)                                                        \
  extern "C" __global__ void __launch_bounds__(T)                                            \
      bsk128_to_fourier_##N(Bsk128ConversionParams p) {                                      \
    gpufhe::bsk128_to_fourier<N, T>(p);                                                      \
  }                                                                                          \
  extern "C" __global__ void __launch_bounds__(T, 1)                                         \
      programmable_bootstrap_128_##N(Pbs128Params p) {                                       \
    gpufhe::programmable_bootstrap_128<N, T>(p);                                             \
  }

NOISE_SQUASHING_KERNELS(256, 64)
NOISE_SQUASHING_KERNELS(512, 128)
NOISE_SQUASHING_KERNELS(1024, 256)
NOISE_SQUASHING_KERNELS(2048, 256)
NOISE_SQUASHING_KERNELS(4096, 256)
