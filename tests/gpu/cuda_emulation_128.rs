//! The 128-bit bootstrap of noise squashing (`cuda/noise_squashing_bootstrap.cu`)
//! under the CPU emulation (see `cuda_emulation.rs`), against the CPU's
//! [`programmable_bootstrap_128`]: the key converted by the kernel's own conversion,
//! the FFT tables the host computes, every ciphertext's phase within 2^-48 of the
//! torus of the CPU's output's and decrypting to its message, in every thread order.
//! The ciphertexts themselves are not compared: the two double-double FFTs round
//! differently (near 2^-64 of the torus), so from the second CMux on a digit of the
//! accumulator's decomposition may differ by one, which adds a different encryption
//! of a tiny value (a full-size change of the mask, none of the phase). Runs plain
//! here, and under AddressSanitizer and ThreadSanitizer in
//! `cuda_emulation::check_sanitized`.

use crate::cuda_emulation::{harness_of, run, scratch, write_meta, write_u64, Build};
use gpufhe::backend::cuda::fft128_device_tables;
use gpufhe::core_crypto::*;
use std::path::Path;

/// A toy (insecure) 128-bit bootstrap: `n`-bit input key, GLWE key of `k` x `N`,
/// decomposition 2^24 x `level`.
struct Toy {
    lwe_key: LweSecretKey,
    glwe_key: GlweSecretKey,
    bsk: LweBootstrapKey128,
    rng: EncryptionRandomGenerator,
}

impl Toy {
    fn new(n: usize, k: usize, poly: usize, level: usize) -> Self {
        let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([7; 32]));
        let mut rng =
            EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(3), Seed([5; 32]));
        let lwe_key = LweSecretKey::generate_binary(LweDimension(n), &mut secret);
        let glwe_key =
            GlweSecretKey::generate_binary(GlweDimension(k), PolynomialSize(poly), &mut secret)
                .unwrap();
        let bsk = generate_lwe_bootstrap_key_128(
            &lwe_key,
            &glwe_key,
            DecompositionBaseLog(24),
            DecompositionLevelCount(level),
            NoiseDistribution::TUniform { log2_bound: 30 },
            &mut rng,
        )
        .unwrap();
        Self {
            lwe_key,
            glwe_key,
            bsk,
            rng,
        }
    }
}

fn write_f64(path: std::path::PathBuf, v: &[f64]) {
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(path, bytes).expect("write");
}

fn words(v: &[u128]) -> Vec<u64> {
    v.iter()
        .flat_map(|&x| [x as u64, (x >> 64) as u64])
        .collect()
}

/// Bootstraps `count` encryptions of 4-bit messages (one padding bit) with the
/// emulated kernel in each of `orders` and checks them against the CPU.
fn check_128(
    harness: &Path,
    toy: &mut Toy,
    count: usize,
    switch: ModulusSwitchType,
    orders: &[&str],
) {
    let shape = toy.bsk.shape();
    let (n, k, poly) = (
        shape.input_lwe_dimension.0,
        shape.glwe_dimension.0,
        shape.polynomial_size,
    );
    let delta = 1u128 << 123;
    let lut = identity_lookup_table_128(poly, shape.glwe_dimension, 16, delta).unwrap();
    let fourier = Fourier128LweBootstrapKey::from_standard(&toy.bsk);
    let messages: Vec<u64> = (0..count as u64).map(|i| (i * 5 + 3) % 16).collect();
    let inputs: Vec<LweCiphertextOwned> = messages
        .iter()
        .map(|&m| {
            let noise = NoiseDistribution::TUniform { log2_bound: 20 };
            allocate_and_encrypt_new_lwe_ciphertext(&toy.lwe_key, m << 59, noise, &mut toy.rng)
                .unwrap()
        })
        .collect();
    let dir = scratch("pbs128");
    let centered = usize::from(switch == ModulusSwitchType::CenteredMeanNoiseReduction);
    write_meta(
        &dir,
        &[
            n,
            k,
            poly.0,
            shape.base_log.0,
            shape.level.0,
            centered,
            count,
        ],
    );
    write_u64(dir.join("bsk.bin"), &words(toy.bsk.as_slice()));
    let input: Vec<u64> = inputs.iter().flat_map(|c| c.as_slice().to_vec()).collect();
    write_u64(dir.join("input.bin"), &input);
    write_u64(dir.join("lut.bin"), &words(&lut));
    let (twiddles, twist) = fft128_device_tables(poly.0);
    write_f64(dir.join("twiddles.bin"), &twiddles);
    write_f64(dir.join("twist.bin"), &twist);
    let out_size = k * poly.0 + 1;
    for order in orders {
        let out = run(harness, "pbs128", &dir, order);
        assert_eq!(out.len(), 2 * count * out_size, "output length ({order})");
        for (j, ((ct, &m), gpu)) in inputs
            .iter()
            .zip(&messages)
            .zip(out.chunks_exact(2 * out_size))
            .enumerate()
        {
            let switched = modulus_switch_lwe_ciphertext(ct, poly.log2() + 1, switch).unwrap();
            let cpu = programmable_bootstrap_128(&switched, &lut, &fourier).unwrap();
            let gpu = LweCiphertext128::from_container(
                gpu.chunks_exact(2)
                    .map(|w| u128::from(w[0]) | u128::from(w[1]) << 64)
                    .collect(),
            )
            .unwrap();
            let phase = decrypt_lwe_ciphertext_128(&toy.glwe_key, &gpu).unwrap();
            let cpu_phase = decrypt_lwe_ciphertext_128(&toy.glwe_key, &cpu).unwrap();
            let diff = (phase.wrapping_sub(cpu_phase) as i128).unsigned_abs();
            eprintln!(
                "128-bit bootstrap {j} ({order}): phases of the GPU and the CPU 2^{:.1} apart",
                (diff.max(1) as f64).log2()
            );
            assert!(
                diff < 1 << 80,
                "ciphertext {j} ({order}): phases of the GPU and the CPU 2^{:.1} apart",
                (diff as f64).log2()
            );
            assert_eq!(
                phase.wrapping_add(delta / 2) >> 123,
                u128::from(m),
                "ciphertext {j} ({order})"
            );
        }
    }
}

#[test]
fn emulated_128_bit_bootstrap_matches_the_cpu_in_every_thread_order() {
    let Some(harness) = harness_of(Build::Plain) else {
        return;
    };
    let mut toy = Toy::new(24, 1, 256, 3);
    check_128(
        harness,
        &mut toy,
        3,
        ModulusSwitchType::CenteredMeanNoiseReduction,
        &["forward", "reverse", "shuffled"],
    );
    // k = 2 (the default parameters' GLWE dimension), two levels, the standard switch.
    let mut toy = Toy::new(8, 2, 512, 2);
    check_128(
        harness,
        &mut toy,
        2,
        ModulusSwitchType::Standard,
        &["reverse"],
    );
}

/// The sanitized run (`cuda_emulation::check_sanitized`): a small key, two
/// ciphertexts, the reverse order.
pub(crate) fn check_sanitized_128(harness: &Path) {
    let mut toy = Toy::new(2, 1, 256, 2);
    check_128(
        harness,
        &mut toy,
        2,
        ModulusSwitchType::CenteredMeanNoiseReduction,
        &["reverse"],
    );
}
