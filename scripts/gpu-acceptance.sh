#!/usr/bin/env bash
# The GPU acceptance run, on a GPU machine without Rust. scripts/gpu-pack.sh copies
# this script to .gpu/run.sh next to the binaries it built; run it there:
#
#   bash .gpu/run.sh all                 # every phase below, in order
#   bash .gpu/run.sh tests [ENTRY...]    # GPU tests, GPUFHE_REQUIRE_GPU=1; an entry
#                                        # is "LOG BINARY [FILTER...]" in one word
#   bash .gpu/run.sh examples            # the GPU examples
#   bash .gpu/run.sh sanitize [TOOL...]  # compute-sanitizer memcheck, racecheck,
#                                        # synccheck, initcheck over quick GPU tests
#   bash .gpu/run.sh bench [BENCH...]    # the cuda_* criterion benches, short runs
#   bash .gpu/run.sh ncu                 # Nsight Compute over the bootstrap kernel
#
# Phases are meant to take about ten minutes each on one GPU (tests, sanitize and
# bench take names, to split them further). Every phase rewrites the one summary,
# $OUT/summary.md (OUT defaults to .gpu/out), from the logs of all the phases run
# so far (under $OUT/logs). A missing tool (compute-sanitizer, ncu) is a
# note in the summary, not a stop. Exit status: 1 if a command of the phases run
# failed or timed out, else 0.
#
# Settings: GPUFHE_ACCEPTANCE_TIMEOUT (seconds per command, default 300),
# GPUFHE_ACCEPTANCE_TEST_ARGS (libtest arguments for the tests phase, e.g.
# `--skip default_parameters`), CUDA_HOME (where compute-sanitizer and ncu are
# looked for after PATH; default /usr/local/cuda).
# Without a GPU: GPUFHE_ACCEPTANCE_FAKE=1 runs on the fake CUDA driver that
# `scripts/gpu-pack.sh --fake` packs (.gpu/fake-cuda/libcuda.so; scripts/fake-cuda.sh),
# a few quick tests only; the numbers then mean nothing.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$here/out}"
logs="$out/logs"
limit="${GPUFHE_ACCEPTANCE_TIMEOUT:-300}"
failed=0
mkdir -p "$logs"
cd "$out" || exit 2  # what the binaries write lands here

# The GPU tests: log name, test binary (one per layer, tests/<layer>/main.rs), libtest
# filters (the GPU modules; the kernels' CPU emulation needs no GPU).
gpu_tests=(
  "gpu gpu --skip cuda_emulation::"
  "scheduler scheduler gpu_selection:: scheduler_cost:: stress::sixty_four_threads_with_transient_pools_on_four_gpus"
  "high_level high_level hostile_input:: tfhe_rs_guide::"
)
# Quick GPU tests for the sanitizers (and the fake driver), in the same form.
quick=(
  "cuda_lwe_add gpu cuda_lwe_add::"
  "cuda_linear_combination gpu cuda_linear_combination::"
  "cuda_keyswitch gpu cuda_keyswitch::batched_keyswitch_is_bit_identical_to_the_cpu cuda_keyswitch::mismatched_keyswitch_lists_are_errors"
  "cuda_bootstrap gpu cuda_bootstrap::bootstrap_of_one_and_of_a_partial_batch cuda_bootstrap::bootstrap_shapes_and_decompositions"
  "cuda_backend gpu cuda_backend::steps_give_the_cpu_results_and_bookkeeping"
)

note() { echo "$1" | tee -a "$logs/notes.txt" >&2; }

# The first of: PATH, $CUDA_HOME/bin, /usr/local/cuda*/bin, Nsight Compute's folders.
find_tool() {
  local name="$1" c
  for c in "$(command -v "$name" || true)" "${CUDA_HOME:-/usr/local/cuda}/bin/$name" \
    /usr/local/cuda*/bin/"$name" /opt/nvidia/nsight-compute/*/"$name"; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}

# run DIR NAME COMMAND...: its output in DIR/NAME.log, `rc=N seconds=S` in DIR/NAME.rc.
run() {
  local dir="$logs/$1" name="$2" start rc
  shift 2
  mkdir -p "$dir"
  echo "[$(date +%T)] $name: $*" >&2
  start=$(date +%s)
  timeout -k 10 "$limit" "$@" > "$dir/$name.log" 2>&1
  rc=$?
  echo "rc=$rc seconds=$(( $(date +%s) - start ))" > "$dir/$name.rc"
  if [ "$rc" -ne 0 ]; then
    failed=1
    echo "  -> rc $rc (see $dir/$name.log)" >&2
  fi
  return 0
}

if [ "${GPUFHE_ACCEPTANCE_FAKE:-0}" = 1 ]; then
  fake="${GPUFHE_FAKE_CUDA_DIR:-$here/fake-cuda}"
  if [ ! -f "$fake/libcuda.so" ]; then
    echo "run.sh: GPUFHE_ACCEPTANCE_FAKE=1 but no $fake/libcuda.so (scripts/gpu-pack.sh --fake)" >&2
    exit 2
  fi
  export LD_LIBRARY_PATH="$fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" GPUFHE_FAKE_CUDA=1
fi
export GPUFHE_REQUIRE_GPU=1

environment() {
  [ -s "$logs/env.txt" ] && return
  {
    echo "started $(date -u +%FT%TZ) on $(hostname)"
    if [ "${GPUFHE_ACCEPTANCE_FAKE:-0}" = 1 ]; then
      echo "FAKE CUDA DRIVER (GPUFHE_ACCEPTANCE_FAKE=1): no GPU ran, timings mean nothing"
    fi
    if command -v nvidia-smi > /dev/null; then
      echo "nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm \
        --format=csv,noheader 2>&1 | paste -sd ';')"
    else
      echo "nvidia-smi: not found"
    fi
    [ -f "$here/manifest.txt" ] && sed -n 's/^\(commit\|built\|kernels\): /pack \1: /p' "$here/manifest.txt"
  } > "$logs/env.txt"
}

phase_tests() {
  local entries=("$@") entry words
  if [ ${#entries[@]} -eq 0 ]; then
    if [ "${GPUFHE_ACCEPTANCE_FAKE:-0}" = 1 ]; then
      entries=("${quick[@]:0:2}")
    else
      entries=("${gpu_tests[@]}")
    fi
  fi
  for entry in "${entries[@]}"; do
    read -r -a words <<< "$entry"
    # shellcheck disable=SC2086 # the libtest arguments are words
    run tests "${words[0]}" "$here/bin/tests/${words[1]}" "${words[@]:2}" \
      ${GPUFHE_ACCEPTANCE_TEST_ARGS:-}
  done
}

phase_examples() {
  if [ -x "$here/bin/examples/multi_gpu_batch_add" ]; then
    run examples multi_gpu_batch_add "$here/bin/examples/multi_gpu_batch_add"
  fi
  if [ -x "$here/bin/examples/offload_advisor" ]; then
    run examples offload_advisor "$here/bin/examples/offload_advisor" \
      --svg "$logs/examples/offload_advisor.svg"
  fi
}

phase_sanitize() {
  local tools=("$@") sanitizer tool entry words
  [ ${#tools[@]} -eq 0 ] && tools=(memcheck racecheck synccheck initcheck)
  if ! sanitizer="$(find_tool compute-sanitizer)"; then
    note "sanitize: compute-sanitizer not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda*/bin): skipped"
    return
  fi
  for tool in "${tools[@]}"; do
    for entry in "${quick[@]}"; do
      read -r -a words <<< "$entry"
      run sanitize "$tool--${words[0]}" "$sanitizer" --tool "$tool" --error-exitcode 97 \
        --print-limit 20 "$here/bin/tests/${words[1]}" "${words[@]:2}"
    done
  done
}

phase_bench() {
  local names=("$@") b
  if [ ${#names[@]} -eq 0 ]; then
    for b in "$here"/bin/benches/cuda_*; do names+=("$(basename "$b")"); done
  fi
  export CRITERION_HOME="$logs/bench/criterion"
  for b in "${names[@]}"; do
    run bench "$b" "$here/bin/benches/$b" --bench --noplot --warm-up-time 1 --measurement-time 2
  done
}

phase_ncu() {
  local ncu metrics filter name
  if ! ncu="$(find_tool ncu)"; then
    note "ncu: Nsight Compute (ncu) not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda*/bin, /opt/nvidia/nsight-compute): skipped"
    return
  fi
  mkdir -p "$logs/ncu"
  "$ncu" --query-metrics > "$logs/ncu/query-metrics.txt" 2>&1
  metrics="$(python3 "$here/acceptance.py" ncu-metrics "$logs/ncu/query-metrics.txt" 2>> "$logs/notes.txt")"
  if [ -z "$metrics" ]; then
    note "ncu: none of the wanted counters is known to this ncu (logs/ncu/query-metrics.txt): skipped"
    return
  fi
  # One profiled launch each: a large batch (the single-block kernel) and one
  # bootstrap alone (the cluster kernel where the GPU has clusters).
  for filter in "throughput/4096" "latency"; do
    name="pbs-${filter//\//-}"
    run ncu "$name" "$ncu" --kernel-name regex:programmable_bootstrap --launch-skip 1 \
      --launch-count 1 --metrics "$metrics" -f -o "$logs/ncu/$name" \
      "$here/bin/benches/cuda_pbs" --bench --noplot --warm-up-time 1 --measurement-time 1 \
      "^cuda/pbs/$filter\$"
    "$ncu" --import "$logs/ncu/$name.ncu-rep" --csv --page raw --print-units base \
      > "$logs/ncu/$name.csv" 2>> "$logs/ncu/$name.log"
  done
}

summarize() {
  local model=""
  [ -f "$here/kernel-model.json" ] && model="$here/kernel-model.json"
  if command -v python3 > /dev/null; then
    python3 "$here/acceptance.py" summary "$out" $model > "$out/summary.md.tmp" \
      && mv "$out/summary.md.tmp" "$out/summary.md"
  else
    { echo "# gpufhe GPU acceptance (no python3: raw lines)"; cat "$logs"/*.txt
      grep -rh -e "test result:" -e "ERROR SUMMARY" -e "RACECHECK SUMMARY" "$logs" || true
    } > "$out/summary.md"
  fi
  echo "summary: $out/summary.md" >&2
}

phase="${1:-}"
shift || true
environment
case "$phase" in
  tests) phase_tests "$@" ;;
  examples) phase_examples ;;
  sanitize) phase_sanitize "$@" ;;
  bench) phase_bench "$@" ;;
  ncu) phase_ncu ;;
  all) phase_tests; phase_examples; phase_sanitize; phase_bench; phase_ncu ;;
  *) sed -n '2,26p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
esac
summarize
exit "$failed"
