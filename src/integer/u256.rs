//! [`U256`], the 256-bit unsigned clear type of [`crate::FheUint256`] and the clear
//! value of every integer circuit.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;
use std::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Div, DivAssign,
    Mul, MulAssign, Not, Rem, RemAssign, Shl, ShlAssign, Shr, ShrAssign, Sub, SubAssign,
};

/// A 256-bit unsigned integer: the clear type of [`crate::FheUint256`]. The
/// operators wrap around modulo `2^256` like `wrapping_*` on the primitive types,
/// except `/` and `%`, which panic on a zero divisor, and shifts, which take the
/// amount modulo 256.
///
/// ```
/// use gpufhe::integer::U256;
/// let big = U256::from((0u128, 1u128)); // (low, high): 2^128
/// assert_eq!(big, U256::ONE << 128u32);
/// assert_eq!((big - U256::ONE).to_low_high_u128(), (u128::MAX, 0));
/// assert_eq!(big * U256::from(3u8) / U256::from(3u8), big);
/// assert_eq!(U256::MAX + U256::ONE, U256::ZERO);
/// assert!(u128::try_from(big).is_err());
/// assert_eq!(format!("{:x}", big), format!("1{}", "0".repeat(32)));
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct U256 {
    low: u128,
    high: u128,
}

impl U256 {
    /// 0.
    pub const ZERO: Self = Self::from_low_high(0, 0);
    /// 1.
    pub const ONE: Self = Self::from_low_high(1, 0);
    /// `2^256 - 1`.
    pub const MAX: Self = Self::from_low_high(u128::MAX, u128::MAX);
    /// The width in bits.
    pub const BITS: u32 = 256;

    /// `low + high * 2^128`.
    pub const fn from_low_high(low: u128, high: u128) -> Self {
        Self { low, high }
    }

    /// The low and the high 128 bits: `(low, high)`.
    pub const fn to_low_high_u128(self) -> (u128, u128) {
        (self.low, self.high)
    }

    /// The low 128 bits (like an `as u128` cast).
    pub const fn low_u128(self) -> u128 {
        self.low
    }

    /// Whether it is 0.
    pub const fn is_zero(self) -> bool {
        self.low == 0 && self.high == 0
    }

    /// `self + rhs` modulo `2^256`, and whether it wrapped.
    pub const fn overflowing_add(self, rhs: Self) -> (Self, bool) {
        let (low, carry) = self.low.overflowing_add(rhs.low);
        let (high, o1) = self.high.overflowing_add(rhs.high);
        let (high, o2) = high.overflowing_add(carry as u128);
        (Self::from_low_high(low, high), o1 || o2)
    }

    /// `self - rhs` modulo `2^256`, and whether it wrapped (`rhs > self`).
    pub const fn overflowing_sub(self, rhs: Self) -> (Self, bool) {
        let (low, borrow) = self.low.overflowing_sub(rhs.low);
        let (high, o1) = self.high.overflowing_sub(rhs.high);
        let (high, o2) = high.overflowing_sub(borrow as u128);
        (Self::from_low_high(low, high), o1 || o2)
    }

    /// `self + rhs` modulo `2^256`.
    pub const fn wrapping_add(self, rhs: Self) -> Self {
        self.overflowing_add(rhs).0
    }

    /// `self - rhs` modulo `2^256`.
    pub const fn wrapping_sub(self, rhs: Self) -> Self {
        self.overflowing_sub(rhs).0
    }

    /// `-self` modulo `2^256`.
    pub const fn wrapping_neg(self) -> Self {
        Self::ZERO.wrapping_sub(self)
    }

    /// `self + rhs`, `None` if it overflows.
    pub const fn checked_add(self, rhs: Self) -> Option<Self> {
        match self.overflowing_add(rhs) {
            (v, false) => Some(v),
            _ => None,
        }
    }

    /// `self - rhs`, `None` if it underflows.
    pub const fn checked_sub(self, rhs: Self) -> Option<Self> {
        match self.overflowing_sub(rhs) {
            (v, false) => Some(v),
            _ => None,
        }
    }

    /// `self - rhs`, or 0 if it underflows.
    pub const fn saturating_sub(self, rhs: Self) -> Self {
        match self.overflowing_sub(rhs) {
            (v, false) => v,
            _ => Self::ZERO,
        }
    }

    /// The full 256-bit product of two 128-bit values: `(low, high)`.
    const fn widening_mul_u128(a: u128, b: u128) -> (u128, u128) {
        const MASK: u128 = u64::MAX as u128;
        let (a0, a1) = (a & MASK, a >> 64);
        let (b0, b1) = (b & MASK, b >> 64);
        let p00 = a0 * b0;
        let p01 = a0 * b1;
        let p10 = a1 * b0;
        let p11 = a1 * b1;
        // The middle column: at most 3 * (2^64 - 1), fits.
        let middle = (p00 >> 64) + (p01 & MASK) + (p10 & MASK);
        let low = (p00 & MASK) | (middle << 64);
        let high = p11 + (p01 >> 64) + (p10 >> 64) + (middle >> 64);
        (low, high)
    }

    /// `self * rhs` modulo `2^256`, and whether it wrapped.
    pub const fn overflowing_mul(self, rhs: Self) -> (Self, bool) {
        let (low, carry) = Self::widening_mul_u128(self.low, rhs.low);
        let (cross1, o1) = self.low.overflowing_mul(rhs.high);
        let (cross2, o2) = self.high.overflowing_mul(rhs.low);
        let (high, o3) = carry.overflowing_add(cross1);
        let (high, o4) = high.overflowing_add(cross2);
        let both_high = self.high != 0 && rhs.high != 0;
        (
            Self::from_low_high(low, high),
            o1 || o2 || o3 || o4 || both_high,
        )
    }

    /// `self * rhs` modulo `2^256`.
    pub const fn wrapping_mul(self, rhs: Self) -> Self {
        self.overflowing_mul(rhs).0
    }

    /// `self * rhs`, `None` if it overflows.
    pub const fn checked_mul(self, rhs: Self) -> Option<Self> {
        match self.overflowing_mul(rhs) {
            (v, false) => Some(v),
            _ => None,
        }
    }

    /// `self << amount`, the amount taken modulo 256.
    pub const fn wrapping_shl(self, amount: u32) -> Self {
        let amount = amount % 256;
        if amount == 0 {
            self
        } else if amount >= 128 {
            Self::from_low_high(0, self.low << (amount - 128))
        } else {
            Self::from_low_high(
                self.low << amount,
                (self.high << amount) | (self.low >> (128 - amount)),
            )
        }
    }

    /// `self >> amount` (logical), the amount taken modulo 256.
    pub const fn wrapping_shr(self, amount: u32) -> Self {
        let amount = amount % 256;
        if amount == 0 {
            self
        } else if amount >= 128 {
            Self::from_low_high(self.high >> (amount - 128), 0)
        } else {
            Self::from_low_high(
                (self.low >> amount) | (self.high << (128 - amount)),
                self.high >> amount,
            )
        }
    }

    /// `self << amount`, `None` if `amount >= 256`.
    pub const fn checked_shl(self, amount: u32) -> Option<Self> {
        if amount < 256 {
            Some(self.wrapping_shl(amount))
        } else {
            None
        }
    }

    /// `self >> amount`, `None` if `amount >= 256`.
    pub const fn checked_shr(self, amount: u32) -> Option<Self> {
        if amount < 256 {
            Some(self.wrapping_shr(amount))
        } else {
            None
        }
    }

    /// The bits rotated left by `amount` (modulo 256).
    pub const fn rotate_left(self, amount: u32) -> Self {
        let amount = amount % 256;
        if amount == 0 {
            self
        } else {
            let (l, r) = (self.wrapping_shl(amount), self.wrapping_shr(256 - amount));
            Self::from_low_high(l.low | r.low, l.high | r.high)
        }
    }

    /// The bits rotated right by `amount` (modulo 256).
    pub const fn rotate_right(self, amount: u32) -> Self {
        self.rotate_left(256 - amount % 256)
    }

    /// The number of leading zero bits (256 for 0).
    pub const fn leading_zeros(self) -> u32 {
        if self.high == 0 {
            128 + self.low.leading_zeros()
        } else {
            self.high.leading_zeros()
        }
    }

    /// The number of trailing zero bits (256 for 0).
    pub const fn trailing_zeros(self) -> u32 {
        if self.low == 0 {
            128 + self.high.trailing_zeros()
        } else {
            self.low.trailing_zeros()
        }
    }

    /// The number of leading one bits.
    pub const fn leading_ones(self) -> u32 {
        Self::from_low_high(!self.low, !self.high).leading_zeros()
    }

    /// The number of trailing one bits.
    pub const fn trailing_ones(self) -> u32 {
        Self::from_low_high(!self.low, !self.high).trailing_zeros()
    }

    /// The number of one bits.
    pub const fn count_ones(self) -> u32 {
        self.low.count_ones() + self.high.count_ones()
    }

    /// The number of zero bits.
    pub const fn count_zeros(self) -> u32 {
        256 - self.count_ones()
    }

    /// Whether it is `2^k` for some `k`.
    pub const fn is_power_of_two(self) -> bool {
        self.count_ones() == 1
    }

    /// The bits in reverse order.
    pub const fn reverse_bits(self) -> Self {
        Self::from_low_high(self.high.reverse_bits(), self.low.reverse_bits())
    }

    /// The base-2 logarithm rounded down, `None` for 0.
    pub const fn checked_ilog2(self) -> Option<u32> {
        match self.is_zero() {
            true => None,
            false => Some(255 - self.leading_zeros()),
        }
    }

    /// The base-2 logarithm rounded down.
    ///
    /// # Panics
    ///
    /// If `self` is 0.
    pub const fn ilog2(self) -> u32 {
        match self.checked_ilog2() {
            Some(log) => log,
            None => panic!("argument of integer logarithm must be positive"),
        }
    }

    /// Bit `i` (0 for `i >= 256`).
    pub const fn bit(self, i: u32) -> bool {
        match i {
            0..=127 => self.low >> i & 1 == 1,
            128..=255 => self.high >> (i - 128) & 1 == 1,
            _ => false,
        }
    }

    /// The value reduced to its `bits` low bits (`self` for 256 bits or more).
    pub const fn low_bits(self, bits: u32) -> Self {
        match bits {
            0 => Self::ZERO,
            1..=127 => Self::from_low_high(self.low & (u128::MAX >> (128 - bits)), 0),
            128 => Self::from_low_high(self.low, 0),
            129..=255 => Self::from_low_high(self.low, self.high & (u128::MAX >> (256 - bits))),
            _ => self,
        }
    }

    /// `2^bits - 1`, all ones from 256 bits.
    pub const fn mask(bits: u32) -> Self {
        Self::MAX.low_bits(bits)
    }

    /// Whether it is below `2^bits` (always true from 256 bits).
    pub const fn fits_in(self, bits: u32) -> bool {
        bits >= 256 || self.wrapping_shr(bits).is_zero()
    }

    /// The quotient and the remainder of `self / rhs`, `None` if `rhs` is 0.
    pub fn checked_div_rem(self, rhs: Self) -> Option<(Self, Self)> {
        if rhs.is_zero() {
            return None;
        }
        if self.high == 0 && rhs.high == 0 {
            return Some((
                Self::from(self.low / rhs.low),
                Self::from(self.low % rhs.low),
            ));
        }
        if self < rhs {
            return Some((Self::ZERO, self));
        }
        // Restoring binary long division from the highest bit the quotient can have.
        let shift = rhs.leading_zeros() - self.leading_zeros();
        let mut divisor = rhs << shift;
        let mut rest = self;
        let mut quotient = Self::ZERO;
        for i in (0..=shift).rev() {
            if rest >= divisor {
                rest = rest.wrapping_sub(divisor);
                quotient.set_bit(i);
            }
            divisor >>= 1u32;
        }
        Some((quotient, rest))
    }

    /// The quotient and the remainder of `self / rhs`.
    ///
    /// # Panics
    ///
    /// If `rhs` is 0.
    pub fn div_rem(self, rhs: Self) -> (Self, Self) {
        self.checked_div_rem(rhs)
            .expect("attempt to divide by zero")
    }

    /// `self / rhs`, `None` if `rhs` is 0.
    pub fn checked_div(self, rhs: Self) -> Option<Self> {
        self.checked_div_rem(rhs).map(|(q, _)| q)
    }

    /// `self % rhs`, `None` if `rhs` is 0.
    pub fn checked_rem(self, rhs: Self) -> Option<Self> {
        self.checked_div_rem(rhs).map(|(_, r)| r)
    }

    /// `self / rhs` rounded up.
    ///
    /// # Panics
    ///
    /// If `rhs` is 0.
    pub fn div_ceil(self, rhs: Self) -> Self {
        let (q, r) = self.div_rem(rhs);
        if r.is_zero() {
            q
        } else {
            q + Self::ONE
        }
    }

    fn set_bit(&mut self, i: u32) {
        match i {
            0..=127 => self.low |= 1 << i,
            _ => self.high |= 1 << (i - 128),
        }
    }
}

impl PartialOrd for U256 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for U256 {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.high, self.low).cmp(&(other.high, other.low))
    }
}

/// Compares with a `u128` (so that `assert_eq!(value, 10)` reads as it does on the
/// primitive types).
impl PartialEq<u128> for U256 {
    fn eq(&self, other: &u128) -> bool {
        self.high == 0 && self.low == *other
    }
}

macro_rules! from_primitive {
    ($($t:ty),*) => {$(
        impl From<$t> for U256 {
            fn from(value: $t) -> Self {
                Self::from_low_high(value as u128, 0)
            }
        }
    )*};
}
from_primitive!(bool, u8, u16, u32, u64, u128);

/// `(low, high)`: `low + high * 2^128`.
impl From<(u128, u128)> for U256 {
    fn from((low, high): (u128, u128)) -> Self {
        Self::from_low_high(low, high)
    }
}

/// `Err` if the value has more than 128 bits.
impl TryFrom<U256> for u128 {
    type Error = std::num::TryFromIntError;

    fn try_from(value: U256) -> Result<Self, Self::Error> {
        // u8::try_from(256u16) is the one way to make a TryFromIntError.
        match value.high {
            0 => Ok(value.low),
            _ => Err(u8::try_from(256u16).unwrap_err()),
        }
    }
}

impl fmt::Debug for U256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for U256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.high == 0 {
            return fmt::Display::fmt(&self.low, f);
        }
        // Base 10^38 digits: each fits in a u128.
        let base = Self::from(10u128.pow(38));
        let mut parts = Vec::new();
        let mut rest = *self;
        while !rest.is_zero() {
            let (q, r) = rest.div_rem(base);
            parts.push(r.low);
            rest = q;
        }
        let mut s = parts.pop().unwrap_or(0).to_string();
        for part in parts.iter().rev() {
            s.push_str(&format!("{part:038}"));
        }
        f.pad_integral(true, "", &s)
    }
}

impl fmt::LowerHex for U256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.high {
            0 => format!("{:x}", self.low),
            high => format!("{high:x}{:032x}", self.low),
        };
        f.pad_integral(true, "0x", &s)
    }
}

impl fmt::UpperHex for U256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.high {
            0 => format!("{:X}", self.low),
            high => format!("{high:X}{:032X}", self.low),
        };
        f.pad_integral(true, "0x", &s)
    }
}

impl fmt::Binary for U256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.high {
            0 => format!("{:b}", self.low),
            high => format!("{high:b}{:0128b}", self.low),
        };
        f.pad_integral(true, "0b", &s)
    }
}

macro_rules! binary_operator {
    ($($Op:ident $op:ident $OpAssign:ident $op_assign:ident $f:expr;)*) => {$(
        impl $Op for U256 {
            type Output = Self;
            fn $op(self, rhs: Self) -> Self {
                $f(self, rhs)
            }
        }

        impl $OpAssign for U256 {
            fn $op_assign(&mut self, rhs: Self) {
                *self = $f(*self, rhs);
            }
        }
    )*};
}
binary_operator! {
    Add add AddAssign add_assign U256::wrapping_add;
    Sub sub SubAssign sub_assign U256::wrapping_sub;
    Mul mul MulAssign mul_assign U256::wrapping_mul;
    Div div DivAssign div_assign |a: U256, b| a.div_rem(b).0;
    Rem rem RemAssign rem_assign |a: U256, b| a.div_rem(b).1;
    BitAnd bitand BitAndAssign bitand_assign
        |a: U256, b: U256| U256::from_low_high(a.low & b.low, a.high & b.high);
    BitOr bitor BitOrAssign bitor_assign
        |a: U256, b: U256| U256::from_low_high(a.low | b.low, a.high | b.high);
    BitXor bitxor BitXorAssign bitxor_assign
        |a: U256, b: U256| U256::from_low_high(a.low ^ b.low, a.high ^ b.high);
}

impl Not for U256 {
    type Output = Self;
    fn not(self) -> Self {
        Self::from_low_high(!self.low, !self.high)
    }
}

/// A shift amount modulo 256.
fn shift_amount(amount: u64) -> u32 {
    (amount % 256) as u32
}

macro_rules! shift_operators {
    ($($t:ty),*) => {$(
        /// The amount is taken modulo 256.
        impl Shl<$t> for U256 {
            type Output = Self;
            fn shl(self, amount: $t) -> Self {
                self.wrapping_shl(shift_amount(amount as u64))
            }
        }

        /// The amount is taken modulo 256.
        impl Shr<$t> for U256 {
            type Output = Self;
            fn shr(self, amount: $t) -> Self {
                self.wrapping_shr(shift_amount(amount as u64))
            }
        }

        impl ShlAssign<$t> for U256 {
            fn shl_assign(&mut self, amount: $t) {
                *self = *self << amount;
            }
        }

        impl ShrAssign<$t> for U256 {
            fn shr_assign(&mut self, amount: $t) {
                *self = *self >> amount;
            }
        }
    )*};
}
shift_operators!(u32, u64, usize);

impl std::iter::Sum for U256 {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ZERO, Add::add)
    }
}

mod bytes;
#[cfg(test)]
mod tests;
