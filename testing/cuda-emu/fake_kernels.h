// The kernel table of the fake CUDA driver (fake_driver.cpp): every extern "C" kernel
// of cuda/*.cu by name, run through the CPU emulation (fake_kernels.cpp). Kept free
// of both cuda.h and cuda_emu.h, which each side includes on its own.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace fake {

// The geometry of one launch, as the driver received it.
struct Geometry {
  unsigned grid[3];
  unsigned block[3];
  size_t shared_bytes;  // dynamic shared memory per block
  unsigned cluster;     // blocks per cluster along x (1: no clusters)
};

// Whether `[address, address + bytes)` lies in memory of the launching device.
using DeviceMemoryCheck = std::function<bool(const void *address, size_t bytes)>;

// How a launch ended.
enum class LaunchResult { Ok, BadArgument, Deadlock };

struct KernelEntry {
  const char *name;
  unsigned max_threads_per_block;  // from __launch_bounds__ / __maxnreg__
  // Checks the device addresses in the arguments, then runs the grid.
  LaunchResult (*run)(const Geometry &, void **params, const DeviceMemoryCheck &);
  // The bytes of each kernel argument (0 after the last), for a driver that keeps a
  // copy of them to run the launch later.
  size_t argument_bytes[4];
  // The launch's parameters worth a trace line (GPUFHE_FAKE_CUDA_TRACE), or null.
  std::string (*describe)(void **params) = nullptr;
};

// The kernel called `name`, or nullptr.
const KernelEntry *find_kernel(const char *name);

// Sets the order in which the emulation runs the threads of a block between
// barriers, in the launches of every host thread: "forward" (default), "reverse"
// or "shuffled".
void set_order(const char *order);

// The order the emulation used in the last launch of the calling thread.
const char *last_order();

}  // namespace fake
