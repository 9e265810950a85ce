//! Where blocks live ([`Blocks`]: host memory or one GPU), what enters a circuit
//! ([`CircuitInput`]), and moving blocks between devices.

use super::record::pending_elsewhere;
use super::Device;
use super::GpuIndex;
use crate::backend::gpu::{CudaBackend, CudaBlocks, CudaDevice};
use crate::error::Result;
use crate::shortint::{Ciphertext, ShortintParameters};
use std::borrow::Cow;
use std::sync::Arc;

/// The blocks of one value, where they live.
#[derive(Debug, Clone)]
pub(crate) enum Blocks {
    /// In host memory (shared: values are never written in place, so copies of a
    /// value, and the inputs a batch records, cost nothing).
    Cpu(Arc<Vec<Ciphertext>>),
    /// In the memory of one GPU.
    Cuda(CudaBlocks),
    /// Not computed yet: wires of a circuit being recorded (see
    /// [`super::record::Recording`]).
    Pending {
        /// The recording they belong to.
        recording: u64,
        /// Their wires in its circuit.
        wires: Vec<crate::integer::Wire>,
    },
}

/// A value entering a circuit: a clear value (its blocks become circuit constants)
/// or encrypted blocks.
// The clear value is the circuits' 2048-bit clear type.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy)]
pub(crate) enum CircuitInput<'a> {
    /// A clear (trivially encrypted) value of `bits` bits.
    Clear {
        /// The value.
        value: crate::integer::U2048,
        /// Its width (1 for a boolean).
        bits: u32,
    },
    /// Encrypted blocks holding a `bits`-bit value.
    Encrypted {
        /// The blocks.
        blocks: &'a Blocks,
        /// Its width (1 for a boolean).
        bits: u32,
    },
}

/// The index of the GPU of this ordinal.
pub(crate) fn gpu_index(ordinal: usize) -> GpuIndex {
    GpuIndex::new(u32::try_from(ordinal).unwrap_or(u32::MAX))
}

impl Blocks {
    /// Blocks in host memory.
    pub(crate) fn cpu(blocks: Vec<Ciphertext>) -> Self {
        Self::Cpu(Arc::new(blocks))
    }

    /// The blocks in host memory (copied back if they live elsewhere).
    pub(crate) fn to_cpu(&self) -> Result<Cow<'_, [Ciphertext]>> {
        match self {
            Self::Cpu(v) => Ok(Cow::Borrowed(v.as_slice())),
            Self::Cuda(b) => Ok(Cow::Owned(b.to_cpu()?)),
            Self::Pending { .. } => Err(pending_elsewhere()),
        }
    }

    /// The blocks as the CPU backend takes them: these if they are in host memory,
    /// else a copy.
    #[allow(clippy::owned_cow)] // the CPU backend's block lists are `Vec`s
    pub(crate) fn on_cpu(&self) -> Result<Cow<'_, Vec<Ciphertext>>> {
        match self {
            Self::Cpu(v) => Ok(Cow::Borrowed(v.as_ref())),
            Self::Cuda(b) => Ok(Cow::Owned(b.to_cpu()?)),
            Self::Pending { .. } => Err(pending_elsewhere()),
        }
    }

    /// The number of blocks (`None` for pending blocks, counted by their recording).
    pub(crate) fn len(&self) -> Option<usize> {
        match self {
            Self::Cpu(v) => Some(v.len()),
            Self::Cuda(b) => Some(b.len()),
            Self::Pending { .. } => None,
        }
    }

    /// `Err` unless every block has the moduli and LWE size of `parameters` (pending
    /// blocks are outputs of a circuit under the recording's key). Cheap: nothing is
    /// copied from a GPU.
    pub(crate) fn check_parameters(&self, parameters: &ShortintParameters) -> Result<()> {
        match self {
            Self::Cpu(v) => v.iter().try_for_each(|b| b.check_parameters(parameters)),
            Self::Cuda(b) => b.check_parameters(parameters),
            Self::Pending { .. } => Ok(()),
        }
    }

    /// Where they live (pending blocks count as the CPU's until computed).
    pub(crate) fn device(&self) -> Device {
        match self {
            Self::Cpu(_) | Self::Pending { .. } => Device::Cpu,
            Self::Cuda(b) => Device::CudaGpu(gpu_index(b.ordinal())),
        }
    }

    /// Bytes that must cross the bus for these blocks to reach `device`.
    pub(crate) fn bytes_to_move(&self, device: Device) -> usize {
        if self.device() == device {
            return 0;
        }
        match self {
            Self::Cpu(v) => v.iter().map(|b| b.as_lwe().as_slice().len() * 8).sum(),
            Self::Cuda(b) => b.len() * b.lwe_bytes(),
            Self::Pending { .. } => 0,
        }
    }

    /// The blocks on `backend`'s GPU: these if they are there, else a copy made on
    /// `backend`'s stream.
    pub(crate) fn on_gpu(&self, backend: &CudaBackend) -> Result<Cow<'_, CudaBlocks>> {
        use crate::backend::Backend;
        match self {
            Self::Cuda(b) if b.ordinal() == backend.device().ordinal() => Ok(Cow::Borrowed(b)),
            other => Ok(Cow::Owned(backend.upload(other.to_cpu()?.into_owned())?)),
        }
    }

    /// The blocks moved to `device` (these if they are there already).
    pub(crate) fn moved_to(&self, device: Device) -> Result<Blocks> {
        if let Self::Pending { .. } = self {
            return Err(pending_elsewhere());
        }
        if self.device() == device {
            return Ok(self.clone());
        }
        match device {
            Device::Cpu => Ok(Self::cpu(self.to_cpu()?.into_owned())),
            Device::CudaGpu(gpu) => {
                let target = CudaDevice::shared(gpu.get() as usize)?;
                Ok(Self::Cuda(CudaBlocks::from_cpu(&target, &self.to_cpu()?)?))
            }
        }
    }
}
