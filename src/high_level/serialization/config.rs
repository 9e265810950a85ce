//! Builders of safe serialization, [`SerializationConfig`] and
//! [`DeserializationConfig`] (TFHE-rs's names), over [`crate::serialization`], and
//! [`ParameterSetConformant`] trait over [`Conformant`]. They are what
//! `gpufhe::safe_serialization` and `gpufhe::conformance` offer at the paths of
//! TFHE-rs.

use super::conformance::{ConformanceParams, Conformant, ParameterSetConformant};
use crate::error::Result;
use crate::high_level::integers::signed::static_::signed_widths;
use crate::high_level::integers::unsigned::static_::unsigned_widths;
use crate::serialization::codec::{safe_deserialize, safe_serialize, SafeSerialization};
use std::io::{Read, Write};

/// [`ParameterSetConformant`] over [`Conformant`], with [`ConformanceParams`] as the
/// parameter set, for each type (generic types with their bounds in brackets).
macro_rules! conformant_to_params {
    ($([$($bounds:tt)*] $ty:ty),* $(,)?) => {$(
        impl<$($bounds)*> ParameterSetConformant for $ty {
            type ParameterSet = ConformanceParams;

            fn is_conformant(&self, parameter_set: &ConformanceParams) -> bool {
                self.conforms_to(parameter_set).is_ok()
            }

            fn check_conformant(&self, parameter_set: &ConformanceParams) -> Result<()> {
                self.conforms_to(parameter_set)
            }
        }
    )*};
}
conformant_to_params!(
    [] crate::Config,
    [] crate::ClientKey,
    [] crate::CompressedServerKey,
    [] crate::ServerKey,
    [] crate::FheBool,
    [Id: crate::FheUintId] crate::FheUint<Id>,
    [Id: crate::FheIntId] crate::FheInt<Id>,
    [] crate::CompactCiphertextList,
    [] crate::CompressedCiphertextList,
    [] crate::CompressedFheBool,
    [Id: crate::FheUintId] crate::CompressedFheUint<Id>,
    [Id: crate::FheIntId] crate::CompressedFheInt<Id>,
    [] crate::PublicKey,
    [] crate::CompressedPublicKey,
);

/// [`ParameterSetConformant`] of the compact public keys: their encryption
/// parameters must be the parameter set (the native [`Conformant`] check, which
/// also takes a key's tag, remains).
macro_rules! conformant_to_pke_parameters {
    ($($ty:ty),*) => {$(
        impl ParameterSetConformant for $ty {
            type ParameterSet = crate::shortint::CompactPublicKeyEncryptionParameters;

            fn is_conformant(&self, parameter_set: &Self::ParameterSet) -> bool {
                self.check_conformant(parameter_set).is_ok()
            }

            fn check_conformant(&self, parameter_set: &Self::ParameterSet) -> Result<()> {
                if self.parameters() == *parameter_set {
                    Ok(())
                } else {
                    Err(crate::Error::InvalidParameter(format!(
                        "the {} was generated for other parameters than the expected ones",
                        stringify!($ty)
                    )))
                }
            }
        }
    )*};
}
conformant_to_pke_parameters!(crate::CompactPublicKey, crate::CompressedCompactPublicKey);

/// How [`SerializationConfig::serialize_into`] writes: [`safe_serialize`] with a
/// size limit (or none).
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
    size_limit: u64,
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
                Self { size_limit }
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
                Self::new(u64::MAX)
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
                Self::new_with_unlimited_size()
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
                Self::new(size_limit)
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
    /// Kept for code written against TFHE-rs, where it leaves out the version
    /// information: this crate always writes its header (type name and format
    /// version), which is what makes reading another type or version an `Err`.
    ///
    /// ```
    /// use gpufhe::safe_serialization::SerializationConfig;
    /// use gpufhe::Config;
    /// let (mut plain, mut unversioned) = (Vec::new(), Vec::new());
    /// SerializationConfig::new(1 << 10).serialize_into(&Config::default(), &mut plain)?;
    /// SerializationConfig::new(1 << 10)
    ///     .disable_versioning()
    ///     .serialize_into(&Config::default(), &mut unversioned)?;
    /// assert_eq!(plain, unversioned); // the same bytes, header included
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn disable_versioning(self) -> Self {
        self
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
    pub fn serialized_size<T: SafeSerialization>(&self, value: &T) -> Result<u64> {
        let mut counter = ByteCounter(0);
        safe_serialize(value, &mut counter, u64::MAX)?;
        Ok(counter.0)
    }

    /// Writes `value` to `writer` ([`safe_serialize`] with this size limit).
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
    /// let y: FheUint8 = reader.deserialize_from(&bytes[..])?;
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&y, &client_key), 42);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn serialize_into<T: SafeSerialization>(
        &self,
        value: &T,
        writer: impl Write,
    ) -> Result<()> {
        safe_serialize(value, writer, self.size_limit)
    }
}

/// Counts the bytes written to it.
struct ByteCounter(u64);

impl Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// How [`DeserializationConfig::deserialize_from`] reads: [`safe_deserialize`] with
/// a size limit, then the conformance check of
/// [`crate::serialization::safe_deserialize_conformant`]
/// ([`DeserializationConfig::disable_conformance`] leaves it out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeserializationConfig {
    size_limit: u64,
}

/// A [`DeserializationConfig`] without the conformance check (the checks of
/// [`safe_deserialize`] remain).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonConformantDeserializationConfig {
    size_limit: u64,
}

impl DeserializationConfig {
    /// Kept for code written against TFHE-rs: this crate always checks the header
    /// (bytes of another type or format version are an `Err`, never read as this
    /// one).
    ///
    /// ```
    /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
    /// use gpufhe::{Config, FheUint8};
    /// let mut bytes = Vec::new();
    /// SerializationConfig::new(1 << 10).serialize_into(&Config::default(), &mut bytes)?;
    /// let reader = DeserializationConfig::new(1 << 10).disable_header_validation();
    /// // A configuration is still not read as an FheUint8.
    /// assert!(reader.disable_conformance().deserialize_from::<FheUint8>(&bytes[..]).is_err());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn disable_header_validation(self) -> Self {
        self
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
        }
    }

    /// Reads a `T` and checks that it conforms to `parameter_set`.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::safe_serialization::{DeserializationConfig, SerializationConfig};
    /// use gpufhe::{ClientKey, Config, FheUint8};
    /// let client_key = ClientKey::generate(config);
    /// let mut bytes = Vec::new();
    /// let x = FheUint8::encrypt(42u8, &client_key);
    /// SerializationConfig::new(1 << 20).serialize_into(&x, &mut bytes)?;
    /// let reader = DeserializationConfig::new(1 << 20);
    /// let x: FheUint8 = reader.deserialize_from(&bytes[..], &(&client_key).into())?;
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 42);
    /// // Not blocks of the default configuration's parameters.
    /// let default = Config::default().into();
    /// assert!(reader.deserialize_from::<FheUint8>(&bytes[..], &default).is_err());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn deserialize_from<T: SafeSerialization + ParameterSetConformant>(
        &self,
        reader: impl Read,
        parameter_set: &T::ParameterSet,
    ) -> Result<T> {
        crate::serialization::safe_deserialize_conformant(reader, self.size_limit, parameter_set)
    }
}

impl NonConformantDeserializationConfig {
    /// Reads a `T` ([`safe_deserialize`] with this size limit).
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
    pub fn deserialize_from<T: SafeSerialization>(&self, reader: impl Read) -> Result<T> {
        safe_deserialize(reader, self.size_limit)
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
        DeserializationConfig::new(self.size_limit)
    }
}

/// Names TFHE-rs gives the conformance parameters of each type: here all are
/// [`ConformanceParams`].
macro_rules! conformance_params_aliases {
    ($($alias:ident: $ty:expr),* $(,)?) => {$(
        #[doc = concat!("The [`ConformanceParams`] of a `", $ty, "` (TFHE-rs's name).")]
        pub type $alias = ConformanceParams;
    )*};
}
conformance_params_aliases!(
    FheBoolConformanceParams: "FheBool",
    CompactCiphertextListConformanceParams: "CompactCiphertextList",
);

/// The conformance-parameter name of each unsigned width.
macro_rules! unsigned_params_aliases {
    ($($name:ident, $id:ident, $bits:expr, $clear:ty, $c:ident, $p:ident, $cp:ident;)*) => {
        $(conformance_params_aliases!($p: stringify!($name));)*
    };
}
unsigned_widths!(unsigned_params_aliases);

/// The conformance-parameter name of each signed width.
macro_rules! signed_params_aliases {
    ($($name:ident, $id:ident, $clear:ty, $unsigned:ty, $c:ident, $p:ident, $cp:ident;)*) => {
        $(conformance_params_aliases!($p: stringify!($name));)*
    };
}
signed_widths!(signed_params_aliases);
