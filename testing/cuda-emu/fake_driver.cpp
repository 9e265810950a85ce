// A CPU fake of the CUDA driver API (libcuda.so), so that the crate's whole GPU host
// code (cudarc, device discovery, streams, key upload, launches) runs without a GPU,
// with the kernels of cuda/*.cu executed by the emulation (fake_kernels.cpp). Built
// and used by scripts/fake-cuda.sh; see DEVELOPERS.md.
//
// - Devices: GPUFHE_FAKE_CUDA_DEVICES of them (default 1), each with one primary
//   context, compute capability GPUFHE_FAKE_CUDA_CC (default 90: clusters),
//   GPUFHE_FAKE_CUDA_MULTIPROCESSORS SMs (default 132, as an H100; 1 to 1024),
//   227 KB of opt-in shared memory and GPUFHE_FAKE_CUDA_MEMORY_MIB of memory
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
// - Memory pools: each device has its default pool (cuDeviceGetDefaultMemPool),
//   which cuMemAllocAsync allocates from and frees go back to. It keeps what it
//   mapped (counted as used by cuMemGetInfo) and reuses it; a synchronization of a
//   stream, an event or the context gives back what it holds unused beyond its
//   release threshold (CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, 0 by default, as CUDA's),
//   and cuMemPoolTrimTo what is asked. CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT and
//   USED_MEM_CURRENT say what it holds and what of it is allocated.
// - Device memory is host heap blocks, filled with garbage when allocated. Every
//   copy, memset and free must lie within one live allocation, and every kernel
//   argument must cover what the kernel touches in memory of the launching device;
//   otherwise the call returns an error instead of crashing.
// - Handles (contexts, streams, events, modules, functions) are checked to be live.
//   Launches check the function's context against the stream's and the current one,
//   the block size against the kernel's limit, the dynamic shared memory against the
//   kernel's attribute and the cluster shape.
// - Streams run everything synchronously, in call order, under one lock; kernels
//   run at the launch without it, those of other threads at the same time (at most
//   one per core; each on its own OS thread's fibers), as on a GPU. Memory freed
//   while kernels run stays readable until those started before the free are done.
//   Events are complete once recorded. With
//   GPUFHE_FAKE_CUDA_DEFERRED=1 the asynchronous work of each stream waits in a
//   queue until something synchronizes with it, so a missing wait between streams
//   shows (fake_streams.cpp).
// - GPUFHE_FAKE_CUDA_LOCAL_MEMORY="name=bytes,...": the local memory per thread
//   (spilled registers, stack) CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES reports for those
//   kernels, as a GPU's machine code may have (0 for the others); a malformed list
//   fails cuInit with INVALID_VALUE.
// - GPUFHE_FAKE_CUDA_DRIVER_VERSION (default 13000): cuDriverGetVersion's answer;
//   cuModuleLoadData refuses images that driver could not load (fake_image.cpp).
// - GPUFHE_FAKE_CUDA_FAIL_LAUNCH=N (a positive integer; empty is unset, anything
//   else fails cuInit with INVALID_VALUE and a message on stderr): the N-th kernel
//   launch of the process (1-based, counting the launches that pass their checks)
//   faults with CUDA_ERROR_ILLEGAL_ADDRESS, when it runs (at the launch, or at the
//   synchronization that runs it with GPUFHE_FAKE_CUDA_DEFERRED=1). The error is
//   sticky, as on a GPU: from then on every call on that device's primary context
//   (launches, copies, memsets, allocations, frees, synchronizations, streams,
//   events, modules, functions, memory queries) returns it, and queued work is
//   dropped, until cuDevicePrimaryCtxReset. The reset destroys everything of the
//   context: allocations, streams, events, modules and the context handle itself
//   (cuDevicePrimaryCtxRetain then gives a new one); handles of before the reset
//   are never reused, so using one fails (INVALID_HANDLE, INVALID_CONTEXT, or
//   INVALID_VALUE for a pointer) instead of reaching a new object.
// - GPUFHE_FAKE_CUDA_ORDER=forward|reverse|shuffled picks the order in which the
//   emulation runs threads between barriers, in the launches of every host thread;
//   GPUFHE_FAKE_CUDA_LOG=1 logs every failing call to stderr.
// - GPUFHE_FAKE_CUDA_TRACE=PATH appends one line per kernel that ran to PATH: its
//   name, grid, block, dynamic shared memory, cluster size, the bootstrap's
//   parameters (count, prefetch share, dimensions) and the thread order the
//   emulation used, so that tests can check the launches the host code makes.
// Only the driver API is exported (the library is built with -fvisibility=hidden).
// This file: errors, initialization, devices, contexts and memory; fake_streams.cpp:
// streams and events; fake_launch.cpp: modules, functions and launches.

#include "fake_driver.h"

namespace fakecuda {

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

long env_number(const char *name, long fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::strtol(v, nullptr, 10) : fallback;
}

Allocation *find_allocation(Driver &d, uintptr_t address, size_t bytes) {
  auto it = d.allocations.upper_bound(address);
  if (it == d.allocations.begin()) return nullptr;
  --it;
  const uintptr_t offset = address - it->first;
  if (offset > it->second.bytes || bytes > it->second.bytes - offset) return nullptr;
  return &it->second;
}

CUctx_st *stream_context(Driver &d, CUstream stream) {
  if (stream == nullptr) return current_context;
  return d.streams.count(stream) ? stream->context : nullptr;
}

CUresult check_stream(Driver &d, CUstream stream, const char *call) {
  if (stream_context(d, stream) == nullptr)
    return fail(CUDA_ERROR_INVALID_HANDLE, call, "unknown stream or no context");
  return CUDA_SUCCESS;
}

namespace {

bool valid_device(const Driver &d, CUdevice dev) { return dev >= 0 && dev < d.devices; }

bool known_context(const Driver &d, const CUctx_st *ctx) {
  return ctx != nullptr && valid_device(d, ctx->device) && d.contexts[ctx->device].get() == ctx;
}

}  // namespace

CUresult usable(Driver &d, const CUctx_st *context, const char *call) {
  if (context == nullptr) return CUDA_SUCCESS;  // the call's own checks refuse it if needed
  if (!known_context(d, context))
    return fail(CUDA_ERROR_INVALID_CONTEXT, call, "a context destroyed by a reset");
  if (const CUresult sticky = d.sticky[context->device]; sticky != CUDA_SUCCESS)
    return fail(sticky, call, "the context hit a sticky error; reset the primary context");
  return CUDA_SUCCESS;
}

namespace {

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

// Reads GPUFHE_FAKE_CUDA_LOCAL_MEMORY ("name=bytes,...") into `d`, or false with `why`.
bool configure_local_memory(Driver &d, std::string &why) {
  d.local_memory.clear();
  const char *v = std::getenv("GPUFHE_FAKE_CUDA_LOCAL_MEMORY");
  std::string text = v ? v : "";
  size_t start = 0;
  while (text.find_first_not_of(" \t", start) != std::string::npos) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const size_t eq = item.find('=');
    const std::string name = eq == std::string::npos ? "" : item.substr(0, eq);
    const std::string bytes = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (name.empty() || bytes.empty() || bytes.size() > 6 ||
        bytes.find_first_not_of("0123456789") != std::string::npos) {
      why = "GPUFHE_FAKE_CUDA_LOCAL_MEMORY=\"" + text + "\": \"" + item +
            "\" is not kernel_name=bytes (a comma-separated list)";
      return false;
    }
    d.local_memory[name] = std::stoi(bytes);
    start = comma + 1;
  }
  return true;
}

// Reads GPUFHE_FAKE_CUDA_FAIL_LAUNCH into `d`, or false with `why`.
bool configure_faults(Driver &d, std::string &why) {
  std::vector<unsigned long long> launch;
  if (!env_list("GPUFHE_FAKE_CUDA_FAIL_LAUNCH", launch, why)) return false;
  if (launch.size() > 1 || (launch.size() == 1 && launch[0] == 0)) {
    why = std::string("GPUFHE_FAKE_CUDA_FAIL_LAUNCH=\"") +
          std::getenv("GPUFHE_FAKE_CUDA_FAIL_LAUNCH") +
          "\": expected one launch number, 1 or more (1: the first launch faults)";
    return false;
  }
  d.fail_launch = launch.empty() ? 0 : launch[0];
  return true;
}

// cuDevicePrimaryCtxReset: everything of the device's primary context goes away
// (queued work unrun); the objects are kept unreachable rather than freed, so that
// their addresses are never handed out again.
void reset_device(Driver &d, int dev) {
  CUctx_st *old = d.contexts[dev].get();
  d.reset_contexts.push_back(std::move(d.contexts[dev]));
  d.contexts[dev] = std::make_unique<CUctx_st>(CUctx_st{dev});
  for (auto it = d.streams.begin(); it != d.streams.end();) {
    auto *s = const_cast<CUstream_st *>(static_cast<const CUstream_st *>(*it));
    if (s->context != old) {
      ++it;
      continue;
    }
    s->queue.clear();
    it = d.streams.erase(it);
  }
  std::erase_if(d.events, [old](const void *e) {
    return static_cast<const CUevent_st *>(e)->context == old;
  });
  std::erase_if(d.functions, [old](const void *f) {
    return static_cast<const CUfunc_st *>(f)->module->context == old;
  });
  std::erase_if(d.modules, [old](const void *m) {
    return static_cast<const CUmod_st *>(m)->context == old;
  });
  for (auto it = d.allocations.begin(); it != d.allocations.end();) {
    if (it->second.device != dev) {
      ++it;
      continue;
    }
    d.reset_memory.push_back(std::move(it->second.data));
    it = d.allocations.erase(it);
  }
  d.allocated[dev] = 0;
  d.pools[dev].reserved = d.pools[dev].used = 0;
  d.sticky[dev] = CUDA_SUCCESS;
}

// A new allocation of `bytes`; `pooled`: from the device's pool, which maps only
// what its unused memory lacks.
CUresult allocate(Driver &d, CUdeviceptr *dptr, size_t bytes, CUctx_st *context,
                  const char *call, bool pooled) {
  CHECK(dptr != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  if (context == nullptr) return fail(CUDA_ERROR_INVALID_CONTEXT, call, "no context");
  if (bytes == 0) return fail(CUDA_ERROR_INVALID_VALUE, call, "zero bytes");
  const int dev = context->device;
  Pool &pool = d.pools[dev];
  const size_t unused = pooled ? pool.reserved - pool.used : 0;
  const size_t mapped = bytes > unused ? bytes - unused : 0;
  if (mapped > free_bytes(d, dev))
    return fail(CUDA_ERROR_OUT_OF_MEMORY, call, "device memory exhausted");
  std::unique_ptr<unsigned char[]> data(new (std::nothrow) unsigned char[bytes]);
  if (!data) return fail(CUDA_ERROR_OUT_OF_MEMORY, call, "host memory exhausted");
  std::memset(data.get(), 0xa5, bytes);  // device memory is not zeroed
  const auto address = reinterpret_cast<uintptr_t>(data.get());
  d.allocations.emplace(address, Allocation{bytes, dev, std::move(data), pooled});
  d.allocated[dev] += mapped;
  if (pooled) {
    pool.reserved += mapped;
    pool.used += bytes;
  }
  *dptr = address;
  return CUDA_SUCCESS;
}

// Gives back to the OS what the pool of `dev` holds unused, down to `keep` bytes.
void trim_pool(Driver &d, int dev, size_t keep) {
  Pool &pool = d.pools[dev];
  const size_t over = pool.reserved > keep ? pool.reserved - keep : 0;
  const size_t released = std::min(over, pool.reserved - pool.used);
  pool.reserved -= released;
  d.allocated[dev] -= released;
}

CUresult release(Driver &d, CUdeviceptr dptr, const char *call) {
  if (dptr == 0) return CUDA_SUCCESS;
  auto it = d.allocations.find(dptr);
  if (it == d.allocations.end())
    return fail(CUDA_ERROR_INVALID_VALUE, call, "not the start of a live allocation");
  if (it->second.pooled)
    d.pools[it->second.device].used -= it->second.bytes;  // stays mapped, in the pool
  else
    d.allocated[it->second.device] -= it->second.bytes;
  ++d.releases;
  // A kernel running now may still read it (its host code is then wrong, but the
  // fake must not crash): kept until the kernels started before now have finished.
  if (!d.running.empty()) d.released.emplace_back(d.releases, std::move(it->second.data));
  d.allocations.erase(it);
  return CUDA_SUCCESS;
}

CUresult set_bytes(Driver &d, CUdeviceptr dst, unsigned char value, size_t bytes) {
  if (bytes == 0) return CUDA_SUCCESS;
  if (!find_allocation(d, dst, bytes))
    return fail(CUDA_ERROR_INVALID_VALUE, "cuMemsetD8", "outside device memory");
  std::memset(host(dst), value, bytes);
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
}  // namespace fakecuda

using namespace fakecuda;

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
  d.deferred = env_number("GPUFHE_FAKE_CUDA_DEFERRED", 0) == 1;
  CHECK(Flags == 0, CUDA_ERROR_INVALID_VALUE, "flags must be 0");
  CHECK(env_number("GPUFHE_FAKE_CUDA", 0) == 1, CUDA_ERROR_NO_DEVICE,
        "GPUFHE_FAKE_CUDA=1 is not set");
  if (d.initialized) return CUDA_SUCCESS;
  d.devices = (int)env_number("GPUFHE_FAKE_CUDA_DEVICES", 1);
  d.compute_capability = (int)env_number("GPUFHE_FAKE_CUDA_CC", 90);
  d.multiprocessors = (int)env_number("GPUFHE_FAKE_CUDA_MULTIPROCESSORS", 132);
  CHECK(d.multiprocessors >= 1 && d.multiprocessors <= 1024, CUDA_ERROR_INVALID_VALUE,
        "bad multiprocessor count");
  d.memory = (size_t)env_number("GPUFHE_FAKE_CUDA_MEMORY_MIB", 80 * 1024) << 20;
  CHECK(d.devices >= 0 && d.devices <= 64, CUDA_ERROR_INVALID_VALUE, "bad device count");
  if (std::string why;
      !configure_devices(d, why) || !configure_faults(d, why) || !configure_local_memory(d, why)) {
    static bool reported = false;
    if (!reported) std::fprintf(stderr, "fake libcuda: cuInit failed: %s\n", why.c_str());
    reported = true;
    return CUDA_ERROR_INVALID_VALUE;
  }
  for (int i = 0; i < d.devices; ++i) d.contexts.push_back(std::make_unique<CUctx_st>(CUctx_st{i}));
  d.allocated.assign(d.devices, 0);
  d.pools.resize(d.devices);
  for (int i = 0; i < d.devices; ++i)
    d.pools[i].handle = std::make_unique<CUmemPoolHandle_st>(CUmemPoolHandle_st{i});
  d.sticky.assign(d.devices, CUDA_SUCCESS);
  if (const char *order = std::getenv("GPUFHE_FAKE_CUDA_ORDER")) fake::set_order(order);
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
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *pi = d.multiprocessors; break;
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

CUresult cuDevicePrimaryCtxReset(CUdevice dev) {
  ENTER();
  CHECK(valid_device(d, dev), CUDA_ERROR_INVALID_DEVICE, "no such device");
  reset_device(d, dev);
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


// ---- Memory ----

CUresult cuMemGetInfo(size_t *free, size_t *total) {
  ENTER();
  CHECK(free != nullptr && total != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  CHECK_USABLE(current_context);
  *total = d.memory;
  *free = free_bytes(d, current_context->device);
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) {
  ENTER();
  CHECK_USABLE(current_context);
  return allocate(d, dptr, bytesize, current_context, __func__, false);
}

CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  CHECK_USABLE(stream_context(d, hStream));
  // Unlike cuMemAlloc, a stream-ordered allocation of 0 bytes succeeds with a null
  // pointer (cudarc's CudaStream::null relies on it).
  if (bytesize == 0 && dptr != nullptr) {
    *dptr = 0;
    return CUDA_SUCCESS;
  }
  return allocate(d, dptr, bytesize, stream_context(d, hStream), __func__, true);
}

// The synchronous calls go through the legacy default stream (a null stream), which
// in deferred mode first runs every stream of the context.

CUresult cuMemFree(CUdeviceptr dptr) {
  ENTER();
  CHECK_USABLE(current_context);
  return submit(d, nullptr, [&d, dptr] { return release(d, dptr, "cuMemFree"); });
}

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  CHECK_USABLE(stream_context(d, hStream));
  return submit(d, hStream, [&d, dptr] { return release(d, dptr, "cuMemFreeAsync"); });
}

CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount) {
  ENTER();
  CHECK_USABLE(current_context);
  return submit(d, nullptr, [&d, dstDevice, srcHost, ByteCount] {
    return copy(d, host(dstDevice), true, srcHost, false, ByteCount, "cuMemcpyHtoD");
  });
}

CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
  ENTER();
  CHECK_USABLE(current_context);
  return submit(d, nullptr, [&d, dstHost, srcDevice, ByteCount] {
    return copy(d, dstHost, false, host(srcDevice), true, ByteCount, "cuMemcpyDtoH");
  });
}

CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
  ENTER();
  CHECK_USABLE(current_context);
  return submit(d, nullptr, [&d, dstDevice, srcDevice, ByteCount] {
    return copy(d, host(dstDevice), true, host(srcDevice), true, ByteCount, "cuMemcpyDtoD");
  });
}

// The source is read when the call is made (as from pageable host memory): a
// deferred copy takes a snapshot of it.
CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                           CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  CHECK_USABLE(stream_context(d, hStream));
  if (!d.deferred || srcHost == nullptr)
    return copy(d, host(dstDevice), true, srcHost, false, ByteCount, __func__);
  const auto *bytes = static_cast<const unsigned char *>(srcHost);
  auto snapshot = std::make_shared<std::vector<unsigned char>>(bytes, bytes + ByteCount);
  return submit(d, hStream, [&d, dstDevice, snapshot] {
    return copy(d, host(dstDevice), true, snapshot->data(), false, snapshot->size(),
                "cuMemcpyHtoDAsync");
  });
}

// Into pageable host memory (the only kind the fake has) the call returns once the
// copy is done: a deferred stream runs its work up to the copy first.
CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                           CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  CHECK_USABLE(stream_context(d, hStream));
  if (const CUresult r = submit(d, hStream, [&d, dstHost, srcDevice, ByteCount] {
        return copy(d, dstHost, false, host(srcDevice), true, ByteCount, "cuMemcpyDtoHAsync");
      });
      r != CUDA_SUCCESS || !d.deferred || hStream == nullptr)
    return r;
  return cuStreamSynchronize(hStream);
}

CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                           CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  CHECK_USABLE(stream_context(d, hStream));
  return submit(d, hStream, [&d, dstDevice, srcDevice, ByteCount] {
    return copy(d, host(dstDevice), true, host(srcDevice), true, ByteCount, "cuMemcpyDtoDAsync");
  });
}

CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N) {
  ENTER();
  CHECK_USABLE(current_context);
  return submit(d, nullptr, [&d, dstDevice, uc, N] { return set_bytes(d, dstDevice, uc, N); });
}

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
  ENTER();
  if (CUresult r = check_stream(d, hStream, __func__); r != CUDA_SUCCESS) return r;
  CHECK_USABLE(stream_context(d, hStream));
  return submit(d, hStream, [&d, dstDevice, uc, N] { return set_bytes(d, dstDevice, uc, N); });
}

// ---- Memory pools: the default pool of each device ----

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev) {
  ENTER();
  CHECK(pool_out != nullptr, CUDA_ERROR_INVALID_VALUE, "null output");
  CHECK(valid_device(d, dev), CUDA_ERROR_INVALID_DEVICE, "no such device");
  *pool_out = d.pools[dev].handle.get();
  return CUDA_SUCCESS;
}

namespace {

// The pool of handle `pool`, or nullptr.
Pool *find_pool(Driver &d, CUmemoryPool pool) {
  for (Pool &p : d.pools)
    if (p.handle.get() == pool) return &p;
  return nullptr;
}

}  // namespace

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value) {
  ENTER();
  Pool *p = find_pool(d, pool);
  CHECK(p != nullptr, CUDA_ERROR_INVALID_VALUE, "unknown pool");
  CHECK(value != nullptr, CUDA_ERROR_INVALID_VALUE, "null value");
  CHECK(attr == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, CUDA_ERROR_NOT_SUPPORTED,
        "the fake sets only the release threshold");
  std::memcpy(&p->threshold, value, sizeof p->threshold);
  return CUDA_SUCCESS;
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value) {
  ENTER();
  Pool *p = find_pool(d, pool);
  CHECK(p != nullptr, CUDA_ERROR_INVALID_VALUE, "unknown pool");
  CHECK(value != nullptr, CUDA_ERROR_INVALID_VALUE, "null value");
  unsigned long long v;
  switch (attr) {
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: v = p->threshold; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: v = p->reserved; break;
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: v = p->used; break;
    default: return fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "attribute not in the fake");
  }
  std::memcpy(value, &v, sizeof v);
  return CUDA_SUCCESS;
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep) {
  ENTER();
  Pool *p = find_pool(d, pool);
  CHECK(p != nullptr, CUDA_ERROR_INVALID_VALUE, "unknown pool");
  trim_pool(d, p->handle->device, minBytesToKeep);
  return CUDA_SUCCESS;
}

namespace fakecuda {

void release_above_threshold(Driver &d, const CUctx_st *context) {
  if (context == nullptr) return;
  const Pool &pool = d.pools[context->device];
  trim_pool(d, context->device, (size_t)std::min<unsigned long long>(pool.threshold, SIZE_MAX));
}

namespace {

FILE *trace_file() {
  static FILE *file = [] {
    const char *path = std::getenv("GPUFHE_FAKE_CUDA_TRACE");
    return path && *path ? std::fopen(path, "a") : nullptr;
  }();
  return file;
}

}  // namespace

bool tracing() { return trace_file() != nullptr; }

void trace(const std::string &line) {
  static std::mutex lock;
  FILE *file = trace_file();
  if (file == nullptr) return;
  std::lock_guard<std::mutex> guard(lock);
  std::fprintf(file, "%s\n", line.c_str());
  std::fflush(file);
}

}  // namespace fakecuda
