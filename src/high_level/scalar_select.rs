//! Selection with clear arms, as TFHE-rs writes it: [`FheBool::scalar_select`]
//! (one arm encrypted, the other clear), [`FheUint::select`] / [`FheInt::select`]
//! (both arms clear) and [`IfThenZero`] (the other arm zero). A clear arm enters the
//! circuit as a trivial value: a constant, not an encryption, so a select against a
//! clear arm costs one bootstrap per block.

use super::fhe_bool::FheBool;
use super::fhe_int::{FheInt, FheIntId};
use super::fhe_uint::{FheUint, FheUintId};
use super::traits::{expect_op, FheTrivialEncrypt, IfThenElse};
use crate::error::Result;
use crate::integer::U256;
use std::borrow::Cow;

/// One arm of [`FheBool::scalar_select`]: a borrowed encrypted value, or a clear
/// value of its type (`u8` for [`crate::FheUint8`], `i32` for [`crate::FheInt32`],
/// ...).
pub trait SelectArm<'a, T: Clone> {
    /// The arm as a value of `T` (a clear value as a trivial one).
    fn into_arm(self) -> Cow<'a, T>;
}

impl<'a, T: Clone> SelectArm<'a, T> for &'a T {
    fn into_arm(self) -> Cow<'a, T> {
        Cow::Borrowed(self)
    }
}

macro_rules! clear_arms {
    ($family:ident, $id:ident: $($clear:ty),*) => {$(
        impl<'a, Id: $id<Clear = $clear>> SelectArm<'a, $family<Id>> for $clear {
            fn into_arm(self) -> Cow<'a, $family<Id>> {
                Cow::Owned($family::encrypt_trivial(self))
            }
        }
    )*};
}
clear_arms!(FheUint, FheUintId: u8, u16, u32, u64, u128, U256);
clear_arms!(FheInt, FheIntId: i8, i16, i32, i64, i128);

/// `if self { value } else { 0 }` (TFHE-rs's trait of the same name): one bootstrap
/// per block.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint64};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let (balance, amount) = (FheUint64::encrypt(50u64, &client_key), FheUint64::encrypt(80u64, &client_key));
/// let sent = balance.ge(&amount).if_then_zero(&amount); // not enough funds: 0
/// let sent: u64 = sent.decrypt(&client_key);
/// assert_eq!(sent, 0);
/// ```
pub trait IfThenZero<T> {
    /// `if self { value } else { 0 }`; `Err` if there is no server key on this
    /// thread or the operands belong to different keys.
    fn try_if_then_zero(&self, value: &T) -> Result<T>;

    /// `if self { value } else { 0 }`.
    ///
    /// # Panics
    ///
    /// If [`IfThenZero::try_if_then_zero`] fails.
    #[track_caller]
    fn if_then_zero(&self, value: &T) -> T {
        expect_op(self.try_if_then_zero(value), "if_then_zero")
    }
}

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

impl FheBool {
    /// `if self { then } else { otherwise }` where either arm may be a clear value
    /// of the type of the other (TFHE-rs's `ScalarIfThenElse::scalar_select`).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt32};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let a = FheInt32::encrypt(-45i32, &client_key);
    /// let b = FheInt32::encrypt(32i32, &client_key);
    /// let a_is_smaller = a.lt(&b);
    /// let picked: i32 = a_is_smaller.scalar_select(&a, 7i32).decrypt(&client_key);
    /// assert_eq!(picked, -45);
    /// let picked: i32 = a_is_smaller.scalar_select(7i32, &b).decrypt(&client_key);
    /// assert_eq!(picked, 7);
    /// ```
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_scalar_select`] fails.
    #[track_caller]
    pub fn scalar_select<'a, T, L, R>(&self, then: L, otherwise: R) -> T
    where
        T: Clone + 'a,
        FheBool: IfThenElse<T>,
        L: SelectArm<'a, T>,
        R: SelectArm<'a, T>,
    {
        expect_op(self.try_scalar_select(then, otherwise), "scalar_select")
    }

    /// [`FheBool::scalar_select`]; `Err` if there is no server key on this thread
    /// or the operands belong to different keys.
    pub fn try_scalar_select<'a, T, L, R>(&self, then: L, otherwise: R) -> Result<T>
    where
        T: Clone + 'a,
        FheBool: IfThenElse<T>,
        L: SelectArm<'a, T>,
        R: SelectArm<'a, T>,
    {
        self.try_if_then_else(&then.into_arm(), &otherwise.into_arm())
    }

    /// [`FheBool::scalar_select`] under TFHE-rs's other name.
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_scalar_select`] fails.
    #[track_caller]
    pub fn scalar_if_then_else<'a, T, L, R>(&self, then: L, otherwise: R) -> T
    where
        T: Clone + 'a,
        FheBool: IfThenElse<T>,
        L: SelectArm<'a, T>,
        R: SelectArm<'a, T>,
    {
        expect_op(
            self.try_scalar_select(then, otherwise),
            "scalar_if_then_else",
        )
    }
}

/// `select`, `if_then_else` and `cmux` with two clear arms, for one family of
/// encrypted integers.
macro_rules! clear_select {
    ($family:ident, $id:ident, $zero:literal, $example:literal) => {
        impl<Id: $id> $family<Id> {
            /// `if condition { true_value } else { false_value }`, encrypted
            /// (TFHE-rs's associated function of the same name).
            ///
            /// ```
            #[doc = $example]
            /// ```
            ///
            /// # Panics
            ///
            /// If the `try_` form fails.
            #[track_caller]
            pub fn select(
                condition: &FheBool,
                true_value: Id::Clear,
                false_value: Id::Clear,
            ) -> Self {
                expect_op(
                    Self::try_select(condition, true_value, false_value),
                    "select",
                )
            }

            /// [`Self::select`]; `Err` if there is no server key on this thread or
            /// the condition belongs to another key.
            pub fn try_select(
                condition: &FheBool,
                true_value: Id::Clear,
                false_value: Id::Clear,
            ) -> Result<Self> {
                let (then, otherwise) = (
                    Self::encrypt_trivial(true_value),
                    Self::encrypt_trivial(false_value),
                );
                condition.try_if_then_else(&then, &otherwise)
            }

            /// The sum of the `clears[i]` whose `bools[i]` is true (wrapping), as
            /// TFHE-rs's `dot_product`: one selection per pair, then one sum. `Err`
            /// if the slices differ in length, there is no server key on this thread
            /// or a boolean belongs to another key.
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
            /// # Panics
            ///
            /// If [`Self::try_dot_product`] fails.
            #[track_caller]
            pub fn dot_product(bools: &[FheBool], clears: &[Id::Clear]) -> Self {
                expect_op(Self::try_dot_product(bools, clears), "dot_product")
            }

            /// [`Self::select`] under TFHE-rs's other name.
            ///
            /// # Panics
            ///
            /// If [`Self::try_select`] fails.
            #[track_caller]
            pub fn if_then_else(
                condition: &FheBool,
                true_value: Id::Clear,
                false_value: Id::Clear,
            ) -> Self {
                expect_op(
                    Self::try_select(condition, true_value, false_value),
                    "if_then_else",
                )
            }

            /// [`Self::select`] under TFHE-rs's name for the "controlled mux".
            ///
            /// # Panics
            ///
            /// If [`Self::try_select`] fails.
            #[track_caller]
            pub fn cmux(
                condition: &FheBool,
                true_value: Id::Clear,
                false_value: Id::Clear,
            ) -> Self {
                expect_op(Self::try_select(condition, true_value, false_value), "cmux")
            }
        }
    };
}
clear_select!(
    FheUint,
    FheUintId,
    0u8,
    "use gpufhe::prelude::*;
use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheBool, FheUint8};
let (client_key, server_key) = generate_keys(ConfigBuilder::default());
set_server_key(server_key);
let condition = FheBool::encrypt(true, &client_key);
let picked: u8 = FheUint8::select(&condition, 3, 250).decrypt(&client_key);
assert_eq!(picked, 3);
let bits = [true, false, true].map(|b| FheBool::encrypt(b, &client_key));
let dot: u8 = FheUint8::dot_product(&bits, &[2, 3, 4]).decrypt(&client_key);
assert_eq!(dot, 6);"
);
clear_select!(
    FheInt,
    FheIntId,
    0i8,
    "use gpufhe::prelude::*;
use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheBool, FheInt16};
let (client_key, server_key) = generate_keys(ConfigBuilder::default());
set_server_key(server_key);
let condition = FheBool::encrypt(false, &client_key);
let picked: i16 = FheInt16::select(&condition, 3, -250).decrypt(&client_key);
assert_eq!(picked, -250);"
);
