//! libFuzzer target: [`gpufhe_fuzz::safe_deserialize_target`].
#![no_main]
libfuzzer_sys::fuzz_target!(
    |data: &[u8]| gpufhe_fuzz::run_target("safe_deserialize", data).unwrap()
);
