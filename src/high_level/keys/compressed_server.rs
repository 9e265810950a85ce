//! The compressed server key: seeds and bodies, decompressed to the CPU or to GPUs.

use super::client::{expect_os_randomness, ClientKey};
use super::re_randomization::{CompressedReRandomizationKey, ReRandomizationKey};
use super::server::{key_material_accessors, ServerKey};
use super::tag::KeyTag;
use crate::error::{Error, Result};
use crate::high_level::config::{check_parameters, check_seeded_keys, Config};
use crate::scheduler::{
    get_number_of_gpus, no_gpu_error, ExpansionCache, GpuSelection, Scheduler, SchedulerConfig,
};
use crate::shortint;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The server key as seeds and bodies: much smaller to store or send (about 30 MB
/// instead of 120 MB on the default parameters). [`CompressedServerKey::decompress`]
/// expands it into the [`ServerKey`] it stands for.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{set_server_key, ClientKey, CompressedServerKey, FheUint8};
/// let client_key = ClientKey::generate(config);
/// let compressed = CompressedServerKey::new(&client_key);
/// set_server_key(compressed.decompress());
/// let x = FheUint8::encrypt(0b1100u8, &client_key);
/// let y = &x & 0b1010u8;
/// let clear: u8 = y.decrypt(&client_key);
/// assert_eq!(clear, 0b1000);
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "CompressedServerKeyParts")]
pub struct CompressedServerKey {
    tag: KeyTag,
    config: Config,
    key: shortint::CompressedServerKey,
    /// The keys of ciphertext compression, when the configuration enables it.
    compression: Option<shortint::CompressedCompressionKeys>,
    /// The keys expanded from their seeds, once, for every GPU this key (or a
    /// clone) is decompressed to; not written.
    #[serde(skip)]
    expanded: ExpansionCache,
    /// The dedicated OPRF key of a key read from TFHE-rs's data, kept to be
    /// written back; not in gpufhe's own format.
    #[serde(skip)]
    tfhe_rs_oprf:
        std::sync::OnceLock<Arc<crate::high_level::tfhe_rs::wire::server::CompressedOprfServerKey>>,
    /// The noise-squashing key, when the configuration enables noise squashing;
    /// not in gpufhe's own format (writing it there is an `Err`).
    #[serde(
        skip_deserializing,
        serialize_with = "crate::high_level::serialization::own_format::no_squashing_lock"
    )]
    noise_squashing: std::sync::OnceLock<Arc<shortint::CompressedNoiseSquashingKey>>,
    /// The seeded compression key of squashed values, when the configuration
    /// enables it; not in gpufhe's own format.
    #[serde(
        skip_deserializing,
        serialize_with = "crate::high_level::serialization::own_format::no_squashing_lock"
    )]
    noise_squashing_compression:
        std::sync::OnceLock<Arc<shortint::CompressedNoiseSquashingCompressionKey>>,
    /// The casting key of dedicated compact public-key lists (not compressed), if
    /// the configuration has dedicated compact public-key parameters; not in
    /// gpufhe's own format (in TFHE-rs's: writing it in gpufhe's is an `Err`).
    #[serde(serialize_with = "crate::high_level::lists::casting::not_dedicated_in_own_format")]
    casting: Option<Arc<shortint::CompressedCastingKey>>,
    /// The re-randomization key material, when the configuration enables
    /// re-randomization; not in gpufhe's own format (writing it there is an `Err`;
    /// TFHE-rs's form carries it).
    #[serde(
        skip_deserializing,
        serialize_with = "crate::high_level::re_randomization_metadata::not_in_own_format"
    )]
    re_randomization: Option<Arc<CompressedReRandomizationKey>>,
}

/// The fields of a [`CompressedServerKey`] as read, before they are checked.
#[derive(Deserialize)]
struct CompressedServerKeyParts {
    tag: KeyTag,
    config: Config,
    key: shortint::CompressedServerKey,
    compression: Option<shortint::CompressedCompressionKeys>,
}

impl TryFrom<CompressedServerKeyParts> for CompressedServerKey {
    type Error = Error;

    fn try_from(parts: CompressedServerKeyParts) -> Result<Self> {
        check_parameters(&parts.config, parts.key.parameters())?;
        check_seeded_keys(&parts.config, parts.compression.as_ref())?;
        Ok(Self {
            tag: parts.tag,
            config: parts.config,
            key: parts.key,
            compression: parts.compression,
            expanded: ExpansionCache::default(),
            tfhe_rs_oprf: Default::default(),
            noise_squashing: Default::default(),
            noise_squashing_compression: Default::default(),
            casting: None,
            re_randomization: None,
        })
    }
}

impl CompressedServerKey {
    /// A key of these parts, checked (the compression keys against the
    /// configuration).
    pub(crate) fn from_parts_with_compression(
        tag: KeyTag,
        config: Config,
        key: shortint::CompressedServerKey,
        compression: Option<shortint::CompressedCompressionKeys>,
    ) -> Result<Self> {
        Self::try_from(CompressedServerKeyParts {
            tag,
            config,
            key,
            compression,
        })
    }

    /// Its compression keys, if its configuration enables compression.
    pub(crate) fn compression_keys(&self) -> Option<&shortint::CompressedCompressionKeys> {
        self.compression.as_ref()
    }

    /// Its `shortint` key.
    pub(crate) fn shortint_key(&self) -> &shortint::CompressedServerKey {
        &self.key
    }

    /// The dedicated OPRF key of a key read from TFHE-rs's data.
    pub(crate) fn tfhe_rs_oprf(
        &self,
    ) -> &std::sync::OnceLock<Arc<crate::high_level::tfhe_rs::wire::server::CompressedOprfServerKey>>
    {
        &self.tfhe_rs_oprf
    }
}

impl CompressedServerKey {
    /// Generates the compressed server key of `client_key`.
    ///
    /// # Panics
    ///
    /// Only if the operating system's random source fails; see
    /// [`CompressedServerKey::try_new`].
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{set_server_key, ClientKey, CompressedServerKey, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedServerKey::new(&client_key);
    /// set_server_key(compressed.decompress());
    /// let x = FheUint8::encrypt(5u8, &client_key);
    /// let y: u8 = (&x + 1u8).decrypt(&client_key);
    /// assert_eq!(y, 6);
    /// ```
    #[track_caller]
    pub fn new(client_key: &ClientKey) -> Self {
        expect_os_randomness(Self::try_new(client_key), "CompressedServerKey::new")
    }

    /// Generates the compressed server key of `client_key`; `Err` if the operating
    /// system's random source fails.
    ///
    /// ```
    /// use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMPRESSION;
    /// use gpufhe::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config.enable_compression(TEST_COMPRESSION));
    /// let compressed = CompressedServerKey::try_new(&client_key)?;
    /// assert!(compressed.has_compression_key()); // as its configuration enables it
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_new(client_key: &ClientKey) -> Result<Self> {
        let compression = client_key
            .compression_key()
            .map(|c| shortint::CompressedCompressionKeys::new(client_key.shortint_key(), c))
            .transpose()?;
        let out = Self {
            tag: client_key.tag(),
            config: *client_key.config(),
            key: shortint::CompressedServerKey::new(client_key.shortint_key())?,
            compression,
            expanded: ExpansionCache::default(),
            tfhe_rs_oprf: Default::default(),
            noise_squashing: Default::default(),
            noise_squashing_compression: Default::default(),
            casting: client_key
                .dedicated_compact_key()
                .map(|d| {
                    d.compressed_casting_key(client_key.shortint_key())
                        .map(Arc::new)
                })
                .transpose()?,
            re_randomization: CompressedReRandomizationKey::new(client_key)?.map(Arc::new),
        };
        if let Some(private) = client_key.noise_squashing_key() {
            let key =
                shortint::CompressedNoiseSquashingKey::new(client_key.shortint_key(), private)?;
            out.noise_squashing.get_or_init(|| Arc::new(key));
            if let Some(compression) = client_key.noise_squashing_compression_key() {
                let key =
                    shortint::CompressedNoiseSquashingCompressionKey::new(private, compression)?;
                out.noise_squashing_compression
                    .get_or_init(|| Arc::new(key));
            }
        }
        Ok(out)
    }

    /// Its seeded noise-squashing key (set once).
    pub(crate) fn noise_squashing_key(
        &self,
    ) -> &std::sync::OnceLock<Arc<shortint::CompressedNoiseSquashingKey>> {
        &self.noise_squashing
    }

    /// Its seeded compression key of squashed values (set once).
    pub(crate) fn noise_squashing_compression_key(
        &self,
    ) -> &std::sync::OnceLock<Arc<shortint::CompressedNoiseSquashingCompressionKey>> {
        &self.noise_squashing_compression
    }

    /// `server_key` with the expanded noise-squashing keys (on the rayon pool).
    fn with_noise_squashing(&self, server_key: ServerKey) -> ServerKey {
        if let Some(key) = self.noise_squashing.get() {
            let expanded = Arc::new(key.decompress());
            server_key.noise_squashing_key().get_or_init(|| expanded);
        }
        if let Some(key) = self.noise_squashing_compression.get() {
            let expanded = Arc::new(key.decompress());
            server_key
                .noise_squashing_compression_key()
                .get_or_init(|| expanded);
        }
        server_key
    }

    /// Expands the seeds into a server key that computes on the CPU, with the CPU
    /// thread budget of the environment (`GPUFHE_CPU_THREADS`, see
    /// [`SchedulerConfig`]).
    ///
    /// An invalid `GPUFHE_*` value: every fallible entry point (this one's
    /// [`CompressedServerKey::try_decompress`], the `decompress_to_*` functions,
    /// `safe_deserialize` of a [`ServerKey`]) returns it as an `Err` naming the
    /// variable; this infallible one, TFHE-rs's signature, reports it on stderr and
    /// uses the default configuration instead of panicking.
    ///
    /// # Panics
    ///
    /// If the host cannot reserve the memory the key needs (about 172 MiB on the
    /// default parameters); [`CompressedServerKey::try_decompress`] returns that as
    /// an `Err`.
    ///
    /// ```
    /// use gpufhe::scheduler::WorkerInfo;
    /// use gpufhe::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let server_key = CompressedServerKey::new(&client_key).decompress();
    /// assert_eq!(server_key.tag(), client_key.tag());
    /// assert!(matches!(server_key.workers()[..], [WorkerInfo::Cpu { .. }]));
    /// ```
    #[track_caller]
    pub fn decompress(&self) -> ServerKey {
        let config = SchedulerConfig::from_env().unwrap_or_else(|e| {
            eprintln!("gpufhe: {e}; using the default scheduler configuration");
            SchedulerConfig::default()
        });
        match self.decompress_on_cpu(&config) {
            Ok(key) => key,
            Err(e) => panic!("CompressedServerKey::decompress failed: {e}"),
        }
    }

    /// [`CompressedServerKey::decompress`], with an `Err` instead of a panic when the
    /// host cannot reserve the memory the key needs (`OutOfMemory`, checked before
    /// anything is allocated: a key read from untrusted bytes may claim parameters
    /// whose key is large), and instead of the defaults when a `GPUFHE_*` value is
    /// invalid (`InvalidParameter` naming the variable).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{with_server_key_as_context, ClientKey, CompressedServerKey, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let server_key = CompressedServerKey::new(&client_key).try_decompress()?;
    /// let x = FheUint8::encrypt(6u8, &client_key);
    /// let y = with_server_key_as_context(server_key, || &x * 7u8);
    /// let clear: u8 = y.decrypt(&client_key);
    /// assert_eq!(clear, 42);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn try_decompress(&self) -> Result<ServerKey> {
        self.decompress_on_cpu(&SchedulerConfig::from_env()?)
    }

    /// The key on the CPU with the CPU settings of `config`.
    fn decompress_on_cpu(&self, config: &SchedulerConfig) -> Result<ServerKey> {
        let key = self.key.decompress()?;
        let compression = self.expand_compression()?;
        self.with_tfhe_rs_oprf(
            self.with_noise_squashing(
                ServerKey::from_parts(self.tag, self.config, key, compression, config)
                    .with_casting_key(self.expand_casting())
                    .with_re_randomization_key(self.expand_re_randomization()?),
            ),
        )
    }

    /// The casting key of dedicated compact public-key lists, if it has one.
    pub(crate) fn casting_key(&self) -> Option<&Arc<shortint::CompressedCastingKey>> {
        self.casting.as_ref()
    }

    /// Its re-randomization key material, if it has some.
    pub(crate) fn re_randomization_key(&self) -> Option<&CompressedReRandomizationKey> {
        self.re_randomization.as_deref()
    }

    /// Its re-randomization material with the masks regenerated, if it has some.
    fn expand_re_randomization(&self) -> Result<Option<Arc<ReRandomizationKey>>> {
        self.re_randomization
            .as_ref()
            .map(|k| k.decompress().map(Arc::new))
            .transpose()
    }

    /// This key with the re-randomization key material `key`.
    pub(crate) fn with_re_randomization_key(
        self,
        key: Option<Arc<CompressedReRandomizationKey>>,
    ) -> Self {
        Self {
            re_randomization: key,
            ..self
        }
    }

    /// The casting key with its masks regenerated, if it has one.
    fn expand_casting(&self) -> Option<Arc<shortint::CastingKey>> {
        self.casting.as_ref().map(|k| Arc::new(k.decompress()))
    }

    /// This key with the casting key `key`.
    pub(crate) fn with_casting_key(self, key: Option<Arc<shortint::CompressedCastingKey>>) -> Self {
        Self {
            casting: key,
            ..self
        }
    }

    /// `key` with the dedicated OPRF key of a key read from TFHE-rs's data,
    /// expanded as TFHE-rs expands it.
    fn with_tfhe_rs_oprf(&self, key: ServerKey) -> Result<ServerKey> {
        if let Some(oprf) = self.tfhe_rs_oprf.get() {
            let expanded = crate::high_level::tfhe_rs::expand_oprf_key(oprf)?;
            let _ = key.tfhe_rs_oprf().set(Arc::new(expanded));
        }
        Ok(key)
    }

    /// The compression keys expanded, if there are any.
    fn expand_compression(&self) -> Result<Option<Arc<shortint::CompressionKeys>>> {
        self.compression
            .as_ref()
            .map(|c| c.decompress().map(Arc::new))
            .transpose()
    }

    /// A server key built as `config` says: on the GPUs of its devices
    /// (`GPUFHE_DEVICES` by default: every visible GPU), or on the CPU when they
    /// resolve to none, with its streams per GPU, over-provisioning, largest batch
    /// per launch, CPU threads and GPU-to-core ratio. `Err` if the devices name GPUs
    /// that do not exist, or a GPU lacks memory for the key.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::scheduler::{SchedulerConfig, WorkerInfo};
    /// use gpufhe::{ClientKey, CompressedServerKey};
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedServerKey::new(&client_key);
    /// let config = SchedulerConfig::builder().devices("cpu").cpu_threads(1).build()?;
    /// let key = compressed.decompress_with(&config)?;
    /// assert_eq!(key.workers(), [WorkerInfo::Cpu { threads: 1 }]);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn decompress_with(&self, config: &SchedulerConfig) -> Result<ServerKey> {
        let gpus = config.resolve_devices(get_number_of_gpus())?;
        if gpus.is_empty() {
            return self.decompress_on_cpu(config);
        }
        self.decompress_on(&GpuSelection::from(gpus), config)
    }

    /// A server key that computes on the GPUs of `GPUFHE_DEVICES` (every visible
    /// GPU when it is unset): single operations on the GPU where their operands are
    /// (else the least busy), batches split over all of them. `Err` (saying so) when
    /// no GPU is visible or `GPUFHE_DEVICES` selects none, when an environment
    /// variable of [`SchedulerConfig`] is invalid, or when a GPU lacks memory for the
    /// key. [`CompressedServerKey::decompress_to_gpu`] is the same key in TFHE-rs's
    /// shape.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedServerKey::new(&client_key);
    /// let gpus = match compressed.try_decompress_to_gpu() {
    ///     Ok(key) => key.gpus().len() as u32,
    ///     Err(gpufhe::Error::NoCudaDevice(_)) => 0, // no GPU visible
    ///     Err(e) => panic!("{e}"),
    /// };
    /// assert_eq!(gpus, gpufhe::get_number_of_gpus());
    /// ```
    pub fn try_decompress_to_gpu(&self) -> Result<ServerKey> {
        let config = SchedulerConfig::from_env()?;
        let gpus = config.resolve_devices(get_number_of_gpus())?;
        if gpus.is_empty() {
            return Err(no_gpu_error("decompress_to_gpu"));
        }
        self.decompress_on(&GpuSelection::from(gpus), &config)
    }

    /// A server key that computes on the chosen GPUs: a [`GpuIndex`](crate::GpuIndex), or a `Vec`,
    /// slice or array of them, or a [`crate::CudaGpuChoice`] (see
    /// [`CompressedServerKey::try_decompress_to_gpu`]). Each chosen GPU holds a copy
    /// of the key. `Err` for an empty selection, a GPU named twice or not visible,
    /// or a GPU that lacks memory.
    ///
    /// ```no_run
    /// use gpufhe::prelude::*;
    /// use gpufhe::{set_server_key, ClientKey, CompressedServerKey, ConfigBuilder, Device, FheUint64, GpuIndex};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let compressed = CompressedServerKey::new(&client_key);
    /// let key = compressed.try_decompress_to_specific_gpu(GpuIndex::new(0)).unwrap();
    /// set_server_key(key);
    /// let a = FheUint64::encrypt(7u64, &client_key);
    /// let b = FheUint64::encrypt(35u64, &client_key);
    /// let c = &a + &b; // on GPU 0; the result stays there
    /// assert_eq!(c.current_device(), Device::CudaGpu(GpuIndex::new(0)));
    /// let clear: u64 = c.decrypt(&client_key);
    /// assert_eq!(clear, 42);
    /// ```
    pub fn try_decompress_to_specific_gpu(
        &self,
        gpus: impl Into<GpuSelection>,
    ) -> Result<ServerKey> {
        self.decompress_on(&gpus.into(), &SchedulerConfig::from_env()?)
    }

    /// A key on `gpus`, after checking them, with the other settings of `config`.
    fn decompress_on(&self, gpus: &GpuSelection, config: &SchedulerConfig) -> Result<ServerKey> {
        gpus.check(get_number_of_gpus())?;
        {
            let scheduler = Scheduler::gpus(&self.key, &self.expanded, gpus.gpus(), config)?;
            let compression = self.expand_compression()?;
            // The noise-squashing key stays on the host here: a GPU key converts it
            // to its first GPU when it first squashes (`backend::cuda`).
            self.with_tfhe_rs_oprf(
                self.with_noise_squashing(
                    ServerKey::from_scheduler(self.tag, self.config, scheduler, compression)
                        .with_casting_key(self.expand_casting())
                        .with_re_randomization_key(self.expand_re_randomization()?),
                ),
            )
        }
    }

    /// The configuration of its client key.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedServerKey::new(&client_key);
    /// assert_eq!(compressed.config(), client_key.config());
    /// ```
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The tag of its client key.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedServerKey::new(&client_key);
    /// assert_eq!(compressed.tag(), client_key.tag());
    /// ```
    pub fn tag(&self) -> KeyTag {
        self.tag
    }

    /// The host memory, in bytes, that decompressing the key needs at its peak
    /// (checked against the memory budget, [`crate::memory`], before anything is
    /// allocated): [`ShortintParameters::server_key_peak_bytes`](crate::shortint::ShortintParameters::server_key_peak_bytes)
    /// and the compression keys. The seeds replace every mask, so a key grows
    /// about 2(k + 1)× (standard and Fourier bootstrap keys): 4.4× on the default
    /// parameters with compression keys (64 MB stored, 281 MB expanded), 4.7× on
    /// the multi-bit defaults (113 MB, 528 MB).
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config); // no compression keys
    /// let compressed = CompressedServerKey::new(&client_key);
    /// assert_eq!(Some(compressed.expanded_bytes()), TEST_PARAMS.server_key_peak_bytes());
    /// ```
    pub fn expanded_bytes(&self) -> u64 {
        let key = self.key.parameters().server_key_peak_bytes();
        let compression = self.compression.as_ref().map_or(0, |c| c.expanded_bytes());
        key.map_or(u64::MAX, |k| k.saturating_add(compression))
    }
}

key_material_accessors!(CompressedServerKey);
