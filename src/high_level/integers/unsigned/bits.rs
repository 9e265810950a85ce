//! Bit counts, `ilog2`, bit reversal, parity and bit slices on [`FheUint`]
//! and [`FheInt`], with the names and result types of Rust's integer methods and
//! TFHE-rs: counts and logarithms are [`FheUint32`], flags [`FheBool`]. Each is one
//! circuit (see [`crate::integer::count_bits`] for the costs).
//!
//! Counts, parity, reversal and the logarithm read a signed value's two's complement
//! bits, as TFHE-rs does (so the `ilog2` of a negative value is `bits - 1`); the flag
//! of `checked_ilog2` and the checked arithmetic follow the type's range
//! ([`crate::integer::signed_ilog2`], [`crate::integer::signed_overflowing`]). The
//! methods are written once, for both types, by `bit_methods!`.

use super::base::{FheUint, FheUintId, UnsignedView};
use super::static_::{FheUint32, FheUint32Id};
use crate::error::{check_eq, InvalidRangeError, Result};
use crate::high_level::booleans::base::FheBool;
use crate::high_level::config::block_count;
use crate::high_level::integers::operands::{OperandKind, ShiftAmount};
use crate::high_level::internals::circuit::{run, single};
use crate::high_level::internals::expect_op;
use crate::high_level::traits::{BitSlice, CastInto, FheTrivialEncrypt};
use crate::integer::{self, Circuit, CountOp, Radix, Wire, U2048};
use std::ops::{Bound, RangeBounds};

/// The builder of a logarithm and its flag ([`integer::ilog2`] or
/// [`integer::signed_ilog2`]).
pub(crate) type Ilog2 = fn(&mut Circuit, &[Wire], usize) -> Result<(Radix, Wire)>;

impl<Id: FheUintId> FheUint<Id> {
    /// The count `op` as one circuit.
    pub(crate) fn count(&self, op: CountOp) -> Result<FheUint32> {
        let out = run(&[self.input()], |c, w| {
            let blocks = block_count(c.parameters(), FheUint32Id::BITS);
            Ok(vec![integer::count_bits(c, op, &w[0], blocks)?])
        })?;
        Ok(FheUint32::from_storage(single(out)?))
    }

    /// The logarithm and flag `build` gives, as one circuit.
    pub(crate) fn logarithm(&self, build: Ilog2) -> Result<(FheUint32, FheBool)> {
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
    pub(crate) fn reversed(&self) -> Result<Self> {
        let out = run(&[self.input()], |c, w| {
            Ok(vec![integer::reverse_bits(c, &w[0])?])
        })?;
        Ok(Self::from_storage(single(out)?))
    }

    /// Whether the lowest bit is `odd`, as one table on the lowest block.
    pub(crate) fn parity(&self, odd: bool) -> Result<FheBool> {
        let out = run(&[self.input()], |c, w| {
            let flag = c.table(w[0][0], move |v| u64::from((v & 1 == 1) == odd))?;
            Ok(vec![vec![flag]])
        })?;
        Ok(FheBool::from_storage(single(out)?))
    }
}

/// The bit methods of `$T` (on its [`UnsignedView`]), the logarithm's flag by
/// `$ilog2`; the doc examples of each group come with the invocation.
macro_rules! bit_methods {
    (
        $T:ident<$IdT:ident>, $ilog2:path,
        counts: [$(#[$counts:meta])*],
        ilog2: [$(#[$log:meta])*],
        parity: [$(#[$parity:meta])*] $(,)?
    ) => {
        impl<Id: $IdT> $T<Id> {
            $crate::high_level::integers::unsigned::bits::bit_methods!(@count $T, [$(#[$counts])*] count_ones, try_count_ones, Ones,
                "bits set");
            $crate::high_level::integers::unsigned::bits::bit_methods!(@count $T, [] count_zeros, try_count_zeros, Zeros, "bits clear");
            $crate::high_level::integers::unsigned::bits::bit_methods!(@count $T, [] leading_zeros, try_leading_zeros, LeadingZeros,
                "clear bits above the highest set bit (the width for 0)");
            $crate::high_level::integers::unsigned::bits::bit_methods!(@count $T, [] trailing_zeros, try_trailing_zeros, TrailingZeros,
                "clear bits below the lowest set bit (the width for 0)");
            $crate::high_level::integers::unsigned::bits::bit_methods!(@count $T, [] leading_ones, try_leading_ones, LeadingOnes,
                "set bits above the highest clear bit");
            $crate::high_level::integers::unsigned::bits::bit_methods!(@count $T, [] trailing_ones, try_trailing_ones, TrailingOnes,
                "set bits below the lowest clear bit");

            #[doc = concat!("`floor(log2(self))` as an [`FheUint32`](crate::FheUint32); meaningless unless `self > 0`")]
            #[doc = concat!("(see [`", stringify!($T), "::try_checked_ilog2`]). `Err` on failure.")]
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::{FheInt16, FheUint16};
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// let x = FheUint16::encrypt(1000u16, &client_key);
            /// assert!(x.try_ilog2().is_err()); // no server key yet
            /// gpufhe::set_server_key(server_key);
            /// let log: u32 = x.try_ilog2().unwrap().decrypt(&client_key);
            /// let signed: u32 = FheInt16::encrypt(1000i16, &client_key).ilog2().decrypt(&client_key);
            /// assert_eq!((log, signed), (1000u16.ilog2(), 9));
            /// ```
            pub fn try_ilog2(&self) -> $crate::error::Result<$crate::high_level::integers::unsigned::static_::FheUint32> {
                Ok(self.try_checked_ilog2()?.0)
            }

            /// `floor(log2(self))`; meaningless unless `self > 0` (example at
            /// [`Self::try_ilog2`]).
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`", stringify!($T), "::try_ilog2`] fails.")]
            #[track_caller]
            pub fn ilog2(&self) -> $crate::high_level::integers::unsigned::static_::FheUint32 {
                $crate::high_level::internals::expect_op(self.try_ilog2(), "ilog2")
            }

            /// `floor(log2(self))` and whether it is meaningful (`self > 0`), as TFHE-rs
            /// returns it; `Err` on failure.
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::{FheInt16, FheUint16};
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// gpufhe::set_server_key(server_key);
            /// let (log, valid) = FheUint16::encrypt(1000u16, &client_key).try_checked_ilog2().unwrap();
            /// let (_, valid_zero) = FheInt16::encrypt(0i16, &client_key).checked_ilog2();
            /// assert_eq!(FheDecrypt::<u32>::decrypt(&log, &client_key), 9);
            /// assert_eq!((valid.decrypt(&client_key), valid_zero.decrypt(&client_key)), (true, false));
            /// ```
            pub fn try_checked_ilog2(&self) -> $crate::error::Result<($crate::high_level::integers::unsigned::static_::FheUint32, $crate::high_level::booleans::base::FheBool)> {
                self.unsigned_view().logarithm($ilog2)
            }

            /// `floor(log2(self))` and whether it is meaningful (`self > 0`); example
            /// at [`Self::try_checked_ilog2`], and for this type:
            ///
            $(#[$log])*
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`", stringify!($T), "::try_checked_ilog2`] fails.")]
            #[track_caller]
            pub fn checked_ilog2(&self) -> ($crate::high_level::integers::unsigned::static_::FheUint32, $crate::high_level::booleans::base::FheBool) {
                $crate::high_level::internals::expect_op(self.try_checked_ilog2(), "checked_ilog2")
            }

            /// The bits in reverse order (one bootstrap per block); `Err` on failure.
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::{FheInt16, FheUint16};
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// gpufhe::set_server_key(server_key);
            /// let x = FheUint16::encrypt(0b1011u16, &client_key);
            /// let reversed: u16 = x.try_reverse_bits().unwrap().decrypt(&client_key);
            /// let signed: i16 = FheInt16::encrypt(1i16, &client_key).reverse_bits().decrypt(&client_key);
            /// assert_eq!((reversed, signed), (0b1011u16.reverse_bits(), i16::MIN));
            /// ```
            pub fn try_reverse_bits(&self) -> $crate::error::Result<Self> {
                self.unsigned_view().reversed().map(Self::from_unsigned_view)
            }

            /// The bits in reverse order (example at [`Self::try_reverse_bits`]).
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`", stringify!($T), "::try_reverse_bits`] fails.")]
            #[track_caller]
            pub fn reverse_bits(&self) -> Self {
                $crate::high_level::internals::expect_op(self.try_reverse_bits(), "reverse_bits")
            }

            /// Whether the value is even (one bootstrap); `Err` if there is no server
            /// key on this thread or the value belongs to another key.
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::{FheInt16, FheUint16};
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// let x = FheUint16::encrypt(1234u16, &client_key);
            /// assert!(x.try_is_even().is_err()); // no server key yet
            /// gpufhe::set_server_key(server_key);
            /// let even = x.try_is_even().unwrap().decrypt(&client_key);
            /// let signed_even = FheInt16::encrypt(-7i16, &client_key).is_even().decrypt(&client_key);
            /// assert_eq!((even, signed_even), (true, false));
            /// ```
            pub fn try_is_even(&self) -> $crate::error::Result<$crate::high_level::booleans::base::FheBool> {
                self.unsigned_view().parity(false)
            }

            #[doc = concat!("Whether the value is odd (one bootstrap); `Err` as [`", stringify!($T), "::try_is_even`].")]
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::{FheInt16, FheUint16};
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let (client_key, server_key) = gpufhe::generate_keys(config);
            /// gpufhe::set_server_key(server_key);
            /// let odd = FheUint16::encrypt(1234u16, &client_key).try_is_odd().unwrap();
            /// let signed_odd = FheInt16::encrypt(-7i16, &client_key).is_odd();
            /// assert_eq!((odd.decrypt(&client_key), signed_odd.decrypt(&client_key)), (false, true));
            /// ```
            pub fn try_is_odd(&self) -> $crate::error::Result<$crate::high_level::booleans::base::FheBool> {
                self.unsigned_view().parity(true)
            }

            /// Whether the value is even (one bootstrap), as TFHE-rs's `is_even`; example
            /// at [`Self::try_is_even`], and for this type:
            ///
            $(#[$parity])*
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`", stringify!($T), "::try_is_even`] fails.")]
            #[track_caller]
            pub fn is_even(&self) -> $crate::high_level::booleans::base::FheBool {
                $crate::high_level::internals::expect_op(self.try_is_even(), "is_even")
            }

            /// Whether the value is odd (one bootstrap; example at [`Self::try_is_odd`]).
            ///
            /// # Panics
            ///
            #[doc = concat!("If [`", stringify!($T), "::try_is_odd`] fails.")]
            #[track_caller]
            pub fn is_odd(&self) -> $crate::high_level::booleans::base::FheBool {
                $crate::high_level::internals::expect_op(self.try_is_odd(), "is_odd")
            }

        }
    };
    (@count $T:ident, [$(#[$doc:meta])*] $name:ident, $try:ident, $op:ident, $what:literal) => {
        #[doc = concat!("The number of ", $what, ", as an [`FheUint32`](crate::FheUint32); `Err` if there")]
        /// is no server key on this thread or the value belongs to another key.
        pub fn $try(&self) -> $crate::error::Result<$crate::high_level::integers::unsigned::static_::FheUint32> {
            self.unsigned_view().count($crate::integer::CountOp::$op)
        }

        #[doc = concat!("The number of ", $what, ", as an [`FheUint32`](crate::FheUint32).")]
        ///
        $(#[$doc])*
        ///
        /// # Panics
        ///
        #[doc = concat!("If [`", stringify!($T), "::", stringify!($try), "`] fails.")]
        #[track_caller]
        pub fn $name(&self) -> $crate::high_level::integers::unsigned::static_::FheUint32 {
            $crate::high_level::internals::expect_op(self.$try(), stringify!($name))
        }
    };
}
pub(crate) use bit_methods;

bit_methods! {
    FheUint<FheUintId>, integer::ilog2,
    counts: [
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::FheUint8;
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = gpufhe::ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = gpufhe::generate_keys(config);
        /// gpufhe::set_server_key(server_key);
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
        /// use gpufhe::FheUint16;
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = gpufhe::ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = gpufhe::generate_keys(config);
        /// gpufhe::set_server_key(server_key);
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
        /// use gpufhe::FheUint16;
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = gpufhe::ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = gpufhe::generate_keys(config);
        /// gpufhe::set_server_key(server_key);
        /// let x = FheUint16::encrypt(1235u16, &client_key);
        /// assert!(!x.is_even().decrypt(&client_key));
        /// assert!(x.is_odd().decrypt(&client_key));
        /// ```
    ],
}

/// `[start, end)` of `range` within a width of `bits`.
fn bit_range<B, R>(range: &R, bits: u32) -> std::result::Result<(u32, u32), InvalidRangeError>
where
    B: CastInto<usize> + Copy,
    R: RangeBounds<B>,
{
    let at = |b: &B| -> usize { (*b).cast_into() };
    let start = match range.start_bound() {
        Bound::Included(s) => at(s),
        Bound::Excluded(s) => at(s).saturating_add(1),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(e) => at(e).saturating_add(1),
        Bound::Excluded(e) => at(e),
        Bound::Unbounded => bits as usize,
    };
    if end > bits as usize {
        Err(InvalidRangeError::SliceTooBig)
    } else if start > end {
        Err(InvalidRangeError::WrongOrder)
    } else {
        Ok((start as u32, end as u32))
    }
}

impl<Id: FheUintId, B: CastInto<usize> + Copy> BitSlice<B> for &FheUint<Id> {
    type Output = FheUint<Id>;

    #[track_caller]
    fn bitslice<R>(self, range: R) -> std::result::Result<FheUint<Id>, InvalidRangeError>
    where
        R: RangeBounds<B>,
    {
        let (start, end) = bit_range(&range, Id::BITS)?;
        let mask = FheUint::<Id>::encrypt_trivial(U2048::mask(end - start));
        let amount = U2048::from(start % Id::BITS);
        let slice = self
            .try_shr(ShiftAmount(OperandKind::Clear(amount)))
            .and_then(|shifted| shifted.try_bitand(&mask));
        Ok(expect_op(slice, "bitslice"))
    }
}
