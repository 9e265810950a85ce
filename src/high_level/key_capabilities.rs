//! What the keys hold and support, under TFHE-rs's names (`supports_*`,
//! `has_*_key`), the computation parameters of a client key, and client keys drawn
//! from a seed.
//!
//! This crate's server keys hold compression keys when the configuration enables
//! compression, and nothing else optional: random values are drawn with the server
//! key itself (no dedicated OPRF key), compact public keys encrypt under the block
//! parameters (no keyswitch material), and there is no noise squashing,
//! re-randomization or transciphering.

use super::keys::{ClientKey, CompressedServerKey, KeyTag, ServerKey};
use super::{Config, Seed};
use crate::core_crypto::SecretRandomGenerator;
use crate::error::Result;
use crate::shortint::{self, AtomicPatternParameters};

impl ClientKey {
    /// A client key drawn deterministically from `seed` (as TFHE-rs's
    /// `generate_with_seed`): the same seed and configuration give the same secret
    /// keys, compression key and tag. Anyone who knows the seed knows the keys: use
    /// a seed of 128 secret random bits, or [`ClientKey::generate`].
    ///
    /// # Panics
    ///
    /// If the parameters of `config` cannot generate keys (as
    /// [`ClientKey::generate`]).
    #[track_caller]
    pub fn generate_with_seed(config: impl Into<Config>, seed: Seed) -> Self {
        match Self::try_generate_with_seed(config, seed) {
            Ok(key) => key,
            Err(e) => panic!("ClientKey::generate_with_seed failed: {e}"),
        }
    }

    /// [`ClientKey::generate_with_seed`], `Err` where [`ClientKey::try_generate`]
    /// returns one for the configuration.
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
        let tag = KeyTag::from_generator(&mut generator(b"gpufhe:key-tag\0\0"));
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
        Ok(Self::from_parts(config, tag, key, compression))
    }

    /// The parameters its blocks are computed with (as TFHE-rs's
    /// `computation_parameters`): the block parameters of its configuration.
    pub fn computation_parameters(&self) -> AtomicPatternParameters {
        *self.config().parameters()
    }
}

/// The `has_*` accessors TFHE-rs gives both [`ServerKey`] and
/// [`CompressedServerKey`].
macro_rules! key_material_accessors {
    ($key:ty) => {
        impl $key {
            /// Whether it holds dedicated keyswitch material for compact public keys:
            /// always `false` (they encrypt under the block parameters).
            pub fn has_cpk_key_switching_key_material(&self) -> bool {
                false
            }

            /// Whether it holds a compression key: whether its configuration
            /// enables compression.
            pub fn has_compression_key(&self) -> bool {
                self.config().compression_parameters().is_some()
            }

            /// Whether it holds a decompression key: whether its configuration
            /// enables compression (the two keys come together).
            pub fn has_decompression_key(&self) -> bool {
                self.config().compression_parameters().is_some()
            }

            /// Whether it holds a noise-squashing key: always `false` (not
            /// supported).
            pub fn has_noise_squashing_key(&self) -> bool {
                false
            }

            /// Whether it holds a noise-squashing compression key: always `false`
            /// (not supported).
            pub fn has_noise_squashing_compression_key(&self) -> bool {
                false
            }

            /// Whether it holds a re-randomization key: always `false` (not
            /// supported).
            pub fn has_re_randomization_key(&self) -> bool {
                false
            }

            /// Whether it holds a dedicated OPRF key: always `false` (random values
            /// are drawn with the server key itself).
            pub fn has_oprf_key(&self) -> bool {
                false
            }

            /// Whether it holds a transciphering key: always `false` (not
            /// supported).
            pub fn has_transciphering_key(&self) -> bool {
                false
            }
        }
    };
}

key_material_accessors!(ServerKey);
key_material_accessors!(CompressedServerKey);

impl ServerKey {
    /// Whether it can compress ciphertexts: whether its configuration enables
    /// compression.
    pub fn supports_compression(&self) -> bool {
        self.has_compression_key()
    }

    /// Whether it can draw encrypted random values: always `true`.
    pub fn supports_oprf(&self) -> bool {
        true
    }

    /// Whether it can squash noise: always `false` (not supported).
    pub fn supports_noise_squashing(&self) -> bool {
        false
    }

    /// Whether it can compress squashed ciphertexts: always `false` (not
    /// supported).
    pub fn supports_noise_squashing_compression(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::shortint::{
        COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
    };
    use crate::{ClientKey, CompressedServerKey, ConfigBuilder, Seed};

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

    #[test]
    fn compression_keys_are_reported_as_the_configuration_enables_them() {
        let plain = ConfigBuilder::default()
            .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .unwrap();
        let compressing = plain.enable_compression(COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
        for (builder, compression) in [(plain, false), (compressing, true)] {
            let ck = ClientKey::try_generate(builder).unwrap();
            assert_eq!(
                ck.computation_parameters(),
                PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2
            );
            let csk = CompressedServerKey::try_new(&ck).unwrap();
            assert_eq!(csk.has_compression_key(), compression);
            assert_eq!(csk.has_decompression_key(), compression);
            assert!(!csk.has_oprf_key() && !csk.has_noise_squashing_key());
            let sk = csk.try_decompress().unwrap();
            assert_eq!(sk.supports_compression(), compression);
            assert_eq!(sk.has_compression_key(), compression);
            assert!(sk.supports_oprf() && !sk.supports_noise_squashing());
            assert!(!sk.has_re_randomization_key() && !sk.has_cpk_key_switching_key_material());
        }
    }
}
