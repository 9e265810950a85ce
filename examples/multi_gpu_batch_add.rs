//! A large batch of encrypted 64-bit additions spread over every GPU: the example
//! of the TFHE-rs multi-GPU guide, ported. The server key is decompressed once per
//! GPU; the batch is cut into one chunk per GPU with `par_chunks`, and every rayon
//! worker calls `set_server_key(sks_vec[i].clone())` for its chunk's GPU, and each
//! addition leases one of that GPU's streams for its circuit (the key's fixed pool,
//! however many threads). A second variant bounds the workers to 4 per GPU (each
//! adding its share in sequence). A third does the same batch in one line with the
//! batch API: one key on every GPU (`decompress_to_gpu`) and
//! `run_batch(&pairs, |(a, b)| a + b)`, which splits the batch over the GPUs'
//! streams (and the CPU) by the key's cost model and runs each share as one
//! circuit. Every sum of every variant is checked by decryption; additions per
//! second are printed for each.
//!
//! Without a GPU the example says so and runs the same code on the CPU, with one
//! CPU key in place of the GPU keys and a small batch.
//!
//! Progress bars (on stderr) follow each variant: additions done for the first two,
//! bootstraps done for the batch (`run_batch_with_progress`). They hide themselves
//! when stderr is not a terminal; the results are printed on stdout.
//!
//! ```text
//! cargo run --release --example multi_gpu_batch_add            # 100 per GPU, or 4 on the CPU
//! cargo run --release --example multi_gpu_batch_add -- 1000    # 1000 additions in all
//! GPUFHE_EXAMPLE_BATCH_SIZE=1000 cargo run --release --example multi_gpu_batch_add
//! ```
//!
//! `GPUFHE_EXAMPLE_INSECURE_TEST_PARAMETERS=1` takes the insecure test parameters
//! instead of the default ones: for CI, whose fake CUDA driver emulates a
//! default-parameter bootstrap in about a second.

use gpufhe::prelude::*;
use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
use gpufhe::{
    get_number_of_gpus, set_server_key, ClientKey, CompressedServerKey, Config, ConfigBuilder,
    FheUint64, GpuIndex, ServerKey,
};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;
use std::time::{Duration, Instant};
#[path = "support/cli.rs"]
mod cli;
use cli::next;

/// The environment variable that sets the batch size (the argument wins).
const BATCH_SIZE_VARIABLE: &str = "GPUFHE_EXAMPLE_BATCH_SIZE";
/// The environment variable that takes the insecure test parameters (`1`).
const INSECURE_VARIABLE: &str = "GPUFHE_EXAMPLE_INSECURE_TEST_PARAMETERS";
/// Additions per GPU by default, as in the guide.
const DEFAULT_PER_GPU: usize = 100;
/// Additions by default on the CPU (about a second each on two cores).
const DEFAULT_ON_CPU: usize = 4;
/// CUDA streams (worker threads) per GPU in the second variant.
const NUM_STREAMS_PER_GPU: usize = 4;

/// A progress bar on stderr of `len` `unit`s for `what` (hidden when stderr is not
/// a terminal); it draws from the first `tick` on.
fn progress_bar(what: &str, len: u64, unit: &str) -> ProgressBar {
    let style = ProgressStyle::with_template(&format!(
        "{{prefix}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit} (eta {{eta}})"
    ))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::new(len)
        .with_style(style)
        .with_prefix(what.to_string())
}

/// Starts drawing `bar` every quarter of a second.
fn tick(bar: &ProgressBar) {
    bar.enable_steady_tick(Duration::from_millis(250));
}

/// Checks every sum by decryption; returns how many are wrong.
fn count_wrong(sums: &[FheUint64], left: &[u64], right: &[u64], key: &ClientKey) -> usize {
    sums.iter()
        .zip(left.iter().zip(right))
        .filter(|(sum, (a, b))| FheDecrypt::<u64>::decrypt(*sum, key) != a.wrapping_add(**b))
        .count()
}

/// The default configuration, or the insecure test parameters' if
/// [`INSECURE_VARIABLE`] is `1`; an invalid value is an error naming it.
fn config() -> Result<Config, String> {
    match std::env::var(INSECURE_VARIABLE).as_deref() {
        Err(std::env::VarError::NotPresent) | Ok("0") => Ok(ConfigBuilder::default().build()),
        Ok("1") => {
            println!("Insecure test parameters ({INSECURE_VARIABLE}=1): for tests only.");
            ConfigBuilder::default()
                .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
                .map(ConfigBuilder::build)
                .map_err(|e| e.to_string())
        }
        Ok(other) => Err(format!("{INSECURE_VARIABLE} must be 1 or 0, not {other:?}")),
        Err(e) => Err(format!("{INSECURE_VARIABLE}: {e}")),
    }
}

fn run() -> Result<(), String> {
    let num_gpus = get_number_of_gpus();
    let default = if num_gpus == 0 {
        DEFAULT_ON_CPU
    } else {
        DEFAULT_PER_GPU * num_gpus as usize
    };
    let batch_size = cli::count(
        BATCH_SIZE_VARIABLE,
        default,
        "additions",
        "multi_gpu_batch_add",
    )?;

    let config = config()?;

    let client_key = ClientKey::generate(config);
    let compressed_server_key = CompressedServerKey::new(&client_key);

    let sks_vec: Vec<ServerKey> = if num_gpus == 0 {
        println!("No GPU is visible: running the same batch on the CPU instead.");
        vec![compressed_server_key.decompress()]
    } else {
        println!("{num_gpus} GPU(s) visible: one server key per GPU.");
        (0..num_gpus)
            .map(|i| compressed_server_key.try_decompress_to_specific_gpu(GpuIndex::new(i)))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("decompressing the server key to the GPUs: {e}"))?
    };
    let num_keys = sks_vec.len();

    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let clear_left: Vec<u64> = (0..batch_size).map(|_| next(&mut rng)).collect();
    let clear_right: Vec<u64> = (0..batch_size).map(|_| next(&mut rng)).collect();
    let left_inputs = clear_left
        .iter()
        .map(|&v| FheUint64::encrypt(v, &client_key))
        .collect::<Vec<_>>();
    let right_inputs = clear_right
        .iter()
        .map(|&v| FheUint64::encrypt(v, &client_key))
        .collect::<Vec<_>>();
    let report = |what: &str, seconds: f64, bootstraps: u64| {
        println!(
            "{what}: {batch_size} FheUint64 additions in {seconds:.3} s, {:.1} additions/s \
             ({bootstraps} bootstraps)",
            batch_size as f64 / seconds
        );
    };
    let mut wrong = 0;

    // One chunk per GPU; every addition of a chunk on its own rayon task, each
    // setting its GPU's key (each addition leases a stream of that GPU's pool).
    let chunk_size = batch_size.div_ceil(num_keys);
    let bootstraps = |keys: &[ServerKey]| keys.iter().map(ServerKey::pbs_count).sum::<u64>();
    let bar = progress_bar("one task per addition", batch_size as u64, "additions");
    tick(&bar);
    let before = bootstraps(&sks_vec);
    let start = Instant::now();
    let sums: Vec<Vec<FheUint64>> = left_inputs
        .par_chunks(chunk_size)
        .zip(right_inputs.par_chunks(chunk_size))
        .enumerate()
        .map(|(i, (left_inputs_on_gpu_i, right_inputs_on_gpu_i))| {
            left_inputs_on_gpu_i
                .par_iter()
                .zip(right_inputs_on_gpu_i.par_iter())
                .map(|(left_input, right_input)| {
                    set_server_key(sks_vec[i].clone());
                    let sum = left_input + right_input;
                    bar.inc(1);
                    sum
                })
                .collect()
        })
        .collect();
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    report(
        "one task per addition",
        seconds,
        bootstraps(&sks_vec) - before,
    );
    let sums: Vec<FheUint64> = sums.into_iter().flatten().collect();
    wrong += count_wrong(&sums, &clear_left, &clear_right, &client_key);

    // At most NUM_STREAMS_PER_GPU workers (streams) per GPU, each adding its share
    // of the GPU's chunk one after the other.
    let what = format!("{NUM_STREAMS_PER_GPU} streams per device");
    let bar = progress_bar(&what, batch_size as u64, "additions");
    tick(&bar);
    let before = bootstraps(&sks_vec);
    let start = Instant::now();
    let sums: Vec<Vec<Vec<FheUint64>>> = left_inputs
        .par_chunks(chunk_size)
        .zip(right_inputs.par_chunks(chunk_size))
        .enumerate()
        .map(|(i, (left_inputs_gpu_i, right_inputs_gpu_i))| {
            let stream_chunk_size = left_inputs_gpu_i.len().div_ceil(NUM_STREAMS_PER_GPU);
            left_inputs_gpu_i
                .par_chunks(stream_chunk_size)
                .zip(right_inputs_gpu_i.par_chunks(stream_chunk_size))
                .map(|(left_inputs_chunk, right_inputs_chunk)| {
                    set_server_key(sks_vec[i].clone());
                    left_inputs_chunk
                        .iter()
                        .zip(right_inputs_chunk)
                        .map(|(left_input, right_input)| {
                            let sum = left_input + right_input;
                            bar.inc(1);
                            sum
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    report(&what, seconds, bootstraps(&sks_vec) - before);
    let sums: Vec<FheUint64> = sums.into_iter().flatten().flatten().collect();
    wrong += count_wrong(&sums, &clear_left, &clear_right, &client_key);
    for (i, key) in sks_vec.iter().enumerate() {
        let place = key
            .gpus()
            .first()
            .map_or("CPU".to_string(), |g| g.to_string());
        println!(
            "  key {i} ({place}): {} bootstraps in the two variants above",
            key.pbs_count()
        );
    }

    // The batch API: one key on every GPU and one call. The scheduler splits the
    // batch over the key's workers by its cost model, each share one circuit (one
    // bootstrap launch per layer). On the CPU, the CPU key does the same.
    let batch_key = if num_gpus == 0 {
        sks_vec[0].clone()
    } else {
        compressed_server_key
            .try_decompress_to_gpu()
            .map_err(|e| format!("decompressing the server key to every GPU: {e}"))?
    };
    let pairs: Vec<(&FheUint64, &FheUint64)> = left_inputs.iter().zip(&right_inputs).collect();
    // Its length (the batch's bootstraps) is known from the first report on.
    let bar = progress_bar("run_batch", 0, "bootstraps");
    let started = Once::new();
    let done = AtomicU64::new(0);
    let before = batch_key.pbs_count();
    let start = Instant::now();
    let sums = batch_key
        .run_batch_with_progress(
            &pairs,
            |&(left_input, right_input)| left_input + right_input,
            |p| {
                // Callbacks come from several threads: show the furthest point.
                let furthest = done
                    .fetch_max(p.bootstraps_done, Ordering::Relaxed)
                    .max(p.bootstraps_done);
                bar.set_length(p.bootstraps);
                bar.set_position(furthest);
                started.call_once(|| tick(&bar));
            },
        )
        .map_err(|e| format!("the batch of additions: {e}"))?;
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    report("run_batch", seconds, batch_key.pbs_count() - before);
    wrong += count_wrong(&sums, &clear_left, &clear_right, &client_key);

    if num_gpus > 0 {
        let stats = batch_key.stats();
        println!(
            "  batch key (on {} GPU(s)): {} circuits, {} bootstrap layers, {} bootstrap launches",
            batch_key.gpus().len(),
            stats.circuits,
            stats.bootstrap_layers,
            stats.bootstrap_launches
        );
    }
    if wrong > 0 {
        return Err(format!(
            "{wrong} of {} sums decrypt wrongly",
            3 * batch_size
        ));
    }
    println!("all {} sums decrypt correctly", 3 * batch_size);
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
