// The negacyclic FFT of the bootstrap, on M = N/2 complex doubles, computed by the
// T = M/R threads of one thread group, each holding R values in registers.
//
// Convention (the same as core_crypto/fft.rs): a real polynomial a of size N is
// folded into b_p = a_p + i a_{p+M}, twisted by w^p with w = e^{i pi / N}, and
// transformed by a cyclic FFT of size M; the inverse transforms back, untwists by
// w^-p, scales by 1/M and unfolds. The callers fold, twist, untwist and scale; this
// file holds the cyclic transforms.
//
// The forward transform is a decimation in frequency: it takes its input in natural
// order and leaves its output in a fixed permutation of the frequencies (the same
// for every polynomial, so pointwise products need no reordering); the inverse is
// the exact reverse (decimation in time) and returns to natural order. Both run in
// passes of up to log2(R) radix-2 stages: within a pass each thread owns whole
// butterfly groups, so the stages run in registers; between passes the values
// cross shared memory once (store, barrier, load).
#pragma once

#include "torus.cuh"

namespace gpufhe {

__host__ __device__ constexpr int ilog2(int x) { return x <= 1 ? 0 : 1 + ilog2(x / 2); }
__host__ __device__ constexpr int cmin(int a, int b) { return a < b ? a : b; }

// Shared-memory slot of element i of a polynomial buffer: one 16-byte pad every 8
// elements, so that the strided stores and loads of the passes hit distinct banks.
__device__ __forceinline__ int padded(int i) { return i + (i >> 3); }

template <int M_, int R_>
struct NegacyclicFft {
  static constexpr int M = M_;        // complex values per polynomial (N / 2)
  static constexpr int R = R_;        // values per thread
  static constexpr int T = M / R;     // threads per polynomial
  static constexpr int N = 2 * M;     // polynomial size
  static constexpr int LOG_R = ilog2(R);
  // double2 slots of one shared polynomial buffer (with padding).
  static constexpr int PADDED = M + M / 8;

  static_assert((M & (M - 1)) == 0 && (R & (R - 1)) == 0, "sizes must be powers of two");
  static_assert(M >= 2 * R && R >= 2, "at least two passes of at least one stage");
  static_assert(T >= 32 && T % 32 == 0, "whole warps per polynomial");

  // A pass over groups of G consecutive elements runs log2(P) stages, P = min(R, G),
  // on the P elements {q G + b + j G/P : j < P} of each of its M/P butterfly groups.
  __host__ __device__ static constexpr int stages(int G) { return cmin(LOG_R, ilog2(G)); }
  __host__ __device__ static constexpr int next_group(int G) { return G >> stages(G); }

  // The element held as value v by thread t during the pass over groups of G:
  // butterfly group m = t + (v / P) T, position j = v % P in it.
  template <int G>
  __device__ static __forceinline__ int index(int t, int v) {
    constexpr int P = 1 << stages(G);
    constexpr int D = G / P;
    const int m = t + (v / P) * T;
    return (m / D) * G + (m % D) + (v % P) * D;
  }

  // Where value v of thread t of a transformed polynomial lives in a shared buffer
  // (coalesced, no bank conflict), and the store that puts it there.
  __device__ static __forceinline__ int spectrum_slot(int t, int v) { return v * T + t; }
  __device__ static __forceinline__ void store_spectrum(double2 *buf, const double2 (&x)[R],
                                                        int t) {
#pragma unroll
    for (int v = 0; v < R; ++v) buf[spectrum_slot(t, v)] = x[v];
  }

  // The last forward stage (span 1) when lanes t and t ^ 1 hold the two halves of R
  // pairs, value i of each (the even lane the first element a, the odd lane the
  // second c): afterwards the even lane holds the butterflies (a + c, a - c) of pairs
  // i < R/2 and the odd lane those of pairs i >= R/2, as values (2 (i mod R/2),
  // 2 (i mod R/2) + 1). R/2 values of each lane cross (two 64-bit shuffles each).
  // The odd lane computes got - keep as -(keep - got) (exact): a sign flip instead of
  // selecting the operands' order.
  __device__ static __forceinline__ void last_stage_across_lanes(double2 (&x)[R], int t) {
    const bool odd = t & 1;
    const double sign = odd ? -1.0 : 1.0;
    double2 y[R];
#pragma unroll
    for (int i = 0; i < R / 2; ++i) {
      const double2 keep = odd ? x[i + R / 2] : x[i];
      const double2 send = odd ? x[i] : x[i + R / 2];
      const double2 got = make_double2(__shfl_xor_sync(0xffffffffu, send.x, 1),
                                       __shfl_xor_sync(0xffffffffu, send.y, 1));
      const double2 d = c_sub(keep, got);
      y[2 * i] = c_add(keep, got);
      y[2 * i + 1] = make_double2(d.x * sign, d.y * sign);
    }
#pragma unroll
    for (int v = 0; v < R; ++v) x[v] = y[v];
  }

  // The inverse of last_stage_across_lanes: the butterflies (A + C, A - C) of the
  // lane's pairs, then each element back to its lane and value. The odd lane keeps
  // the second element A - C and sends the first: C negated there gives both without
  // a selection.
  __device__ static __forceinline__ void first_inverse_stage_across_lanes(double2 (&x)[R],
                                                                          int t) {
    const bool odd = t & 1;
    const double sign = odd ? -1.0 : 1.0;
    double2 y[R];
#pragma unroll
    for (int i = 0; i < R / 2; ++i) {
      const double2 a = x[2 * i];
      const double2 c = make_double2(x[2 * i + 1].x * sign, x[2 * i + 1].y * sign);
      const double2 keep = c_add(a, c);
      const double2 send = c_sub(a, c);
      const double2 got = make_double2(__shfl_xor_sync(0xffffffffu, send.x, 1),
                                       __shfl_xor_sync(0xffffffffu, send.y, 1));
      y[i] = odd ? got : keep;
      y[i + R / 2] = odd ? keep : got;
    }
#pragma unroll
    for (int v = 0; v < R; ++v) x[v] = y[v];
  }

  template <int G>
  __device__ static __forceinline__ void store(double2 *buf, const double2 (&x)[R], int t) {
#pragma unroll
    for (int v = 0; v < R; ++v) buf[padded(index<G>(t, v))] = x[v];
  }

  template <int G>
  __device__ static __forceinline__ void load(const double2 *buf, double2 (&x)[R], int t) {
#pragma unroll
    for (int v = 0; v < R; ++v) x[v] = buf[padded(index<G>(t, v))];
  }

  // The twiddle W^(i M / (2 s)) of the stage of span s, i < s, W = e^{-2 pi i / M}.
  // The table holds one run per span, the largest first: span s at offset M - 2 s
  // (M - 1 values in all), so that the lanes of a warp, whose i are consecutive
  // within a butterfly stride, read consecutive values (coalesced, or one line when
  // the stride is short) instead of values M / (2 s) apart.
  __device__ static __forceinline__ double2 twiddle(const double2 *__restrict__ twiddles,
                                                    int span, int i) {
    return __ldg(&twiddles[M - 2 * span + i]);
  }

  // The stages of one forward pass, in registers. A stage of span s maps (a, c) at
  // (e, e + s) to (a + c, (a - c) W^((e mod s) M / (2 s))).
  template <int G>
  __device__ static __forceinline__ void forward_pass(double2 (&x)[R], int t,
                                                      const double2 *__restrict__ twiddles) {
    constexpr int L = stages(G), P = 1 << L, D = G / P;
#pragma unroll
    for (int u = 0; u < R / P; ++u) {
      const int b = (t + u * T) % D;
#pragma unroll
      for (int st = 0; st < L; ++st) {
        const int half = P >> (st + 1);
        const int span = half * D;
#pragma unroll
        for (int j = 0; j < P; ++j) {
          if (j & half) continue;
          const double2 w = twiddle(twiddles, span, b + (j & (half - 1)) * D);
          const double2 a = x[u * P + j], c = x[u * P + j + half];
          x[u * P + j] = c_add(a, c);
          x[u * P + j + half] = c_mul(c_sub(a, c), w);
        }
      }
    }
  }

  // The stages of one inverse pass: the forward stages undone in reverse order, each
  // doubling its values ((A, C) -> (A + C conj(w), A - C conj(w))).
  template <int G>
  __device__ static __forceinline__ void inverse_pass(double2 (&x)[R], int t,
                                                      const double2 *__restrict__ twiddles) {
    constexpr int L = stages(G), P = 1 << L, D = G / P;
#pragma unroll
    for (int u = 0; u < R / P; ++u) {
      const int b = (t + u * T) % D;
#pragma unroll
      for (int st = L - 1; st >= 0; --st) {
        const int half = P >> (st + 1);
        const int span = half * D;
#pragma unroll
        for (int j = 0; j < P; ++j) {
          if (j & half) continue;
          const double2 w = twiddle(twiddles, span, b + (j & (half - 1)) * D);
          const double2 a = x[u * P + j];
          const double2 c = c_mul_conj(x[u * P + j + half], w);
          x[u * P + j] = c_add(a, c);
          x[u * P + j + half] = c_sub(a, c);
        }
      }
    }
  }

  // Forward cyclic transform. On entry value v of thread t is element t + v T (natural
  // order, already folded and twisted); on return it is one Fourier coefficient of a
  // fixed permutation, the same for every polynomial (store_spectrum and
  // spectrum_slot keep it in shared memory). `buf` (PADDED slots of shared memory)
  // carries the exchanges; every thread of the block must call this (it contains
  // __syncthreads), and `buf` may be in use by other threads of this polynomial on
  // entry (the first exchange starts with a barrier).
  //
  // A last pass of one stage (span 1, twiddle 1: no product) pairs the values of
  // lanes t and t ^ 1 (the previous pass's stride D is 2, and T is even), so it takes
  // warp shuffles instead of a round trip through shared memory (see
  // last_stage_across_lanes).
  template <int G = M>
  __device__ static __forceinline__ void forward(double2 (&x)[R], int t, double2 *buf,
                                                 const double2 *__restrict__ twiddles) {
    forward_pass<G>(x, t, twiddles);
    constexpr int NEXT = next_group(G);
    if constexpr (NEXT == 2) {
      last_stage_across_lanes(x, t);
    } else if constexpr (NEXT > 1) {
      __syncthreads();
      store<G>(buf, x, t);
      __syncthreads();
      load<NEXT>(buf, x, t);
      forward<NEXT>(x, t, buf, twiddles);
    }
  }

  // Inverse cyclic transform, times M: from the layout forward() returns to natural
  // order (value v of thread t is element t + v T). Same barrier rules as forward().
  template <int G = M>
  __device__ static __forceinline__ void inverse(double2 (&x)[R], int t, double2 *buf,
                                                 const double2 *__restrict__ twiddles) {
    constexpr int NEXT = next_group(G);
    if constexpr (NEXT == 2) {
      first_inverse_stage_across_lanes(x, t);
    } else if constexpr (NEXT > 1) {
      inverse<NEXT>(x, t, buf, twiddles);
      __syncthreads();
      store<NEXT>(buf, x, t);
      __syncthreads();
      load<G>(buf, x, t);
    }
    inverse_pass<G>(x, t, twiddles);
  }
};

}  // namespace gpufhe
