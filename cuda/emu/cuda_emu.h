// A CPU emulation of the CUDA features the gpufhe kernels use, to run them without
// a GPU: every thread of a block (of a cluster) is a fiber (ucontext) on one OS
// thread; __syncthreads, warp shuffles and cluster barriers switch fibers. Between
// two barriers the fibers of a block run one after the other in a chosen order, so
// running a launch in two orders and comparing the results exposes missing barriers
// (a value read in the same barrier interval as another thread writes it), and a
// barrier that not all threads reach is reported as a deadlock. Dynamic shared
// memory and device buffers are separate heap blocks, so AddressSanitizer sees
// out-of-bounds accesses.
//
// Included before each .cu file (g++ -x c++ -include cuda_emu.h -DGPUFHE_EMULATION).
#pragma once

#include <ucontext.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline)) inline
#define __shared__ static
#define __launch_bounds__(...)
#define __maxnreg__(...)

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct alignas(16) double2 {
  double x, y;
};
inline double2 make_double2(double x, double y) { return double2{x, y}; }

using std::min;
using std::max;
inline long long __double2ll_rn(double x) { return std::llrint(x); }
template <class T>
inline T __ldg(const T *p) {
  return *p;
}

namespace emu {

enum class Order { Forward, Reverse, Shuffled };

struct Fiber {
  ucontext_t context;
  dim3 thread, block;
  unsigned block_in_unit = 0;
  bool done = false;
  bool waiting = false;
};

// The fibers launched together: one block, or the blocks of one cluster.
struct Unit {
  std::vector<Fiber> fibers;
  unsigned blocks = 1, threads_per_block = 1;
  std::vector<std::vector<unsigned char>> shared;  // dynamic shared memory per block
  std::vector<unsigned> block_arrivals, warp_arrivals;
  unsigned cluster_arrivals = 0;
  std::vector<uint64_t> warp_exchange;  // per block, per warp, 32 lanes
};

struct State {
  Unit *unit = nullptr;
  Fiber *current = nullptr;
  dim3 grid, block;
  ucontext_t scheduler;
  Order order = Order::Forward;
  std::mt19937_64 rng{12345};
  bool deadlock = false;
};

inline State &state() {
  static State s;
  return s;
}

inline void yield() { swapcontext(&state().current->context, &state().scheduler); }

// Marks every fiber matching `member` that waits as runnable again.
template <class F>
inline void release(F member) {
  for (auto &f : state().unit->fibers)
    if (member(f)) f.waiting = false;
}

inline void syncthreads() {
  State &s = state();
  Unit &u = *s.unit;
  const unsigned b = s.current->block_in_unit;
  s.current->waiting = true;
  if (++u.block_arrivals[b] == u.threads_per_block) {
    u.block_arrivals[b] = 0;
    release([&](const Fiber &f) { return f.block_in_unit == b; });
  }
  yield();
}

inline void syncwarp() {
  State &s = state();
  Unit &u = *s.unit;
  const unsigned b = s.current->block_in_unit;
  const unsigned w = s.current->thread.x / 32;
  const unsigned warps = (u.threads_per_block + 31) / 32;
  const unsigned lanes = std::min(32u, u.threads_per_block - 32 * w);
  s.current->waiting = true;
  if (++u.warp_arrivals[b * warps + w] == lanes) {
    u.warp_arrivals[b * warps + w] = 0;
    release([&](const Fiber &f) { return f.block_in_unit == b && f.thread.x / 32 == w; });
  }
  yield();
}

inline void sync_cluster() {
  State &s = state();
  Unit &u = *s.unit;
  s.current->waiting = true;
  if (++u.cluster_arrivals == u.fibers.size()) {
    u.cluster_arrivals = 0;
    release([](const Fiber &) { return true; });
  }
  yield();
}

template <class T>
inline T shfl_xor(T value, int lane_mask) {
  static_assert(sizeof(T) <= 8, "64-bit shuffles at most");
  State &s = state();
  Unit &u = *s.unit;
  const unsigned b = s.current->block_in_unit;
  const unsigned lane = s.current->thread.x % 32, w = s.current->thread.x / 32;
  const unsigned warps = (u.threads_per_block + 31) / 32;
  uint64_t *slots = &u.warp_exchange[(b * warps + w) * 32];
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  slots[lane] = bits;
  syncwarp();
  bits = slots[lane ^ (unsigned)lane_mask];
  syncwarp();
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}

inline unsigned char *dynamic_shared() {
  return state().unit->shared[state().current->block_in_unit].data();
}

struct Kernel {
  std::function<void()> body;
};

inline void fiber_entry(unsigned lo, unsigned hi) {
  auto *k = reinterpret_cast<Kernel *>(((uintptr_t)hi << 32) | lo);
  k->body();
  state().current->done = true;
  swapcontext(&state().current->context, &state().scheduler);
}

constexpr size_t STACK = 256 * 1024;

// Runs `body` for every thread of the grid, `cluster` blocks (along x) at a time
// sharing barriers and each other's shared memory. Returns false on deadlock.
inline bool launch(dim3 grid, dim3 block, size_t shared_bytes, unsigned cluster,
                   std::function<void()> body) {
  State &s = state();
  s.grid = grid;
  s.block = block;
  Kernel kernel{std::move(body)};
  const unsigned threads = block.x * block.y * block.z;
  static std::vector<std::vector<char>> stacks;
  const size_t fibers = (size_t)threads * cluster;
  if (stacks.size() < fibers) stacks.resize(fibers);
  for (auto &st : stacks)
    if (st.empty()) st.resize(STACK);
  if (grid.x % cluster != 0) {
    std::fprintf(stderr, "grid %u is not a multiple of the cluster size %u\n", grid.x, cluster);
    return false;
  }
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx0 = 0; bx0 < grid.x; bx0 += cluster) {
        Unit u;
        u.blocks = cluster;
        u.threads_per_block = threads;
        u.shared.assign(cluster, std::vector<unsigned char>(shared_bytes));
        for (auto &sh : u.shared) std::fill(sh.begin(), sh.end(), 0xff);  // NaN-like garbage
        u.block_arrivals.assign(cluster, 0);
        const unsigned warps = (threads + 31) / 32;
        u.warp_arrivals.assign(cluster * warps, 0);
        u.warp_exchange.assign(cluster * warps * 32, 0);
        u.fibers.resize(fibers);
        for (unsigned c = 0; c < cluster; ++c)
          for (unsigned t = 0; t < threads; ++t) {
            Fiber &f = u.fibers[c * threads + t];
            f.block = dim3{bx0 + c, by, bz};
            f.thread = dim3{t % block.x, (t / block.x) % block.y, t / (block.x * block.y)};
            f.block_in_unit = c;
            getcontext(&f.context);
            auto &st = stacks[c * threads + t];
            f.context.uc_stack.ss_sp = st.data();
            f.context.uc_stack.ss_size = st.size();
            f.context.uc_link = nullptr;
            const uintptr_t kp = (uintptr_t)&kernel;
            makecontext(&f.context, (void (*)())fiber_entry, 2, (unsigned)(kp & 0xffffffffu),
                        (unsigned)(kp >> 32));
          }
        s.unit = &u;
        std::vector<size_t> order(fibers);
        for (size_t i = 0; i < fibers; ++i) order[i] = i;
        if (s.order == Order::Reverse) std::reverse(order.begin(), order.end());
        for (;;) {
          if (s.order == Order::Shuffled) std::shuffle(order.begin(), order.end(), s.rng);
          bool progressed = false, all_done = true;
          for (size_t i : order) {
            Fiber &f = u.fibers[i];
            if (f.done) continue;
            all_done = false;
            if (f.waiting) continue;
            s.current = &f;
            swapcontext(&s.scheduler, &f.context);
            progressed = true;
          }
          if (all_done) break;
          if (!progressed) {
            std::fprintf(stderr, "deadlock: block %u, fibers waiting at different barriers\n", bx0);
            s.deadlock = true;
            s.unit = nullptr;
            return false;
          }
        }
        s.unit = nullptr;
      }
  return true;
}

}  // namespace emu

#define threadIdx (emu::state().current->thread)
#define blockIdx (emu::state().current->block)
#define blockDim (emu::state().block)
#define gridDim (emu::state().grid)
#define __syncthreads() emu::syncthreads()
#define __shfl_xor_sync(mask, value, lane_mask) emu::shfl_xor(value, lane_mask)
#define GPUFHE_DYNAMIC_SHARED(T, name) T *name = reinterpret_cast<T *>(emu::dynamic_shared())
