//! Multi-bit bootstrapping (grouping factor 4) of gpufhe and tfhe side by side on the
//! same parameter values (gpufhe's `use_multi_bit_pbs`, TFHE-rs'
//! `PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`), same machine,
//! one run: `compare/multi_bit/ks_pbs/{gpufhe,tfhe}` (one keyswitch + bootstrap) and
//! `compare/multi_bit/fheuint{8,64}/add/{gpufhe,tfhe}`, with the classical
//! `compare/classical/fheuint64/add/{gpufhe,tfhe}` for reference.
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo bench --bench multi_bit
//!
//! Every result is decrypted and checked once before timing.

use criterion::{criterion_group, criterion_main, Criterion};
use gpufhe::prelude::*;
use std::hint::black_box;
use tfhe::prelude::{FheDecrypt as _, FheEncrypt as _};
use tfhe::shortint::parameters::current_params::V1_8_PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as TFHE_MULTI_BIT;

const A: u64 = 0x0123_4567_89ab_cdef;
const B: u64 = 0xfedc_ba98_7654_3210;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("compare");
    g.sample_size(10);

    // One keyswitch + bootstrap, shortint level.
    let p = gpufhe::shortint::PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    let ck = gpufhe::shortint::ClientKey::new(p).unwrap();
    let sk = gpufhe::shortint::ServerKey::new(&ck).unwrap();
    let lut = sk.generate_lookup_table(|x| (x * x) % 16).unwrap();
    let ct = ck.encrypt(3).unwrap();
    let out = sk.apply_lookup_table(&ct, &lut).unwrap();
    assert_eq!(ck.decrypt_message_and_carry(&out).unwrap(), 9);
    g.bench_function("multi_bit/ks_pbs/gpufhe", |b| {
        b.iter(|| sk.apply_lookup_table(black_box(&ct), &lut).unwrap())
    });
    let (tck, tsk) = tfhe::shortint::gen_keys(TFHE_MULTI_BIT);
    let tlut = tsk.generate_lookup_table(|x| (x * x) % 16);
    let tct = tck.encrypt(3);
    assert_eq!(
        tck.decrypt_message_and_carry(&tsk.apply_lookup_table(&tct, &tlut)),
        9
    );
    g.bench_function("multi_bit/ks_pbs/tfhe", |b| {
        b.iter(|| tsk.apply_lookup_table(black_box(&tct), &tlut))
    });

    // Integer additions through the high-level API.
    for multi_bit in [true, false] {
        let gconfig = gpufhe::ConfigBuilder::default();
        let gconfig = if multi_bit {
            gconfig.use_multi_bit_pbs()
        } else {
            gconfig
        };
        let (gck, gsk) = gpufhe::generate_keys(gconfig);
        gpufhe::set_server_key(gsk);
        let tconfig = tfhe::ConfigBuilder::default();
        let tconfig = if multi_bit {
            tconfig.use_custom_parameters(TFHE_MULTI_BIT)
        } else {
            tconfig
        };
        let (tck, tsk) = tfhe::generate_keys(tconfig.build());
        tfhe::set_server_key(tsk);
        let (ga, gb) = (
            gpufhe::FheUint64::encrypt(A, &gck),
            gpufhe::FheUint64::encrypt(B, &gck),
        );
        let (ta, tb) = (
            tfhe::FheUint64::encrypt(A, &tck),
            tfhe::FheUint64::encrypt(B, &tck),
        );
        let (ga8, gb8) = (
            gpufhe::FheUint8::encrypt(200u8, &gck),
            gpufhe::FheUint8::encrypt(99u8, &gck),
        );
        let (ta8, tb8) = (
            tfhe::FheUint8::encrypt(200u8, &tck),
            tfhe::FheUint8::encrypt(99u8, &tck),
        );
        let g64: u64 = (&ga + &gb).decrypt(&gck);
        let t64: u64 = (&ta + &tb).decrypt(&tck);
        assert_eq!((g64, t64), (A.wrapping_add(B), A.wrapping_add(B)));
        let g8: u8 = (&ga8 + &gb8).decrypt(&gck);
        let t8: u8 = (&ta8 + &tb8).decrypt(&tck);
        assert_eq!((g8, t8), (43, 43));
        let kind = if multi_bit { "multi_bit" } else { "classical" };
        if multi_bit {
            g.bench_function(format!("{kind}/fheuint8/add/gpufhe"), |b| {
                b.iter(|| black_box(&ga8 + &gb8))
            });
            g.bench_function(format!("{kind}/fheuint8/add/tfhe"), |b| {
                b.iter(|| black_box(&ta8 + &tb8))
            });
        }
        g.bench_function(format!("{kind}/fheuint64/add/gpufhe"), |b| {
            b.iter(|| black_box(&ga + &gb))
        });
        g.bench_function(format!("{kind}/fheuint64/add/tfhe"), |b| {
            b.iter(|| black_box(&ta + &tb))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
