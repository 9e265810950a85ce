//! [`StaticUnsignedBigInt<N>`]: an unsigned integer of `N` 64-bit words, the clear
//! type of the wide encrypted integers ([`U256`](super::U256) ... [`U2048`](super::U2048)).
//! Its arithmetic; the bit-level methods are in `static_unsigned_bits.rs`, conversions,
//! formatting and operators in `conversions.rs`.

/// An unsigned integer of `64 N` bits, stored as `N` little-endian 64-bit words (the
/// least significant first), as TFHE-rs's type of the same name. The operators wrap
/// around modulo `2^(64 N)` like `wrapping_*` on the primitive types, except `/` and
/// `%`, which panic on a zero divisor (the `checked_` forms return `None`), and
/// shifts, which take the amount modulo the width.
///
/// ```
/// use gpufhe::integer::bigint::{U1024, U512};
/// let x = U512::ONE << 300u32;
/// assert_eq!(x.trailing_zeros(), 300);
/// assert_eq!((x - U512::ONE).count_ones(), 300);
/// assert_eq!(U512::MAX.wrapping_add(U512::ONE), U512::ZERO);
/// let wide: U1024 = x.resize();
/// assert_eq!(wide * wide, U1024::ONE << 600u32);
/// assert_eq!(U512::from(1_000_000u32).to_string(), "1000000");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct StaticUnsignedBigInt<const N: usize>(pub(crate) [u64; N]);

impl<const N: usize> Default for StaticUnsignedBigInt<N> {
    fn default() -> Self {
        Self::ZERO
    }
}

/// `[w_0, ..., w_{N-1}]` with `w_0 = 1` and the rest 0.
const fn one_words<const N: usize>(value: u64) -> [u64; N] {
    let mut words = [0u64; N];
    if N > 0 {
        words[0] = value;
    }
    words
}

impl<const N: usize> StaticUnsignedBigInt<N> {
    /// The width in bits.
    pub const BITS: u32 = u64::BITS * N as u32;
    /// 0.
    pub const ZERO: Self = Self([0; N]);
    /// The smallest value, 0.
    pub const MIN: Self = Self::ZERO;
    /// 1.
    pub const ONE: Self = Self(one_words(1));
    /// 2.
    pub const TWO: Self = Self(one_words(2));
    /// `2^(64 N) - 1`.
    pub const MAX: Self = Self([u64::MAX; N]);

    /// The value of these words, the least significant first.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let x = U256::from_words([5, 0, 1, 0]);
    /// assert_eq!(x, U256::from(5u8) + (U256::ONE << 128u32));
    /// ```
    pub const fn from_words(words: [u64; N]) -> Self {
        Self(words)
    }

    /// The words, the least significant first (TFHE-rs's `data`).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let x = U256::from(7u8) << 64u32;
    /// assert_eq!(x.data(), &[0, 7, 0, 0]);
    /// ```
    pub const fn data(&self) -> &[u64; N] {
        &self.0
    }

    /// The words, the least significant first.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::MAX.words(), [u64::MAX; 4]);
    /// ```
    pub const fn words(self) -> [u64; N] {
        self.0
    }

    /// The low 128 bits (like an `as u128` cast).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let x = U256::from_low_high(3, 9);
    /// assert_eq!(x.low_u128(), 3);
    /// ```
    pub const fn low_u128(self) -> u128 {
        let low = if N > 0 { self.0[0] as u128 } else { 0 };
        let high = if N > 1 { self.0[1] as u128 } else { 0 };
        low | (high << 64)
    }

    /// Whether it is 0.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert!(U256::ZERO.is_zero() && !U256::ONE.is_zero());
    /// ```
    pub const fn is_zero(self) -> bool {
        let mut i = 0;
        while i < N {
            if self.0[i] != 0 {
                return false;
            }
            i += 1;
        }
        true
    }

    /// `self + rhs` modulo `2^BITS`, and whether it wrapped.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::MAX.overflowing_add(U256::TWO), (U256::ONE, true));
    /// ```
    pub const fn overflowing_add(self, rhs: Self) -> (Self, bool) {
        let mut out = [0u64; N];
        let mut carry = false;
        let mut i = 0;
        while i < N {
            let (sum, c1) = self.0[i].overflowing_add(rhs.0[i]);
            let (sum, c2) = sum.overflowing_add(carry as u64);
            out[i] = sum;
            carry = c1 || c2;
            i += 1;
        }
        (Self(out), carry)
    }

    /// `self - rhs` modulo `2^BITS`, and whether it wrapped (`rhs > self`).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ONE.overflowing_sub(U256::TWO), (U256::MAX, true));
    /// ```
    pub const fn overflowing_sub(self, rhs: Self) -> (Self, bool) {
        let mut out = [0u64; N];
        let mut borrow = false;
        let mut i = 0;
        while i < N {
            let (diff, b1) = self.0[i].overflowing_sub(rhs.0[i]);
            let (diff, b2) = diff.overflowing_sub(borrow as u64);
            out[i] = diff;
            borrow = b1 || b2;
            i += 1;
        }
        (Self(out), borrow)
    }

    /// `self * rhs` modulo `2^BITS`, and whether it wrapped (the exact product does
    /// not fit).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let half = U256::ONE << 128u32;
    /// assert_eq!(half.overflowing_mul(half), (U256::ZERO, true));
    /// assert_eq!(U256::TWO.overflowing_mul(U256::TWO), (U256::from(4u8), false));
    /// ```
    pub const fn overflowing_mul(self, rhs: Self) -> (Self, bool) {
        let mut out = [0u64; N];
        let mut overflow = false;
        let mut i = 0;
        while i < N {
            let mut carry = 0u128;
            let mut j = 0;
            while j < N {
                let product = (self.0[i] as u128) * (rhs.0[j] as u128) + carry;
                if i + j < N {
                    let sum = out[i + j] as u128 + (product & u64::MAX as u128);
                    out[i + j] = sum as u64;
                    carry = (product >> 64) + (sum >> 64);
                } else {
                    overflow |= product != 0;
                    carry = 0;
                }
                j += 1;
            }
            overflow |= carry != 0;
            i += 1;
        }
        (Self(out), overflow)
    }

    /// `self + rhs` modulo `2^BITS`.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::MAX.wrapping_add(U256::ONE), U256::ZERO);
    /// ```
    pub const fn wrapping_add(self, rhs: Self) -> Self {
        self.overflowing_add(rhs).0
    }

    /// `self - rhs` modulo `2^BITS`.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ZERO.wrapping_sub(U256::ONE), U256::MAX);
    /// ```
    pub const fn wrapping_sub(self, rhs: Self) -> Self {
        self.overflowing_sub(rhs).0
    }

    /// `self * rhs` modulo `2^BITS`.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::MAX.wrapping_mul(U256::MAX), U256::ONE);
    /// ```
    pub const fn wrapping_mul(self, rhs: Self) -> Self {
        self.overflowing_mul(rhs).0
    }

    /// `-self` modulo `2^BITS`.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ONE.wrapping_neg(), U256::MAX);
    /// ```
    pub const fn wrapping_neg(self) -> Self {
        Self::ZERO.wrapping_sub(self)
    }

    /// `self + rhs`, `None` if it overflows.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::MAX.checked_add(U256::ONE), None);
    /// assert_eq!(U256::ONE.checked_add(U256::ONE), Some(U256::TWO));
    /// ```
    pub const fn checked_add(self, rhs: Self) -> Option<Self> {
        match self.overflowing_add(rhs) {
            (v, false) => Some(v),
            _ => None,
        }
    }

    /// `self - rhs`, `None` if it underflows.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ONE.checked_sub(U256::TWO), None);
    /// assert_eq!(U256::TWO.checked_sub(U256::ONE), Some(U256::ONE));
    /// ```
    pub const fn checked_sub(self, rhs: Self) -> Option<Self> {
        match self.overflowing_sub(rhs) {
            (v, false) => Some(v),
            _ => None,
        }
    }

    /// `self * rhs`, `None` if it overflows.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!((U256::ONE << 200u32).checked_mul(U256::ONE << 56u32), None);
    /// assert_eq!(U256::TWO.checked_mul(U256::TWO), Some(U256::from(4u8)));
    /// ```
    pub const fn checked_mul(self, rhs: Self) -> Option<Self> {
        match self.overflowing_mul(rhs) {
            (v, false) => Some(v),
            _ => None,
        }
    }

    /// `self - rhs`, or 0 if it underflows.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ONE.saturating_sub(U256::TWO), U256::ZERO);
    /// ```
    pub const fn saturating_sub(self, rhs: Self) -> Self {
        match self.overflowing_sub(rhs) {
            (v, false) => v,
            _ => Self::ZERO,
        }
    }

    /// `self + rhs`, or `MAX` if it overflows.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::MAX.saturating_add(U256::TWO), U256::MAX);
    /// ```
    pub const fn saturating_add(self, rhs: Self) -> Self {
        match self.overflowing_add(rhs) {
            (v, false) => v,
            _ => Self::MAX,
        }
    }

    /// `self << amount`, the amount taken modulo the width.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ONE.wrapping_shl(255), U256::ONE << 255u32);
    /// assert_eq!(U256::ONE.wrapping_shl(256), U256::ONE); // 256 mod 256 = 0
    /// ```
    pub const fn wrapping_shl(self, amount: u32) -> Self {
        if N == 0 {
            return self;
        }
        let amount = amount % Self::BITS;
        let (words, bits) = ((amount / 64) as usize, amount % 64);
        let mut out = [0u64; N];
        let mut i = N;
        while i > words {
            i -= 1;
            let from = i - words;
            let mut word = self.0[from] << bits;
            if bits > 0 && from > 0 {
                word |= self.0[from - 1] >> (64 - bits);
            }
            out[i] = word;
        }
        Self(out)
    }

    /// `self >> amount` (logical), the amount taken modulo the width.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!((U256::ONE << 200u32).wrapping_shr(199), U256::TWO);
    /// assert_eq!(U256::MAX.wrapping_shr(256), U256::MAX);
    /// ```
    pub const fn wrapping_shr(self, amount: u32) -> Self {
        if N == 0 {
            return self;
        }
        let amount = amount % Self::BITS;
        let (words, bits) = ((amount / 64) as usize, amount % 64);
        let mut out = [0u64; N];
        let mut i = 0;
        while i + words < N {
            let from = i + words;
            let mut word = self.0[from] >> bits;
            if bits > 0 && from + 1 < N {
                word |= self.0[from + 1] << (64 - bits);
            }
            out[i] = word;
            i += 1;
        }
        Self(out)
    }

    /// `self << amount`, `None` if `amount` is the width or more.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ONE.checked_shl(256), None);
    /// assert_eq!(U256::ONE.checked_shl(1), Some(U256::TWO));
    /// ```
    pub const fn checked_shl(self, amount: u32) -> Option<Self> {
        if amount < Self::BITS {
            Some(self.wrapping_shl(amount))
        } else {
            None
        }
    }

    /// `self >> amount`, `None` if `amount` is the width or more.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::MAX.checked_shr(256), None);
    /// assert_eq!(U256::TWO.checked_shr(1), Some(U256::ONE));
    /// ```
    pub const fn checked_shr(self, amount: u32) -> Option<Self> {
        if amount < Self::BITS {
            Some(self.wrapping_shr(amount))
        } else {
            None
        }
    }

    /// The bits rotated left by `amount` (modulo the width).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!((U256::ONE << 255u32).rotate_left(1), U256::ONE);
    /// ```
    pub const fn rotate_left(self, amount: u32) -> Self {
        if N == 0 || amount % Self::BITS == 0 {
            return self;
        }
        let amount = amount % Self::BITS;
        self.wrapping_shl(amount)
            .bit_or(self.wrapping_shr(Self::BITS - amount))
    }

    /// The bits rotated right by `amount` (modulo the width).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::ONE.rotate_right(1), U256::ONE << 255u32);
    /// ```
    pub const fn rotate_right(self, amount: u32) -> Self {
        if N == 0 {
            return self;
        }
        self.rotate_left(Self::BITS - amount % Self::BITS)
    }

    /// The value of another width: truncated to its low `64 M` bits, or extended
    /// with zeros (like an `as` cast between the primitive types).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// use gpufhe::integer::bigint::U512;
    /// let wide: U512 = U256::MAX.resize();
    /// assert_eq!(wide, (U512::ONE << 256u32) - U512::ONE);
    /// assert_eq!(wide.resize::<4>(), U256::MAX);
    /// ```
    pub const fn resize<const M: usize>(self) -> StaticUnsignedBigInt<M> {
        let mut out = [0u64; M];
        let mut i = 0;
        while i < M && i < N {
            out[i] = self.0[i];
            i += 1;
        }
        StaticUnsignedBigInt(out)
    }

    /// The value in `M` words if it fits, `None` otherwise.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// use gpufhe::integer::bigint::U512;
    /// assert_eq!(U512::MAX.checked_resize::<4>(), None);
    /// assert_eq!(U512::from(9u8).checked_resize::<4>(), Some(U256::from(9u8)));
    /// ```
    pub const fn checked_resize<const M: usize>(self) -> Option<StaticUnsignedBigInt<M>> {
        if self.fits_in(64 * M as u32) {
            Some(self.resize())
        } else {
            None
        }
    }

    /// The quotient and the remainder of `self / rhs`, `None` if `rhs` is 0.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let (q, r) = U256::from(100u8).checked_div_rem(U256::from(7u8)).unwrap();
    /// assert_eq!((q, r), (U256::from(14u8), U256::TWO));
    /// assert_eq!(U256::ONE.checked_div_rem(U256::ZERO), None);
    /// ```
    pub fn checked_div_rem(self, rhs: Self) -> Option<(Self, Self)> {
        if rhs.is_zero() {
            return None;
        }
        if self.fits_in(128) && rhs.fits_in(128) {
            let (a, b) = (self.low_u128(), rhs.low_u128());
            return Some((Self::from_u128(a / b), Self::from_u128(a % b)));
        }
        if self < rhs {
            return Some((Self::ZERO, self));
        }
        // Restoring binary long division from the highest bit the quotient can have.
        let shift = rhs.leading_zeros() - self.leading_zeros();
        let mut divisor = rhs.wrapping_shl(shift);
        let (mut rest, mut quotient) = (self, Self::ZERO);
        for i in (0..=shift).rev() {
            if rest >= divisor {
                rest = rest.wrapping_sub(divisor);
                quotient = quotient.with_bit(i);
            }
            divisor = divisor.wrapping_shr(1);
        }
        Some((quotient, rest))
    }

    /// The quotient and the remainder of `self / rhs`.
    ///
    /// # Panics
    ///
    /// If `rhs` is 0.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let big = U256::ONE << 250u32;
    /// assert_eq!(big.div_rem(U256::ONE << 200u32), (U256::ONE << 50u32, U256::ZERO));
    /// ```
    pub fn div_rem(self, rhs: Self) -> (Self, Self) {
        self.checked_div_rem(rhs)
            .expect("attempt to divide by zero")
    }

    /// `self / rhs`, `None` if `rhs` is 0.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::from(9u8).checked_div(U256::TWO), Some(U256::from(4u8)));
    /// assert_eq!(U256::ONE.checked_div(U256::ZERO), None);
    /// ```
    pub fn checked_div(self, rhs: Self) -> Option<Self> {
        self.checked_div_rem(rhs).map(|(q, _)| q)
    }

    /// `self % rhs`, `None` if `rhs` is 0.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::from(9u8).checked_rem(U256::TWO), Some(U256::ONE));
    /// assert_eq!(U256::ONE.checked_rem(U256::ZERO), None);
    /// ```
    pub fn checked_rem(self, rhs: Self) -> Option<Self> {
        self.checked_div_rem(rhs).map(|(_, r)| r)
    }

    /// `self / rhs` rounded up.
    ///
    /// # Panics
    ///
    /// If `rhs` is 0.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::from(9u8).div_ceil(U256::TWO), U256::from(5u8));
    /// ```
    pub fn div_ceil(self, rhs: Self) -> Self {
        let (q, r) = self.div_rem(rhs);
        if r.is_zero() {
            q
        } else {
            q.wrapping_add(Self::ONE)
        }
    }

    /// `value` (its low `64 N` bits).
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::from_u128(u128::MAX).count_ones(), 128);
    /// ```
    pub const fn from_u128(value: u128) -> Self {
        let mut out = [0u64; N];
        if N > 0 {
            out[0] = value as u64;
        }
        if N > 1 {
            out[1] = (value >> 64) as u64;
        }
        Self(out)
    }
}

impl<const N: usize> PartialOrd for StaticUnsignedBigInt<N> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Ord for StaticUnsignedBigInt<N> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}
