//! Safe serialization in TFHE-rs 1.8's format: [`SerializationConfig`],
//! [`DeserializationConfig`] and [`NonConformantDeserializationConfig`] (TFHE-rs's
//! builders, over `tfhe-safe-serialize`), which `gpufhe::safe_serialization` offers
//! at TFHE-rs's path with its functions.
//!
//! Input in gpufhe's own format ([`crate::serialization`]) is recognised by its
//! magic bytes and refused with how to convert it.

use crate::error::{Error, Result};
use crate::high_level::ParameterSetConformant;
use crate::serialization::SERIALIZATION_MAGIC;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::{Read, Write};
use tfhe_safe_serialize::Named;
use tfhe_versionable::{Unversionize, Versionize};

/// How [`SerializationConfig::serialize_into`] writes: TFHE-rs's header (its format
/// version, versioning mode and the type's name) and the value's versioned form,
/// with a size limit (or none).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
/// use gpufhe::{ClientKey, ConfigBuilder, FheUint8};
/// let client_key = ClientKey::generate(ConfigBuilder::default());
/// let x = FheUint8::encrypt(42u8, &client_key);
/// let mut bytes = Vec::new();
/// SerializationConfig::new(1 << 20).serialize_into(&x, &mut bytes)?;
/// let y: FheUint8 = DeserializationConfig::new(1 << 20).deserialize_from(bytes.as_slice(), &(&client_key).into())?;
/// let clear: u8 = y.decrypt(&client_key);
/// assert_eq!(clear, 42);
/// assert!(SerializationConfig::new(100).serialize_into(&x, &mut Vec::new()).is_err());
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SerializationConfig {
    size_limit: Option<u64>,
    versioned: bool,
}

/// How [`DeserializationConfig::deserialize_from`] reads: TFHE-rs's header and
/// versioned form within a size limit, the checks of the value's conversion, then
/// its conformance ([`DeserializationConfig::disable_conformance`] leaves it out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeserializationConfig {
    size_limit: Option<u64>,
    validate_header: bool,
}

/// A [`DeserializationConfig`] without the conformance check (the others remain).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonConformantDeserializationConfig {
    size_limit: Option<u64>,
    validate_header: bool,
}

/// The size-limit builders TFHE-rs's serialization configurations share: `new`,
/// `new_with_unlimited_size`, `disable_size_limit` and `with_size_limit`.
macro_rules! size_limit_builders {
    ($ty:ident, $new:literal, $unlimited:literal) => {
        impl $ty {
            #[doc = $new]
            ///
            /// ```
            /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
            /// use gpufhe::Config;
            /// let config = Config::default();
            /// let mut bytes = Vec::new();
            /// SerializationConfig::new(1 << 10).serialize_into(&config, &mut bytes)?;
            /// let reader = DeserializationConfig::new(1 << 10);
            /// let read: Config = reader.deserialize_from(&bytes[..], &config.into())?;
            /// assert_eq!(read, config);
            /// let tiny = SerializationConfig::new(8);
            /// assert!(tiny.serialize_into(&config, &mut Vec::new()).is_err());
            /// let small = DeserializationConfig::new(8);
            /// assert!(small.deserialize_from::<Config>(&bytes[..], &config.into()).is_err());
            /// # Ok::<(), gpufhe::Error>(())
            /// ```
            pub fn new(size_limit: u64) -> Self {
                Self::DEFAULT.with_size_limit(size_limit)
            }

            #[doc = $unlimited]
            ///
            /// ```
            /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
            /// use gpufhe::Config;
            /// let config = Config::default();
            /// let mut bytes = Vec::new();
            /// SerializationConfig::new_with_unlimited_size().serialize_into(&config, &mut bytes)?;
            /// let unlimited = DeserializationConfig::new_with_unlimited_size();
            /// let read: Config = unlimited.deserialize_from(&bytes[..], &config.into())?;
            /// assert_eq!(read, config);
            /// # Ok::<(), gpufhe::Error>(())
            /// ```
            pub fn new_with_unlimited_size() -> Self {
                Self::DEFAULT
            }

            /// Removes the size limit (see `new_with_unlimited_size`).
            ///
            /// ```
            /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
            /// use gpufhe::Config;
            /// let config = Config::default();
            /// let mut bytes = Vec::new();
            /// let limited = SerializationConfig::new(8);
            /// assert!(limited.serialize_into(&config, &mut bytes).is_err());
            /// limited.disable_size_limit().serialize_into(&config, &mut bytes)?;
            /// let limited = DeserializationConfig::new(8);
            /// assert!(limited.deserialize_from::<Config>(&bytes[..], &config.into()).is_err());
            /// let read: Config =
            ///     limited.disable_size_limit().deserialize_from(&bytes[..], &config.into())?;
            /// assert_eq!(read, config);
            /// # Ok::<(), gpufhe::Error>(())
            /// ```
            pub fn disable_size_limit(self) -> Self {
                Self {
                    size_limit: None,
                    ..self
                }
            }

            /// Sets the size limit to `size_limit` bytes.
            ///
            /// ```
            /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
            /// use gpufhe::Config;
            /// let config = Config::default();
            /// let mut bytes = Vec::new();
            /// let writer = SerializationConfig::new_with_unlimited_size().with_size_limit(8);
            /// assert!(writer.serialize_into(&config, &mut bytes).is_err());
            /// writer.with_size_limit(1 << 10).serialize_into(&config, &mut bytes)?;
            /// let reader = DeserializationConfig::new_with_unlimited_size().with_size_limit(8);
            /// assert!(reader.deserialize_from::<Config>(&bytes[..], &config.into()).is_err());
            /// # Ok::<(), gpufhe::Error>(())
            /// ```
            pub fn with_size_limit(self, size_limit: u64) -> Self {
                Self {
                    size_limit: Some(size_limit),
                    ..self
                }
            }
        }
    };
}
size_limit_builders!(
    SerializationConfig,
    "Writes at most `size_limit` bytes (header included); a larger value is an `Err` \
     and nothing is written.",
    "Writes values of any size."
);
size_limit_builders!(
    DeserializationConfig,
    "Reads at most `size_limit` bytes (header included).",
    "Reads values of any size. Lengths read from the input still allocate no more than \
     the bytes actually read, and values expand within the memory limit \
     ([`crate::memory`])."
);

impl SerializationConfig {
    /// Versioned, without a size limit.
    const DEFAULT: Self = Self {
        size_limit: None,
        versioned: true,
    };

    /// Writes the value's own serde form instead of its versioned form (TFHE-rs's
    /// unversioned mode): smaller, but only a reader with the same Rust types reads
    /// it, so it is not TFHE-rs data (gpufhe's serde form is gpufhe's own format).
    ///
    /// ```
    /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
    /// use gpufhe::Config;
    /// let mut bytes = Vec::new();
    /// let writer = SerializationConfig::new(1 << 10).disable_versioning();
    /// writer.serialize_into(&Config::default(), &mut bytes)?;
    /// let reader = DeserializationConfig::new(1 << 10).disable_conformance();
    /// assert_eq!(reader.deserialize_from::<Config>(&bytes[..])?, Config::default());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn disable_versioning(self) -> Self {
        Self {
            versioned: false,
            ..self
        }
    }

    /// `tfhe-safe-serialize`'s configuration of this one, without a limit (the
    /// limit is checked before anything is written).
    fn unlimited(&self) -> tfhe_safe_serialize::SerializationConfig {
        let config = tfhe_safe_serialize::SerializationConfig::new_with_unlimited_size();
        if self.versioned {
            config
        } else {
            config.disable_versioning()
        }
    }

    /// The bytes `value` takes serialized (header included).
    ///
    /// ```
    /// use gpufhe::safe_serialization::SerializationConfig;
    /// use gpufhe::Config;
    /// let writer = SerializationConfig::new(1 << 10);
    /// let size = writer.serialized_size(&Config::default())?;
    /// let mut bytes = Vec::new();
    /// writer.serialize_into(&Config::default(), &mut bytes)?;
    /// assert_eq!(size, bytes.len() as u64);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn serialized_size<T: Serialize + Versionize + Named>(&self, value: &T) -> Result<u64> {
        self.unlimited()
            .serialized_size(value)
            .map_err(|e| Error::Serialization(format!("cannot write a {}: {e}", T::NAME)))
    }

    /// Writes `value` to `writer`; `Err` if that would take more than the size
    /// limit (nothing is written then) or writing fails.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
    /// use gpufhe::{ClientKey, FheUint8};
    /// let client_key = ClientKey::generate(config);
    /// let x = FheUint8::encrypt(42u8, &client_key);
    /// let mut bytes = Vec::new();
    /// SerializationConfig::new(1 << 20).serialize_into(&x, &mut bytes)?;
    /// let reader = DeserializationConfig::new(1 << 20).disable_conformance();
    /// let y: FheUint8 = gpufhe::serialization::with_insecure_parameters_allowed(|| {
    ///     reader.deserialize_from(&bytes[..])
    /// })?;
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&y, &client_key), 42);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn serialize_into<T: Serialize + Versionize + Named>(
        &self,
        value: &T,
        writer: impl Write,
    ) -> Result<()> {
        if let Some(limit) = self.size_limit {
            let size = self.serialized_size(value)?;
            if size > limit {
                return Err(Error::Serialization(format!(
                    "a serialized {} takes {size} bytes, more than the limit of {limit}",
                    T::NAME
                )));
            }
        }
        self.unlimited()
            .serialize_into(value, writer)
            .map_err(|e| Error::Serialization(format!("cannot write a {}: {e}", T::NAME)))
    }
}

impl DeserializationConfig {
    /// Validating the header, without a size limit.
    const DEFAULT: Self = Self {
        size_limit: None,
        validate_header: true,
    };

    /// Reads without checking the header's versions and type name (TFHE-rs's
    /// option): the bytes are then read as a `T` whatever they say they are, and
    /// only the checks of the value itself remain.
    ///
    /// ```
    /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
    /// use gpufhe::{Config, FheUint8};
    /// let mut bytes = Vec::new();
    /// SerializationConfig::new(1 << 10).serialize_into(&Config::default(), &mut bytes)?;
    /// let reader = DeserializationConfig::new(1 << 10).disable_header_validation();
    /// // A configuration is still not read as an FheUint8: its bytes are not one.
    /// assert!(reader.disable_conformance().deserialize_from::<FheUint8>(&bytes[..]).is_err());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn disable_header_validation(self) -> Self {
        Self {
            validate_header: false,
            ..self
        }
    }

    /// Reads without the conformance check.
    ///
    /// ```
    /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
    /// use gpufhe::shortint::COMP_PARAM_MESSAGE_2_CARRY_2;
    /// use gpufhe::{Config, ConfigBuilder};
    /// let mut bytes = Vec::new();
    /// SerializationConfig::new(1 << 10).serialize_into(&Config::default(), &mut bytes)?;
    /// let other = ConfigBuilder::default().enable_compression(COMP_PARAM_MESSAGE_2_CARRY_2);
    /// let other = other.build();
    /// let reader = DeserializationConfig::new(1 << 10);
    /// assert!(reader.deserialize_from::<Config>(&bytes[..], &other.into()).is_err());
    /// let read: Config = reader.disable_conformance().deserialize_from(&bytes[..])?;
    /// assert_eq!(read, Config::default());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn disable_conformance(self) -> NonConformantDeserializationConfig {
        NonConformantDeserializationConfig {
            size_limit: self.size_limit,
            validate_header: self.validate_header,
        }
    }

    /// Reads a `T` and checks that it conforms to `parameter_set`.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
    /// use gpufhe::{ClientKey, Config, ConfigBuilder, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = ConfigBuilder::default().with_insecure_custom_parameters(TEST_PARAMS)?;
    /// let client_key = ClientKey::generate(config);
    /// let mut bytes = Vec::new();
    /// let x = FheUint8::encrypt(42u8, &client_key);
    /// SerializationConfig::new(1 << 20).serialize_into(&x, &mut bytes)?;
    /// let reader = DeserializationConfig::new(1 << 20);
    /// let x: FheUint8 = gpufhe::serialization::with_insecure_parameters_allowed(|| {
    ///     reader.deserialize_from(&bytes[..], &(&client_key).into())
    /// })?;
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 42);
    /// // Not blocks of the default configuration's parameters.
    /// let default = Config::default().into();
    /// assert!(reader.deserialize_from::<FheUint8>(&bytes[..], &default).is_err());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn deserialize_from<T>(
        &self,
        reader: impl Read,
        parameter_set: &T::ParameterSet,
    ) -> Result<T>
    where
        T: DeserializeOwned + Unversionize + Named + ParameterSetConformant,
    {
        let value: T = self.disable_conformance().deserialize_from(reader)?;
        value.check_conformant(parameter_set).map_err(|e| {
            Error::Serialization(format!(
                "the {} read does not conform to the given parameters: {e}",
                T::NAME
            ))
        })?;
        Ok(value)
    }
}

/// The longest string TFHE-rs's header holds: its versions are 3 bytes long, its
/// type names under 100.
const MAX_HEADER_STRING: u64 = 256;

/// The bytes of TFHE-rs's header at the start of `reader` (its version string, its
/// versioning mode and version string, its type name), read with every string
/// length checked before anything is allocated for it (bincode would allocate a
/// forged length in full before reading); or fewer bytes where the input ends or
/// stops looking like such a header (gpufhe's own magic bytes, or anything else,
/// which the header's reader then refuses), for the reader to judge.
fn read_header(reader: &mut impl Read) -> std::io::Result<Vec<u8>> {
    let mut header = Vec::new();
    // The header version, the versioning mode, its version string, the type name.
    // Before each string, the bytes that precede its length (the mode's 4).
    for prefix in [0, 4, 0] {
        if !read_more(reader, &mut header, prefix + 8)? || header.starts_with(&SERIALIZATION_MAGIC)
        {
            return Ok(header);
        }
        let at = header.len() - 8;
        let len = u64::from_le_bytes(header[at..].try_into().unwrap_or([0xff; 8]));
        if len > MAX_HEADER_STRING {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "the header holds a string of {len} bytes, more than TFHE-rs's header \
                     ever holds ({MAX_HEADER_STRING})"
                ),
            ));
        }
        if !read_more(reader, &mut header, len as usize)? {
            return Ok(header);
        }
    }
    Ok(header)
}

/// The type name of a complete TFHE-rs header (its last string).
fn header_name(header: &[u8]) -> Option<&[u8]> {
    let mut at = 0usize;
    let mut string = |skip: usize| -> Option<&[u8]> {
        let start = at.checked_add(skip)?;
        let len = u64::from_le_bytes(header.get(start..start + 8)?.try_into().ok()?);
        let begin = start + 8;
        let end = begin.checked_add(usize::try_from(len).ok()?)?;
        at = end;
        header.get(begin..end)
    };
    string(0)?;
    string(4)?;
    string(0)
}

/// Appends `count` bytes of `reader` to `buffer`; `false` if the input ends first
/// (what was read is kept).
fn read_more(reader: &mut impl Read, buffer: &mut Vec<u8>, count: usize) -> std::io::Result<bool> {
    let start = buffer.len();
    buffer.resize(start + count, 0);
    let mut filled = start;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => {
                buffer.truncate(filled);
                return Ok(false);
            }
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

impl NonConformantDeserializationConfig {
    /// Reads a `T`: `Err` if the input is truncated, over the size limit, of
    /// another type or format, or its value fails the checks gpufhe makes of what
    /// it reads. It reads exactly one value: what follows it stays in the reader.
    ///
    /// ```
    /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
    /// use gpufhe::Config;
    /// let mut bytes = Vec::new();
    /// SerializationConfig::new(1 << 10).serialize_into(&Config::default(), &mut bytes)?;
    /// let reader = DeserializationConfig::new(1 << 10).disable_conformance();
    /// assert_eq!(reader.deserialize_from::<Config>(&bytes[..])?, Config::default());
    /// assert!(reader.deserialize_from::<Config>(&bytes[..bytes.len() - 1]).is_err()); // truncated
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn deserialize_from<T: DeserializeOwned + Unversionize + Named>(
        &self,
        mut reader: impl Read,
    ) -> Result<T> {
        let header = read_header(&mut reader)
            .map_err(|e| Error::Serialization(format!("cannot read a {}: {e}", T::NAME)))?;
        if header.starts_with(&SERIALIZATION_MAGIC) {
            return Err(Error::Serialization(format!(
                "the input is in gpufhe's own format, not TFHE-rs's (which \
                 gpufhe::safe_serialization reads and writes): read it with \
                 gpufhe::serialization::safe_deserialize, then write it again with \
                 gpufhe::safe_serialization::safe_serialize to convert it (expected a {})",
                T::NAME
            )));
        }
        if let Some(name) = header_name(&header).filter(|n| n.starts_with(b"gpufhe::")) {
            return Err(Error::Serialization(format!(
                "the input is a {}, written by an earlier gpufhe in its own form under \
                 TFHE-rs's header; this version writes the TFHE-rs form ({}): read it with \
                 the gpufhe that wrote it and write it with gpufhe::serialization::\
                 safe_serialize (gpufhe's own format, which this version reads with \
                 gpufhe::serialization::safe_deserialize), then write that with \
                 gpufhe::safe_serialization::safe_serialize to convert it",
                String::from_utf8_lossy(name),
                T::NAME
            )));
        }
        let mut config = match self.size_limit {
            Some(limit) => tfhe_safe_serialize::DeserializationConfig::new(limit),
            None => tfhe_safe_serialize::DeserializationConfig::new_with_unlimited_size(),
        };
        if !self.validate_header {
            config = config.disable_header_validation();
        }
        config
            .disable_conformance()
            .deserialize_from(header.as_slice().chain(reader))
            .map_err(|e| Error::Serialization(format!("cannot read a {}: {e}", T::NAME)))
    }

    /// Adds the conformance check back.
    ///
    /// ```
    /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
    /// use gpufhe::shortint::COMP_PARAM_MESSAGE_2_CARRY_2;
    /// use gpufhe::{Config, ConfigBuilder};
    /// let mut bytes = Vec::new();
    /// SerializationConfig::new(1 << 10).serialize_into(&Config::default(), &mut bytes)?;
    /// let other = ConfigBuilder::default().enable_compression(COMP_PARAM_MESSAGE_2_CARRY_2);
    /// let other = other.build();
    /// let reader = DeserializationConfig::new(1 << 10).disable_conformance().enable_conformance();
    /// assert!(reader.deserialize_from::<Config>(&bytes[..], &other.into()).is_err());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn enable_conformance(self) -> DeserializationConfig {
        DeserializationConfig {
            size_limit: self.size_limit,
            validate_header: self.validate_header,
        }
    }
}
