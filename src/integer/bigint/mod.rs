//! Wide clear integers at TFHE-rs's path (`tfhe::integer::bigint`): the unsigned
//! [`StaticUnsignedBigInt<N>`] and signed [`StaticSignedBigInt<N>`] of `N` 64-bit
//! words, and their names by width, [`U256`] ... [`U2048`] and [`I256`] ...
//! [`I2048`]. They are the clear types of the wide encrypted integers
//! (`FheUint256` takes and returns a [`U256`]), and [`U2048`] is the clear value of
//! every integer circuit (the widest width).
//!
//! ```
//! use gpufhe::integer::bigint::{I256, U256, U512};
//! let big = U256::from((0u128, 1u128)); // (low, high): 2^128
//! assert_eq!(big, U256::ONE << 128u32);
//! assert_eq!((big - U256::ONE).to_low_high_u128(), (u128::MAX, 0));
//! assert_eq!(big * U256::from(3u8) / U256::from(3u8), big);
//! assert_eq!(U256::MAX + U256::ONE, U256::ZERO);
//! assert!(u128::try_from(big).is_err());
//! assert_eq!(format!("{:x}", big), format!("1{}", "0".repeat(32)));
//! let product: U512 = big.resize::<8>() * big.resize();
//! assert_eq!(product, U512::ONE << 256u32);
//! assert_eq!(I256::from(-1i8).as_unsigned(), U256::MAX);
//! ```

mod conversions;
mod static_signed;
mod static_unsigned;
mod static_unsigned_bits;

pub use static_signed::StaticSignedBigInt;
pub use static_unsigned::StaticUnsignedBigInt;

/// A 256-bit unsigned integer: the clear type of [`crate::FheUint256`].
pub type U256 = StaticUnsignedBigInt<4>;
/// A 512-bit unsigned integer.
pub type U512 = StaticUnsignedBigInt<8>;
/// A 1024-bit unsigned integer.
pub type U1024 = StaticUnsignedBigInt<16>;
/// A 2048-bit unsigned integer: the clear value of every integer circuit.
pub type U2048 = StaticUnsignedBigInt<32>;
/// A 256-bit signed integer.
pub type I256 = StaticSignedBigInt<4>;
/// A 512-bit signed integer.
pub type I512 = StaticSignedBigInt<8>;
/// A 1024-bit signed integer.
pub type I1024 = StaticSignedBigInt<16>;
/// A 2048-bit signed integer.
pub type I2048 = StaticSignedBigInt<32>;

impl U256 {
    /// `low + high * 2^128`.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// let x = U256::from_low_high(1, 1);
    /// assert_eq!(x, U256::ONE + (U256::ONE << 128u32));
    /// ```
    pub const fn from_low_high(low: u128, high: u128) -> Self {
        Self([
            low as u64,
            (low >> 64) as u64,
            high as u64,
            (high >> 64) as u64,
        ])
    }

    /// The low and the high 128 bits: `(low, high)`.
    ///
    /// ```
    /// use gpufhe::integer::bigint::U256;
    /// assert_eq!(U256::from_low_high(3, u128::MAX).to_low_high_u128(), (3, u128::MAX));
    /// ```
    pub const fn to_low_high_u128(self) -> (u128, u128) {
        (self.low_u128(), self.wrapping_shr(128).low_u128())
    }
}

/// `(low, high)`: `low + high * 2^128`.
impl From<(u128, u128)> for U256 {
    fn from((low, high): (u128, u128)) -> Self {
        Self::from_low_high(low, high)
    }
}

/// Zero extension from each narrower named width (as `From<u8> for u16`).
macro_rules! widening_from {
    ($($narrow:ty => $($wide:ty),*;)*) => {$($(
        impl From<$narrow> for $wide {
            fn from(value: $narrow) -> Self {
                value.resize()
            }
        }
    )*)*};
}
widening_from! {
    U256 => U512, U1024, U2048;
    U512 => U1024, U2048;
    U1024 => U2048;
}

#[cfg(test)]
mod tests;
