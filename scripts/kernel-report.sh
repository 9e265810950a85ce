#!/usr/bin/env bash
# Prints the static kernel report (scripts/kernel-report.py, docs/kernel-report.md):
# ptxas resources and occupancy per kernel for sm_80 and sm_90, the SASS of the
# bootstrap's CMux loop by class, and modelled PBS/s and latency on an H100 SXM and an
# A100 SXM. No GPU needed. Fails (exit 1) if the default parameters' bootstrap spills.
#
#   scripts/kernel-report.sh                 # nvcc and cuobjdump of scripts/install-nvcc.sh
#   NVCC=... CUOBJDUMP=... scripts/kernel-report.sh --archs 90
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# nvcc as build.rs finds it: NVCC, CUDA_HOME/CUDA_PATH, PATH, then the pip install.
nvcc="${NVCC:-}"
if [ -z "$nvcc" ]; then
  for c in "${CUDA_HOME:-}/bin/nvcc" "${CUDA_PATH:-}/bin/nvcc" "$(command -v nvcc || true)" \
    "$root/.cuda/nvidia/cu13/bin/nvcc" "$root/.cuda/nvidia/cuda_nvcc/bin/nvcc"; do
    if [ -n "$c" ] && [ -x "$c" ]; then nvcc="$c"; break; fi
  done
fi
cuobjdump="${CUOBJDUMP:-}"
if [ -z "$cuobjdump" ]; then
  for c in "$root/.cuda/tools/nvidia/cu13/bin/cuobjdump" "$(command -v cuobjdump || true)"; do
    if [ -n "$c" ] && [ -x "$c" ]; then cuobjdump="$c"; break; fi
  done
fi
if [ -z "$nvcc" ] || [ -z "$cuobjdump" ]; then
  echo "kernel-report: nvcc or cuobjdump not found; run scripts/install-nvcc.sh" >&2
  exit 2
fi
# cuobjdump runs nvdisasm from its own directory or PATH.
export PATH="$(dirname "$cuobjdump"):$PATH"
exec python3 "$root/scripts/kernel-report.py" --nvcc "$nvcc" --cuobjdump "$cuobjdump" "$@"
