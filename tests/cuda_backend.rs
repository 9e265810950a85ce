//! The integer operations on the CUDA backend, on the default (secure) parameters:
//! every result decrypts to the clear result and to what the CPU backend computes on
//! the same ciphertexts. Prints `SKIPPED (no CUDA device)` and passes where there is
//! no GPU; fails under `GPUFHE_REQUIRE_GPU=1`.

use gpufhe::backend::cpu::CpuBackend;
use gpufhe::backend::cuda::{gpu_for_tests, CudaBackend, CudaBlocks};
use gpufhe::backend::{Backend, BlockExpr, Step};
use gpufhe::integer::{
    add, bitwise, compare, decrypt_radix, encrypt_radix, eq, mul, run, select, shift,
    shift_encrypted, sub, BitOp, CmpOp, ShiftOp,
};
use gpufhe::shortint::{ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
use std::sync::OnceLock;

/// The keys, the GPU backend and the CPU backend on the same key; `None` without a GPU.
fn setup() -> Option<&'static (ClientKey, CudaBackend, CpuBackend)> {
    static SETUP: OnceLock<Option<(ClientKey, CudaBackend, CpuBackend)>> = OnceLock::new();
    SETUP
        .get_or_init(|| {
            let device = gpu_for_tests()?;
            let ck = ClientKey::new(DEFAULT_PARAMETERS).expect("client key");
            let key = CompressedServerKey::new(&ck).expect("server key");
            let gpu = CudaBackend::new(&device, &key).expect("key on the GPU");
            let cpu = CpuBackend::new(key.decompress());
            Some((ck, gpu, cpu))
        })
        .as_ref()
}

/// Every operation the checks below expect, in this order, on `a` and `b`.
const OUTPUTS: usize = 9;

fn expected(a: u128, b: u128, bits: u32) -> [u128; OUTPUTS] {
    let m = u128::MAX >> (128 - bits);
    let lt = a < b;
    [
        (a + b) & m,
        a.wrapping_sub(b) & m,
        a.wrapping_mul(b) & m,
        (a == b) as u128,
        lt as u128,
        a & b,
        ShiftOp::Shl.apply(a, 7, bits),
        ShiftOp::RotateRight.apply(a, (b & 0xff) as u64, bits),
        if lt { a } else { b },
    ]
}

/// Runs every operation on every pair as one circuit on `backend`; returns the
/// decrypted results and the number of bootstraps.
fn run_all<B: Backend>(
    backend: &B,
    ck: &ClientKey,
    pairs: &[(u128, u128)],
    blocks: usize,
) -> Vec<[u128; OUTPUTS]> {
    let inputs: Vec<B::Blocks> = pairs
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .map(|v| {
            backend
                .upload(encrypt_radix(ck, v, blocks).expect("encrypt"))
                .expect("upload")
        })
        .collect();
    let refs: Vec<&B::Blocks> = inputs.iter().collect();
    let out = run(backend, &refs, |c, x| {
        let mut outputs = Vec::new();
        for ab in x.chunks(2) {
            let (a, b) = (&ab[0], &ab[1]);
            let lt = compare(c, CmpOp::Lt, a, b)?;
            outputs.extend([
                add(c, a, b)?,
                sub(c, a, b)?,
                mul(c, a, b)?,
                vec![eq(c, a, b)?],
                vec![lt],
                bitwise(c, BitOp::And, a, b)?,
                shift(c, ShiftOp::Shl, a, 7)?,
                shift_encrypted(c, ShiftOp::RotateRight, a, &b[..4.min(b.len())])?,
                select(c, lt, a, b)?,
            ]);
        }
        Ok(outputs)
    })
    .expect("circuit runs");
    out.chunks(OUTPUTS)
        .map(|results| {
            let mut clear = [0; OUTPUTS];
            for (v, r) in clear.iter_mut().zip(results) {
                let host = backend.download(r).expect("download");
                *v = decrypt_radix(ck, &host).expect("decrypt");
            }
            clear
        })
        .collect()
}

fn check_width(blocks: usize, pairs: &[(u128, u128)], compare_with_cpu: bool) {
    let Some((ck, gpu, cpu)) = setup() else {
        return;
    };
    let bits = 2 * blocks as u32;
    let got = run_all(gpu, ck, pairs, blocks);
    for (&(a, b), got) in pairs.iter().zip(&got) {
        assert_eq!(
            *got,
            expected(a, b, bits),
            "GPU, {bits}-bit {a:#x} and {b:#x}"
        );
    }
    if compare_with_cpu {
        assert_eq!(run_all(cpu, ck, pairs, blocks), got, "CPU and GPU differ");
    }
}

#[test]
fn u8_operations_match_the_clear_results_and_the_cpu() {
    check_width(
        4,
        &[(200, 99), (0, 255), (255, 255), (17, 17), (128, 1)],
        true,
    );
}

#[test]
fn u64_operations_match_the_clear_results() {
    let max = u64::MAX as u128;
    check_width(
        32,
        &[
            (max, 1),
            (0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210),
            (0, max),
            (max, max),
        ],
        false,
    );
}

#[test]
fn u64_addition_takes_the_parallel_carries() {
    let Some((ck, gpu, _)) = setup() else {
        return;
    };
    let gpu = gpu.with_own_counter();
    assert!(
        gpu.parallelism() >= 64,
        "a GPU runs many bootstraps at once"
    );
    let a = gpu.upload(encrypt_radix(ck, u64::MAX as u128, 32).unwrap());
    let b = gpu.upload(encrypt_radix(ck, 1, 32).unwrap());
    let (a, b) = (a.unwrap(), b.unwrap());
    let out = run(&gpu, &[&a, &b], |c, x| Ok(vec![add(c, &x[0], &x[1])?])).unwrap();
    let sum = decrypt_radix(ck, &gpu.download(&out[0]).unwrap()).unwrap();
    assert_eq!(sum, 0);
    assert_eq!(gpu.pbs_count(), 93, "93 bootstraps in 6 layers");
}

#[test]
fn bad_steps_and_splits_are_errors() {
    let Some((ck, gpu, _)) = setup() else {
        return;
    };
    let blocks: CudaBlocks = gpu.upload(encrypt_radix(ck, 5, 2).unwrap()).unwrap();
    let out_of_range = Step {
        exprs: vec![BlockExpr::copy_of(2)],
        tables: vec![],
    };
    assert!(gpu.eval(&[&blocks], &out_of_range).is_err());
    assert!(gpu.split(blocks, &[1, 2]).is_err());
    let blocks = gpu.upload(encrypt_radix(ck, 0b1101, 2).unwrap()).unwrap();
    let parts = gpu.split(blocks, &[1, 0, 1]).unwrap();
    let digits: Vec<u64> = parts
        .iter()
        .flat_map(|p| gpu.download(p).unwrap())
        .map(|b| ck.decrypt(&b).unwrap())
        .collect();
    assert_eq!(digits, vec![0b01, 0b11]);
    assert_eq!(gpu.block_count(&parts[1]), 0);
}

#[test]
fn sixteen_threads_of_one_hundred_additions() {
    let Some((ck, gpu, _)) = setup() else {
        return;
    };
    std::thread::scope(|s| {
        for t in 0..16u128 {
            s.spawn(move || {
                let gpu = gpu.with_own_counter();
                for i in 0..100u128 {
                    let (a, b) = ((t * 37 + i) % 256, (i * 11 + 3) % 256);
                    let x = gpu.upload(encrypt_radix(ck, a, 4).unwrap()).unwrap();
                    let y = gpu.upload(encrypt_radix(ck, b, 4).unwrap()).unwrap();
                    let out = run(&gpu, &[&x, &y], |c, w| Ok(vec![add(c, &w[0], &w[1])?]));
                    let sum = gpu.download(&out.unwrap()[0]).unwrap();
                    assert_eq!(decrypt_radix(ck, &sum).unwrap(), (a + b) % 256);
                }
            });
        }
    });
}
