//! [`FheTypes`], TFHE-rs's names for the types a value of a list can have, and
//! [`DataKind`], gpufhe's own (any width).

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// What a value of a [`crate::CompactCiphertextList`] or a
/// [`crate::CompressedCiphertextList`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DataKind {
    /// An `FheUint` of this many bits.
    Unsigned(u32),
    /// An `FheInt` of this many bits.
    Signed(u32),
    /// An `FheBool`.
    Boolean,
}

impl DataKind {
    /// The width in bits (1 for a boolean).
    pub(crate) fn bits(self) -> u32 {
        match self {
            Self::Unsigned(bits) | Self::Signed(bits) => bits,
            Self::Boolean => 1,
        }
    }
}

/// `Some` of the kind given, `None` if none is.
macro_rules! kind_of {
    () => {
        None
    };
    ($kind:expr) => {
        Some($kind)
    };
}

/// Declares [`FheTypes`] with its discriminants and the [`DataKind`] of each variant.
macro_rules! fhe_types {
    ($($name:ident = $repr:literal $(=> $kind:expr)?,)*) => {
        /// The type of one value of a list, under TFHE-rs's names and discriminants
        /// (`#[repr(i32)]`, the numbers TFHE-rs's C API uses). TFHE-rs names widths
        /// that this crate has no type for (`Uint24`, `Int2048`, `AsciiString`, ...):
        /// no list of this crate holds a value of those.
        ///
        /// ```
        /// use gpufhe::{DataKind, FheTypes};
        /// assert_eq!(FheTypes::Uint8 as i32, 2);
        /// assert_eq!(FheTypes::from_repr(25), Some(FheTypes::Int32));
        /// assert_eq!(FheTypes::try_from(DataKind::Signed(32)).unwrap(), FheTypes::Int32);
        /// assert!(FheTypes::try_from(DataKind::Unsigned(3)).is_err());
        /// ```
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
        #[repr(i32)]
        pub enum FheTypes {
            $(
                #[doc = concat!("TFHE-rs's `", stringify!($name), "`.")]
                $name = $repr,
            )*
        }

        impl FheTypes {
            /// Every variant, in the order of their discriminants.
            const ALL: &'static [FheTypes] = &[$(Self::$name,)*];

            /// The variant of discriminant `repr`, `None` if there is none.
            ///
            /// ```
            /// use gpufhe::FheTypes;
            /// assert_eq!(FheTypes::from_repr(5), Some(FheTypes::Uint64));
            /// assert_eq!(FheTypes::from_repr(84), None);
            /// ```
            pub fn from_repr(repr: i32) -> Option<Self> {
                match repr {
                    $($repr => Some(Self::$name),)*
                    _ => None,
                }
            }

            /// The [`DataKind`] of a value of this type, `None` for a type that is
            /// not an integer or a boolean (`AsciiString`).
            ///
            /// ```
            /// use gpufhe::{DataKind, FheTypes};
            /// assert_eq!(FheTypes::Int16.data_kind(), Some(DataKind::Signed(16)));
            /// assert_eq!(FheTypes::Bool.data_kind(), Some(DataKind::Boolean));
            /// assert_eq!(FheTypes::AsciiString.data_kind(), None);
            /// ```
            pub fn data_kind(self) -> Option<DataKind> {
                match self {
                    $(Self::$name => kind_of!($($kind)?),)*
                }
            }
        }
    };
}

use DataKind::{Boolean as B, Signed as S, Unsigned as U};

fhe_types! {
    Bool = 0 => B,
    Uint4 = 1 => U(4), Uint8 = 2 => U(8), Uint16 = 3 => U(16), Uint32 = 4 => U(32),
    Uint64 = 5 => U(64), Uint128 = 6 => U(128), Uint160 = 7 => U(160), Uint256 = 8 => U(256),
    Uint512 = 9 => U(512), Uint1024 = 10 => U(1024), Uint2048 = 11 => U(2048),
    Uint2 = 12 => U(2), Uint6 = 13 => U(6), Uint10 = 14 => U(10), Uint12 = 15 => U(12),
    Uint14 = 16 => U(14),
    Int2 = 17 => S(2), Int4 = 18 => S(4), Int6 = 19 => S(6), Int8 = 20 => S(8),
    Int10 = 21 => S(10), Int12 = 22 => S(12), Int14 = 23 => S(14), Int16 = 24 => S(16),
    Int32 = 25 => S(32), Int64 = 26 => S(64), Int128 = 27 => S(128), Int160 = 28 => S(160),
    Int256 = 29 => S(256),
    AsciiString = 30,
    Int512 = 31 => S(512), Int1024 = 32 => S(1024), Int2048 = 33 => S(2048),
    Uint24 = 34 => U(24), Uint40 = 35 => U(40), Uint48 = 36 => U(48), Uint56 = 37 => U(56),
    Uint72 = 38 => U(72), Uint80 = 39 => U(80), Uint88 = 40 => U(88), Uint96 = 41 => U(96),
    Uint104 = 42 => U(104), Uint112 = 43 => U(112), Uint120 = 44 => U(120),
    Uint136 = 45 => U(136), Uint144 = 46 => U(144), Uint152 = 47 => U(152),
    Uint168 = 48 => U(168), Uint176 = 49 => U(176), Uint184 = 50 => U(184),
    Uint192 = 51 => U(192), Uint200 = 52 => U(200), Uint208 = 53 => U(208),
    Uint216 = 54 => U(216), Uint224 = 55 => U(224), Uint232 = 56 => U(232),
    Uint240 = 57 => U(240), Uint248 = 58 => U(248),
    Int24 = 59 => S(24), Int40 = 60 => S(40), Int48 = 61 => S(48), Int56 = 62 => S(56),
    Int72 = 63 => S(72), Int80 = 64 => S(80), Int88 = 65 => S(88), Int96 = 66 => S(96),
    Int104 = 67 => S(104), Int112 = 68 => S(112), Int120 = 69 => S(120),
    Int136 = 70 => S(136), Int144 = 71 => S(144), Int152 = 72 => S(152),
    Int168 = 73 => S(168), Int176 = 74 => S(176), Int184 = 75 => S(184),
    Int192 = 76 => S(192), Int200 = 77 => S(200), Int208 = 78 => S(208),
    Int216 = 79 => S(216), Int224 = 80 => S(224), Int232 = 81 => S(232),
    Int240 = 82 => S(240), Int248 = 83 => S(248),
}

impl FheTypes {
    /// The type of a value of `kind`, `None` for a width TFHE-rs has no name for
    /// (an `Unsigned(3)` made by
    /// [`push_with_num_bits`](crate::CompactCiphertextListBuilder::push_with_num_bits)).
    ///
    /// ```
    /// use gpufhe::{DataKind, FheTypes};
    /// assert_eq!(FheTypes::from_data_kind(DataKind::Unsigned(24)), Some(FheTypes::Uint24));
    /// assert_eq!(FheTypes::from_data_kind(DataKind::Unsigned(3)), None);
    /// ```
    pub fn from_data_kind(kind: DataKind) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|t| t.data_kind() == Some(kind))
    }
}

/// `Err` for a width TFHE-rs has no name for (see [`FheTypes::from_data_kind`]):
/// a `DataKind` can have any width, so this is `TryFrom`, not `From`.
impl TryFrom<DataKind> for FheTypes {
    type Error = Error;

    fn try_from(kind: DataKind) -> Result<Self> {
        Self::from_data_kind(kind).ok_or_else(|| {
            Error::InvalidParameter(format!("TFHE-rs has no type name for a {kind:?}"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discriminants_and_kinds_round_trip() {
        assert_eq!(FheTypes::ALL.len(), 84);
        for (i, &t) in FheTypes::ALL.iter().enumerate() {
            assert_eq!(t as i32, i as i32, "{t:?}");
            assert_eq!(FheTypes::from_repr(i as i32), Some(t));
            match t.data_kind() {
                Some(kind) => assert_eq!(FheTypes::try_from(kind).unwrap(), t),
                None => assert_eq!(t, FheTypes::AsciiString),
            }
        }
        assert_eq!(FheTypes::from_repr(84), None);
        assert_eq!(FheTypes::from_repr(-1), None);
    }

    #[test]
    fn names_match_widths() {
        assert_eq!(
            FheTypes::from_data_kind(DataKind::Boolean),
            Some(FheTypes::Bool)
        );
        assert_eq!(
            FheTypes::from_data_kind(DataKind::Unsigned(8)),
            Some(FheTypes::Uint8)
        );
        assert_eq!(
            FheTypes::from_data_kind(DataKind::Signed(8)),
            Some(FheTypes::Int8)
        );
        assert_eq!(
            FheTypes::from_data_kind(DataKind::Unsigned(248)),
            Some(FheTypes::Uint248)
        );
        assert_eq!(
            FheTypes::from_data_kind(DataKind::Signed(1024)),
            Some(FheTypes::Int1024)
        );
        assert_eq!(FheTypes::from_data_kind(DataKind::Unsigned(3)), None);
        assert!(FheTypes::try_from(DataKind::Signed(0)).is_err());
        // The names are at their widths.
        for &t in FheTypes::ALL {
            let name = format!("{t:?}");
            let want = match t.data_kind() {
                Some(DataKind::Unsigned(n)) => format!("Uint{n}"),
                Some(DataKind::Signed(n)) => format!("Int{n}"),
                Some(DataKind::Boolean) => "Bool".into(),
                None => continue,
            };
            assert_eq!(name, want);
        }
    }
}
