//! The client key's raw parts: [`ClientKey`] taken apart into TFHE-rs 1.8's parts,
//! in TFHE-rs's order, and put back together.

use super::keys::{key_config, UnsupportedKeyPart};
use crate::core_crypto::LweSecretKey;
use crate::error::Result;
use crate::high_level::config::check_private_key;
use crate::high_level::internals::expect_op;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::ClientKey;
use crate::shortint::{self, CompressionPrivateKey, ReRandomizationParameters};

/// TFHE-rs's dedicated OPRF secret key, a part of the client keys read from
/// TFHE-rs's data. gpufhe's pseudo-random values need no key: it is kept, opaque,
/// to be written back with the key it came with.
#[derive(Clone)]
pub struct OprfPrivateKey {
    key: LweSecretKey,
}

impl std::fmt::Debug for OprfPrivateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A secret key: its coefficients are not shown.
        write!(f, "OprfPrivateKey {{ .. }}")
    }
}

/// The parts of a [`ClientKey`], in TFHE-rs's order: the integer key, the
/// dedicated compact private key, the compression private key, the noise squashing
/// private key, the noise squashing compression private key, the re-randomization
/// parameters, the OPRF private key, the transciphering private key and the tag.
pub type ClientKeyParts = (
    crate::integer::ClientKey,
    Option<UnsupportedKeyPart>,
    Option<CompressionPrivateKey>,
    Option<UnsupportedKeyPart>,
    Option<UnsupportedKeyPart>,
    Option<ReRandomizationParameters>,
    Option<OprfPrivateKey>,
    Option<UnsupportedKeyPart>,
    KeyTag,
);

impl ClientKey {
    /// The key's parts, in TFHE-rs's order ([`ClientKeyParts`]): the integer key
    /// (the block key), `None` for the parts gpufhe does not hold
    /// ([`UnsupportedKeyPart`]: gpufhe's compact public keys encrypt under the
    /// block key itself, so there is no dedicated compact private key), the
    /// compression private key, TFHE-rs's OPRF secret key if the key was read from
    /// TFHE-rs's data, and the tag. Panics if the operating system's random
    /// source fails ([`Self::try_into_raw_parts`] returns the error).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let x = FheUint8::encrypt(77u8, &client_key);
    /// let (key, cpk, compression, ns, nsc, rr, oprf, tc, tag) = client_key.into_raw_parts();
    /// let client_key = ClientKey::from_raw_parts(key, cpk, compression, ns, nsc, rr, oprf, tc, tag);
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 77);
    /// ```
    #[track_caller]
    pub fn into_raw_parts(self) -> ClientKeyParts {
        expect_op(self.try_into_raw_parts(), "into_raw_parts")
    }

    /// [`Self::into_raw_parts`], with the operating system's random source's
    /// failure as an `Err`: the block key of the parts is a copy of the secret
    /// keys with an encryption generator of its own, freshly seeded (two keys never
    /// share one, so that no two encryptions draw the same randomness).
    ///
    /// ```
    /// use gpufhe::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let block = client_key.shortint_key().encrypt(3).unwrap();
    /// let (key, .., tag) = client_key.clone().try_into_raw_parts().unwrap();
    /// assert_eq!(tag, client_key.tag());
    /// assert_eq!(key.shortint_key().decrypt(&block).unwrap(), 3);
    /// ```
    pub fn try_into_raw_parts(self) -> Result<ClientKeyParts> {
        let block_key = self.shortint_key();
        let key = crate::integer::ClientKey::from_raw_parts(shortint::ClientKey::from_secret_keys(
            block_key.glwe_secret_key().clone(),
            block_key.small_lwe_secret_key().clone(),
            *block_key.parameters(),
        )?);
        let compression = self.compression_key().cloned();
        let oprf = self
            .tfhe_rs_oprf_key()
            .map(|key| OprfPrivateKey { key: key.clone() });
        Ok((
            key,
            None,
            compression,
            None,
            None,
            self.config().re_randomization_parameters(),
            oprf,
            None,
            self.tag(),
        ))
    }

    /// The key of these parts (TFHE-rs's order, see [`Self::into_raw_parts`]).
    /// Panics with the reason on parts that do not make a key (a compression key
    /// of parameters the blocks cannot take); [`Self::try_from_raw_parts`] returns
    /// it.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheInt8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// // A key assembled from a block key and a tag of one's own.
    /// let block_key = gpufhe::shortint::ClientKey::new(TEST_PARAMS).unwrap();
    /// let tag = ClientKey::generate(
    ///     gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST_PARAMS).unwrap(),
    /// )
    /// .tag();
    /// let key = gpufhe::integer::ClientKey::from_raw_parts(block_key);
    /// let client_key = ClientKey::from_raw_parts(key, None, None, None, None, None, None, None, tag);
    /// let x = FheInt8::encrypt(-5i8, &client_key);
    /// assert_eq!(FheDecrypt::<i8>::decrypt(&x, &client_key), -5);
    /// ```
    #[allow(clippy::too_many_arguments)]
    #[track_caller]
    pub fn from_raw_parts(
        key: crate::integer::ClientKey,
        dedicated_compact_private_key: Option<UnsupportedKeyPart>,
        compression_key: Option<CompressionPrivateKey>,
        noise_squashing_key: Option<UnsupportedKeyPart>,
        noise_squashing_compression_key: Option<UnsupportedKeyPart>,
        cpk_re_randomization_parameters: Option<ReRandomizationParameters>,
        oprf_private_key: Option<OprfPrivateKey>,
        transciphering_private_key: Option<UnsupportedKeyPart>,
        tag: KeyTag,
    ) -> Self {
        expect_op(
            Self::try_from_raw_parts(
                key,
                dedicated_compact_private_key,
                compression_key,
                noise_squashing_key,
                noise_squashing_compression_key,
                cpk_re_randomization_parameters,
                oprf_private_key,
                transciphering_private_key,
                tag,
            ),
            "from_raw_parts",
        )
    }

    /// [`Self::from_raw_parts`], with the reason the parts make no key as an
    /// `Err`.
    ///
    /// ```
    /// use gpufhe::ClientKey;
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS,
    /// # };
    /// let config = gpufhe::ConfigBuilder::default()
    ///     .with_insecure_custom_parameters(TEST_PARAMS)
    ///     .unwrap()
    ///     .enable_compression(COMPRESSION);
    /// let (key, _, compression, .., tag) = ClientKey::generate(config).into_raw_parts();
    /// let client_key =
    ///     ClientKey::try_from_raw_parts(key, None, compression, None, None, None, None, None, tag)
    ///         .unwrap();
    /// assert_eq!(client_key.config().compression_parameters(), Some(&COMPRESSION));
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn try_from_raw_parts(
        key: crate::integer::ClientKey,
        dedicated_compact_private_key: Option<UnsupportedKeyPart>,
        compression_key: Option<CompressionPrivateKey>,
        noise_squashing_key: Option<UnsupportedKeyPart>,
        noise_squashing_compression_key: Option<UnsupportedKeyPart>,
        cpk_re_randomization_parameters: Option<ReRandomizationParameters>,
        oprf_private_key: Option<OprfPrivateKey>,
        transciphering_private_key: Option<UnsupportedKeyPart>,
        tag: KeyTag,
    ) -> Result<Self> {
        // The parts gpufhe does not hold have no value: they are all `None`.
        let _ = (
            dedicated_compact_private_key,
            noise_squashing_key,
            noise_squashing_compression_key,
            transciphering_private_key,
        );
        let key = key.into_raw_parts();
        let compression = compression_key.as_ref().map(|k| *k.parameters());
        if let Some(c) = &compression {
            c.validate(key.parameters())?;
        }
        let config = key_config(*key.parameters(), compression.as_ref())?
            .with_re_randomization(cpk_re_randomization_parameters);
        // The legacy mode needs the dedicated private key, not among the parts.
        config.check()?;
        check_private_key(&config, compression_key.as_ref())?;
        Ok(ClientKey::with_tfhe_rs_oprf_key(
            config,
            tag,
            key,
            compression_key,
            oprf_private_key.map(|k| k.key),
        ))
    }
}
