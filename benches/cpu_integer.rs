//! Latency of high-level integer operations on the CPU backend, default (secure)
//! parameters, on the rayon pool (set `RAYON_NUM_THREADS` to compare thread counts):
//! `cpu/fheuint64/{add,sub,mul,eq,lt,bitand,shl,scalar_add}`, `cpu/fheuint8/add`,
//! and `cpu/fheuint64/add_batch/32` (32 independent additions as one circuit); the
//! additions again on multi-bit keys: `cpu/multi_bit/fheuint{8,64}/add`.
//!
//! Batches of additions written three ways (the guide's `par_iter`, `batch_add`,
//! `run_batch`) are in `cpu_batch`.
//!
//! `shl` shifts by an encrypted amount (what `&a << &b` does). The bootstrap count of
//! each operation is printed once before it is measured.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gpufhe::prelude::*;
use gpufhe::{set_server_key, BinaryOp, ConfigBuilder, FheUint64, FheUint8, ServerKey};
use std::hint::black_box;

fn report(key: &ServerKey, name: &str, f: impl Fn()) {
    let before = key.pbs_count();
    f();
    eprintln!("{name}: {} bootstraps", key.pbs_count() - before);
}

fn bench(c: &mut Criterion) {
    let (ck, sk) = gpufhe::generate_keys(ConfigBuilder::default());
    set_server_key(sk.clone());
    let a = FheUint64::encrypt(0x0123_4567_89ab_cdefu64, &ck);
    let b = FheUint64::encrypt(0xfedc_ba98_7654_3210u64, &ck);
    let amount = FheUint64::encrypt(13u64, &ck);
    let a8 = FheUint8::encrypt(200u8, &ck);
    let b8 = FheUint8::encrypt(99u8, &ck);

    let mut g = c.benchmark_group("cpu");
    g.sample_size(10);
    type Op<'a> = (&'a str, Box<dyn Fn() + 'a>);
    let ops: Vec<Op> = vec![
        ("fheuint8/add", Box::new(|| drop(black_box(&a8 + &b8)))),
        ("fheuint64/add", Box::new(|| drop(black_box(&a + &b)))),
        ("fheuint64/sub", Box::new(|| drop(black_box(&a - &b)))),
        (
            "fheuint64/scalar_add",
            Box::new(|| drop(black_box(&a + 0x1234_5678u64))),
        ),
        ("fheuint64/bitand", Box::new(|| drop(black_box(&a & &b)))),
        ("fheuint64/eq", Box::new(|| drop(black_box(a.eq(&b))))),
        ("fheuint64/lt", Box::new(|| drop(black_box(a.lt(&b))))),
        ("fheuint64/shl", Box::new(|| drop(black_box(&a << &amount)))),
        ("fheuint64/mul", Box::new(|| drop(black_box(&a * &b)))),
    ];
    for (name, f) in &ops {
        report(&sk, name, f);
        g.bench_function(*name, |bench| bench.iter(f));
    }
    // Throughput: 32 additions advanced in lockstep (one bootstrap batch per layer).
    let lhs = vec![a.clone(); 32];
    let rhs = vec![b.clone(); 32];
    g.throughput(Throughput::Elements(32));
    g.bench_function("fheuint64/add_batch/32", |bench| {
        bench.iter(|| black_box(FheUint64::batch(BinaryOp::Add, &lhs, &rhs).expect("batch")))
    });
    g.finish();

    // The same additions on multi-bit keys (`ConfigBuilder::use_multi_bit_pbs`).
    let (ck, sk) = gpufhe::generate_keys(ConfigBuilder::default().use_multi_bit_pbs());
    set_server_key(sk.clone());
    let a = FheUint64::encrypt(0x0123_4567_89ab_cdefu64, &ck);
    let b = FheUint64::encrypt(0xfedc_ba98_7654_3210u64, &ck);
    let a8 = FheUint8::encrypt(200u8, &ck);
    let b8 = FheUint8::encrypt(99u8, &ck);
    let mut g = c.benchmark_group("cpu/multi_bit");
    g.sample_size(10);
    let ops: Vec<Op> = vec![
        ("fheuint8/add", Box::new(|| drop(black_box(&a8 + &b8)))),
        ("fheuint64/add", Box::new(|| drop(black_box(&a + &b)))),
    ];
    for (name, f) in &ops {
        report(&sk, name, f);
        g.bench_function(*name, |bench| bench.iter(f));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
