#!/usr/bin/env bash
# Prints the static kernel report (scripts/kernel-report.py, docs/kernel-report.md):
# ptxas resources and occupancy per kernel for sm_80 and sm_90, the SASS of the
# bootstrap's CMux loop by class, and modelled PBS/s and latency on an H100 SXM and an
# A100 SXM. No GPU needed. Fails (exit 1) if the default parameters' bootstrap spills.
#
#   scripts/kernel-report.sh                 # the compiler and nvdisasm of scripts/install-nvcc.sh
#   NVCC=... NVDISASM=... scripts/kernel-report.sh --archs 90
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The compiler as build.rs finds it: NVCC, CUDA_HOME/CUDA_PATH, PATH, a pip nvcc, then
# the pip CUDA 12 NVRTC with its ptxas.
compiler=()
nvcc="${NVCC:-}"
if [ -z "$nvcc" ]; then
  for c in "${CUDA_HOME:-}/bin/nvcc" "${CUDA_PATH:-}/bin/nvcc" "$(command -v nvcc || true)" \
    "$root/.cuda/nvidia/cu13/bin/nvcc" "$root/.cuda/nvidia/cuda_nvcc/bin/nvcc"; do
    if [ -n "$c" ] && [ -x "$c" ]; then nvcc="$c"; break; fi
  done
fi
pip="$root/.cuda/nvidia"
if [ -n "$nvcc" ]; then
  compiler=(--nvcc "$nvcc")
elif [ -f "$pip/cuda_nvrtc/lib/libnvrtc.so.12" ] && [ -x "$pip/cuda_nvcc/bin/ptxas" ]; then
  compiler=(--nvrtc "$pip/cuda_nvrtc/lib/libnvrtc.so.12" --ptxas "$pip/cuda_nvcc/bin/ptxas"
    --include "$pip/cuda_runtime/include")
fi
nvdisasm="${NVDISASM:-}"
if [ -z "$nvdisasm" ]; then
  for c in "$root/.cuda/tools/nvidia/cu13/bin/nvdisasm" "$(command -v nvdisasm || true)"; do
    if [ -n "$c" ] && [ -x "$c" ]; then nvdisasm="$c"; break; fi
  done
fi
if [ ${#compiler[@]} -eq 0 ] || [ -z "$nvdisasm" ]; then
  echo "kernel-report: no CUDA compiler or no nvdisasm; run scripts/install-nvcc.sh" >&2
  exit 2
fi
exec python3 "$root/scripts/kernel-report.py" "${compiler[@]}" --nvdisasm "$nvdisasm" "$@"
