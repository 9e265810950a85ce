//! The product's kernels: which functions each module of `cuda/` holds, the
//! polynomial sizes the bootstraps are built for (with their threads per
//! polynomial, which fix the Fourier key layout) and the keyswitch widths. Looked up
//! once per opening of a device ([`CudaDevice::once_per_opening`]); the entities and
//! algorithms that launch them, and choose between them, take them from here. The
//! driver layer below names no kernel.

use crate::backend::cuda::driver::kernel::Kernel;
use crate::backend::cuda::driver::kernel_image::KernelModule;
use crate::backend::cuda::CudaDevice;
use crate::error::{Error, Result};
use cudarc::driver::CudaFunction;

/// The kernels of `cuda/lwe_linear_algebra.cu`.
#[derive(Debug)]
pub(crate) struct LweKernels {
    pub(crate) add_assign: CudaFunction,
    pub(crate) sub_assign: CudaFunction,
    pub(crate) neg_assign: CudaFunction,
}

/// The kernels of `cuda/programmable_bootstrap.cu` for one polynomial size.
#[derive(Debug)]
pub(crate) struct BootstrapKernels {
    /// `N`.
    pub(crate) polynomial_size: usize,
    /// Threads per polynomial (`N / (2 R)`), which fixes the Fourier key layout.
    pub(crate) threads_per_polynomial: u32,
    /// Polynomials of the accumulator each thread of the single-block kernels holds:
    /// 1 (a block of `(k + 1) T` threads), or `k + 1` itself (a block of `T`
    /// threads, for that `k` only).
    pub(crate) single_block_polynomials_per_thread: usize,
    /// Standard to Fourier bootstrap key.
    pub(crate) bsk_to_fourier: Kernel,
    /// One block per bootstrap.
    pub(crate) single_block: Kernel,
    /// One cluster of `k + 1` blocks per bootstrap (sm_90+).
    pub(crate) cluster: Kernel,
    /// The multi-bit key bundles of a chunk of groups (`cuda/multi_bit_bootstrap.cuh`).
    pub(crate) multi_bit_key_bundle: Kernel,
    /// The multi-bit accumulation of a chunk, one block per bootstrap.
    pub(crate) multi_bit_single_block: Kernel,
    /// The multi-bit accumulation of a chunk, one cluster per bootstrap (sm_90+).
    pub(crate) multi_bit_cluster: Kernel,
}

/// The polynomial sizes the bootstrap kernels are built for, with their threads per
/// polynomial and the polynomials each thread of their single-block kernels holds
/// (must match the instantiations at the end of `cuda/programmable_bootstrap.cu`:
/// `BOOTSTRAP_KERNELS(N, R, THREADS, G)`, `T = N / (2 R)`). N = 8192 is not built
/// (every kernel of its key layout spilled registers).
pub(crate) const BOOTSTRAP_SIZES: [(usize, u32, usize); 5] = [
    (256, 32, 1),
    (512, 32, 1),
    (1024, 64, 1),
    (2048, 128, 1),
    (4096, 256, 2),
];

/// Ciphertexts per block of `keyswitch_<CTS>_u64`, one kernel each (the `CTS` of
/// `cuda/keyswitch.cu`): a batch takes the smallest that holds it, up to 16.
pub(crate) const KEYSWITCH_CIPHERTEXTS_PER_BLOCK: [usize; 5] = [1, 2, 4, 8, 16];

/// The kernels of `cuda/keyswitch.cu` and `cuda/linear_combination.cu`.
#[derive(Debug)]
pub(crate) struct StepKernels {
    /// `keyswitch_<c>_u64` for each `c` of [`KEYSWITCH_CIPHERTEXTS_PER_BLOCK`].
    pub(crate) keyswitch: [Kernel; 5],
    pub(crate) keyswitch_reduce: Kernel,
    pub(crate) linear_combination: Kernel,
}

/// The kernels of `cuda/noise_squashing_bootstrap.cu` (the 128-bit bootstrap) for
/// one polynomial size.
#[derive(Debug)]
pub(crate) struct NoiseSquashingKernels {
    /// `N`.
    pub(crate) polynomial_size: usize,
    /// Threads per block of both kernels.
    pub(crate) threads: u32,
    /// Standard to Fourier 128-bit bootstrap key.
    pub(crate) bsk_to_fourier: Kernel,
    /// One block per 128-bit bootstrap.
    pub(crate) bootstrap: Kernel,
}

/// The polynomial sizes the 128-bit bootstrap is built for, with its threads per
/// block (must match `NOISE_SQUASHING_KERNELS(N, T)` at the end of
/// `cuda/noise_squashing_bootstrap.cu`).
pub(crate) const NOISE_SQUASHING_SIZES: [(usize, u32); 5] =
    [(256, 64), (512, 128), (1024, 256), (2048, 256), (4096, 256)];

/// Every kernel of a device, looked up once per opening.
#[derive(Debug)]
struct DeviceKernels {
    lwe: LweKernels,
    bootstrap: Vec<BootstrapKernels>,
    step: StepKernels,
    noise_squashing: Vec<NoiseSquashingKernels>,
}

impl DeviceKernels {
    fn look_up(device: &CudaDevice) -> Result<Self> {
        use KernelModule::*;
        let lwe = |name| device.function(LweLinearAlgebra, name);
        let pbs = |name: String| device.kernel(ProgrammableBootstrap, &name);
        let bootstrap = BOOTSTRAP_SIZES
            .iter()
            .map(|&(n, threads, per_thread)| {
                Ok(BootstrapKernels {
                    polynomial_size: n,
                    threads_per_polynomial: threads,
                    single_block_polynomials_per_thread: per_thread,
                    bsk_to_fourier: pbs(format!("bsk_to_fourier_{n}_u64"))?,
                    single_block: pbs(format!("programmable_bootstrap_{n}_u64"))?,
                    cluster: pbs(format!("programmable_bootstrap_cluster_{n}_u64"))?,
                    multi_bit_key_bundle: pbs(format!("multi_bit_key_bundle_{n}_u64"))?,
                    multi_bit_single_block: pbs(format!("multi_bit_bootstrap_{n}_u64"))?,
                    multi_bit_cluster: pbs(format!("multi_bit_bootstrap_cluster_{n}_u64"))?,
                })
            })
            .collect::<Result<_>>()?;
        let squash = |name: String| device.kernel(NoiseSquashingBootstrap, &name);
        let noise_squashing = NOISE_SQUASHING_SIZES
            .iter()
            .map(|&(n, threads)| {
                Ok(NoiseSquashingKernels {
                    polynomial_size: n,
                    threads,
                    bsk_to_fourier: squash(format!("bsk128_to_fourier_{n}"))?,
                    bootstrap: squash(format!("programmable_bootstrap_128_{n}"))?,
                })
            })
            .collect::<Result<_>>()?;
        let keyswitch = |c: usize| device.kernel(Keyswitch, &format!("keyswitch_{c}_u64"));
        let [c1, c2, c4, c8, c16] = KEYSWITCH_CIPHERTEXTS_PER_BLOCK;
        Ok(Self {
            lwe: LweKernels {
                add_assign: lwe("add_lwe_assign_u64")?,
                sub_assign: lwe("sub_lwe_assign_u64")?,
                neg_assign: lwe("neg_lwe_assign_u64")?,
            },
            bootstrap,
            step: StepKernels {
                keyswitch: [
                    keyswitch(c1)?,
                    keyswitch(c2)?,
                    keyswitch(c4)?,
                    keyswitch(c8)?,
                    keyswitch(c16)?,
                ],
                keyswitch_reduce: device.kernel(Keyswitch, "keyswitch_reduce_u64")?,
                linear_combination: device
                    .kernel(LinearCombination, "linear_combination_lwe_u64")?,
            },
            noise_squashing,
        })
    }
}

/// The kernels of `device`, looked up on first use of its opening.
fn device_kernels(device: &CudaDevice) -> Result<&DeviceKernels> {
    device.once_per_opening(DeviceKernels::look_up)
}

/// The LWE linear-algebra kernels of `device`.
pub(crate) fn lwe_kernels(device: &CudaDevice) -> Result<&LweKernels> {
    Ok(&device_kernels(device)?.lwe)
}

/// The keyswitch and linear-combination kernels of `device`.
pub(crate) fn step_kernels(device: &CudaDevice) -> Result<&StepKernels> {
    Ok(&device_kernels(device)?.step)
}

/// The bootstrap kernels of `device` for polynomial size `n`, or `Err` if none were
/// built for it (or the device is lost).
pub(crate) fn bootstrap_kernels(device: &CudaDevice, n: usize) -> Result<&BootstrapKernels> {
    device_kernels(device)?
        .bootstrap
        .iter()
        .find(|k| k.polynomial_size == n)
        .ok_or_else(|| {
            Error::InvalidParameter(format!(
                "no GPU bootstrap for polynomial size {n}; supported: {:?}",
                BOOTSTRAP_SIZES.map(|(n, _, _)| n)
            ))
        })
}

/// The 128-bit bootstrap kernels of `device` for polynomial size `n`, or `Err` if
/// none were built for it (or the device is lost).
pub(crate) fn noise_squashing_kernels(
    device: &CudaDevice,
    n: usize,
) -> Result<&NoiseSquashingKernels> {
    device_kernels(device)?
        .noise_squashing
        .iter()
        .find(|k| k.polynomial_size == n)
        .ok_or_else(|| {
            Error::InvalidParameter(format!(
                "no GPU 128-bit bootstrap for polynomial size {n}; supported: {:?}",
                NOISE_SQUASHING_SIZES.map(|(n, _)| n)
            ))
        })
}
