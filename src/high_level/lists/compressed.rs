//! Ciphertext compression, as TFHE-rs users write it: values of mixed types
//! pushed into a [`CompressedCiphertextListBuilder`], packed by the server key into a
//! [`CompressedCiphertextList`] (to store them, or to send them off a GPU server),
//! and read back one by one as ordinary values.
//!
//! Compression is enabled in the configuration
//! ([`crate::ConfigBuilder::enable_compression`]); see [`crate::shortint`]'s
//! `compression` module for the scheme (TFHE-rs 1.8's) and its noise. Packing runs
//! no bootstrap (except for blocks above noise level 1, refreshed first through the
//! server key's scheduler); reading a value back bootstraps each of its blocks
//! with the decompression key on the host's threads (the GPU bootstrap runs the
//! server key's own bootstrap key only): a decompressed block is clean, of noise
//! level 1.
//!
//! Sizes on the default parameters with [`crate::shortint::COMP_PARAM_MESSAGE_2_CARRY_2`]
//! (TFHE-rs's: 256 blocks of 2 bits per GLWE ciphertext of dimension 1024, 12 bits
//! per stored coefficient): a list takes 1.5 KiB per GLWE ciphertext plus 1.5 bytes
//! per block, as TFHE-rs's.

use super::compact::{block_counts, DataKind};
use super::expander::{CompactCiphertextListExpander, Expandable, ExpandedBlocks};
use super::kinds::FheTypes;
use crate::error::{check_eq, Error, Result};
use crate::high_level::global_state::current_server_key;
use crate::high_level::internals::storage::{Input, Storage};
use crate::high_level::keys::server::ServerKey;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::{FheBool, FheInt, FheIntId, FheUint, FheUintId};
use crate::scheduler::Blocks;
use crate::shortint::{self, CompressedBlockList, CompressionKeys};
use serde::{Deserialize, Serialize};

/// A value that a [`CompressedCiphertextListBuilder`] takes: every `FheUint`,
/// `FheInt` and `FheBool`.
pub trait Compressible {
    /// The value's kind and content (opaque).
    fn into_compressible(self) -> CompressibleValue;
}

/// A value ready to be pushed into a [`CompressedCiphertextListBuilder`] (opaque).
#[derive(Debug)]
pub struct CompressibleValue(DataKind, Storage);

impl<Id: FheUintId> Compressible for FheUint<Id> {
    fn into_compressible(self) -> CompressibleValue {
        CompressibleValue(DataKind::Unsigned(Id::BITS), self.storage)
    }
}

impl<Id: FheIntId> Compressible for FheInt<Id> {
    fn into_compressible(self) -> CompressibleValue {
        CompressibleValue(DataKind::Signed(Self::bits()), self.inner.storage)
    }
}

impl Compressible for FheBool {
    fn into_compressible(self) -> CompressibleValue {
        CompressibleValue(DataKind::Boolean, self.storage)
    }
}

/// Collects values for a [`CompressedCiphertextList`].
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
/// use gpufhe::{generate_keys, set_server_key, CompressedCiphertextList};
/// use gpufhe::{CompressedCiphertextListBuilder, FheBool, FheInt8, FheUint32};
/// // On the default parameters: `.enable_compression(COMP_PARAM_MESSAGE_2_CARRY_2)`.
/// let config = config.enable_compression(TEST_COMP_PARAMS).build();
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let a = FheUint32::encrypt(123_456u32, &client_key);
/// let b = FheInt8::encrypt(-5i8, &client_key);
/// let c = FheBool::encrypt(true, &client_key);
/// let list = CompressedCiphertextListBuilder::new()
///     .push(a)
///     .push(b)
///     .push(c)
///     .build()
///     .unwrap();
/// assert_eq!(list.len(), 3);
/// let a: FheUint32 = list.get(0).unwrap().unwrap();
/// let b: FheInt8 = list.get(1).unwrap().unwrap();
/// let c: FheBool = list.get(2).unwrap().unwrap();
/// assert!(list.get::<FheUint32>(3).unwrap().is_none());
/// assert!(list.get::<FheInt8>(0).is_err()); // value 0 is an FheUint32
/// let (a, b, c): (u32, i8, bool) =
///     (a.decrypt(&client_key), b.decrypt(&client_key), c.decrypt(&client_key));
/// assert_eq!((a, b, c), (123_456, -5, true));
/// ```
#[derive(Default)]
pub struct CompressedCiphertextListBuilder {
    values: Vec<(DataKind, Storage)>,
}

impl std::fmt::Debug for CompressedCiphertextListBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kinds: Vec<DataKind> = self.values.iter().map(|v| v.0).collect();
        write!(f, "CompressedCiphertextListBuilder {{ kinds: {kinds:?} }}")
    }
}

impl CompressedCiphertextListBuilder {
    /// An empty builder.
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, CompressedCiphertextListBuilder, FheUint8};
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let mut builder = CompressedCiphertextListBuilder::new();
    /// let list = builder.push(FheUint8::encrypt(9u8, &client_key)).build()?;
    /// let x: FheUint8 = list.get(0)?.unwrap();
    /// let clear: u8 = x.decrypt(&client_key);
    /// assert_eq!(clear, 9);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `value` (moved in; push a clone to keep it).
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, CompressedCiphertextListBuilder};
    /// use gpufhe::{FheBool, FheInt16};
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let a = FheInt16::encrypt(-1234i16, &client_key);
    /// let list = CompressedCiphertextListBuilder::new()
    ///     .push(a.clone()) // a clone: `a` stays usable
    ///     .push(FheBool::encrypt(true, &client_key))
    ///     .build()?;
    /// let (b, c): (FheInt16, FheBool) = (list.get(0)?.unwrap(), list.get(1)?.unwrap());
    /// let (a, b, c): (i16, i16, bool) =
    ///     (a.decrypt(&client_key), b.decrypt(&client_key), c.decrypt(&client_key));
    /// assert_eq!((a, b, c), (-1234, -1234, true));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn push<T: Compressible>(&mut self, value: T) -> &mut Self {
        let CompressibleValue(kind, storage) = value.into_compressible();
        self.values.push((kind, storage));
        self
    }

    /// Adds every value of `values`.
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, CompressedCiphertextListBuilder, FheUint8};
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let values = [4u8, 5, 6].map(|v| FheUint8::encrypt(v, &client_key));
    /// let list = CompressedCiphertextListBuilder::new().extend(values).build()?;
    /// let last: FheUint8 = list.get(2)?.unwrap();
    /// let clear: u8 = last.decrypt(&client_key);
    /// assert_eq!((list.len(), clear), (3, 6));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn extend<T: Compressible>(&mut self, values: impl IntoIterator<Item = T>) -> &mut Self {
        for value in values {
            self.push(value);
        }
        self
    }

    /// Packs the values with the current thread's server key (see
    /// [`CompressedCiphertextListBuilder::build_with`]).
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, CompressedCiphertextListBuilder, FheUint32};
    /// let (client_key, server_key) = generate_keys(config);
    /// let mut builder = CompressedCiphertextListBuilder::new();
    /// builder.push(FheUint32::encrypt(70_000u32, &client_key));
    /// assert!(builder.build().is_err()); // no server key on this thread yet
    /// set_server_key(server_key);
    /// let x: FheUint32 = builder.build()?.get(0)?.unwrap();
    /// let clear: u32 = x.decrypt(&client_key);
    /// assert_eq!(clear, 70_000);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn build(&self) -> Result<CompressedCiphertextList> {
        self.build_with(&current_server_key()?)
    }

    /// Packs the values with `server_key`: `Err` if its configuration does not enable
    /// compression or a value belongs to another key. Values above noise level 1
    /// are bootstrapped first (through the key's devices); trivial values
    /// become noiseless blocks; values on a GPU are copied back to the host.
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, CompressedCiphertextListBuilder, FheUint16};
    /// let (client_key, server_key) = generate_keys(config);
    /// let mut builder = CompressedCiphertextListBuilder::new();
    /// builder.push(FheUint16::encrypt(999u16, &client_key));
    /// let list = builder.build_with(&server_key)?; // no key set on the thread
    /// let x: FheUint16 = list.get_with(0, &server_key)?.unwrap();
    /// let clear: u16 = x.decrypt(&client_key);
    /// assert_eq!(clear, 999);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn build_with(&self, server_key: &ServerKey) -> Result<CompressedCiphertextList> {
        let keys = compression_keys_of(server_key)?;
        let parameters = *server_key.config().parameters();
        let inputs: Vec<Input<'_>> = self
            .values
            .iter()
            .map(|(kind, storage)| Input {
                storage,
                bits: kind.bits(),
            })
            .collect();
        // Usually every value is already blocks of noise level 1: they
        // are read (from a GPU: one copy) and packed as they are.
        server_key.circuit_inputs(&inputs)?;
        let mut blocks = host_blocks(&self.values)?;
        let ready = blocks
            .as_ref()
            .is_some_and(|b| b.iter().all(|block| block.noise_level() <= 1));
        if !ready {
            // One circuit: a bootstrap for each block above noise level 1,
            // constants for trivial values, the other blocks as they are.
            let prepared = server_key.execute(&inputs, |c, xs| {
                xs.iter()
                    .map(|x| {
                        x.iter()
                            .map(|&w| {
                                if c.info(w).noise_level > 1 {
                                    c.refresh(w)
                                } else {
                                    Ok(w)
                                }
                            })
                            .collect()
                    })
                    .collect()
            })?;
            let kinds = self.values.iter().map(|v| v.0);
            let values: Vec<(DataKind, Storage)> = kinds.zip(prepared).collect();
            blocks = host_blocks(&values)?;
        }
        let blocks = blocks.ok_or_else(|| {
            Error::InvalidParameter("internal: a trivial value was not made into blocks".into())
        })?;
        Ok(CompressedCiphertextList {
            tag: server_key.tag(),
            kinds: self.values.iter().map(|v| v.0).collect(),
            blocks: keys.compress(&blocks, &parameters)?,
        })
    }
}

/// The blocks of `values` on the host, in order; `None` if one is trivial.
fn host_blocks(values: &[(DataKind, Storage)]) -> Result<Option<Vec<shortint::Ciphertext>>> {
    let mut out = Vec::new();
    for (_, storage) in values {
        match storage {
            Storage::Encrypted { blocks, .. } => out.extend(blocks.to_cpu()?.iter().cloned()),
            Storage::Trivial(_) => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// Values packed by a [`CompressedCiphertextListBuilder`] (see the module docs):
/// serializable, and read back with [`CompressedCiphertextList::get`].
/// Deserialization checks that the packed blocks are those of the values.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "ListFields")]
pub struct CompressedCiphertextList {
    tag: KeyTag,
    kinds: Vec<DataKind>,
    blocks: CompressedBlockList,
}

#[derive(Deserialize)]
struct ListFields {
    tag: KeyTag,
    kinds: Vec<DataKind>,
    blocks: CompressedBlockList,
}

impl TryFrom<ListFields> for CompressedCiphertextList {
    type Error = Error;

    fn try_from(f: ListFields) -> Result<Self> {
        let list = Self {
            tag: f.tag,
            kinds: f.kinds,
            blocks: f.blocks,
        };
        let counts = list.block_counts()?;
        check_eq(
            "number of blocks of the compressed list",
            counts.iter().sum(),
            list.blocks.len(),
        )?;
        Ok(list)
    }
}

impl CompressedCiphertextList {
    /// The number of values.
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// # use gpufhe::prelude::*;
    /// # use gpufhe::CompressedCiphertextListBuilder;
    /// # let (client_key, server_key) = gpufhe::generate_keys(config);
    /// # gpufhe::set_server_key(server_key);
    /// use gpufhe::{FheBool, FheUint8};
    /// let list = CompressedCiphertextListBuilder::new()
    ///     .push(FheUint8::encrypt(1u8, &client_key))
    ///     .push(FheBool::encrypt(false, &client_key))
    ///     .build()?;
    /// assert_eq!(list.len(), 2);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether it holds no value.
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// # use gpufhe::prelude::*;
    /// # use gpufhe::CompressedCiphertextListBuilder;
    /// # let (client_key, server_key) = gpufhe::generate_keys(config);
    /// # gpufhe::set_server_key(server_key);
    /// use gpufhe::FheUint8;
    /// assert!(CompressedCiphertextListBuilder::new().build()?.is_empty());
    /// let mut builder = CompressedCiphertextListBuilder::new();
    /// builder.push(FheUint8::encrypt(1u8, &client_key));
    /// assert!(!builder.build()?.is_empty());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The type of value `index`: `None` past the end, or for a width TFHE-rs has
    /// no name for (see [`FheTypes::from_data_kind`]).
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// # use gpufhe::prelude::*;
    /// # use gpufhe::CompressedCiphertextListBuilder;
    /// # let (client_key, server_key) = gpufhe::generate_keys(config);
    /// # gpufhe::set_server_key(server_key);
    /// use gpufhe::{FheBool, FheInt64, FheTypes};
    /// let list = CompressedCiphertextListBuilder::new()
    ///     .push(FheInt64::encrypt(-1i64, &client_key))
    ///     .push(FheBool::encrypt(true, &client_key))
    ///     .build()?;
    /// let kinds: Vec<_> = (0..3).map(|i| list.get_kind_of(i)).collect();
    /// assert_eq!(kinds, [Some(FheTypes::Int64), Some(FheTypes::Bool), None]);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn get_kind_of(&self, index: usize) -> Option<FheTypes> {
        self.kinds
            .get(index)
            .copied()
            .and_then(FheTypes::from_data_kind)
    }

    /// The tag of the client key its values belong to.
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// # use gpufhe::prelude::*;
    /// # use gpufhe::CompressedCiphertextListBuilder;
    /// # let (client_key, server_key) = gpufhe::generate_keys(config);
    /// # gpufhe::set_server_key(server_key);
    /// use gpufhe::FheUint8;
    /// let mut builder = CompressedCiphertextListBuilder::new();
    /// let list = builder.push(FheUint8::encrypt(1u8, &client_key)).build()?;
    /// assert_eq!(list.tag(), client_key.tag());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn tag(&self) -> KeyTag {
        self.tag
    }

    /// Value `index` as a `T`, decompressed with the current thread's server key:
    /// `Ok(None)` past the end, `Err` if it is of another type or the key is not the
    /// values' key or has no compression keys.
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, CompressedCiphertextListBuilder};
    /// use gpufhe::{FheInt8, FheUint8};
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let mut builder = CompressedCiphertextListBuilder::new();
    /// let list = builder.push(FheUint8::encrypt(200u8, &client_key)).build()?;
    /// let x: FheUint8 = list.get(0)?.unwrap();
    /// let clear: u8 = x.decrypt(&client_key);
    /// assert_eq!(clear, 200);
    /// assert!(list.get::<FheInt8>(0).is_err()); // it is an FheUint8
    /// assert!(list.get::<FheUint8>(1)?.is_none()); // past the end
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn get<T: Expandable>(&self, index: usize) -> Result<Option<T>> {
        self.get_with(index, &current_server_key()?)
    }

    /// [`CompressedCiphertextList::get`] with `server_key`. The value's blocks are
    /// bootstrapped once each with the decompression key, on the host's threads
    /// (also for a key on GPUs, which then takes the value to its first GPU): an
    /// `FheUint64` costs 32 bootstraps, like in TFHE-rs.
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, CompressedCiphertextListBuilder, FheBool};
    /// let (client_key, server_key) = generate_keys(config);
    /// let mut builder = CompressedCiphertextListBuilder::new();
    /// let list = builder.push(FheBool::encrypt(true, &client_key)).build_with(&server_key)?;
    /// let x: FheBool = list.get_with(0, &server_key)?.unwrap();
    /// assert!(x.decrypt(&client_key));
    /// assert!(list.get::<FheBool>(0).is_err()); // no server key set on this thread
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn get_with<T: Expandable>(
        &self,
        index: usize,
        server_key: &ServerKey,
    ) -> Result<Option<T>> {
        let Some(&kind) = self.kinds.get(index) else {
            return Ok(None);
        };
        self.tag.check(
            "the compressed list (it was made under another key)",
            server_key.tag(),
        )?;
        let keys = compression_keys_of(server_key)?;
        if self.blocks.parameters() != server_key.config().parameters() {
            return Err(Error::InvalidParameter(
                "the compressed list was made for other block parameters than the key's".into(),
            ));
        }
        let counts = self.block_counts()?;
        let start: usize = counts[..index].iter().sum();
        // A boolean's block holds at most 1.
        let most = match kind {
            DataKind::Boolean => 1,
            _ => self.blocks.parameters().message_modulus - 1,
        };
        let blocks =
            keys.decompress_range_at_most(&self.blocks, start..start + counts[index], most)?;
        let mut storage = Storage::Encrypted {
            tag: self.tag,
            blocks: Blocks::cpu(blocks),
        };
        // Where the key computes: a GPU key's values live on its first GPU.
        if let Some(&gpu) = server_key.gpus().first() {
            storage.move_to(crate::scheduler::Device::CudaGpu(gpu))?;
        }
        T::from_expanded(kind, ExpandedBlocks(storage)).map(Some)
    }

    /// The host bytes that reading every value of the list allocates: one big LWE
    /// ciphertext per block ([`CompressedCiphertextList::get`] expands one value at
    /// a time, and checks its own share against the memory budget,
    /// [`crate::memory`]). On the default parameters with
    /// [`COMP_PARAM_MESSAGE_2_CARRY_2`](crate::shortint::COMP_PARAM_MESSAGE_2_CARRY_2)
    /// a block stored in about 7.5 bytes (1.5 KiB per 256 blocks and 1.5 bytes each)
    /// expands to 16 KiB, about 2,000× (four `FheUint64`: 3.3 kB stored, 2.1 MB
    /// expanded).
    ///
    /// ```
    /// # use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP_PARAMS;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap()
    /// #     .enable_compression(TEST_COMP_PARAMS);
    /// # use gpufhe::prelude::*;
    /// # use gpufhe::CompressedCiphertextListBuilder;
    /// # let (client_key, server_key) = gpufhe::generate_keys(config);
    /// # gpufhe::set_server_key(server_key);
    /// use gpufhe::FheUint8;
    /// let mut builder = CompressedCiphertextListBuilder::new();
    /// let list = builder.push(FheUint8::encrypt(1u8, &client_key)).build()?;
    /// // Four blocks of 513 words (N = 512 on the test parameters).
    /// assert_eq!(list.expanded_bytes(), 4 * 513 * 8);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn expanded_bytes(&self) -> u64 {
        let words = self.blocks.parameters().big_lwe_dimension().to_lwe_size().0 as u64;
        (self.blocks.len() as u64).saturating_mul(words * 8)
    }

    /// Its blocks.
    pub(crate) fn blocks(&self) -> &shortint::CompressedBlockList {
        &self.blocks
    }

    /// The kinds of its values.
    pub(crate) fn kinds(&self) -> &[DataKind] {
        &self.kinds
    }

    /// A list of these parts, checked (the blocks must be those of the values).
    pub(crate) fn from_parts(
        tag: KeyTag,
        kinds: Vec<DataKind>,
        blocks: shortint::CompressedBlockList,
    ) -> Result<Self> {
        Self::try_from(ListFields { tag, kinds, blocks })
    }

    /// The number of blocks of every value.
    fn block_counts(&self) -> Result<Vec<usize>> {
        block_counts(self.blocks.parameters(), &self.kinds, "compressed list")
    }
}

/// The compression keys of `server_key`, or an `Err` that says how to get them.
fn compression_keys_of(server_key: &ServerKey) -> Result<&CompressionKeys> {
    server_key.compression_keys().ok_or_else(|| {
        Error::InvalidParameter(
            "the server key has no compression keys: enable compression in the \
             configuration (ConfigBuilder::enable_compression) before generating keys"
                .into(),
        )
    })
}

/// The accessors of a list of values of mixed types, for code generic over the
/// list ([`CompressedCiphertextList`] and [`CompactCiphertextListExpander`]); each
/// method is the list's own method of that name.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::FheTypes;
/// fn kinds<L: CiphertextList>(list: &L) -> Vec<Option<FheTypes>> {
///     (0..list.len()).map(|i| list.get_kind_of(i)).collect()
/// }
/// ```
pub trait CiphertextList {
    /// The number of values.
    fn len(&self) -> usize;
    /// Whether it holds no value.
    fn is_empty(&self) -> bool;
    /// The type of value `index`: `None` past the end or for a width TFHE-rs has
    /// no name for.
    fn get_kind_of(&self, index: usize) -> Option<FheTypes>;
    /// Value `index` as a `T`: `Ok(None)` past the end, `Err` if it is of another
    /// type (or cannot be read, see the list's own `get`).
    fn get<T: Expandable>(&self, index: usize) -> Result<Option<T>>;
}

impl CiphertextList for CompactCiphertextListExpander {
    fn len(&self) -> usize {
        CompactCiphertextListExpander::len(self)
    }
    fn is_empty(&self) -> bool {
        CompactCiphertextListExpander::is_empty(self)
    }
    fn get_kind_of(&self, index: usize) -> Option<FheTypes> {
        CompactCiphertextListExpander::get_kind_of(self, index)
    }
    fn get<T: Expandable>(&self, index: usize) -> Result<Option<T>> {
        CompactCiphertextListExpander::get(self, index)
    }
}

impl CiphertextList for CompressedCiphertextList {
    fn len(&self) -> usize {
        CompressedCiphertextList::len(self)
    }
    fn is_empty(&self) -> bool {
        CompressedCiphertextList::is_empty(self)
    }
    fn get_kind_of(&self, index: usize) -> Option<FheTypes> {
        CompressedCiphertextList::get_kind_of(self, index)
    }
    fn get<T: Expandable>(&self, index: usize) -> Result<Option<T>> {
        CompressedCiphertextList::get(self, index)
    }
}
