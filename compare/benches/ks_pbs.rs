//! Single-threaded keyswitch + bootstrap through a lookup table, gpufhe and tfhe
//! side by side on their default parameters (the same parameter values), in one run.
//! Run with `RAYON_NUM_THREADS=1` so that tfhe uses one thread too.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("compare");
    group.sample_size(60);

    let ck = gpufhe::shortint::ClientKey::new(gpufhe::shortint::DEFAULT_PARAMETERS).unwrap();
    let sk = gpufhe::shortint::ServerKey::new(&ck).unwrap();
    let lut = sk.generate_lookup_table(|x| (x * x) % 16).unwrap();
    let ct = ck.encrypt(3).unwrap();
    assert_eq!(
        ck.decrypt_message_and_carry(&sk.apply_lookup_table(&ct, &lut).unwrap())
            .unwrap(),
        9
    );
    group.bench_function("gpufhe/ks_pbs", |b| {
        b.iter(|| sk.apply_lookup_table(black_box(&ct), &lut).unwrap())
    });

    let (tck, tsk) =
        tfhe::shortint::gen_keys(tfhe::shortint::parameters::PARAM_MESSAGE_2_CARRY_2_KS_PBS);
    let tlut = tsk.generate_lookup_table(|x| (x * x) % 16);
    let tct = tck.encrypt(3);
    assert_eq!(
        tck.decrypt_message_and_carry(&tsk.apply_lookup_table(&tct, &tlut)),
        9
    );
    group.bench_function("tfhe/ks_pbs", |b| {
        b.iter(|| tsk.apply_lookup_table(black_box(&tct), &tlut))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
