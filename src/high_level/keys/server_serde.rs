//! How a [`ServerKey`] is written and read back: its host key, configuration and
//! compression keys; a key read back computes on the CPU.

use super::server::ServerKey;
use super::tag::KeyTag;
use crate::high_level::config::{check_parameters, Config};
use crate::scheduler::SchedulerConfig;
use crate::shortint;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How a [`ServerKey`] is written (its blocks-level key always from the host).
#[derive(Serialize)]
struct ServerKeyRef<'a> {
    tag: KeyTag,
    config: &'a Config,
    key: &'a shortint::ServerKey,
    compression: Option<&'a shortint::CompressionKeys>,
}

/// [`ServerKeyRef`] as read.
#[derive(Deserialize)]
struct ServerKeyParts {
    tag: KeyTag,
    config: Config,
    key: shortint::ServerKey,
    compression: Option<shortint::CompressionKeys>,
}

/// Writes the tag, the configuration and the keyswitching and Fourier bootstrap keys
/// (the counters are not written).
impl Serialize for ServerKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        if self.casting_key().is_some() {
            return Err(crate::high_level::lists::casting::dedicated_in_own_format());
        }
        if self.re_randomization_key().is_some() {
            return Err(crate::high_level::re_randomization_metadata::in_own_format());
        }
        ServerKeyRef {
            tag: self.tag(),
            config: self.config(),
            key: self.scheduler().host_key(),
            compression: self.compression_keys(),
        }
        .serialize(s)
    }
}

/// Checks that the key has the parameters of its configuration; the key computes on
/// the CPU (a GPU key is written as its host key, and read back as a CPU key).
impl<'de> Deserialize<'de> for ServerKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let parts = ServerKeyParts::deserialize(d)?;
        check_parameters(&parts.config, parts.key.parameters())
            .and_then(|()| {
                crate::high_level::config::check_expanded_keys(
                    &parts.config,
                    parts.compression.as_ref(),
                )
            })
            .map_err(serde::de::Error::custom)?;
        let scheduler = SchedulerConfig::from_env().map_err(serde::de::Error::custom)?;
        Ok(ServerKey::from_parts(
            parts.tag,
            parts.config,
            parts.key,
            parts.compression.map(Arc::new),
            &scheduler,
        ))
    }
}
