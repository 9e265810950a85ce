//! Bit counts, `ilog2`, bit reversal, parity and checked arithmetic on [`FheUint`]
//! and [`FheInt`], with the names and result types of Rust's integer methods and
//! TFHE-rs: counts and logarithms are [`FheUint32`], flags [`FheBool`]. Each is one
//! circuit (see [`crate::integer::count_bits`] for the costs).
//!
//! Counts, parity, reversal and the logarithm read a signed value's two's complement
//! bits, as TFHE-rs does (so the `ilog2` of a negative value is `bits - 1`); the flag
//! of `checked_ilog2` and the checked arithmetic follow the type's range
//! ([`crate::integer::signed_ilog2`], [`crate::integer::signed_overflowing`]). The
//! methods are written once, for both types, by `bit_methods!`.

use super::config::block_count;
use super::fhe_bool::FheBool;
use super::fhe_int::{FheInt, FheIntId, SignedOperand};
use super::fhe_uint::{FheUint, FheUint32, FheUint32Id, FheUintId, Operand, UnsignedView};
use super::operations::{run, single, BinaryOp};
use super::traits::expect_op;
use crate::error::{check_eq, Result};
use crate::integer::{self, Circuit, CountOp, Radix, Wire};

/// Which flag a checked operation reports.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flag {
    /// `true` when the result wrapped around (`overflowing_*`).
    Overflow,
    /// `true` when the result is exact (`checked_*`, like `Option::is_some`).
    Valid,
}

/// The builder of a logarithm and its flag ([`integer::ilog2`] or
/// [`integer::signed_ilog2`]).
type Ilog2 = fn(&mut Circuit, &[Wire], usize) -> Result<(Radix, Wire)>;

impl<Id: FheUintId> FheUint<Id> {
    /// The count `op` as one circuit.
    fn count(&self, op: CountOp) -> Result<FheUint32> {
        let out = run(&[self.input()], |c, w| {
            let blocks = block_count(c.parameters(), FheUint32Id::BITS);
            Ok(vec![integer::count_bits(c, op, &w[0], blocks)?])
        })?;
        Ok(FheUint32::from_storage(single(out)?))
    }

    /// The logarithm and flag `build` gives, as one circuit.
    fn logarithm(&self, build: Ilog2) -> Result<(FheUint32, FheBool)> {
        let mut out = run(&[self.input()], |c, w| {
            let blocks = block_count(c.parameters(), FheUint32Id::BITS);
            let (log, valid) = build(c, &w[0], blocks)?;
            Ok(vec![log, vec![valid]])
        })?;
        check_eq("number of outputs of the circuit", 2, out.len())?;
        let valid = FheBool::from_storage(out.remove(1));
        Ok((FheUint32::from_storage(out.remove(0)), valid))
    }

    /// The bits in reverse order, as one circuit.
    fn reversed(&self) -> Result<Self> {
        let out = run(&[self.input()], |c, w| {
            Ok(vec![integer::reverse_bits(c, &w[0])?])
        })?;
        Ok(Self::from_storage(single(out)?))
    }

    /// Whether the lowest bit is `odd`, as one table on the lowest block.
    fn parity(&self, odd: bool) -> Result<FheBool> {
        let out = run(&[self.input()], |c, w| {
            let flag = c.table(w[0][0], move |v| u64::from((v & 1 == 1) == odd))?;
            Ok(vec![vec![flag]])
        })?;
        Ok(FheBool::from_storage(single(out)?))
    }
}

/// The bit methods of `$T` (on its [`UnsignedView`]) and its checked arithmetic
/// (through its `overflowing`), right operands `$Operand`, the logarithm's flag by
/// `$ilog2`; the doc examples of each group come with the invocation.
macro_rules! bit_methods {
    (
        $T:ident<$IdT:ident>, $Operand:ty, $ilog2:path,
        counts: [$(#[$counts:meta])*],
        ilog2: [$(#[$log:meta])*],
        parity: [$(#[$parity:meta])*],
        checked: [$(#[$checked:meta])*] $(,)?
    ) => {
        impl<Id: $IdT> $T<Id> {
            bit_methods!(@count $T, [$(#[$counts])*] count_ones, try_count_ones, Ones,
                "bits set");
            bit_methods!(@count $T, [] count_zeros, try_count_zeros, Zeros, "bits clear");
            bit_methods!(@count $T, [] leading_zeros, try_leading_zeros, LeadingZeros,
                "clear bits above the highest set bit (the width for 0)");
            bit_methods!(@count $T, [] trailing_zeros, try_trailing_zeros, TrailingZeros,
                "clear bits below the lowest set bit (the width for 0)");
            bit_methods!(@count $T, [] leading_ones, try_leading_ones, LeadingOnes,
                "set bits above the highest clear bit");
            bit_methods!(@count $T, [] trailing_ones, try_trailing_ones, TrailingOnes,
                "set bits below the lowest clear bit");

            #[doc = concat!("`floor(log2(self))` as an [`FheUint32`]; meaningless unless `self > 0`")]
            #[doc = concat!("(see [`", stringify!($T), "::try_checked_ilog2`]). `Err` on failure.")]
            pub fn try_ilog2(&self) -> Result<FheUint32> {
                Ok(self.try_checked_ilog2()?.0)
            }

            /// `floor(log2(self))`; meaningless unless `self > 0`.
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`", stringify!($T), "::try_ilog2`] fails.")]
            #[track_caller]
            pub fn ilog2(&self) -> FheUint32 {
                expect_op(self.try_ilog2(), "ilog2")
            }

            /// `floor(log2(self))` and whether it is meaningful (`self > 0`), as TFHE-rs
            /// returns it; `Err` on failure.
            pub fn try_checked_ilog2(&self) -> Result<(FheUint32, FheBool)> {
                self.unsigned_view().logarithm($ilog2)
            }

            /// `floor(log2(self))` and whether it is meaningful (`self > 0`).
            ///
            $(#[$log])*
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`", stringify!($T), "::try_checked_ilog2`] fails.")]
            #[track_caller]
            pub fn checked_ilog2(&self) -> (FheUint32, FheBool) {
                expect_op(self.try_checked_ilog2(), "checked_ilog2")
            }

            /// The bits in reverse order (one bootstrap per block); `Err` on failure.
            pub fn try_reverse_bits(&self) -> Result<Self> {
                self.unsigned_view().reversed().map(Self::from_unsigned_view)
            }

            /// The bits in reverse order.
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`", stringify!($T), "::try_reverse_bits`] fails.")]
            #[track_caller]
            pub fn reverse_bits(&self) -> Self {
                expect_op(self.try_reverse_bits(), "reverse_bits")
            }

            /// Whether the value is even (one bootstrap); `Err` if there is no server
            /// key on this thread or the value belongs to another key.
            pub fn try_is_even(&self) -> Result<FheBool> {
                self.unsigned_view().parity(false)
            }

            #[doc = concat!("Whether the value is odd (one bootstrap); `Err` as [`", stringify!($T), "::try_is_even`].")]
            pub fn try_is_odd(&self) -> Result<FheBool> {
                self.unsigned_view().parity(true)
            }

            /// Whether the value is even (one bootstrap), as TFHE-rs's `is_even`.
            ///
            $(#[$parity])*
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`", stringify!($T), "::try_is_even`] fails.")]
            #[track_caller]
            pub fn is_even(&self) -> FheBool {
                expect_op(self.try_is_even(), "is_even")
            }

            /// Whether the value is odd (one bootstrap).
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`", stringify!($T), "::try_is_odd`] fails.")]
            #[track_caller]
            pub fn is_odd(&self) -> FheBool {
                expect_op(self.try_is_odd(), "is_odd")
            }

            bit_methods!(@checked $T, $Operand, [$(#[$checked])*] checked_add, try_checked_add,
                Add, "`self + rhs` (wrapping) and whether it is exact, that is did **not** \
                overflow the range of the type (the flag of Rust's `checked_add(..).is_some()`, \
                and of TFHE-rs's `checked_ilog2`; see [`crate::prelude::OverflowingAdd`] for \
                the overflow flag)");
            bit_methods!(@checked $T, $Operand, [] checked_sub, try_checked_sub, Sub,
                "`self - rhs` (wrapping) and whether it did not overflow the range of the type");
            bit_methods!(@checked $T, $Operand, [] checked_mul, try_checked_mul, Mul,
                "`self * rhs` (wrapping) and whether it did not overflow the range of the \
                type (about twice a multiplication)");
        }
    };
    (@count $T:ident, [$(#[$doc:meta])*] $name:ident, $try:ident, $op:ident, $what:literal) => {
        #[doc = concat!("The number of ", $what, ", as an [`FheUint32`]; `Err` if there")]
        /// is no server key on this thread or the value belongs to another key.
        pub fn $try(&self) -> Result<FheUint32> {
            self.unsigned_view().count(CountOp::$op)
        }

        #[doc = concat!("The number of ", $what, ", as an [`FheUint32`].")]
        ///
        $(#[$doc])*
        ///
        /// # Panics
        ///
        #[doc = concat!("If [`", stringify!($T), "::", stringify!($try), "`] fails.")]
        #[track_caller]
        pub fn $name(&self) -> FheUint32 {
            expect_op(self.$try(), stringify!($name))
        }
    };
    (@checked $T:ident, $Operand:ty, [$(#[$doc:meta])*] $name:ident, $try:ident, $op:ident,
        $what:literal) => {
        #[doc = concat!($what, "; `Err` on failure.")]
        pub fn $try<'r>(&self, rhs: impl Into<$Operand>) -> Result<(Self, FheBool)> {
            self.overflowing(BinaryOp::$op, rhs.into().0, Flag::Valid)
        }

        #[doc = concat!($what, ".")]
        ///
        $(#[$doc])*
        ///
        /// # Panics
        ///
        #[doc = concat!("If [`", stringify!($T), "::", stringify!($try), "`] fails.")]
        #[track_caller]
        pub fn $name<'r>(&self, rhs: impl Into<$Operand>) -> (Self, FheBool) {
            expect_op(self.$try(rhs), stringify!($name))
        }
    };
}

bit_methods! {
    FheUint<FheUintId>, Operand<'r, Id>, integer::ilog2,
    counts: [
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
    ],
    ilog2: [
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
    ],
    parity: [
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint16};
        /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
        /// set_server_key(server_key);
        /// let x = FheUint16::encrypt(1235u16, &client_key);
        /// assert!(!x.is_even().decrypt(&client_key));
        /// assert!(x.is_odd().decrypt(&client_key));
        /// ```
    ],
    checked: [
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
    ],
}

bit_methods! {
    FheInt<FheIntId>, SignedOperand<'r, Id>, integer::signed_ilog2,
    counts: [
        /// On the two's complement bits, as TFHE-rs counts them:
        ///
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8};
        /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
        /// set_server_key(server_key);
        /// let x = FheInt8::encrypt(-20i8, &client_key); // 0b1110_1100
        /// let ones: u32 = x.count_ones().decrypt(&client_key);
        /// let zeros: u32 = x.count_zeros().decrypt(&client_key);
        /// let leading: u32 = x.leading_ones().decrypt(&client_key);
        /// let trailing: u32 = x.trailing_zeros().decrypt(&client_key);
        /// let reversed: i8 = x.reverse_bits().decrypt(&client_key);
        /// assert_eq!((ones, zeros, leading, trailing), (5, 3, 3, 2));
        /// assert_eq!(reversed, (-20i8).reverse_bits());
        /// let y = FheInt8::encrypt(11i8, &client_key);
        /// let (lead, trail): (u32, u32) =
        ///     (y.leading_zeros().decrypt(&client_key), y.trailing_ones().decrypt(&client_key));
        /// assert_eq!((lead, trail), (4, 2));
        /// ```
    ],
    ilog2: [
        /// The logarithm of a negative value is that of its bits (`bits - 1`), invalid:
        ///
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt16};
        /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
        /// set_server_key(server_key);
        /// let (log, valid) = FheInt16::encrypt(1000i16, &client_key).checked_ilog2();
        /// assert_eq!(FheDecrypt::<u32>::decrypt(&log, &client_key), 9);
        /// assert!(valid.decrypt(&client_key));
        /// let x = FheInt16::encrypt(-1i16, &client_key);
        /// let (log, valid) = x.checked_ilog2();
        /// assert_eq!(FheDecrypt::<u32>::decrypt(&log, &client_key), 15);
        /// assert_eq!(FheDecrypt::<u32>::decrypt(&x.ilog2(), &client_key), 15);
        /// assert!(!valid.decrypt(&client_key));
        /// let (_, valid) = FheInt16::encrypt(0i16, &client_key).checked_ilog2();
        /// assert!(!valid.decrypt(&client_key));
        /// ```
    ],
    parity: [
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt16};
        /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
        /// set_server_key(server_key);
        /// let x = FheInt16::encrypt(-1235i16, &client_key);
        /// assert!(!x.is_even().decrypt(&client_key));
        /// assert!(x.is_odd().decrypt(&client_key));
        /// ```
    ],
    checked: [
        /// The flags of Rust's `i8::checked_add` etc.:
        ///
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8};
        /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
        /// set_server_key(server_key);
        /// let a = FheInt8::encrypt(-100i8, &client_key);
        /// let (sum, ok) = a.checked_add(-100i8);
        /// assert_eq!(FheDecrypt::<i8>::decrypt(&sum, &client_key), 56);
        /// assert!(!ok.decrypt(&client_key));
        /// let (difference, ok) = a.checked_sub(&FheInt8::encrypt(-28i8, &client_key));
        /// assert_eq!(FheDecrypt::<i8>::decrypt(&difference, &client_key), -72);
        /// assert!(ok.decrypt(&client_key));
        /// let (product, ok) = a.checked_mul(-2i8);
        /// assert_eq!(FheDecrypt::<i8>::decrypt(&product, &client_key), -56);
        /// assert!(!ok.decrypt(&client_key));
        /// ```
    ],
}
