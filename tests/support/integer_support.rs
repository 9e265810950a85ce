//! Shared by the integer-layer test files: one key pair per test binary on the
//! default (secure) parameters, backends with counters of their own, a thread count
//! to plan for, and radix encryption of whole lists.
#![allow(dead_code)]

use gpufhe::backend::cpu::CpuBackend;
use gpufhe::integer::{decrypt_radix, encrypt_radix};
use gpufhe::shortint::{Ciphertext, ClientKey, ServerKey, DEFAULT_PARAMETERS};
use std::sync::{Arc, OnceLock};

/// One key pair for the whole test binary: key generation on real parameters takes
/// seconds.
pub fn keys() -> &'static (ClientKey, Arc<ServerKey>) {
    static KEYS: OnceLock<(ClientKey, Arc<ServerKey>)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let ck = ClientKey::new(DEFAULT_PARAMETERS).expect("client key");
        let sk = ServerKey::new(&ck).expect("server key");
        (ck, Arc::new(sk))
    })
}

/// The shared client key.
pub fn client_key() -> &'static ClientKey {
    &keys().0
}

/// A backend with its own bootstrap counter on the shared key (tests run in
/// parallel, so a shared counter would mix their counts).
pub fn backend() -> CpuBackend {
    CpuBackend::from_shared(keys().1.clone())
}

/// Runs `f` in a pool of `threads` threads: the algorithms pick their variants from
/// the backend's parallelism (the pool's size), so counts asserted inside `f` do not
/// depend on the machine.
pub fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
        .install(f)
}

/// Every value as a radix integer of `blocks` blocks.
pub fn encrypt(values: &[u128], blocks: usize) -> Vec<Vec<Ciphertext>> {
    values
        .iter()
        .map(|&v| encrypt_radix(client_key(), v, blocks).expect("encrypt"))
        .collect()
}

/// The value of a radix integer (of at most 128 bits).
pub fn decrypt(blocks: &[Ciphertext]) -> u128 {
    decrypt_u128(client_key(), blocks)
}

/// The value of a radix integer of at most 128 bits under `ck`.
pub fn decrypt_u128(ck: &ClientKey, blocks: &[Ciphertext]) -> u128 {
    let value = decrypt_radix(ck, blocks).expect("decrypt");
    u128::try_from(value).expect("at most 128 bits")
}
