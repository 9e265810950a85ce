// Arithmetic shared by the TFHE kernels: complex doubles, rounding of doubles to
// integers modulo 2^64, the signed gadget decomposition and the modulus switch.
// Each function is the device twin of a CPU function named in its comment.
#pragma once

#include <cstdint>

// The dynamic shared memory of a block as `T *name` (a CPU emulation of the kernels,
// used to test them without a GPU, defines GPUFHE_EMULATION and its own version).
#ifndef GPUFHE_EMULATION
#define GPUFHE_DYNAMIC_SHARED(T, name) \
  extern __shared__ T gpufhe_dynamic_shared_##T[]; \
  T *name = gpufhe_dynamic_shared_##T
#endif

namespace gpufhe {

// Asks for the 128-byte line holding `p` to be brought into L2 (no register result,
// no fault on any address); a no-op in the CPU emulation.
__device__ __forceinline__ void prefetch_l2(const void *p) {
#ifndef GPUFHE_EMULATION
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}

__device__ __forceinline__ double2 c_add(double2 a, double2 b) {
  return make_double2(a.x + b.x, a.y + b.y);
}

__device__ __forceinline__ double2 c_sub(double2 a, double2 b) {
  return make_double2(a.x - b.x, a.y - b.y);
}

__device__ __forceinline__ double2 c_mul(double2 a, double2 b) {
  return make_double2(fma(a.x, b.x, -a.y * b.y), fma(a.x, b.y, a.y * b.x));
}

// a * conj(b)
__device__ __forceinline__ double2 c_mul_conj(double2 a, double2 b) {
  return make_double2(fma(a.x, b.x, a.y * b.y), fma(a.y, b.x, -a.x * b.y));
}

// acc + a * b
__device__ __forceinline__ double2 c_fma(double2 a, double2 b, double2 acc) {
  return make_double2(fma(a.x, b.x, fma(-a.y, b.y, acc.x)), fma(a.x, b.y, fma(a.y, b.x, acc.y)));
}

// x rounded to the nearest integer (ties to even) modulo 2^64; x may exceed 2^64 in
// magnitude. The twin of `f64_to_torus` (core_crypto/fft.rs): the nearest multiple
// of 2^64 is removed exactly, leaving r in [-2^63, 2^63]; 2^63 itself is -2^63
// modulo 2^64, so it is folded before the conversion (which would saturate).
__device__ __forceinline__ uint64_t f64_to_torus(double x) {
  const double two_pow_64 = 18446744073709551616.0;
  const double two_pow_63 = 9223372036854775808.0;
  double r = x - rint(x * (1.0 / two_pow_64)) * two_pow_64;
  if (r >= two_pow_63) r -= two_pow_64;
  return (uint64_t)__double2ll_rn(r);
}

// The signed decomposition of SignedDecomposer (core_crypto/algorithms/
// decomposition.rs): x rounded to its level * base_log most significant bits, then
// digits in [-B/2, B/2] from the least significant level up; digit 0 is the most
// significant (level 1). Requires 1 <= base_log < 64 and base_log * level <= 64.
__device__ __forceinline__ uint64_t closest_representable_shifted(uint64_t x, uint32_t base_log,
                                                                   uint32_t level) {
  const uint32_t kept = base_log * level;
  if (kept >= 64) return x;
  const uint32_t shift = 64 - kept;
  return ((x >> shift) + ((x >> (shift - 1)) & 1)) & (~0ull >> shift);
}

// The single digit of a level-1 decomposition (SignedDecomposer::decompose_level1):
// the bits above base_log are zero, so a digit of exactly B/2 stays.
__device__ __forceinline__ uint64_t decompose_level1(uint64_t x, uint32_t base_log) {
  const uint64_t raw = closest_representable_shifted(x, base_log, 1);
  const uint64_t carry = (uint64_t)(raw > (1ull << (base_log - 1)));
  return raw - (carry << base_log);
}

// Digit `j` (0 = most significant) of x, as a two's complement u64. Not inlined: it
// serves the rare multi-level decompositions and would otherwise be unrolled at
// every call site.
__device__ __noinline__ uint64_t decompose_digit(uint64_t x, uint32_t base_log, uint32_t level,
                                                    uint32_t j) {
  uint64_t state = closest_representable_shifted(x, base_log, level);
  const uint64_t mask = (1ull << base_log) - 1;
  const uint64_t half = 1ull << (base_log - 1);
  uint64_t digit = 0;
  for (int lv = (int)level - 1; lv >= (int)j; --lv) {
    const uint64_t raw = state & mask;
    state >>= base_log;
    const uint64_t carry = (uint64_t)((raw > half) | ((raw == half) & ((state & 1) == 1)));
    state += carry;
    digit = raw - (carry << base_log);
  }
  return digit;
}

// round(x / 2^(64 - log_modulus)) before reduction modulo 2^log_modulus, as the
// modulus switch of core_crypto/algorithms/modulus_switch.rs.
__device__ __forceinline__ uint64_t switch_modulus(uint64_t x, uint32_t log_modulus) {
  const uint32_t shift = 64 - log_modulus;
  return ((x >> (shift - 1)) + 1) >> 1;
}

}  // namespace gpufhe
