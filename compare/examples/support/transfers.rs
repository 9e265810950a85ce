//! Confidential token transfers as TFHE-rs's ERC-7984 (formerly ERC-20) benchmark
//! defines them, written once for each library: shared by `benches/transfer.rs` and
//! `examples/pbs_counts.rs`.
//!
//! A transfer moves `amount` from one `FheUint64` balance to another when the sender
//! has it, and leaves both alone otherwise. Both variants first compute
//! `ok = from >= amount`, then what is actually sent, then `from - sent` and
//! `to + sent`:
//!
//! - **whitepaper**: `sent = ok ? amount : 0`, one conditional on the amount (since
//!   TFHE-rs 1.5, after the litepaper; TFHE-rs's CPU code uses `if_then_zero`, its
//!   GPU code `select` against a trivial zero; gpufhe has no `if_then_zero` and
//!   selects against a trivial zero, which its select turns into one table a block);
//! - **no_cmux**: `sent = amount * (ok as FheUint64)`, a product by a 0/1 value.
//!
//! `two_selects` is the whitepaper variant before TFHE-rs 1.5 (and that of the
//! crate's `examples/confidential_transfers.rs`): `ok ? from - amount : from` and
//! `ok ? to + amount : to`. The bootstrap counts include it; the bench does not.
//!
//! TFHE-rs's CPU benchmark runs the last two operations with `rayon::join`; the
//! `*_par` functions do the same. gpufhe's batch records the operations of one
//! thread, so what goes through `ServerKey::run_batch` is the sequential form.
#![allow(dead_code)]

use rayon::join;

/// How a transfer is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// `sent = ok ? amount : 0`.
    Whitepaper,
    /// `sent = amount * (ok as FheUint64)`.
    NoCmux,
    /// Two selects on the new balances (TFHE-rs's whitepaper before 1.5).
    TwoSelects,
}

impl Variant {
    /// The variants TFHE-rs benchmarks, in the order they are reported.
    pub const BENCHED: [Variant; 2] = [Variant::Whitepaper, Variant::NoCmux];
    /// Every variant.
    pub const ALL: [Variant; 3] = [Variant::Whitepaper, Variant::NoCmux, Variant::TwoSelects];

    /// Its name in reports and benchmark ids.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Whitepaper => "whitepaper",
            Variant::NoCmux => "no_cmux",
            Variant::TwoSelects => "two_selects",
        }
    }
}

/// The clear transfer: the new balances of `from` and `to` (`to` wraps, as a
/// `FheUint64` does).
pub fn clear_transfer(from: u64, to: u64, amount: u64) -> (u64, u64) {
    if from >= amount {
        (from - amount, to.wrapping_add(amount))
    } else {
        (from, to)
    }
}

/// `n` transfers `(from, to, amount)` of full 64-bit values (as TFHE-rs's benchmark
/// draws them); the even ones have the funds, the odd ones lack them.
pub fn clear_transfers(n: usize) -> Vec<(u64, u64, u64)> {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        s ^ (s >> 29)
    };
    (0..n)
        .map(|i| {
            let (x, y, to) = (next(), next(), next());
            let (low, high) = (x.min(y), x.max(y));
            if i % 2 == 0 {
                (high, to, low)
            } else {
                (low & !1, to, high | 1)
            }
        })
        .collect()
}

/// gpufhe's transfers.
pub mod gpufhe_side {
    use super::Variant;
    use gpufhe::prelude::*;
    use gpufhe::{FheBool, FheUint64};

    /// What is sent when the sender has it (`ok`); `None` for
    /// [`Variant::TwoSelects`], which does not compute it.
    fn sent(variant: Variant, ok: FheBool, amount: &FheUint64) -> Option<FheUint64> {
        match variant {
            Variant::Whitepaper => Some(ok.select(amount, &FheUint64::encrypt_trivial(0u64))),
            Variant::NoCmux => Some(amount * &FheUint64::cast_from(ok)),
            Variant::TwoSelects => None,
        }
    }

    /// The new balances, one operation after the other (the form for
    /// `ServerKey::run_batch`).
    pub fn transfer(
        variant: Variant,
        from: &FheUint64,
        to: &FheUint64,
        amount: &FheUint64,
    ) -> (FheUint64, FheUint64) {
        let ok = from.ge(amount);
        if let Some(sent) = sent(variant, ok.clone(), amount) {
            return (from - &sent, to + &sent);
        }
        (
            ok.select(&(from - amount), from),
            ok.select(&(to + amount), to),
        )
    }

    /// The new balances, the last two operations side by side under `rayon::join`
    /// (TFHE-rs's CPU form); the rayon threads need the server key.
    pub fn transfer_par(
        variant: Variant,
        from: &FheUint64,
        to: &FheUint64,
        amount: &FheUint64,
    ) -> (FheUint64, FheUint64) {
        let ok = from.ge(amount);
        if let Some(sent) = sent(variant, ok.clone(), amount) {
            return super::join(|| from - &sent, || to + &sent);
        }
        super::join(
            || ok.select(&(from - amount), from),
            || ok.select(&(to + amount), to),
        )
    }
}

/// TFHE-rs's transfers.
pub mod tfhe_side {
    use super::Variant;
    use tfhe::prelude::*;
    use tfhe::FheUint64;

    /// The new balances, the last two operations side by side under `rayon::join`
    /// (TFHE-rs's CPU form); the rayon threads need the server key.
    pub fn transfer_par(
        variant: Variant,
        from: &FheUint64,
        to: &FheUint64,
        amount: &FheUint64,
    ) -> (FheUint64, FheUint64) {
        let ok = from.ge(amount);
        let sent = match variant {
            Variant::Whitepaper => ok.if_then_zero(amount),
            Variant::NoCmux => amount * FheUint64::cast_from(ok),
            Variant::TwoSelects => {
                return super::join(
                    || ok.select(&(from - amount), from),
                    || ok.select(&(to + amount), to),
                )
            }
        };
        super::join(|| from - &sent, || to + &sent)
    }
}
