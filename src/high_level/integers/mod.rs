//! Encrypted integers: [`unsigned`] ([`FheUint`](crate::FheUint)) and [`signed`]
//! ([`FheInt`](crate::FheInt)), each a folder whose `base.rs` holds the type,
//! encryption and decryption, and whose other files hold its operations by subject;
//! their right operands ([`operands`]), the operator glue written once for both
//! ([`operators`]), casts ([`casts`]) and selection and lookup ([`select`]).

pub(crate) mod casts;
pub(crate) mod fused_ops;
pub(crate) mod operands;
pub(crate) mod operators;
pub(crate) mod select;
pub(crate) mod signed;
pub(crate) mod unsigned;
