//! Keys, their tags, and the thread's server key.

use super::backend::{Blocks, ExecutionBackend, Input, Storage};
use super::config::{block_count, Config};
use crate::backend::cpu::CpuBackend;
use crate::core_crypto::Seed;
use crate::error::{Error, Result};
use crate::integer::{self, Circuit, CircuitStats, Radix};
use crate::scheduler::{get_number_of_gpus, no_gpu_error, GpuIndex, GpuSelection};
use crate::shortint;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The random 64-bit identifier of a client key. Its server keys and every value
/// encrypted under it carry it, so that values of different keys are never mixed:
/// combining them, or decrypting with another client key, is an
/// [`Error::KeyMismatch`]. A tag is public (it is not derived from the secret key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct KeyTag(u64);

impl KeyTag {
    /// A fresh random tag from the operating system.
    fn random() -> Result<Self> {
        let seed = Seed::from_os()?;
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&seed.0[..8]);
        Ok(Self(u64::from_le_bytes(bytes)))
    }

    /// The tag as a number.
    pub fn value(self) -> u64 {
        self.0
    }

    /// `Err(KeyMismatch)` naming `what` unless `got` is this tag.
    pub(crate) fn check(self, what: &'static str, got: KeyTag) -> Result<()> {
        if self == got {
            Ok(())
        } else {
            Err(Error::KeyMismatch {
                what,
                expected: self.0,
                got: got.0,
            })
        }
    }
}

impl std::fmt::Display for KeyTag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#018x}", self.0)
    }
}

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
    /// Only if the operating system's random source fails; see
    /// [`ClientKey::try_generate`].
    #[track_caller]
    pub fn generate(config: impl Into<Config>) -> Self {
        expect_os_randomness(Self::try_generate(config), "ClientKey::generate")
    }

    /// Generates a client key; `Err` if the operating system's random source fails.
    pub fn try_generate(config: impl Into<Config>) -> Result<Self> {
        let config = config.into();
        Ok(Self {
            inner: Arc::new(ClientKeyInner {
                tag: KeyTag::random()?,
                key: shortint::ClientKey::new(*config.parameters())?,
                config,
            }),
        })
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

    /// Encrypts the low `bits` bits of `value` (`Err` if it has more).
    pub(crate) fn encrypt_storage(&self, value: u128, bits: u32) -> Result<Storage> {
        let key = &self.inner.key;
        let count = block_count(key.parameters(), bits);
        let mut blocks = integer::encrypt_radix(key, value, count)?;
        if bits == 1 {
            // A boolean block holds 0 or 1: its public bound says so.
            blocks[0].degree = 1;
        }
        Ok(Storage::Encrypted {
            tag: self.inner.tag,
            blocks: Blocks::Cpu(blocks),
        })
    }

    /// Decrypts a value (a trivial one needs no key).
    pub(crate) fn decrypt_storage(&self, storage: &Storage) -> Result<u128> {
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
            .map_err(serde::de::Error::custom)?;
        Ok(Self {
            inner: Arc::new(inner),
        })
    }
}

/// `Err` unless a key's block parameters are those of its configuration.
fn check_parameters(config: &Config, parameters: &shortint::ShortintParameters) -> Result<()> {
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
}

/// The fields of a [`CompressedServerKey`] as read, before they are checked.
#[derive(Deserialize)]
struct CompressedServerKeyParts {
    tag: KeyTag,
    config: Config,
    key: shortint::CompressedServerKey,
}

impl TryFrom<CompressedServerKeyParts> for CompressedServerKey {
    type Error = Error;

    fn try_from(parts: CompressedServerKeyParts) -> Result<Self> {
        check_parameters(&parts.config, parts.key.parameters())?;
        Ok(Self {
            tag: parts.tag,
            config: parts.config,
            key: parts.key,
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
        Ok(Self {
            tag: client_key.tag(),
            config: *client_key.config(),
            key: shortint::CompressedServerKey::new(client_key.shortint_key())?,
        })
    }

    /// Expands the seeds into a server key that computes on the CPU.
    pub fn decompress(&self) -> ServerKey {
        ServerKey::from_parts(self.tag, self.config, self.key.decompress())
    }

    /// A server key that computes on every visible GPU: single operations on the
    /// first, batches ([`crate::FheUint::batch`], ...) split over all of them. `Err`
    /// (saying so) when no GPU is visible, or when a GPU lacks memory for the key.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedServerKey, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let compressed = CompressedServerKey::new(&client_key);
    /// match compressed.decompress_to_gpu() {
    ///     Ok(key) => assert_eq!(key.gpus().len() as u32, gpufhe::get_number_of_gpus()),
    ///     Err(e) => assert!(e.to_string().contains("GPU")),
    /// }
    /// ```
    pub fn decompress_to_gpu(&self) -> Result<ServerKey> {
        let count = get_number_of_gpus();
        if count == 0 {
            return Err(no_gpu_error("decompress_to_gpu"));
        }
        self.decompress_to_specific_gpu((0..count).map(GpuIndex::new).collect::<Vec<_>>())
    }

    /// A server key that computes on the chosen GPUs: a [`GpuIndex`], or a `Vec`,
    /// slice or array of them (see [`CompressedServerKey::decompress_to_gpu`]).
    /// Each chosen GPU holds a copy of the key. `Err` for an empty selection, a GPU
    /// named twice or not visible, or a GPU that lacks memory.
    ///
    /// ```no_run
    /// use gpufhe::prelude::*;
    /// use gpufhe::{set_server_key, ClientKey, CompressedServerKey, ConfigBuilder, Device, FheUint64, GpuIndex};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let compressed = CompressedServerKey::new(&client_key);
    /// let key = compressed.decompress_to_specific_gpu(GpuIndex::new(0)).unwrap();
    /// set_server_key(key);
    /// let a = FheUint64::encrypt(7u64, &client_key);
    /// let b = FheUint64::encrypt(35u64, &client_key);
    /// let c = &a + &b; // on GPU 0; the result stays there
    /// assert_eq!(c.current_device(), Device::CudaGpu(GpuIndex::new(0)));
    /// let clear: u64 = c.decrypt(&client_key);
    /// assert_eq!(clear, 42);
    /// ```
    pub fn decompress_to_specific_gpu(&self, gpus: impl Into<GpuSelection>) -> Result<ServerKey> {
        let gpus = gpus.into();
        gpus.check(get_number_of_gpus())?;
        #[cfg(feature = "gpu")]
        {
            let key = super::gpu::GpuKey::new(&self.key, &gpus)?;
            Ok(ServerKey::from_backend(
                self.tag,
                self.config,
                ExecutionBackend::Cuda(Box::new(key)),
            ))
        }
        #[cfg(not(feature = "gpu"))]
        {
            Err(no_gpu_error("decompress_to_specific_gpu"))
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
}

/// The public evaluation key: what the server computes with. Cloning is cheap (the
/// key is shared); clones share their bootstrap counters too.
///
/// It holds its execution backend: the CPU ([`CompressedServerKey::decompress`]) or
/// GPUs ([`CompressedServerKey::decompress_to_gpu`],
/// [`CompressedServerKey::decompress_to_specific_gpu`]); [`set_server_key`] makes it
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
    backend: ExecutionBackend,
    circuits: AtomicU64,
    layers: AtomicU64,
}

impl std::fmt::Debug for ServerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ServerKey {{ tag: {}, backend: {} }}",
            self.inner.tag,
            self.inner.backend.name()
        )
    }
}

/// What a server key has run so far (shared by its clones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExecutionStats {
    /// Circuits run: one per operation, one per batch.
    pub circuits: u64,
    /// Keyswitch + bootstrap evaluations.
    pub bootstraps: u64,
    /// Sequential bootstrap layers (backend steps with bootstraps), summed over the
    /// circuits: the latency in units of one bootstrap batch.
    pub bootstrap_layers: u64,
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
        expect_os_randomness(Self::try_new(client_key), "ServerKey::new")
    }

    /// Generates the server key of `client_key`; `Err` if the operating system's
    /// random source fails.
    pub fn try_new(client_key: &ClientKey) -> Result<Self> {
        Ok(CompressedServerKey::try_new(client_key)?.decompress())
    }

    fn from_parts(tag: KeyTag, config: Config, key: shortint::ServerKey) -> Self {
        Self::from_backend(tag, config, ExecutionBackend::Cpu(CpuBackend::new(key)))
    }

    fn from_backend(tag: KeyTag, config: Config, backend: ExecutionBackend) -> Self {
        Self {
            inner: Arc::new(ServerKeyInner {
                tag,
                config,
                backend,
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
        self.inner.backend.gpus()
    }

    /// Into how many parts a batch is split (one per GPU; 1 on the CPU).
    pub(crate) fn parts(&self) -> usize {
        self.inner.backend.parts()
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
        self.inner.backend.pbs_count()
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
        }
    }

    /// Runs a circuit on `inputs` (see [`ExecutionBackend::run`]); every encrypted
    /// input must carry this key's tag. The outputs are encrypted under this key.
    pub(crate) fn execute(
        &self,
        inputs: &[Input<'_>],
        build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    ) -> Result<Vec<Storage>> {
        self.execute_part(0, inputs, build)
    }

    /// [`ServerKey::execute`] on part `part` of the key (see [`ServerKey::parts`]).
    pub(crate) fn execute_part(
        &self,
        part: usize,
        inputs: &[Input<'_>],
        build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
    ) -> Result<Vec<Storage>> {
        let tag = self.inner.tag;
        for input in inputs {
            if let Some(got) = input.storage.tag() {
                tag.check("an operand (it was encrypted under another key)", got)?;
            }
        }
        let (outputs, stats): (Vec<Blocks>, CircuitStats) =
            self.inner.backend.run(part, inputs, build)?;
        self.inner.circuits.fetch_add(1, Ordering::Relaxed);
        self.inner
            .layers
            .fetch_add(stats.depth as u64, Ordering::Relaxed);
        Ok(outputs
            .into_iter()
            .map(|blocks| Storage::Encrypted { tag, blocks })
            .collect())
    }

    /// For the scheduler's calibration: the block key on the host (a GPU key
    /// expands it on first use) and the key's GPU backends in order (none on the
    /// CPU, and none without the `gpu` feature).
    pub(crate) fn calibration_parts(&self) -> (&shortint::ServerKey, CalibrationGpus<'_>) {
        let host = self.inner.backend.shortint_key();
        match &self.inner.backend {
            ExecutionBackend::Cpu(_) => (host, &[]),
            #[cfg(feature = "gpu")]
            ExecutionBackend::Cuda(key) => (host, key.backends()),
        }
    }
}

/// The GPU backends [`ServerKey::calibration_parts`] returns.
#[cfg(feature = "gpu")]
pub(crate) type CalibrationGpus<'a> = &'a [crate::backend::cuda::CudaBackend];
/// Without the `gpu` feature there is no GPU backend.
#[cfg(not(feature = "gpu"))]
pub(crate) type CalibrationGpus<'a> = &'a [std::convert::Infallible];

/// How a [`ServerKey`] is written (its blocks-level key always from the host).
#[derive(Serialize)]
struct ServerKeyRef<'a> {
    tag: KeyTag,
    config: &'a Config,
    key: &'a shortint::ServerKey,
}

/// [`ServerKeyRef`] as read.
#[derive(Deserialize)]
struct ServerKeyParts {
    tag: KeyTag,
    config: Config,
    key: shortint::ServerKey,
}

/// Writes the tag, the configuration and the keyswitching and Fourier bootstrap keys
/// (the counters are not written).
impl Serialize for ServerKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        ServerKeyRef {
            tag: self.inner.tag,
            config: &self.inner.config,
            key: self.inner.backend.shortint_key(),
        }
        .serialize(s)
    }
}

/// Checks that the key has the parameters of its configuration; the key computes on
/// the CPU (a GPU key is written as its host key, and read back as a CPU key).
impl<'de> Deserialize<'de> for ServerKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let parts = ServerKeyParts::deserialize(d)?;
        check_parameters(&parts.config, parts.key.parameters())
            .map_err(serde::de::Error::custom)?;
        Ok(Self::from_parts(parts.tag, parts.config, parts.key))
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

thread_local! {
    static SERVER_KEY: RefCell<Option<ServerKey>> = const { RefCell::new(None) };
}

/// Makes `key` the server key of the operations of the current thread (each thread
/// has its own; other threads are not affected).
///
/// With a GPU key, the first operation of the thread on each GPU creates the
/// thread's own CUDA stream there, so that threads run concurrently on a GPU; the
/// streams are released by [`unset_server_key`] or when the thread ends.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, unset_server_key, ConfigBuilder, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// let a = FheUint8::encrypt(3u8, &client_key);
/// assert!(a.try_bitand(&a).is_err()); // no key on this thread yet
/// set_server_key(server_key);
/// assert!(a.try_bitand(&a).is_ok());
/// unset_server_key();
/// assert!(a.try_bitand(&a).is_err());
/// ```
pub fn set_server_key(key: ServerKey) {
    SERVER_KEY.with(|k| *k.borrow_mut() = Some(key));
}

/// Removes the current thread's server key (and releases its CUDA streams);
/// operations on this thread then fail with [`Error::NoServerKey`] until
/// [`set_server_key`] is called again.
pub fn unset_server_key() {
    let key = SERVER_KEY.with(|k| k.borrow_mut().take());
    // Dropped outside the borrow (a GPU key's drop waits for its device).
    drop(key);
    #[cfg(feature = "gpu")]
    crate::backend::cuda::release_thread_streams();
}

/// The current thread's server key (a cheap clone), or `Err(NoServerKey)`.
pub(crate) fn current_server_key() -> Result<ServerKey> {
    SERVER_KEY
        .with(|k| k.borrow().clone())
        .ok_or(Error::NoServerKey)
}
