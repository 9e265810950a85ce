// Linear algebra on batches of LWE ciphertexts modulo 2^64.
//
// Every kernel treats a batch as one flat array of `len` u64 coefficients (the
// ciphertexts one after the other) and walks it with a grid-stride loop, so one
// launch covers any batch size. Unsigned arithmetic wraps: exactly modulo 2^64.
// One template per shape, one-line instantiations named <op>_<scalar>.

#include <cstdint>

template <typename T, typename Op>
__device__ __forceinline__ void binary_assign(T *lhs, const T *rhs, uint64_t len, Op op) {
  const uint64_t stride = (uint64_t)blockDim.x * gridDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < len; i += stride) {
    lhs[i] = op(lhs[i], rhs[i]);
  }
}

template <typename T, typename Op>
__device__ __forceinline__ void unary_assign(T *data, uint64_t len, Op op) {
  const uint64_t stride = (uint64_t)blockDim.x * gridDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < len; i += stride) {
    data[i] = op(data[i]);
  }
}

template <typename T> struct Add {
  __device__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct Sub {
  __device__ T operator()(T a, T b) const { return a - b; }
};
template <typename T> struct Neg {
  __device__ T operator()(T a) const { return T(0) - a; }
};

#define BINARY(name, T, OP)                                                            \
  extern "C" __global__ void name(T *lhs, const T *rhs, uint64_t len) {                \
    binary_assign<T>(lhs, rhs, len, OP<T>());                                          \
  }
#define UNARY(name, T, OP)                                                             \
  extern "C" __global__ void name(T *data, uint64_t len) { unary_assign<T>(data, len, OP<T>()); }

BINARY(add_lwe_assign_u64, uint64_t, Add)
BINARY(sub_lwe_assign_u64, uint64_t, Sub)
UNARY(neg_lwe_assign_u64, uint64_t, Neg)
