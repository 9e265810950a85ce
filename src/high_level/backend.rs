//! The one place where the high-level API meets the execution backends: where a
//! server key runs its circuits, where the blocks of a value live, and how a value
//! is checked. Every operator goes through [`ExecutionBackend::run`].

use super::config::block_count;
#[cfg(feature = "gpu")]
use super::gpu::GpuKey;
use super::keys::KeyTag;
#[cfg(feature = "gpu")]
use crate::backend::cuda::{CudaBackend, CudaBlocks, CudaDevice};
use crate::backend::{cpu::CpuBackend, Backend};
use crate::error::{check_eq, Error, Result};
use crate::integer::{self, Circuit, CircuitStats, Radix};
use crate::scheduler::{Device, GpuIndex};
use crate::shortint::{self, Ciphertext, ShortintParameters};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Where a server key runs circuits.
#[derive(Debug)]
pub(crate) enum ExecutionBackend {
    /// On the CPU, with rayon.
    Cpu(CpuBackend),
    /// On one or several GPUs.
    #[cfg(feature = "gpu")]
    Cuda(Box<GpuKey>),
}

/// Where the blocks of a value live.
#[derive(Debug, Clone)]
pub(crate) enum Blocks {
    /// In host memory.
    Cpu(Vec<Ciphertext>),
    /// In the memory of one GPU.
    #[cfg(feature = "gpu")]
    Cuda(CudaBlocks),
}

/// The content of an encrypted value.
#[derive(Debug, Clone)]
pub(crate) enum Storage {
    /// A trivial encryption: the clear value, made into (noiseless) blocks when it
    /// enters a circuit. It belongs to no key and works with every key.
    Trivial(u128),
    /// Blocks encrypted under the client key with this tag.
    Encrypted {
        /// The tag of the client key.
        tag: KeyTag,
        /// The blocks, least significant first.
        blocks: Blocks,
    },
}

/// A value entering a circuit.
pub(crate) struct Input<'a> {
    /// Its content.
    pub(crate) storage: &'a Storage,
    /// Its width in bits (1 for a boolean).
    pub(crate) bits: u32,
}

impl ExecutionBackend {
    /// Builds a circuit on the inputs' blocks with `build` (which returns the output
    /// block lists) and runs it: one backend step per bootstrap layer. Trivial inputs
    /// enter as constants; encrypted ones are moved to the backend if they live
    /// elsewhere. Every output block must be clean.
    ///
    /// `part` chooses the GPU of a key on several GPUs (see [`Self::parts`]); a
    /// single operation runs on part 0, the first GPU chosen.
    pub(crate) fn run(
        &self,
        part: usize,
        inputs: &[Input<'_>],
        build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    ) -> Result<(Vec<Blocks>, CircuitStats)> {
        match self {
            Self::Cpu(backend) => {
                check_part(part, 1)?;
                run_circuit(
                    backend,
                    inputs,
                    build,
                    |blocks| match blocks {
                        Blocks::Cpu(v) => Ok(Cow::Borrowed(v)),
                        #[cfg(feature = "gpu")]
                        Blocks::Cuda(b) => Ok(Cow::Owned(b.to_cpu()?)),
                    },
                    Blocks::Cpu,
                )
            }
            #[cfg(feature = "gpu")]
            Self::Cuda(key) => {
                check_part(part, key.backends().len())?;
                let backend = &key.backends()[part];
                run_circuit(
                    backend,
                    inputs,
                    build,
                    |blocks| blocks.on_gpu(backend),
                    Blocks::Cuda,
                )
            }
        }
    }

    /// Into how many parts a batch of independent operations is split, each run by
    /// [`Self::run`] on its own part: the number of GPUs of a GPU key, else 1.
    pub(crate) fn parts(&self) -> usize {
        match self {
            Self::Cpu(_) => 1,
            #[cfg(feature = "gpu")]
            Self::Cuda(key) => key.backends().len(),
        }
    }

    /// The GPUs it runs on (none for the CPU).
    pub(crate) fn gpus(&self) -> Vec<GpuIndex> {
        match self {
            Self::Cpu(_) => Vec::new(),
            #[cfg(feature = "gpu")]
            Self::Cuda(key) => key
                .backends()
                .iter()
                .map(|b| gpu_index(b.device().ordinal()))
                .collect(),
        }
    }

    /// Where it runs, for `Debug` output.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Cpu(_) => "Cpu",
            #[cfg(feature = "gpu")]
            Self::Cuda(_) => "Cuda",
        }
    }

    /// Bootstraps run by this backend so far.
    pub(crate) fn pbs_count(&self) -> u64 {
        match self {
            Self::Cpu(backend) => backend.pbs_count(),
            #[cfg(feature = "gpu")]
            Self::Cuda(key) => key.pbs_count(),
        }
    }

    /// The block-level key on the host, for serialization (a GPU key expands it from
    /// its compressed form on first use).
    pub(crate) fn shortint_key(&self) -> &shortint::ServerKey {
        match self {
            Self::Cpu(backend) => backend.server_key(),
            #[cfg(feature = "gpu")]
            Self::Cuda(key) => key.host_key(),
        }
    }
}

/// `Err` unless `part < parts`.
fn check_part(part: usize, parts: usize) -> Result<()> {
    if part < parts {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "internal: part {part} of a key with {parts} part(s)"
        )))
    }
}

/// The index of the GPU of this ordinal.
#[cfg(feature = "gpu")]
fn gpu_index(ordinal: usize) -> GpuIndex {
    GpuIndex::new(u32::try_from(ordinal).unwrap_or(u32::MAX))
}

impl Blocks {
    /// The blocks in host memory (copied back if they live elsewhere).
    pub(crate) fn to_cpu(&self) -> Result<Cow<'_, [Ciphertext]>> {
        match self {
            Self::Cpu(v) => Ok(Cow::Borrowed(v)),
            #[cfg(feature = "gpu")]
            Self::Cuda(b) => Ok(Cow::Owned(b.to_cpu()?)),
        }
    }

    /// Where they live.
    pub(crate) fn device(&self) -> Device {
        match self {
            Self::Cpu(_) => Device::Cpu,
            #[cfg(feature = "gpu")]
            Self::Cuda(b) => Device::CudaGpu(gpu_index(b.ordinal())),
        }
    }

    /// The blocks on `backend`'s GPU: these if they are there, else a copy.
    #[cfg(feature = "gpu")]
    fn on_gpu(&self, backend: &CudaBackend) -> Result<Cow<'_, CudaBlocks>> {
        match self {
            Self::Cuda(b) if b.ordinal() == backend.device().ordinal() => Ok(Cow::Borrowed(b)),
            other => Ok(Cow::Owned(backend.upload(other.to_cpu()?.into_owned())?)),
        }
    }

    /// The blocks moved to `device` (these if they are there already).
    pub(crate) fn moved_to(&self, device: Device) -> Result<Blocks> {
        if self.device() == device {
            return Ok(self.clone());
        }
        match device {
            Device::Cpu => Ok(Self::Cpu(self.to_cpu()?.into_owned())),
            Device::CudaGpu(gpu) => {
                #[cfg(feature = "gpu")]
                {
                    let target = CudaDevice::shared(gpu.get() as usize)?;
                    Ok(Self::Cuda(CudaBlocks::from_cpu(&target, &self.to_cpu()?)?))
                }
                #[cfg(not(feature = "gpu"))]
                {
                    Err(crate::scheduler::no_gpu_error(&format!(
                        "moving a value to {gpu}"
                    )))
                }
            }
        }
    }
}

/// [`ExecutionBackend::run`] on one backend: `resident` gives the blocks of an input
/// in the backend's memory, `wrap` stores an output list.
fn run_circuit<B: Backend>(
    backend: &B,
    inputs: &[Input<'_>],
    build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    resident: impl for<'a> Fn(&'a Blocks) -> Result<Cow<'a, B::Blocks>>,
    wrap: impl Fn(B::Blocks) -> Blocks,
) -> Result<(Vec<Blocks>, CircuitStats)>
where
    B::Blocks: Clone,
{
    let params = *backend.parameters();
    let mut circuit = Circuit::new(params).with_parallelism(backend.parallelism());
    let mut encrypted = Vec::new();
    let mut operands = Vec::with_capacity(inputs.len());
    for input in inputs {
        let count = block_count(&params, input.bits);
        match input.storage {
            Storage::Trivial(value) => {
                let digits = integer::clear_digits(*value, params.message_modulus, count);
                let wires = digits
                    .into_iter()
                    .map(|d| circuit.constant(d))
                    .collect::<Result<Radix>>()?;
                operands.push(wires);
            }
            Storage::Encrypted { blocks, .. } => {
                let blocks = resident(blocks)?;
                let infos = backend.block_infos(&blocks);
                check_eq("number of blocks of an operand", count, infos.len())?;
                operands.push(circuit.add_input(&infos)?);
                encrypted.push(blocks);
            }
        }
    }
    let outputs = build(&mut circuit, &operands)?;
    for out in &outputs {
        for &w in out {
            let info = circuit.info(w);
            if info.degree >= params.message_modulus || info.noise_level > 1 {
                return Err(Error::CapacityExceeded(format!(
                    "internal: an operation returned a block that is not clean (degree {}, \
                     noise level {})",
                    info.degree, info.noise_level
                )));
            }
        }
        circuit.add_output(out);
    }
    let stats = circuit.stats();
    let refs: Vec<&B::Blocks> = encrypted.iter().map(|b| b.as_ref()).collect();
    let results = integer::execute(backend, &circuit, &refs)?;
    Ok((results.into_iter().map(wrap).collect(), stats))
}

/// How a [`Storage`] is written: the blocks always as host blocks.
#[derive(Serialize, Deserialize)]
enum StorageRepr<'a> {
    Trivial(u128),
    Encrypted {
        tag: KeyTag,
        blocks: Cow<'a, [Ciphertext]>,
    },
}

impl Serialize for Storage {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Self::Trivial(v) => StorageRepr::Trivial(*v),
            Self::Encrypted { tag, blocks } => StorageRepr::Encrypted {
                tag: *tag,
                blocks: blocks.to_cpu().map_err(serde::ser::Error::custom)?,
            },
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Storage {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Ok(match StorageRepr::deserialize(d)? {
            StorageRepr::Trivial(v) => Self::Trivial(v),
            StorageRepr::Encrypted { tag, blocks } => Self::Encrypted {
                tag,
                blocks: Blocks::Cpu(blocks.into_owned()),
            },
        })
    }
}

impl Storage {
    /// Where the value lives: a trivial value (a clear value) is on the CPU.
    pub(crate) fn device(&self) -> Device {
        match self {
            Self::Trivial(_) => Device::Cpu,
            Self::Encrypted { blocks, .. } => blocks.device(),
        }
    }

    /// Moves the blocks to `device`. A trivial value stays a clear value, but a GPU
    /// that does not exist is still an error.
    pub(crate) fn move_to(&mut self, device: Device) -> Result<()> {
        match self {
            Self::Trivial(_) => match device {
                Device::Cpu => Ok(()),
                Device::CudaGpu(gpu) => GpuIndex::try_new(gpu.get()).map(|_| ()),
            },
            Self::Encrypted { blocks, .. } => {
                *blocks = blocks.moved_to(device)?;
                Ok(())
            }
        }
    }

    /// The key tag, `None` for a trivial value.
    pub(crate) fn tag(&self) -> Option<KeyTag> {
        match self {
            Self::Trivial(_) => None,
            Self::Encrypted { tag, .. } => Some(*tag),
        }
    }

    /// `Err` unless the value is well formed for a `bits`-bit value whose blocks hold
    /// at most `max_value` (`message_modulus - 1` for integers, 1 for booleans): a
    /// trivial value below `2^bits`, or blocks that agree on their moduli and LWE
    /// size, are as many as `bits` needs, and are clean.
    pub(crate) fn validate(&self, bits: u32, max_value: Option<u64>) -> Result<()> {
        let blocks = match self {
            Self::Trivial(v) => {
                return if bits >= 128 || v >> bits == 0 {
                    Ok(())
                } else {
                    Err(Error::InvalidParameter(format!(
                        "trivial value {v} does not fit in {bits} bits"
                    )))
                };
            }
            Self::Encrypted { blocks, .. } => blocks.to_cpu()?,
        };
        let first = blocks
            .first()
            .ok_or_else(|| Error::InvalidParameter("an encrypted value has no blocks".into()))?;
        let (m, carry) = (first.message_modulus(), first.carry_modulus());
        let message_bits = m.trailing_zeros();
        if m < 2
            || !m.is_power_of_two()
            || !carry.is_power_of_two()
            || (bits > 1 && bits % message_bits != 0)
        {
            return Err(Error::InvalidParameter(format!(
                "blocks of message modulus {m} and carry modulus {carry} cannot hold a \
                 {bits}-bit value"
            )));
        }
        let size = first.as_lwe().lwe_size();
        check_eq(
            "number of blocks",
            bits.div_ceil(message_bits) as usize,
            blocks.len(),
        )?;
        let max_value = max_value.unwrap_or(m - 1).min(m - 1);
        for (i, b) in blocks.iter().enumerate() {
            b.check_moduli(m, carry)?;
            b.as_lwe().check_size("LWE size of a block", size)?;
            if b.degree() > max_value || b.noise_level() > 1 {
                return Err(Error::CapacityExceeded(format!(
                    "block {i} is not clean: degree {} (at most {max_value}), noise level {} \
                     (at most 1)",
                    b.degree(),
                    b.noise_level()
                )));
            }
        }
        Ok(())
    }

    /// `Err` unless the blocks (if any) belong to `parameters`: moduli, LWE size and
    /// number of blocks.
    pub(crate) fn conforms_to(&self, parameters: &ShortintParameters, bits: u32) -> Result<()> {
        let blocks = match self {
            Self::Trivial(_) => return Ok(()),
            Self::Encrypted { blocks, .. } => blocks.to_cpu()?,
        };
        check_eq(
            "number of blocks for these parameters",
            block_count(parameters, bits),
            blocks.len(),
        )?;
        blocks
            .iter()
            .try_for_each(|b| b.check_parameters(parameters))
    }
}
