//! Tests that cannot run here: the `SKIPPED` line they print, and the GPU of the GPU
//! tests (device 0, or a skip). Test helpers, not the library's: each test binary
//! and bench that uses them names this file with `#[path]`.
#![allow(dead_code)]

/// Reports a skipped test: `SKIPPED <what> [<test name>]` on stderr, written through
/// [`std::io::Write`] rather than `println!`, because the test harness captures only
/// the `print!` family: the line then shows beside the results of `cargo test`
/// instead of being swallowed with a passing test's output.
pub fn report_skipped(what: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .map_or(String::new(), |name| format!(" [{name}]"));
    let line = format!("SKIPPED {what}{test}\n");
    // Nothing to do if stderr is closed.
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// Device 0 for GPU tests, or `None` after printing `SKIPPED (no CUDA device)` when
/// there is none. With `GPUFHE_REQUIRE_GPU=1` a missing device panics instead, so a
/// GPU machine cannot silently skip its tests.
#[cfg(feature = "gpu")]
pub fn gpu_for_tests() -> Option<gpufhe::backend::cuda::CudaDevice> {
    match gpufhe::backend::cuda::CudaDevice::new(0) {
        Ok(device) => Some(device),
        Err(e) => {
            if std::env::var("GPUFHE_REQUIRE_GPU").is_ok_and(|v| v == "1") {
                panic!("GPUFHE_REQUIRE_GPU=1 but no usable CUDA device: {e}");
            }
            report_skipped(format_args!("(no CUDA device): {e}"));
            None
        }
    }
}
