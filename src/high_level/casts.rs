//! Conversions between encrypted types ([`CastFrom`] / [`CastInto`]) with Rust's `as`
//! semantics: truncation to a narrower type, zero extension of an unsigned value and
//! sign extension of a signed one to a wider type. None needs a bootstrap except
//! integer to boolean (`!= 0`) and sign extension (one, for the sign block).

use super::config::block_count;
use super::fhe_bool::FheBool;
use super::fhe_int::{FheInt, FheIntId};
use super::fhe_uint::{wrap_to_bits, FheUint, FheUintId, OperandKind};
use super::operations::{run, single};
use super::storage::{Input, Storage};
use super::traits::CastFrom;
use crate::error::Result;
use crate::integer::{self, CmpOp, U256};

/// `value` resized to `bits` bits: truncated, or extended with zeros (or copies of its
/// sign bit when `signed`), like an `as` cast.
fn resize(value: Input<'_>, bits: u32, signed: bool) -> Result<Storage> {
    if let Storage::Trivial(v) = value.storage {
        let v = match signed {
            true => sign_extend_wide(*v, value.bits),
            false => *v,
        };
        return Ok(Storage::Trivial(wrap_to_bits(v, bits)));
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

/// The `bits`-bit two's complement `value` (its low `bits` bits) sign-extended to
/// 256 bits.
fn sign_extend_wide(value: U256, bits: u32) -> U256 {
    match bits {
        1..=255 if value.bit(bits - 1) => value | !U256::mask(bits),
        _ => value.low_bits(bits),
    }
}

/// Truncates (keeping the low bits) or zero-extends, like an `as` cast; no bootstrap.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint16, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
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
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
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
            return Ok(Self::from_storage(Storage::Trivial((!v.is_zero()).into())));
        }
        value.compare(CmpOp::Ne, OperandKind::Clear(U256::ZERO))
    }
}

/// `value != 0`.
impl<Id: FheIntId> CastFrom<FheInt<Id>> for FheBool {
    fn try_cast_from(value: FheInt<Id>) -> Result<Self> {
        Self::try_cast_from(value.inner)
    }
}
