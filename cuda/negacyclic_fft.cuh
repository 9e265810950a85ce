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
  __host__ __device__ static constexpr int last_group(int G) {
    return next_group(G) > 1 ? last_group(next_group(G)) : G;
  }
  // The group size of the last forward pass: its layout is the Fourier layout.
  static constexpr int LAST = last_group(M);

  // The element held as value v by thread t during the pass over groups of G:
  // butterfly group m = t + (v / P) T, position j = v % P in it.
  template <int G>
  __device__ static __forceinline__ int index(int t, int v) {
    constexpr int P = 1 << stages(G);
    constexpr int D = G / P;
    const int m = t + (v / P) * T;
    return (m / D) * G + (m % D) + (v % P) * D;
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

  // The stages of one forward pass, in registers. A stage of span s maps (a, c) at
  // (e, e + s) to (a + c, (a - c) W^((e mod s) M / (2 s))) with W = e^{-2 pi i / M}
  // (twiddles[k] = W^k, k < M/2).
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
          const double2 w = __ldg(&twiddles[(b + (j & (half - 1)) * D) * (M / (2 * span))]);
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
          const double2 w = __ldg(&twiddles[(b + (j & (half - 1)) * D) * (M / (2 * span))]);
          const double2 a = x[u * P + j];
          const double2 c = c_mul_conj(x[u * P + j + half], w);
          x[u * P + j] = c_add(a, c);
          x[u * P + j + half] = c_sub(a, c);
        }
      }
    }
  }

  // Forward cyclic transform. On entry value v of thread t is element t + v T (natural
  // order, already folded and twisted); on return it is Fourier coefficient
  // index<LAST>(t, v) of the permuted output. `buf` (PADDED slots of shared memory)
  // carries the exchanges; every thread of the block must call this (it contains
  // __syncthreads), and `buf` may be in use by other threads of this polynomial on
  // entry (the first exchange starts with a barrier).
  template <int G = M>
  __device__ static __forceinline__ void forward(double2 (&x)[R], int t, double2 *buf,
                                                 const double2 *__restrict__ twiddles) {
    forward_pass<G>(x, t, twiddles);
    constexpr int NEXT = next_group(G);
    if constexpr (NEXT > 1) {
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
    if constexpr (NEXT > 1) {
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
