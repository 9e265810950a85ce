//! TFHE-rs's integer ciphertext types (`tfhe::integer::ciphertext`): radix
//! ciphertexts, which hold the blocks of one integer least significant first, and
//! boolean blocks. They are what the high-level values' `into_raw_parts` return and
//! `from_raw_parts` take, so that values move between the high-level API and the
//! blocks ([`crate::shortint::Ciphertext`]) as they do in TFHE-rs.
//!
//! ```
//! use gpufhe::integer::ciphertext::{IntegerCiphertext, IntegerRadixCiphertext, RadixCiphertext};
//! use gpufhe::integer::{decrypt_radix, encrypt_radix, U2048};
//! use gpufhe::shortint::ClientKey;
//! # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
//! let ck = ClientKey::new(TEST_PARAMS).unwrap();
//! let radix = RadixCiphertext::from(encrypt_radix(&ck, 0xA5u8, 4).unwrap());
//! assert_eq!(radix.blocks().len(), 4);
//! assert!(radix.block_carries_are_empty());
//! assert_eq!(decrypt_radix(&ck, &radix.into_blocks()).unwrap(), U2048::from(0xA5u8));
//! ```

use crate::shortint::Ciphertext;
use serde::{Deserialize, Serialize};

/// The blocks of an unsigned integer, least significant first (TFHE-rs's
/// `BaseRadixCiphertext`; [`RadixCiphertext`] is the one of gpufhe's blocks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaseRadixCiphertext<Block> {
    pub(crate) blocks: Vec<Block>,
}

/// The blocks of a signed integer (two's complement), least significant first
/// (TFHE-rs's `BaseSignedRadixCiphertext`; [`SignedRadixCiphertext`] is the one of
/// gpufhe's blocks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaseSignedRadixCiphertext<Block> {
    pub(crate) blocks: Vec<Block>,
}

/// An unsigned integer as blocks (what [`FheUint::into_raw_parts`](crate::FheUint::into_raw_parts)
/// returns).
pub type RadixCiphertext = BaseRadixCiphertext<Ciphertext>;

/// A signed integer as blocks (what [`FheInt::into_raw_parts`](crate::FheInt::into_raw_parts)
/// returns).
pub type SignedRadixCiphertext = BaseSignedRadixCiphertext<Ciphertext>;

impl<Block> From<Vec<Block>> for BaseRadixCiphertext<Block> {
    fn from(blocks: Vec<Block>) -> Self {
        Self { blocks }
    }
}

impl<Block> From<Vec<Block>> for BaseSignedRadixCiphertext<Block> {
    fn from(blocks: Vec<Block>) -> Self {
        Self { blocks }
    }
}

/// A ciphertext made of blocks (TFHE-rs's `IntegerCiphertext`).
pub trait IntegerCiphertext: Clone {
    /// The blocks, least significant first.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{IntegerCiphertext, SignedRadixCiphertext};
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = ClientKey::new(TEST_PARAMS).unwrap();
    /// let blocks = vec![ck.encrypt(3).unwrap(), ck.encrypt(1).unwrap()];
    /// let x = SignedRadixCiphertext::from_blocks(blocks);
    /// assert_eq!(ck.decrypt(&x.blocks()[1]).unwrap(), 1);
    /// ```
    fn blocks(&self) -> &[Ciphertext];

    /// The ciphertext of `blocks`, least significant first.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{IntegerCiphertext, RadixCiphertext};
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = ClientKey::new(TEST_PARAMS).unwrap();
    /// let x = RadixCiphertext::from_blocks(vec![ck.encrypt(2).unwrap()]);
    /// assert_eq!(x.blocks().len(), 1);
    /// ```
    fn from_blocks(blocks: Vec<Ciphertext>) -> Self;

    /// The blocks, to change in place.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{IntegerCiphertext, RadixCiphertext};
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = ClientKey::new(TEST_PARAMS).unwrap();
    /// let mut x = RadixCiphertext::from_blocks(vec![ck.encrypt(2).unwrap(), ck.encrypt(0).unwrap()]);
    /// x.blocks_mut().swap(0, 1);
    /// assert_eq!(ck.decrypt(&x.blocks()[1]).unwrap(), 2);
    /// ```
    fn blocks_mut(&mut self) -> &mut [Ciphertext];

    /// The message modulus of each block.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{IntegerCiphertext, RadixCiphertext};
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = ClientKey::new(TEST_PARAMS).unwrap();
    /// let x = RadixCiphertext::from_blocks(vec![ck.encrypt(2).unwrap(), ck.encrypt(0).unwrap()]);
    /// assert_eq!(x.moduli(), vec![4, 4]);
    /// ```
    fn moduli(&self) -> Vec<u64> {
        self.blocks()
            .iter()
            .map(Ciphertext::message_modulus)
            .collect()
    }
}

/// A radix ciphertext (TFHE-rs's `IntegerRadixCiphertext`): blocks that each hold
/// one base-`message_modulus` digit.
pub trait IntegerRadixCiphertext: IntegerCiphertext + Send + Sync + From<Vec<Ciphertext>> {
    /// The blocks, least significant first.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{IntegerRadixCiphertext, RadixCiphertext};
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = ClientKey::new(TEST_PARAMS).unwrap();
    /// let x = RadixCiphertext::from(vec![ck.encrypt(2).unwrap()]);
    /// assert_eq!(ck.decrypt(&x.into_blocks()[0]).unwrap(), 2);
    /// ```
    fn into_blocks(self) -> Vec<Ciphertext>;

    /// Whether every block's carry is empty (its degree below the message modulus).
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{IntegerRadixCiphertext, RadixCiphertext};
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = ClientKey::new(TEST_PARAMS).unwrap();
    /// assert!(RadixCiphertext::from(vec![ck.encrypt(2).unwrap()]).block_carries_are_empty());
    /// let carried = RadixCiphertext::from(vec![ck.encrypt_with_carry(9).unwrap()]);
    /// assert!(!carried.block_carries_are_empty());
    /// ```
    fn block_carries_are_empty(&self) -> bool {
        self.blocks()
            .iter()
            .all(|b| b.degree() < b.message_modulus())
    }

    /// Whether the blocks are clean: carries empty and noise level at most 1 (what
    /// the high-level values hold).
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{IntegerRadixCiphertext, RadixCiphertext};
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = ClientKey::new(TEST_PARAMS).unwrap();
    /// assert!(RadixCiphertext::from(vec![ck.encrypt(2).unwrap()]).is_clean());
    /// ```
    fn is_clean(&self) -> bool {
        self.block_carries_are_empty() && self.blocks().iter().all(|b| b.noise_level() <= 1)
    }

    /// Whether it holds a boolean: a first block of degree at most 1, the others of
    /// degree 0.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{IntegerRadixCiphertext, RadixCiphertext};
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = ClientKey::new(TEST_PARAMS).unwrap();
    /// // A fresh block may hold up to message_modulus - 1.
    /// assert!(!RadixCiphertext::from(vec![ck.encrypt(1).unwrap()]).holds_boolean_value());
    /// ```
    fn holds_boolean_value(&self) -> bool {
        let blocks = self.blocks();
        blocks.first().is_some_and(|b| b.degree() <= 1)
            && blocks.iter().skip(1).all(|b| b.degree() == 0)
    }
}

/// The two radix types, one implementation.
macro_rules! radix_ciphertext {
    ($($ty:ident),*) => {$(
        impl IntegerCiphertext for $ty<Ciphertext> {
            fn blocks(&self) -> &[Ciphertext] {
                &self.blocks
            }
            fn from_blocks(blocks: Vec<Ciphertext>) -> Self {
                Self { blocks }
            }
            fn blocks_mut(&mut self) -> &mut [Ciphertext] {
                &mut self.blocks
            }
        }

        impl IntegerRadixCiphertext for $ty<Ciphertext> {
            fn into_blocks(self) -> Vec<Ciphertext> {
                self.blocks
            }
        }
    )*};
}
radix_ciphertext!(BaseRadixCiphertext, BaseSignedRadixCiphertext);

/// A block that holds a boolean, 0 or 1 (TFHE-rs's `BooleanBlock`: what
/// [`FheBool`](crate::FheBool)s are made of).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BooleanBlock(pub(crate) Ciphertext);

impl BooleanBlock {
    /// The boolean of `block`, unchecked: the caller knows that it holds 0 or 1
    /// (a high-level boolean made of it checks its degree).
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::BooleanBlock;
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = ClientKey::new(TEST_PARAMS).unwrap();
    /// let b = BooleanBlock::new_unchecked(ck.encrypt(1).unwrap());
    /// assert_eq!(ck.decrypt(b.as_ref()).unwrap(), 1);
    /// ```
    pub fn new_unchecked(block: Ciphertext) -> Self {
        Self(block)
    }

    /// The boolean held by the first block of `ct`, if the blocks' degrees show
    /// that it holds one ([`IntegerRadixCiphertext::holds_boolean_value`]).
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{BooleanBlock, RadixCiphertext};
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = ClientKey::new(TEST_PARAMS).unwrap();
    /// let digit = RadixCiphertext::from(vec![ck.encrypt(3).unwrap()]);
    /// assert!(BooleanBlock::try_new(&digit).is_none());
    /// ```
    pub fn try_new<T: IntegerRadixCiphertext>(ct: &T) -> Option<Self> {
        ct.holds_boolean_value()
            .then(|| Self(ct.blocks()[0].clone()))
    }

    /// The block.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::BooleanBlock;
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = ClientKey::new(TEST_PARAMS).unwrap();
    /// let block = BooleanBlock::new_unchecked(ck.encrypt(0).unwrap()).into_raw_parts();
    /// assert_eq!(ck.decrypt(&block).unwrap(), 0);
    /// ```
    pub fn into_raw_parts(self) -> Ciphertext {
        self.0
    }
}

impl AsRef<Ciphertext> for BooleanBlock {
    fn as_ref(&self) -> &Ciphertext {
        &self.0
    }
}
