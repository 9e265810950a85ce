//! The client key: the secret that encrypts and decrypts, generated afresh or from
//! a seed.

use super::tag::KeyTag;
use crate::core_crypto::{LweSecretKey, SecretRandomGenerator};
use crate::error::Result;
use crate::high_level::config::{block_count, check_parameters, check_private_key, Config};
use crate::high_level::internals::storage::Storage;
use crate::high_level::seed::Seed;
use crate::integer;
use crate::scheduler::Blocks;
use crate::shortint::{self, AtomicPatternParameters};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The secret key: encrypts and decrypts. Cloning shares it; its secret material is
/// zeroized when the last clone is dropped. Serializing it writes the secret keys:
/// keep the bytes secret.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, ConfigBuilder, FheUint8};
/// let client_key = ClientKey::generate(ConfigBuilder::default());
/// let x = FheUint8::encrypt(200u8, &client_key);
/// let back: u8 = x.decrypt(&client_key);
/// assert_eq!(back, 200);
/// assert_eq!(x.tag(), Some(client_key.tag()));
/// ```
#[derive(Clone)]
pub struct ClientKey {
    inner: Arc<ClientKeyInner>,
}

#[derive(Serialize, Deserialize)]
struct ClientKeyInner {
    tag: KeyTag,
    config: Config,
    key: shortint::ClientKey,
    /// The compression key, when the configuration enables compression.
    compression: Option<shortint::CompressionPrivateKey>,
    /// The dedicated secret key of oblivious pseudo-random values of a key read
    /// from TFHE-rs's data, kept to be written back (gpufhe's own pseudo-random
    /// values need no key); not in gpufhe's own format.
    #[serde(skip)]
    tfhe_rs_oprf_key: Option<LweSecretKey>,
    /// The noise-squashing private key, when the configuration enables noise
    /// squashing; not in gpufhe's own format (writing it there is an `Err`;
    /// TFHE-rs's form carries it).
    #[serde(
        skip_deserializing,
        serialize_with = "crate::high_level::serialization::own_format::no_squashing_lock"
    )]
    noise_squashing: std::sync::OnceLock<shortint::NoiseSquashingPrivateKey>,
    /// The compression private key of squashed values, when the configuration
    /// enables their compression; like the noise-squashing key, not in gpufhe's own
    /// format.
    #[serde(
        skip_deserializing,
        serialize_with = "crate::high_level::serialization::own_format::no_squashing_lock"
    )]
    noise_squashing_compression: std::sync::OnceLock<shortint::NoiseSquashingCompressionPrivateKey>,
    /// The dedicated compact secret key, when the configuration has dedicated
    /// compact public-key parameters; not in gpufhe's own format (in TFHE-rs's:
    /// writing it in gpufhe's is an `Err`).
    #[serde(
        skip_deserializing,
        serialize_with = "crate::high_level::lists::casting::not_dedicated_in_own_format"
    )]
    dedicated_compact: Option<shortint::DedicatedCompactPrivateKey>,
}

impl std::fmt::Debug for ClientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ClientKey {{ tag: {}, .. }}", self.inner.tag)
    }
}

/// The dedicated compact secret key of `config`, if it has dedicated compact
/// public-key parameters, drawn from `secret`.
fn dedicated_compact_key(
    config: &Config,
    secret: &mut SecretRandomGenerator,
) -> Result<Option<shortint::DedicatedCompactPrivateKey>> {
    config
        .dedicated_compact_public_key_parameters()
        .map(|(pke, ks)| {
            shortint::DedicatedCompactPrivateKey::new(pke, ks, config.parameters(), secret)
        })
        .transpose()
}

/// Panics with `what` and the error of the OS random source (the only way key
/// generation fails once a [`Config`] exists).
#[track_caller]
pub(super) fn expect_os_randomness<T>(result: Result<T>, what: &str) -> T {
    match result {
        Ok(value) => value,
        Err(e) => panic!("{what} failed (the OS random source failed?): {e}"),
    }
}

impl ClientKey {
    /// Generates a client key with a fresh random tag.
    ///
    /// # Panics
    ///
    /// If [`ClientKey::try_generate`] returns an `Err`: the operating system's random
    /// source failed, or the parameters of `config` cannot generate keys.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let x = FheUint8::encrypt(7u8, &client_key);
    /// let back: u8 = x.decrypt(&client_key);
    /// assert_eq!(back, 7);
    /// ```
    #[track_caller]
    pub fn generate(config: impl Into<Config>) -> Self {
        match Self::try_generate(config) {
            Ok(key) => key,
            Err(e) => panic!("ClientKey::generate failed: {e}"),
        }
    }

    /// Generates a client key; `Err` if the operating system's random source fails,
    /// the custom parameters of `config` are invalid or insecure (see
    /// [`crate::ConfigBuilder::use_custom_parameters`]), or its compression parameters
    /// do not suit its block parameters (see
    /// [`crate::ConfigBuilder::enable_compression`]).
    ///
    /// ```
    /// use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// use gpufhe::{ClientKey, ConfigBuilder};
    /// // Checked only when keys are generated: insecure, refused.
    /// let unchecked = ConfigBuilder::default().use_custom_parameters(TEST_PARAMS);
    /// assert!(ClientKey::try_generate(unchecked).is_err());
    /// let config = ConfigBuilder::default().with_insecure_custom_parameters(TEST_PARAMS)?;
    /// let client_key = ClientKey::try_generate(config)?;
    /// assert_eq!(client_key.config(), &config.build());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_generate(config: impl Into<Config>) -> Result<Self> {
        let config = config.into();
        config.check()?;
        let compression = config
            .compression_parameters()
            .map(|c| shortint::CompressionPrivateKey::new(*c, config.parameters()))
            .transpose()?;
        let key = shortint::ClientKey::new(*config.parameters())?;
        let dedicated = dedicated_compact_key(&config, &mut SecretRandomGenerator::from_os()?)?;
        let out =
            Self::from_all_parts(config, KeyTag::random()?, key, compression, None, dedicated);
        if let Some(params) = config.noise_squashing_parameters() {
            out.set_noise_squashing_key(shortint::NoiseSquashingPrivateKey::new(*params)?)?;
        }
        if let Some(params) = config.noise_squashing_compression_parameters() {
            out.set_noise_squashing_compression_key(
                shortint::NoiseSquashingCompressionPrivateKey::new(*params)?,
            )?;
        }
        Ok(out)
    }

    /// Its compression private key of squashed values, if its configuration enables
    /// their compression.
    pub(crate) fn noise_squashing_compression_key(
        &self,
    ) -> Option<&shortint::NoiseSquashingCompressionPrivateKey> {
        self.inner.noise_squashing_compression.get()
    }

    /// Sets its compression private key of squashed values (once).
    pub(crate) fn set_noise_squashing_compression_key(
        &self,
        key: shortint::NoiseSquashingCompressionPrivateKey,
    ) -> Result<()> {
        self.inner
            .noise_squashing_compression
            .set(key)
            .map_err(|_| {
                crate::Error::InvalidParameter(
                    "the client key has a noise-squashing compression key".into(),
                )
            })
    }

    /// Its noise-squashing private key, if its configuration enables noise squashing.
    pub(crate) fn noise_squashing_key(&self) -> Option<&shortint::NoiseSquashingPrivateKey> {
        self.inner.noise_squashing.get()
    }

    /// Sets its noise-squashing private key (once: `Err` if it has one).
    pub(crate) fn set_noise_squashing_key(
        &self,
        key: shortint::NoiseSquashingPrivateKey,
    ) -> Result<()> {
        self.inner.noise_squashing.set(key).map_err(|_| {
            crate::Error::InvalidParameter("the client key has a noise-squashing key".into())
        })
    }

    /// A client key of checked parts, with the dedicated OPRF secret key of a key read
    /// from TFHE-rs's data.
    pub(crate) fn with_tfhe_rs_oprf_key(
        config: Config,
        tag: KeyTag,
        key: shortint::ClientKey,
        compression: Option<shortint::CompressionPrivateKey>,
        tfhe_rs_oprf_key: Option<LweSecretKey>,
    ) -> Self {
        Self::from_all_parts(config, tag, key, compression, tfhe_rs_oprf_key, None)
    }

    /// [`ClientKey::with_tfhe_rs_oprf_key`] with the dedicated compact secret key of
    /// a configuration of dedicated compact public-key parameters.
    pub(crate) fn from_all_parts(
        config: Config,
        tag: KeyTag,
        key: shortint::ClientKey,
        compression: Option<shortint::CompressionPrivateKey>,
        tfhe_rs_oprf_key: Option<LweSecretKey>,
        dedicated_compact: Option<shortint::DedicatedCompactPrivateKey>,
    ) -> Self {
        let inner = ClientKeyInner {
            tag,
            key,
            config,
            compression,
            tfhe_rs_oprf_key,
            noise_squashing: Default::default(),
            noise_squashing_compression: Default::default(),
            dedicated_compact,
        };
        Self {
            inner: Arc::new(inner),
        }
    }

    /// The dedicated compact secret key (TFHE-rs's `dedicated_compact_private_key`),
    /// if the configuration has dedicated compact public-key parameters.
    pub(crate) fn dedicated_compact_key(&self) -> Option<&shortint::DedicatedCompactPrivateKey> {
        self.inner.dedicated_compact.as_ref()
    }

    /// The configuration it was generated for.
    ///
    /// ```
    /// use gpufhe::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// assert_eq!(client_key.config().parameters(), &TEST_PARAMS);
    /// assert_eq!(client_key.config().compression_parameters(), None);
    /// ```
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// Its tag, carried by its server keys and its ciphertexts.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let x = FheUint8::encrypt(1u8, &client_key);
    /// assert_eq!(x.tag(), Some(client_key.tag()));
    /// ```
    pub fn tag(&self) -> KeyTag {
        self.inner.tag
    }

    /// The block-level secret key.
    ///
    /// ```
    /// use gpufhe::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let block_key = client_key.shortint_key();
    /// let block = block_key.encrypt(3)?; // one block: 2 message bits
    /// assert_eq!(block_key.decrypt(&block)?, 3);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn shortint_key(&self) -> &shortint::ClientKey {
        &self.inner.key
    }

    /// The compression key, if its configuration enables compression.
    /// The dedicated OPRF secret key of a key read from TFHE-rs's data.
    pub(crate) fn tfhe_rs_oprf_key(&self) -> Option<&LweSecretKey> {
        self.inner.tfhe_rs_oprf_key.as_ref()
    }

    pub(crate) fn compression_key(&self) -> Option<&shortint::CompressionPrivateKey> {
        self.inner.compression.as_ref()
    }

    /// Encrypts the low `bits` bits of `value` (`Err` if it has more).
    pub(crate) fn encrypt_storage(&self, value: integer::U2048, bits: u32) -> Result<Storage> {
        let key = &self.inner.key;
        let count = block_count(key.parameters(), bits);
        let mut blocks = integer::encrypt_radix(key, value, count)?;
        if bits == 1 {
            // A boolean block holds 0 or 1: its public bound says so.
            blocks[0].degree = 1;
        }
        Ok(Storage::Encrypted {
            tag: self.inner.tag,
            blocks: Blocks::cpu(blocks),
        })
    }

    /// Decrypts a value (a trivial one needs no key).
    pub(crate) fn decrypt_storage(&self, storage: &Storage) -> Result<integer::U2048> {
        match storage {
            Storage::Trivial(v) => Ok(**v),
            Storage::Encrypted { tag, blocks } => {
                self.inner.tag.check(
                    "the decrypted value (decrypt with its own client key)",
                    *tag,
                )?;
                integer::decrypt_radix(&self.inner.key, &blocks.to_cpu()?)
            }
        }
    }

    /// A client key drawn deterministically from `seed` (as TFHE-rs's
    /// `generate_with_seed`): the same seed and configuration give the same secret
    /// keys, compression key and tag. Anyone who knows the seed knows the keys: use
    /// a seed of 128 secret random bits, or [`ClientKey::generate`].
    ///
    /// # Panics
    ///
    /// If the parameters of `config` cannot generate keys (as
    /// [`ClientKey::generate`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheUint8, Seed};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate_with_seed(config, Seed(42));
    /// let x = FheUint8::encrypt(7u8, &client_key);
    /// let again = ClientKey::generate_with_seed(config, Seed(42)); // the same secret key
    /// let back: u8 = x.decrypt(&again);
    /// assert_eq!(back, 7);
    /// ```
    #[track_caller]
    pub fn generate_with_seed(config: impl Into<Config>, seed: Seed) -> Self {
        match Self::try_generate_with_seed(config, seed) {
            Ok(key) => key,
            Err(e) => panic!("ClientKey::generate_with_seed failed: {e}"),
        }
    }

    /// [`ClientKey::generate_with_seed`], `Err` where [`ClientKey::try_generate`]
    /// returns one for the configuration.
    ///
    /// ```
    /// use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// use gpufhe::{ClientKey, ConfigBuilder, Seed};
    /// // Checked only when keys are generated: insecure, refused.
    /// let unchecked = ConfigBuilder::default().use_custom_parameters(TEST_PARAMS);
    /// assert!(ClientKey::try_generate_with_seed(unchecked, Seed(42)).is_err());
    /// let config = ConfigBuilder::default().with_insecure_custom_parameters(TEST_PARAMS)?;
    /// let client_key = ClientKey::try_generate_with_seed(config, Seed(42))?;
    /// assert_eq!(client_key.tag(), ClientKey::generate_with_seed(config, Seed(42)).tag());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_generate_with_seed(config: impl Into<Config>, seed: Seed) -> Result<Self> {
        let config = config.into();
        config.check()?;
        // One generator per use, from the seed and a distinct domain label.
        let generator = |label: &[u8; 16]| {
            let mut bytes = [0u8; 32];
            bytes[..16].copy_from_slice(&seed.0.to_le_bytes());
            bytes[16..].copy_from_slice(label);
            SecretRandomGenerator::from_seed_insecure(crate::core_crypto::Seed(bytes))
        };
        let tag = KeyTag::seeded(seed.0, &config)?;
        let key = shortint::ClientKey::from_secret_generator(
            *config.parameters(),
            &mut generator(b"gpufhe:block-key"),
        )?;
        let compression = config
            .compression_parameters()
            .map(|c| {
                shortint::CompressionPrivateKey::from_secret_generator(
                    *c,
                    config.parameters(),
                    &mut generator(b"gpufhe:compress\0"),
                )
            })
            .transpose()?;
        let dedicated = dedicated_compact_key(&config, &mut generator(b"gpufhe:dedic-cpk"))?;
        let out = Self::from_all_parts(config, tag, key, compression, None, dedicated);
        if let Some(params) = config.noise_squashing_parameters() {
            out.set_noise_squashing_key(
                shortint::NoiseSquashingPrivateKey::from_secret_generator(
                    *params,
                    &mut generator(b"gpufhe:squash\0\0\0"),
                )?,
            )?;
        }
        if let Some(params) = config.noise_squashing_compression_parameters() {
            out.set_noise_squashing_compression_key(
                shortint::NoiseSquashingCompressionPrivateKey::from_secret_generator(
                    *params,
                    &mut generator(b"gpufhe:sq-compr\0"),
                )?,
            )?;
        }
        Ok(out)
    }

    /// The parameters its blocks are computed with (as TFHE-rs's
    /// `computation_parameters`): the block parameters of its configuration.
    ///
    /// ```
    /// use gpufhe::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// assert_eq!(client_key.computation_parameters(), TEST_PARAMS);
    /// ```
    pub fn computation_parameters(&self) -> AtomicPatternParameters {
        *self.config().parameters()
    }
}

impl Serialize for ClientKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.inner.serialize(s)
    }
}

/// Checks that the key has the parameters of its configuration.
impl<'de> Deserialize<'de> for ClientKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let inner = ClientKeyInner::deserialize(d)?;
        check_parameters(&inner.config, inner.key.parameters())
            .and_then(|()| check_private_key(&inner.config, inner.compression.as_ref()))
            .map_err(serde::de::Error::custom)?;
        Ok(Self {
            inner: Arc::new(inner),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::shortint::{
        COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
    };
    use crate::{ClientKey, ConfigBuilder, Seed};

    #[test]
    fn keys_from_one_seed_serialize_identically() {
        let config = ConfigBuilder::default()
            .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .unwrap()
            .enable_compression(COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
        let bytes = |seed| {
            let key = ClientKey::try_generate_with_seed(config, Seed(seed)).unwrap();
            crate::serialization::with_insecure_parameters_allowed(|| {
                let mut out = vec![];
                crate::serialization::safe_serialize(&key, &mut out, 1 << 30).map(|_| out)
            })
            .unwrap()
        };
        assert_eq!(bytes(7), bytes(7));
        assert_ne!(bytes(7), bytes(8));
        let weak = ConfigBuilder::default()
            .use_custom_parameters(crate::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
        assert!(ClientKey::try_generate_with_seed(weak, Seed(7)).is_err());
    }
}
