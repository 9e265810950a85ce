//! Batches of LWE ciphertexts in device memory and linear operations on them.

use crate::backend::cuda::kernels::lwe_kernels;
use crate::backend::cuda::CudaLweCiphertextList;
use crate::error::{check_eq, Result};
use cudarc::driver::{CudaFunction, LaunchConfig, PushKernelArg};

/// `lhs[i] += rhs[i]` for every ciphertext, in one kernel launch over the batch.
/// The GPU twin of [`crate::core_crypto::add_lwe_ciphertext_list_assign`].
///
/// ```no_run
/// use gpufhe::backend::cuda::*;
/// use gpufhe::core_crypto::{LweCiphertextList, LweSize};
/// let gpu = CudaDevice::new(0).unwrap();
/// let a = LweCiphertextList::from_container(vec![1u64, 2, 3, 4], LweSize(2)).unwrap();
/// let mut da = CudaLweCiphertextList::from_cpu(&gpu, &a).unwrap();
/// let db = CudaLweCiphertextList::from_cpu(&gpu, &a).unwrap();
/// cuda_add_lwe_ciphertext_list_assign(&mut da, &db).unwrap();
/// assert_eq!(da.to_cpu().unwrap().as_slice(), &[2, 4, 6, 8]);
/// ```
pub fn cuda_add_lwe_ciphertext_list_assign(
    lhs: &mut CudaLweCiphertextList,
    rhs: &CudaLweCiphertextList,
) -> Result<()> {
    let f = lwe_kernels(&lhs.device)?.add_assign.clone();
    launch_binary(&f, lhs, rhs)
}

/// `lhs[i] -= rhs[i]` for every ciphertext, in one kernel launch.
pub fn cuda_sub_lwe_ciphertext_list_assign(
    lhs: &mut CudaLweCiphertextList,
    rhs: &CudaLweCiphertextList,
) -> Result<()> {
    let f = lwe_kernels(&lhs.device)?.sub_assign.clone();
    launch_binary(&f, lhs, rhs)
}

/// `list[i] = -list[i]` for every ciphertext, in one kernel launch.
pub fn cuda_negate_lwe_ciphertext_list_assign(list: &mut CudaLweCiphertextList) -> Result<()> {
    let len = list.data.slice().len() as u64;
    let device = list.device.clone();
    let stream = device.stream()?;
    let mut launch = stream.launch_builder(&lwe_kernels(&device)?.neg_assign);
    launch.arg(list.data.slice_mut_for(&device)?).arg(&len);
    // SAFETY: the kernel reads and writes `len` u64 of `data`, which holds exactly
    // `len` elements; the launch is asynchronous on the list's own stream, which
    // orders every later use of `data`.
    unsafe { launch.launch(launch_config(len)) }
        .map_err(device.driver_err("launching neg_lwe_assign_u64"))?;
    Ok(())
}

fn launch_binary(
    f: &CudaFunction,
    lhs: &mut CudaLweCiphertextList,
    rhs: &CudaLweCiphertextList,
) -> Result<()> {
    check_eq("LWE size of the right list", lhs.lwe_size.0, rhs.lwe_size.0)?;
    check_eq(
        "ciphertext count of the right list",
        lhs.count.0,
        rhs.count.0,
    )?;
    check_eq(
        "GPU of the right list",
        lhs.device.ordinal(),
        rhs.device.ordinal(),
    )?;
    let len = lhs.data.slice().len() as u64;
    let device = lhs.device.clone();
    let stream = device.stream()?;
    let mut launch = stream.launch_builder(f);
    launch
        .arg(lhs.data.slice_mut_for(&device)?)
        .arg(rhs.data.slice())
        .arg(&len);
    // SAFETY: both buffers hold exactly `len` u64 (same size and count, checked
    // above) on the same device; the kernel touches indices `< len` only.
    unsafe { launch.launch(launch_config(len)) }
        .map_err(device.driver_err("launching an LWE list kernel"))?;
    rhs.data.record_read(&device)
}

/// A grid-stride launch: 256 threads per block, at most 65535 blocks.
fn launch_config(len: u64) -> LaunchConfig {
    let blocks = len.div_ceil(256).clamp(1, 65_535) as u32;
    LaunchConfig {
        grid_dim: (blocks, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    }
}
