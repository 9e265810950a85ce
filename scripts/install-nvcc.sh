#!/usr/bin/env bash
# Installs the pinned CUDA 13.0 compiler wheels from PyPI into .cuda/ at the repository
# root, where build.rs looks for nvcc. Idempotent; needs python3 with pip; no GPU.
# Every nvidia-* wheel must come from the same 13.0.x release: a mixed set emits
# PTX 9.5, which ptxas 13.0 and the 580 driver reject (see DEVELOPERS.md).
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
stamp="$target/.gpufhe-pins"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${pins[*]}" ]; then
  echo "nvcc already installed in $target"
  exit 0
fi
rm -rf "$target"
python3 -m pip install --quiet --disable-pip-version-check --no-input --target "$target" "${pins[@]}"
echo "${pins[*]}" > "$stamp"
echo "installed nvcc into $target"
