//! TFHE-rs's table lookups on encrypted unsigned integers: [`MatchValues`] (pairs of
//! clear inputs and outputs), [`FheUint::match_value`] and
//! [`FheUint::match_value_or`], written on the existing circuits: one equality per
//! entry, a selection of each output by its equality, their sum (at most one is
//! non-zero, the inputs being distinct) and an OR-tree of the equalities.

use super::fhe_bool::FheBool;
use super::fhe_uint::{FheUint, FheUintId, UnsignedClear};
use super::traits::{FheEq, FheTrivialEncrypt};
use crate::error::{Error, Result};
use crate::integer::U256;
use std::collections::HashSet;
use std::hash::Hash;
use std::ops::Range;

/// A lookup table of clear `(input, output)` pairs with distinct inputs, for
/// [`FheUint::match_value`] and [`FheUint::match_value_or`]. The inputs need not
/// cover every value of the type; the outputs need not be distinct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchValues<Clear>(Vec<(Clear, Clear)>);

impl<Clear> MatchValues<Clear> {
    /// The table of `matches` (`.0` the input, `.1` its output); `Err` if two
    /// entries have the same input.
    pub fn new(matches: Vec<(Clear, Clear)>) -> Result<Self>
    where
        Clear: Eq + Hash,
    {
        let mut inputs = HashSet::with_capacity(matches.len());
        if matches.iter().all(|(input, _)| inputs.insert(input)) {
            Ok(Self(matches))
        } else {
            Err(Error::InvalidParameter(
                "the inputs of a MatchValues must be distinct".into(),
            ))
        }
    }

    /// The table mapping each input of `range` to `func(input)`.
    pub fn from_fn_and_range<F>(func: F, range: Range<Clear>) -> Self
    where
        Clear: Copy,
        Range<Clear>: Iterator<Item = Clear>,
        F: Fn(Clear) -> Clear,
    {
        Self(range.map(|input| (input, func(input))).collect())
    }

    /// The `(input, output)` pairs.
    pub fn get_values(&self) -> &Vec<(Clear, Clear)> {
        &self.0
    }
}

/// `value` as the clear type of `OutId`; `Err` if it does not fit its width.
fn output<Clear: UnsignedClear, OutId: FheUintId>(value: Clear) -> Result<OutId::Clear> {
    let value = value.to_u256();
    if OutId::BITS < 256 && value.wrapping_shr(OutId::BITS) != U256::ZERO {
        return Err(Error::InvalidParameter(format!(
            "the output {value} does not fit in {} ({} bits)",
            OutId::NAME,
            OutId::BITS
        )));
    }
    Ok(OutId::Clear::from_u256_wrapping(value))
}

/// The OR of `flags` as a balanced tree (a trivial `false` for none).
fn any(mut flags: Vec<FheBool>) -> Result<FheBool> {
    while flags.len() > 1 {
        flags = flags
            .chunks(2)
            .map(|pair| match pair {
                [a, b] => a.try_or(b),
                [a] => Ok(a.clone()),
                _ => unreachable!("chunks of two"),
            })
            .collect::<Result<_>>()?;
    }
    Ok(flags
        .pop()
        .unwrap_or_else(|| FheBool::encrypt_trivial(false)))
}

impl<Id: FheUintId> FheUint<Id> {
    /// The output of the entry of `matches` whose input is `self` (0 if none) as an
    /// `FheUint<OutId>`, and whether there was one (TFHE-rs's method of the same
    /// name). An input beyond the range of the type never matches.
    ///
    /// `Err` if an output does not fit `OutId`, there is no server key on this
    /// thread or `self` belongs to another key.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint16, FheUint8, MatchValues};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let day = FheUint8::encrypt(2u8, &client_key);
    /// let table = MatchValues::new(vec![(1u8, 100u8), (2u8, 200u8)]).unwrap();
    /// let (price, found): (FheUint16, _) = day.match_value(&table).unwrap();
    /// let price: u16 = price.decrypt(&client_key);
    /// assert_eq!((price, found.decrypt(&client_key)), (200, true));
    /// let other: FheUint8 = day.match_value_or(&MatchValues::new(vec![(7u8, 1u8)]).unwrap(), 9u8).unwrap();
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&other, &client_key), 9);
    /// ```
    pub fn match_value<Clear, OutId>(
        &self,
        matches: &MatchValues<Clear>,
    ) -> Result<(FheUint<OutId>, FheBool)>
    where
        Clear: UnsignedClear,
        OutId: FheUintId,
    {
        let outputs = matches
            .0
            .iter()
            .map(|&(_, out)| output::<Clear, OutId>(out))
            .collect::<Result<Vec<_>>>()?;
        let hits = matches
            .0
            .iter()
            .map(|&(input, _)| self.try_eq(input.to_u256()))
            .collect::<Result<Vec<_>>>()?;
        let value = FheUint::<OutId>::try_dot_product(&hits, &outputs)?;
        Ok((value, any(hits)?))
    }

    /// The output of the entry of `matches` whose input is `self`, or `or_value` if
    /// there is none (see [`FheUint::match_value`]); `Err` as it, or if `or_value`
    /// does not fit `OutId`.
    pub fn match_value_or<Clear, OutId>(
        &self,
        matches: &MatchValues<Clear>,
        or_value: Clear,
    ) -> Result<FheUint<OutId>>
    where
        Clear: UnsignedClear,
        OutId: FheUintId,
    {
        let or_value = FheUint::<OutId>::encrypt_trivial(output::<Clear, OutId>(or_value)?);
        let (value, found) = self.match_value(matches)?;
        found.try_if_then_else(&value, &or_value)
    }
}
