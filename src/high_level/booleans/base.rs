//! Encrypted booleans: [`FheBool`], one block holding 0 or 1; encryption and
//! decryption.

use crate::error::{Error, Result};
use crate::high_level::internals::expect_op;
use crate::high_level::internals::storage::{Input, Storage};
use crate::high_level::keys::client::ClientKey;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::traits::{
    FheDecrypt, FheEncrypt, FheTrivialEncrypt, FheTryDecrypt, FheTryEncrypt, FheTryTrivialEncrypt,
};
use crate::scheduler::Device;
use serde::{Deserialize, Serialize};

/// An encrypted boolean: one block holding 0 or 1. Comparisons return it; it selects
/// between encrypted values ([`FheBool::select`], [`IfThenElse`](crate::IfThenElse)) and combines with
/// `& | ^ !` (with another `FheBool` or a clear `bool`).
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
/// let a = FheBool::encrypt(true, &client_key);
/// let b = FheBool::encrypt(false, &client_key);
/// assert!((&a ^ &b).decrypt(&client_key));
/// assert!(!(!&a).decrypt(&client_key));
/// assert!((&b | true).decrypt(&client_key)); // a clear operand: no bootstrap
/// ```
#[derive(Clone)]
pub struct FheBool {
    pub(crate) storage: Storage,
    /// The bytes a re-randomization context hashes with the value
    /// ([`crate::ReRandomize`]); results of operations have none.
    pub(crate) re_randomization_metadata: crate::high_level::ReRandomizationMetadata,
}

impl std::fmt::Debug for FheBool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.storage.tag() {
            Some(tag) => write!(f, "FheBool {{ tag: {tag}, .. }}"),
            None => write!(f, "FheBool {{ trivial, .. }}"),
        }
    }
}

impl FheBool {
    pub(crate) fn from_storage(storage: Storage) -> Self {
        Self {
            storage,
            re_randomization_metadata: Default::default(),
        }
    }

    /// Its re-randomization metadata (TFHE-rs's accessor): bytes that a
    /// [`crate::ReRandomizationContext`] hashes with the value.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheBool;
    /// let mut a = FheBool::encrypt_trivial(true);
    /// a.re_randomization_metadata_mut().set_data(b"origin");
    /// assert_eq!(a.re_randomization_metadata().data(), b"origin");
    /// ```
    pub fn re_randomization_metadata(&self) -> &crate::high_level::ReRandomizationMetadata {
        &self.re_randomization_metadata
    }

    /// Its re-randomization metadata, to change.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheBool;
    /// let mut a = FheBool::encrypt_trivial(true);
    /// a.re_randomization_metadata_mut().set_data(b"x");
    /// assert_eq!(a.re_randomization_metadata().data(), b"x");
    /// ```
    pub fn re_randomization_metadata_mut(
        &mut self,
    ) -> &mut crate::high_level::ReRandomizationMetadata {
        &mut self.re_randomization_metadata
    }

    /// The value as an input of a circuit.
    pub(crate) fn input(&self) -> Input<'_> {
        Input {
            storage: &self.storage,
            bits: 1,
        }
    }

    /// The tag of the client key it was encrypted under, `None` if trivial.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// assert_eq!(FheBool::encrypt(true, &client_key).tag(), Some(client_key.tag()));
    /// assert_eq!(FheBool::encrypt_trivial(true).tag(), None);
    /// ```
    pub fn tag(&self) -> Option<KeyTag> {
        self.storage.tag()
    }

    /// Whether it is a trivial encryption (readable without a key).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// assert!(FheBool::encrypt_trivial(true).is_trivial());
    /// assert!(!FheBool::encrypt(true, &client_key).is_trivial());
    /// ```
    pub fn is_trivial(&self) -> bool {
        self.tag().is_none()
    }

    /// The value of a trivial encryption; `Err` if it is a real encryption.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// assert!(FheBool::encrypt_trivial(true).try_decrypt_trivial().unwrap());
    /// assert!(FheBool::encrypt(true, &client_key).try_decrypt_trivial().is_err());
    /// ```
    pub fn try_decrypt_trivial(&self) -> Result<bool> {
        match &self.storage {
            Storage::Trivial(v) => Ok(!v.is_zero()),
            Storage::Encrypted { .. } => Err(Error::InvalidParameter(
                "this FheBool is encrypted, not trivial: decrypt it with its client key".into(),
            )),
        }
    }

    /// Where its block lives (see [`FheUint::current_device`](crate::FheUint::current_device)).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{Device, FheBool};
    /// assert_eq!(FheBool::encrypt_trivial(true).current_device(), Device::Cpu);
    /// ```
    pub fn current_device(&self) -> Device {
        self.storage.device()
    }

    /// Moves its block to `device` (see [`FheUint::move_to_device`](crate::FheUint::move_to_device)).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, Device, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let mut x = FheBool::encrypt(true, &client_key);
    /// x.move_to_device(Device::Cpu).unwrap(); // already there: nothing to do
    /// assert_eq!((x.current_device(), x.decrypt(&client_key)), (Device::Cpu, true));
    /// ```
    pub fn move_to_device(&mut self, device: Device) -> Result<()> {
        self.storage.move_to(device)
    }

    /// `Err` unless it is well formed: a trivial 0 or 1, or one clean block whose
    /// bound is at most 1. Deserialization runs it.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, FheBool};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// assert!(FheBool::encrypt(true, &client_key).validate().is_ok());
    /// assert!(FheBool::encrypt_trivial(false).validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.storage.validate(1, Some(1))
    }
}

impl FheTryEncrypt<bool, ClientKey> for FheBool {
    /// Never fails for a well-formed key.
    fn try_encrypt(value: bool, key: &ClientKey) -> Result<Self> {
        Ok(Self::from_storage(key.encrypt_storage(value.into(), 1)?))
    }
}

impl FheEncrypt<bool, ClientKey> for FheBool {
    #[track_caller]
    fn encrypt(value: bool, key: &ClientKey) -> Self {
        expect_op(Self::try_encrypt(value, key), "encrypt")
    }
}

impl FheTryDecrypt<bool> for FheBool {
    /// `Err` if it belongs to another client key or does not decrypt to 0 or 1.
    fn try_decrypt(&self, key: &ClientKey) -> Result<bool> {
        match u128::try_from(key.decrypt_storage(&self.storage)?) {
            Ok(0) => Ok(false),
            Ok(1) => Ok(true),
            v => Err(Error::InvalidParameter(format!(
                "an FheBool decrypted to {v:?}, not 0 or 1"
            ))),
        }
    }
}

impl FheDecrypt<bool> for FheBool {
    #[track_caller]
    fn decrypt(&self, key: &ClientKey) -> bool {
        !expect_op(key.decrypt_storage(&self.storage), "decrypt").is_zero()
    }
}

impl FheTrivialEncrypt<bool> for FheBool {
    fn encrypt_trivial(value: bool) -> Self {
        Self::from_storage(Storage::trivial(value.into()))
    }
}

impl FheTryTrivialEncrypt<bool> for FheBool {
    /// Never fails.
    fn try_encrypt_trivial(value: bool) -> Result<Self> {
        Ok(Self::encrypt_trivial(value))
    }
}

/// Writes the key tag and the block (or the value of a trivial encryption).
impl Serialize for FheBool {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        crate::high_level::re_randomization_metadata::no_metadata_in_own_format(
            &self.re_randomization_metadata,
        )?;
        self.storage.serialize(s)
    }
}

/// Runs [`FheBool::validate`] on what was read.
impl<'de> Deserialize<'de> for FheBool {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let value = Self::from_storage(Storage::deserialize(d)?);
        value.validate().map_err(serde::de::Error::custom)?;
        Ok(value)
    }
}
