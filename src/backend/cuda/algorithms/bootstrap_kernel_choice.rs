//! Which bootstrap kernel runs a batch, and its launch: one block per ciphertext or
//! one cluster of `k + 1` blocks (sm_90+), for the classical and the multi-bit
//! bootstraps alike ([`choose_bootstrap_kernel`], the rule; [`BootstrapFlavour`],
//! the launch).

use crate::backend::cuda::driver::kernel::Kernel;
use crate::backend::cuda::driver::launch::{launch, launch_clusters};
use crate::backend::cuda::entities::bootstrap_key::padded_polynomial_bytes;
use crate::backend::cuda::kernels::{bootstrap_kernels, BootstrapKernels};
use crate::backend::cuda::{CudaDevice, CudaFourierBootstrapKey};
use crate::error::{Error, Result};
use cudarc::driver::{DeviceRepr, LaunchConfig};

/// Which bootstrap kernel runs a batch (see `cuda/programmable_bootstrap.cu`).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PbsKernel {
    /// Chosen from the batch size and the device (see [`choose_bootstrap_kernel`]).
    Auto,
    /// One thread block per bootstrap.
    SingleBlock,
    /// One cluster of `k + 1` thread blocks per bootstrap (sm_90 and newer).
    Cluster,
}

/// The kernel asked for, and for `Auto` the one measured faster on batches larger
/// than a wave of the GPU (the calibration's side-by-side), if it was measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KernelRequest {
    pub(crate) kernel: PbsKernel,
    pub(crate) measured_for_large_batches: Option<PbsKernel>,
}

impl From<PbsKernel> for KernelRequest {
    fn from(kernel: PbsKernel) -> Self {
        Self {
            kernel,
            measured_for_large_batches: None,
        }
    }
}

/// What [`choose_bootstrap_kernel`] knows of one kernel for a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// Its launch fits the device (threads, registers, shared memory, clusters).
    pub(crate) fits: bool,
    /// It uses local memory (spilled registers or a stack), which every CMux would
    /// load again: `Auto` never takes it.
    pub(crate) local_memory: bool,
}

/// The kernel that runs a batch: `Some(true)` the cluster, `Some(false)` the single
/// block, `None` when the request cannot run. An explicit kernel runs if it fits.
/// `Auto` takes only kernels without local memory; of two, the cluster while the
/// batch is one wave at most (`one_wave`: every cluster block has an SM of its own,
/// so a bootstrap on `k + 1` SMs finishes sooner), beyond it the kernel the
/// calibration measured faster, else the single block (SMs are shared either way,
/// and one block per bootstrap synchronizes less). A pure function, tested below.
pub(crate) fn choose_bootstrap_kernel(
    request: KernelRequest,
    single: Candidate,
    cluster: Candidate,
    one_wave: bool,
) -> Option<bool> {
    let usable = |c: Candidate| c.fits && !c.local_memory;
    match request.kernel {
        PbsKernel::SingleBlock => single.fits.then_some(false),
        PbsKernel::Cluster => cluster.fits.then_some(true),
        PbsKernel::Auto => match (usable(single), usable(cluster)) {
            (true, true) if one_wave => Some(true),
            (true, true) => Some(request.measured_for_large_batches == Some(PbsKernel::Cluster)),
            (true, false) => Some(false),
            (false, true) => Some(true),
            (false, false) => None,
        },
    }
}

/// A pair of bootstrap kernels of one size taking the same parameters: one block per
/// ciphertext, or a cluster of `k + 1` blocks per ciphertext (sm_90+), with the
/// thread-group layout and shared memory of `cuda/programmable_bootstrap.cu`.
pub(super) struct BootstrapFlavour<'a> {
    pub(super) single_block: &'a Kernel,
    pub(super) cluster: &'a Kernel,
    /// Empty for the classical bootstrap, else a word for the messages ("multi-bit ").
    pub(super) what: &'static str,
}

/// The launch a [`BootstrapFlavour`] chose for a batch.
pub(super) struct BootstrapGeometry {
    use_cluster: bool,
    count: usize,
    glwe_size: usize,
    threads: u32,
    single_threads: usize,
    single_shared: usize,
    cluster_shared: usize,
}

impl<'a> BootstrapFlavour<'a> {
    /// The classical bootstrap's kernels of one size.
    pub(super) fn classical(kernels: &'a BootstrapKernels) -> Self {
        Self {
            single_block: &kernels.single_block,
            cluster: &kernels.cluster,
            what: "",
        }
    }

    /// The multi-bit accumulation's kernels of one size.
    pub(super) fn multi_bit(kernels: &'a BootstrapKernels) -> Self {
        Self {
            single_block: &kernels.multi_bit_single_block,
            cluster: &kernels.multi_bit_cluster,
            what: "multi-bit ",
        }
    }

    /// Chooses the kernel for `count` bootstraps with `bsk` of inputs of dimension
    /// `lwe_dimension` ([`choose_bootstrap_kernel`]), or `Err` if the request cannot
    /// run on the device.
    pub(super) fn geometry(
        &self,
        device: &CudaDevice,
        bsk: &CudaFourierBootstrapKey,
        lwe_dimension: usize,
        count: usize,
        request: KernelRequest,
    ) -> Result<BootstrapGeometry> {
        let shape = bsk.shape();
        let n = shape.polynomial_size.0;
        let (glwe_size, level) = (shape.glwe_dimension.0 + 1, shape.level.0);
        let sizes = bootstrap_kernels(device, n)?;
        let threads = sizes.threads_per_polynomial;
        let rows = padded_polynomial_bytes(n);
        let staging = if level > 1 { n * 8 } else { 0 };
        // The switched mask and body, 32 bits each.
        let mask = (lwe_dimension + 1) * 4;
        // Two sets of row buffers (the kernel alternates them from one CMux to the next).
        let single_shared = glwe_size * (2 * level * rows + staging) + mask;
        let cluster_shared = 2 * level * rows + staging + mask;
        let attributes = *device.attributes();

        // T threads per polynomial, or T threads that each hold all k + 1 of them.
        let per_thread = sizes.single_block_polynomials_per_thread;
        let single_threads = if per_thread > 1 {
            threads as usize
        } else {
            threads as usize * glwe_size
        };
        let single = Candidate {
            fits: (per_thread == 1 || per_thread == glwe_size)
                && single_threads <= self.single_block.max_threads_per_block(device)? as usize
                && single_shared <= self.single_block.max_dynamic_shared_memory(device)?,
            local_memory: self.single_block.uses_local_memory(device)?,
        };
        let cluster_fits = attributes.has_clusters()
            && glwe_size <= 8
            && threads <= self.cluster.max_threads_per_block(device)?
            && cluster_shared <= self.cluster.max_dynamic_shared_memory(device)?;
        // A cluster needs k + 1 SMs at once with that shared memory each, which a GPU
        // partition may not offer.
        let cluster = Candidate {
            fits: cluster_fits
                && self
                    .cluster
                    .clusters_fit(device, glwe_size as u32, threads, cluster_shared)?,
            local_memory: self.cluster.uses_local_memory(device)?,
        };
        let one_wave = count * glwe_size <= attributes.multiprocessors as usize;
        let Some(use_cluster) = choose_bootstrap_kernel(request, single, cluster, one_wave) else {
            let spilled = request.kernel == PbsKernel::Auto && (single.fits || cluster.fits);
            return Err(Error::InvalidParameter(format!(
                "no GPU {}bootstrap kernel {} these parameters on GPU {} (N = {n}, k + 1 = \
                 {glwe_size}, {level} level(s), {:?} requested){}",
                self.what,
                if spilled {
                    "without local memory fits"
                } else {
                    "fits"
                },
                device.ordinal(),
                request.kernel,
                if spilled {
                    "; the kernels that fit spill registers to local memory on this GPU"
                } else {
                    ""
                },
            )));
        };
        Ok(BootstrapGeometry {
            use_cluster,
            count,
            glwe_size,
            threads,
            single_threads,
            single_shared,
            cluster_shared,
        })
    }

    /// Launches the chosen kernel of `geometry` with `params`.
    ///
    /// # Safety
    /// `params` must be the kernels' parameter struct, for the batch `geometry` was
    /// chosen for, with every device address valid for what the kernel reads and
    /// writes until it has run. The block has exactly the threads the kernel indexes
    /// with ((k + 1) T, or T when each thread holds every polynomial, or T per
    /// cluster block) and the dynamic shared memory it carves (`*_shared`, allowed
    /// above 48 KB by `allow_shared_memory`).
    pub(super) unsafe fn launch<P: DeviceRepr>(
        &self,
        device: &CudaDevice,
        geometry: &BootstrapGeometry,
        params: &P,
    ) -> Result<()> {
        let BootstrapGeometry {
            count,
            glwe_size,
            threads,
            ..
        } = *geometry;
        if geometry.use_cluster {
            let cluster_shared = geometry.cluster_shared;
            let shared = self.cluster.allow_shared_memory(device, cluster_shared)?;
            let config = LaunchConfig {
                grid_dim: (grid_x(count * glwe_size)?, 1, 1),
                block_dim: (threads, 1, 1),
                shared_mem_bytes: shared,
            };
            // SAFETY: this function's contract is the launch's.
            unsafe {
                launch_clusters(
                    device,
                    self.cluster,
                    config,
                    glwe_size as u32,
                    params,
                    "launching the clustered bootstrap",
                )
            }
        } else {
            let shared = self
                .single_block
                .allow_shared_memory(device, geometry.single_shared)?;
            let config = LaunchConfig {
                grid_dim: (grid_x(count)?, 1, 1),
                block_dim: (geometry.single_threads as u32, 1, 1),
                shared_mem_bytes: shared,
            };
            // SAFETY: this function's contract is the launch's.
            unsafe {
                launch(
                    device,
                    self.single_block,
                    config,
                    params,
                    "launching the bootstrap",
                )
            }
        }
    }
}

/// `Err` unless `Auto` has a kernel for bootstraps with `bsk` (on its GPU) of inputs
/// of dimension `lwe_dimension`, classical or `multi_bit`: a key whose bootstraps
/// could not run there is refused when it is made, not at its first step.
pub(crate) fn check_auto_bootstrap_kernel(
    bsk: &CudaFourierBootstrapKey,
    lwe_dimension: usize,
    multi_bit: bool,
) -> Result<()> {
    let device = bsk.device();
    let kernels = bootstrap_kernels(device, bsk.shape().polynomial_size.0)?;
    let flavour = if multi_bit {
        BootstrapFlavour::multi_bit(kernels)
    } else {
        BootstrapFlavour::classical(kernels)
    };
    flavour
        .geometry(device, bsk, lwe_dimension, 1, PbsKernel::Auto.into())
        .map(drop)
}

/// `value` as the `u32` the kernels index with, or `Err` naming `what`.
pub(super) fn to_u32(what: &str, value: usize) -> Result<u32> {
    u32::try_from(value).map_err(|_| {
        Error::InvalidParameter(format!("{what} {value} exceeds the GPU kernels' range"))
    })
}

/// `blocks` as the x dimension of one launch's grid, or `Err`.
pub(super) fn grid_x(blocks: usize) -> Result<u32> {
    match u32::try_from(blocks) {
        Ok(b) if b < 1 << 31 => Ok(b),
        _ => Err(Error::InvalidParameter(format!(
            "{blocks} thread blocks exceed one launch; split the batch"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLEAN: Candidate = Candidate {
        fits: true,
        local_memory: false,
    };
    const SPILLS: Candidate = Candidate {
        fits: true,
        local_memory: true,
    };
    const NO_FIT: Candidate = Candidate {
        fits: false,
        local_memory: false,
    };

    fn auto(measured: Option<PbsKernel>) -> KernelRequest {
        KernelRequest {
            kernel: PbsKernel::Auto,
            measured_for_large_batches: measured,
        }
    }

    #[test]
    fn auto_never_takes_a_kernel_with_local_memory() {
        // N = 4096 on an H100: the single block spills, the cluster does not; a batch
        // beyond one wave (the old rule took the single block there).
        for one_wave in [false, true] {
            let chosen = choose_bootstrap_kernel(auto(None), SPILLS, CLEAN, one_wave);
            assert_eq!(chosen, Some(true), "one wave: {one_wave}");
            let chosen = choose_bootstrap_kernel(auto(None), CLEAN, SPILLS, one_wave);
            assert_eq!(chosen, Some(false), "one wave: {one_wave}");
        }
        // Only a spilling kernel fits (multi-bit N = 4096 before Hopper): refused.
        assert_eq!(
            choose_bootstrap_kernel(auto(None), SPILLS, NO_FIT, false),
            None
        );
        // Asked for explicitly, it runs.
        let single = KernelRequest::from(PbsKernel::SingleBlock);
        assert_eq!(
            choose_bootstrap_kernel(single, SPILLS, NO_FIT, false),
            Some(false)
        );
        let cluster = KernelRequest::from(PbsKernel::Cluster);
        assert_eq!(
            choose_bootstrap_kernel(cluster, SPILLS, NO_FIT, false),
            None
        );
    }

    #[test]
    fn auto_follows_the_wave_then_the_measurement() {
        // Within one wave the cluster, beyond it the single block...
        assert_eq!(
            choose_bootstrap_kernel(auto(None), CLEAN, CLEAN, true),
            Some(true)
        );
        assert_eq!(
            choose_bootstrap_kernel(auto(None), CLEAN, CLEAN, false),
            Some(false)
        );
        // ...unless the calibration measured the cluster faster there.
        let measured = Some(PbsKernel::Cluster);
        assert_eq!(
            choose_bootstrap_kernel(auto(measured), CLEAN, CLEAN, false),
            Some(true)
        );
        let measured = Some(PbsKernel::SingleBlock);
        assert_eq!(
            choose_bootstrap_kernel(auto(measured), CLEAN, CLEAN, false),
            Some(false)
        );
        assert_eq!(
            choose_bootstrap_kernel(auto(measured), CLEAN, CLEAN, true),
            Some(true)
        );
        // A measurement does not make a kernel that does not fit run.
        let measured = Some(PbsKernel::Cluster);
        assert_eq!(
            choose_bootstrap_kernel(auto(measured), CLEAN, NO_FIT, false),
            Some(false)
        );
        // Before Hopper (no clusters): the single block, whatever the batch.
        for one_wave in [false, true] {
            assert_eq!(
                choose_bootstrap_kernel(auto(None), CLEAN, NO_FIT, one_wave),
                Some(false)
            );
        }
    }
}
