//! The [`ParameterSetConformant`] trait over [`Conformant`] and TFHE-rs's names of
//! the conformance parameters: what `gpufhe::conformance` offers at TFHE-rs's path.

use super::conformance::{ConformanceParams, Conformant, ParameterSetConformant};
use crate::error::Result;
use crate::high_level::integers::signed::static_::signed_widths;
use crate::high_level::integers::unsigned::static_::unsigned_widths;

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
