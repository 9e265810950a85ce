// A CPU fake of the CUDA driver API (libcuda.so), so that the crate's whole GPU host
// code (cudarc, device discovery, streams, key upload, launches) runs without a GPU,
// with the kernels of cuda/*.cu executed by the emulation (fake_kernels.cpp). Built
// and used by scripts/fake-cuda.sh; see DEVELOPERS.md.
//
// - Devices: GPUFHE_FAKE_CUDA_DEVICES of them (default 1), each with one primary
//   context, compute capability GPUFHE_FAKE_CUDA_CC (default 90: clusters), 132
//   SMs, 227 KB of opt-in shared memory and GPUFHE_FAKE_CUDA_MEMORY_MIB of memory
//   (default 80 GiB; free = total minus what is allocated on the device, minus
//   what other processes use, below).
// - Other processes, set per device at cuInit (comma-separated lists; an empty
//   value is the same as unset; a malformed value, an index out of range or a
//   device in both mode lists fails cuInit with INVALID_VALUE and a message on
//   stderr, rather than being guessed at):
//   GPUFHE_FAKE_CUDA_USED_MIB="0,70000,10": MiB already used on each device, one
//     value per device: cuMemGetInfo reports that much less free memory, and
//     allocations beyond the rest fail with CUDA_ERROR_OUT_OF_MEMORY;
//   GPUFHE_FAKE_CUDA_EXCLUSIVE="1,3": devices in exclusive-process compute mode
//     that another process holds: the COMPUTE_MODE attribute says
//     EXCLUSIVE_PROCESS, and retaining their primary context fails with
//     CUDA_ERROR_DEVICE_UNAVAILABLE;
//   GPUFHE_FAKE_CUDA_PROHIBITED="2": devices in compute mode PROHIBITED: the
//     attribute says so, and retaining their primary context fails the same way.
// - Each thread has a context stack (cuCtxPushCurrent / cuCtxPopCurrent; the
//   current context is its top, which cuCtxSetCurrent replaces).
// - Nothing works unless GPUFHE_FAKE_CUDA=1 (cuInit fails with NO_DEVICE), so the
//   library cannot stand in for a real driver by accident.
// - Device memory is host heap blocks, filled with garbage when allocated. Every
//   copy, memset and free must lie within one live allocation, and every kernel
//   argument must cover what the kernel touches in memory of the launching device;
//   otherwise the call returns an error instead of crashing.
// - Handles (contexts, streams, events, modules, functions) are checked to be live.
//   Launches check the function's context against the stream's and the current one,
//   the block size against the kernel's limit, the dynamic shared memory against the
//   kernel's attribute and the cluster shape.
// - Streams run everything synchronously, in call order, under one lock (the
//   emulation is single-threaded); events are complete once recorded.
// - GPUFHE_FAKE_CUDA_DRIVER_VERSION (default 13000): cuDriverGetVersion's answer;
//   cuModuleLoadData refuses images that driver could not load (fake_image.cpp).
// - GPUFHE_FAKE_CUDA_ORDER=forward|reverse|shuffled picks the order in which the
//   emulation runs threads between barriers; GPUFHE_FAKE_CUDA_LOG=1 logs every
//   failing call to stderr.
// Only the driver API is exported (the library is built with -fvisibility=hidden).
#pragma GCC visibility push(default)
#include <cuda.h>
#pragma GCC visibility pop

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "fake_image.h"
#include "fake_kernels.h"

struct CUctx_st {
  int device;
};
struct CUstream_st {
  CUctx_st *context;
};
struct CUevent_st {
  CUctx_st *context;
  bool recorded = false;
  std::chrono::steady_clock::time_point time{};
};
struct CUmod_st {
  CUctx_st *context;
};
struct CUfunc_st {
  CUmod_st *module;
  const fake::KernelEntry *kernel;
  int max_dynamic_shared = 48 * 1024;
  bool non_portable_clusters = false;
};

namespace {

constexpr int MULTIPROCESSORS = 132;
constexpr int MAX_SHARED_OPTIN = 232448;  // 227 KB, as an H100
constexpr int MAX_THREADS = 1024;

struct Allocation {
  size_t bytes;
  int device;
  std::unique_ptr<unsigned char[]> data;
};

struct Driver {
  std::recursive_mutex lock;
  bool initialized = false;
  int devices = 1;
  int compute_capability = 90;
  size_t memory = size_t{80} << 30;
  bool log = false;
  std::vector<size_t> used;        // bytes used by other processes, per device
  std::vector<int> compute_mode;   // CU_COMPUTEMODE_*, per device
  std::vector<std::unique_ptr<CUctx_st>> contexts;  // the primary context of each device
  std::vector<size_t> allocated;                    // bytes per device
  std::map<uintptr_t, Allocation> allocations;      // by address
  std::set<const void *> streams, events, modules, functions;
};

Driver &driver() {
  static Driver d;
  return d;
}

thread_local CUctx_st *current_context = nullptr;
thread_local std::vector<CUctx_st *> contexts_below;  // the stack under the current one

CUresult fail(CUresult code, const char *call, const char *why) {
  if (driver().log) std::fprintf(stderr, "fake libcuda: %s: %s (error %d)\n", call, why, code);
  return code;
}

#define CHECK(condition, code, why) \
  if (!(condition)) return fail(code, __func__, why)

#define ENTER(...)                                                      \
  Driver &d = driver();                                                 \
  std::lock_guard<std::recursive_mutex> guard(d.lock);                  \
  CHECK(d.initialized, CUDA_ERROR_NOT_INITIALIZED, "cuInit not called")

long env_number(const char *name, long fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::strtol(v, nullptr, 10) : fallback;
}

bool valid_device(const Driver &d, CUdevice dev) { return dev >= 0 && dev < d.devices; }

bool known_context(const Driver &d, CUcontext ctx) {
  return ctx != nullptr && valid_device(d, ctx->device) && d.contexts[ctx->device].get() == ctx;
}

// Bytes a new allocation on `dev` may still take.
size_t free_bytes(const Driver &d, int dev) { return d.memory - d.used[dev] - d.allocated[dev]; }

// The comma-separated non-negative integers of variable `name` (none when unset or
// empty), or false with `why` set.
bool env_list(const char *name, std::vector<unsigned long long> &out, std::string &why) {
  out.clear();
  const char *v = std::getenv(name);
  const std::string text = v ? v : "";
  if (text.find_first_not_of(" \t") == std::string::npos) return true;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos
                                                                      : comma - start);
    const size_t first = item.find_first_not_of(" \t");
    const size_t last = item.find_last_not_of(" \t");
    item = first == std::string::npos ? "" : item.substr(first, last - first + 1);
    if (item.empty() || item.size() > 18 ||
        item.find_first_not_of("0123456789") != std::string::npos) {
      why = std::string(name) + "=\"" + text + "\": \"" + item +
            "\" is not a non-negative integer (expected a comma-separated list)";
      return false;
    }
    out.push_back(std::stoull(item));
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

// Reads the per-device settings of other processes into `d`, or false with `why`.
bool configure_devices(Driver &d, std::string &why) {
  std::vector<unsigned long long> used, exclusive, prohibited;
  if (!env_list("GPUFHE_FAKE_CUDA_USED_MIB", used, why) ||
      !env_list("GPUFHE_FAKE_CUDA_EXCLUSIVE", exclusive, why) ||
      !env_list("GPUFHE_FAKE_CUDA_PROHIBITED", prohibited, why))
    return false;
  if (!used.empty() && used.size() != (size_t)d.devices) {
    why = "GPUFHE_FAKE_CUDA_USED_MIB has " + std::to_string(used.size()) + " value(s) for " +
          std::to_string(d.devices) + " device(s); give one per device";
    return false;
  }
  d.used.assign(d.devices, 0);
  for (size_t i = 0; i < used.size(); ++i) {
    if (used[i] > (d.memory >> 20)) {
      why = "GPUFHE_FAKE_CUDA_USED_MIB: device " + std::to_string(i) + " uses " +
            std::to_string(used[i]) + " MiB, more than its " + std::to_string(d.memory >> 20);
      return false;
    }
    d.used[i] = (size_t)used[i] << 20;
  }
  d.compute_mode.assign(d.devices, CU_COMPUTEMODE_DEFAULT);
  const std::pair<const char *, const std::vector<unsigned long long> *> modes[] = {
      {"GPUFHE_FAKE_CUDA_EXCLUSIVE", &exclusive}, {"GPUFHE_FAKE_CUDA_PROHIBITED", &prohibited}};
  for (const auto &[name, list] : modes) {
    const int mode = list == &exclusive ? CU_COMPUTEMODE_EXCLUSIVE_PROCESS
                                        : CU_COMPUTEMODE_PROHIBITED;
    for (const unsigned long long dev : *list) {
      if (dev >= (unsigned long long)d.devices) {
        why = std::string(name) + ": device " + std::to_string(dev) + " does not exist (" +
              std::to_string(d.devices) + " device(s))";
        return false;
      }
      if (d.compute_mode[dev] != CU_COMPUTEMODE_DEFAULT) {
        why = std::string(name) + ": device " + std::to_string(dev) +
              " is listed twice or in both GPUFHE_FAKE_CUDA_EXCLUSIVE and "
              "GPUFHE_FAKE_CUDA_PROHIBITED";
        return false;
      }
      d.compute_mode[dev] = mode;
    }
  }
  return true;
}

// The allocation holding [address, address + bytes), or nullptr.
Allocation *find_allocation(Driver &d, uintptr_t address, size_t bytes) {
  auto it = d.allocations.upper_bound(address);
  if (it == d.allocations.begin()) return nullptr;
  --it;
  const uintptr_t offset = address - it->first;
  if (offset > it->second.bytes || bytes > it->second.bytes - offset) return nullptr;
  return &it->second;
}

// The context a stream's work runs in (the current one for the null stream).
CUctx_st *stream_context(Driver &d, CUstream stream) {
  if (stream == nullptr) return current_context;
  return d.streams.count(stream) ? stream->context : nullptr;
}

CUresult allocate(Driver &d, CUdeviceptr *dptr, size_t bytes, CUctx_st *context,
                  const char *call) {
  CHECK(dptr != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  if (context == nullptr) return fail(CUDA_ERROR_INVALID_CONTEXT, call, "no context");
  if (bytes == 0) return fail(CUDA_ERROR_INVALID_VALUE, call, "zero bytes");
  const int dev = context->device;
  if (bytes > free_bytes(d, dev))
    return fail(CUDA_ERROR_OUT_OF_MEMORY, call, "device memory exhausted");
  std::unique_ptr<unsigned char[]> data(new (std::nothrow) unsigned char[bytes]);
  if (!data) return fail(CUDA_ERROR_OUT_OF_MEMORY, call, "host memory exhausted");
  std::memset(data.get(), 0xa5, bytes);  // device memory is not zeroed
  const auto address = reinterpret_cast<uintptr_t>(data.get());
  d.allocations.emplace(address, Allocation{bytes, dev, std::move(data)});
  d.allocated[dev] += bytes;
  *dptr = address;
  return CUDA_SUCCESS;
}

CUresult release(Driver &d, CUdeviceptr dptr, const char *call) {
  if (dptr == 0) return CUDA_SUCCESS;
  auto it = d.allocations.find(dptr);
  if (it == d.allocations.end())
    return fail(CUDA_ERROR_INVALID_VALUE, call, "not the start of a live allocation");
  d.allocated[it->second.device] -= it->second.bytes;
  d.allocations.erase(it);
  return CUDA_SUCCESS;
}

CUresult check_stream(Driver &d, CUstream stream, const char *call) {
  if (stream_context(d, stream) == nullptr)
    return fail(CUDA_ERROR_INVALID_HANDLE, call, "unknown stream or no context");
  return CUDA_SUCCESS;
}

CUresult copy(Driver &d, void *dst, bool dst_device, const void *src, bool src_device,
              size_t bytes, const char *call) {
  if (bytes == 0) return CUDA_SUCCESS;
  if (dst == nullptr || src == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, call, "null");
  if (dst_device && !find_allocation(d, reinterpret_cast<uintptr_t>(dst), bytes))
    return fail(CUDA_ERROR_INVALID_VALUE, call, "destination outside device memory");
  if (src_device && !find_allocation(d, reinterpret_cast<uintptr_t>(src), bytes))
    return fail(CUDA_ERROR_INVALID_VALUE, call, "source outside device memory");
  std::memmove(dst, src, bytes);
  return CUDA_SUCCESS;
}

void *host(CUdeviceptr p) { return reinterpret_cast<void *>(p); }

// The limits a launch of `g` must respect: the device's, the kernel's thread and
// dynamic shared memory limits, and the cluster rules.
CUresult check_geometry(Driver &d, CUfunction f, const fake::Geometry &g, const char *call) {
  const unsigned long long threads = (unsigned long long)g.block[0] * g.block[1] * g.block[2];
  if (g.grid[0] == 0 || g.grid[1] == 0 || g.grid[2] == 0 || threads == 0 ||
      g.grid[0] > 0x7fffffffu || g.grid[1] > 65535 || g.grid[2] > 65535 ||
      g.block[0] > 1024 || g.block[1] > 1024 || g.block[2] > 64)
    return fail(CUDA_ERROR_INVALID_VALUE, call, "grid or block dimensions out of range");
  if (threads > f->kernel->max_threads_per_block)
    return fail(CUDA_ERROR_INVALID_VALUE, call, "more threads than the kernel allows");
  if (g.shared_bytes > (size_t)f->max_dynamic_shared)
    return fail(CUDA_ERROR_INVALID_VALUE, call, "more dynamic shared memory than allowed");
  if (g.cluster > 1) {
    if (d.compute_capability < 90)
      return fail(CUDA_ERROR_INVALID_VALUE, call, "clusters need compute capability 9.0");
    if (g.cluster > (f->non_portable_clusters ? 16u : 8u) || g.grid[0] % g.cluster != 0)
      return fail(CUDA_ERROR_INVALID_CLUSTER_SIZE, call, "bad cluster size");
  }
  return CUDA_SUCCESS;
}

CUresult launch(Driver &d, CUfunction f, const fake::Geometry &g, CUstream stream,
                void **params, void **extra, const char *call) {
  if (!d.functions.count(f)) return fail(CUDA_ERROR_INVALID_HANDLE, call, "unknown function");
  CUctx_st *context = stream_context(d, stream);
  if (context == nullptr) return fail(CUDA_ERROR_INVALID_HANDLE, call, "unknown stream");
  if (context != f->module->context || current_context != context)
    return fail(CUDA_ERROR_INVALID_CONTEXT, call,
                "function, stream and current context differ");
  if (params == nullptr || extra != nullptr)
    return fail(CUDA_ERROR_INVALID_VALUE, call, "only kernelParams are supported");
  if (const CUresult r = check_geometry(d, f, g, call); r != CUDA_SUCCESS) return r;
  const int device = context->device;
  const fake::DeviceMemoryCheck check = [&](const void *p, size_t bytes) {
    const Allocation *a = find_allocation(d, reinterpret_cast<uintptr_t>(p), bytes);
    return a != nullptr && a->device == device;
  };
  switch (f->kernel->run(g, params, check)) {
    case fake::LaunchResult::Ok:
      return CUDA_SUCCESS;
    case fake::LaunchResult::BadArgument:
      return fail(CUDA_ERROR_ILLEGAL_ADDRESS, call,
                  (std::string(f->kernel->name) + ": an argument is not memory of the device")
                      .c_str());
    case fake::LaunchResult::Deadlock:
      break;
  }
  return fail(CUDA_ERROR_LAUNCH_FAILED, call, "the emulated kernel deadlocked");
}

struct ErrorText {
  CUresult code;
  const char *name, *text;
};
const ErrorText ERRORS[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_INVALID_CLUSTER_SIZE, "CUDA_ERROR_INVALID_CLUSTER_SIZE", "invalid cluster size"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {CUDA_ERROR_DEVICE_UNAVAILABLE, "CUDA_ERROR_DEVICE_UNAVAILABLE",
     "CUDA-capable device(s) is/are busy or unavailable"},
};

const ErrorText *error_text(CUresult code) {
  for (const auto &e : ERRORS)
    if (e.code == code) return &e;
  return nullptr;
}

}  // namespace

// ---- Errors, initialization, devices ----

CUresult cuGetErrorString(CUresult error, const char **pStr) {
  const ErrorText *e = error_text(error);
  if (pStr == nullptr || e == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *pStr = e->text;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **pStr) {
  const ErrorText *e = error_text(error);
  if (pStr == nullptr || e == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *pStr = e->name;
  return CUDA_SUCCESS;
}

CUresult cuInit(unsigned int Flags) {
  Driver &d = driver();
  std::lock_guard<std::recursive_mutex> guard(d.lock);
  d.log = env_number("GPUFHE_FAKE_CUDA_LOG", 0) == 1;
  CHECK(Flags == 0, CUDA_ERROR_INVALID_VALUE, "flags must be 0");
  CHECK(env_number("GPUFHE_FAKE_CUDA", 0) == 1, CUDA_ERROR_NO_DEVICE,
        "GPUFHE_FAKE_CUDA=1 is not set");
  if (d.initialized) return CUDA_SUCCESS;
  d.devices = (int)env_number("GPUFHE_FAKE_CUDA_DEVICES", 1);
  d.compute_capability = (int)env_number("GPUFHE_FAKE_CUDA_CC", 90);
  d.memory = (size_t)env_number("GPUFHE_FAKE_CUDA_MEMORY_MIB", 80 * 1024) << 20;
  CHECK(d.devices >= 0 && d.devices <= 64, CUDA_ERROR_INVALID_VALUE, "bad device count");
  if (std::string why; !configure_devices(d, why)) {
    static bool reported = false;
    if (!reported) std::fprintf(stderr, "fake libcuda: cuInit failed: %s\n", why.c_str());
    reported = true;
    return CUDA_ERROR_INVALID_VALUE;
  }
  for (int i = 0; i < d.devices; ++i) d.contexts.push_back(std::make_unique<CUctx_st>(CUctx_st{i}));
  d.allocated.assign(d.devices, 0);
  if (const char *order = std::getenv("GPUFHE_FAKE_CUDA_ORDER")) fake::set_thread_order(order);
  d.initialized = true;
  return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *driverVersion) {
  if (driverVersion == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *driverVersion = (int)env_number("GPUFHE_FAKE_CUDA_DRIVER_VERSION", 13000);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  ENTER();
  CHECK(count != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  *count = d.devices;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  ENTER();
  CHECK(device != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(valid_device(d, ordinal), CUDA_ERROR_INVALID_DEVICE, "no such device");
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  ENTER();
  CHECK(name != nullptr && len > 0, CUDA_ERROR_INVALID_VALUE, "bad buffer");
  CHECK(valid_device(d, dev), CUDA_ERROR_INVALID_DEVICE, "no such device");
  std::snprintf(name, (size_t)len, "gpufhe fake CUDA device %d", dev);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) {
  ENTER();
  CHECK(uuid != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(valid_device(d, dev), CUDA_ERROR_INVALID_DEVICE, "no such device");
  std::memset(uuid->bytes, 0, sizeof uuid->bytes);
  uuid->bytes[0] = (char)dev;
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev) {
  ENTER();
  CHECK(bytes != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(valid_device(d, dev), CUDA_ERROR_INVALID_DEVICE, "no such device");
  *bytes = d.memory;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
  ENTER();
  CHECK(pi != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(valid_device(d, dev), CUDA_ERROR_INVALID_DEVICE, "no such device");
  const bool clusters = d.compute_capability >= 90;
  switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *pi = MULTIPROCESSORS; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *pi = d.compute_capability / 10; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *pi = d.compute_capability % 10; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *pi = MAX_SHARED_OPTIN; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *pi = 48 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *pi = 233472; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = MAX_THREADS; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *pi = 2048; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *pi = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *pi = 64; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *pi = 0x7fffffff; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *pi = 65535; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *pi = 32; break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: *pi = 65536; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: *pi = 1; break;
    case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH: *pi = clusters ? 1 : 0; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: *pi = d.compute_mode[dev]; break;
    default: *pi = 0; break;
  }
  return CUDA_SUCCESS;
}

// ---- Contexts: one primary context per device ----

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
  ENTER();
  CHECK(pctx != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(valid_device(d, dev), CUDA_ERROR_INVALID_DEVICE, "no such device");
  CHECK(d.compute_mode[dev] != CU_COMPUTEMODE_EXCLUSIVE_PROCESS, CUDA_ERROR_DEVICE_UNAVAILABLE,
        "exclusive-process device held by another process");
  CHECK(d.compute_mode[dev] != CU_COMPUTEMODE_PROHIBITED, CUDA_ERROR_DEVICE_UNAVAILABLE,
        "compute mode prohibited");
  *pctx = d.contexts[dev].get();
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev) {
  ENTER();
  CHECK(valid_device(d, dev), CUDA_ERROR_INVALID_DEVICE, "no such device");
  return CUDA_SUCCESS;
}

// Replaces the top of the thread's context stack; null pops it.
CUresult cuCtxSetCurrent(CUcontext ctx) {
  ENTER();
  CHECK(ctx == nullptr || known_context(d, ctx), CUDA_ERROR_INVALID_CONTEXT, "unknown context");
  if (ctx == nullptr && !contexts_below.empty()) {
    current_context = contexts_below.back();
    contexts_below.pop_back();
  } else {
    current_context = ctx;
  }
  return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent(CUcontext ctx) {
  ENTER();
  CHECK(known_context(d, ctx), CUDA_ERROR_INVALID_CONTEXT, "unknown context");
  if (current_context != nullptr) contexts_below.push_back(current_context);
  current_context = ctx;
  return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *pctx) {
  ENTER();
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  if (pctx != nullptr) *pctx = current_context;
  current_context = nullptr;
  if (!contexts_below.empty()) {
    current_context = contexts_below.back();
    contexts_below.pop_back();
  }
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *pctx) {
  ENTER();
  CHECK(pctx != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  *pctx = current_context;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *device) {
  ENTER();
  CHECK(device != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  *device = current_context->device;
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void) {
  ENTER();
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  return CUDA_SUCCESS;
}

// ---- Streams and events: work is done when it is queued ----

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
  ENTER();
  (void)Flags;
  CHECK(phStream != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  *phStream = new CUstream_st{current_context};
  d.streams.insert(*phStream);
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream hStream) {
  ENTER();
  CHECK(d.streams.erase(hStream) == 1, CUDA_ERROR_INVALID_HANDLE, "unknown stream");
  delete hStream;
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream hStream) {
  ENTER();
  return check_stream(d, hStream, __func__);
}

CUresult cuStreamQuery(CUstream hStream) {
  ENTER();
  return check_stream(d, hStream, __func__);
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) {
  ENTER();
  (void)Flags;
  CHECK(d.events.count(hEvent), CUDA_ERROR_INVALID_HANDLE, "unknown event");
  return check_stream(d, hStream, __func__);
}

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags) {
  ENTER();
  (void)Flags;
  CHECK(phEvent != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  *phEvent = new CUevent_st{current_context};
  d.events.insert(*phEvent);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
  ENTER();
  CHECK(d.events.count(hEvent), CUDA_ERROR_INVALID_HANDLE, "unknown event");
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  CHECK(stream_context(d, hStream) == hEvent->context, CUDA_ERROR_INVALID_HANDLE,
        "event and stream of different contexts");
  hEvent->recorded = true;
  hEvent->time = std::chrono::steady_clock::now();
  return CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent hEvent) {
  ENTER();
  CHECK(d.events.count(hEvent), CUDA_ERROR_INVALID_HANDLE, "unknown event");
  return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent hEvent) {
  ENTER();
  CHECK(d.events.count(hEvent), CUDA_ERROR_INVALID_HANDLE, "unknown event");
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent hEvent) {
  ENTER();
  CHECK(d.events.erase(hEvent) == 1, CUDA_ERROR_INVALID_HANDLE, "unknown event");
  delete hEvent;
  return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd) {
  ENTER();
  CHECK(pMilliseconds != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(d.events.count(hStart) && d.events.count(hEnd), CUDA_ERROR_INVALID_HANDLE,
        "unknown event");
  CHECK(hStart->recorded && hEnd->recorded, CUDA_ERROR_INVALID_HANDLE, "event not recorded");
  *pMilliseconds = std::chrono::duration<float, std::milli>(hEnd->time - hStart->time).count();
  return CUDA_SUCCESS;
}

// ---- Memory ----

CUresult cuMemGetInfo(size_t *free, size_t *total) {
  ENTER();
  CHECK(free != nullptr && total != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  *total = d.memory;
  *free = free_bytes(d, current_context->device);
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) {
  ENTER();
  return allocate(d, dptr, bytesize, current_context, __func__);
}

CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  // Unlike cuMemAlloc, a stream-ordered allocation of 0 bytes succeeds with a null
  // pointer (cudarc's CudaStream::null relies on it).
  if (bytesize == 0 && dptr != nullptr) {
    *dptr = 0;
    return CUDA_SUCCESS;
  }
  return allocate(d, dptr, bytesize, stream_context(d, hStream), __func__);
}

CUresult cuMemFree(CUdeviceptr dptr) {
  ENTER();
  return release(d, dptr, __func__);
}

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  return release(d, dptr, __func__);
}

CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount) {
  ENTER();
  return copy(d, host(dstDevice), true, srcHost, false, ByteCount, __func__);
}

CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
  ENTER();
  return copy(d, dstHost, false, host(srcDevice), true, ByteCount, __func__);
}

CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
  ENTER();
  return copy(d, host(dstDevice), true, host(srcDevice), true, ByteCount, __func__);
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                           CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  return copy(d, host(dstDevice), true, srcHost, false, ByteCount, __func__);
}

CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                           CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  return copy(d, dstHost, false, host(srcDevice), true, ByteCount, __func__);
}

CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                           CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  return copy(d, host(dstDevice), true, host(srcDevice), true, ByteCount, __func__);
}

CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N) {
  ENTER();
  if (N == 0) return CUDA_SUCCESS;
  CHECK(find_allocation(d, dstDevice, N), CUDA_ERROR_INVALID_VALUE, "outside device memory");
  std::memset(host(dstDevice), uc, N);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  return cuMemsetD8(dstDevice, uc, N);
}

// ---- Modules, functions, launches ----

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  ENTER();
  CHECK(module != nullptr && image != nullptr, CUDA_ERROR_INVALID_VALUE, "null argument");
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  // Only read to decide whether a real driver could load it: every kernel comes from
  // the emulation's table.
  int version = 0;
  cuDriverGetVersion(&version);
  const fake::ImageCheck fit = fake::check_image(image, version, d.compute_capability);
  CHECK(fit.loadable || fit.ptx_too_new, CUDA_ERROR_NO_BINARY_FOR_GPU,
        "no machine code for the device that this driver version loads, nor PTX");
  CHECK(fit.loadable, CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "PTX too new for this driver version");
  *module = new CUmod_st{current_context};
  d.modules.insert(*module);
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule hmod) {
  ENTER();
  CHECK(d.modules.erase(hmod) == 1, CUDA_ERROR_INVALID_HANDLE, "unknown module");
  for (auto it = d.functions.begin(); it != d.functions.end();) {
    auto *f = const_cast<CUfunc_st *>(static_cast<const CUfunc_st *>(*it));
    if (f->module == hmod) {
      it = d.functions.erase(it);
      delete f;
    } else {
      ++it;
    }
  }
  delete hmod;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name) {
  ENTER();
  CHECK(hfunc != nullptr && name != nullptr, CUDA_ERROR_INVALID_VALUE, "null argument");
  CHECK(d.modules.count(hmod), CUDA_ERROR_INVALID_HANDLE, "unknown module");
  const fake::KernelEntry *kernel = fake::find_kernel(name);
  CHECK(kernel != nullptr, CUDA_ERROR_NOT_FOUND, "no emulated kernel of that name");
  *hfunc = new CUfunc_st{hmod, kernel};
  d.functions.insert(*hfunc);
  return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc) {
  ENTER();
  CHECK(pi != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(d.functions.count(hfunc), CUDA_ERROR_INVALID_HANDLE, "unknown function");
  switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *pi = (int)hfunc->kernel->max_threads_per_block;
      break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = hfunc->max_dynamic_shared; break;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
      *pi = hfunc->non_portable_clusters;
      break;
    default: *pi = 0; break;
  }
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  ENTER();
  CHECK(d.functions.count(hfunc), CUDA_ERROR_INVALID_HANDLE, "unknown function");
  switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      CHECK(value >= 0 && value <= MAX_SHARED_OPTIN, CUDA_ERROR_INVALID_VALUE,
            "more shared memory than the device has");
      hfunc->max_dynamic_shared = value;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
      hfunc->non_portable_clusters = value != 0;
      return CUDA_SUCCESS;
    default:
      return CUDA_SUCCESS;
  }
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                        unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                        unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                        void **kernelParams, void **extra) {
  ENTER();
  const fake::Geometry g{{gridDimX, gridDimY, gridDimZ},
                         {blockDimX, blockDimY, blockDimZ},
                         sharedMemBytes,
                         1};
  return launch(d, f, g, hStream, kernelParams, extra, __func__);
}

// The geometry of an extended launch configuration (only cluster attributes).
static CUresult config_geometry(const CUlaunchConfig *config, fake::Geometry &g, const char *call) {
  if (config == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, call, "null config");
  if (config->numAttrs != 0 && config->attrs == nullptr)
    return fail(CUDA_ERROR_INVALID_VALUE, call, "null attributes");
  unsigned cluster = 1;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute &a = config->attrs[i];
    if (a.id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      return fail(CUDA_ERROR_NOT_SUPPORTED, call, "unsupported launch attribute");
    if (a.value.clusterDim.y != 1 || a.value.clusterDim.z != 1)
      return fail(CUDA_ERROR_NOT_SUPPORTED, call, "the emulation has clusters along x only");
    if (a.value.clusterDim.x < 1)
      return fail(CUDA_ERROR_INVALID_CLUSTER_SIZE, call, "empty cluster");
    cluster = a.value.clusterDim.x;
  }
  g = fake::Geometry{{config->gridDimX, config->gridDimY, config->gridDimZ},
                     {config->blockDimX, config->blockDimY, config->blockDimZ},
                     config->sharedMemBytes,
                     cluster};
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                          void **extra) {
  ENTER();
  fake::Geometry g{};
  if (const CUresult r = config_geometry(config, g, __func__); r != CUDA_SUCCESS) return r;
  return launch(d, f, g, config->hStream, kernelParams, extra, __func__);
}

// Every SM can hold one block of any cluster the launch limits accept.
CUresult cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func,
                                      const CUlaunchConfig *config) {
  ENTER();
  CHECK(numClusters != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(d.functions.count(func), CUDA_ERROR_INVALID_HANDLE, "unknown function");
  fake::Geometry g{};
  if (const CUresult r = config_geometry(config, g, __func__); r != CUDA_SUCCESS) return r;
  if (const CUresult r = check_geometry(d, func, g, __func__); r != CUDA_SUCCESS) return r;
  *numClusters = MULTIPROCESSORS / (int)g.cluster;
  return CUDA_SUCCESS;
}
