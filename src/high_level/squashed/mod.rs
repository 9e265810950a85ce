//! Noise squashing at the high level (TFHE-rs 1.8's `SquashNoise`): a value is
//! bootstrapped into a 128-bit key ([`crate::shortint::NoiseSquashingKey`]) and comes
//! back as a [`SquashedNoiseFheUint`], [`SquashedNoiseFheInt`] or
//! [`SquashedNoiseFheBool`], with almost no noise, for threshold decryption; the
//! client key's noise-squashing private key decrypts it.
//!
//! A CPU key squashes on the CPU threads (the rayon pool, one task per pair of
//! blocks). A GPU key ([`crate::CudaServerKey`]) squashes on its first GPU: the pairs
//! are packed on the host, then one keyswitch and one 128-bit bootstrap launch
//! (`cuda/noise_squashing_bootstrap.cu`) squash them all; its noise-squashing key is
//! converted to that GPU on first use. It needs a server key whose configuration enables noise
//! squashing ([`crate::ConfigBuilder::enable_noise_squashing`]): without one, or for
//! a value of another key, [`SquashNoise::squash_noise`] returns an `Err`.

use crate::error::{Error, Result};
use crate::high_level::booleans::base::FheBool;
use crate::high_level::global_state::current_server_key;
use crate::high_level::integers::signed::base::{FheInt, FheIntId, SignedClear};
use crate::high_level::integers::unsigned::base::{FheUint, FheUintId, UnsignedClear};
use crate::high_level::internals::expect_op;
use crate::high_level::internals::storage::Storage;
use crate::high_level::keys::client::ClientKey;
use crate::high_level::keys::server::ServerKey;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::traits::{FheDecrypt, FheTryDecrypt};
use crate::integer::noise_squashing::{
    decrypt_squashed_radix, pack_radix_blocks, squash_radix_blocks, trivial_radix_blocks,
    SquashedNoiseRadixCiphertext,
};
use crate::integer::sign_extend_wide;
use crate::integer::U2048;
use crate::shortint::{self, SquashedNoiseBlock};

/// Squashing the noise of a value (TFHE-rs's trait of this name), with the thread's
/// server key.
pub trait SquashNoise {
    /// The squashed type.
    type Output;

    /// The value bootstrapped into the noise-squashing key; `Err` without a server
    /// key, with one whose configuration does not enable noise squashing, or for a
    /// value of another key.
    fn squash_noise(&self) -> Result<Self::Output>;
}

/// A squashed unsigned integer: pairs of blocks, each squashed into one 128-bit
/// ciphertext (TFHE-rs's `SquashedNoiseFheUint`). Serialized in TFHE-rs's form by
/// [`crate::safe_serialization`] (its serde form is gpufhe's own; what decryption
/// needs is checked when it decrypts).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SquashedNoiseFheUint {
    pub(crate) inner: SquashedNoiseRadixCiphertext,
    pub(crate) tag: KeyTag,
    /// Whether it comes out of a [`crate::CompressedSquashedNoiseCiphertextList`]
    /// (under the compression key: TFHE-rs's `PostDecompression` state).
    #[serde(default)]
    pub(crate) post_decompression: bool,
}

/// A squashed signed integer (TFHE-rs's `SquashedNoiseFheInt`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SquashedNoiseFheInt {
    pub(crate) inner: SquashedNoiseRadixCiphertext,
    pub(crate) tag: KeyTag,
    /// Whether it comes out of a [`crate::CompressedSquashedNoiseCiphertextList`]
    /// (under the compression key: TFHE-rs's `PostDecompression` state).
    #[serde(default)]
    pub(crate) post_decompression: bool,
}

/// A squashed boolean: one 128-bit ciphertext (TFHE-rs's `SquashedNoiseFheBool`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SquashedNoiseFheBool {
    pub(crate) inner: SquashedNoiseBlock,
    pub(crate) tag: KeyTag,
    /// Whether it comes out of a [`crate::CompressedSquashedNoiseCiphertextList`].
    #[serde(default)]
    pub(crate) post_decompression: bool,
}

/// The thread's server key and its noise-squashing key.
fn squashing_keys() -> Result<(ServerKey, std::sync::Arc<shortint::NoiseSquashingKey>)> {
    let server_key = current_server_key()?;
    let key = server_key
        .noise_squashing_key()
        .get()
        .cloned()
        .ok_or_else(|| {
            Error::InvalidParameter(
                "the server key has no noise-squashing key (enable it with \
             ConfigBuilder::enable_noise_squashing)"
                    .into(),
            )
        })?;
    Ok((server_key, key))
}

/// The blocks of `storage` (a value of `server_key`'s or a trivial one), `count`
/// of them.
fn blocks_of(
    server_key: &ServerKey,
    storage: &Storage,
    count: usize,
) -> Result<Vec<shortint::Ciphertext>> {
    let host = server_key.scheduler().host_key();
    let blocks = match storage {
        Storage::Trivial(value) => trivial_radix_blocks(host, **value, count)?,
        Storage::Encrypted { tag, blocks } => {
            server_key.tag().check(
                "the squashed value (it was encrypted under another key)",
                *tag,
            )?;
            blocks.to_cpu()?.into_owned()
        }
    };
    crate::error::check_eq(
        "number of blocks of the squashed value",
        count,
        blocks.len(),
    )?;
    Ok(blocks)
}

/// Squashes the `bits`-bit integer of `storage`.
fn squash_integer(storage: &Storage, bits: u32) -> Result<(SquashedNoiseRadixCiphertext, KeyTag)> {
    let (server_key, key) = squashing_keys()?;
    let count = server_key.config().block_count(bits);
    let blocks = blocks_of(&server_key, storage, count)?;
    let host = server_key.scheduler().host_key();
    let inner = match server_key.scheduler().gpu_backends().first() {
        Some(gpu) => SquashedNoiseRadixCiphertext {
            packed_blocks: gpu.squash_noise(&key, host, &pack_radix_blocks(host, &blocks)?)?,
            original_block_count: blocks.len(),
        },
        None => squash_radix_blocks(&key, host, &blocks)?,
    };
    Ok((inner, server_key.tag()))
}

impl<Id: FheUintId> SquashNoise for FheUint<Id> {
    type Output = SquashedNoiseFheUint;

    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # use gpufhe::shortint::NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_NS;
    /// // TEST_*: NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 and the
    /// // default blocks in real code (fast, insecure test parameters here).
    /// let config = ConfigBuilder::default()
    ///     .with_insecure_custom_parameters(TEST_PARAMS)?
    ///     .enable_noise_squashing(TEST_NS);
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let x = FheUint8::encrypt(201u8, &client_key);
    /// let squashed = (&x + 3u8).squash_noise()?;
    /// let back: u8 = squashed.decrypt(&client_key);
    /// assert_eq!(back, 204);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    fn squash_noise(&self) -> Result<SquashedNoiseFheUint> {
        let (inner, tag) = squash_integer(&self.storage, Id::BITS)?;
        Ok(SquashedNoiseFheUint {
            inner,
            tag,
            post_decompression: false,
        })
    }
}

impl<Id: FheIntId> SquashNoise for FheInt<Id> {
    type Output = SquashedNoiseFheInt;

    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt16};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # use gpufhe::shortint::NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_NS;
    /// let config = ConfigBuilder::default()
    ///     .with_insecure_custom_parameters(TEST_PARAMS)?
    ///     .enable_noise_squashing(TEST_NS);
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let squashed = FheInt16::encrypt(-1234i16, &client_key).squash_noise()?;
    /// let back: i16 = squashed.decrypt(&client_key);
    /// assert_eq!(back, -1234);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    fn squash_noise(&self) -> Result<SquashedNoiseFheInt> {
        let (inner, tag) = squash_integer(&self.inner.storage, FheInt::<Id>::bits())?;
        Ok(SquashedNoiseFheInt {
            inner,
            tag,
            post_decompression: false,
        })
    }
}

impl SquashNoise for FheBool {
    type Output = SquashedNoiseFheBool;

    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # use gpufhe::shortint::NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_NS;
    /// let config = ConfigBuilder::default()
    ///     .with_insecure_custom_parameters(TEST_PARAMS)?
    ///     .enable_noise_squashing(TEST_NS);
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let squashed = FheBool::encrypt(true, &client_key).squash_noise()?;
    /// assert!(squashed.decrypt(&client_key));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    fn squash_noise(&self) -> Result<SquashedNoiseFheBool> {
        let (server_key, key) = squashing_keys()?;
        let blocks = blocks_of(&server_key, &self.storage, 1)?;
        let host = server_key.scheduler().host_key();
        let inner = match server_key.scheduler().gpu_backends().first() {
            Some(gpu) => gpu.squash_noise(&key, host, &blocks)?.remove(0),
            None => key.squash(host, &blocks[0])?,
        };
        Ok(SquashedNoiseFheBool {
            inner,
            tag: server_key.tag(),
            post_decompression: false,
        })
    }
}

/// The client key's private key of a squashed value, after checking `tag`: its
/// noise-squashing key, or for a value out of a compressed list its compression key.
fn private_key(
    key: &ClientKey,
    tag: KeyTag,
    post_decompression: bool,
) -> Result<std::borrow::Cow<'_, shortint::NoiseSquashingPrivateKey>> {
    key.tag()
        .check("the squashed value (decrypt with its own client key)", tag)?;
    let squashing = key.noise_squashing_key().ok_or_else(|| {
        Error::InvalidParameter("the client key has no noise-squashing key".into())
    })?;
    if !post_decompression {
        return Ok(std::borrow::Cow::Borrowed(squashing));
    }
    let compression = key.noise_squashing_compression_key().ok_or_else(|| {
        Error::InvalidParameter(
            "the client key has no noise-squashing compression key (the squashed value comes \
             out of a compressed list)"
                .into(),
        )
    })?;
    Ok(std::borrow::Cow::Owned(
        compression.decryption_key(squashing),
    ))
}

macro_rules! squashed_integer {
    ($ty:ident, $clear:ident, $value:expr) => {
        impl $ty {
            /// The number of bits of the squashed integer (TFHE-rs's `num_bits`).
            pub fn num_bits(&self) -> usize {
                self.inner.original_block_count
                    * self
                        .inner
                        .packed_blocks
                        .first()
                        .map_or(0, |b| b.message_modulus().trailing_zeros() as usize)
            }

            /// The tag of the key it was squashed with.
            pub fn tag(&self) -> KeyTag {
                self.tag
            }
        }

        impl<T: $clear> FheTryDecrypt<T> for $ty {
            /// `Err` for a value of another key or a key without noise squashing.
            fn try_decrypt(&self, key: &ClientKey) -> Result<T> {
                let private = private_key(key, self.tag, self.post_decompression)?;
                let bits = decrypt_squashed_radix(&private, &self.inner)?;
                Ok(T::from_wide_wrapping($value(bits, self.num_bits() as u32)))
            }
        }

        impl<T: $clear> FheDecrypt<T> for $ty {
            /// The value, wrapped to `T` like an `as` cast.
            #[track_caller]
            fn decrypt(&self, key: &ClientKey) -> T {
                expect_op(self.try_decrypt(key), "decrypt")
            }
        }
    };
}

squashed_integer!(SquashedNoiseFheUint, UnsignedClear, |bits: U2048, _| bits);
squashed_integer!(SquashedNoiseFheInt, SignedClear, sign_extend_wide);

impl SquashedNoiseFheBool {
    /// The tag of the key it was squashed with.
    pub fn tag(&self) -> KeyTag {
        self.tag
    }
}

impl FheTryDecrypt<bool> for SquashedNoiseFheBool {
    /// `Err` for a value of another key or a key without noise squashing.
    fn try_decrypt(&self, key: &ClientKey) -> Result<bool> {
        Ok(private_key(key, self.tag, self.post_decompression)?.decrypt(&self.inner)? != 0)
    }
}

impl FheDecrypt<bool> for SquashedNoiseFheBool {
    #[track_caller]
    fn decrypt(&self, key: &ClientKey) -> bool {
        expect_op(self.try_decrypt(key), "decrypt")
    }
}
mod conformance;
pub(crate) mod list;
