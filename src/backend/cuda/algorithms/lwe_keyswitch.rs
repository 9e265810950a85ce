//! Keyswitching keys on a GPU and the batched keyswitch.

use crate::backend::cuda::driver::launch::launch;
use crate::backend::cuda::kernels::{step_kernels, KEYSWITCH_CIPHERTEXTS_PER_BLOCK};
use crate::backend::cuda::CudaKeyswitchKey;
use crate::backend::cuda::CudaLweCiphertextList;
use crate::error::{check_eq, Error, Result};
use cudarc::driver::{DevicePtr, DeviceRepr, LaunchConfig};

/// Output coefficients per block of the keyswitch kernels (`KS_OUTPUTS` in
/// `cuda/keyswitch.cu`).
const OUTPUTS_PER_BLOCK: usize = 128;
/// Fewest input coefficients per split of the key rows.
const MIN_COEFFICIENTS_PER_SPLIT: usize = 64;

/// Mirrors `KeyswitchParams` in `cuda/keyswitch.cu`.
#[repr(C)]
struct KeyswitchParams {
    out: u64,
    partial: u64,
    input: u64,
    ksk: u64,
    in_dim: u32,
    out_dim: u32,
    base_log: u32,
    level: u32,
    count: u32,
    coefficients_per_split: u32,
    splits: u32,
    pad: u32,
}

// SAFETY: a plain `#[repr(C)]` struct of integers, laid out as its C++ twin.
unsafe impl DeviceRepr for KeyswitchParams {}

/// Keyswitches every ciphertext of `input` (under the key's input key) into the
/// same position of `output` (under its output key), bit-identical to
/// [`crate::core_crypto::keyswitch_lwe_ciphertext`] on each. Each key value read
/// serves up to 16 ciphertexts (a smaller batch takes a kernel of that many, so one
/// ciphertext costs one ciphertext's arithmetic); small batches split the key rows
/// over more blocks.
///
/// ```no_run
/// use gpufhe::backend::cuda::*;
/// use gpufhe::core_crypto::*;
/// use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};
/// let gpu = CudaDevice::new(0).unwrap();
/// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
/// let sk = ServerKey::new(&ck).unwrap();
/// let ksk = CudaKeyswitchKey::from_cpu(&gpu, sk.keyswitch_key()).unwrap();
/// let block = ck.encrypt(2).unwrap();
/// let list = LweCiphertextList::from_container(block.as_lwe().as_slice().to_vec(), block.as_lwe().lwe_size()).unwrap();
/// let input = CudaLweCiphertextList::from_cpu(&gpu, &list).unwrap();
/// let mut out = CudaLweCiphertextList::new_zero(&gpu, ksk.shape().output_lwe_dimension.to_lwe_size(), LweCiphertextCount(1)).unwrap();
/// cuda_keyswitch_lwe_ciphertext_list(&ksk, &input, &mut out).unwrap();
/// assert_eq!(out.to_cpu().unwrap().as_slice(), sk.keyswitch(&block).unwrap().as_slice());
/// ```
pub fn cuda_keyswitch_lwe_ciphertext_list(
    ksk: &CudaKeyswitchKey,
    input: &CudaLweCiphertextList,
    output: &mut CudaLweCiphertextList,
) -> Result<()> {
    // Queued on the output's stream (the caller's), whichever stream made the key.
    let device = output.device().clone();
    device.check_same("GPU of the keyswitching key", ksk.device())?;
    device.check_same("GPU of the keyswitch input", input.device())?;
    let shape = ksk.shape();
    let (in_dim, out_dim) = (shape.input_lwe_dimension.0, shape.output_lwe_dimension.0);
    check_eq(
        "LWE size of the keyswitch input",
        in_dim + 1,
        input.lwe_size().0,
    )?;
    check_eq(
        "LWE size of the keyswitch output",
        out_dim + 1,
        output.lwe_size().0,
    )?;
    check_eq(
        "number of keyswitch outputs",
        input.count().0,
        output.count().0,
    )?;
    let count = input.count().0;
    if count == 0 {
        return Ok(());
    }
    let to_u32 = |what: &str, v: usize| {
        u32::try_from(v).map_err(|_| {
            Error::InvalidParameter(format!("{what} {v} exceeds the GPU kernels' range"))
        })
    };
    let per_block = count.next_power_of_two().min(16);
    let kernel_index = KEYSWITCH_CIPHERTEXTS_PER_BLOCK
        .iter()
        .position(|&c| c == per_block)
        .expect("a power of two up to 16");
    let ct_tiles = count.div_ceil(per_block);
    let out_tiles = (out_dim + 1).div_ceil(OUTPUTS_PER_BLOCK);
    if out_tiles > 65_535 || ct_tiles >= 1 << 31 {
        return Err(Error::InvalidParameter(format!(
            "a keyswitch of {count} ciphertexts to dimension {out_dim} exceeds one launch"
        )));
    }
    // Enough blocks for two per SM: split the key rows when the batch is small.
    let target = 2 * device.attributes().multiprocessors as usize;
    let max_splits = (in_dim / MIN_COEFFICIENTS_PER_SPLIT).clamp(1, 65_535);
    let splits = target.div_ceil(ct_tiles * out_tiles).clamp(1, max_splits);
    let per_split = in_dim.div_ceil(splits).max(1);
    let splits = in_dim.div_ceil(per_split).max(1);

    let stream = device.stream()?;
    let partial = if splits > 1 {
        let len = splits * count * (out_dim + 1);
        device.check_free_memory(len * 8)?;
        // SAFETY: every element is written by the keyswitch kernel before the reduce
        // kernel reads it: block (x, y, z) writes split z of its ciphertexts and
        // output coefficients, and the tiles cover all of them.
        Some(
            unsafe { stream.alloc::<u64>(len) }
                .map_err(device.driver_err("allocating keyswitch partial sums"))?,
        )
    } else {
        None
    };
    let (out, _out_guard) = output.data_mut().write_ptr(&device)?;
    let (input_ptr, _in_guard) = input.data().read_ptr(stream);
    let (key, _key_guard) = ksk.data.device_ptr(stream);
    let partial_ptr = partial.as_ref().map(|p| p.device_ptr(stream));
    let params = KeyswitchParams {
        out,
        partial: partial_ptr.as_ref().map_or(0, |(ptr, _)| *ptr),
        input: input_ptr,
        ksk: key,
        in_dim: to_u32("keyswitch input dimension", in_dim)?,
        out_dim: to_u32("keyswitch output dimension", out_dim)?,
        base_log: shape.base_log.0 as u32,
        level: shape.level.0 as u32,
        count: to_u32("number of keyswitches", count)?,
        coefficients_per_split: per_split as u32,
        splits: splits as u32,
        pad: 0,
    };
    let kernels = step_kernels(&device)?;
    let config = LaunchConfig {
        grid_dim: (ct_tiles as u32, out_tiles as u32, splits as u32),
        block_dim: (OUTPUTS_PER_BLOCK as u32, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: `input` holds `count` ciphertexts of in_dim + 1, `output` `count` of
    // out_dim + 1, the key in_dim * level rows of out_dim + 1 (checked at upload), and
    // `partial` (when splits > 1) splits * count * (out_dim + 1) values; the grid
    // covers the ciphertext tiles, output tiles and splits the kernel indexes, with
    // the 128 threads it is written for. Guards and buffers outlive the launch (the
    // partial sums are freed in stream order after the reduce kernel).
    unsafe {
        launch(
            &device,
            &kernels.keyswitch[kernel_index],
            config,
            &params,
            "launching the keyswitch",
        )?;
    }
    if splits > 1 {
        let total = (count * (out_dim + 1)).div_ceil(256).min(1 << 20) as u32;
        let config = LaunchConfig {
            grid_dim: (total, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: as above; the grid-stride loop stays below count * (out_dim + 1).
        unsafe {
            launch(
                &device,
                &kernels.keyswitch_reduce,
                config,
                &params,
                "launching the keyswitch reduction",
            )?;
        }
    }
    Ok(())
}
