//! What the host code asks of the driver, read back on the fake driver: the launches
//! it made (`GPUFHE_FAKE_CUDA_TRACE` writes one line per kernel that ran, with its
//! geometry, the bootstrap's parameters and the emulation's thread order) and its
//! memory pool. The multi-bit accumulation prefetches every line of a ciphertext's
//! own bundles (share 1); `Auto` never takes a bootstrap kernel with local memory
//! (N = 4096, as the machine code of sm_90 and sm_80 has it), and takes the kernel
//! the calibration measured faster beyond one wave; the thread order reaches every
//! host thread; the pool keeps freed memory mapped, counted as free. The fake reads
//! its settings once per process, so each case runs in a child:
//!
//! ```text
//! scripts/fake-cuda.sh cargo test --release --test gpu cuda_launch_parameters::
//! ```
//!
//! Without the fake driver the tests print why they skip.

use crate::child::test_path;
use crate::cuda_support;
use crate::fake_child;

use cuda_support::*;
use gpufhe::backend::cuda::*;
use gpufhe::backend::{Backend, BlockExpr, Step, Table};
use gpufhe::core_crypto::*;
use gpufhe::scheduler::{measure_gpu, CalibrationOptions};
use gpufhe::shortint::{
    ClientKey, CompressedServerKey, ShortintParameters, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
    PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2,
};
use std::collections::HashMap;
use std::path::PathBuf;

/// Set in a child process to the name of the test it runs.
const CHILD: &str = "GPUFHE_TEST_LAUNCH_CHILD";
const TRACE: &str = "GPUFHE_FAKE_CUDA_TRACE";

/// Local memory of the N = 4096 single-block bootstraps, as the sm_90 cubins have
/// it (scripts/kernel-report.sh prints it): their clusters have none. The sm_80
/// cubins have none in any of them.
const SM90_LOCAL_MEMORY: &str = "programmable_bootstrap_4096_u64=8,multi_bit_bootstrap_4096_u64=16";

/// In the parent, on the fake driver: runs `test` in a child with `settings` and a
/// trace file of its own, then returns `false`. In the child: `true` (run the body).
/// Without the fake driver: prints the skip, `false`.
fn run_in_child(test: &str, settings: &[(&str, &str)]) -> bool {
    if fake_child::is_child(CHILD, test) {
        return true;
    }
    if !fake_child::on_fake_driver_or_skip() {
        return false;
    }
    let trace = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "launch-trace-{}-{}",
        std::process::id(),
        test.replace("::", "-")
    ));
    let _ = std::fs::remove_file(&trace);
    let mut settings = settings.to_vec();
    let path = trace.to_string_lossy().into_owned();
    settings.push((TRACE, &path));
    fake_child::run_passing_child(test, CHILD, 1, &[], &[], &settings);
    let _ = std::fs::remove_file(&trace);
    false
}

/// One line of the trace: the kernel's name and its `key=value` fields.
#[derive(Debug)]
struct Launch {
    kernel: String,
    fields: HashMap<String, String>,
}

impl Launch {
    fn field(&self, key: &str) -> &str {
        self.fields
            .get(key)
            .unwrap_or_else(|| panic!("{key} not traced: {self:?}"))
    }
}

/// The launches traced so far in this (child) process.
fn launches() -> Vec<Launch> {
    let path = std::env::var(TRACE).expect("the child's trace file");
    std::fs::read_to_string(path)
        .expect("the trace")
        .lines()
        .map(|line| {
            let mut words = line.split_whitespace();
            let kernel = words.next().expect("a kernel name").to_string();
            let fields = words
                .filter_map(|w| w.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            Launch { kernel, fields }
        })
        .collect()
}

/// The bootstrap launches traced after the first `skip` lines.
fn bootstraps_after(skip: usize) -> Vec<Launch> {
    launches()
        .into_iter()
        .skip(skip)
        .filter(|l| l.fields.contains_key("prefetch_share"))
        .filter(|l| !l.kernel.starts_with("multi_bit_key_bundle"))
        .collect()
}

/// A backend of `parameters` on GPU 0 and its client key.
fn backend(parameters: ShortintParameters) -> (ClientKey, CudaBackend) {
    let ck = ClientKey::new(parameters).unwrap();
    let key = CompressedServerKey::new(&ck).unwrap();
    let gpu = CudaDevice::new(0).unwrap();
    let backend = CudaBackend::new(&gpu, &key).unwrap();
    (ck, backend)
}

/// Bootstraps `count` fresh blocks of `ck` through the identity on `gpu`, checking
/// every result.
fn bootstrap_batch(ck: &ClientKey, gpu: &CudaBackend, count: usize) {
    let p = *ck.parameters();
    let values: Vec<u64> = (0..count as u64).map(|i| i % p.message_modulus).collect();
    let blocks = values.iter().map(|&v| ck.encrypt(v).unwrap()).collect();
    let identity = Table::new(&p, |x| x).unwrap();
    let step = Step {
        exprs: (0..count).map(|i| BlockExpr::table_of(i, 0)).collect(),
        tables: vec![&identity],
    };
    let out = gpu.eval(&[&gpu.upload(blocks).unwrap()], &step).unwrap();
    let got: Vec<u64> = gpu
        .download(&out)
        .unwrap()
        .iter()
        .map(|b| ck.decrypt(b).unwrap())
        .collect();
    assert_eq!(got, values);
}

#[test]
fn multi_bit_bootstraps_prefetch_their_whole_bundles() {
    let test = &test_path!("multi_bit_bootstraps_prefetch_their_whole_bundles");
    if !run_in_child(test, &[]) {
        return;
    }
    // The classical ciphertexts of a wave split the prefetch of the one key they
    // read: 8 of them (fewer than the 132 SMs / (k + 1) of a wave).
    let (ck, classical) = backend(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
    bootstrap_batch(&ck, &classical, 8);
    let classical_launches = bootstraps_after(0);
    assert!(!classical_launches.is_empty());
    for launch in &classical_launches {
        assert_eq!(launch.field("count"), "8", "{launch:?}");
        assert_eq!(launch.field("prefetch_share"), "8", "{launch:?}");
    }
    // Each multi-bit ciphertext reads bundles of its own: it prefetches all of them.
    let skip = launches().len();
    let (ck, multi_bit) = backend(PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2);
    bootstrap_batch(&ck, &multi_bit, 8);
    let accumulations = bootstraps_after(skip);
    assert!(!accumulations.is_empty());
    for launch in &accumulations {
        assert!(
            launch.kernel.starts_with("multi_bit_bootstrap"),
            "{launch:?}"
        );
        assert_eq!(launch.field("count"), "8", "{launch:?}");
        assert_eq!(launch.field("prefetch_share"), "1", "{launch:?}");
    }
}

/// Bootstraps a batch of `count` N = 4096 ciphertexts (k = 1, a small n) with
/// `kernel`, classical or of grouping factor 2, checks every result, and returns the
/// launches of the bootstrap.
fn bootstrap_4096(gpu: &CudaDevice, multi_bit: bool, kernel: PbsKernel) -> Result<Vec<Launch>> {
    let keys = Keys::new(gpu, insecure_parameters(8, 1, 4096, 23, 1));
    let p = keys.params();
    let batch = make_batch(&keys, 3);
    let switched: Vec<LweCiphertextOwned> = batch
        .blocks
        .iter()
        .map(|b| keys.cpu.keyswitch(b).unwrap())
        .collect();
    let small = CudaLweCiphertextList::from_cpu(gpu, &lwe_list(&switched)).unwrap();
    let tables = tables(&p);
    let refs: Vec<&Table> = tables.iter().collect();
    let luts = CudaLookupTableList::from_tables(gpu, &p, &refs).unwrap();
    let mut out = big_zeros(gpu, &p, batch.outputs);
    let skip = launches().len();
    let (slots, lut_indexes) = (&batch.output_slots, &batch.lut_indexes);
    if multi_bit {
        let bsk = multi_bit_key(gpu, &keys, 2);
        cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_with(
            &bsk,
            2,
            &small,
            &mut out,
            &luts,
            lut_indexes,
            slots,
            p.modulus_switch,
            kernel,
            usize::MAX,
        )?;
    } else {
        cuda_programmable_bootstrap_lwe_ciphertext_list_with(
            &keys.bsk,
            &small,
            &mut out,
            &luts,
            lut_indexes,
            slots,
            p.modulus_switch,
            kernel,
        )?;
    }
    check_outputs(
        &keys,
        &batch,
        &out.to_cpu().unwrap(),
        &format!("{kernel:?}"),
    );
    Ok(bootstraps_after(skip))
}

type Result<T> = gpufhe::Result<T>;

/// An H100's machine code at N = 4096: the single blocks spill, the clusters do
/// not. A batch of 3 on 4 SMs is beyond one wave, where the single block was taken.
#[test]
fn at_n_4096_auto_takes_the_cluster_on_sm_90() {
    let test = &test_path!("at_n_4096_auto_takes_the_cluster_on_sm_90");
    let settings = [
        ("GPUFHE_FAKE_CUDA_LOCAL_MEMORY", SM90_LOCAL_MEMORY),
        ("GPUFHE_FAKE_CUDA_MULTIPROCESSORS", "4"),
    ];
    if !run_in_child(test, &settings) {
        return;
    }
    let gpu = CudaDevice::new(0).unwrap();
    for multi_bit in [false, true] {
        let ran = bootstrap_4096(&gpu, multi_bit, PbsKernel::Auto).unwrap();
        assert!(!ran.is_empty());
        for launch in ran {
            assert!(launch.kernel.contains("_cluster_4096_"), "{launch:?}");
            assert_eq!(launch.field("cluster"), "2", "{launch:?}");
        }
    }
}

/// An A100's machine code at N = 4096 (no clusters, no local memory): the single
/// blocks of 256 threads, each holding both polynomials of k = 1 (512 threads would
/// leave 128 registers a thread, which spilled).
#[test]
fn at_n_4096_auto_takes_the_single_block_of_256_threads_on_sm_80() {
    let test = &test_path!("at_n_4096_auto_takes_the_single_block_of_256_threads_on_sm_80");
    if !run_in_child(test, &[("GPUFHE_FAKE_CUDA_CC", "80")]) {
        return;
    }
    let gpu = CudaDevice::new(0).unwrap();
    for (multi_bit, kernel) in [
        (false, "programmable_bootstrap_4096_u64"),
        (true, "multi_bit_bootstrap_4096_u64"),
    ] {
        let ran = bootstrap_4096(&gpu, multi_bit, PbsKernel::Auto).unwrap();
        assert!(!ran.is_empty());
        for launch in ran {
            assert_eq!(launch.kernel, kernel, "{launch:?}");
            assert_eq!(launch.field("block"), "256,1,1", "{launch:?}");
        }
    }
}

/// Where the only kernel that fits has local memory, `Auto` refuses it with the
/// reason (a key of those parameters is refused when it is made), and an explicit
/// request still runs it.
#[test]
fn auto_refuses_a_kernel_with_local_memory_when_nothing_else_fits() {
    let test = &test_path!("auto_refuses_a_kernel_with_local_memory_when_nothing_else_fits");
    let settings = [
        (
            "GPUFHE_FAKE_CUDA_LOCAL_MEMORY",
            "multi_bit_bootstrap_4096_u64=8",
        ),
        ("GPUFHE_FAKE_CUDA_CC", "80"),
    ];
    if !run_in_child(test, &settings) {
        return;
    }
    let gpu = CudaDevice::new(0).unwrap();
    let err = bootstrap_4096(&gpu, true, PbsKernel::Auto)
        .map(drop)
        .unwrap_err();
    assert!(err.to_string().contains("local memory"), "{err}");
    let ran = bootstrap_4096(&gpu, true, PbsKernel::SingleBlock).unwrap();
    assert!(ran
        .iter()
        .all(|l| l.kernel == "multi_bit_bootstrap_4096_u64"));
    // A GPU key of multi-bit parameters of that shape is refused when it is made.
    let mut p = PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2;
    p.polynomial_size = PolynomialSize(4096);
    p.lwe_dimension = LweDimension(8);
    p.pbs_kind = gpufhe::shortint::PbsKind::MultiBit { grouping_factor: 2 };
    let key = CompressedServerKey::new(&ClientKey::new(p).unwrap()).unwrap();
    let err = CudaBackend::new(&gpu, &key).map(drop).unwrap_err();
    assert!(err.to_string().contains("local memory"), "{err}");
}

/// The calibration times both kernels on its largest batch when it is beyond one
/// wave (3 bootstraps on 4 SMs): from then on `Auto` takes the faster there.
#[test]
fn after_calibration_auto_takes_the_kernel_measured_faster() {
    let test = &test_path!("after_calibration_auto_takes_the_kernel_measured_faster");
    if !run_in_child(test, &[("GPUFHE_FAKE_CUDA_MULTIPROCESSORS", "4")]) {
        return;
    }
    let (ck, gpu) = backend(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
    let kernel_of = |launches: Vec<Launch>| {
        assert!(!launches.is_empty());
        let cluster = launches[0].kernel.contains("cluster");
        assert!(launches
            .iter()
            .all(|l| l.kernel.contains("cluster") == cluster));
        if cluster {
            PbsKernel::Cluster
        } else {
            PbsKernel::SingleBlock
        }
    };
    // Not measured: the single block beyond one wave.
    assert_eq!(gpu.measured_bootstrap_kernel(), None);
    let skip = launches().len();
    bootstrap_batch(&ck, &gpu, 3);
    assert_eq!(kernel_of(bootstraps_after(skip)), PbsKernel::SingleBlock);
    let options = CalibrationOptions {
        gpu_batch_sizes: vec![3],
        repetitions: 1,
        ..CalibrationOptions::default()
    };
    let skip = launches().len();
    measure_gpu(&gpu, &options).unwrap();
    let timed = bootstraps_after(skip);
    for kernel in [
        "programmable_bootstrap_512_u64",
        "programmable_bootstrap_cluster_512_u64",
    ] {
        assert!(
            timed.iter().any(|l| l.kernel == kernel),
            "{kernel} not timed"
        );
    }
    let measured = gpu
        .measured_bootstrap_kernel()
        .expect("a kernel measured faster");
    let skip = launches().len();
    bootstrap_batch(&ck, &gpu, 3);
    assert_eq!(kernel_of(bootstraps_after(skip)), measured);
    // Within one wave the cluster, measured or not.
    let skip = launches().len();
    bootstrap_batch(&ck, &gpu, 2);
    assert_eq!(kernel_of(bootstraps_after(skip)), PbsKernel::Cluster);
}

#[test]
fn every_host_thread_runs_the_emulation_in_the_chosen_order() {
    let test = &test_path!("every_host_thread_runs_the_emulation_in_the_chosen_order");
    if !run_in_child(test, &[("GPUFHE_FAKE_CUDA_ORDER", "reverse")]) {
        return;
    }
    let negate = |gpu: &CudaDevice| {
        let host = LweCiphertextList::from_container(vec![1u64, 2, 3, 4], LweSize(2)).unwrap();
        let mut list = CudaLweCiphertextList::from_cpu(gpu, &host).unwrap();
        cuda_negate_lwe_ciphertext_list_assign(&mut list).unwrap();
        assert_eq!(list.to_cpu().unwrap().as_slice()[0], 0u64.wrapping_sub(1));
    };
    // This thread initialises the driver; others launch too.
    let gpu = CudaDevice::shared(0).unwrap();
    negate(&gpu);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| negate(&gpu.with_new_stream().unwrap()));
        }
    });
    let traced = launches();
    assert_eq!(traced.len(), 3, "{traced:?}");
    for launch in traced {
        assert_eq!(launch.field("order"), "reverse", "{launch:?}");
    }
}

/// The stream-ordered pool keeps what it mapped across synchronizations (its release
/// threshold is set when a device opens), and what it holds unused counts as free.
#[test]
fn the_memory_pool_keeps_freed_memory_and_counts_it_free() {
    let test = &test_path!("the_memory_pool_keeps_freed_memory_and_counts_it_free");
    if !run_in_child(test, &[]) {
        return;
    }
    use cudarc::driver::{result, sys};
    let gpu = CudaDevice::new(0).unwrap();
    let (free_before, total) = gpu.memory_info().unwrap();
    let driver_free = || result::mem_get_info().unwrap().0;
    let mapped_before = driver_free();
    let bytes = 64usize << 20;
    let list =
        CudaLweCiphertextList::new_zero(&gpu, LweSize(1024), LweCiphertextCount(bytes / 8192))
            .unwrap();
    assert_eq!(gpu.memory_info().unwrap().0, free_before - bytes);
    drop(list);
    gpu.synchronize().unwrap();
    // The driver still counts the bytes as used (the pool kept them mapped), this
    // process as free.
    assert_eq!(driver_free(), mapped_before - bytes);
    assert_eq!(gpu.memory_info().unwrap(), (free_before, total));
    // SAFETY: device 0 of the initialised driver; the attribute is a cuuint64_t.
    let threshold = unsafe {
        let pool = result::device::get_default_mem_pool(result::device::get(0).unwrap()).unwrap();
        let mut value = 0u64;
        result::mem_pool::get_attribute(
            pool,
            sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
            (&mut value as *mut u64).cast(),
        )
        .unwrap();
        value
    };
    assert_eq!(threshold, u64::MAX);
    // The next allocation takes the pooled bytes: the driver maps nothing more.
    let again =
        CudaLweCiphertextList::new_zero(&gpu, LweSize(1024), LweCiphertextCount(bytes / 8192))
            .unwrap();
    assert_eq!(driver_free(), mapped_before - bytes);
    drop(again);
}
