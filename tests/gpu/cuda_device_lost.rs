//! A sticky device error (a fault that leaves the CUDA context unusable) on the fake
//! driver, whose `GPUFHE_FAKE_CUDA_FAIL_LAUNCH=N` makes the N-th kernel launch of the
//! process fault with a sticky `CUDA_ERROR_ILLEGAL_ADDRESS`: the operation that saw
//! it returns `Error::DeviceLost`, every later use of that opening of the device
//! returns it at once without calling the driver, dropping what was on the GPU is
//! clean, and opening the device again (a new GPU key made the usual way) resets it
//! and computes correctly. The fake counts launches per process, so each case runs
//! this test binary again as a child:
//!
//! ```text
//! scripts/fake-cuda.sh cargo test --release --test gpu cuda_device_lost::
//! ```
//!
//! Without the fake driver the tests print why they skip.

use crate::child::test_path;
use crate::cuda_support;
use crate::fake_child;

use cuda_support::small_parameters;
use fake_child::run_passing_child;
use gpufhe::backend::cuda::{
    cuda_add_lwe_ciphertext_list_assign, cuda_negate_lwe_ciphertext_list_assign, CudaDevice,
    CudaLweCiphertextList,
};
use gpufhe::core_crypto::{LweCiphertextList, LweCiphertextListOwned, LweSize};
use gpufhe::prelude::*;
use gpufhe::{
    set_server_key, unset_server_key, ClientKey, CompressedServerKey, ConfigBuilder, Error,
    FheUint8, GpuIndex,
};
use std::time::{Duration, Instant};

/// Set in a child process to the name of the test it runs.
const CHILD: &str = "GPUFHE_TEST_DEVICE_LOST_CHILD";
const FAIL: &str = "GPUFHE_FAKE_CUDA_FAIL_LAUNCH";
/// How long an operation on a lost device may take: it must not wait for anything.
const QUICK: Duration = Duration::from_secs(5);

fn is_child(test: &str) -> bool {
    fake_child::is_child(CHILD, test)
}

/// In the parent: whether `test` may start children on the fake driver (printing
/// why not otherwise). In a child: false.
fn parent_on_fake_driver(test: &str) -> bool {
    !is_child(test) && fake_child::on_fake_driver_or_skip()
}

/// Runs `test` in a child with `settings` and the fake driver's log, and checks
/// that every driver call that failed there failed with the sticky error: none used
/// a handle of the lost opening after the reset, or anything else invalid.
fn run_child(test: &str, settings: &[(&str, &str)]) {
    let mut settings = settings.to_vec();
    settings.push(("GPUFHE_FAKE_CUDA_LOG", "1"));
    let (_, stderr) = run_passing_child(test, CHILD, 1, &[], &[], &settings);
    let failures: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("fake libcuda:"))
        .collect();
    assert!(!failures.is_empty(), "no launch failed: {stderr}");
    for line in failures {
        // CUDA_ERROR_ILLEGAL_ADDRESS is 700.
        assert!(
            line.ends_with("(error 700)"),
            "{settings:?}: {line}\n{stderr}"
        );
    }
}

fn values(seed: u64) -> LweCiphertextListOwned {
    let data = (0..3 * 40)
        .map(|i: u64| (i + seed).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    LweCiphertextList::from_container(data, LweSize(3)).unwrap()
}

/// `Err(DeviceLost)` on GPU 0, or a panic saying what came instead.
fn assert_lost<T: std::fmt::Debug>(what: &str, result: gpufhe::Result<T>) {
    match result {
        Err(Error::DeviceLost { device: 0, message }) => {
            assert!(message.contains("CUDA_ERROR_ILLEGAL_ADDRESS"), "{message}")
        }
        other => panic!("{what}: expected DeviceLost on GPU 0, got {other:?}"),
    }
}

/// Times `f`, which must be quick.
fn quickly<T>(f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let result = f();
    assert!(start.elapsed() < QUICK, "took {:?}", start.elapsed());
    result
}

#[test]
fn a_failed_launch_loses_the_device_until_it_is_opened_again() {
    let test = &test_path!("a_failed_launch_loses_the_device_until_it_is_opened_again");
    if parent_on_fake_driver(test) {
        // The fault seen at the launch, then at the synchronization that runs it.
        run_child(test, &[(FAIL, "1")]);
        run_child(test, &[(FAIL, "1"), ("GPUFHE_FAKE_CUDA_DEFERRED", "1")]);
    }
    if !is_child(test) {
        return;
    }
    let gpu = CudaDevice::shared(0).unwrap();
    let (x, y) = (values(1), values(2));
    let mut a = CudaLweCiphertextList::from_cpu(&gpu, &x).unwrap();
    let mut b = CudaLweCiphertextList::from_cpu(&gpu, &y).unwrap();
    // The first launch faults: at the launch, or (deferred) at the copy that waits
    // for it.
    let first = cuda_add_lwe_ciphertext_list_assign(&mut a, &b).and_then(|()| a.to_cpu());
    assert_lost("the operation that faulted", first);
    assert!(gpu.is_lost());
    // Everything of this opening fails at once, without touching the driver.
    quickly(|| {
        assert_lost("a copy back", b.to_cpu());
        assert_lost("a launch", cuda_negate_lwe_ciphertext_list_assign(&mut b));
        assert_lost("an upload", CudaLweCiphertextList::from_cpu(&gpu, &x));
        assert_lost("a synchronization", gpu.synchronize());
        assert_lost("a new stream", gpu.with_new_stream());
        assert_lost("a memory query", gpu.memory_info());
    });
    drop(a);
    // Opening the device again resets it; `b` and `gpu` outlive the reset.
    let reopened = CudaDevice::shared(0).unwrap();
    assert!(!reopened.is_lost() && !reopened.same_device(&gpu));
    let add = |device: &CudaDevice| {
        let mut a = CudaLweCiphertextList::from_cpu(device, &x).unwrap();
        let b = CudaLweCiphertextList::from_cpu(device, &y).unwrap();
        cuda_add_lwe_ciphertext_list_assign(&mut a, &b).unwrap();
        let sum: Vec<u64> = x
            .as_slice()
            .iter()
            .zip(y.as_slice())
            .map(|(p, q)| p.wrapping_add(*q))
            .collect();
        assert_eq!(a.to_cpu().unwrap().as_slice(), sum.as_slice());
    };
    add(&reopened);
    let other_stream = reopened.with_new_stream().unwrap();
    add(&other_stream);
    // What is left of the lost opening still fails, and drops cleanly.
    let stale = quickly(|| b.to_cpu()).unwrap_err();
    assert!(stale.to_string().contains("reset since"), "{stale}");
    drop((b, gpu));
    add(&CudaDevice::new(0).unwrap());
    add(&reopened);
}

#[test]
fn a_new_gpu_key_computes_after_the_device_was_lost() {
    let test = &test_path!("a_new_gpu_key_computes_after_the_device_was_lost");
    if parent_on_fake_driver(test) {
        // Launch 1 converts the key's bootstrap key; 2 is the first operation's.
        run_child(test, &[(FAIL, "2")]);
    }
    if !is_child(test) {
        return;
    }
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(small_parameters())
        .expect("parameters");
    let client = ClientKey::generate(config);
    let compressed = CompressedServerKey::new(&client);
    let key = compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .expect("GPU key");
    set_server_key(key.clone());
    let (x, y) = (37u8, 200u8);
    let a = FheUint8::encrypt(x, &client);
    let b = FheUint8::encrypt(y, &client);
    assert_lost("the operation that faulted", a.try_add(&b));
    // The key's next operations fail at once.
    quickly(|| {
        assert_lost("the next operation", a.try_mul(&b));
        assert_lost("the next operation", a.try_sub(&b));
    });
    // Dropping the lost key (and the thread's copy) is clean.
    unset_server_key();
    drop(key);
    // A new key made the usual way on the same GPU computes, on the values of before.
    let key = compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .expect("a GPU key after the loss");
    set_server_key(key);
    let sum = a.try_add(&b).unwrap();
    let product = a.try_mul(&b).unwrap();
    let sum: u8 = sum.decrypt(&client);
    let product: u8 = product.decrypt(&client);
    assert_eq!(sum, x.wrapping_add(y));
    assert_eq!(product, x.wrapping_mul(y));
    let a: u8 = a.decrypt(&client);
    assert_eq!(a, x);
    unset_server_key();
}

#[test]
fn a_malformed_fail_launch_setting_fails_at_cuinit() {
    let test = &test_path!("a_malformed_fail_launch_setting_fails_at_cuinit");
    if parent_on_fake_driver(test) {
        for value in ["x", "0", "-1", "1,2", "3 launches"] {
            let (_, stderr) = run_passing_child(test, CHILD, 1, &[], &[], &[(FAIL, value)]);
            let expected = format!("fake libcuda: cuInit failed: {FAIL}=\"{value}\"");
            assert!(stderr.contains(&expected), "{value}: {stderr}");
        }
    }
    if !is_child(test) {
        return;
    }
    // The driver refuses to start: opening a GPU is an error, not a panic.
    let err = CudaDevice::new(0).unwrap_err();
    assert!(err.to_string().contains("CUDA"), "{err}");
}
