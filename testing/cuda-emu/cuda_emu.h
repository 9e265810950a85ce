// A CPU emulation of the CUDA features the gpufhe kernels use, to run them without
// a GPU: every thread of a block (of a cluster) is a fiber on one OS
// thread; __syncthreads, warp shuffles and cluster barriers switch fibers. Between
// two barriers the fibers of a block run one after the other in a chosen order, so
// running a launch in two orders and comparing the results exposes missing barriers
// (a value read in the same barrier interval as another thread writes it), and a
// barrier that not all threads reach is reported as a deadlock. Dynamic shared
// memory and device buffers are separate heap blocks, so AddressSanitizer sees
// out-of-bounds accesses. Under ThreadSanitizer every emulated thread is a TSan
// fiber, switched without synchronization; barriers and warp exchanges are the only
// happens-before edges between them (released on arrival, acquired on leaving), so
// two threads touching the same word between barriers are reported as a race. The
// emulation's own bookkeeping is hidden from TSan.
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
#include <mutex>
#include <random>
#include <vector>

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
extern "C" {
// ThreadSanitizer's dynamic annotations (exported by its runtime).
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);
}
#endif
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline)) inline
// Per OS thread: the fibers of a launch share it, and launches on other OS threads
// (the fake driver runs kernels of several streams at once) have their own.
#define __shared__ static thread_local
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

// Switching between fibers. On x86-64 a few instructions that save the callee-saved
// registers and the stack pointer (swapcontext also saves the signal mask, a system
// call per switch, which made it most of the emulation's time); elsewhere, and under
// AddressSanitizer (which must see stack switches), ucontext.
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
struct Context {
  void *sp = nullptr;
};
// Pushes the callee-saved registers and the SSE/x87 control words on the current
// stack, stores the stack pointer in *save, loads `load` and pops the same from it.
// Weak: every translation unit that includes this header defines it.
extern "C" void gpufhe_emu_switch(void **save, void *load);
asm(R"(
  .text
  .weak gpufhe_emu_switch
  .hidden gpufhe_emu_switch
  .type gpufhe_emu_switch, @function
gpufhe_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size gpufhe_emu_switch, .-gpufhe_emu_switch
)");
inline void switch_context(Context &from, Context &to) { gpufhe_emu_switch(&from.sp, to.sp); }
// Prepares `c` to run `entry` (which must never return) on `stack` at its first switch.
inline void start_context(Context &c, char *stack, size_t size, void (*entry)()) {
  auto top = reinterpret_cast<uintptr_t>(stack + size) & ~uintptr_t{15};
  auto *slot = reinterpret_cast<uint64_t *>(top);
  *--slot = 0;                                     // entry's (unused) return address
  *--slot = reinterpret_cast<uintptr_t>(entry);    // where the first switch returns to
  for (int r = 0; r < 6; ++r) *--slot = 0;         // rbp rbx r12 r13 r14 r15
  *--slot = 0x1f80 | (uint64_t{0x037f} << 32);     // default MXCSR, x87 control word
  c.sp = slot;
}
#else
struct Context {
  ucontext_t uc;
};
inline void switch_context(Context &from, Context &to) { swapcontext(&from.uc, &to.uc); }
inline void start_context(Context &c, char *stack, size_t size, void (*entry)()) {
  getcontext(&c.uc);
  c.uc.uc_stack.ss_sp = stack;
  c.uc.uc_stack.ss_size = size;
  c.uc.uc_link = nullptr;
  makecontext(&c.uc, entry, 0);
}
#endif

// The emulation's bookkeeping (arrival counters, the current fiber) is shared by the
// fibers without synchronization, by design: hidden from ThreadSanitizer.
struct Untracked {
#if defined(__SANITIZE_THREAD__)
  Untracked() {
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
  }
  ~Untracked() {
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
  }
#endif
};

// Happens-before edges for ThreadSanitizer: every thread leaving a barrier acquires
// what every thread arriving at it released. A barrier alternates between two sync
// objects, so that a thread already arriving at the next barrier cannot publish its
// later writes to one still leaving this one.
inline void tsan_release([[maybe_unused]] const void *sync) {
#if defined(__SANITIZE_THREAD__)
  __tsan_release(const_cast<void *>(sync));
#endif
}
inline void tsan_acquire([[maybe_unused]] const void *sync) {
#if defined(__SANITIZE_THREAD__)
  __tsan_acquire(const_cast<void *>(sync));
#endif
}

enum class Order { Forward, Reverse, Shuffled };

struct Fiber {
  Context context;
  dim3 thread, block;
  unsigned block_in_unit = 0;
  bool done = false;
  bool waiting = false;
  bool started = false;
  // Barriers passed, per kind: selects the sync object of the next one.
  unsigned block_barriers = 0, warp_barriers = 0, cluster_barriers = 0;
#if defined(__SANITIZE_THREAD__)
  void *tsan = nullptr;
#endif
};

// The fibers launched together: one block, or the blocks of one cluster.
struct Unit {
  std::vector<Fiber> fibers;
  unsigned blocks = 1, threads_per_block = 1;
  std::vector<std::vector<unsigned char>> shared;  // dynamic shared memory per block
  std::vector<unsigned> block_arrivals, warp_arrivals;
  unsigned cluster_arrivals = 0;
  std::vector<uint64_t> warp_exchange;  // per block, per warp, 32 lanes
  // ThreadSanitizer sync objects (only their addresses matter): 2 per block, per warp
  // and for the cluster, and one that each finished fiber releases.
  std::vector<char> block_sync, warp_sync;
  char cluster_sync[2] = {}, finished = 0;
};

struct State {
  Unit *unit = nullptr;
  Fiber *current = nullptr;
  dim3 grid, block;
  Context scheduler;
  const struct Kernel *kernel = nullptr;
  Order order = Order::Forward;
  std::mt19937_64 rng{12345};
  bool deadlock = false;
#if defined(__SANITIZE_THREAD__)
  void *scheduler_tsan = nullptr;
#endif
};

// The state of the launch running on this OS thread.
inline State &state() {
  static thread_local State s;
  return s;
}

// Back to the scheduler, without a happens-before edge.
inline void yield() {
  Context *from, *to;
  {
    Untracked hidden;
    from = &state().current->context;
    to = &state().scheduler;
  }
#if defined(__SANITIZE_THREAD__)
  void *scheduler;
  {
    Untracked hidden;
    scheduler = state().scheduler_tsan;
  }
  __tsan_switch_to_fiber(scheduler, __tsan_switch_to_fiber_no_sync);
#endif
  switch_context(*from, *to);
}

// Arrives at a barrier whose sync objects are `sync[0..2]`, waits for the others
// (`arrive` does the counting and releases everyone when the last arrives).
template <class F>
inline void barrier(char *sync, unsigned &passed, F arrive) {
  char *object = sync + (passed++ & 1);
  tsan_release(object);
  {
    Untracked hidden;
    state().current->waiting = true;
    arrive();
  }
  yield();
  tsan_acquire(object);
}

// Marks every fiber matching `member` that waits as runnable again.
template <class F>
inline void release(F member) {
  for (auto &f : state().unit->fibers)
    if (member(f)) f.waiting = false;
}

inline void syncthreads() {
  State &s = state();
  Unit &u = *s.unit;
  Fiber &me = *s.current;
  const unsigned b = me.block_in_unit;
  barrier(&u.block_sync[2 * b], me.block_barriers, [&] {
    if (++u.block_arrivals[b] == u.threads_per_block) {
      u.block_arrivals[b] = 0;
      release([&](const Fiber &f) { return f.block_in_unit == b; });
    }
  });
}

inline void syncwarp() {
  State &s = state();
  Unit &u = *s.unit;
  Fiber &me = *s.current;
  const unsigned b = me.block_in_unit;
  const unsigned w = me.thread.x / 32;
  const unsigned warps = (u.threads_per_block + 31) / 32;
  const unsigned lanes = std::min(32u, u.threads_per_block - 32 * w);
  barrier(&u.warp_sync[2 * (b * warps + w)], me.warp_barriers, [&] {
    if (++u.warp_arrivals[b * warps + w] == lanes) {
      u.warp_arrivals[b * warps + w] = 0;
      release([&](const Fiber &f) { return f.block_in_unit == b && f.thread.x / 32 == w; });
    }
  });
}

inline void sync_cluster() {
  State &s = state();
  Unit &u = *s.unit;
  barrier(u.cluster_sync, s.current->cluster_barriers, [&] {
    if (++u.cluster_arrivals == u.fibers.size()) {
      u.cluster_arrivals = 0;
      release([](const Fiber &) { return true; });
    }
  });
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

// Every fiber starts here: runs the kernel, then hands back to the scheduler for good.
inline void fiber_entry() {
  state().kernel->body();
  tsan_release(&state().unit->finished);
  {
    Untracked hidden;
    state().current->done = true;
  }
  yield();
  std::abort();  // a finished fiber is never resumed
}

constexpr size_t STACK = 256 * 1024;

// The fiber stacks of one launch, taken from the stacks that earlier launches gave
// back (launches on several OS threads at once each take their own) and given back
// when it ends.
class Stacks {
 public:
  explicit Stacks(size_t fibers) {
    {
      std::lock_guard<std::mutex> guard(pool().lock);
      if (!pool().free.empty()) {
        stacks_ = std::move(pool().free.back());
        pool().free.pop_back();
      }
    }
    if (stacks_.size() < fibers) stacks_.resize(fibers);
    for (auto &st : stacks_)
      if (st.empty()) st.resize(STACK);
  }
  ~Stacks() {
    std::lock_guard<std::mutex> guard(pool().lock);
    pool().free.push_back(std::move(stacks_));
  }
  Stacks(const Stacks &) = delete;
  Stacks &operator=(const Stacks &) = delete;
  std::vector<char> &operator[](size_t i) { return stacks_[i]; }

 private:
  struct Pool {
    std::mutex lock;
    std::vector<std::vector<std::vector<char>>> free;
  };
  static Pool &pool() {
    static Pool p;
    return p;
  }
  std::vector<std::vector<char>> stacks_;
};

// Runs `body` for every thread of the grid, `cluster` blocks (along x) at a time
// sharing barriers and each other's shared memory. Returns false on deadlock.
inline bool launch(dim3 grid, dim3 block, size_t shared_bytes, unsigned cluster,
                   std::function<void()> body) {
  State &s = state();
  s.grid = grid;
  s.block = block;
  Kernel kernel{std::move(body)};
  s.kernel = &kernel;
  const unsigned threads = block.x * block.y * block.z;
  const size_t fibers = (size_t)threads * cluster;
  Stacks stacks(fibers);
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
        u.block_sync.assign(2 * cluster, 0);
        u.warp_sync.assign(2 * cluster * warps, 0);
        u.fibers.resize(fibers);
        for (unsigned c = 0; c < cluster; ++c)
          for (unsigned t = 0; t < threads; ++t) {
            Fiber &f = u.fibers[c * threads + t];
            f.block = dim3{bx0 + c, by, bz};
            f.thread = dim3{t % block.x, (t / block.x) % block.y, t / (block.x * block.y)};
            f.block_in_unit = c;
            auto &st = stacks[c * threads + t];
#if defined(__SANITIZE_ADDRESS__)
            // Frames of the previous launch's fibers left their redzones poisoned.
            __asan_unpoison_memory_region(st.data(), st.size());
#endif
            start_context(f.context, st.data(), st.size(), fiber_entry);
#if defined(__SANITIZE_THREAD__)
            f.tsan = __tsan_create_fiber(0);
#endif
          }
        s.unit = &u;
#if defined(__SANITIZE_THREAD__)
        s.scheduler_tsan = __tsan_get_current_fiber();
        // The scheduler's own reads and writes (of the bookkeeping) are not tracked.
        Untracked hidden;
#endif
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
#if defined(__SANITIZE_THREAD__)
            // The first switch into a fiber synchronizes: it sees the launch's inputs
            // (and earlier launches); no later switch does.
            __tsan_switch_to_fiber(f.tsan, f.started ? __tsan_switch_to_fiber_no_sync : 0);
#endif
            f.started = true;
            switch_context(s.scheduler, f.context);
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
        // What the kernel wrote is seen by the host and the next launches.
        tsan_acquire(&u.finished);
#if defined(__SANITIZE_THREAD__)
        for (auto &f : u.fibers) __tsan_destroy_fiber(f.tsan);
#endif
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
