//! SanitizerCoverage callbacks for the binaries that are not fuzz targets (the
//! replay runner, the corpus generator) in a build instrumented for libFuzzer
//! (`--cfg fuzzing`, see `rustc-sancov.sh`): libFuzzer provides them to the fuzz
//! targets; these binaries do not link it, and ignore coverage.

/// No-op callbacks, each `name(argument types)`.
macro_rules! ignore {
    ($($name:ident($($arg:ty),*);)*) => {$(
        #[no_mangle]
        extern "C" fn $name($(_: $arg),*) {}
    )*};
}

ignore! {
    __sanitizer_cov_8bit_counters_init(*mut u8, *mut u8);
    __sanitizer_cov_pcs_init(*const usize, *const usize);
    __sanitizer_cov_trace_pc_indir(usize);
    __sanitizer_cov_trace_switch(u64, *const u64);
    __sanitizer_cov_trace_cmp1(u8, u8);
    __sanitizer_cov_trace_cmp2(u16, u16);
    __sanitizer_cov_trace_cmp4(u32, u32);
    __sanitizer_cov_trace_cmp8(u64, u64);
    __sanitizer_cov_trace_const_cmp1(u8, u8);
    __sanitizer_cov_trace_const_cmp2(u16, u16);
    __sanitizer_cov_trace_const_cmp4(u32, u32);
    __sanitizer_cov_trace_const_cmp8(u64, u64);
}
