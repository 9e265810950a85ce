//! The keys the targets compute with: a client key on the insecure test parameters,
//! read from `keys/client_key.bin` (the committed corpus's ciphertexts are encrypted
//! under it, so they carry its tag), and a server key generated from it once per
//! process.

use gpufhe::prelude::FheEncrypt;
use gpufhe::scheduler::SchedulerConfig;
use gpufhe::serialization::{safe_deserialize, safe_serialize, with_insecure_parameters_allowed};
use gpufhe::shortint::{
    COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
};
use gpufhe::{ClientKey, CompressedServerKey, ConfigBuilder, FheUint8, ServerKey};
use std::path::PathBuf;
use std::sync::OnceLock;

use crate::LIMIT;

/// The fixture keys and a serialized ciphertext of them.
pub struct Keys {
    /// The client key (insecure test parameters).
    pub client: ClientKey,
    /// Its server key, computing on the CPU with one thread.
    pub server: ServerKey,
    /// A [`FheUint8`] encrypted under `client`, serialized: the values the server
    /// keys read by the targets compute on, after [`crate::forge_tag`].
    pub uint8_bytes: Vec<u8>,
}

/// Where the fixture client key is.
pub fn client_key_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("keys/client_key.bin")
}

/// The scheduler of every server key the targets build: the CPU, one thread (the
/// fuzzers run one input at a time).
pub fn cpu_scheduler() -> SchedulerConfig {
    SchedulerConfig::builder()
        .devices("cpu")
        .cpu_threads(1)
        .build()
        .expect("a valid scheduler configuration")
}

/// The fixture client key, or a fresh one (saying so) when the file is missing or
/// no longer reads (the corpus's ciphertexts then carry another tag: regenerate it
/// with the `seed` binary).
fn load_client_key() -> ClientKey {
    let path = client_key_path();
    let read = std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|bytes| {
            // The test parameters are insecure: read through the named path.
            with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), LIMIT))
                .map_err(|e| e.to_string())
        });
    match read {
        Ok(key) => key,
        Err(e) => {
            eprintln!(
                "gpufhe-fuzz: cannot read {} ({e}); using a fresh key: regenerate the \
                 corpus with `cargo run --release --bin seed`",
                path.display()
            );
            generate_client_key()
        }
    }
}

/// A fresh client key on the insecure test parameters, with compression.
pub fn generate_client_key() -> ClientKey {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
        .expect("the test parameters are valid")
        .enable_compression(COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
        .build();
    ClientKey::try_generate(config).expect("key generation")
}

/// The keys, made on first use.
pub fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        // Server keys read by the targets take their thread count from here.
        if std::env::var_os("GPUFHE_CPU_THREADS").is_none() {
            std::env::set_var("GPUFHE_CPU_THREADS", "1");
        }
        let client = load_client_key();
        let server = CompressedServerKey::try_new(&client)
            .and_then(|k| k.decompress_with(&cpu_scheduler()))
            .expect("server key generation");
        let mut uint8_bytes = Vec::new();
        safe_serialize(&FheUint8::encrypt(0xa5u8, &client), &mut uint8_bytes, LIMIT)
            .expect("serializes");
        Keys {
            client,
            server,
            uint8_bytes,
        }
    })
}
