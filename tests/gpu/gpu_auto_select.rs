//! `Devices::auto_select` and `probe_gpus` against a driver. On any driver: every
//! visible GPU is probed and the choice follows the probes. On the fake driver
//! (`GPUFHE_FAKE_CUDA_DEVICES=4 scripts/fake-cuda.sh cargo test --release --test
//! gpu_auto_select`): GPUs used by other processes, in exclusive-process mode held
//! by another process, or prohibited. The fake reads its settings once per process
//! (at cuInit), so each of those cases runs this test binary again as a child
//! process with its own settings. Without a driver the tests print
//! `SKIPPED (no CUDA device)`, unless `GPUFHE_REQUIRE_GPU=1`.

use crate::child::test_path;
use crate::fake_child;

use fake_child::run_passing_child;
use gpufhe::backend::cuda::{CudaDevice, CudaLweCiphertextList};
use gpufhe::core_crypto::{LweCiphertextCount, LweSize};
use gpufhe::scheduler::{probe_gpus, Devices, GpuProbe};
use gpufhe::{get_number_of_gpus, Error, GpuIndex};

/// Set in a child process to the name of the test it runs.
const CHILD: &str = "GPUFHE_TEST_AUTO_SELECT_CHILD";
const MIB: u64 = 1 << 20;

fn gpus(indices: &[u32]) -> Vec<GpuIndex> {
    indices.iter().copied().map(GpuIndex::new).collect()
}

fn resolved(devices: &Devices) -> Vec<GpuIndex> {
    devices
        .resolve(get_number_of_gpus())
        .expect("a choice of visible GPUs")
}

/// The probes, or `None` after printing `SKIPPED (no CUDA device)` (a panic with
/// `GPUFHE_REQUIRE_GPU=1`).
fn probes_or_skip() -> Option<Vec<GpuProbe>> {
    let probes = probe_gpus().and_then(|probes| match probes.len() {
        0 => Err(Error::NoCudaDevice("the driver reports no device".into())),
        _ => Ok(probes),
    });
    match probes {
        Ok(probes) => Some(probes),
        Err(e) if std::env::var("GPUFHE_REQUIRE_GPU").is_ok_and(|v| v == "1") => {
            panic!("GPUFHE_REQUIRE_GPU=1 but no usable CUDA device: {e}")
        }
        Err(e) => {
            crate::skip::report_skipped(format_args!("(no CUDA device): {e}"));
            None
        }
    }
}

/// In the parent process: whether `test` may start children on the fake driver
/// (printing why not otherwise). In a child: false.
fn parent_on_fake_driver(test: &str) -> bool {
    !is_child(test) && probes_or_skip().is_some() && fake_child::on_fake_driver_or_skip()
}

/// Runs `test` again in a child process on the fake driver with `devices` fake GPUs
/// and `settings`; returns its stderr after checking that the test ran and passed.
fn run_child(test: &str, devices: u32, settings: &[(&str, &str)]) -> String {
    run_passing_child(test, CHILD, devices, &[], &[], settings).1
}

fn is_child(test: &str) -> bool {
    fake_child::is_child(CHILD, test)
}

#[test]
fn every_visible_gpu_is_probed_and_the_choice_follows_the_probes() {
    let Some(probes) = probes_or_skip() else {
        return;
    };
    assert_eq!(probes.len() as u32, get_number_of_gpus());
    for (i, probe) in probes.iter().enumerate() {
        assert_eq!(probe.gpu, GpuIndex::new(i as u32));
        assert!(probe.total_bytes > 0, "{probe:?}");
        assert!(probe.free_bytes <= probe.total_bytes, "{probe:?}");
    }
    let usable: Vec<&GpuProbe> = probes.iter().filter(|p| p.is_usable()).collect();
    let k = usable.len() as u32;
    if k > 0 {
        let chosen = resolved(&Devices::auto_select(k).unwrap());
        assert_eq!(chosen.len(), usable.len());
        // Most free memory first (free memory may move a little between probes).
        let first = probes[chosen[0].get() as usize].free_bytes;
        assert!(usable.iter().all(|p| p.free_bytes <= first + 64 * MIB));
    }
    let err = Devices::auto_select(k + 1).unwrap_err();
    assert!(
        err.to_string().contains(&format!("but only {k} of the")),
        "{err}"
    );
    // Probing left nothing behind that stops the GPUs from being opened.
    if k > 0 {
        let first = resolved(&Devices::auto_select(1).unwrap())[0];
        match CudaDevice::new(first.get() as usize) {
            Ok(device) => assert_eq!(device.ordinal(), first.get() as usize),
            Err(Error::KernelsNotBuilt) => println!("kernels not built: not opening a GPU"),
            Err(e) => panic!("{first} was probed usable but does not open: {e}"),
        }
    }
}

#[test]
fn the_gpus_with_the_most_free_memory_are_chosen() {
    let test = &test_path!("the_gpus_with_the_most_free_memory_are_chosen");
    if parent_on_fake_driver(test) {
        let settings = [
            ("GPUFHE_FAKE_CUDA_MEMORY_MIB", "1024"),
            ("GPUFHE_FAKE_CUDA_USED_MIB", "600, 0,1000 ,300"),
        ];
        run_child(test, 4, &settings);
    }
    if !is_child(test) {
        return;
    }
    let probes = probe_gpus().unwrap();
    let free: Vec<u64> = probes.iter().map(|p| p.free_bytes / MIB).collect();
    assert_eq!(free, [424, 1024, 24, 724]);
    assert!(probes
        .iter()
        .all(|p| p.total_bytes == 1024 * MIB && p.is_usable()));
    assert_eq!(resolved(&Devices::auto_select(2).unwrap()), gpus(&[1, 3]));
    assert_eq!(
        resolved(&Devices::auto_select(4).unwrap()),
        gpus(&[1, 3, 0, 2])
    );

    // The memory other processes use is gone for this one too.
    let busy = match CudaDevice::new(2) {
        Err(Error::KernelsNotBuilt) => return println!("kernels not built: no allocation"),
        device => device.unwrap(),
    };
    assert_eq!(busy.memory_info().unwrap(), (24 << 20, 1024 << 20));
    let idle = CudaDevice::new(1).unwrap();
    let (size, count) = (LweSize(1 << 10), LweCiphertextCount(4096)); // 32 MiB
    let err = CudaLweCiphertextList::new_zero(&busy, size, count).unwrap_err();
    assert!(matches!(err, Error::OutOfDeviceMemory(_)), "{err:?}");
    CudaLweCiphertextList::new_zero(&idle, size, count).unwrap();
}

#[test]
fn exclusive_and_prohibited_gpus_are_skipped() {
    let test = &test_path!("exclusive_and_prohibited_gpus_are_skipped");
    if parent_on_fake_driver(test) {
        let settings = [
            ("GPUFHE_FAKE_CUDA_EXCLUSIVE", "1"),
            ("GPUFHE_FAKE_CUDA_PROHIBITED", "2"),
            ("GPUFHE_FAKE_CUDA_USED_MIB", "0,0,0,1000"),
        ];
        run_child(test, 4, &settings);
    }
    if !is_child(test) {
        return;
    }
    let probes = probe_gpus().unwrap();
    let usable: Vec<bool> = probes.iter().map(GpuProbe::is_usable).collect();
    assert_eq!(usable, [true, false, false, true]);
    let reason = |i: usize| probes[i].unusable.clone().unwrap();
    assert!(reason(1).contains("exclusive-process"), "{}", reason(1));
    assert!(
        reason(1).contains("CUDA_ERROR_DEVICE_UNAVAILABLE"),
        "{}",
        reason(1)
    );
    assert!(reason(2).contains("prohibited"), "{}", reason(2));
    assert_eq!(resolved(&Devices::auto_select(1).unwrap()), gpus(&[0]));
    assert_eq!(resolved(&Devices::auto_select(2).unwrap()), gpus(&[0, 3]));

    // Asking for more GPUs than are usable says how many are and why not the rest.
    let err = Devices::auto_select(3).unwrap_err();
    let text = err.to_string();
    for piece in [
        "3 GPUs requested, but only 2 of the 4 visible GPUs are usable",
        "GPU 1: it is in exclusive-process compute mode and another process holds it",
        "GPU 2: its compute mode is prohibited",
    ] {
        assert!(text.contains(piece), "{text:?} should say {piece:?}");
    }
    // Opening a busy GPU is an error, not a crash.
    for busy in [1, 2] {
        let err = CudaDevice::new(busy).unwrap_err();
        assert!(!matches!(err, Error::InvalidParameter(_)), "{err:?}");
    }
}

#[test]
fn no_usable_gpu_is_an_error() {
    let test = &test_path!("no_usable_gpu_is_an_error");
    if parent_on_fake_driver(test) {
        let settings = [
            ("GPUFHE_FAKE_CUDA_EXCLUSIVE", "0"),
            ("GPUFHE_FAKE_CUDA_PROHIBITED", "1"),
        ];
        run_child(test, 2, &settings);
    }
    if !is_child(test) {
        return;
    }
    assert_eq!(get_number_of_gpus(), 2);
    let err = Devices::auto_select(1).unwrap_err();
    assert!(matches!(err, Error::NoCudaDevice(_)), "{err:?}");
    assert!(
        err.to_string()
            .contains("1 GPU requested, but only 0 of the 2 visible GPUs are usable"),
        "{err}"
    );
    assert_eq!(Devices::auto_select(0).unwrap(), Devices::cpu());
}

#[test]
fn malformed_fake_settings_fail_at_cuinit() {
    let test = &test_path!("malformed_fake_settings_fail_at_cuinit");
    if parent_on_fake_driver(test) {
        let cases = [
            (
                "GPUFHE_FAKE_CUDA_USED_MIB",
                "1,x",
                "\"x\" is not a non-negative integer",
            ),
            (
                "GPUFHE_FAKE_CUDA_USED_MIB",
                "1,-2",
                "\"-2\" is not a non-negative integer",
            ),
            (
                "GPUFHE_FAKE_CUDA_USED_MIB",
                "1",
                "1 value(s) for 2 device(s)",
            ),
            (
                "GPUFHE_FAKE_CUDA_USED_MIB",
                "0,99999999",
                "more than its 81920",
            ),
            ("GPUFHE_FAKE_CUDA_EXCLUSIVE", "2", "device 2 does not exist"),
            (
                "GPUFHE_FAKE_CUDA_PROHIBITED",
                "0,,1",
                "\"\" is not a non-negative integer",
            ),
            ("GPUFHE_FAKE_CUDA_EXCLUSIVE", "1,1", "listed twice"),
        ];
        for (variable, value, says) in cases {
            let stderr = run_child(test, 2, &[(variable, value)]);
            let expected = format!("fake libcuda: cuInit failed: {variable}");
            assert!(stderr.contains(&expected), "{variable}={value}: {stderr}");
            assert!(
                stderr.contains(says),
                "{variable}={value}: {stderr} should say {says}"
            );
        }
        // In both lists.
        let both = [
            ("GPUFHE_FAKE_CUDA_EXCLUSIVE", "1"),
            ("GPUFHE_FAKE_CUDA_PROHIBITED", "1"),
        ];
        assert!(run_child(test, 2, &both).contains("in both GPUFHE_FAKE_CUDA_EXCLUSIVE"));
    }
    if !is_child(test) {
        return;
    }
    // The driver refuses to start: no GPU, and probing is an error, not a panic.
    assert_eq!(get_number_of_gpus(), 0);
    let err = probe_gpus().unwrap_err();
    assert!(err.to_string().contains("did not initialize"), "{err}");
    assert!(Devices::auto_select(1).is_err());
}

#[test]
fn a_key_over_a_gpus_memory_budget_is_an_err_before_any_copy() {
    // A fake GPU whose memory holds the key of the small parameters with ~10 % to
    // spare: over the default budget (75 % of the free memory), so decompressing to
    // it is an Err naming the need; with a budget of all of it, the key fits.
    use gpufhe::memory::{set_memory_limit, MemoryLimit};
    use gpufhe::{ClientKey, CompressedServerKey, ConfigBuilder};
    let p = crate::cuda_support::small_parameters();
    let (n, k, big) = (
        p.lwe_dimension.0 as u64,
        p.glwe_dimension.0 as u64,
        p.big_lwe_dimension().0 as u64,
    );
    let bootstrap = n * (k + 1) * (k + 1) * p.pbs_level.0 as u64 * p.polynomial_size.0 as u64 * 8;
    let need = 2 * bootstrap + big * p.ks_level.0 as u64 * (n + 1) * 8;
    let test = &test_path!("a_key_over_a_gpus_memory_budget_is_an_err_before_any_copy");
    if parent_on_fake_driver(test) {
        let mib = (need * 10 / 9).div_ceil(MIB).to_string();
        run_child(test, 1, &[("GPUFHE_FAKE_CUDA_MEMORY_MIB", mib.as_str())]);
    }
    if !is_child(test) {
        return;
    }
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(p)
        .unwrap();
    let key = CompressedServerKey::new(&ClientKey::generate(config));
    let err = key.try_decompress_to_gpu().unwrap_err();
    assert!(matches!(err, Error::OutOfDeviceMemory(_)), "{err}");
    let text = err.to_string();
    assert!(
        text.contains(&format!(
            "decompressing a server key to GPU 0 needs {need} bytes"
        )),
        "{text}"
    );
    assert!(text.contains("75% of the available memory"), "{text}");
    set_memory_limit(MemoryLimit::Share(100));
    key.try_decompress_to_gpu().unwrap();
    set_memory_limit(None);
}
