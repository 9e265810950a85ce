//! The wide integers of gpufhe and tfhe side by side on their default parameters
//! (the same parameter values), same machine, same thread count, in one run:
//! `compare/<width>/<op>/gpufhe` next to `compare/<width>/<op>/tfhe` for `+` and `<`
//! on `FheUint256` and `FheUint2048`.
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo bench --bench wide
//!
//! Every result is decrypted and checked once before timing.

use criterion::{criterion_group, criterion_main, Criterion};
use gpufhe::prelude::*;
use std::hint::black_box;
use tfhe::prelude::{FheDecrypt as _, FheEncrypt as _, FheOrd as _};

fn bench(c: &mut Criterion) {
    let (gck, gsk) = gpufhe::generate_keys(gpufhe::ConfigBuilder::default());
    gpufhe::set_server_key(gsk);
    let (tck, tsk) = tfhe::generate_keys(tfhe::ConfigBuilder::default().build());
    tfhe::set_server_key(tsk);

    // 256 bits: operands above 2^128, a carry across the halves.
    let (a, b) = (
        gpufhe::integer::U256::MAX >> 1u32,
        gpufhe::integer::U256::from((u128::MAX, 7u128)),
    );
    let t256 = |v: gpufhe::integer::U256| {
        let (low, high) = v.to_low_high_u128();
        tfhe::integer::U256::from((low, high))
    };
    let (ga, gb) = (
        gpufhe::FheUint256::encrypt(a, &gck),
        gpufhe::FheUint256::encrypt(b, &gck),
    );
    let (ta, tb) = (
        tfhe::FheUint256::encrypt(t256(a), &tck),
        tfhe::FheUint256::encrypt(t256(b), &tck),
    );
    let g_sum: gpufhe::integer::U256 = (&ga + &gb).decrypt(&gck);
    let t_sum: tfhe::integer::U256 = (&ta + &tb).decrypt(&tck);
    assert_eq!(g_sum, a + b);
    assert_eq!(t_sum, t256(a + b));
    assert!(!FheDecrypt::<bool>::decrypt(&ga.lt(&gb), &gck));
    assert!(!tfhe::prelude::FheDecrypt::<bool>::decrypt(
        &ta.lt(&tb),
        &tck
    ));

    // 2048 bits: 1,024 blocks.
    let words = |seed: u64| -> [u64; 32] {
        std::array::from_fn(|i| seed.wrapping_mul(i as u64 + 1) ^ 0x9e37_79b9_7f4a_7c15)
    };
    let (x, y) = (words(3), words(5));
    let (gx, gy) = (
        gpufhe::FheUint2048::encrypt(gpufhe::integer::U2048::from_words(x), &gck),
        gpufhe::FheUint2048::encrypt(gpufhe::integer::U2048::from_words(y), &gck),
    );
    let (tx, ty) = (
        tfhe::FheUint2048::encrypt(tfhe::integer::bigint::U2048::from(x), &tck),
        tfhe::FheUint2048::encrypt(tfhe::integer::bigint::U2048::from(y), &tck),
    );
    let g_sum: gpufhe::integer::U2048 = (&gx + &gy).decrypt(&gck);
    assert_eq!(
        g_sum,
        gpufhe::integer::U2048::from_words(x) + gpufhe::integer::U2048::from_words(y)
    );
    let t_sum: tfhe::integer::bigint::U2048 = (&tx + &ty).decrypt(&tck);
    let mut t_bytes = [0u8; 256];
    t_sum.copy_to_le_byte_slice(&mut t_bytes);
    assert_eq!(t_bytes.to_vec(), g_sum.to_le_bytes());

    let mut g = c.benchmark_group("compare");
    g.sample_size(10);
    g.bench_function("fheuint256/add/gpufhe", |bench| {
        bench.iter(|| black_box(&ga + &gb))
    });
    g.bench_function("fheuint256/add/tfhe", |bench| {
        bench.iter(|| black_box(&ta + &tb))
    });
    g.bench_function("fheuint256/lt/gpufhe", |bench| {
        bench.iter(|| black_box(ga.lt(&gb)))
    });
    g.bench_function("fheuint256/lt/tfhe", |bench| {
        bench.iter(|| black_box(ta.lt(&tb)))
    });
    g.bench_function("fheuint2048/add/gpufhe", |bench| {
        bench.iter(|| black_box(&gx + &gy))
    });
    g.bench_function("fheuint2048/add/tfhe", |bench| {
        bench.iter(|| black_box(&tx + &ty))
    });
    g.bench_function("fheuint2048/lt/gpufhe", |bench| {
        bench.iter(|| black_box(gx.lt(&gy)))
    });
    g.bench_function("fheuint2048/lt/tfhe", |bench| {
        bench.iter(|| black_box(tx.lt(&ty)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
