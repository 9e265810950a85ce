//! Shared by the high-level test files: one key pair per test binary (default
//! parameters) and a small deterministic generator of operands.
#![allow(dead_code)]

use gpufhe::serialization::{
    safe_deserialize, safe_serialize, SafeSerialization, SERIALIZATION_MAGIC,
};
use gpufhe::{set_server_key, ClientKey, CompressedServerKey, ConfigBuilder, ServerKey};
use std::sync::OnceLock;

/// A client key, its compressed server key and that key decompressed to the CPU.
pub type Keys = (ClientKey, CompressedServerKey, ServerKey);

/// The keys of `config`, generated once into `cell`.
pub fn keys_in(cell: &'static OnceLock<Keys>, config: ConfigBuilder) -> &'static Keys {
    cell.get_or_init(|| {
        let client_key = ClientKey::generate(config);
        let compressed = CompressedServerKey::new(&client_key);
        let server_key = compressed.decompress();
        (client_key, compressed, server_key)
    })
}

/// The test binary's keys: generated once, on the default (secure) parameters.
pub fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    keys_in(&KEYS, ConfigBuilder::default())
}

/// The test binary's keys on the multi-bit default parameters: generated once.
pub fn multi_bit_keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    keys_in(&KEYS, ConfigBuilder::default().use_multi_bit_pbs())
}

/// Sets the shared server key on the calling thread; returns the client key.
pub fn setup() -> &'static ClientKey {
    setup_with(keys())
}

/// Sets the server key of `keys` on the calling thread; returns the client key.
pub fn setup_with(keys: &'static Keys) -> &'static ClientKey {
    let (client_key, _, server_key) = keys;
    set_server_key(server_key.clone());
    client_key
}

/// A server key of the shared client key with counters of its own, set on the
/// calling thread (tests run in parallel, so shared counters would mix).
pub fn counting_setup() -> (&'static ClientKey, ServerKey) {
    counting_setup_with(keys())
}

/// [`counting_setup`] for the keys `keys`.
pub fn counting_setup_with(keys: &'static Keys) -> (&'static ClientKey, ServerKey) {
    let (client_key, compressed, _) = keys;
    let server_key = compressed.decompress();
    set_server_key(server_key.clone());
    (client_key, server_key)
}

/// The size limit of the serialization helpers below: 1 GiB.
pub const LIMIT: u64 = 1 << 30;

/// `value` written by `safe_serialize` (within [`LIMIT`]).
pub fn to_bytes<T: SafeSerialization>(value: &T) -> Vec<u8> {
    let mut bytes = Vec::new();
    safe_serialize(value, &mut bytes, LIMIT).expect("serializes");
    bytes
}

/// A `T` read by `safe_deserialize` (within [`LIMIT`]).
pub fn from_bytes<T: SafeSerialization>(bytes: &[u8]) -> gpufhe::Result<T> {
    safe_deserialize(bytes, LIMIT)
}

/// The length of the header `safe_serialize` writes before a `T`.
pub fn header_len<T: SafeSerialization>() -> usize {
    SERIALIZATION_MAGIC.len() + 4 + 1 + T::TYPE_NAME.len()
}

/// xorshift64*: deterministic operands without a dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}
