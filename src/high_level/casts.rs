//! Conversions between encrypted types ([`CastFrom`] / [`CastInto`]). None needs a
//! bootstrap except integer to boolean (`!= 0`).

use super::config::block_count;
use super::fhe_bool::FheBool;
use super::fhe_uint::{wrap_to_bits, FheUint, FheUintId, OperandKind};
use super::operations::{run, single};
use super::storage::Storage;
use super::traits::CastFrom;
use crate::error::Result;
use crate::integer::{self, CmpOp};

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
        if let Storage::Trivial(v) = value.storage {
            return Ok(Self::from_storage(Storage::Trivial(wrap_to_bits(
                v,
                Dst::BITS,
            ))));
        }
        let out = run(&[value.input()], |c, w| {
            let count = block_count(c.parameters(), Dst::BITS);
            Ok(vec![integer::cast(c, &w[0], count)?])
        })?;
        Ok(Self::from_storage(single(out)?))
    }
}

/// `false` becomes 0 and `true` 1; no bootstrap.
impl<Id: FheUintId> CastFrom<FheBool> for FheUint<Id> {
    fn try_cast_from(value: FheBool) -> Result<Self> {
        if let Storage::Trivial(v) = value.storage {
            return Ok(Self::from_storage(Storage::Trivial(v)));
        }
        let out = run(&[value.input()], |c, w| {
            let count = block_count(c.parameters(), Id::BITS);
            Ok(vec![integer::cast(c, &w[0], count)?])
        })?;
        Ok(Self::from_storage(single(out)?))
    }
}

/// `value != 0`.
impl<Id: FheUintId> CastFrom<FheUint<Id>> for FheBool {
    fn try_cast_from(value: FheUint<Id>) -> Result<Self> {
        if let Storage::Trivial(v) = value.storage {
            return Ok(Self::from_storage(Storage::Trivial((v != 0) as u128)));
        }
        value.compare(CmpOp::Ne, OperandKind::Clear(0))
    }
}
