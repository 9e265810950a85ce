// The fake CUDA driver's modules, functions and launches (see fake_driver.cpp).
#include "fake_driver.h"

namespace fakecuda {
namespace {

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

// The trace line of a kernel that ran: name, geometry, the parameters it describes
// and the thread order the emulation used (on this thread, where it ran).
void trace_launch(const fake::KernelEntry &kernel, const fake::Geometry &g, void **args) {
  std::string line = std::string(kernel.name) + " grid=" + std::to_string(g.grid[0]) + "," +
                     std::to_string(g.grid[1]) + "," + std::to_string(g.grid[2]) +
                     " block=" + std::to_string(g.block[0]) + "," + std::to_string(g.block[1]) +
                     "," + std::to_string(g.block[2]) + " shared=" +
                     std::to_string(g.shared_bytes) + " cluster=" + std::to_string(g.cluster);
  if (kernel.describe != nullptr) line += " " + kernel.describe(args);
  trace(line + " order=" + fake::last_order());
}

// Runs `kernel` (which returns a LaunchResult) without the driver's lock, which the
// caller holds once, and takes it again: kernels of several threads and streams run
// at once, as on a GPU, at most as many as the machine has cores. Memory released
// meanwhile is freed once no kernel that started before its release runs.
std::counting_semaphore<> &kernel_slots() {
  static std::counting_semaphore<> slots(std::max(1u, std::thread::hardware_concurrency()));
  return slots;
}

template <class Kernel>
fake::LaunchResult run_unlocked(Driver &d, Kernel kernel) {
  std::counting_semaphore<> &slots = kernel_slots();
  d.lock.unlock();
  slots.acquire();
  d.lock.lock();
  const auto started = d.running.insert(d.releases);
  d.lock.unlock();
  const fake::LaunchResult result = kernel();
  d.lock.lock();
  d.running.erase(started);
  const unsigned long long oldest = d.running.empty() ? ~0ull : *d.running.begin();
  std::erase_if(d.released, [oldest](const auto &r) { return r.first <= oldest; });
  d.lock.unlock();
  slots.release();
  d.lock.lock();
  return result;
}

CUresult launch(Driver &d, CUfunction f, const fake::Geometry &g, CUstream stream,
                void **params, void **extra, const char *call) {
  if (!d.functions.count(f)) return fail(CUDA_ERROR_INVALID_HANDLE, call, "unknown function");
  CUctx_st *context = stream_context(d, stream);
  if (context == nullptr) return fail(CUDA_ERROR_INVALID_HANDLE, call, "unknown stream");
  if (context != f->module->context || current_context != context)
    return fail(CUDA_ERROR_INVALID_CONTEXT, call,
                "function, stream and current context differ");
  CHECK_USABLE(context);
  if (params == nullptr || extra != nullptr)
    return fail(CUDA_ERROR_INVALID_VALUE, call, "only kernelParams are supported");
  if (const CUresult r = check_geometry(d, f, g, call); r != CUDA_SUCCESS) return r;
  const int device = context->device;
  const fake::KernelEntry *kernel = f->kernel;
  if (d.fail_launch != 0 && ++d.launches == d.fail_launch)
    // The fault: the device's context is unusable from when the kernel runs.
    return submit(d, stream, [&d, device, call] {
      d.sticky[device] = CUDA_ERROR_ILLEGAL_ADDRESS;
      return fail(CUDA_ERROR_ILLEGAL_ADDRESS, call,
                  "GPUFHE_FAKE_CUDA_FAIL_LAUNCH: this launch faults (a sticky error)");
    });
  // Runs the grid on arguments `args` (when the work runs: the memory check sees the
  // allocations of that moment).
  const auto execute = [&d, kernel, g, device](void **args) {
    const fake::DeviceMemoryCheck check = [&](const void *p, size_t bytes) {
      std::lock_guard<std::recursive_mutex> guard(d.lock);
      const Allocation *a = find_allocation(d, reinterpret_cast<uintptr_t>(p), bytes);
      return a != nullptr && a->device == device;
    };
    const fake::LaunchResult result = kernel->run(g, args, check);
    if (result == fake::LaunchResult::Ok && tracing()) trace_launch(*kernel, g, args);
    return result;
  };
  const auto status = [kernel, call](fake::LaunchResult result) {
    switch (result) {
      case fake::LaunchResult::Ok:
        return CUDA_SUCCESS;
      case fake::LaunchResult::BadArgument:
        return fail(CUDA_ERROR_ILLEGAL_ADDRESS, call,
                    (std::string(kernel->name) + ": an argument is not memory of the device")
                        .c_str());
      case fake::LaunchResult::Deadlock:
        break;
    }
    return fail(CUDA_ERROR_LAUNCH_FAILED, call, "the emulated kernel deadlocked");
  };
  const auto run = [execute, status](void **args) { return status(execute(args)); };
  if (!d.deferred) return status(run_unlocked(d, [&] { return execute(params); }));
  // Deferred: the arguments are copied now, as a real launch does.
  std::vector<std::vector<unsigned char>> copies;
  for (int i = 0; i < 4 && kernel->argument_bytes[i] != 0; ++i) {
    const auto *bytes = static_cast<const unsigned char *>(params[i]);
    copies.emplace_back(bytes, bytes + kernel->argument_bytes[i]);
  }
  return submit(d, stream, [run, copies]() mutable {
    std::vector<void *> args;
    for (auto &c : copies) args.push_back(c.data());
    return run(args.data());
  });
}

}  // namespace
}  // namespace fakecuda

using namespace fakecuda;

// ---- Modules, functions, launches ----

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  ENTER();
  CHECK(module != nullptr && image != nullptr, CUDA_ERROR_INVALID_VALUE, "null argument");
  CHECK(current_context != nullptr, CUDA_ERROR_INVALID_CONTEXT, "no current context");
  CHECK_USABLE(current_context);
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
  CHECK(d.modules.count(hmod), CUDA_ERROR_INVALID_HANDLE, "unknown module");
  CHECK_USABLE(hmod->context);
  d.modules.erase(hmod);
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
  CHECK_USABLE(hmod->context);
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
  CHECK_USABLE(hfunc->module->context);
  switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *pi = (int)hfunc->kernel->max_threads_per_block;
      break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = hfunc->max_dynamic_shared; break;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
      *pi = hfunc->non_portable_clusters;
      break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: {
      const auto it = d.local_memory.find(hfunc->kernel->name);
      *pi = it == d.local_memory.end() ? 0 : it->second;
      break;
    }
    default: *pi = 0; break;
  }
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  ENTER();
  CHECK(d.functions.count(hfunc), CUDA_ERROR_INVALID_HANDLE, "unknown function");
  CHECK_USABLE(hfunc->module->context);
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
  CHECK_USABLE(func->module->context);
  fake::Geometry g{};
  if (const CUresult r = config_geometry(config, g, __func__); r != CUDA_SUCCESS) return r;
  if (const CUresult r = check_geometry(d, func, g, __func__); r != CUDA_SUCCESS) return r;
  *numClusters = d.multiprocessors / (int)g.cluster;
  return CUDA_SUCCESS;
}
