//! The execution backend of a server key decompressed to GPUs.

#[cfg(feature = "gpu")]
pub(crate) use cuda::GpuKey;

#[cfg(feature = "gpu")]
mod cuda {
    use crate::backend::cuda::{CudaBackend, CudaDevice};
    use crate::backend::Backend;
    use crate::error::Result;
    use crate::scheduler::GpuSelection;
    use crate::shortint;
    use std::sync::OnceLock;

    /// A server key in the memory of one or several GPUs, and its compressed form
    /// (the host key is expanded from it only if it is serialized).
    pub(crate) struct GpuKey {
        backends: Vec<CudaBackend>,
        compressed: shortint::CompressedServerKey,
        host: OnceLock<shortint::ServerKey>,
    }

    impl std::fmt::Debug for GpuKey {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            let gpus: Vec<usize> = self.backends.iter().map(|b| b.device().ordinal()).collect();
            write!(f, "GpuKey {{ gpus: {gpus:?} }}")
        }
    }

    impl GpuKey {
        /// Copies `key` to every GPU of `gpus` (already checked).
        pub(crate) fn new(
            key: &shortint::CompressedServerKey,
            gpus: &GpuSelection,
        ) -> Result<Self> {
            let backends = gpus
                .gpus()
                .iter()
                .map(|g| CudaBackend::new(&CudaDevice::shared(g.get() as usize)?, key))
                .collect::<Result<Vec<_>>>()?;
            Ok(Self {
                backends,
                compressed: key.clone(),
                host: OnceLock::new(),
            })
        }

        /// One backend per GPU, in the order they were chosen (never empty).
        pub(crate) fn backends(&self) -> &[CudaBackend] {
            &self.backends
        }

        /// Bootstraps run on all GPUs.
        pub(crate) fn pbs_count(&self) -> u64 {
            self.backends.iter().map(|b| b.pbs_count()).sum()
        }

        /// The key on the host, expanded on first use.
        pub(crate) fn host_key(&self) -> &shortint::ServerKey {
            self.host.get_or_init(|| self.compressed.decompress())
        }
    }
}
