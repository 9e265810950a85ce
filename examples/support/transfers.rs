//! A confidential transfer written two ways (TFHE-rs's benchmark variants), shared
//! by `examples/confidential_transfers.rs` and `benches/transfer.rs`.
#![allow(dead_code)]

use gpufhe::prelude::*;
use gpufhe::FheUint64;

/// How a transfer is written.
#[derive(Debug, Clone, Copy)]
pub enum Variant {
    /// TFHE-rs's whitepaper transfer: the amount sent is `amount` if `from >= amount`
    /// and 0 otherwise (one select against zero), then subtracted and added.
    Whitepaper,
    /// The amount multiplied by `from >= amount` cast to 0 or 1.
    NoCmux,
    /// The older whitepaper form: both new balances selected on `from >= amount`.
    TwoSelects,
}

impl Variant {
    /// Every variant, in the order they are reported.
    pub const ALL: [Variant; 3] = [Variant::Whitepaper, Variant::NoCmux, Variant::TwoSelects];

    /// Its name in reports and benchmark ids.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Whitepaper => "whitepaper",
            Variant::NoCmux => "no_cmux",
            Variant::TwoSelects => "two_selects",
        }
    }

    /// The new balances of `from` and `to` after sending `amount`, if `from` has it.
    pub fn transfer(
        self,
        from: &FheUint64,
        to: &FheUint64,
        amount: &FheUint64,
    ) -> (FheUint64, FheUint64) {
        let ok = from.ge(amount);
        match self {
            Variant::Whitepaper => {
                let sent = ok.if_then_zero(amount);
                (from - &sent, to + &sent)
            }
            Variant::NoCmux => {
                let sent = amount * &FheUint64::cast_from(ok);
                (from - &sent, to + &sent)
            }
            Variant::TwoSelects => (
                ok.select(&(from - amount), from),
                ok.select(&(to + amount), to),
            ),
        }
    }
}

/// The clear transfer: the new balances of `from` and `to`.
pub fn clear_transfer(from: u64, to: u64, amount: u64) -> (u64, u64) {
    if from >= amount {
        (from - amount, to.wrapping_add(amount))
    } else {
        (from, to)
    }
}
