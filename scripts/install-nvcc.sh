#!/usr/bin/env bash
# Installs the pinned CUDA 13.0 compiler wheels from PyPI into .cuda/ at the repository
# root, where build.rs looks for nvcc, and the pinned disassembler (cuobjdump, nvdisasm)
# into .cuda/tools/ for scripts/kernel-report.sh. Idempotent; needs python3 with pip;
# no GPU. Every nvidia-* wheel of the compiler must come from the same 13.0.x release:
# a mixed set emits PTX 9.5, which ptxas 13.0 and the 580 driver reject (see
# DEVELOPERS.md). The disassembler only reads the cubins; PyPI has it from 13.2 on, so
# it is pinned on its own, in its own directory, and never mixed with the compiler.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/.cuda"
pins=(
  nvidia-cuda-nvcc==13.0.88
  nvidia-nvvm==13.0.88
  nvidia-cuda-crt==13.0.88
  nvidia-cuda-runtime==13.0.96
  nvidia-cuda-cccl==13.0.85
)
tool_pins=(
  nvidia-cuda-cuobjdump==13.2.51
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
  echo "installed $* into $dir"
}
install "$target" "${pins[@]}"
install "$target/tools" "${tool_pins[@]}"
