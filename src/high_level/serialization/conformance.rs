//! Conformance of deserialized values to a configuration or a key
//! ([`safe_deserialize_conformant`]), and the [`SafeSerialization`] impls of the
//! high-level types: the high level's half of [`crate::serialization`] (its codec
//! sits below shortint).

use crate::error::{Error, Result};
use crate::high_level::{
    ClientKey, CompactCiphertextList, CompactPublicKey, CompressedCiphertextList,
    CompressedCompactPublicKey, CompressedServerKey, Config, FheBool, FheInt, FheIntId, FheUint,
    FheUintId, KeyTag, ListSizeConstraint, ServerKey,
};
use crate::serialization::codec::{safe_deserialize, SafeSerialization};
use std::io::Read;

/// Whether a value conforms to a parameter set (TFHE-rs's trait of the same name).
/// Every [`Conformant`] type implements it with [`ConformanceParams`] (made from a
/// key, a [`crate::Config`] or block parameters) as the parameter set, except
/// [`crate::CompactPublicKey`] and [`crate::CompressedCompactPublicKey`], whose
/// parameter set is, as in TFHE-rs, their encryption parameters
/// ([`crate::shortint::CompactPublicKeyEncryptionParameters`]).
///
/// ```
/// use gpufhe::conformance::ParameterSetConformant;
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, CompactPublicKey, ConfigBuilder, FheUint8, FheUint8ConformanceParams};
/// let config = ConfigBuilder::default().build();
/// let client_key = ClientKey::generate(config);
/// let x = FheUint8::encrypt(7u8, &client_key);
/// assert!(x.is_conformant(&FheUint8ConformanceParams::from(&client_key)));
/// let other_key = ClientKey::generate(ConfigBuilder::default());
/// assert!(!x.is_conformant(&FheUint8ConformanceParams::from(&other_key)));
/// let public_key = CompactPublicKey::new(&client_key);
/// assert!(public_key.is_conformant(&config.public_key_encryption_parameters()?));
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub trait ParameterSetConformant {
    /// What the value is checked against.
    type ParameterSet;

    /// Whether the value conforms to `parameter_set` (see [`Conformant::conforms_to`]
    /// for what that means).
    fn is_conformant(&self, parameter_set: &Self::ParameterSet) -> bool;

    /// `Ok` if the value conforms to `parameter_set`, else `Err` with the reason
    /// (by default a reason-less one, for types that only implement
    /// [`ParameterSetConformant::is_conformant`]).
    fn check_conformant(&self, parameter_set: &Self::ParameterSet) -> Result<()> {
        if self.is_conformant(parameter_set) {
            Ok(())
        } else {
            Err(crate::Error::InvalidParameter(
                "the value does not conform to the parameter set".into(),
            ))
        }
    }
}

/// [`SafeSerialization::DEFAULT_SIZE_LIMIT`] of keys.
const KEY_SIZE_LIMIT: u64 = 2 << 30;
/// [`SafeSerialization::DEFAULT_SIZE_LIMIT`] of encrypted values.
pub(crate) const VALUE_SIZE_LIMIT: u64 = 64 << 20;

/// What a deserialized value must belong to: a configuration, optionally the
/// client key (by its tag) when it is given through a key, and optionally the
/// number of values of a [`CompactCiphertextList`]
/// ([`ConformanceParams::from_parameters_and_size_constraint`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConformanceParams {
    config: Config,
    tag: Option<KeyTag>,
    list_size: Option<ListSizeConstraint>,
}

impl ConformanceParams {
    /// The parameters of a [`CompactCiphertextList`] encrypted for these block
    /// parameters (with their own compact public-key parameters), holding a number of values allowed by
    /// `constraint` (TFHE-rs's `CompactCiphertextListConformanceParams` function of
    /// the same name; TFHE-rs's `params.try_into().unwrap()` argument compiles).
    ///
    /// ```
    /// use gpufhe::conformance::{ListSizeConstraint, ParameterSetConformant};
    /// use gpufhe::shortint::parameters::PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as P;
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactCiphertextListConformanceParams, CompactPublicKey, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::with_custom_parameters(P));
    /// let list = CompactCiphertextList::builder(&CompactPublicKey::new(&client_key)).push(1u8).push(2u8).build_packed();
    /// let two = CompactCiphertextListConformanceParams::from_parameters_and_size_constraint(P, ListSizeConstraint::exact_size(2));
    /// let three = CompactCiphertextListConformanceParams::from_parameters_and_size_constraint(P, ListSizeConstraint::exact_size(3));
    /// assert!(list.is_conformant(&two) && !list.is_conformant(&three));
    /// ```
    pub fn from_parameters_and_size_constraint(
        parameters: crate::shortint::ShortintParameters,
        constraint: ListSizeConstraint,
    ) -> Self {
        Self {
            list_size: Some(constraint),
            ..Self::from(parameters)
        }
    }

    /// The configuration values must belong to.
    ///
    /// ```
    /// use gpufhe::conformance::ConformanceParams;
    /// use gpufhe::ConfigBuilder;
    /// let config = ConfigBuilder::default().build();
    /// assert_eq!(ConformanceParams::from(&config).config(), &config);
    /// ```
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The key tag values must carry, if a key was given.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::conformance::ConformanceParams;
    /// let client_key = gpufhe::ClientKey::generate(config);
    /// let of_key = ConformanceParams::from(&client_key);
    /// assert_eq!(of_key.tag(), Some(client_key.tag()));
    /// assert_eq!(ConformanceParams::from(client_key.config()).tag(), None);
    /// ```
    pub fn tag(&self) -> Option<KeyTag> {
        self.tag
    }

    /// The block parameters values must be of; `Err` unless they are valid
    /// ([`ShortintParameters::validate`](crate::shortint::ShortintParameters::validate)):
    /// an unchecked configuration
    /// ([`ConfigBuilder::with_custom_parameters`](crate::ConfigBuilder::with_custom_parameters))
    /// may hold any dimensions, and the sizes a value is checked against are
    /// products of them. Nothing conforms to parameters no key can be made of.
    pub(crate) fn block_parameters(&self) -> Result<&crate::shortint::ShortintParameters> {
        let parameters = self.config.parameters();
        parameters.validate()?;
        Ok(parameters)
    }

    /// `Err` unless `tag` is the required one (if any).
    pub(crate) fn check_tag(&self, what: &'static str, tag: Option<KeyTag>) -> Result<()> {
        match (self.tag, tag) {
            (Some(expected), Some(got)) => expected.check(what, got),
            _ => Ok(()),
        }
    }

    /// `Err` unless a key of this configuration and tag.
    fn check_key(&self, what: &'static str, config: &Config, tag: KeyTag) -> Result<()> {
        if config != &self.config {
            return Err(Error::InvalidParameter(format!(
                "the {what} was generated for other parameters than the configuration's"
            )));
        }
        self.check_tag(what, Some(tag))
    }
}

impl From<&Config> for ConformanceParams {
    fn from(config: &Config) -> Self {
        Self {
            config: *config,
            tag: None,
            list_size: None,
        }
    }
}

impl From<Config> for ConformanceParams {
    fn from(config: Config) -> Self {
        Self::from(&config)
    }
}

impl From<crate::shortint::ShortintParameters> for ConformanceParams {
    /// The configuration of these block parameters (without compression).
    fn from(parameters: crate::shortint::ShortintParameters) -> Self {
        Self::from(&crate::high_level::ConfigBuilder::with_custom_parameters(parameters).build())
    }
}

impl From<&ConformanceParams> for ConformanceParams {
    fn from(params: &ConformanceParams) -> Self {
        *params
    }
}

macro_rules! conformance_from_key {
    ($($key:ty),*) => {$(
        impl From<&$key> for ConformanceParams {
            fn from(key: &$key) -> Self {
                Self {
                    config: *key.config(),
                    tag: Some(key.tag()),
                    list_size: None,
                }
            }
        }
    )*};
}
conformance_from_key!(ClientKey, CompressedServerKey, ServerKey);

/// Whether a value belongs to a configuration (and key).
pub trait Conformant {
    /// `Err` unless the value belongs to `params`: ciphertext blocks of its
    /// parameters (moduli, LWE size, number of blocks) and, if a key was given, its
    /// tag (trivial values belong to every key); keys generated for its
    /// configuration (and with its tag).
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()>;
}

impl SafeSerialization for Config {
    const TYPE_NAME: &'static str = "Config";
    const DEFAULT_SIZE_LIMIT: u64 = 1 << 20;
}

impl SafeSerialization for ClientKey {
    const TYPE_NAME: &'static str = "ClientKey";
    const DEFAULT_SIZE_LIMIT: u64 = KEY_SIZE_LIMIT;
}

impl SafeSerialization for CompressedServerKey {
    const TYPE_NAME: &'static str = "CompressedServerKey";
    const DEFAULT_SIZE_LIMIT: u64 = KEY_SIZE_LIMIT;
    fn expanded_bytes(&self) -> u64 {
        self.expanded_bytes()
    }
}

impl SafeSerialization for ServerKey {
    const TYPE_NAME: &'static str = "ServerKey";
    const DEFAULT_SIZE_LIMIT: u64 = KEY_SIZE_LIMIT;
}

impl SafeSerialization for crate::high_level::KeySwitchingKey {
    const TYPE_NAME: &'static str = "KeySwitchingKey";
    const DEFAULT_SIZE_LIMIT: u64 = KEY_SIZE_LIMIT;
}

impl SafeSerialization for crate::CompactPublicKey {
    const TYPE_NAME: &'static str = "CompactPublicKey";
    const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
}

impl SafeSerialization for crate::CompressedCompactPublicKey {
    const TYPE_NAME: &'static str = "CompressedCompactPublicKey";
    const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
}

impl SafeSerialization for crate::CompactCiphertextList {
    const TYPE_NAME: &'static str = "CompactCiphertextList";
    const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
    fn expanded_bytes(&self) -> u64 {
        self.expanded_bytes()
    }
}

impl SafeSerialization for crate::CompressedCiphertextList {
    const TYPE_NAME: &'static str = "CompressedCiphertextList";
    const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
    fn expanded_bytes(&self) -> u64 {
        self.expanded_bytes()
    }
}

impl SafeSerialization for FheBool {
    const TYPE_NAME: &'static str = "FheBool";
    const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
}

impl<Id: FheUintId> SafeSerialization for FheUint<Id> {
    const TYPE_NAME: &'static str = Id::NAME;
    const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
}

impl<Id: FheIntId> SafeSerialization for FheInt<Id> {
    const TYPE_NAME: &'static str = Id::NAME;
    const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
}

impl Conformant for Config {
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        if self == params.config() {
            Ok(())
        } else {
            Err(Error::InvalidParameter(
                "the configuration differs from the expected one".into(),
            ))
        }
    }
}

macro_rules! conformant_key {
    ($($key:ty, $what:literal;)*) => {$(
        impl Conformant for $key {
            fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
                params.check_key($what, self.config(), self.tag())
            }
        }
    )*};
}
conformant_key! {
    ClientKey, "client key";
    CompressedServerKey, "compressed server key";
    ServerKey, "server key";
}

/// A keyswitching key conforms when the server key of its destination does (the
/// values it makes are of that key set).
impl Conformant for crate::high_level::KeySwitchingKey {
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        let destination = self.destination();
        params.check_key(
            "destination server key of a keyswitching key",
            destination.config(),
            destination.tag(),
        )
    }
}

impl Conformant for FheBool {
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        params.check_tag("the value", self.tag())?;
        self.storage.conforms_to(params.block_parameters()?, 1)
    }
}

impl<Id: FheUintId> Conformant for FheUint<Id> {
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        params.check_tag("the value", self.tag())?;
        self.storage
            .conforms_to(params.block_parameters()?, Id::BITS)
    }
}

impl<Id: FheIntId> Conformant for FheInt<Id> {
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        self.as_unsigned().conforms_to(params)
    }
}

impl Conformant for CompactPublicKey {
    /// Of the configuration's parameters and, if a key was given, of its tag.
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        params.check_tag("the public key", Some(self.tag()))?;
        check_pke_parameters(&self.parameters(), params)
    }
}

impl Conformant for CompressedCompactPublicKey {
    /// Of the configuration's parameters and, if a key was given, of its tag.
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        params.check_tag("the compressed public key", Some(self.tag()))?;
        check_pke_parameters(&self.parameters(), params)
    }
}

impl Conformant for CompactCiphertextList {
    /// Of the configuration's parameters, if a key was given of its tag, and if a
    /// [`ListSizeConstraint`] was given with a number of values it allows.
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        params.check_tag("the compact list", Some(self.tag()))?;
        match self.casting() {
            Some(pke) => check_pke_parameters(pke, params)?,
            None => check_parameters(self.parameters(), params)?,
        }
        match params.list_size {
            Some(constraint) if !constraint.is_valid(self.len()) => {
                Err(Error::InvalidParameter(format!(
                    "the compact list holds {} values, which its size constraint does not allow",
                    self.len()
                )))
            }
            _ => Ok(()),
        }
    }
}

impl Conformant for CompressedCiphertextList {
    /// Of the configuration's block and compression parameters and, if a key was
    /// given, of its tag.
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        params.check_tag("the compressed list", Some(self.tag()))?;
        let config = params.config();
        if self.blocks().parameters() == config.parameters()
            && Some(self.blocks().compression_parameters()) == config.compression_parameters()
        {
            Ok(())
        } else {
            Err(Error::InvalidParameter(
                "the compressed list was made for other parameters than the configuration's".into(),
            ))
        }
    }
}

/// `Err` unless `parameters` are the configuration's.
/// `Err` unless `pke` are the compact public-key parameters of the configuration.
fn check_pke_parameters(
    pke: &crate::shortint::CompactPublicKeyEncryptionParameters,
    params: &ConformanceParams,
) -> Result<()> {
    if *pke == params.config().public_key_encryption_parameters()? {
        Ok(())
    } else {
        Err(Error::InvalidParameter(
            "the value was made for other compact public-key parameters than the \
             configuration's"
                .into(),
        ))
    }
}

pub(crate) fn check_parameters(
    parameters: &crate::shortint::ShortintParameters,
    params: &ConformanceParams,
) -> Result<()> {
    if parameters == params.config().parameters() {
        Ok(())
    } else {
        Err(Error::InvalidParameter(
            "the value was made for other parameters than the configuration's".into(),
        ))
    }
}

/// [`safe_deserialize`], then `Err` unless the value conforms to `params`
/// ([`ParameterSetConformant::check_conformant`]; for most types a
/// [`ConformanceParams`], see [`Conformant`]), made from a [`Config`] (or block
/// parameters), or from a `&ClientKey` / `&ServerKey` / `&CompressedServerKey`
/// whose tag encrypted values must also carry: `&(&client_key).into()`, as TFHE-rs's
/// function of the same name takes its parameter set. Compact public keys take
/// their encryption parameters, as in TFHE-rs.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::serialization::{safe_deserialize_conformant, safe_serialize};
/// use gpufhe::{ClientKey, ConfigBuilder, FheUint8};
/// let client_key = ClientKey::generate(config);
/// let mut bytes = Vec::new();
/// safe_serialize(&FheUint8::encrypt(42u8, &client_key), &mut bytes, 1 << 20)?;
/// let x: FheUint8 = safe_deserialize_conformant(&bytes[..], 1 << 20, &(&client_key).into())?;
/// assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 42);
/// // The blocks are not of the default parameters.
/// let default = ConfigBuilder::default().build().into();
/// assert!(safe_deserialize_conformant::<FheUint8>(&bytes[..], 1 << 20, &default).is_err());
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub fn safe_deserialize_conformant<T: SafeSerialization + ParameterSetConformant>(
    reader: impl Read,
    size_limit: u64,
    params: &T::ParameterSet,
) -> Result<T> {
    let value: T = safe_deserialize(reader, size_limit)?;
    value.check_conformant(params)?;
    Ok(value)
}
