//! Raw parts: the high-level values and server key taken apart into the lower
//! layers' types and put back together, with TFHE-rs 1.8's parts in TFHE-rs's
//! order (`into_raw_parts` / `from_raw_parts`), so that blocks move between the
//! layers and keys are assembled from their parts as TFHE-rs's clients do.
//!
//! Where TFHE-rs's `from_raw_parts` cannot fail, gpufhe's does not return a
//! `Result` either: it panics with the reason on parts that do not make a value
//! (gpufhe checks what TFHE-rs takes on trust), and a `try_from_raw_parts` returns
//! the reason instead. `into_raw_parts` copies a value that lives on a GPU to the
//! CPU (`try_into_raw_parts` returns a GPU's failure instead of panicking).

use crate::error::{Error, Result};
use crate::high_level::internals::expect_op;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::tfhe_rs::values::{storage_from_blocks, storage_to_blocks};
use crate::high_level::{FheBool, FheInt, FheIntId, FheUint, FheUintId};
use crate::integer::ciphertext::{IntegerRadixCiphertext, RadixCiphertext, SignedRadixCiphertext};
use crate::shortint::Ciphertext;

mod client_key;
mod keys;
mod re_randomization;

pub use crate::high_level::re_randomization_metadata::ReRandomizationMetadata;
pub use client_key::{ClientKeyParts, OprfPrivateKey};
pub use keys::{
    CompressedOprfServerKey, CompressedServerKeyParts, OprfServerKey, ServerKeyParts,
    UnsupportedKeyPart,
};
pub use re_randomization::{
    CompressedReRandomizationKey, CompressedReRandomizationKeySwitchingKey, ReRandomizationKey,
    ReRandomizationKeySwitchingKey,
};

impl<Id: FheUintId> FheUint<Id> {
    /// The value's parts, as in TFHE-rs: its blocks, its width, the tag of its key
    /// and its re-randomization metadata. The blocks are copied to the CPU
    /// if the value is on a GPU; a trivial value becomes trivial blocks (noise
    /// level 0) of the current server key's parameters (else the default ones)
    /// under [`KeyTag`] 0. Panics if a GPU fails ([`Self::try_into_raw_parts`]
    /// returns the error).
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::IntegerCiphertext;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, FheUint8Id};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// let a = FheUint8::encrypt(200u8, &client_key);
    /// let (radix, id, tag, metadata) = a.into_raw_parts();
    /// assert_eq!(radix.blocks().len(), 4); // 2 bits per block
    /// let a = FheUint8::from_raw_parts(radix, id, tag, metadata);
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&a, &client_key), 200);
    /// ```
    #[track_caller]
    pub fn into_raw_parts(self) -> (RadixCiphertext, Id, KeyTag, ReRandomizationMetadata) {
        expect_op(self.try_into_raw_parts(), "into_raw_parts")
    }

    /// [`Self::into_raw_parts`], with a GPU's failure as an `Err`.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::IntegerCiphertext;
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// let (radix, _, tag, _) = FheUint8::encrypt(7u8, &client_key).try_into_raw_parts().unwrap();
    /// assert_eq!((radix.blocks().len(), tag), (4, client_key.tag()));
    /// ```
    pub fn try_into_raw_parts(
        self,
    ) -> Result<(RadixCiphertext, Id, KeyTag, ReRandomizationMetadata)> {
        let (blocks, tag) = storage_to_blocks(&self.storage, Id::BITS)?;
        Ok((
            RadixCiphertext::from(blocks),
            Id::default(),
            tag,
            self.re_randomization_metadata,
        ))
    }

    /// The value of these parts (TFHE-rs's order). The blocks must make an
    /// `Id::BITS`-bit value: as many as the width needs, with the same moduli and
    /// LWE size, clean (carries empty, noise level at most 1); blocks that are all
    /// trivial make a trivial value, with the metadata given.
    /// TFHE-rs takes the parts on trust; gpufhe panics with the reason on parts
    /// that do not make a value ([`Self::try_from_raw_parts`] returns it). The
    /// blocks' parameters are checked against the server key by each operation.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{IntegerCiphertext, IntegerRadixCiphertext, RadixCiphertext};
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint16, FheUint16Id, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// // Two bytes become the low and high halves of a 16-bit value.
    /// let (low, _, tag, metadata) = FheUint8::encrypt(0x34u8, &client_key).into_raw_parts();
    /// let (high, ..) = FheUint8::encrypt(0x12u8, &client_key).into_raw_parts();
    /// let mut blocks = low.into_blocks();
    /// blocks.extend(high.into_blocks());
    /// let word = FheUint16::from_raw_parts(RadixCiphertext::from(blocks), FheUint16Id, tag, metadata);
    /// let clear: u16 = word.decrypt(&client_key);
    /// assert_eq!(clear, 0x1234);
    /// ```
    #[track_caller]
    pub fn from_raw_parts(
        ciphertext: RadixCiphertext,
        id: Id,
        tag: KeyTag,
        re_randomization_metadata: ReRandomizationMetadata,
    ) -> Self {
        expect_op(
            Self::try_from_raw_parts(ciphertext, id, tag, re_randomization_metadata),
            "from_raw_parts",
        )
    }

    /// [`Self::from_raw_parts`], with the reason the parts make no value as an
    /// `Err`.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{IntegerRadixCiphertext, RadixCiphertext};
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint16, FheUint16Id, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// let (byte, _, tag, metadata) = FheUint8::encrypt(1u8, &client_key).into_raw_parts();
    /// // Four blocks are not the eight of a 16-bit value.
    /// assert!(FheUint16::try_from_raw_parts(byte, FheUint16Id, tag, metadata).is_err());
    /// ```
    pub fn try_from_raw_parts(
        ciphertext: RadixCiphertext,
        _id: Id,
        tag: KeyTag,
        re_randomization_metadata: ReRandomizationMetadata,
    ) -> Result<Self> {
        let blocks = ciphertext.into_blocks();
        let mut value = Self::from_storage(storage_from_blocks(blocks, tag, Id::BITS, None)?);
        *value.re_randomization_metadata_mut() = re_randomization_metadata;
        Ok(value)
    }
}

impl<Id: FheIntId> FheInt<Id> {
    /// The value's parts, as in TFHE-rs: its blocks (two's complement), its width,
    /// the tag of its key and its re-randomization metadata; as
    /// [`FheUint::into_raw_parts`] (copied to the CPU, trivial blocks for a trivial
    /// value, a panic if a GPU fails: [`Self::try_into_raw_parts`] returns it).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheInt8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// let (radix, id, tag, metadata) = FheInt8::encrypt(-100i8, &client_key).into_raw_parts();
    /// let back = FheInt8::from_raw_parts(radix, id, tag, metadata);
    /// assert_eq!(FheDecrypt::<i8>::decrypt(&back, &client_key), -100);
    /// ```
    #[track_caller]
    pub fn into_raw_parts(self) -> (SignedRadixCiphertext, Id, KeyTag, ReRandomizationMetadata) {
        expect_op(self.try_into_raw_parts(), "into_raw_parts")
    }

    /// [`Self::into_raw_parts`], with a GPU's failure as an `Err`.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::IntegerCiphertext;
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheInt16;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// let (radix, ..) = FheInt16::encrypt(-1i16, &client_key).try_into_raw_parts().unwrap();
    /// assert_eq!(radix.blocks().len(), 8);
    /// ```
    pub fn try_into_raw_parts(
        self,
    ) -> Result<(SignedRadixCiphertext, Id, KeyTag, ReRandomizationMetadata)> {
        let (blocks, tag) = storage_to_blocks(&self.inner.storage, Self::bits())?;
        Ok((
            SignedRadixCiphertext::from(blocks),
            Id::default(),
            tag,
            self.inner.re_randomization_metadata,
        ))
    }

    /// The value of these parts (TFHE-rs's order), checked as
    /// [`FheUint::from_raw_parts`] checks them: a panic with the reason on parts
    /// that do not make a value ([`Self::try_from_raw_parts`] returns it).
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::{IntegerRadixCiphertext, SignedRadixCiphertext};
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheInt16, FheInt16Id, FheInt8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// // -2 as an i8 is 0xFE; with a high byte of 0xFF it is -2 as an i16.
    /// let (low, _, tag, metadata) = FheInt8::encrypt(-2i8, &client_key).into_raw_parts();
    /// let (high, ..) = FheInt8::encrypt(-1i8, &client_key).into_raw_parts();
    /// let mut blocks = low.into_blocks();
    /// blocks.extend(high.into_blocks());
    /// let x = FheInt16::from_raw_parts(SignedRadixCiphertext::from(blocks), FheInt16Id, tag, metadata);
    /// assert_eq!(FheDecrypt::<i16>::decrypt(&x, &client_key), -2);
    /// ```
    #[track_caller]
    pub fn from_raw_parts(
        ciphertext: SignedRadixCiphertext,
        id: Id,
        tag: KeyTag,
        re_randomization_metadata: ReRandomizationMetadata,
    ) -> Self {
        expect_op(
            Self::try_from_raw_parts(ciphertext, id, tag, re_randomization_metadata),
            "from_raw_parts",
        )
    }

    /// [`Self::from_raw_parts`], with the reason the parts make no value as an
    /// `Err`.
    ///
    /// ```
    /// use gpufhe::integer::ciphertext::SignedRadixCiphertext;
    /// use gpufhe::{FheInt8, FheInt8Id, ReRandomizationMetadata};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// let no_blocks = SignedRadixCiphertext::from(vec![]);
    /// let metadata = ReRandomizationMetadata::default();
    /// assert!(FheInt8::try_from_raw_parts(no_blocks, FheInt8Id, client_key.tag(), metadata).is_err());
    /// ```
    pub fn try_from_raw_parts(
        ciphertext: SignedRadixCiphertext,
        _id: Id,
        tag: KeyTag,
        re_randomization_metadata: ReRandomizationMetadata,
    ) -> Result<Self> {
        let blocks = ciphertext.into_blocks();
        let mut value = Self::from_storage(storage_from_blocks(blocks, tag, Self::bits(), None)?);
        *value.re_randomization_metadata_mut() = re_randomization_metadata;
        Ok(value)
    }
}

impl FheBool {
    /// The boolean's block, as in TFHE-rs (copied to the CPU if the value is on a
    /// GPU; a trivial block of the current server key's parameters, else the
    /// default ones, for a trivial value). TFHE-rs returns the block alone: take
    /// the key's tag first ([`FheBool::tag`]) to rebuild it with
    /// [`Self::from_raw_parts`]. Panics if a GPU fails
    /// ([`Self::try_into_raw_parts`] returns the error).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheBool;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// let block = FheBool::encrypt(true, &client_key).into_raw_parts();
    /// assert_eq!(client_key.shortint_key().decrypt(&block).unwrap(), 1);
    /// ```
    #[track_caller]
    pub fn into_raw_parts(self) -> Ciphertext {
        expect_op(self.try_into_raw_parts(), "into_raw_parts")
    }

    /// [`Self::into_raw_parts`], with a GPU's failure as an `Err`.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheBool;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// let block = FheBool::encrypt(false, &client_key).try_into_raw_parts().unwrap();
    /// assert!(block.degree() <= 1);
    /// ```
    pub fn try_into_raw_parts(self) -> Result<Ciphertext> {
        let (mut blocks, _) = storage_to_blocks(&self.storage, 1)?;
        blocks
            .pop()
            .filter(|_| blocks.is_empty())
            .ok_or_else(|| Error::InvalidParameter("a boolean holds exactly one block".into()))
    }

    /// The boolean of a block under the client key of `tag` (gpufhe's addition:
    /// TFHE-rs 1.8 offers no `FheBool::from_raw_parts`). The block must hold 0 or 1
    /// (degree at most 1) and be clean (noise level at most 1); a trivial block
    /// makes a trivial boolean. Panics with the reason otherwise
    /// ([`Self::try_from_raw_parts`] returns it).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheBool;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let b = FheBool::encrypt(true, &client_key);
    /// let tag = b.tag().unwrap();
    /// let b = FheBool::from_raw_parts(b.into_raw_parts(), tag);
    /// assert!(!(!&b).decrypt(&client_key));
    /// ```
    #[track_caller]
    pub fn from_raw_parts(block: Ciphertext, tag: KeyTag) -> Self {
        expect_op(Self::try_from_raw_parts(block, tag), "from_raw_parts")
    }

    /// [`Self::from_raw_parts`], with the reason the block makes no boolean as an
    /// `Err`.
    ///
    /// ```
    /// use gpufhe::FheBool;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// // A fresh block of two message bits may hold up to 3: not a boolean.
    /// let digit = client_key.shortint_key().encrypt(1).unwrap();
    /// assert!(FheBool::try_from_raw_parts(digit, client_key.tag()).is_err());
    /// ```
    pub fn try_from_raw_parts(block: Ciphertext, tag: KeyTag) -> Result<Self> {
        Ok(Self::from_storage(storage_from_blocks(
            vec![block],
            tag,
            1,
            Some(1),
        )?))
    }
}
