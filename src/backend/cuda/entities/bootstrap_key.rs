//! Bootstrap keys in the Fourier domain on a GPU, converted there from the standard
//! domain with the same FFT the bootstrap kernel uses.

use crate::backend::cuda::driver::health::DeviceObject;
use crate::backend::cuda::driver::kernel::Kernel;
use crate::backend::cuda::driver::launch::launch;
use crate::backend::cuda::kernels::bootstrap_kernels;
use crate::backend::cuda::CudaDevice;
use crate::core_crypto::{BootstrapKeyShape, LweBootstrapKey};
use crate::error::{check_eq, Error, Result};
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut, DeviceRepr, LaunchConfig};
use std::f64::consts::PI;

/// Mirrors `BskConversionParams` in `cuda/programmable_bootstrap.cu` and
/// `Bsk128ConversionParams` in `cuda/noise_squashing_bootstrap.cu` (the same fields).
#[repr(C)]
struct BskConversionParams {
    out: u64,
    input: u64,
    twiddles: u64,
    twist: u64,
    polynomials: u64,
}

// SAFETY: a plain `#[repr(C)]` struct of integers, laid out as its C++ twin.
unsafe impl DeviceRepr for BskConversionParams {}

/// Launches a key conversion kernel (`bsk_to_fourier_<N>_u64`, `bsk128_to_fourier_<N>`):
/// `polynomials` polynomials of `input` transformed into `out` with the FFT tables
/// (`[out, input, twiddles, twist]`, device addresses), a grid-stride loop of at most
/// 2^20 blocks of `threads` threads with `shared` bytes of dynamic shared memory.
///
/// # Safety
///
/// The buffers hold what the kernel reads and writes for `polynomials` polynomials of
/// its size, the tables are its own, `shared` is what one block needs, and every buffer
/// outlives the launch (stream order).
pub(crate) unsafe fn launch_key_conversion(
    device: &CudaDevice,
    kernel: &Kernel,
    (threads, shared): (u32, u32),
    [out, input, twiddles, twist]: [u64; 4],
    polynomials: usize,
    what: &'static str,
) -> Result<()> {
    let params = BskConversionParams {
        out,
        input,
        twiddles,
        twist,
        polynomials: polynomials as u64,
    };
    let config = LaunchConfig {
        grid_dim: (polynomials.min(1 << 20) as u32, 1, 1),
        block_dim: (threads, 1, 1),
        shared_mem_bytes: shared,
    };
    // SAFETY: the caller guarantees the buffers, tables and shared memory.
    unsafe { launch(device, kernel, config, &params, what) }
}

/// The twiddle and twisting factors of the negacyclic FFT of polynomial size `n`,
/// as interleaved (re, im) pairs (`M = N/2`): the twiddles by stage, one run
/// `W^(i M / (2 s))`, `i < s`, per span `s = M/2, M/4, ..., 1` at offset `M - 2 s`
/// (`M - 1` values, `W = e^{-2 pi i / M}`; see `twiddle` in
/// cuda/negacyclic_fft.cuh), and `w^p = e^{i pi p / N}` for `p < M`.
#[derive(Debug)]
pub(crate) struct FftTables {
    pub(crate) twiddles: CudaSlice<f64>,
    pub(crate) twist: CudaSlice<f64>,
}

impl FftTables {
    fn new(device: &CudaDevice, n: usize) -> Result<Self> {
        let m = n / 2;
        let unit = |angle: f64| [angle.cos(), angle.sin()];
        let spans = std::iter::successors(Some(m / 2), |&s| (s > 1).then_some(s / 2));
        let twiddles: Vec<f64> = spans
            .flat_map(|s| (0..s).map(move |i| i * m / (2 * s)))
            .flat_map(|k| unit(-2.0 * PI * k as f64 / m as f64))
            .collect();
        debug_assert_eq!(twiddles.len(), 2 * (m - 1));
        let twist: Vec<f64> = (0..m)
            .flat_map(|p| unit(PI * p as f64 / n as f64))
            .collect();
        let upload = |v: &[f64]| {
            device
                .stream()?
                .clone_htod(v)
                .map_err(device.driver_err("copying FFT tables to the GPU"))
        };
        Ok(Self {
            twiddles: upload(&twiddles)?,
            twist: upload(&twist)?,
        })
    }
}

/// `e^{i pi j / 16}` for `j < 8` as (re, im) pairs: the bootstrap kernel's steps of
/// the twist between the values of one thread (`w^(v T)` with `T = N / (2 R)`
/// threads per polynomial and `R <= 8` values per thread; see `twist_of` in
/// cuda/programmable_bootstrap.cu). A kernel parameter, so that the products read
/// them from the constant bank instead of memory.
pub(crate) fn twist_steps() -> [f64; 16] {
    let mut steps = [0.0; 16];
    for (j, pair) in steps.chunks_exact_mut(2).enumerate() {
        let angle = PI * j as f64 / 16.0;
        pair[0] = angle.cos();
        pair[1] = angle.sin();
    }
    steps
}

/// A bootstrap key in the Fourier domain in the memory of one GPU, ready for
/// [`crate::backend::cuda::cuda_programmable_bootstrap_lwe_ciphertext_list`]. The layout of its
/// Fourier values is the bootstrap kernel's own (not the CPU's).
#[derive(Debug)]
pub struct CudaFourierBootstrapKey {
    data: DeviceObject<CudaSlice<f64>>,
    tables: DeviceObject<FftTables>,
    shape: BootstrapKeyShape,
    device: CudaDevice,
}

/// Threads may bootstrap or keyswitch with one key on their own streams: before
/// its memory is freed, every stream's work must be done.
impl Drop for CudaFourierBootstrapKey {
    fn drop(&mut self) {
        self.device.wait_for_every_stream();
    }
}

impl CudaFourierBootstrapKey {
    /// Uploads a standard-domain key and converts it to the Fourier domain on the
    /// device. `Err` if the polynomial size has no GPU kernels, the key's length does
    /// not match its shape, or the device lacks memory.
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::*;
    /// use gpufhe::shortint::{ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
    /// let gpu = CudaDevice::new(0).unwrap();
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    /// let compressed = CompressedServerKey::new(&ck).unwrap();
    /// let bsk = CudaFourierBootstrapKey::from_cpu(&gpu, &compressed.bootstrap_key().decompress()).unwrap();
    /// assert_eq!(bsk.shape(), DEFAULT_PARAMETERS.bootstrap_key_shape());
    /// ```
    pub fn from_cpu(device: &CudaDevice, key: &LweBootstrapKey) -> Result<Self> {
        let shape = key.shape();
        let n = shape.polynomial_size.0;
        let kernels = bootstrap_kernels(device, n)?;
        check_eq(
            "length of the bootstrap key",
            shape.ggsw_size() * shape.input_lwe_dimension.0,
            key.as_slice().len(),
        )?;
        if shape.base_log.0 >= 64 {
            return Err(Error::InvalidParameter(format!(
                "GPU bootstraps need a decomposition base below 2^64, not 2^{}",
                shape.base_log.0
            )));
        }
        let polynomials = key.as_slice().len() / n;
        // The standard key (n u64 per polynomial) and the Fourier key (n f64).
        device.check_free_memory(2 * std::mem::size_of_val(key.as_slice()))?;
        let stream = device.stream()?;
        let standard = stream
            .clone_htod(key.as_slice())
            .map_err(device.driver_err("copying the bootstrap key to the GPU"))?;
        let mut data = stream
            .alloc_zeros::<f64>(polynomials * n)
            .map_err(device.driver_err("allocating the Fourier bootstrap key"))?;
        let tables = FftTables::new(device, n)?;
        let threads = kernels.threads_per_polynomial;
        let shared = kernels
            .bsk_to_fourier
            .allow_shared_memory(device, padded_polynomial_bytes(n))?;
        if polynomials > 0 {
            let (out, _out_guard) = data.device_ptr_mut(stream);
            let (input, _in_guard) = standard.device_ptr(stream);
            let (twiddles, _tw_guard) = tables.twiddles.device_ptr(stream);
            let (twist, _twist_guard) = tables.twist.device_ptr(stream);
            // SAFETY: `input` holds `polynomials * n` u64 and `out` `polynomials * n`
            // f64 (n/2 complex values per polynomial), the tables hold n/4 and n/2
            // complex values; the kernel (`threads` threads each holding
            // n / (2 threads) values) stays inside them, with `shared` bytes of shared
            // memory for one padded polynomial. The guards keep the buffers' events
            // until the launch is queued, and the buffers outlive it (`standard` is
            // freed in stream order after the kernel).
            unsafe {
                launch_key_conversion(
                    device,
                    &kernels.bsk_to_fourier,
                    (threads, shared),
                    [out, input, twiddles, twist],
                    polynomials,
                    "launching the bootstrap key conversion",
                )?;
            }
        }
        Ok(Self {
            data: device.object(data),
            tables: device.object(tables),
            shape,
            device: device.clone(),
        })
    }

    /// The key's dimensions and decomposition.
    pub fn shape(&self) -> BootstrapKeyShape {
        self.shape
    }

    /// The device the key lives on.
    pub fn device(&self) -> &CudaDevice {
        &self.device
    }

    pub(crate) fn data(&self) -> &CudaSlice<f64> {
        &self.data
    }

    pub(crate) fn tables(&self) -> &FftTables {
        &self.tables
    }
}

/// Bytes of one polynomial buffer of the FFT in shared memory: `N/2` complex values
/// plus one padding slot every 8 (see `cuda/negacyclic_fft.cuh`).
pub(crate) fn padded_polynomial_bytes(n: usize) -> usize {
    let m = n / 2;
    (m + m / 8) * 16
}
