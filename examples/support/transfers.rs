//! A confidential transfer written two ways (TFHE-rs's benchmark variants), shared
//! by `examples/confidential_transfers.rs` and `benches/transfer.rs`.
#![allow(dead_code)]

use gpufhe::prelude::*;
use gpufhe::FheUint64;

/// How a transfer is written.
#[derive(Debug, Clone, Copy)]
pub enum Variant {
    /// Two selects on `from >= amount`.
    Whitepaper,
    /// The amount multiplied by `from >= amount` cast to 0 or 1.
    NoCmux,
}

impl Variant {
    /// Both, in the order they are reported.
    pub const ALL: [Variant; 2] = [Variant::Whitepaper, Variant::NoCmux];

    /// Its name in reports and benchmark ids.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Whitepaper => "whitepaper",
            Variant::NoCmux => "no_cmux",
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
            Variant::Whitepaper => (
                ok.select(&(from - amount), from),
                ok.select(&(to + amount), to),
            ),
            Variant::NoCmux => {
                let sent = amount * &FheUint64::cast_from(ok);
                (from - &sent, to + &sent)
            }
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
