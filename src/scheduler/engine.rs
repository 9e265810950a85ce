//! A key's scheduler ([`Scheduler`]): its host key, the keys expanded for its GPUs,
//! its workers (the CPU worker and the stream-bound workers of each GPU, leased per
//! circuit) and the cost model that splits batches between them.

use super::worker::CpuWorker;
use super::worker::GpuWorkers;
use super::{Blocks, CircuitInput, CostModel, GpuIndex, Recording, SchedulerConfig, Target};
use crate::backend::Backend;
use crate::error::{Error, Result};
use crate::integer::{self, Circuit, CircuitStats, Radix, Wire};
use crate::shortint::{self, ShortintParameters};
use std::sync::{Arc, OnceLock, RwLock};

/// One worker of a server key, as [`crate::ServerKey::workers`] lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WorkerInfo {
    /// The CPU worker.
    Cpu {
        /// Its thread budget (`GPUFHE_CPU_THREADS`).
        threads: usize,
    },
    /// The stream-bound workers of one GPU, sharing its copy of the key.
    Gpu {
        /// The GPU.
        gpu: GpuIndex,
        /// Its streams: streams per GPU × over-provisioning.
        streams: usize,
    },
}

/// The resolved numbers a scheduler is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WorkerCounts {
    /// Stream-bound workers per GPU (streams × over-provisioning).
    pub(crate) workers_per_gpu: usize,
    /// Threads of the CPU worker.
    pub(crate) cpu_threads: usize,
    /// Most ciphertexts per bootstrap launch, if limited.
    pub(crate) max_batch_size: Option<usize>,
}

impl WorkerCounts {
    /// The numbers `config` asks for on a key with `gpus` GPUs, on this machine.
    pub(crate) fn from_config(config: &SchedulerConfig, gpus: usize) -> Self {
        let hardware = std::thread::available_parallelism().map_or(1, |n| n.get());
        Self {
            workers_per_gpu: config.workers_per_gpu(),
            cpu_threads: config.cpu_threads_for(gpus, hardware),
            max_batch_size: config.max_batch_size(),
        }
    }
}

/// The keys of a compressed server key expanded from their seeds (standard domain),
/// made once and shared by every GPU the key is decompressed to, also when that is
/// one call per GPU as in the multi-GPU guide. Clones share it; it lives (about
/// 120 MB on the default parameters) as long as they do.
#[derive(Clone, Default)]
pub(crate) struct ExpansionCache(Arc<OnceLock<Arc<ExpandedKeys>>>);

/// A server key's keyswitching and bootstrap keys, expanded from their seeds.
pub(crate) struct ExpandedKeys {
    pub(crate) bootstrap: crate::core_crypto::LweBootstrapKey,
    pub(crate) keyswitch: crate::core_crypto::LweKeyswitchKey,
}

impl ExpansionCache {
    /// The expanded keys of `key` (whose cache this is), expanded on first use.
    /// `Err(OutOfMemory)` if the host cannot reserve what expanding needs.
    fn get(&self, key: &shortint::CompressedServerKey) -> Result<Arc<ExpandedKeys>> {
        let _memory = match self.0.get() {
            None => Some(
                key.parameters()
                    .reserve_server_key_memory("expanding a server key for the GPU")?,
            ),
            Some(_) => None,
        };
        Ok(self
            .0
            .get_or_init(|| {
                Arc::new(ExpandedKeys {
                    bootstrap: key.expand_bootstrap_key().0,
                    keyswitch: key.keyswitch_key().decompress(),
                })
            })
            .clone())
    }
}

impl std::fmt::Debug for ExpansionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = if self.0.get().is_some() {
            "expanded"
        } else {
            "empty"
        };
        write!(f, "ExpansionCache({state})")
    }
}

/// The block-level key on the host: given, or expanded from its seeds when first
/// needed (a GPU key needs it only for the CPU worker and serialization).
#[derive(Debug)]
enum HostKey {
    Expanded(Arc<shortint::ServerKey>),
    Compressed {
        compressed: Box<shortint::CompressedServerKey>,
        expanded: OnceLock<Arc<shortint::ServerKey>>,
    },
}

impl HostKey {
    fn get(&self) -> &Arc<shortint::ServerKey> {
        match self {
            Self::Expanded(key) => key,
            Self::Compressed {
                compressed,
                expanded,
            } => expanded.get_or_init(|| Arc::new(compressed.expand())),
        }
    }
}

/// The workers of one server key, and where its circuits go.
#[derive(Debug)]
pub(crate) struct Scheduler {
    pub(super) parameters: ShortintParameters,
    counts: WorkerCounts,
    /// What the dispatcher predicts each worker's share costs with: modelled until
    /// a calibration is installed.
    model: RwLock<CostModel>,
    host: HostKey,
    cpu: OnceLock<std::result::Result<CpuWorker, Error>>,
    pub(super) gpus: Vec<GpuWorkers>,
}

impl Scheduler {
    /// A scheduler computing on the CPU with `key`.
    pub(crate) fn cpu(key: shortint::ServerKey, config: &SchedulerConfig) -> Self {
        let counts = WorkerCounts::from_config(config, 0);
        let parameters = *key.parameters();
        Self {
            model: RwLock::new(CostModel::modelled(&parameters, counts.cpu_threads, &[])),
            parameters,
            counts,
            host: HostKey::Expanded(Arc::new(key)),
            cpu: OnceLock::new(),
            gpus: Vec::new(),
        }
    }

    /// A scheduler computing on `gpus` (already checked to exist and be distinct):
    /// the key is expanded from its seeds once and copied to each GPU.
    // Without the `gpu` feature no device opens: it returns at the first.
    #[cfg_attr(not(feature = "gpu"), allow(unreachable_code, unused_mut))]
    pub(crate) fn gpus(
        key: &shortint::CompressedServerKey,
        cache: &ExpansionCache,
        gpus: &[GpuIndex],
        config: &SchedulerConfig,
    ) -> Result<Self> {
        use crate::backend::gpu::{CudaBackend, CudaDevice};
        let counts = WorkerCounts::from_config(config, gpus.len());
        let parameters = *key.parameters();
        let model = initial_model(&parameters, &counts, gpus, config)?;
        let expanded = cache.get(key)?;
        let (bootstrap, keyswitch) = (&expanded.bootstrap, &expanded.keyswitch);
        let workers = gpus
            .iter()
            .map(|gpu| {
                let device = CudaDevice::shared(gpu.get() as usize)?.with_new_stream()?;
                let mut backend =
                    CudaBackend::from_expanded(&device, &parameters, bootstrap, keyswitch)?;
                if let Some(max) = counts.max_batch_size {
                    backend = backend.with_max_batch_size(max);
                }
                GpuWorkers::new(backend, counts.workers_per_gpu)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            model: RwLock::new(model),
            parameters,
            counts,
            host: HostKey::Compressed {
                compressed: Box::new(key.clone()),
                expanded: OnceLock::new(),
            },
            cpu: OnceLock::new(),
            gpus: workers,
        })
    }

    /// The block-level key on the host (a GPU key expands it on first use).
    pub(crate) fn host_key(&self) -> &shortint::ServerKey {
        self.host.get()
    }

    /// The cost model the dispatcher uses.
    pub(crate) fn cost_model(&self) -> CostModel {
        self.model.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Makes the dispatcher use `model` (already checked against this key).
    pub(crate) fn set_cost_model(&self, model: CostModel) {
        *self.model.write().unwrap_or_else(|p| p.into_inner()) = model;
    }

    /// The stream-bound workers of the GPU at `position` among the key's GPUs.
    pub(crate) fn gpu_workers_count(&self, position: usize) -> usize {
        {
            self.gpus.get(position).map_or(0, GpuWorkers::workers)
        }
    }

    /// The block parameters.
    pub(crate) fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The CPU worker's thread budget.
    pub(crate) fn cpu_threads(&self) -> usize {
        self.counts.cpu_threads
    }

    /// The key on each GPU (none for the CPU).
    pub(crate) fn gpu_backends(&self) -> Vec<crate::backend::gpu::CudaBackend> {
        self.gpus.iter().map(|g| g.key().clone()).collect()
    }

    /// A stream-bound worker of this key's GPU with the fewest circuits in flight,
    /// lent until dropped, for GPU work outside circuits (expanding compact lists);
    /// `None` for a CPU key.
    pub(crate) fn lease_gpu(&self) -> Option<super::worker::Lease<'_>> {
        match self.single_target(&[]) {
            Target::Gpu(position) => self.gpus.get(position).map(GpuWorkers::lease),
            Target::Cpu => None,
        }
    }

    /// The CPU worker, started on first use.
    pub(crate) fn cpu_worker(&self) -> Result<&CpuWorker> {
        self.cpu
            .get_or_init(|| CpuWorker::new(self.host.get().clone(), self.counts.cpu_threads))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The GPUs it computes on, in the order they were chosen (none for the CPU).
    pub(crate) fn gpu_indices(&self) -> Vec<GpuIndex> {
        {
            self.gpus
                .iter()
                .map(|g| super::residency::gpu_index(g.key().device().ordinal()))
                .collect()
        }
    }

    /// Its workers: the CPU worker of a CPU key, or the workers of each GPU.
    pub(crate) fn workers(&self) -> Vec<WorkerInfo> {
        if !self.gpus.is_empty() {
            return self
                .gpus
                .iter()
                .map(|g| WorkerInfo::Gpu {
                    gpu: super::residency::gpu_index(g.key().device().ordinal()),
                    streams: g.workers(),
                })
                .collect();
        }
        vec![WorkerInfo::Cpu {
            threads: self.counts.cpu_threads,
        }]
    }

    /// Bootstraps run so far.
    pub(crate) fn pbs_count(&self) -> u64 {
        let cpu = self
            .cpu
            .get()
            .and_then(|w| w.as_ref().ok())
            .map_or(0, |w| w.backend().pbs_count());
        let gpu: u64 = self.gpus.iter().map(|g| g.key().pbs_count()).sum();
        cpu + gpu
    }

    /// Batched bootstrap launches so far (GPU kernel launches, or CPU batches).
    pub(crate) fn launch_count(&self) -> u64 {
        {
            self.gpus.iter().map(|g| g.key().launch_count()).sum()
        }
    }

    /// Builds a circuit on the inputs' blocks with `build` (which returns the output
    /// block lists) and runs it on the calling thread's worker: one backend step per
    /// bootstrap layer. Clear inputs enter as constants; encrypted ones are moved to
    /// the worker's device if they live elsewhere. Every output block must be clean.
    pub(crate) fn run(
        &self,
        inputs: &[CircuitInput<'_>],
        build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    ) -> Result<(Vec<Blocks>, CircuitStats)> {
        let target = self.single_target(inputs);
        let mut recording = Recording::new(&self.parameters, self.parallelism(target, 1)?);
        let outputs = recording.record(inputs, build)?;
        let wires: Vec<&[Wire]> = outputs.iter().map(Vec::as_slice).collect();
        let (circuit, inputs) = recording.finish(&wires);
        let results = self.run_circuit(target, &circuit, &inputs, &mut |_| {})?;
        Ok((results, circuit.stats()))
    }

    /// Runs a recorded circuit on a worker of `target` (leased for the run on a
    /// GPU), its inputs moved there if they live elsewhere; `layer_done` hears of
    /// every bootstrap layer.
    pub(crate) fn run_circuit(
        &self,
        target: Target,
        circuit: &Circuit,
        inputs: &[Blocks],
        layer_done: &mut (dyn FnMut(usize) + Send),
    ) -> Result<Vec<Blocks>> {
        match target {
            Target::Cpu => {
                // A wide circuit (a 2048-bit product) may hold more results than
                // the host can: an `Err(OutOfMemory)` before it runs. Below 256 MiB
                // (every operation up to 512 bits but products) not worth asking.
                let need = super::memory::circuit_host_bytes(circuit);
                let _memory = match need >= 256 << 20 {
                    true => Some(crate::memory::reserve_host_memory(
                        need,
                        "the blocks a circuit holds",
                    )?),
                    false => None,
                };
                let cpu = self.cpu_worker()?;
                let resident = inputs
                    .iter()
                    .map(Blocks::on_cpu)
                    .collect::<Result<Vec<_>>>()?;
                let refs: Vec<_> = resident.iter().map(|b| b.as_ref()).collect();
                let results = cpu.run(|backend| {
                    integer::execute_observed(backend, circuit, &refs, layer_done)
                })?;
                Ok(results.into_iter().map(Blocks::cpu).collect())
            }
            Target::Gpu(position) => {
                let gpu = self
                    .gpus
                    .get(position)
                    .ok_or_else(|| Error::InvalidParameter("internal: no such GPU".into()))?;
                let lease = gpu.lease();
                let backend: &crate::backend::gpu::CudaBackend = &lease;
                let resident = inputs
                    .iter()
                    .map(|b| b.on_gpu(backend))
                    .collect::<Result<Vec<_>>>()?;
                let refs: Vec<_> = resident.iter().map(|b| b.as_ref()).collect();
                let results = integer::execute_observed(backend, circuit, &refs, layer_done)?;
                Ok(results.into_iter().map(Blocks::Cuda).collect())
            }
        }
    }

    /// Bootstraps per operation a circuit of `operations` operations can run at
    /// once on `target`: its share of the CPU threads (given the circuits already
    /// running), or of the GPU's parallelism.
    pub(crate) fn parallelism(&self, target: Target, operations: usize) -> Result<usize> {
        let whole = match target {
            Target::Cpu => self.cpu_worker()?.parallelism_hint(),
            Target::Gpu(position) => self.gpus.get(position).map_or(1, |g| {
                use crate::backend::Backend;
                g.key().parallelism()
            }),
        };
        Ok((whole / operations.max(1)).max(1))
    }

    /// Where a single circuit runs: the CPU worker, or the first of this key's GPUs
    /// holding an encrypted input, else the one with the fewest circuits in flight
    /// (the first chosen on a tie).
    fn single_target(&self, inputs: &[CircuitInput<'_>]) -> Target {
        if !self.gpus.is_empty() {
            let ordinal_of = |g: &GpuWorkers| g.key().device().ordinal();
            let holding = inputs.iter().find_map(|input| match input {
                CircuitInput::Encrypted {
                    blocks: Blocks::Cuda(b),
                    ..
                } => self.gpus.iter().position(|g| ordinal_of(g) == b.ordinal()),
                _ => None,
            });
            let least_busy = || {
                (0..self.gpus.len())
                    .min_by_key(|&p| self.gpus[p].running())
                    .unwrap_or(0)
            };
            return Target::Gpu(holding.unwrap_or_else(least_busy));
        }
        let _ = inputs;
        Target::Cpu
    }
}

/// The modelled costs of the workers of a GPU key (see [`CostModel::modelled`]),
/// with the configured GPU-to-core ratio if any.
fn initial_model(
    parameters: &ShortintParameters,
    counts: &WorkerCounts,
    gpus: &[GpuIndex],
    config: &SchedulerConfig,
) -> Result<CostModel> {
    let model = CostModel::modelled(parameters, counts.cpu_threads, gpus);
    match config.device_to_core_ratio() {
        Some(ratio) if counts.cpu_threads > 0 => model.with_device_to_core_ratio(ratio),
        _ => Ok(model),
    }
}
