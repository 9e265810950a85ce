//! Bootstraps of `+`, `*`, `==` and `<` on 160, 256, 512 and 2048 bits, gpufhe
//! against TFHE-rs (its `pbs-stats` counter), on each library's default CPU
//! parameters (2 message + 2 carry bits, so both work on `bits / 2` blocks), and
//! the host memory gpufhe's `FheUint2048` `+` and `<` hold at their peak.
//!
//! gpufhe's counts come from its circuits (built as a CPU server key with
//! `RAYON_NUM_THREADS` threads builds them, without running: the same counts, and
//! the sequential bootstrap layers); the cells of the cheaper operations are also
//! run and checked against them. TFHE-rs's counts need a run: its products above
//! 256 bits are not run (hours on two cores), and say so.
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo run --release --example wide_counts
//!     cd compare && RAYON_NUM_THREADS=2 cargo run --release --example wide_counts -- memory
//!
//! The second form measures the memory alone, in a fresh process: a run that made
//! wide products first keeps that memory in the allocator, and the peak hides.

use gpufhe::backend::BlockInfo;
use gpufhe::integer::{self as gint, CmpOp};
use gpufhe::prelude::FheEncrypt as _;
use tfhe::prelude::*;

/// gpufhe's bootstraps and layers of `op` on `bits`-bit operands.
fn circuit_counts(bits: usize, op: &str, threads: usize) -> (usize, usize) {
    let params = gpufhe::shortint::DEFAULT_PARAMETERS;
    let mut c = gint::Circuit::new(params).with_parallelism(threads);
    let fresh = BlockInfo {
        degree: 3,
        noise_level: 1,
    };
    let a = c.add_input(&vec![fresh; bits / 2]).unwrap();
    let b = c.add_input(&vec![fresh; bits / 2]).unwrap();
    let out = match op {
        "+" => gint::add(&mut c, &a, &b).unwrap(),
        "*" => gint::mul(&mut c, &a, &b).unwrap(),
        "==" => vec![gint::eq(&mut c, &a, &b).unwrap()],
        _ => vec![gint::compare(&mut c, CmpOp::Lt, &a, &b).unwrap()],
    };
    c.add_output(&out);
    let stats = c.stats();
    (stats.bootstraps, stats.depth)
}

/// Peak resident memory since the last reset, in MiB (`VmHWM`).
fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(f64::NAN);
    kib / 1024.0
}

/// Resets the peak resident memory to the current one.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn main() {
    if std::env::args().any(|a| a == "memory") {
        let (gck, gsk) = gpufhe::generate_keys(gpufhe::ConfigBuilder::default());
        gpufhe::set_server_key(gsk);
        return memory(&gck);
    }
    let threads = rayon::current_num_threads();
    let (tck, tsk) = tfhe::generate_keys(tfhe::ConfigBuilder::default());
    tfhe::set_server_key(tsk);
    let (gck, gsk) = gpufhe::generate_keys(gpufhe::ConfigBuilder::default());
    gpufhe::set_server_key(gsk.clone());

    println!("{threads} threads; gpufhe: bootstraps (sequential layers)");
    println!();
    println!("| width | op | TFHE-rs 1.8.2 | gpufhe |");
    println!("|---|---|---|---|");
    macro_rules! width {
        ($bits:literal, $t:ty, $tclear:expr, $g:ty, $gclear:expr, $run_mul:expr) => {{
            let (ta, tb) = (<$t>::encrypt($tclear, &tck), <$t>::encrypt($tclear, &tck));
            let (ga, gb) = (<$g>::encrypt($gclear, &gck), <$g>::encrypt($gclear, &gck));
            for op in ["+", "*", "==", "<"] {
                let (bootstraps, layers) = circuit_counts($bits, op, threads);
                let tfhe = if op == "*" && !$run_mul {
                    "not run".to_string()
                } else {
                    tfhe::reset_pbs_count();
                    match op {
                        "+" => drop(&ta + &tb),
                        "*" => drop(&ta * &tb),
                        "==" => drop(ta.eq(&tb)),
                        _ => drop(ta.lt(&tb)),
                    }
                    tfhe::get_pbs_count().to_string()
                };
                if op != "*" || $run_mul {
                    // The circuit's count is what a run counts.
                    let before = gsk.pbs_count();
                    match op {
                        "+" => drop(&ga + &gb),
                        "*" => drop(&ga * &gb),
                        "==" => drop(gpufhe::prelude::FheEq::eq(&ga, &gb)),
                        _ => drop(gpufhe::prelude::FheOrd::lt(&ga, &gb)),
                    }
                    assert_eq!(
                        gsk.pbs_count() - before,
                        bootstraps as u64,
                        "{} {op}",
                        $bits
                    );
                }
                println!("| {} | {op} | {tfhe} | {bootstraps} ({layers}) |", $bits);
            }
        }};
    }
    width!(
        160,
        tfhe::FheUint160,
        tfhe::integer::U256::from(12345u64),
        gpufhe::FheUint160,
        gpufhe::integer::U256::from(12345u64),
        true
    );
    width!(
        256,
        tfhe::FheUint256,
        tfhe::integer::U256::from(12345u64),
        gpufhe::FheUint256,
        gpufhe::integer::U256::from(12345u64),
        true
    );
    width!(
        512,
        tfhe::FheUint512,
        tfhe::integer::U512::from(12345u64),
        gpufhe::FheUint512,
        gpufhe::integer::U512::from(12345u64),
        false
    );
    width!(
        2048,
        tfhe::FheUint2048,
        tfhe::integer::bigint::U2048::from(12345u64),
        gpufhe::FheUint2048,
        gpufhe::integer::U2048::from(12345u64),
        false
    );
}

/// Peak host memory of gpufhe's 2048-bit `+` and `<`.
fn memory(gck: &gpufhe::ClientKey) {
    // Peak host memory of gpufhe's 2048-bit `+` and `<` (one value: 1,024 blocks
    // of 2,049 words, 16.8 MB).
    let (x, y) = (
        gpufhe::FheUint2048::encrypt(gpufhe::integer::U2048::MAX, gck),
        gpufhe::FheUint2048::encrypt(gpufhe::integer::U2048::ONE, gck),
    );
    println!();
    for (what, op) in [("+", 0), ("<", 1)] {
        reset_peak();
        let base = peak_mib();
        match op {
            0 => drop(&x + &y),
            _ => drop(gpufhe::prelude::FheOrd::lt(&x, &y)),
        }
        println!(
            "FheUint2048 {what}: peak {:.1} MiB above the {:.1} MiB held before (inputs 2 x 16.8 MB)",
            peak_mib() - base,
            base
        );
    }
}
