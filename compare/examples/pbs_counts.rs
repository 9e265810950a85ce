//! Bootstraps per operation, gpufhe against TFHE-rs (its `pbs-stats` counter), on
//! each library's default CPU parameters (both 2 message + 2 carry bits, so both
//! work on 32 blocks for 64 bits). Counts, not times: they do not depend on the
//! machine, only on the algorithms (and, for gpufhe, on the thread count, which
//! picks work-efficient or low-latency carries; run with RAYON_NUM_THREADS=2).
//!
//! A second table counts the bootstraps of one confidential transfer
//! (`examples/support/transfers.rs`: TFHE-rs's benchmarked variants, and the older
//! whitepaper form with two selects): tfhe and gpufhe running the transfer alone,
//! and gpufhe through `ServerKey::run_batch` of 4 transfers (per transfer). Every
//! new balance is decrypted and checked.
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo run --release --example pbs_counts

#[path = "support/transfers.rs"]
mod transfers;

use gpufhe::prelude::{
    FheDecrypt as _, FheEncrypt as _, FheEq as _, FheMax as _, FheOrd as _, OverflowingAdd as _,
    OverflowingMul as _,
};
use tfhe::prelude::*;

fn main() {
    // TFHE-rs.
    let (tck, tsk) = tfhe::generate_keys(tfhe::ConfigBuilder::default());
    // gpufhe.
    let (gck, gsk) = gpufhe::generate_keys(gpufhe::ConfigBuilder::default());
    // The transfers run half their work under `rayon::join`: every rayon thread
    // needs the keys.
    rayon::broadcast(|_| {
        tfhe::set_server_key(tsk.clone());
        gpufhe::set_server_key(gsk.clone());
    });
    tfhe::set_server_key(tsk);
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
    row("x / y (signed)", &|| drop(&tx / &ty), &|| drop(&gx / &gy));
    row(
        "x.overflowing_add(y) (signed)",
        &|| drop((&tx).overflowing_add(&ty)),
        &|| drop((&gx).overflowing_add(&gy)),
    );

    // TFHE-rs's PBS-statistics guide: a 32-bit product and a 32-bit `&`.
    let (c, d) = (0x1234_5678u32, 0x0fed_cba9u32);
    let (tc32, td32) = (
        tfhe::FheUint32::encrypt(c, &tck),
        tfhe::FheUint32::encrypt(d, &tck),
    );
    let (gc32, gd32) = (
        gpufhe::FheUint32::encrypt(c, &gck),
        gpufhe::FheUint32::encrypt(d, &gck),
    );
    println!();
    println!("| FheUint32 operation | TFHE-rs 1.8.2 | gpufhe |");
    println!("|---|---|---|");
    row("&a * &b", &|| drop(&tc32 * &td32), &|| drop(&gc32 * &gd32));
    row("&a & &b", &|| drop(&tc32 & &td32), &|| drop(&gc32 & &gd32));
    let (tq, tr) = (&ta).div_rem(&tb);
    let (gq, gr) = ga.div_rem(&gb);
    let t: (u64, u64) = (tq.decrypt(&tck), tr.decrypt(&tck));
    let g: (u64, u64) = (gq.decrypt(&gck), gr.decrypt(&gck));
    assert_eq!(t, (a / b, a % b));
    assert_eq!(g, t);

    transfer_counts(&tck, &gck, &gsk);
}

/// The table of bootstraps per transfer; checks every new balance.
fn transfer_counts(tck: &tfhe::ClientKey, gck: &gpufhe::ClientKey, gsk: &gpufhe::ServerKey) {
    use transfers::{clear_transfer, clear_transfers, gpufhe_side, tfhe_side, Variant};
    const BATCH: usize = 4;
    let clear = clear_transfers(BATCH);
    let tenc: Vec<[tfhe::FheUint64; 3]> = clear
        .iter()
        .map(|&(f, t, a)| [f, t, a].map(|v| tfhe::FheUint64::encrypt(v, tck)))
        .collect();
    let genc: Vec<[gpufhe::FheUint64; 3]> = clear
        .iter()
        .map(|&(f, t, a)| [f, t, a].map(|v| gpufhe::FheUint64::encrypt(v, gck)))
        .collect();
    let tfhe_balances = |(f, t): (tfhe::FheUint64, tfhe::FheUint64)| -> (u64, u64) {
        (f.decrypt(tck), t.decrypt(tck))
    };
    let gpufhe_balances = |(f, t): (gpufhe::FheUint64, gpufhe::FheUint64)| -> (u64, u64) {
        (f.decrypt(gck), t.decrypt(gck))
    };

    println!();
    println!(
        "| FheUint64 transfer | TFHE-rs 1.8.2 | gpufhe | gpufhe, run_batch of {BATCH} (per transfer) |"
    );
    println!("|---|---|---|---|");
    for variant in Variant::ALL {
        // One transfer alone (the first: the sender has the funds).
        let [from, to, amount] = &tenc[0];
        tfhe::reset_pbs_count();
        let t = tfhe_side::transfer_par(variant, from, to, amount);
        let tc = tfhe::get_pbs_count();
        let [from, to, amount] = &genc[0];
        let before = gsk.pbs_count();
        let g = gpufhe_side::transfer_par(variant, from, to, amount);
        let gc = gsk.pbs_count() - before;
        let (f, to, a) = clear[0];
        let want = clear_transfer(f, to, a);
        assert_eq!(tfhe_balances(t), want, "tfhe {}", variant.name());
        assert_eq!(gpufhe_balances(g), want, "gpufhe {}", variant.name());

        // The whole batch through gpufhe's batch API.
        let before = gsk.pbs_count();
        let out = gsk
            .run_batch(&genc, |[from, to, amount]| {
                gpufhe_side::transfer(variant, from, to, amount)
            })
            .expect("the batch of transfers");
        let bc = gsk.pbs_count() - before;
        for (balances, &(f, t, a)) in out.into_iter().zip(&clear) {
            assert_eq!(
                gpufhe_balances(balances),
                clear_transfer(f, t, a),
                "gpufhe run_batch {}",
                variant.name()
            );
        }
        println!(
            "| {} | {tc} | {gc} | {} |",
            variant.name(),
            bc as f64 / BATCH as f64
        );
    }
}
