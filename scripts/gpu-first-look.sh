#!/usr/bin/env bash
# The first look at a GPU, on a machine without Rust: one command under one deadline.
# scripts/gpu-pack.sh copies this script to .gpu/first-look.sh next to what it runs
# (the gpu_first_look example, the GPU test binaries, the summary script and the
# kernel model). On the GPU machine, from the directory .gpu was unpacked in:
#
#   bash .gpu/first-look.sh
#
# Steps, most important first; each gets at most its share of the time left:
#   a. device, driver, kernels' CUDA release; whether compute-sanitizer and ncu run
#   b. 1,024 default-parameter KS+PBS, classical and multi-bit: decryption, output
#      noise against the model, results against the CPU
#   c. FheUint64 add, mul, eq, lt, &, <<, >>, / on both parameter sets against the
#      clear values and the CPU, and every high-level operation test on a GPU key
#   d. speed: one KS+PBS, batches of KS+PBS, FheUint64 addition alone and batched;
#      the bootstrap kernels side by side on one batch of 4,096 (one block, one
#      cluster per bootstrap: PBS/s of each) and the one Auto takes after the
#      calibration timed them
#   e. the multi-GPU guide's program, 100 additions per GPU, 1 to 16 streams per GPU,
#      and 160 confidential transfers of each of the 3 variants (examples/confidential_transfers.rs)
#   f. every GPU test (GPUFHE_REQUIRE_GPU=1)
#   g. compute-sanitizer memcheck, racecheck, synccheck and initcheck (kernels
#      JIT-compiled from PTX with line information, so reports name source lines)
#   h. Nsight Compute over the bootstrap kernels
#   i. the failure-rate run on the time left
# After every step it rewrites $OUT/summary.md (the verdict, a table of the key
# numbers measured next to modelled, then each step) and $OUT/logs.tgz (every log),
# so that a run cut short still returns what it did.
#
# Settings: OUT (default .gpu/out), GPUFHE_FIRST_LOOK_DEADLINE (seconds, default 540),
# CUDA_HOME (where compute-sanitizer and ncu are looked for after PATH).
# GPUFHE_FIRST_LOOK_FAKE=1: the dry run on the fake CUDA driver packed by
# `scripts/gpu-pack.sh --fake` (small insecure parameters, a few quick tests; its
# numbers mean nothing): CI runs it to test this plumbing.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$here/out}"
fake="${GPUFHE_FIRST_LOOK_FAKE:-0}"
# Kept for the last summary and archive.
reserve=10
# A step that is a function of this script runs as `first-look.sh --run FUNCTION`
# (under `timeout`), with the deadline and the folders of the run that started it.
if [ "${1:-}" = --run ]; then
  deadline="$GPUFHE_FIRST_LOOK_END" work="$GPUFHE_FIRST_LOOK_WORK"
else
  deadline=$(($(date +%s) + ${GPUFHE_FIRST_LOOK_DEADLINE:-540}))
  work="$(mktemp -d)"
  export GPUFHE_FIRST_LOOK_END="$deadline" GPUFHE_FIRST_LOOK_WORK="$work"
  trap 'rm -rf "$work"' EXIT
fi
logs="$work/logs"
mkdir -p "$out" "$logs"
out="$(cd "$out" && pwd)"  # the steps run in $work
look="$here/bin/gpu_first_look"
tests="$here/bin/tests"
small=()
if [ "$fake" = 1 ]; then
  small=(--small)
  if [ ! -f "$here/fake-cuda/libcuda.so" ]; then
    echo "first-look: GPUFHE_FIRST_LOOK_FAKE=1 but no $here/fake-cuda/libcuda.so (gpu-pack.sh --fake)" >&2
    exit 2
  fi
  export LD_LIBRARY_PATH="$here/fake-cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" GPUFHE_FAKE_CUDA=1
  export GPUFHE_FAKE_CUDA_DEVICES="${GPUFHE_FAKE_CUDA_DEVICES:-2}"
fi
export GPUFHE_REQUIRE_GPU=1
cd "$work" || exit 2  # what the programs write lands here

left() { echo $((deadline - $(date +%s))); }

# The summary and the archive, rewritten in place.
publish() {
  local model=()
  [ -f "$here/kernel-model.json" ] && model=("$here/kernel-model.json")
  if python3 "$here/gpu_acceptance.py" first-look "$logs" "${model[@]}" > "$out/summary.md.tmp"; then
    mv "$out/summary.md.tmp" "$out/summary.md"
  else
    { echo "# gpufhe first look: the summary script failed (raw lines)"; cat "$logs"/*.rc; } \
      > "$out/summary.md"
  fi
  tar -C "$work" -czf "$out/logs.tgz.tmp" logs && mv "$out/logs.tgz.tmp" "$out/logs.tgz"
}

# step NAME CAP COMMAND...: runs it for at most CAP seconds and the time left;
# output in logs/NAME.log, `rc=N seconds=S budget=B` in logs/NAME.rc (rc 124: cut
# at its budget; 125: not started, no time left), then publishes.
step() {
  local name="$1" cap="$2" budget start rc
  shift 2
  budget=$(($(left) - reserve))
  [ "$budget" -gt "$cap" ] && budget="$cap"
  if [ "$budget" -lt 5 ]; then
    echo "rc=125 seconds=0 budget=$budget" > "$logs/$name.rc"
    publish
    return
  fi
  echo "[$(date +%T)] $name ($budget s): $*" >&2
  start=$(date +%s)
  timeout -k 5 "$budget" "$@" > "$logs/$name.log" 2>&1
  rc=$?
  echo "rc=$rc seconds=$(($(date +%s) - start)) budget=$budget" > "$logs/$name.rc"
  publish
}

# The first of: PATH, $CUDA_HOME/bin, /usr/local/cuda*/bin, Nsight Compute's folders.
find_tool() {
  local c
  for c in "$(command -v "$1" || true)" "${CUDA_HOME:-/usr/local/cuda}/bin/$1" \
    /usr/local/cuda*/bin/"$1" /opt/nvidia/nsight-compute/*/"$1"; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}

# a. The machine, and whether the profilers can run on it (some H200 hosts refuse
# them: "Device not supported", "LibraryNotLoaded").
environment() {
  echo "started $(date -u +%FT%TZ) on $(hostname)"
  [ "$fake" = 1 ] && echo "FAKE CUDA DRIVER (GPUFHE_FIRST_LOOK_FAKE=1): no GPU ran, timings mean nothing"
  if command -v nvidia-smi > /dev/null; then
    echo "nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm \
      --format=csv,noheader 2>&1 | paste -sd ';')"
  else
    echo "nvidia-smi: not found"
  fi
  [ -f "$here/manifest.txt" ] && sed -n 's/^\(commit\|built\|kernels\): /pack \1: /p' "$here/manifest.txt"
  local tool path
  for tool in compute-sanitizer ncu; do
    if ! path="$(find_tool "$tool")"; then
      echo "TOOL $tool missing"
      continue
    fi
    local trial=("$path" --tool memcheck --error-exitcode 97 "$look" device)
    [ "$tool" = ncu ] && trial=("$path" "$look" device)
    if timeout 60 "${trial[@]}" > "$logs/trial-$tool.txt" 2>&1 \
      && ! grep -qE "Device not supported|LibraryNotLoaded|ERR_NVGPUCTRPERM" "$logs/trial-$tool.txt"; then
      echo "TOOL $tool works ($path)"
    else
      echo "TOOL $tool cannot run here: $(grep -m1 -E 'Error|ERROR|not supported|LibraryNotLoaded' \
        "$logs/trial-$tool.txt" | cut -c1-160)"
    fi
  done
}

tool_works() { grep -q "^TOOL $1 works" "$logs/environment.log" 2> /dev/null; }

sanitize() {
  local sanitizer tool rc=0
  sanitizer="$(find_tool compute-sanitizer)" || return 0
  # PTX with line information, JIT-compiled by the driver: reports name source lines.
  export GPUFHE_CUDA_IMAGE=ptx
  for tool in memcheck racecheck synccheck initcheck; do
    echo "=== $tool"
    # Small parameters, then one N = 2048 shape (the default parameters' bootstrap).
    "$sanitizer" --tool "$tool" --error-exitcode 97 --print-limit 20 "$tests/gpu" \
      --test-threads=1 cuda_lwe_add:: cuda_keyswitch::batched_keyswitch_is_bit_identical_to_the_cpu \
      cuda_bootstrap::bootstrap_of_one_and_of_a_partial_batch \
      cuda_bootstrap::bootstrap_shapes_and_decompositions \
      cuda_backend::steps_give_the_cpu_results_and_bookkeeping || rc=1
    if [ "$fake" != 1 ]; then
      "$sanitizer" --tool "$tool" --error-exitcode 97 --print-limit 20 "$look" bootstrap \
        --count 64 --classical || rc=1
    fi
  done
  return "$rc"
}

ncu_step() {
  local ncu metrics
  ncu="$(find_tool ncu)" || return 0
  "$ncu" --query-metrics > "$logs/ncu-query-metrics.txt" 2>&1
  metrics="$(python3 "$here/gpu_acceptance.py" ncu-metrics "$logs/ncu-query-metrics.txt")"
  # The warm-up launches of each size are skipped: a batch of 4,096, then one alone.
  "$ncu" --kernel-name regex:bootstrap --launch-skip 1 --launch-count 3 --metrics "$metrics" \
    -f -o "$work/pbs" "$look" ncu --classical "${small[@]}" &&
    "$ncu" --import "$work/pbs.ncu-rep" --csv --page raw --print-units base > "$logs/ncu.csv"
}

# The GPU tests: binary, then libtest filters (the kernels' CPU emulation needs no
# GPU; the operation tests on GPU keys ran in step c).
gpu_tests() {
  local rc=0
  if [ "$fake" = 1 ]; then
    "$tests/gpu" cuda_lwe_add:: cuda_linear_combination:: || rc=1
    return "$rc"
  fi
  "$tests/gpu" --skip cuda_emulation:: --skip cuda_emulation_128:: --skip gpu_default_parameters:: \
    --skip gpu_multi_bit_default_parameters:: || rc=1
  "$tests/scheduler" gpu_selection:: scheduler_cost:: \
    stress::sixty_four_threads_with_transient_pools_on_four_gpus || rc=1
  "$tests/high_level" hostile_input:: tfhe_rs_guide:: || rc=1
  return "$rc"
}

operation_tests() {
  "$tests/gpu" gpu_default_parameters:: gpu_multi_bit_default_parameters::
}

if [ "${1:-}" = --run ]; then
  "$2"
  exit
fi
this="$here/$(basename "${BASH_SOURCE[0]}")"
if [ "$fake" = 1 ]; then
  # Emulated kernels: the fewest bootstraps that go through every path.
  count=16 integer=(--classical --ops add,bitand) speed=(--classical --seconds 2)
  guide=(--per-gpu 1 --streams 1,2)
  # A GPU of 4 SMs: the batch of 16 is then beyond one wave, where the calibration
  # compares the kernels.
  kernels=(env GPUFHE_FAKE_CUDA_MULTIPROCESSORS=4 "$look" kernels --small --classical --count 16
    --seconds 2)
else
  count=1024 integer=() speed=(--seconds 45) guide=(--per-gpu 100 --streams 1,2,4,8,16)
  kernels=("$look" kernels --count 4096 --seconds 40)
fi
step environment 90 bash "$this" --run environment
step bootstrap 90 "$look" bootstrap "${small[@]}" --count "$count"
step integer 60 "$look" integer "${small[@]}" "${integer[@]}"
# Noise squashing on a GPU key (the 128-bit bootstrap), classical keys.
step squash 60 "$look" squash "${small[@]}"
# Default parameters: too slow to emulate on the fake driver.
[ "$fake" = 1 ] || step operation-tests 90 bash "$this" --run operation_tests
step speed 70 "$look" speed "${small[@]}" "${speed[@]}"
step kernels 60 "${kernels[@]}"
step guide 60 "$look" guide "${small[@]}" "${guide[@]}"
# Confidential transfers, every variant, every balance checked (default parameters:
# too slow to emulate on the fake driver).
[ "$fake" = 1 ] || step transfers 60 "$here/bin/confidential_transfers" 160
step tests 120 bash "$this" --run gpu_tests
if tool_works compute-sanitizer; then step sanitize 120 bash "$this" --run sanitize; fi
if tool_works ncu; then step ncu 60 bash "$this" --run ncu_step; fi
# The time left, but for the key generation and the summary (5 s on the fake driver).
seconds=$(($(left) - reserve - 25 > 5 ? $(left) - reserve - 25 : 5))
[ "$fake" = 1 ] && seconds=5
step failure-rate 3600 "$look" failure-rate --classical "${small[@]}" --seconds "$seconds"
publish
echo "first-look: $out/summary.md" >&2
head -3 "$out/summary.md" >&2
grep -q '^\*\*Verdict: PASS' "$out/summary.md"
