#!/usr/bin/env bash
# Runs the GPU host code without a GPU: builds the fake CUDA driver
# (testing/cuda-emu/fake_driver.cpp, fake_streams.cpp, fake_launch.cpp, with every
# kernel of cuda/*.cu run by the CPU emulation) as <target dir>/fake-cuda/libcuda.so,
# then runs the given command with that directory first on LD_LIBRARY_PATH,
# GPUFHE_FAKE_CUDA=1 (without which the fake reports no device) and
# GPUFHE_REQUIRE_GPU=1 (so GPU tests cannot skip).
#
#   scripts/fake-cuda.sh cargo test --release --test gpu cuda_backend::
#   GPUFHE_FAKE_CUDA_DEVICES=2 scripts/fake-cuda.sh cargo run --release --example multi_gpu_batch_add -- 8
#   scripts/fake-cuda.sh            # only builds, prints the library's directory
#
# Needs a C++20 compiler ($CXX, else g++) and cuda.h: $CUDA_HOME/include, else the
# nvcc install of scripts/install-nvcc.sh (which also makes the build embed the
# kernels, which the crate needs before it opens a device). Other settings
# (GPUFHE_FAKE_CUDA_DEVICES, _CC, _MEMORY_MIB, _ORDER, _LOG, _DEFERRED,
# _FAIL_LAUNCH) are described at the top of testing/cuda-emu/fake_driver.cpp.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
out="$target/fake-cuda"
cxx="${CXX:-g++}"

include=""
for dir in "${CUDA_HOME:-}/include" "${CUDA_PATH:-}/include" "$root/.cuda/nvidia/cuda_runtime/include" \
  "$root/.cuda/nvidia/cu13/include"; do
  if [ -f "$dir/cuda.h" ]; then include="$dir"; break; fi
done
if [ -z "$include" ]; then
  echo "fake-cuda: no cuda.h found; run scripts/install-nvcc.sh or set CUDA_HOME" >&2
  exit 1
fi

mkdir -p "$out"
emu="$root/testing/cuda-emu"
flags=(-std=c++20 -O2 -fPIC -fvisibility=hidden -fvisibility-inlines-hidden -DGPUFHE_EMULATION -D__CUDA_ARCH__=900 -I "$emu" -I "$root/cuda")
# The kernels' fma() as one instruction where the CPU has it (a libm call otherwise:
# a tenth of the emulation's time), with no other contraction, so that results do
# not change.
if grep -qw fma /proc/cpuinfo 2>/dev/null; then flags+=(-mfma -ffp-contract=off); fi
objects=()
# Builds an object unless it is newer than its source and the headers it may use.
build() {
  local src="$1" obj="$2"; shift 2
  objects+=("$obj")
  if [ -f "$obj" ] && [ -z "$(find "$src" "$emu"/*.h "$root"/cuda/*.cuh -newer "$obj")" ]; then
    return
  fi
  "$cxx" "${flags[@]}" "$@" -c "$src" -o "$obj"
}
for cu in "$root"/cuda/*.cu; do
  build "$cu" "$out/$(basename "$cu").o" -x c++ -include "$emu/cuda_emu.h"
done
build "$emu/fake_kernels.cpp" "$out/fake_kernels.o"
build "$emu/fake_image.cpp" "$out/fake_image.o"
for part in fake_driver fake_streams fake_launch; do
  build "$emu/$part.cpp" "$out/$part.o" -I "$include"
done
"$cxx" -shared -o "$out/libcuda.so.tmp" "${objects[@]}"
mv "$out/libcuda.so.tmp" "$out/libcuda.so"

if [ $# -eq 0 ]; then
  echo "$out"
  exit 0
fi
export LD_LIBRARY_PATH="$out${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GPUFHE_FAKE_CUDA=1 GPUFHE_REQUIRE_GPU=1
exec "$@"
