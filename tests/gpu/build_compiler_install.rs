//! When a build installs the CUDA compiler itself (build/compiler_install.rs): only
//! a checkout (never a registry or git dependency, never an unpacked package) on a
//! machine with an NVIDIA driver (or the fake one of scripts/fake-cuda.sh), unless
//! `GPUFHE_NO_NVCC_INSTALL=1`; which variables it reads; what a failed install
//! says. Needs no GPU and no network (the install runs a stand-in script). CI's
//! `gpu-server-clone` step runs the real install from a fresh clone (.ci/run).

#[path = "../../build/compiler_install.rs"]
mod compiler_install;

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

/// A folder of its own under the temporary directory, emptied.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpufhe-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A checkout (a `.git` in it) and a system root without a driver, under `root`.
fn checkout_and_system(root: &Path) -> (PathBuf, PathBuf) {
    let (checkout, system) = (root.join("checkout"), root.join("system"));
    fs::create_dir_all(checkout.join(".git")).unwrap();
    fs::create_dir_all(&system).unwrap();
    (checkout, system)
}

/// [`compiler_install::plan`] with the variables `vars`; its answer and the
/// variables it read, in order.
fn plan(
    checkout: &Path,
    system: &Path,
    vars: &[(&str, OsString)],
) -> (Option<String>, Vec<String>) {
    let vars: HashMap<&str, OsString> = vars.iter().cloned().collect();
    let mut read = Vec::new();
    let mut env = |var: &str| {
        read.push(var.to_string());
        vars.get(var).cloned()
    };
    let planned = compiler_install::plan(checkout, system, &mut env);
    (planned, read)
}

fn put(path: &Path) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, b"").unwrap();
}

#[test]
fn a_checkout_installs_only_with_a_driver() {
    let root = folder("install-driver");
    let (checkout, system) = checkout_and_system(&root);
    let (planned, read) = plan(&checkout, &system, &[]);
    assert_eq!(planned, None);
    assert_eq!(read, [compiler_install::OPT_OUT, "GPUFHE_FAKE_CUDA"]);
    put(&system.join("proc/driver/nvidia/version"));
    let (planned, _) = plan(&checkout, &system, &[]);
    assert_eq!(planned.as_deref(), Some("/proc/driver/nvidia/version"));
    // Turned off; `0` does not turn it off.
    let off = |value: &str| [(compiler_install::OPT_OUT, OsString::from(value))];
    assert_eq!(plan(&checkout, &system, &off("1")).0, None);
    assert!(plan(&checkout, &system, &off("0")).0.is_some());
    // WSL 2's driver library.
    fs::remove_dir_all(system.join("proc")).unwrap();
    put(&system.join("usr/lib/wsl/lib/libcuda.so.1"));
    let (planned, _) = plan(&checkout, &system, &[]);
    assert_eq!(planned.as_deref(), Some("/usr/lib/wsl/lib/libcuda.so.1"));
    // A worktree's `.git` is a file.
    fs::remove_dir_all(checkout.join(".git")).unwrap();
    put(&checkout.join(".git"));
    assert!(plan(&checkout, &system, &[]).0.is_some());
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn packages_never_install_and_read_no_variable() {
    let root = folder("install-package");
    let (checkout, system) = checkout_and_system(&root);
    put(&system.join("proc/driver/nvidia/version"));
    // Unpacked from a registry or checked out as a git dependency: cargo's mark.
    put(&checkout.join(".cargo-ok"));
    assert_eq!(plan(&checkout, &system, &[]), (None, Vec::new()));
    // A published package (no `.git`), also when unpacked inside a checkout.
    let package = checkout.join("target/package/gpufhe-0.1.0");
    fs::create_dir_all(&package).unwrap();
    assert_eq!(plan(&package, &system, &[]), (None, Vec::new()));
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_fake_driver_counts_when_selected_and_found() {
    let root = folder("install-fake");
    let (checkout, system) = checkout_and_system(&root);
    let fake = root.join("fake-cuda");
    let paths = std::env::join_paths([root.join("elsewhere"), fake.clone()]).unwrap();
    let selected = [
        ("GPUFHE_FAKE_CUDA", OsString::from("1")),
        ("LD_LIBRARY_PATH", paths.clone()),
    ];
    // Selected, but no library there.
    let (planned, read) = plan(&checkout, &system, &selected);
    assert_eq!(planned, None);
    assert_eq!(
        read,
        [
            compiler_install::OPT_OUT,
            "GPUFHE_FAKE_CUDA",
            "LD_LIBRARY_PATH"
        ]
    );
    put(&fake.join("libcuda.so"));
    let (planned, _) = plan(&checkout, &system, &selected);
    let expected = format!("the fake driver in {}", fake.display());
    assert_eq!(planned, Some(expected));
    // The library without GPUFHE_FAKE_CUDA=1 reports no device: no driver.
    let unselected = [("LD_LIBRARY_PATH", paths)];
    let (planned, read) = plan(&checkout, &system, &unselected);
    assert_eq!(planned, None);
    assert_eq!(read, [compiler_install::OPT_OUT, "GPUFHE_FAKE_CUDA"]);
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_failed_install_says_why_and_a_good_one_nothing() {
    let root = folder("install-run");
    let script = root.join("scripts/install-nvcc.sh");
    fs::create_dir_all(script.parent().unwrap()).unwrap();
    // Stands in for the real script: its argument, then pip's last words.
    fs::write(
        &script,
        "[ \"$1\" = --for-build ] || exit 9\n\
         echo 'WARNING: Running pip as the '\"'root'\"' user can result in broken permissions' >&2\n\
         echo 'ERROR: Could not find a version that satisfies the requirement' >&2\n\
         echo 'ERROR: No matching distribution found for nvidia-cuda-nvrtc-cu12==12.0.140' >&2\n\
         exit 1\n",
    )
    .unwrap();
    let err = compiler_install::install(&root).unwrap_err();
    assert!(err.starts_with("ERROR: Could not find a version"), "{err}");
    assert!(
        err.contains("No matching distribution found for nvidia-cuda-nvrtc-cu12"),
        "{err}"
    );
    assert!(err.contains("exit status: 1"), "{err}");
    assert!(!err.contains("root"), "{err}");
    fs::write(&script, "[ \"$1\" = --for-build ]\n").unwrap();
    assert_eq!(compiler_install::install(&root), Ok(()));
    // The command a person is told to run is the repository's script.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let named = compiler_install::COMMAND.trim_start_matches("bash ");
    assert!(repo.join(named).is_file(), "{named}");
    fs::remove_dir_all(&root).unwrap();
}
