//! The signed widths: one row of [`signed_widths!`] each (see
//! `integers::unsigned::static_`).

use super::base::{FheInt, FheIntId};
use crate::high_level::integers::unsigned::base::sealed;

/// Calls `$callback! { $name, $id, $clear, $unsigned; ... }` with a row per signed
/// width: the type's alias, its id, its clear type and the id of the unsigned width
/// whose blocks it shares.
macro_rules! signed_widths {
    ($callback:ident) => {
        $callback! {
            FheInt8, FheInt8Id, i8, $crate::high_level::FheUint8Id;
            FheInt16, FheInt16Id, i16, $crate::high_level::FheUint16Id;
            FheInt32, FheInt32Id, i32, $crate::high_level::FheUint32Id;
            FheInt64, FheInt64Id, i64, $crate::high_level::FheUint64Id;
            FheInt128, FheInt128Id, i128, $crate::high_level::FheUint128Id;
        }
    };
}
pub(crate) use signed_widths;

/// The id and alias of each width.
macro_rules! fhe_int_types {
    ($($name:ident, $id:ident, $clear:ty, $unsigned:ty;)*) => {$(
        #[doc = concat!("The width of [`", stringify!($name), "`].")]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct $id;

        impl sealed::Sealed for $id {}

        impl FheIntId for $id {
            const NAME: &'static str = stringify!($name);
            type Clear = $clear;
            type Unsigned = $unsigned;
        }

        #[doc = concat!("An encrypted `", stringify!($clear), "` (see [`FheInt`]).")]
        pub type $name = FheInt<$id>;
    )*};
}

signed_widths!(fhe_int_types);
