// Internals shared by the files of the fake CUDA driver (fake_driver.cpp: errors,
// devices, contexts, memory; fake_streams.cpp: streams, events, deferred work;
// fake_launch.cpp: modules, functions, launches). See fake_driver.cpp for what the
// fake does.
#pragma once

#pragma GCC visibility push(default)
#include <cuda.h>
#pragma GCC visibility pop

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <semaphore>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fake_image.h"
#include "fake_kernels.h"

struct CUctx_st {
  int device;
};
// Work queued on a stream (GPUFHE_FAKE_CUDA_DEFERRED=1 only), numbered in the order
// of the calls that queued it.
struct FakeWork {
  unsigned long long sequence;
  std::function<CUresult()> run;
};
struct CUstream_st {
  CUctx_st *context;
  std::deque<FakeWork> queue{};
  CUresult error = CUDA_SUCCESS;  // the first error of its work, reported by synchronizations
};
struct CUevent_st {
  CUctx_st *context;
  bool recorded = false;
  std::chrono::steady_clock::time_point time{};
  // Deferred: complete once `stream` ran its work up to `sequence`.
  CUstream_st *stream = nullptr;
  unsigned long long sequence = 0;
};
struct CUmod_st {
  CUctx_st *context;
};
// The default memory pool of a device (the only pool the fake has).
struct CUmemPoolHandle_st {
  int device;
};
struct CUfunc_st {
  CUmod_st *module;
  const fake::KernelEntry *kernel;
  int max_dynamic_shared = 48 * 1024;
  bool non_portable_clusters = false;
};

namespace fakecuda {

constexpr int MAX_SHARED_OPTIN = 232448;  // 227 KB, as an H100
constexpr int MAX_THREADS = 1024;

struct Allocation {
  size_t bytes;
  int device;
  std::unique_ptr<unsigned char[]> data;
  bool pooled;  // made by cuMemAllocAsync: freed into the device's pool
};

// A device's default memory pool: the bytes it holds mapped (counted as used by
// cuMemGetInfo), those of them allocated, and its release threshold.
struct Pool {
  std::unique_ptr<CUmemPoolHandle_st> handle;
  size_t reserved = 0, used = 0;
  unsigned long long threshold = 0;  // CUDA's default: give everything back
};

struct Driver {
  std::recursive_mutex lock;
  bool initialized = false;
  int devices = 1;
  int compute_capability = 90;
  int multiprocessors = 132;           // GPUFHE_FAKE_CUDA_MULTIPROCESSORS
  // GPUFHE_FAKE_CUDA_LOCAL_MEMORY: bytes of local memory per thread, by kernel name
  // (what CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES reports; 0 for the others).
  std::map<std::string, int> local_memory;
  size_t memory = size_t{80} << 30;
  bool log = false;
  bool deferred = false;               // GPUFHE_FAKE_CUDA_DEFERRED=1
  unsigned long long sequence = 0;     // of the last work queued
  std::vector<size_t> used;        // bytes used by other processes, per device
  std::vector<int> compute_mode;   // CU_COMPUTEMODE_*, per device
  std::vector<std::unique_ptr<CUctx_st>> contexts;  // the primary context of each device
  std::vector<size_t> allocated;  // bytes mapped per device (pools' reserve included)
  std::vector<Pool> pools;        // per device
  std::map<uintptr_t, Allocation> allocations;      // by address
  std::set<const void *> streams, events, modules, functions;
  // GPUFHE_FAKE_CUDA_FAIL_LAUNCH: the launch that faults (1-based, 0: none), and
  // the launches so far.
  unsigned long long fail_launch = 0, launches = 0;
  // Per device: the sticky error every call on its primary context returns (success
  // while it works), until cuDevicePrimaryCtxReset.
  std::vector<CUresult> sticky;
  // What resets took away, kept so that no later object gets the address (the
  // handle) of one of them: a handle of before a reset stays unknown after it.
  std::vector<std::unique_ptr<CUctx_st>> reset_contexts;
  std::vector<std::unique_ptr<unsigned char[]>> reset_memory;
  // Kernels run outside the lock, several at once (fake_launch.cpp). Each running
  // kernel holds the number of releases when it started; memory released while
  // kernels run stays allocated, numbered, until every kernel started before its
  // release has finished.
  std::multiset<unsigned long long> running;
  unsigned long long releases = 0;
  std::vector<std::pair<unsigned long long, std::unique_ptr<unsigned char[]>>> released;
};

Driver &driver();

extern thread_local CUctx_st *current_context;

CUresult fail(CUresult code, const char *call, const char *why);

#define CHECK(condition, code, why) \
  if (!(condition)) return fail(code, __func__, why)

#define ENTER(...)                                                      \
  Driver &d = driver();                                                 \
  std::lock_guard<std::recursive_mutex> guard(d.lock);                  \
  CHECK(d.initialized, CUDA_ERROR_NOT_INITIALIZED, "cuInit not called")

long env_number(const char *name, long fallback);

// The allocation holding [address, address + bytes), or nullptr.
Allocation *find_allocation(Driver &d, uintptr_t address, size_t bytes);

// The context a stream's work runs in (the current one for the null stream).
CUctx_st *stream_context(Driver &d, CUstream stream);

CUresult check_stream(Driver &d, CUstream stream, const char *call);

// Success if `context` is a live primary context whose device works; otherwise the
// device's sticky error, or INVALID_CONTEXT for a context a reset destroyed.
CUresult usable(Driver &d, const CUctx_st *context, const char *call);

// Returns the error of `usable` from the calling entry point, if any.
#define CHECK_USABLE(context)                                              \
  if (const CUresult unusable = usable(d, (context), __func__);            \
      unusable != CUDA_SUCCESS)                                            \
  return unusable

inline void *host(CUdeviceptr p) { return reinterpret_cast<void *>(p); }

// Runs `work` on `stream` (see fake_streams.cpp): at once, or queued on the stream
// when GPUFHE_FAKE_CUDA_DEFERRED=1. Returns what the work returned, or success if
// it was queued (its error then comes back from the next synchronization).
CUresult submit(Driver &d, CUstream stream, std::function<CUresult()> work);

// Runs all the queued work of every stream of `context` (all contexts if null).
CUresult drain(Driver &d, CUctx_st *context);

// What a synchronization with work of `context` does to its device's pool: unused
// memory above the release threshold goes back (cuStreamSynchronize,
// cuCtxSynchronize, cuEventSynchronize).
void release_above_threshold(Driver &d, const CUctx_st *context);

// Whether GPUFHE_FAKE_CUDA_TRACE names a file that launches are traced to.
bool tracing();

// Appends `line` (and a newline) to the trace file, if any.
void trace(const std::string &line);

}  // namespace fakecuda
