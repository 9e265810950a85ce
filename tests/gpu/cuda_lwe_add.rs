//! The batched LWE addition kernel against the CPU. Prints `SKIPPED (no CUDA
//! device)` and passes where there is no GPU; fails under `GPUFHE_REQUIRE_GPU=1`.

use crate::skip::gpu_for_tests;
use gpufhe::backend::cuda::*;
use gpufhe::core_crypto::*;
use gpufhe::Error;

const DELTA: u64 = 1 << 59;
const NOISE: NoiseDistribution = NoiseDistribution::TUniform { log2_bound: 17 };

fn encrypt_list(
    key: &LweSecretKey,
    messages: &[u64],
    rng: &mut EncryptionRandomGenerator,
) -> LweCiphertextListOwned {
    messages
        .iter()
        .map(|m| allocate_and_encrypt_new_lwe_ciphertext(key, m * DELTA, NOISE, rng).unwrap())
        .collect::<gpufhe::Result<_>>()
        .unwrap()
}

#[test]
fn batched_addition_matches_the_cpu_bit_for_bit() {
    let Some(gpu) = gpu_for_tests() else { return };
    let key = LweSecretKey::generate_binary(
        LweDimension(2048),
        &mut SecretRandomGenerator::from_os().unwrap(),
    );
    let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    let count = 1000;
    let a: Vec<u64> = (0..count).map(|i| i % 8).collect();
    let b: Vec<u64> = (0..count).map(|i| (i * 5 + 3) % 8).collect();
    let (ca, cb) = (
        encrypt_list(&key, &a, &mut rng),
        encrypt_list(&key, &b, &mut rng),
    );

    let mut cpu = ca.clone();
    add_lwe_ciphertext_list_assign(&mut cpu, &cb).unwrap();
    let mut da = CudaLweCiphertextList::from_cpu(&gpu, &ca).unwrap();
    let db = CudaLweCiphertextList::from_cpu(&gpu, &cb).unwrap();
    cuda_add_lwe_ciphertext_list_assign(&mut da, &db).unwrap();
    let from_gpu = da.to_cpu().unwrap();
    assert_eq!(from_gpu, cpu, "GPU and CPU sums differ");
    for (i, ct) in from_gpu.iter().enumerate() {
        let phase = decrypt_lwe_ciphertext(&key, &ct).unwrap();
        assert_eq!(
            phase.wrapping_add(DELTA / 2) / DELTA % 32,
            a[i] + b[i],
            "sum {i}"
        );
    }

    // Subtraction and negation go through the same path.
    cuda_sub_lwe_ciphertext_list_assign(&mut da, &db).unwrap();
    assert_eq!(da.to_cpu().unwrap(), ca, "(a + b) - b != a");
    cuda_negate_lwe_ciphertext_list_assign(&mut da).unwrap();
    let negated: Vec<u64> = ca.as_slice().iter().map(|x| x.wrapping_neg()).collect();
    assert_eq!(da.to_cpu().unwrap().as_slice(), &negated[..]);
}

#[test]
fn mismatched_lists_are_errors() {
    let Some(gpu) = gpu_for_tests() else { return };
    let small = LweCiphertextList::from_container(vec![1u64; 20], LweSize(10)).unwrap();
    let other_size = LweCiphertextList::from_container(vec![1u64; 20], LweSize(5)).unwrap();
    let fewer = LweCiphertextList::from_container(vec![1u64; 10], LweSize(10)).unwrap();
    let mut d = CudaLweCiphertextList::from_cpu(&gpu, &small).unwrap();
    let e = CudaLweCiphertextList::from_cpu(&gpu, &other_size).unwrap();
    let f = CudaLweCiphertextList::from_cpu(&gpu, &fewer).unwrap();
    let err = cuda_add_lwe_ciphertext_list_assign(&mut d, &e).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                expected: 10,
                got: 5,
                ..
            }
        ),
        "{err}"
    );
    let err = cuda_add_lwe_ciphertext_list_assign(&mut d, &f).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                expected: 2,
                got: 1,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        d.to_cpu().unwrap(),
        small,
        "a failed call must not touch its operand"
    );
}

#[test]
fn missing_device_is_an_error_not_a_panic() {
    match cuda_device_count() {
        Ok(n) => {
            assert!(
                CudaDevice::new(n).is_err(),
                "device {n} of {n} must not open"
            );
            if n == 0 {
                assert!(matches!(CudaDevice::new(0), Err(Error::NoCudaDevice(_))));
            }
        }
        Err(e) => {
            assert!(matches!(e, Error::NoCudaDevice(_)), "{e}");
            assert!(matches!(CudaDevice::new(0), Err(Error::NoCudaDevice(_))));
        }
    }
}
