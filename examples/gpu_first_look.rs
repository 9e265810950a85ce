//! The first look at a real GPU: the measurements of `scripts/gpu-first-look.sh`
//! (packed as `.gpu/first-look.sh` by `scripts/gpu-pack.sh`), one step per call.
//! Each step prints what it found as `RESULT step=<step> key=value ...` lines on
//! stdout (values without spaces), which `scripts/gpu_first_look.py` turns into
//! the summary; progress goes to stderr. A wrong decryption, a noise far from the
//! model or an error ends the step with a failure status.
//!
//! ```text
//! gpu_first_look device                       GPUs, driver, kernels' CUDA release
//! gpu_first_look bootstrap [--count N]        N KS+PBS (1024) on one GPU, classical and
//!                                             multi-bit: every value decrypted, noise
//!                                             variance against the model, results
//!                                             against the CPU's
//! gpu_first_look integer [--ops add,mul,...]  FheUint64 add, mul, eq, lt, bitand, shl,
//!                                             shr, div (all by default) on a GPU key
//!                                             against the clear values and the CPU
//! gpu_first_look squash                      an FheUint64 and an FheBool squashed on a
//!                                             GPU key (classical), against the clear
//!                                             values and the CPU key, timed
//! gpu_first_look speed [--seconds S]          one KS+PBS alone, batches of KS+PBS, one
//!                                             FheUint64 addition, batched additions
//! gpu_first_look kernels [--count N] [--seconds S]
//!                                             the bootstrap kernels side by side on one
//!                                             batch of N (4096): one block, then one
//!                                             cluster per bootstrap (sm_90+), PBS/s of
//!                                             each, every value checked; then the
//!                                             kernel Auto takes after the calibration
//! gpu_first_look guide [--per-gpu N] [--streams 1,2,4,8,16]
//!                                             the multi-GPU guide's program at each
//!                                             number of streams per GPU, sums checked
//! gpu_first_look failure-rate --seconds S     default-parameter bootstraps of the
//!                                             noisiest inputs for S seconds
//! gpu_first_look ncu                          one batched and one single bootstrap,
//!                                             for Nsight Compute to profile
//!
//! options: --small (the insecure test parameters, for the fake driver's dry run),
//!          --classical or --multi-bit (one parameter set; both by default)
//! ```
//!
//! Without a GPU every step says so and fails.

use gpufhe::backend::cpu::CpuBackend;
use gpufhe::backend::cuda::{kernels_cuda_version, CudaBackend, CudaDevice};
use gpufhe::backend::{Backend, BlockExpr, Step, Table};
use gpufhe::core_crypto::decrypt_lwe_ciphertext;
use gpufhe::prelude::*;
use gpufhe::scheduler::{probe_gpus, SchedulerConfig};
use gpufhe::shortint::{
    Ciphertext, ClientKey, CompressedServerKey, ShortintParameters, DEFAULT_PARAMETERS,
    PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2, PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2,
    PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};
use gpufhe::{
    get_number_of_gpus, set_server_key, BinaryOp, ConfigBuilder, FheUint64, GpuIndex, ServerKey,
};
use rayon::prelude::*;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "support/first_look_kernels.rs"]
mod first_look_kernels;
use first_look_kernels::kernels;
#[path = "support/first_look_squash.rs"]
mod first_look_squash;
use first_look_squash::squash;

type Outcome = Result<(), String>;

/// The command line: the step, the parameter sets and the step's options.
struct Options {
    step: String,
    small: bool,
    sets: Vec<&'static str>,
    count: usize,
    seconds: f64,
    per_gpu: usize,
    streams: Vec<usize>,
    ops: Vec<String>,
}

fn options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let step = args
        .next()
        .ok_or("a step is needed (see the file's documentation)")?;
    let mut o = Options {
        step,
        small: false,
        sets: vec!["classical", "multi-bit"],
        count: 1024,
        seconds: 20.0,
        per_gpu: 100,
        streams: vec![1, 2, 4, 8, 16],
        ops: OPS.iter().map(|op| op.0.to_string()).collect(),
    };
    while let Some(arg) = args.next() {
        let mut value = |what: &str| args.next().ok_or(format!("{arg} takes {what}"));
        match arg.as_str() {
            "--small" => o.small = true,
            "--classical" => o.sets = vec!["classical"],
            "--multi-bit" => o.sets = vec!["multi-bit"],
            "--count" => o.count = number(&value("a count")?)?,
            "--per-gpu" => o.per_gpu = number(&value("a count")?)?,
            "--seconds" => {
                o.seconds = value("seconds")?
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0)
                    .ok_or("--seconds takes a positive number")?
            }
            "--ops" => {
                o.ops = value("a list like add,mul")?
                    .split(',')
                    .map(str::to_string)
                    .collect();
                if let Some(bad) = o
                    .ops
                    .iter()
                    .find(|op| !OPS.iter().any(|known| known.0 == *op))
                {
                    return Err(format!("unknown operation {bad:?}"));
                }
            }
            "--streams" => {
                o.streams = value("a list like 1,2,4")?
                    .split(',')
                    .map(number)
                    .collect::<Result<_, _>>()?
            }
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(o)
}

fn number(text: &str) -> Result<usize, String> {
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or(format!("{text:?} is not a positive number"))
}

/// Prints one result line: `RESULT step=<step> key=value ...`.
fn result(step: &str, fields: &[(&str, String)]) {
    let fields: String = fields
        .iter()
        .map(|(k, v)| format!(" {k}={}", v.replace(char::is_whitespace, "_")))
        .collect();
    println!("RESULT step={step}{fields}");
}

/// The shortint parameters of a set (`classical`, `multi-bit`), secure or small.
fn parameters(set: &str, small: bool) -> ShortintParameters {
    match (set, small) {
        ("classical", false) => DEFAULT_PARAMETERS,
        ("classical", true) => PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
        (_, false) => PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        (_, true) => PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2,
    }
}

/// The high-level configuration of a set.
fn config(set: &str, small: bool) -> Result<ConfigBuilder, String> {
    ConfigBuilder::default()
        .with_insecure_custom_parameters(parameters(set, small))
        .map_err(|e| e.to_string())
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// GPU 0, or the reason there is none.
fn gpu() -> Result<CudaDevice, String> {
    CudaDevice::shared(0).map_err(|e| format!("no usable GPU: {e}"))
}

/// The median of `samples` (seconds).
fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Runs `f` at least `min` times and until `budget` is spent (at most 1000 times);
/// the median of its durations in seconds.
fn timed(min: usize, budget: Duration, mut f: impl FnMut() -> Outcome) -> Result<f64, String> {
    let start = Instant::now();
    let mut samples = Vec::new();
    while samples.len() < min || (start.elapsed() < budget && samples.len() < 1000) {
        let t = Instant::now();
        f()?;
        samples.push(t.elapsed().as_secs_f64());
    }
    Ok(median(samples))
}

fn device() -> Outcome {
    let gpus = get_number_of_gpus();
    let (major, minor) = kernels_cuda_version().ok_or("the kernels were not built")?;
    result(
        "device",
        &[
            ("gpus", gpus.to_string()),
            ("kernels_cuda", format!("{major}.{minor}")),
        ],
    );
    for probe in probe_gpus().map_err(err)? {
        let device = CudaDevice::shared(probe.gpu.get() as usize).map_err(err)?;
        let (cc_major, cc_minor) = device.compute_capability();
        result(
            "device",
            &[
                ("gpu", probe.gpu.get().to_string()),
                ("cc", format!("{cc_major}.{cc_minor}")),
                ("sms", device.multiprocessor_count().to_string()),
                ("total_mib", (probe.total_bytes >> 20).to_string()),
                ("free_mib", (probe.free_bytes >> 20).to_string()),
                ("usable", probe.unusable.is_none().to_string()),
            ],
        );
    }
    if gpus == 0 {
        return Err("no GPU visible".into());
    }
    Ok(())
}

/// A key set of the shortint layer on GPU 0 and on the CPU.
struct Keys {
    p: ShortintParameters,
    ck: ClientKey,
    gpu: CudaBackend,
    cpu: CpuBackend,
}

impl Keys {
    fn new(set: &str, small: bool) -> Result<Self, String> {
        let p = parameters(set, small);
        let ck = ClientKey::new(p).map_err(err)?;
        let compressed = CompressedServerKey::new(&ck).map_err(err)?;
        let gpu = CudaBackend::new(&gpu()?, &compressed).map_err(err)?;
        let cpu = CpuBackend::from_shared(Arc::new(compressed.decompress().map_err(err)?));
        Ok(Self { p, ck, gpu, cpu })
    }

    /// `count` fresh encryptions of `i % 16`.
    fn blocks(&self, count: usize) -> Result<Vec<Ciphertext>, String> {
        (0..count)
            .map(|i| self.ck.encrypt_with_carry(i as u64 % 16).map_err(err))
            .collect()
    }
}

/// One KS+PBS of every block of `blocks` through `table`.
fn table_step(table: &Table, count: usize) -> Step<'_> {
    Step {
        exprs: (0..count).map(|i| BlockExpr::table_of(i, 0)).collect(),
        tables: vec![table],
    }
}

/// `f(x) = (x^2 + 1) mod 16` on a block holding `x`.
fn f(x: u64) -> u64 {
    (x * x + 1) % 16
}

fn bootstrap(o: &Options) -> Outcome {
    for set in &o.sets {
        let keys = Keys::new(set, o.small)?;
        let p = keys.p;
        let table = Table::new(&p, f).map_err(err)?;
        let blocks = keys.blocks(o.count)?;
        let step = table_step(&table, o.count);
        let input = keys.gpu.upload(blocks.clone()).map_err(err)?;
        let start = Instant::now();
        let output = keys.gpu.eval(&[&input], &step).map_err(err)?;
        let out = keys.gpu.download(&output).map_err(err)?;
        let seconds = start.elapsed().as_secs_f64();
        let delta = p.delta();
        let (mut wrong, mut sum, mut sum_sq) = (0usize, 0f64, 0f64);
        for (i, ct) in out.iter().enumerate() {
            let expected = f(i as u64 % 16);
            let phase =
                decrypt_lwe_ciphertext(keys.ck.big_lwe_secret_key(), ct.as_lwe()).map_err(err)?;
            let e = phase.wrapping_sub(expected * delta) as i64 as f64;
            sum += e;
            sum_sq += e * e;
            if keys.ck.decrypt_message_and_carry(ct).map_err(err)? != expected {
                wrong += 1;
            }
        }
        let n = out.len() as f64;
        let variance = (sum_sq - sum * sum / n) / (n - 1.0).max(1.0);
        let model = p.bootstrap_output_variance();
        // The same inputs through the CPU's bootstrap (a prefix: it is slower).
        let compared = o.count.min(64);
        let cpu_step = table_step(&table, compared);
        let cpu_in = keys.cpu.upload(blocks[..compared].to_vec()).map_err(err)?;
        let cpu_out = keys.cpu.eval(&[&cpu_in], &cpu_step).map_err(err)?;
        let mut differ = 0;
        for (g, c) in out.iter().zip(&cpu_out) {
            let (g, c) = (
                keys.ck.decrypt_message_and_carry(g).map_err(err)?,
                keys.ck.decrypt_message_and_carry(c).map_err(err)?,
            );
            differ += usize::from(g != c);
        }
        let ratio = variance / model;
        result(
            "bootstrap",
            &[
                ("params", set.to_string()),
                ("small", o.small.to_string()),
                ("count", o.count.to_string()),
                ("wrong", wrong.to_string()),
                ("cpu_compared", compared.to_string()),
                ("cpu_differ", differ.to_string()),
                ("variance_log2", format!("{:.3}", variance.log2())),
                ("model_log2", format!("{:.3}", model.log2())),
                ("ratio", format!("{ratio:.3}")),
                ("seconds", format!("{seconds:.4}")),
            ],
        );
        if wrong > 0 || differ > 0 {
            return Err(format!(
                "{set}: {wrong} wrong values, {differ} differ from the CPU"
            ));
        }
        // 1024 samples measure a variance within about 9 % (two standard errors);
        // the window leaves room for the kernels' own FFT error.
        if o.count >= 1024 && !(0.6..=1.4).contains(&ratio) {
            return Err(format!("{set}: output variance {ratio:.2} times the model"));
        }
    }
    Ok(())
}

/// The FheUint64 operations of the integer step: name, operation.
type Op = (
    &'static str,
    fn(&FheUint64, &FheUint64) -> FheUint64,
    fn(u64, u64) -> u64,
);

const OPS: [Op; 8] = [
    ("add", |a, b| a + b, u64::wrapping_add),
    ("mul", |a, b| a * b, u64::wrapping_mul),
    (
        "eq",
        |a, b| FheUint64::cast_from(a.eq(b)),
        |a, b| u64::from(a == b),
    ),
    (
        "lt",
        |a, b| FheUint64::cast_from(a.lt(b)),
        |a, b| u64::from(a < b),
    ),
    ("bitand", |a, b| a & b, |a, b| a & b),
    ("shl", |a, b| a << b, |a, b| a.wrapping_shl(b as u32)),
    ("shr", |a, b| a >> b, |a, b| a.wrapping_shr(b as u32)),
    (
        "div",
        |a, b| a / b,
        |a, b| a.checked_div(b).unwrap_or(u64::MAX),
    ),
];

fn integer(o: &Options) -> Outcome {
    let mut failures = 0;
    for set in &o.sets {
        let client_key = gpufhe::ClientKey::generate(config(set, o.small)?);
        let compressed = gpufhe::CompressedServerKey::new(&client_key);
        let gpu_key = compressed
            .try_decompress_to_specific_gpu(GpuIndex::new(0))
            .map_err(err)?;
        let cpu_key = compressed.decompress();
        let (a, b) = (0xfedc_ba98_7654_3210u64, 0x0000_0000_8765_4321u64);
        // Shift amounts and the divisor are the low bits of `b` for shifts.
        let ea = FheUint64::encrypt(a, &client_key);
        let eb = FheUint64::encrypt(b, &client_key);
        for (name, op, clear) in OPS.into_iter().filter(|op| o.ops.iter().any(|n| n == op.0)) {
            let rhs = if name.starts_with("sh") { b % 64 } else { b };
            let erhs = if name.starts_with("sh") {
                FheUint64::encrypt(rhs, &client_key)
            } else {
                eb.clone()
            };
            set_server_key(gpu_key.clone());
            let start = Instant::now();
            let on_gpu: u64 = op(&ea, &erhs).decrypt(&client_key);
            let seconds = start.elapsed().as_secs_f64();
            // The CPU computes the same circuit (division: the clear value only, an
            // encrypted 64-bit division takes minutes on a CPU).
            let on_cpu = if name == "div" {
                None
            } else {
                set_server_key(cpu_key.clone());
                Some(FheDecrypt::<u64>::decrypt(&op(&ea, &erhs), &client_key))
            };
            let expected = clear(a, rhs);
            let ok = on_gpu == expected && on_cpu.is_none_or(|c| c == on_gpu);
            failures += usize::from(!ok);
            result(
                "integer",
                &[
                    ("params", set.to_string()),
                    ("op", name.to_string()),
                    ("ok", ok.to_string()),
                    ("gpu", on_gpu.to_string()),
                    ("cpu", on_cpu.map_or("-".into(), |c| c.to_string())),
                    ("clear", expected.to_string()),
                    ("seconds", format!("{seconds:.4}")),
                ],
            );
        }
    }
    if failures > 0 {
        return Err(format!("{failures} operations gave a wrong value"));
    }
    Ok(())
}

fn speed(o: &Options) -> Outcome {
    // The step's time, shared by the parameter sets and the measurements.
    let sets = o.sets.len() as f64;
    let budget = Duration::from_secs_f64(o.seconds / sets / 8.0);
    // The fake driver's dry run: one sample each (emulated kernels are slow).
    let min = if o.small { 1 } else { 3 };
    for set in &o.sets {
        let keys = Keys::new(set, o.small)?;
        let table = Table::new(&keys.p, f).map_err(err)?;
        let device = keys.gpu.device().clone();
        let sizes: &[usize] = if o.small {
            &[1, 16]
        } else {
            &[1, 256, 1024, 4096]
        };
        let blocks = keys.blocks(*sizes.last().unwrap_or(&1))?;
        for &size in sizes {
            let input = keys.gpu.upload(blocks[..size].to_vec()).map_err(err)?;
            let step = table_step(&table, size);
            let seconds = timed(min, budget, || {
                keys.gpu.eval(&[&input], &step).map_err(err)?;
                device.synchronize().map_err(err)
            })?;
            result(
                "speed",
                &[
                    ("params", set.to_string()),
                    ("what", "ks_pbs".into()),
                    ("batch", size.to_string()),
                    ("median_ms", format!("{:.4}", seconds * 1e3)),
                    ("per_second", format!("{:.1}", size as f64 / seconds)),
                ],
            );
        }
        // FheUint64 on a GPU key: one addition alone, and batches of additions.
        let client_key = gpufhe::ClientKey::generate(config(set, o.small)?);
        let key = gpufhe::CompressedServerKey::new(&client_key)
            .try_decompress_to_specific_gpu(GpuIndex::new(0))
            .map_err(err)?;
        set_server_key(key);
        let on_gpu = |v: u64| -> Result<FheUint64, String> {
            let mut x = FheUint64::encrypt(v, &client_key);
            x.move_to_device(gpufhe::Device::CudaGpu(GpuIndex::new(0)))
                .map_err(err)?;
            Ok(x)
        };
        let batches: &[usize] = if o.small { &[1] } else { &[1, 16, 64, 256] };
        let max = *batches.last().unwrap_or(&1);
        let lhs = (0..max as u64)
            .map(|i| on_gpu(i.wrapping_mul(0x9e37_79b9)))
            .collect::<Result<Vec<_>, _>>()?;
        let rhs = (0..max as u64)
            .map(|i| on_gpu(!i))
            .collect::<Result<Vec<_>, _>>()?;
        for &n in batches {
            let seconds = timed(min, budget, || {
                FheUint64::batch(BinaryOp::Add, &lhs[..n], &rhs[..n])
                    .map(drop)
                    .map_err(err)
            })?;
            result(
                "speed",
                &[
                    ("params", set.to_string()),
                    ("what", "fheuint64_add".into()),
                    ("batch", n.to_string()),
                    ("median_ms", format!("{:.4}", seconds * 1e3)),
                    ("per_second", format!("{:.1}", n as f64 / seconds)),
                ],
            );
        }
    }
    Ok(())
}

fn guide(o: &Options) -> Outcome {
    let num_gpus = get_number_of_gpus() as usize;
    if num_gpus == 0 {
        return Err("no GPU visible".into());
    }
    let set = o.sets[0];
    let client_key = gpufhe::ClientKey::generate(config(set, o.small)?);
    let compressed = gpufhe::CompressedServerKey::new(&client_key);
    let batch = o.per_gpu * num_gpus;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let left: Vec<u64> = (0..batch).map(|_| next()).collect();
    let right: Vec<u64> = (0..batch).map(|_| next()).collect();
    let left_in: Vec<FheUint64> = left
        .iter()
        .map(|&v| FheUint64::encrypt(v, &client_key))
        .collect();
    let right_in: Vec<FheUint64> = right
        .iter()
        .map(|&v| FheUint64::encrypt(v, &client_key))
        .collect();
    let mut failures = 0;
    for &streams in &o.streams {
        // The guide's program: a key per GPU (with `streams` streams), a chunk per
        // GPU, `streams` workers per chunk adding their share one after the other.
        let keys: Vec<ServerKey> = (0..num_gpus)
            .map(|i| {
                let config = SchedulerConfig::builder()
                    .devices(GpuIndex::new(i as u32))
                    .streams_per_gpu(streams)
                    .build()
                    .map_err(err)?;
                compressed.decompress_with(&config).map_err(err)
            })
            .collect::<Result<_, _>>()?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(num_gpus * streams)
            .build()
            .map_err(err)?;
        let chunk = batch.div_ceil(num_gpus);
        let start = Instant::now();
        let sums: Vec<FheUint64> = pool.install(|| {
            left_in
                .par_chunks(chunk)
                .zip(right_in.par_chunks(chunk))
                .enumerate()
                .flat_map(|(i, (l, r))| {
                    let share = l.len().div_ceil(streams);
                    l.par_chunks(share)
                        .zip(r.par_chunks(share))
                        .flat_map_iter(|(l, r)| {
                            set_server_key(keys[i].clone());
                            l.iter().zip(r).map(|(a, b)| a + b).collect::<Vec<_>>()
                        })
                        .collect::<Vec<_>>()
                })
                .collect()
        });
        let seconds = start.elapsed().as_secs_f64();
        let wrong = sums
            .iter()
            .zip(left.iter().zip(&right))
            .filter(|(s, (a, b))| {
                FheDecrypt::<u64>::decrypt(*s, &client_key) != a.wrapping_add(**b)
            })
            .count();
        failures += wrong;
        result(
            "guide",
            &[
                ("params", set.to_string()),
                ("gpus", num_gpus.to_string()),
                ("streams_per_gpu", streams.to_string()),
                ("additions", batch.to_string()),
                ("wrong", wrong.to_string()),
                ("seconds", format!("{seconds:.3}")),
                ("per_second", format!("{:.1}", batch as f64 / seconds)),
            ],
        );
    }
    if failures > 0 {
        return Err(format!("{failures} sums decrypt wrongly"));
    }
    Ok(())
}

fn failure_rate(o: &Options) -> Outcome {
    let keys = Keys::new(o.sets[0], o.small)?;
    let p = keys.p;
    // Outputs hold at most 3: a sum of `max_noise_level` of them fits in a block.
    let g = |x: u64| (5 * x + 3) % p.message_modulus;
    let table = Table::new(&p, g).map_err(err)?;
    let batch = if o.small { 64 } else { 8192 };
    let fan_in = p.max_noise_level as usize;
    let sk = keys.cpu.server_key();
    let mut pool: Vec<(u64, Ciphertext)> = (0..batch as u64)
        .map(|i| {
            Ok((
                i % p.message_modulus,
                keys.ck.encrypt(i % p.message_modulus).map_err(err)?,
            ))
        })
        .collect::<Result<_, String>>()?;
    let step = table_step(&table, batch);
    let (mut done, mut failures) = (0usize, 0usize);
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < o.seconds {
        // The noisiest input a circuit may bootstrap: `max_noise_level` outputs summed.
        let mut values = Vec::with_capacity(batch);
        let mut inputs = Vec::with_capacity(batch);
        for j in 0..batch {
            let (mut value, mut ct) = pool[j].clone();
            for t in 1..fan_in {
                let (v, addend) = &pool[(j + t) % batch];
                sk.unchecked_add_assign(&mut ct, addend).map_err(err)?;
                value += v;
            }
            values.push(value);
            inputs.push(ct);
        }
        let input = keys.gpu.upload(inputs).map_err(err)?;
        let out = keys
            .gpu
            .download(&keys.gpu.eval(&[&input], &step).map_err(err)?)
            .map_err(err)?;
        for (&x, ct) in values.iter().zip(&out) {
            failures += usize::from(keys.ck.decrypt_message_and_carry(ct).map_err(err)? != g(x));
        }
        pool = values.iter().map(|&x| g(x)).zip(out).collect();
        done += batch;
    }
    let seconds = start.elapsed().as_secs_f64();
    result(
        "failure_rate",
        &[
            ("params", o.sets[0].to_string()),
            ("bootstraps", done.to_string()),
            ("failures", failures.to_string()),
            ("seconds", format!("{seconds:.1}")),
            ("per_second", format!("{:.1}", done as f64 / seconds)),
            ("bound_95", format!("{:.3e}", 3.0 / done.max(1) as f64)),
        ],
    );
    if failures > 0 {
        return Err(format!(
            "{failures} decryption failures in {done} bootstraps"
        ));
    }
    Ok(())
}

/// A batched bootstrap launch and a single one per set (after one of each to warm
/// up), for `ncu --launch-skip` to pick.
fn ncu(o: &Options) -> Outcome {
    for set in &o.sets {
        let keys = Keys::new(set, o.small)?;
        let table = Table::new(&keys.p, f).map_err(err)?;
        let batch = if o.small { 16 } else { 4096 };
        let blocks = keys.blocks(batch)?;
        for size in [batch, 1] {
            let input = keys.gpu.upload(blocks[..size].to_vec()).map_err(err)?;
            let step = table_step(&table, size);
            for _ in 0..2 {
                keys.gpu.eval(&[&input], &step).map_err(err)?;
                keys.gpu.device().synchronize().map_err(err)?;
            }
            result(
                "ncu",
                &[("params", set.to_string()), ("batch", size.to_string())],
            );
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let run = || -> Outcome {
        let o = options()?;
        match o.step.as_str() {
            "device" => device(),
            "bootstrap" => bootstrap(&o),
            "integer" => integer(&o),
            "squash" => squash(&o),
            "speed" => speed(&o),
            "kernels" => kernels(&o),
            "guide" => guide(&o),
            "failure-rate" => failure_rate(&o),
            "ncu" => ncu(&o),
            other => Err(format!("unknown step {other:?}")),
        }
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gpu_first_look: {e}");
            println!(
                "RESULT step=error message={}",
                e.replace(char::is_whitespace, "_")
            );
            ExitCode::FAILURE
        }
    }
}
