//! Conversions between encrypted types ([`CastFrom`] / [`CastInto`]) with Rust's `as`
//! semantics: truncation to a narrower type, zero extension of an unsigned value and
//! sign extension of a signed one to a wider type. None needs a bootstrap except
//! integer to boolean (`!= 0`) and sign extension (one, for the sign block).
//!
//! Also [`CastFrom`] between the clear primitive integers (and from `bool`), as
//! TFHE-rs's prelude provides it: `u64::cast_from(3u8)`, `200u8.cast_into()`. Every
//! clear cast has the semantics of Rust's `as` (zero- or sign-extended up, the low
//! bits kept down) and never returns an `Err`; so do the casts between [`U256`] and
//! the unsigned primitives.

use super::operands::OperandKind;
use super::signed::base::{FheInt, FheIntId};
use super::unsigned::base::{wrap_to_bits, FheUint, FheUintId};
use crate::error::Result;
use crate::high_level::booleans::base::FheBool;
use crate::high_level::config::block_count;
use crate::high_level::internals::circuit::{run, single};
use crate::high_level::internals::storage::{Input, Storage};
use crate::high_level::traits::CastFrom;
use crate::integer::{self, CmpOp, I1024, I2048, I256, I512, U1024, U2048, U256, U512};

/// `value` resized to `bits` bits: truncated, or extended with zeros (or copies of its
/// sign bit when `signed`), like an `as` cast.
fn resize(value: Input<'_>, bits: u32, signed: bool) -> Result<Storage> {
    if let Storage::Trivial(v) = value.storage {
        let v = **v;
        let v = match signed {
            true => integer::sign_extend_wide(v, value.bits).as_unsigned(),
            false => v,
        };
        return Ok(Storage::trivial(wrap_to_bits(v, bits)));
    }
    let out = run(&[value], |c, w| {
        let count = block_count(c.parameters(), bits);
        Ok(vec![match signed {
            true => integer::sign_extend(c, &w[0], count)?,
            false => integer::cast(c, &w[0], count)?,
        }])
    })?;
    single(out)
}

/// Truncates (keeping the low bits) or zero-extends, like an `as` cast; no bootstrap.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint16, FheUint8};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let wide = FheUint16::encrypt(0x1234u16, &client_key);
/// let narrow: FheUint8 = wide.clone().cast_into();
/// let back = FheUint16::cast_from(narrow);
/// assert_eq!(FheDecrypt::<u16>::decrypt(&back, &client_key), 0x34);
/// ```
impl<Src: FheUintId, Dst: FheUintId> CastFrom<FheUint<Src>> for FheUint<Dst> {
    fn try_cast_from(value: FheUint<Src>) -> Result<Self> {
        resize(value.input(), Dst::BITS, false).map(Self::from_storage)
    }
}

/// Truncates or sign-extends, like `x as u16` for an `i8` (`-1` becomes `0xffff`).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8, FheUint16};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let x = FheUint16::cast_from(FheInt8::encrypt(-1i8, &client_key));
/// assert_eq!(FheDecrypt::<u16>::decrypt(&x, &client_key), 0xffff);
/// ```
impl<Src: FheIntId, Dst: FheUintId> CastFrom<FheInt<Src>> for FheUint<Dst> {
    fn try_cast_from(value: FheInt<Src>) -> Result<Self> {
        resize(value.inner.input(), Dst::BITS, true).map(Self::from_storage)
    }
}

/// Truncates or sign-extends, like `x as i16` for an `i8`.
impl<Src: FheIntId, Dst: FheIntId> CastFrom<FheInt<Src>> for FheInt<Dst> {
    fn try_cast_from(value: FheInt<Src>) -> Result<Self> {
        resize(value.inner.input(), FheInt::<Dst>::bits(), true).map(FheInt::from_storage)
    }
}

/// Truncates or zero-extends, like `x as i16` for a `u8` (`0xff` becomes 255, and
/// `x as i8` for a `u8` reads the same bits as signed); no bootstrap.
impl<Src: FheUintId, Dst: FheIntId> CastFrom<FheUint<Src>> for FheInt<Dst> {
    fn try_cast_from(value: FheUint<Src>) -> Result<Self> {
        resize(value.input(), FheInt::<Dst>::bits(), false).map(FheInt::from_storage)
    }
}

/// `false` becomes 0 and `true` 1; no bootstrap.
impl<Id: FheUintId> CastFrom<FheBool> for FheUint<Id> {
    fn try_cast_from(value: FheBool) -> Result<Self> {
        resize(value.input(), Id::BITS, false).map(Self::from_storage)
    }
}

/// `false` becomes 0 and `true` 1; no bootstrap.
impl<Id: FheIntId> CastFrom<FheBool> for FheInt<Id> {
    fn try_cast_from(value: FheBool) -> Result<Self> {
        FheUint::try_cast_from(value).map(FheInt::from_inner)
    }
}

/// `value != 0`.
impl<Id: FheUintId> CastFrom<FheUint<Id>> for FheBool {
    fn try_cast_from(value: FheUint<Id>) -> Result<Self> {
        if let Storage::Trivial(v) = value.storage {
            return Ok(Self::from_storage(Storage::trivial((!v.is_zero()).into())));
        }
        value.compare(CmpOp::Ne, OperandKind::Clear(U2048::ZERO))
    }
}

/// `value != 0`.
impl<Id: FheIntId> CastFrom<FheInt<Id>> for FheBool {
    fn try_cast_from(value: FheInt<Id>) -> Result<Self> {
        Self::try_cast_from(value.inner)
    }
}

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

/// `CastFrom` both ways between the wide clear types (`U256` ... `U2048`, `I256` ...
/// `I2048`) and the primitives of the same signedness, as `as` casts do:
/// zero- (or sign-) extended up, the low bits kept down (never an `Err`).
macro_rules! wide_clear_casts {
    ($($wide:ty: $($t:ty),*;)*) => {$($(
        impl CastFrom<$t> for $wide {
            fn try_cast_from(value: $t) -> Result<Self> {
                Ok(Self::from(value))
            }
        }

        impl CastFrom<$wide> for $t {
            fn try_cast_from(value: $wide) -> Result<Self> {
                Ok(value.low_u128_bits() as $t)
            }
        }
    )*)*};
}
wide_clear_casts! {
    U256: u8, u16, u32, u64, u128;
    U512: u8, u16, u32, u64, u128;
    U1024: u8, u16, u32, u64, u128;
    U2048: u8, u16, u32, u64, u128;
    I256: i8, i16, i32, i64, i128;
    I512: i8, i16, i32, i64, i128;
    I1024: i8, i16, i32, i64, i128;
    I2048: i8, i16, i32, i64, i128;
}

/// The low 128 bits of a wide clear (a signed one's two's complement bits).
trait LowBits {
    fn low_u128_bits(self) -> u128;
}

macro_rules! low_bits {
    ($($unsigned:ty, $signed:ty;)*) => {$(
        impl LowBits for $unsigned {
            fn low_u128_bits(self) -> u128 {
                self.low_u128()
            }
        }

        impl LowBits for $signed {
            fn low_u128_bits(self) -> u128 {
                self.as_unsigned().low_u128()
            }
        }
    )*};
}
low_bits! {
    U256, I256;
    U512, I512;
    U1024, I1024;
    U2048, I2048;
}

/// `CastFrom` between the wide clear types of one signedness: truncated down,
/// zero- or sign-extended up (as TFHE-rs's casts between its big integers).
macro_rules! between_wide_casts {
    ($($from:ty => $($to:ty),*;)*) => {$($(
        impl CastFrom<$from> for $to {
            fn try_cast_from(value: $from) -> Result<Self> {
                Ok(value.resize())
            }
        }
    )*)*};
}
between_wide_casts! {
    U256 => U512, U1024, U2048;
    U512 => U256, U1024, U2048;
    U1024 => U256, U512, U2048;
    U2048 => U256, U512, U1024;
    I256 => I512, I1024, I2048;
    I512 => I256, I1024, I2048;
    I1024 => I256, I512, I2048;
    I2048 => I256, I512, I1024;
}

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

    #[test]
    fn wide_clear_casts_follow_as() {
        use crate::integer::{I2048, I256, U2048, U512};
        let x = U2048::MAX - U2048::from(1u8);
        assert_eq!(u16::cast_from(x), u16::MAX - 1);
        assert_eq!(U512::cast_from(x), U512::MAX - U512::from(1u8));
        assert_eq!(U2048::cast_from(U512::MAX), U2048::MAX >> 1536u32);
        assert_eq!(i64::cast_from(I2048::from(-5i8)), -5);
        assert_eq!(I2048::cast_from(I256::from(-5i8)), I2048::from(-5i8));
        assert_eq!(I256::cast_from(-3i16), I256::from(-3i8));
        assert_eq!(i8::cast_from(I256::from(300i16)), 44);
    }
}
