//! The build of a checkout installing the CUDA compiler itself: on a GPU server
//! with only the NVIDIA driver, `git clone` then `cargo run --release --example
//! multi_gpu_batch_add` finds no compiler and no kernel images (those ship only in
//! the published package), so build.rs runs scripts/install-nvcc.sh (the one list
//! of the pinned CUDA 12.0 wheels) into `.cuda/` and compiles the kernels.
//!
//! Only when all of these hold ([`plan`]):
//! - the crate is a checkout: `.git` in its own folder (a published package has
//!   none, and one unpacked inside a checkout does not look above itself), and no
//!   `.cargo-ok` (cargo's mark on the sources it unpacks or checks out: a registry
//!   or git dependency never downloads at build time);
//! - `GPUFHE_NO_NVCC_INSTALL` is not `1`;
//! - an NVIDIA driver is present: `/proc/driver/nvidia/version` (Linux, containers
//!   included), `/usr/lib/wsl/lib/libcuda.so.1` (WSL 2), or the fake driver of
//!   scripts/fake-cuda.sh (`GPUFHE_FAKE_CUDA=1` and a `libcuda.so` in a folder of
//!   `LD_LIBRARY_PATH`), which CI uses to simulate such a server.
//!
//! build.rs asks only once it has found no compiler, so a build that has one reads
//! none of these variables (and cargo reruns nothing when they change).

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

/// The variable that turns the install off (`1`).
pub const OPT_OUT: &str = "GPUFHE_NO_NVCC_INSTALL";
/// The command a person runs to install the compiler.
pub const COMMAND: &str = "bash scripts/install-nvcc.sh";

/// The NVIDIA driver this build should install the compiler for (a description of
/// what was found), or `None` when it must not install. `env` reads a variable
/// (build.rs's also tells cargo to watch it); `system_root` is `/` but in tests.
pub fn plan(
    manifest_dir: &Path,
    system_root: &Path,
    env: &mut dyn FnMut(&str) -> Option<OsString>,
) -> Option<String> {
    if !manifest_dir.join(".git").exists() || manifest_dir.join(".cargo-ok").exists() {
        return None;
    }
    if env(OPT_OUT).is_some_and(|v| v == "1") {
        return None;
    }
    driver(system_root, env)
}

/// What shows an NVIDIA driver, if anything does.
fn driver(system_root: &Path, env: &mut dyn FnMut(&str) -> Option<OsString>) -> Option<String> {
    for path in ["proc/driver/nvidia/version", "usr/lib/wsl/lib/libcuda.so.1"] {
        if system_root.join(path).exists() {
            return Some(format!("/{path}"));
        }
    }
    if env("GPUFHE_FAKE_CUDA").is_some_and(|v| v == "1") {
        let dirs = env("LD_LIBRARY_PATH").unwrap_or_default();
        let fake = std::env::split_paths(&dirs).find(|d| d.join("libcuda.so").is_file());
        return fake.map(|d| format!("the fake driver in {}", d.display()));
    }
    None
}

/// Runs scripts/install-nvcc.sh `--for-build` (the compiler wheels into `.cuda/`,
/// through pip with its own settings: PyPI unless they name another index); `Err`
/// with the end of its output.
pub fn install(manifest_dir: &Path) -> Result<(), String> {
    let output = Command::new("bash")
        .arg(manifest_dir.join("scripts/install-nvcc.sh"))
        .arg("--for-build")
        .current_dir(manifest_dir)
        .output()
        .map_err(|e| format!("cannot run bash: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    let text = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.contains("as the 'root' user"))
        .collect();
    let tail = lines[lines.len().saturating_sub(2)..].join(" ");
    Err(format!("{tail} ({})", output.status))
}
