// Kernels with planted bugs, to show that the sanitized emulation catches them:
//   planted_bugs oob       one thread writes past the end of dynamic shared memory
//                          (AddressSanitizer: heap-buffer-overflow)
//   planted_bugs race      threads read a neighbour's shared-memory word in the same
//                          barrier interval as it is written (ThreadSanitizer: data race)
//   planted_bugs exchange  the same exchange with the barrier: clean under both tools
//   planted_bugs global    one thread reads past the end of a device buffer
//                          (AddressSanitizer: heap-buffer-overflow)
// Built like the kernels (g++ -include cuda_emu.h -DGPUFHE_EMULATION) with
// -fsanitize=address or -fsanitize=thread by tests/gpu/cuda_emulation.rs. Exit status 0
// when the kernel ran and its result is right.
#include <cinttypes>
#include <cstring>
#include <string>

namespace {

constexpr unsigned THREADS = 64;

// Every thread stores its index, then reads its right neighbour's (cyclically).
__global__ void exchange(uint64_t *out, bool with_barrier, unsigned overrun) {
  GPUFHE_DYNAMIC_SHARED(uint64_t, words);
  const unsigned t = threadIdx.x;
  words[t + (t == THREADS - 1 ? overrun : 0)] = t * 3 + 1;
  if (with_barrier) __syncthreads();
  out[t] = words[(t + 1) % THREADS];
}

// Every thread sums its input with the next one; the last reads one past the end.
__global__ void read_past_the_end(const uint64_t *in, uint64_t *out) {
  const unsigned t = threadIdx.x;
  out[t] = in[t] + in[t + 1];
}

}  // namespace

int main(int argc, char **argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  std::vector<uint64_t> out(THREADS, 0);
  const size_t shared = THREADS * sizeof(uint64_t);
  bool ok;
  if (what == "oob" || what == "race" || what == "exchange") {
    const bool barrier = what != "race";
    const unsigned overrun = what == "oob" ? 1 : 0;
    ok = emu::launch(dim3{1, 1, 1}, dim3{THREADS, 1, 1}, shared, 1,
                     [&] { exchange(out.data(), barrier, overrun); });
  } else if (what == "global") {
    std::vector<uint64_t> in(THREADS, 1);
    ok = emu::launch(dim3{1, 1, 1}, dim3{THREADS, 1, 1}, 0, 1,
                     [&] { read_past_the_end(in.data(), out.data()); });
  } else {
    std::fprintf(stderr, "usage: planted_bugs <oob|race|exchange|global>\n");
    return 2;
  }
  if (!ok) return 3;
  if (what == "exchange") {
    for (unsigned t = 0; t < THREADS; ++t)
      if (out[t] != ((t + 1) % THREADS) * 3 + 1) {
        std::fprintf(stderr, "thread %u read %" PRIu64 "\n", t, out[t]);
        return 4;
      }
  }
  std::printf("%s: ran\n", what.c_str());
  return 0;
}
