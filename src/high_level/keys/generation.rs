//! Key generation: a client key, then its compressed server key, expanded into the
//! server key.

use super::client::{expect_os_randomness, ClientKey};
use super::compressed_server::CompressedServerKey;
use super::server::ServerKey;
use crate::error::Result;
use crate::high_level::config::Config;

impl ClientKey {
    /// Its server key, on the CPU (TFHE-rs's name for [`ServerKey::new`]).
    ///
    /// # Panics
    ///
    /// As [`ServerKey::new`].
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{set_server_key, ClientKey, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// set_server_key(client_key.generate_server_key());
    /// let x = FheUint8::encrypt(12u8, &client_key);
    /// let y: u8 = (&x - 5u8).decrypt(&client_key);
    /// assert_eq!(y, 7);
    /// ```
    #[track_caller]
    pub fn generate_server_key(&self) -> ServerKey {
        ServerKey::new(self)
    }

    /// Its compressed server key (TFHE-rs's name for [`CompressedServerKey::new`]).
    ///
    /// # Panics
    ///
    /// As [`CompressedServerKey::new`].
    ///
    /// ```
    /// use gpufhe::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = client_key.generate_compressed_server_key();
    /// assert_eq!(compressed.decompress().tag(), client_key.tag());
    /// ```
    #[track_caller]
    pub fn generate_compressed_server_key(&self) -> CompressedServerKey {
        CompressedServerKey::new(self)
    }
}

impl ServerKey {
    /// Generates the server key of `client_key`, on the CPU.
    ///
    /// # Panics
    ///
    /// Only if the operating system's random source fails; see
    /// [`ServerKey::try_new`].
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{with_server_key_as_context, ClientKey, FheBool, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let server_key = ServerKey::new(&client_key);
    /// let (a, b) = (FheBool::encrypt(true, &client_key), FheBool::encrypt(false, &client_key));
    /// let c = with_server_key_as_context(server_key, || &a ^ &b);
    /// assert!(c.decrypt(&client_key));
    /// ```
    #[track_caller]
    pub fn new(client_key: &ClientKey) -> Self {
        let compressed = CompressedServerKey::try_new(client_key);
        // An invalid `GPUFHE_*` value: reported, the defaults used (as `decompress`).
        expect_os_randomness(compressed, "ServerKey::new").decompress()
    }

    /// Generates the server key of `client_key`; `Err` if the operating system's
    /// random source fails, or a `GPUFHE_*` value is invalid.
    ///
    /// ```
    /// use gpufhe::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let server_key = ServerKey::try_new(&client_key)?;
    /// assert_eq!(server_key.config(), client_key.config());
    /// assert!(server_key.gpus().is_empty()); // on the CPU
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_new(client_key: &ClientKey) -> Result<Self> {
        CompressedServerKey::try_new(client_key)?.try_decompress()
    }
}

/// Generates a client key and its server key (on the CPU).
///
/// # Panics
///
/// Only if the operating system's random source fails.
///
/// ```
/// use gpufhe::{generate_keys, ConfigBuilder};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// assert_eq!(client_key.tag(), server_key.tag());
/// ```
#[track_caller]
pub fn generate_keys(config: impl Into<Config>) -> (ClientKey, ServerKey) {
    let client_key = ClientKey::generate(config);
    let server_key = ServerKey::new(&client_key);
    (client_key, server_key)
}
