//! Selection and lookup on encrypted integers, as TFHE-rs writes them:
//!
//! - clear arms: [`ScalarIfThenElse`] (one arm encrypted, the other clear), [`Flip`],
//!   [`FheUint::select`] / [`FheInt::select`] (both arms clear) and [`IfThenZero`]
//!   (the other arm zero). A clear arm enters the circuit as a trivial value: a
//!   constant, not an encryption, so a select against a clear arm costs one bootstrap
//!   per block;
//! - dot products of encrypted booleans with clear values;
//! - table lookups: [`MatchValues`] (pairs of clear inputs and outputs),
//!   [`FheUint::match_value`] and [`FheUint::match_value_or`]: one equality per
//!   entry, a selection of each output by its equality, their sum (at most one is
//!   non-zero, the inputs being distinct) and an OR-tree of the equalities;
//! - membership: `contains` (and the arrays' `fhe_array_contains`).

use super::signed::base::{FheInt, FheIntId};
use super::unsigned::base::{FheUint, FheUintId, UnsignedClear, UnsignedView};
use crate::error::{Error, Result};
use crate::high_level::booleans::base::FheBool;
use crate::high_level::internals::circuit::{check_operands, run, single};
use crate::high_level::internals::expect_op;
use crate::high_level::internals::storage::Input;
use crate::high_level::traits::{
    FheEq, FheTrivialEncrypt, Flip, IfThenElse, IfThenZero, ScalarArm, ScalarIfThenElse,
};
use crate::integer::{self, Wire, I1024, I2048, I256, I512, U1024, U2048, U256, U512};
use std::collections::HashSet;
use std::hash::Hash;
use std::ops::Range;

/// `(rhs, lhs)` if `condition`, else `(lhs, rhs)`.
fn flip_values<T>(condition: &FheBool, lhs: &T, rhs: &T) -> Result<(T, T)>
where
    FheBool: IfThenElse<T>,
{
    Ok((
        condition.try_if_then_else(rhs, lhs)?,
        condition.try_if_then_else(lhs, rhs)?,
    ))
}

/// [`ScalarArm`] for the clears of a family, and [`ScalarIfThenElse`] and [`Flip`]
/// of the family with a clear on either side ([`Flip`] with none too).
macro_rules! scalar_arms {
    ($T:ident<$IdT:ident>: $($clear:ty),*) => {
        $(
            impl<Id: $IdT> ScalarArm<$T<Id>> for $clear {
                fn into_trivial(self) -> $T<Id> {
                    $T::encrypt_trivial(self)
                }
            }
        )*

        impl<Id: $IdT, C: ScalarArm<$T<Id>>> ScalarIfThenElse<&$T<Id>, C> for FheBool {
            type Output = $T<Id>;

            fn try_scalar_if_then_else(&self, value_true: &$T<Id>, value_false: C) -> Result<$T<Id>> {
                self.try_if_then_else(value_true, &value_false.into_trivial())
            }
        }

        impl<Id: $IdT, C: ScalarArm<$T<Id>>> ScalarIfThenElse<C, &$T<Id>> for FheBool {
            type Output = $T<Id>;

            fn try_scalar_if_then_else(&self, value_true: C, value_false: &$T<Id>) -> Result<$T<Id>> {
                self.try_if_then_else(&value_true.into_trivial(), value_false)
            }
        }

        impl<Id: $IdT> Flip<&$T<Id>, &$T<Id>> for FheBool {
            type Output = $T<Id>;

            fn try_flip(&self, lhs: &$T<Id>, rhs: &$T<Id>) -> Result<($T<Id>, $T<Id>)> {
                flip_values(self, lhs, rhs)
            }
        }

        impl<Id: $IdT, C: ScalarArm<$T<Id>>> Flip<&$T<Id>, C> for FheBool {
            type Output = $T<Id>;

            fn try_flip(&self, lhs: &$T<Id>, rhs: C) -> Result<($T<Id>, $T<Id>)> {
                flip_values(self, lhs, &rhs.into_trivial())
            }
        }

        impl<Id: $IdT, C: ScalarArm<$T<Id>>> Flip<C, &$T<Id>> for FheBool {
            type Output = $T<Id>;

            fn try_flip(&self, lhs: C, rhs: &$T<Id>) -> Result<($T<Id>, $T<Id>)> {
                flip_values(self, &lhs.into_trivial(), rhs)
            }
        }
    };
}
scalar_arms!(FheUint<FheUintId>: u8, u16, u32, u64, u128, U256, U512, U1024, U2048);
scalar_arms!(FheInt<FheIntId>: i8, i16, i32, i64, i128, I256, I512, I1024, I2048);

impl<Id: FheUintId> IfThenZero<FheUint<Id>> for FheBool {
    fn try_if_then_zero(&self, value: &FheUint<Id>) -> Result<FheUint<Id>> {
        self.try_if_then_else(value, &FheUint::encrypt_trivial(0u8))
    }
}

impl<Id: FheIntId> IfThenZero<FheInt<Id>> for FheBool {
    fn try_if_then_zero(&self, value: &FheInt<Id>) -> Result<FheInt<Id>> {
        self.try_if_then_else(value, &FheInt::encrypt_trivial(0i8))
    }
}

/// `select`, `if_then_else` and `cmux` with two clear arms, for one family of
/// encrypted integers.
macro_rules! clear_select {
    ($family:ident, $id:ident, $zero:literal) => {
        impl<Id: $id> $family<Id> {
            /// `if condition { true_value } else { false_value }`, encrypted
            /// (TFHE-rs's associated function of the same name).
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::{FheBool, FheInt16, FheUint8};
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// gpufhe::set_server_key(server_key);
            /// let yes = FheBool::encrypt(true, &client_key);
            /// let a: u8 = FheUint8::select(&yes, 3u8, 250u8).decrypt(&client_key);
            /// let b: u8 = FheUint8::if_then_else(&yes, 4u8, 250u8).decrypt(&client_key);
            /// let c: i16 = FheInt16::cmux(&yes, -5, 250).decrypt(&client_key);
            /// assert_eq!((a, b, c), (3, 4, -5));
            /// ```
            ///
            /// # Panics
            ///
            /// If the `try_` form fails.
            #[track_caller]
            pub fn select(
                condition: &FheBool,
                true_value: impl ScalarArm<Self>,
                false_value: impl ScalarArm<Self>,
            ) -> Self {
                expect_op(
                    Self::try_select(condition, true_value, false_value),
                    "select",
                )
            }

            /// [`Self::select`]; `Err` if there is no server key on this thread or
            /// the condition belongs to another key.
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::{FheBool, FheUint8};
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// let yes = FheBool::encrypt(true, &client_key);
            /// assert!(FheUint8::try_select(&yes, 1u8, 2u8).is_err()); // no server key yet
            /// gpufhe::set_server_key(server_key);
            /// let picked: u8 = FheUint8::try_select(&yes, 1u8, 2u8).unwrap().decrypt(&client_key);
            /// assert_eq!(picked, 1);
            /// ```
            pub fn try_select(
                condition: &FheBool,
                true_value: impl ScalarArm<Self>,
                false_value: impl ScalarArm<Self>,
            ) -> Result<Self> {
                let (then, otherwise) = (true_value.into_trivial(), false_value.into_trivial());
                condition.try_if_then_else(&then, &otherwise)
            }

            /// The sum of the `clears[i]` whose `bools[i]` is true (wrapping), as
            /// TFHE-rs's `dot_product`: one selection per pair, then one sum. `Err`
            /// if the slices differ in length, there is no server key on this thread
            /// or a boolean belongs to another key.
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::{FheBool, FheUint8};
            /// let bits = [FheBool::encrypt_trivial(true)];
            /// // One boolean, two clear values: refused before any key is needed.
            /// assert!(FheUint8::try_dot_product(&bits, &[1, 2]).is_err());
            /// ```
            pub fn try_dot_product(bools: &[FheBool], clears: &[Id::Clear]) -> Result<Self> {
                if bools.len() != clears.len() {
                    return Err(crate::Error::InvalidParameter(format!(
                        "dot_product of {} booleans with {} clear values",
                        bools.len(),
                        clears.len()
                    )));
                }
                let zero = Self::encrypt_trivial($zero);
                let terms = bools
                    .iter()
                    .zip(clears)
                    .map(|(b, &c)| b.try_if_then_else(&Self::encrypt_trivial(c), &zero))
                    .collect::<Result<Vec<_>>>()?;
                Self::sum(&terms)
            }

            /// [`Self::try_dot_product`].
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::{FheBool, FheUint8};
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// gpufhe::set_server_key(server_key);
            /// let bits = [true, false, true].map(|b| FheBool::encrypt(b, &client_key));
            /// let dot: u8 = FheUint8::dot_product(&bits, &[2, 3, 4]).decrypt(&client_key);
            /// assert_eq!(dot, 2 + 4);
            /// ```
            ///
            /// # Panics
            ///
            /// If [`Self::try_dot_product`] fails.
            #[track_caller]
            pub fn dot_product(bools: &[FheBool], clears: &[Id::Clear]) -> Self {
                expect_op(Self::try_dot_product(bools, clears), "dot_product")
            }

            /// [`Self::select`] under TFHE-rs's other name (example at [`Self::select`]).
            ///
            /// # Panics
            ///
            /// If [`Self::try_select`] fails.
            #[track_caller]
            pub fn if_then_else(
                condition: &FheBool,
                true_value: impl ScalarArm<Self>,
                false_value: impl ScalarArm<Self>,
            ) -> Self {
                expect_op(
                    Self::try_select(condition, true_value, false_value),
                    "if_then_else",
                )
            }

            /// [`Self::select`] under TFHE-rs's name for the "controlled mux" (example
            /// at [`Self::select`]).
            ///
            /// # Panics
            ///
            /// If [`Self::try_select`] fails.
            #[track_caller]
            pub fn cmux(
                condition: &FheBool,
                true_value: impl ScalarArm<Self>,
                false_value: impl ScalarArm<Self>,
            ) -> Self {
                expect_op(Self::try_select(condition, true_value, false_value), "cmux")
            }
        }
    };
}
clear_select!(FheUint, FheUintId, 0u8);
clear_select!(FheInt, FheIntId, 0i8);

/// A lookup table of clear `(input, output)` pairs with distinct inputs, for
/// [`FheUint::match_value`] and [`FheUint::match_value_or`]. The inputs need not
/// cover every value of the type; the outputs need not be distinct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchValues<Clear>(Vec<(Clear, Clear)>);

impl<Clear> MatchValues<Clear> {
    /// The table of `matches` (`.0` the input, `.1` its output); `Err` if two
    /// entries have the same input.
    ///
    /// ```
    /// use gpufhe::MatchValues;
    /// assert!(MatchValues::new(vec![(1u8, 10u8), (2, 10)]).is_ok());
    /// assert!(MatchValues::new(vec![(1u8, 10u8), (1, 20)]).is_err()); // input 1 twice
    /// ```
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
    ///
    /// ```
    /// use gpufhe::MatchValues;
    /// let squares = MatchValues::from_fn_and_range(|x: u8| x * x, 1..4);
    /// assert_eq!(squares.get_values(), &vec![(1, 1), (2, 4), (3, 9)]);
    /// ```
    pub fn from_fn_and_range<F>(func: F, range: Range<Clear>) -> Self
    where
        Clear: Copy,
        Range<Clear>: Iterator<Item = Clear>,
        F: Fn(Clear) -> Clear,
    {
        Self(range.map(|input| (input, func(input))).collect())
    }

    /// The `(input, output)` pairs.
    ///
    /// ```
    /// use gpufhe::MatchValues;
    /// let table = MatchValues::new(vec![(7u16, 1u16), (3, 2)]).unwrap();
    /// assert_eq!(table.get_values(), &vec![(7, 1), (3, 2)]);
    /// ```
    pub fn get_values(&self) -> &Vec<(Clear, Clear)> {
        &self.0
    }
}

/// `value` as the clear type of `OutId`; `Err` if it does not fit its width.
fn output<Clear: UnsignedClear, OutId: FheUintId>(value: Clear) -> Result<OutId::Clear> {
    let value = value.to_wide();
    if !value.fits_in(OutId::BITS) {
        return Err(Error::InvalidParameter(format!(
            "the output {value} does not fit in {} ({} bits)",
            OutId::NAME,
            OutId::BITS
        )));
    }
    Ok(OutId::Clear::from_wide_wrapping(value))
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
    /// use gpufhe::{FheUint16, FheUint8, MatchValues};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
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
        // Checked here too: an empty table runs no circuit.
        check_operands(&[self.unsigned_view().input()])?;
        let outputs = matches
            .0
            .iter()
            .map(|&(_, out)| output::<Clear, OutId>(out))
            .collect::<Result<Vec<_>>>()?;
        let hits = matches
            .0
            .iter()
            .map(|&(input, _)| self.try_eq(input.to_wide()))
            .collect::<Result<Vec<_>>>()?;
        let value = FheUint::<OutId>::try_dot_product(&hits, &outputs)?;
        Ok((value, any(hits)?))
    }

    /// The output of the entry of `matches` whose input is `self`, or `or_value` if
    /// there is none (see [`FheUint::match_value`]); `Err` as it, or if `or_value`
    /// does not fit `OutId`.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, MatchValues};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let table = MatchValues::new(vec![(1u8, 10u8), (2, 20)]).unwrap();
    /// let x = FheUint8::encrypt(5u8, &client_key); // not in the table
    /// let out: FheUint8 = x.match_value_or(&table, 99u8).unwrap();
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&out, &client_key), 99);
    /// ```
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

/// Whether some value of `data` equals `value`, as one circuit: a `!=` per value,
/// then the flags folded together ([`integer::contains`]). Trivially false for no
/// value (`value` still checked against the thread's server key).
pub(crate) fn contains(data: &[Input<'_>], value: Input<'_>) -> Result<FheBool> {
    if data.is_empty() {
        check_operands(&[value])?;
        return Ok(FheBool::encrypt_trivial(false));
    }
    let inputs: Vec<Input<'_>> = data.iter().copied().chain([value]).collect();
    let out = run(&inputs, |c, w| {
        let (items, value) = w.split_at(data.len());
        let items: Vec<&[Wire]> = items.iter().map(Vec::as_slice).collect();
        Ok(vec![vec![integer::contains(c, &items, &value[0])?]])
    })?;
    Ok(FheBool::from_storage(single(out)?))
}

/// `contains` and `try_contains` of `$T<Id>`.
macro_rules! contains_methods {
    ($T:ident<$IdT:ident>) => {
        impl<Id: $IdT> $T<Id> {
            /// Whether `value` is one of `values`, as one circuit (an encrypted
            /// `false` for an empty slice); `Err` if there is no server key on this
            /// thread or the values belong to different keys.
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::FheUint8;
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// let x = FheUint8::encrypt(5u8, &client_key);
            /// assert!(FheUint8::try_contains(&[], &x).is_err()); // no server key yet
            /// gpufhe::set_server_key(server_key);
            /// let found = FheUint8::try_contains(&[], &x).unwrap();
            /// assert!(!found.decrypt(&client_key)); // nothing to find in no values
            /// ```
            pub fn try_contains(values: &[Self], value: &Self) -> Result<FheBool> {
                let data: Vec<Input<'_>> =
                    values.iter().map(|x| x.unsigned_view().input()).collect();
                contains(&data, value.unsigned_view().input())
            }

            /// Whether `value` is one of `values` (see `try_contains`).
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::{FheInt8, FheUint8};
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// gpufhe::set_server_key(server_key);
            /// let primes = [2u8, 3, 5, 7].map(|p| FheUint8::encrypt(p, &client_key));
            /// let five = FheUint8::contains(&primes, &FheUint8::encrypt(5u8, &client_key));
            /// let signed = [-1i8, 1].map(|v| FheInt8::encrypt(v, &client_key));
            /// let zero = FheInt8::contains(&signed, &FheInt8::encrypt(0i8, &client_key));
            /// assert_eq!((five.decrypt(&client_key), zero.decrypt(&client_key)), (true, false));
            /// ```
            ///
            /// # Panics
            ///
            /// If `try_contains` fails.
            #[track_caller]
            pub fn contains(values: &[Self], value: &Self) -> FheBool {
                expect_op(Self::try_contains(values, value), "contains")
            }
        }
    };
}

contains_methods!(FheUint<FheUintId>);
contains_methods!(FheInt<FheIntId>);
