//! Keys and the thread's server key.

use super::config::{block_count, Config};
pub use super::key_tag::KeyTag;
use super::storage::{Input, Storage};
use crate::error::{Error, Result};
use crate::integer::{self, Circuit, Radix};
use crate::scheduler::{
    get_number_of_gpus, no_gpu_error, Blocks, Calibration, CircuitInput, CostModel, ExpansionCache,
    GpuIndex, GpuSelection, Scheduler, SchedulerConfig, WorkerInfo,
};
use crate::shortint;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The secret key: encrypts and decrypts. Cloning shares it; its secret material is
/// zeroized when the last clone is dropped. Serializing it writes the secret keys:
/// keep the bytes secret.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, ConfigBuilder, FheUint8};
/// let client_key = ClientKey::generate(ConfigBuilder::default());
/// let x = FheUint8::encrypt(200u8, &client_key);
/// let back: u8 = x.decrypt(&client_key);
/// assert_eq!(back, 200);
/// assert_eq!(x.tag(), Some(client_key.tag()));
/// ```
#[derive(Clone)]
pub struct ClientKey {
    inner: Arc<ClientKeyInner>,
}

#[derive(Serialize, Deserialize)]
struct ClientKeyInner {
    tag: KeyTag,
    config: Config,
    key: shortint::ClientKey,
    /// The compression key, when the configuration enables compression.
    compression: Option<shortint::CompressionPrivateKey>,
}

impl std::fmt::Debug for ClientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ClientKey {{ tag: {}, .. }}", self.inner.tag)
    }
}

/// Panics with `what` and the error of the OS random source (the only way key
/// generation fails once a [`Config`] exists).
#[track_caller]
fn expect_os_randomness<T>(result: Result<T>, what: &str) -> T {
    match result {
        Ok(value) => value,
        Err(e) => panic!("{what} failed (the OS random source failed?): {e}"),
    }
}

impl ClientKey {
    /// Generates a client key with a fresh random tag.
    ///
    /// # Panics
    ///
    /// If [`ClientKey::try_generate`] returns an `Err`: the operating system's random
    /// source failed, or the parameters of `config` cannot generate keys.
    #[track_caller]
    pub fn generate(config: impl Into<Config>) -> Self {
        match Self::try_generate(config) {
            Ok(key) => key,
            Err(e) => panic!("ClientKey::generate failed: {e}"),
        }
    }

    /// Generates a client key; `Err` if the operating system's random source fails,
    /// the custom parameters of `config` are invalid or insecure (see
    /// [`crate::ConfigBuilder::use_custom_parameters`]), or its compression parameters
    /// do not suit its block parameters (see
    /// [`crate::ConfigBuilder::enable_compression`]).
    pub fn try_generate(config: impl Into<Config>) -> Result<Self> {
        let config = config.into();
        config.check()?;
        let compression = config
            .compression_parameters()
            .map(|c| shortint::CompressionPrivateKey::new(*c, config.parameters()))
            .transpose()?;
        let key = shortint::ClientKey::new(*config.parameters())?;
        Ok(Self::from_parts(
            config,
            KeyTag::random()?,
            key,
            compression,
        ))
    }

    /// A client key of checked parts.
    pub(super) fn from_parts(
        config: Config,
        tag: KeyTag,
        key: shortint::ClientKey,
        compression: Option<shortint::CompressionPrivateKey>,
    ) -> Self {
        let inner = ClientKeyInner {
            tag,
            key,
            config,
            compression,
        };
        Self {
            inner: Arc::new(inner),
        }
    }

    /// Its server key, on the CPU (TFHE-rs's name for [`ServerKey::new`]).
    ///
    /// # Panics
    ///
    /// As [`ServerKey::new`].
    #[track_caller]
    pub fn generate_server_key(&self) -> ServerKey {
        ServerKey::new(self)
    }

    /// Its compressed server key (TFHE-rs's name for [`CompressedServerKey::new`]).
    ///
    /// # Panics
    ///
    /// As [`CompressedServerKey::new`].
    #[track_caller]
    pub fn generate_compressed_server_key(&self) -> CompressedServerKey {
        CompressedServerKey::new(self)
    }

    /// The configuration it was generated for.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// Its tag, carried by its server keys and its ciphertexts.
    pub fn tag(&self) -> KeyTag {
        self.inner.tag
    }

    /// The block-level secret key.
    pub fn shortint_key(&self) -> &shortint::ClientKey {
        &self.inner.key
    }

    /// The compression key, if its configuration enables compression.
    pub(crate) fn compression_key(&self) -> Option<&shortint::CompressionPrivateKey> {
        self.inner.compression.as_ref()
    }

    /// Encrypts the low `bits` bits of `value` (`Err` if it has more).
    pub(crate) fn encrypt_storage(&self, value: integer::U256, bits: u32) -> Result<Storage> {
        let key = &self.inner.key;
        let count = block_count(key.parameters(), bits);
        let mut blocks = integer::encrypt_radix(key, value, count)?;
        if bits == 1 {
            // A boolean block holds 0 or 1: its public bound says so.
            blocks[0].degree = 1;
        }
        Ok(Storage::Encrypted {
            tag: self.inner.tag,
            blocks: Blocks::cpu(blocks),
        })
    }

    /// Decrypts a value (a trivial one needs no key).
    pub(crate) fn decrypt_storage(&self, storage: &Storage) -> Result<integer::U256> {
        match storage {
            Storage::Trivial(v) => Ok(*v),
            Storage::Encrypted { tag, blocks } => {
                self.inner.tag.check(
                    "the decrypted value (decrypt with its own client key)",
                    *tag,
                )?;
                integer::decrypt_radix(&self.inner.key, &blocks.to_cpu()?)
            }
        }
    }
}

impl Serialize for ClientKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.inner.serialize(s)
    }
}

/// Checks that the key has the parameters of its configuration.
impl<'de> Deserialize<'de> for ClientKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let inner = ClientKeyInner::deserialize(d)?;
        check_parameters(&inner.config, inner.key.parameters())
            .and_then(|()| {
                super::config::check_private_key(&inner.config, inner.compression.as_ref())
            })
            .map_err(serde::de::Error::custom)?;
        Ok(Self {
            inner: Arc::new(inner),
        })
    }
}

/// `Err` unless a key's block parameters are those of its configuration.
pub(super) fn check_parameters(
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

/// The server key as seeds and bodies: much smaller to store or send (about 30 MB
/// instead of 120 MB on the default parameters). [`CompressedServerKey::decompress`]
/// expands it into the [`ServerKey`] it stands for.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{set_server_key, ClientKey, CompressedServerKey, ConfigBuilder, FheUint8};
/// let client_key = ClientKey::generate(ConfigBuilder::default());
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
        super::config::check_seeded_keys(&parts.config, parts.compression.as_ref())?;
        Ok(Self {
            tag: parts.tag,
            config: parts.config,
            key: parts.key,
            compression: parts.compression,
            expanded: ExpansionCache::default(),
        })
    }
}

impl CompressedServerKey {
    /// Generates the compressed server key of `client_key`.
    ///
    /// # Panics
    ///
    /// Only if the operating system's random source fails; see
    /// [`CompressedServerKey::try_new`].
    #[track_caller]
    pub fn new(client_key: &ClientKey) -> Self {
        expect_os_randomness(Self::try_new(client_key), "CompressedServerKey::new")
    }

    /// Generates the compressed server key of `client_key`; `Err` if the operating
    /// system's random source fails.
    pub fn try_new(client_key: &ClientKey) -> Result<Self> {
        let compression = client_key
            .compression_key()
            .map(|c| shortint::CompressedCompressionKeys::new(client_key.shortint_key(), c))
            .transpose()?;
        Ok(Self {
            tag: client_key.tag(),
            config: *client_key.config(),
            key: shortint::CompressedServerKey::new(client_key.shortint_key())?,
            compression,
            expanded: ExpansionCache::default(),
        })
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
    pub fn try_decompress(&self) -> Result<ServerKey> {
        self.decompress_on_cpu(&SchedulerConfig::from_env()?)
    }

    /// The key on the CPU with the CPU settings of `config`.
    fn decompress_on_cpu(&self, config: &SchedulerConfig) -> Result<ServerKey> {
        let key = self.key.decompress()?;
        let compression = self.expand_compression()?;
        Ok(ServerKey::from_parts(
            self.tag,
            self.config,
            key,
            compression,
            config,
        ))
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
    /// use gpufhe::scheduler::{SchedulerConfig, WorkerInfo};
    /// use gpufhe::{ClientKey, CompressedServerKey, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let compressed = CompressedServerKey::new(&client_key);
    /// let config = SchedulerConfig::builder().devices("cpu").cpu_threads(1).build()?;
    /// let key = compressed.decompress_with(&config)?;
    /// assert_eq!(key.workers(), [WorkerInfo::Cpu { threads: 1 }]);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn decompress_with(&self, config: &SchedulerConfig) -> Result<ServerKey> {
        let gpus = config.resolve_devices(get_number_of_gpus())?;
        if gpus.is_empty() {
            let key = self.key.decompress()?;
            let compression = self.expand_compression()?;
            return Ok(ServerKey::from_parts(
                self.tag,
                self.config,
                key,
                compression,
                config,
            ));
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
    /// use gpufhe::{ClientKey, CompressedServerKey, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let compressed = CompressedServerKey::new(&client_key);
    /// match compressed.try_decompress_to_gpu() {
    ///     Ok(key) => assert!(!key.gpus().is_empty()),
    ///     Err(e) => assert!(e.to_string().contains("GPU")),
    /// }
    /// ```
    pub fn try_decompress_to_gpu(&self) -> Result<ServerKey> {
        let config = SchedulerConfig::from_env()?;
        let gpus = config.resolve_devices(get_number_of_gpus())?;
        if gpus.is_empty() {
            return Err(no_gpu_error("decompress_to_gpu"));
        }
        self.decompress_on(&GpuSelection::from(gpus), &config)
    }

    /// A server key that computes on the chosen GPUs: a [`GpuIndex`], or a `Vec`,
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
            Ok(ServerKey::from_scheduler(
                self.tag,
                self.config,
                scheduler,
                compression,
            ))
        }
    }

    /// The configuration of its client key.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The tag of its client key.
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
    pub fn expanded_bytes(&self) -> u64 {
        let key = self.key.parameters().server_key_peak_bytes();
        let compression = self.compression.as_ref().map_or(0, |c| c.expanded_bytes());
        key.map_or(u64::MAX, |k| k.saturating_add(compression))
    }
}

/// The public evaluation key: what the server computes with. Cloning is cheap (the
/// key is shared); clones share their bootstrap counters too.
///
/// It holds its execution backend: the CPU ([`CompressedServerKey::decompress`]) or
/// GPUs ([`CompressedServerKey::decompress_to_gpu`],
/// [`CompressedServerKey::decompress_to_specific_gpu`]); [`crate::set_server_key`] makes it
/// the key of the current thread's operations.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key.clone());
/// let a = FheUint8::encrypt(0b0110u8, &client_key);
/// let b = FheUint8::encrypt(0b0011u8, &client_key);
/// let c = &a ^ &b;
/// let clear: u8 = c.decrypt(&client_key);
/// assert_eq!(clear, 0b0101);
/// assert_eq!(server_key.pbs_count(), 4); // one bootstrap per 2-bit block
/// ```
#[derive(Clone)]
pub struct ServerKey {
    inner: Arc<ServerKeyInner>,
}

struct ServerKeyInner {
    tag: KeyTag,
    config: Config,
    scheduler: Scheduler,
    /// The keys of ciphertext compression (on the host), if enabled.
    compression: Option<Arc<shortint::CompressionKeys>>,
    circuits: AtomicU64,
    layers: AtomicU64,
}

impl std::fmt::Debug for ServerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ServerKey {{ tag: {}, workers: {:?} }}",
            self.inner.tag,
            self.workers()
        )
    }
}

/// What a server key has run so far (shared by its clones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExecutionStats {
    /// Circuits run: one per operation; a batch runs one per share of a worker
    /// (more if memory cuts a share into chunks).
    pub circuits: u64,
    /// Keyswitch + bootstrap evaluations.
    pub bootstraps: u64,
    /// Sequential bootstrap layers (backend steps with bootstraps), summed over the
    /// circuits: the latency in units of one bootstrap batch.
    pub bootstrap_layers: u64,
    /// Batched bootstrap kernel launches on the GPUs (0 on the CPU): at least one
    /// per bootstrap layer of a circuit, more when a layer holds more ciphertexts
    /// than the largest batch per launch allows.
    pub bootstrap_launches: u64,
}

impl ServerKey {
    /// Generates the server key of `client_key`, on the CPU.
    ///
    /// # Panics
    ///
    /// Only if the operating system's random source fails; see
    /// [`ServerKey::try_new`].
    #[track_caller]
    pub fn new(client_key: &ClientKey) -> Self {
        let compressed = CompressedServerKey::try_new(client_key);
        // An invalid `GPUFHE_*` value: reported, the defaults used (as `decompress`).
        expect_os_randomness(compressed, "ServerKey::new").decompress()
    }

    /// Generates the server key of `client_key`; `Err` if the operating system's
    /// random source fails, or a `GPUFHE_*` value is invalid.
    pub fn try_new(client_key: &ClientKey) -> Result<Self> {
        CompressedServerKey::try_new(client_key)?.try_decompress()
    }

    /// A key computing on the CPU with the settings of `scheduler`.
    pub(super) fn from_parts(
        tag: KeyTag,
        config: Config,
        key: shortint::ServerKey,
        compression: Option<Arc<shortint::CompressionKeys>>,
        scheduler: &SchedulerConfig,
    ) -> Self {
        Self::from_scheduler(tag, config, Scheduler::cpu(key, scheduler), compression)
    }

    fn from_scheduler(
        tag: KeyTag,
        config: Config,
        scheduler: Scheduler,
        compression: Option<Arc<shortint::CompressionKeys>>,
    ) -> Self {
        Self {
            inner: Arc::new(ServerKeyInner {
                tag,
                config,
                scheduler,
                compression,
                circuits: AtomicU64::new(0),
                layers: AtomicU64::new(0),
            }),
        }
    }

    /// The GPUs it computes on, in the order they were chosen; empty for a key
    /// that computes on the CPU.
    ///
    /// ```
    /// use gpufhe::{generate_keys, ConfigBuilder};
    /// let (_client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// assert!(server_key.gpus().is_empty());
    /// ```
    pub fn gpus(&self) -> Vec<GpuIndex> {
        self.inner.scheduler.gpu_indices()
    }

    /// The workers it computes with: the CPU worker and its thread budget, or the
    /// stream-bound workers of each GPU (see [`crate::scheduler`]).
    ///
    /// ```
    /// use gpufhe::scheduler::WorkerInfo;
    /// use gpufhe::{generate_keys, ConfigBuilder};
    /// let (_client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// assert!(matches!(server_key.workers()[..], [WorkerInfo::Cpu { threads }] if threads >= 1));
    /// ```
    pub fn workers(&self) -> Vec<WorkerInfo> {
        self.inner.scheduler.workers()
    }

    /// The configuration of its client key.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The tag of its client key.
    pub fn tag(&self) -> KeyTag {
        self.inner.tag
    }

    /// Keyswitch + bootstrap evaluations run with this key (and its clones) so far.
    pub fn pbs_count(&self) -> u64 {
        self.inner.scheduler.pbs_count()
    }

    /// Circuits, bootstraps and bootstrap layers run with this key so far.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key.clone());
    /// let a = FheUint8::encrypt(9u8, &client_key);
    /// let _ = a.eq(&a); // 4 block comparisons, then one fold
    /// let stats = server_key.stats();
    /// assert_eq!((stats.circuits, stats.bootstraps, stats.bootstrap_layers), (1, 5, 2));
    /// ```
    pub fn stats(&self) -> ExecutionStats {
        ExecutionStats {
            circuits: self.inner.circuits.load(Ordering::Relaxed),
            bootstraps: self.pbs_count(),
            bootstrap_layers: self.inner.layers.load(Ordering::Relaxed),
            bootstrap_launches: self.inner.scheduler.launch_count(),
        }
    }

    /// The cost model its batches are split with: modelled figures (labelled so)
    /// until [`ServerKey::use_calibration`] installs measured ones. It also gives
    /// offload advice ([`CostModel::advise`]).
    ///
    /// ```
    /// use gpufhe::scheduler::Provenance;
    /// use gpufhe::{generate_keys, ConfigBuilder};
    /// let (_client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// let model = server_key.cost_model();
    /// assert_eq!(model.cpu.unwrap().provenance, Provenance::Modelled);
    /// ```
    pub fn cost_model(&self) -> CostModel {
        self.inner.scheduler.cost_model()
    }

    /// Makes its batches (and those of its clones) split over the workers by the
    /// speeds of `calibration`, measured once with [`Calibration::measure`] (and
    /// saved and loaded with [`Calibration::save`] / [`Calibration::load`]). `Err`,
    /// changing nothing, if it was measured with other parameters or GPUs.
    ///
    /// ```
    /// use gpufhe::scheduler::{Calibration, CostModel, Provenance};
    /// use gpufhe::{generate_keys, ConfigBuilder};
    /// let (_client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// let mut cpu = server_key.cost_model().cpu.unwrap();
    /// cpu.provenance = Provenance::Measured;
    /// let calibration = Calibration::new(*server_key.config().parameters(), cpu, vec![])?;
    /// server_key.use_calibration(&calibration)?;
    /// assert_eq!(server_key.cost_model().cpu.unwrap().provenance, Provenance::Measured);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn use_calibration(&self, calibration: &Calibration) -> Result<()> {
        let model = calibration.cost_model_for(self)?;
        self.inner.scheduler.set_cost_model(model);
        Ok(())
    }

    /// Runs a circuit on `inputs` (see [`Scheduler::run`]); every encrypted input
    /// must carry this key's tag. The outputs are encrypted under this key.
    pub(crate) fn execute(
        &self,
        inputs: &[Input<'_>],
        build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    ) -> Result<Vec<Storage>> {
        let inputs = self.circuit_inputs(inputs)?;
        if super::recording::recording() {
            let pending = super::recording::record(self.inner.tag, &inputs, build)?;
            return Ok(self.storages(pending));
        }
        let (outputs, stats) = self.inner.scheduler.run(&inputs, build)?;
        self.count_circuits(1, stats.depth);
        Ok(self.storages(outputs))
    }

    /// `inputs` as the scheduler takes them, or `Err(KeyMismatch)` if one belongs
    /// to another key, `Err` if its blocks are not of this key's parameters (a tag is
    /// public: a value of other parameters may carry this key's).
    pub(crate) fn circuit_inputs<'a>(&self, inputs: &[Input<'a>]) -> Result<Vec<CircuitInput<'a>>> {
        let tag = self.inner.tag;
        let parameters = self.config().parameters();
        inputs
            .iter()
            .map(|input| {
                if let Some(got) = input.storage.tag() {
                    tag.check("an operand (it was encrypted under another key)", got)?;
                }
                input.storage.conforms_to(parameters, input.bits)?;
                Ok(input.circuit_input())
            })
            .collect()
    }

    /// Output blocks as values of this key.
    fn storages(&self, outputs: Vec<Blocks>) -> Vec<Storage> {
        let tag = self.inner.tag;
        outputs
            .into_iter()
            .map(|blocks| Storage::Encrypted { tag, blocks })
            .collect()
    }

    /// Where its circuits run.
    pub(crate) fn scheduler(&self) -> &Scheduler {
        &self.inner.scheduler
    }

    /// The keys of ciphertext compression, if its configuration enables it.
    pub(crate) fn compression_keys(&self) -> Option<&shortint::CompressionKeys> {
        self.inner.compression.as_deref()
    }

    /// Counts circuits and their bootstrap layers.
    pub(crate) fn count_circuits(&self, circuits: u64, layers: usize) {
        self.inner.circuits.fetch_add(circuits, Ordering::Relaxed);
        self.inner
            .layers
            .fetch_add(layers as u64, Ordering::Relaxed);
    }
}

/// Generates a client key and its server key (on the CPU).
///
/// # Panics
///
/// Only if the operating system's random source fails.
///
/// ```
/// use gpufhe::{generate_keys, ConfigBuilder};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// assert_eq!(client_key.tag(), server_key.tag());
/// ```
#[track_caller]
pub fn generate_keys(config: impl Into<Config>) -> (ClientKey, ServerKey) {
    let client_key = ClientKey::generate(config);
    let server_key = ServerKey::new(&client_key);
    (client_key, server_key)
}
