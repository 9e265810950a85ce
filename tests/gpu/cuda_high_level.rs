//! The high-level API with a GPU server key: the integer operations of the CPU
//! tests instantiated for CUDA, each result compared to the clear result and to the
//! CPU key's result; residency (operands moved to the key's GPU, results staying
//! there, decryption and serialization bringing them back); 16 threads sharing one
//! GPU through their own streams; batches, split over GPUs when there are several.
//! Skips (`SKIPPED (no CUDA device)`) without a GPU.

use crate::common;
use crate::cuda_support;

use crate::skip::gpu_for_tests;
use common::Rng;
use cuda_support::small_parameters;
use gpufhe::backend::cuda::CudaDevice;
use gpufhe::core_crypto::{
    DecompositionBaseLog, DecompositionLevelCount, GlweDimension, NoiseDistribution, PolynomialSize,
};
use gpufhe::prelude::*;
use gpufhe::serialization::{safe_deserialize, safe_serialize};
use gpufhe::shortint::{CompressionParameters, PbsKind};
use gpufhe::CompressedCiphertextListBuilder;
use gpufhe::{
    get_number_of_gpus, set_server_key, unset_server_key, BinaryOp, ClientKey, CompressedServerKey,
    ConfigBuilder, Device, FheBool, FheInt128, FheInt64, FheUint64, FheUint8, GpuIndex, ServerKey,
};
use std::sync::OnceLock;

/// One client key (insecure small parameters, for speed) and its server key on the
/// CPU and on GPU 0.
pub(crate) struct Keys {
    pub(crate) client: ClientKey,
    pub(crate) compressed: CompressedServerKey,
    pub(crate) cpu: ServerKey,
    pub(crate) gpu: ServerKey,
}

/// The keys, or `None` (after printing the skip) without a GPU.
pub(crate) fn gpu_keys() -> Option<&'static Keys> {
    gpu_for_tests()?;
    static KEYS: OnceLock<Keys> = OnceLock::new();
    Some(KEYS.get_or_init(|| {
        let config = ConfigBuilder::default()
            .with_insecure_custom_parameters(small_parameters())
            .expect("parameters")
            .try_enable_compression(small_compression())
            .expect("compression parameters");
        let client = ClientKey::generate(config);
        let compressed = CompressedServerKey::new(&client);
        let gpu = compressed
            .try_decompress_to_specific_gpu(GpuIndex::new(0))
            .expect("GPU key");
        Keys {
            cpu: compressed.decompress(),
            gpu,
            compressed,
            client,
        }
    }))
}

pub(crate) const GPU0: Device = Device::CudaGpu(GpuIndex::new(0));

/// **Insecure** compression for [`small_parameters`]: GLWE ciphertexts of 128
/// blocks, 10-bit storage.
fn small_compression() -> CompressionParameters {
    CompressionParameters {
        br_level: DecompositionLevelCount(1),
        br_base_log: DecompositionBaseLog(23),
        packing_ks_level: DecompositionLevelCount(2),
        packing_ks_base_log: DecompositionBaseLog(10),
        packing_ks_polynomial_size: PolynomialSize(128),
        packing_ks_glwe_dimension: GlweDimension(1),
        lwe_per_glwe: 128,
        storage_log_modulus: 10,
        packing_ks_key_noise_distribution: NoiseDistribution::TUniform { log2_bound: 20 },
        decompression_grouping_factor: None,
    }
}

/// The same operations on `FheUint64` and `FheUint8`, with the key of the thread.
macro_rules! operation_results {
    ($name:ident, $fhe:ty, $clear:ty) => {
        /// add, sub, mul, eq, lt, bitand, shl (encrypted amount) and select of `x`
        /// and `y`, decrypted; every encrypted result must live on `device`.
        fn $name(
            ck: &ClientKey,
            key: &ServerKey,
            device: Device,
            a: $clear,
            b: $clear,
        ) -> Vec<u128> {
            set_server_key(key.clone());
            let (x, y) = (<$fhe>::encrypt(a, ck), <$fhe>::encrypt(b, ck));
            let condition = x.gt(&y);
            let integers = [
                &x + &y,
                &x - &y,
                &x * &y,
                &x & &y,
                &x << &y,
                FheBool::select(&condition, &x, &y),
            ];
            let booleans = [x.eq(&y), x.lt(&y), condition];
            let mut out = Vec::new();
            for v in &integers {
                assert_eq!(v.current_device(), device);
                out.push(FheDecrypt::<$clear>::decrypt(v, ck) as u128);
            }
            for v in &booleans {
                assert_eq!(v.current_device(), device);
                out.push(v.decrypt(ck) as u128);
            }
            out
        }
    };
}
operation_results!(results_u64, FheUint64, u64);
operation_results!(results_u8, FheUint8, u8);

/// The clear twin of `operation_results`.
fn clear_results(a: u128, b: u128, bits: u32) -> Vec<u128> {
    let mask = if bits == 128 {
        u128::MAX
    } else {
        (1 << bits) - 1
    };
    vec![
        a.wrapping_add(b) & mask,
        a.wrapping_sub(b) & mask,
        a.wrapping_mul(b) & mask,
        a & b,
        (a << (b % bits as u128)) & mask,
        if a > b { a } else { b },
        (a == b) as u128,
        (a < b) as u128,
        (a > b) as u128,
    ]
}

#[test]
fn fheuint64_operations_match_the_clear_and_the_cpu_results() {
    let Some(keys) = gpu_keys() else { return };
    let mut rng = Rng::new(64);
    let pairs = [
        (0, u64::MAX),
        (u64::MAX, 1),
        (0x5555_5555_5555_5555, 0xaaaa_aaaa_aaaa_aaab),
        (rng.next_u64(), rng.next_u64()),
        (1234, 1234),
    ];
    for (a, b) in pairs {
        let gpu = results_u64(&keys.client, &keys.gpu, GPU0, a, b);
        assert_eq!(gpu, clear_results(a as u128, b as u128, 64), "{a} op {b}");
        let cpu = results_u64(&keys.client, &keys.cpu, Device::Cpu, a, b);
        assert_eq!(gpu, cpu, "{a} op {b}: GPU and CPU differ");
    }
}

#[test]
fn fheuint8_operations_match_the_clear_and_the_cpu_results() {
    let Some(keys) = gpu_keys() else { return };
    for (a, b) in [(0u8, 255u8), (255, 1), (200, 100), (7, 3), (66, 66)] {
        let gpu = results_u8(&keys.client, &keys.gpu, GPU0, a, b);
        assert_eq!(gpu, clear_results(a as u128, b as u128, 8), "{a} op {b}");
        let cpu = results_u8(&keys.client, &keys.cpu, Device::Cpu, a, b);
        assert_eq!(gpu, cpu, "{a} op {b}: GPU and CPU differ");
    }
}

/// The signed operations (order, arithmetic `>>` by clear and encrypted amounts,
/// `abs`, `min`, sign extension) of `a` and `b` on `key`, decrypted; every result
/// must live on `device`.
fn signed_results(ck: &ClientKey, key: &ServerKey, device: Device, a: i64, b: i64) -> Vec<i128> {
    set_server_key(key.clone());
    let (x, y) = (FheInt64::encrypt(a, ck), FheInt64::encrypt(b, ck));
    let amount = FheUint64::encrypt(b as u64, ck);
    let integers = [&x >> 5u32, &x >> &amount, x.abs(), x.min(&y)];
    let mut out = Vec::new();
    for v in &integers {
        assert_eq!(v.current_device(), device);
        out.push(FheDecrypt::<i64>::decrypt(v, ck) as i128);
    }
    let wide = FheInt128::cast_from(x.clone());
    assert_eq!(wide.current_device(), device);
    out.push(wide.decrypt(ck));
    for v in [x.lt(&y), x.ge(b)] {
        assert_eq!(v.current_device(), device);
        out.push(v.decrypt(ck) as i128);
    }
    out
}

#[test]
fn fheint64_operations_match_the_clear_and_the_cpu_results() {
    let Some(keys) = gpu_keys() else { return };
    for (a, b) in [
        (i64::MIN, -1),
        (-1, 63),
        (-5_000_000_001, 70),
        (i64::MAX, 0),
    ] {
        let expected = [
            (a >> 5) as i128,
            a.wrapping_shr(b as u32) as i128,
            a.wrapping_abs() as i128,
            a.min(b) as i128,
            a as i128,
            (a < b) as i128,
            (a >= b) as i128,
        ];
        let gpu = signed_results(&keys.client, &keys.gpu, GPU0, a, b);
        assert_eq!(gpu, expected, "{a} op {b}");
        let cpu = signed_results(&keys.client, &keys.cpu, Device::Cpu, a, b);
        assert_eq!(gpu, cpu, "{a} op {b}: GPU and CPU differ");
    }
}

#[test]
fn sixteen_threads_share_the_key_streams_of_the_gpu() {
    let Some(keys) = gpu_keys() else { return };
    let ck = &keys.client;
    // The key has its fixed set of stream-bound workers on GPU 0; operations from
    // any number of threads borrow them and create no stream of their own.
    let workers = keys.gpu.workers();
    assert_eq!(
        workers,
        vec![gpufhe::scheduler::WorkerInfo::Gpu {
            gpu: GpuIndex::new(0),
            streams: 4
        }]
    );
    let streams_before = CudaDevice::shared(0).unwrap().streams_created();
    std::thread::scope(|scope| {
        for t in 0..16u64 {
            scope.spawn(move || {
                set_server_key(keys.gpu.clone());
                let mut rng = Rng::new(1000 + t);
                for i in 0..100 {
                    let (a, b) = (rng.next_u64(), rng.next_u64());
                    let sum = &FheUint64::encrypt(a, ck) + &FheUint64::encrypt(b, ck);
                    assert_eq!(sum.current_device(), GPU0);
                    let clear: u64 = sum.decrypt(ck);
                    assert_eq!(clear, a.wrapping_add(b), "thread {t}, addition {i}");
                }
                unset_server_key();
            });
        }
    });
    assert_eq!(
        CudaDevice::shared(0).unwrap().streams_created(),
        streams_before,
        "no stream per thread"
    );
}

#[test]
fn operands_move_to_the_key_gpu_and_results_come_back() {
    let Some(keys) = gpu_keys() else { return };
    let ck = &keys.client;
    set_server_key(keys.gpu.clone());
    let x = FheUint8::encrypt(100u8, ck);
    let mut y = FheUint8::encrypt(55u8, ck);
    y.move_to_device(GPU0).unwrap();
    assert_eq!(
        (x.current_device(), y.current_device()),
        (Device::Cpu, GPU0)
    );
    // A CPU and a GPU operand, a trivial one, a clear one.
    let sum = &x + &y;
    let with_trivial = &y + &FheUint8::encrypt_trivial(1u8);
    let with_clear = &y ^ 0xffu8;
    assert_eq!(
        x.current_device(),
        Device::Cpu,
        "operands are not moved in place"
    );
    for (v, clear) in [(&sum, 155u8), (&with_trivial, 56), (&with_clear, !55)] {
        assert_eq!(v.current_device(), GPU0);
        assert_eq!(FheDecrypt::<u8>::decrypt(v, ck), clear);
    }
    // Serialization copies back; the value read is on the CPU.
    let mut bytes = Vec::new();
    safe_serialize(&sum, &mut bytes, 1 << 30).unwrap();
    let read: FheUint8 = safe_deserialize(bytes.as_slice(), 1 << 30).unwrap();
    assert_eq!(read.current_device(), Device::Cpu);
    assert_eq!(FheDecrypt::<u8>::decrypt(&read, ck), 155);
    // Back to the CPU, and a CPU key computes on GPU values too.
    let mut back = sum.clone();
    back.move_to_device(Device::Cpu).unwrap();
    assert_eq!(back.current_device(), Device::Cpu);
    assert_eq!(FheDecrypt::<u8>::decrypt(&back, ck), 155);
    set_server_key(keys.cpu.clone());
    let on_cpu = &sum + &y;
    assert_eq!(on_cpu.current_device(), Device::Cpu);
    assert_eq!(FheDecrypt::<u8>::decrypt(&on_cpu, ck), 210);
    // A value on another GPU moves to the key's.
    if get_number_of_gpus() >= 2 {
        let mut far = FheUint8::encrypt(3u8, ck);
        far.move_to_device(Device::CudaGpu(GpuIndex::new(1)))
            .unwrap();
        set_server_key(keys.gpu.clone());
        let near = &far + &y;
        assert_eq!(near.current_device(), GPU0);
        assert_eq!(FheDecrypt::<u8>::decrypt(&near, ck), 58);
    }
    unset_server_key();
}

#[test]
fn a_gpu_key_serializes_as_its_host_key() {
    let Some(keys) = gpu_keys() else { return };
    let ck = &keys.client;
    let mut bytes = Vec::new();
    safe_serialize(&keys.gpu, &mut bytes, 1 << 32).unwrap();
    // The test parameters are insecure: read through the named path.
    let read: ServerKey = gpufhe::serialization::with_insecure_parameters_allowed(|| {
        safe_deserialize(bytes.as_slice(), 1 << 32)
    })
    .unwrap();
    assert!(read.gpus().is_empty(), "a key is read back for the CPU");
    assert_eq!(keys.gpu.gpus(), vec![GpuIndex::new(0)]);
    set_server_key(read);
    let x = FheUint8::encrypt(21u8, ck);
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&x + &x), ck), 42);
    unset_server_key();
}

#[test]
fn batches_run_on_the_gpu_and_split_over_gpus() {
    let Some(keys) = gpu_keys() else { return };
    let ck = &keys.client;
    let mut rng = Rng::new(7);
    let clear: Vec<(u64, u64)> = (0..24).map(|_| (rng.next_u64(), rng.next_u64())).collect();
    let lhs: Vec<FheUint64> = clear
        .iter()
        .map(|&(a, _)| FheUint64::encrypt(a, ck))
        .collect();
    let rhs: Vec<FheUint64> = clear
        .iter()
        .map(|&(_, b)| FheUint64::encrypt(b, ck))
        .collect();
    let check = |key: &ServerKey| {
        set_server_key(key.clone());
        let sums = FheUint64::batch(BinaryOp::Add, &lhs, &rhs).unwrap();
        let below = FheUint64::batch_compare(gpufhe::ComparisonOp::Lt, &lhs, &rhs).unwrap();
        for (i, (&(a, b), (s, l))) in clear.iter().zip(sums.iter().zip(&below)).enumerate() {
            assert_eq!(
                FheDecrypt::<u64>::decrypt(s, ck),
                a.wrapping_add(b),
                "sum {i}"
            );
            assert_eq!(l.decrypt(ck), a < b, "comparison {i}");
        }
        sums.iter().map(|s| s.current_device()).collect::<Vec<_>>()
    };
    assert!(check(&keys.gpu).iter().all(|&d| d == GPU0));
    let sums_of = FheUint64::batch_sum(&[&lhs[..3], &rhs[..2]]).unwrap();
    let sum3 = clear[..3].iter().fold(0u64, |s, &(a, _)| s.wrapping_add(a));
    assert_eq!(FheDecrypt::<u64>::decrypt(&sums_of[0], ck), sum3);

    let gpus = get_number_of_gpus();
    if gpus >= 2 {
        let all = keys.compressed.try_decompress_to_gpu().unwrap();
        let devices = check(&all);
        // Consecutive shares, one per GPU, whose sizes differ by at most one.
        let (base, extra) = (clear.len() / gpus as usize, clear.len() % gpus as usize);
        let expected: Vec<Device> = (0..gpus)
            .flat_map(|g| {
                let len = base + usize::from((g as usize) < extra);
                std::iter::repeat_n(Device::CudaGpu(GpuIndex::new(g)), len)
            })
            .collect();
        assert_eq!(devices, expected);
    }
    unset_server_key();
}

/// Every operation of the other tests on the default (secure) parameters, against
/// the clear results.
#[test]
fn default_parameters_on_the_gpu() {
    if gpu_for_tests().is_none() {
        return;
    }
    let client = ClientKey::generate(ConfigBuilder::default());
    let gpu = CompressedServerKey::new(&client)
        .try_decompress_to_specific_gpu(vec![GpuIndex::new(0)])
        .unwrap();
    for (a, b) in [
        (0xffff_ffff_0000_0001u64, 0x0000_0001_ffff_ffffu64),
        (77, 77),
    ] {
        let results = results_u64(&client, &gpu, GPU0, a, b);
        assert_eq!(
            results,
            clear_results(a as u128, b as u128, 64),
            "{a} op {b}"
        );
    }
    for (a, b) in [(200u8, 100u8), (3, 250)] {
        let results = results_u8(&client, &gpu, GPU0, a, b);
        assert_eq!(
            results,
            clear_results(a as u128, b as u128, 8),
            "{a} op {b}"
        );
    }
    assert!(gpu.pbs_count() > 0);
    unset_server_key();
}

/// Division, oblivious random values and public-key encryption, written once as
/// circuits (or as plain blocks): on the GPU key they give what they give on the CPU
/// key, and their results live on the GPU.
#[test]
fn division_random_values_and_public_key_lists_on_the_gpu() {
    let Some(keys) = gpu_keys() else { return };
    let run = |key: &ServerKey, device: Device| -> Vec<u8> {
        set_server_key(key.clone());
        let ck = &keys.client;
        let (a, b) = (FheUint8::encrypt(200u8, ck), FheUint8::encrypt(7u8, ck));
        let (q, r) = a.div_rem(&b);
        let random = FheUint8::generate_oblivious_pseudo_random(gpufhe::Seed(99));
        let pk = gpufhe::CompactPublicKey::new(ck);
        let mut builder = gpufhe::CompactCiphertextList::builder(&pk);
        builder.push(41u8);
        let from_pk: FheUint8 = builder.build().expand().unwrap().get(0).unwrap().unwrap();
        let plus_one = &from_pk + 1u8;
        let values = [q, r, random, plus_one];
        values
            .iter()
            .map(|v| {
                assert_eq!(v.current_device(), device);
                v.decrypt(ck)
            })
            .collect()
    };
    let gpu = run(&keys.gpu, GPU0);
    assert_eq!(&gpu[..2], &[28, 4]);
    assert_eq!(gpu[3], 42);
    let cpu = run(&keys.cpu, Device::Cpu);
    assert_eq!(gpu, cpu, "the same seed gives the same value on both");
}

#[test]
fn compressed_lists_of_gpu_values_read_back_on_the_gpu() {
    let Some(keys) = gpu_keys() else { return };
    // A key of its own: the shared one's counters also count the other tests'.
    let gpu = keys
        .compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .expect("GPU key");
    set_server_key(gpu.clone());
    let ck = &keys.client;
    let sum = &FheUint8::encrypt(77u8, ck) + 3u8;
    assert_eq!(sum.current_device(), GPU0);
    let mut builder = CompressedCiphertextListBuilder::new();
    builder.push(sum).push(FheBool::encrypt(true, ck));
    let list = builder.build().expect("compression of GPU values");
    let x: FheUint8 = list.get(0).unwrap().unwrap();
    // Bootstrapped back on the host with the decompression key, then moved to the
    // key's GPU.
    assert_eq!(x.current_device(), GPU0);
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&x + 1u8), ck), 81);
    let flag: FheBool = list.get(1).unwrap().unwrap();
    assert!(flag.decrypt(ck));
    // The CPU key of the same client key reads the same list.
    let y: FheUint8 = list.get_with(0, &keys.cpu).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&y, ck), 80);
    unset_server_key();
}

/// Multi-bit keys (grouping factor 4 on the small parameters) on the GPU: every
/// FheUint8 operation matches the clear result and the same key on the CPU, and the
/// GPU key serializes as its host key.
#[test]
fn multi_bit_keys_compute_on_the_gpu_like_on_the_cpu() {
    if gpu_for_tests().is_none() {
        return;
    }
    let mut params = small_parameters();
    params.pbs_kind = PbsKind::MultiBit { grouping_factor: 4 };
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(params)
        .expect("parameters");
    let client = ClientKey::generate(config);
    let compressed = CompressedServerKey::new(&client);
    let gpu = compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .expect("multi-bit GPU key");
    let cpu = compressed.decompress();
    for (a, b) in [(200u8, 100u8), (7, 3)] {
        let on_gpu = results_u8(&client, &gpu, GPU0, a, b);
        assert_eq!(on_gpu, clear_results(a as u128, b as u128, 8), "{a} op {b}");
        assert_eq!(
            on_gpu,
            results_u8(&client, &cpu, Device::Cpu, a, b),
            "{a} op {b}"
        );
    }
    assert_eq!(gpu.config().parameters().pbs_kind, params.pbs_kind);
    unset_server_key();
}

/// A compressed server key with compression keys read back from TFHE-rs's form
/// decompresses to the GPU, where it compresses and decompresses values.
#[test]
fn compression_keys_read_in_tfhe_rs_form_work_on_the_gpu() {
    use gpufhe::shortint::{
        COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
    };
    if gpu_for_tests().is_none() {
        return;
    }
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
        .expect("parameters")
        .enable_compression(COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
    let ck = ClientKey::generate(config);
    let mut bytes = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&CompressedServerKey::new(&ck), &mut bytes, 1 << 30)
        .unwrap();
    let read: CompressedServerKey = gpufhe::serialization::with_insecure_parameters_allowed(|| {
        gpufhe::safe_serialization::safe_deserialize(bytes.as_slice(), 1 << 30)
    })
    .unwrap();
    let gpu = read
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .expect("GPU key");
    set_server_key(gpu);
    let x = &FheUint8::encrypt(40u8, &ck) + 2u8;
    assert_eq!(x.current_device(), GPU0);
    let mut builder = CompressedCiphertextListBuilder::new();
    builder.push(x);
    let list = builder.build().expect("compression of GPU values");
    let y: FheUint8 = list.get(0).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&y, &ck), 42);
    unset_server_key();
}
