//! The operators, conversions, bytes, formatting and serialization of
//! [`StaticUnsignedBigInt<N>`].

use super::StaticUnsignedBigInt;
use serde::de::{Error as _, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Div, DivAssign,
    Mul, MulAssign, Not, Rem, RemAssign, Shl, ShlAssign, Shr, ShrAssign, Sub, SubAssign,
};

impl<const N: usize> StaticUnsignedBigInt<N> {
    /// The quotient by a 64-bit divisor and the remainder (short division, word by
    /// word). `None` for a zero divisor.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let x = (U256::ONE << 200u32) + U256::from(5u8);
    /// let (q, r) = x.checked_div_rem_u64(1 << 20).unwrap();
    /// assert_eq!((q, r), (U256::ONE << 180u32, 5));
    /// assert_eq!(x.checked_div_rem_u64(0), None);
    /// ```
    pub const fn checked_div_rem_u64(self, divisor: u64) -> Option<(Self, u64)> {
        if divisor == 0 {
            return None;
        }
        let mut out = [0u64; N];
        let mut rest = 0u128;
        let mut i = N;
        while i > 0 {
            i -= 1;
            let current = (rest << 64) | self.0[i] as u128;
            out[i] = (current / divisor as u128) as u64;
            rest = current % divisor as u128;
        }
        Some((Self(out), rest as u64))
    }

    /// Replaces the value by `bytes` read as a little-endian number (TFHE-rs's
    /// method of the same name).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U512;
    /// let mut bytes = [0u8; 64];
    /// bytes[0] = 1;
    /// bytes[63] = 0x80;
    /// let mut x = U512::ZERO;
    /// x.copy_from_le_byte_slice(&bytes);
    /// assert_eq!(x, U512::ONE | (U512::ONE << 511u32));
    /// ```
    ///
    /// # Panics
    ///
    /// If `bytes` is not `8 N` bytes long (as `<[u8]>::copy_from_slice`); see
    /// [`Self::try_from_le_bytes`] for a `Result`.
    pub fn copy_from_le_byte_slice(&mut self, bytes: &[u8]) {
        assert_eq!(
            bytes.len(),
            8 * N,
            "a big integer is read from 8 bytes per word"
        );
        *self = Self::try_from_le_bytes(bytes).unwrap_or_default();
    }

    /// Replaces the value by `bytes` read as a big-endian number.
    ///
    /// # Panics
    ///
    /// If `bytes` is not `8 N` bytes long.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let mut x = U256::ZERO;
    /// let mut bytes = [0u8; 32];
    /// bytes[31] = 7;
    /// x.copy_from_be_byte_slice(&bytes);
    /// assert_eq!(x, U256::from(7u8));
    /// ```
    pub fn copy_from_be_byte_slice(&mut self, bytes: &[u8]) {
        assert_eq!(
            bytes.len(),
            8 * N,
            "a big integer is read from 8 bytes per word"
        );
        let mut reversed = bytes.to_vec();
        reversed.reverse();
        self.copy_from_le_byte_slice(&reversed);
    }

    /// Writes the value into `bytes`, little-endian.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U512;
    /// let mut bytes = [0u8; 64];
    /// U512::from(0x0102u16).copy_to_le_byte_slice(&mut bytes);
    /// assert_eq!(bytes[..3], [2, 1, 0]);
    /// U512::from(0x0102u16).copy_to_be_byte_slice(&mut bytes);
    /// assert_eq!(bytes[61..], [0, 1, 2]);
    /// ```
    ///
    /// # Panics
    ///
    /// If `bytes` is not `8 N` bytes long.
    pub fn copy_to_le_byte_slice(&self, bytes: &mut [u8]) {
        bytes.copy_from_slice(&self.to_le_bytes());
    }

    /// Writes the value into `bytes`, big-endian.
    ///
    /// # Panics
    ///
    /// If `bytes` is not `8 N` bytes long.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let mut bytes = [0u8; 32];
    /// U256::from(0x0102u16).copy_to_be_byte_slice(&mut bytes);
    /// assert_eq!(bytes[30..], [1, 2]);
    /// ```
    pub fn copy_to_be_byte_slice(&self, bytes: &mut [u8]) {
        let mut le = self.to_le_bytes();
        le.reverse();
        bytes.copy_from_slice(&le);
    }

    /// The `8 N` little-endian bytes of the value.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let bytes = U256::from(0x0102u16).to_le_bytes();
    /// assert_eq!((bytes.len(), bytes[0], bytes[1]), (32, 2, 1));
    /// ```
    pub fn to_le_bytes(self) -> Vec<u8> {
        self.0.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The value of `bytes` read as a little-endian number: at most `8 N` bytes
    /// (fewer are zero-extended); `None` if there are more.
    ///
    /// ```
    /// use gpufhe::integer::U256;
    /// assert_eq!(U256::try_from_le_bytes(&[1, 2]), Some(U256::from(0x0201u16)));
    /// assert_eq!(U256::try_from_le_bytes(&[0; 33]), None);
    /// ```
    pub fn try_from_le_bytes(bytes: &[u8]) -> Option<Self> {
        if bytes.len() > 8 * N {
            return None;
        }
        let mut out = [0u64; N];
        for (i, chunk) in bytes.chunks(8).enumerate() {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            out[i] = u64::from_le_bytes(word);
        }
        Some(Self(out))
    }
}

/// `N` 64-bit limbs, least significant first.
impl<const N: usize> From<[u64; N]> for StaticUnsignedBigInt<N> {
    fn from(words: [u64; N]) -> Self {
        Self(words)
    }
}

/// Four 64-bit limbs, least significant first (the rest zero; truncated below 4
/// words), as TFHE-rs has it.
impl<const N: usize> From<(u64, u64, u64, u64)> for StaticUnsignedBigInt<N> {
    fn from((l0, l1, l2, l3): (u64, u64, u64, u64)) -> Self {
        let mut out = [0u64; N];
        for (word, limb) in out.iter_mut().zip([l0, l1, l2, l3]) {
            *word = limb;
        }
        Self(out)
    }
}

macro_rules! from_primitive {
    ($($t:ty),*) => {$(
        impl<const N: usize> From<$t> for StaticUnsignedBigInt<N> {
            fn from(value: $t) -> Self {
                Self::from_u128(value as u128)
            }
        }

        /// `Err` if the value does not fit.
        impl<const N: usize> TryFrom<StaticUnsignedBigInt<N>> for $t {
            type Error = std::num::TryFromIntError;

            fn try_from(value: StaticUnsignedBigInt<N>) -> Result<Self, Self::Error> {
                // u8::try_from(256u16) is the one way to make a TryFromIntError.
                match value.fits_in(<$t>::BITS) {
                    true => Ok(value.low_u128() as $t),
                    false => Err(u8::try_from(256u16).unwrap_err()),
                }
            }
        }
    )*};
}
from_primitive!(u8, u16, u32, u64, u128);

impl<const N: usize> From<bool> for StaticUnsignedBigInt<N> {
    fn from(value: bool) -> Self {
        Self::from_u128(value as u128)
    }
}

/// Compares with a `u128` (so that `assert_eq!(value, 10)` reads as it does on the
/// primitive types).
impl<const N: usize> PartialEq<u128> for StaticUnsignedBigInt<N> {
    fn eq(&self, other: &u128) -> bool {
        self.fits_in(128) && self.low_u128() == *other
    }
}

impl<const N: usize> fmt::Debug for StaticUnsignedBigInt<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<const N: usize> fmt::Display for StaticUnsignedBigInt<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.fits_in(128) {
            return fmt::Display::fmt(&self.low_u128(), f);
        }
        // Base 10^19 digits: each fits in a u64.
        const BASE: u64 = 10_000_000_000_000_000_000;
        let mut parts = Vec::new();
        let mut rest = *self;
        while let (false, Some((q, r))) = (rest.is_zero(), rest.checked_div_rem_u64(BASE)) {
            parts.push(r);
            rest = q;
        }
        let mut s = parts.pop().unwrap_or(0).to_string();
        for part in parts.iter().rev() {
            s.push_str(&format!("{part:019}"));
        }
        f.pad_integral(true, "", &s)
    }
}

/// The digits of the value in base `2^bits_per_digit` (1, 3 or 4 bits), the most
/// significant first, without leading zeros ("0" for zero).
fn power_of_two_digits<const N: usize>(
    value: StaticUnsignedBigInt<N>,
    bits_per_digit: u32,
    upper: bool,
) -> String {
    let used = StaticUnsignedBigInt::<N>::BITS - value.leading_zeros();
    let count = used.div_ceil(bits_per_digit).max(1);
    let digits = if upper {
        "0123456789ABCDEF"
    } else {
        "0123456789abcdef"
    };
    (0..count)
        .rev()
        .map(|i| {
            let digit = value.wrapping_shr(i * bits_per_digit).low_u128() as usize
                & ((1 << bits_per_digit) - 1);
            digits.as_bytes()[digit] as char
        })
        .collect()
}

impl<const N: usize> fmt::LowerHex for StaticUnsignedBigInt<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "0x", &power_of_two_digits(*self, 4, false))
    }
}

impl<const N: usize> fmt::UpperHex for StaticUnsignedBigInt<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "0x", &power_of_two_digits(*self, 4, true))
    }
}

impl<const N: usize> fmt::Binary for StaticUnsignedBigInt<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "0b", &power_of_two_digits(*self, 1, false))
    }
}

macro_rules! binary_operator {
    ($($Op:ident $op:ident $OpAssign:ident $op_assign:ident $f:expr;)*) => {$(
        impl<const N: usize> $Op for StaticUnsignedBigInt<N> {
            type Output = Self;
            fn $op(self, rhs: Self) -> Self {
                $f(self, rhs)
            }
        }

        impl<const N: usize> $OpAssign for StaticUnsignedBigInt<N> {
            fn $op_assign(&mut self, rhs: Self) {
                *self = $f(*self, rhs);
            }
        }
    )*};
}
binary_operator! {
    Add add AddAssign add_assign StaticUnsignedBigInt::wrapping_add;
    Sub sub SubAssign sub_assign StaticUnsignedBigInt::wrapping_sub;
    Mul mul MulAssign mul_assign StaticUnsignedBigInt::wrapping_mul;
    Div div DivAssign div_assign |a: StaticUnsignedBigInt<N>, b| a.div_rem(b).0;
    Rem rem RemAssign rem_assign |a: StaticUnsignedBigInt<N>, b| a.div_rem(b).1;
    BitAnd bitand BitAndAssign bitand_assign StaticUnsignedBigInt::bit_and;
    BitOr bitor BitOrAssign bitor_assign StaticUnsignedBigInt::bit_or;
    BitXor bitxor BitXorAssign bitxor_assign StaticUnsignedBigInt::bit_xor;
}

impl<const N: usize> Not for StaticUnsignedBigInt<N> {
    type Output = Self;
    fn not(self) -> Self {
        self.bit_not()
    }
}

/// A shift amount modulo the width (`BITS` is a power of two times 64, so the low
/// bits of a wide amount give its remainder).
pub(super) fn shift_amount<const N: usize>(amount: u64) -> u32 {
    (amount % u64::from(StaticUnsignedBigInt::<N>::BITS.max(1))) as u32
}

macro_rules! shift_operators {
    ($($t:ty),*) => {$(
        /// The amount is taken modulo the width.
        impl<const N: usize> Shl<$t> for StaticUnsignedBigInt<N> {
            type Output = Self;
            fn shl(self, amount: $t) -> Self {
                self.wrapping_shl(shift_amount::<N>(amount as u64))
            }
        }

        /// The amount is taken modulo the width.
        impl<const N: usize> Shr<$t> for StaticUnsignedBigInt<N> {
            type Output = Self;
            fn shr(self, amount: $t) -> Self {
                self.wrapping_shr(shift_amount::<N>(amount as u64))
            }
        }

        impl<const N: usize> ShlAssign<$t> for StaticUnsignedBigInt<N> {
            fn shl_assign(&mut self, amount: $t) {
                *self = *self << amount;
            }
        }

        impl<const N: usize> ShrAssign<$t> for StaticUnsignedBigInt<N> {
            fn shr_assign(&mut self, amount: $t) {
                *self = *self >> amount;
            }
        }
    )*};
}
shift_operators!(u32, u64, usize);

impl<const N: usize> std::iter::Sum for StaticUnsignedBigInt<N> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ZERO, Add::add)
    }
}

/// Written as `N` words, the least significant first (with bincode: the `8 N`
/// little-endian bytes of the value, as the 256-bit type always was).
impl<const N: usize> Serialize for StaticUnsignedBigInt<N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut tuple = s.serialize_tuple(N)?;
        for word in &self.0 {
            tuple.serialize_element(word)?;
        }
        tuple.end()
    }
}

impl<'de, const N: usize> Deserialize<'de> for StaticUnsignedBigInt<N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Words<const N: usize>;
        impl<'de, const N: usize> Visitor<'de> for Words<N> {
            type Value = StaticUnsignedBigInt<N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{N} 64-bit words")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = [0u64; N];
                for (i, word) in out.iter_mut().enumerate() {
                    *word = seq
                        .next_element()?
                        .ok_or_else(|| A::Error::invalid_length(i, &self))?;
                }
                Ok(StaticUnsignedBigInt(out))
            }
        }
        d.deserialize_tuple(N, Words::<N>)
    }
}
