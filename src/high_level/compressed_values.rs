//! Single compressed values, as TFHE-rs users write them: [`CompressedFheUint`],
//! [`CompressedFheInt`] and [`CompressedFheBool`]. They come two ways:
//!
//! - **encrypted with a seed** by the client key (`CompressedFheUint64::encrypt`):
//!   each block is stored as its body alone, the masks of all the blocks of a value
//!   drawn one after the other from one 32-byte seed ([`shortint::SeededBlocks`]),
//!   which decompression expands again, with no key. A value is about `k N + 1`
//!   times smaller than the value it stands for: on the default parameters a
//!   `CompressedFheUint64` takes 364 bytes serialized with
//!   [`safe_serialize`](crate::serialization::safe_serialize), its `FheUint64`
//!   525,866 (1,445×).
//! - **compressed after a computation** by the server key of the thread
//!   ([`FheUint::compress`]): each block keyswitched to the small key and
//!   modulus-switched to `2N`, at `log2(2N)` bits per coefficient
//!   ([`shortint::ModulusSwitchedBlocks`], 11.9× smaller on the default
//!   parameters); decompression bootstraps each block, so it needs the server key
//!   of the thread too. Both run on the host, also with a GPU server key (whose host
//!   copy is then expanded once). To compress many values at once, prefer a
//!   [`CompressedCiphertextList`](crate::CompressedCiphertextList).

use super::config::block_count;
use super::conformance::{ConformanceParams, Conformant, VALUE_SIZE_LIMIT};
use super::fhe_bool::FheBool;
use super::fhe_int::{check_signed_fits, twos_complement, FheInt, FheIntId, SignedClear};
use super::fhe_int::{FheInt128Id, FheInt16Id, FheInt32Id, FheInt64Id, FheInt8Id};
use super::fhe_uint::{check_fits, wrap_to_bits, FheUint, FheUintId, UnsignedClear};
use super::fhe_uint::{
    FheUint10Id, FheUint128Id, FheUint12Id, FheUint14Id, FheUint16Id, FheUint256Id, FheUint2Id,
    FheUint32Id, FheUint4Id, FheUint64Id, FheUint6Id, FheUint8Id,
};
use super::global_state::current_server_key;
use super::keys::{ClientKey, KeyTag};
use super::storage::{check_block_layout, Input, Storage};
use super::traits::{expect_op, FheEncrypt, FheTryEncrypt};
use crate::error::{check_eq, Error, Result};
use crate::integer::{clear_digits, U256};
use crate::scheduler::Blocks;
use crate::serialization::codec::SafeSerialization;
use crate::shortint::{ModulusSwitchedBlocks, SeededBlocks};
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

/// The blocks of a compressed value.
#[derive(Debug, Clone, Serialize, Deserialize)]
enum CompressedBlocks {
    /// Encrypted with a seed by the client key.
    Seeded(SeededBlocks),
    /// Compressed by the server key after a computation.
    ModulusSwitched(ModulusSwitchedBlocks),
}

/// The content of a compressed value: its blocks, under a client key's tag.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct CompressedStorage {
    tag: KeyTag,
    blocks: CompressedBlocks,
}

impl CompressedStorage {
    /// The low `bits` bits of `value` (which the caller checked or wrapped),
    /// encrypted with a fresh seed.
    fn encrypt(key: &ClientKey, value: U256, bits: u32) -> Result<Self> {
        let p = key.shortint_key().parameters();
        let digits = clear_digits(value, p.message_modulus, block_count(p, bits));
        Ok(Self {
            tag: key.tag(),
            blocks: CompressedBlocks::Seeded(SeededBlocks::encrypt(key.shortint_key(), &digits)?),
        })
    }

    /// `input` compressed by the server key of the thread; `Err` for a trivial value,
    /// without a server key, or for a value of another key or other parameters.
    fn compress(input: Input<'_>) -> Result<Self> {
        let (tag, blocks) = match input.storage {
            Storage::Encrypted { tag, blocks } => (*tag, blocks),
            Storage::Trivial(_) => {
                return Err(Error::InvalidParameter(
                    "a trivial value belongs to no key and has nothing to compress".into(),
                ))
            }
        };
        let key = current_server_key()?;
        key.circuit_inputs(&[input])?;
        let host = key.scheduler().host_key();
        let blocks = host.switch_modulus_and_compress(&blocks.to_cpu()?)?;
        Ok(Self {
            tag,
            blocks: CompressedBlocks::ModulusSwitched(blocks),
        })
    }

    /// The blocks of a `bits`-bit value: masks regenerated from the seed, or
    /// bootstrapped with the server key of the thread (`Err` without one, or with
    /// another key's).
    fn decompress(&self, bits: u32) -> Result<Storage> {
        let mut blocks = match &self.blocks {
            CompressedBlocks::Seeded(blocks) => blocks.decompress()?,
            CompressedBlocks::ModulusSwitched(blocks) => {
                let key = current_server_key()?;
                let what = "the compressed value (decompress it with its own server key)";
                key.tag().check(what, self.tag)?;
                key.scheduler()
                    .host_key()
                    .decompress_modulus_switched(blocks)?
            }
        };
        if bits == 1 {
            // A boolean block holds 0 or 1: its public bound says so.
            blocks[0].degree = 1;
        }
        Ok(Storage::Encrypted {
            tag: self.tag,
            blocks: Blocks::cpu(blocks),
        })
    }

    /// The moduli and the number of the blocks.
    fn layout(&self) -> (u64, u64, usize) {
        match &self.blocks {
            CompressedBlocks::Seeded(b) => (b.message_modulus(), b.carry_modulus(), b.len()),
            CompressedBlocks::ModulusSwitched(b) => {
                (b.message_modulus(), b.carry_modulus(), b.len())
            }
        }
    }

    /// `Err` unless the blocks are those of a `bits`-bit value.
    fn validate(&self, bits: u32) -> Result<()> {
        match &self.blocks {
            CompressedBlocks::Seeded(b) => b.validate()?,
            CompressedBlocks::ModulusSwitched(b) => b.validate()?,
        }
        let (m, carry, count) = self.layout();
        check_block_layout(m, carry, bits, count)
    }

    /// `Err` unless the blocks are those of a `bits`-bit value of `params` (and of
    /// its key, if it names one).
    fn conforms_to(&self, params: &ConformanceParams, bits: u32) -> Result<()> {
        params.check_tag("the compressed value", Some(self.tag))?;
        let p = params.config().parameters();
        match &self.blocks {
            CompressedBlocks::Seeded(b) => b.check_parameters(p)?,
            CompressedBlocks::ModulusSwitched(b) => b.check_parameters(p)?,
        }
        check_eq(
            "number of blocks for these parameters",
            block_count(p, bits),
            self.layout().2,
        )
    }

    /// The host bytes decompressing seeded blocks allocates (0 for modulus-switched
    /// blocks: they decompress into blocks of the server key's parameters).
    fn expanded_bytes(&self) -> u64 {
        match &self.blocks {
            CompressedBlocks::Seeded(b) => b.expanded_bytes(),
            CompressedBlocks::ModulusSwitched(_) => 0,
        }
    }

    /// Reads a `bits`-bit value and checks it.
    fn deserialize_checked<'de, D: serde::Deserializer<'de>>(
        d: D,
        bits: u32,
    ) -> std::result::Result<Self, D::Error> {
        let storage = Self::deserialize(d)?;
        storage.validate(bits).map_err(serde::de::Error::custom)?;
        Ok(storage)
    }
}

/// A compressed [`FheUint`]: encrypted with a seed by the [`ClientKey`] (its blocks'
/// bodies and one 32-byte seed for all their masks, about `k N + 1` times smaller),
/// or compressed after a computation by [`FheUint::compress`] (see the module
/// docs). [`CompressedFheUint::decompress`] gives the `FheUint` to compute with. Use
/// the aliases [`CompressedFheUint2`] ... [`CompressedFheUint256`]; they encrypt the
/// clear types their `FheUint` takes.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::serialization::{safe_deserialize, safe_serialize};
/// use gpufhe::{generate_keys, set_server_key, CompressedFheUint32, ConfigBuilder};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// let compressed = CompressedFheUint32::encrypt(u32::MAX, &client_key);
/// let mut bytes = Vec::new();
/// safe_serialize(&compressed, &mut bytes, 1 << 20)?;
/// assert!(bytes.len() < 500); // an FheUint32 takes 262 KiB
/// // The server:
/// let received: CompressedFheUint32 = safe_deserialize(bytes.as_slice(), 1 << 20)?;
/// set_server_key(server_key);
/// let sum = received.decompress() + 2u32;
/// let clear: u32 = sum.decrypt(&client_key);
/// assert_eq!(clear, 1);
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub struct CompressedFheUint<Id: FheUintId> {
    storage: CompressedStorage,
    id: PhantomData<Id>,
}

impl<Id: FheUintId> Clone for CompressedFheUint<Id> {
    fn clone(&self) -> Self {
        Self::from_storage(self.storage.clone())
    }
}

impl<Id: FheUintId> std::fmt::Debug for CompressedFheUint<Id> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Compressed{} {{ tag: {}, .. }}", Id::NAME, self.tag())
    }
}

impl<Id: FheUintId> CompressedFheUint<Id> {
    fn from_storage(storage: CompressedStorage) -> Self {
        Self {
            storage,
            id: PhantomData,
        }
    }

    /// The tag of the client key it was encrypted under, which the decompressed
    /// value carries.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheUint8, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = CompressedFheUint8::encrypt(3u8, &client_key);
    /// assert_eq!(x.tag(), client_key.tag());
    /// assert_eq!(x.decompress().tag(), Some(client_key.tag()));
    /// ```
    pub fn tag(&self) -> KeyTag {
        self.storage.tag
    }

    /// The [`FheUint`] it stands for: its masks regenerated from the seed (no key
    /// needed), or, for a value of [`FheUint::compress`], its blocks bootstrapped with
    /// the server key of the thread.
    ///
    /// # Panics
    ///
    /// If [`CompressedFheUint::try_decompress`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheUint16, ConfigBuilder, FheUint16};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x: FheUint16 = CompressedFheUint16::encrypt(12_837u16, &client_key).decompress();
    /// let clear: u16 = x.decrypt(&client_key);
    /// assert_eq!(clear, 12_837);
    /// ```
    #[track_caller]
    pub fn decompress(&self) -> FheUint<Id> {
        expect_op(self.try_decompress(), "decompress")
    }

    /// [`CompressedFheUint::decompress`], with `Err(OutOfMemory)` instead of a panic
    /// when the host cannot reserve the memory of the blocks (checked before
    /// anything is allocated: a value read from untrusted bytes may claim a large
    /// LWE size), and, for a value of [`FheUint::compress`], `Err(NoServerKey)`
    /// without a server key on the thread and `Err(KeyMismatch)` with another key's.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheUint8, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = CompressedFheUint8::encrypt(200u8, &client_key).try_decompress()?;
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 200);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_decompress(&self) -> Result<FheUint<Id>> {
        Ok(FheUint::from_storage(self.storage.decompress(Id::BITS)?))
    }

    /// `Err` unless the value is well formed: moduli that are powers of two and as
    /// many blocks as `Id::BITS` needs with them (the LWE size is checked when it is
    /// read). Deserialization runs it; whether the value belongs to a configuration
    /// is [`Conformant::conforms_to`].
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheUint64, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// assert!(CompressedFheUint64::encrypt(1u64, &client_key).validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.storage.validate(Id::BITS)
    }
}

impl<Id: FheUintId, T: UnsignedClear> FheTryEncrypt<T, ClientKey> for CompressedFheUint<Id> {
    /// `Err` if `value` has more than `Id::BITS` bits.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheUint8, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = CompressedFheUint8::try_encrypt(255u64, &client_key).unwrap();
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&x.decompress(), &client_key), 255);
    /// assert!(CompressedFheUint8::try_encrypt(256u64, &client_key).is_err());
    /// ```
    fn try_encrypt(value: T, key: &ClientKey) -> Result<Self> {
        let value = value.to_u256();
        check_fits(value, Id::BITS, Id::NAME)?;
        CompressedStorage::encrypt(key, value, Id::BITS).map(Self::from_storage)
    }
}

impl<Id: FheUintId, T: UnsignedClear> FheEncrypt<T, ClientKey> for CompressedFheUint<Id> {
    /// Encrypts the low `Id::BITS` bits of `value` (like `value as u8` for
    /// [`CompressedFheUint8`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheUint8, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = CompressedFheUint8::encrypt(0x1234u16, &client_key);
    /// assert_eq!(FheDecrypt::<u8>::decrypt(&x.decompress(), &client_key), 0x34);
    /// ```
    #[track_caller]
    fn encrypt(value: T, key: &ClientKey) -> Self {
        let value = wrap_to_bits(value.to_u256(), Id::BITS);
        expect_op(
            CompressedStorage::encrypt(key, value, Id::BITS).map(Self::from_storage),
            "encrypt",
        )
    }
}

/// Writes the key tag, the moduli, the seed and the bodies.
impl<Id: FheUintId> Serialize for CompressedFheUint<Id> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.storage.serialize(s)
    }
}

/// Runs [`CompressedFheUint::validate`] on what was read.
impl<'de, Id: FheUintId> Deserialize<'de> for CompressedFheUint<Id> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        CompressedStorage::deserialize_checked(d, Id::BITS).map(Self::from_storage)
    }
}

impl<Id: FheUintId> Conformant for CompressedFheUint<Id> {
    /// Blocks of the configuration's parameters, as many as `Id::BITS` needs, and if a
    /// key was given, its tag.
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        self.storage.conforms_to(params, Id::BITS)
    }
}

/// A compressed [`FheInt`], as [`CompressedFheUint`] is a compressed [`FheUint`]
/// (two's complement on the same blocks): encrypted with a seed by the client key,
/// or compressed by [`FheInt::compress`]. Use the aliases [`CompressedFheInt8`] ...
/// [`CompressedFheInt128`].
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, CompressedFheInt16, ConfigBuilder};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let x = CompressedFheInt16::encrypt(-300i16, &client_key).decompress();
/// let y: i16 = (&x * 3i16).decrypt(&client_key);
/// assert_eq!(y, -900);
/// assert!(CompressedFheInt16::try_encrypt(40_000i32, &client_key).is_err());
/// ```
pub struct CompressedFheInt<Id: FheIntId> {
    inner: CompressedFheUint<Id::Unsigned>,
}

impl<Id: FheIntId> Clone for CompressedFheInt<Id> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

impl<Id: FheIntId> std::fmt::Debug for CompressedFheInt<Id> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Compressed{} {{ tag: {}, .. }}", Id::NAME, self.tag())
    }
}

impl<Id: FheIntId> CompressedFheInt<Id> {
    /// The tag of the client key it was encrypted under.
    pub fn tag(&self) -> KeyTag {
        self.inner.tag()
    }

    /// The [`FheInt`] it stands for (see [`CompressedFheUint::decompress`]).
    ///
    /// # Panics
    ///
    /// If [`CompressedFheInt::try_decompress`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheInt64, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = CompressedFheInt64::encrypt(i64::MIN, &client_key).decompress();
    /// assert_eq!(FheDecrypt::<i64>::decrypt(&x, &client_key), i64::MIN);
    /// ```
    #[track_caller]
    pub fn decompress(&self) -> FheInt<Id> {
        expect_op(self.try_decompress(), "decompress")
    }

    /// [`CompressedFheInt::decompress`], with `Err` instead of a panic (see
    /// [`CompressedFheUint::try_decompress`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheInt32, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = CompressedFheInt32::encrypt(-5i32, &client_key);
    /// assert!(x.validate().is_ok());
    /// assert_eq!(x.tag(), client_key.tag());
    /// assert_eq!(FheDecrypt::<i32>::decrypt(&x.try_decompress()?, &client_key), -5);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_decompress(&self) -> Result<FheInt<Id>> {
        self.inner.try_decompress().map(FheInt::from_inner)
    }

    /// `Err` unless the value is well formed (see [`CompressedFheUint::validate`]).
    pub fn validate(&self) -> Result<()> {
        self.inner.validate()
    }
}

impl<Id: FheIntId, T: SignedClear> FheTryEncrypt<T, ClientKey> for CompressedFheInt<Id> {
    /// `Err` if `value` is out of the range of the type.
    fn try_encrypt(value: T, key: &ClientKey) -> Result<Self> {
        let (value, bits) = (value.to_i128(), FheInt::<Id>::bits());
        check_signed_fits(value, bits, Id::NAME)?;
        let inner = CompressedStorage::encrypt(key, twos_complement(value, bits), bits)?;
        Ok(Self {
            inner: CompressedFheUint::from_storage(inner),
        })
    }
}

impl<Id: FheIntId, T: SignedClear> FheEncrypt<T, ClientKey> for CompressedFheInt<Id> {
    /// Encrypts the low bits of `value` (like `value as i8` for
    /// [`CompressedFheInt8`]).
    #[track_caller]
    fn encrypt(value: T, key: &ClientKey) -> Self {
        let bits = FheInt::<Id>::bits();
        let inner = CompressedStorage::encrypt(key, twos_complement(value.to_i128(), bits), bits);
        Self {
            inner: CompressedFheUint::from_storage(expect_op(inner, "encrypt")),
        }
    }
}

/// Writes the key tag, the moduli, the seed and the bodies.
impl<Id: FheIntId> Serialize for CompressedFheInt<Id> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.inner.serialize(s)
    }
}

/// Runs [`CompressedFheInt::validate`] on what was read.
impl<'de, Id: FheIntId> Deserialize<'de> for CompressedFheInt<Id> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        CompressedFheUint::deserialize(d).map(|inner| Self { inner })
    }
}

impl<Id: FheIntId> Conformant for CompressedFheInt<Id> {
    /// As [`CompressedFheUint`]'s.
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        self.inner.conforms_to(params)
    }
}

/// A compressed [`FheBool`]: encrypted with a seed by the client key (one block's
/// body and the seed of its mask), or compressed by [`FheBool::compress`].
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, CompressedFheBool, ConfigBuilder};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = CompressedFheBool::encrypt(true, &client_key).decompress();
/// let b = CompressedFheBool::try_encrypt(false, &client_key).unwrap().try_decompress().unwrap();
/// assert!((&a ^ &b).decrypt(&client_key));
/// assert_eq!(CompressedFheBool::encrypt(true, &client_key).tag(), client_key.tag());
/// ```
#[derive(Clone)]
pub struct CompressedFheBool {
    storage: CompressedStorage,
}

impl std::fmt::Debug for CompressedFheBool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CompressedFheBool {{ tag: {}, .. }}", self.tag())
    }
}

impl CompressedFheBool {
    /// The tag of the client key it was encrypted under.
    pub fn tag(&self) -> KeyTag {
        self.storage.tag
    }

    /// The [`FheBool`] it stands for (see [`CompressedFheUint::decompress`]).
    ///
    /// # Panics
    ///
    /// If [`CompressedFheBool::try_decompress`] fails.
    #[track_caller]
    pub fn decompress(&self) -> FheBool {
        expect_op(self.try_decompress(), "decompress")
    }

    /// [`CompressedFheBool::decompress`], with `Err` instead of a panic (see
    /// [`CompressedFheUint::try_decompress`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, CompressedFheBool, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = CompressedFheBool::encrypt(true, &client_key);
    /// assert!(x.validate().is_ok());
    /// assert!(x.try_decompress()?.decrypt(&client_key));
    /// assert!(x.decompress().decrypt(&client_key));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_decompress(&self) -> Result<FheBool> {
        Ok(FheBool::from_storage(self.storage.decompress(1)?))
    }

    /// `Err` unless the value is well formed: one block, moduli that are powers of
    /// two.
    pub fn validate(&self) -> Result<()> {
        self.storage.validate(1)
    }
}

impl FheTryEncrypt<bool, ClientKey> for CompressedFheBool {
    /// Never fails for a well-formed key (unless the OS random source fails).
    fn try_encrypt(value: bool, key: &ClientKey) -> Result<Self> {
        let storage = CompressedStorage::encrypt(key, value.into(), 1)?;
        Ok(Self { storage })
    }
}

impl FheEncrypt<bool, ClientKey> for CompressedFheBool {
    #[track_caller]
    fn encrypt(value: bool, key: &ClientKey) -> Self {
        expect_op(Self::try_encrypt(value, key), "encrypt")
    }
}

/// Writes the key tag, the moduli, the seed and the body.
impl Serialize for CompressedFheBool {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.storage.serialize(s)
    }
}

/// Runs [`CompressedFheBool::validate`] on what was read.
impl<'de> Deserialize<'de> for CompressedFheBool {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        CompressedStorage::deserialize_checked(d, 1).map(|storage| Self { storage })
    }
}

impl Conformant for CompressedFheBool {
    /// One block of the configuration's parameters and, if a key was given, its tag.
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        self.storage.conforms_to(params, 1)
    }
}

impl<Id: FheUintId> FheUint<Id> {
    /// The value compressed by the server key of the thread: each block keyswitched
    /// to the small key and modulus-switched to `2N` (11.9× smaller on the default
    /// parameters; see the module docs). Its decompression bootstraps each block with
    /// the server key.
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_compress`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, CompressedFheUint16, ConfigBuilder, FheUint16};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let x = FheUint16::encrypt(1234u16, &client_key) * 3u16;
    /// let compressed: CompressedFheUint16 = x.compress();
    /// let clear: u16 = compressed.decompress().decrypt(&client_key);
    /// assert_eq!(clear, 3702);
    /// ```
    #[track_caller]
    pub fn compress(&self) -> CompressedFheUint<Id> {
        expect_op(self.try_compress(), "compress")
    }

    /// [`FheUint::compress`]; `Err` without a server key on the thread, for a value
    /// of another key or other parameters, and for a trivial value (which belongs to
    /// no key).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, ConfigBuilder, Error, FheUint8};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = FheUint8::encrypt(1u8, &client_key);
    /// // No server key on this thread.
    /// assert!(matches!(x.try_compress(), Err(Error::NoServerKey)));
    /// assert!(FheUint8::encrypt_trivial(1u8).try_compress().is_err());
    /// ```
    pub fn try_compress(&self) -> Result<CompressedFheUint<Id>> {
        CompressedStorage::compress(self.input()).map(CompressedFheUint::from_storage)
    }
}

impl<Id: FheIntId> FheInt<Id> {
    /// The value compressed by the server key of the thread (see
    /// [`FheUint::compress`]).
    ///
    /// # Panics
    ///
    /// If [`FheInt::try_compress`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let x = -FheInt8::encrypt(100i8, &client_key);
    /// let back: i8 = x.compress().decompress().decrypt(&client_key);
    /// assert_eq!(back, -100);
    /// ```
    #[track_caller]
    pub fn compress(&self) -> CompressedFheInt<Id> {
        expect_op(self.try_compress(), "compress")
    }

    /// [`FheInt::compress`]; `Err` as [`FheUint::try_compress`].
    pub fn try_compress(&self) -> Result<CompressedFheInt<Id>> {
        self.as_unsigned()
            .try_compress()
            .map(|inner| CompressedFheInt { inner })
    }
}

impl FheBool {
    /// The value compressed by the server key of the thread (see
    /// [`FheUint::compress`]).
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_compress`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let lt = FheUint8::encrypt(3u8, &client_key).lt(7u8);
    /// assert!(lt.compress().decompress().decrypt(&client_key));
    /// assert!(gpufhe::FheBool::encrypt_trivial(true).try_compress().is_err());
    /// ```
    #[track_caller]
    pub fn compress(&self) -> CompressedFheBool {
        expect_op(self.try_compress(), "compress")
    }

    /// [`FheBool::compress`]; `Err` as [`FheUint::try_compress`].
    pub fn try_compress(&self) -> Result<CompressedFheBool> {
        CompressedStorage::compress(self.input()).map(|storage| CompressedFheBool { storage })
    }
}

impl SafeSerialization for CompressedFheBool {
    const TYPE_NAME: &'static str = "CompressedFheBool";
    const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
    fn expanded_bytes(&self) -> u64 {
        self.storage.expanded_bytes()
    }
}

/// The [`ConformanceParams`] of a `CompressedFheBool` (TFHE-rs's name).
pub type CompressedFheBoolConformanceParams = ConformanceParams;

/// One alias per width, its TFHE-rs conformance-parameters name and its
/// [`SafeSerialization`] name.
macro_rules! compressed_types {
    ($($name:ident, $params:ident, $ty:ident, $id:ident, $plain:literal;)*) => {$(
        #[doc = concat!(
            "An [`", $plain, "`](crate::", $plain, ") encrypted with a seed (see [`",
            stringify!($ty), "`])."
        )]
        pub type $name = $ty<$id>;

        #[doc = concat!(
            "The [`ConformanceParams`] of a `", stringify!($name), "` (TFHE-rs's name)."
        )]
        pub type $params = ConformanceParams;

        impl SafeSerialization for $name {
            const TYPE_NAME: &'static str = stringify!($name);
            const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
            fn expanded_bytes(&self) -> u64 {
                self.compressed_storage().expanded_bytes()
            }
        }
    )*};
}

impl<Id: FheUintId> CompressedFheUint<Id> {
    fn compressed_storage(&self) -> &CompressedStorage {
        &self.storage
    }
}

impl<Id: FheIntId> CompressedFheInt<Id> {
    fn compressed_storage(&self) -> &CompressedStorage {
        self.inner.compressed_storage()
    }
}

compressed_types! {
    CompressedFheUint2, CompressedFheUint2ConformanceParams, CompressedFheUint, FheUint2Id, "FheUint2";
    CompressedFheUint4, CompressedFheUint4ConformanceParams, CompressedFheUint, FheUint4Id, "FheUint4";
    CompressedFheUint6, CompressedFheUint6ConformanceParams, CompressedFheUint, FheUint6Id, "FheUint6";
    CompressedFheUint8, CompressedFheUint8ConformanceParams, CompressedFheUint, FheUint8Id, "FheUint8";
    CompressedFheUint10, CompressedFheUint10ConformanceParams, CompressedFheUint, FheUint10Id, "FheUint10";
    CompressedFheUint12, CompressedFheUint12ConformanceParams, CompressedFheUint, FheUint12Id, "FheUint12";
    CompressedFheUint14, CompressedFheUint14ConformanceParams, CompressedFheUint, FheUint14Id, "FheUint14";
    CompressedFheUint16, CompressedFheUint16ConformanceParams, CompressedFheUint, FheUint16Id, "FheUint16";
    CompressedFheUint32, CompressedFheUint32ConformanceParams, CompressedFheUint, FheUint32Id, "FheUint32";
    CompressedFheUint64, CompressedFheUint64ConformanceParams, CompressedFheUint, FheUint64Id, "FheUint64";
    CompressedFheUint128, CompressedFheUint128ConformanceParams, CompressedFheUint, FheUint128Id, "FheUint128";
    CompressedFheUint256, CompressedFheUint256ConformanceParams, CompressedFheUint, FheUint256Id, "FheUint256";
    CompressedFheInt8, CompressedFheInt8ConformanceParams, CompressedFheInt, FheInt8Id, "FheInt8";
    CompressedFheInt16, CompressedFheInt16ConformanceParams, CompressedFheInt, FheInt16Id, "FheInt16";
    CompressedFheInt32, CompressedFheInt32ConformanceParams, CompressedFheInt, FheInt32Id, "FheInt32";
    CompressedFheInt64, CompressedFheInt64ConformanceParams, CompressedFheInt, FheInt64Id, "FheInt64";
    CompressedFheInt128, CompressedFheInt128ConformanceParams, CompressedFheInt, FheInt128Id, "FheInt128";
}
