//! Encrypted integers as radix ciphertexts: little-endian lists of blocks, each
//! holding one base-`message_modulus` digit.
//!
//! Every algorithm is a function that builds its part of a [`Circuit`] from the wires
//! of its operands, so it is written once and runs on every
//! [`crate::backend::Backend`]; [`run`] builds and executes a circuit in one call.
//! Operands and results are *clean*: every block holds a digit (degree below the
//! message modulus) with noise level at most 1.

mod add;
pub mod bigint;
mod bit_count;
mod bitwise;
mod carry;
mod checked;
pub mod ciphertext;
mod circuit;
mod comparison;
mod div;
mod execute;
mod fused;
mod mul;
pub mod noise_squashing;
mod operation;
mod oprf;
mod ordering;
mod radix;
mod select;
mod server_key;
mod shift;
mod signed;
mod signed_checked;
mod signed_div;
mod sum;

pub use crate::shortint::seed_block_info;
pub use add::{
    add, clear_sub, neg, overflowing_add, overflowing_scalar_add, overflowing_scalar_sub,
    overflowing_sub, scalar_add, scalar_sub, sub,
};
pub use bigint::{I1024, I2048, I256, I512, U1024, U2048, U256, U512};
pub use bit_count::{count_bits, ilog2, reverse_bits, CountOp};
pub use bitwise::{bitnot, bitwise, scalar_bitwise, BitOp};
pub use checked::{overflowing, overflowing_mul, overflowing_scalar_mul};
pub use ciphertext::{
    BooleanBlock, IntegerCiphertext, IntegerRadixCiphertext, RadixCiphertext, SignedRadixCiphertext,
};
pub use circuit::{Circuit, CircuitStats, Wire};
pub use comparison::{contains, eq, ne};
pub use div::{div_rem, scalar_div_rem};
pub(crate) use execute::held_blocks;
pub use execute::{execute, execute_observed, run};
pub use fused::{fused_mul_scalar_div, signed_fused_mul_scalar_div};
pub use mul::{mul, scalar_mul, sum};
pub use operation::{binary, comparison, to_boolean, BinaryOp, Rhs};
pub use oprf::{oblivious_random, oblivious_random_below, random_bits_for_distance};
pub use ordering::{compare, max, min, scalar_compare, scalar_max, scalar_min, CmpOp};
pub use select::select;
pub use server_key::{ClientKey, CompressedServerKey, ServerKey};
pub use shift::{shift, shift_encrypted, ShiftOp};
pub(crate) use signed::sign_extend_wide;
pub use signed::{
    abs, arithmetic_shr, arithmetic_shr_encrypted, sign_bit, sign_block, sign_extend,
    signed_binary, signed_compare, signed_comparison, signed_scalar_compare,
};
pub use signed_checked::{
    signed_ilog2, signed_overflowing, signed_overflowing_add, signed_overflowing_mul,
    signed_overflowing_sub,
};
pub use signed_div::{signed_div_rem, signed_scalar_div_rem};

pub use radix::*;

// The tests read the module's names and this one through `use super::*`.
#[cfg(test)]
use crate::error::Result;

#[cfg(test)]
pub(crate) mod tests;
