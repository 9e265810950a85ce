//! The unsigned widths: one row of [`unsigned_widths!`] each. Every item made per
//! width (the `FheUint*` aliases and their ids here, the clear operands, the clear
//! operators on the left, ...) is generated from this one table, so a new width is
//! one row.

use super::base::{sealed, FheUint, FheUintId};

/// Calls `$callback! { $name, $id, $bits, $clear; ... }` with a row per unsigned
/// width: the type's alias, its id, its width in bits and its clear type.
macro_rules! unsigned_widths {
    ($callback:ident) => {
        $callback! {
            FheUint2, FheUint2Id, 2, u8;
            FheUint4, FheUint4Id, 4, u8;
            FheUint6, FheUint6Id, 6, u8;
            FheUint8, FheUint8Id, 8, u8;
            FheUint10, FheUint10Id, 10, u16;
            FheUint12, FheUint12Id, 12, u16;
            FheUint14, FheUint14Id, 14, u16;
            FheUint16, FheUint16Id, 16, u16;
            FheUint32, FheUint32Id, 32, u32;
            FheUint64, FheUint64Id, 64, u64;
            FheUint128, FheUint128Id, 128, u128;
            FheUint256, FheUint256Id, 256, $crate::integer::U256;
        }
    };
}
pub(crate) use unsigned_widths;

/// The id and alias of each width.
macro_rules! fhe_uint_types {
    ($($name:ident, $id:ident, $bits:expr, $clear:ty;)*) => {$(
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
