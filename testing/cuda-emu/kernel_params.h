// The parameter structs and extern "C" entry points of the kernels in cuda/*.cu, as
// the emulation's host side (harness.cpp, fake_kernels.cpp) sees them. Each struct
// mirrors its definition in the .cu file and the #[repr(C)] struct of the Rust host
// code (src/backend/cuda/*.rs).
#pragma once

#include <cstdint>

#include "cuda_emu.h"

namespace gpufhe {
struct PbsParams {
  uint64_t *out;
  const uint64_t *in;
  const uint64_t *luts;
  const uint32_t *jobs;
  const double2 *bsk;
  const double2 *twiddles;
  const double2 *twist;
  double twist_steps[16];
  uint32_t lwe_dimension, glwe_dimension, base_log, level, centered, count, prefetch_share;
};
struct MultiBitParams {
  PbsParams pbs;
  double2 *bundles;
  uint64_t *state;
  uint32_t grouping_factor, first_group, groups, capacity;
};
struct BskConversionParams {
  double2 *out;
  const uint64_t *in;
  const double2 *twiddles;
  const double2 *twist;
  uint64_t polynomials;
};
struct KeyswitchParams {
  uint64_t *out;
  uint64_t *partial;
  const uint64_t *in;
  const uint64_t *ksk;
  uint32_t in_dim, out_dim, base_log, level, count, coefficients_per_split, splits, pad;
};
struct LinearCombinationParams {
  uint64_t *out;
  const uint64_t *offsets;
  const uint64_t *sources;
  const uint64_t *scalars;
  const uint64_t *constants;
  uint64_t lwe_size;
  uint64_t count;
};
struct Pbs128Params {
  uint64_t *out;
  uint64_t *acc;
  const uint64_t *in;
  const uint64_t *lut;
  const double *bsk;
  const double *twiddles;
  const double *twist;
  uint32_t lwe_dimension, glwe_dimension, base_log, level, centered, count;
};
struct Bsk128ConversionParams {
  double *out;
  const uint64_t *in;
  const double *twiddles;
  const double *twist;
  uint64_t polynomials;
};
}  // namespace gpufhe

// cuda/noise_squashing_bootstrap.cu: the 128-bit bootstrap, per N (with T threads).
#define GPUFHE_DECLARE_BOOTSTRAP_128(N)                                                     \
  extern "C" void bsk128_to_fourier_##N(gpufhe::Bsk128ConversionParams);                    \
  extern "C" void programmable_bootstrap_128_##N(gpufhe::Pbs128Params);
GPUFHE_DECLARE_BOOTSTRAP_128(256)
GPUFHE_DECLARE_BOOTSTRAP_128(512)
GPUFHE_DECLARE_BOOTSTRAP_128(1024)
GPUFHE_DECLARE_BOOTSTRAP_128(2048)
GPUFHE_DECLARE_BOOTSTRAP_128(4096)
#undef GPUFHE_DECLARE_BOOTSTRAP_128

#define GPUFHE_DECLARE_BOOTSTRAP(N)                                                         \
  extern "C" void bsk_to_fourier_##N##_u64(gpufhe::BskConversionParams);                    \
  extern "C" void programmable_bootstrap_##N##_u64(gpufhe::PbsParams);                      \
  extern "C" void programmable_bootstrap_cluster_##N##_u64(gpufhe::PbsParams);              \
  extern "C" void multi_bit_key_bundle_##N##_u64(gpufhe::MultiBitParams);                   \
  extern "C" void multi_bit_bootstrap_##N##_u64(gpufhe::MultiBitParams);                    \
  extern "C" void multi_bit_bootstrap_cluster_##N##_u64(gpufhe::MultiBitParams);
GPUFHE_DECLARE_BOOTSTRAP(256)
GPUFHE_DECLARE_BOOTSTRAP(512)
GPUFHE_DECLARE_BOOTSTRAP(1024)
GPUFHE_DECLARE_BOOTSTRAP(2048)
GPUFHE_DECLARE_BOOTSTRAP(4096)
#undef GPUFHE_DECLARE_BOOTSTRAP
extern "C" void keyswitch_1_u64(gpufhe::KeyswitchParams);
extern "C" void keyswitch_2_u64(gpufhe::KeyswitchParams);
extern "C" void keyswitch_4_u64(gpufhe::KeyswitchParams);
extern "C" void keyswitch_8_u64(gpufhe::KeyswitchParams);
extern "C" void keyswitch_16_u64(gpufhe::KeyswitchParams);

// The keyswitch kernel of CTS ciphertexts per block (1, 2, 4, 8 or 16).
inline void (*keyswitch_kernel(uint32_t cts))(gpufhe::KeyswitchParams) {
  switch (cts) {
    case 1: return keyswitch_1_u64;
    case 2: return keyswitch_2_u64;
    case 4: return keyswitch_4_u64;
    case 8: return keyswitch_8_u64;
    default: return keyswitch_16_u64;
  }
}
extern "C" void keyswitch_reduce_u64(gpufhe::KeyswitchParams);
extern "C" void linear_combination_lwe_u64(gpufhe::LinearCombinationParams);
extern "C" void add_lwe_assign_u64(uint64_t *lhs, const uint64_t *rhs, uint64_t len);
extern "C" void sub_lwe_assign_u64(uint64_t *lhs, const uint64_t *rhs, uint64_t len);
extern "C" void neg_lwe_assign_u64(uint64_t *data, uint64_t len);
