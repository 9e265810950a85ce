//! [`CudaServerKey`]: what [`crate::CompressedServerKey::decompress_to_gpu`] and
//! [`crate::CompressedServerKey::decompress_to_specific_gpu`] return, under
//! TFHE-rs's name and shape, so that `let key: CudaServerKey =
//! compressed.decompress_to_gpu();` compiles as it does there. Where TFHE-rs
//! panics when the GPUs cannot take the key, gpufhe keeps the failure inside the
//! value: [`crate::set_server_key`] takes it, and the first operation on that thread
//! returns the error (the `try_` forms) or panics with its message (the
//! operators). [`CudaServerKey::into_result`] (or the
//! `try_decompress_to_*` forms) gives it as a `Result` at once.

use super::compressed_server::CompressedServerKey;
use super::server::ServerKey;
use crate::error::{Error, Result};
use crate::scheduler::{GpuIndex, GpuSelection};

/// A server key decompressed to GPUs, or why it could not be (see the module's
/// documentation). It is a [`ServerKey`] computing on GPUs once unwrapped
/// ([`CudaServerKey::into_result`], [`CudaServerKey::server_key`]), and
/// [`crate::set_server_key`] takes it as it is.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{set_server_key, ClientKey, CompressedServerKey, CudaServerKey, FheUint8};
/// let client_key = ClientKey::generate(config);
/// let compressed = CompressedServerKey::new(&client_key);
/// let key: CudaServerKey = compressed.decompress_to_gpu();
/// if gpufhe::get_number_of_gpus() == 0 {
///     // Nothing panics here: the error waits in the key, and in the thread after
///     // set_server_key, until an operation asks for it.
///     assert!(key.gpu_indexes().is_empty());
///     assert!(key.server_key().unwrap_err().to_string().contains("GPU"));
///     set_server_key(key);
///     let a = FheUint8::encrypt(1u8, &client_key);
///     assert!(a.try_add(&a).is_err());
/// }
/// ```
#[derive(Clone)]
pub struct CudaServerKey {
    key: Result<ServerKey>,
    gpus: Vec<GpuIndex>,
}

impl CudaServerKey {
    /// The key made on GPUs, or why it was not.
    pub(crate) fn new(key: Result<ServerKey>) -> Self {
        let gpus = key.as_ref().map(ServerKey::gpus).unwrap_or_default();
        Self { key, gpus }
    }

    /// The GPUs the key computes on (TFHE-rs's accessor); empty when it could not
    /// be made.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedServerKey, GpuIndex};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedServerKey::new(&client_key);
    /// let key = compressed.decompress_to_specific_gpu(GpuIndex::new(0));
    /// let expected = if gpufhe::get_number_of_gpus() > 0 { vec![GpuIndex::new(0)] } else { vec![] };
    /// assert_eq!(key.gpu_indexes(), expected);
    /// ```
    pub fn gpu_indexes(&self) -> &[GpuIndex] {
        &self.gpus
    }

    /// The key, or the error that kept it from being made.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let key = CompressedServerKey::new(&client_key).decompress_to_gpu();
    /// let gpus = match key.server_key() {
    ///     Ok(server_key) => server_key.gpus().len() as u32,
    ///     Err(gpufhe::Error::NoCudaDevice(_)) => 0, // no GPU visible
    ///     Err(e) => panic!("{e}"),
    /// };
    /// assert_eq!(gpus, gpufhe::get_number_of_gpus());
    /// ```
    pub fn server_key(&self) -> Result<&ServerKey> {
        self.key.as_ref().map_err(Error::clone)
    }

    /// The key as a `Result`: `Err` if the GPUs could not take it.
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedServerKey, GpuIndex};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedServerKey::new(&client_key);
    /// let key = compressed.decompress_to_specific_gpu(Vec::<GpuIndex>::new()); // no GPU chosen
    /// assert!(key.into_result().is_err());
    /// ```
    pub fn into_result(self) -> Result<ServerKey> {
        self.key
    }
}

impl std::fmt::Debug for CudaServerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.key {
            Ok(_) => write!(f, "CudaServerKey {{ gpus: {:?} }}", self.gpus),
            Err(e) => write!(f, "CudaServerKey {{ error: {e} }}"),
        }
    }
}

impl From<CudaServerKey> for Result<ServerKey> {
    fn from(key: CudaServerKey) -> Self {
        key.key
    }
}

impl CompressedServerKey {
    /// [`CompressedServerKey::try_decompress_to_gpu`] as TFHE-rs returns it: a
    /// [`CudaServerKey`], which [`crate::set_server_key`] takes and which carries
    /// the error, if any, to the first operation instead of panicking here.
    ///
    /// ```
    /// use gpufhe::{set_server_key, ClientKey, CompressedServerKey, CudaServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedServerKey::new(&client_key);
    /// let key: CudaServerKey = compressed.decompress_to_gpu();
    /// let gpus = key.gpu_indexes().len() as u32;
    /// set_server_key(key); // without a GPU, this thread's operations return the error
    /// assert_eq!(gpus, gpufhe::get_number_of_gpus());
    /// ```
    pub fn decompress_to_gpu(&self) -> CudaServerKey {
        CudaServerKey::new(self.try_decompress_to_gpu())
    }

    /// [`CompressedServerKey::try_decompress_to_specific_gpu`] as TFHE-rs returns it
    /// (see [`CompressedServerKey::decompress_to_gpu`]).
    ///
    /// ```
    /// use gpufhe::{ClientKey, CompressedServerKey, GpuIndex};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let client_key = ClientKey::generate(config);
    /// let compressed = CompressedServerKey::new(&client_key);
    /// // One key per GPU, as TFHE-rs's multi-GPU guide makes them.
    /// let n = gpufhe::get_number_of_gpus();
    /// let keys: Vec<_> = (0..n)
    ///     .map(|i| compressed.decompress_to_specific_gpu(GpuIndex::new(i)))
    ///     .collect();
    /// assert!(keys.iter().zip(0..).all(|(key, i)| key.gpu_indexes() == [GpuIndex::new(i)]));
    /// let missing = compressed.decompress_to_specific_gpu(GpuIndex::new(n)); // not visible
    /// assert!(missing.server_key().is_err());
    /// ```
    pub fn decompress_to_specific_gpu(&self, gpus: impl Into<GpuSelection>) -> CudaServerKey {
        CudaServerKey::new(self.try_decompress_to_specific_gpu(gpus))
    }
}

/// A list of GPUs to decompress a server key to (TFHE-rs's name), for
/// [`crate::CompressedServerKey::decompress_to_specific_gpu`].
///
/// ```
/// use gpufhe::{CustomMultiGpuIndexes, GpuIndex, GpuSelection};
/// let chosen = CustomMultiGpuIndexes::new(vec![GpuIndex::new(0), GpuIndex::new(1)]);
/// assert_eq!(chosen.gpu_indexes().len(), 2);
/// let selection = GpuSelection::from(chosen);
/// assert_eq!(selection.gpus(), &[GpuIndex::new(0), GpuIndex::new(1)]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomMultiGpuIndexes(Vec<GpuIndex>);

impl CustomMultiGpuIndexes {
    /// The GPUs `indexes`, in this order (checked when a key is decompressed to them).
    ///
    /// ```
    /// use gpufhe::{CustomMultiGpuIndexes, GpuIndex, GpuSelection};
    /// let chosen = CustomMultiGpuIndexes::new(vec![GpuIndex::new(1), GpuIndex::new(0)]);
    /// assert_eq!(GpuSelection::from(chosen).gpus(), [GpuIndex::new(1), GpuIndex::new(0)]);
    /// ```
    pub fn new(indexes: Vec<GpuIndex>) -> Self {
        Self(indexes)
    }

    /// The GPUs.
    ///
    /// ```
    /// use gpufhe::{CustomMultiGpuIndexes, GpuIndex};
    /// let chosen = CustomMultiGpuIndexes::from(vec![GpuIndex::new(2), GpuIndex::new(3)]);
    /// assert_eq!(chosen.gpu_indexes(), [GpuIndex::new(2), GpuIndex::new(3)]);
    /// ```
    pub fn gpu_indexes(&self) -> &[GpuIndex] {
        &self.0
    }
}

impl From<Vec<GpuIndex>> for CustomMultiGpuIndexes {
    fn from(indexes: Vec<GpuIndex>) -> Self {
        Self(indexes)
    }
}

impl From<CustomMultiGpuIndexes> for GpuSelection {
    fn from(indexes: CustomMultiGpuIndexes) -> Self {
        indexes.0.into()
    }
}

/// Which GPUs a server key computes on (TFHE-rs's name): one, every visible GPU, or
/// a list. [`crate::CompressedServerKey::decompress_to_specific_gpu`] takes it.
///
/// ```
/// use gpufhe::{CudaGpuChoice, GpuIndex, GpuSelection};
/// let one = GpuSelection::from(CudaGpuChoice::from(GpuIndex::new(3)));
/// assert_eq!(one.gpus(), &[GpuIndex::new(3)]);
/// // Every visible GPU: none on a machine without one.
/// let all = GpuSelection::from(CudaGpuChoice::Multi);
/// assert_eq!(all.gpus().len() as u32, gpufhe::get_number_of_gpus());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CudaGpuChoice {
    /// One GPU.
    Single(GpuIndex),
    /// Every visible GPU (counted when the choice becomes a [`GpuSelection`]).
    #[default]
    Multi,
    /// These GPUs.
    Custom(CustomMultiGpuIndexes),
}

impl From<GpuIndex> for CudaGpuChoice {
    fn from(gpu: GpuIndex) -> Self {
        Self::Single(gpu)
    }
}

impl From<CustomMultiGpuIndexes> for CudaGpuChoice {
    fn from(indexes: CustomMultiGpuIndexes) -> Self {
        Self::Custom(indexes)
    }
}

impl From<CudaGpuChoice> for GpuSelection {
    fn from(choice: CudaGpuChoice) -> Self {
        match choice {
            CudaGpuChoice::Single(gpu) => gpu.into(),
            CudaGpuChoice::Multi => (0..crate::scheduler::get_number_of_gpus())
                .map(GpuIndex::new)
                .collect::<Vec<_>>()
                .into(),
            CudaGpuChoice::Custom(indexes) => indexes.into(),
        }
    }
}
