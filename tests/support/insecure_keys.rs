//! One high-level key pair of the **insecure** test parameters per test binary, for
//! the fast test files that need the `test-params` feature.
#![allow(dead_code)]

use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
use gpufhe::{generate_keys, set_server_key, ClientKey, ConfigBuilder, ServerKey};
use std::sync::OnceLock;

/// The keys, generated once.
pub fn keys() -> &'static (ClientKey, ServerKey) {
    static KEYS: OnceLock<(ClientKey, ServerKey)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let config = ConfigBuilder::default()
            .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .expect("test parameters");
        generate_keys(config)
    })
}

/// Sets the server key on the calling thread; returns the client key.
pub fn setup() -> &'static ClientKey {
    let (client_key, server_key) = keys();
    set_server_key(server_key.clone());
    client_key
}
