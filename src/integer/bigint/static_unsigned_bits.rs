//! The bit-level methods of [`StaticUnsignedBigInt<N>`]: `const` forms of the bit
//! operators, bit counts, logarithms and single bits.

use super::StaticUnsignedBigInt;

impl<const N: usize> StaticUnsignedBigInt<N> {
    /// `self | rhs` (a `const` form of the operator).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ONE.bit_or(U256::TWO), U256::from(3u8));
    /// ```
    pub const fn bit_or(self, rhs: Self) -> Self {
        let mut out = self.0;
        let mut i = 0;
        while i < N {
            out[i] |= rhs.0[i];
            i += 1;
        }
        Self(out)
    }

    /// `self & rhs` (a `const` form of the operator).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::from(6u8).bit_and(U256::from(3u8)), U256::TWO);
    /// ```
    pub const fn bit_and(self, rhs: Self) -> Self {
        let mut out = self.0;
        let mut i = 0;
        while i < N {
            out[i] &= rhs.0[i];
            i += 1;
        }
        Self(out)
    }

    /// `self ^ rhs` (a `const` form of the operator).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::from(6u8).bit_xor(U256::from(3u8)), U256::from(5u8));
    /// ```
    pub const fn bit_xor(self, rhs: Self) -> Self {
        let mut out = self.0;
        let mut i = 0;
        while i < N {
            out[i] ^= rhs.0[i];
            i += 1;
        }
        Self(out)
    }

    /// `!self` (a `const` form of the operator).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ZERO.bit_not(), U256::MAX);
    /// ```
    pub const fn bit_not(self) -> Self {
        let mut out = self.0;
        let mut i = 0;
        while i < N {
            out[i] = !out[i];
            i += 1;
        }
        Self(out)
    }

    /// The number of leading zero bits (the width for 0).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ONE.leading_zeros(), 255);
    /// assert_eq!(U256::ZERO.leading_zeros(), 256);
    /// ```
    pub const fn leading_zeros(self) -> u32 {
        let mut i = N;
        while i > 0 {
            i -= 1;
            if self.0[i] != 0 {
                return (N - 1 - i) as u32 * 64 + self.0[i].leading_zeros();
            }
        }
        Self::BITS
    }

    /// The number of trailing zero bits (the width for 0).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!((U256::ONE << 130u32).trailing_zeros(), 130);
    /// assert_eq!(U256::ZERO.trailing_zeros(), 256);
    /// ```
    pub const fn trailing_zeros(self) -> u32 {
        let mut i = 0;
        while i < N {
            if self.0[i] != 0 {
                return i as u32 * 64 + self.0[i].trailing_zeros();
            }
            i += 1;
        }
        Self::BITS
    }

    /// The number of leading one bits.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!((U256::MAX << 10u32).leading_ones(), 246);
    /// ```
    pub const fn leading_ones(self) -> u32 {
        self.bit_not().leading_zeros()
    }

    /// The number of trailing one bits.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!((U256::MAX >> 56u32).trailing_ones(), 200);
    /// ```
    pub const fn trailing_ones(self) -> u32 {
        self.bit_not().trailing_zeros()
    }

    /// The number of one bits.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::MAX.count_ones(), 256);
    /// assert_eq!(U256::from(0b1011u8).count_ones(), 3);
    /// ```
    pub const fn count_ones(self) -> u32 {
        let (mut count, mut i) = (0, 0);
        while i < N {
            count += self.0[i].count_ones();
            i += 1;
        }
        count
    }

    /// The number of zero bits.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ONE.count_zeros(), 255);
    /// ```
    pub const fn count_zeros(self) -> u32 {
        Self::BITS - self.count_ones()
    }

    /// Whether it is `2^k` for some `k`.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert!((U256::ONE << 200u32).is_power_of_two());
    /// assert!(!U256::from(3u8).is_power_of_two() && !U256::ZERO.is_power_of_two());
    /// ```
    pub const fn is_power_of_two(self) -> bool {
        self.count_ones() == 1
    }

    /// The bits in reverse order.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ONE.reverse_bits(), U256::ONE << 255u32);
    /// ```
    pub const fn reverse_bits(self) -> Self {
        let mut out = [0u64; N];
        let mut i = 0;
        while i < N {
            out[N - 1 - i] = self.0[i].reverse_bits();
            i += 1;
        }
        Self(out)
    }

    /// The base-2 logarithm rounded down, `None` for 0.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ZERO.checked_ilog2(), None);
    /// assert_eq!((U256::ONE << 129u32).checked_ilog2(), Some(129));
    /// ```
    pub const fn checked_ilog2(self) -> Option<u32> {
        match self.is_zero() {
            true => None,
            false => Some(Self::BITS - 1 - self.leading_zeros()),
        }
    }

    /// The base-2 logarithm rounded down.
    ///
    /// # Panics
    ///
    /// If `self` is 0.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(((U256::ONE << 200u32) + U256::ONE).ilog2(), 200);
    /// ```
    pub const fn ilog2(self) -> u32 {
        match self.checked_ilog2() {
            Some(log) => log,
            None => panic!("argument of integer logarithm must be positive"),
        }
    }

    /// The base-2 logarithm rounded up: the bits needed to count up to the value.
    ///
    /// # Panics
    ///
    /// If `self` is 0 (as [`Self::ilog2`]).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(((U256::ONE << 200u32) + U256::ONE).ceil_ilog2(), 201);
    /// assert_eq!((U256::ONE << 200u32).ceil_ilog2(), 200);
    /// ```
    pub const fn ceil_ilog2(self) -> u32 {
        self.ilog2() + !self.is_power_of_two() as u32
    }

    /// Bit `i` (0 for `i` at or past the width).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let x = U256::ONE << 77u32;
    /// assert!(x.bit(77) && !x.bit(76) && !x.bit(1000));
    /// ```
    pub const fn bit(self, i: u32) -> bool {
        i < Self::BITS && (self.0[(i / 64) as usize] >> (i % 64)) & 1 == 1
    }

    /// The value with bit `i` set (unchanged for `i` at or past the width).
    pub(crate) const fn with_bit(mut self, i: u32) -> Self {
        if i < Self::BITS {
            self.0[(i / 64) as usize] |= 1 << (i % 64);
        }
        self
    }

    /// The value reduced to its `bits` low bits (`self` for the width or more).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::MAX.low_bits(3), U256::from(7u8));
    /// assert_eq!(U256::MAX.low_bits(300), U256::MAX);
    /// ```
    pub const fn low_bits(self, bits: u32) -> Self {
        let mut out = self.0;
        let mut i = 0;
        while i < N {
            let start = i as u32 * 64;
            if bits <= start {
                out[i] = 0;
            } else if bits < start + 64 {
                out[i] &= (1u64 << (bits - start)) - 1;
            }
            i += 1;
        }
        Self(out)
    }

    /// `2^bits - 1`, all ones from the width up.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::mask(4), U256::from(15u8));
    /// assert_eq!(U256::mask(256), U256::MAX);
    /// ```
    pub const fn mask(bits: u32) -> Self {
        Self::MAX.low_bits(bits)
    }

    /// Whether it is below `2^bits` (always true from the width up).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert!(U256::from(255u8).fits_in(8) && !U256::from(256u16).fits_in(8));
    /// ```
    pub const fn fits_in(self, bits: u32) -> bool {
        bits >= Self::BITS || self.wrapping_shr(bits).is_zero()
    }
}
