//! The scheduler's cost model, batch split, advice and calibration: predictions
//! from hand-made speeds, the split's optimality and edge cases, advice on real
//! circuits, calibration files (round trip, corruption, other parameters), and
//! calibration on a CPU key and (on the fake driver or a GPU) on a GPU key.

use crate::params;

use gpufhe::integer::{BinaryOp, CircuitStats, CmpOp};
use gpufhe::scheduler::{
    plan, split_even, Calibration, CalibrationOptions, CostModel, CpuSpeed, GpuSpeed, Operation,
    Prediction, Provenance, RightOperand, Worker, Workload,
};
use gpufhe::serialization::{safe_deserialize, safe_serialize};
use gpufhe::shortint::{ShortintParameters, DEFAULT_PARAMETERS};
use gpufhe::{ClientKey, CompressedServerKey, ConfigBuilder, Device, Error, GpuIndex, ServerKey};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const GPU0: GpuIndex = GpuIndex::new(0);
const GPU1: GpuIndex = GpuIndex::new(1);

/// **Insecure** small parameters (2 + 2 bits per block), for fast keys.
fn insecure_parameters() -> ShortintParameters {
    params::small_parameters()
}

/// A client key and its compressed server key on the insecure parameters.
fn insecure_keys() -> &'static (ClientKey, CompressedServerKey) {
    static KEYS: OnceLock<(ClientKey, CompressedServerKey)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let config = ConfigBuilder::default()
            .with_insecure_custom_parameters(insecure_parameters())
            .expect("parameters");
        let client = ClientKey::generate(config);
        let compressed = CompressedServerKey::new(&client);
        (client, compressed)
    })
}

fn cpu(threads: usize, one_core: f64, batched: f64) -> CpuSpeed {
    CpuSpeed {
        threads,
        seconds_per_bootstrap_one_core: one_core,
        seconds_per_bootstrap_batched: batched,
        provenance: Provenance::Measured,
    }
}

fn gpu(index: GpuIndex, samples: Vec<(usize, f64)>) -> GpuSpeed {
    GpuSpeed {
        gpu: index,
        description: "hand-made".into(),
        multiprocessors: 10,
        samples,
        host_to_device_bytes_per_second: 1e9,
        device_to_host_bytes_per_second: 5e8,
        transfer_latency_seconds: 1e-3,
        provenance: Provenance::Measured,
    }
}

fn stats(per_layer: &[usize]) -> CircuitStats {
    CircuitStats {
        bootstraps: per_layer.iter().sum(),
        depth: per_layer.len(),
        per_layer: per_layer.to_vec(),
    }
}

fn close(got: Duration, want_seconds: f64) -> bool {
    (got.as_secs_f64() - want_seconds).abs() <= 1e-9 * want_seconds.max(1.0)
}

#[test]
fn cpu_layers_round_up_to_whole_rounds_and_never_beat_a_lone_bootstrap() {
    let c = cpu(4, 0.010, 0.004);
    assert_eq!(c.layer_seconds(0), 0.0);
    assert_eq!(c.layer_seconds(1), 0.010);
    // 2..=4 bootstraps: one round of 4 ms, but a lone bootstrap takes 10 ms.
    assert_eq!(c.layer_seconds(4), 0.010);
    assert!((c.layer_seconds(13) - 4.0 * 0.004).abs() < 1e-15);
    let mut last = 0.0;
    for n in 0..100 {
        assert!(c.layer_seconds(n) >= last);
        last = c.layer_seconds(n);
    }
    assert!(c.layer_seconds(u128::MAX).is_finite());
}

#[test]
fn the_modelled_h100_is_latency_bound_then_at_30k_per_second() {
    let m = CostModel::modelled(&DEFAULT_PARAMETERS, 2, &[GpuIndex::new(3)]);
    m.validate().unwrap();
    let g = &m.gpus[0];
    assert_eq!(g.gpu, GpuIndex::new(3));
    assert_eq!(g.provenance, Provenance::Modelled);
    assert_eq!(g.batch_seconds(50), 0.0035);
    assert!((g.batch_seconds(30_000) - 1.0).abs() < 1e-9);
    assert!((g.batch_seconds(3000) - 0.1).abs() < 1e-9);
    assert!(m.to_string().contains("modelled"));
    // Smaller parameters are modelled faster, in proportion to their blind rotation.
    let mut small = DEFAULT_PARAMETERS;
    small.lwe_dimension.0 /= 2;
    let half = CostModel::modelled(&small, 2, &[]).cpu.unwrap();
    let full = m.cpu.unwrap();
    let ratio = half.seconds_per_bootstrap_one_core / full.seconds_per_bootstrap_one_core;
    assert!((ratio - 0.5).abs() < 1e-3, "{ratio}");
    // No threads: no CPU worker.
    assert!(CostModel::modelled(&DEFAULT_PARAMETERS, 0, &[])
        .cpu
        .is_none());
}

#[test]
fn cpu_predictions_round_each_layer_to_whole_rounds_of_threads() {
    let model = CostModel {
        cpu: Some(cpu(4, 0.010, 0.006)),
        ..CostModel::default()
    };
    let s = stats(&[3, 1, 2]);
    // One operation: 3 bootstraps (one round, but no faster than a lone one), then
    // a lone one, then 2: 10 + 10 + 10 ms.
    let p = model.predict(Worker::Cpu, &s, 1, 0, 0).unwrap();
    assert!(close(p.compute, 0.030), "{p:?}");
    assert_eq!(p.transfer, Duration::ZERO);
    // 3 operations: 9, 3 and 6 bootstraps over 4 threads: 3, 1 and 2 rounds of 6 ms,
    // the single round no faster than a lone bootstrap.
    let p = model.predict(Worker::Cpu, &s, 3, 0, 0).unwrap();
    assert!(close(p.compute, 3.0 * 0.006 + 0.010 + 2.0 * 0.006), "{p:?}");
    // 1000 operations: 750, 250 and 500 rounds.
    let p = model.predict(Worker::Cpu, &s, 1000, 0, 0).unwrap();
    assert!(close(p.compute, 1500.0 * 0.006), "{p:?}");
    // Nothing to do costs nothing; no GPU speed is an error.
    assert_eq!(
        model.predict(Worker::Cpu, &s, 0, 0, 0).unwrap(),
        Prediction::default()
    );
    assert!(model.predict(Worker::Gpu(GPU0), &s, 1, 0, 0).is_err());
    // Moving bytes to the CPU needs a GPU to move them from.
    assert!(model.predict(Worker::Cpu, &s, 1, 100, 0).is_err());
    // Huge counts saturate, they do not overflow or panic.
    let p = model.predict(Worker::Cpu, &s, usize::MAX, 0, 0).unwrap();
    assert!(p.compute > Duration::from_secs(1 << 40));
}

#[test]
fn gpu_predictions_interpolate_extrapolate_and_add_transfers() {
    let model = CostModel {
        gpus: vec![gpu(GPU0, vec![(1, 0.002), (100, 0.002), (1000, 0.011)])],
        ..CostModel::default()
    };
    let g = Worker::Gpu(GPU0);
    // One layer of 50: latency-bound. Of 550: halfway between 100 and 1000.
    let p = model.predict(g, &stats(&[50]), 1, 0, 0).unwrap();
    assert!(close(p.compute, 0.002));
    let p = model.predict(g, &stats(&[550]), 1, 0, 0).unwrap();
    assert!(close(p.compute, 0.0065));
    // Beyond the largest sample: its throughput (11 us per bootstrap).
    let p = model.predict(g, &stats(&[5000]), 1, 0, 0).unwrap();
    assert!(close(p.compute, 0.055));
    // Layers add up: 10 operations of [5, 55] are layers of 50 and 550.
    let p = model.predict(g, &stats(&[5, 55]), 10, 0, 0).unwrap();
    assert!(close(p.compute, 0.0085));
    // Transfers: latency + bytes at each direction's bandwidth, none for 0 bytes.
    let p = model
        .predict(g, &stats(&[1]), 1, 1_000_000_000, 500_000_000)
        .unwrap();
    assert!(close(p.transfer, (1e-3 + 1.0) + (1e-3 + 1.0)), "{p:?}");
    let p = model.predict(g, &stats(&[1]), 1, 1000, 0).unwrap();
    assert!(close(p.transfer, 1e-3 + 1e-6));
    assert!(close(p.total(), 0.002 + 1e-3 + 1e-6));
    // Noisy samples (a larger batch measured faster) never make the time decrease.
    let noisy = CostModel {
        gpus: vec![gpu(GPU0, vec![(1, 0.003), (64, 0.002), (512, 0.004)])],
        ..CostModel::default()
    };
    let mut last = Duration::ZERO;
    for n in [1, 2, 10, 63, 64, 65, 300, 512, 513, 10_000] {
        let t = noisy.predict(g, &stats(&[n]), 1, 0, 0).unwrap().compute;
        assert!(t >= last, "{n}: {t:?} < {last:?}");
        last = t;
    }
}

#[test]
fn the_device_to_core_ratio_overrides_the_gpu_throughput() {
    let mut model = CostModel {
        cpu: Some(cpu(8, 0.020, 0.016)),
        gpus: vec![gpu(GPU0, vec![(1, 0.004), (4096, 0.1)])],
        device_to_core_ratio: None,
    };
    let g = Worker::Gpu(GPU0);
    let big = stats(&[100_000]);
    let samples = model.predict(g, &big, 1, 0, 0).unwrap().compute;
    assert!(close(samples, 0.1 * 100_000.0 / 4096.0));
    // A GPU worth 40 cores: 100,000 bootstraps at 16 ms / 40 each.
    model = model.with_device_to_core_ratio(40.0).unwrap();
    let p = model.predict(g, &big, 1, 0, 0).unwrap();
    assert!(close(p.compute, 100_000.0 * 0.016 / 40.0), "{p:?}");
    // A launch is still no faster than the smallest sample.
    let p = model.predict(g, &stats(&[1]), 1, 0, 0).unwrap();
    assert!(close(p.compute, 0.004));
    // The override needs a CPU core to refer to, and a finite positive value.
    let no_cpu = CostModel {
        cpu: None,
        ..model.clone()
    };
    assert!(matches!(
        no_cpu.predict(g, &big, 1, 0, 0),
        Err(Error::InvalidParameter(_))
    ));
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(
            model.clone().with_device_to_core_ratio(bad).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn invalid_speeds_are_errors_not_panics() {
    let base = CostModel {
        cpu: Some(cpu(2, 0.01, 0.01)),
        gpus: vec![gpu(GPU0, vec![(1, 0.01), (8, 0.02)])],
        device_to_core_ratio: None,
    };
    base.validate().unwrap();
    let s = stats(&[1]);
    let mut broken = Vec::new();
    let mut m = base.clone();
    m.cpu.as_mut().unwrap().threads = 0;
    broken.push(m);
    let mut m = base.clone();
    m.cpu.as_mut().unwrap().seconds_per_bootstrap_one_core = f64::NAN;
    broken.push(m);
    let mut m = base.clone();
    m.gpus[0].samples = vec![(8, 0.01), (1, 0.02)];
    broken.push(m);
    let mut m = base.clone();
    m.gpus[0].samples.clear();
    broken.push(m);
    let mut m = base.clone();
    m.gpus[0].samples[0] = (0, 0.01);
    broken.push(m);
    let mut m = base.clone();
    m.gpus[0].host_to_device_bytes_per_second = 0.0;
    broken.push(m);
    let mut m = base.clone();
    m.gpus.push(m.gpus[0].clone());
    broken.push(m);
    for m in broken {
        assert!(m.validate().is_err(), "{m:?}");
        assert!(m.predict(Worker::Cpu, &s, 1, 0, 0).is_err());
    }
}

/// The makespan of a split.
fn makespan(shares: &[usize], costs: &[&dyn Fn(usize) -> f64]) -> f64 {
    shares
        .iter()
        .zip(costs)
        .map(|(&s, c)| if s == 0 { 0.0 } else { c(s) })
        .fold(0.0, f64::max)
}

#[test]
fn identical_workers_get_even_shares() {
    let linear = |s: usize| 0.02 * s as f64;
    let costs: [&dyn Fn(usize) -> f64; 3] = [&linear, &linear, &linear];
    for count in [0, 1, 2, 3, 10, 100, 1001, 99_999] {
        let shares = plan(count, &costs);
        assert_eq!(shares.iter().sum::<usize>(), count);
        let (min, max) = (shares.iter().min().unwrap(), shares.iter().max().unwrap());
        assert!(max - min <= 1, "{count}: {shares:?}");
        // Deterministic.
        assert_eq!(plan(count, &costs), shares);
    }
    // A latency-bound GPU: the same time for any batch up to 1000; still even.
    let flat = |s: usize| 0.004f64.max(s as f64 * 4e-6);
    assert_eq!(plan(64, &[&flat, &flat]), vec![32, 32]);
    assert_eq!(plan(1, &[&flat, &flat]), vec![1, 0]);
}

#[test]
fn faster_workers_get_proportionally_more_and_useless_ones_nothing() {
    let slow = |s: usize| 3.0 * s as f64;
    let fast = |s: usize| s as f64;
    assert_eq!(plan(400, &[&slow, &fast]), vec![100, 300]);
    let shares = plan(1001, &[&fast, &slow]);
    assert_eq!(shares.iter().sum::<usize>(), 1001);
    let ratio = shares[0] as f64 / shares[1] as f64;
    assert!((ratio - 3.0).abs() < 0.05, "{shares:?}");
    // A CPU that needs 30 ms per operation beside GPUs that do a batch in 4 ms.
    let cpu = |s: usize| 0.030 * s as f64;
    let gpu = |s: usize| 0.004 + s as f64 * 3e-5;
    let shares = plan(100, &[&cpu, &gpu, &gpu]);
    assert_eq!(shares, vec![0, 50, 50]);
    // ... but at very large counts the CPU takes its part.
    let shares = plan(1_000_000, &[&cpu, &gpu, &gpu]);
    assert!(shares[0] > 0 && shares[0] < 2000, "{shares:?}");
    // A worker that can never finish (infinite or NaN) gets nothing.
    let never = |_: usize| f64::INFINITY;
    let nan = |_: usize| f64::NAN;
    assert_eq!(plan(10, &[&never, &fast, &nan]), vec![0, 10, 0]);
    // No worker: nothing to return; one worker: everything.
    assert!(plan(5, &[]).is_empty());
    assert_eq!(plan(5, &[&slow]), vec![5]);
}

#[test]
fn the_split_has_the_least_makespan() {
    // Brute force over every split of small counts for three workers of different
    // shapes (linear, latency-bound, stepwise).
    let linear = |s: usize| 2.0 * s as f64;
    let flat = |s: usize| 5.0f64.max(s as f64);
    let steps = |s: usize| 3.0 * s.div_ceil(4) as f64;
    let costs: [&dyn Fn(usize) -> f64; 3] = [&linear, &flat, &steps];
    for count in 0..=14 {
        let shares = plan(count, &costs);
        assert_eq!(shares.iter().sum::<usize>(), count);
        let mut best = f64::INFINITY;
        for a in 0..=count {
            for b in 0..=count - a {
                best = best.min(makespan(&[a, b, count - a - b], &costs));
            }
        }
        assert_eq!(makespan(&shares, &costs), best, "{count}: {shares:?}");
    }
}

#[test]
fn huge_counts_split_in_bounded_time_without_overflow() {
    let a = |s: usize| s as f64 * 1e-6;
    let b = |s: usize| s as f64 * 2e-6;
    let start = Instant::now();
    let shares = plan(usize::MAX, &[&a, &b, &a]);
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(
        shares
            .iter()
            .fold(0usize, |t, &s| t.checked_add(s).unwrap()),
        usize::MAX
    );
    assert!(shares[0] > shares[1] && shares[0].abs_diff(shares[2]) <= 1);
    assert_eq!(
        split_even(usize::MAX, 2)
            .iter()
            .map(|&s| s as u128)
            .sum::<u128>(),
        usize::MAX as u128
    );
    assert_eq!(split_even(7, 3), vec![3, 2, 2]);
    assert_eq!(split_even(0, 2), vec![0, 0]);
    assert!(split_even(5, 0).is_empty());
}

fn add64(count: usize, operands: Device) -> Workload {
    Workload {
        operation: Operation::Binary(BinaryOp::Add, RightOperand::Encrypted),
        bits: 64,
        count,
        operands,
    }
}

#[test]
fn advice_on_a_64_bit_addition_follows_its_circuit() {
    // Two threads (parallelism < 4): ripple carry, 32 layers of one bootstrap.
    let model = CostModel {
        cpu: Some(cpu(2, 0.025, 0.020)),
        gpus: vec![gpu(GPU0, vec![(1, 0.004), (1000, 0.004), (4000, 0.016)])],
        device_to_core_ratio: None,
    };
    let one = model
        .advise(&DEFAULT_PARAMETERS, &add64(1, Device::Cpu))
        .unwrap();
    let cpu_stats = &one.stats[0];
    assert_eq!(cpu_stats.0, Worker::Cpu);
    assert_eq!((cpu_stats.1.bootstraps, cpu_stats.1.depth), (32, 32));
    assert!(close(one.cpu.unwrap().compute, 32.0 * 0.025));
    assert_eq!(one.cpu.unwrap().transfer, Duration::ZERO);
    // On the GPU (160 bootstraps at once): the low-latency carry, fewer layers.
    let gpu_stats = &one.stats[1].1;
    assert!(
        gpu_stats.depth < 32 && gpu_stats.bootstraps > 32,
        "{gpu_stats:?}"
    );
    let layers = gpu_stats.depth as f64;
    assert!(close(one.gpu.unwrap().compute, layers * 0.004));
    // The operands go up (2 x 32 blocks) and the result comes back (32 blocks).
    let block = (2048 + 1) * 8;
    let up = 1e-3 + (64 * block) as f64 / 1e9;
    let down = 1e-3 + (32 * block) as f64 / 5e8;
    assert!(close(one.gpu.unwrap().transfer, up + down), "{one:?}");
    // 10 additions: 32 layers of 10 bootstraps over 2 threads, 5 rounds of 20 ms.
    let ten = model
        .advise(&DEFAULT_PARAMETERS, &add64(10, Device::Cpu))
        .unwrap();
    assert!(close(ten.cpu.unwrap().compute, 32.0 * 5.0 * 0.020));
    let speedup = ten.cpu.unwrap().total().as_secs_f64() / ten.gpu.unwrap().total().as_secs_f64();
    assert!((ten.speedup.unwrap() - speedup).abs() < 1e-9);
    // The split is the dispatcher's: everything on the GPU here.
    assert_eq!(ten.split, vec![(Worker::Cpu, 0), (Worker::Gpu(GPU0), 10)]);
    assert_eq!(ten.split_time, ten.gpu.unwrap().total());
    let row = ten.to_string();
    assert!(
        row.contains("FheUint64 add") && row.contains("GPU 0: 10"),
        "{row}"
    );
    assert!(!row.contains("modelled"), "{row}");
}

#[test]
fn advice_moves_only_operands_that_live_elsewhere() {
    let model = CostModel {
        cpu: Some(cpu(2, 0.025, 0.020)),
        gpus: vec![
            gpu(GPU0, vec![(1, 0.004), (4000, 0.016)]),
            gpu(GPU1, vec![(1, 0.004), (4000, 0.016)]),
        ],
        device_to_core_ratio: None,
    };
    let alone = |operands| {
        model
            .advise(&DEFAULT_PARAMETERS, &add64(100, operands))
            .unwrap()
            .alone
    };
    let on_cpu = alone(Device::Cpu);
    assert_eq!(on_cpu[0].1.transfer, Duration::ZERO);
    assert!(on_cpu[1].1.transfer > Duration::ZERO);
    let on_gpu0 = alone(Device::CudaGpu(GPU0));
    // Already on GPU 0: no copy there; the CPU must bring them down and back up;
    // GPU 1 gets them through the host (down from 0, up to 1, and back).
    assert_eq!(on_gpu0[1].1.transfer, Duration::ZERO);
    let block = (2048.0 + 1.0) * 8.0;
    let down_and_up = (1e-3 + 100.0 * 64.0 * block / 5e8) + (1e-3 + 100.0 * 32.0 * block / 1e9);
    assert!(close(on_gpu0[0].1.transfer, down_and_up));
    assert!(close(
        on_gpu0[2].1.transfer,
        on_cpu[2].1.transfer.as_secs_f64() + on_gpu0[0].1.transfer.as_secs_f64()
    ));
    // Compute does not depend on where the operands are.
    assert_eq!(on_gpu0[2].1.compute, on_cpu[2].1.compute);
    // A GPU the model does not know is an error.
    assert!(model
        .advise(
            &DEFAULT_PARAMETERS,
            &add64(1, Device::CudaGpu(GpuIndex::new(7)))
        )
        .is_err());
}

#[test]
fn modelled_advice_says_so_and_comparisons_return_one_block() {
    let model = CostModel::modelled(&DEFAULT_PARAMETERS, 2, &[GPU0]);
    let lt = Workload {
        operation: Operation::Comparison(CmpOp::Lt, RightOperand::Clear(100u8.into())),
        bits: 8,
        count: 100,
        operands: Device::Cpu,
    };
    let advice = model.advise(&DEFAULT_PARAMETERS, &lt).unwrap();
    assert_eq!(advice.gpu_provenance, Some(Provenance::Modelled));
    let row = advice.to_string();
    assert!(row.contains("modelled") && row.contains("lt 100"), "{row}");
    // One clear operand of 4 blocks up, one block back.
    let block = (2048.0 + 1.0) * 8.0;
    let want = (10e-6 + 100.0 * 4.0 * block / 25e9) + (10e-6 + 100.0 * block / 25e9);
    assert!(close(advice.gpu.unwrap().transfer, want), "{advice:?}");
    let zero_bits = Workload { bits: 0, ..lt };
    assert!(model.advise(&DEFAULT_PARAMETERS, &zero_bits).is_err());
    assert!(CostModel::default()
        .advise(&DEFAULT_PARAMETERS, &lt)
        .is_err());
}

fn sample_calibration(params: ShortintParameters) -> Calibration {
    Calibration::new(
        params,
        cpu(3, 0.0123456789, 0.0111),
        vec![gpu(GPU0, vec![(1, 0.004), (64, 0.0045), (4096, 0.15)])],
    )
    .unwrap()
}

#[test]
fn calibrations_round_trip_and_corruption_is_an_error() {
    let calibration = sample_calibration(DEFAULT_PARAMETERS);
    let mut bytes = Vec::new();
    safe_serialize(&calibration, &mut bytes, 1 << 20).unwrap();
    let back: Calibration = safe_deserialize(bytes.as_slice(), 1 << 20).unwrap();
    assert_eq!(back, calibration);
    assert_eq!(back.cost_model(), calibration.cost_model());
    // Through a file.
    let dir = std::env::temp_dir().join(format!("gpufhe-scheduler-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("calibration.bin");
    calibration.save(&path).unwrap();
    assert_eq!(Calibration::load(&path).unwrap(), calibration);
    // A corrupted time (NaN), a truncated file, another type, a missing file.
    let needle = 0.0123456789f64.to_le_bytes();
    let at = bytes
        .windows(8)
        .position(|w| w == needle)
        .expect("the time is in the bytes");
    let mut nan = bytes.clone();
    nan[at..at + 8].copy_from_slice(&f64::NAN.to_le_bytes());
    std::fs::write(&path, &nan).unwrap();
    assert!(matches!(
        Calibration::load(&path),
        Err(Error::Serialization(_))
    ));
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    assert!(Calibration::load(&path).is_err());
    let mut other = Vec::new();
    safe_serialize(&ConfigBuilder::default().build(), &mut other, 1 << 20).unwrap();
    std::fs::write(&path, &other).unwrap();
    assert!(Calibration::load(&path).is_err());
    assert!(Calibration::load(dir.join("missing.bin")).is_err());
    // Every single-byte flip is read back as an error or as a valid calibration.
    for i in 0..bytes.len() {
        let mut flipped = bytes.clone();
        flipped[i] ^= 0x5a;
        if let Ok(c) = safe_deserialize::<Calibration>(flipped.as_slice(), 1 << 20) {
            c.cost_model().validate().unwrap();
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_calibration_is_used_only_with_its_parameters_and_gpus() {
    let (_, compressed) = insecure_keys();
    let key: ServerKey = compressed.decompress();
    // Measured elsewhere: for other parameters.
    let elsewhere = sample_calibration(DEFAULT_PARAMETERS);
    assert!(matches!(
        elsewhere.cost_model_for(&key),
        Err(Error::InvalidParameter(_))
    ));
    // For these parameters: the CPU key uses the CPU and no GPU.
    let here = sample_calibration(insecure_parameters());
    let model = here.cost_model_for(&key).unwrap();
    assert_eq!(model.cpu.as_ref().unwrap().threads, 3);
    assert!(model.gpus.is_empty());
}

#[test]
fn measuring_a_cpu_key_gives_positive_finite_times() {
    let (_, compressed) = insecure_keys();
    let key = compressed.decompress();
    let options = CalibrationOptions {
        repetitions: 1,
        cpu_threads: Some(2),
        cpu_batch_per_thread: 2,
        ..CalibrationOptions::default()
    };
    let calibration = Calibration::measure_with(&key, &options).unwrap();
    let cpu = calibration.cpu();
    assert_eq!(cpu.threads, 2);
    assert_eq!(cpu.provenance, Provenance::Measured);
    for t in [
        cpu.seconds_per_bootstrap_one_core,
        cpu.seconds_per_bootstrap_batched,
    ] {
        assert!(t.is_finite() && t > 0.0 && t < 10.0, "{t}");
    }
    assert!(calibration.gpus().is_empty());
    assert_eq!(calibration.parameters(), &insecure_parameters());
    calibration.check(&key).unwrap();
    assert!(calibration.to_string().contains("measured"));
    let bad = CalibrationOptions {
        repetitions: 0,
        ..options
    };
    assert!(Calibration::measure_with(&key, &bad).is_err());
}

#[cfg(feature = "gpu")]
#[test]
fn measuring_a_gpu_key_gives_a_speed_per_gpu() {
    if crate::skip::gpu_for_tests().is_none() {
        return;
    }
    let (_, compressed) = insecure_keys();
    let key = compressed.try_decompress_to_gpu().expect("GPU key");
    let options = CalibrationOptions {
        gpu_batch_sizes: vec![2, 1],
        repetitions: 1,
        cpu_threads: Some(1),
        cpu_batch_per_thread: 1,
    };
    let calibration = Calibration::measure_with(&key, &options).unwrap();
    assert_eq!(
        calibration.gpus().len() as u32,
        gpufhe::get_number_of_gpus()
    );
    for (i, g) in calibration.gpus().iter().enumerate() {
        assert_eq!(g.gpu, GpuIndex::new(i as u32));
        assert_eq!(g.provenance, Provenance::Measured);
        assert_eq!(
            g.samples.iter().map(|s| s.0).collect::<Vec<_>>(),
            vec![1, 2]
        );
        for &(_, t) in &g.samples {
            assert!(t.is_finite() && t > 0.0, "{t}");
        }
        assert!(g.host_to_device_bytes_per_second.is_finite());
        assert!(g.description.contains("SMs"), "{}", g.description);
    }
    let model = calibration.cost_model_for(&key).unwrap();
    let workload = add64(10, Device::CudaGpu(GPU0));
    let params = insecure_parameters();
    let advice = model.advise(&params, &workload).unwrap();
    assert_eq!(advice.split.iter().map(|s| s.1).sum::<usize>(), 10);
    // A calibration of another GPU model is refused for this key.
    let mut gpus = calibration.gpus().to_vec();
    gpus[0].description = "sm_10, 1 SMs, 1 MiB".into();
    let other = Calibration::new(params, calibration.cpu().clone(), gpus).unwrap();
    assert!(other.cost_model_for(&key).is_err());
    // And one without this key's GPUs too.
    let cpu_only = Calibration::new(params, calibration.cpu().clone(), vec![]).unwrap();
    assert!(cpu_only.check(&key).is_err());
}
