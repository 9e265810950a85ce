//! 128-bit bootstrap keys (noise squashing) in the Fourier domain on a GPU,
//! converted there from the standard domain with the double-double FFT of the 128-bit
//! bootstrap kernel (`cuda/noise_squashing_bootstrap.cu`).

use crate::backend::cuda::driver::health::DeviceObject;
use crate::backend::cuda::entities::bootstrap_key::launch_key_conversion;
use crate::backend::cuda::kernels::noise_squashing_kernels;
use crate::backend::cuda::CudaDevice;
use crate::core_crypto::fft128::fft128_for;
use crate::core_crypto::{BootstrapKeyShape, Fourier128LweBootstrapKey, LweBootstrapKey128};
use crate::error::{check_eq, Result};
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};
use rayon::prelude::*;
use tfhe_fft::fft128::f128;

/// The double-double tables of the 128-bit kernels' FFT for polynomial size `n`
/// (`M = N/2`), four `f64` per complex value (re.hi, re.lo, im.hi, im.lo): the
/// twiddles `W^j = e^{-2 pi i j / M}`, `j < M/2`, and the twist `w^e = e^{i pi e / N}`,
/// `e < M`, each to double-double precision (`f128::sincospi`).
///
/// ```
/// let (twiddles, twist) = gpufhe::backend::cuda::fft128_device_tables(256);
/// assert_eq!((twiddles.len(), twist.len()), (4 * 64, 4 * 128));
/// assert_eq!(&twiddles[..4], &[1.0, 0.0, 0.0, 0.0]);
/// // w^64 = e^{i pi / 4}: cos = sin = 2^-1/2 to about 2^-106.
/// let (re, im) = (twist[4 * 64] + twist[4 * 64 + 1], twist[4 * 64 + 2] + twist[4 * 64 + 3]);
/// assert!((re - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-16 && re == im);
/// ```
pub fn fft128_device_tables(n: usize) -> (Vec<f64>, Vec<f64>) {
    let m = n / 2;
    // e^{i pi x} as (re.hi, re.lo, im.hi, im.lo).
    let unit = |x: f64| {
        let (sin, cos) = f128(x, 0.0).sincospi();
        [cos.0, cos.1, sin.0, sin.1]
    };
    let twiddles = (0..m / 2)
        .flat_map(|j| unit(-2.0 * j as f64 / m as f64))
        .collect();
    let twist = (0..m).flat_map(|e| unit(e as f64 / n as f64)).collect();
    (twiddles, twist)
}

/// The FFT tables of one key on its device.
#[derive(Debug)]
pub(crate) struct Fft128Tables {
    pub(crate) twiddles: CudaSlice<f64>,
    pub(crate) twist: CudaSlice<f64>,
}

/// A 128-bit bootstrap key in the Fourier domain in the memory of one GPU, ready for
/// [`crate::backend::cuda::cuda_programmable_bootstrap_128_lwe_ciphertext_list`]. Its
/// Fourier values are in the 128-bit kernel's own layout (not the CPU's).
#[derive(Debug)]
pub struct CudaFourierBootstrapKey128 {
    data: DeviceObject<CudaSlice<f64>>,
    tables: DeviceObject<Fft128Tables>,
    shape: BootstrapKeyShape,
    device: CudaDevice,
}

/// Threads may bootstrap with one key on their own streams: before its memory is
/// freed, every stream's work must be done.
impl Drop for CudaFourierBootstrapKey128 {
    fn drop(&mut self) {
        self.device.wait_for_every_stream();
    }
}

impl CudaFourierBootstrapKey128 {
    /// Uploads a standard-domain 128-bit key and converts it to the Fourier domain on
    /// the device. `Err` if the polynomial size has no GPU kernels or the device
    /// lacks memory.
    pub fn from_standard(device: &CudaDevice, key: &LweBootstrapKey128) -> Result<Self> {
        Self::upload(device, key.shape(), key.as_slice())
    }

    /// The key of a CPU Fourier key (the server's noise-squashing key): its
    /// polynomials are transformed back to the standard domain on the host (the rayon
    /// pool; exact to about 2^-104 of the torus, the precision the CPU key holds),
    /// then uploaded and converted as [`CudaFourierBootstrapKey128::from_standard`].
    pub fn from_cpu(device: &CudaDevice, key: &Fourier128LweBootstrapKey) -> Result<Self> {
        let shape = key.shape();
        let n = shape.polynomial_size.0;
        noise_squashing_kernels(device, n)?;
        let fft = fft128_for(shape.polynomial_size)?;
        let half = n / 2;
        let polynomials = key.parts()[0].len() / half;
        let mut standard = vec![0u128; polynomials * n];
        standard.par_chunks_mut(n).enumerate().for_each(|(p, out)| {
            let r = p * half..(p + 1) * half;
            // add_backward_as_torus uses its input as scratch: a copy.
            let mut parts: [Vec<f64>; 4] =
                std::array::from_fn(|i| key.parts()[i][r.clone()].to_vec());
            let [a, b, c, d] = &mut parts;
            fft.add_backward_as_torus(out, [a, b, c, d]);
        });
        Self::upload(device, shape, &standard)
    }

    fn upload(device: &CudaDevice, shape: BootstrapKeyShape, key: &[u128]) -> Result<Self> {
        let n = shape.polynomial_size.0;
        let kernels = noise_squashing_kernels(device, n)?;
        check_eq(
            "length of the 128-bit bootstrap key",
            shape.ggsw_size() * shape.input_lwe_dimension.0,
            key.len(),
        )?;
        let polynomials = key.len() / n;
        // The standard key (2 u64 per coefficient) and the Fourier key (2 f64).
        device.check_free_memory(2 * std::mem::size_of_val(key))?;
        let words: Vec<u64> = key
            .iter()
            .flat_map(|&x| [x as u64, (x >> 64) as u64])
            .collect();
        let stream = device.stream()?;
        let standard = stream
            .clone_htod(&words)
            .map_err(device.driver_err("copying the 128-bit bootstrap key to the GPU"))?;
        drop(words);
        let mut data = stream
            .alloc_zeros::<f64>(polynomials * 2 * n)
            .map_err(device.driver_err("allocating the Fourier 128-bit bootstrap key"))?;
        let (twiddles, twist) = fft128_device_tables(n);
        let upload = |v: &[f64]| {
            stream
                .clone_htod(v)
                .map_err(device.driver_err("copying 128-bit FFT tables to the GPU"))
        };
        let tables = Fft128Tables {
            twiddles: upload(&twiddles)?,
            twist: upload(&twist)?,
        };
        let shared = kernels
            .bsk_to_fourier
            .allow_shared_memory(device, n / 2 * 32)?;
        if polynomials > 0 {
            let (out, _out_guard) = data.device_ptr_mut(stream);
            let (input, _in_guard) = standard.device_ptr(stream);
            let (twiddles, _tw_guard) = tables.twiddles.device_ptr(stream);
            let (twist, _twist_guard) = tables.twist.device_ptr(stream);
            // SAFETY: `input` holds `polynomials * n` 128-bit coefficients (2 u64
            // each) and `out` `polynomials * n/2` complex double-doubles (4 f64 each);
            // the tables hold n/4 and n/2 complex double-doubles; the kernel stays
            // inside them, with `shared` bytes for one polynomial of n/2 complex
            // double-doubles. The guards keep the buffers' events until the launch is
            // queued, and the buffers outlive it (`standard` is freed in stream order
            // after the kernel).
            unsafe {
                launch_key_conversion(
                    device,
                    &kernels.bsk_to_fourier,
                    (kernels.threads, shared),
                    [out, input, twiddles, twist],
                    polynomials,
                    "launching the 128-bit bootstrap key conversion",
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

    pub(crate) fn tables(&self) -> &Fft128Tables {
        &self.tables
    }
}
