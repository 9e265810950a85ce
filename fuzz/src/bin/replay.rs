//! The stable replay runner: every target over its corpus (`corpus/<target>/`, and
//! `corpus-large/<target>/` if `seed --large` made it), its saved findings
//! (`crashes/<target>/`, as they are) and deterministic mutations of each corpus
//! entry ([`gpufhe_fuzz::mutate`]), built with any toolchain.
//!
//! ```text
//! cargo run --release --bin replay -- [--fields N] [--random N] [--memory-limit-mb N]
//!     [--timeout-s N] [--artifacts DIR] [TARGET...]
//! ```
//!
//! The inputs run in a worker process (this binary with `--worker`) under a memory
//! limit (`ulimit -v`): a panic is caught per input, an abort (allocation failure)
//! or a hang ends the worker, and the runner starts a new one after that input. Each
//! finding is reported with its panic location and saved under the artifacts
//! folder; the exit status is 1 if there was any.

use gpufhe_fuzz::mutate::{fingerprint, plan, Budget, Mutation};
use gpufhe_fuzz::{run_target, TARGETS};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What the command line asks for.
struct Options {
    budget: Budget,
    memory_limit_mb: u64,
    timeout: Duration,
    artifacts: PathBuf,
    targets: Vec<String>,
}

fn parse_options(args: &[String]) -> Options {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut o = Options {
        budget: Budget {
            fields: 32,
            random: 32,
        },
        memory_limit_mb: 4096,
        timeout: Duration::from_secs(120),
        artifacts: root.join("artifacts/replay"),
        targets: Vec::new(),
    };
    let mut it = args.iter();
    let number = |v: Option<&String>, flag: &str| -> u64 {
        v.and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{flag} takes a number"))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--fields" => o.budget.fields = number(it.next(), arg) as usize,
            "--random" => o.budget.random = number(it.next(), arg) as usize,
            "--memory-limit-mb" => o.memory_limit_mb = number(it.next(), arg),
            "--timeout-s" => o.timeout = Duration::from_secs(number(it.next(), arg)),
            "--artifacts" => o.artifacts = PathBuf::from(it.next().expect("--artifacts DIR")),
            t if TARGETS.contains(&t) => o.targets.push(t.to_string()),
            other => panic!("unknown argument {other:?} (targets: {TARGETS:?})"),
        }
    }
    if o.targets.is_empty() {
        o.targets = TARGETS.iter().map(|t| t.to_string()).collect();
    }
    o
}

/// The inputs made of `file`: a saved finding as it is, a corpus entry and its
/// mutations.
fn plan_of(file: &Path, bytes: &[u8], budget: Budget) -> Vec<Mutation> {
    let saved = file
        .parent()
        .and_then(Path::parent)
        .and_then(Path::file_name);
    if saved.is_some_and(|dir| dir == "crashes") {
        vec![Mutation::Original]
    } else {
        plan(bytes, budget)
    }
}

/// The inputs of `target`: its corpus and its saved findings (with, for
/// `safe_deserialize`, the crafted ones, [`gpufhe_fuzz::crafted`]), in name order.
fn entries(target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["corpus", "corpus-large", "crashes"] {
        if let Ok(read) = std::fs::read_dir(root.join(dir).join(target)) {
            files.extend(read.flatten().map(|e| e.path()).filter(|p| p.is_file()));
        }
    }
    if target == "safe_deserialize" {
        let crashes = root.join("crashes").join(target);
        files.extend(gpufhe_fuzz::crafted::NAMES.map(|name| crashes.join(name)));
    }
    files.sort();
    files
}

/// The bytes of input `file`: a crafted one made by code, or the file's.
fn read_entry(file: &Path) -> Vec<u8> {
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    gpufhe_fuzz::crafted::crafted(name)
        .unwrap_or_else(|| std::fs::read(file).expect("a readable corpus file"))
}

/// The input at (`file`, `mutation`), with the mutation's description.
fn input(files: &[PathBuf], budget: Budget, file: usize, mutation: usize) -> (String, Vec<u8>) {
    let bytes = read_entry(&files[file]);
    let m = plan_of(&files[file], &bytes, budget)[mutation];
    (format!("{} {m:?}", files[file].display()), m.apply(&bytes))
}

/// The panic of the input being run, as `location: message`.
static PANIC: Mutex<Option<String>> = Mutex::new(None);

/// The worker: runs `target` from (`file`, `mutation`) on, printing `RUN f m` before
/// each input, `PANIC f m what` after a panic, and `DONE` at the end.
fn worker(target: &str, budget: Budget, start: (usize, usize)) {
    std::panic::set_hook(Box::new(|info| {
        let location = info.location().map(|l| l.to_string()).unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("(no message)");
        *PANIC.lock().unwrap() = Some(format!("{location}: {message}").replace('\n', " "));
    }));
    gpufhe_fuzz::keys::keys(); // Made once, outside any input.
    let files = entries(target);
    let mut out = std::io::stdout().lock();
    for (f, file) in files.iter().enumerate().skip(start.0) {
        let bytes = read_entry(file);
        let first = if f == start.0 { start.1 } else { 0 };
        for (m, mutation) in plan_of(file, &bytes, budget)
            .into_iter()
            .enumerate()
            .skip(first)
        {
            let data = mutation.apply(&bytes);
            writeln!(out, "RUN {f} {m}")
                .and_then(|()| out.flush())
                .unwrap();
            if std::panic::catch_unwind(|| run_target(target, &data)).is_err() {
                let what = PANIC.lock().unwrap().take().unwrap_or_default();
                writeln!(out, "PANIC {f} {m} {what}").unwrap();
            }
        }
    }
    writeln!(out, "DONE").unwrap();
}

/// A finding: where it happened and the inputs that show it.
#[derive(Default)]
struct Finding {
    inputs: Vec<String>,
    saved: Vec<PathBuf>,
}

/// The runner's findings, by target and what happened (panic location and message,
/// or how the worker ended).
#[derive(Default)]
struct Findings(BTreeMap<(String, String), Finding>);

impl Findings {
    /// Records a finding, saving its input (the first three of each kind).
    fn add(&mut self, o: &Options, target: &str, what: String, label: String, data: &[u8]) {
        eprintln!("FINDING {target}: {what}\n  input: {label}");
        let finding = self.0.entry((target.to_string(), what)).or_default();
        let dir = o.artifacts.join(target);
        let path = dir.join(format!("crash-{:016x}", fingerprint(data)));
        if finding.saved.len() < 3 && !finding.saved.contains(&path) {
            std::fs::create_dir_all(&dir)
                .and_then(|()| std::fs::write(&path, data))
                .expect("the artifacts folder is writable");
            finding.saved.push(path);
        }
        finding.inputs.push(label);
    }
}

/// Runs `target` in workers until every input has run; returns the number of inputs.
fn run(o: &Options, target: &str, findings: &mut Findings) -> usize {
    let files = entries(target);
    let exe = std::env::current_exe().expect("the runner's path");
    let (mut start, mut count) = ((0, 0), 0);
    loop {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v \"$1\" && shift && exec \"$@\"")
            .arg("sh")
            .arg((o.memory_limit_mb * 1024).to_string())
            .arg(&exe)
            .args(["--worker", target])
            .args([start.0.to_string(), start.1.to_string()])
            .args(["--fields", &o.budget.fields.to_string()])
            .args(["--random", &o.budget.random.to_string()])
            .stdout(Stdio::piped())
            .spawn()
            .expect("a worker starts");
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap_or_default()).is_err() {
                    break;
                }
            }
        });
        let mut last = None;
        let mut done = false;
        let timed_out = loop {
            match rx.recv_timeout(o.timeout) {
                Ok(line) => {
                    let mut parts = line.splitn(4, ' ');
                    let kind = parts.next().unwrap_or_default();
                    let at =
                        (|| Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?)))();
                    match (kind, at) {
                        ("RUN", Some(at)) => {
                            last = Some(at);
                            count += 1;
                        }
                        ("PANIC", Some((f, m))) => {
                            let (label, data) = input(&files, o.budget, f, m);
                            let what = parts.next().unwrap_or_default().to_string();
                            findings.add(o, target, what, label, &data);
                        }
                        ("DONE", _) => done = true,
                        _ => {}
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break false,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    break true;
                }
            }
        };
        let status = child.wait().expect("the worker ends");
        if done && status.success() {
            return count;
        }
        // A worker that ended before saying so was at its first input.
        let (f, m) = last.unwrap_or(start);
        let what = if timed_out {
            format!("no result in {} s (a hang)", o.timeout.as_secs())
        } else if let Some(signal) = status.signal() {
            format!("the process was killed by signal {signal} (an abort: see stderr)")
        } else {
            format!("the process exited with {status}")
        };
        let (label, data) = input(&files, o.budget, f, m);
        findings.add(o, target, what, label, &data);
        start = (f, m + 1);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--worker") {
        let o = parse_options(&args[4..]);
        let at = |i: usize| args[i].parse().expect("a worker position");
        worker(&args[1], o.budget, (at(2), at(3)));
        return;
    }
    let o = parse_options(&args);
    let mut findings = Findings::default();
    for target in &o.targets {
        let t0 = Instant::now();
        let files = entries(target).len();
        let count = run(&o, target, &mut findings);
        println!(
            "replay {target}: {files} entries, {count} inputs, {:.1} s",
            t0.elapsed().as_secs_f64()
        );
    }
    if findings.0.is_empty() {
        println!("replay: no findings");
        return;
    }
    println!("replay: {} distinct findings", findings.0.len());
    for ((target, what), finding) in &findings.0 {
        println!("- {target}: {what}");
        println!(
            "  {} inputs, e.g. {}",
            finding.inputs.len(),
            finding.inputs[0]
        );
        for path in &finding.saved {
            println!("  saved: {}", path.display());
        }
    }
    std::process::exit(1);
}

#[cfg(fuzzing)]
#[path = "../sancov_stubs.rs"]
mod sancov_stubs;
