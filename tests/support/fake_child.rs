//! Runs one test of the current test binary again in a child process on the fake
//! CUDA driver, which reads its settings once per process (at cuInit): each driver
//! setting gets a process of its own.
#![allow(dead_code)]

use std::process::{Command, Output};

/// The fake driver's per-device settings, removed from every child's environment
/// so that only what a test sets reaches it.
pub const FAKE_SETTINGS: [&str; 11] = [
    "GPUFHE_FAKE_CUDA_DRIVER_VERSION",
    "GPUFHE_FAKE_CUDA_FAIL_LAUNCH",
    "GPUFHE_FAKE_CUDA_CC",
    "GPUFHE_FAKE_CUDA_USED_MIB",
    "GPUFHE_FAKE_CUDA_EXCLUSIVE",
    "GPUFHE_FAKE_CUDA_PROHIBITED",
    "GPUFHE_FAKE_CUDA_MEMORY_MIB",
    "GPUFHE_FAKE_CUDA_MULTIPROCESSORS",
    "GPUFHE_FAKE_CUDA_LOCAL_MEMORY",
    "GPUFHE_FAKE_CUDA_ORDER",
    "GPUFHE_FAKE_CUDA_TRACE",
];

/// Whether this process is the child started to run `test` (`child_variable` holds
/// its name).
pub fn is_child(child_variable: &str, test: &str) -> bool {
    std::env::var(child_variable).is_ok_and(|name| name == test)
}

/// Whether this process runs on the fake CUDA driver (`GPUFHE_FAKE_CUDA=1`), printing
/// a skip line that survives the test harness's capture otherwise.
pub fn on_fake_driver_or_skip() -> bool {
    let fake = std::env::var("GPUFHE_FAKE_CUDA").is_ok_and(|v| v == "1");
    if !fake {
        crate::skip::report_skipped(format_args!(
            "(needs the fake CUDA driver: scripts/fake-cuda.sh)"
        ));
    }
    fake
}

/// Runs `test` (exactly, with `extra_args`) in a child with `child_variable` set to
/// its name, `devices` fake GPUs, the `removed` variables and the fake's settings
/// unset, then `settings`; panics unless it ran one test and passed. Returns the
/// child's stdout and stderr.
pub fn run_passing_child(
    test: &str,
    child_variable: &str,
    devices: u32,
    extra_args: &[&str],
    removed: &[&str],
    settings: &[(&str, &str)],
) -> (String, String) {
    let mut command = Command::new(std::env::current_exe().expect("test executable"));
    command
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .args(extra_args)
        .env(child_variable, test)
        .env("GPUFHE_FAKE_CUDA_DEVICES", devices.to_string());
    for variable in FAKE_SETTINGS.iter().chain(removed) {
        command.env_remove(variable);
    }
    command.envs(settings.iter().copied());
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().expect("the test executable runs");
    let stdout = String::from_utf8_lossy(&stdout).into_owned();
    let stderr = String::from_utf8_lossy(&stderr).into_owned();
    assert!(
        status.success() && stdout.contains("1 passed"),
        "child {test} with {devices} GPU(s) and {settings:?} failed:\n{stdout}\n{stderr}"
    );
    (stdout, stderr)
}
