//! The scheduler on GPUs: keys built from a [`SchedulerConfig`] get the configured
//! stream-bound workers on each GPU and create no stream while they compute, batches
//! are split over every GPU and come back in input order, the largest batch per
//! launch caps the bootstrap launches, auto-selected GPUs get the key, and invalid
//! settings are errors that name the variable. Every result is decrypted and
//! compared with the clear result.
//!
//! On the fake driver (`GPUFHE_FAKE_CUDA_DEVICES=2 scripts/fake-cuda.sh cargo test
//! --release --test gpu scheduler_gpu::`) each test runs this executable again as child
//! processes with 1, 2 or 4 fake GPUs and its own settings (the fake reads them
//! once per process, and the scheduler's variables are read from the process
//! environment). On a real driver each test runs once, in a child, on the visible
//! GPUs (parts that need more GPUs, or the fake's busy devices, say they are
//! skipped). Without a driver: `SKIPPED (no CUDA device)`, a failure with
//! `GPUFHE_REQUIRE_GPU=1`. Insecure small parameters and `FheUint8` keep the
//! emulated bootstraps few and fast.

use crate::child::test_path;
use crate::common;
use crate::cuda_support;
use crate::fake_child;

use crate::skip::gpu_for_tests;
use common::Rng;
use cuda_support::small_parameters;
use fake_child::run_passing_child;
use gpufhe::backend::cuda::CudaDevice;
use gpufhe::prelude::*;
use gpufhe::scheduler::{
    probe_gpus, Devices, SchedulerConfig, SchedulerConfigBuilder, WorkerInfo, ENV_CPU_THREADS,
    ENV_DEVICES, ENV_DEVICE_TO_CORE_RATIO, ENV_GPU_OVERPROVISION, ENV_MAX_BATCH_SIZE,
    ENV_STREAMS_PER_GPU,
};
use gpufhe::{
    get_number_of_gpus, set_server_key, unset_server_key, ClientKey, CompressedServerKey,
    ConfigBuilder, Device, Error, FheUint8, GpuIndex, ServerKey,
};
use std::sync::Mutex;

/// Set in a child process to the name of the test it runs.
const CHILD: &str = "GPUFHE_TEST_SCHEDULER_GPU_CHILD";
/// In a child of [`invalid_settings_are_errors_that_name_the_variable`]: the
/// variable set to an invalid value, or `none`.
const INVALID: &str = "GPUFHE_TEST_SCHEDULER_GPU_INVALID";
/// The scheduler's environment variables (a child gets only those its test sets).
const SCHEDULER_VARIABLES: [&str; 6] = [
    ENV_DEVICES,
    ENV_STREAMS_PER_GPU,
    ENV_GPU_OVERPROVISION,
    ENV_MAX_BATCH_SIZE,
    ENV_CPU_THREADS,
    ENV_DEVICE_TO_CORE_RATIO,
];
const MIB: u64 = 1 << 20;

// ---------------------------------------------------------------------------------
// Running a test in child processes.

fn is_child(test: &str) -> bool {
    std::env::var(CHILD).is_ok_and(|name| name == test)
}

fn on_fake_driver() -> bool {
    std::env::var("GPUFHE_FAKE_CUDA").is_ok_and(|v| v == "1")
}

/// In the parent process: whether there is a GPU to start children on (after
/// printing `SKIPPED (no CUDA device)` otherwise; a panic with
/// `GPUFHE_REQUIRE_GPU=1`).
fn parent_with_gpu(test: &str) -> bool {
    !is_child(test) && gpu_for_tests().is_some()
}

/// Runs `test` again in a child process with `devices` fake GPUs (ignored by a
/// real driver) and the variables of `settings`, the scheduler's and the fake's
/// other variables removed; checks that the test ran and passed.
fn run_child(test: &str, devices: u32, settings: &[(&str, &str)]) {
    let mut removed = SCHEDULER_VARIABLES.to_vec();
    removed.push(INVALID);
    let started = std::time::Instant::now();
    run_passing_child(
        test,
        CHILD,
        devices,
        &["--include-ignored"],
        &removed,
        settings,
    );
    println!(
        "{test}: child with {devices} GPU(s) and {settings:?} passed in {:.1?}",
        started.elapsed()
    );
}

/// Runs `test` in a child per count of fake GPUs in `counts`, or in one child on
/// the visible GPUs of a real driver; nothing without a GPU.
fn run_children(test: &str, counts: &[u32]) {
    if !parent_with_gpu(test) {
        return;
    }
    if on_fake_driver() {
        for &count in counts {
            run_child(test, count, &[]);
        }
    } else {
        run_child(test, get_number_of_gpus(), &[]);
    }
}

/// In a child: the visible GPUs (on the fake driver, checked to be the number the
/// parent asked for).
fn visible_gpus() -> u32 {
    let visible = get_number_of_gpus();
    if on_fake_driver() {
        let asked: u32 = std::env::var("GPUFHE_FAKE_CUDA_DEVICES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        assert_eq!(visible, asked, "the fake driver's devices");
    }
    assert!(visible >= 1, "a child runs with a GPU");
    visible
}

// ---------------------------------------------------------------------------------
// Keys, configurations and checks.

/// A client key on insecure small parameters and its compressed server key.
fn small_keys() -> (ClientKey, CompressedServerKey) {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(small_parameters())
        .expect("parameters");
    let client = ClientKey::generate(config);
    let compressed = CompressedServerKey::new(&client);
    (client, compressed)
}

/// A configuration from code only (the environment is not read).
fn code_only(builder: SchedulerConfigBuilder) -> SchedulerConfig {
    builder
        .build_with(|_| None::<String>)
        .expect("a valid configuration")
}

fn gpu(i: u32) -> Device {
    Device::CudaGpu(GpuIndex::new(i))
}

/// Streams created so far on each of the first `gpus` devices (opening them).
fn streams_created(gpus: u32) -> Vec<usize> {
    (0..gpus)
        .map(|i| {
            CudaDevice::shared(i as usize)
                .expect("a visible GPU opens")
                .streams_created()
        })
        .collect()
}

/// Pairs of encrypted operands.
type Pairs = Vec<(FheUint8, FheUint8)>;

/// `count` pairs of clear operands and their encryptions.
fn operands(ck: &ClientKey, seed: u64, count: usize) -> (Vec<(u8, u8)>, Pairs) {
    let mut rng = Rng::new(seed);
    let clear: Vec<(u8, u8)> = (0..count)
        .map(|_| (rng.next_u64() as u8, rng.next_u64() as u8))
        .collect();
    let encrypted = clear
        .iter()
        .map(|&(a, b)| (FheUint8::encrypt(a, ck), FheUint8::encrypt(b, ck)))
        .collect();
    (clear, encrypted)
}

fn decrypt_u8(x: &FheUint8, ck: &ClientKey) -> u8 {
    FheDecrypt::<u8>::decrypt(x, ck)
}

/// Runs a batch of `a + b` and `a < b` on `key`, checks every result against the
/// clear one, and returns where each item was computed (the sum's device; the
/// comparison of the item is checked to be there too).
fn sum_and_compare_batch(key: &ServerKey, ck: &ClientKey, seed: u64, count: usize) -> Vec<Device> {
    let (clear, pairs) = operands(ck, seed, count);
    let out = key
        .run_batch(&pairs, |(a, b)| (a + b, a.lt(b)))
        .expect("the batch runs");
    assert_eq!(out.len(), count);
    out.iter()
        .zip(&clear)
        .enumerate()
        .map(|(i, ((sum, below), &(a, b)))| {
            assert_eq!(decrypt_u8(sum, ck), a.wrapping_add(b), "sum {i}: {a} + {b}");
            assert_eq!(below.decrypt(ck), a < b, "comparison {i}: {a} < {b}");
            assert_eq!(below.current_device(), sum.current_device(), "item {i}");
            sum.current_device()
        })
        .collect()
}

/// `FheUint8::batch_add` of `count` pairs with `key` as the thread's key; checks
/// every sum and returns their devices.
fn batch_add(key: &ServerKey, ck: &ClientKey, seed: u64, count: usize) -> Vec<Device> {
    let (clear, pairs) = operands(ck, seed, count);
    let (lhs, rhs): (Vec<FheUint8>, Vec<FheUint8>) = pairs.into_iter().unzip();
    set_server_key(key.clone());
    let sums = FheUint8::batch_add(&lhs, &rhs).expect("batch_add runs");
    unset_server_key();
    assert_eq!(sums.len(), count);
    sums.iter()
        .zip(&clear)
        .enumerate()
        .map(|(i, (sum, &(a, b)))| {
            assert_eq!(decrypt_u8(sum, ck), a.wrapping_add(b), "sum {i}: {a} + {b}");
            sum.current_device()
        })
        .collect()
}

/// Where a batch of `count` operations goes on identical GPUs `gpus` (no CPU
/// worker): consecutive shares in the key's GPU order, whose sizes differ by at
/// most one, the larger first.
fn even_split(gpus: &[GpuIndex], count: usize) -> Vec<Device> {
    let (base, extra) = (count / gpus.len(), count % gpus.len());
    gpus.iter()
        .enumerate()
        .flat_map(|(g, &gpu)| {
            std::iter::repeat_n(Device::CudaGpu(gpu), base + usize::from(g < extra))
        })
        .collect()
}

/// Runs `count` additions as one batch on `key` (one GPU, one stream, no CPU
/// worker) and checks the bootstrap launches against the circuit: each bootstrap
/// layer of `b` bootstraps takes `ceil(b / max_batch)` launches (one per layer
/// without a cap). The layers' sizes come from the batch's progress reports (one
/// per layer of its one circuit). Returns the launches and the layers' sizes.
fn check_launches(
    key: &ServerKey,
    ck: &ClientKey,
    count: usize,
    max_batch: Option<usize>,
) -> (u64, Vec<u64>) {
    let before = key.stats();
    assert_eq!(before.bootstrap_launches, 0, "a fresh key");
    let (clear, pairs) = operands(ck, 99, count);
    let reports = Mutex::new(Vec::new());
    let sums = key
        .run_batch_with_progress(&pairs, |(a, b)| a + b, |p| reports.lock().unwrap().push(p))
        .expect("the batch runs");
    for (i, (sum, &(a, b))) in sums.iter().zip(&clear).enumerate() {
        assert_eq!(decrypt_u8(sum, ck), a.wrapping_add(b), "sum {i}: {a} + {b}");
        assert_eq!(sum.current_device(), gpu(0));
    }
    let stats = key.stats();
    assert_eq!(stats.circuits, 1, "one worker: the batch is one circuit");
    // Every report but the last (the circuit's end) follows a bootstrap layer.
    let reports = reports.into_inner().unwrap();
    let (end, layers) = reports.split_last().expect("progress was reported");
    assert_eq!((end.operations_done, end.operations), (count, count));
    assert!(layers.iter().all(|p| p.operations_done == 0), "{reports:?}");
    let mut done = 0;
    let layer_sizes: Vec<u64> = layers
        .iter()
        .map(|p| {
            let size = p.bootstraps_done - done;
            done = p.bootstraps_done;
            size
        })
        .collect();
    assert_eq!(
        layer_sizes.len() as u64,
        stats.bootstrap_layers,
        "{layer_sizes:?}"
    );
    assert_eq!(layer_sizes.iter().sum::<u64>(), stats.bootstraps);
    assert_eq!(end.bootstraps_done, stats.bootstraps);
    assert!(stats.bootstraps > 0, "{stats:?}");
    let expected: u64 = match max_batch {
        Some(m) => layer_sizes.iter().map(|&b| b.div_ceil(m as u64)).sum(),
        None => stats.bootstrap_layers,
    };
    assert_eq!(
        stats.bootstrap_launches, expected,
        "layers {layer_sizes:?}, max batch {max_batch:?}"
    );
    println!(
        "{count} additions, max batch {max_batch:?}: layers {layer_sizes:?}, {} launches",
        stats.bootstrap_launches
    );
    (stats.bootstrap_launches, layer_sizes)
}

// ---------------------------------------------------------------------------------
// 1. Workers and streams.

/// Keys on `"0,"` (GPU 0), `"0,1"`, `"3, 1"` and every GPU (`-1`) with 2 streams
/// per GPU × over-provisioning 3 list 6 stream-bound workers per GPU; making a key
/// creates exactly those streams on its GPUs and none elsewhere (a CPU key, `"0"`,
/// none at all; the default is 4 per GPU); single operations from 16 user threads,
/// batches and typed batches on the GPUs create no stream at all.
#[test]
fn keys_get_their_streams_and_computing_creates_none() {
    let test = &test_path!("keys_get_their_streams_and_computing_creates_none");
    run_children(test, &[1, 2, 4]);
    if !is_child(test) {
        return;
    }
    let visible = visible_gpus();
    let (ck, compressed) = small_keys();
    let all: Vec<u32> = (0..visible).collect();
    // `"0,"` is GPU 0 (`"0"` would be no GPU: the CPU).
    let mut cases: Vec<(Devices, Vec<u32>)> = vec![(Devices::from("0,"), vec![0])];
    if visible >= 2 {
        cases.push((Devices::from("0,1"), vec![0, 1]));
    }
    if visible >= 4 {
        cases.push((Devices::from("3, 1"), vec![3, 1]));
    }
    cases.push((Devices::from(-1), all.clone()));

    let mut last = None;
    for (devices, chosen) in cases {
        let config = code_only(
            SchedulerConfig::builder()
                .devices(devices.clone())
                .streams_per_gpu(2)
                .gpu_overprovision(3)
                .cpu_threads(0),
        );
        let before = streams_created(visible);
        let key = compressed.decompress_with(&config).expect("a GPU key");
        let after = streams_created(visible);
        let expected_gpus: Vec<GpuIndex> = chosen.iter().copied().map(GpuIndex::new).collect();
        assert_eq!(key.gpus(), expected_gpus, "devices {devices}");
        let workers: Vec<WorkerInfo> = expected_gpus
            .iter()
            .map(|&gpu| WorkerInfo::Gpu { gpu, streams: 6 })
            .collect();
        assert_eq!(key.workers(), workers, "devices {devices}");
        for i in 0..visible {
            let grown = after[i as usize] - before[i as usize];
            let expected = if chosen.contains(&i) { 6 } else { 0 };
            assert_eq!(
                grown, expected,
                "streams created on GPU {i} by a key on {devices}: before {before:?}, after {after:?}"
            );
        }
        last = Some(key);
    }

    // `"0"` is no GPU: a key on the CPU, which creates no stream.
    let before = streams_created(visible);
    let config = code_only(SchedulerConfig::builder().devices("0").cpu_threads(1));
    let cpu = compressed.decompress_with(&config).expect("a CPU key");
    assert_eq!(cpu.workers(), [WorkerInfo::Cpu { threads: 1 }]);
    assert!(cpu.gpus().is_empty());
    assert_eq!(streams_created(visible), before);

    // The default of 4 streams per GPU (no variable set in this child).
    let before = streams_created(visible);
    let key = compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(visible - 1))
        .expect("a GPU key");
    let mut expected = before.clone();
    expected[visible as usize - 1] += 4;
    assert_eq!(streams_created(visible), expected, "before {before:?}");
    assert_eq!(
        key.workers(),
        [WorkerInfo::Gpu {
            gpu: GpuIndex::new(visible - 1),
            streams: 4
        }]
    );

    // Computing on the key of every GPU: no stream, whatever the number of threads.
    let key = last.expect("a key on every GPU");
    let before = streams_created(visible);
    std::thread::scope(|scope| {
        for t in 0..16u64 {
            let (key, ck) = (&key, &ck);
            scope.spawn(move || {
                set_server_key(key.clone());
                let (clear, pairs) = operands(ck, 100 + t, 1);
                let ((a, b), (x, y)) = (clear[0], &pairs[0]);
                let sum = x + y;
                assert!(
                    matches!(sum.current_device(), Device::CudaGpu(g) if g.get() < visible),
                    "thread {t}: {:?}",
                    sum.current_device()
                );
                assert_eq!(decrypt_u8(&sum, ck), a.wrapping_add(b), "thread {t}");
                unset_server_key();
            });
        }
    });
    // Batches on the GPUs (no CPU worker), over 2 × 6 streams per GPU.
    let count = 2 * visible as usize + 1;
    let devices = sum_and_compare_batch(&key, &ck, 1, count);
    assert_eq!(devices, even_split(&key.gpus(), count));
    let devices = batch_add(&key, &ck, 2, count);
    assert_eq!(devices, even_split(&key.gpus(), count));
    assert_eq!(
        streams_created(visible),
        before,
        "no stream while computing"
    );
    assert!(key.stats().bootstraps > 0);
}

// ---------------------------------------------------------------------------------
// 2. Batches over several GPUs.

/// `run_batch` (an addition and a comparison per item) and `FheUint8::batch_add` on
/// 2 and 4 GPUs without a CPU worker: correct results in input order, consecutive
/// shares on every GPU; operands already on various GPUs give correct results too.
#[test]
fn batches_are_split_over_every_gpu_in_input_order() {
    let test = &test_path!("batches_are_split_over_every_gpu_in_input_order");
    run_children(test, &[2, 4]);
    if !is_child(test) {
        return;
    }
    let visible = visible_gpus();
    if visible < 2 {
        crate::skip::report_skipped(format_args!("(needs 2 GPUs, {visible} visible)"));
        return;
    }
    let (ck, compressed) = small_keys();
    let config = code_only(
        SchedulerConfig::builder()
            .devices(-1)
            .streams_per_gpu(2)
            .cpu_threads(0),
    );
    let key = compressed.decompress_with(&config).expect("a GPU key");
    let gpus = key.gpus();
    assert_eq!(gpus.len(), visible as usize);

    // An uneven count: the first GPUs take one more.
    let count = 2 * gpus.len() + 1;
    let devices = sum_and_compare_batch(&key, &ck, 3, count);
    assert_eq!(devices, even_split(&gpus, count), "run_batch");
    let circuits = key.stats().circuits;
    assert!(
        circuits >= gpus.len() as u64,
        "one circuit per busy worker at least: {circuits}"
    );
    let devices = batch_add(&key, &ck, 4, gpus.len() + 2);
    assert_eq!(devices, even_split(&gpus, gpus.len() + 2), "batch_add");

    // Operands spread over the GPUs beforehand: still correct, and on the GPUs.
    let (clear, pairs) = operands(&ck, 5, 2 * gpus.len());
    let (mut lhs, rhs): (Vec<FheUint8>, Vec<FheUint8>) = pairs.into_iter().unzip();
    for (i, x) in lhs.iter_mut().enumerate() {
        x.move_to_device(Device::CudaGpu(gpus[i % gpus.len()]))
            .expect("moved to a GPU");
    }
    set_server_key(key.clone());
    let sums = FheUint8::batch_add(&lhs, &rhs).expect("batch_add runs");
    unset_server_key();
    for (i, (sum, &(a, b))) in sums.iter().zip(&clear).enumerate() {
        assert_eq!(
            decrypt_u8(sum, &ck),
            a.wrapping_add(b),
            "moved operands, sum {i}"
        );
        assert!(gpus
            .iter()
            .any(|&g| sum.current_device() == Device::CudaGpu(g)));
    }
}

/// A GPU key with a CPU worker beside its GPUs: the cost model decides the split.
/// With the modelled speeds (an H100 per GPU against one CPU thread) a batch runs on
/// the GPUs, every one of them; with a CPU core as fast as a GPU
/// (`device_to_core_ratio(1.0)`) every worker gets a consecutive share, GPUs first.
/// Results correct and in input order either way.
///
/// Ignored: `ServerKey::run_batch` plans the batch with the probe circuit (the first
/// item recorded) before that circuit has outputs, so `Circuit::stats()` (which
/// counts the bootstraps leading to outputs) is empty: every worker's predicted
/// compute time is 0, a GPU's is just its transfer time, and the whole batch goes
/// to the CPU worker whenever there is one (the default: `GPUFHE_CPU_THREADS` is the
/// cores minus the GPUs, at least 1).
#[test]
fn batches_with_a_cpu_worker_follow_the_cost_model() {
    let test = &test_path!("batches_with_a_cpu_worker_follow_the_cost_model");
    run_children(test, &[2]);
    if !is_child(test) {
        return;
    }
    let visible = visible_gpus();
    let (ck, compressed) = small_keys();
    let gpus: Vec<GpuIndex> = (0..visible).map(GpuIndex::new).collect();
    let mut order: Vec<Device> = gpus.iter().map(|&g| Device::CudaGpu(g)).collect();

    let config = code_only(SchedulerConfig::builder().devices(-1).cpu_threads(1));
    let modelled = compressed.decompress_with(&config).expect("a GPU key");
    let count = 2 * gpus.len() + 1;
    let devices = sum_and_compare_batch(&modelled, &ck, 9, count);
    assert_eq!(devices, even_split(&gpus, count), "modelled speeds");

    let config = code_only(
        SchedulerConfig::builder()
            .devices(-1)
            .streams_per_gpu(1)
            .cpu_threads(1)
            .device_to_core_ratio(1.0),
    );
    let mixed = compressed.decompress_with(&config).expect("a GPU key");
    let count = 2 * gpus.len() + 2;
    let devices = sum_and_compare_batch(&mixed, &ck, 6, count);
    order.push(Device::Cpu);
    let mut seen: Vec<Device> = devices.clone();
    seen.dedup();
    assert_eq!(
        seen, order,
        "every worker has a consecutive share: {devices:?}"
    );
}

// ---------------------------------------------------------------------------------
// 3. The largest batch per launch.

/// One GPU, one stream, no CPU worker: a batch of additions takes `ceil(b / M)`
/// launches per layer of `b` bootstraps with `max_batch_size(M)`, more than the one
/// per layer without the cap; results correct either way.
#[test]
fn max_batch_size_caps_the_ciphertexts_per_launch() {
    let test = &test_path!("max_batch_size_caps_the_ciphertexts_per_launch");
    run_children(test, &[1]);
    if !is_child(test) {
        return;
    }
    visible_gpus();
    let (ck, compressed) = small_keys();
    let config = |max: Option<usize>| {
        code_only(
            SchedulerConfig::builder()
                .devices("0,")
                .streams_per_gpu(1)
                .cpu_threads(0)
                .max_batch_size(max),
        )
    };
    let count = 4;
    let uncapped = compressed
        .decompress_with(&config(None))
        .expect("a GPU key");
    let (one_per_layer, layers) = check_launches(&uncapped, &ck, count, None);
    // Every layer holds at least one bootstrap per addition: more than 3.
    assert!(layers.iter().all(|&b| b >= count as u64), "{layers:?}");
    for max in [3, 8] {
        let capped = compressed
            .decompress_with(&config(Some(max)))
            .expect("a GPU key");
        assert_eq!(
            capped.workers(),
            [WorkerInfo::Gpu {
                gpu: GpuIndex::new(0),
                streams: 1
            }]
        );
        let (launches, capped_layers) = check_launches(&capped, &ck, count, Some(max));
        assert_eq!(capped_layers, layers, "the same circuit");
        // More launches than without the cap exactly when a layer is larger than it.
        let larger = layers.iter().any(|&b| b > max as u64);
        assert!(max > 3 || larger);
        assert_eq!(
            launches > one_per_layer,
            larger,
            "max batch {max}: {launches} launches, {one_per_layer} without the cap, layers {layers:?}"
        );
    }
}

// ---------------------------------------------------------------------------------
// 4. Auto-select, then decompress.

/// 4 fake GPUs: GPU 1 held by another process in exclusive mode, GPU 3 nearly full,
/// GPU 0 a little used. `Devices::auto_select(2)` picks GPUs 2 and 0 (most free
/// memory first), and a key decompressed with them lives there and computes
/// correctly on both.
#[test]
fn auto_selected_gpus_get_the_key() {
    let test = &test_path!("auto_selected_gpus_get_the_key");
    if parent_with_gpu(test) {
        if on_fake_driver() {
            let settings = [
                ("GPUFHE_FAKE_CUDA_EXCLUSIVE", "1"),
                ("GPUFHE_FAKE_CUDA_USED_MIB", "100,0,0,81000"),
            ];
            run_child(test, 4, &settings);
        } else {
            crate::skip::report_skipped(format_args!(
                "(needs the fake CUDA driver's busy devices: scripts/fake-cuda.sh)"
            ));
        }
    }
    if !is_child(test) {
        return;
    }
    assert_eq!(visible_gpus(), 4);
    let usable: Vec<bool> = probe_gpus()
        .unwrap()
        .iter()
        .map(|p| p.is_usable())
        .collect();
    assert_eq!(usable, [true, false, true, true]);
    let free = |i: usize| probe_gpus().unwrap()[i].free_bytes / MIB;
    assert!(free(3) < 1024, "GPU 3 is nearly full: {} MiB free", free(3));

    let devices = Devices::auto_select(2).expect("2 usable GPUs");
    let chosen = devices.resolve(get_number_of_gpus()).unwrap();
    assert_eq!(chosen, [GpuIndex::new(2), GpuIndex::new(0)]);
    let (ck, compressed) = small_keys();
    let config = code_only(
        SchedulerConfig::builder()
            .devices(devices)
            .streams_per_gpu(2)
            .cpu_threads(0),
    );
    let key = compressed
        .decompress_with(&config)
        .expect("a key on GPUs 2 and 0");
    assert_eq!(key.gpus(), chosen);
    assert_eq!(
        key.workers(),
        chosen
            .iter()
            .map(|&gpu| WorkerInfo::Gpu { gpu, streams: 2 })
            .collect::<Vec<_>>()
    );
    let devices = sum_and_compare_batch(&key, &ck, 7, 5);
    assert_eq!(devices, even_split(&chosen, 5));

    // A single operation goes to a GPU of the key, never to GPU 1 or 3.
    set_server_key(key.clone());
    let (x, y) = (FheUint8::encrypt(200u8, &ck), FheUint8::encrypt(99u8, &ck));
    let sum = &x + &y;
    assert!([gpu(2), gpu(0)].contains(&sum.current_device()));
    assert_eq!(decrypt_u8(&sum, &ck), 43);
    unset_server_key();

    // Three are usable (the nearly full one last); four are not.
    let three = Devices::auto_select(3).unwrap().resolve(4).unwrap();
    assert_eq!(
        three,
        [GpuIndex::new(2), GpuIndex::new(0), GpuIndex::new(3)]
    );
    let err = Devices::auto_select(4).unwrap_err();
    assert!(err.to_string().contains("only 3 of the 4"), "{err}");
}

// ---------------------------------------------------------------------------------
// 5. Invalid settings.

/// Each of the scheduler's variables set to an invalid value (with 2 GPUs visible)
/// makes `decompress_to_gpu`, `decompress_to_specific_gpu` and
/// `decompress_with(&SchedulerConfig::from_env()?)` an `Err` naming it, never a
/// panic. Valid variables are honoured by `decompress_to_gpu` (devices, streams,
/// largest batch). Invalid code settings, missing GPUs and a GPU without the
/// memory for the key are errors too.
#[test]
fn invalid_settings_are_errors_that_name_the_variable() {
    let test = &test_path!("invalid_settings_are_errors_that_name_the_variable");
    if parent_with_gpu(test) {
        let devices = if on_fake_driver() {
            2
        } else {
            get_number_of_gpus()
        };
        // More GPUs than are visible (7 of 2 on the fake), a GPU that is not there.
        let (too_many, missing) = (format!("{}", devices + 5), format!("0, {}", devices + 3));
        let cases = [
            (ENV_DEVICES, too_many.as_str()),
            (ENV_DEVICES, "0,0"),
            (ENV_DEVICES, missing.as_str()),
            (ENV_STREAMS_PER_GPU, "0"),
            (ENV_GPU_OVERPROVISION, "many"),
            (ENV_MAX_BATCH_SIZE, "0"),
            (ENV_CPU_THREADS, "-1"),
            (ENV_DEVICE_TO_CORE_RATIO, "inf"),
        ];
        for (variable, value) in cases {
            run_child(test, devices, &[(INVALID, variable), (variable, value)]);
        }
        let valid = [
            (INVALID, "none"),
            (ENV_DEVICES, "1"),
            (ENV_STREAMS_PER_GPU, "1"),
            (ENV_CPU_THREADS, "0"),
            (ENV_MAX_BATCH_SIZE, "2"),
            // GPU 1 has no room for a key (the fake's memory is 81920 MiB).
            ("GPUFHE_FAKE_CUDA_USED_MIB", "0,81919"),
        ];
        if on_fake_driver() {
            run_child(test, 2, &valid);
        } else {
            crate::skip::report_skipped(format_args!(
                "(the valid settings need the fake CUDA driver)"
            ));
        }
    }
    if !is_child(test) {
        return;
    }
    let visible = visible_gpus();
    let (ck, compressed) = small_keys();
    let invalid = std::env::var(INVALID).expect("the case");
    if invalid != "none" {
        let value = std::env::var(&invalid).unwrap();
        let names_it = |what: &str, result: gpufhe::Result<ServerKey>| {
            let err = result.expect_err(what);
            assert!(
                matches!(&err, Error::InvalidConfiguration { variable, .. } if *variable == invalid),
                "{what} with {invalid}={value:?}: {err:?}"
            );
            // The value as given (devices in their canonical form: "0,5" for "0, 5").
            let text = err.to_string().replace(' ', "");
            let given = format!("{invalid}={value:?}isinvalid").replace(' ', "");
            assert!(text.starts_with(&given), "{what}: {err}");
        };
        names_it("decompress_to_gpu", compressed.try_decompress_to_gpu());
        if invalid != ENV_DEVICES {
            // The GPUs are chosen in code; the other variables still apply.
            let specific = compressed.try_decompress_to_specific_gpu(GpuIndex::new(0));
            names_it("decompress_to_specific_gpu", specific);
        }
        let from_env =
            SchedulerConfig::from_env().and_then(|config| compressed.decompress_with(&config));
        names_it("decompress_with(from_env)", from_env);
        return;
    }

    // Valid variables: the first GPU (a count), one stream, no CPU worker, 2 ciphertexts
    // per launch.
    assert_eq!(visible, 2);
    let key = compressed
        .try_decompress_to_gpu()
        .expect("GPU 0 by the variable");
    assert_eq!(
        key.workers(),
        [WorkerInfo::Gpu {
            gpu: GpuIndex::new(0),
            streams: 1
        }]
    );
    check_launches(&key, &ck, 2, Some(2));
    // A GPU without the memory for the key: an error, and GPU 0 still works.
    let err = compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(1))
        .expect_err("GPU 1 has 1 MiB free");
    assert!(matches!(err, Error::OutOfDeviceMemory(_)), "{err:?}");
    let err = compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(2))
        .expect_err("2 GPUs are visible");
    assert!(matches!(err, Error::NoCudaDevice(_)), "{err:?}");
    assert!(err.to_string().contains("GPU 2 requested"), "{err}");
    // Settings in code: checked, named by their method; code wins over variables.
    let err = SchedulerConfig::builder()
        .streams_per_gpu(0)
        .build()
        .unwrap_err();
    assert!(matches!(err, Error::InvalidParameter(_)), "{err:?}");
    assert!(err.to_string().contains("streams_per_gpu(0)"), "{err}");
    let err = compressed
        .decompress_with(&SchedulerConfig::builder().devices(3).build().unwrap())
        .unwrap_err();
    assert!(matches!(err, Error::NoCudaDevice(_)), "{err:?}");
    let config = SchedulerConfig::builder()
        .devices([0u32])
        .streams_per_gpu(3)
        .build()
        .unwrap();
    let key = compressed.decompress_with(&config).expect("a key on GPU 0");
    assert_eq!(
        key.workers(),
        [WorkerInfo::Gpu {
            gpu: GpuIndex::new(0),
            streams: 3
        }]
    );
    let sums = batch_add(&key, &ck, 8, 3);
    assert_eq!(sums, [gpu(0); 3]);
}
