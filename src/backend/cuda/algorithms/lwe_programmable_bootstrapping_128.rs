//! The batched 128-bit programmable bootstrap of noise squashing on a GPU, the twin
//! of [`crate::core_crypto::programmable_bootstrap_128`] after
//! [`crate::core_crypto::modulus_switch_lwe_ciphertext`]: one kernel launch
//! (`programmable_bootstrap_128_<N>`, one block per ciphertext) switches, rotates and
//! extracts a whole batch.

use crate::backend::cuda::kernels::noise_squashing_kernels;
use crate::backend::cuda::{CudaFourierBootstrapKey128, CudaLweCiphertextList};
use crate::core_crypto::{LweCiphertext128, ModulusSwitchType};
use crate::error::{check_eq, Error, Result};
use cudarc::driver::{DevicePtr, DevicePtrMut, DeviceRepr, LaunchConfig};

/// Mirrors `Pbs128Params` in `cuda/noise_squashing_bootstrap.cu`.
#[repr(C)]
struct Pbs128Params {
    out: u64,
    acc: u64,
    input: u64,
    lut: u64,
    bsk: u64,
    twiddles: u64,
    twist: u64,
    lwe_dimension: u32,
    glwe_dimension: u32,
    base_log: u32,
    level: u32,
    centered: u32,
    count: u32,
}

// SAFETY: a plain `#[repr(C)]` struct of integers, laid out as its C++ twin.
unsafe impl DeviceRepr for Pbs128Params {}

/// Bytes of dynamic shared memory of one 128-bit bootstrap block: the `k + 1`
/// output spectra and one FFT buffer (`N/2` complex double-doubles of 32 bytes
/// each), then the switched mask and body (`n + 1` u32).
pub(crate) fn bootstrap_128_shared_bytes(n: usize, k: usize, lwe_dimension: usize) -> usize {
    (k + 2) * (n / 2) * 32 + 4 * (lwe_dimension + 1)
}

/// Bootstraps every ciphertext of `input` (64-bit, under the key's input LWE key)
/// through `accumulator` (a GLWE ciphertext modulo 2^128 of the key's shape,
/// `(k + 1) N` values, e.g. [`crate::core_crypto::identity_lookup_table_128`]) into
/// 128-bit LWE ciphertexts under the key's GLWE key, switching each input to the
/// modulus `2N` first as `modulus_switch` says. The results are brought back to the
/// host. They decrypt as the CPU's
/// ([`crate::core_crypto::programmable_bootstrap_128`]), equal up to the FFT's
/// rounding (far below the bootstrap's noise).
///
/// ```no_run
/// use gpufhe::backend::cuda::*;
/// use gpufhe::core_crypto::*;
/// let gpu = CudaDevice::new(0).unwrap();
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let lwe_key = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
/// let (poly, k) = (PolynomialSize(256), GlweDimension(1));
/// let glwe_key = GlweSecretKey::generate_binary(k, poly, &mut secret).unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 30 };
/// let bsk = generate_lwe_bootstrap_key_128(
///     &lwe_key, &glwe_key, DecompositionBaseLog(24), DecompositionLevelCount(3), noise, &mut rng,
/// ).unwrap();
/// let bsk = CudaFourierBootstrapKey128::from_standard(&gpu, &bsk).unwrap();
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&lwe_key, 5 << 59, NoiseDistribution::TUniform { log2_bound: 20 }, &mut rng).unwrap();
/// let list = LweCiphertextList::from_container(ct.as_slice().to_vec(), ct.lwe_size()).unwrap();
/// let input = CudaLweCiphertextList::from_cpu(&gpu, &list).unwrap();
/// let lut = identity_lookup_table_128(poly, k, 16, 1 << 123).unwrap();
/// let out = cuda_programmable_bootstrap_128_lwe_ciphertext_list(
///     &bsk, &input, &lut, ModulusSwitchType::CenteredMeanNoiseReduction,
/// ).unwrap();
/// let phase = decrypt_lwe_ciphertext_128(&glwe_key, &out[0]).unwrap();
/// assert_eq!(phase.wrapping_add(1 << 122) >> 123, 5);
/// ```
pub fn cuda_programmable_bootstrap_128_lwe_ciphertext_list(
    bsk: &CudaFourierBootstrapKey128,
    input: &CudaLweCiphertextList,
    accumulator: &[u128],
    modulus_switch: ModulusSwitchType,
) -> Result<Vec<LweCiphertext128>> {
    let device = input.device().clone();
    device.check_same("GPU of the 128-bit bootstrap key", bsk.device())?;
    let shape = bsk.shape();
    let (n, k, lwe) = (
        shape.polynomial_size.0,
        shape.glwe_dimension.0,
        shape.input_lwe_dimension.0,
    );
    check_eq(
        "LWE size of the 128-bit bootstrap input",
        lwe + 1,
        input.lwe_size().0,
    )?;
    check_eq(
        "length of the 128-bit accumulator",
        (k + 1) * n,
        accumulator.len(),
    )?;
    let count = input.count().0;
    if count == 0 {
        return Ok(Vec::new());
    }
    let to_u32 = |what: &str, v: usize| {
        u32::try_from(v).map_err(|_| {
            Error::InvalidParameter(format!("{what} {v} exceeds the GPU kernels' range"))
        })
    };
    let kernels = noise_squashing_kernels(&device, n)?;
    let shared = kernels
        .bootstrap
        .allow_shared_memory(&device, bootstrap_128_shared_bytes(n, k, lwe))?;
    let out_size = k * n + 1;
    let acc_size = (k + 1) * n;
    // Output and scratch accumulators, two u64 per 128-bit value.
    device.check_free_memory(count * (out_size + acc_size) * 16)?;
    let stream = device.stream()?;
    let lut_words: Vec<u64> = accumulator
        .iter()
        .flat_map(|&x| [x as u64, (x >> 64) as u64])
        .collect();
    let lut = stream
        .clone_htod(&lut_words)
        .map_err(device.driver_err("copying the 128-bit accumulator to the GPU"))?;
    let mut out = stream
        .alloc_zeros::<u64>(count * out_size * 2)
        .map_err(device.driver_err("allocating the 128-bit bootstrap outputs"))?;
    let mut acc = stream
        .alloc_zeros::<u64>(count * acc_size * 2)
        .map_err(device.driver_err("allocating the 128-bit accumulators"))?;
    {
        let (out_ptr, _out_guard) = out.device_ptr_mut(stream);
        let (acc_ptr, _acc_guard) = acc.device_ptr_mut(stream);
        let (input_ptr, _in_guard) = input.data().read_ptr(stream);
        let (lut_ptr, _lut_guard) = lut.device_ptr(stream);
        let (bsk_ptr, _bsk_guard) = bsk.data().device_ptr(stream);
        let (twiddles, _tw_guard) = bsk.tables().twiddles.device_ptr(stream);
        let (twist, _twist_guard) = bsk.tables().twist.device_ptr(stream);
        let params = Pbs128Params {
            out: out_ptr,
            acc: acc_ptr,
            input: input_ptr,
            lut: lut_ptr,
            bsk: bsk_ptr,
            twiddles,
            twist,
            lwe_dimension: to_u32("LWE dimension", lwe)?,
            glwe_dimension: to_u32("GLWE dimension", k)?,
            base_log: to_u32("base log", shape.base_log.0)?,
            level: to_u32("level count", shape.level.0)?,
            centered: u32::from(modulus_switch == ModulusSwitchType::CenteredMeanNoiseReduction),
            count: to_u32("ciphertext count", count)?,
        };
        let config = LaunchConfig {
            grid_dim: (to_u32("ciphertext count", count)?, 1, 1),
            block_dim: (kernels.threads, 1, 1),
            shared_mem_bytes: shared,
        };
        // SAFETY: the parameter struct matches the kernel's; `input` holds `count`
        // ciphertexts of size n + 1 (checked), `out` room for `count` outputs of
        // k N + 1 128-bit values and `acc` for `count` accumulators of (k + 1) N, `lut`
        // (k + 1) N values (checked); the Fourier key and tables were built for this
        // shape by the conversion kernel. Block b touches ciphertext b only, with
        // `shared` bytes of shared memory (the spectra, the FFT buffer, the mask). The
        // guards keep the buffers' events until the launch is queued; the buffers
        // outlive the kernel (freed in stream order, or copied back first).
        unsafe {
            crate::backend::cuda::driver::launch::launch(
                &device,
                &kernels.bootstrap,
                config,
                &params,
                "launching the 128-bit bootstrap",
            )?;
        }
    }
    drop(acc);
    let words = stream
        .clone_dtoh(&out)
        .map_err(device.driver_err("copying the 128-bit bootstrap outputs back"))?;
    words
        .chunks_exact(2 * out_size)
        .map(|ct| {
            LweCiphertext128::from_container(
                ct.chunks_exact(2)
                    .map(|w| u128::from(w[0]) | u128::from(w[1]) << 64)
                    .collect(),
            )
        })
        .collect()
}
