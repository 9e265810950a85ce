//! Moving encrypted values from one key set to another: [`KeySwitchingKey`] and the
//! [`FheKeyswitch`] trait, as TFHE-rs names them. Each block is keyswitched to the
//! destination client key, then bootstrapped with the destination server key (one
//! bootstrap per block, in one layer, on the CPU or the GPUs of that key), so the
//! result is a fresh value of the destination key.

use super::client::ClientKey;
use super::server::ServerKey;
use super::tag::KeyTag;
use crate::error::Result;
use crate::high_level::internals::circuit::single;
use crate::high_level::internals::expect_op;
use crate::high_level::internals::storage::{Input, Storage};
use crate::high_level::{FheBool, FheInt, FheIntId, FheUint, FheUintId};
use crate::scheduler::Blocks;
use crate::shortint::{self, EncryptionKeyChoice, ShortintKeySwitchingParameters};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A key that moves values encrypted under one client key to another, for example
/// to a newer key set. Built from both key pairs: the secret keys make the
/// keyswitching key, the destination's server key refreshes what it switches.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, FheUint32, KeySwitchingKey, ServerKey};
/// let (ck_1, ck_2) = (ClientKey::generate(config), ClientKey::generate(config));
/// let (sk_1, sk_2) = (ServerKey::new(&ck_1), ServerKey::new(&ck_2));
/// let ksk = KeySwitchingKey::new((&ck_1, &sk_1), (&ck_2, &sk_2)).unwrap();
/// let a = FheUint32::encrypt(123_456u32, &ck_1);
/// let moved = ksk.keyswitch(&a);
/// let clear: u32 = moved.decrypt(&ck_2);
/// assert_eq!(clear, 123_456);
/// assert!(FheTryDecrypt::<u32>::try_decrypt(&moved, &ck_1).is_err()); // no longer under ck_1
/// ```
///
/// It serializes in TFHE-rs 1.8's form ([`crate::safe_serialization`]) as TFHE-rs's
/// `KeySwitchingKey` does: the keyswitching key (about 256 MiB on the default
/// parameters), the destination server key, and the source server key. Like
/// TFHE-rs's key made by `KeySwitchingKey::new`, a key made by
/// [`KeySwitchingKey::new`] holds both server keys (the source one is shared with
/// the `ServerKey` given, not copied; gpufhe never needs it, since it only switches
/// between key sets of the same message and carry moduli, but TFHE-rs's data holds
/// it); a TFHE-rs key without a source server key is read and written without one.
/// gpufhe's own format ([`crate::serialization::safe_serialize`]) writes the
/// keyswitching key and the destination server key only. Reading one back checks
/// that the server keys are the destination's and the source's (tags and
/// parameters); it computes on the CPU.
#[derive(Debug, Clone)]
pub struct KeySwitchingKey {
    key: Arc<shortint::KeySwitchingKey>,
    tag_in: KeyTag,
    tag_out: KeyTag,
    destination: ServerKey,
    source: Option<ServerKey>,
}

impl KeySwitchingKey {
    /// A key from the pair `from` to the pair `to`, with the destination's keyswitch
    /// decomposition; `Err` unless each server key belongs to its client key and
    /// both key sets encode blocks alike.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, FheUint8, KeySwitchingKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (ck_1, sk_1) = generate_keys(config);
    /// let (ck_2, sk_2) = generate_keys(config);
    /// assert!(KeySwitchingKey::new((&ck_1, &sk_2), (&ck_2, &sk_2)).is_err()); // sk_2 is not ck_1's
    /// let ksk = KeySwitchingKey::new((&ck_1, &sk_1), (&ck_2, &sk_2))?;
    /// let moved = ksk.keyswitch(&FheUint8::encrypt(77u8, &ck_1));
    /// let clear: u8 = moved.decrypt(&ck_2);
    /// assert_eq!(clear, 77);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn new(from: (&ClientKey, &ServerKey), to: (&ClientKey, &ServerKey)) -> Result<Self> {
        let p = to.0.config().parameters();
        let parameters = ShortintKeySwitchingParameters {
            ks_base_log: p.ks_base_log,
            ks_level: p.ks_level,
            destination_key: EncryptionKeyChoice::Big,
        };
        Self::try_with_parameters(from, to, parameters)
    }

    /// A key with the decomposition of `parameters` (for example
    /// [`crate::shortint::parameters::PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`]).
    ///
    /// # Panics
    ///
    /// If [`KeySwitchingKey::try_with_parameters`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::shortint::PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS_PARAMS;
    /// use gpufhe::{generate_keys, FheInt8, KeySwitchingKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (ck_1, sk_1) = generate_keys(config);
    /// let (ck_2, sk_2) = generate_keys(config);
    /// let ksk = KeySwitchingKey::with_parameters((&ck_1, &sk_1), (&ck_2, &sk_2), KS_PARAMS);
    /// let moved = ksk.keyswitch(&FheInt8::encrypt(-7i8, &ck_1));
    /// let clear: i8 = moved.decrypt(&ck_2);
    /// assert_eq!(clear, -7);
    /// ```
    #[track_caller]
    pub fn with_parameters(
        from: (&ClientKey, &ServerKey),
        to: (&ClientKey, &ServerKey),
        parameters: ShortintKeySwitchingParameters,
    ) -> Self {
        expect_op(
            Self::try_with_parameters(from, to, parameters),
            "KeySwitchingKey::with_parameters",
        )
    }

    /// [`KeySwitchingKey::with_parameters`]; `Err` as [`KeySwitchingKey::new`], or if
    /// the parameters are invalid or the destination is not the big key.
    ///
    /// ```
    /// use gpufhe::shortint::EncryptionKeyChoice;
    /// use gpufhe::shortint::PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS_PARAMS;
    /// use gpufhe::{generate_keys, KeySwitchingKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = generate_keys(config);
    /// let pair = (&client_key, &server_key); // from a key set to itself: a refresh
    /// assert!(KeySwitchingKey::try_with_parameters(pair, pair, KS_PARAMS).is_ok());
    /// let mut to_small = KS_PARAMS;
    /// to_small.destination_key = EncryptionKeyChoice::Small; // not supported
    /// assert!(KeySwitchingKey::try_with_parameters(pair, pair, to_small).is_err());
    /// ```
    pub fn try_with_parameters(
        from: (&ClientKey, &ServerKey),
        to: (&ClientKey, &ServerKey),
        parameters: ShortintKeySwitchingParameters,
    ) -> Result<Self> {
        for (client, server) in [from, to] {
            client.tag().check(
                "a server key (it belongs to another client key)",
                server.tag(),
            )?;
        }
        let key =
            shortint::KeySwitchingKey::new(from.0.shortint_key(), to.0.shortint_key(), parameters)?;
        Ok(Self {
            key: Arc::new(key),
            tag_in: from.0.tag(),
            tag_out: to.0.tag(),
            destination: to.1.clone(),
            source: Some(from.1.clone()),
        })
    }

    /// A key of its parts as read; `Err` unless the destination server key is of
    /// the destination key (its tag) and of the keyswitching key's destination
    /// parameters, and the source server key (if any) of the source key whose
    /// blocks the keyswitching key takes.
    pub(crate) fn from_parts(
        key: shortint::KeySwitchingKey,
        (tag_in, tag_out): (KeyTag, KeyTag),
        destination: ServerKey,
        source: Option<ServerKey>,
    ) -> Result<Self> {
        tag_out.check(
            "the destination server key of a keyswitching key",
            destination.tag(),
        )?;
        if key.destination_parameters() != destination.config().parameters() {
            return Err(crate::Error::InvalidParameter(
                "the keyswitching key and its destination server key have other parameters".into(),
            ));
        }
        if let Some(source) = &source {
            tag_in.check("the source server key of a keyswitching key", source.tag())?;
            let input = key.lwe_keyswitch_key().shape().input_lwe_dimension;
            if input != source.config().parameters().big_lwe_dimension() {
                return Err(crate::Error::InvalidParameter(
                    "the keyswitching key does not take blocks of its source server key".into(),
                ));
            }
        }
        Ok(Self {
            key: Arc::new(key),
            tag_in,
            tag_out,
            destination,
            source,
        })
    }

    /// The keyswitching key of blocks.
    pub(crate) fn shortint_key(&self) -> &shortint::KeySwitchingKey {
        &self.key
    }

    /// The server key of the source, if it holds one.
    pub(crate) fn source(&self) -> Option<&ServerKey> {
        self.source.as_ref()
    }

    /// The tag of the client key values are switched from.
    ///
    /// ```
    /// use gpufhe::{generate_keys, KeySwitchingKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (ck_1, sk_1) = generate_keys(config);
    /// let (ck_2, sk_2) = generate_keys(config);
    /// let ksk = KeySwitchingKey::new((&ck_1, &sk_1), (&ck_2, &sk_2))?;
    /// assert_eq!(ksk.tag_in(), ck_1.tag());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn tag_in(&self) -> KeyTag {
        self.tag_in
    }

    /// The tag of the client key values are switched to.
    ///
    /// ```
    /// use gpufhe::{generate_keys, KeySwitchingKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (ck_1, sk_1) = generate_keys(config);
    /// let (ck_2, sk_2) = generate_keys(config);
    /// let ksk = KeySwitchingKey::new((&ck_1, &sk_1), (&ck_2, &sk_2))?;
    /// assert_eq!(ksk.tag_out(), ck_2.tag());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn tag_out(&self) -> KeyTag {
        self.tag_out
    }

    /// The server key of the destination (it bootstraps what is switched).
    pub(crate) fn destination(&self) -> &ServerKey {
        &self.destination
    }

    /// `storage` (`bits` wide) under the destination key: trivial values as they
    /// are, blocks switched then bootstrapped.
    fn switch(&self, storage: &Storage, bits: u32) -> Result<Storage> {
        let Storage::Encrypted { tag, blocks } = storage else {
            return Ok(storage.clone());
        };
        self.tag_in.check(
            "a value to keyswitch (it is not under the source key)",
            *tag,
        )?;
        let switched = blocks
            .to_cpu()?
            .iter()
            .map(|block| self.key.keyswitch(block))
            .collect::<Result<Vec<_>>>()?;
        let switched = Storage::Encrypted {
            tag: self.tag_out,
            blocks: Blocks::Cpu(Arc::new(switched)),
        };
        let input = Input {
            storage: &switched,
            bits,
        };
        single(self.destination.execute(&[input], |c, w| {
            let refreshed = w[0]
                .iter()
                .map(|&x| c.refresh(x))
                .collect::<Result<Vec<_>>>()?;
            Ok(vec![refreshed])
        })?)
    }
}

/// How a [`KeySwitchingKey`] is written.
#[derive(Serialize)]
struct KeySwitchingKeyRef<'a> {
    key: &'a shortint::KeySwitchingKey,
    tag_in: KeyTag,
    tag_out: KeyTag,
    destination: &'a ServerKey,
}

/// [`KeySwitchingKeyRef`] as read.
#[derive(Deserialize)]
struct KeySwitchingKeyParts {
    key: shortint::KeySwitchingKey,
    tag_in: KeyTag,
    tag_out: KeyTag,
    destination: ServerKey,
}

impl Serialize for KeySwitchingKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        KeySwitchingKeyRef {
            key: &self.key,
            tag_in: self.tag_in,
            tag_out: self.tag_out,
            destination: &self.destination,
        }
        .serialize(s)
    }
}

/// `Err` unless the server key is of the destination key (its tag) and of the
/// keyswitching key's destination parameters.
impl<'de> Deserialize<'de> for KeySwitchingKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let parts = KeySwitchingKeyParts::deserialize(d)?;
        Self::from_parts(
            parts.key,
            (parts.tag_in, parts.tag_out),
            parts.destination,
            None,
        )
        .map_err(serde::de::Error::custom)
    }
}

/// Moves a value to another key set (TFHE-rs's trait of the same name).
pub trait FheKeyswitch<T> {
    /// `input` under the destination key; `Err` if it is not under the source key,
    /// or the bootstrap fails.
    fn try_keyswitch(&self, input: &T) -> Result<T>;

    /// `input` under the destination key.
    ///
    /// # Panics
    ///
    /// If [`FheKeyswitch::try_keyswitch`] fails.
    #[track_caller]
    fn keyswitch(&self, input: &T) -> T {
        expect_op(self.try_keyswitch(input), "keyswitch")
    }
}

impl<Id: FheUintId> FheKeyswitch<FheUint<Id>> for KeySwitchingKey {
    fn try_keyswitch(&self, input: &FheUint<Id>) -> Result<FheUint<Id>> {
        self.switch(&input.storage, Id::BITS)
            .map(FheUint::from_storage)
    }
}

impl<Id: FheIntId> FheKeyswitch<FheInt<Id>> for KeySwitchingKey {
    fn try_keyswitch(&self, input: &FheInt<Id>) -> Result<FheInt<Id>> {
        self.try_keyswitch(&input.inner).map(FheInt::from_inner)
    }
}

impl FheKeyswitch<FheBool> for KeySwitchingKey {
    fn try_keyswitch(&self, input: &FheBool) -> Result<FheBool> {
        self.switch(&input.storage, 1).map(FheBool::from_storage)
    }
}
