//! The configuration keys are generated for: the block parameters.

use crate::error::{Error, Result};
use crate::shortint::{
    self, CompactPublicKeyEncryptionParameters, CompressedCompressionKeys, CompressionKeys,
    CompressionParameters, CompressionPrivateKey, EncryptionKeyChoice,
    NoiseSquashingCompressionParameters, NoiseSquashingParameters, ReRandomizationParameters,
    ShortintKeySwitchingParameters, ShortintParameters, DEFAULT_PARAMETERS,
};
use serde::{Deserialize, Serialize};

/// Dedicated compact public-key parameters and the keyswitch from their key to the
/// computation key.
pub(crate) type DedicatedPke = (
    CompactPublicKeyEncryptionParameters,
    ShortintKeySwitchingParameters,
);

/// What keys are generated for: the parameters of the blocks encrypted integers are
/// made of, and those of ciphertext compression if it is enabled
/// ([`ConfigBuilder::enable_compression`]). Build it with [`ConfigBuilder`]; its
/// block parameters are always valid.
///
/// ```
/// use gpufhe::{Config, ConfigBuilder};
/// use gpufhe::shortint::DEFAULT_PARAMETERS;
/// let config: Config = ConfigBuilder::default().build();
/// assert_eq!(config.parameters(), &DEFAULT_PARAMETERS);
/// assert_eq!(config.block_count(64), 32); // 2 message bits per block
/// ```
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(try_from = "ConfigParts")]
pub struct Config {
    parameters: ShortintParameters,
    compression: Option<CompressionParameters>,
    /// Whether key generation still has to check the block parameters (set by
    /// [`ConfigBuilder::with_custom_parameters`] and
    /// [`ConfigBuilder::use_custom_parameters`], which cannot return an `Err`).
    #[serde(skip)]
    unchecked: bool,
    /// Dedicated compact public-key parameters and the keyswitch to the blocks
    /// ([`ConfigBuilder::use_dedicated_compact_public_key_parameters`]), checked at
    /// key generation (not in gpufhe's own format: writing them there is an `Err`;
    /// TFHE-rs's form carries them).
    #[serde(
        skip_deserializing,
        serialize_with = "crate::high_level::lists::casting::not_dedicated_in_own_format"
    )]
    dedicated_pke: Option<DedicatedPke>,
    /// How ciphertexts are re-randomized, if enabled
    /// ([`ConfigBuilder::enable_ciphertext_re_randomization`]); not in gpufhe's own
    /// format (writing it there is an `Err`; TFHE-rs's form carries it).
    #[serde(
        skip_deserializing,
        serialize_with = "crate::high_level::re_randomization_metadata::not_in_own_format"
    )]
    re_randomization: Option<ReRandomizationParameters>,
    /// Noise-squashing parameters ([`ConfigBuilder::enable_noise_squashing`]);
    /// not in gpufhe's own format (writing them there is an `Err`; TFHE-rs's form
    /// carries them).
    #[serde(
        skip_deserializing,
        serialize_with = "crate::high_level::serialization::own_format::no_squashing"
    )]
    noise_squashing: Option<NoiseSquashingParameters>,
    /// Compression parameters of squashed values
    /// ([`ConfigBuilder::enable_noise_squashing_compression`]); like the
    /// noise-squashing parameters, not in gpufhe's own format.
    #[serde(
        skip_deserializing,
        serialize_with = "crate::high_level::serialization::own_format::no_squashing"
    )]
    noise_squashing_compression: Option<NoiseSquashingCompressionParameters>,
}

impl PartialEq for Config {
    /// The same parameters, compression, dedicated public-key and noise-squashing
    /// parameters (whether they are still to be checked does not matter).
    fn eq(&self, other: &Self) -> bool {
        (
            self.parameters,
            self.compression,
            self.dedicated_pke,
            self.noise_squashing,
            self.re_randomization,
            self.noise_squashing_compression,
        ) == (
            other.parameters,
            other.compression,
            other.dedicated_pke,
            other.noise_squashing,
            other.re_randomization,
            other.noise_squashing_compression,
        )
    }
}

/// The fields of a [`Config`] as read, before they are checked.
#[derive(Deserialize)]
struct ConfigParts {
    parameters: ShortintParameters,
    compression: Option<CompressionParameters>,
}

impl TryFrom<ConfigParts> for Config {
    type Error = Error;

    fn try_from(parts: ConfigParts) -> Result<Self> {
        check_integer_parameters(&parts.parameters)?;
        let config = Self {
            parameters: parts.parameters,
            compression: parts.compression,
            unchecked: false,
            dedicated_pke: None,
            noise_squashing: None,
            re_randomization: None,
            noise_squashing_compression: None,
        };
        config.check_compression()?;
        Ok(config)
    }
}

impl Config {
    /// The block parameters.
    ///
    /// ```
    /// use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// use gpufhe::ConfigBuilder;
    /// let config = ConfigBuilder::default()
    ///     .with_insecure_custom_parameters(TEST_PARAMS)?
    ///     .build();
    /// assert_eq!(config.parameters(), &TEST_PARAMS);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The compression parameters, if compression is enabled.
    ///
    /// ```
    /// use gpufhe::shortint::COMP_PARAM_MESSAGE_2_CARRY_2;
    /// use gpufhe::ConfigBuilder;
    /// let builder = ConfigBuilder::default();
    /// assert_eq!(builder.build().compression_parameters(), None);
    /// let compressing = builder.enable_compression(COMP_PARAM_MESSAGE_2_CARRY_2).build();
    /// assert_eq!(compressing.compression_parameters(), Some(&COMP_PARAM_MESSAGE_2_CARRY_2));
    /// ```
    pub fn compression_parameters(&self) -> Option<&CompressionParameters> {
        self.compression.as_ref()
    }

    /// `Err` unless its parameters can generate keys: the block parameters given to
    /// [`ConfigBuilder::use_custom_parameters`] valid and secure (as
    /// [`ConfigBuilder::try_use_custom_parameters`] checks them), and the compression
    /// parameters valid for them ([`Config::check_compression`]).
    pub(crate) fn check(&self) -> Result<()> {
        if self.unchecked {
            check_integer_parameters(&self.parameters)?;
            self.parameters.check_security()?;
        }
        self.public_key_encryption_parameters()?;
        self.check_re_randomization()?;
        if let Some(ns) = &self.noise_squashing {
            ns.validate()?;
            ns.check_blocks(&self.parameters)?;
        }
        match (&self.noise_squashing, &self.noise_squashing_compression) {
            (Some(ns), Some(c)) => c.validate(ns)?,
            (None, Some(_)) => {
                return Err(Error::InvalidParameter(
                    "noise-squashing compression needs noise squashing: call \
                     ConfigBuilder::enable_noise_squashing too"
                        .into(),
                ))
            }
            _ => {}
        }
        self.check_compression()
    }

    /// How ciphertexts are re-randomized, if enabled
    /// ([`ConfigBuilder::enable_ciphertext_re_randomization`]).
    ///
    /// ```
    /// use gpufhe::shortint::parameters::ReRandomizationParameters;
    /// use gpufhe::ConfigBuilder;
    /// assert_eq!(ConfigBuilder::default().build().re_randomization_parameters(), None);
    /// let derived = ReRandomizationParameters::DerivedCPKWithoutKeySwitch;
    /// let config = ConfigBuilder::default().enable_ciphertext_re_randomization(derived).build();
    /// assert_eq!(config.re_randomization_parameters(), Some(derived));
    /// ```
    pub fn re_randomization_parameters(&self) -> Option<ReRandomizationParameters> {
        self.re_randomization
    }

    /// This configuration with the re-randomization parameters `parameters`.
    pub(crate) fn with_re_randomization(
        self,
        parameters: Option<ReRandomizationParameters>,
    ) -> Self {
        Self {
            re_randomization: parameters,
            ..self
        }
    }

    /// `Err` unless the re-randomization parameters go with the rest (TFHE-rs
    /// asserts the same when it builds the configuration): the legacy mode needs
    /// dedicated compact public-key parameters and a keyswitch to the big key.
    fn check_re_randomization(&self) -> Result<()> {
        let Some(ReRandomizationParameters::LegacyDedicatedCPKWithKeySwitch { rerand_ksk_params }) =
            self.re_randomization
        else {
            return Ok(());
        };
        if self.dedicated_pke.is_none() {
            return Err(Error::InvalidParameter(
                "legacy re-randomization (LegacyDedicatedCPKWithKeySwitch) needs dedicated \
                 compact public-key parameters (use_dedicated_compact_public_key_parameters)"
                    .into(),
            ));
        }
        if rerand_ksk_params.destination_key != EncryptionKeyChoice::Big {
            return Err(Error::InvalidParameter(
                "re-randomization's keyswitch must target the big (large) key".into(),
            ));
        }
        shortint::check_casting_parameters(&rerand_ksk_params)
    }

    /// The noise-squashing parameters, if noise squashing is enabled
    /// ([`ConfigBuilder::enable_noise_squashing`]).
    ///
    /// ```
    /// use gpufhe::shortint::NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as NS;
    /// use gpufhe::ConfigBuilder;
    /// assert_eq!(ConfigBuilder::default().build().noise_squashing_parameters(), None);
    /// let config = ConfigBuilder::default().enable_noise_squashing(NS).build();
    /// assert_eq!(config.noise_squashing_parameters(), Some(&NS));
    /// ```
    pub fn noise_squashing_parameters(&self) -> Option<&NoiseSquashingParameters> {
        self.noise_squashing.as_ref()
    }

    /// The compression parameters of squashed values, if enabled
    /// ([`ConfigBuilder::enable_noise_squashing_compression`]).
    ///
    /// ```
    /// use gpufhe::shortint::NOISE_SQUASHING_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as COMP;
    /// use gpufhe::ConfigBuilder;
    /// let builder = ConfigBuilder::default();
    /// assert_eq!(builder.build().noise_squashing_compression_parameters(), None);
    /// let config = builder.enable_noise_squashing_compression(COMP).build();
    /// assert_eq!(config.noise_squashing_compression_parameters(), Some(&COMP));
    /// ```
    pub fn noise_squashing_compression_parameters(
        &self,
    ) -> Option<&NoiseSquashingCompressionParameters> {
        self.noise_squashing_compression.as_ref()
    }

    /// The parameters compact public keys of this configuration encrypt under (as
    /// TFHE-rs's `Config::public_key_encryption_parameters`): the dedicated ones
    /// ([`ConfigBuilder::use_dedicated_compact_public_key_parameters`]), else those of
    /// the block parameters (their big key, no keyswitch on expansion). `Err` if the
    /// dedicated ones cannot go with the block parameters.
    ///
    /// ```
    /// use gpufhe::shortint::parameters::{
    ///     CompactCiphertextListExpansionKind, PARAM_KEYSWITCH_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
    ///     PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as PKE,
    /// };
    /// use gpufhe::ConfigBuilder;
    /// let config = ConfigBuilder::default().build();
    /// let own = config.public_key_encryption_parameters()?;
    /// assert_eq!(own.expansion_kind, CompactCiphertextListExpansionKind::NoCasting);
    /// let dedicated = ConfigBuilder::default()
    ///     .use_dedicated_compact_public_key_parameters((PKE, KS))
    ///     .build();
    /// assert_eq!(dedicated.public_key_encryption_parameters()?, PKE);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn public_key_encryption_parameters(&self) -> Result<CompactPublicKeyEncryptionParameters> {
        match self.dedicated_pke {
            Some((pke, ks)) => {
                pke.carrier(&self.parameters)?;
                crate::shortint::check_casting_parameters(&ks)?;
                Ok(pke)
            }
            None => CompactPublicKeyEncryptionParameters::try_from(self.parameters),
        }
    }

    /// The dedicated compact public-key parameters and the keyswitch to the blocks,
    /// if [`ConfigBuilder::use_dedicated_compact_public_key_parameters`] chose them.
    pub(crate) fn dedicated_compact_public_key_parameters(&self) -> Option<DedicatedPke> {
        self.dedicated_pke
    }

    /// `Err` unless the compression parameters (if any) are valid for the block
    /// parameters, and secure when these are.
    pub(crate) fn check_compression(&self) -> Result<()> {
        if let Some(c) = &self.compression {
            c.validate(&self.parameters)?;
            if self.parameters.check_security().is_ok() {
                c.check_security(&self.parameters)?;
            }
        }
        Ok(())
    }

    /// The number of blocks of an integer of `bits` bits (`bits` divided by the
    /// message bits of a block, rounded up; one block for a boolean).
    ///
    /// ```
    /// use gpufhe::ConfigBuilder;
    /// let config = ConfigBuilder::default().build(); // 2 message bits per block
    /// assert_eq!(config.block_count(8), 4);
    /// assert_eq!(config.block_count(3), 2);
    /// assert_eq!(config.block_count(1), 1);
    /// ```
    pub fn block_count(&self, bits: u32) -> usize {
        block_count(&self.parameters, bits)
    }
}

impl Default for Config {
    /// The default configuration: [`DEFAULT_PARAMETERS`].
    fn default() -> Self {
        ConfigBuilder::default().build()
    }
}

/// Builds a [`Config`]: the default parameters ([`DEFAULT_PARAMETERS`], 128-bit
/// security) unless custom ones are given.
///
/// ```
/// use gpufhe::ConfigBuilder;
/// use gpufhe::shortint::DEFAULT_PARAMETERS;
/// let mut params = DEFAULT_PARAMETERS;
/// params.message_modulus = 3; // not a power of two
/// assert!(ConfigBuilder::default().try_use_custom_parameters(params).is_err());
/// let config = ConfigBuilder::default()
///     .try_use_custom_parameters(DEFAULT_PARAMETERS)
///     .unwrap()
///     .build();
/// assert_eq!(config.parameters().message_modulus, 4);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConfigBuilder {
    parameters: ShortintParameters,
    compression: Option<CompressionParameters>,
    unchecked: bool,
    dedicated_pke: Option<DedicatedPke>,
    noise_squashing: Option<NoiseSquashingParameters>,
    re_randomization: Option<ReRandomizationParameters>,
    noise_squashing_compression: Option<NoiseSquashingCompressionParameters>,
}

impl Default for ConfigBuilder {
    /// A builder of the default configuration ([`DEFAULT_PARAMETERS`], no
    /// compression).
    fn default() -> Self {
        Self {
            parameters: DEFAULT_PARAMETERS,
            compression: None,
            unchecked: false,
            dedicated_pke: None,
            noise_squashing: None,
            re_randomization: None,
            noise_squashing_compression: None,
        }
    }
}

impl ConfigBuilder {
    /// A builder of `parameters` (as TFHE-rs's `ConfigBuilder::with_custom_parameters`):
    /// [`ConfigBuilder::default`] followed by
    /// [`ConfigBuilder::use_custom_parameters`].
    ///
    /// ```
    /// use gpufhe::shortint::parameters::PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    /// use gpufhe::{ClientKey, ConfigBuilder};
    /// let config =
    ///     ConfigBuilder::with_custom_parameters(PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128)
    ///         .build();
    /// assert!(ClientKey::try_generate(config).is_ok());
    /// ```
    pub fn with_custom_parameters(parameters: ShortintParameters) -> Self {
        Self::default().use_custom_parameters(parameters)
    }

    /// Uses `parameters` instead of the block parameters chosen so far, and no
    /// compression (as TFHE-rs's `use_custom_parameters`, whose argument is a new
    /// block configuration). They are checked as
    /// [`ConfigBuilder::try_use_custom_parameters`] does when keys are generated:
    /// [`crate::ClientKey::try_generate`] returns the `Err` (and
    /// [`crate::ClientKey::generate`] panics with it).
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// use gpufhe::{ClientKey, ConfigBuilder};
    /// let mut weak = DEFAULT_PARAMETERS;
    /// weak.lwe_dimension.0 = 512; // the default noise on a smaller key: insecure
    /// let config = ConfigBuilder::default().use_custom_parameters(weak).build();
    /// assert!(ClientKey::try_generate(config).is_err());
    /// ```
    pub fn use_custom_parameters(self, parameters: ShortintParameters) -> Self {
        Self {
            parameters,
            compression: None,
            unchecked: true,
            dedicated_pke: None,
            noise_squashing: None,
            re_randomization: None,
            noise_squashing_compression: None,
        }
    }

    /// Uses `parameters` instead of the block parameters chosen so far (keeping
    /// compression), `Err` at once unless they are a valid parameter set
    /// ([`ShortintParameters::validate`]) whose blocks hold a whole divisor of 8
    /// message bits (so that every integer width is a whole number of blocks) and at
    /// least as many carry values as message values (two blocks can be packed into
    /// one for a bivariate lookup table).
    ///
    /// They must also be secure: both noise distributions on the 128-bit curve of
    /// the lattice estimator and a claim of at least 128 bits
    /// ([`ShortintParameters::check_security`]); insecure sets (for tests and
    /// experiments) go through [`ConfigBuilder::with_insecure_custom_parameters`].
    ///
    /// ```
    /// use gpufhe::shortint::parameters::PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128 as GAUSSIAN;
    /// use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// use gpufhe::ConfigBuilder;
    /// let builder = ConfigBuilder::default().try_use_custom_parameters(GAUSSIAN)?;
    /// assert_eq!(builder.build().parameters(), &GAUSSIAN);
    /// assert!(ConfigBuilder::default().try_use_custom_parameters(TEST_PARAMS).is_err());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_use_custom_parameters(self, parameters: ShortintParameters) -> Result<Self> {
        let checked = self.with_insecure_custom_parameters(parameters)?;
        parameters.check_security()?;
        Ok(checked)
    }

    /// [`ConfigBuilder::try_use_custom_parameters`] without the security check: for
    /// tests (the `*_INSECURE_TEST_*` sets) and experiments. Keys of such a
    /// configuration can only be read back inside
    /// [`crate::serialization::with_insecure_parameters_allowed`].
    ///
    /// ```
    /// use gpufhe::ConfigBuilder;
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let mut weak = DEFAULT_PARAMETERS;
    /// weak.lwe_dimension.0 = 512; // the default noise on a smaller key: insecure
    /// assert!(ConfigBuilder::default().try_use_custom_parameters(weak).is_err());
    /// assert!(ConfigBuilder::default().with_insecure_custom_parameters(weak).is_ok());
    /// ```
    pub fn with_insecure_custom_parameters(self, parameters: ShortintParameters) -> Result<Self> {
        check_integer_parameters(&parameters)?;
        Ok(Self {
            parameters,
            unchecked: false,
            ..self
        })
    }

    /// Uses the multi-bit parameters
    /// ([`crate::shortint::PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`]:
    /// the default blocks, 128-bit security, bootstraps by a multi-bit blind rotation
    /// of grouping factor 4), replacing the block parameters chosen so far. Every
    /// operation computes the same results; a bootstrap runs `n/4` sequential
    /// external products instead of `n`, which lowers its latency on a GPU, while on
    /// the CPU it reads a key 3.75 times larger (about 1.6 times slower per
    /// bootstrap).
    ///
    /// ```
    /// use gpufhe::shortint::PbsKind;
    /// use gpufhe::ConfigBuilder;
    /// let config = ConfigBuilder::default().use_multi_bit_pbs().build();
    /// assert_eq!(config.parameters().pbs_kind, PbsKind::MultiBit { grouping_factor: 4 });
    /// ```
    pub fn use_multi_bit_pbs(self) -> Self {
        Self {
            parameters:
                crate::shortint::PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
            unchecked: false,
            ..self
        }
    }

    /// Enables ciphertext compression with `parameters` (for the default block
    /// parameters: [`crate::shortint::COMP_PARAM_MESSAGE_2_CARRY_2`]): the client key
    /// then holds a compression key, and server keys the keys that pack values into
    /// a [`crate::CompressedCiphertextList`] and expand them. Parameters that do not
    /// suit the block parameters (or are insecure beside secure block parameters)
    /// make key generation fail ([`crate::ClientKey::try_generate`] returns the
    /// `Err`); [`ConfigBuilder::try_enable_compression`] checks them at once.
    ///
    /// ```
    /// use gpufhe::shortint::COMP_PARAM_MESSAGE_2_CARRY_2;
    /// use gpufhe::ConfigBuilder;
    /// let config = ConfigBuilder::default()
    ///     .enable_compression(COMP_PARAM_MESSAGE_2_CARRY_2)
    ///     .build();
    /// assert_eq!(config.compression_parameters(), Some(&COMP_PARAM_MESSAGE_2_CARRY_2));
    /// ```
    pub fn enable_compression(self, parameters: CompressionParameters) -> Self {
        Self {
            compression: Some(parameters),
            ..self
        }
    }

    /// [`ConfigBuilder::enable_compression`], `Err` at once if the parameters do not
    /// suit the block parameters.
    ///
    /// ```
    /// use gpufhe::shortint::{COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2, COMP_PARAM_MESSAGE_2_CARRY_2};
    /// use gpufhe::ConfigBuilder;
    /// let builder = ConfigBuilder::default().try_enable_compression(COMP_PARAM_MESSAGE_2_CARRY_2)?;
    /// assert!(builder.build().compression_parameters().is_some());
    /// // Insecure compression beside the secure default blocks:
    /// let insecure = COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
    /// assert!(ConfigBuilder::default().try_enable_compression(insecure).is_err());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_enable_compression(self, parameters: CompressionParameters) -> Result<Self> {
        let builder = self.enable_compression(parameters);
        builder.build().check()?;
        Ok(builder)
    }

    /// Dedicated parameters of compact public-key encryption and the keyswitch from
    /// their key to the computation key (as TFHE-rs's method of this name): the
    /// client key gets a dedicated compact secret key, compact public keys encrypt
    /// under it, and the server key gets the keyswitching key that casts expanded
    /// blocks to computation blocks (a keyswitch, then a bootstrap with the
    /// expansion's lookup table). The parameters are checked at key generation
    /// ([`crate::ClientKey::try_generate`] returns the `Err`). Not in gpufhe's own
    /// format of a [`Config`] (TFHE-rs's form has it).
    ///
    /// ```
    /// use gpufhe::shortint::parameters::{
    ///     PARAM_KEYSWITCH_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
    ///     PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as PKE,
    /// };
    /// use gpufhe::ConfigBuilder;
    /// let config = ConfigBuilder::default()
    ///     .use_dedicated_compact_public_key_parameters((PKE, KS))
    ///     .build();
    /// assert_ne!(config, ConfigBuilder::default().build());
    /// assert_eq!(config.public_key_encryption_parameters()?, PKE);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn use_dedicated_compact_public_key_parameters(
        self,
        parameters: (
            CompactPublicKeyEncryptionParameters,
            ShortintKeySwitchingParameters,
        ),
    ) -> Self {
        Self {
            dedicated_pke: Some(parameters),
            ..self
        }
    }

    /// The configuration.
    ///
    /// ```
    /// use gpufhe::shortint::{
    ///     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMPRESSION,
    ///     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS,
    /// };
    /// use gpufhe::{Config, ConfigBuilder};
    /// let config: Config = ConfigBuilder::default()
    ///     .with_insecure_custom_parameters(TEST_PARAMS)?
    ///     .enable_compression(TEST_COMPRESSION)
    ///     .build();
    /// assert_eq!(config.parameters(), &TEST_PARAMS);
    /// assert_eq!(config.compression_parameters(), Some(&TEST_COMPRESSION));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn build(self) -> Config {
        Config {
            parameters: self.parameters,
            compression: self.compression,
            unchecked: self.unchecked,
            dedicated_pke: self.dedicated_pke,
            noise_squashing: self.noise_squashing,
            re_randomization: self.re_randomization,
            noise_squashing_compression: self.noise_squashing_compression,
        }
    }

    /// Enables noise squashing (as TFHE-rs's method of this name): client keys get a
    /// noise-squashing private key, server keys a 128-bit bootstrap key, and values
    /// can be squashed ([`crate::SquashNoise`]). Parameters that do not suit the
    /// blocks make key generation fail.
    ///
    /// ```
    /// use gpufhe::shortint::NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as NS;
    /// use gpufhe::ConfigBuilder;
    /// let config = ConfigBuilder::default().enable_noise_squashing(NS).build();
    /// assert_eq!(config.noise_squashing_parameters(), Some(&NS));
    /// ```
    pub fn enable_noise_squashing(self, parameters: NoiseSquashingParameters) -> Self {
        Self {
            noise_squashing: Some(parameters),
            ..self
        }
    }

    /// Enables the compression of squashed values (as TFHE-rs's method of this
    /// name): client keys get a compression private key, server keys a 128-bit
    /// packing keyswitching key, and squashed values can be packed into a
    /// [`crate::CompressedSquashedNoiseCiphertextList`]. It needs noise squashing
    /// ([`ConfigBuilder::enable_noise_squashing`]); parameters that do not suit it
    /// make key generation fail.
    ///
    /// ```
    /// use gpufhe::shortint::NOISE_SQUASHING_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as COMP;
    /// use gpufhe::shortint::NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as NS;
    /// use gpufhe::ConfigBuilder;
    /// let config = ConfigBuilder::default()
    ///     .enable_noise_squashing(NS)
    ///     .enable_noise_squashing_compression(COMP)
    ///     .build();
    /// assert_eq!(config.noise_squashing_compression_parameters(), Some(&COMP));
    /// ```
    pub fn enable_noise_squashing_compression(
        self,
        parameters: NoiseSquashingCompressionParameters,
    ) -> Self {
        Self {
            noise_squashing_compression: Some(parameters),
            ..self
        }
    }
}

impl ConfigBuilder {
    /// Enables the re-randomization of ciphertexts (as TFHE-rs's method of this
    /// name): with [`ReRandomizationParameters::DerivedCPKWithoutKeySwitch`] the
    /// server key holds a compact public key of the computation key; with
    /// [`ReRandomizationParameters::LegacyDedicatedCPKWithKeySwitch`] (which needs
    /// [`ConfigBuilder::use_dedicated_compact_public_key_parameters`]) it holds the
    /// keyswitch from the dedicated key to the big key, and the caller passes the
    /// dedicated compact public key. Where TFHE-rs panics on parameters that do not
    /// go together, key generation returns the `Err`
    /// ([`crate::ClientKey::try_generate`]). See [`crate::ReRandomize`].
    ///
    /// ```
    /// use gpufhe::shortint::parameters::ReRandomizationParameters;
    /// use gpufhe::shortint::PARAM_KEYSWITCH_TO_BIG_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS;
    /// use gpufhe::{ClientKey, ConfigBuilder};
    /// let config = ConfigBuilder::default()
    ///     .enable_ciphertext_re_randomization(ReRandomizationParameters::DerivedCPKWithoutKeySwitch)
    ///     .build();
    /// assert!(config.re_randomization_parameters().is_some());
    /// // The legacy mode without dedicated public-key parameters: refused.
    /// let legacy = ConfigBuilder::default().enable_ciphertext_re_randomization(KS);
    /// assert!(ClientKey::try_generate(legacy).is_err());
    /// ```
    pub fn enable_ciphertext_re_randomization(
        self,
        parameters: impl Into<ReRandomizationParameters>,
    ) -> Self {
        Self {
            re_randomization: Some(parameters.into()),
            ..self
        }
    }
}

impl From<ConfigBuilder> for Config {
    fn from(builder: ConfigBuilder) -> Self {
        builder.build()
    }
}

/// `Err` unless `parameters` are valid for encrypted integers (see
/// [`ConfigBuilder::try_use_custom_parameters`]).
fn check_integer_parameters(parameters: &ShortintParameters) -> Result<()> {
    parameters.validate()?;
    let message_bits = parameters.message_modulus.trailing_zeros();
    if parameters.message_modulus < 2 || 8 % message_bits != 0 {
        return Err(Error::InvalidParameter(format!(
            "encrypted integers need blocks of 1, 2, 4 or 8 message bits, not a message \
             modulus of {}",
            parameters.message_modulus
        )));
    }
    if parameters.carry_modulus < parameters.message_modulus {
        return Err(Error::InvalidParameter(format!(
            "encrypted integers need a carry modulus ({}) at least the message modulus ({})",
            parameters.carry_modulus, parameters.message_modulus
        )));
    }
    Ok(())
}

pub(crate) use crate::integer::block_count;

/// `Err` unless a key holds compression material exactly when `config` enables
/// compression, for its parameters.
fn check_presence<K>(
    config: &Config,
    key: Option<&K>,
    what: &str,
    check: impl FnOnce(&K, &shortint::CompressionParameters) -> Result<()>,
) -> Result<()> {
    match (config.compression_parameters(), key) {
        (None, None) => Ok(()),
        (Some(c), Some(k)) => check(k, c),
        (Some(_), None) => Err(Error::InvalidParameter(format!(
            "the configuration enables compression but the key has no {what}"
        ))),
        (None, Some(_)) => Err(Error::InvalidParameter(format!(
            "the key has a {what} but its configuration does not enable compression"
        ))),
    }
}

/// `Err` unless the parameters are `expected`.
fn check_same(
    got: &shortint::CompressionParameters,
    expected: &shortint::CompressionParameters,
) -> Result<()> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::InvalidParameter(
            "the compression key's parameters differ from its configuration's".into(),
        ))
    }
}

/// The check of a client key's compression key against its configuration.
pub(crate) fn check_private_key(
    config: &Config,
    key: Option<&CompressionPrivateKey>,
) -> Result<()> {
    check_presence(config, key, "compression key", |k, c| {
        check_same(k.parameters(), c)?;
        k.check_shape()
    })
}

/// The check of a compressed server key's compression keys against its
/// configuration.
pub(crate) fn check_seeded_keys(
    config: &Config,
    keys: Option<&CompressedCompressionKeys>,
) -> Result<()> {
    check_presence(config, keys, "compression keys", |k, c| {
        check_same(k.parameters(), c)?;
        k.validate(config.parameters())
    })
}

/// The check of a server key's compression keys against its configuration.
pub(crate) fn check_expanded_keys(config: &Config, keys: Option<&CompressionKeys>) -> Result<()> {
    check_presence(config, keys, "compression keys", |k, c| {
        check_same(k.parameters(), c)?;
        k.validate(config.parameters())
    })
}

/// `Err` unless a key's block parameters are those of its configuration.
pub(crate) fn check_parameters(
    config: &Config,
    parameters: &shortint::ShortintParameters,
) -> Result<()> {
    if config.parameters() == parameters {
        Ok(())
    } else {
        Err(Error::InvalidParameter(
            "the key's parameters differ from its configuration's".into(),
        ))
    }
}
