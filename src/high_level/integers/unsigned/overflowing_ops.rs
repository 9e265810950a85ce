//! Arithmetic that reports overflow, on [`FheUint`]: the overflowing operations
//! ([`OverflowingAdd`], [`OverflowingSub`], [`OverflowingMul`], [`OverflowingNeg`],
//! with a clear on either side for `+` and `-`) and the checked ones
//! (`checked_add`, ...: the flag says the result is exact). Each is one circuit.

use super::base::{FheUint, FheUintId};
use crate::error::Result;
use crate::high_level::booleans::base::FheBool;
use crate::high_level::integers::operands::{Operand, OperandKind, OverflowingOperand};
use crate::high_level::integers::operators::{overflowing_neg_trait, overflowing_traits};
use crate::high_level::internals::circuit::Flag;
use crate::high_level::traits::{
    FheTrivialEncrypt, OverflowingAdd, OverflowingMul, OverflowingNeg, OverflowingSub,
};
use crate::integer::{self, BinaryOp, Circuit, CmpOp, Radix, Rhs, Wire};
use crate::integer::{U1024, U2048, U256, U512};

impl<Id: FheUintId> FheUint<Id> {
    /// `self op rhs` for `op` among `+ - *`, with its overflow `flag` (or its
    /// negation), as one circuit. `Err` for another `op`.
    pub(crate) fn overflowing(
        &self,
        op: BinaryOp,
        rhs: OperandKind<'_, Id>,
        flag: Flag,
    ) -> Result<(Self, FheBool)> {
        self.overflowing_with(rhs, flag, |c, l, r| integer::overflowing(c, op, l, r))
    }

    /// `build(self, rhs)`, a value and its overflow flag, with the `flag` asked for
    /// (the overflow or its negation), as one circuit.
    pub(crate) fn overflowing_with(
        &self,
        rhs: OperandKind<'_, Id>,
        flag: Flag,
        build: impl FnOnce(&mut Circuit, &[Wire], Rhs) -> Result<(Radix, Wire)>,
    ) -> Result<(Self, FheBool)> {
        let (value, overflow) = self.two_outputs(rhs, |c, l, r| {
            let (value, overflow) = build(c, l, r)?;
            let overflow = integer::to_boolean(c, overflow)?;
            let flag = match flag {
                Flag::Overflow => overflow,
                Flag::Valid => c.linear(&[(overflow, -1)], 1)?,
            };
            Ok((value, vec![flag]))
        })?;
        Ok((Self::from_storage(value), FheBool::from_storage(overflow)))
    }
}

overflowing_traits!(FheUint<FheUintId>, OverflowingOperand<'r, Id>);

// `-x` wraps unless `x == 0`.
overflowing_neg_trait!(FheUint<FheUintId>, CmpOp::Ne, U2048::ZERO);

/// The checked arithmetic of `$T` (through its `overflowing`), right operands
/// `$Operand`; the doc example comes with the invocation.
macro_rules! checked_methods {
    ($T:ident<$IdT:ident>, $Operand:ty, [$(#[$checked:meta])*] $(,)?) => {
        impl<Id: $IdT> $T<Id> {
            $crate::high_level::integers::unsigned::overflowing_ops::checked_methods!(@checked $T, $Operand, [$(#[$checked])*] checked_add, try_checked_add,
                Add, "`self + rhs` (wrapping) and whether it is exact, that is did **not** \
                overflow the range of the type (the flag of Rust's `checked_add(..).is_some()`, \
                and of TFHE-rs's `checked_ilog2`; see [`crate::prelude::OverflowingAdd`] for \
                the overflow flag)");
            $crate::high_level::integers::unsigned::overflowing_ops::checked_methods!(@checked $T, $Operand, [] checked_sub, try_checked_sub, Sub,
                "`self - rhs` (wrapping) and whether it did not overflow the range of the type");
            $crate::high_level::integers::unsigned::overflowing_ops::checked_methods!(@checked $T, $Operand, [] checked_mul, try_checked_mul, Mul,
                "`self * rhs` (wrapping) and whether it did not overflow the range of the \
                type (about twice a multiplication)");
        }
    };
    (@checked $T:ident, $Operand:ty, [$(#[$doc:meta])*] $name:ident, $try:ident, $op:ident,
        $what:literal) => {
        #[doc = concat!($what, "; `Err` on failure.")]
        pub fn $try<'r>(&self, rhs: impl Into<$Operand>) -> $crate::error::Result<(Self, $crate::high_level::booleans::base::FheBool)> {
            self.overflowing(
                $crate::integer::BinaryOp::$op,
                rhs.into().0,
                $crate::high_level::internals::circuit::Flag::Valid,
            )
        }

        #[doc = concat!($what, ".")]
        ///
        $(#[$doc])*
        ///
        /// # Panics
        ///
        #[doc = concat!("If [`", stringify!($T), "::", stringify!($try), "`] fails.")]
        #[track_caller]
        pub fn $name<'r>(&self, rhs: impl Into<$Operand>) -> (Self, $crate::high_level::booleans::base::FheBool) {
            $crate::high_level::internals::expect_op(self.$try(rhs), stringify!($name))
        }
    };
}
pub(crate) use checked_methods;

checked_methods!(
    FheUint<FheUintId>,
    Operand<'r, Id>,
    [
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = generate_keys(config);
        /// set_server_key(server_key);
        /// let a = FheUint8::encrypt(200u8, &client_key);
        /// let (sum, ok) = a.checked_add(100u8);
        /// assert_eq!(FheDecrypt::<u8>::decrypt(&sum, &client_key), 44);
        /// assert!(!ok.decrypt(&client_key));
        /// let (difference, ok) = a.checked_sub(100u8);
        /// assert_eq!(FheDecrypt::<u8>::decrypt(&difference, &client_key), 100);
        /// assert!(ok.decrypt(&client_key));
        /// let (product, ok) = a.checked_mul(2u8);
        /// assert_eq!(FheDecrypt::<u8>::decrypt(&product, &client_key), 144);
        /// assert!(!ok.decrypt(&client_key));
        /// ```
    ],
);

/// `OverflowingAdd` / `OverflowingSub` with each clear type `$clear` on the left of
/// `$T` (through a trivial value of the type), right operands `$Operand`.
macro_rules! clear_left_overflowing {
    ($Operand:ident, $T:ident<$IdT:ident>: $($clear:ty),*) => {$(
        $crate::high_level::integers::unsigned::overflowing_ops::clear_left_overflowing!(
            @left $Operand, $T<$IdT>, $clear, OverflowingAdd, try_overflowing_add, Add);
        $crate::high_level::integers::unsigned::overflowing_ops::clear_left_overflowing!(
            @left $Operand, $T<$IdT>, $clear, OverflowingSub, try_overflowing_sub, Sub);
    )*};
    (@left $Operand:ident, $T:ident<$IdT:ident>, $clear:ty, $Trait:ident, $try:ident, $op:ident) => {
        impl<Id: $IdT> $Trait<&$T<Id>> for $clear {
            type Output = $T<Id>;

            fn $try(self, rhs: &$T<Id>) -> Result<($T<Id>, FheBool)> {
                $T::<Id>::encrypt_trivial(self).overflowing(
                    BinaryOp::$op,
                    $Operand::from(rhs).0,
                    $crate::high_level::internals::circuit::Flag::Overflow,
                )
            }
        }
    };
}
pub(crate) use clear_left_overflowing;

clear_left_overflowing!(
    OverflowingOperand,
    FheUint<FheUintId>: u8, u16, u32, u64, u128, U256, U512, U1024, U2048
);
