#!/bin/sh
# A RUSTC_WRAPPER that builds the fuzz targets for libFuzzer on a stable toolchain:
# gpufhe and this package get SanitizerCoverage instrumentation (the codegen
# options cargo fuzz passes, without its nightly-only sanitizer flags) and
# `--cfg fuzzing`; the other crates (tfhe-fft, rayon, ...) are built as usual,
# which keeps the build short. Used by fuzz/fuzz.sh.
rustc="$1"
shift
case " $* " in
*" --crate-name gpufhe "* | *" --crate-name gpufhe_fuzz "* | \
*" --crate-name safe_deserialize "* | *" --crate-name serde_bincode "* | \
*" --crate-name config_builder "* | *" --crate-name replay "* | *" --crate-name seed "*)
    exec "$rustc" "$@" --cfg fuzzing -Cpasses=sancov-module \
        -Cllvm-args=-sanitizer-coverage-level=4 \
        -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
        -Cllvm-args=-sanitizer-coverage-pc-table \
        -Cllvm-args=-sanitizer-coverage-trace-compares
    ;;
*) exec "$rustc" "$@" ;;
esac
