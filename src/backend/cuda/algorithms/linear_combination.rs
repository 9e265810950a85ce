//! Linear combinations of LWE ciphertexts on the GPU: every output a combination of
//! ciphertexts from several device lists plus a constant on the body, in one kernel
//! launch (the linear part of a backend step).

use crate::backend::cuda::driver::launch::launch;
use crate::backend::cuda::kernels::step_kernels;
use crate::backend::cuda::CudaLweCiphertextList;
use crate::error::{check_eq, Error, Result};
use cudarc::driver::{DevicePtr, DeviceRepr, LaunchConfig};

/// Mirrors `LinearCombinationParams` in `cuda/linear_combination.cu`.
#[repr(C)]
struct LinearCombinationParams {
    out: u64,
    offsets: u64,
    sources: u64,
    scalars: u64,
    constants: u64,
    lwe_size: u64,
    count: u64,
}

// SAFETY: a plain `#[repr(C)]` struct of integers, laid out as its C++ twin.
unsafe impl DeviceRepr for LinearCombinationParams {}

/// Writes to `output[e]` the combination `terms[e]` of the inputs plus `constants[e]`
/// on the body: `sum scalar * input[index] + (0, ..., 0, constants[e])` (wrapping),
/// where `index` indexes the concatenation of `inputs`. An output without terms is
/// the trivial ciphertext of its constant. One kernel launch for all outputs,
/// bit-identical to the same sums on the CPU
/// ([`crate::core_crypto::mul_lwe_ciphertext_by_scalar_assign`],
/// [`crate::core_crypto::add_lwe_ciphertext_assign`],
/// [`crate::core_crypto::add_plaintext_to_lwe_ciphertext_assign`]): the linear part
/// of [`crate::backend::Backend::eval`], whose constants are encoded block values.
///
/// ```no_run
/// use gpufhe::backend::cuda::*;
/// use gpufhe::core_crypto::{LweCiphertextCount, LweCiphertextList, LweSize};
/// let gpu = CudaDevice::new(0).unwrap();
/// let a = LweCiphertextList::from_container(vec![1u64, 2, 3, 4], LweSize(2)).unwrap();
/// let a = CudaLweCiphertextList::from_cpu(&gpu, &a).unwrap();
/// // 3 a[0] - a[1] + (0, 50)
/// let terms: &[(usize, i64)] = &[(0, 3), (1, -1)];
/// let mut out = CudaLweCiphertextList::new_zero(&gpu, LweSize(2), LweCiphertextCount(1)).unwrap();
/// cuda_linear_combination_lwe_ciphertext_list(&[&a], &[terms], &[50], &mut out).unwrap();
/// assert_eq!(out.to_cpu().unwrap().as_slice(), &[0, 2u64.wrapping_add(50)]);
/// ```
pub fn cuda_linear_combination_lwe_ciphertext_list(
    inputs: &[&CudaLweCiphertextList],
    terms: &[&[(usize, i64)]],
    constants: &[u64],
    output: &mut CudaLweCiphertextList,
) -> Result<()> {
    let device = output.device().clone();
    let lwe_size = output.lwe_size().0;
    check_eq(
        "number of outputs of the linear combinations",
        terms.len(),
        output.count().0,
    )?;
    check_eq(
        "number of constants of the linear combinations",
        terms.len(),
        constants.len(),
    )?;
    for input in inputs {
        device.check_same("GPU of a linear-combination input", input.device())?;
        check_eq(
            "LWE size of a linear-combination input",
            lwe_size,
            input.lwe_size().0,
        )?;
    }
    if terms.is_empty() {
        return Ok(());
    }
    let stream = device.stream()?;
    // Base addresses of the input lists, with their access guards held to the launch.
    let bases: Vec<_> = inputs.iter().map(|l| l.data().read_ptr(stream)).collect();
    let mut starts = Vec::with_capacity(inputs.len());
    let mut total = 0usize;
    for input in inputs {
        starts.push(total);
        total += input.count().0;
    }
    let mut offsets = Vec::with_capacity(terms.len() + 1);
    let mut sources = Vec::new();
    let mut scalars = Vec::new();
    offsets.push(0u64);
    for combination in terms {
        for &(block, scalar) in *combination {
            if block >= total {
                return Err(Error::InvalidParameter(format!(
                    "input ciphertext {block} requested, the inputs hold {total}"
                )));
            }
            let list = starts.partition_point(|&s| s <= block) - 1;
            let index = (block - starts[list]) as u64;
            sources.push(bases[list].0 + index * lwe_size as u64 * 8);
            scalars.push(scalar as u64);
        }
        offsets.push(sources.len() as u64);
    }
    // The kernel never reads past the offsets, but a buffer cannot be empty.
    if sources.is_empty() {
        sources.push(0);
        scalars.push(0);
    }
    let upload = |v: &[u64]| {
        stream
            .clone_htod(v)
            .map_err(device.driver_err("copying linear combinations to the GPU"))
    };
    let (offsets, sources, scalars, constants) = (
        upload(&offsets)?,
        upload(&sources)?,
        upload(&scalars)?,
        upload(constants)?,
    );
    let count = terms.len() as u64;
    let (out, _out_guard) = output.data_mut().write_ptr(&device)?;
    let (offsets_ptr, _g1) = offsets.device_ptr(stream);
    let (sources_ptr, _g2) = sources.device_ptr(stream);
    let (scalars_ptr, _g3) = scalars.device_ptr(stream);
    let (constants_ptr, _g4) = constants.device_ptr(stream);
    let params = LinearCombinationParams {
        out,
        offsets: offsets_ptr,
        sources: sources_ptr,
        scalars: scalars_ptr,
        constants: constants_ptr,
        lwe_size: lwe_size as u64,
        count,
    };
    let config = LaunchConfig {
        grid_dim: (count.min(1 << 20) as u32, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: every source address is the start of a ciphertext of `lwe_size` inside
    // an input list of this device (index checked against its count above), whose
    // guard in `bases` is held across the launch; `output` holds `count` ciphertexts
    // of `lwe_size` and is not an input (it is borrowed mutably); the CSR arrays hold
    // count + 1 offsets, offsets[count] terms and count constants. The kernel is a
    // grid-stride loop over expressions and coefficients.
    unsafe {
        launch(
            &device,
            &step_kernels(&device)?.linear_combination,
            config,
            &params,
            "launching the linear combinations",
        )?;
    }
    drop(bases);
    Ok(())
}
