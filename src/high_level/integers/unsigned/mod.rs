//! Encrypted unsigned integers, [`FheUint<Id>`](base::FheUint): the type, its
//! clear types, encryption and decryption ([`base`]), its widths ([`static_`]), and
//! its operations by subject: [`ops`] (arithmetic, bitwise, comparisons, sums),
//! [`scalar_ops`] (clears on the left), [`overflowing_ops`], [`bits`],
//! [`division`], [`compressed`] values and oblivious random values ([`oprf`]).

pub(crate) mod base;
pub(crate) mod bits;
pub(crate) mod compressed;
pub(crate) mod division;
pub(crate) mod oprf;
pub(crate) mod ops;
pub(crate) mod overflowing_ops;
pub(crate) mod scalar_ops;
pub(crate) mod static_;
