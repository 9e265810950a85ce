//! The signed widths: one row of [`signed_widths!`] each (see
//! `integers::unsigned::static_`).

use super::base::{FheInt, FheIntId};
use crate::high_level::integers::unsigned::base::sealed;

/// Calls `$callback! { $name, $id, $clear, $unsigned, $compressed, $params,
/// $compressed_params; ... }` with a row per signed width: the type's alias, its id,
/// its clear type, the id of the unsigned width whose blocks it shares, and the names
/// of its compressed form and of the two types' conformance parameters.
macro_rules! signed_widths {
    ($callback:ident) => {
        $callback! {
            FheInt2, FheInt2Id, i8, $crate::high_level::FheUint2Id, CompressedFheInt2, FheInt2ConformanceParams, CompressedFheInt2ConformanceParams;
            FheInt4, FheInt4Id, i8, $crate::high_level::FheUint4Id, CompressedFheInt4, FheInt4ConformanceParams, CompressedFheInt4ConformanceParams;
            FheInt6, FheInt6Id, i8, $crate::high_level::FheUint6Id, CompressedFheInt6, FheInt6ConformanceParams, CompressedFheInt6ConformanceParams;
            FheInt8, FheInt8Id, i8, $crate::high_level::FheUint8Id, CompressedFheInt8, FheInt8ConformanceParams, CompressedFheInt8ConformanceParams;
            FheInt10, FheInt10Id, i16, $crate::high_level::FheUint10Id, CompressedFheInt10, FheInt10ConformanceParams, CompressedFheInt10ConformanceParams;
            FheInt12, FheInt12Id, i16, $crate::high_level::FheUint12Id, CompressedFheInt12, FheInt12ConformanceParams, CompressedFheInt12ConformanceParams;
            FheInt14, FheInt14Id, i16, $crate::high_level::FheUint14Id, CompressedFheInt14, FheInt14ConformanceParams, CompressedFheInt14ConformanceParams;
            FheInt16, FheInt16Id, i16, $crate::high_level::FheUint16Id, CompressedFheInt16, FheInt16ConformanceParams, CompressedFheInt16ConformanceParams;
            FheInt32, FheInt32Id, i32, $crate::high_level::FheUint32Id, CompressedFheInt32, FheInt32ConformanceParams, CompressedFheInt32ConformanceParams;
            FheInt64, FheInt64Id, i64, $crate::high_level::FheUint64Id, CompressedFheInt64, FheInt64ConformanceParams, CompressedFheInt64ConformanceParams;
            FheInt128, FheInt128Id, i128, $crate::high_level::FheUint128Id, CompressedFheInt128, FheInt128ConformanceParams, CompressedFheInt128ConformanceParams;
            FheInt160, FheInt160Id, $crate::integer::I256, $crate::high_level::FheUint160Id, CompressedFheInt160, FheInt160ConformanceParams, CompressedFheInt160ConformanceParams;
            FheInt256, FheInt256Id, $crate::integer::I256, $crate::high_level::FheUint256Id, CompressedFheInt256, FheInt256ConformanceParams, CompressedFheInt256ConformanceParams;
            FheInt512, FheInt512Id, $crate::integer::I512, $crate::high_level::FheUint512Id, CompressedFheInt512, FheInt512ConformanceParams, CompressedFheInt512ConformanceParams;
            FheInt1024, FheInt1024Id, $crate::integer::I1024, $crate::high_level::FheUint1024Id, CompressedFheInt1024, FheInt1024ConformanceParams, CompressedFheInt1024ConformanceParams;
            FheInt2048, FheInt2048Id, $crate::integer::I2048, $crate::high_level::FheUint2048Id, CompressedFheInt2048, FheInt2048ConformanceParams, CompressedFheInt2048ConformanceParams;
        }
    };
}
pub(crate) use signed_widths;

/// The id and alias of each width.
macro_rules! fhe_int_types {
    ($($name:ident, $id:ident, $clear:ty, $unsigned:ty, $c:ident, $p:ident, $cp:ident;)*) => {$(
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
