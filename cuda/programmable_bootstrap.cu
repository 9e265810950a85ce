// Bootstrap-key conversion to the Fourier domain and the batched classical
// programmable bootstrap (PBS), the GPU twins of FourierLweBootstrapKey::from_standard
// and of modulus switch + blind rotation + sample extraction
// (core_crypto/algorithms/{modulus_switch,lwe_programmable_bootstrapping,sample_extraction}.rs).
//
// Work split. One thread group of T = N/(2R) threads owns one polynomial of the
// accumulator: thread t holds coefficients t + vT and t + vT + N/2 (v < R) in
// registers for the whole blind rotation, and runs the FFTs of that polynomial (see
// negacyclic_fft.cuh). A bootstrap needs k + 1 groups:
//   - programmable_bootstrap_<N>_u64: one thread block of (k+1) T threads per
//     ciphertext (any GPU); at N = 4096, T threads that each hold both polynomials
//     of k = 1 (see SingleBlock: (k+1) T threads there would spill);
//   - programmable_bootstrap_cluster_<N>_u64 (sm_90+): a cluster of k + 1 blocks of
//     T threads per ciphertext, one group per block, so one bootstrap runs on k + 1
//     SMs at once; the external product reads the other blocks' Fourier rows through
//     distributed shared memory.
// One CMux iteration (mask coefficient a_i != 0): each group writes its polynomial to
// shared memory, reads X^{a_i} ACC_g - ACC_g, decomposes it (level by level), folds,
// twists and transforms it into row (g, j); after a barrier over the whole ciphertext
// (the only one per CMux: the row buffers alternate, see SingleBlock) every group
// multiplies all rows by its column of GGSW_i (Fourier key read straight from global
// memory, coalesced), transforms back, untwists, rounds and adds to its polynomial.
// After n iterations the requested coefficients are extracted.
//
// The Fourier key layout is (GGSW i, row r, column c, then for each polynomial value v
// of thread t at slot v T + t): exactly what the MAC loop reads, written by the
// conversion kernel with the same FFT, so the two always agree.
//
// The multi-bit bootstrap (multi_bit_bootstrap.cuh, included below the classical
// pieces it reuses: rotated_table, prefetch_column, external_product_add,
// extract_samples) has its kernels instantiated next to these, per N.
//
// The loops over rows and levels, whose trip counts are known only at run time, are
// kept rolled (`#pragma unroll 1`): scripts/kernel-report.py finds them in the SASS as
// one loop each and weights their bodies by the trip counts.

#include <cooperative_groups.h>

#include "negacyclic_fft.cuh"

namespace gpufhe {

// Mirrors `PbsParams` in src/backend/cuda/algorithms/lwe_programmable_bootstrapping.rs (#[repr(C)]).
struct PbsParams {
  uint64_t *out;             // output list: ciphertexts of size k N + 1
  const uint64_t *in;        // input list: `count` ciphertexts of size n + 1
  const uint64_t *luts;      // lookup tables: trivial GLWE accumulators, (k + 1) N each
  const uint32_t *jobs;      // per input: lookup table, first output slot, function count
  const double2 *bsk;        // Fourier bootstrap key
  const double2 *twiddles;   // by stage: W^(i M / (2 s)), i < s, at M - 2 s (M - 1 values)
  const double2 *twist;      // w^p = e^{i pi p / N}, p < M
  double twist_steps[16];    // e^{i pi j / 16}, j < 8, as (re, im): see twist_of
  uint32_t lwe_dimension;    // n
  uint32_t glwe_dimension;   // k
  uint32_t base_log;
  uint32_t level;
  uint32_t centered;         // 1: centered-mean modulus switch
  uint32_t count;            // number of inputs
  uint32_t prefetch_share;   // ciphertexts that split the L2 prefetch of the key (>= 1;
                             // 1 for the multi-bit bundles, each a ciphertext's own)
};

// Mirrors `BskConversionParams` in src/backend/cuda/entities/bootstrap_key.rs.
struct BskConversionParams {
  double2 *out;              // Fourier key, M values per polynomial
  const uint64_t *in;        // standard key, N coefficients per polynomial
  const double2 *twiddles;
  const double2 *twist;
  uint64_t polynomials;
};

// (X^{-power} poly)[x] for power in [0, 2N), as polynomial_rotate_left. One load
// whose index wraps (N is a power of two) and one conditional negation: a load on
// each side of the wrap would cost two shared-memory reads per value in the CMux.
template <int N>
__device__ __forceinline__ uint64_t rotated_left(const uint64_t *poly, int x, uint32_t power) {
  const bool flip = power >= (uint32_t)N;
  const int y = x + (int)(flip ? power - N : power);
  const uint64_t v = poly[y & (N - 1)];
  return (y >= N) != flip ? 0 - v : v;
}

// (X^{power} poly)[x] for power in [0, 2N), as polynomial_rotate_minus_self.
template <int N>
__device__ __forceinline__ uint64_t rotated_right(const uint64_t *poly, int x, uint32_t power) {
  const bool flip = power >= (uint32_t)N;
  const int y = x - (int)(flip ? power - N : power);
  const uint64_t v = poly[y & (N - 1)];
  return (y < 0) != flip ? 0 - v : v;
}

// One thread block per ciphertext. With G = 1, (k + 1) T threads: thread group
// threadIdx.x / T owns polynomial g of that number. With G = 2 (N = 4096, where
// (k + 1) T threads would leave 128 registers a thread, which spill), T threads for
// k + 1 = 2 polynomials: each thread holds its values of both and runs their
// decompositions, transforms and products one after the other.
// The rows of a CMux live in one of two sets of buffers, `phase` (0 or 1) flipping
// every CMux: while a group (or, in a cluster, another block) still reads this
// CMux's rows, the next CMux's staging, forward transforms and rows already go to
// the other set, so a CMux needs one barrier over the whole ciphertext instead of
// two. Layout of the dynamic shared memory: the row buffers of phase 0 then phase 1
// (PADDED double2 each), the staging of the accumulator when l > 1, the switched mask.
template <class Fft, int G = 1>
struct SingleBlock {
  static constexpr int GROUPS = G;  // polynomials of the accumulator per thread
  double2 *smem;
  uint32_t k, l;

  __device__ int group() const { return (int)(threadIdx.x / Fft::T) * G; }
  __device__ int thread() const { return threadIdx.x % Fft::T; }
  __device__ uint32_t ciphertext() const { return blockIdx.x; }
  __device__ double2 *own_row(int g, uint32_t j, uint32_t phase) const {
    return smem + (size_t)((phase * (k + 1) + g) * l + j) * Fft::PADDED;
  }
  __device__ const double2 *row(uint32_t r, uint32_t phase) const {
    return smem + (size_t)(phase * (k + 1) * l + r) * Fft::PADDED;
  }
  __device__ double2 *after_rows() const {
    return smem + (size_t)2 * (k + 1) * l * Fft::PADDED;
  }
  __device__ uint64_t *staging(int g, uint32_t phase) const {
    return l == 1 ? reinterpret_cast<uint64_t *>(own_row(g, 0, phase))
                  : reinterpret_cast<uint64_t *>(after_rows()) + (size_t)g * Fft::N;
  }
  __device__ uint32_t *mask() const {
    return reinterpret_cast<uint32_t *>(after_rows() + (l == 1 ? 0 : (size_t)(k + 1) * Fft::M));
  }
  __device__ void sync_all() const { __syncthreads(); }
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// A cluster of k + 1 blocks per ciphertext, group g = rank of the block.
template <class Fft>
struct ClusterOfBlocks {
  static constexpr int GROUPS = 1;
  double2 *smem;
  uint32_t k, l;

  __device__ int group() const { return (int)cooperative_groups::this_cluster().block_rank(); }
  __device__ int thread() const { return threadIdx.x; }
  __device__ uint32_t ciphertext() const { return blockIdx.x / (k + 1); }
  __device__ double2 *own_row(int, uint32_t j, uint32_t phase) const {
    return smem + (size_t)(phase * l + j) * Fft::PADDED;
  }
  __device__ const double2 *row(uint32_t r, uint32_t phase) const {
    return cooperative_groups::this_cluster().map_shared_rank(
        smem + (size_t)(phase * l + r % l) * Fft::PADDED, r / l);
  }
  __device__ double2 *after_rows() const { return smem + (size_t)2 * l * Fft::PADDED; }
  __device__ uint64_t *staging(int g, uint32_t phase) const {
    return l == 1 ? reinterpret_cast<uint64_t *>(own_row(g, 0, phase))
                  : reinterpret_cast<uint64_t *>(after_rows());
  }
  __device__ uint32_t *mask() const {
    return reinterpret_cast<uint32_t *>(after_rows() + (l == 1 ? 0 : Fft::M));
  }
  __device__ void sync_all() const { cooperative_groups::this_cluster().sync(); }
};
#endif

// Modulus switch of the input (warp 0): the switched mask to mask[0..n] in shared
// memory and the switched body to mask[n], with the centered-mean correction
// sum(e_i) / 2 when asked. (The body lives in the dynamic shared memory rather than a
// static __shared__ variable: a cluster's blocks each need their own, which the CPU
// emulation can only give through the dynamic shared memory.)
template <int LOG_2N>
__device__ __forceinline__ void modulus_switch(const uint64_t *input, uint32_t n, bool centered,
                                               uint32_t *mask) {
  if (threadIdx.x >= 32) return;
  unsigned __int128 error_sum = 0;
  for (uint32_t i = threadIdx.x; i < n; i += 32) {
    const uint64_t a = input[i];
    const uint64_t s = switch_modulus(a, LOG_2N);
    const int64_t error = (int64_t)((s << (64 - LOG_2N)) - a);
    error_sum += (unsigned __int128)(__int128)error;
    mask[i] = (uint32_t)(s & ((1u << LOG_2N) - 1));
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    const uint64_t lo = __shfl_xor_sync(0xffffffffu, (uint64_t)error_sum, offset);
    const uint64_t hi = __shfl_xor_sync(0xffffffffu, (uint64_t)(error_sum >> 64), offset);
    error_sum += ((unsigned __int128)hi << 64) | (unsigned __int128)lo;
  }
  if (threadIdx.x == 0) {
    uint64_t b = input[n];
    // The low 64 bits of the arithmetic shift of the signed sum.
    if (centered) b += (uint64_t)(error_sum >> 1);
    mask[n] = (uint32_t)(switch_modulus(b, LOG_2N) & ((1ull << LOG_2N) - 1));
  }
}

// The twist w^e of element e = t + v T (w = e^{i pi / N}) from w^t, which the thread
// keeps in registers, and w^(v T) = e^{i pi v / (2 R)}, a kernel parameter (constant
// bank: an operand of the product, no memory access). One complex product instead of
// a global load per value: the loads of the twist were an eighth of the CMux's
// traffic through L1.
template <class Fft>
__device__ __forceinline__ double2 twist_of(const PbsParams &p, double2 own, int v) {
  static_assert(8 % Fft::R == 0, "twist steps are sixteenths of pi");
  constexpr int step = 8 / Fft::R;
  if (v == 0) return own;
  return c_mul(own, make_double2(p.twist_steps[2 * v * step], p.twist_steps[2 * v * step + 1]));
}

// `t`, made opaque to the compiler (once per call) when a thread holds G > 1
// polynomials: what depends on it (the transforms' shared-memory indices) is then
// computed again in each CMux instead of kept in registers across the loop, where
// it does not fit beside the two polynomials.
template <int G>
__device__ __forceinline__ int recomputed(int t) {
#if !defined(GPUFHE_EMULATION)
  if (G > 1) asm volatile("" : "+r"(t));
#endif
  return t;
}

// The same for the thread's twist (the R - 1 products of twist_of).
template <int G>
__device__ __forceinline__ double2 recomputed(double2 w) {
#if !defined(GPUFHE_EMULATION)
  if (G > 1) asm volatile("" : "+d"(w.x), "+d"(w.y));
#endif
  return w;
}

// ACC = X^{-body} * (0, ..., 0, LUT), polynomial g of it, for the lookup table of
// ciphertext `ct`: a trivial GLWE accumulator, whose body alone is read (the host
// refuses others).
template <class Fft>
__device__ __forceinline__ void rotated_table(const PbsParams &p, uint32_t ct, int g, int t,
                                              uint32_t body, uint64_t (&acc_lo)[Fft::R],
                                              uint64_t (&acc_hi)[Fft::R]) {
  constexpr int M = Fft::M, N = Fft::N, R = Fft::R, T = Fft::T;
  const uint32_t k = p.glwe_dimension;
  const uint64_t *table = p.luts + ((size_t)p.jobs[3 * ct] * (k + 1) + k) * N;
#pragma unroll
  for (int v = 0; v < R; ++v) {
    const int x = t + v * T;
    acc_lo[v] = (uint32_t)g == k ? rotated_left<N>(table, x, body) : 0;
    acc_hi[v] = (uint32_t)g == k ? rotated_left<N>(table, x + M, body) : 0;
  }
}

// L2 prefetch of column g of a GGSW (`ggsw`: its first value), one iteration ahead:
// `rows` polynomials (k + 1) M values apart, LINES 128-byte lines each. The `share`
// ciphertexts that run at once (a wave, which walks the key in step) split it:
// ciphertext c asks for the lines L = c mod share (mod share), so L2 sees one request
// per line per wave instead of one per ciphertext.
template <class Fft>
__device__ __forceinline__ void prefetch_column(const PbsParams &p, const double2 *ggsw, int g,
                                                int t, uint32_t ct) {
  constexpr int M = Fft::M, T = Fft::T;
  constexpr int POLY_BYTES = M * (int)sizeof(double2);
  constexpr uint32_t LINES = POLY_BYTES / 128;
  static_assert(POLY_BYTES % 128 == 0, "whole lines per polynomial");
  const uint32_t k = p.glwe_dimension, rows = (k + 1) * p.level;
  const size_t row_stride = (size_t)(k + 1) * POLY_BYTES;
  const uint32_t share = p.prefetch_share > 0 ? p.prefetch_share : 1;
  const uint32_t column_lines = rows * LINES;
  const char *next = reinterpret_cast<const char *>(ggsw + (size_t)g * M);
#pragma unroll 1
  for (uint32_t line = ct % share + share * t; line < column_lines; line += share * T)
    prefetch_l2(next + (line / LINES) * row_stride + (line % LINES) * 128);
}

// The rows of group g for one external product, by thread t: `source(v, lo, hi)`
// gives the thread's values v of D_g (elements t + v T and t + v T + M of the
// group's polynomial), which are decomposed (level by level), twisted and
// transformed into row (g, j) of `phase`. `x` is left holding the last level's
// spectrum (row (g, l - 1)).
template <class Fft, class Topology, class Source>
__device__ __forceinline__ void decompose_into_rows(const PbsParams &p, const Topology &topo,
                                                    int g, int t, uint32_t phase,
                                                    double2 own_twist, Source source,
                                                    double2 (&x)[Fft::R]) {
  constexpr int R = Fft::R;
  const uint32_t l = p.level;
#pragma unroll 1
  for (uint32_t j = 0; j < l; ++j) {
#pragma unroll
    for (int v = 0; v < R; ++v) {
      uint64_t lo, hi;
      source(v, lo, hi);
      const uint64_t digit_lo =
          l == 1 ? decompose_level1(lo, p.base_log) : decompose_digit(lo, p.base_log, l, j);
      const uint64_t digit_hi =
          l == 1 ? decompose_level1(hi, p.base_log) : decompose_digit(hi, p.base_log, l, j);
      const double dl = (double)(int64_t)digit_lo;
      const double dh = (double)(int64_t)digit_hi;
      x[v] = c_mul(make_double2(dl, dh), twist_of<Fft>(p, own_twist, v));
    }
    double2 *row = topo.own_row(g, j, phase);
    Fft::forward(x, t, row, p.twiddles);
    __syncthreads();
    Fft::store_spectrum(row, x, t);
  }
}

// Column g of the GGSW (`ggsw`: its first value, read from global memory, coalesced)
// against every row of `phase`, by thread t, transformed back, untwisted, rounded and
// added to the group's polynomial. The group's own last row comes first, from `x`
// (still in registers) with OWN_IN_X, else from shared memory, then the other rows - 1
// from shared (or distributed shared) memory, in row order: the same sums in the same
// order either way, so every kernel gives the same bits.
template <class Fft, bool OWN_IN_X, class Topology>
__device__ __forceinline__ void multiply_column_add(const PbsParams &p, const Topology &topo,
                                                    int g, int t, const double2 *ggsw,
                                                    uint32_t phase, double2 own_twist,
                                                    const double2 (&x)[Fft::R],
                                                    uint64_t (&acc_lo)[Fft::R],
                                                    uint64_t (&acc_hi)[Fft::R]) {
  constexpr int M = Fft::M, R = Fft::R, T = Fft::T;
  const uint32_t k = p.glwe_dimension, l = p.level;
  const uint32_t rows = (k + 1) * l;
  const double2 *column = ggsw + (size_t)g * M;
  const uint32_t own = (uint32_t)g * l + l - 1;
  double2 y[R];
  if (OWN_IN_X) {
    const double2 *key = column + (size_t)own * (k + 1) * M;
#pragma unroll
    for (int v = 0; v < R; ++v) y[v] = c_fma(x[v], __ldg(&key[v * T + t]), make_double2(0.0, 0.0));
  } else {
    const double2 *key = column + (size_t)own * (k + 1) * M;
    const double2 *own_row = topo.row(own, phase);
#pragma unroll
    for (int v = 0; v < R; ++v) {
      const double2 d = own_row[Fft::spectrum_slot(t, v)];
      y[v] = c_fma(d, __ldg(&key[v * T + t]), make_double2(0.0, 0.0));
    }
  }
#pragma unroll 1
  for (uint32_t q = 0; q + 1 < rows; ++q) {
    const uint32_t r = q < own ? q : q + 1;
    const double2 *in_row = topo.row(r, phase);
    const double2 *key = column + (size_t)r * (k + 1) * M;
#pragma unroll
    for (int v = 0; v < R; ++v) {
      const double2 d = in_row[Fft::spectrum_slot(t, v)];
      y[v] = c_fma(d, __ldg(&key[v * T + t]), y[v]);
    }
  }
  // No barrier: the inverse's exchanges use the other phase's buffer, which no
  // group reads any more (they all passed this CMux's barrier).
  Fft::inverse(y, t, topo.own_row(g, 0, phase ^ 1), p.twiddles);
#pragma unroll
  for (int v = 0; v < R; ++v) {
    const double2 z = c_mul_conj(y[v], twist_of<Fft>(p, own_twist, v));
    acc_lo[v] += f64_to_torus(z.x * (1.0 / M));
    acc_hi[v] += f64_to_torus(z.y * (1.0 / M));
  }
}

// ACC += D ⊡ GGSW, the external product of one CMux (the multi-bit bootstrap's
// iteration too), by thread t for its Topology::GROUPS groups from g0:
// `source(i, v, lo, hi)` gives the thread's values v of D for its group g0 + i. Every
// group's rows first (decompose_into_rows), one barrier over the whole ciphertext,
// then every group's column (multiply_column_add). The rows live in the buffers of
// `phase`. With one group per thread its last row stays in registers.
template <class Fft, class Topology, class Source>
__device__ __forceinline__ void external_product_add(
    const PbsParams &p, const Topology &topo, int g0, int t, const double2 *ggsw,
    uint32_t phase, double2 own_twist, Source source,
    uint64_t (&acc_lo)[Topology::GROUPS][Fft::R], uint64_t (&acc_hi)[Topology::GROUPS][Fft::R]) {
  constexpr int G = Topology::GROUPS;
  double2 x[Fft::R];
#pragma unroll
  for (int i = 0; i < G; ++i) {
    const auto group_source = [&](int v, uint64_t &lo, uint64_t &hi) { source(i, v, lo, hi); };
    decompose_into_rows<Fft>(p, topo, g0 + i, t, phase, own_twist, group_source, x);
  }
  topo.sync_all();
#pragma unroll
  for (int i = 0; i < G; ++i)
    multiply_column_add<Fft, G == 1>(p, topo, g0 + i, t, ggsw, phase, own_twist, x, acc_lo[i],
                                     acc_hi[i]);
}

// Sample extraction of coefficient f N / count for each function f of ciphertext
// `ct`'s job into its output slots.
template <class Fft>
__device__ __forceinline__ void extract_samples(const PbsParams &p, uint32_t ct, int g, int t,
                                                const uint64_t (&acc_lo)[Fft::R],
                                                const uint64_t (&acc_hi)[Fft::R]) {
  constexpr int M = Fft::M, N = Fft::N, R = Fft::R, T = Fft::T;
  const uint32_t k = p.glwe_dimension;
  const uint32_t first = p.jobs[3 * ct + 1];
  const uint32_t functions = p.jobs[3 * ct + 2];
  const size_t out_size = (size_t)k * N + 1;
  for (uint32_t f = 0; f < functions; ++f) {
    const int nth = (int)(f * (N / functions));
    uint64_t *out = p.out + (size_t)(first + f) * out_size;
#pragma unroll
    for (int v = 0; v < 2 * R; ++v) {
      const int x = t + (v % R) * T + (v / R) * M;
      const uint64_t value = v < R ? acc_lo[v % R] : acc_hi[v % R];
      if ((uint32_t)g < k) {
        // (A S)_nth = sum_{j <= nth} a_{nth - j} s_j - sum_{j > nth} a_{N + nth - j} s_j
        if (x <= nth) {
          out[(size_t)g * N + (nth - x)] = value;
        } else {
          out[(size_t)g * N + (N + nth - x)] = 0 - value;
        }
      } else if (x == nth) {
        out[(size_t)k * N] = value;
      }
    }
  }
}

template <class Fft, class Topology>
__device__ __forceinline__ void programmable_bootstrap(const PbsParams &p, const Topology &topo) {
  constexpr int M = Fft::M, N = Fft::N, R = Fft::R, T = Fft::T, G = Topology::GROUPS;
  constexpr int LOG_2N = ilog2(2 * N);
  const int g0 = topo.group();
  const int t = topo.thread();
  const uint32_t ct = topo.ciphertext();
  const uint32_t n = p.lwe_dimension, k = p.glwe_dimension, l = p.level;
  const uint64_t *input = p.in + (size_t)ct * (n + 1);
  uint32_t *mask = topo.mask();
  modulus_switch<LOG_2N>(input, n, p.centered != 0, mask);
  __syncthreads();

  uint64_t acc_lo[G][R], acc_hi[G][R];
#pragma unroll
  for (int i = 0; i < G; ++i) rotated_table<Fft>(p, ct, g0 + i, t, mask[n], acc_lo[i], acc_hi[i]);

  const size_t ggsw_size = (size_t)(k + 1) * l * (k + 1) * M;
  const double2 own_twist = __ldg(&p.twist[t]);
  uint32_t phase = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (i + 1 < n) {
#pragma unroll
      for (int q = 0; q < G; ++q)
        prefetch_column<Fft>(p, p.bsk + (i + 1) * ggsw_size, g0 + q, t, ct);
    }
    const uint32_t a = mask[i];
    if (a == 0) continue;  // X^0 ACC - ACC = 0 (uniform over the ciphertext's threads)

    uint64_t *stage[G];
#pragma unroll
    for (int q = 0; q < G; ++q) stage[q] = topo.staging(g0 + q, phase);
    __syncthreads();
#pragma unroll
    for (int q = 0; q < G; ++q) {
#pragma unroll
      for (int v = 0; v < R; ++v) {
        stage[q][t + v * T] = acc_lo[q][v];
        stage[q][t + v * T + M] = acc_hi[q][v];
      }
    }
    __syncthreads();
    // D = X^{a_i} ACC - ACC.
    const auto rotated_minus_acc = [&](int q, int v, uint64_t &lo, uint64_t &hi) {
      const int e = t + v * T;
      lo = rotated_right<N>(stage[q], e, a) - acc_lo[q][v];
      hi = rotated_right<N>(stage[q], e + M, a) - acc_hi[q][v];
    };
    external_product_add<Fft>(p, topo, g0, recomputed<G>(t), p.bsk + (size_t)i * ggsw_size,
                              phase, recomputed<G>(own_twist), rotated_minus_acc, acc_lo, acc_hi);
    phase ^= 1;
  }
  // No block of a cluster may leave while another still reads its rows.
  topo.sync_all();
#pragma unroll
  for (int i = 0; i < G; ++i) extract_samples<Fft>(p, ct, g0 + i, t, acc_lo[i], acc_hi[i]);
}

template <class Fft>
__device__ __forceinline__ void bsk_to_fourier(const BskConversionParams &p) {
  constexpr int M = Fft::M, N = Fft::N, R = Fft::R, T = Fft::T;
  GPUFHE_DYNAMIC_SHARED(double2, buffer);
  const int t = threadIdx.x;
  for (uint64_t poly = blockIdx.x; poly < p.polynomials; poly += gridDim.x) {
    const uint64_t *in = p.in + poly * N;
    double2 x[R];
#pragma unroll
    for (int v = 0; v < R; ++v) {
      const int e = t + v * T;
      const double2 folded = make_double2((double)(int64_t)in[e], (double)(int64_t)in[e + M]);
      x[v] = c_mul(folded, __ldg(&p.twist[e]));
    }
    Fft::forward(x, t, buffer, p.twiddles);
    double2 *out = p.out + poly * M;
#pragma unroll
    for (int v = 0; v < R; ++v) out[v * T + t] = x[v];
  }
}

}  // namespace gpufhe

#include "multi_bit_bootstrap.cuh"

using gpufhe::BskConversionParams;
using gpufhe::MultiBitParams;
using gpufhe::NegacyclicFft;
using gpufhe::PbsParams;

// One instantiation per polynomial size: N, values per thread R, the threads of a
// single-block bootstrap (its launch bound, which caps its registers at 65536 /
// THREADS, 255 at most) and the polynomials each of its threads holds (G). At N <=
// 2048, THREADS = 2 T (k = 1 in one block) is 256 threads and 255 registers, so the
// bootstrap keeps its values in registers (a cap of 128 spilled 228 B there, loaded
// again every CMux). At N = 4096, 2 T = 512 threads would leave 128 registers and
// spill (696 B of stack on sm_90): T = 256 threads each hold both polynomials of
// k = 1 instead (G = 2), 255 registers. scripts/kernel-report.sh fails on local
// memory in any kernel the host can choose. N = 8192 is not built: T = 512 threads
// spilled in every kernel (cluster, conversion, key bundles), and no launch of its
// key layout fits in registers.
#define BOOTSTRAP_KERNELS(N, R, THREADS, G)                                                  \
  extern "C" __global__ void __launch_bounds__(N / (2 * R))                                  \
      bsk_to_fourier_##N##_u64(BskConversionParams p) {                                      \
    gpufhe::bsk_to_fourier<NegacyclicFft<N / 2, R>>(p);                                      \
  }                                                                                          \
  extern "C" __global__ void __launch_bounds__(THREADS)                                      \
      programmable_bootstrap_##N##_u64(PbsParams p) {                                        \
    GPUFHE_DYNAMIC_SHARED(double2, smem);                                                    \
    using Fft = NegacyclicFft<N / 2, R>;                                                     \
    gpufhe::programmable_bootstrap<Fft>(                                                     \
        p, gpufhe::SingleBlock<Fft, G>{smem, p.glwe_dimension, p.level});                    \
  }                                                                                          \
  extern "C" __global__ void __launch_bounds__(N / (2 * R))                                  \
      programmable_bootstrap_cluster_##N##_u64(PbsParams p) {                                \
    CLUSTER_BODY(N, R, programmable_bootstrap, p)                                            \
  }                                                                                          \
  extern "C" __global__ void __launch_bounds__(N / (2 * R))                                  \
      multi_bit_key_bundle_##N##_u64(MultiBitParams p) {                                     \
    gpufhe::multi_bit_key_bundle<NegacyclicFft<N / 2, R>>(p);                                \
  }                                                                                          \
  extern "C" __global__ void __launch_bounds__(THREADS)                                      \
      multi_bit_bootstrap_##N##_u64(MultiBitParams p) {                                      \
    GPUFHE_DYNAMIC_SHARED(double2, smem);                                                    \
    using Fft = NegacyclicFft<N / 2, R>;                                                     \
    gpufhe::multi_bit_accumulate<Fft>(                                                       \
        p, gpufhe::SingleBlock<Fft, G>{smem, p.pbs.glwe_dimension, p.pbs.level});            \
  }                                                                                          \
  extern "C" __global__ void __launch_bounds__(N / (2 * R))                                  \
      multi_bit_bootstrap_cluster_##N##_u64(MultiBitParams p) {                              \
    CLUSTER_BODY(N, R, multi_bit_accumulate, p.pbs)                                          \
  }

// BODY(p, topology) with a cluster of k + 1 blocks per ciphertext; PBS: the PbsParams.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CLUSTER_BODY(N, R, BODY, PBS)                                                        \
  GPUFHE_DYNAMIC_SHARED(double2, smem);                                                      \
  using Fft = NegacyclicFft<N / 2, R>;                                                       \
  gpufhe::BODY<Fft>(p, gpufhe::ClusterOfBlocks<Fft>{smem, PBS.glwe_dimension, PBS.level});
#else
// Never launched below sm_90 (the host checks the compute capability).
#define CLUSTER_BODY(N, R, BODY, PBS) (void)p;
#endif

BOOTSTRAP_KERNELS(256, 4, 256, 1)
BOOTSTRAP_KERNELS(512, 8, 256, 1)
BOOTSTRAP_KERNELS(1024, 8, 256, 1)
BOOTSTRAP_KERNELS(2048, 8, 256, 1)
BOOTSTRAP_KERNELS(4096, 8, 256, 2)
