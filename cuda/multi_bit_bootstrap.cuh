// The multi-bit programmable bootstrap, the GPU twin of
// core_crypto/algorithms/lwe_multi_bit_programmable_bootstrapping.rs (read its module docs first).
// Included by programmable_bootstrap.cu, whose pieces it reuses: the modulus switch,
// the external product (external_product_add), the thread-group topologies and the
// sample extraction.
//
// A key of grouping factor g over a small key of dimension n is an ordinary Fourier
// bootstrap key over (n/g)(2^g - 1) indicator bits: GGSW (group, T) at index
// group (2^g - 1) + T - 1, T a non-empty bit pattern. Per group with switched mask
// values a_1..a_g, the bundle sum_{T != 0} (X^{a_T} - 1) GGSW(f_T) (a_T the sum of
// the a_i of T, mod 2N), then ACC += ACC ⊡ bundle; a group whose a_i are all 0 is
// skipped. The host alternates two kernels over chunks of groups:
//   - multi_bit_key_bundle_<N>_u64: the bundles of every ciphertext and group of the
//     chunk (items of BUNDLE_CTS ciphertexts x BUNDLE_POLYS polynomials of one group,
//     spread over the blocks of the grid by a grid-stride loop) into the bundle
//     buffer (per ciphertext `capacity` bundles of the GGSW layout: row r, column c,
//     slot v T + t); ζ^{a_T} is the product of the exact table values ζ^{a_i}, i in
//     T (at most g - 1 rounded products);
//   - multi_bit_bootstrap[_cluster]_<N>_u64: the CMux loop of programmable_bootstrap
//     with ACC itself decomposed (no rotation) and the bundle as the GGSW, batched the
//     same way (a block or a cluster per ciphertext). Between chunks the accumulator
//     waits in `state`; the last chunk extracts the samples.
//
// Evaluation points. Slot (t, v) of a transform (value v of thread t after
// Fft::forward, stored at v T + t) holds p(ζ) for some ζ = e^{i π e / N}, e odd: the
// fold, twist and cyclic FFT evaluate at the roots of X^N + 1 in a fixed permutation.
// The bundle kernel reads e of each of its slots from the transform of X (its value at
// the slot is ζ itself), once per block, with the same FFT as the key conversion.

namespace gpufhe {

// Mirrors `MultiBitParams` in src/backend/cuda/algorithms/lwe_multi_bit_programmable_bootstrapping.rs (#[repr(C)]).
struct MultiBitParams {
  PbsParams pbs;             // bsk: the multi-bit key; lwe_dimension: n
  double2 *bundles;          // per ciphertext `capacity` bundles, (k+1)^2 l M values each
  uint64_t *state;           // per ciphertext the accumulator between chunks, (k+1) N
  uint32_t grouping_factor;  // g
  uint32_t first_group;      // this chunk: groups first_group .. first_group + groups
  uint32_t groups;
  uint32_t capacity;         // bundles per ciphertext in `bundles` (>= groups)
};

// The grouping factors the key-bundle kernel unrolls (MAX_GROUPING_FACTOR on the CPU).
constexpr uint32_t MAX_GROUPING_FACTOR = 6;

// w^q for q in [0, 2N), w = e^{i pi / N}, from the twist table (w^r, r < M = N/2):
// w^(c M + r) = i^c w^r.
template <int N>
__device__ __forceinline__ double2 unit_power(const double2 *twist, uint32_t q) {
  constexpr int M = N / 2;
  const double2 w = __ldg(&twist[q & (M - 1)]);
  switch ((q / M) & 3) {
    case 0: return w;
    case 1: return make_double2(-w.y, w.x);
    case 2: return make_double2(-w.x, -w.y);
    default: return make_double2(w.y, -w.x);
  }
}

// Ciphertexts and polynomials of a bundle one thread accumulates at once: each key
// value loaded serves BUNDLE_CTS ciphertexts (the key, (2^g - 1)/g times the size of
// a classical one, is read from L2 once per BUNDLE_CTS ciphertexts), and each
// evaluation-point power BUNDLE_POLYS polynomials (k = 1, l = 1: all of them).
constexpr uint32_t BUNDLE_CTS = 4;
constexpr uint32_t BUNDLE_POLYS = 4;

template <class Fft>
__device__ __forceinline__ void multi_bit_key_bundle(const MultiBitParams &mp) {
  constexpr int M = Fft::M, N = Fft::N, R = Fft::R, T = Fft::T;
  constexpr int LOG_2N = ilog2(2 * N);
  constexpr uint32_t MOD = 2 * N - 1;
  const PbsParams &p = mp.pbs;
  GPUFHE_DYNAMIC_SHARED(double2, buffer);
  const int t = threadIdx.x;
  // The evaluation point of each slot of the thread: the transform of X (folded
  // element 1, twisted by w) holds ζ = e^{i pi e / N} there.
  double2 x[R];
#pragma unroll
  for (int v = 0; v < R; ++v)
    x[v] = t + v * T == 1 ? __ldg(&p.twist[1]) : make_double2(0.0, 0.0);
  Fft::forward(x, t, buffer, p.twiddles);
  uint32_t exponent[R];
#pragma unroll
  for (int v = 0; v < R; ++v) {
    const double turns = atan2(x[v].y, x[v].x) * (N / 3.141592653589793);
    exponent[v] = (uint32_t)__double2ll_rn(turns) & MOD;
  }

  const uint32_t n = p.lwe_dimension, k = p.glwe_dimension, gf = mp.grouping_factor;
  const uint32_t per_group = (1u << gf) - 1;
  const uint32_t polys = (k + 1) * (k + 1) * p.level;
  const uint32_t poly_chunks = (polys + BUNDLE_POLYS - 1) / BUNDLE_POLYS;
  const uint32_t ct_chunks = (p.count + BUNDLE_CTS - 1) / BUNDLE_CTS;
  const size_t ggsw_size = (size_t)polys * M;
  const uint64_t items = (uint64_t)ct_chunks * poly_chunks * mp.groups;
#pragma unroll 1
  for (uint64_t item = blockIdx.x; item < items; item += gridDim.x) {
    // The ciphertexts vary fastest: the blocks that run at once read the same GGSWs
    // of the key (from L2), instead of each streaming the key from memory.
    const uint32_t ct0 = (uint32_t)(item % ct_chunks) * BUNDLE_CTS;
    const uint64_t rest = item / ct_chunks;
    const uint32_t poly0 = (uint32_t)(rest % poly_chunks) * BUNDLE_POLYS;
    const uint32_t j = (uint32_t)(rest / poly_chunks);
    const uint32_t group = mp.first_group + j;
    // The switched mask values of the group, per ciphertext.
    uint32_t a[BUNDLE_CTS][MAX_GROUPING_FACTOR];
    bool any[BUNDLE_CTS];
    bool some = false;
#pragma unroll
    for (uint32_t c = 0; c < BUNDLE_CTS; ++c) {
      const bool real = ct0 + c < p.count;
      const uint64_t *in = p.in + (size_t)(ct0 + c) * (n + 1) + (size_t)group * gf;
      any[c] = false;
#pragma unroll
      for (uint32_t i = 0; i < MAX_GROUPING_FACTOR; ++i) {
        a[c][i] = real && i < gf ? (uint32_t)(switch_modulus(in[i], LOG_2N) & MOD) : 0;
        any[c] |= a[c][i] != 0;
      }
      some |= any[c];
    }
    if (!some) continue;  // the accumulate kernel skips the group (uniform per block)
    const double2 *key = p.bsk + (size_t)group * per_group * ggsw_size + (size_t)poly0 * M;
#pragma unroll
    for (int v = 0; v < R; ++v) {
      // ζ^{a_i} of the slot, exact from the twist table.
      double2 z[BUNDLE_CTS][MAX_GROUPING_FACTOR];
#pragma unroll
      for (uint32_t c = 0; c < BUNDLE_CTS; ++c)
#pragma unroll
        for (uint32_t i = 0; i < MAX_GROUPING_FACTOR; ++i)
          z[c][i] = i < gf ? unit_power<N>(p.twist, (exponent[v] * a[c][i]) & MOD)
                           : make_double2(1.0, 0.0);
      double2 acc[BUNDLE_CTS][BUNDLE_POLYS];
#pragma unroll
      for (uint32_t c = 0; c < BUNDLE_CTS; ++c)
#pragma unroll
        for (uint32_t q = 0; q < BUNDLE_POLYS; ++q) acc[c][q] = make_double2(0.0, 0.0);
#pragma unroll 1
      for (uint32_t s = 1; s <= per_group; ++s) {
        double2 key_s[BUNDLE_POLYS];
#pragma unroll
        for (uint32_t q = 0; q < BUNDLE_POLYS; ++q)
          key_s[q] = poly0 + q < polys
                         ? __ldg(&key[(s - 1) * ggsw_size + (size_t)q * M + v * T + t])
                         : make_double2(0.0, 0.0);
#pragma unroll
        for (uint32_t c = 0; c < BUNDLE_CTS; ++c) {
          uint32_t a_s = 0;
#pragma unroll
          for (uint32_t i = 0; i < MAX_GROUPING_FACTOR; ++i) a_s += (s >> i & 1) ? a[c][i] : 0;
          if ((a_s & MOD) == 0) continue;  // X^0 - 1 = 0 (also the missing ciphertexts)
          // ζ^{a_T} = prod_{i in T} ζ^{a_i}: at most g - 1 rounded products.
          double2 zt = make_double2(1.0, 0.0);
#pragma unroll
          for (uint32_t i = 0; i < MAX_GROUPING_FACTOR; ++i)
            if (s >> i & 1) zt = c_mul(zt, z[c][i]);
          const double2 f = make_double2(zt.x - 1.0, zt.y);
#pragma unroll
          for (uint32_t q = 0; q < BUNDLE_POLYS; ++q) acc[c][q] = c_fma(f, key_s[q], acc[c][q]);
        }
      }
#pragma unroll
      for (uint32_t c = 0; c < BUNDLE_CTS; ++c) {
        if (!any[c]) continue;
        double2 *out = mp.bundles + ((size_t)(ct0 + c) * mp.capacity + j) * ggsw_size +
                       (size_t)poly0 * M + v * T + t;
#pragma unroll
        for (uint32_t q = 0; q < BUNDLE_POLYS; ++q)
          if (poly0 + q < polys) out[(size_t)q * M] = acc[c][q];
      }
    }
  }
}

template <class Fft, class Topology>
__device__ __forceinline__ void multi_bit_accumulate(const MultiBitParams &mp,
                                                     const Topology &topo) {
  constexpr int M = Fft::M, N = Fft::N, R = Fft::R, T = Fft::T, G = Topology::GROUPS;
  constexpr int LOG_2N = ilog2(2 * N);
  const PbsParams &p = mp.pbs;
  const int g0 = topo.group();
  const int t = topo.thread();
  const uint32_t ct = topo.ciphertext();
  const uint32_t n = p.lwe_dimension, k = p.glwe_dimension, l = p.level;
  const uint32_t gf = mp.grouping_factor;
  uint32_t *mask = topo.mask();
  modulus_switch<LOG_2N>(p.in + (size_t)ct * (n + 1), n, p.centered != 0, mask);
  __syncthreads();

  // The first chunk starts from the rotated table, the others where the last stopped.
  uint64_t acc_lo[G][R], acc_hi[G][R];
#pragma unroll
  for (int q = 0; q < G; ++q) {
    if (mp.first_group == 0) {
      rotated_table<Fft>(p, ct, g0 + q, t, mask[n], acc_lo[q], acc_hi[q]);
    } else {
      const uint64_t *state = mp.state + ((size_t)ct * (k + 1) + g0 + q) * N;
#pragma unroll
      for (int v = 0; v < R; ++v) {
        acc_lo[q][v] = state[t + v * T];
        acc_hi[q][v] = state[t + v * T + M];
      }
    }
  }

  const size_t ggsw_size = (size_t)(k + 1) * l * (k + 1) * M;
  const double2 own_twist = __ldg(&p.twist[t]);
  uint32_t phase = 0;
  const double2 *bundle = mp.bundles + (size_t)ct * mp.capacity * ggsw_size;
  const uint32_t *a = mask + (size_t)mp.first_group * gf;
  const double2 *const end = bundle + (size_t)mp.groups * ggsw_size;
  for (; bundle != end; bundle += ggsw_size, a += gf) {
    // The bundle is this ciphertext's own: the host passes a prefetch share of 1,
    // so every line of the next one is asked for (the classical ciphertexts of a
    // wave split the lines of the key they all read).
    if (bundle + ggsw_size != end) {
#pragma unroll
      for (int q = 0; q < G; ++q) prefetch_column<Fft>(p, bundle + ggsw_size, g0 + q, t, ct);
    }
    bool any = false;
#pragma unroll
    for (uint32_t i = 0; i < MAX_GROUPING_FACTOR; ++i) any |= i < gf && a[i] != 0;
    if (!any) continue;  // X^0 ACC: no bundle was made (uniform over the ciphertext)
    // D = ACC: ACC += ACC ⊡ bundle.
    const auto acc_itself = [&](int q, int v, uint64_t &lo, uint64_t &hi) {
      lo = acc_lo[q][v];
      hi = acc_hi[q][v];
    };
    external_product_add<Fft>(p, topo, g0, recomputed<G>(t), bundle, phase,
                              recomputed<G>(own_twist), acc_itself, acc_lo, acc_hi);
    phase ^= 1;
  }
  // No block of a cluster may leave while another still reads its rows.
  topo.sync_all();
#pragma unroll
  for (int q = 0; q < G; ++q) {
    if (mp.first_group + mp.groups < n / gf) {
      uint64_t *state = mp.state + ((size_t)ct * (k + 1) + g0 + q) * N;
#pragma unroll
      for (int v = 0; v < R; ++v) {
        state[t + v * T] = acc_lo[q][v];
        state[t + v * T + M] = acc_hi[q][v];
      }
    } else {
      extract_samples<Fft>(p, ct, g0 + q, t, acc_lo[q], acc_hi[q]);
    }
  }
}

}  // namespace gpufhe
