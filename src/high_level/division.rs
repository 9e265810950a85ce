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

use super::fhe_int::{FheInt, FheIntId, SignedOperand};
use super::fhe_uint::{FheUint, FheUintId, Operand, OperandKind};
use super::storage::Storage;
use super::traits::expect_op;
use crate::error::Result;
use crate::integer::{self, sign_extend_clear, Rhs, U256};

impl<Id: FheUintId> FheUint<Id> {
    /// `(self / rhs, self % rhs)` in one circuit; `Err` if `rhs` is a clear zero, if
    /// there is no server key on this thread or the operands belong to different keys.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
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
            let max = Storage::Trivial(super::fhe_uint::wrap_to_bits(U256::MAX, Id::BITS));
            return Ok((Self::from_storage(max), self.clone()));
        }
        self.div_rem_parts(rhs)
    }
}

impl<Id: FheIntId> FheInt<Id> {
    /// `(self / rhs, self % rhs)` in one circuit, truncating toward zero like Rust's
    /// `wrapping_div` and `wrapping_rem`; `Err` if `rhs` is a clear zero, if there is
    /// no server key on this thread or the operands belong to different keys.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
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
                let d = sign_extend_clear(d.low_u128(), Self::bits());
                integer::signed_scalar_div_rem(c, n, d)
            }
        })?;
        Ok((Self::from_inner(q), Self::from_inner(r)))
    }
}

/// `try_div`, `try_rem` and `div_rem` of `$T` through its `try_div_rem`, right
/// operands `$Operand`.
macro_rules! division_methods {
    ($T:ident<$IdT:ident>, $Operand:ty) => {
        impl<Id: $IdT> $T<Id> {
            #[doc = concat!("`self / rhs`; `Err` as [`", stringify!($T), "::try_div_rem`].")]
            /// The operator `/` panics instead.
            pub fn try_div<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
                Ok(self.try_div_rem(rhs)?.0)
            }

            #[doc = concat!("`self % rhs`; `Err` as [`", stringify!($T), "::try_div_rem`].")]
            /// The operator `%` panics instead.
            pub fn try_rem<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
                Ok(self.try_div_rem(rhs)?.1)
            }

            /// `(self / rhs, self % rhs)` in one circuit (see the module docs for zero
            /// divisors).
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`", stringify!($T), "::try_div_rem`] fails.")]
            #[track_caller]
            pub fn div_rem<'r>(&self, rhs: impl Into<$Operand>) -> (Self, Self) {
                expect_op(self.try_div_rem(rhs), "div_rem")
            }
        }
    };
}

division_methods!(FheUint<FheUintId>, Operand<'r, Id>);
division_methods!(FheInt<FheIntId>, SignedOperand<'r, Id>);
