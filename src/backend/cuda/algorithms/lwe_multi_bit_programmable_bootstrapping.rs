//! The batched multi-bit programmable bootstrap on a GPU, the twin of
//! [`crate::core_crypto::multi_bit_programmable_bootstrap_lwe_ciphertext`] (see
//! `cuda/multi_bit_bootstrap.cuh`): the host alternates a key-bundle kernel over a
//! chunk of groups of every ciphertext and the accumulation of that chunk, the chunk
//! as large as the GPU's free memory allows for the bundles.

use crate::backend::cuda::algorithms::bootstrap_kernel_choice::{
    grid_x, to_u32, BootstrapFlavour, KernelRequest,
};
use crate::backend::cuda::algorithms::lwe_programmable_bootstrapping::{
    check_bootstrap_batch, PbsParams,
};
use crate::backend::cuda::driver::launch::launch;
use crate::backend::cuda::entities::bootstrap_key::padded_polynomial_bytes;
use crate::backend::cuda::kernels::bootstrap_kernels;
use crate::backend::cuda::{
    CudaFourierBootstrapKey, CudaLookupTableList, CudaLweCiphertextList, PbsKernel,
};
use crate::core_crypto::{check_grouping_factor, multi_bit_ggsw_count, ModulusSwitchType};
use crate::error::{check_eq, Error, Result};
use cudarc::driver::{DevicePtr, DevicePtrMut, DeviceRepr, LaunchConfig};

/// Mirrors `MultiBitParams` in `cuda/multi_bit_bootstrap.cuh`.
#[repr(C)]
struct MultiBitParams {
    pbs: PbsParams,
    bundles: u64,
    state: u64,
    grouping_factor: u32,
    first_group: u32,
    groups: u32,
    capacity: u32,
}

// SAFETY: a plain `#[repr(C)]` struct (the bootstrap's parameters, then addresses and
// 32-bit integers, 8-byte aligned as its C++ twin), laid out as `MultiBitParams`.
unsafe impl DeviceRepr for MultiBitParams {}

/// Ciphertexts and polynomials of one item of the key-bundle kernel (mirrors
/// `BUNDLE_CTS` and `BUNDLE_POLYS` in `cuda/multi_bit_bootstrap.cuh`).
const BUNDLE_CTS: usize = 4;
const BUNDLE_POLYS: usize = 4;

/// At most this much of the GPU's free memory goes to the key bundles of one chunk
/// (a bound on the buffer, not on the batch: more groups take more chunks).
const MAX_BUNDLE_BYTES: usize = 2 << 30;

/// Bootstraps every ciphertext of `input` (dimension `n`, under the small LWE key)
/// with a multi-bit key of grouping factor `grouping_factor` through lookup table
/// `lut_indexes[j]` of `luts`, as [`crate::backend::cuda::cuda_programmable_bootstrap_lwe_ciphertext_list`]
/// does with a classical key: a table of `f` functions writes its results to
/// `output[output_slots[j] + i]`, `i < f`; output slots must not overlap; other slots
/// are left untouched. `bsk` is the multi-bit key as [`CudaFourierBootstrapKey::from_cpu`]
/// converts it: `(n/g)(2^g - 1)` GGSW ciphertexts over the indicator bits of the small
/// key ([`crate::core_crypto::multi_bit_lwe_secret_key`]). Results decrypt to those of
/// [`crate::core_crypto::multi_bit_programmable_bootstrap_lwe_ciphertext`].
///
/// Memory: the key bundles of a chunk of groups of every ciphertext,
/// `(k+1)² l N/2` complex values each, and (with several chunks) the accumulators;
/// `Err(OutOfDeviceMemory)` when not even one group per ciphertext fits. `Err` on
/// any mismatch of shapes, before anything runs.
///
/// ```no_run
/// use gpufhe::backend::{cuda::*, Table};
/// use gpufhe::core_crypto::*;
/// use gpufhe::shortint::{ClientKey, DEFAULT_PARAMETERS};
/// let p = DEFAULT_PARAMETERS;
/// let gpu = CudaDevice::new(0).unwrap();
/// let ck = ClientKey::new(p).unwrap();
/// // A multi-bit key of grouping factor 2: GGSWs of the small key's indicator bits.
/// let bits = multi_bit_lwe_secret_key(ck.small_lwe_secret_key(), 2).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let key = generate_seeded_lwe_bootstrap_key(
///     &bits, ck.glwe_secret_key(), p.pbs_base_log, p.pbs_level,
///     p.glwe_noise_distribution, CompressionSeed::from_os().unwrap(), &mut rng,
/// ).unwrap();
/// let bsk = CudaFourierBootstrapKey::from_cpu(&gpu, &key.decompress()).unwrap();
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(
///     ck.small_lwe_secret_key(), 3 * p.delta(), p.lwe_noise_distribution, &mut rng,
/// ).unwrap();
/// let list = LweCiphertextList::from_container(ct.as_slice().to_vec(), ct.lwe_size()).unwrap();
/// let small = CudaLweCiphertextList::from_cpu(&gpu, &list).unwrap();
/// let luts = CudaLookupTableList::from_tables(&gpu, &p, &[&Table::new(&p, |x| x + 1).unwrap()]).unwrap();
/// let mut out = CudaLweCiphertextList::new_zero(&gpu, p.big_lwe_dimension().to_lwe_size(), LweCiphertextCount(1)).unwrap();
/// cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list(
///     &bsk, 2, &small, &mut out, &luts, &[0], &[0], p.modulus_switch,
/// ).unwrap();
/// let out = out.to_cpu().unwrap();
/// let phase = decrypt_lwe_ciphertext(ck.big_lwe_secret_key(), &out.iter().next().unwrap()).unwrap();
/// assert_eq!(phase.wrapping_add(p.delta() / 2) / p.delta() % 16, 4);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list(
    bsk: &CudaFourierBootstrapKey,
    grouping_factor: usize,
    input: &CudaLweCiphertextList,
    output: &mut CudaLweCiphertextList,
    luts: &CudaLookupTableList,
    lut_indexes: &[usize],
    output_slots: &[usize],
    modulus_switch: ModulusSwitchType,
) -> Result<()> {
    cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_with(
        bsk,
        grouping_factor,
        input,
        output,
        luts,
        lut_indexes,
        output_slots,
        modulus_switch,
        PbsKernel::Auto,
        usize::MAX,
    )
}

/// [`cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list`] with an explicit
/// accumulation kernel and at most `max_chunk_groups` groups per chunk (tests compare
/// kernels and exercise the chunking). `Err` if that kernel cannot run on the device.
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
pub fn cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_with(
    bsk: &CudaFourierBootstrapKey,
    grouping_factor: usize,
    input: &CudaLweCiphertextList,
    output: &mut CudaLweCiphertextList,
    luts: &CudaLookupTableList,
    lut_indexes: &[usize],
    output_slots: &[usize],
    modulus_switch: ModulusSwitchType,
    kernel: PbsKernel,
    max_chunk_groups: usize,
) -> Result<()> {
    cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_requested(
        bsk,
        grouping_factor,
        input,
        output,
        luts,
        lut_indexes,
        output_slots,
        modulus_switch,
        kernel.into(),
        max_chunk_groups,
    )
}

/// [`cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_with`] for a
/// [`KernelRequest`] (the backend's `Auto` with what its calibration measured).
#[allow(clippy::too_many_arguments)]
pub(crate) fn cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_requested(
    bsk: &CudaFourierBootstrapKey,
    grouping_factor: usize,
    input: &CudaLweCiphertextList,
    output: &mut CudaLweCiphertextList,
    luts: &CudaLookupTableList,
    lut_indexes: &[usize],
    output_slots: &[usize],
    modulus_switch: ModulusSwitchType,
    request: KernelRequest,
    max_chunk_groups: usize,
) -> Result<()> {
    let shape = bsk.shape();
    let n = input.lwe_size().0.saturating_sub(1);
    check_grouping_factor(n, grouping_factor)?;
    check_eq(
        "GGSW ciphertexts of the multi-bit key",
        multi_bit_ggsw_count(n, grouping_factor),
        shape.input_lwe_dimension.0,
    )?;
    if max_chunk_groups == 0 {
        return Err(Error::InvalidParameter(
            "a multi-bit bootstrap needs at least one group per chunk".into(),
        ));
    }
    let jobs = check_bootstrap_batch(bsk, n, input, output, luts, lut_indexes, output_slots)?;
    let count = input.count().0;
    if count == 0 {
        return Ok(());
    }
    // Queued on the output's stream (the caller's), whichever stream made the key.
    let device = output.device().clone();
    let polynomial_size = shape.polynomial_size.0;
    let kernels = bootstrap_kernels(&device, polynomial_size)?;
    let flavour = BootstrapFlavour::multi_bit(kernels);
    let geometry = flavour.geometry(&device, bsk, n, count, request)?;

    // The chunk: as many groups as the bundles of every ciphertext fit in (half the
    // free memory, at most MAX_BUNDLE_BYTES), the accumulators aside.
    let groups = n / grouping_factor;
    let glwe_size = shape.glwe_dimension.0 + 1;
    let bundle_bytes = glwe_size * glwe_size * shape.level.0 * polynomial_size / 2 * 16;
    let state_bytes = count * glwe_size * polynomial_size * 8;
    let (free, _) = device.memory_info()?;
    let budget = (free / 2).min(MAX_BUNDLE_BYTES);
    let per_group = count.saturating_mul(bundle_bytes);
    let chunk = (budget.saturating_sub(state_bytes) / per_group)
        .min(groups)
        .min(max_chunk_groups);
    if chunk == 0 {
        return Err(Error::OutOfDeviceMemory(format!(
            "the key bundles of one group of {count} multi-bit bootstraps ({per_group} bytes) \
             do not fit the {free} bytes free on GPU {}",
            device.ordinal()
        )));
    }
    let state_len = if chunk < groups { state_bytes / 8 } else { 0 };
    device.check_free_memory(chunk * per_group + state_len * 8)?;

    let stream = device.stream()?;
    let jobs = stream
        .clone_htod(&jobs)
        .map_err(device.driver_err("copying bootstrap jobs to the GPU"))?;
    // SAFETY (both allocations, left uninitialised: zeroing them would cost a pass
    // over the bundles): the kernels read a bundle only after the key-bundle kernel
    // of the same chunk wrote it (both skip the groups whose mask values are all 0),
    // and an accumulator only in a chunk after the one that stored it.
    let mut bundles = unsafe { stream.alloc::<f64>(chunk * per_group / 8) }
        .map_err(device.driver_err("allocating the multi-bit key bundles"))?;
    let mut state = unsafe { stream.alloc::<u64>(state_len.max(1)) }
        .map_err(device.driver_err("allocating the multi-bit accumulators"))?;
    let (out, _out_guard) = output.data_mut().write_ptr(&device)?;
    let (input_ptr, _in_guard) = input.data().read_ptr(stream);
    let (luts_ptr, _luts_guard) = luts.accumulators().data().read_ptr(stream);
    let (jobs_ptr, _jobs_guard) = jobs.device_ptr(stream);
    let (bsk_ptr, _bsk_guard) = bsk.data().device_ptr(stream);
    let (twiddles, _tw_guard) = bsk.tables().twiddles.device_ptr(stream);
    let (twist, _twist_guard) = bsk.tables().twist.device_ptr(stream);
    let (bundles_ptr, _bundles_guard) = bundles.device_ptr_mut(stream);
    let (state_ptr, _state_guard) = state.device_ptr_mut(stream);
    // Each ciphertext has key bundles of its own: it prefetches every line of its
    // next bundle (a share of 1), where the classical ciphertexts of a wave split
    // the lines of the one key they all read.
    let mut pbs = PbsParams::new(
        bsk,
        [out, input_ptr, luts_ptr, jobs_ptr, bsk_ptr, twiddles, twist],
        count,
        modulus_switch,
        1,
    )?;
    pbs.set_lwe_dimension(n)?;
    let mut params = MultiBitParams {
        pbs,
        bundles: bundles_ptr,
        state: state_ptr,
        grouping_factor: grouping_factor as u32,
        first_group: 0,
        groups: 0,
        capacity: to_u32("multi-bit chunk", chunk)?,
    };
    let threads = kernels.threads_per_polynomial;
    let shared = kernels
        .multi_bit_key_bundle
        .allow_shared_memory(&device, padded_polynomial_bytes(polynomial_size))?;
    let polys = glwe_size * glwe_size * shape.level.0;
    for first in (0..groups).step_by(chunk) {
        let in_chunk = chunk.min(groups - first);
        params.first_group = to_u32("multi-bit group", first)?;
        params.groups = in_chunk as u32;
        // Blocks loop over the items (BUNDLE_CTS ciphertexts x BUNDLE_POLYS polynomials
        // of one group); a few blocks per SM keep every SM busy.
        let items = count.div_ceil(BUNDLE_CTS) * polys.div_ceil(BUNDLE_POLYS) * in_chunk;
        let blocks = items.min(device.multiprocessor_count() * 4).max(1);
        let config = LaunchConfig {
            grid_dim: (grid_x(blocks)?, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: shared,
        };
        // SAFETY (both launches): the parameter struct matches the kernels'; `input`
        // holds `count` ciphertexts of size n + 1 (n = g × groups), the key
        // (n/g)(2^g - 1) GGSWs of this shape (checked above), `bundles` `chunk`
        // bundles of the GGSW size per ciphertext and `state` (k + 1) N values per
        // ciphertext when there are several chunks (the kernels read it only then);
        // the jobs' tables and output slots were checked as for the classical
        // bootstrap. The bundle kernel's block is T threads with one padded
        // polynomial of shared memory for its FFT; the accumulation's geometry is the
        // classical bootstrap's. The guards keep every buffer's events until the
        // launches are queued; the buffers (`jobs`, `bundles` and `state` freed in
        // stream order) outlive the kernels.
        unsafe {
            launch(
                &device,
                &kernels.multi_bit_key_bundle,
                config,
                &params,
                "launching the multi-bit key bundles",
            )?;
            flavour.launch(&device, &geometry, &params)?;
        }
    }
    Ok(())
}
