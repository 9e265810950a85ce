// Runs the gpufhe kernels under the CPU emulation (cuda_emu.h) on data files, with
// the launch geometry of the Rust host code (src/backend/cuda/*.rs), which it
// mirrors. Usage: harness <pbs|mbpbs|pbs128|ks|linear> <dir> [forward|reverse|shuffled]
// Reads <dir>/meta.txt (whitespace-separated integers, see each command) and binary
// little-endian arrays, writes <dir>/output.bin. Exit status 0 on success.
#include <cinttypes>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "kernel_params.h"

using namespace gpufhe;

template <class T>
static std::vector<T> read(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::cerr << "cannot read " << path << "\n";
    std::exit(2);
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

template <class T>
static void write(const std::string &path, const std::vector<T> &v) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(T));
}

static std::vector<uint64_t> meta(const std::string &dir) {
  std::ifstream f(dir + "/meta.txt");
  std::vector<uint64_t> v;
  uint64_t x;
  while (f >> x) v.push_back(x);
  return v;
}

struct Sizes {
  unsigned n, threads;
  unsigned single_groups;  // polynomials per thread of the single-block bootstrap
  void (*convert)(BskConversionParams);
  void (*single)(PbsParams);
  void (*cluster)(PbsParams);
  void (*bundle)(MultiBitParams);
  void (*mb_single)(MultiBitParams);
  void (*mb_cluster)(MultiBitParams);
};
#define SIZE(N, T, G)                                                                        \
  {N, T, G, bsk_to_fourier_##N##_u64, programmable_bootstrap_##N##_u64,                         \
   programmable_bootstrap_cluster_##N##_u64, multi_bit_key_bundle_##N##_u64,                 \
   multi_bit_bootstrap_##N##_u64, multi_bit_bootstrap_cluster_##N##_u64}
static const Sizes SIZES[] = {SIZE(256, 32, 1),   SIZE(512, 32, 1),   SIZE(1024, 64, 1),
                              SIZE(2048, 128, 1), SIZE(4096, 256, 2)};

static size_t padded_polynomial_bytes(size_t n) {
  size_t m = n / 2;
  return (m + m / 8) * 16;
}

static void fail(const char *what) {
  std::cerr << what << "\n";
  std::exit(1);
}

// What both bootstraps share: the shape, the key converted to the Fourier domain by
// the conversion kernel, the FFT tables and the parameters of the batch.
struct Bootstrap {
  const Sizes *sz;
  uint32_t n, k, N, level, count, outputs;
  bool cluster;
  std::vector<uint64_t> input, luts, out;
  std::vector<uint32_t> jobs;
  std::vector<double2> twiddles, twist, fourier;
  PbsParams p;

  // meta: lwe_dim glwe_dim N base_log level centered count outputs cluster(0/1)
  explicit Bootstrap(const std::string &dir, const std::vector<uint64_t> &m) {
    if (m.size() < 9) fail("pbs meta: lwe glwe N base_log level centered count outputs cluster");
    n = m[0], k = m[1], N = m[2], level = m[4], count = m[6], outputs = m[7];
    cluster = m[8] != 0;
    sz = nullptr;
    for (auto &s : SIZES)
      if (s.n == N) sz = &s;
    if (!sz) fail("unsupported N");
    auto bsk_std = read<uint64_t>(dir + "/bsk.bin");
    input = read<uint64_t>(dir + "/input.bin");
    luts = read<uint64_t>(dir + "/luts.bin");
    jobs = read<uint32_t>(dir + "/jobs.bin");
    const size_t M = N / 2;
    // Twiddles by stage, as FftTables::new builds them: the run of span s at M - 2 s.
    twist.resize(M);
    for (size_t s = M / 2; s >= 1; s /= 2)
      for (size_t i = 0; i < s; ++i) {
        double a = -2.0 * M_PI * (double)(i * M / (2 * s)) / (double)M;
        twiddles.push_back(make_double2(std::cos(a), std::sin(a)));
      }
    for (size_t p = 0; p < M; ++p) {
      double a = M_PI * (double)p / (double)N;
      twist[p] = make_double2(std::cos(a), std::sin(a));
    }
    const size_t polys = bsk_std.size() / N;
    fourier.resize(polys * M);
    BskConversionParams cp{fourier.data(), bsk_std.data(), twiddles.data(), twist.data(), polys};
    if (!emu::launch(dim3{(unsigned)std::min<size_t>(polys, 1 << 20), 1, 1},
                     dim3{sz->threads, 1, 1}, padded_polynomial_bytes(N), 1,
                     [&] { sz->convert(cp); }))
      fail("conversion deadlock");
    out.assign((size_t)outputs * (k * N + 1), 0);
    p = PbsParams{out.data(),      input.data(),  luts.data(),   jobs.data(), fourier.data(),
                  twiddles.data(), twist.data(),  {},            n,           k,
                  (uint32_t)m[3],  level,         (uint32_t)m[5], count,      count};
    // As twist_steps() in src/backend/cuda/entities/bootstrap_key.rs.
    for (int j = 0; j < 8; ++j) {
      p.twist_steps[2 * j] = std::cos(M_PI * j / 16.0);
      p.twist_steps[2 * j + 1] = std::sin(M_PI * j / 16.0);
    }
  }

  // Runs `body` with the launch geometry of the bootstrap (one block, or a cluster of
  // k + 1 blocks, per ciphertext), as cuda_programmable_bootstrap_lwe_ciphertext_list.
  template <class F>
  void launch(const F &body, const char *what) {
    const unsigned T = sz->threads;
    const size_t rows = padded_polynomial_bytes(N);
    const size_t staging = level > 1 ? (size_t)N * 8 : 0;
    const size_t mask = ((size_t)n + 1) * 4;
    const size_t glwe_size = k + 1;
    bool ok;
    if (cluster) {
      ok = emu::launch(dim3{count * (unsigned)glwe_size, 1, 1}, dim3{T, 1, 1},
                       2 * level * rows + staging + mask, glwe_size, body);
    } else {
      // T threads per polynomial, or T in all when each holds G = k + 1 of them.
      if (sz->single_groups > 1 && sz->single_groups != glwe_size)
        fail("this single-block bootstrap needs k + 1 = its polynomials per thread");
      const unsigned threads = sz->single_groups > 1 ? T : T * (unsigned)glwe_size;
      ok = emu::launch(dim3{count, 1, 1}, dim3{threads, 1, 1},
                       glwe_size * (2 * level * rows + staging) + mask, 1, body);
    }
    if (!ok) fail(what);
  }
};

static void run_pbs(const std::string &dir) {
  Bootstrap b(dir, meta(dir));
  b.launch([&] { b.cluster ? b.sz->cluster(b.p) : b.sz->single(b.p); }, "bootstrap deadlock");
  write(dir + "/output.bin", b.out);
}

// meta: as pbs, then grouping_factor, groups per chunk, blocks of the key-bundle grid.
// The host's alternation (cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list):
// the bundles of a chunk of groups of every ciphertext, then the accumulation of that
// chunk, until the n / g groups are done.
static void run_multi_bit(const std::string &dir) {
  auto m = meta(dir);
  if (m.size() < 12) fail("mbpbs meta: as pbs, then grouping_factor chunk bundle_blocks");
  Bootstrap b(dir, m);
  const uint32_t gf = m[9], chunk = m[10], blocks = m[11];
  const uint32_t total = b.n / gf;
  const size_t ggsw = (size_t)(b.k + 1) * (b.k + 1) * b.level * b.N / 2;
  std::vector<double2> bundles((size_t)b.count * chunk * ggsw);
  std::vector<uint64_t> state(total > chunk ? (size_t)b.count * (b.k + 1) * b.N : 0);
  // Each ciphertext prefetches all of its own bundles (a share of 1).
  PbsParams pbs = b.p;
  pbs.prefetch_share = 1;
  for (uint32_t first = 0; first < total; first += chunk) {
    const uint32_t groups = std::min(chunk, total - first);
    MultiBitParams mp{pbs, bundles.data(), state.empty() ? nullptr : state.data(), gf, first,
                      groups, chunk};
    if (!emu::launch(dim3{blocks, 1, 1}, dim3{b.sz->threads, 1, 1},
                     padded_polynomial_bytes(b.N), 1, [&] { b.sz->bundle(mp); }))
      fail("key bundle deadlock");
    b.launch([&] { b.cluster ? b.sz->mb_cluster(mp) : b.sz->mb_single(mp); },
             "multi-bit bootstrap deadlock");
  }
  write(dir + "/output.bin", b.out);
}

// meta: in_dim out_dim base_log level count multiprocessors
static void run_ks(const std::string &dir) {
  auto m = meta(dir);
  if (m.size() < 6) fail("ks meta: in_dim out_dim base_log level count multiprocessors");
  const uint32_t in_dim = m[0], out_dim = m[1], base_log = m[2], level = m[3], count = m[4];
  const size_t sms = m[5];
  auto ksk = read<uint64_t>(dir + "/ksk.bin");
  auto input = read<uint64_t>(dir + "/input.bin");
  std::vector<uint64_t> out((size_t)count * (out_dim + 1), 0);
  // Mirrors cuda_keyswitch_lwe_ciphertext_list.
  uint32_t cts = 1;
  while (cts < count && cts < 16) cts *= 2;
  const size_t ct_tiles = (count + cts - 1) / cts, out_tiles = (out_dim + 1 + 127) / 128;
  const size_t target = 2 * sms;
  const size_t max_splits = std::clamp<size_t>(in_dim / 64, 1, 65535);
  size_t splits = std::clamp<size_t>((target + ct_tiles * out_tiles - 1) / (ct_tiles * out_tiles),
                                     1, max_splits);
  const size_t per_split = std::max<size_t>((in_dim + splits - 1) / splits, 1);
  splits = std::max<size_t>((in_dim + per_split - 1) / per_split, 1);
  std::vector<uint64_t> partial(splits > 1 ? splits * count * (out_dim + 1) : 0,
                                0x5555555555555555ull);
  KeyswitchParams p{out.data(), splits > 1 ? partial.data() : nullptr, input.data(), ksk.data(),
                    in_dim,     out_dim,                              base_log,     level,
                    count,      (uint32_t)per_split,                  (uint32_t)splits, 0};
  if (!emu::launch(dim3{(unsigned)ct_tiles, (unsigned)out_tiles, (unsigned)splits},
                   dim3{128, 1, 1}, 0, 1, [&] { keyswitch_kernel(cts)(p); }))
    fail("keyswitch deadlock");
  if (splits > 1) {
    const size_t total = std::min<size_t>((count * (out_dim + 1) + 255) / 256, 1 << 20);
    if (!emu::launch(dim3{(unsigned)total, 1, 1}, dim3{256, 1, 1}, 0, 1,
                     [&] { keyswitch_reduce_u64(p); }))
      fail("reduce deadlock");
  }
  write(dir + "/output.bin", out);
}

// meta: lwe_size count(expressions); inputs.bin, offsets.bin, sources.bin (block
// indexes into inputs), scalars.bin, constants.bin
static void run_linear(const std::string &dir) {
  auto m = meta(dir);
  const uint64_t lwe_size = m[0], count = m[1];
  auto inputs = read<uint64_t>(dir + "/inputs.bin");
  auto offsets = read<uint64_t>(dir + "/offsets.bin");
  auto sources = read<uint64_t>(dir + "/sources.bin");
  auto scalars = read<uint64_t>(dir + "/scalars.bin");
  auto constants = read<uint64_t>(dir + "/constants.bin");
  for (auto &s : sources) s = (uint64_t)(uintptr_t)(inputs.data() + s * lwe_size);
  std::vector<uint64_t> out(count * lwe_size, 0);
  LinearCombinationParams p{out.data(), offsets.data(), sources.data(), scalars.data(),
                            constants.data(), lwe_size, count};
  if (!emu::launch(dim3{(unsigned)std::min<uint64_t>(count, 1 << 20), 1, 1}, dim3{256, 1, 1}, 0,
                   1, [&] { linear_combination_lwe_u64(p); }))
    fail("linear deadlock");
  write(dir + "/output.bin", out);
}

// The 128-bit bootstrap (cuda/noise_squashing_bootstrap.cu), with the launches of
// src/backend/cuda/{entities/bootstrap_key_128,algorithms/lwe_programmable_bootstrapping_128}.rs:
// the key converted by bsk128_to_fourier_<N>, then one block of T threads per input.
// meta: lwe_dim glwe_dim N base_log level centered count; bsk.bin (the standard key,
// 128-bit values as (lo, hi) words), input.bin, lut.bin (128-bit), twiddles.bin and
// twist.bin (the host's double-double tables, f64).
static void run_pbs128(const std::string &dir) {
  auto m = meta(dir);
  if (m.size() < 7) fail("pbs128 meta: lwe glwe N base_log level centered count");
  const uint32_t n = m[0], k = m[1], N = m[2], count = m[6];
  struct Size {
    unsigned n, threads;
    void (*convert)(Bsk128ConversionParams);
    void (*pbs)(Pbs128Params);
  };
#define SIZE128(S, T) {S, T, bsk128_to_fourier_##S, programmable_bootstrap_128_##S}
  static const Size sizes[] = {SIZE128(256, 64), SIZE128(512, 128), SIZE128(1024, 256),
                               SIZE128(2048, 256), SIZE128(4096, 256)};
#undef SIZE128
  const Size *sz = nullptr;
  for (auto &s : sizes)
    if (s.n == N) sz = &s;
  if (!sz) fail("unsupported N");
  auto bsk = read<uint64_t>(dir + "/bsk.bin");
  auto input = read<uint64_t>(dir + "/input.bin");
  auto lut = read<uint64_t>(dir + "/lut.bin");
  auto twiddles = read<double>(dir + "/twiddles.bin");
  auto twist = read<double>(dir + "/twist.bin");
  const size_t M = N / 2, polys = bsk.size() / (2 * (size_t)N);
  std::vector<double> fourier(polys * M * 4);
  Bsk128ConversionParams cp{fourier.data(), bsk.data(), twiddles.data(), twist.data(), polys};
  if (!emu::launch(dim3{(unsigned)std::min<size_t>(polys, 1 << 20), 1, 1},
                   dim3{sz->threads, 1, 1}, M * 32, 1, [&] { sz->convert(cp); }))
    fail("128-bit conversion deadlock");
  std::vector<uint64_t> out((size_t)count * (k * N + 1) * 2, 0);
  std::vector<uint64_t> acc((size_t)count * (k + 1) * N * 2, 0);
  Pbs128Params p{out.data(), acc.data(), input.data(), lut.data(), fourier.data(),
                 twiddles.data(), twist.data(), n, k, (uint32_t)m[3], (uint32_t)m[4],
                 (uint32_t)m[5], count};
  // As bootstrap_128_shared_bytes in the host code.
  const size_t shared = (k + 2) * M * 32 + 4 * ((size_t)n + 1);
  if (!emu::launch(dim3{count, 1, 1}, dim3{sz->threads, 1, 1}, shared, 1, [&] { sz->pbs(p); }))
    fail("128-bit bootstrap deadlock");
  write(dir + "/output.bin", out);
}

int main(int argc, char **argv) {
  if (argc < 3) fail("usage: harness <pbs|mbpbs|pbs128|ks|linear> <dir> [forward|reverse|shuffled]");
  std::string cmd = argv[1], dir = argv[2];
  if (argc > 3) {
    std::string o = argv[3];
    emu::state().order = o == "reverse"    ? emu::Order::Reverse
                         : o == "shuffled" ? emu::Order::Shuffled
                                           : emu::Order::Forward;
  }
  if (cmd == "pbs") run_pbs(dir);
  else if (cmd == "mbpbs") run_multi_bit(dir);
  else if (cmd == "pbs128") run_pbs128(dir);
  else if (cmd == "ks") run_ks(dir);
  else if (cmd == "linear") run_linear(dir);
  else fail("unknown command");
  return 0;
}
