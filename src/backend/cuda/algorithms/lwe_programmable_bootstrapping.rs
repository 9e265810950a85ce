//! The batched programmable bootstrap on a GPU, the twin of
//! [`crate::core_crypto::programmable_bootstrap_lwe_ciphertext`].

use crate::backend::cuda::algorithms::bootstrap_kernel_choice::{
    to_u32, BootstrapFlavour, KernelRequest, PbsKernel,
};
use crate::backend::cuda::entities::bootstrap_key::twist_steps;
use crate::backend::cuda::kernels::bootstrap_kernels;
use crate::backend::cuda::CudaLookupTableList;
use crate::backend::cuda::{CudaDevice, CudaFourierBootstrapKey, CudaLweCiphertextList};
use crate::core_crypto::ModulusSwitchType;
use crate::error::{check_eq, Error, Result};
use cudarc::driver::{DevicePtr, DeviceRepr};

/// Mirrors `PbsParams` in `cuda/programmable_bootstrap.cu`.
#[repr(C)]
pub(super) struct PbsParams {
    out: u64,
    input: u64,
    luts: u64,
    jobs: u64,
    bsk: u64,
    twiddles: u64,
    twist: u64,
    twist_steps: [f64; 16],
    lwe_dimension: u32,
    glwe_dimension: u32,
    base_log: u32,
    level: u32,
    centered: u32,
    count: u32,
    prefetch_share: u32,
}

// SAFETY: a plain `#[repr(C)]` struct of integers and doubles (all 8-byte aligned
// arrays or scalars in the same order), laid out as its C++ twin.
unsafe impl DeviceRepr for PbsParams {}

/// Bootstraps every ciphertext of `input` (under the key's small LWE key) through
/// lookup table `lut_indexes[j]` of `luts`: a table of `f` functions writes its
/// results to `output[output_slots[j] + i]`, `i < f` (function `i` is read at
/// coefficient `i N / f`, see [`ManyLookupTable`](crate::shortint::ManyLookupTable)). One kernel launch for the
/// batch. The GPU twin of the bootstrap half of
/// [`crate::shortint::ServerKey::apply_many_lookup_table_batch`]; results decrypt to
/// the CPU's. Output slots must not overlap; other slots are left untouched.
///
/// ```no_run
/// use gpufhe::backend::{cuda::*, Table};
/// use gpufhe::core_crypto::*;
/// use gpufhe::shortint::{ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
/// let p = DEFAULT_PARAMETERS;
/// let gpu = CudaDevice::new(0).unwrap();
/// let ck = ClientKey::new(p).unwrap();
/// let compressed = CompressedServerKey::new(&ck).unwrap();
/// let bsk = CudaFourierBootstrapKey::from_cpu(&gpu, &compressed.bootstrap_key().decompress()).unwrap();
/// let ksk = CudaKeyswitchKey::from_cpu(&gpu, &compressed.keyswitch_key().decompress()).unwrap();
/// let block = ck.encrypt(3).unwrap();
/// let big = LweCiphertextList::from_container(block.as_lwe().as_slice().to_vec(), block.as_lwe().lwe_size()).unwrap();
/// let big = CudaLweCiphertextList::from_cpu(&gpu, &big).unwrap();
/// let mut small = CudaLweCiphertextList::new_zero(&gpu, p.lwe_dimension.to_lwe_size(), LweCiphertextCount(1)).unwrap();
/// cuda_keyswitch_lwe_ciphertext_list(&ksk, &big, &mut small).unwrap();
/// let luts = CudaLookupTableList::from_tables(&gpu, &p, &[&Table::new(&p, |x| x + 1).unwrap()]).unwrap();
/// let mut out = CudaLweCiphertextList::new_zero(&gpu, p.big_lwe_dimension().to_lwe_size(), LweCiphertextCount(1)).unwrap();
/// cuda_programmable_bootstrap_lwe_ciphertext_list(&bsk, &small, &mut out, &luts, &[0], &[0], p.modulus_switch).unwrap();
/// let out = out.to_cpu().unwrap();
/// let phase = decrypt_lwe_ciphertext(&ck.big_lwe_secret_key(), &out.iter().next().unwrap()).unwrap();
/// assert_eq!(phase.wrapping_add(p.delta() / 2) / p.delta() % 16, 4);
/// ```
pub fn cuda_programmable_bootstrap_lwe_ciphertext_list(
    bsk: &CudaFourierBootstrapKey,
    input: &CudaLweCiphertextList,
    output: &mut CudaLweCiphertextList,
    luts: &CudaLookupTableList,
    lut_indexes: &[usize],
    output_slots: &[usize],
    modulus_switch: ModulusSwitchType,
) -> Result<()> {
    cuda_programmable_bootstrap_lwe_ciphertext_list_with(
        bsk,
        input,
        output,
        luts,
        lut_indexes,
        output_slots,
        modulus_switch,
        PbsKernel::Auto,
    )
}

/// [`cuda_programmable_bootstrap_lwe_ciphertext_list`] with an explicit kernel
/// (tests and benches compare them). `Err` if that kernel cannot run on the device.
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
pub fn cuda_programmable_bootstrap_lwe_ciphertext_list_with(
    bsk: &CudaFourierBootstrapKey,
    input: &CudaLweCiphertextList,
    output: &mut CudaLweCiphertextList,
    luts: &CudaLookupTableList,
    lut_indexes: &[usize],
    output_slots: &[usize],
    modulus_switch: ModulusSwitchType,
    kernel: PbsKernel,
) -> Result<()> {
    cuda_programmable_bootstrap_lwe_ciphertext_list_requested(
        bsk,
        input,
        output,
        luts,
        lut_indexes,
        output_slots,
        modulus_switch,
        kernel.into(),
    )
}

/// [`cuda_programmable_bootstrap_lwe_ciphertext_list_with`] for a [`KernelRequest`]
/// (the backend's `Auto` with what its calibration measured).
#[allow(clippy::too_many_arguments)]
pub(crate) fn cuda_programmable_bootstrap_lwe_ciphertext_list_requested(
    bsk: &CudaFourierBootstrapKey,
    input: &CudaLweCiphertextList,
    output: &mut CudaLweCiphertextList,
    luts: &CudaLookupTableList,
    lut_indexes: &[usize],
    output_slots: &[usize],
    modulus_switch: ModulusSwitchType,
    request: KernelRequest,
) -> Result<()> {
    let n = bsk.shape().input_lwe_dimension.0;
    let jobs = check_bootstrap_batch(bsk, n, input, output, luts, lut_indexes, output_slots)?;
    let count = input.count().0;
    if count == 0 {
        return Ok(());
    }
    // Queued on the output's stream (the caller's), whichever stream made the key.
    let device = output.device().clone();
    let kernels = bootstrap_kernels(&device, bsk.shape().polynomial_size.0)?;
    let flavour = BootstrapFlavour::classical(kernels);
    let geometry = flavour.geometry(&device, bsk, n, count, request)?;
    let stream = device.stream()?;
    let jobs = stream
        .clone_htod(&jobs)
        .map_err(device.driver_err("copying bootstrap jobs to the GPU"))?;
    let (out, _out_guard) = output.data_mut().write_ptr(&device)?;
    let (input_ptr, _in_guard) = input.data().read_ptr(stream);
    let (luts_ptr, _luts_guard) = luts.accumulators().data().read_ptr(stream);
    let (jobs_ptr, _jobs_guard) = jobs.device_ptr(stream);
    let (bsk_ptr, _bsk_guard) = bsk.data().device_ptr(stream);
    let (twiddles, _tw_guard) = bsk.tables().twiddles.device_ptr(stream);
    let (twist, _twist_guard) = bsk.tables().twist.device_ptr(stream);
    let share = shared_key_prefetch(&device, bsk, count);
    let params = PbsParams::new(
        bsk,
        [out, input_ptr, luts_ptr, jobs_ptr, bsk_ptr, twiddles, twist],
        count,
        modulus_switch,
        share,
    )?;
    // SAFETY: the parameter struct matches the kernel's; `input` holds `count`
    // ciphertexts of size n + 1 and `output` room for every slot in `jobs` (checked
    // above: each slot + function count <= output count, the outputs of size k N + 1);
    // every lookup index is below the table count, and `luts` holds N coefficients per
    // table; the Fourier key and tables were built for this shape by the conversion
    // kernel. The guards keep every buffer's events until the launch is queued; the
    // buffers (and `jobs`, freed in stream order) outlive the kernel.
    unsafe { flavour.launch(&device, &geometry, &params) }
}

/// How many ciphertexts of a classical bootstrap batch split the L2 prefetch of the
/// key (`prefetch_column` in `cuda/programmable_bootstrap.cu`): every ciphertext
/// walks the same key, and those of one wave split each GGSW's lines among them.
/// Either kernel normally fits a block per SM, so SMs / (k + 1) ciphertexts or more
/// run at once and every residue modulo this share is in every wave of a large batch
/// (a residue missing from a wave costs that wave late key loads, not results).
pub(super) fn shared_key_prefetch(
    device: &CudaDevice,
    bsk: &CudaFourierBootstrapKey,
    count: usize,
) -> usize {
    let glwe_size = bsk.shape().glwe_dimension.0 + 1;
    count
        .min(device.attributes().multiprocessors as usize / glwe_size)
        .max(1)
}

impl PbsParams {
    /// The parameters of a batch of `count` bootstraps with `bsk`; `pointers`: the
    /// output, input, lookup tables, jobs, key, twiddles and twist on the device;
    /// `prefetch_share`: how many ciphertexts split the L2 prefetch of each GGSW of
    /// the key they read (1: each prefetches all of it).
    pub(super) fn new(
        bsk: &CudaFourierBootstrapKey,
        pointers: [u64; 7],
        count: usize,
        modulus_switch: ModulusSwitchType,
        prefetch_share: usize,
    ) -> Result<Self> {
        let [out, input, luts, jobs, bsk_ptr, twiddles, twist] = pointers;
        let shape = bsk.shape();
        Ok(Self {
            out,
            input,
            luts,
            jobs,
            bsk: bsk_ptr,
            twiddles,
            twist,
            twist_steps: twist_steps(),
            lwe_dimension: to_u32("LWE dimension", shape.input_lwe_dimension.0)?,
            glwe_dimension: to_u32("GLWE dimension", shape.glwe_dimension.0)?,
            base_log: shape.base_log.0 as u32,
            level: shape.level.0 as u32,
            centered: u32::from(modulus_switch == ModulusSwitchType::CenteredMeanNoiseReduction),
            count: to_u32("number of bootstraps", count)?,
            prefetch_share: to_u32("bootstrap prefetch share", prefetch_share.max(1))?,
        })
    }

    /// Sets the LWE dimension the kernels read (the multi-bit bootstrap's `n`).
    pub(super) fn set_lwe_dimension(&mut self, n: usize) -> Result<()> {
        self.lwe_dimension = to_u32("LWE dimension", n)?;
        Ok(())
    }
}

/// Checks a bootstrap batch of inputs of dimension `lwe_dimension`; returns the
/// per-input jobs (lookup table, first output slot, function count) for the kernel.
pub(super) fn check_bootstrap_batch(
    bsk: &CudaFourierBootstrapKey,
    lwe_dimension: usize,
    input: &CudaLweCiphertextList,
    output: &CudaLweCiphertextList,
    luts: &CudaLookupTableList,
    lut_indexes: &[usize],
    output_slots: &[usize],
) -> Result<Vec<u32>> {
    let device = bsk.device();
    device.check_same("GPU of the bootstrap input", input.device())?;
    device.check_same("GPU of the bootstrap output", output.device())?;
    device.check_same("GPU of the lookup tables", luts.device())?;
    let shape = bsk.shape();
    check_eq(
        "LWE size of the bootstrap input",
        lwe_dimension + 1,
        input.lwe_size().0,
    )?;
    check_eq(
        "LWE size of the bootstrap output",
        shape.output_lwe_dimension().to_lwe_size().0,
        output.lwe_size().0,
    )?;
    check_eq(
        "polynomial size of the lookup tables",
        shape.polynomial_size.0,
        luts.polynomial_size().0,
    )?;
    check_eq(
        "GLWE size of the lookup tables",
        shape.glwe_dimension.0 + 1,
        luts.glwe_size().0,
    )?;
    let count = input.count().0;
    check_eq("number of lookup-table indexes", count, lut_indexes.len())?;
    check_eq("number of output slots", count, output_slots.len())?;
    let outputs = output.count().0;
    let mut taken = vec![false; outputs];
    let mut jobs = Vec::with_capacity(3 * count);
    for (&lut, &slot) in lut_indexes.iter().zip(output_slots) {
        let functions = *luts.function_counts().get(lut).ok_or_else(|| {
            Error::InvalidParameter(format!(
                "lookup table {lut} requested, the list has {}",
                luts.count()
            ))
        })?;
        let end = slot.checked_add(functions).filter(|&e| e <= outputs);
        let Some(end) = end else {
            return Err(Error::InvalidParameter(format!(
                "output slots {slot}..{slot}+{functions} do not fit an output list of {outputs}"
            )));
        };
        for t in &mut taken[slot..end] {
            if *t {
                return Err(Error::InvalidParameter(format!(
                    "output slot {slot} is written by two bootstraps"
                )));
            }
            *t = true;
        }
        jobs.extend([
            to_u32("lookup table index", lut)?,
            to_u32("output slot", slot)?,
            functions as u32,
        ]);
    }
    Ok(jobs)
}
