//! SanitizerCoverage callbacks for the binaries that are not fuzz targets (the
//! replay runner, the corpus generator) in a build instrumented for libFuzzer
//! (`--cfg fuzzing`, see `rustc-sancov.sh`): libFuzzer provides them to the fuzz
//! targets; these binaries do not link it, and ignore coverage.

#[no_mangle]
extern "C" fn __sanitizer_cov_8bit_counters_init(_: *mut u8, _: *mut u8) {}
#[no_mangle]
extern "C" fn __sanitizer_cov_pcs_init(_: *const usize, _: *const usize) {}
#[no_mangle]
extern "C" fn __sanitizer_cov_trace_cmp1(_: u8, _: u8) {}
#[no_mangle]
extern "C" fn __sanitizer_cov_trace_cmp2(_: u16, _: u16) {}
#[no_mangle]
extern "C" fn __sanitizer_cov_trace_cmp4(_: u32, _: u32) {}
#[no_mangle]
extern "C" fn __sanitizer_cov_trace_cmp8(_: u64, _: u64) {}
#[no_mangle]
extern "C" fn __sanitizer_cov_trace_const_cmp1(_: u8, _: u8) {}
#[no_mangle]
extern "C" fn __sanitizer_cov_trace_const_cmp2(_: u16, _: u16) {}
#[no_mangle]
extern "C" fn __sanitizer_cov_trace_const_cmp4(_: u32, _: u32) {}
#[no_mangle]
extern "C" fn __sanitizer_cov_trace_const_cmp8(_: u64, _: u64) {}
#[no_mangle]
extern "C" fn __sanitizer_cov_trace_switch(_: u64, _: *const u64) {}
#[no_mangle]
extern "C" fn __sanitizer_cov_trace_pc_indir(_: usize) {}
