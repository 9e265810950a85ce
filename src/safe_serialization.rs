//! Safe serialization at the path TFHE-rs users know (`tfhe::safe_serialization`),
//! in TFHE-rs 1.8's format: TFHE-rs's header and size limits
//! (`tfhe-safe-serialize`) around each value's versioned form
//! (`tfhe-versionable`), so that TFHE-rs reads what gpufhe writes and the reverse.
//! The functions take TFHE-rs's bounds (`Serialize + Versionize + Named` to write,
//! `DeserializeOwned + Unversionize + Named` to read), so generic helpers written
//! for TFHE-rs compile unchanged.
//!
//! What is written is TFHE-rs's format for the values, client keys and everything
//! else whose TFHE-rs form gpufhe speaks (docs/tfhe-rs-format.md lists them); the
//! other types are written in gpufhe's own form inside TFHE-rs's header, under a
//! `gpufhe::` type name that TFHE-rs refuses by name. gpufhe's older format, with
//! its own magic bytes ([`crate::serialization`], which still reads and writes
//! it), is recognised and refused with how to convert it.
//!
//! As in TFHE-rs, [`safe_deserialize`] and [`safe_deserialize_conformant`] return
//! their error as a `String`; [`safe_serialize`], [`safe_serialized_size`] and the
//! builders return [`crate::Error`].
//!
//! ```
//! use gpufhe::safe_serialization::{safe_deserialize, safe_serialize, safe_serialized_size};
//! use gpufhe::Config;
//! let mut buffer = vec![];
//! safe_serialize(&Config::default(), &mut buffer, 1 << 20)?;
//! assert_eq!(safe_serialized_size(&Config::default())?, buffer.len() as u64);
//! let back: Result<Config, String> = safe_deserialize(buffer.as_slice(), 1 << 20);
//! assert_eq!(back?, Config::default());
//! let truncated: Result<Config, String> = safe_deserialize(&buffer[..4], 1 << 20);
//! assert!(truncated.is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::high_level::{
    DeserializationConfig, NonConformantDeserializationConfig, SerializationConfig,
};

use crate::high_level::ParameterSetConformant;
use crate::named::Named;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::{Read, Write};
use tfhe_versionable::{Unversionize, Versionize};

/// Writes `value` to `writer` in TFHE-rs's format, at most `size_limit` bytes
/// ([`SerializationConfig::serialize_into`]).
///
/// ```
/// use gpufhe::safe_serialization::safe_serialize;
/// use gpufhe::Config;
/// let mut bytes = Vec::new();
/// safe_serialize(&Config::default(), &mut bytes, 1 << 20)?;
/// assert!(safe_serialize(&Config::default(), &mut Vec::new(), 8).is_err());
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub fn safe_serialize<T: Serialize + Versionize + Named>(
    value: &T,
    writer: impl Write,
    size_limit: u64,
) -> crate::Result<()> {
    SerializationConfig::new(size_limit).serialize_into(value, writer)
}

/// Reads a value written by [`safe_serialize`] (by gpufhe or TFHE-rs), reading at
/// most `size_limit` bytes ([`NonConformantDeserializationConfig::deserialize_from`],
/// its error as a `String`, as TFHE-rs returns it).
///
/// ```
/// use gpufhe::safe_serialization::{safe_deserialize, safe_serialize};
/// use gpufhe::Config;
/// let mut bytes = Vec::new();
/// safe_serialize(&Config::default(), &mut bytes, 1 << 20)?;
/// let back: Config = safe_deserialize(bytes.as_slice(), 1 << 20)?;
/// assert_eq!(back, Config::default());
/// assert!(safe_deserialize::<Config>(&b"not serialized data"[..], 1 << 20).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn safe_deserialize<T: DeserializeOwned + Unversionize + Named>(
    reader: impl Read,
    size_limit: u64,
) -> Result<T, String> {
    DeserializationConfig::new(size_limit)
        .disable_conformance()
        .deserialize_from(reader)
        .map_err(|e| e.to_string())
}

/// [`safe_deserialize`], then `Err` unless the value conforms to `params`
/// ([`DeserializationConfig::deserialize_from`], its error as a `String`, as
/// TFHE-rs returns it).
///
/// ```
/// use gpufhe::safe_serialization::{safe_deserialize_conformant, safe_serialize};
/// use gpufhe::shortint::COMP_PARAM_MESSAGE_2_CARRY_2;
/// use gpufhe::{Config, ConfigBuilder};
/// let mut bytes = Vec::new();
/// safe_serialize(&Config::default(), &mut bytes, 1 << 20)?;
/// let same = Config::default().into();
/// let back: Config = safe_deserialize_conformant(bytes.as_slice(), 1 << 20, &same)?;
/// let other = ConfigBuilder::default().enable_compression(COMP_PARAM_MESSAGE_2_CARRY_2);
/// let other = other.build().into();
/// assert!(safe_deserialize_conformant::<Config>(bytes.as_slice(), 1 << 20, &other).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn safe_deserialize_conformant<T>(
    reader: impl Read,
    size_limit: u64,
    params: &T::ParameterSet,
) -> Result<T, String>
where
    T: DeserializeOwned + Unversionize + Named + ParameterSetConformant,
{
    DeserializationConfig::new(size_limit)
        .deserialize_from(reader, params)
        .map_err(|e| e.to_string())
}

/// The bytes [`safe_serialize`] writes for `value`, header included (as
/// TFHE-rs's `safe_serialized_size`; [`SerializationConfig::serialized_size`]).
///
/// ```
/// use gpufhe::safe_serialization::{safe_serialize, safe_serialized_size};
/// use gpufhe::Config;
/// let mut bytes = Vec::new();
/// safe_serialize(&Config::default(), &mut bytes, 1 << 20)?;
/// assert_eq!(safe_serialized_size(&Config::default())?, bytes.len() as u64);
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub fn safe_serialized_size<T: Serialize + Versionize + Named>(value: &T) -> crate::Result<u64> {
    SerializationConfig::new_with_unlimited_size().serialized_size(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn malformed_input_is_a_string_error_with_the_crate_message() {
        let mut buffer = vec![];
        safe_serialize(&Config::default(), &mut buffer, 1 << 20).unwrap();
        let err = safe_deserialize::<Config>(&buffer[..buffer.len() - 1], 1 << 20).unwrap_err();
        assert!(
            err.contains("cannot read a high_level_api::Config"),
            "{err}"
        );
        let too_small = safe_deserialize::<Config>(buffer.as_slice(), 8);
        assert!(too_small.is_err());
        let mut own = vec![];
        crate::serialization::safe_serialize(&Config::default(), &mut own, 1 << 20).unwrap();
        let err = safe_deserialize::<Config>(own.as_slice(), 1 << 20).unwrap_err();
        assert!(err.contains("gpufhe's own format"), "{err}");
        assert_eq!(
            safe_serialized_size(&Config::default()).unwrap(),
            buffer.len() as u64
        );
    }
}
