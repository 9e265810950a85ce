//! Public-key encryption, as TFHE-rs users write it: a [`CompactPublicKey`] made from
//! the client key, a [`CompactCiphertextList`] of many values of mixed types built
//! with it (by anyone: no secret needed), sent to the server and expanded there
//! into ordinary [`FheUint`], [`FheInt`] and [`FheBool`] values of the client key.
//! Values encrypt block by block, `N` blocks per GLWE ciphertext (see
//! [`crate::shortint::CompactPublicKey`] for the scheme and its noise).
//!
//! Sizes on the default parameters (`N = 2048`, 2-bit blocks): the public key is
//! 32 KiB; a list takes 32 KiB per 2048 blocks, so 128 `FheUint64` (32 blocks each)
//! fit in 64 KiB, about 16 bytes per block, where one `FheUint64` encrypted with the
//! client key takes 512 KiB. Serialized with each library's safe serialization
//! (`cd compare && cargo run --release --example public_key_sizes`, TFHE-rs 1.8.2 on
//! its default parameters): the public key takes 32,925 bytes here and 33,034 in
//! TFHE-rs; its compressed form ([`CompressedCompactPublicKey`]), 16,583 and 16,732;
//! a list of 128 `FheUint64`, 66,746 bytes here and 67,811 in TFHE-rs.

use crate::error::{check_eq, Error, Result};
use crate::high_level::config::block_count;
use crate::high_level::integers::unsigned::base::wrap_to_bits;
use crate::high_level::internals::expect_op;
use crate::high_level::keys::compact_public::CompactPublicKey;
use crate::high_level::keys::cuda::CudaServerKey;
use crate::high_level::keys::server::ServerKey;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::lists::expander::CompactCiphertextListExpander;
pub(crate) use crate::high_level::lists::expansion::{block_counts, ExpansionParts};
pub use crate::high_level::lists::kinds::DataKind;
use crate::high_level::lists::kinds::FheTypes;
use crate::high_level::{SignedClear, UnsignedClear};
use crate::integer::{sign_extend_wide, I1024, I2048, I256, I512, U1024, U2048, U256, U512};
use crate::shortint;
use serde::{Deserialize, Serialize};

/// Values of mixed types encrypted with a [`CompactPublicKey`], packed (see the
/// module docs); [`CompactCiphertextList::expand`] turns them into values.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, ConfigBuilder};
/// use gpufhe::{FheBool, FheInt16, FheUint32, FheUint8};
/// let client_key = ClientKey::generate(ConfigBuilder::default());
/// let public_key = CompactPublicKey::new(&client_key);
/// // Anyone with the public key:
/// let list = CompactCiphertextList::builder(&public_key)
///     .push(1234u32)
///     .push(-7i16)
///     .push(true)
///     .push(200u8)
///     .build();
/// // The server:
/// let expander = list.expand().unwrap();
/// let a: FheUint32 = expander.get(0).unwrap().unwrap();
/// let b: FheInt16 = expander.get(1).unwrap().unwrap();
/// let c: FheBool = expander.get(2).unwrap().unwrap();
/// assert!(expander.get::<FheUint8>(4).unwrap().is_none());
/// assert!(expander.get::<FheUint8>(0).is_err()); // the first value is an FheUint32
/// // The client:
/// let (a, b, c): (u32, i16, bool) =
///     (a.decrypt(&client_key), b.decrypt(&client_key), c.decrypt(&client_key));
/// assert_eq!((a, b, c), (1234, -7, true));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ListFields")]
pub struct CompactCiphertextList {
    tag: KeyTag,
    parameters: shortint::ShortintParameters,
    kinds: Vec<DataKind>,
    lists: Vec<Vec<u64>>,
    /// Whether its blocks are packed two by two (TFHE-rs's `build_packed`; gpufhe
    /// reads such lists, and builds unpacked ones). Not in gpufhe's own format,
    /// which refuses to write a packed list.
    #[serde(serialize_with = "super::packed::unpacked_in_own_format")]
    packed: bool,
    /// The dedicated public-key parameters it was encrypted with (its blocks are
    /// cast to computation blocks on expansion; `parameters` then holds its key's
    /// shape); not in gpufhe's own format.
    #[serde(serialize_with = "super::casting::not_dedicated_in_own_format")]
    casting: Option<shortint::CompactPublicKeyEncryptionParameters>,
}

#[derive(Deserialize)]
struct ListFields {
    tag: KeyTag,
    parameters: shortint::ShortintParameters,
    kinds: Vec<DataKind>,
    lists: Vec<Vec<u64>>,
}

impl TryFrom<ListFields> for CompactCiphertextList {
    type Error = Error;
    fn try_from(f: ListFields) -> Result<Self> {
        let list = Self {
            tag: f.tag,
            parameters: f.parameters,
            kinds: f.kinds,
            lists: f.lists,
            packed: false,
            casting: None,
        };
        list.validate()?;
        Ok(list)
    }
}

impl CompactCiphertextList {
    /// A builder of a list encrypted with `public_key`.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, FheInt32, FheUint8};
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let list = CompactCiphertextList::builder(&public_key).push(7u8).push(-1i32).build();
    /// let expander = list.expand()?;
    /// let (a, b): (FheUint8, FheInt32) = (expander.get(0)?.unwrap(), expander.get(1)?.unwrap());
    /// let (a, b): (u8, i32) = (a.decrypt(&client_key), b.decrypt(&client_key));
    /// assert_eq!((a, b), (7, -1));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn builder(public_key: &CompactPublicKey) -> CompactCiphertextListBuilder<'_> {
        CompactCiphertextListBuilder {
            key: public_key,
            kinds: Vec::new(),
            digits: Vec::new(),
        }
    }

    /// The number of values.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// # let client_key = gpufhe::ClientKey::generate(config);
    /// # let public_key = gpufhe::CompactPublicKey::new(&client_key);
    /// use gpufhe::CompactCiphertextList;
    /// let list = CompactCiphertextList::builder(&public_key).push(1u8).push(true).build();
    /// assert_eq!(list.len(), 2);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether it holds no value.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// # let client_key = gpufhe::ClientKey::generate(config);
    /// # let public_key = gpufhe::CompactPublicKey::new(&client_key);
    /// use gpufhe::CompactCiphertextList;
    /// assert!(CompactCiphertextList::builder(&public_key).build().is_empty());
    /// assert!(!CompactCiphertextList::builder(&public_key).push(1u8).build().is_empty());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The type of value `index`: `None` past the end, or for a width TFHE-rs has
    /// no name for (see [`FheTypes::from_data_kind`]).
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// # let client_key = gpufhe::ClientKey::generate(config);
    /// # let public_key = gpufhe::CompactPublicKey::new(&client_key);
    /// use gpufhe::{CompactCiphertextList, FheTypes};
    /// let mut builder = CompactCiphertextList::builder(&public_key);
    /// builder.push(1u8).push(true).push_with_num_bits(5u8, 3)?;
    /// let list = builder.build();
    /// let kinds: Vec<_> = (0..4).map(|i| list.get_kind_of(i)).collect();
    /// assert_eq!(kinds, [Some(FheTypes::Uint8), Some(FheTypes::Bool), None, None]);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn get_kind_of(&self, index: usize) -> Option<FheTypes> {
        self.kinds
            .get(index)
            .copied()
            .and_then(FheTypes::from_data_kind)
    }

    /// The blocks of every value.
    fn block_counts(&self) -> Result<Vec<usize>> {
        block_counts(&self.parameters, &self.kinds, "compact list")
    }

    /// A list of these parts (blocks packed two by two if `packed`), checked
    /// ([`CompactCiphertextList::validate`]).
    pub(crate) fn from_parts(
        tag: KeyTag,
        parameters: shortint::ShortintParameters,
        kinds: Vec<DataKind>,
        lists: Vec<Vec<u64>>,
        packed: bool,
        casting: Option<shortint::CompactPublicKeyEncryptionParameters>,
    ) -> Result<Self> {
        let list = Self {
            tag,
            parameters,
            kinds,
            lists,
            packed,
            casting,
        };
        list.validate()?;
        Ok(list)
    }

    /// Whether its blocks are packed two by two.
    pub(crate) fn is_packed(&self) -> bool {
        self.packed
    }

    /// The compact ciphertexts that hold `blocks` blocks: one per block, one per
    /// two if packed.
    pub(crate) fn stored_count(&self, blocks: usize) -> usize {
        if self.packed {
            blocks.div_ceil(2)
        } else {
            blocks
        }
    }

    /// The kinds of its values, in order.
    pub(crate) fn kinds(&self) -> &[DataKind] {
        &self.kinds
    }

    /// Its GLWE ciphertexts, `N` blocks each (the last holds the rest).
    pub(crate) fn lists(&self) -> &[Vec<u64>] {
        &self.lists
    }

    /// The tag of the client key it was encrypted for.
    pub(crate) fn tag(&self) -> KeyTag {
        self.tag
    }

    /// Its block parameters (for a list of dedicated parameters, their key's shape:
    /// see [`CompactCiphertextList::casting`]).
    pub(crate) fn parameters(&self) -> &shortint::ShortintParameters {
        &self.parameters
    }

    /// The dedicated public-key parameters it was encrypted with, if any.
    pub(crate) fn casting(&self) -> Option<&shortint::CompactPublicKeyEncryptionParameters> {
        self.casting.as_ref()
    }

    /// `Err` unless the parameters are valid and the lists hold exactly the blocks
    /// of the values (for deserialized lists).
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// # let client_key = gpufhe::ClientKey::generate(config);
    /// # let public_key = gpufhe::CompactPublicKey::new(&client_key);
    /// use gpufhe::CompactCiphertextList;
    /// let list = CompactCiphertextList::builder(&public_key).push(1u16).build();
    /// assert!(list.validate().is_ok());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.parameters.validate()?;
        let blocks: usize = self.block_counts()?.iter().sum();
        let n = self.parameters.polynomial_size.0;
        check_eq(
            "number of compact ciphertexts of the list",
            self.stored_count(blocks).div_ceil(n),
            self.lists.len(),
        )?;
        let words = shortint::CompactPublicKey::glwe_words_of(&self.parameters);
        for list in &self.lists {
            check_eq("number of words of a compact ciphertext", words, list.len())?;
        }
        Ok(())
    }

    /// The host bytes [`CompactCiphertextList::expand`] allocates: every block of
    /// every value as a big LWE ciphertext ([`shortint::expanded_compact_bytes`]).
    /// The largest growth in the crate: 1,024× the list's size on the default
    /// parameters, less than 2^16 + 1 times on any valid parameters (which a list
    /// read from untrusted bytes carries itself).
    /// [`safe_deserialize_default`](crate::serialization::safe_deserialize_default)
    /// refuses a list above 4 GiB expanded; [`CompactCiphertextList::expand`] checks
    /// the memory budget whatever read it.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// # let client_key = gpufhe::ClientKey::generate(config);
    /// # let public_key = gpufhe::CompactPublicKey::new(&client_key);
    /// use gpufhe::CompactCiphertextList;
    /// let one = CompactCiphertextList::builder(&public_key).push(1u8).build();
    /// let two = CompactCiphertextList::builder(&public_key).push(1u8).push(2u8).build();
    /// assert_eq!(two.expanded_bytes(), 2 * one.expanded_bytes());
    /// // Four blocks of 513 words (N = 512 on the test parameters), and their headers.
    /// assert!(one.expanded_bytes() > 4 * 513 * 8);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn expanded_bytes(&self) -> u64 {
        let blocks = self.block_counts().map_or(0, |c| c.iter().sum());
        shortint::expanded_compact_bytes(&self.parameters, blocks)
    }

    /// [`CompactCiphertextList::expand`], after checking that `server_key` (a
    /// [`ServerKey`] or a [`CudaServerKey`]) is the key of the list's client key:
    /// `Err` if it is another key's, or a `CudaServerKey` that could not be made.
    /// The key casts lists of dedicated parameters and unpacks packed ones; with a
    /// `CudaServerKey` that work runs on its GPU, where the values stay (also for
    /// a plain list, whose blocks are copied there), else on the CPU threads.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, CompactCiphertextList, CompactPublicKey, FheUint16};
    /// let (client_key, server_key) = generate_keys(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let list = CompactCiphertextList::builder(&public_key).push(1234u16).build();
    /// let x: FheUint16 = list.expand_with_key(&server_key)?.get(0)?.unwrap();
    /// let clear: u16 = x.decrypt(&client_key);
    /// assert_eq!(clear, 1234);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn expand_with_key<'a>(
        &self,
        server_key: impl Into<Result<&'a ServerKey>>,
    ) -> Result<CompactCiphertextListExpander> {
        let server_key = server_key.into()?;
        self.tag.check(
            "the compact list (it was encrypted under another key)",
            server_key.tag(),
        )?;
        self.expand_with(Some(server_key))
    }

    /// The values as blocks of the client key, ready to compute with (no server key
    /// needed, but for a list of dedicated public-key parameters or a packed one,
    /// which the thread's server key casts to computation blocks or unpacks, on its
    /// GPU for a GPU key: `Err` without one, or with another key's); `Err` if the
    /// list is malformed, and `Err(OutOfMemory)`, before
    /// anything is allocated, if [`CompactCiphertextList::expanded_bytes`] is above
    /// the memory budget ([`crate::memory`]).
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, FheBool, FheUint64};
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let list = CompactCiphertextList::builder(&public_key).push(u64::MAX).push(false).build();
    /// let expander = list.expand()?;
    /// let (a, b): (FheUint64, FheBool) = (expander.get(0)?.unwrap(), expander.get(1)?.unwrap());
    /// let (a, b): (u64, bool) = (a.decrypt(&client_key), b.decrypt(&client_key));
    /// assert_eq!((a, b), (u64::MAX, false));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn expand(&self) -> Result<CompactCiphertextListExpander> {
        self.expand_with(None)
    }

    /// [`CompactCiphertextList::expand`]; a list of dedicated parameters is cast by
    /// `server_key`, else by the thread's server key.
    fn expand_with(&self, server_key: Option<&ServerKey>) -> Result<CompactCiphertextListExpander> {
        let counts = self.block_counts()?;
        let stored = self.stored_count(counts.iter().sum());
        let blocks = shortint::expand_compact_blocks(&self.parameters, &self.lists, stored)?;
        ExpansionParts {
            tag: self.tag,
            parameters: &self.parameters,
            casting: self.casting.as_ref(),
            kinds: &self.kinds,
            packed: self.packed,
        }
        .expander(server_key, blocks)
    }
}

impl<'a> From<&'a ServerKey> for Result<&'a ServerKey> {
    fn from(key: &'a ServerKey) -> Self {
        Ok(key)
    }
}

impl<'a> From<&'a CudaServerKey> for Result<&'a ServerKey> {
    fn from(key: &'a CudaServerKey) -> Self {
        key.server_key()
    }
}

/// Collects values for a [`CompactCiphertextList`]; see there for an example.
#[derive(Debug)]
pub struct CompactCiphertextListBuilder<'a> {
    pub(crate) key: &'a CompactPublicKey,
    pub(crate) kinds: Vec<DataKind>,
    /// The block messages of the values, in order.
    pub(crate) digits: Vec<u64>,
}

/// A clear value that a [`CompactCiphertextListBuilder`] takes: `u8` ... `u128`,
/// [`U256`] ... [`U2048`](crate::integer::U2048), `i8` ... `i128`,
/// [`I256`](crate::integer::I256) ... [`I2048`](crate::integer::I2048) and `bool`.
pub trait CompactPushable: Copy {
    /// Its kind at its own width.
    fn kind(self) -> DataKind;
    /// Its bits in two's complement, sign-extended to 2048 bits.
    fn bits_of(self) -> U2048;
}

macro_rules! pushable {
    ($($kind:ident: $($t:ty),*;)*) => {$($(
        impl CompactPushable for $t {
            fn kind(self) -> DataKind {
                DataKind::$kind(<$t>::BITS)
            }
            fn bits_of(self) -> U2048 {
                pushable!(@bits $kind, self)
            }
        }
    )*)*};
    (@bits Unsigned, $v:expr) => { UnsignedClear::to_wide($v) };
    (@bits Signed, $v:expr) => { SignedClear::to_wide($v).as_unsigned() };
}
pushable! {
    Unsigned: u8, u16, u32, u64, u128, U256, U512, U1024, U2048;
    Signed: i8, i16, i32, i64, i128, I256, I512, I1024, I2048;
}

impl CompactPushable for bool {
    fn kind(self) -> DataKind {
        DataKind::Boolean
    }
    fn bits_of(self) -> U2048 {
        self.into()
    }
}

impl<'a> CompactCiphertextListBuilder<'a> {
    /// An empty builder of a list encrypted with `public_key` (the same as
    /// [`CompactCiphertextList::builder`]).
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactCiphertextListBuilder, CompactPublicKey, FheInt8};
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let list = CompactCiphertextListBuilder::new(&public_key).push(-8i8).build();
    /// let x: FheInt8 = list.expand()?.get(0)?.unwrap();
    /// let clear: i8 = x.decrypt(&client_key);
    /// assert_eq!(clear, -8);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn new(public_key: &'a CompactPublicKey) -> Self {
        CompactCiphertextList::builder(public_key)
    }
}

impl CompactCiphertextListBuilder<'_> {
    /// Adds every value of `values`, each as a value of its own type.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactCiphertextListBuilder, CompactPublicKey, ConfigBuilder, FheUint8};
    /// use gpufhe::prelude::*;
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let list = CompactCiphertextListBuilder::new(&public_key)
    ///     .extend([1u8, 2, 3].into_iter())
    ///     .extend_with_num_bits([5u8, 6].into_iter(), 4)?
    ///     .build_packed();
    /// assert_eq!(list.len(), 5);
    /// let third: FheUint8 = list.expand()?.get(2)?.unwrap();
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&third, &client_key), 3);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn extend<T: CompactPushable>(&mut self, values: impl Iterator<Item = T>) -> &mut Self {
        for value in values {
            self.push(value);
        }
        self
    }

    /// Adds every value of `values` as an integer of `num_bits` bits (see
    /// [`CompactCiphertextListBuilder::push_with_num_bits`]); `Err` at the first that
    /// does not fit, the values before it added.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, FheUint4};
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let mut builder = CompactCiphertextList::builder(&public_key);
    /// builder.extend_with_num_bits([9u8, 15].into_iter(), 4)?;
    /// // 20 does not fit in 4 bits: 3 is added, not what follows.
    /// assert!(builder.extend_with_num_bits([3u8, 20, 4].into_iter(), 4).is_err());
    /// let list = builder.build();
    /// let last: FheUint4 = list.expand()?.get(2)?.unwrap();
    /// let clear: u8 = last.decrypt(&client_key);
    /// assert_eq!((list.len(), clear), (3, 3));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn extend_with_num_bits<T: CompactPushable>(
        &mut self,
        values: impl Iterator<Item = T>,
        num_bits: usize,
    ) -> Result<&mut Self> {
        for value in values {
            self.push_with_num_bits(value, num_bits)?;
        }
        Ok(self)
    }

    /// Adds `value` as a value of its own type (`u32` as an `FheUint32`, ...).
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, FheBool, FheUint128};
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let mut builder = CompactCiphertextList::builder(&public_key);
    /// builder.push(u128::MAX - 1).push(true);
    /// let expander = builder.build().expand()?;
    /// let (a, b): (FheUint128, FheBool) = (expander.get(0)?.unwrap(), expander.get(1)?.unwrap());
    /// let (a, b): (u128, bool) = (a.decrypt(&client_key), b.decrypt(&client_key));
    /// assert_eq!((a, b), (u128::MAX - 1, true));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn push<T: CompactPushable>(&mut self, value: T) -> &mut Self {
        let kind = value.kind();
        self.push_kind(kind, value.bits_of())
    }

    /// Adds `value` as an integer of `num_bits` bits (an `FheUint4` from a `u8`, ...);
    /// `Err` if the value does not fit, or `num_bits` is not a width of the crate's
    /// types for a `bool`.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, FheInt8};
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let mut builder = CompactCiphertextList::builder(&public_key);
    /// builder.push_with_num_bits(-100i32, 8)?; // an FheInt8
    /// assert!(builder.push_with_num_bits(200i32, 8).is_err()); // above FheInt8's 127
    /// assert!(builder.push_with_num_bits(true, 2).is_err()); // a boolean has 1 bit
    /// let x: FheInt8 = builder.build().expand()?.get(0)?.unwrap();
    /// let clear: i8 = x.decrypt(&client_key);
    /// assert_eq!(clear, -100);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn push_with_num_bits<T: CompactPushable>(
        &mut self,
        value: T,
        num_bits: usize,
    ) -> Result<&mut Self> {
        let num_bits = u32::try_from(num_bits)
            .map_err(|_| Error::InvalidParameter(format!("no value has {num_bits} bits")))?;
        let kind = match value.kind() {
            DataKind::Unsigned(_) => DataKind::Unsigned(num_bits),
            DataKind::Signed(_) => DataKind::Signed(num_bits),
            DataKind::Boolean if num_bits == 1 => DataKind::Boolean,
            DataKind::Boolean => {
                return Err(Error::InvalidParameter(format!(
                    "a boolean takes 1 bit, not {num_bits}"
                )))
            }
        };
        let bits = value.bits_of();
        let fits = match kind {
            DataKind::Signed(n) => sign_extend_wide(bits, n).as_unsigned() == bits,
            _ => bits.fits_in(num_bits),
        };
        if num_bits == 0 || num_bits > U2048::BITS || !fits {
            return Err(Error::InvalidParameter(format!(
                "{value_bits:#x} does not fit in {num_bits} bits",
                value_bits = bits
            )));
        }
        Ok(self.push_kind(kind, bits))
    }

    /// Adds the low `kind.bits()` bits of `bits` as a value of `kind`.
    pub(crate) fn push_kind(&mut self, kind: DataKind, bits: U2048) -> &mut Self {
        let p = self.key.key.parameters();
        let count = block_count(p, kind.bits());
        let value = wrap_to_bits(bits, kind.bits());
        self.digits.extend(crate::integer::clear_digits(
            value,
            p.message_modulus,
            count,
        ));
        self.kinds.push(kind);
        self
    }

    /// Encrypts the values; `Err` if the system's random generator fails.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, FheUint32};
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let list = CompactCiphertextList::builder(&public_key).push(77u32).try_build()?;
    /// let x: FheUint32 = list.expand()?.get(0)?.unwrap();
    /// let clear: u32 = x.decrypt(&client_key);
    /// assert_eq!(clear, 77);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_build(&self) -> Result<CompactCiphertextList> {
        Ok(CompactCiphertextList {
            tag: self.key.tag,
            parameters: *self.key.key.parameters(),
            kinds: self.kinds.clone(),
            lists: self.key.key.encrypt_blocks(&self.digits)?,
            packed: false,
            casting: self.key.dedicated,
        })
    }

    /// Encrypts the values.
    ///
    /// # Panics
    ///
    /// If [`CompactCiphertextListBuilder::try_build`] fails.
    #[track_caller]
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, FheUint8};
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let mut builder = CompactCiphertextList::builder(&public_key);
    /// let list = builder.extend([4u8, 5, 6].into_iter()).build();
    /// let x: FheUint8 = list.expand()?.get(1)?.unwrap();
    /// let clear: u8 = x.decrypt(&client_key);
    /// assert_eq!((list.len(), clear), (3, 5));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn build(&self) -> CompactCiphertextList {
        expect_op(self.try_build(), "build")
    }

    /// [`CompactCiphertextListBuilder::build`], under TFHE-rs's name for a list
    /// whose blocks are packed two by two (its expansion then bootstraps them apart).
    /// This crate does not pack: the list is the one `build` makes (about twice
    /// TFHE-rs's packed size), and expanding it costs no bootstrap.
    ///
    /// # Panics
    ///
    /// If [`CompactCiphertextListBuilder::try_build`] fails.
    #[track_caller]
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, FheUint16};
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let mut builder = CompactCiphertextList::builder(&public_key);
    /// builder.push(500u16);
    /// let (packed, plain) = (builder.build_packed(), builder.build());
    /// assert_eq!(packed.expanded_bytes(), plain.expanded_bytes()); // the same layout
    /// let x: FheUint16 = packed.expand()?.get(0)?.unwrap();
    /// let clear: u16 = x.decrypt(&client_key);
    /// assert_eq!(clear, 500);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn build_packed(&self) -> CompactCiphertextList {
        expect_op(self.try_build(), "build_packed")
    }
}
