//! The GPU types the layers above name, in a build without the `gpu` feature: the
//! same names and methods as `backend::cuda`'s, on types that have no values. No GPU
//! can be opened ([`CudaDevice::shared`] is an `Err`), so nothing can be built on
//! one, and every other method is unreachable by construction (`match *self {}`).
//! With them the scheduler is written once for both builds: the GPU feature's
//! switch sits here, where the GPU layer begins, instead of in every function that
//! may meet a GPU.
// Some stand-ins are named only by code that the `gpu` feature's own tests reach.
#![allow(dead_code)]

use super::{Backend, BlockInfo, Step};
use crate::core_crypto::{LweBootstrapKey, LweKeyswitchKey};
use crate::error::{Error, Result};
use crate::shortint::{Ciphertext, ShortintParameters};

/// Why nothing GPU exists in this build.
fn built_without_gpus() -> Error {
    Error::NoCudaDevice("gpufhe was built without the `gpu` feature".into())
}

/// A GPU (none can be opened without the `gpu` feature).
#[derive(Debug, Clone)]
pub(crate) enum CudaDevice {}

impl CudaDevice {
    /// `Err(NoCudaDevice)`: there is no GPU in this build.
    pub(crate) fn shared(_ordinal: usize) -> Result<Self> {
        Err(built_without_gpus())
    }

    pub(crate) fn with_new_stream(&self) -> Result<Self> {
        match *self {}
    }

    pub(crate) fn ordinal(&self) -> usize {
        match *self {}
    }

    pub(crate) fn memory_info(&self) -> Result<(usize, usize)> {
        match *self {}
    }

    pub(crate) fn compute_capability(&self) -> (u32, u32) {
        match *self {}
    }

    pub(crate) fn multiprocessor_count(&self) -> usize {
        match *self {}
    }
}

/// The bootstrap kernels of a GPU (the same names as `backend::cuda`'s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PbsKernel {
    Auto,
    SingleBlock,
    Cluster,
}

/// Blocks in a GPU's memory (none without the `gpu` feature).
#[derive(Debug, Clone)]
pub(crate) enum CudaBlocks {}

impl CudaBlocks {
    pub(crate) fn from_cpu(device: &CudaDevice, _blocks: &[Ciphertext]) -> Result<Self> {
        match *device {}
    }

    pub(crate) fn check_parameters(&self, _parameters: &ShortintParameters) -> Result<()> {
        match *self {}
    }

    pub(crate) fn to_cpu(&self) -> Result<Vec<Ciphertext>> {
        match *self {}
    }

    pub(crate) fn infos(&self) -> &[BlockInfo] {
        match *self {}
    }

    pub(crate) fn len(&self) -> usize {
        match *self {}
    }

    pub(crate) fn lwe_bytes(&self) -> usize {
        match *self {}
    }

    pub(crate) fn ordinal(&self) -> usize {
        match *self {}
    }
}

/// A server key on a GPU (none without the `gpu` feature).
#[derive(Debug, Clone)]
pub(crate) enum CudaBackend {}

impl CudaBackend {
    pub(crate) fn from_expanded(
        device: &CudaDevice,
        _parameters: &ShortintParameters,
        _bootstrap_key: &LweBootstrapKey,
        _keyswitch_key: &LweKeyswitchKey,
    ) -> Result<Self> {
        match *device {}
    }

    pub(crate) fn on_new_stream(&self) -> Result<Self> {
        match *self {}
    }

    pub(crate) fn with_max_batch_size(self, _max_batch: usize) -> Self {
        match self {}
    }

    pub(crate) fn launch_count(&self) -> u64 {
        match *self {}
    }

    pub(crate) fn squash_noise(
        &self,
        _key: &std::sync::Arc<crate::shortint::NoiseSquashingKey>,
        _host_key: &crate::shortint::ServerKey,
        _blocks: &[crate::shortint::Ciphertext],
    ) -> Result<Vec<crate::shortint::SquashedNoiseBlock>> {
        match *self {}
    }

    pub(crate) fn cast_compact_blocks(
        &self,
        _key: &std::sync::Arc<crate::shortint::CastingKey>,
        _blocks: &[Ciphertext],
        _tables: &[&crate::backend::Table],
        _table_of: &[usize],
    ) -> Result<CudaBlocks> {
        match *self {}
    }

    pub(crate) fn eval_with_bootstrap_kernel(
        &self,
        _kernel: PbsKernel,
        _inputs: &[&CudaBlocks],
        _step: &Step<'_>,
    ) -> Result<CudaBlocks> {
        match *self {}
    }

    pub(crate) fn prefer_for_large_batches(&self, _kernel: PbsKernel) {
        match *self {}
    }

    pub(crate) fn device(&self) -> &CudaDevice {
        match *self {}
    }
}

impl Backend for CudaBackend {
    type Blocks = CudaBlocks;

    fn parameters(&self) -> &ShortintParameters {
        match *self {}
    }

    fn parallelism(&self) -> usize {
        match *self {}
    }

    fn eval(&self, _inputs: &[&CudaBlocks], _step: &Step<'_>) -> Result<CudaBlocks> {
        match *self {}
    }

    fn pbs_count(&self) -> u64 {
        match *self {}
    }

    fn upload(&self, _blocks: Vec<Ciphertext>) -> Result<CudaBlocks> {
        match *self {}
    }

    fn download(&self, blocks: &CudaBlocks) -> Result<Vec<Ciphertext>> {
        match *blocks {}
    }

    fn split(&self, blocks: CudaBlocks, _lengths: &[usize]) -> Result<Vec<CudaBlocks>> {
        match blocks {}
    }

    fn block_count(&self, blocks: &CudaBlocks) -> usize {
        match *blocks {}
    }

    fn block_infos(&self, blocks: &CudaBlocks) -> Vec<BlockInfo> {
        match *blocks {}
    }
}
