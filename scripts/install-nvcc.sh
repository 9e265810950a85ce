#!/usr/bin/env bash
# Installs the pinned CUDA 12.0 compiler wheels from PyPI into .cuda/ at the repository
# root, where build.rs looks for them, and the pinned disassembler (nvdisasm)
# into .cuda/tools/ for scripts/kernel-report.sh. Idempotent; needs python3
# with pip; no GPU.
#
# CUDA 12.0 so that the kernels load on NVIDIA drivers R525 and newer: its machine code
# (sm_75 ... sm_90) loads on every CUDA 12 driver, and its PTX (ISA 8.0, for newer GPUs)
# is JIT-compiled by R525 too. PyPI's CUDA 12 wheels hold no nvcc, so build.rs compiles
# with NVRTC (scripts/nvrtc-compile.py); ptxas serves the kernel report; the runtime
# wheel brings the headers (cooperative_groups.h, and cuda.h for scripts/fake-cuda.sh).
# Every nvidia-* wheel of the compiler comes from the same release (12.0 Update 1): a
# mixed set emits PTX that an older ptxas or driver rejects (see DEVELOPERS.md). The
# disassembler only reads the cubins; PyPI has it from 13.2 on, so it is pinned on its
# own, in its own directory, and never mixed with the compiler.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/.cuda"
pins=(
  nvidia-cuda-nvrtc-cu12==12.0.140
  nvidia-cuda-nvcc-cu12==12.0.140
  nvidia-cuda-runtime-cu12==12.0.146
)
tool_pins=(
  nvidia-cuda-nvdisasm==13.2.51
)
# Installs $2... into $1 unless its stamp already lists exactly those pins.
install() {
  local dir="$1"; shift
  if [ -f "$dir/.gpufhe-pins" ] && [ "$(cat "$dir/.gpufhe-pins")" = "$*" ]; then
    echo "already installed in $dir"
    return
  fi
  rm -rf "$dir"
  python3 -m pip install --quiet --disable-pip-version-check --no-input --target "$dir" "$@"
  echo "$*" > "$dir/.gpufhe-pins"
  # build.rs watches the stamp only once it exists: make cargo rerun it now.
  touch "$root/build.rs"
  echo "installed $* into $dir"
}
install "$target" "${pins[@]}"
install "$target/tools" "${tool_pins[@]}"
