//! Bootstraps per operation, gpufhe against TFHE-rs (its `pbs-stats` counter), on
//! each library's default CPU parameters (both 2 message + 2 carry bits, so both
//! work on 32 blocks for 64 bits). Counts, not times: they do not depend on the
//! machine, only on the algorithms (and, for gpufhe, on the thread count, which
//! picks work-efficient or low-latency carries; run with RAYON_NUM_THREADS=2).
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo run --release --example pbs_counts

use gpufhe::prelude::{
    FheDecrypt as _, FheEncrypt as _, FheEq as _, FheMax as _, FheOrd as _, OverflowingMul as _,
};
use tfhe::prelude::*;

fn main() {
    // TFHE-rs.
    let (tck, tsk) = tfhe::generate_keys(tfhe::ConfigBuilder::default());
    tfhe::set_server_key(tsk);
    // gpufhe.
    let (gck, gsk) = gpufhe::generate_keys(gpufhe::ConfigBuilder::default());
    gpufhe::set_server_key(gsk.clone());

    let (a, b) = (0xfedc_ba98_7654_3210u64, 0x0000_0001_2345_6789u64);
    let (ta, tb) = (
        tfhe::FheUint64::encrypt(a, &tck),
        tfhe::FheUint64::encrypt(b, &tck),
    );
    let (ga, gb) = (
        gpufhe::FheUint64::encrypt(a, &gck),
        gpufhe::FheUint64::encrypt(b, &gck),
    );
    let (sx, sy) = (-1234i64, 567i64);
    let (tx, ty) = (
        tfhe::FheInt64::encrypt(sx, &tck),
        tfhe::FheInt64::encrypt(sy, &tck),
    );
    let (gx, gy) = (
        gpufhe::FheInt64::encrypt(sx, &gck),
        gpufhe::FheInt64::encrypt(sy, &gck),
    );

    println!("| FheUint64 / FheInt64 operation | TFHE-rs 1.8.2 | gpufhe |");
    println!("|---|---|---|");
    let row = |what: &str, t: &dyn Fn(), g: &dyn Fn()| {
        tfhe::reset_pbs_count();
        t();
        let tc = tfhe::get_pbs_count();
        let before = gsk.pbs_count();
        g();
        let gc = gsk.pbs_count() - before;
        println!("| {what} | {tc} | {gc} |");
    };
    row("a + b", &|| drop(&ta + &tb), &|| drop(&ga + &gb));
    row("a * b", &|| drop(&ta * &tb), &|| drop(&ga * &gb));
    row("a == b", &|| drop(ta.eq(&tb)), &|| drop(ga.eq(&gb)));
    row("a < b", &|| drop(ta.lt(&tb)), &|| drop(ga.lt(&gb)));
    row("a.max(b)", &|| drop(ta.max(&tb)), &|| drop(ga.max(&gb)));
    row("a << b", &|| drop(&ta << &tb), &|| drop(&ga << &gb));
    row("a.div_rem(b)", &|| drop((&ta).div_rem(&tb)), &|| {
        drop(ga.div_rem(&gb))
    });
    row("a / 10", &|| drop(&ta / 10u64), &|| drop(&ga / 10u64));
    row("a.count_ones()", &|| drop(ta.count_ones()), &|| {
        drop(ga.count_ones())
    });
    row("a.leading_zeros()", &|| drop(ta.leading_zeros()), &|| {
        drop(ga.leading_zeros())
    });
    row("a.ilog2()", &|| drop(ta.ilog2()), &|| drop(ga.ilog2()));
    row(
        "a.overflowing_mul(b)",
        &|| drop((&ta).overflowing_mul(&tb)),
        &|| drop((&ga).overflowing_mul(&gb)),
    );
    row("a.is_even()", &|| drop(ta.is_even()), &|| {
        drop(ga.is_even())
    });
    row(
        "oblivious random",
        &|| {
            drop(tfhe::FheUint64::generate_oblivious_pseudo_random(
                tfhe::Seed(1),
            ))
        },
        &|| {
            drop(gpufhe::FheUint64::generate_oblivious_pseudo_random(
                gpufhe::Seed(1),
            ))
        },
    );
    row("x < y (signed)", &|| drop(tx.lt(&ty)), &|| drop(gx.lt(&gy)));
    row("x.abs()", &|| drop(tx.abs()), &|| drop(gx.abs()));
    row("x >> 5 (signed)", &|| drop(&tx >> 5u32), &|| {
        drop(&gx >> 5u32)
    });
    let (tq, tr) = (&ta).div_rem(&tb);
    let (gq, gr) = ga.div_rem(&gb);
    let t: (u64, u64) = (tq.decrypt(&tck), tr.decrypt(&tck));
    let g: (u64, u64) = (gq.decrypt(&gck), gr.decrypt(&gck));
    assert_eq!(t, (a / b, a % b));
    assert_eq!(g, t);
}
