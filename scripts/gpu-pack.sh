#!/usr/bin/env bash
# Packs what a GPU machine without Rust needs for the acceptance run into .gpu/
# (gitignored): the GPU test binaries, the examples and the cuda_* bench binaries
# (release builds; they load libcuda at run time), the runner (.gpu/run.sh, from
# scripts/gpu-acceptance.sh) and its summary script, the static kernel model
# (.gpu/kernel-model.json, scripts/kernel-report.py --json) and a manifest.
#
#   scripts/gpu-pack.sh              # then copy .gpu/ over and run: bash .gpu/run.sh all
#   scripts/gpu-pack.sh --fake       # also packs the fake driver (GPUFHE_ACCEPTANCE_FAKE=1)
#   scripts/gpu-pack.sh --no-strip   # keeps the binaries' symbols (stripped by default:
#                                    # the pack stays small; kernels are not affected)
#   scripts/gpu-pack.sh --no-report  # without the kernel model (no compiler/nvdisasm)
#   scripts/gpu-pack.sh --archive    # also .gpu.tar.xz (about 12 MB; .gpu/ is ~140 MB):
#                                    # there, `tar xJf .gpu.tar.xz && bash .gpu/run.sh all`
#
# The test binaries packed are the layers with GPU tests (tests/gpu, tests/scheduler,
# tests/high_level); run.sh picks their GPU modules with libtest filters.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
fake=0 strip=1 report=1 archive=0
for arg in "$@"; do
  case "$arg" in
    --fake) fake=1 ;;
    --no-strip) strip=0 ;;
    --no-report) report=0 ;;
    --archive) archive=1 ;;
    *) sed -n '2,18p' "$0" >&2; exit 2 ;;
  esac
done
pack="$root/.gpu"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "gpu-pack: building the tests, examples and benches (release)" >&2
cargo test --release --no-run --message-format=json > "$tmp/tests.json"
cargo build --release --examples --benches --message-format=json > "$tmp/build.json"

rm -rf "$pack"
mkdir -p "$pack/bin/tests" "$pack/bin/examples" "$pack/bin/benches"
# kind, name and path of each executable to pack, from cargo's JSON messages.
python3 - "$tmp/tests.json" "$tmp/build.json" > "$tmp/list" <<'EOF'
import json, re, sys
GPU_TESTS = {"gpu", "scheduler", "high_level"}
def artifacts(path):
    for line in open(path):
        if not line.startswith("{"):
            continue
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            yield msg["target"], msg["executable"]
for target, exe in artifacts(sys.argv[1]):
    if target["kind"] == ["test"] and target["name"] in GPU_TESTS:
        print("tests", target["name"], exe)
for target, exe in artifacts(sys.argv[2]):
    if target["kind"] == ["example"]:
        print("examples", target["name"], exe)
    elif target["kind"] == ["bench"] and target["name"].startswith("cuda_"):
        print("benches", target["name"], exe)
EOF
while read -r kind name exe; do
  cp "$exe" "$pack/bin/$kind/$name"
  if [ "$strip" = 1 ] && command -v strip > /dev/null; then strip "$pack/bin/$kind/$name"; fi
done < "$tmp/list"

cp scripts/gpu-acceptance.sh "$pack/run.sh"
cp scripts/gpu_acceptance.py "$pack/acceptance.py"
if [ "$report" = 1 ]; then
  if scripts/kernel-report.sh --archs 90 --json "$pack/kernel-model.json" > "$pack/kernel-report.txt" 2>&1; then
    echo "gpu-pack: kernel model in .gpu/kernel-model.json" >&2
  else
    echo "gpu-pack: the kernel report failed (see .gpu/kernel-report.txt); the summary will lack the model" >&2
    rm -f "$pack/kernel-model.json"
  fi
fi
if [ "$fake" = 1 ]; then
  mkdir -p "$pack/fake-cuda"
  cp "$(scripts/fake-cuda.sh)/libcuda.so" "$pack/fake-cuda/"
fi

{
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!.gpu' || echo ' (modified)')"
  echo "built: $(date -u +%FT%TZ) with $(rustc --version)"
  if [ -f "$pack/kernel-model.json" ]; then
    echo "kernels: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["compiler"])' "$pack/kernel-model.json")"
  fi
  echo "files:"
  (cd "$pack" && find . -type f ! -name manifest.txt | sort | xargs sha256sum)
} > "$pack/manifest.txt"
echo "gpu-pack: $(du -sh "$pack" | cut -f1) in .gpu/ ($(grep -c . "$tmp/list") binaries); on the GPU machine: bash .gpu/run.sh all" >&2
if [ "$archive" = 1 ]; then
  tar -C "$root" -cf - .gpu | xz -T0 -6 > "$root/.gpu.tar.xz"
  echo "gpu-pack: $(du -h "$root/.gpu.tar.xz" | cut -f1) in .gpu.tar.xz" >&2
fi
