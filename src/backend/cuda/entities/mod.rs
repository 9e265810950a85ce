//! The GPU twins of the core_crypto entities, at the same relative paths: LWE
//! ciphertext lists (`lwe.rs`), keyswitching keys (`keyswitch_key.rs`), Fourier
//! bootstrap keys (`bootstrap_key.rs`, and the 128-bit ones of noise squashing in
//! `bootstrap_key_128.rs`), and GLWE ciphertext lists (`glwe.rs`: the
//! accumulators the bootstraps rotate). Each lives in the memory of one GPU.

pub(crate) mod bootstrap_key;
pub(crate) mod bootstrap_key_128;
pub(crate) mod glwe;
pub(crate) mod keyswitch_key;
pub(crate) mod lwe;
