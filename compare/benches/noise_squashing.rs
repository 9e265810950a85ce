//! Noise squashing of gpufhe and tfhe side by side on TFHE-rs 1.8's default
//! parameters (`NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`, the
//! same values in both), same machine, same thread count, in one run:
//! `compare/squash_noise/fheuint64/{gpufhe,tfhe}` (one `FheUint64`: 32 blocks, 16
//! 128-bit bootstraps) and `compare/squash_noise/fhebool/{gpufhe,tfhe}` (one).
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo bench --bench noise_squashing
//!
//! Each library's squashed values are checked once (decrypted) before timing.

use criterion::{criterion_group, criterion_main, Criterion};
use gpufhe::prelude::{FheDecrypt as _, FheEncrypt as _, SquashNoise as _};
use std::hint::black_box;
use tfhe::prelude::{FheDecrypt as _, FheEncrypt as _, SquashNoise as _};
use tfhe::shortint::parameters::NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as TFHE_NS;

fn bench(c: &mut Criterion) {
    let gconfig = gpufhe::ConfigBuilder::default().enable_noise_squashing(
        gpufhe::shortint::NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    );
    let (gck, gsk) = gpufhe::generate_keys(gconfig);
    gpufhe::set_server_key(gsk);
    let gx = gpufhe::FheUint64::encrypt(0x0123_4567_89ab_cdefu64, &gck);
    let gb = gpufhe::FheBool::encrypt(true, &gck);
    let clear: u64 = gx.squash_noise().unwrap().decrypt(&gck);
    assert_eq!(clear, 0x0123_4567_89ab_cdef);

    let tconfig = tfhe::ConfigBuilder::default()
        .enable_noise_squashing(TFHE_NS)
        .build();
    let (tck, tsk) = tfhe::generate_keys(tconfig);
    tfhe::set_server_key(tsk);
    let tx = tfhe::FheUint64::encrypt(0x0123_4567_89ab_cdefu64, &tck);
    let tb = tfhe::FheBool::encrypt(true, &tck);
    let clear: u64 = tx.squash_noise().unwrap().decrypt(&tck);
    assert_eq!(clear, 0x0123_4567_89ab_cdef);

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
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
