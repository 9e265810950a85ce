#!/usr/bin/env bash
# Packs what the first look at a GPU runs, on a machine without Rust, into .gpu/
# (gitignored): the gpu_first_look example and the test binaries with GPU tests
# (tests/gpu, tests/scheduler, tests/high_level; release builds, stripped: they load
# libcuda at run time), the command (.gpu/first-look.sh, from
# scripts/gpu-first-look.sh), its summary script, the static kernel model
# (.gpu/kernel-model.json, scripts/kernel-report.py --json) and a manifest.
#
#   scripts/gpu-pack.sh --archive      # then carry .gpu.tar.xz; on the GPU machine:
#                                      #   tar xJf .gpu.tar.xz && bash .gpu/first-look.sh
#   scripts/gpu-pack.sh --fake         # also the fake driver (GPUFHE_FIRST_LOOK_FAKE=1)
#   scripts/gpu-pack.sh --model PATH   # the kernel model from an earlier
#                                      # `scripts/kernel-report.sh --json PATH`
#   scripts/gpu-pack.sh --no-report    # without the kernel model
#   scripts/gpu-pack.sh --no-strip     # keeps the binaries' symbols
#   scripts/gpu-pack.sh --no-lineinfo  # the kernels as the tests built them (by default
#                                      # GPUFHE_CUDA_LINEINFO=1: their PTX names source
#                                      # lines to compute-sanitizer, a rebuild)
#
# The archive is single-threaded xz with a 256 MiB dictionary, which finds the
# kernel images every binary embeds: a few MiB (multi-threaded xz cuts the input
# into blocks and compresses each image again). It must stay under the 16 MiB a
# lent machine takes back and the 64 MiB it carries.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
fake=0 strip=1 report=1 archive=0 model="" lineinfo=1
while [ $# -gt 0 ]; do
  case "$1" in
    --fake) fake=1 ;;
    --no-strip) strip=0 ;;
    --no-report) report=0 ;;
    --no-lineinfo) lineinfo=0 ;;
    --archive) archive=1 ;;
    --model) model="${2:?--model takes a path}"; shift ;;
    *) sed -n '2,23p' "$0" >&2; exit 2 ;;
  esac
  shift
done
pack="$root/.gpu"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "gpu-pack: building the test binaries and the examples (release)" >&2
if [ "$lineinfo" = 1 ]; then export GPUFHE_CUDA_LINEINFO=1; fi
cargo test --release --no-run --message-format=json > "$tmp/build.json"

rm -rf "$pack"
mkdir -p "$pack/bin/tests"
# kind, name and path of each executable to pack, from cargo's JSON messages.
python3 - "$tmp/build.json" > "$tmp/list" <<'EOF'
import json, sys
TESTS = {"gpu", "scheduler", "high_level"}
for line in open(sys.argv[1]):
    if not line.startswith("{"):
        continue
    msg = json.loads(line)
    if msg.get("reason") != "compiler-artifact" or not msg.get("executable"):
        continue
    target = msg["target"]
    if target["kind"] == ["test"] and target["name"] in TESTS:
        print("tests/" + target["name"], msg["executable"])
    elif target["kind"] == ["example"] and target["name"] in ("gpu_first_look",
                                                                 "confidential_transfers"):
        print(target["name"], msg["executable"])
EOF
[ "$(wc -l < "$tmp/list")" -eq 5 ] || { echo "gpu-pack: expected 5 binaries:" >&2; cat "$tmp/list" >&2; exit 1; }
while read -r name exe; do
  cp "$exe" "$pack/bin/$name"
  if [ "$strip" = 1 ] && command -v strip > /dev/null; then strip "$pack/bin/$name"; fi
done < "$tmp/list"

cp scripts/gpu-first-look.sh "$pack/first-look.sh"
cp scripts/gpu_acceptance.py "$pack/gpu_acceptance.py"
if [ -n "$model" ]; then
  cp "$model" "$pack/kernel-model.json"
elif [ "$report" = 1 ]; then
  if scripts/kernel-report.sh --archs 90 --json "$pack/kernel-model.json" > "$tmp/report.txt" 2>&1; then
    echo "gpu-pack: kernel model in .gpu/kernel-model.json" >&2
  else
    echo "gpu-pack: the kernel report failed; the summary will lack the model:" >&2
    tail -5 "$tmp/report.txt" >&2
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
echo "gpu-pack: $(du -sh "$pack" | cut -f1) in .gpu/ ($(grep -c . "$tmp/list") binaries)" >&2
if [ "$archive" = 1 ]; then
  tar -C "$root" -cf - .gpu | xz -T1 -9 --lzma2=preset=9,dict=256MiB > "$root/.gpu.tar.xz"
  size=$(stat -c %s "$root/.gpu.tar.xz")
  echo "gpu-pack: $((size / 1024)) KiB in .gpu.tar.xz; on the GPU machine:" \
    "tar xJf .gpu.tar.xz && bash .gpu/first-look.sh" >&2
  if [ "$size" -gt $((16 << 20)) ]; then
    echo "gpu-pack: the archive is over 16 MiB" >&2
    exit 1
  fi
fi
