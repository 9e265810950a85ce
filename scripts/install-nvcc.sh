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
#
#   scripts/install-nvcc.sh              # the compiler wheels and the disassembler
#   scripts/install-nvcc.sh --for-build  # the compiler wheels only, for build.rs
#
# build.rs runs it with --for-build when it builds a checkout on a machine with an
# NVIDIA driver and finds no compiler (DEVELOPERS.md, "The CUDA compiler"): these
# pins are the only list of the compiler's wheels.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/.cuda"
for_build=0
case "${1:-}" in
  "") ;;
  --for-build) for_build=1 ;;
  *) echo "usage: $0 [--for-build]" >&2; exit 2 ;;
esac
if [ "$for_build" -eq 1 ]; then
  # Inside a build, offline gives up soon (pip's defaults: 5 retries, 15 s each),
  # unless pip's own settings say otherwise.
  export PIP_RETRIES="${PIP_RETRIES:-1}"
  [ -n "${PIP_TIMEOUT:-}${PIP_DEFAULT_TIMEOUT:-}" ] || export PIP_TIMEOUT=20
fi
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
  # build.rs watches the stamp only once it exists: make cargo rerun it now (not
  # when build.rs itself installs: it compiles right after).
  [ "$for_build" -eq 1 ] || touch "$root/build.rs"
  echo "installed $* into $dir"
}
# One install at a time in a checkout (two builds with different target folders may
# both start one): a lock on this script, held until it exits.
if command -v flock >/dev/null; then
  exec 9<"${BASH_SOURCE[0]}"
  flock 9
fi
install "$target" "${pins[@]}"
[ "$for_build" -eq 1 ] || install "$target/tools" "${tool_pins[@]}"
