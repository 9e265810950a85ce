//! libFuzzer target: [`gpufhe_fuzz::config_builder`].
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gpufhe_fuzz::run_target("config_builder", data).unwrap());
