//! The CUDA implementation of [`Backend`]: blocks live in GPU memory and a step is a
//! few kernel launches (linear combinations, then keyswitch and batched bootstrap of
//! every expression with a table, each through its own table).

use super::{
    cuda_keyswitch_lwe_ciphertext_list, cuda_linear_combination_lwe_ciphertext_list,
    cuda_programmable_bootstrap_lwe_ciphertext_list, CudaDevice, CudaFourierBootstrapKey,
    CudaKeyswitchKey, CudaLookupTableList, CudaLweCiphertextList,
};
use crate::backend::cpu::block_info;
use crate::backend::{check_step, Backend, BlockExpr, BlockInfo, Step};
use crate::core_crypto::{LweCiphertextCount, LweCiphertextList, LweCiphertextOwned};
use crate::error::{check_eq, Result};
use crate::shortint::{Ciphertext, CompressedServerKey, ServerKey, ShortintParameters};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Bootstraps one streaming multiprocessor is counted for in
/// [`Backend::parallelism`]: a batch up to about this many per SM takes about the
/// time of one bootstrap.
const BOOTSTRAPS_PER_MULTIPROCESSOR: usize = 8;

/// A list of blocks in the memory of one GPU, with their degrees and noise levels.
#[derive(Debug)]
pub struct CudaBlocks {
    list: CudaLweCiphertextList,
    infos: Vec<BlockInfo>,
}

impl CudaBlocks {
    /// The GPU the blocks live on.
    pub fn device(&self) -> &CudaDevice {
        self.list.device()
    }
}

/// Runs steps on one GPU with a server key uploaded to it. The host copy of the key
/// is kept (for serialization and the CPU fallback); cloning is cheap (shared).
///
/// ```no_run
/// use gpufhe::backend::cuda::{CudaBackend, CudaDevice};
/// use gpufhe::backend::Backend;
/// use gpufhe::integer::{add, decrypt_radix, encrypt_radix, run};
/// use gpufhe::shortint::{ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
/// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
/// let key = CompressedServerKey::new(&ck).unwrap();
/// let gpu = CudaBackend::new(&CudaDevice::new(0).unwrap(), &key).unwrap();
/// let a = gpu.upload(encrypt_radix(&ck, 200, 4).unwrap()).unwrap();
/// let b = gpu.upload(encrypt_radix(&ck, 99, 4).unwrap()).unwrap();
/// let out = run(&gpu, &[&a, &b], |c, x| Ok(vec![add(c, &x[0], &x[1])?])).unwrap();
/// let sum = gpu.download(&out[0]).unwrap();
/// assert_eq!(decrypt_radix(&ck, &sum).unwrap(), (200 + 99) % 256);
/// ```
#[derive(Debug, Clone)]
pub struct CudaBackend {
    key: Arc<ServerKey>,
    keyswitch_key: Arc<CudaKeyswitchKey>,
    bootstrap_key: Arc<CudaFourierBootstrapKey>,
    device: CudaDevice,
    pbs: Arc<AtomicU64>,
}

impl CudaBackend {
    /// Expands `key` and uploads it to `device` (the bootstrap key is converted to the
    /// Fourier domain on the GPU). `Err` if the GPU lacks memory or fails.
    pub fn new(device: &CudaDevice, key: &CompressedServerKey) -> Result<Self> {
        let (host, standard_bootstrap_key) = key.decompress_with_standard_bootstrap_key();
        let keyswitch_key = CudaKeyswitchKey::from_cpu(device, host.keyswitch_key())?;
        let bootstrap_key = CudaFourierBootstrapKey::from_cpu(device, &standard_bootstrap_key)?;
        Ok(Self {
            key: Arc::new(host),
            keyswitch_key: Arc::new(keyswitch_key),
            bootstrap_key: Arc::new(bootstrap_key),
            device: device.clone(),
            pbs: Arc::new(AtomicU64::new(0)),
        })
    }

    /// The GPU it runs on.
    pub fn device(&self) -> &CudaDevice {
        &self.device
    }

    /// The host copy of the server key.
    pub fn server_key(&self) -> &ServerKey {
        &self.key
    }

    /// The same key on the same GPU with a bootstrap counter of its own.
    pub fn with_own_counter(&self) -> Self {
        Self {
            pbs: Arc::new(AtomicU64::new(0)),
            ..self.clone()
        }
    }

    fn big_lwe_size(&self) -> crate::core_crypto::LweSize {
        self.parameters().big_lwe_dimension().to_lwe_size()
    }

    /// An empty-or-zero list of `count` big-key ciphertexts on the backend's GPU.
    fn new_list(&self, count: usize) -> Result<CudaLweCiphertextList> {
        CudaLweCiphertextList::new_zero(
            &self.device,
            self.big_lwe_size(),
            LweCiphertextCount(count),
        )
    }

    /// How many bootstraps of one step run per launch: all of them if their
    /// temporaries fit in half the free memory, fewer otherwise (at least one).
    fn bootstrap_chunk(&self, count: usize) -> Result<usize> {
        let params = self.parameters();
        let per_bootstrap = 8 * (self.big_lwe_size().0 + params.lwe_dimension.to_lwe_size().0);
        let (free, _) = self.device.memory_info()?;
        Ok(count.min((free / 2 / per_bootstrap).max(1)))
    }
}

impl Backend for CudaBackend {
    type Blocks = CudaBlocks;

    fn parameters(&self) -> &ShortintParameters {
        self.key.parameters()
    }

    fn parallelism(&self) -> usize {
        self.device.multiprocessor_count() * BOOTSTRAPS_PER_MULTIPROCESSOR
    }

    fn eval(&self, inputs: &[&CudaBlocks], step: &Step<'_>) -> Result<CudaBlocks> {
        let params = self.key.parameters();
        let infos: Vec<BlockInfo> = inputs
            .iter()
            .flat_map(|b| b.infos.iter().copied())
            .collect();
        let info = check_step(params, step, &infos)?;
        for b in inputs {
            self.device.check_same("GPU of a step input", b.device())?;
        }
        let lists: Vec<&CudaLweCiphertextList> = inputs.iter().map(|b| &b.list).collect();
        // Every output slot in order: the linear expressions themselves, and zeros where
        // a bootstrap writes its outputs later.
        let zero = BlockExpr {
            terms: Vec::new(),
            constant: 0,
            table: None,
        };
        let mut direct = Vec::with_capacity(info.outputs.len());
        let mut bootstraps = Vec::new();
        for expr in &step.exprs {
            match expr.table {
                None => direct.push(expr.clone()),
                Some(t) => {
                    let linear = BlockExpr {
                        table: None,
                        ..expr.clone()
                    };
                    bootstraps.push((linear, t, direct.len()));
                    let outputs = step.tables[t].function_count();
                    direct.extend(std::iter::repeat_n(zero.clone(), outputs));
                }
            }
        }
        let mut out = self.new_list(direct.len())?;
        if !direct.is_empty() {
            cuda_linear_combination_lwe_ciphertext_list(&lists, &direct, params.delta(), &mut out)?;
        }
        if !bootstraps.is_empty() {
            let luts = CudaLookupTableList::from_tables(&self.device, params, &step.tables)?;
            let small_size = params.lwe_dimension.to_lwe_size();
            for chunk in bootstraps.chunks(self.bootstrap_chunk(bootstraps.len())?) {
                let exprs: Vec<BlockExpr> = chunk.iter().map(|(e, _, _)| e.clone()).collect();
                let lut_indexes: Vec<usize> = chunk.iter().map(|&(_, t, _)| t).collect();
                let slots: Vec<usize> = chunk.iter().map(|&(_, _, s)| s).collect();
                let mut linear = self.new_list(chunk.len())?;
                cuda_linear_combination_lwe_ciphertext_list(
                    &lists,
                    &exprs,
                    params.delta(),
                    &mut linear,
                )?;
                let mut small = CudaLweCiphertextList::new_zero(
                    &self.device,
                    small_size,
                    LweCiphertextCount(chunk.len()),
                )?;
                cuda_keyswitch_lwe_ciphertext_list(&self.keyswitch_key, &linear, &mut small)?;
                cuda_programmable_bootstrap_lwe_ciphertext_list(
                    &self.bootstrap_key,
                    &small,
                    &mut out,
                    &luts,
                    &lut_indexes,
                    &slots,
                    params.modulus_switch,
                )?;
            }
            self.pbs
                .fetch_add(bootstraps.len() as u64, Ordering::Relaxed);
        }
        Ok(CudaBlocks {
            list: out,
            infos: info.outputs,
        })
    }

    fn pbs_count(&self) -> u64 {
        self.pbs.load(Ordering::Relaxed)
    }

    fn upload(&self, blocks: Vec<Ciphertext>) -> Result<CudaBlocks> {
        let params = self.key.parameters();
        let mut data = Vec::with_capacity(blocks.len() * self.big_lwe_size().0);
        for b in &blocks {
            self.key.check_block(b)?;
            params.check_capacity(b.degree(), b.noise_level())?;
            data.extend_from_slice(b.as_lwe().as_slice());
        }
        let list = if blocks.is_empty() {
            self.new_list(0)?
        } else {
            let host = LweCiphertextList::from_container(data, self.big_lwe_size())?;
            CudaLweCiphertextList::from_cpu(&self.device, &host)?
        };
        Ok(CudaBlocks {
            list,
            infos: blocks.iter().map(block_info).collect(),
        })
    }

    fn download(&self, blocks: &CudaBlocks) -> Result<Vec<Ciphertext>> {
        if blocks.infos.is_empty() {
            return Ok(Vec::new());
        }
        let params = *self.key.parameters();
        let host = blocks.list.to_cpu()?;
        check_eq(
            "number of blocks copied back",
            blocks.infos.len(),
            host.count().0,
        )?;
        host.iter()
            .zip(&blocks.infos)
            .map(|(ct, info)| {
                let owned = LweCiphertextOwned::from_container(ct.as_slice().to_vec())?;
                Ok(Ciphertext::from_parts(
                    owned,
                    info.degree,
                    info.noise_level,
                    &params,
                ))
            })
            .collect()
    }

    fn split(&self, blocks: CudaBlocks, lengths: &[usize]) -> Result<Vec<CudaBlocks>> {
        check_eq(
            "total length of the split",
            blocks.infos.len(),
            lengths.iter().sum(),
        )?;
        let delta = self.parameters().delta();
        let mut start = 0;
        lengths
            .iter()
            .map(|&len| {
                let copies: Vec<BlockExpr> = (start..start + len).map(BlockExpr::copy_of).collect();
                let mut list = self.new_list(len)?;
                if len > 0 {
                    cuda_linear_combination_lwe_ciphertext_list(
                        &[&blocks.list],
                        &copies,
                        delta,
                        &mut list,
                    )?;
                }
                let infos = blocks.infos[start..start + len].to_vec();
                start += len;
                Ok(CudaBlocks { list, infos })
            })
            .collect()
    }

    fn block_count(&self, blocks: &CudaBlocks) -> usize {
        blocks.infos.len()
    }

    fn block_infos(&self, blocks: &CudaBlocks) -> Vec<BlockInfo> {
        blocks.infos.clone()
    }
}
