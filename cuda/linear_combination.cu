// The linear part of a backend step in one launch: for every expression e,
//   out[e] = sum_t scalar_t * (*source_t) + (0, ..., 0, constant_e)
// modulo 2^64, where the sources are device addresses of ciphertexts anywhere in
// the device's memory (several input lists) and the terms of the expressions are
// given in compressed-row form (offsets[e] .. offsets[e + 1]). An expression without
// terms is a trivial ciphertext. Bit-identical to the CPU backend, which computes
// the same wrapping sums.

#include <cstdint>

namespace gpufhe {

// Mirrors `LinearCombinationParams` in src/backend/cuda/algorithms/linear_combination.rs.
struct LinearCombinationParams {
  uint64_t *out;              // count ciphertexts of lwe_size
  const uint64_t *offsets;    // count + 1 term offsets
  const uint64_t *sources;    // per term: device address of its ciphertext
  const uint64_t *scalars;    // per term: the factor, two's complement
  const uint64_t *constants;  // per expression: the encoded constant added to the body
  uint64_t lwe_size;
  uint64_t count;
};

template <typename T>
__device__ __forceinline__ void linear_combination(const LinearCombinationParams &p) {
  for (uint64_t e = blockIdx.x; e < p.count; e += gridDim.x) {
    const uint64_t begin = p.offsets[e], end = p.offsets[e + 1];
    T *out = p.out + e * p.lwe_size;
    for (uint64_t c = threadIdx.x; c < p.lwe_size; c += blockDim.x) {
      T acc = c + 1 == p.lwe_size ? p.constants[e] : 0;
      for (uint64_t s = begin; s < end; ++s) {
        const T *source = reinterpret_cast<const T *>(p.sources[s]);
        acc += p.scalars[s] * source[c];
      }
      out[c] = acc;
    }
  }
}

}  // namespace gpufhe

extern "C" __global__ void linear_combination_lwe_u64(gpufhe::LinearCombinationParams p) {
  gpufhe::linear_combination<uint64_t>(p);
}
