//! Noise squashing of gpufhe and tfhe side by side on TFHE-rs 1.8's default
//! parameters (`NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`, the
//! same values in both), same machine, same thread count, in one run:
//! `compare/squash_noise/fheuint64/{gpufhe,tfhe}` (one `FheUint64`: 32 blocks, 16
//! 128-bit bootstraps), `compare/squash_noise/fhebool/{gpufhe,tfhe}` (one) and
//! `compare/squash_noise/batch64_fhebool/{gpufhe,tfhe}`: a batch of 64 `FheBool`
//! squashed with `par_iter` on the rayon pool (64 bootstraps, the same program on
//! both crates, the server key set once on every pool thread), what a threshold
//! decryption service runs for a batch of results. Booleans keep one iteration
//! near a few seconds per crate; a batch of 64 `FheUint64` would be 1024 bootstraps.
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo bench --bench noise_squashing
//!     cd compare && RAYON_NUM_THREADS=2 cargo bench --bench noise_squashing -- batch64
//!
//! Each library's squashed values are checked once (decrypted) before timing.

use criterion::{criterion_group, criterion_main, Criterion};
use gpufhe::prelude::{FheDecrypt as _, FheEncrypt as _, SquashNoise as _};
use rayon::prelude::*;
use std::hint::black_box;
use tfhe::prelude::{FheDecrypt as _, FheEncrypt as _, SquashNoise as _};
use tfhe::shortint::parameters::NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as TFHE_NS;

fn bench(c: &mut Criterion) {
    let gconfig = gpufhe::ConfigBuilder::default().enable_noise_squashing(
        gpufhe::shortint::NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    );
    let (gck, gsk) = gpufhe::generate_keys(gconfig);
    gpufhe::set_server_key(gsk.clone());
    rayon::broadcast(|_| gpufhe::set_server_key(gsk.clone()));
    let gx = gpufhe::FheUint64::encrypt(0x0123_4567_89ab_cdefu64, &gck);
    let gb = gpufhe::FheBool::encrypt(true, &gck);
    let clear: u64 = gx.squash_noise().unwrap().decrypt(&gck);
    assert_eq!(clear, 0x0123_4567_89ab_cdef);

    let tconfig = tfhe::ConfigBuilder::default()
        .enable_noise_squashing(TFHE_NS)
        .build();
    let (tck, tsk) = tfhe::generate_keys(tconfig);
    tfhe::set_server_key(tsk.clone());
    rayon::broadcast(|_| tfhe::set_server_key(tsk.clone()));
    let tx = tfhe::FheUint64::encrypt(0x0123_4567_89ab_cdefu64, &tck);
    let tb = tfhe::FheBool::encrypt(true, &tck);
    let clear: u64 = tx.squash_noise().unwrap().decrypt(&tck);
    assert_eq!(clear, 0x0123_4567_89ab_cdef);

    // The batch: 64 booleans, alternating values, checked once per crate.
    let bits: Vec<bool> = (0..64).map(|i| i % 3 == 0).collect();
    let gbatch: Vec<_> = bits
        .iter()
        .map(|&v| gpufhe::FheBool::encrypt(v, &gck))
        .collect();
    let tbatch: Vec<_> = bits
        .iter()
        .map(|&v| tfhe::FheBool::encrypt(v, &tck))
        .collect();
    let back: Vec<bool> = gbatch
        .par_iter()
        .map(|b| b.squash_noise().unwrap())
        .collect::<Vec<_>>()
        .iter()
        .map(|s| s.decrypt(&gck))
        .collect();
    assert_eq!(back, bits);
    let back: Vec<bool> = tbatch
        .par_iter()
        .map(|b| b.squash_noise().unwrap())
        .collect::<Vec<_>>()
        .iter()
        .map(|s| s.decrypt(&tck))
        .collect();
    assert_eq!(back, bits);

    let mut g = c.benchmark_group("compare/squash_noise");
    g.sample_size(10);
    g.bench_function("fheuint64/gpufhe", |b| {
        b.iter(|| black_box(&gx).squash_noise().unwrap())
    });
    g.bench_function("fheuint64/tfhe", |b| {
        b.iter(|| black_box(&tx).squash_noise().unwrap())
    });
    g.bench_function("fhebool/gpufhe", |b| {
        b.iter(|| black_box(&gb).squash_noise().unwrap())
    });
    g.bench_function("fhebool/tfhe", |b| {
        b.iter(|| black_box(&tb).squash_noise().unwrap())
    });
    g.bench_function("batch64_fhebool/gpufhe", |b| {
        b.iter(|| {
            black_box(&gbatch)
                .par_iter()
                .map(|x| x.squash_noise().unwrap())
                .collect::<Vec<_>>()
        })
    });
    g.bench_function("batch64_fhebool/tfhe", |b| {
        b.iter(|| {
            black_box(&tbatch)
                .par_iter()
                .map(|x| x.squash_noise().unwrap())
                .collect::<Vec<_>>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
