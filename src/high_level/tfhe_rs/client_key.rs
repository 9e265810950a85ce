//! The client key between gpufhe and TFHE-rs's data.

use super::compression::{private_key_from_wire, private_key_to_wire};
use super::dedicated::{
    private_key_from_wire as private_key_from_dedicated_wire,
    private_key_to_wire as private_key_to_dedicated_wire,
};
use super::parameters::{parameters_from_wire, parameters_to_wire, tag_from_wire, tag_to_wire};
use super::wire::core::{GlweSecretKey as WireGlweKey, LweSecretKey as WireLweKey, PolynomialSize};
use super::wire::high_level::{
    AtomicPatternOprfPrivateKey, ClientKey as WireClientKey, HlIntegerClientKey, IntegerClientKey,
    OprfPrivateKey, ShortintOprfPrivateKey,
};
use super::wire::shortint::{
    AtomicPatternClientKey, ClientKey as WireShortintKey, StandardAtomicPatternClientKey,
};
use super::{versionize_through_wire, TfheRsForm};
use crate::core_crypto::{GlweSecretKey, LweSecretKey};
use crate::error::{Error, Result};
use crate::high_level::{ClientKey, ConfigBuilder};
use crate::shortint;

impl TfheRsForm for ClientKey {
    type Wire = WireClientKey;

    fn to_wire(&self) -> Result<WireClientKey> {
        let key = self.shortint_key();
        let glwe = key.glwe_secret_key();
        let standard = StandardAtomicPatternClientKey {
            glwe_secret_key: WireGlweKey {
                data: glwe.as_slice().to_vec(),
                polynomial_size: PolynomialSize(glwe.polynomial_size().0),
            },
            lwe_secret_key: WireLweKey {
                data: key.small_lwe_secret_key().as_slice().to_vec(),
            },
            parameters: parameters_to_wire(key.parameters()),
            wopbs_parameters: None,
        };
        let oprf = self.tfhe_rs_oprf_key().map(|k| {
            OprfPrivateKey(ShortintOprfPrivateKey(
                AtomicPatternOprfPrivateKey::Standard(WireLweKey {
                    data: k.as_slice().to_vec(),
                }),
            ))
        });
        Ok(WireClientKey {
            key: HlIntegerClientKey {
                key: IntegerClientKey {
                    key: WireShortintKey {
                        atomic_pattern: AtomicPatternClientKey::Standard(standard),
                    },
                },
                dedicated_compact_private_key: self
                    .dedicated_compact_key()
                    .map(private_key_to_dedicated_wire),
                compression_key: self.compression_key().map(private_key_to_wire),
                noise_squashing_private_key: self
                    .noise_squashing_key()
                    .map(TfheRsForm::to_wire)
                    .transpose()?,
                noise_squashing_compression_private_key: self
                    .noise_squashing_compression_key()
                    .map(super::squashed_lists::private_key_to_wire),
                cpk_re_randomization_params: self
                    .config()
                    .re_randomization_parameters()
                    .as_ref()
                    .map(super::re_randomization::parameters_to_wire),
                dedicated_oprf_private_key: oprf,
                transciphering_private_key: None,
            },
            tag: tag_to_wire(self.tag()),
        })
    }

    fn from_wire(wire: WireClientKey) -> Result<Self> {
        let tag = tag_from_wire(&wire.tag);
        let hl = wire.key;
        // The other optional keys are refused when they are read (their wire types
        // cannot be deserialized).
        let AtomicPatternClientKey::Standard(standard) = hl.key.key.atomic_pattern else {
            return Err(Error::InvalidParameter(
                "a client key of the KeySwitch32 atomic pattern, which gpufhe does not support"
                    .into(),
            ));
        };
        let parameters = parameters_from_wire(&standard.parameters)?;
        let glwe = GlweSecretKey::from_binary_coefficients(
            standard.glwe_secret_key.data,
            crate::core_crypto::PolynomialSize(standard.glwe_secret_key.polynomial_size.0),
        )?;
        let lwe = LweSecretKey::from_binary_coefficients(standard.lwe_secret_key.data)?;
        let key = shortint::ClientKey::from_secret_keys(glwe, lwe, parameters)?;
        let oprf = match hl.dedicated_oprf_private_key {
            None => None,
            Some(OprfPrivateKey(ShortintOprfPrivateKey(
                AtomicPatternOprfPrivateKey::Standard(k),
            ))) => {
                let k = LweSecretKey::from_binary_coefficients(k.data)?;
                crate::error::check_eq(
                    "dimension of the OPRF secret key",
                    parameters.lwe_dimension.0,
                    k.lwe_dimension().0,
                )?;
                Some(k)
            }
            Some(_) => {
                return Err(Error::InvalidParameter(
                    "an OPRF key of the KeySwitch32 atomic pattern".into(),
                ))
            }
        };
        let compression = hl.compression_key.map(private_key_from_wire).transpose()?;
        let dedicated = hl
            .dedicated_compact_private_key
            .map(|k| private_key_from_dedicated_wire(k, &parameters))
            .transpose()?;
        let builder = ConfigBuilder::default().with_insecure_custom_parameters(parameters)?;
        let noise_squashing = hl
            .noise_squashing_private_key
            .map(shortint::NoiseSquashingPrivateKey::from_wire)
            .transpose()?;
        let builder = match &compression {
            None => builder,
            Some(c) => builder.try_enable_compression(*c.parameters())?,
        };
        let builder = match &dedicated {
            None => builder,
            Some(d) => builder.use_dedicated_compact_public_key_parameters((
                *d.parameters(),
                *d.casting_parameters(),
            )),
        };
        let builder = match &hl.cpk_re_randomization_params {
            None => builder,
            Some(r) => builder.enable_ciphertext_re_randomization(
                super::re_randomization::parameters_from_wire(r),
            ),
        };
        let squashing_compression = hl
            .noise_squashing_compression_private_key
            .map(super::squashed_lists::private_key_from_wire)
            .transpose()?;
        let builder = match &noise_squashing {
            None => builder,
            Some(ns) => builder.enable_noise_squashing(*ns.parameters()),
        };
        let config = match &squashing_compression {
            None => builder,
            Some(c) => builder.enable_noise_squashing_compression(*c.parameters()),
        }
        .build();
        config.check()?; // the noise-squashing parameters against the blocks
        let out = ClientKey::from_all_parts(config, tag, key, compression, oprf, dedicated);
        if let Some(ns) = noise_squashing {
            out.set_noise_squashing_key(ns)?;
        }
        if let Some(c) = squashing_compression {
            out.set_noise_squashing_compression_key(c)?;
        }
        Ok(out)
    }
}

versionize_through_wire!("high_level_api::ClientKey", WireClientKey, [] ClientKey);
