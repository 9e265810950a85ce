//! CPU benchmarks on the default parameters: `cpu/keyswitch`, `cpu/pbs`, `cpu/ks_pbs`
//! (one at a time on one core), `cpu/ks_pbs_all_cores` (one, split over every core), `cpu/pbs_batch/4` (four bootstraps sharing each read
//! of the key, one core) and `cpu/ks_pbs_batch/32` (32 blocks on every core);
//! `cpu/multi_bit_pbs`: one multi-bit bootstrap (grouping factor 4, `n = 920`,
//! `k = 1`, `N = 2048`, `2^22 × 1`, one core) beside `cpu/pbs`, and
//! `cpu/multi_bit_pbs_batch/4`: four multi-bit blind rotations sharing each read of
//! a group's key, one core (beside `cpu/pbs_batch/4`).

use criterion::{criterion_group, criterion_main, Criterion};
use gpufhe::core_crypto::{
    allocate_and_encrypt_new_lwe_ciphertext, batch_multi_bit_blind_rotate_lwe_ciphertext,
    batch_programmable_bootstrap_lwe_ciphertext, generate_seeded_lwe_bootstrap_key,
    keyswitch_lwe_ciphertext, multi_bit_lwe_secret_key,
    multi_bit_programmable_bootstrap_lwe_ciphertext, programmable_bootstrap_lwe_ciphertext,
    CompressionSeed, DecompositionBaseLog, DecompositionLevelCount, EncryptionRandomGenerator,
    FourierLweBootstrapKey, LweCiphertextOwned, LweDimension, LweSecretKey, ModulusSwitchType,
    NoiseDistribution, SecretRandomGenerator,
};
use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS, PBS_BATCH};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let params = DEFAULT_PARAMETERS;
    let ck = ClientKey::new(params).expect("client key");
    let sk = ServerKey::new(&ck).expect("server key");
    let lut = sk.generate_lookup_table(|x| (x * x) % 16).expect("lut");
    let ct = ck.encrypt(3).expect("encrypt");
    let small = sk.keyswitch(&ct).expect("keyswitch");

    let mut group = c.benchmark_group("cpu");
    group.sample_size(50);
    group.bench_function("keyswitch", |b| {
        let mut out = LweCiphertextOwned::new_zero(params.lwe_dimension.to_lwe_size());
        b.iter(|| {
            keyswitch_lwe_ciphertext(sk.keyswitch_key(), black_box(ct.as_lwe()), &mut out)
                .expect("ks")
        })
    });
    group.bench_function("pbs", |b| {
        let mut out = LweCiphertextOwned::new_zero(params.big_lwe_dimension().to_lwe_size());
        b.iter(|| {
            programmable_bootstrap_lwe_ciphertext(
                black_box(&small),
                &mut out,
                lut.accumulator(),
                sk.bootstrap_key(),
                params.modulus_switch,
            )
            .expect("pbs")
        })
    });
    group.bench_function("ks_pbs", |b| {
        b.iter(|| sk.apply_lookup_table(black_box(&ct), &lut).expect("ks+pbs"))
    });
    // One keyswitch + bootstrap split over every core (what a step of one bootstrap,
    // e.g. a layer of a ripple-carry addition, runs).
    group.bench_function("ks_pbs_all_cores", |b| {
        b.iter(|| {
            sk.apply_lookup_table_batch(std::slice::from_ref(black_box(&ct)), &[&lut])
                .expect("ks+pbs")
        })
    });

    // Four bootstraps sharing one read of the key, on one thread.
    group.bench_function("pbs_batch/4", |b| {
        let inputs = vec![small.clone(); PBS_BATCH];
        let accs = vec![lut.accumulator(); PBS_BATCH];
        let size = params.big_lwe_dimension().to_lwe_size();
        let mut out = vec![LweCiphertextOwned::new_zero(size); PBS_BATCH];
        b.iter(|| {
            batch_programmable_bootstrap_lwe_ciphertext(
                black_box(&inputs),
                &mut out,
                &accs,
                sk.bootstrap_key(),
                params.modulus_switch,
            )
            .expect("batch pbs")
        })
    });
    // One multi-bit bootstrap: the key of n = 920 bits in groups of 4.
    let mut secret = SecretRandomGenerator::from_os().expect("rng");
    let small_mb = LweSecretKey::generate_binary(LweDimension(920), &mut secret);
    let mut rng = EncryptionRandomGenerator::from_os().expect("rng");
    let noise = NoiseDistribution::TUniform { log2_bound: 17 };
    let multi_bit_key = FourierLweBootstrapKey::from_standard(
        &generate_seeded_lwe_bootstrap_key(
            &multi_bit_lwe_secret_key(&small_mb, 4).expect("grouping"),
            ck.glwe_secret_key(),
            DecompositionBaseLog(22),
            DecompositionLevelCount(1),
            noise,
            CompressionSeed::from_os().expect("seed"),
            &mut rng,
        )
        .expect("multi-bit key")
        .decompress(),
    );
    let input = allocate_and_encrypt_new_lwe_ciphertext(
        &small_mb,
        3 * params.delta(),
        NoiseDistribution::TUniform { log2_bound: 45 },
        &mut rng,
    )
    .expect("encrypt");
    group.bench_function("multi_bit_pbs", |b| {
        let mut out = LweCiphertextOwned::new_zero(params.big_lwe_dimension().to_lwe_size());
        b.iter(|| {
            multi_bit_programmable_bootstrap_lwe_ciphertext(
                black_box(&input),
                &mut out,
                lut.accumulator(),
                &multi_bit_key,
                4,
                ModulusSwitchType::Standard,
            )
            .expect("multi-bit pbs")
        })
    });
    // Four multi-bit bootstraps sharing each read of a group's key, on one thread.
    group.bench_function("multi_bit_pbs_batch/4", |b| {
        let inputs = vec![input.clone(); PBS_BATCH];
        let accs = vec![lut.accumulator(); PBS_BATCH];
        b.iter(|| {
            batch_multi_bit_blind_rotate_lwe_ciphertext(
                black_box(&inputs),
                &accs,
                &multi_bit_key,
                4,
                ModulusSwitchType::Standard,
            )
            .expect("multi-bit batch")
        })
    });
    // 32 blocks (one FheUint64 carry step) on every core of the rayon pool.
    group.sample_size(20);
    group.bench_function("ks_pbs_batch/32", |b| {
        let cts = vec![ct.clone(); 32];
        let luts = vec![&lut; 32];
        b.iter(|| {
            sk.apply_lookup_table_batch(black_box(&cts), &luts)
                .expect("batch")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
