//! [`CudaBackend`]: the [`Backend`] of one GPU. A step is one linear-combination
//! launch, then one keyswitch and one batched bootstrap launch (a lookup table per
//! ciphertext, several functions per bootstrap where the table has them), written
//! straight into the step's output list; a step too large for the free device
//! memory runs in chunks.

use crate::backend::cuda::algorithms::bootstrap_kernel_choice::{
    check_auto_bootstrap_kernel, KernelRequest,
};
use crate::backend::cuda::algorithms::lwe_multi_bit_programmable_bootstrapping::cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_requested as multi_bit_bootstrap;
use crate::backend::cuda::algorithms::lwe_programmable_bootstrapping::cuda_programmable_bootstrap_lwe_ciphertext_list_requested as classical_bootstrap;
use crate::backend::cuda::{
    cuda_keyswitch_lwe_ciphertext_list, cuda_linear_combination_lwe_ciphertext_list, CudaBlocks,
    CudaDevice, CudaFourierBootstrapKey, CudaKeyswitchKey, CudaLookupTableList,
    CudaLweCiphertextList, PbsKernel,
};
use crate::backend::{check_step, Backend, BlockExpr, BlockInfo, Step, Table, TableCache, Term};
use crate::core_crypto::{LweBootstrapKey, LweCiphertextCount, LweKeyswitchKey};
use crate::error::{check_eq, Error, Result};
use crate::shortint::{Ciphertext, CompressedServerKey, PbsKind, ShortintParameters};
use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

/// Most expressions in one chunk of a step (bounds every launch and temporary).
pub const MAX_CHUNK: usize = 1 << 16;
/// Device memory left free for the kernels' own temporaries, in bytes.
const RESERVED_MEMORY: usize = 64 << 20;

/// The keys of one GPU (each waits, when dropped, for the work of every stream).
#[derive(Debug)]
struct DeviceKeys {
    bootstrap: CudaFourierBootstrapKey,
    keyswitch: CudaKeyswitchKey,
    /// The 128-bit key of the last noise-squashing key used here (`noise_squashing.rs`).
    noise_squashing: noise_squashing::SquashingKeyCache,
    /// The last casting key of compact lists used here (`compact_expansion.rs`).
    casting: compact_expansion::CastingKeyCache,
}

mod compact_expansion;
mod noise_squashing;

/// Runs steps on one GPU with a server key in its memory, on one stream: the stream
/// of the [`CudaDevice`] handle it was made with, or a new one with
/// [`CudaBackend::on_new_stream`] (the scheduler gives each of its workers one).
/// Cloning shares the keys, the stream and the counters. Every [`Backend::eval`]
/// waits for its own work before returning, so its results are ready and its inputs
/// free to drop. Several threads may share one backend: the stream keeps their work
/// in order.
#[derive(Debug, Clone)]
pub struct CudaBackend {
    device: CudaDevice,
    keys: Arc<DeviceKeys>,
    parameters: ShortintParameters,
    pbs: Arc<AtomicU64>,
    launches: Arc<AtomicU64>,
    max_batch: usize,
    /// The table lists steps have used, in this GPU's memory (read by every stream).
    tables: Arc<TableCache<Vec<Table>, CudaLookupTableList>>,
    /// The bootstrap kernel of this handle's launches (`Auto` but for calibration).
    kernel: PbsKernel,
    /// The kernel the calibration measured faster on batches beyond one wave
    /// (shared by the clones): [`NOT_MEASURED`], or a [`PbsKernel`] as `u8`.
    measured_kernel: Arc<AtomicU8>,
}

/// [`CudaBackend::measured_kernel`] before any calibration measured one.
const NOT_MEASURED: u8 = 0;

impl CudaBackend {
    /// Copies the server key to `device` (expanding its seeds on the CPU) and
    /// converts the bootstrap key to the Fourier domain there. `Err` if the device
    /// lacks memory or has no kernels for these parameters.
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::{CudaBackend, CudaDevice};
    /// use gpufhe::backend::Backend;
    /// use gpufhe::shortint::{ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    /// let key = CompressedServerKey::new(&ck).unwrap();
    /// let backend = CudaBackend::new(&CudaDevice::shared(0).unwrap(), &key).unwrap();
    /// let blocks = backend.upload(vec![ck.encrypt(3).unwrap()]).unwrap();
    /// assert_eq!(ck.decrypt(&backend.download(&blocks).unwrap()[0]).unwrap(), 3);
    /// ```
    pub fn new(device: &CudaDevice, key: &CompressedServerKey) -> Result<Self> {
        let _memory = key
            .parameters()
            .reserve_server_key_memory("expanding a server key for the GPU")?;
        Self::from_expanded(
            device,
            key.parameters(),
            &key.expand_bootstrap_key().0,
            &key.keyswitch_key().decompress(),
        )
    }

    /// Copies keys already expanded from their seeds to `device` (so that a key
    /// going to several GPUs is expanded once) and converts the bootstrap key to
    /// the Fourier domain there. `Err` as [`CudaBackend::new`].
    pub fn from_expanded(
        device: &CudaDevice,
        parameters: &ShortintParameters,
        bootstrap_key: &LweBootstrapKey,
        keyswitch_key: &LweKeyswitchKey,
    ) -> Result<Self> {
        let parameters = *parameters;
        parameters.validate()?;
        // At its peak the GPU holds the bootstrap key twice (standard, then Fourier)
        // and the keyswitching key: checked against the device's budget before
        // anything is copied.
        let need = 2 * std::mem::size_of_val(bootstrap_key.as_slice()) as u64
            + std::mem::size_of_val(keyswitch_key.as_slice()) as u64;
        let _memory = crate::memory::reserve_device_memory(
            device.ordinal(),
            need,
            &format!("decompressing a server key to GPU {}", device.ordinal()),
            || Ok(device.memory_info()?.0 as u64),
        )?;
        let bootstrap = CudaFourierBootstrapKey::from_cpu(device, bootstrap_key)?;
        // A kernel without local memory must fit these parameters on this GPU: say so
        // now rather than at the first step.
        check_auto_bootstrap_kernel(
            &bootstrap,
            parameters.lwe_dimension.0,
            parameters.pbs_kind.grouping_factor().is_some(),
        )?;
        let keyswitch = CudaKeyswitchKey::from_cpu(device, keyswitch_key)?;
        device.synchronize()?;
        Ok(Self {
            device: device.clone(),
            keys: Arc::new(DeviceKeys {
                bootstrap,
                keyswitch,
                noise_squashing: Default::default(),
                casting: Default::default(),
            }),
            parameters,
            pbs: Arc::new(AtomicU64::new(0)),
            launches: Arc::new(AtomicU64::new(0)),
            max_batch: MAX_CHUNK,
            tables: Arc::new(TableCache::new()),
            kernel: PbsKernel::Auto,
            measured_kernel: Arc::new(AtomicU8::new(NOT_MEASURED)),
        })
    }

    /// [`Backend::eval`] bootstrapping with `kernel` instead of `Auto`: for the
    /// calibration's side-by-side of the kernels.
    pub(crate) fn eval_with_bootstrap_kernel(
        &self,
        kernel: PbsKernel,
        inputs: &[&CudaBlocks],
        step: &Step<'_>,
    ) -> Result<CudaBlocks> {
        Self {
            kernel,
            ..self.clone()
        }
        .eval(inputs, step)
    }

    /// Makes `Auto` take `kernel` for batches beyond one wave of the GPU, where the
    /// calibration measured it faster (shared with every clone of this backend).
    pub(crate) fn prefer_for_large_batches(&self, kernel: PbsKernel) {
        self.measured_kernel
            .store(kernel as u8 + 1, Ordering::Relaxed);
    }

    /// The bootstrap kernel `Auto` takes for batches beyond one wave of the GPU
    /// (more bootstraps than the SMs hold clusters of `k + 1` blocks), when both
    /// run without local memory: the one the last calibration of this key on this
    /// GPU measured faster ([`crate::scheduler::measure_gpu`]), `None` before any
    /// (then the single block).
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::{CudaBackend, CudaDevice};
    /// use gpufhe::scheduler::{measure_gpu, CalibrationOptions};
    /// use gpufhe::shortint::{ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    /// let key = CompressedServerKey::new(&ck).unwrap();
    /// let gpu = CudaBackend::new(&CudaDevice::shared(0).unwrap(), &key).unwrap();
    /// assert_eq!(gpu.measured_bootstrap_kernel(), None);
    /// measure_gpu(&gpu, &CalibrationOptions::default()).unwrap();
    /// // On a GPU with clusters (sm_90+), both kernels were timed on 4096 bootstraps.
    /// println!("{:?}", gpu.measured_bootstrap_kernel());
    /// ```
    #[doc(hidden)]
    pub fn measured_bootstrap_kernel(&self) -> Option<PbsKernel> {
        match self.measured_kernel.load(Ordering::Relaxed) {
            NOT_MEASURED => None,
            k if k == PbsKernel::SingleBlock as u8 + 1 => Some(PbsKernel::SingleBlock),
            k if k == PbsKernel::Cluster as u8 + 1 => Some(PbsKernel::Cluster),
            _ => None,
        }
    }

    /// The same key and counters on a new stream of the same GPU: work queued
    /// through it runs concurrently with the work of other streams.
    ///
    /// ```no_run
    /// use gpufhe::backend::cuda::{CudaBackend, CudaDevice};
    /// use gpufhe::shortint::{ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    /// let key = CompressedServerKey::new(&ck).unwrap();
    /// let backend = CudaBackend::new(&CudaDevice::shared(0).unwrap(), &key).unwrap();
    /// let other = backend.on_new_stream().unwrap();
    /// assert!(other.device().same_device(backend.device()));
    /// ```
    pub fn on_new_stream(&self) -> Result<Self> {
        Ok(Self {
            device: self.device.with_new_stream()?,
            ..self.clone()
        })
    }

    /// This backend launching at most `max_batch` ciphertexts per keyswitch and
    /// bootstrap launch (at least 1; the default is [`MAX_CHUNK`], lowered further
    /// when free memory is short).
    pub fn with_max_batch_size(mut self, max_batch: usize) -> Self {
        self.max_batch = max_batch.clamp(1, MAX_CHUNK);
        self
    }

    /// Batched bootstrap launches so far (with the backends sharing its counters).
    pub fn launch_count(&self) -> u64 {
        self.launches.load(Ordering::Relaxed)
    }

    /// The GPU the key lives on.
    pub fn device(&self) -> &CudaDevice {
        &self.device
    }

    /// `Err` unless `blocks` live on this backend's GPU.
    fn check_resident(&self, blocks: &CudaBlocks) -> Result<()> {
        check_eq(
            "GPU of the blocks (move them to the key's GPU first)",
            self.device.ordinal(),
            blocks.ordinal(),
        )
    }

    /// The linear parts of `exprs` (already remapped to `lists`) into a new list.
    fn linear(
        &self,
        device: &CudaDevice,
        lists: &[&CudaLweCiphertextList],
        exprs: &[BlockExpr],
    ) -> Result<CudaLweCiphertextList> {
        let size = self.parameters.big_lwe_dimension().to_lwe_size();
        let mut out =
            CudaLweCiphertextList::new_zero(device, size, LweCiphertextCount(exprs.len()))?;
        self.linear_into(lists, exprs, &mut out)?;
        Ok(out)
    }

    /// The linear parts of `exprs` (already remapped to `lists`) into `out`, their
    /// constants encoded.
    fn linear_into(
        &self,
        lists: &[&CudaLweCiphertextList],
        exprs: &[BlockExpr],
        out: &mut CudaLweCiphertextList,
    ) -> Result<()> {
        let terms: Vec<Vec<(usize, i64)>> = exprs
            .iter()
            .map(|e| e.terms.iter().map(|t| (t.block, t.scalar)).collect())
            .collect();
        let terms: Vec<&[(usize, i64)]> = terms.iter().map(Vec::as_slice).collect();
        let delta = self.parameters.delta();
        let constants: Vec<u64> = exprs
            .iter()
            .map(|e| e.constant.wrapping_mul(delta))
            .collect();
        cuda_linear_combination_lwe_ciphertext_list(lists, &terms, &constants, out)
    }

    /// Keyswitches and bootstraps the linear parts of `exprs` (which all have a
    /// table), writing table outputs from `slots[i]` on in `out`.
    #[allow(clippy::too_many_arguments)]
    fn bootstrap(
        &self,
        device: &CudaDevice,
        lists: &[&CudaLweCiphertextList],
        exprs: &[BlockExpr],
        slots: &[usize],
        luts: &CudaLookupTableList,
        out: &mut CudaLweCiphertextList,
    ) -> Result<()> {
        let linear = self.linear(device, lists, exprs)?;
        let small_size = self.parameters.lwe_dimension.to_lwe_size();
        let mut small =
            CudaLweCiphertextList::new_zero(device, small_size, LweCiphertextCount(exprs.len()))?;
        cuda_keyswitch_lwe_ciphertext_list(&self.keys.keyswitch, &linear, &mut small)?;
        drop(linear);
        let lut_indexes = exprs
            .iter()
            .map(|e| {
                e.table.ok_or_else(|| {
                    Error::InvalidParameter("internal: a bootstrap chunk without table".into())
                })
            })
            .collect::<Result<Vec<usize>>>()?;
        self.bootstrap_small(&small, luts, &lut_indexes, slots, out)
    }

    /// Bootstraps `small` (ciphertexts under the small key), ciphertext `i` with
    /// table `lut_indexes[i]`, writing its outputs from `slots[i]` on in `out`.
    fn bootstrap_small(
        &self,
        small: &CudaLweCiphertextList,
        luts: &CudaLookupTableList,
        lut_indexes: &[usize],
        slots: &[usize],
        out: &mut CudaLweCiphertextList,
    ) -> Result<()> {
        let (bsk, ms) = (&self.keys.bootstrap, self.parameters.modulus_switch);
        let request = KernelRequest {
            kernel: self.kernel,
            measured_for_large_batches: self.measured_bootstrap_kernel(),
        };
        match self.parameters.pbs_kind {
            PbsKind::Classical => {
                classical_bootstrap(bsk, small, out, luts, lut_indexes, slots, ms, request)
            }
            PbsKind::MultiBit { grouping_factor } => multi_bit_bootstrap(
                bsk,
                grouping_factor,
                small,
                out,
                luts,
                lut_indexes,
                slots,
                ms,
                request,
                usize::MAX,
            ),
        }
    }

    /// Device bytes one chunk of `exprs` needs besides the step's output.
    fn chunk_bytes(&self, expr: &BlockExpr) -> usize {
        crate::backend::gpu::gpu_expression_bytes(
            &self.parameters,
            expr.terms.len(),
            expr.table.is_some(),
        )
    }
}

/// Cuts the expressions of a step into chunks: each holds expressions of one kind
/// (`has_table`), at most `max_chunk` of them, and as many as fit in `budget` bytes
/// by `bytes`. `Err` if one expression alone does not fit.
pub(crate) fn plan_chunks(
    has_table: &[bool],
    bytes: impl Fn(usize) -> usize,
    budget: usize,
    max_chunk: usize,
) -> Result<Vec<Range<usize>>> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut used = 0;
    for (e, &table) in has_table.iter().enumerate() {
        let need = bytes(e);
        if need > budget {
            return Err(Error::OutOfDeviceMemory(format!(
                "one expression of the step needs {need} bytes, {budget} bytes are free"
            )));
        }
        let full = e - start == max_chunk.max(1) || used + need > budget;
        if e > start && (table != has_table[start] || full) {
            chunks.push(start..e);
            start = e;
            used = 0;
        }
        used += need;
    }
    if start < has_table.len() {
        chunks.push(start..has_table.len());
    }
    Ok(chunks)
}

/// Runs `run` on the expressions `chunk`. When it runs out of device memory (other
/// threads may have taken what the plan counted on), waits with `wait` for the
/// pending frees and runs the two halves instead, down to single expressions.
pub(crate) fn run_halving(
    chunk: Range<usize>,
    run: &mut impl FnMut(Range<usize>) -> Result<()>,
    wait: &impl Fn() -> Result<()>,
) -> Result<()> {
    match run(chunk.clone()) {
        Err(Error::OutOfDeviceMemory(_)) if chunk.len() > 1 => {
            wait()?;
            let middle = chunk.start + chunk.len() / 2;
            run_halving(chunk.start..middle, run, wait)?;
            run_halving(middle..chunk.end, run, wait)
        }
        result => result,
    }
}

/// The expressions of a step with their block indices moved from the concatenation
/// of `inputs` to the concatenation of their underlying lists.
fn remap<'a>(
    inputs: &[&'a CudaBlocks],
    exprs: &[BlockExpr],
) -> Result<(Vec<&'a CudaLweCiphertextList>, Vec<BlockExpr>)> {
    let lists: Vec<&CudaLweCiphertextList> = inputs.iter().map(|b| &*b.list).collect();
    // For each input: where its blocks start among the inputs' blocks, and where its
    // list starts among the lists' ciphertexts.
    let mut view_starts = Vec::with_capacity(inputs.len());
    let mut list_starts = Vec::with_capacity(inputs.len());
    let (mut views, mut listed) = (0, 0);
    for b in inputs {
        view_starts.push(views);
        list_starts.push(listed);
        views += b.len();
        listed += b.list.count().0;
    }
    let moved = exprs
        .iter()
        .map(|expr| {
            let terms = expr
                .terms
                .iter()
                .map(|t| {
                    let i = view_starts.partition_point(|&s| s <= t.block);
                    let found = i
                        .checked_sub(1)
                        .filter(|&i| t.block - view_starts[i] < inputs[i].len());
                    let Some(i) = found else {
                        return Err(Error::InvalidParameter(format!(
                            "input block {} requested, the step has {views}",
                            t.block
                        )));
                    };
                    Ok(Term {
                        block: list_starts[i] + inputs[i].start + (t.block - view_starts[i]),
                        scalar: t.scalar,
                    })
                })
                .collect::<Result<_>>()?;
            Ok(BlockExpr {
                terms,
                constant: expr.constant,
                table: expr.table,
            })
        })
        .collect::<Result<_>>()?;
    Ok((lists, moved))
}

impl Backend for CudaBackend {
    type Blocks = CudaBlocks;

    fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// Thousands of bootstraps run at once: a few batches per multiprocessor.
    fn parallelism(&self) -> usize {
        self.device.multiprocessor_count() * 16
    }

    fn eval(&self, inputs: &[&CudaBlocks], step: &Step<'_>) -> Result<CudaBlocks> {
        let infos: Vec<BlockInfo> = inputs
            .iter()
            .flat_map(|b| b.infos.iter().copied())
            .collect();
        let info = check_step(&self.parameters, step, &infos)?;
        for b in inputs {
            self.check_resident(b)?;
            check_eq(
                "message modulus of an input block",
                self.parameters.message_modulus as usize,
                b.message_modulus as usize,
            )?;
            check_eq(
                "carry modulus of an input block",
                self.parameters.carry_modulus as usize,
                b.carry_modulus as usize,
            )?;
        }
        let device = &self.device;
        let (lists, exprs) = remap(inputs, &step.exprs)?;
        let size = self.parameters.big_lwe_dimension().to_lwe_size();
        let outputs = info.outputs.len();
        let mut out = CudaLweCiphertextList::new_zero(device, size, LweCiphertextCount(outputs))?;
        // Where the outputs of each expression start.
        let mut slots = Vec::with_capacity(exprs.len());
        let mut next = 0;
        for expr in &step.exprs {
            slots.push(next);
            next += expr
                .table
                .and_then(|t| step.tables.get(t))
                .map_or(1, |t| t.function_count());
        }
        check_eq("number of outputs of the step", outputs, next)?;
        let bootstraps = step.bootstrap_count();
        let luts = if bootstraps > 0 {
            let key: Vec<Table> = step.tables.iter().map(|&t| t.clone()).collect();
            Some(self.tables.get_or_make(&key, || {
                let list =
                    CudaLookupTableList::from_tables(device, &self.parameters, &step.tables)?;
                // Other streams read it: the copy must be done before any uses it.
                device.synchronize()?;
                Ok(list)
            })?)
        } else {
            None
        };

        let has_table: Vec<bool> = exprs.iter().map(|e| e.table.is_some()).collect();
        let (free, _) = device.memory_info()?;
        let budget = (free - free / 8).saturating_sub(RESERVED_MEMORY);
        let chunks = plan_chunks(
            &has_table,
            |e| self.chunk_bytes(&exprs[e]),
            budget,
            self.max_batch,
        )?;
        let mut run_chunk = |chunk: Range<usize>| {
            let part = &exprs[chunk.clone()];
            if has_table[chunk.start] {
                let luts = luts.as_ref().ok_or_else(|| {
                    Error::InvalidParameter("internal: bootstraps without tables".into())
                })?;
                self.launches.fetch_add(1, Ordering::Relaxed);
                self.bootstrap(device, &lists, part, &slots[chunk], luts, &mut out)
            } else if chunk.len() == outputs {
                // The whole step is this one linear chunk: straight into the output.
                self.linear_into(&lists, part, &mut out)
            } else {
                let linear = self.linear(device, &lists, part)?;
                out.copy_into_range(device, slots[chunk.start], &linear)
            }
        };
        let launched = chunks.into_iter().try_for_each(|chunk| {
            // Out of memory: what the frees pending on the streams and the pool's
            // unused fragments hold goes back to the driver before the halves run.
            run_halving(chunk, &mut run_chunk, &|| device.release_pooled_memory())
        });
        // Wait even after a failure: nothing queued may outlive the buffers it reads.
        let finished = device.synchronize();
        launched.and(finished)?;
        self.pbs.fetch_add(bootstraps as u64, Ordering::Relaxed);
        crate::shortint::count_bootstraps(bootstraps);
        Ok(CudaBlocks {
            list: Arc::new(out),
            start: 0,
            infos: info.outputs,
            message_modulus: self.parameters.message_modulus,
            carry_modulus: self.parameters.carry_modulus,
        })
    }

    fn pbs_count(&self) -> u64 {
        self.pbs.load(Ordering::Relaxed)
    }

    fn upload(&self, blocks: Vec<Ciphertext>) -> Result<CudaBlocks> {
        let p = &self.parameters;
        for b in &blocks {
            b.check_parameters(p)?;
            p.check_capacity(b.degree(), b.noise_level())?;
        }
        if blocks.is_empty() {
            let list = CudaLweCiphertextList::new_zero(
                &self.device,
                p.big_lwe_dimension().to_lwe_size(),
                LweCiphertextCount(0),
            )?;
            return Ok(CudaBlocks {
                list: Arc::new(list),
                start: 0,
                infos: Vec::new(),
                message_modulus: p.message_modulus,
                carry_modulus: p.carry_modulus,
            });
        }
        CudaBlocks::from_cpu(&self.device, &blocks)
    }

    fn download(&self, blocks: &CudaBlocks) -> Result<Vec<Ciphertext>> {
        blocks.to_cpu()
    }

    fn split(&self, blocks: CudaBlocks, lengths: &[usize]) -> Result<Vec<CudaBlocks>> {
        check_eq(
            "total length of the split",
            blocks.len(),
            lengths.iter().sum(),
        )?;
        let mut start = 0;
        Ok(lengths
            .iter()
            .map(|&n| {
                let part = CudaBlocks {
                    list: blocks.list.clone(),
                    start: blocks.start + start,
                    infos: blocks.infos[start..start + n].to_vec(),
                    message_modulus: blocks.message_modulus,
                    carry_modulus: blocks.carry_modulus,
                };
                start += n;
                part
            })
            .collect())
    }

    fn block_count(&self, blocks: &CudaBlocks) -> usize {
        blocks.len()
    }

    fn block_infos(&self, blocks: &CudaBlocks) -> Vec<BlockInfo> {
        blocks.infos.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<bool> {
        s.chars().map(|c| c == 'T').collect()
    }

    #[test]
    fn chunks_that_run_out_of_memory_are_halved_down_to_one_expression() {
        // Memory for at most 3 expressions at once; every expression must run once.
        let mut ran = Vec::new();
        let waits = std::cell::Cell::new(0);
        let mut run = |r: Range<usize>| {
            if r.len() > 3 {
                return Err(Error::OutOfDeviceMemory(format!("{r:?}")));
            }
            ran.push(r);
            Ok(())
        };
        let wait = || {
            waits.set(waits.get() + 1);
            Ok(())
        };
        run_halving(0..10, &mut run, &wait).unwrap();
        assert_eq!(ran, vec![0..2, 2..5, 5..7, 7..10]);
        assert_eq!(waits.get(), 3);
        // Other errors, and a single expression that does not fit, come back.
        let mut fail = |_| Err(Error::InvalidParameter("bad".into()));
        assert!(matches!(
            run_halving(0..4, &mut fail, &wait),
            Err(Error::InvalidParameter(_))
        ));
        let mut never = |_| Err(Error::OutOfDeviceMemory("none".into()));
        assert!(matches!(
            run_halving(0..4, &mut never, &wait),
            Err(Error::OutOfDeviceMemory(_))
        ));
    }

    #[test]
    fn chunks_follow_kinds_memory_and_the_size_cap() {
        let one = |_| 10;
        // Runs of one kind, whole when memory allows.
        assert_eq!(
            plan_chunks(&kinds("TTTLLT"), one, 1000, 100).unwrap(),
            vec![0..3, 3..5, 5..6]
        );
        // 25 bytes hold two expressions of 10.
        assert_eq!(
            plan_chunks(&kinds("TTTTTL"), one, 25, 100).unwrap(),
            vec![0..2, 2..4, 4..5, 5..6]
        );
        // At most 3 per chunk.
        assert_eq!(
            plan_chunks(&kinds("LLLLLLL"), one, 1000, 3).unwrap(),
            vec![0..3, 3..6, 6..7]
        );
        // Expressions of different sizes.
        let sizes = [5, 30, 5, 5, 20];
        assert_eq!(
            plan_chunks(&kinds("TTTTT"), |e| sizes[e], 30, 100).unwrap(),
            vec![0..1, 1..2, 2..5]
        );
        assert!(plan_chunks(&[], one, 0, 1).unwrap().is_empty());
        // Every expression lands in exactly one chunk, in order.
        let k = kinds("TLTTLLLTTTTL");
        let chunks = plan_chunks(&k, |e| 7 + e, 40, 3).unwrap();
        let flat: Vec<usize> = chunks.iter().flat_map(|c| c.clone()).collect();
        assert_eq!(flat, (0..k.len()).collect::<Vec<_>>());
        for c in &chunks {
            assert!(c.len() <= 3 && c.clone().all(|e| k[e] == k[c.start]));
            assert!(c.clone().map(|e| 7 + e).sum::<usize>() <= 40);
        }
    }

    #[test]
    fn an_expression_larger_than_the_memory_is_an_error() {
        let err = plan_chunks(&kinds("TT"), |e| if e == 1 { 100 } else { 1 }, 50, 10).unwrap_err();
        assert!(matches!(err, Error::OutOfDeviceMemory(_)), "{err}");
        assert!(err.to_string().contains("out of GPU memory"), "{err}");
    }
}
