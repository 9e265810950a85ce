//! TFHE-rs's byte, limb and cast conversions of [`U256`], and its other constants.

use super::U256;

impl U256 {
    /// The smallest value, 0.
    pub const MIN: Self = Self::ZERO;
    /// 2.
    pub const TWO: Self = Self::from_low_high(2, 0);

    /// Replaces the value by `bytes` read as a little-endian number.
    ///
    /// ```
    /// use gpufhe::integer::U256;
    /// let mut bytes = [0u8; 32];
    /// bytes[0] = 1;
    /// bytes[31] = 0x80;
    /// let mut x = U256::ZERO;
    /// x.copy_from_le_byte_slice(&bytes);
    /// assert_eq!(x, U256::ONE | (U256::ONE << 255u32));
    /// ```
    ///
    /// # Panics
    ///
    /// If `bytes` is not 32 bytes long (as `<[u8]>::copy_from_slice`).
    pub fn copy_from_le_byte_slice(&mut self, bytes: &[u8]) {
        let bytes: &[u8; 32] = bytes.try_into().expect("a U256 is read from 32 bytes");
        let (low, high) = bytes.split_at(16);
        *self = Self::from_low_high(
            u128::from_le_bytes(low.try_into().unwrap_or_default()),
            u128::from_le_bytes(high.try_into().unwrap_or_default()),
        );
    }

    /// Replaces the value by `bytes` read as a big-endian number.
    ///
    /// # Panics
    ///
    /// If `bytes` is not 32 bytes long.
    pub fn copy_from_be_byte_slice(&mut self, bytes: &[u8]) {
        let bytes: &[u8; 32] = bytes.try_into().expect("a U256 is read from 32 bytes");
        let (high, low) = bytes.split_at(16);
        *self = Self::from_low_high(
            u128::from_be_bytes(low.try_into().unwrap_or_default()),
            u128::from_be_bytes(high.try_into().unwrap_or_default()),
        );
    }

    /// Writes the value into `bytes`, little-endian.
    ///
    /// ```
    /// use gpufhe::integer::U256;
    /// let mut bytes = [0u8; 32];
    /// U256::from(0x0102u16).copy_to_le_byte_slice(&mut bytes);
    /// assert_eq!(bytes[..3], [2, 1, 0]);
    /// U256::from(0x0102u16).copy_to_be_byte_slice(&mut bytes);
    /// assert_eq!(bytes[29..], [0, 1, 2]);
    /// ```
    ///
    /// # Panics
    ///
    /// If `bytes` is not 32 bytes long.
    pub fn copy_to_le_byte_slice(&self, bytes: &mut [u8]) {
        let (low, high) = self.to_low_high_u128();
        let mut all = [0u8; 32];
        all[..16].copy_from_slice(&low.to_le_bytes());
        all[16..].copy_from_slice(&high.to_le_bytes());
        bytes.copy_from_slice(&all);
    }

    /// Writes the value into `bytes`, big-endian.
    ///
    /// # Panics
    ///
    /// If `bytes` is not 32 bytes long.
    pub fn copy_to_be_byte_slice(&self, bytes: &mut [u8]) {
        let (low, high) = self.to_low_high_u128();
        let mut all = [0u8; 32];
        all[..16].copy_from_slice(&high.to_be_bytes());
        all[16..].copy_from_slice(&low.to_be_bytes());
        bytes.copy_from_slice(&all);
    }

    /// The base-2 logarithm rounded up: the bits needed to count up to the value.
    ///
    /// ```
    /// use gpufhe::integer::U256;
    /// assert_eq!(U256::from(8u8).ceil_ilog2(), 3);
    /// assert_eq!(U256::from(9u8).ceil_ilog2(), 4);
    /// ```
    ///
    /// # Panics
    ///
    /// If `self` is 0 (as [`U256::ilog2`]).
    pub const fn ceil_ilog2(self) -> u32 {
        self.ilog2() + !self.is_power_of_two() as u32
    }
}

/// Four 64-bit limbs, least significant first.
impl From<[u64; 4]> for U256 {
    fn from([l0, l1, l2, l3]: [u64; 4]) -> Self {
        let word = |low: u64, high: u64| u128::from(low) | (u128::from(high) << 64);
        Self::from_low_high(word(l0, l1), word(l2, l3))
    }
}

/// Four 64-bit limbs, least significant first (as `From<[u64; 4]>`).
impl From<(u64, u64, u64, u64)> for U256 {
    fn from((l0, l1, l2, l3): (u64, u64, u64, u64)) -> Self {
        Self::from([l0, l1, l2, l3])
    }
}

#[cfg(test)]
mod tests {
    use super::U256;

    #[test]
    fn bytes_round_trip_both_ways() {
        let x = U256::from([
            0x0123_4567_89ab_cdef,
            0xfedc_ba98_7654_3210,
            0x1111_2222_3333_4444,
            0x8000_0000_0000_0001,
        ]);
        let (mut le, mut be) = ([0u8; 32], [0u8; 32]);
        x.copy_to_le_byte_slice(&mut le);
        x.copy_to_be_byte_slice(&mut be);
        assert_eq!(le[0], 0xef);
        assert_eq!(le[31], 0x80);
        let mut reversed = le;
        reversed.reverse();
        assert_eq!(reversed, be);
        let (mut a, mut b) = (U256::ZERO, U256::MAX);
        a.copy_from_le_byte_slice(&le);
        b.copy_from_be_byte_slice(&be);
        assert_eq!((a, b), (x, x));
    }

    #[test]
    #[should_panic(expected = "32 bytes")]
    fn a_short_slice_is_refused() {
        let mut x = U256::ZERO;
        x.copy_from_le_byte_slice(&[0u8; 31]);
    }

    #[test]
    fn limbs_constants_and_ceil_log() {
        let x = U256::from((1u64, 2u64, 3u64, 4u64));
        assert_eq!(x, U256::from([1, 2, 3, 4]));
        let low = 1u128 | (2u128 << 64);
        let high = 3u128 | (4u128 << 64);
        assert_eq!(x.to_low_high_u128(), (low, high));
        assert_eq!(U256::MIN, U256::ZERO);
        assert_eq!(U256::TWO, U256::from(2u8));
        assert_eq!(U256::ONE.ceil_ilog2(), 0);
        assert_eq!(U256::TWO.ceil_ilog2(), 1);
        assert_eq!(U256::from(3u8).ceil_ilog2(), 2);
        assert_eq!((U256::ONE << 200u32).ceil_ilog2(), 200);
        assert_eq!(((U256::ONE << 200u32) + U256::ONE).ceil_ilog2(), 201);
        assert_eq!(U256::MAX.ceil_ilog2(), 256);
    }
}
