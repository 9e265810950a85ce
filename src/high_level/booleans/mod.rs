//! Encrypted booleans: [`FheBool`](base::FheBool) ([`base`]: the type, encryption
//! and decryption), its operations ([`ops`]), its compressed form ([`compressed`])
//! and oblivious random booleans ([`oprf`]).

pub(crate) mod base;
pub(crate) mod compressed;
pub(crate) mod oprf;
pub(crate) mod ops;
