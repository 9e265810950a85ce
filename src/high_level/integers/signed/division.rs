//! Division and remainder of [`FheInt`] (see `integers::unsigned::division` for
//! the rules, zero divisors included): truncating toward zero, wrapping like Rust's
//! `wrapping_div` and `wrapping_rem` (`MIN / -1` is `MIN`, remainder 0).

use super::base::{FheInt, FheIntId};
use crate::error::Result;
use crate::high_level::integers::operands::{OperandKind, SignedOperand};
use crate::high_level::integers::operators::{div_rem_trait, division_operators};
use crate::high_level::integers::unsigned::division::division_methods;
use crate::high_level::traits::DivRem;
use crate::integer::{self, sign_extend_wide, Rhs};
use std::ops::{Div, DivAssign, Rem, RemAssign};

impl<Id: FheIntId> FheInt<Id> {
    /// `(self / rhs, self % rhs)` in one circuit, truncating toward zero like Rust's
    /// `wrapping_div` and `wrapping_rem`; `Err` if `rhs` is a clear zero, if there is
    /// no server key on this thread or the operands belong to different keys.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let a = FheInt8::encrypt(-100i8, &client_key);
    /// let b = FheInt8::encrypt(7i8, &client_key);
    /// let (q, r) = a.try_div_rem(&b).unwrap();
    /// let (q, r): (i8, i8) = (q.decrypt(&client_key), r.decrypt(&client_key));
    /// assert_eq!((q, r), (-14, -2)); // the remainder has the dividend's sign
    /// // The operators, by a clear value; a clear zero is an error.
    /// let q: i8 = (&a / -16i8).decrypt(&client_key);
    /// let r: i8 = (&a % -16i8).decrypt(&client_key);
    /// assert_eq!((q, r), (6, -4));
    /// assert!(a.try_div(0i8).is_err());
    /// // MIN / -1 wraps, as i8::wrapping_div.
    /// let min = FheInt8::encrypt(i8::MIN, &client_key);
    /// let q: i8 = (&min / -1i8).decrypt(&client_key);
    /// assert_eq!(q, i8::MIN);
    /// // An encrypted zero: -1 (1 for a negative dividend) and the dividend, as in TFHE-rs.
    /// let (q, r) = a.div_rem(&FheInt8::encrypt(0i8, &client_key));
    /// assert_eq!(FheDecrypt::<i8>::decrypt(&q, &client_key), 1);
    /// assert_eq!(FheDecrypt::<i8>::decrypt(&r, &client_key), -100);
    /// ```
    pub fn try_div_rem<'r>(&self, rhs: impl Into<SignedOperand<'r, Id>>) -> Result<(Self, Self)> {
        let rhs: OperandKind<'_, Id::Unsigned> = rhs.into().0;
        // A trivial zero enters as zero blocks: TFHE-rs's result, not the clear-zero
        // error.
        let encrypted_zero = rhs.is_trivial_zero();
        let (q, r) = self.inner.div_rem_with(rhs, |c, n, d| match d {
            Rhs::Wires(d) => integer::signed_div_rem(c, n, d),
            Rhs::Clear(_) if encrypted_zero => {
                let zero = integer::cast(c, &[], n.len())?;
                integer::signed_div_rem(c, n, &zero)
            }
            Rhs::Clear(d) => {
                let d = sign_extend_wide(d, Self::bits());
                integer::signed_scalar_div_rem(c, n, d)
            }
        })?;
        Ok((Self::from_inner(q), Self::from_inner(r)))
    }
}

division_methods!(FheInt<FheIntId>, SignedOperand<'r, Id>);
division_operators!(FheInt<FheIntId>, SignedOperand<'r, Id>);
div_rem_trait!(FheInt<FheIntId>, SignedOperand<'r, Id>);
