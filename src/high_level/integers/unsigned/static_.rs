//! The unsigned widths: one row of [`unsigned_widths!`] each. Every item made per
//! width (the `FheUint*` aliases and their ids here, the clear operands, the clear
//! operators on the left, the compressed aliases, the conformance-parameter names)
//! is generated from this one table, so a new width is one row.

use super::base::{sealed, FheUint, FheUintId};

/// Calls `$callback! { $name, $id, $bits, $clear, $compressed, $params,
/// $compressed_params; ... }` with a row per unsigned width: the type's alias, its id,
/// its width in bits, its clear type, and the names of its compressed form and of the
/// two types' conformance parameters (TFHE-rs's names).
macro_rules! unsigned_widths {
    ($callback:ident) => {
        $callback! {
            FheUint2, FheUint2Id, 2, u8, CompressedFheUint2, FheUint2ConformanceParams, CompressedFheUint2ConformanceParams;
            FheUint4, FheUint4Id, 4, u8, CompressedFheUint4, FheUint4ConformanceParams, CompressedFheUint4ConformanceParams;
            FheUint6, FheUint6Id, 6, u8, CompressedFheUint6, FheUint6ConformanceParams, CompressedFheUint6ConformanceParams;
            FheUint8, FheUint8Id, 8, u8, CompressedFheUint8, FheUint8ConformanceParams, CompressedFheUint8ConformanceParams;
            FheUint10, FheUint10Id, 10, u16, CompressedFheUint10, FheUint10ConformanceParams, CompressedFheUint10ConformanceParams;
            FheUint12, FheUint12Id, 12, u16, CompressedFheUint12, FheUint12ConformanceParams, CompressedFheUint12ConformanceParams;
            FheUint14, FheUint14Id, 14, u16, CompressedFheUint14, FheUint14ConformanceParams, CompressedFheUint14ConformanceParams;
            FheUint16, FheUint16Id, 16, u16, CompressedFheUint16, FheUint16ConformanceParams, CompressedFheUint16ConformanceParams;
            FheUint32, FheUint32Id, 32, u32, CompressedFheUint32, FheUint32ConformanceParams, CompressedFheUint32ConformanceParams;
            FheUint64, FheUint64Id, 64, u64, CompressedFheUint64, FheUint64ConformanceParams, CompressedFheUint64ConformanceParams;
            FheUint128, FheUint128Id, 128, u128, CompressedFheUint128, FheUint128ConformanceParams, CompressedFheUint128ConformanceParams;
            FheUint160, FheUint160Id, 160, $crate::integer::U256, CompressedFheUint160, FheUint160ConformanceParams, CompressedFheUint160ConformanceParams;
            FheUint256, FheUint256Id, 256, $crate::integer::U256, CompressedFheUint256, FheUint256ConformanceParams, CompressedFheUint256ConformanceParams;
            FheUint512, FheUint512Id, 512, $crate::integer::U512, CompressedFheUint512, FheUint512ConformanceParams, CompressedFheUint512ConformanceParams;
            FheUint1024, FheUint1024Id, 1024, $crate::integer::U1024, CompressedFheUint1024, FheUint1024ConformanceParams, CompressedFheUint1024ConformanceParams;
            FheUint2048, FheUint2048Id, 2048, $crate::integer::U2048, CompressedFheUint2048, FheUint2048ConformanceParams, CompressedFheUint2048ConformanceParams;
        }
    };
}
pub(crate) use unsigned_widths;

/// The id and alias of each width.
macro_rules! fhe_uint_types {
    ($($name:ident, $id:ident, $bits:expr, $clear:ty, $c:ident, $p:ident, $cp:ident;)*) => {$(
        #[doc = concat!("The width of [`", stringify!($name), "`].")]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct $id;

        impl sealed::Sealed for $id {}

        impl FheUintId for $id {
            const BITS: u32 = $bits;
            const NAME: &'static str = stringify!($name);
            type Clear = $clear;
        }

        #[doc = concat!(
            "An encrypted ", stringify!($bits), "-bit unsigned integer, cleartext `",
            stringify!($clear), "` (see [`FheUint`])."
        )]
        pub type $name = FheUint<$id>;
    )*};
}

unsigned_widths!(fhe_uint_types);
