//! The CUDA compiler for a checkout on a GPU server: when a build from a git
//! checkout finds no CUDA compiler but an NVIDIA driver is present (the usual cloud
//! image: driver only), build.rs runs `scripts/install-nvcc.sh` itself, which
//! installs the pinned compiler wheels from PyPI into `.cuda/` (about 100 MB, once),
//! and the kernels are compiled. So the README's first command runs the example on
//! the GPU from a fresh clone, with no third command. Never from a published
//! package (no `.git`: it ships its kernel images and never downloads at build
//! time), never without a driver, and not when `GPUFHE_NO_NVCC_INSTALL=1`. Offline
//! or without python3's pip, a cargo warning names the command and the build takes
//! the CPU path.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The variable that turns the installation off.
pub const NO_INSTALL: &str = "GPUFHE_NO_NVCC_INSTALL";

/// The places a driver's `libcuda` is found: `LD_LIBRARY_PATH`, then the
/// distributions' library folders (and WSL's).
fn library_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = env::var_os("LD_LIBRARY_PATH")
        .map(|p| env::split_paths(&p).collect())
        .unwrap_or_default();
    for dir in [
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64",
        "/usr/lib",
        "/usr/local/nvidia/lib64",
        "/usr/lib/wsl/lib",
    ] {
        dirs.push(PathBuf::from(dir));
    }
    dirs
}

/// Why this machine looks like it has an NVIDIA driver (`None` if it does not):
/// the kernel module's version file, or a `libcuda.so.1` / `libcuda.so` (the fake
/// driver of scripts/fake-cuda.sh is one) in a library folder.
pub fn driver_present() -> Option<String> {
    let version = Path::new("/proc/driver/nvidia/version");
    if version.is_file() {
        return Some(version.display().to_string());
    }
    library_dirs().into_iter().find_map(|dir| {
        ["libcuda.so.1", "libcuda.so"]
            .iter()
            .map(|name| dir.join(name))
            .find(|path| path.is_file())
            .map(|path| path.display().to_string())
    })
}

/// Installs the pinned compiler into `manifest_dir/.cuda` when a build from a
/// checkout needs it (see the module docs). `Ok(true)` once installed, `Ok(false)`
/// when it does not apply, `Err` with the reason (for a cargo warning) when the
/// installation failed.
pub fn install_if_needed(manifest_dir: &Path) -> Result<bool, String> {
    // (LD_LIBRARY_PATH is not watched: the fake driver's runs change it, and a
    // rebuild each time would cost minutes; a driver installed later needs
    // `cargo clean -p gpufhe` or scripts/install-nvcc.sh.)
    println!("cargo:rerun-if-env-changed={NO_INSTALL}");
    if env::var(NO_INSTALL).is_ok_and(|v| v == "1") || !manifest_dir.join(".git").exists() {
        return Ok(false);
    }
    let Some(driver) = driver_present() else {
        return Ok(false);
    };
    let script = manifest_dir.join("scripts/install-nvcc.sh");
    if !script.is_file() {
        return Ok(false);
    }
    println!(
        "cargo:warning=gpufhe: an NVIDIA driver is present ({driver}) and no CUDA \
         compiler: installing the pinned compiler wheels into .cuda/ \
         (scripts/install-nvcc.sh; {NO_INSTALL}=1 skips this)"
    );
    let output = Command::new("bash")
        .arg(&script)
        .current_dir(manifest_dir)
        // Offline, fail in seconds rather than after pip's default retries.
        .env(
            "PIP_DEFAULT_TIMEOUT",
            env::var("PIP_DEFAULT_TIMEOUT").unwrap_or("15".into()),
        )
        .env("PIP_RETRIES", env::var("PIP_RETRIES").unwrap_or("1".into()))
        // This build runs now: the script need not make cargo rerun it.
        .env("GPUFHE_INSTALL_FROM_BUILD", "1")
        .output()
        .map_err(|e| format!("cannot run bash scripts/install-nvcc.sh: {e}"))?;
    if output.status.success() {
        println!("cargo:rerun-if-changed=.cuda/.gpufhe-pins");
        return Ok(true);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    Err(format!(
        "bash scripts/install-nvcc.sh failed ({}: {last}); run it yourself once online",
        output.status
    ))
}
