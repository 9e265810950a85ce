//! Which NVIDIA drivers load the embedded kernels, on the fake driver
//! (`scripts/fake-cuda.sh cargo test --release --test gpu cuda_driver_version::`), which
//! reports `GPUFHE_FAKE_CUDA_DRIVER_VERSION` and refuses module images that a real
//! driver of that version could not load (cubin ABI and architecture, PTX ISA
//! version). The kernels must load on R525 (CUDA 12.0), the oldest driver this crate
//! supports, PTX included: a toolchain whose kernels need a newer driver fails here.
//! The fake reads the version once per process, so each case runs this test binary
//! again as a child process. Without the fake driver the tests print
//! why they skip.

use crate::child::test_path;
use crate::fake_child;

use fake_child::run_passing_child;
use gpufhe::backend::cuda::{kernels_cuda_version, CudaDevice, CudaLweCiphertextList};
use gpufhe::core_crypto::{LweCiphertextList, LweSize};
use gpufhe::Error;

/// Set in a child process to the name of the test it runs.
const CHILD: &str = "GPUFHE_TEST_DRIVER_VERSION_CHILD";
const VERSION: &str = "GPUFHE_FAKE_CUDA_DRIVER_VERSION";

fn is_child(test: &str) -> bool {
    std::env::var(CHILD).is_ok_and(|name| name == test)
}

/// In the parent: the CUDA release of the embedded kernels when `test` may start
/// children on the fake driver (printing why not otherwise). In a child: `None`.
fn parent_on_fake_driver(test: &str) -> Option<(u32, u32)> {
    if is_child(test) {
        return None;
    }
    if std::env::var("GPUFHE_FAKE_CUDA").is_ok_and(|v| v == "1") {
        let version = kernels_cuda_version();
        assert!(
            version.is_some(),
            "the fake driver needs the embedded kernels"
        );
        version
    } else {
        crate::skip::report_skipped(format_args!(
            "(needs the fake CUDA driver: scripts/fake-cuda.sh)"
        ));
        None
    }
}

/// Opens the device and runs one kernel (a negation) on it.
fn open_and_run_a_kernel() {
    let gpu = CudaDevice::new(0).expect("the driver loads the kernels");
    let cpu = LweCiphertextList::from_container(vec![1u64, 2, 3], LweSize(3)).unwrap();
    let mut list = CudaLweCiphertextList::from_cpu(&gpu, &cpu).unwrap();
    gpufhe::backend::cuda::cuda_negate_lwe_ciphertext_list_assign(&mut list).unwrap();
    let back = list.to_cpu().unwrap();
    assert_eq!(
        back.as_slice(),
        [
            0u64.wrapping_sub(1),
            0u64.wrapping_sub(2),
            0u64.wrapping_sub(3)
        ]
    );
}

#[test]
fn an_r525_driver_loads_the_kernels() {
    let test = &test_path!("an_r525_driver_loads_the_kernels");
    if parent_on_fake_driver(test).is_some() {
        // R525 is the first driver of CUDA 12.0.
        run_passing_child(test, CHILD, 1, &[], &[], &[(VERSION, "12000")]);
    }
    if !is_child(test) {
        return;
    }
    // Machine code of any CUDA 12 release loads on every CUDA 12 driver; kernels of
    // CUDA 13 (a newer pin, or NVCC=...) would not, and fail here.
    open_and_run_a_kernel();
}

#[test]
fn a_gpu_newer_than_the_machine_code_runs_the_ptx() {
    let test = &test_path!("a_gpu_newer_than_the_machine_code_runs_the_ptx");
    if parent_on_fake_driver(test).is_some() {
        // Compute capability 10.0: no sm_100 machine code is embedded, so the driver
        // JIT-compiles the compute_90 PTX, which needs the driver of the kernels' own
        // release: R525 with CUDA 12.0 (a newer toolchain fails here).
        let settings = [(VERSION, "12000"), ("GPUFHE_FAKE_CUDA_CC", "100")];
        run_passing_child(test, CHILD, 1, &[], &[], &settings);
    }
    if is_child(test) {
        open_and_run_a_kernel();
    }
}

#[test]
fn a_driver_too_old_is_refused_with_the_driver_needed() {
    let test = &test_path!("a_driver_too_old_is_refused_with_the_driver_needed");
    if let Some((major, _)) = parent_on_fake_driver(test) {
        // The last release of the previous major version.
        let old = ((major - 1) * 1000 + 800).to_string();
        run_passing_child(test, CHILD, 1, &[], &[], &[(VERSION, &old)]);
    }
    if !is_child(test) {
        return;
    }
    let (major, minor) = kernels_cuda_version().unwrap();
    let err = CudaDevice::new(0).unwrap_err();
    assert!(matches!(err, Error::Cuda { .. }), "{err:?}");
    let text = err.to_string();
    let branch = if major == 12 { "R525+" } else { "R580+" };
    for expected in [
        format!("the kernels were built with CUDA {major}.{minor}"),
        format!("an NVIDIA driver for CUDA {major}.0 ({branch}) or newer"),
        format!("this driver supports CUDA {}.8", major - 1),
    ] {
        assert!(text.contains(&expected), "{expected:?} not in {text}");
    }
}
