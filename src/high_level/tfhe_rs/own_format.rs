//! The types whose TFHE-rs form gpufhe does not speak yet: `Versionize` and `Named`
//! over their own serde form (gpufhe's format, whose deserialization checks what it
//! reads), under a `gpufhe::` name that TFHE-rs refuses by name.

use crate::high_level::CompressedCiphertextList;

/// `Versionize`, `VersionizeOwned`, `Unversionize` as the identity over the type's
/// serde form, and `Named` as `gpufhe::<name>`.
macro_rules! own_format {
    ($($name:literal [$($generics:tt)*] $ty:ty;)*) => {$(
        impl<$($generics)*> tfhe_versionable::Versionize for $ty {
            type Versioned<'vers> = &'vers Self where Self: 'vers;

            fn versionize(&self) -> &Self {
                self
            }
        }

        impl<$($generics)*> tfhe_versionable::VersionizeOwned for $ty {
            type VersionedOwned = Self;

            fn versionize_owned(self) -> Self {
                self
            }
        }

        impl<$($generics)*> tfhe_versionable::Unversionize for $ty {
            fn unversionize(
                versioned: Self,
            ) -> std::result::Result<Self, tfhe_versionable::UnversionizeError> {
                Ok(versioned)
            }
        }

        impl<$($generics)*> tfhe_safe_serialize::Named for $ty {
            const NAME: &'static str = concat!("gpufhe::", $name);
        }
    )*};
}

own_format!(
    "CompressedCiphertextList" [] CompressedCiphertextList;
);
