//! Re-randomization of gpufhe and tfhe side by side on TFHE-rs 1.8's default
//! parameters with `DerivedCPKWithoutKeySwitch`, same machine, same thread count,
//! in one run:
//! - `compare/rerand/fheuint64_x1000/{gpufhe,tfhe}`: a context over 1,000
//!   `FheUint64` (hashing their 32,000 blocks), then each value re-randomized with
//!   its seed, the values spread over the threads;
//! - `compare/rerand/fheuint64_x1/{gpufhe,tfhe}`: the same for one value.
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo bench --bench rerand
//!
//! Each library's re-randomized values are decrypted once before timing.

use criterion::{criterion_group, criterion_main, Criterion};
use gpufhe::prelude::{FheDecrypt as _, FheEncrypt as _, ReRandomize as _};
use rayon::prelude::*;
use tfhe::prelude::{FheDecrypt as _, FheEncrypt as _, ReRandomize as _};

const COUNT: usize = 1000;
const DESCRIPTION: &[u8] = b"bench: FheUint64 inputs";

/// `$name(values)`: a context over `values` in `$lib`, then each value
/// re-randomized with its seed, the values spread over the threads (the same code
/// for both libraries, whose APIs are the same).
macro_rules! rerand_fn {
    ($name:ident, $lib:ident) => {
        fn $name(values: &mut [$lib::FheUint64]) {
            let mut ctx =
                $lib::ReRandomizationContext::new(*b"TFHE_Rrd", [DESCRIPTION], *b"TFHE_Enc");
            for v in values.iter() {
                ctx.add_ciphertext(v);
            }
            let mut gen = ctx.finalize();
            let seeds: Vec<_> = (0..values.len())
                .map(|_| gen.next_seed().unwrap())
                .collect();
            values
                .par_iter_mut()
                .zip(seeds.into_par_iter())
                .for_each(|(v, seed)| {
                    v.re_randomize($lib::ReRandomizationMode::default(), seed)
                        .unwrap()
                });
        }
    };
}

rerand_fn!(gpufhe_rerand, gpufhe);
rerand_fn!(tfhe_rerand, tfhe);

fn bench(c: &mut Criterion) {
    let gconfig = gpufhe::ConfigBuilder::default().enable_ciphertext_re_randomization(
        gpufhe::shortint::parameters::ReRandomizationParameters::DerivedCPKWithoutKeySwitch,
    );
    let (gck, gsk) = gpufhe::generate_keys(gconfig);
    rayon::broadcast(|_| gpufhe::set_server_key(gsk.clone()));
    gpufhe::set_server_key(gsk);
    let mut gx: Vec<_> = (0..COUNT as u64)
        .into_par_iter()
        .map(|i| gpufhe::FheUint64::encrypt(i * 0x0123_4567, &gck))
        .collect();
    gpufhe_rerand(&mut gx);
    let clear: u64 = gx[999].decrypt(&gck);
    assert_eq!(clear, 999 * 0x0123_4567);

    let tconfig = tfhe::ConfigBuilder::default()
        .enable_ciphertext_re_randomization(
            tfhe::shortint::parameters::ReRandomizationParameters::DerivedCPKWithoutKeySwitch,
        )
        .build();
    let (tck, tsk) = tfhe::generate_keys(tconfig);
    rayon::broadcast(|_| tfhe::set_server_key(tsk.clone()));
    tfhe::set_server_key(tsk);
    let mut tx: Vec<_> = (0..COUNT as u64)
        .into_par_iter()
        .map(|i| tfhe::FheUint64::encrypt(i * 0x0123_4567, &tck))
        .collect();
    tfhe_rerand(&mut tx);
    let clear: u64 = tx[999].decrypt(&tck);
    assert_eq!(clear, 999 * 0x0123_4567);

    let mut g = c.benchmark_group("compare/rerand");
    g.sample_size(10);
    g.bench_function("fheuint64_x1/gpufhe", |b| {
        b.iter(|| gpufhe_rerand(&mut gx[..1]))
    });
    g.bench_function("fheuint64_x1/tfhe", |b| {
        b.iter(|| tfhe_rerand(&mut tx[..1]))
    });
    g.bench_function("fheuint64_x1000/gpufhe", |b| {
        b.iter(|| gpufhe_rerand(&mut gx))
    });
    g.bench_function("fheuint64_x1000/tfhe", |b| b.iter(|| tfhe_rerand(&mut tx)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
