//! Running one test of this binary in a child process. The tests of a layer share
//! one binary (and one process under `cargo test`); a test that measures the whole
//! process (its CPU time, its resident memory), or needs settings read once per
//! process, runs its body in a child of its own.
#![allow(dead_code)]

use std::process::Command;

/// The harness's name of the test `$name` of the calling module (`module::name`),
/// as `--exact` wants it.
macro_rules! test_path {
    ($name:literal) => {
        crate::child::qualified(module_path!(), $name)
    };
}
pub(crate) use test_path;

/// `name` under `module_path` (from `module_path!()`) without the binary's crate name.
pub fn qualified(module_path: &str, name: &str) -> String {
    match module_path.split_once("::") {
        Some((_, module)) => format!("{module}::{name}"),
        None => name.to_string(),
    }
}

/// The variable that names the test a child was started for.
const ALONE: &str = "GPUFHE_TEST_ALONE";

/// Whether to run the body of `test` (a [`test_path!`]) here: `true` in the child
/// started for it; in any other process, runs `test` in such a child, prints its
/// output, panics unless exactly that test ran and passed, and returns `false`.
pub fn run_alone(test: &str) -> bool {
    run_alone_with(test, &[])
}

/// [`run_alone`], the child with the variables `vars` set as well.
pub fn run_alone_with(test: &str, vars: &[(&str, &str)]) -> bool {
    run_alone_limited(test, vars, None)
}

/// [`run_alone_with`], the child also limited to `address_space_mib` MiB of
/// address space (`ulimit -v`) when given: what a machine with that much memory
/// can hold, without this machine running out.
pub fn run_alone_limited(
    test: &str,
    vars: &[(&str, &str)],
    address_space_mib: Option<u64>,
) -> bool {
    if std::env::var(ALONE).is_ok_and(|name| name == test) {
        return true;
    }
    let exe = std::env::current_exe().expect("the test executable");
    let mut command = match address_space_mib {
        Some(mib) => {
            let mut sh = Command::new("sh");
            sh.arg("-c")
                .arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", mib * 1024))
                .arg(exe);
            sh
        }
        None => Command::new(exe),
    };
    let output = command
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(ALONE, test)
        .envs(vars.iter().copied())
        .output()
        .expect("the test executable runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The test's own output, without the child's harness lines (a count of passed
    // tests here would count the test twice).
    let prefix = format!("test {test} ... ");
    for line in stdout.lines() {
        let line = line.strip_prefix(prefix.as_str()).unwrap_or(line);
        let harness =
            line == "ok" || line.starts_with("running ") || line.starts_with("test result:");
        if !harness && !line.trim().is_empty() {
            println!("{line}");
        }
    }
    eprint!("{stderr}");
    assert!(
        output.status.success() && stdout.contains("test result: ok. 1 passed"),
        "{test} in a process of its own failed:\n{stdout}{stderr}"
    );
    false
}
