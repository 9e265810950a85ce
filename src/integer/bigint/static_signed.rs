//! [`StaticSignedBigInt<N>`]: a signed integer of `N` 64-bit words in two's
//! complement, the clear type of the wide encrypted signed integers
//! ([`I256`](super::I256) ... [`I2048`](super::I2048)).

use super::conversions::shift_amount;
use super::StaticUnsignedBigInt;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;
use std::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Div, DivAssign,
    Mul, MulAssign, Neg, Not, Rem, RemAssign, Shl, ShlAssign, Shr, ShrAssign, Sub, SubAssign,
};

/// A signed integer of `64 N` bits in two's complement (`N` little-endian 64-bit
/// words), as TFHE-rs's type of the same name. The operators wrap around like
/// `wrapping_*` on the primitive types (`MIN / -1` is `MIN`); `/` and `%` truncate
/// toward zero and panic on a zero divisor; `>>` is arithmetic (the sign fills), and
/// shifts take the amount modulo the width.
///
/// ```
/// use gpufhe::integer::bigint::{I512, I1024};
/// let x = I512::from(-5i64) << 300u32;
/// assert!(x < I512::ZERO);
/// assert_eq!(x >> 300u32, I512::from(-5i64));
/// assert_eq!(I512::MIN.wrapping_neg(), I512::MIN);
/// assert_eq!((I512::from(-7i8) / I512::from(2i8)), I512::from(-3i8));
/// let wide: I1024 = x.resize(); // sign extension
/// assert_eq!(wide >> 300u32, I1024::from(-5i64));
/// assert_eq!(I512::from(-42i32).to_string(), "-42");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct StaticSignedBigInt<const N: usize>(pub(crate) [u64; N]);

impl<const N: usize> Default for StaticSignedBigInt<N> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<const N: usize> StaticSignedBigInt<N> {
    /// The width in bits.
    pub const BITS: u32 = u64::BITS * N as u32;
    /// 0.
    pub const ZERO: Self = Self([0; N]);
    /// 1.
    pub const ONE: Self = Self(StaticUnsignedBigInt::<N>::ONE.0);
    /// 2.
    pub const TWO: Self = Self(StaticUnsignedBigInt::<N>::TWO.0);
    /// `-2^(64 N - 1)`.
    pub const MIN: Self = Self(
        StaticUnsignedBigInt::<N>::ONE
            .wrapping_shl(Self::BITS - 1)
            .0,
    );
    /// `2^(64 N - 1) - 1`.
    pub const MAX: Self = Self(Self::MIN.0).wrapping_sub(Self::ONE);

    /// The value whose two's complement words are these, the least significant
    /// first.
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from_words([u64::MAX; 4]), I256::from(-1i8));
    /// ```
    pub const fn from_words(words: [u64; N]) -> Self {
        Self(words)
    }

    /// The two's complement words, the least significant first (TFHE-rs's `data`).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(-2i8).data(), &[u64::MAX - 1, u64::MAX, u64::MAX, u64::MAX]);
    /// ```
    pub const fn data(&self) -> &[u64; N] {
        &self.0
    }

    /// The two's complement bits as an unsigned value (like an `as` cast).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(-1i8).as_unsigned(), U256::MAX);
    /// ```
    pub const fn as_unsigned(self) -> StaticUnsignedBigInt<N> {
        StaticUnsignedBigInt(self.0)
    }

    /// The value whose two's complement bits are `bits` (like an `as` cast).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from_unsigned(U256::MAX), I256::from(-1i8));
    /// ```
    pub const fn from_unsigned(bits: StaticUnsignedBigInt<N>) -> Self {
        Self(bits.0)
    }

    /// Whether it is below 0.
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert!(I256::from(-5i8).is_negative() && !I256::from(0i8).is_negative());
    /// ```
    pub const fn is_negative(self) -> bool {
        N > 0 && self.0[N - 1] >> 63 == 1
    }

    /// `self + rhs`, wrapping.
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::MAX.wrapping_add(I256::from(1i8)), I256::MIN);
    /// ```
    pub const fn wrapping_add(self, rhs: Self) -> Self {
        Self(self.as_unsigned().wrapping_add(rhs.as_unsigned()).0)
    }

    /// `self - rhs`, wrapping.
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(3i8).wrapping_sub(I256::from(5i8)), I256::from(-2i8));
    /// ```
    pub const fn wrapping_sub(self, rhs: Self) -> Self {
        Self(self.as_unsigned().wrapping_sub(rhs.as_unsigned()).0)
    }

    /// `self * rhs`, wrapping (the low bits are those of the unsigned product).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(-4i8).wrapping_mul(I256::from(6i8)), I256::from(-24i8));
    /// ```
    pub const fn wrapping_mul(self, rhs: Self) -> Self {
        Self(self.as_unsigned().wrapping_mul(rhs.as_unsigned()).0)
    }

    /// `-self`, wrapping (`-MIN` is `MIN`).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(7i8).wrapping_neg(), I256::from(-7i8));
    /// assert_eq!(I256::MIN.wrapping_neg(), I256::MIN);
    /// ```
    pub const fn wrapping_neg(self) -> Self {
        Self(self.as_unsigned().wrapping_neg().0)
    }

    /// `|self|`, wrapping (`abs(MIN)` is `MIN`).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(-9i8).wrapping_abs(), I256::from(9i8));
    /// assert_eq!(I256::MIN.wrapping_abs(), I256::MIN);
    /// ```
    pub const fn wrapping_abs(self) -> Self {
        if self.is_negative() {
            self.wrapping_neg()
        } else {
            self
        }
    }

    /// `|self|` as an unsigned value (exact, also for `MIN`).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::MIN.unsigned_abs(), U256::ONE << 255u32);
    /// ```
    pub const fn unsigned_abs(self) -> StaticUnsignedBigInt<N> {
        self.wrapping_abs().as_unsigned()
    }

    /// `self + rhs`, wrapping, and whether it overflowed the signed range.
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::MAX.overflowing_add(I256::from(1i8)), (I256::MIN, true));
    /// assert_eq!(I256::from(-1i8).overflowing_add(I256::from(1i8)), (I256::from(0i8), false));
    /// ```
    pub const fn overflowing_add(self, rhs: Self) -> (Self, bool) {
        let sum = self.wrapping_add(rhs);
        let overflow =
            self.is_negative() == rhs.is_negative() && sum.is_negative() != self.is_negative();
        (sum, overflow)
    }

    /// `self - rhs`, wrapping, and whether it overflowed the signed range.
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::MIN.overflowing_sub(I256::from(1i8)), (I256::MAX, true));
    /// ```
    pub const fn overflowing_sub(self, rhs: Self) -> (Self, bool) {
        let diff = self.wrapping_sub(rhs);
        let overflow =
            self.is_negative() != rhs.is_negative() && diff.is_negative() != self.is_negative();
        (diff, overflow)
    }

    /// `self << amount` (the amount modulo the width).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(-1i8).wrapping_shl(3), I256::from(-8i8));
    /// ```
    pub const fn wrapping_shl(self, amount: u32) -> Self {
        Self(self.as_unsigned().wrapping_shl(amount).0)
    }

    /// `self >> amount`, arithmetic (the sign fills; the amount modulo the width).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(-16i8).wrapping_shr(2), I256::from(-4i8));
    /// ```
    pub const fn wrapping_shr(self, amount: u32) -> Self {
        if N == 0 {
            return self;
        }
        let amount = amount % Self::BITS;
        let shifted = self.as_unsigned().wrapping_shr(amount);
        if self.is_negative() && amount > 0 {
            let fill = StaticUnsignedBigInt::<N>::MAX.wrapping_shl(Self::BITS - amount);
            Self(shifted.bit_or(fill).0)
        } else {
            Self(shifted.0)
        }
    }

    /// The number of leading zero bits of the two's complement bits.
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(1i8).leading_zeros(), 255);
    /// assert_eq!(I256::from(-1i8).leading_zeros(), 0);
    /// ```
    pub const fn leading_zeros(self) -> u32 {
        self.as_unsigned().leading_zeros()
    }

    /// Whether it is `2^k` for some `k` (never for a value `<= 0`).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert!(I256::from(64i8).is_power_of_two() && !I256::from(-64i8).is_power_of_two());
    /// ```
    pub const fn is_power_of_two(self) -> bool {
        !self.is_negative() && self.as_unsigned().is_power_of_two()
    }

    /// The base-2 logarithm rounded down.
    ///
    /// # Panics
    ///
    /// If `self <= 0`.
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(100i8).ilog2(), 6);
    /// ```
    pub const fn ilog2(self) -> u32 {
        if self.is_negative() {
            panic!("argument of integer logarithm must be positive");
        }
        self.as_unsigned().ilog2()
    }

    /// The base-2 logarithm rounded up.
    ///
    /// # Panics
    ///
    /// If `self <= 0`.
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(100i8).ceil_ilog2(), 7);
    /// ```
    pub const fn ceil_ilog2(self) -> u32 {
        self.ilog2() + !self.is_power_of_two() as u32
    }

    /// The value of another width: sign-extended, or truncated to its low `64 M`
    /// bits (like an `as` cast between the primitive types).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// use gpufhe::integer::bigint::I512;
    /// let wide: I512 = I256::from(-3i8).resize();
    /// assert_eq!(wide, I512::from(-3i8));
    /// ```
    pub const fn resize<const M: usize>(self) -> StaticSignedBigInt<M> {
        let fill = if self.is_negative() { u64::MAX } else { 0 };
        let mut out = [fill; M];
        let mut i = 0;
        while i < M && i < N {
            out[i] = self.0[i];
            i += 1;
        }
        StaticSignedBigInt(out)
    }

    /// The quotient (truncated toward zero) and the remainder (of the dividend's
    /// sign) of `self / rhs`, wrapping for `MIN / -1`; `None` if `rhs` is 0.
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// let (q, r) = I256::from(-7i8).checked_div_rem(I256::from(2i8)).unwrap();
    /// assert_eq!((q, r), (I256::from(-3i8), I256::from(-1i8)));
    /// assert_eq!(I256::from(1i8).checked_div_rem(I256::from(0i8)), None);
    /// ```
    pub fn checked_div_rem(self, rhs: Self) -> Option<(Self, Self)> {
        let (q, r) = self.unsigned_abs().checked_div_rem(rhs.unsigned_abs())?;
        let (q, r) = (Self::from_unsigned(q), Self::from_unsigned(r));
        let q = if self.is_negative() != rhs.is_negative() {
            q.wrapping_neg()
        } else {
            q
        };
        let r = if self.is_negative() {
            r.wrapping_neg()
        } else {
            r
        };
        Some((q, r))
    }

    /// The quotient and the remainder of `self / rhs` (see
    /// [`Self::checked_div_rem`]).
    ///
    /// # Panics
    ///
    /// If `rhs` is 0.
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from(7i8).div_rem(I256::from(-2i8)), (I256::from(-3i8), I256::from(1i8)));
    /// ```
    pub fn div_rem(self, rhs: Self) -> (Self, Self) {
        self.checked_div_rem(rhs)
            .expect("attempt to divide by zero")
    }

    /// The two's complement value of `value` (its low `64 N` bits).
    ///
    /// ```
    /// use gpufhe::integer::bigint::{I256, U256};
    /// assert_eq!(I256::from_i128(i128::MIN).resize::<2>(), gpufhe::integer::bigint::StaticSignedBigInt::<2>::from(i128::MIN));
    /// ```
    pub const fn from_i128(value: i128) -> Self {
        let fill = if value < 0 { u64::MAX } else { 0 };
        let mut out = [fill; N];
        if N > 0 {
            out[0] = value as u64;
        }
        if N > 1 {
            out[1] = (value >> 64) as u64;
        }
        Self(out)
    }
}

impl<const N: usize> PartialOrd for StaticSignedBigInt<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Ord for StaticSignedBigInt<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => self.as_unsigned().cmp(&other.as_unsigned()),
        }
    }
}

macro_rules! from_signed_primitive {
    ($($t:ty),*) => {$(
        impl<const N: usize> From<$t> for StaticSignedBigInt<N> {
            fn from(value: $t) -> Self {
                Self::from_i128(value as i128)
            }
        }

        /// `Err` if the value does not fit.
        impl<const N: usize> TryFrom<StaticSignedBigInt<N>> for $t {
            type Error = std::num::TryFromIntError;

            fn try_from(value: StaticSignedBigInt<N>) -> Result<Self, Self::Error> {
                let low = value.as_unsigned().low_u128() as i128;
                let fits = StaticSignedBigInt::<N>::from_i128(low as $t as i128) == value;
                // u8::try_from(256u16) is the one way to make a TryFromIntError.
                match fits {
                    true => Ok(low as $t),
                    false => Err(u8::try_from(256u16).unwrap_err()),
                }
            }
        }
    )*};
}
from_signed_primitive!(i8, i16, i32, i64, i128);

macro_rules! from_unsigned_primitive {
    ($($t:ty),*) => {$(
        impl<const N: usize> From<$t> for StaticSignedBigInt<N> {
            fn from(value: $t) -> Self {
                Self::from_unsigned(StaticUnsignedBigInt::from(value))
            }
        }
    )*};
}
from_unsigned_primitive!(u8, u16, u32, u64, u128, bool);

/// `N` 64-bit two's complement limbs, least significant first.
impl<const N: usize> From<[u64; N]> for StaticSignedBigInt<N> {
    fn from(words: [u64; N]) -> Self {
        Self(words)
    }
}

/// Four 64-bit limbs, least significant first (the rest zero), as TFHE-rs has it.
impl<const N: usize> From<(u64, u64, u64, u64)> for StaticSignedBigInt<N> {
    fn from(limbs: (u64, u64, u64, u64)) -> Self {
        Self::from_unsigned(StaticUnsignedBigInt::from(limbs))
    }
}

impl<const N: usize> fmt::Debug for StaticSignedBigInt<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<const N: usize> fmt::Display for StaticSignedBigInt<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let magnitude = self.unsigned_abs().to_string();
        f.pad_integral(!self.is_negative(), "", &magnitude)
    }
}

/// The two's complement bits, as the primitive types print them.
impl<const N: usize> fmt::LowerHex for StaticSignedBigInt<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerHex::fmt(&self.as_unsigned(), f)
    }
}

macro_rules! binary_operator {
    ($($Op:ident $op:ident $OpAssign:ident $op_assign:ident $f:expr;)*) => {$(
        impl<const N: usize> $Op for StaticSignedBigInt<N> {
            type Output = Self;
            fn $op(self, rhs: Self) -> Self {
                $f(self, rhs)
            }
        }

        impl<const N: usize> $OpAssign for StaticSignedBigInt<N> {
            fn $op_assign(&mut self, rhs: Self) {
                *self = $f(*self, rhs);
            }
        }
    )*};
}
binary_operator! {
    Add add AddAssign add_assign StaticSignedBigInt::wrapping_add;
    Sub sub SubAssign sub_assign StaticSignedBigInt::wrapping_sub;
    Mul mul MulAssign mul_assign StaticSignedBigInt::wrapping_mul;
    Div div DivAssign div_assign |a: StaticSignedBigInt<N>, b| a.div_rem(b).0;
    Rem rem RemAssign rem_assign |a: StaticSignedBigInt<N>, b| a.div_rem(b).1;
    BitAnd bitand BitAndAssign bitand_assign
        |a: StaticSignedBigInt<N>, b: StaticSignedBigInt<N>| StaticSignedBigInt(a.as_unsigned().bit_and(b.as_unsigned()).0);
    BitOr bitor BitOrAssign bitor_assign
        |a: StaticSignedBigInt<N>, b: StaticSignedBigInt<N>| StaticSignedBigInt(a.as_unsigned().bit_or(b.as_unsigned()).0);
    BitXor bitxor BitXorAssign bitxor_assign
        |a: StaticSignedBigInt<N>, b: StaticSignedBigInt<N>| StaticSignedBigInt(a.as_unsigned().bit_xor(b.as_unsigned()).0);
}

impl<const N: usize> Neg for StaticSignedBigInt<N> {
    type Output = Self;
    fn neg(self) -> Self {
        self.wrapping_neg()
    }
}

impl<const N: usize> Not for StaticSignedBigInt<N> {
    type Output = Self;
    fn not(self) -> Self {
        Self(self.as_unsigned().bit_not().0)
    }
}

macro_rules! shift_operators {
    ($($t:ty),*) => {$(
        /// The amount is taken modulo the width.
        impl<const N: usize> Shl<$t> for StaticSignedBigInt<N> {
            type Output = Self;
            fn shl(self, amount: $t) -> Self {
                Self::from_unsigned(self.as_unsigned() << amount)
            }
        }

        /// Arithmetic; the amount is taken modulo the width.
        impl<const N: usize> Shr<$t> for StaticSignedBigInt<N> {
            type Output = Self;
            fn shr(self, amount: $t) -> Self {
                self.wrapping_shr(shift_amount::<N>(amount as u64))
            }
        }

        impl<const N: usize> ShlAssign<$t> for StaticSignedBigInt<N> {
            fn shl_assign(&mut self, amount: $t) {
                *self = *self << amount;
            }
        }

        impl<const N: usize> ShrAssign<$t> for StaticSignedBigInt<N> {
            fn shr_assign(&mut self, amount: $t) {
                *self = *self >> amount;
            }
        }
    )*};
}
shift_operators!(u32, u64, usize);

/// Written as the two's complement words, as [`StaticUnsignedBigInt`] writes them.
impl<const N: usize> Serialize for StaticSignedBigInt<N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_unsigned().serialize(s)
    }
}

impl<'de, const N: usize> Deserialize<'de> for StaticSignedBigInt<N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        StaticUnsignedBigInt::deserialize(d).map(Self::from_unsigned)
    }
}
