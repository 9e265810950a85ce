//! [`CastFrom`] between the clear primitive integers (and from `bool`), as TFHE-rs's
//! prelude provides it: `u64::cast_from(3u8)`, `200u8.cast_into()`. Every cast has
//! the semantics of Rust's `as` (zero- or sign-extended up, the low bits kept down)
//! and never returns an `Err`; so do the casts between [`U256`] and the unsigned
//! primitives.

use super::traits::CastFrom;
use crate::error::Result;
use crate::integer::U256;

/// `CastFrom<$src>` for each of the listed destination types, through `as`.
macro_rules! clear_casts {
    (@from $src:ty => $($dst:ty),*) => {$(
        impl CastFrom<$src> for $dst {
            fn try_cast_from(value: $src) -> Result<Self> {
                Ok(value as $dst)
            }
        }
    )*};
    ($($src:ty),*) => {$(
        clear_casts!(@from $src =>
            u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
    )*};
}

clear_casts!(bool, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

/// `CastFrom` both ways between `U256` and the unsigned primitives, as `as` casts
/// do: zero-extended up, the low bits kept down (never an `Err`).
macro_rules! u256_casts {
    ($($t:ty),*) => {$(
        impl CastFrom<$t> for U256 {
            fn try_cast_from(value: $t) -> Result<Self> {
                Ok(Self::from(value))
            }
        }

        impl CastFrom<U256> for $t {
            fn try_cast_from(value: U256) -> Result<Self> {
                Ok(value.low_u128() as $t)
            }
        }
    )*};
}
u256_casts!(u8, u16, u32, u64, u128);

#[cfg(test)]
mod tests {
    use crate::high_level::{CastFrom, CastInto};
    use crate::integer::U256;

    #[test]
    fn clear_casts_follow_as() {
        let wide: u64 = 200u8.cast_into();
        assert_eq!(wide, 200);
        assert_eq!(u8::cast_from(0x1234u32), 0x34);
        assert_eq!(u32::cast_from(true), 1);
        assert_eq!(i16::cast_from(-1i8), -1);
        assert_eq!(u16::cast_from(-1i8), u16::MAX);
        assert_eq!(i8::cast_from(0xffu128), -1);
        assert_eq!(isize::cast_from(false), 0);
        assert_eq!(u128::cast_from(-2i64), u128::MAX - 1);
    }

    #[test]
    fn casts_wrap_like_as() {
        let x = U256::from((u128::MAX - 1, 5u128));
        assert_eq!(u8::cast_from(x), 0xfe);
        assert_eq!(u64::cast_from(x), u64::MAX - 1);
        let low: u128 = x.cast_into();
        assert_eq!(low, u128::MAX - 1);
        assert_eq!(U256::cast_from(7u16), U256::from(7u8));
        assert_eq!(U256::cast_from(u128::MAX), U256::from((u128::MAX, 0u128)));
    }
}
