//! Division and remainder of [`FheUint`] and [`FheInt`] by an encrypted or a clear
//! divisor: `/`, `%`, `div_rem` and their `try_` forms, one circuit each (see
//! [`crate::integer::div_rem`] and [`crate::integer::signed_div_rem`] for the
//! algorithms and their costs). Signed division truncates toward zero and wraps like
//! Rust's `wrapping_div` and `wrapping_rem` (`MIN / -1` is `MIN`, remainder 0).
//!
//! **Division by zero**, as TFHE-rs defines it: an *encrypted* zero divisor (the
//! server cannot see it) gives the remainder the dividend and the quotient `MAX` (all
//! bits set) for an unsigned dividend, -1 for a signed one `>= 0` and 1 for a
//! negative one; a *clear* zero divisor is an `Err` of the `try_` forms (the operators
//! panic), as it is a bug in the server's own code. A trivial encryption of zero is
//! an encrypted divisor.

use super::base::{wrap_to_bits, FheUint, FheUintId};
use crate::error::Result;
use crate::high_level::integers::operands::{Operand, OperandKind};
use crate::high_level::integers::operators::{div_rem_trait, division_operators};
use crate::high_level::internals::storage::Storage;
use crate::high_level::traits::DivRem;
use crate::integer::{self, Circuit, Radix, Rhs, Wire, U2048};
use std::ops::{Div, DivAssign, Rem, RemAssign};

impl<Id: FheUintId> FheUint<Id> {
    /// `(self / rhs, self % rhs)` in one circuit; `Err` if `rhs` is a clear zero, if
    /// there is no server key on this thread or the operands belong to different keys.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let a = FheUint8::encrypt(200u8, &client_key);
    /// let b = FheUint8::encrypt(7u8, &client_key);
    /// let (q, r) = a.try_div_rem(&b).unwrap();
    /// let (q, r): (u8, u8) = (q.decrypt(&client_key), r.decrypt(&client_key));
    /// assert_eq!((q, r), (28, 4));
    /// // By a clear value; a clear zero is an error.
    /// let (q, r) = a.try_div_rem(16u8).unwrap();
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&q, &client_key), 12);
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&r, &client_key), 8);
    /// assert!(a.try_div_rem(0u8).is_err());
    /// // An encrypted zero: MAX and the dividend, as in TFHE-rs.
    /// let zero = FheUint8::encrypt(0u8, &client_key);
    /// let (q, r) = a.div_rem(&zero);
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&q, &client_key), u8::MAX);
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&r, &client_key), 200);
    /// ```
    pub fn try_div_rem<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<(Self, Self)> {
        let rhs = rhs.into().0;
        if rhs.is_trivial_zero() {
            // An encrypted zero that happens to be trivial: TFHE-rs's result, not the
            // clear-zero error.
            let max = Storage::trivial(wrap_to_bits(U2048::MAX, Id::BITS));
            return Ok((Self::from_storage(max), self.clone()));
        }
        self.div_rem_parts(rhs)
    }

    /// `(self / rhs, self % rhs)` as one circuit ([`integer::div_rem`] or
    /// [`integer::scalar_div_rem`]; a clear zero is an `Err`).
    pub(crate) fn div_rem_parts(&self, rhs: OperandKind<'_, Id>) -> Result<(Self, Self)> {
        self.div_rem_with(rhs, |c, n, d| match d {
            Rhs::Wires(d) => integer::div_rem(c, n, d),
            Rhs::Clear(d) => integer::scalar_div_rem(c, n, d),
        })
    }

    /// The quotient and remainder `build(self, rhs)` gives, as one circuit.
    pub(crate) fn div_rem_with(
        &self,
        rhs: OperandKind<'_, Id>,
        build: impl FnOnce(&mut Circuit, &[Wire], Rhs) -> Result<(Radix, Radix)>,
    ) -> Result<(Self, Self)> {
        let (q, r) = self.two_outputs(rhs, build)?;
        Ok((Self::from_storage(q), Self::from_storage(r)))
    }
}

/// `try_div`, `try_rem` and `div_rem` of `$T` through its `try_div_rem`, right
/// operands `$Operand`.
macro_rules! division_methods {
    ($T:ident<$IdT:ident>, $Operand:ty) => {
        impl<Id: $IdT> $T<Id> {
            #[doc = concat!("`self / rhs`; `Err` as [`", stringify!($T), "::try_div_rem`].")]
            /// The operator `/` panics instead.
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::FheUint8;
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// gpufhe::set_server_key(server_key);
            /// let x = FheUint8::encrypt(100u8, &client_key);
            /// let q: u8 = x.try_div(7u8).unwrap().decrypt(&client_key);
            /// assert_eq!(q, 14);
            /// ```
            pub fn try_div<'r>(&self, rhs: impl Into<$Operand>) -> $crate::error::Result<Self> {
                Ok(self.try_div_rem(rhs)?.0)
            }

            #[doc = concat!("`self % rhs`; `Err` as [`", stringify!($T), "::try_div_rem`].")]
            /// The operator `%` panics instead.
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::FheUint8;
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// gpufhe::set_server_key(server_key);
            /// let x = FheUint8::encrypt(100u8, &client_key);
            /// let r: u8 = x.try_rem(7u8).unwrap().decrypt(&client_key);
            /// assert_eq!(r, 2);
            /// ```
            pub fn try_rem<'r>(&self, rhs: impl Into<$Operand>) -> $crate::error::Result<Self> {
                Ok(self.try_div_rem(rhs)?.1)
            }

            /// `(self / rhs, self % rhs)` in one circuit (see the module docs for zero
            /// divisors).
            ///
            /// # Panics
            ///
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::FheUint8;
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// gpufhe::set_server_key(server_key);
            /// let x = FheUint8::encrypt(100u8, &client_key);
            /// let (q, r) = x.div_rem(&FheUint8::encrypt(9u8, &client_key));
            /// assert_eq!((q.decrypt(&client_key), r.decrypt(&client_key)), (11u8, 1u8));
            /// ```
            #[doc = concat!("If [`", stringify!($T), "::try_div_rem`] fails.")]
            #[track_caller]
            pub fn div_rem<'r>(&self, rhs: impl Into<$Operand>) -> (Self, Self) {
                $crate::high_level::internals::expect_op(self.try_div_rem(rhs), "div_rem")
            }
        }
    };
}
pub(crate) use division_methods;

division_methods!(FheUint<FheUintId>, Operand<'r, Id>);
division_operators!(FheUint<FheUintId>, Operand<'r, Id>);
div_rem_trait!(FheUint<FheUintId>, Operand<'r, Id>);
