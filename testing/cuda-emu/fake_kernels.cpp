// The kernel side of the fake CUDA driver: the table of fake_kernels.h, one entry per
// extern "C" kernel of cuda/*.cu. Each entry copies the launch's arguments (the
// by-value parameter struct behind kernelParams[0], or the plain arguments of the
// LWE kernels), checks that every device address in them covers what the kernel
// reads or writes in memory of the launching device, and runs the grid through the
// emulation (cuda_emu.h) with the launch's geometry and dynamic shared memory.
#include "fake_kernels.h"

#include <atomic>
#include <cstring>
#include <string>
#include <string_view>

#include "kernel_params.h"

namespace fake {
namespace {

using namespace gpufhe;

template <class T>
T argument(void **params, int i) {
  T value;
  std::memcpy(&value, params[i], sizeof(T));
  return value;
}

// The order set by set_order (-1: none), applied by every thread's launches (the
// emulation's state is per thread).
std::atomic<int> configured_order{-1};

LaunchResult run_grid(const Geometry &g, const std::function<void()> &body) {
  if (const int order = configured_order.load(); order >= 0)
    emu::state().order = static_cast<emu::Order>(order);
  const dim3 grid{g.grid[0], g.grid[1], g.grid[2]}, block{g.block[0], g.block[1], g.block[2]};
  return emu::launch(grid, block, g.shared_bytes, g.cluster, body) ? LaunchResult::Ok
                                                                    : LaunchResult::Deadlock;
}

// Checks that `count` elements at `p` are device memory (nothing to check if count is 0).
template <class T>
bool covers(const DeviceMemoryCheck &check, const T *p, size_t count) {
  return count == 0 || (p != nullptr && check(p, count * sizeof(T)));
}

template <unsigned N>
LaunchResult bsk_to_fourier(const Geometry &g, void **params, const DeviceMemoryCheck &check) {
  const auto p = argument<BskConversionParams>(params, 0);
  const size_t M = N / 2;
  if (!covers(check, p.out, p.polynomials * M) || !covers(check, p.in, p.polynomials * N) ||
      !covers(check, p.twiddles, M - 1) || !covers(check, p.twist, M))
    return LaunchResult::BadArgument;
  return run_grid(g, [&] {
    switch (N) {
#define CASE(S) \
  case S: bsk_to_fourier_##S##_u64(p); break;
      CASE(256) CASE(512) CASE(1024) CASE(2048) CASE(4096)
#undef CASE
    }
  });
}

// The bootstrap's buffers: inputs, jobs, then the lookup tables (GLWE accumulators)
// and output slots the jobs name, the key and the FFT tables.
template <unsigned N>
bool bootstrap_arguments_ok(const PbsParams &p, const DeviceMemoryCheck &check) {
  const size_t M = N / 2, k = p.glwe_dimension, l = p.level;
  if (!covers(check, p.in, (size_t)p.count * (p.lwe_dimension + 1)) ||
      !covers(check, p.jobs, (size_t)p.count * 3))
    return false;
  size_t tables = 0, outputs = 0;
  for (size_t ct = 0; ct < p.count; ++ct) {
    tables = std::max<size_t>(tables, (size_t)p.jobs[3 * ct] + 1);
    outputs = std::max<size_t>(outputs, (size_t)p.jobs[3 * ct + 1] + p.jobs[3 * ct + 2]);
  }
  const size_t ggsw = (k + 1) * l * (k + 1) * M;
  return covers(check, p.luts, tables * (k + 1) * N) &&
         covers(check, p.out, outputs * (k * N + 1)) &&
         covers(check, p.bsk, (size_t)p.lwe_dimension * ggsw) &&
         covers(check, p.twiddles, M - 1) && covers(check, p.twist, M);
}

template <unsigned N, bool Cluster>
LaunchResult bootstrap(const Geometry &g, void **params, const DeviceMemoryCheck &check) {
  const auto p = argument<PbsParams>(params, 0);
  if (!bootstrap_arguments_ok<N>(p, check)) return LaunchResult::BadArgument;
  return run_grid(g, [&] {
    switch (N) {
#define CASE(S)                                                 \
  case S:                                                       \
    if (Cluster) programmable_bootstrap_cluster_##S##_u64(p);   \
    else programmable_bootstrap_##S##_u64(p);                   \
    break;
      CASE(256) CASE(512) CASE(1024) CASE(2048) CASE(4096)
#undef CASE
    }
  });
}

// The multi-bit buffers beyond the bootstrap's: the key of (n/g)(2^g - 1) GGSWs, the
// bundles of `capacity` groups per ciphertext and, when the rotation takes several
// chunks, the accumulators.
template <unsigned N>
bool multi_bit_arguments_ok(const MultiBitParams &p, const DeviceMemoryCheck &check) {
  const PbsParams &b = p.pbs;
  const size_t M = N / 2, k = b.glwe_dimension, gf = p.grouping_factor;
  if (gf == 0 || gf > 6 || b.lwe_dimension % gf != 0 || p.groups > p.capacity) return false;
  const size_t groups = b.lwe_dimension / gf;
  if ((size_t)p.first_group + p.groups > groups) return false;
  const size_t ggsw = (k + 1) * b.level * (k + 1) * M;
  const bool chunked = p.first_group > 0 || p.first_group + p.groups < groups;
  return covers(check, b.in, (size_t)b.count * (b.lwe_dimension + 1)) &&
         covers(check, b.bsk, groups * ((1u << gf) - 1) * ggsw) &&
         covers(check, p.bundles, (size_t)b.count * p.capacity * ggsw) &&
         (!chunked || covers(check, p.state, (size_t)b.count * (k + 1) * N)) &&
         covers(check, b.twiddles, M - 1) && covers(check, b.twist, M);
}

template <unsigned N>
LaunchResult multi_bit_key_bundle(const Geometry &g, void **params,
                                  const DeviceMemoryCheck &check) {
  const auto p = argument<MultiBitParams>(params, 0);
  if (!multi_bit_arguments_ok<N>(p, check)) return LaunchResult::BadArgument;
  return run_grid(g, [&] {
    switch (N) {
#define CASE(S) \
  case S: multi_bit_key_bundle_##S##_u64(p); break;
      CASE(256) CASE(512) CASE(1024) CASE(2048) CASE(4096)
#undef CASE
    }
  });
}

template <unsigned N, bool Cluster>
LaunchResult multi_bit_bootstrap(const Geometry &g, void **params,
                                 const DeviceMemoryCheck &check) {
  const auto p = argument<MultiBitParams>(params, 0);
  if (!multi_bit_arguments_ok<N>(p, check) || !bootstrap_arguments_ok<N>(p.pbs, check))
    return LaunchResult::BadArgument;
  return run_grid(g, [&] {
    switch (N) {
#define CASE(S)                                                 \
  case S:                                                       \
    if (Cluster) multi_bit_bootstrap_cluster_##S##_u64(p);      \
    else multi_bit_bootstrap_##S##_u64(p);                      \
    break;
      CASE(256) CASE(512) CASE(1024) CASE(2048) CASE(4096)
#undef CASE
    }
  });
}

// The 128-bit key conversion: N 128-bit coefficients (two words) in, N/2 complex
// double-doubles (four doubles) out per polynomial; M/2 twiddles and M twists.
template <unsigned N>
LaunchResult bsk128_to_fourier(const Geometry &g, void **params, const DeviceMemoryCheck &check) {
  const auto p = argument<Bsk128ConversionParams>(params, 0);
  const size_t M = N / 2;
  if (!covers(check, p.out, p.polynomials * M * 4) ||
      !covers(check, p.in, p.polynomials * N * 2) || !covers(check, p.twiddles, M / 2 * 4) ||
      !covers(check, p.twist, M * 4))
    return LaunchResult::BadArgument;
  return run_grid(g, [&] {
    switch (N) {
#define CASE(S) \
  case S: bsk128_to_fourier_##S(p); break;
      CASE(256) CASE(512) CASE(1024) CASE(2048) CASE(4096)
#undef CASE
    }
  });
}

// The 128-bit bootstrap: count inputs of n + 1 words, outputs of k N + 1 and
// accumulators of (k + 1) N 128-bit values, the lookup table, the key of n GGSWs.
template <unsigned N>
LaunchResult bootstrap_128(const Geometry &g, void **params, const DeviceMemoryCheck &check) {
  const auto p = argument<Pbs128Params>(params, 0);
  const size_t M = N / 2, k = p.glwe_dimension, count = p.count;
  const size_t ggsw = (k + 1) * p.level * (k + 1) * M * 4;
  if (p.level == 0 || p.base_log == 0 || p.base_log > 63 || p.base_log * p.level > 128 ||
      !covers(check, p.in, count * (p.lwe_dimension + 1)) ||
      !covers(check, p.out, count * (k * N + 1) * 2) ||
      !covers(check, p.acc, count * (k + 1) * N * 2) || !covers(check, p.lut, (k + 1) * N * 2) ||
      !covers(check, p.bsk, (size_t)p.lwe_dimension * ggsw) ||
      !covers(check, p.twiddles, M / 2 * 4) || !covers(check, p.twist, M * 4))
    return LaunchResult::BadArgument;
  return run_grid(g, [&] {
    switch (N) {
#define CASE(S) \
  case S: programmable_bootstrap_128_##S(p); break;
      CASE(256) CASE(512) CASE(1024) CASE(2048) CASE(4096)
#undef CASE
    }
  });
}

std::string describe_bootstrap_128(void **params) {
  const auto p = argument<Pbs128Params>(params, 0);
  return "count=" + std::to_string(p.count) + " lwe_dimension=" +
         std::to_string(p.lwe_dimension) + " glwe_dimension=" +
         std::to_string(p.glwe_dimension) + " level=" + std::to_string(p.level);
}

// Reduce: the reduction kernel; otherwise the keyswitch of CTS ciphertexts per block.
template <bool Reduce, uint32_t CTS = 16>
LaunchResult keyswitch(const Geometry &g, void **params, const DeviceMemoryCheck &check) {
  const auto p = argument<KeyswitchParams>(params, 0);
  const size_t out = (size_t)p.count * (p.out_dim + 1);
  const bool split = p.splits > 1;
  bool ok = covers(check, p.out, out) && (!split || covers(check, p.partial, p.splits * out));
  if (!Reduce)
    ok = ok && covers(check, p.in, (size_t)p.count * (p.in_dim + 1)) &&
         covers(check, p.ksk, (size_t)p.in_dim * p.level * (p.out_dim + 1));
  if (!ok) return LaunchResult::BadArgument;
  return run_grid(g, [&] { Reduce ? keyswitch_reduce_u64(p) : keyswitch_kernel(CTS)(p); });
}

LaunchResult linear_combination(const Geometry &g, void **params,
                                const DeviceMemoryCheck &check) {
  const auto p = argument<LinearCombinationParams>(params, 0);
  if (!covers(check, p.out, p.count * p.lwe_size) || !covers(check, p.offsets, p.count + 1) ||
      !covers(check, p.constants, p.count))
    return LaunchResult::BadArgument;
  const size_t terms = p.offsets[p.count];
  if (p.offsets[0] != 0 || !covers(check, p.sources, terms) || !covers(check, p.scalars, terms))
    return LaunchResult::BadArgument;
  for (size_t t = 0; t < terms; ++t)
    if (!covers(check, reinterpret_cast<const uint64_t *>(p.sources[t]), p.lwe_size))
      return LaunchResult::BadArgument;
  return run_grid(g, [&] { linear_combination_lwe_u64(p); });
}

template <void (*K)(uint64_t *, const uint64_t *, uint64_t)>
LaunchResult binary(const Geometry &g, void **params, const DeviceMemoryCheck &check) {
  auto *lhs = argument<uint64_t *>(params, 0);
  const auto *rhs = argument<const uint64_t *>(params, 1);
  const auto len = argument<uint64_t>(params, 2);
  if (!covers(check, lhs, len) || !covers(check, rhs, len)) return LaunchResult::BadArgument;
  return run_grid(g, [&] { K(lhs, rhs, len); });
}

LaunchResult negate(const Geometry &g, void **params, const DeviceMemoryCheck &check) {
  auto *data = argument<uint64_t *>(params, 0);
  const auto len = argument<uint64_t>(params, 1);
  if (!covers(check, data, len)) return LaunchResult::BadArgument;
  return run_grid(g, [&] { neg_lwe_assign_u64(data, len); });
}

// The trace fields of a bootstrap's parameters (GPUFHE_FAKE_CUDA_TRACE).
std::string describe(const PbsParams &p) {
  return "count=" + std::to_string(p.count) + " prefetch_share=" +
         std::to_string(p.prefetch_share) + " lwe_dimension=" + std::to_string(p.lwe_dimension) +
         " glwe_dimension=" + std::to_string(p.glwe_dimension) + " level=" +
         std::to_string(p.level);
}

std::string describe_bootstrap(void **params) { return describe(argument<PbsParams>(params, 0)); }

std::string describe_multi_bit(void **params) {
  const auto p = argument<MultiBitParams>(params, 0);
  return describe(p.pbs) + " grouping_factor=" + std::to_string(p.grouping_factor) +
         " first_group=" + std::to_string(p.first_group) + " groups=" + std::to_string(p.groups);
}

// The single-block bootstrap's __launch_bounds__ (cuda/programmable_bootstrap.cu):
// 256 threads (at N = 4096 each thread holds both polynomials of k = 1).
#define BOOTSTRAP_ENTRIES(N, T, SINGLE_BLOCK_THREADS)                                    \
  {"bsk_to_fourier_" #N "_u64", T, bsk_to_fourier<N>, {sizeof(BskConversionParams)}},   \
      {"programmable_bootstrap_" #N "_u64", SINGLE_BLOCK_THREADS, bootstrap<N, false>,  \
       {sizeof(PbsParams)}, describe_bootstrap},                                        \
      {"programmable_bootstrap_cluster_" #N "_u64", T, bootstrap<N, true>,              \
       {sizeof(PbsParams)}, describe_bootstrap},                                        \
      {"multi_bit_key_bundle_" #N "_u64", T, multi_bit_key_bundle<N>,                  \
       {sizeof(MultiBitParams)}, describe_multi_bit},                                   \
      {"multi_bit_bootstrap_" #N "_u64", SINGLE_BLOCK_THREADS, multi_bit_bootstrap<N, false>, \
       {sizeof(MultiBitParams)}, describe_multi_bit},                                   \
      {"multi_bit_bootstrap_cluster_" #N "_u64", T, multi_bit_bootstrap<N, true>,       \
       {sizeof(MultiBitParams)}, describe_multi_bit},

constexpr size_t WORD = sizeof(uint64_t);

const KernelEntry KERNELS[] = {
    BOOTSTRAP_ENTRIES(256, 32, 256) BOOTSTRAP_ENTRIES(512, 32, 256)
        BOOTSTRAP_ENTRIES(1024, 64, 256) BOOTSTRAP_ENTRIES(2048, 128, 256)
            BOOTSTRAP_ENTRIES(4096, 256, 256)
#define BOOTSTRAP_128_ENTRIES(N, T)                                                    \
  {"bsk128_to_fourier_" #N, T, bsk128_to_fourier<N>, {sizeof(Bsk128ConversionParams)}}, \
      {"programmable_bootstrap_128_" #N, T, bootstrap_128<N>, {sizeof(Pbs128Params)},   \
       describe_bootstrap_128},
    BOOTSTRAP_128_ENTRIES(256, 64) BOOTSTRAP_128_ENTRIES(512, 128)
        BOOTSTRAP_128_ENTRIES(1024, 256) BOOTSTRAP_128_ENTRIES(2048, 256)
            BOOTSTRAP_128_ENTRIES(4096, 256)
#undef BOOTSTRAP_128_ENTRIES
    {"keyswitch_1_u64", 128, keyswitch<false, 1>, {sizeof(KeyswitchParams)}},
    {"keyswitch_2_u64", 128, keyswitch<false, 2>, {sizeof(KeyswitchParams)}},
    {"keyswitch_4_u64", 128, keyswitch<false, 4>, {sizeof(KeyswitchParams)}},
    {"keyswitch_8_u64", 128, keyswitch<false, 8>, {sizeof(KeyswitchParams)}},
    {"keyswitch_16_u64", 128, keyswitch<false, 16>, {sizeof(KeyswitchParams)}},
    {"keyswitch_reduce_u64", 1024, keyswitch<true>, {sizeof(KeyswitchParams)}},
    {"linear_combination_lwe_u64", 1024, linear_combination, {sizeof(LinearCombinationParams)}},
    {"add_lwe_assign_u64", 1024, binary<add_lwe_assign_u64>, {WORD, WORD, WORD}},
    {"sub_lwe_assign_u64", 1024, binary<sub_lwe_assign_u64>, {WORD, WORD, WORD}},
    {"neg_lwe_assign_u64", 1024, negate, {WORD, WORD}},
};

}  // namespace

const KernelEntry *find_kernel(const char *name) {
  for (const auto &k : KERNELS)
    if (std::string_view(k.name) == name) return &k;
  return nullptr;
}

void set_order(const char *order) {
  const std::string_view o = order;
  const emu::Order chosen = o == "reverse"    ? emu::Order::Reverse
                            : o == "shuffled" ? emu::Order::Shuffled
                                              : emu::Order::Forward;
  configured_order.store(static_cast<int>(chosen));
}

const char *last_order() {
  switch (emu::state().order) {
    case emu::Order::Reverse: return "reverse";
    case emu::Order::Shuffled: return "shuffled";
    default: return "forward";
  }
}

}  // namespace fake
