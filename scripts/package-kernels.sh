#!/usr/bin/env bash
# Makes the kernel images that the published package ships, for machines with the
# NVIDIA driver but no CUDA compiler: kernels/ at the repository root (gitignored,
# never committed; Cargo.toml's `include` ships it), a cubin per architecture
# (sm_75 ... sm_90) and PTX (compute_90, for newer GPUs) of every cuda/*.cu, made by
# the pinned CUDA 12.0 NVRTC (so that R525+ drivers load them), without line
# information, and their manifest: the hash of the kernel sources, the NVRTC driver
# script, the compiler's pins and the images' flags, which build.rs checks before it
# embeds them (DEVELOPERS.md, "The CUDA compiler").
#
#   scripts/package-kernels.sh && cargo publish    # at publish time
#
# The images come from build.rs's own compile path and kernel cache: build.rs (std
# only, no build dependencies) is compiled as a program by rustc and run with
# `--package-kernels` (which ignores any nvcc and refuses GPUFHE_CUDA_ARCHS /
# GPUFHE_CUDA_LINEINFO). Installs the pinned compiler
# wheels first (scripts/install-nvcc.sh); needs rustc and python3; no GPU.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
work="${CARGO_TARGET_DIR:-$root/target}/package-kernels"
bash "$root/scripts/install-nvcc.sh" >/dev/null
rm -rf "$work"
mkdir -p "$work/out"
rustc --edition 2024 --crate-name build_script_build -o "$work/build-script" "$root/build.rs"
env -u GPUFHE_CUDA_ARCHS -u GPUFHE_CUDA_LINEINFO \
  OUT_DIR="$work/out" CARGO_MANIFEST_DIR="$root" NUM_JOBS="$(nproc)" \
  "$work/build-script" --package-kernels "$root/kernels"
rm -rf "$work"
echo "kernels/: $(du -sb "$root/kernels" | cut -f1) bytes"
