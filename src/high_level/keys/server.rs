//! The server key: what the server computes with, on the CPU or on GPUs, and what
//! it has run so far.

use super::tag::KeyTag;
use crate::error::Result;
use crate::high_level::config::Config;
use crate::high_level::internals::recording;
use crate::high_level::internals::storage::{Input, Storage};
use crate::integer::{Circuit, Radix};
use crate::scheduler::{
    Blocks, Calibration, CircuitInput, CostModel, GpuIndex, Scheduler, SchedulerConfig, WorkerInfo,
};
use crate::shortint;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// The public evaluation key: what the server computes with. Cloning is cheap (the
/// key is shared); clones share their bootstrap counters too.
///
/// It holds its execution backend: the CPU ([`CompressedServerKey::decompress`](crate::CompressedServerKey::decompress)) or
/// GPUs ([`CompressedServerKey::decompress_to_gpu`](crate::CompressedServerKey::decompress_to_gpu),
/// [`CompressedServerKey::decompress_to_specific_gpu`](crate::CompressedServerKey::decompress_to_specific_gpu)); [`crate::set_server_key`] makes it
/// the key of the current thread's operations.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, FheUint8};
/// let (client_key, server_key) = generate_keys(config);
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
    /// The dedicated OPRF key of a key read from TFHE-rs's data, kept to be
    /// written back (gpufhe's pseudo-random values need no key).
    tfhe_rs_oprf: OnceLock<Arc<crate::high_level::tfhe_rs::wire::server::OprfServerKey>>,
    /// The noise-squashing key, when the configuration enables noise squashing.
    noise_squashing: OnceLock<Arc<shortint::NoiseSquashingKey>>,
    /// The compression key of squashed values, when the configuration enables it.
    noise_squashing_compression: OnceLock<Arc<shortint::NoiseSquashingCompressionKey>>,
    /// The casting key of dedicated compact public-key lists, if its configuration
    /// has dedicated compact public-key parameters (`lists::casting`).
    casting: OnceLock<Arc<shortint::CastingKey>>,
    /// The re-randomization key material, when the configuration enables
    /// re-randomization (`keys::re_randomization`).
    re_randomization: OnceLock<Arc<super::re_randomization::ReRandomizationKey>>,
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
    /// A key computing on the CPU with the settings of `scheduler`.
    pub(crate) fn from_parts(
        tag: KeyTag,
        config: Config,
        key: shortint::ServerKey,
        compression: Option<Arc<shortint::CompressionKeys>>,
        scheduler: &SchedulerConfig,
    ) -> Self {
        Self::from_scheduler(tag, config, Scheduler::cpu(key, scheduler), compression)
    }

    pub(super) fn from_scheduler(
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
                tfhe_rs_oprf: OnceLock::new(),
                noise_squashing: OnceLock::new(),
                noise_squashing_compression: OnceLock::new(),
                casting: OnceLock::new(),
                re_randomization: OnceLock::new(),
            }),
        }
    }

    /// The GPUs it computes on, in the order they were chosen; empty for a key
    /// that computes on the CPU.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::generate_keys;
    /// let (_client_key, server_key) = generate_keys(config);
    /// assert!(server_key.gpus().is_empty());
    /// ```
    pub fn gpus(&self) -> Vec<GpuIndex> {
        self.inner.scheduler.gpu_indices()
    }

    /// The workers it computes with: the CPU worker and its thread budget, or the
    /// stream-bound workers of each GPU (see [`crate::scheduler`]).
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::scheduler::WorkerInfo;
    /// use gpufhe::generate_keys;
    /// let (_client_key, server_key) = generate_keys(config);
    /// assert!(matches!(server_key.workers()[..], [WorkerInfo::Cpu { threads }] if threads >= 1));
    /// ```
    pub fn workers(&self) -> Vec<WorkerInfo> {
        self.inner.scheduler.workers()
    }

    /// The configuration of its client key.
    ///
    /// ```
    /// use gpufhe::generate_keys;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = generate_keys(config);
    /// assert_eq!(server_key.config(), client_key.config());
    /// ```
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The tag of its client key.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = generate_keys(config);
    /// assert_eq!(server_key.tag(), client_key.tag());
    /// set_server_key(server_key.clone());
    /// let x = FheUint8::encrypt(1u8, &client_key);
    /// assert_eq!((&x + &x).tag(), Some(server_key.tag())); // its results carry it
    /// ```
    pub fn tag(&self) -> KeyTag {
        self.inner.tag
    }

    /// Keyswitch + bootstrap evaluations run with this key (and its clones) so far.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key.clone());
    /// assert_eq!(server_key.pbs_count(), 0);
    /// let a = FheUint8::encrypt(6u8, &client_key);
    /// let _ = &a ^ &a;
    /// assert_eq!(server_key.pbs_count(), 4); // one bootstrap per 2-bit block
    /// ```
    pub fn pbs_count(&self) -> u64 {
        self.inner.scheduler.pbs_count()
    }

    /// Circuits, bootstraps and bootstrap layers run with this key so far.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, FheUint8};
    /// let (client_key, server_key) = generate_keys(config);
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
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::scheduler::Provenance;
    /// use gpufhe::generate_keys;
    /// let (_client_key, server_key) = generate_keys(config);
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
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::scheduler::{Calibration, CostModel, Provenance};
    /// use gpufhe::generate_keys;
    /// let (_client_key, server_key) = generate_keys(config);
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
        if recording::recording() {
            let pending = recording::record(self.inner.tag, &inputs, build)?;
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
    /// The dedicated OPRF key of a key read from TFHE-rs's data.
    pub(crate) fn tfhe_rs_oprf(
        &self,
    ) -> &OnceLock<Arc<crate::high_level::tfhe_rs::wire::server::OprfServerKey>> {
        &self.inner.tfhe_rs_oprf
    }

    /// Its noise-squashing key (set once, when it is expanded).
    pub(crate) fn noise_squashing_key(&self) -> &OnceLock<Arc<shortint::NoiseSquashingKey>> {
        &self.inner.noise_squashing
    }

    /// Its compression key of squashed values (set once, when it is expanded).
    pub(crate) fn noise_squashing_compression_key(
        &self,
    ) -> &OnceLock<Arc<shortint::NoiseSquashingCompressionKey>> {
        &self.inner.noise_squashing_compression
    }

    /// The casting key of dedicated compact public-key lists, if it has one.
    pub(crate) fn casting_key(&self) -> Option<&shortint::CastingKey> {
        self.inner.casting.get().map(|k| &**k)
    }

    /// The casting key shared with the GPU copies made of it.
    pub(crate) fn shared_casting_key(&self) -> Option<&Arc<shortint::CastingKey>> {
        self.inner.casting.get()
    }

    /// This key with the casting key `key` (`None`: unchanged).
    pub(crate) fn with_casting_key(self, key: Option<Arc<shortint::CastingKey>>) -> Self {
        if let Some(key) = key {
            // A key just built: the lock is empty.
            let _ = self.inner.casting.set(key);
        }
        self
    }

    /// Its re-randomization key material, if it has some.
    pub(crate) fn re_randomization_key(
        &self,
    ) -> Option<&super::re_randomization::ReRandomizationKey> {
        self.inner.re_randomization.get().map(|k| &**k)
    }

    /// This key with the re-randomization key material `key` (`None`: unchanged).
    pub(crate) fn with_re_randomization_key(
        self,
        key: Option<Arc<super::re_randomization::ReRandomizationKey>>,
    ) -> Self {
        if let Some(key) = key {
            // A key just built: the lock is empty.
            let _ = self.inner.re_randomization.set(key);
        }
        self
    }

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

/// The `has_*` accessors TFHE-rs gives both [`ServerKey`] and
/// [`CompressedServerKey`].
macro_rules! key_material_accessors {
    ($key:ty) => {
        impl $key {
            /// Whether it holds dedicated keyswitch material for compact public keys:
            /// the casting key of a configuration with dedicated compact public-key
            /// parameters (`use_dedicated_compact_public_key_parameters`); `false`
            /// when compact public keys encrypt under the block parameters.
            ///
            /// ```
            #[doc = concat!("use gpufhe::{ClientKey, ", stringify!($key), "};")]
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let client_key = ClientKey::generate(config);
            #[doc = concat!("let key = ", stringify!($key), "::new(&client_key);")]
            /// assert!(!key.has_cpk_key_switching_key_material());
            /// ```
            pub fn has_cpk_key_switching_key_material(&self) -> bool {
                self.casting_key().is_some()
            }

            /// Whether it holds a compression key: whether its configuration
            /// enables compression.
            ///
            /// ```
            /// use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMPRESSION;
            #[doc = concat!("use gpufhe::{ClientKey, ", stringify!($key), "};")]
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let client_key = ClientKey::generate(config.enable_compression(TEST_COMPRESSION));
            #[doc = concat!("let key = ", stringify!($key), "::new(&client_key);")]
            /// assert!(key.has_compression_key());
            /// ```
            pub fn has_compression_key(&self) -> bool {
                self.config().compression_parameters().is_some()
            }

            /// Whether it holds a decompression key: whether its configuration
            /// enables compression (the two keys come together).
            ///
            /// ```
            /// use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMPRESSION;
            #[doc = concat!("use gpufhe::{ClientKey, ", stringify!($key), "};")]
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let client_key = ClientKey::generate(config.enable_compression(TEST_COMPRESSION));
            #[doc = concat!("let key = ", stringify!($key), "::new(&client_key);")]
            /// assert!(key.has_decompression_key());
            /// ```
            pub fn has_decompression_key(&self) -> bool {
                self.config().compression_parameters().is_some()
            }

            /// Whether it holds a noise-squashing key: whether its configuration
            /// enables noise squashing ([`crate::ConfigBuilder::enable_noise_squashing`]).
            ///
            /// ```
            #[doc = concat!("use gpufhe::{ClientKey, ", stringify!($key), "};")]
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let client_key = ClientKey::generate(config);
            #[doc = concat!("let key = ", stringify!($key), "::new(&client_key);")]
            /// assert!(!key.has_noise_squashing_key());
            /// ```
            pub fn has_noise_squashing_key(&self) -> bool {
                self.config().noise_squashing_parameters().is_some()
            }

            /// Whether it holds a noise-squashing compression key: whether its
            /// configuration enables the compression of squashed values
            /// ([`crate::ConfigBuilder::enable_noise_squashing_compression`]).
            ///
            /// ```
            #[doc = concat!("use gpufhe::{ClientKey, ", stringify!($key), "};")]
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let client_key = ClientKey::generate(config);
            #[doc = concat!("let key = ", stringify!($key), "::new(&client_key);")]
            /// assert!(!key.has_noise_squashing_compression_key());
            /// ```
            pub fn has_noise_squashing_compression_key(&self) -> bool {
                self.config()
                    .noise_squashing_compression_parameters()
                    .is_some()
            }

            /// Whether it holds re-randomization key material: whether its
            /// configuration enables re-randomization
            /// ([`crate::ConfigBuilder::enable_ciphertext_re_randomization`]).
            ///
            /// ```
            #[doc = concat!("use gpufhe::{ClientKey, ", stringify!($key), "};")]
            /// use gpufhe::shortint::parameters::ReRandomizationParameters;
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let client_key = ClientKey::generate(config);
            #[doc = concat!("let key = ", stringify!($key), "::new(&client_key);")]
            /// assert!(!key.has_re_randomization_key());
            /// let derived = ReRandomizationParameters::DerivedCPKWithoutKeySwitch;
            /// let client_key = ClientKey::generate(config.enable_ciphertext_re_randomization(derived));
            #[doc = concat!("let key = ", stringify!($key), "::new(&client_key);")]
            /// assert!(key.has_re_randomization_key());
            /// ```
            pub fn has_re_randomization_key(&self) -> bool {
                self.re_randomization_key().is_some()
            }

            /// Whether it holds a dedicated OPRF key: always `false` (random values
            /// are drawn with the server key itself).
            ///
            /// ```
            #[doc = concat!("use gpufhe::{ClientKey, ", stringify!($key), "};")]
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let client_key = ClientKey::generate(config);
            #[doc = concat!("let key = ", stringify!($key), "::new(&client_key);")]
            /// assert!(!key.has_oprf_key());
            /// ```
            pub fn has_oprf_key(&self) -> bool {
                false
            }

            /// Whether it holds a transciphering key: always `false` (not
            /// supported).
            ///
            /// ```
            #[doc = concat!("use gpufhe::{ClientKey, ", stringify!($key), "};")]
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// # let config = gpufhe::ConfigBuilder::default()
            /// #     .with_insecure_custom_parameters(TEST_PARAMS)
            /// #     .unwrap();
            /// let client_key = ClientKey::generate(config);
            #[doc = concat!("let key = ", stringify!($key), "::new(&client_key);")]
            /// assert!(!key.has_transciphering_key());
            /// ```
            pub fn has_transciphering_key(&self) -> bool {
                false
            }
        }
    };
}
pub(super) use key_material_accessors;

key_material_accessors!(ServerKey);

impl ServerKey {
    /// Whether it can compress ciphertexts: whether its configuration enables
    /// compression.
    ///
    /// ```
    /// use gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMPRESSION;
    /// use gpufhe::generate_keys;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (_client_key, server_key) = generate_keys(config.enable_compression(TEST_COMPRESSION));
    /// assert!(server_key.supports_compression());
    /// ```
    pub fn supports_compression(&self) -> bool {
        self.has_compression_key()
    }

    /// Whether it can draw encrypted random values: always `true`.
    ///
    /// ```
    /// use gpufhe::generate_keys;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (_client_key, server_key) = generate_keys(config);
    /// assert!(server_key.supports_oprf());
    /// ```
    pub fn supports_oprf(&self) -> bool {
        true
    }

    /// Whether it can squash noise: whether it holds a noise-squashing key (its
    /// configuration enables noise squashing).
    ///
    /// ```
    /// use gpufhe::generate_keys;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # use gpufhe::shortint::NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_NS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (_client_key, server_key) = generate_keys(config);
    /// assert!(!server_key.supports_noise_squashing());
    /// let (_client_key, server_key) = generate_keys(config.enable_noise_squashing(TEST_NS));
    /// assert!(server_key.supports_noise_squashing());
    /// ```
    pub fn supports_noise_squashing(&self) -> bool {
        self.inner.noise_squashing.get().is_some()
    }

    /// Whether it can compress squashed ciphertexts (it holds a noise-squashing
    /// compression key).
    ///
    /// ```
    /// use gpufhe::generate_keys;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (_client_key, server_key) = generate_keys(config);
    /// assert!(!server_key.supports_noise_squashing_compression());
    /// ```
    pub fn supports_noise_squashing_compression(&self) -> bool {
        self.inner.noise_squashing_compression.get().is_some()
    }
}

#[cfg(test)]
mod tests {
    use crate::shortint::{
        COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
    };
    use crate::{ClientKey, CompressedServerKey, ConfigBuilder};

    #[test]
    fn compression_keys_are_reported_as_the_configuration_enables_them() {
        let plain = ConfigBuilder::default()
            .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .unwrap();
        let compressing = plain.enable_compression(COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
        for (builder, compression) in [(plain, false), (compressing, true)] {
            let ck = ClientKey::try_generate(builder).unwrap();
            assert_eq!(
                ck.computation_parameters(),
                PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2
            );
            let csk = CompressedServerKey::try_new(&ck).unwrap();
            assert_eq!(csk.has_compression_key(), compression);
            assert_eq!(csk.has_decompression_key(), compression);
            assert!(!csk.has_oprf_key() && !csk.has_noise_squashing_key());
            let sk = csk.try_decompress().unwrap();
            assert_eq!(sk.supports_compression(), compression);
            assert_eq!(sk.has_compression_key(), compression);
            assert!(sk.supports_oprf() && !sk.supports_noise_squashing());
            assert!(!sk.has_re_randomization_key() && !sk.has_cpk_key_switching_key_material());
        }
    }
}
