//! Selection with clear arms, as TFHE-rs writes it: [`ScalarIfThenElse`] (one arm
//! encrypted, the other clear), [`Flip`], [`FheUint::select`] / [`FheInt::select`]
//! (both arms clear) and [`IfThenZero`] (the other arm zero). A clear arm enters the
//! circuit as a trivial value: a constant, not an encryption, so a select against a
//! clear arm costs one bootstrap per block.

use super::fhe_bool::FheBool;
use super::fhe_int::{FheInt, FheIntId};
use super::fhe_uint::{FheUint, FheUintId};
use super::traits::{expect_op, FheTrivialEncrypt, IfThenElse};
use crate::error::Result;
use crate::integer::U256;

/// A clear value that enters a selection as a trivial value of `T`: for
/// [`FheUint`] any unsigned clear (`u8` ... `u128`, [`U256`]), for [`FheInt`] any
/// signed clear (`i8` ... `i128`), cast to the type like an `as` cast (its low
/// bits), as TFHE-rs does.
pub trait ScalarArm<T> {
    /// The clear value as a trivial value of `T`.
    fn into_trivial(self) -> T;
}

/// `if self { value_true } else { value_false }` where one arm is clear (TFHE-rs's
/// trait of the same name; the clear arm is a [`ScalarArm`]), or both arms are
/// [`FheBool`]s.
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
/// let picked: i32 = a_is_smaller.scalar_if_then_else(7i8, &b).decrypt(&client_key);
/// assert_eq!(picked, 7);
/// ```
pub trait ScalarIfThenElse<Lhs, Rhs> {
    /// The type of the result.
    type Output;

    /// `if self { value_true } else { value_false }`; `Err` if there is no server
    /// key on this thread or the operands belong to different keys.
    fn try_scalar_if_then_else(&self, value_true: Lhs, value_false: Rhs) -> Result<Self::Output>;

    /// `if self { value_true } else { value_false }`.
    ///
    /// # Panics
    ///
    /// If [`ScalarIfThenElse::try_scalar_if_then_else`] fails.
    #[track_caller]
    fn scalar_if_then_else(&self, value_true: Lhs, value_false: Rhs) -> Self::Output {
        expect_op(
            self.try_scalar_if_then_else(value_true, value_false),
            "scalar_if_then_else",
        )
    }

    /// [`ScalarIfThenElse::scalar_if_then_else`] under TFHE-rs's other name.
    ///
    /// # Panics
    ///
    /// If [`ScalarIfThenElse::try_scalar_if_then_else`] fails.
    #[track_caller]
    fn scalar_select(&self, value_true: Lhs, value_false: Rhs) -> Self::Output {
        expect_op(
            self.try_scalar_if_then_else(value_true, value_false),
            "scalar_select",
        )
    }

    /// [`ScalarIfThenElse::scalar_if_then_else`] under TFHE-rs's name for the
    /// "controlled mux".
    ///
    /// # Panics
    ///
    /// If [`ScalarIfThenElse::try_scalar_if_then_else`] fails.
    #[track_caller]
    fn scalar_cmux(&self, value_true: Lhs, value_false: Rhs) -> Self::Output {
        expect_op(
            self.try_scalar_if_then_else(value_true, value_false),
            "scalar_cmux",
        )
    }
}

/// The two values, swapped when `self` is true: `(rhs, lhs)` if `self`, else
/// `(lhs, rhs)` (TFHE-rs's trait of the same name). Either value may be a clear
/// [`ScalarArm`].
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheBool, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(1u8, &client_key);
/// let cond = FheBool::encrypt(true, &client_key);
/// let (x, y) = cond.flip(&a, 9u8);
/// let (x, y): (u8, u8) = (x.decrypt(&client_key), y.decrypt(&client_key));
/// assert_eq!((x, y), (9, 1));
/// ```
pub trait Flip<Lhs, Rhs> {
    /// The type of the two results.
    type Output;

    /// The two values, swapped when `self` is true; `Err` if there is no server key
    /// on this thread or the operands belong to different keys.
    fn try_flip(&self, lhs: Lhs, rhs: Rhs) -> Result<(Self::Output, Self::Output)>;

    /// The two values, swapped when `self` is true.
    ///
    /// # Panics
    ///
    /// If [`Flip::try_flip`] fails.
    #[track_caller]
    fn flip(&self, lhs: Lhs, rhs: Rhs) -> (Self::Output, Self::Output) {
        expect_op(self.try_flip(lhs, rhs), "flip")
    }
}

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
scalar_arms!(FheUint<FheUintId>: u8, u16, u32, u64, u128, U256);
scalar_arms!(FheInt<FheIntId>: i8, i16, i32, i64, i128);

impl ScalarIfThenElse<&FheBool, &FheBool> for FheBool {
    type Output = FheBool;

    fn try_scalar_if_then_else(
        &self,
        value_true: &FheBool,
        value_false: &FheBool,
    ) -> Result<FheBool> {
        self.try_if_then_else(value_true, value_false)
    }
}

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
                true_value: impl ScalarArm<Self>,
                false_value: impl ScalarArm<Self>,
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
                true_value: impl ScalarArm<Self>,
                false_value: impl ScalarArm<Self>,
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
let picked: u8 = FheUint8::select(&condition, 3u8, 250u8).decrypt(&client_key);
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
