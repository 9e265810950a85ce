//! [`BitSlice`]: bits `start..end` of an encrypted unsigned integer, shifted down to
//! bit 0 (TFHE-rs's trait of the same name), as a clear shift and a clear mask.

use super::fhe_uint::{FheUint, FheUintId, OperandKind, ShiftAmount};
use super::traits::{expect_op, CastInto, FheTrivialEncrypt};
use crate::error::InvalidRangeError;
use crate::integer::U256;
use std::ops::{Bound, RangeBounds};

/// Bits `start..end` of a value as a value of its type, shifted down to bit 0 (the
/// other bits zero).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint16};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let x = FheUint16::encrypt(0xABCDu16, &client_key);
/// let nibble: u16 = (&x).bitslice(4usize..8).unwrap().decrypt(&client_key);
/// assert_eq!(nibble, 0xC);
/// assert!((&x).bitslice(8usize..17).is_err());
/// ```
pub trait BitSlice<Bounds> {
    /// The type of the slice.
    type Output;

    /// Bits `range` of `self`, shifted down; `Err` if the range ends beyond the
    /// width of the type or before its start.
    ///
    /// # Panics
    ///
    /// If the operation fails: no server key on this thread, or `self` belongs to
    /// another key.
    fn bitslice<R>(self, range: R) -> Result<Self::Output, InvalidRangeError>
    where
        R: RangeBounds<Bounds>;
}

/// `[start, end)` of `range` within a width of `bits`.
fn bit_range<B, R>(range: &R, bits: u32) -> Result<(u32, u32), InvalidRangeError>
where
    B: CastInto<usize> + Copy,
    R: RangeBounds<B>,
{
    let at = |b: &B| -> usize { (*b).cast_into() };
    let start = match range.start_bound() {
        Bound::Included(s) => at(s),
        Bound::Excluded(s) => at(s).saturating_add(1),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(e) => at(e).saturating_add(1),
        Bound::Excluded(e) => at(e),
        Bound::Unbounded => bits as usize,
    };
    if end > bits as usize {
        Err(InvalidRangeError::SliceTooBig)
    } else if start > end {
        Err(InvalidRangeError::WrongOrder)
    } else {
        Ok((start as u32, end as u32))
    }
}

impl<Id: FheUintId, B: CastInto<usize> + Copy> BitSlice<B> for &FheUint<Id> {
    type Output = FheUint<Id>;

    #[track_caller]
    fn bitslice<R>(self, range: R) -> Result<FheUint<Id>, InvalidRangeError>
    where
        R: RangeBounds<B>,
    {
        let (start, end) = bit_range(&range, Id::BITS)?;
        let width = end - start;
        let mask = if width == 0 {
            U256::ZERO
        } else {
            U256::MAX.wrapping_shr(256 - width)
        };
        let mask = FheUint::<Id>::encrypt_trivial(mask);
        let slice = self
            .try_shr(ShiftAmount(OperandKind::Clear(U256::from(
                start % Id::BITS,
            ))))
            .and_then(|shifted| shifted.try_bitand(&mask));
        Ok(expect_op(slice, "bitslice"))
    }
}
