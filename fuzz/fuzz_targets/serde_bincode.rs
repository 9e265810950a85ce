//! libFuzzer target: [`gpufhe_fuzz::serde_bincode`].
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| gpufhe_fuzz::run_target("serde_bincode", data).unwrap());
