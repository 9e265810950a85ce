//! Encrypted signed integers, [`FheInt<Id>`](base::FheInt), in two's complement
//! over the blocks of the unsigned type of the same width: the type, encryption and
//! decryption ([`base`]), its widths ([`static_`]), its operations ([`ops`]:
//! arithmetic, comparisons, bits, overflow; [`division`]), [`compressed`] values and
//! oblivious random values ([`oprf`]).

pub(crate) mod base;
pub(crate) mod compressed;
pub(crate) mod division;
pub(crate) mod oprf;
pub(crate) mod ops;
pub(crate) mod static_;
