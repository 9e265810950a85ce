//! Division and remainder of [`FheUint`] by an encrypted or a clear divisor: `/`,
//! `%`, [`FheUint::div_rem`] and their `try_` forms, one circuit each (see
//! [`crate::integer::div_rem`] for the algorithm and its costs).
//!
//! **Division by zero**, as TFHE-rs defines it: an *encrypted* zero divisor (the
//! server cannot see it) gives the quotient `MAX` (all bits set) and the remainder
//! the dividend; a *clear* zero divisor is an `Err` of the `try_` forms (the operators
//! panic), as it is a bug in the server's own code. A trivial encryption of zero is
//! an encrypted divisor: it gives `MAX` and the dividend.

use super::fhe_uint::{FheUint, FheUintId, Operand, OperandKind};
use super::storage::Storage;
use super::traits::expect_op;
use crate::error::Result;

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
        if let OperandKind::Encrypted(d) = &rhs {
            if matches!(d.storage, Storage::Trivial(v) if v.is_zero()) {
                // An encrypted zero that happens to be trivial: TFHE-rs's result,
                // not the clear-zero error.
                let max = Storage::Trivial(super::fhe_uint::wrap_to_bits(
                    crate::integer::U256::MAX,
                    Id::BITS,
                ));
                return Ok((Self::from_storage(max), self.clone()));
            }
        }
        self.div_rem_parts(rhs)
    }

    /// `self / rhs`; `Err` as [`FheUint::try_div_rem`]. The operator `/` panics
    /// instead.
    pub fn try_div<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<Self> {
        Ok(self.try_div_rem(rhs)?.0)
    }

    /// `self % rhs`; `Err` as [`FheUint::try_div_rem`]. The operator `%` panics
    /// instead.
    pub fn try_rem<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<Self> {
        Ok(self.try_div_rem(rhs)?.1)
    }

    /// `(self / rhs, self % rhs)` in one circuit (see the module docs for zero
    /// divisors).
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_div_rem`] fails.
    #[track_caller]
    pub fn div_rem<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> (Self, Self) {
        expect_op(self.try_div_rem(rhs), "div_rem")
    }
}
