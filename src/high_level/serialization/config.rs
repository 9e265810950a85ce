//! TFHE-rs's builders of safe serialization, [`SerializationConfig`] and
//! [`DeserializationConfig`], over this crate's [`crate::serialization`], and its
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
/// use gpufhe::{generate_keys, ConfigBuilder, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// let x = FheUint8::encrypt(42u8, &client_key);
/// let mut bytes = Vec::new();
/// SerializationConfig::new(1 << 20).serialize_into(&x, &mut bytes)?;
/// let y: FheUint8 = DeserializationConfig::new(1 << 20).deserialize_from(bytes.as_slice(), &(&server_key).into())?;
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
            pub fn new(size_limit: u64) -> Self {
                Self { size_limit }
            }

            #[doc = $unlimited]
            pub fn new_with_unlimited_size() -> Self {
                Self::new(u64::MAX)
            }

            /// Removes the size limit (see `new_with_unlimited_size`).
            pub fn disable_size_limit(self) -> Self {
                Self::new_with_unlimited_size()
            }

            /// Sets the size limit to `size_limit` bytes.
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
    pub fn disable_versioning(self) -> Self {
        self
    }

    /// The bytes `value` takes serialized (header included).
    pub fn serialized_size<T: SafeSerialization>(&self, value: &T) -> Result<u64> {
        let mut counter = ByteCounter(0);
        safe_serialize(value, &mut counter, u64::MAX)?;
        Ok(counter.0)
    }

    /// Writes `value` to `writer` ([`safe_serialize`] with this size limit).
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
    pub fn disable_header_validation(self) -> Self {
        self
    }

    /// Reads without the conformance check.
    pub fn disable_conformance(self) -> NonConformantDeserializationConfig {
        NonConformantDeserializationConfig {
            size_limit: self.size_limit,
        }
    }

    /// Reads a `T` and checks that it conforms to `parameter_set`.
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
    pub fn deserialize_from<T: SafeSerialization>(&self, reader: impl Read) -> Result<T> {
        safe_deserialize(reader, self.size_limit)
    }

    /// Adds the conformance check back.
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
