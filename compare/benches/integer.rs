//! Integer operations of gpufhe and tfhe side by side on their default parameters
//! (the same parameter values), same machine, same thread count, in one run:
//! `compare/<op>/gpufhe` next to `compare/<op>/tfhe` for FheUint64 add, sub, mul,
//! eq, lt, bitand, shl (encrypted amount), scalar add, and FheUint8 add.
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo bench --bench integer
//!
//! Both libraries use the rayon pool, so `RAYON_NUM_THREADS` sets the thread count of
//! both. Every result is decrypted and checked once before timing.

use criterion::{criterion_group, criterion_main, Criterion};
use gpufhe::prelude::*;
use std::hint::black_box;
use tfhe::prelude::{FheDecrypt as _, FheEncrypt as _, FheEq as _, FheOrd as _};

const A: u64 = 0x0123_4567_89ab_cdef;
const B: u64 = 0xfedc_ba98_7654_3210;
const SHIFT: u64 = 13;

fn bench(c: &mut Criterion) {
    let (gck, gsk) = gpufhe::generate_keys(gpufhe::ConfigBuilder::default());
    gpufhe::set_server_key(gsk);
    let (tck, tsk) = tfhe::generate_keys(tfhe::ConfigBuilder::default().build());
    tfhe::set_server_key(tsk);

    let (ga, gb, gs) = (
        gpufhe::FheUint64::encrypt(A, &gck),
        gpufhe::FheUint64::encrypt(B, &gck),
        gpufhe::FheUint64::encrypt(SHIFT, &gck),
    );
    let (ta, tb, ts) = (
        tfhe::FheUint64::encrypt(A, &tck),
        tfhe::FheUint64::encrypt(B, &tck),
        tfhe::FheUint64::encrypt(SHIFT, &tck),
    );
    let (ga8, gb8) = (
        gpufhe::FheUint8::encrypt(200u8, &gck),
        gpufhe::FheUint8::encrypt(99u8, &gck),
    );
    let (ta8, tb8) = (
        tfhe::FheUint8::encrypt(200u8, &tck),
        tfhe::FheUint8::encrypt(99u8, &tck),
    );

    // Correctness of both sides before timing.
    let check = |what: &str, g: u64, t: u64, want: u64| {
        assert_eq!(g, want, "gpufhe {what}");
        assert_eq!(t, want, "tfhe {what}");
    };
    let gd = |x: gpufhe::FheUint64| -> u64 { x.decrypt(&gck) };
    let td = |x: tfhe::FheUint64| -> u64 { x.decrypt(&tck) };
    check("add", gd(&ga + &gb), td(&ta + &tb), A.wrapping_add(B));
    check("mul", gd(&ga * &gb), td(&ta * &tb), A.wrapping_mul(B));
    check("shl", gd(&ga << &gs), td(&ta << &ts), A << SHIFT);
    let glt: bool = ga.lt(&gb).decrypt(&gck);
    let tlt: bool = ta.lt(&tb).decrypt(&tck);
    assert!(glt && tlt);

    let mut g = c.benchmark_group("compare");
    g.sample_size(10);
    macro_rules! side_by_side {
        ($name:literal, $gpufhe:expr, $tfhe:expr) => {
            g.bench_function(concat!($name, "/gpufhe"), |b| b.iter(|| black_box($gpufhe)));
            g.bench_function(concat!($name, "/tfhe"), |b| b.iter(|| black_box($tfhe)));
        };
    }
    side_by_side!("fheuint8/add", &ga8 + &gb8, &ta8 + &tb8);
    side_by_side!("fheuint64/add", &ga + &gb, &ta + &tb);
    side_by_side!("fheuint64/sub", &ga - &gb, &ta - &tb);
    side_by_side!(
        "fheuint64/scalar_add",
        &ga + 0x1234_5678u64,
        &ta + 0x1234_5678u64
    );
    side_by_side!("fheuint64/bitand", &ga & &gb, &ta & &tb);
    side_by_side!("fheuint64/eq", ga.eq(&gb), ta.eq(&tb));
    side_by_side!("fheuint64/lt", ga.lt(&gb), ta.lt(&tb));
    side_by_side!("fheuint64/shl", &ga << &gs, &ta << &ts);
    side_by_side!("fheuint64/mul", &ga * &gb, &ta * &tb);
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
