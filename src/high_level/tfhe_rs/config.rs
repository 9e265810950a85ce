//! The configuration between gpufhe and TFHE-rs's data (TFHE-rs has no `Named`
//! for it: its form travels inside keys, or alone as `versionize()`'s bytes).

use super::compression::{compression_parameters_from_wire, compression_parameters_to_wire};
use super::dedicated::{ks_from_wire, ks_to_wire, pke_from_wire, pke_to_wire};
use super::parameters::{parameters_from_wire, parameters_to_wire};
use super::wire::high_level::{Config as WireConfig, IntegerConfig};
use super::wire::shortint::AtomicPatternParameters;
use super::{versionize_through_wire, TfheRsForm};
use crate::error::{Error, Result};
use crate::high_level::{Config, ConfigBuilder};

impl TfheRsForm for Config {
    type Wire = WireConfig;

    /// The block, compression and dedicated compact public-key parameters; TFHE-rs's
    /// dedicated OPRF key is on, as
    /// in TFHE-rs's default (gpufhe's own pseudo-random values need no key).
    fn to_wire(&self) -> Result<WireConfig> {
        Ok(WireConfig {
            inner: IntegerConfig {
                block_parameters: AtomicPatternParameters::Standard(parameters_to_wire(
                    self.parameters(),
                )),
                dedicated_compact_public_key_parameters: self
                    .dedicated_compact_public_key_parameters()
                    .map(|(pke, ks)| (pke_to_wire(&pke), ks_to_wire(&ks))),
                compression_parameters: self
                    .compression_parameters()
                    .map(compression_parameters_to_wire),
                noise_squashing_parameters: self
                    .noise_squashing_parameters()
                    .map(super::squashed::noise_squashing_parameters_to_wire),
                noise_squashing_compression_parameters: self
                    .noise_squashing_compression_parameters()
                    .map(super::squashed_lists::parameters_to_wire),
                cpk_re_randomization_params: self
                    .re_randomization_parameters()
                    .as_ref()
                    .map(super::re_randomization::parameters_to_wire),
                dedicated_oprf_key: true,
                transciphering_parameters: None,
            },
        })
    }

    /// The block, compression and dedicated compact public-key parameters (the other
    /// optional parts TFHE-rs may
    /// hold are refused when read; whether TFHE-rs would make a dedicated OPRF key
    /// does not matter here).
    fn from_wire(wire: WireConfig) -> Result<Self> {
        let AtomicPatternParameters::Standard(parameters) = &wire.inner.block_parameters else {
            return Err(Error::InvalidParameter(
                "a configuration of the KeySwitch32 atomic pattern".into(),
            ));
        };
        let builder = ConfigBuilder::default()
            .with_insecure_custom_parameters(parameters_from_wire(parameters)?)?;
        let builder = match &wire.inner.compression_parameters {
            None => builder,
            Some(c) => builder.try_enable_compression(compression_parameters_from_wire(c)?)?,
        };
        let builder = match &wire.inner.dedicated_compact_public_key_parameters {
            None => builder,
            Some((pke, ks)) => builder.use_dedicated_compact_public_key_parameters((
                pke_from_wire(pke, "configuration")?,
                ks_from_wire(ks),
            )),
        };
        let builder = match &wire.inner.cpk_re_randomization_params {
            None => builder,
            Some(r) => builder.enable_ciphertext_re_randomization(
                super::re_randomization::parameters_from_wire(r),
            ),
        };
        let builder = match &wire.inner.noise_squashing_parameters {
            None => builder,
            Some(ns) => builder
                .enable_noise_squashing(super::squashed::noise_squashing_parameters_from_wire(ns)?),
        };
        Ok(match &wire.inner.noise_squashing_compression_parameters {
            None => builder,
            Some(c) => builder.enable_noise_squashing_compression(
                super::squashed_lists::parameters_from_wire(c)?,
            ),
        }
        .build())
    }
}

versionize_through_wire!("high_level_api::Config", WireConfig, [] Config);
