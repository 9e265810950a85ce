//! Bit counts, `ilog2`, bit reversal and checked arithmetic on [`FheUint`], with the
//! names and result types of Rust's integer methods and TFHE-rs: counts and
//! logarithms are [`FheUint32`], flags [`FheBool`]. Each is one circuit (see
//! [`crate::integer::count_bits`] for the costs).

use super::config::block_count;
use super::fhe_bool::FheBool;
use super::fhe_uint::{FheUint, FheUint32, FheUint32Id, FheUintId, Operand};
use super::operations::{run, single, BinaryOp};
use super::traits::expect_op;
use crate::error::{check_eq, Result};
use crate::integer::{self, CountOp};

/// Defines `try_$name` and `$name` counting `$op` of an [`FheUint`].
macro_rules! bit_counts {
    ($($(#[$attr:meta])* $name:ident, $try:ident, $op:ident, $what:literal;)*) => {
        impl<Id: FheUintId> FheUint<Id> {$(
            #[doc = concat!("The number of ", $what, ", as an [`FheUint32`]; `Err` if there")]
            /// is no server key on this thread or the value belongs to another key.
            pub fn $try(&self) -> Result<FheUint32> {
                self.count(CountOp::$op)
            }

            #[doc = concat!("The number of ", $what, ", as an [`FheUint32`].")]
            ///
            $(#[$attr])*
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`FheUint::", stringify!($try), "`] fails.")]
            #[track_caller]
            pub fn $name(&self) -> FheUint32 {
                expect_op(self.$try(), stringify!($name))
            }
        )*}
    };
}

bit_counts! {
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let x = FheUint8::encrypt(0b0010_1100u8, &client_key);
    /// let ones: u32 = x.count_ones().decrypt(&client_key);
    /// let zeros: u32 = x.count_zeros().decrypt(&client_key);
    /// let leading: u32 = x.leading_zeros().decrypt(&client_key);
    /// let trailing: u32 = x.trailing_zeros().decrypt(&client_key);
    /// let log: u32 = x.ilog2().decrypt(&client_key);
    /// let reversed: u8 = x.reverse_bits().decrypt(&client_key);
    /// assert_eq!((ones, zeros, leading, trailing, log), (3, 5, 2, 2, 5));
    /// assert_eq!(reversed, 0b0011_0100);
    /// let y = FheUint8::encrypt(0b1110_0111u8, &client_key);
    /// let (lead, trail): (u32, u32) =
    ///     (y.leading_ones().decrypt(&client_key), y.trailing_ones().decrypt(&client_key));
    /// assert_eq!((lead, trail), (3, 3));
    /// ```
    count_ones, try_count_ones, Ones, "bits set";
    count_zeros, try_count_zeros, Zeros, "bits clear";
    leading_zeros, try_leading_zeros, LeadingZeros,
        "clear bits above the highest set bit (the width for 0)";
    trailing_zeros, try_trailing_zeros, TrailingZeros,
        "clear bits below the lowest set bit (the width for 0)";
    leading_ones, try_leading_ones, LeadingOnes, "set bits above the highest clear bit";
    trailing_ones, try_trailing_ones, TrailingOnes, "set bits below the lowest clear bit";
}

/// Which flag a checked operation reports.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flag {
    /// `true` when the result wrapped around (`overflowing_*`).
    Overflow,
    /// `true` when the result is exact (`checked_*`, like `Option::is_some`).
    Valid,
}

impl<Id: FheUintId> FheUint<Id> {
    /// The count `op` as one circuit.
    fn count(&self, op: CountOp) -> Result<FheUint32> {
        let out = run(&[self.input()], |c, w| {
            let blocks = block_count(c.parameters(), FheUint32Id::BITS);
            Ok(vec![integer::count_bits(c, op, &w[0], blocks)?])
        })?;
        Ok(FheUint32::from_storage(single(out)?))
    }

    /// `floor(log2(self))` as an [`FheUint32`]; meaningless for 0 (see
    /// [`FheUint::try_checked_ilog2`]). `Err` on failure.
    pub fn try_ilog2(&self) -> Result<FheUint32> {
        Ok(self.try_checked_ilog2()?.0)
    }

    /// `floor(log2(self))`; meaningless for 0 (see [`FheUint::checked_ilog2`]).
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_ilog2`] fails.
    #[track_caller]
    pub fn ilog2(&self) -> FheUint32 {
        expect_op(self.try_ilog2(), "ilog2")
    }

    /// `floor(log2(self))` and whether it is meaningful (`self != 0`), as TFHE-rs
    /// returns it; `Err` on failure.
    pub fn try_checked_ilog2(&self) -> Result<(FheUint32, FheBool)> {
        let mut out = run(&[self.input()], |c, w| {
            let blocks = block_count(c.parameters(), FheUint32Id::BITS);
            let (log, valid) = integer::ilog2(c, &w[0], blocks)?;
            Ok(vec![log, vec![valid]])
        })?;
        check_eq("number of outputs of the circuit", 2, out.len())?;
        let valid = FheBool::from_storage(out.remove(1));
        Ok((FheUint32::from_storage(out.remove(0)), valid))
    }

    /// `floor(log2(self))` and whether it is meaningful (`self != 0`).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint16};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let (log, valid) = FheUint16::encrypt(1000u16, &client_key).checked_ilog2();
    /// assert_eq!(FheDecrypt::<u32>::decrypt(&log, &client_key), 9);
    /// assert!(valid.decrypt(&client_key));
    /// let (_, valid) = FheUint16::encrypt(0u16, &client_key).checked_ilog2();
    /// assert!(!valid.decrypt(&client_key));
    /// ```
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_checked_ilog2`] fails.
    #[track_caller]
    pub fn checked_ilog2(&self) -> (FheUint32, FheBool) {
        expect_op(self.try_checked_ilog2(), "checked_ilog2")
    }

    /// The bits in reverse order (one bootstrap per block); `Err` on failure.
    pub fn try_reverse_bits(&self) -> Result<Self> {
        let out = run(&[self.input()], |c, w| {
            Ok(vec![integer::reverse_bits(c, &w[0])?])
        })?;
        Ok(Self::from_storage(single(out)?))
    }

    /// The bits in reverse order.
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_reverse_bits`] fails.
    #[track_caller]
    pub fn reverse_bits(&self) -> Self {
        expect_op(self.try_reverse_bits(), "reverse_bits")
    }

    /// `self + rhs` (wrapping) and whether it is exact, that is did **not**
    /// overflow (the flag of Rust's `checked_add(..).is_some()`, and of TFHE-rs's
    /// `checked_ilog2`); see [`crate::prelude::OverflowingAdd`] for the overflow flag.
    /// `Err` on failure.
    pub fn try_checked_add<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<(Self, FheBool)> {
        self.overflowing(BinaryOp::Add, rhs.into().0, Flag::Valid)
    }

    /// `self + rhs` (wrapping) and whether it did not overflow.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
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
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_checked_add`] fails.
    #[track_caller]
    pub fn checked_add<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> (Self, FheBool) {
        expect_op(self.try_checked_add(rhs), "checked_add")
    }

    /// `self - rhs` (wrapping) and whether it did not underflow (`self >= rhs`);
    /// `Err` on failure.
    pub fn try_checked_sub<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<(Self, FheBool)> {
        self.overflowing(BinaryOp::Sub, rhs.into().0, Flag::Valid)
    }

    /// `self - rhs` (wrapping) and whether it did not underflow (example at
    /// [`FheUint::checked_add`]).
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_checked_sub`] fails.
    #[track_caller]
    pub fn checked_sub<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> (Self, FheBool) {
        expect_op(self.try_checked_sub(rhs), "checked_sub")
    }

    /// `self * rhs` (wrapping) and whether it did not overflow; `Err` on failure.
    pub fn try_checked_mul<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<(Self, FheBool)> {
        self.overflowing(BinaryOp::Mul, rhs.into().0, Flag::Valid)
    }

    /// `self * rhs` (wrapping) and whether it did not overflow (example at
    /// [`FheUint::checked_add`]). Costs about twice a multiplication.
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_checked_mul`] fails.
    #[track_caller]
    pub fn checked_mul<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> (Self, FheBool) {
        expect_op(self.try_checked_mul(rhs), "checked_mul")
    }
}

impl<Id: FheUintId> FheUint<Id> {
    /// Whether the lowest bit is `odd`, as one table on the lowest block.
    fn parity(&self, odd: bool) -> Result<FheBool> {
        let out = run(&[self.input()], |c, w| {
            let flag = c.table(w[0][0], move |v| u64::from((v & 1 == 1) == odd))?;
            Ok(vec![vec![flag]])
        })?;
        Ok(FheBool::from_storage(single(out)?))
    }

    /// Whether the value is even (one bootstrap); `Err` if there is no server key on
    /// this thread or the value belongs to another key.
    pub fn try_is_even(&self) -> Result<FheBool> {
        self.parity(false)
    }

    /// Whether the value is odd (one bootstrap); `Err` as [`FheUint::try_is_even`].
    pub fn try_is_odd(&self) -> Result<FheBool> {
        self.parity(true)
    }

    /// Whether the value is even (one bootstrap), as TFHE-rs's `is_even`.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint16};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let x = FheUint16::encrypt(1235u16, &client_key);
    /// assert!(!x.is_even().decrypt(&client_key));
    /// assert!(x.is_odd().decrypt(&client_key));
    /// ```
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_is_even`] fails.
    #[track_caller]
    pub fn is_even(&self) -> FheBool {
        expect_op(self.try_is_even(), "is_even")
    }

    /// Whether the value is odd (one bootstrap).
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_is_odd`] fails.
    #[track_caller]
    pub fn is_odd(&self) -> FheBool {
        expect_op(self.try_is_odd(), "is_odd")
    }
}
