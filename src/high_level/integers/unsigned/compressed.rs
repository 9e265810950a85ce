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
//!   ([`FheUint::compress`](crate::FheUint::compress)): each block keyswitched to the small key and
//!   modulus-switched to `2N`, at `log2(2N)` bits per coefficient
//!   ([`shortint::ModulusSwitchedBlocks`], 11.9× smaller on the default
//!   parameters); decompression bootstraps each block, so it needs the server key
//!   of the thread too. Both run on the host, also with a GPU server key (whose host
//!   copy is then expanded once). To compress many values at once, prefer a
//!   [`CompressedCiphertextList`](crate::CompressedCiphertextList).

use super::base::{check_fits, wrap_to_bits, FheUint, FheUintId, UnsignedClear};
use super::static_::unsigned_widths;
use super::static_::*;
use crate::error::Result;
use crate::high_level::internals::compressed::CompressedStorage;
use crate::high_level::internals::expect_op;
use crate::high_level::keys::client::ClientKey;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::serialization::conformance::{
    ConformanceParams, Conformant, VALUE_SIZE_LIMIT,
};
use crate::high_level::traits::{FheEncrypt, FheTryEncrypt};
use crate::serialization::codec::SafeSerialization;
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

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
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = generate_keys(config);
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
    pub(crate) fn from_storage(storage: CompressedStorage) -> Self {
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
        let value = value.to_wide();
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
        let value = wrap_to_bits(value.to_wide(), Id::BITS);
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
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = generate_keys(config);
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

impl<Id: FheUintId> CompressedFheUint<Id> {
    pub(crate) fn compressed_storage(&self) -> &CompressedStorage {
        &self.storage
    }
}

/// One alias per width, its TFHE-rs conformance-parameters name and its
/// [`SafeSerialization`] name.
macro_rules! compressed_types {
    ($($name:ident, $params:ident, $ty:ident, $id:ident, $plain:ident;)*) => {$(
        #[doc = concat!(
            "An [`", stringify!($plain), "`](crate::", stringify!($plain),
            ") encrypted with a seed (see [`",
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
pub(crate) use compressed_types;

/// The compressed alias of each width.
macro_rules! compressed_aliases {
    ($($name:ident, $id:ident, $bits:expr, $clear:ty, $c:ident, $p:ident, $cp:ident;)*) => {
        compressed_types! {
            $($c, $cp, CompressedFheUint, $id, $name;)*
        }
    };
}
unsigned_widths!(compressed_aliases);
