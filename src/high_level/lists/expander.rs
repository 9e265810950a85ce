//! What an expanded [`CompactCiphertextList`](crate::CompactCiphertextList) holds: its values as blocks, and the
//! types they expand into ([`Expandable`]).

use crate::error::{Error, Result};
use crate::high_level::internals::storage::Storage;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::lists::kinds::{DataKind, FheTypes};
use crate::high_level::{FheBool, FheInt, FheIntId, FheUint, FheUintId};
use crate::scheduler::Blocks;

/// The values of an expanded [`CompactCiphertextList`](crate::CompactCiphertextList).
#[derive(Debug)]
pub struct CompactCiphertextListExpander {
    pub(crate) tag: KeyTag,
    /// Each value's kind and blocks (on the CPU, or on the GPU of the key that
    /// expanded the list).
    pub(crate) values: Vec<(DataKind, Blocks)>,
}

/// The blocks of one expanded value (opaque).
#[derive(Debug)]
pub struct ExpandedBlocks(pub(crate) Storage);

/// A type a value of a [`CompactCiphertextList`](crate::CompactCiphertextList) expands into: every `FheUint`,
/// `FheInt` and `FheBool`.
pub trait Expandable: Sized {
    /// The value from its blocks; `Err` unless `kind` is this type's.
    fn from_expanded(kind: DataKind, blocks: ExpandedBlocks) -> Result<Self>;
}

fn check_kind(want: DataKind, got: DataKind) -> Result<()> {
    if want == got {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "the value is a {got:?}, not a {want:?}"
        )))
    }
}

impl<Id: FheUintId> Expandable for FheUint<Id> {
    fn from_expanded(kind: DataKind, blocks: ExpandedBlocks) -> Result<Self> {
        check_kind(DataKind::Unsigned(Id::BITS), kind)?;
        Ok(Self::from_storage(blocks.0))
    }
}

impl<Id: FheIntId> Expandable for FheInt<Id> {
    fn from_expanded(kind: DataKind, blocks: ExpandedBlocks) -> Result<Self> {
        check_kind(DataKind::Signed(Self::bits()), kind)?;
        Ok(Self::from_storage(blocks.0))
    }
}

impl Expandable for FheBool {
    fn from_expanded(kind: DataKind, blocks: ExpandedBlocks) -> Result<Self> {
        check_kind(DataKind::Boolean, kind)?;
        Ok(Self::from_storage(blocks.0))
    }
}

impl CompactCiphertextListExpander {
    /// The number of values.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// # let client_key = gpufhe::ClientKey::generate(config);
    /// # let public_key = gpufhe::CompactPublicKey::new(&client_key);
    /// use gpufhe::CompactCiphertextList;
    /// let list = CompactCiphertextList::builder(&public_key).push(1u8).push(2i64).build();
    /// assert_eq!(list.expand()?.len(), 2);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether it holds no value.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// # let client_key = gpufhe::ClientKey::generate(config);
    /// # let public_key = gpufhe::CompactPublicKey::new(&client_key);
    /// use gpufhe::CompactCiphertextList;
    /// assert!(CompactCiphertextList::builder(&public_key).build().expand()?.is_empty());
    /// let list = CompactCiphertextList::builder(&public_key).push(1u8).build();
    /// assert!(!list.expand()?.is_empty());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
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
    /// let list = CompactCiphertextList::builder(&public_key).push(-1i16).push(false).build();
    /// let expander = list.expand()?;
    /// let kinds: Vec<_> = (0..3).map(|i| expander.get_kind_of(i)).collect();
    /// assert_eq!(kinds, [Some(FheTypes::Int16), Some(FheTypes::Bool), None]);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn get_kind_of(&self, index: usize) -> Option<FheTypes> {
        self.values
            .get(index)
            .and_then(|v| FheTypes::from_data_kind(v.0))
    }

    /// Value `index` as a `T`: `Ok(None)` past the end, `Err` if it is of another
    /// type.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, FheInt16, FheUint16};
    /// let client_key = ClientKey::generate(config);
    /// let public_key = CompactPublicKey::new(&client_key);
    /// let expander = CompactCiphertextList::builder(&public_key).push(-300i16).build().expand()?;
    /// let x: FheInt16 = expander.get(0)?.unwrap();
    /// let clear: i16 = x.decrypt(&client_key);
    /// assert_eq!(clear, -300);
    /// assert!(expander.get::<FheUint16>(0).is_err()); // it is an FheInt16
    /// assert!(expander.get::<FheInt16>(1)?.is_none()); // past the end
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn get<T: Expandable>(&self, index: usize) -> Result<Option<T>> {
        let Some((kind, blocks)) = self.values.get(index) else {
            return Ok(None);
        };
        let storage = Storage::Encrypted {
            tag: self.tag,
            blocks: blocks.clone(),
        };
        T::from_expanded(*kind, ExpandedBlocks(storage)).map(Some)
    }
}
