#!/usr/bin/env bash
# Fuzzing gpufhe on a stable toolchain (see the README's "Fuzzing" section).
#
#   fuzz/fuzz.sh ci                       build, replay the corpus with its
#                                         deterministic mutations and every saved
#                                         crash, then fuzz each target for
#                                         FUZZ_SECONDS (5) seconds (CI, every landing)
#   fuzz/fuzz.sh campaign [SECONDS]       the long run: the replay, then each target
#                                         for SECONDS (default 1800) seconds; run it
#                                         before a release and after changing a
#                                         parser, and commit what it finds as
#                                         regression inputs (fuzz/crashes/)
#   fuzz/fuzz.sh run TARGET [SECONDS] [libFuzzer flags...]
#                                         coverage-guided fuzzing of one target
#   fuzz/fuzz.sh replay [replay flags...] the stable replay runner only
#   fuzz/fuzz.sh seed [--new-key] [--large]
#                                         regenerate the corpus
#
# Targets: safe_deserialize, serde_bincode, config_builder, array_shapes,
# tfhe_rs_data. Every run is under a memory limit of FUZZ_MEMORY_MB (4096) MiB,
# so an allocation a small input should never make aborts visibly instead of
# exhausting the machine; new crash inputs go to fuzz/artifacts/<target>/. Exits
# non-zero on any finding. The build goes to FUZZ_TARGET_DIR (fuzz/target/libfuzzer);
# CI points it at the crate's own target directory, whose dependencies the fuzz
# build then reuses (fuzz/Cargo.toml).
set -euo pipefail
cd "$(dirname "$0")"

export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$PWD/target/libfuzzer}"
MEMORY_MB="${FUZZ_MEMORY_MB:-4096}"
BIN="$CARGO_TARGET_DIR/release"

build() {
    # Instrumented for libFuzzer by rustc-sancov.sh: no nightly toolchain needed.
    RUSTC_WRAPPER="$PWD/rustc-sancov.sh" cargo build --release --bins
}

# libFuzzer on TARGET for SECONDS, starting from the committed corpus (new inputs
# go to a scratch folder, so the repository stays clean).
fuzz_target() {
    local target="$1" seconds="$2"
    shift 2
    local scratch
    scratch="$(mktemp -d)"
    mkdir -p "artifacts/$target"
    local dirs=("$scratch" "corpus/$target")
    [ -d "corpus-large/$target" ] && dirs+=("corpus-large/$target")
    local status=0
    (
        ulimit -v $((MEMORY_MB * 1024))
        exec "$BIN/$target" "${dirs[@]}" -max_total_time="$seconds" \
            -rss_limit_mb="$MEMORY_MB" -timeout=60 -print_final_stats=1 \
            -artifact_prefix="artifacts/$target/" "$@" </dev/null
    ) || status=$?
    rm -rf "$scratch"
    if [ "$status" -ne 0 ]; then
        echo "fuzz: $target found a crash (saved under fuzz/artifacts/$target/)"
    fi
    return "$status"
}

# The replay (two runners at once: each runs its inputs one after the other in a
# worker process), then libFuzzer on every target for $1 seconds each.
replay_and_fuzz() {
    local failed=0 first second
    "$BIN/replay" --memory-limit-mb "$MEMORY_MB" safe_deserialize tfhe_rs_data &
    first=$!
    "$BIN/replay" --memory-limit-mb "$MEMORY_MB" serde_bincode config_builder array_shapes &
    second=$!
    wait "$first" || failed=1
    wait "$second" || failed=1
    for target in safe_deserialize serde_bincode config_builder array_shapes tfhe_rs_data; do
        fuzz_target "$target" "$1" || failed=1
    done
    return "$failed"
}

case "${1:-}" in
ci)
    cargo fmt -- --check
    build
    replay_and_fuzz "${FUZZ_SECONDS:-5}"
    ;;
campaign)
    build
    replay_and_fuzz "${2:-1800}"
    ;;
run)
    [ $# -ge 2 ] || { echo "usage: $0 run TARGET [SECONDS] [libFuzzer flags...]" >&2; exit 2; }
    target="$2"
    seconds="${3:-600}"
    shift $(($# < 3 ? $# : 3))
    build
    fuzz_target "$target" "$seconds" "$@"
    ;;
replay)
    shift
    build
    "$BIN/replay" --memory-limit-mb "$MEMORY_MB" "$@"
    ;;
seed)
    shift
    build
    "$BIN/seed" "$@"
    ;;
*)
    sed -n '2,23p' "$0" >&2
    exit 2
    ;;
esac
