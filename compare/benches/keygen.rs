//! Key generation of gpufhe and tfhe side by side on their default parameters (the
//! same parameter values), same machine, same thread count, in one run:
//! `compare/keygen/{gpufhe,tfhe}` (`generate_keys`: a client key and its server
//! key), `compare/compressed_server_key/{gpufhe,tfhe}` (`CompressedServerKey::new`,
//! what a client sends to a server) and `compare/multi_bit/keygen/{gpufhe,tfhe}`
//! (`generate_keys` with grouping factor 4).
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo bench --bench keygen
//!
//! The keys of each library are checked once (an addition decrypted) before timing.

use criterion::{criterion_group, criterion_main, Criterion};
use gpufhe::prelude::*;
use std::hint::black_box;
use tfhe::prelude::{FheDecrypt as _, FheEncrypt as _};
use tfhe::shortint::parameters::current_params::V1_8_PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as TFHE_MULTI_BIT;

fn bench(c: &mut Criterion) {
    // Each library's keys work: 200 + 99 = 43 (mod 256).
    let (gck, gsk) = gpufhe::generate_keys(gpufhe::ConfigBuilder::default());
    gpufhe::set_server_key(gsk);
    let sum = gpufhe::FheUint8::encrypt(200u8, &gck) + gpufhe::FheUint8::encrypt(99u8, &gck);
    let clear: u8 = sum.decrypt(&gck);
    assert_eq!(clear, 43);
    let tconfig = tfhe::ConfigBuilder::default().build();
    let (tck, tsk) = tfhe::generate_keys(tconfig);
    tfhe::set_server_key(tsk);
    let sum = tfhe::FheUint8::encrypt(200u8, &tck) + tfhe::FheUint8::encrypt(99u8, &tck);
    let clear: u8 = sum.decrypt(&tck);
    assert_eq!(clear, 43);

    let mut g = c.benchmark_group("compare");
    g.sample_size(10);
    g.bench_function("keygen/gpufhe", |b| {
        b.iter(|| gpufhe::generate_keys(black_box(gpufhe::ConfigBuilder::default())))
    });
    g.bench_function("keygen/tfhe", |b| {
        b.iter(|| tfhe::generate_keys(black_box(tconfig)))
    });
    g.bench_function("compressed_server_key/gpufhe", |b| {
        b.iter(|| gpufhe::CompressedServerKey::new(black_box(&gck)))
    });
    g.bench_function("compressed_server_key/tfhe", |b| {
        b.iter(|| tfhe::CompressedServerKey::new(black_box(&tck)))
    });
    g.bench_function("multi_bit/keygen/gpufhe", |b| {
        b.iter(|| gpufhe::generate_keys(gpufhe::ConfigBuilder::default().use_multi_bit_pbs()))
    });
    let multi_bit = tfhe::ConfigBuilder::default()
        .use_custom_parameters(TFHE_MULTI_BIT)
        .build();
    g.bench_function("multi_bit/keygen/tfhe", |b| {
        b.iter(|| tfhe::generate_keys(black_box(multi_bit)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
