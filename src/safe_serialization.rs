//! Safe serialization at the path TFHE-rs users know (`tfhe::safe_serialization`):
//! the functions of [`crate::serialization`] shaped as TFHE-rs's, and TFHE-rs's
//! builders of them.
//!
//! As in TFHE-rs, [`safe_deserialize`] and [`safe_deserialize_conformant`] return
//! their error as a `String` here (the message of the [`crate::Error`] that
//! [`crate::serialization::safe_deserialize`] returns); [`safe_serialize`],
//! [`safe_serialized_size`] and the builders return [`crate::Error`].
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
//! # Ok::<(), gpufhe::Error>(())
//! ```

pub use crate::high_level::{
    DeserializationConfig, NonConformantDeserializationConfig, SerializationConfig,
};
pub use crate::serialization::{safe_serialize, SafeSerialization};

use crate::high_level::ParameterSetConformant;
use std::io::Read;

/// Reads a value written by [`safe_serialize`], reading at most `size_limit`
/// bytes ([`crate::serialization::safe_deserialize`], its error as a `String`, as
/// TFHE-rs returns it).
pub fn safe_deserialize<T: SafeSerialization>(
    reader: impl Read,
    size_limit: u64,
) -> Result<T, String> {
    crate::serialization::safe_deserialize(reader, size_limit).map_err(|e| e.to_string())
}

/// [`safe_deserialize`], then `Err` unless the value conforms to `params`
/// ([`crate::serialization::safe_deserialize_conformant`], its error as a
/// `String`, as TFHE-rs returns it).
pub fn safe_deserialize_conformant<T: SafeSerialization + ParameterSetConformant>(
    reader: impl Read,
    size_limit: u64,
    params: &T::ParameterSet,
) -> Result<T, String> {
    crate::serialization::safe_deserialize_conformant(reader, size_limit, params)
        .map_err(|e| e.to_string())
}

/// The bytes [`safe_serialize`] writes for `value`, header included (as
/// TFHE-rs's `safe_serialized_size`; [`SerializationConfig::serialized_size`]).
pub fn safe_serialized_size<T: SafeSerialization>(value: &T) -> crate::Result<u64> {
    SerializationConfig::new_with_unlimited_size().serialized_size(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serialization::ConformanceParams;
    use crate::Config;

    #[test]
    fn malformed_input_is_a_string_error_with_the_crate_message() {
        let mut buffer = vec![];
        safe_serialize(&Config::default(), &mut buffer, 1 << 20).unwrap();
        let err = safe_deserialize::<Config>(&buffer[..buffer.len() - 1], 1 << 20).unwrap_err();
        let expected =
            crate::serialization::safe_deserialize::<Config>(&buffer[..buffer.len() - 1], 1 << 20)
                .unwrap_err()
                .to_string();
        assert_eq!(err, expected);
        let garbage = safe_deserialize::<Config>(&b"not gpufhe data"[..], 1 << 20);
        assert!(garbage.unwrap_err().contains("magic"));
        let too_small = safe_deserialize::<Config>(buffer.as_slice(), 8);
        assert!(too_small.is_err());
        let params = ConformanceParams::from(Config::default());
        let conformant: Result<Config, String> =
            safe_deserialize_conformant(&b"xx"[..], 1 << 20, &params);
        assert!(conformant.is_err());
        assert_eq!(
            safe_serialized_size(&Config::default()).unwrap(),
            buffer.len() as u64
        );
    }
}
