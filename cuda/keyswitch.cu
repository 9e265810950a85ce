// Batched LWE keyswitch, the GPU twin of keyswitch_lwe_ciphertext
// (core_crypto/algorithms/lwe_keyswitch.rs), bit for bit:
//   out = (0, ..., 0, b) - sum_i sum_j d_ij * KSK[i][j]
// with d_ij the signed digits of the input mask coefficient a_i, all modulo 2^64.
//
// It is a matrix product: digits (ciphertexts x (coefficient, level)) times the key
// ((coefficient, level) x output coefficients). A block of KS_OUTPUTS threads owns
// KS_OUTPUTS output coefficients (one per thread) of CTS ciphertexts, and walks the
// (coefficient, level) rows of its split of the key: the digits of a chunk of rows
// for its ciphertexts are staged in shared memory, then each thread streams its key
// column (coalesced across the block) and updates its CTS accumulators, so every key
// value read serves CTS ciphertexts. CTS is 1, 2, 4, 8 or 16 (keyswitch_<CTS>_u64):
// the host takes the smallest that holds the batch, up to 16, so a lone ciphertext
// does not pay for 16. When the batch is too small to fill the GPU, the rows are
// split over blockIdx.z and a second kernel adds the partial sums (exact: wrapping
// sums do not depend on the order).

#include "torus.cuh"

namespace gpufhe {

constexpr int KS_OUTPUTS = 128;    // threads per block, one output coefficient each
constexpr int KS_DIGIT_ROWS = 128; // (coefficient, level) rows staged per chunk

// Mirrors `KeyswitchParams` in src/backend/cuda/algorithms/lwe_keyswitch.rs (#[repr(C)]).
struct KeyswitchParams {
  uint64_t *out;          // count x (out_dim + 1): the results
  uint64_t *partial;      // splits x count x (out_dim + 1), when splits > 1
  const uint64_t *in;     // count x (in_dim + 1)
  const uint64_t *ksk;    // in_dim x level x (out_dim + 1)
  uint32_t in_dim;
  uint32_t out_dim;
  uint32_t base_log;
  uint32_t level;
  uint32_t count;
  uint32_t coefficients_per_split;
  uint32_t splits;
  uint32_t pad;
};

template <int CTS>
__device__ __forceinline__ void keyswitch(const KeyswitchParams &p) {
  __shared__ uint64_t digits[KS_DIGIT_ROWS][CTS];
  const uint32_t first_ct = blockIdx.x * CTS;
  const uint32_t cts = min((uint32_t)CTS, p.count - first_ct);
  const uint32_t o = blockIdx.y * KS_OUTPUTS + threadIdx.x;
  const uint32_t in_size = p.in_dim + 1, out_size = p.out_dim + 1;
  const uint32_t begin = blockIdx.z * p.coefficients_per_split;
  const uint32_t end = min(begin + p.coefficients_per_split, p.in_dim);
  const uint32_t chunk_coefficients = KS_DIGIT_ROWS / p.level;
  const uint64_t digit_mask = (1ull << p.base_log) - 1;
  const uint64_t half = 1ull << (p.base_log - 1);

  uint64_t acc[CTS];
#pragma unroll
  for (int c = 0; c < CTS; ++c) acc[c] = 0;

  for (uint32_t i0 = begin; i0 < end; i0 += chunk_coefficients) {
    const uint32_t chunk = min(chunk_coefficients, end - i0);
    __syncthreads();  // the previous chunk's digits are no longer read
    for (uint32_t e = threadIdx.x; e < chunk * CTS; e += blockDim.x) {
      const uint32_t c = e / chunk, ii = e % chunk;
      const uint64_t a = c < cts ? p.in[(size_t)(first_ct + c) * in_size + i0 + ii] : 0;
      uint64_t state = closest_representable_shifted(a, p.base_log, p.level);
      for (int lv = (int)p.level - 1; lv >= 0; --lv) {
        const uint64_t raw = state & digit_mask;
        state >>= p.base_log;
        const uint64_t carry = (uint64_t)((raw > half) | ((raw == half) & ((state & 1) == 1)));
        state += carry;
        digits[ii * p.level + lv][c] = raw - (carry << p.base_log);
      }
    }
    __syncthreads();
    if (o < out_size) {
      const uint64_t *key = p.ksk + (size_t)i0 * p.level * out_size + o;
      const uint32_t rows = chunk * p.level;
#pragma unroll 4
      for (uint32_t r = 0; r < rows; ++r) {
        const uint64_t k = __ldg(key + (size_t)r * out_size);
#pragma unroll
        for (int c = 0; c < CTS; ++c) acc[c] -= digits[r][c] * k;
      }
    }
  }

  if (o >= out_size) return;
  // Unrolled with constant indexes: a loop to `cts` would index `acc` at run time,
  // which puts it in local memory.
#pragma unroll
  for (uint32_t c = 0; c < (uint32_t)CTS; ++c) {
    if (c >= cts) break;
    const size_t ct = first_ct + c;
    if (p.splits == 1) {
      const uint64_t body = o == p.out_dim ? p.in[ct * in_size + p.in_dim] : 0;
      p.out[ct * out_size + o] = body + acc[c];
    } else {
      p.partial[((size_t)blockIdx.z * p.count + ct) * out_size + o] = acc[c];
    }
  }
}

// out = (0, ..., 0, b) + the sum of the splits' partial sums.
__device__ __forceinline__ void keyswitch_reduce(const KeyswitchParams &p) {
  const size_t out_size = (size_t)p.out_dim + 1, in_size = (size_t)p.in_dim + 1;
  const size_t total = (size_t)p.count * out_size;
  for (size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total;
       idx += (size_t)blockDim.x * gridDim.x) {
    const size_t ct = idx / out_size, o = idx % out_size;
    uint64_t value = o == p.out_dim ? p.in[ct * in_size + p.in_dim] : 0;
    for (uint32_t s = 0; s < p.splits; ++s) value += p.partial[(size_t)s * total + idx];
    p.out[idx] = value;
  }
}

}  // namespace gpufhe

#define KEYSWITCH_KERNEL(CTS)                                             \
  extern "C" __global__ void __launch_bounds__(gpufhe::KS_OUTPUTS)        \
      keyswitch_##CTS##_u64(gpufhe::KeyswitchParams p) {                  \
    gpufhe::keyswitch<CTS>(p);                                            \
  }
KEYSWITCH_KERNEL(1)
KEYSWITCH_KERNEL(2)
KEYSWITCH_KERNEL(4)
KEYSWITCH_KERNEL(8)
KEYSWITCH_KERNEL(16)

extern "C" __global__ void keyswitch_reduce_u64(gpufhe::KeyswitchParams p) {
  gpufhe::keyswitch_reduce(p);
}
