//! Lists of squashed values packed together (TFHE-rs 1.8's
//! `CompressedSquashedNoiseCiphertextList` and its builder): the squashed blocks of
//! several values are packed into 128-bit GLWE ciphertexts by the server key's
//! noise-squashing compression key
//! ([`crate::ConfigBuilder::enable_noise_squashing_compression`]), with no
//! bootstrap; a value taken out of the list decrypts with the client key (its
//! compression private key).

use super::{SquashedNoiseFheBool, SquashedNoiseFheInt, SquashedNoiseFheUint};
use crate::error::{Error, Result};
use crate::high_level::global_state::current_server_key;
use crate::high_level::keys::tag::KeyTag;
use crate::integer::noise_squashing::SquashedNoiseRadixCiphertext;
use crate::shortint::{CompressedSquashedNoiseBlockList, SquashedNoiseBlock};

/// What a slot of a [`CompressedSquashedNoiseCiphertextList`] holds (TFHE-rs's
/// `DataKind`, counted in blocks before packing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SquashedKind {
    /// A squashed `FheUint` of this many blocks.
    Unsigned(usize),
    /// A squashed `FheInt` of this many blocks.
    Signed(usize),
    /// A squashed `FheBool`.
    Boolean,
}

impl SquashedKind {
    /// The squashed (packed) blocks of the value.
    pub(crate) fn squashed_blocks(self) -> usize {
        match self {
            Self::Unsigned(n) | Self::Signed(n) => n.div_ceil(2),
            Self::Boolean => 1,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Unsigned(_) => "SquashedNoiseFheUint",
            Self::Signed(_) => "SquashedNoiseFheInt",
            Self::Boolean => "SquashedNoiseFheBool",
        }
    }
}

/// Squashed values packed together (TFHE-rs's type of this name). Build one with
/// [`CompressedSquashedNoiseCiphertextList::builder`]; take values out with
/// [`CompressedSquashedNoiseCiphertextList::get`]. Serialized in TFHE-rs's form
/// by [`crate::safe_serialization`].
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::shortint::{
///     NOISE_SQUASHING_COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP,
///     NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_NS,
///     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS,
/// };
/// use gpufhe::{generate_keys, set_server_key, CompressedSquashedNoiseCiphertextList, ConfigBuilder};
/// use gpufhe::{FheBool, FheInt8, FheUint8, SquashedNoiseFheBool, SquashedNoiseFheInt, SquashedNoiseFheUint};
/// let config = ConfigBuilder::default()
///     .with_insecure_custom_parameters(TEST_PARAMS)?
///     .enable_noise_squashing(TEST_NS)
///     .enable_noise_squashing_compression(TEST_COMP);
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let list = CompressedSquashedNoiseCiphertextList::builder()
///     .push(FheUint8::encrypt(200u8, &client_key).squash_noise()?)
///     .push(FheInt8::encrypt(-3i8, &client_key).squash_noise()?)
///     .push(FheBool::encrypt(true, &client_key).squash_noise()?)
///     .build()?;
/// assert_eq!(list.len(), 3);
/// let a: SquashedNoiseFheUint = list.get(0)?.unwrap();
/// let b: SquashedNoiseFheInt = list.get(1)?.unwrap();
/// let c: SquashedNoiseFheBool = list.get(2)?.unwrap();
/// let (a, b, c): (u8, i8, bool) = (a.decrypt(&client_key), b.decrypt(&client_key), c.decrypt(&client_key));
/// assert_eq!((a, b, c), (200, -3, true));
/// assert!(list.get::<SquashedNoiseFheBool>(0).is_err()); // another kind
/// assert!(list.get::<SquashedNoiseFheBool>(3)?.is_none()); // past the end
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompressedSquashedNoiseCiphertextList {
    pub(crate) list: CompressedSquashedNoiseBlockList,
    pub(crate) info: Vec<SquashedKind>,
    pub(crate) tag: KeyTag,
}

impl CompressedSquashedNoiseCiphertextList {
    /// A builder of a list (as TFHE-rs's).
    pub fn builder() -> CompressedSquashedNoiseCiphertextListBuilder {
        CompressedSquashedNoiseCiphertextListBuilder::new()
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.info.len()
    }

    /// Whether it holds no value.
    pub fn is_empty(&self) -> bool {
        self.info.is_empty()
    }

    /// The tag of the key it was built with.
    pub fn tag(&self) -> KeyTag {
        self.tag
    }

    /// `Err` unless the slots hold as many squashed blocks as the packed list.
    pub(crate) fn validate(&self) -> Result<()> {
        self.list.validate()?;
        let blocks = self
            .info
            .iter()
            .try_fold(0usize, |n, k| n.checked_add(k.squashed_blocks()));
        if blocks != Some(self.list.len()) {
            return Err(Error::InvalidParameter(format!(
                "a compressed squashed list whose {} values do not hold its {} squashed blocks",
                self.info.len(),
                self.list.len()
            )));
        }
        Ok(())
    }

    /// Value `index` (a [`SquashedNoiseFheUint`], [`SquashedNoiseFheInt`] or
    /// [`SquashedNoiseFheBool`]): `Ok(None)` past the end, `Err` if the slot holds
    /// another kind of value or the list is malformed.
    pub fn get<T: SquashedNoiseExpandable>(&self, index: usize) -> Result<Option<T>> {
        self.validate()?;
        let Some(&kind) = self.info.get(index) else {
            return Ok(None);
        };
        let start: usize = self.info[..index].iter().map(|k| k.squashed_blocks()).sum();
        let blocks = (start..start + kind.squashed_blocks())
            .map(|i| {
                self.list
                    .unpack(i)?
                    .ok_or_else(|| Error::InvalidParameter("a truncated squashed list".into()))
            })
            .collect::<Result<Vec<_>>>()?;
        T::from_blocks(blocks, kind, self.tag).map(Some)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::SquashedNoiseFheUint {}
    impl Sealed for super::SquashedNoiseFheInt {}
    impl Sealed for super::SquashedNoiseFheBool {}
}

/// The squashed values a [`CompressedSquashedNoiseCiphertextList`] holds.
pub trait SquashedNoiseExpandable: Sized + sealed::Sealed {
    #[doc(hidden)]
    fn from_blocks(
        blocks: Vec<SquashedNoiseBlock>,
        kind: SquashedKind,
        tag: KeyTag,
    ) -> Result<Self>;
}

/// The squashed values a [`CompressedSquashedNoiseCiphertextListBuilder`] takes.
pub trait SquashedNoiseCompressible: sealed::Sealed {
    #[doc(hidden)]
    fn into_blocks(self) -> Option<(Vec<SquashedNoiseBlock>, SquashedKind, KeyTag, bool)>;
}

fn wrong_kind(tried: &str, kind: SquashedKind) -> Error {
    Error::InvalidParameter(format!(
        "tried to take a {tried} out of a compressed squashed list slot holding a {}",
        kind.name()
    ))
}

macro_rules! squashed_radix_list {
    ($ty:ident, $kind:ident) => {
        impl SquashedNoiseExpandable for $ty {
            fn from_blocks(
                packed_blocks: Vec<SquashedNoiseBlock>,
                kind: SquashedKind,
                tag: KeyTag,
            ) -> Result<Self> {
                let SquashedKind::$kind(original_block_count) = kind else {
                    return Err(wrong_kind(stringify!($ty), kind));
                };
                Ok(Self {
                    inner: SquashedNoiseRadixCiphertext {
                        packed_blocks,
                        original_block_count,
                    },
                    tag,
                    post_decompression: true,
                })
            }
        }

        impl SquashedNoiseCompressible for $ty {
            fn into_blocks(self) -> Option<(Vec<SquashedNoiseBlock>, SquashedKind, KeyTag, bool)> {
                let n = self.inner.original_block_count;
                (n != 0).then(|| {
                    (
                        self.inner.packed_blocks,
                        SquashedKind::$kind(n),
                        self.tag,
                        self.post_decompression,
                    )
                })
            }
        }
    };
}

squashed_radix_list!(SquashedNoiseFheUint, Unsigned);
squashed_radix_list!(SquashedNoiseFheInt, Signed);

impl SquashedNoiseExpandable for SquashedNoiseFheBool {
    fn from_blocks(
        mut blocks: Vec<SquashedNoiseBlock>,
        kind: SquashedKind,
        tag: KeyTag,
    ) -> Result<Self> {
        match (kind, blocks.pop()) {
            (SquashedKind::Boolean, Some(inner)) => Ok(Self {
                inner,
                tag,
                post_decompression: true,
            }),
            _ => Err(wrong_kind("SquashedNoiseFheBool", kind)),
        }
    }
}

impl SquashedNoiseCompressible for SquashedNoiseFheBool {
    fn into_blocks(self) -> Option<(Vec<SquashedNoiseBlock>, SquashedKind, KeyTag, bool)> {
        Some((
            vec![self.inner],
            SquashedKind::Boolean,
            self.tag,
            self.post_decompression,
        ))
    }
}

/// The builder of a [`CompressedSquashedNoiseCiphertextList`] (TFHE-rs's type of
/// this name): [`push`](Self::push) squashed values, then [`build`](Self::build)
/// with the thread's server key.
#[derive(Debug, Default)]
pub struct CompressedSquashedNoiseCiphertextListBuilder {
    values: Vec<(Vec<SquashedNoiseBlock>, SquashedKind, KeyTag, bool)>,
}

impl CompressedSquashedNoiseCiphertextListBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a squashed value (a squashed integer of no bits adds nothing, as in
    /// TFHE-rs).
    pub fn push<T: SquashedNoiseCompressible>(&mut self, value: T) -> &mut Self {
        if let Some(v) = value.into_blocks() {
            self.values.push(v);
        }
        self
    }

    /// Packs the values with the thread's server key; `Err` without one, with one
    /// that has no noise-squashing compression key, for values of another key, or
    /// values already taken out of a compressed list.
    pub fn build(&self) -> Result<CompressedSquashedNoiseCiphertextList> {
        let server_key = current_server_key()?;
        let key = server_key
            .noise_squashing_compression_key()
            .get()
            .cloned()
            .ok_or_else(|| {
                Error::InvalidParameter(
                    "the server key has no noise-squashing compression key (enable it with \
                     ConfigBuilder::enable_noise_squashing_compression)"
                        .into(),
                )
            })?;
        let mut blocks = Vec::new();
        let mut info = Vec::with_capacity(self.values.len());
        for (value_blocks, kind, tag, post_decompression) in &self.values {
            server_key.tag().check(
                "a squashed value of the list (it was squashed under another key)",
                *tag,
            )?;
            if *post_decompression {
                return Err(Error::InvalidParameter(
                    "a squashed value taken out of a compressed list cannot be compressed \
                     again (it is under the compression key)"
                        .into(),
                ));
            }
            blocks.extend_from_slice(value_blocks);
            info.push(*kind);
        }
        Ok(CompressedSquashedNoiseCiphertextList {
            list: key.compress(&blocks)?,
            info,
            tag: server_key.tag(),
        })
    }
}
