//! Confidential token transfers (ERC-20 / ERC-7984 style balances), the workload
//! users of FHE on GPUs run: balances and amounts are `FheUint64`; a transfer moves
//! `amount` from one balance to another only if the sender has it, and nobody learns
//! whether it did.
//!
//! Three ways to write a transfer, TFHE-rs's two benchmark variants and the older
//! form of its first:
//!
//! - **whitepaper**: `ok = from >= amount`, `sent = ok ? amount : 0`
//!   (`ok.if_then_zero(&amount)`, one select against zero), then `from - sent` and
//!   `to + sent`;
//! - **no_cmux**: `ok = from >= amount`, `sent = amount * (ok as u64)`, then
//!   `from - sent` and `to + sent` (no select: the product by a 0/1 value, whose
//!   upper blocks are known zeros);
//! - **two_selects**: `from - amount` and `to + amount` kept only where `ok` (two
//!   selects on full balances: the most bootstraps).
//!
//! A batch of independent transfers runs as one call, `ServerKey::run_batch`, over
//! every worker of the key (every GPU's streams, or the CPU threads), with a
//! progress bar of bootstraps. Every new balance is decrypted and checked against
//! the clear transfer; transfers per second and bootstraps per transfer are printed
//! for each variant.
//!
//! Without a GPU the example says so and runs a small batch on the CPU.
//!
//! ```text
//! cargo run --release --example confidential_transfers            # 64 per GPU, or 2 on the CPU
//! cargo run --release --example confidential_transfers -- 200     # 200 transfers per variant
//! GPUFHE_EXAMPLE_TRANSFERS=200 cargo run --release --example confidential_transfers
//! ```

use gpufhe::prelude::*;
use gpufhe::{get_number_of_gpus, ClientKey, CompressedServerKey, ConfigBuilder, FheUint64};
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;
use std::time::{Duration, Instant};
#[path = "support/cli.rs"]
mod cli;
#[path = "support/transfers.rs"]
mod transfers;
use cli::next;
use transfers::{clear_transfer, Variant};

/// The environment variable that sets the number of transfers (the argument wins).
const TRANSFERS_VARIABLE: &str = "GPUFHE_EXAMPLE_TRANSFERS";
/// Transfers per GPU by default.
const DEFAULT_PER_GPU: usize = 64;
/// Transfers by default on the CPU (several seconds each on two cores).
const DEFAULT_ON_CPU: usize = 2;

/// A progress bar of bootstraps on stderr (hidden when stderr is not a terminal).
fn progress_bar(what: &str) -> ProgressBar {
    let style = ProgressStyle::with_template(
        "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} bootstraps (eta {eta})",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    let bar = ProgressBar::new(0)
        .with_style(style)
        .with_prefix(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

fn run() -> Result<(), String> {
    let gpus = get_number_of_gpus();
    let default = if gpus == 0 {
        DEFAULT_ON_CPU
    } else {
        DEFAULT_PER_GPU * gpus as usize
    };
    let count = cli::count(
        TRANSFERS_VARIABLE,
        default,
        "transfers",
        "confidential_transfers",
    )?;
    let client_key = ClientKey::generate(ConfigBuilder::default());
    let compressed = CompressedServerKey::new(&client_key);
    let server_key = if gpus == 0 {
        println!("No GPU is visible: running the transfers on the CPU.");
        compressed.decompress()
    } else {
        println!("{gpus} GPU(s) visible: one key on every GPU.");
        compressed
            .try_decompress_to_gpu()
            .map_err(|e| format!("decompressing the server key to the GPUs: {e}"))?
    };

    // Balances below 2^20 and amounts below 2^21: about half the transfers lack
    // the funds.
    let mut rng = 0x5851_f42d_4c95_7f2du64;
    let clear: Vec<(u64, u64, u64)> = (0..count)
        .map(|_| {
            let from = next(&mut rng) >> 44;
            let to = next(&mut rng) >> 44;
            (from, to, next(&mut rng) >> 43)
        })
        .collect();
    let encrypted: Vec<[FheUint64; 3]> = clear
        .iter()
        .map(|&(from, to, amount)| [from, to, amount].map(|v| FheUint64::encrypt(v, &client_key)))
        .collect();

    for variant in Variant::ALL {
        let bar = progress_bar(variant.name());
        let before = server_key.pbs_count();
        let start = Instant::now();
        let balances = server_key
            .run_batch_with_progress(
                &encrypted,
                |[from, to, amount]| variant.transfer(from, to, amount),
                |p| {
                    bar.set_length(p.bootstraps);
                    bar.set_position(p.bootstraps_done);
                },
            )
            .map_err(|e| format!("the {} batch failed: {e}", variant.name()))?;
        let seconds = start.elapsed().as_secs_f64();
        bar.finish_and_clear();
        let bootstraps = server_key.pbs_count() - before;
        let wrong = balances
            .iter()
            .zip(&clear)
            .filter(|((from, to), (f, t, a))| {
                let got: (u64, u64) = (from.decrypt(&client_key), to.decrypt(&client_key));
                got != clear_transfer(*f, *t, *a)
            })
            .count();
        println!(
            "{}: {count} transfers in {seconds:.3} s, {:.2} transfers/s, {} bootstraps per \
             transfer, {wrong} wrong balance pair(s)",
            variant.name(),
            count as f64 / seconds,
            bootstraps / count as u64,
        );
        if wrong > 0 {
            return Err(format!(
                "{wrong} transfer(s) of {} decrypt wrongly",
                variant.name()
            ));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("confidential_transfers: {e}");
            ExitCode::FAILURE
        }
    }
}
