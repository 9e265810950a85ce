//! TFHE-rs 1.8's serialized data: gpufhe's values and keys read and written in
//! TFHE-rs's format, through the field's own crates (`tfhe-safe-serialize` for the
//! header, limits and conformance, `tfhe-versionable` for versioning).
//!
//! Each type with a TFHE-rs form implements [`TfheRsForm`]: one conversion each way
//! between gpufhe's type and its mirror in [`wire`], which holds TFHE-rs's fields
//! in TFHE-rs's order. The conversion from the wire checks everything a value must
//! satisfy (as gpufhe's own readers do). [`versionize_through_wire!`] then gives
//! the type TFHE-rs's `Versionize`, `VersionizeOwned` and `Unversionize`, so that
//! `tfhe-safe-serialize` reads and writes it.

pub(crate) mod wire;

mod client_key;
mod compact;
mod compressed;
mod compressed_list;
mod compression;
mod compression_keys;
mod config;
mod dedicated;
mod fourier;
mod key_switching;
mod multi_bit;
mod noise_squashing_keys;
mod oprf;
mod parameters;
#[cfg(feature = "zk-pok")]
mod proven;
mod public_key;
mod re_randomization;
pub(crate) mod safe;
mod server_key;
mod squashed;
mod squashed_lists;
pub(crate) mod values;

#[cfg(feature = "zk-pok")]
pub(crate) use compact::key_halves;
pub(crate) use oprf::expand_oprf_key;

use crate::error::Result;
use serde::{Deserialize, Serialize};
use tfhe_versionable::{Unversionize, VersionizeOwned};

/// A gpufhe type with a form in TFHE-rs's data.
pub(crate) trait TfheRsForm: Sized {
    /// Its mirror in TFHE-rs's data.
    type Wire: Unversionize;
    /// The mirror of `self` (`Err` if it cannot be written: a GPU that fails, a
    /// value TFHE-rs cannot hold).
    fn to_wire(&self) -> Result<Self::Wire>;
    /// The value of `wire`, checked.
    fn from_wire(wire: Self::Wire) -> Result<Self>;
}

/// The versioned form of a value on its way out: the mirror's versioned form, or
/// the reason it could not be made (serializing it then fails with that reason;
/// `Versionize` itself cannot fail).
pub enum Outgoing<T> {
    /// The versioned form.
    Ready(T),
    /// Why there is none.
    Failed(String),
}

impl<T: Serialize> Serialize for Outgoing<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Self::Ready(value) => value.serialize(s),
            Self::Failed(reason) => Err(serde::ser::Error::custom(reason)),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Outgoing<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        T::deserialize(d).map(Self::Ready)
    }
}

/// The versioned form of `value`'s mirror.
pub(crate) fn versioned<T: TfheRsForm>(
    value: &T,
) -> Outgoing<<T::Wire as VersionizeOwned>::VersionedOwned> {
    match value.to_wire() {
        Ok(wire) => Outgoing::Ready(wire.versionize_owned()),
        Err(e) => Outgoing::Failed(e.to_string()),
    }
}

/// The value of a versioned mirror that was read.
pub(crate) fn unversioned<T: TfheRsForm>(
    versioned: Outgoing<<T::Wire as VersionizeOwned>::VersionedOwned>,
    type_name: &str,
) -> std::result::Result<T, tfhe_versionable::UnversionizeError> {
    let conversion = |e| tfhe_versionable::UnversionizeError::conversion(type_name, e);
    match versioned {
        Outgoing::Ready(versioned) => {
            T::from_wire(T::Wire::unversionize(versioned)?).map_err(conversion)
        }
        // Reading never makes one.
        Outgoing::Failed(reason) => Err(conversion(crate::Error::InvalidParameter(reason))),
    }
}

/// Implements `Versionize`, `VersionizeOwned` and `Unversionize` of a
/// [`TfheRsForm`] type through its mirror, and `Named` with TFHE-rs's name.
macro_rules! versionize_through_wire {
    ($name:literal, $wire:ty, [$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> tfhe_versionable::Versionize for $ty {
            type Versioned<'vers> = $crate::high_level::tfhe_rs::Outgoing<
                <$wire as tfhe_versionable::VersionizeOwned>::VersionedOwned,
            >
            where
                Self: 'vers;

            fn versionize(&self) -> Self::Versioned<'_> {
                $crate::high_level::tfhe_rs::versioned(self)
            }
        }

        impl<$($generics)*> tfhe_versionable::VersionizeOwned for $ty {
            type VersionedOwned = $crate::high_level::tfhe_rs::Outgoing<
                <$wire as tfhe_versionable::VersionizeOwned>::VersionedOwned,
            >;

            fn versionize_owned(self) -> Self::VersionedOwned {
                $crate::high_level::tfhe_rs::versioned(&self)
            }
        }

        impl<$($generics)*> tfhe_versionable::Unversionize for $ty {
            fn unversionize(
                versioned: Self::VersionedOwned,
            ) -> std::result::Result<Self, tfhe_versionable::UnversionizeError> {
                $crate::high_level::tfhe_rs::unversioned(versioned, $name)
            }
        }

        impl<$($generics)*> tfhe_safe_serialize::Named for $ty {
            const NAME: &'static str = $name;
        }
    };
}
pub(crate) use versionize_through_wire;

#[cfg(test)]
mod tests;
