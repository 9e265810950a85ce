//! libFuzzer target: [`gpufhe_fuzz::tfhe_rs::tfhe_rs_data`].
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gpufhe_fuzz::run_target("tfhe_rs_data", data).unwrap());
