//! libFuzzer target: [`gpufhe_fuzz::arrays::array_shapes`].
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gpufhe_fuzz::run_target("array_shapes", data).unwrap());
