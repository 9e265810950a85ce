//! The server keys' raw parts: [`ServerKey`] and [`CompressedServerKey`] taken
//! apart into TFHE-rs 1.8's parts, in TFHE-rs's order, and put back together.

use super::re_randomization::{CompressedReRandomizationKey, ReRandomizationKey};
use crate::error::Result;
use crate::high_level::config::{check_expanded_keys, Config};
use crate::high_level::internals::expect_op;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::tfhe_rs::wire::server::{
    CompressedOprfServerKey as WireCompressedOprfServerKey, OprfServerKey as WireOprfServerKey,
};
use crate::high_level::{CompressedServerKey, ConfigBuilder, ServerKey};
use crate::scheduler::SchedulerConfig;
use crate::shortint::{
    self, CompressedCompressionKeys, CompressionKeys, CompressionParameters, ShortintParameters,
};
use std::sync::Arc;

/// A part of TFHE-rs's keys that gpufhe does not hold (the client key's dedicated
/// compact private key, TFHE-rs's separate decompression key, the noise squashing
/// keys, transciphering).
/// It has no value: that part of [`ServerKey::into_raw_parts`] (and of the other
/// keys' `into_raw_parts`) is always `None`, and [`ServerKey::from_raw_parts`]
/// takes only `None` there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnsupportedKeyPart {}

/// TFHE-rs's dedicated OPRF server key, a part of the server keys read from
/// TFHE-rs's data. gpufhe's pseudo-random values need no key: it is kept, opaque,
/// to be written back with the key it came with.
#[derive(Debug, Clone, PartialEq)]
pub struct OprfServerKey {
    key: Arc<WireOprfServerKey>,
}

/// The parts of a [`ServerKey`], in TFHE-rs's order: the integer key, the compact
/// public key's keyswitching material, the compression key, the decompression key,
/// the noise squashing key, the noise squashing compression key, the
/// re-randomization key, the OPRF key, the transciphering key and the tag.
pub type ServerKeyParts = (
    crate::integer::ServerKey,
    Option<shortint::CastingKey>,
    Option<CompressionKeys>,
    Option<UnsupportedKeyPart>,
    Option<UnsupportedKeyPart>,
    Option<UnsupportedKeyPart>,
    Option<ReRandomizationKey>,
    Option<OprfServerKey>,
    Option<UnsupportedKeyPart>,
    KeyTag,
);

/// TFHE-rs's dedicated OPRF server key in its seeded form, a part of the
/// compressed server keys read from TFHE-rs's data, kept opaque as
/// [`OprfServerKey`] is.
#[derive(Debug, Clone, PartialEq)]
pub struct CompressedOprfServerKey {
    key: Arc<WireCompressedOprfServerKey>,
}

/// The parts of a [`CompressedServerKey`], in TFHE-rs's order (those of
/// [`ServerKeyParts`], in their seeded forms).
pub type CompressedServerKeyParts = (
    crate::integer::CompressedServerKey,
    Option<shortint::CompressedCastingKey>,
    Option<CompressedCompressionKeys>,
    Option<UnsupportedKeyPart>,
    Option<UnsupportedKeyPart>,
    Option<UnsupportedKeyPart>,
    Option<CompressedReRandomizationKey>,
    Option<CompressedOprfServerKey>,
    Option<UnsupportedKeyPart>,
    KeyTag,
);

/// The configuration of a key of blocks of `parameters` and compression keys of
/// `compression` (if any).
pub(super) fn key_config(
    parameters: ShortintParameters,
    compression: Option<&CompressionParameters>,
) -> Result<Config> {
    let builder = ConfigBuilder::default().with_insecure_custom_parameters(parameters)?;
    Ok(match compression {
        Some(c) => builder.enable_compression(*c),
        None => builder,
    }
    .build())
}

/// `Err` unless a casting key of the dedicated parameters `pke` casts to blocks of
/// `block` (the same moduli, a power-of-two encryption dimension).
fn check_casting(
    pke: &shortint::CompactPublicKeyEncryptionParameters,
    block: &ShortintParameters,
) -> Result<()> {
    pke.carrier(block).map(|_| ())
}

impl ServerKey {
    /// The key's parts, in TFHE-rs's order ([`ServerKeyParts`]): the integer
    /// key (the block key, on the CPU: a key that computes on GPUs gives its host
    /// key), the casting key of dedicated compact lists (gpufhe's
    /// `shortint::CastingKey`, where TFHE-rs has its keyswitching key material) and
    /// the re-randomization key if it has them, `None` for the parts gpufhe does
    /// not hold ([`UnsupportedKeyPart`]),
    /// gpufhe's compression keys in the third place (they hold both directions:
    /// the fourth place, TFHE-rs's decompression key, is `None`), TFHE-rs's OPRF key
    /// if the key was read from TFHE-rs's data, and the tag.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// let (key, cpk, compression, decompression, ns, nsc, rr, oprf, tc, tag) =
    ///     server_key.into_raw_parts();
    /// assert_eq!(tag, client_key.tag());
    /// let server_key =
    ///     ServerKey::from_raw_parts(key, cpk, compression, decompression, ns, nsc, rr, oprf, tc, tag);
    /// gpufhe::set_server_key(server_key);
    /// let sum = FheUint8::encrypt(200u8, &client_key) + 100u8;
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&sum, &client_key), 44);
    /// ```
    pub fn into_raw_parts(self) -> ServerKeyParts {
        let key = crate::integer::ServerKey::from_raw_parts(self.scheduler().host_key().clone());
        let compression = self.compression_keys().cloned();
        let oprf = self.tfhe_rs_oprf().get().map(|key| OprfServerKey {
            key: Arc::clone(key),
        });
        let rerand = self
            .re_randomization_key()
            .map(|m| super::re_randomization::to_raw(m, self.tag()));
        (
            key,
            self.casting_key().cloned(),
            compression,
            None,
            None,
            None,
            rerand,
            oprf,
            None,
            self.tag(),
        )
    }

    /// The key of these parts (TFHE-rs's order, see [`Self::into_raw_parts`]),
    /// computing on the CPU with the scheduler settings of the environment (as
    /// [`ServerKey::new`]). Panics with the reason on parts that do not make a key
    /// (compression keys made for other blocks, invalid scheduler settings in the
    /// environment); [`Self::try_from_raw_parts`] returns it.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// // A key assembled from a block key alone.
    /// let block_key = gpufhe::shortint::ServerKey::new(client_key.shortint_key()).unwrap();
    /// let key = gpufhe::integer::ServerKey::from_raw_parts(block_key);
    /// let server_key = ServerKey::from_raw_parts(
    ///     key, None, None, None, None, None, None, None, None, client_key.tag(),
    /// );
    /// gpufhe::set_server_key(server_key);
    /// let product = FheUint8::encrypt(12u8, &client_key) * 11u8;
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&product, &client_key), 132);
    /// ```
    #[allow(clippy::too_many_arguments)]
    #[track_caller]
    pub fn from_raw_parts(
        key: crate::integer::ServerKey,
        cpk_key_switching_key_material: Option<shortint::CastingKey>,
        compression_key: Option<CompressionKeys>,
        decompression_key: Option<UnsupportedKeyPart>,
        noise_squashing_key: Option<UnsupportedKeyPart>,
        noise_squashing_compression_key: Option<UnsupportedKeyPart>,
        cpk_re_randomization_key: Option<ReRandomizationKey>,
        oprf_key: Option<OprfServerKey>,
        transciphering_key: Option<UnsupportedKeyPart>,
        tag: KeyTag,
    ) -> Self {
        expect_op(
            Self::try_from_raw_parts(
                key,
                cpk_key_switching_key_material,
                compression_key,
                decompression_key,
                noise_squashing_key,
                noise_squashing_compression_key,
                cpk_re_randomization_key,
                oprf_key,
                transciphering_key,
                tag,
            ),
            "from_raw_parts",
        )
    }

    /// [`Self::from_raw_parts`], with the reason the parts make no key as an
    /// `Err`.
    ///
    /// ```
    /// use gpufhe::ServerKey;
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS,
    /// # };
    /// let config = gpufhe::ConfigBuilder::default()
    ///     .with_insecure_custom_parameters(TEST_PARAMS)
    ///     .unwrap()
    ///     .enable_compression(COMPRESSION);
    /// let (_client_key, server_key) = gpufhe::generate_keys(config);
    /// let (key, _, compression, .., tag) = server_key.into_raw_parts();
    /// assert!(compression.is_some());
    /// let server_key =
    ///     ServerKey::try_from_raw_parts(key, None, compression, None, None, None, None, None, None, tag)
    ///         .unwrap();
    /// assert_eq!(server_key.config().compression_parameters(), Some(&COMPRESSION));
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn try_from_raw_parts(
        key: crate::integer::ServerKey,
        cpk_key_switching_key_material: Option<shortint::CastingKey>,
        compression_key: Option<CompressionKeys>,
        decompression_key: Option<UnsupportedKeyPart>,
        noise_squashing_key: Option<UnsupportedKeyPart>,
        noise_squashing_compression_key: Option<UnsupportedKeyPart>,
        cpk_re_randomization_key: Option<ReRandomizationKey>,
        oprf_key: Option<OprfServerKey>,
        transciphering_key: Option<UnsupportedKeyPart>,
        tag: KeyTag,
    ) -> Result<Self> {
        // The parts gpufhe does not hold have no value: they are all `None`.
        let _ = (
            decompression_key,
            noise_squashing_key,
            noise_squashing_compression_key,
            transciphering_key,
        );
        let key: shortint::ServerKey = key.into_raw_parts();
        let rerand = cpk_re_randomization_key
            .map(|r| super::re_randomization::from_raw(r, key.parameters()).map(Arc::new))
            .transpose()?;
        let casting = cpk_key_switching_key_material
            .map(|k| check_casting(k.parameters(), key.parameters()).map(|()| Arc::new(k)))
            .transpose()?;
        let config = key_config(
            *key.parameters(),
            compression_key.as_ref().map(CompressionKeys::parameters),
        )?;
        check_expanded_keys(&config, compression_key.as_ref())?;
        let server_key = ServerKey::from_parts(
            tag,
            config,
            key,
            compression_key.map(Arc::new),
            &SchedulerConfig::from_env()?,
        );
        if let Some(oprf) = oprf_key {
            let _ = server_key.tfhe_rs_oprf().set(oprf.key);
        }
        Ok(server_key
            .with_casting_key(casting)
            .with_re_randomization_key(rerand))
    }
}

impl CompressedServerKey {
    /// The key's parts, in TFHE-rs's order ([`CompressedServerKeyParts`]): the
    /// integer key (seeded), `None` for the parts gpufhe does not hold, gpufhe's
    /// seeded compression keys in the third place (both directions: the fourth
    /// place is `None`), TFHE-rs's seeded OPRF key if the key was read from
    /// TFHE-rs's data, and the tag.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{CompressedServerKey, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = gpufhe::ClientKey::generate(config);
    /// let (key, cpk, compression, decompression, ns, nsc, rr, oprf, tc, tag) =
    ///     CompressedServerKey::new(&client_key).into_raw_parts();
    /// let compressed = CompressedServerKey::from_raw_parts(
    ///     key, cpk, compression, decompression, ns, nsc, rr, oprf, tc, tag,
    /// );
    /// gpufhe::set_server_key(compressed.decompress());
    /// let x = FheUint8::encrypt(9u8, &client_key) << 4u8;
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 144);
    /// ```
    pub fn into_raw_parts(self) -> CompressedServerKeyParts {
        let compression = self.compression_keys().cloned();
        let oprf = self
            .tfhe_rs_oprf()
            .get()
            .map(|key| CompressedOprfServerKey {
                key: Arc::clone(key),
            });
        let tag = self.tag();
        let key = crate::integer::CompressedServerKey::from_raw_parts(self.shortint_key().clone());
        let rerand = self
            .re_randomization_key()
            .map(|m| super::re_randomization::compressed_to_raw(m, tag));
        (
            key,
            self.casting_key().map(|k| (**k).clone()),
            compression,
            None,
            None,
            None,
            rerand,
            oprf,
            None,
            tag,
        )
    }

    /// The key of these parts (TFHE-rs's order, see [`Self::into_raw_parts`]).
    /// Panics with the reason on parts that do not make a key (compression keys
    /// made for other blocks); [`Self::try_from_raw_parts`] returns it.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{CompressedServerKey, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = gpufhe::ClientKey::generate(config);
    /// let seeded = gpufhe::shortint::CompressedServerKey::new(client_key.shortint_key()).unwrap();
    /// let key = gpufhe::integer::CompressedServerKey::from_raw_parts(seeded);
    /// let compressed = CompressedServerKey::from_raw_parts(
    ///     key, None, None, None, None, None, None, None, None, client_key.tag(),
    /// );
    /// gpufhe::set_server_key(compressed.decompress());
    /// let b = FheBool::encrypt(true, &client_key) ^ true;
    /// assert!(!b.decrypt(&client_key));
    /// ```
    #[allow(clippy::too_many_arguments)]
    #[track_caller]
    pub fn from_raw_parts(
        integer_key: crate::integer::CompressedServerKey,
        cpk_key_switching_key_material: Option<shortint::CompressedCastingKey>,
        compression_key: Option<CompressedCompressionKeys>,
        decompression_key: Option<UnsupportedKeyPart>,
        noise_squashing_key: Option<UnsupportedKeyPart>,
        noise_squashing_compression_key: Option<UnsupportedKeyPart>,
        cpk_re_randomization_key: Option<CompressedReRandomizationKey>,
        oprf_key: Option<CompressedOprfServerKey>,
        transciphering_key: Option<UnsupportedKeyPart>,
        tag: KeyTag,
    ) -> Self {
        expect_op(
            Self::try_from_raw_parts(
                integer_key,
                cpk_key_switching_key_material,
                compression_key,
                decompression_key,
                noise_squashing_key,
                noise_squashing_compression_key,
                cpk_re_randomization_key,
                oprf_key,
                transciphering_key,
                tag,
            ),
            "from_raw_parts",
        )
    }

    /// [`Self::from_raw_parts`], with the reason the parts make no key as an
    /// `Err`.
    ///
    /// ```
    /// use gpufhe::CompressedServerKey;
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS,
    /// # };
    /// let config = gpufhe::ConfigBuilder::default()
    ///     .with_insecure_custom_parameters(TEST_PARAMS)
    ///     .unwrap()
    ///     .enable_compression(COMPRESSION);
    /// let client_key = gpufhe::ClientKey::generate(config);
    /// let (key, _, compression, .., tag) = CompressedServerKey::new(&client_key).into_raw_parts();
    /// let compressed = CompressedServerKey::try_from_raw_parts(
    ///     key, None, compression, None, None, None, None, None, None, tag,
    /// )
    /// .unwrap();
    /// assert!(compressed.has_compression_key());
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn try_from_raw_parts(
        integer_key: crate::integer::CompressedServerKey,
        cpk_key_switching_key_material: Option<shortint::CompressedCastingKey>,
        compression_key: Option<CompressedCompressionKeys>,
        decompression_key: Option<UnsupportedKeyPart>,
        noise_squashing_key: Option<UnsupportedKeyPart>,
        noise_squashing_compression_key: Option<UnsupportedKeyPart>,
        cpk_re_randomization_key: Option<CompressedReRandomizationKey>,
        oprf_key: Option<CompressedOprfServerKey>,
        transciphering_key: Option<UnsupportedKeyPart>,
        tag: KeyTag,
    ) -> Result<Self> {
        // The parts gpufhe does not hold have no value: they are all `None`.
        let _ = (
            decompression_key,
            noise_squashing_key,
            noise_squashing_compression_key,
            transciphering_key,
        );
        let key: shortint::CompressedServerKey = integer_key.into_raw_parts();
        let rerand = cpk_re_randomization_key
            .map(|r| {
                super::re_randomization::compressed_from_raw(r, key.parameters()).map(Arc::new)
            })
            .transpose()?;
        let casting = cpk_key_switching_key_material
            .map(|k| check_casting(k.parameters(), key.parameters()).map(|()| Arc::new(k)))
            .transpose()?;
        let config = key_config(
            *key.parameters(),
            compression_key
                .as_ref()
                .map(CompressedCompressionKeys::parameters),
        )?;
        let compressed =
            CompressedServerKey::from_parts_with_compression(tag, config, key, compression_key)?
                .with_casting_key(casting)
                .with_re_randomization_key(rerand);
        if let Some(oprf) = oprf_key {
            let _ = compressed.tfhe_rs_oprf().set(oprf.key);
        }
        Ok(compressed)
    }
}
