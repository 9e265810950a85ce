//! Helpers shared by the GPU tests and benches: small insecure parameter sets, CPU
//! and GPU copies of one server key, list conversions and allocations.
#![allow(dead_code)]

use gpufhe::backend::cuda::*;
use gpufhe::backend::Table;
use gpufhe::core_crypto::*;
use gpufhe::shortint::{
    Ciphertext, ClientKey, CompressedServerKey, ManyLookupTable, ServerKey, ShortintParameters,
};

pub use crate::skip::gpu_for_tests;

#[path = "params.rs"]
mod params;
#[allow(unused_imports)]
pub use params::{insecure_parameters, small_parameters};

/// A high-level key on GPU 0 decompressed from `compressed()` (called only once a GPU
/// was found), or `None` after printing the skip without a GPU.
pub fn key_on_gpu0(
    compressed: impl FnOnce() -> &'static gpufhe::CompressedServerKey,
) -> Option<gpufhe::ServerKey> {
    gpu_for_tests()?;
    let key = compressed().try_decompress_to_specific_gpu(gpufhe::GpuIndex::new(0));
    Some(key.expect("a key on GPU 0"))
}

/// Defines the `setup` and `counting_setup` that `support/ops.rs` calls, with keys on
/// GPU 0 made from the test binary's keys `$keys()` (client, compressed, CPU key):
/// both return `None` after printing a skip without a GPU.
#[allow(unused_macros)]
macro_rules! gpu_ops_setup {
    ($keys:path) => {
        /// The shared key on GPU 0, set on the thread.
        fn setup() -> Option<&'static gpufhe::ClientKey> {
            static KEY: std::sync::OnceLock<Option<gpufhe::ServerKey>> = std::sync::OnceLock::new();
            let key = KEY.get_or_init(|| crate::cuda_support::key_on_gpu0(|| &$keys().1));
            gpufhe::set_server_key(key.clone()?);
            Some(&$keys().0)
        }

        /// A key of its own on GPU 0 (its own counters), set on the thread.
        fn counting_setup() -> Option<(&'static gpufhe::ClientKey, gpufhe::ServerKey)> {
            let key = crate::cuda_support::key_on_gpu0(|| &$keys().1)?;
            gpufhe::set_server_key(key.clone());
            Some((&$keys().0, key))
        }
    };
}
#[allow(unused_imports)]
pub(crate) use gpu_ops_setup;

/// A client key and one server key on the CPU (also in the standard domain, which
/// the GPU and the kernel emulation convert themselves).
pub struct HostKeys {
    pub ck: ClientKey,
    pub cpu: ServerKey,
    pub standard_bsk: LweBootstrapKey,
}

impl HostKeys {
    pub fn new(params: ShortintParameters) -> Self {
        let ck = ClientKey::new(params).expect("client key");
        let compressed = CompressedServerKey::new(&ck).expect("server key");
        Self {
            cpu: compressed.decompress().unwrap(),
            standard_bsk: compressed.bootstrap_key().decompress(),
            ck,
        }
    }

    pub fn params(&self) -> ShortintParameters {
        *self.ck.parameters()
    }

    /// The phase of `ct` (under the big key) minus `value * delta`, as a signed error.
    pub fn error(&self, ct: &LweCiphertext<&[u64]>, value: u64) -> i64 {
        let phase = decrypt_lwe_ciphertext(self.ck.big_lwe_secret_key(), ct).expect("decrypt");
        phase.wrapping_sub(value.wrapping_mul(self.params().delta())) as i64
    }

    /// The block value `ct` decrypts to (with the carries).
    pub fn decrypt(&self, ct: &LweCiphertext<&[u64]>) -> u64 {
        let phase = decrypt_lwe_ciphertext(self.ck.big_lwe_secret_key(), ct).expect("decrypt");
        let delta = self.params().delta();
        phase.wrapping_add(delta / 2) / delta % (2 * self.params().total_modulus())
    }
}

/// The same keys, also on a GPU (the host part through `Deref`).
pub struct Keys {
    pub host: HostKeys,
    pub bsk: CudaFourierBootstrapKey,
    pub ksk: CudaKeyswitchKey,
}

impl Keys {
    pub fn new(gpu: &CudaDevice, params: ShortintParameters) -> Self {
        let host = HostKeys::new(params);
        let bsk =
            CudaFourierBootstrapKey::from_cpu(gpu, &host.standard_bsk).expect("GPU bootstrap key");
        let ksk =
            CudaKeyswitchKey::from_cpu(gpu, host.cpu.keyswitch_key()).expect("GPU keyswitch key");
        Self { host, bsk, ksk }
    }
}

impl std::ops::Deref for Keys {
    type Target = HostKeys;
    fn deref(&self) -> &HostKeys {
        &self.host
    }
}

/// A multi-bit bootstrap key of grouping factor `g` for `keys` on `gpu`: GGSWs of the
/// indicator bits of the small key (fixed seeds).
pub fn multi_bit_key(gpu: &CudaDevice, keys: &HostKeys, g: usize) -> CudaFourierBootstrapKey {
    let p = keys.params();
    let bits = multi_bit_lwe_secret_key(keys.ck.small_lwe_secret_key(), g).unwrap();
    let mut rng =
        EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(7), Seed([8; 32]));
    let bsk = generate_seeded_lwe_bootstrap_key(
        &bits,
        keys.ck.glwe_secret_key(),
        p.pbs_base_log,
        p.pbs_level,
        p.glwe_noise_distribution,
        CompressionSeed::new(9),
        &mut rng,
    )
    .unwrap();
    CudaFourierBootstrapKey::from_cpu(gpu, &bsk.decompress()).unwrap()
}

/// A zero GPU list of `count` ciphertexts under the small key of `p` (keyswitch
/// outputs, bootstrap inputs).
pub fn small_zeros(
    gpu: &CudaDevice,
    p: &ShortintParameters,
    count: usize,
) -> CudaLweCiphertextList {
    CudaLweCiphertextList::new_zero(
        gpu,
        p.lwe_dimension.to_lwe_size(),
        LweCiphertextCount(count),
    )
    .expect("GPU list")
}

/// A zero GPU list of `count` ciphertexts under the big key of `p` (blocks, bootstrap
/// outputs).
pub fn big_zeros(gpu: &CudaDevice, p: &ShortintParameters, count: usize) -> CudaLweCiphertextList {
    CudaLweCiphertextList::new_zero(
        gpu,
        p.big_lwe_dimension().to_lwe_size(),
        LweCiphertextCount(count),
    )
    .expect("GPU list")
}

/// Bootstraps the one ciphertext of `input` through table 0 of `luts` into slot 0 of
/// `out` (the latency path).
pub fn bootstrap_one(
    bsk: &CudaFourierBootstrapKey,
    input: &CudaLweCiphertextList,
    out: &mut CudaLweCiphertextList,
    luts: &CudaLookupTableList,
    p: &ShortintParameters,
) -> gpufhe::Result<()> {
    bootstrap_list(bsk, input, out, luts, &[0], &[0], p)
}

/// The batched bootstrap of `p`'s kind (classical or multi-bit).
pub fn bootstrap_list(
    bsk: &CudaFourierBootstrapKey,
    input: &CudaLweCiphertextList,
    out: &mut CudaLweCiphertextList,
    luts: &CudaLookupTableList,
    lut_indexes: &[usize],
    slots: &[usize],
    p: &ShortintParameters,
) -> gpufhe::Result<()> {
    let ms = p.modulus_switch;
    match p.pbs_kind.grouping_factor() {
        None => cuda_programmable_bootstrap_lwe_ciphertext_list(
            bsk,
            input,
            out,
            luts,
            lut_indexes,
            slots,
            ms,
        ),
        Some(g) => cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list(
            bsk,
            g,
            input,
            out,
            luts,
            lut_indexes,
            slots,
            ms,
        ),
    }
}

/// The LWE ciphertexts of `blocks` as one list.
pub fn block_list(blocks: &[Ciphertext]) -> LweCiphertextListOwned {
    blocks
        .iter()
        .map(|b| b.as_lwe().clone())
        .collect::<gpufhe::Result<_>>()
        .expect("list")
}

/// A list of LWE ciphertexts.
pub fn lwe_list(cts: &[LweCiphertextOwned]) -> LweCiphertextListOwned {
    cts.iter()
        .cloned()
        .collect::<gpufhe::Result<_>>()
        .expect("list")
}

/// The empirical variance of `errors`.
pub fn variance(errors: &[i64]) -> f64 {
    let n = errors.len() as f64;
    let mean = errors.iter().map(|&e| e as f64).sum::<f64>() / n;
    errors
        .iter()
        .map(|&e| (e as f64 - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0)
}

pub type Function = fn(u64) -> u64;

/// Tables of 1, 1, 2 and 4 functions.
pub const FUNCTIONS: [&[Function]; 4] = [
    &[|x| (x * x + 3) % 16],
    &[|x| x / 4],
    &[|x| x % 4, |x| x / 4],
    &[|x| x, |x| 5 * x, |x| 15 - x, |x| (x == 2) as u64],
];

/// A batch: inputs, the table of each, and where each table's outputs go.
pub struct Batch {
    pub blocks: Vec<Ciphertext>,
    pub values: Vec<u64>,
    pub lut_indexes: Vec<usize>,
    pub output_slots: Vec<usize>,
    pub outputs: usize,
}

pub fn function_refs(fs: &[Function]) -> Vec<&dyn Fn(u64) -> u64> {
    fs.iter().map(|f| f as &dyn Fn(u64) -> u64).collect()
}

pub fn tables(p: &ShortintParameters) -> Vec<Table> {
    FUNCTIONS
        .iter()
        .map(|fs| {
            let bound = p.total_modulus() / fs.len() as u64;
            Table::on_domain(p, bound - 1, &function_refs(fs)).unwrap()
        })
        .collect()
}

/// `count` inputs cycling through the tables; outputs in reverse order of the inputs,
/// with one spare slot at the end that must stay untouched.
pub fn make_batch(keys: &HostKeys, count: usize) -> Batch {
    let p = keys.params();
    let mut batch = Batch {
        blocks: Vec::with_capacity(count),
        values: Vec::with_capacity(count),
        lut_indexes: Vec::with_capacity(count),
        output_slots: Vec::with_capacity(count),
        outputs: 0,
    };
    let mut offsets = Vec::with_capacity(count);
    for j in 0..count {
        let lut = (j * 7 + j / 3) % FUNCTIONS.len();
        let bound = p.total_modulus() / FUNCTIONS[lut].len() as u64;
        // A table of several functions reads inputs of a smaller degree: those come
        // from encrypt() (degree 3), the others from encrypt_with_carry (degree 15).
        let (x, block) = if bound == p.total_modulus() {
            let x = (j as u64 * 5 + 3) % bound;
            (x, keys.ck.encrypt_with_carry(x).unwrap())
        } else {
            let x = (j as u64 * 5 + 3) % p.message_modulus;
            (x, keys.ck.encrypt(x).unwrap())
        };
        batch.blocks.push(block);
        batch.values.push(x);
        batch.lut_indexes.push(lut);
        offsets.push(batch.outputs);
        batch.outputs += FUNCTIONS[lut].len();
    }
    for (j, offset) in offsets.iter().enumerate() {
        let f = FUNCTIONS[batch.lut_indexes[j]].len();
        batch.output_slots.push(batch.outputs - offset - f);
    }
    batch.outputs += 1;
    batch
}

/// Checks every output (GPU or emulated) against the expected value; returns the errors.
pub fn check_outputs(
    keys: &HostKeys,
    batch: &Batch,
    out: &LweCiphertextListOwned,
    what: &str,
) -> Vec<i64> {
    let outs: Vec<LweCiphertext<&[u64]>> = out.iter().collect();
    let mut errors = Vec::new();
    for (j, &x) in batch.values.iter().enumerate() {
        let fs = FUNCTIONS[batch.lut_indexes[j]];
        for (i, f) in fs.iter().enumerate() {
            let ct = &outs[batch.output_slots[j] + i];
            assert_eq!(
                keys.decrypt(ct),
                f(x),
                "{what}: input {j} ({x}), function {i}"
            );
            errors.push(keys.error(ct, f(x)));
        }
    }
    let spare = outs.last().unwrap();
    assert!(
        spare.as_slice().iter().all(|&c| c == 0),
        "{what}: the spare slot was written"
    );
    errors
}

/// The CPU's results for the first `count` inputs decrypt to the GPU's; returns the
/// CPU's errors.
///
/// The two noises are not compared sample by sample: the FFTs of the CPU and the
/// GPU round differently, so the low bits of the accumulator masks differ, a digit
/// of a later decomposition eventually rounds the other way, and from then on the
/// masks (and the noise realisations) differ completely, with the same distribution.
pub fn check_against_cpu(
    keys: &HostKeys,
    batch: &Batch,
    out: &LweCiphertextListOwned,
    count: usize,
) -> Vec<i64> {
    let p = keys.params();
    let many: Vec<ManyLookupTable> = FUNCTIONS
        .iter()
        .map(|fs| {
            keys.cpu
                .generate_many_lookup_table(&function_refs(fs))
                .unwrap()
        })
        .collect();
    let luts: Vec<&ManyLookupTable> = batch.lut_indexes[..count]
        .iter()
        .map(|&l| &many[l])
        .collect();
    let cpu = keys
        .cpu
        .apply_many_lookup_table_batch(&batch.blocks[..count], &luts)
        .unwrap();
    let outs: Vec<LweCiphertext<&[u64]>> = out.iter().collect();
    let mut errors = Vec::new();
    for (j, results) in cpu.iter().enumerate() {
        let x = batch.values[j];
        for (i, c) in results.iter().enumerate() {
            let cpu_value = keys.ck.decrypt_message_and_carry(c).unwrap();
            let gpu_value = keys.decrypt(&outs[batch.output_slots[j] + i]);
            assert_eq!(gpu_value, cpu_value, "input {j}, function {i}");
            errors.push(keys.error(&c.as_lwe().as_view(), FUNCTIONS[batch.lut_indexes[j]][i](x)));
        }
    }
    assert_eq!(p.total_modulus(), 16);
    errors
}
