//! Re-randomization of ciphertexts, with TFHE-rs 1.8's API and results: a
//! [`ReRandomizationContext`] hashes the values to re-randomize, their metadata
//! and a description of the function they go to into seeds, and
//! [`ReRandomize::re_randomize`] adds to each value an encryption of zero drawn
//! from its seed, so that a replayed or crafted ciphertext reaches the function
//! with fresh randomness (sIND-CPA^D security of the inputs).
//!
//! The hash, the seeds and the encryptions of zero are TFHE-rs's byte for byte:
//! the same context over the same ciphertexts gives the same re-randomized
//! ciphertexts in both libraries. The noise analysis is in
//! `shortint::re_randomization` (and docs/re-randomization.md): the added noise
//! (`(n + 1)·σ²`, about `2^43.4` on the default parameters) is `2^55` times below a
//! fresh block's, so a re-randomized block counts as fresh (noise level 1) and the
//! failure probability stays the parameters' `2^-128`.
//!
//! ```
//! use gpufhe::prelude::*;
//! use gpufhe::shortint::parameters::ReRandomizationParameters;
//! use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8, ReRandomizationContext, ReRandomizationMode};
//! # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
//! let config = ConfigBuilder::default()
//!     .with_insecure_custom_parameters(TEST_PARAMS)?
//!     .enable_ciphertext_re_randomization(ReRandomizationParameters::DerivedCPKWithoutKeySwitch);
//! let (client_key, server_key) = generate_keys(config);
//! set_server_key(server_key);
//! let mut a = FheUint8::encrypt(12u8, &client_key);
//! let mut b = FheUint8::encrypt(30u8, &client_key);
//! a.re_randomization_metadata_mut().set_data(b"proof of a");
//! let mut context = ReRandomizationContext::new(*b"TFHE_Rrd", [b"FheUint8+FheUint8".as_slice()], *b"TFHE_Enc");
//! context.add_ciphertext(&a);
//! context.add_ciphertext(&b);
//! let mut seeds = context.finalize();
//! a.re_randomize(ReRandomizationMode::default(), seeds.next_seed()?)?;
//! b.re_randomize(ReRandomizationMode::default(), seeds.next_seed()?)?;
//! assert!(seeds.next_seed().is_err()); // one seed per value added
//! assert!(a.re_randomization_metadata().data().is_empty()); // cleared
//! let sum: u8 = (&a + &b).decrypt(&client_key);
//! assert_eq!(sum, 42);
//! # Ok::<(), gpufhe::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::high_level::global_state::current_server_key;
use crate::high_level::internals::storage::Storage;
use crate::high_level::keys::re_randomization::ReRandomizationKey;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::tfhe_rs::values::{storage_from_blocks, storage_to_blocks};
use crate::high_level::ServerKey;
use crate::high_level::{
    CompactPublicKey, FheBool, FheInt, FheIntId, FheUint, FheUintId, ReRandomizationMetadata,
};
use crate::shortint::re_randomization::{re_randomize_blocks, SeedStream};
use crate::shortint::{self, EncryptionKeyChoice};
pub use crate::shortint::{
    ReRandomizationHashAlgo, ReRandomizationSeed, ReRandomizationSeedHasher,
};

/// What a server key can re-randomize with (TFHE-rs's `ReRandomizationSupport`).
///
/// ```
/// use gpufhe::{ReRandomizationSupport, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (_client_key, server_key) = gpufhe::generate_keys(config);
/// assert_eq!(server_key.re_randomization_support(), ReRandomizationSupport::NoSupport);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReRandomizationSupport {
    /// The key cannot re-randomize.
    NoSupport,
    /// The key re-randomizes with a dedicated compact public key the caller passes
    /// (deprecated in TFHE-rs).
    LegacyDedicatedCPKWithKeySwitch,
    /// The key holds a compact public key of its computation key and needs nothing
    /// from the caller.
    DerivedCPKWithoutKeySwitch,
}

/// Which key re-randomizes (TFHE-rs's `ReRandomizationMode`).
///
/// ```
/// use gpufhe::ReRandomizationMode;
/// assert!(matches!(ReRandomizationMode::default(), ReRandomizationMode::UseAvailableMode));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub enum ReRandomizationMode<'key> {
    /// Use `cpk` if the server key needs a compact public key (its legacy mode);
    /// ignore it otherwise.
    UseLegacyCPKIfNeeded {
        /// The dedicated compact public key.
        cpk: &'key CompactPublicKey,
    },
    /// Use what the server key holds (its derived compact public key).
    #[default]
    UseAvailableMode,
}

impl<'key> From<&'key CompactPublicKey> for ReRandomizationMode<'key> {
    fn from(cpk: &'key CompactPublicKey) -> Self {
        Self::UseLegacyCPKIfNeeded { cpk }
    }
}

/// The context of a re-randomization (TFHE-rs's `ReRandomizationContext`): the
/// hash, in order, of a domain separator, the ciphertexts added, their metadata,
/// and the description of the function; one seed per ciphertext added.
pub struct ReRandomizationContext {
    hasher: ReRandomizationSeedHasher,
    encryption_domain_separator: [u8; 8],
    words: Vec<u64>,
    metadata: Vec<u8>,
    fn_description: Vec<u8>,
    count: u64,
    /// A value that could not be read (a GPU failed): [`ReRandomizationSeedGen::next_seed`]
    /// returns it.
    error: Option<Error>,
}

impl ReRandomizationContext {
    /// A context hashing with BLAKE3: `rerand_seeder_domain_separator` starts the
    /// hash, `fn_description` (concatenated) describes the function the values go
    /// to (with a nonce), and `public_encryption_domain_separator` goes with each
    /// seed into the encryption of zero.
    ///
    /// ```
    /// use gpufhe::ReRandomizationContext;
    /// let nonce = [7u8; 32];
    /// let context = ReRandomizationContext::new(*b"TFHE_Rrd", [b"FheUint64+FheUint64".as_slice(), &nonce], *b"TFHE_Enc");
    /// let mut seeds = context.finalize();
    /// assert!(seeds.next_seed().is_err()); // no value added
    /// ```
    pub fn new<'a>(
        rerand_seeder_domain_separator: [u8; 8],
        fn_description: impl IntoIterator<Item = &'a [u8]>,
        public_encryption_domain_separator: [u8; 8],
    ) -> Self {
        Self::new_with_hasher(
            fn_description,
            public_encryption_domain_separator,
            ReRandomizationSeedHasher::new(
                ReRandomizationHashAlgo::default(),
                rerand_seeder_domain_separator,
            ),
        )
    }

    /// A context hashing with `seed_hasher` (which has absorbed its domain
    /// separator).
    ///
    /// ```
    /// use gpufhe::{ReRandomizationContext, ReRandomizationHashAlgo, ReRandomizationSeedHasher};
    /// let hasher = ReRandomizationSeedHasher::new(ReRandomizationHashAlgo::Shake256, *b"TFHE_Rrd");
    /// let _context = ReRandomizationContext::new_with_hasher([b"f".as_slice()], *b"TFHE_Enc", hasher);
    /// ```
    pub fn new_with_hasher<'a>(
        fn_description: impl IntoIterator<Item = &'a [u8]>,
        public_encryption_domain_separator: [u8; 8],
        seed_hasher: ReRandomizationSeedHasher,
    ) -> Self {
        Self {
            hasher: seed_hasher,
            encryption_domain_separator: public_encryption_domain_separator,
            words: Vec::new(),
            metadata: Vec::new(),
            fn_description: fn_description.into_iter().flatten().copied().collect(),
            count: 0,
            error: None,
        }
    }

    /// Adds a value (its ciphertext and its metadata): one more seed.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheBool, ReRandomizationContext};
    /// let mut context = ReRandomizationContext::new(*b"TFHE_Rrd", [b"not".as_slice()], *b"TFHE_Enc");
    /// context.add_ciphertext(&FheBool::encrypt_trivial(true));
    /// let mut seeds = context.finalize();
    /// assert!(seeds.next_seed().is_ok());
    /// assert!(seeds.next_seed().is_err());
    /// ```
    pub fn add_ciphertext<Data: ReRandContextAdd + ?Sized>(&mut self, data: &Data) {
        data.add_to_re_randomization_context(self);
    }

    /// Adds the blocks of `storage` (a `bits`-bit value) and `metadata`.
    fn add_storage(&mut self, storage: &Storage, bits: u32, metadata: &ReRandomizationMetadata) {
        match storage_to_blocks(storage, bits) {
            Ok((blocks, _)) => {
                for block in &blocks {
                    self.words.extend_from_slice(block.as_lwe().as_slice());
                }
            }
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
        self.metadata.extend_from_slice(metadata.data());
        self.count += 1;
    }

    /// The generator of the seeds: the hash of everything added.
    ///
    /// ```
    /// use gpufhe::ReRandomizationContext;
    /// let _seeds = ReRandomizationContext::new(*b"TFHE_Rrd", [b"f".as_slice()], *b"TFHE_Enc").finalize();
    /// ```
    pub fn finalize(self) -> ReRandomizationSeedGen {
        let Self {
            mut hasher,
            encryption_domain_separator,
            words,
            metadata,
            fn_description,
            count,
            error,
        } = self;
        // The words as little-endian bytes, a chunk at a time (the hash is the same
        // whatever the chunks).
        let mut bytes = Vec::with_capacity(8 * 4096);
        for chunk in words.chunks(4096) {
            bytes.clear();
            bytes.extend(chunk.iter().flat_map(|w| w.to_le_bytes()));
            hasher.update(&bytes);
        }
        hasher.update(&metadata);
        hasher.update(&fn_description);
        ReRandomizationSeedGen {
            stream: SeedStream::new(hasher, encryption_domain_separator),
            remaining: count,
            error,
        }
    }
}

/// The seeds of a finalized [`ReRandomizationContext`], one per value added
/// (TFHE-rs's `ReRandomizationSeedGen`).
pub struct ReRandomizationSeedGen {
    stream: SeedStream,
    remaining: u64,
    error: Option<Error>,
}

impl ReRandomizationSeedGen {
    /// The next seed; `Err` once as many seeds as values added have been drawn (or
    /// if a value added could not be read).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, ReRandomizationContext};
    /// let mut context = ReRandomizationContext::new(*b"TFHE_Rrd", [b"f".as_slice()], *b"TFHE_Enc");
    /// context.add_ciphertext(&FheUint8::encrypt_trivial(1u8));
    /// let mut seeds = context.finalize();
    /// assert!(seeds.next_seed().is_ok());
    /// assert!(seeds.next_seed().is_err());
    /// ```
    pub fn next_seed(&mut self) -> Result<ReRandomizationSeed> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.remaining == 0 {
            return Err(Error::InvalidParameter(
                "drawing more re-randomization seeds than values added to the context".into(),
            ));
        }
        self.remaining -= 1;
        Ok(self.stream.next_seed())
    }
}

/// A value that a [`ReRandomizationContext`] takes (TFHE-rs's `ReRandContextAdd`).
pub trait ReRandContextAdd {
    /// Adds the value's ciphertext and metadata to `context`.
    fn add_to_re_randomization_context(&self, context: &mut ReRandomizationContext);
}

/// Re-randomization of a value (TFHE-rs's `ReRandomize`; see the module docs).
pub trait ReRandomize: ReRandContextAdd {
    /// Adds an encryption of zero from `seed` with the current server key: the
    /// value's mask and noise change, its message does not, and its metadata is
    /// cleared. `Err` (the value untouched) if there is no server key, it cannot
    /// re-randomize (see [`crate::ServerKey::re_randomization_support`]), the
    /// legacy mode gets no dedicated compact public key of its parameters, or a
    /// block's noise level is above the nominal one (bootstrap it first).
    fn re_randomize<'a, M: Into<ReRandomizationMode<'a>>>(
        &mut self,
        mode: M,
        seed: ReRandomizationSeed,
    ) -> Result<()>;
}

/// `storage` (a `bits`-bit value) re-randomized with the current server key.
fn re_randomized(
    storage: &Storage,
    bits: u32,
    mode: ReRandomizationMode<'_>,
    seed: ReRandomizationSeed,
) -> Result<Storage> {
    let key = current_server_key()?;
    let (mut blocks, tag) = storage_to_blocks(storage, bits)?;
    key.re_randomize_blocks(&mut blocks, mode, seed)?;
    let tag = if tag == KeyTag::UNTAGGED {
        key.tag()
    } else {
        tag
    };
    storage_from_blocks(blocks, tag, bits, None)
}

impl<Id: FheUintId> ReRandContextAdd for FheUint<Id> {
    fn add_to_re_randomization_context(&self, context: &mut ReRandomizationContext) {
        context.add_storage(&self.storage, Id::BITS, &self.re_randomization_metadata);
    }
}

impl<Id: FheUintId> ReRandomize for FheUint<Id> {
    fn re_randomize<'a, M: Into<ReRandomizationMode<'a>>>(
        &mut self,
        mode: M,
        seed: ReRandomizationSeed,
    ) -> Result<()> {
        self.storage = re_randomized(&self.storage, Id::BITS, mode.into(), seed)?;
        self.re_randomization_metadata = ReRandomizationMetadata::default();
        Ok(())
    }
}

impl<Id: FheIntId> ReRandContextAdd for FheInt<Id> {
    fn add_to_re_randomization_context(&self, context: &mut ReRandomizationContext) {
        self.inner.add_to_re_randomization_context(context);
    }
}

impl<Id: FheIntId> ReRandomize for FheInt<Id> {
    fn re_randomize<'a, M: Into<ReRandomizationMode<'a>>>(
        &mut self,
        mode: M,
        seed: ReRandomizationSeed,
    ) -> Result<()> {
        self.inner.re_randomize(mode, seed)
    }
}

impl ReRandContextAdd for FheBool {
    fn add_to_re_randomization_context(&self, context: &mut ReRandomizationContext) {
        context.add_storage(&self.storage, 1, &self.re_randomization_metadata);
    }
}

impl ReRandomize for FheBool {
    fn re_randomize<'a, M: Into<ReRandomizationMode<'a>>>(
        &mut self,
        mode: M,
        seed: ReRandomizationSeed,
    ) -> Result<()> {
        self.storage = re_randomized(&self.storage, 1, mode.into(), seed)?;
        self.re_randomization_metadata = ReRandomizationMetadata::default();
        Ok(())
    }
}

impl ServerKey {
    /// What it can re-randomize with (TFHE-rs's method of this name): the legacy
    /// mode needs the casting key when its keyswitch is the casting one.
    ///
    /// ```
    /// use gpufhe::shortint::parameters::ReRandomizationParameters;
    /// use gpufhe::{ConfigBuilder, ReRandomizationSupport};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let config = ConfigBuilder::default()
    ///     .with_insecure_custom_parameters(TEST_PARAMS)?
    ///     .enable_ciphertext_re_randomization(ReRandomizationParameters::DerivedCPKWithoutKeySwitch);
    /// let (_client_key, server_key) = gpufhe::generate_keys(config);
    /// assert_eq!(
    ///     server_key.re_randomization_support(),
    ///     ReRandomizationSupport::DerivedCPKWithoutKeySwitch
    /// );
    /// assert!(server_key.supports_ciphertext_re_randomization());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn re_randomization_support(&self) -> ReRandomizationSupport {
        match self.re_randomization_key() {
            None => ReRandomizationSupport::NoSupport,
            Some(ReRandomizationKey::Derived { .. }) => {
                ReRandomizationSupport::DerivedCPKWithoutKeySwitch
            }
            Some(ReRandomizationKey::Legacy { ksk }) => {
                if ksk.is_some() || self.casting_key().is_some() {
                    ReRandomizationSupport::LegacyDedicatedCPKWithKeySwitch
                } else {
                    ReRandomizationSupport::NoSupport
                }
            }
        }
    }

    /// Whether it can re-randomize ciphertexts.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (_client_key, server_key) = gpufhe::generate_keys(config);
    /// assert!(!server_key.supports_ciphertext_re_randomization());
    /// ```
    pub fn supports_ciphertext_re_randomization(&self) -> bool {
        self.re_randomization_support() != ReRandomizationSupport::NoSupport
    }

    /// [`ServerKey::re_randomization_support`] of the current thread's server key;
    /// `Err` if there is none.
    ///
    /// ```
    /// use gpufhe::{set_server_key, ReRandomizationSupport, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// gpufhe::unset_server_key();
    /// assert!(ServerKey::current_server_key_re_randomization_support().is_err());
    /// let (_client_key, server_key) = gpufhe::generate_keys(config);
    /// set_server_key(server_key);
    /// let support = ServerKey::current_server_key_re_randomization_support()?;
    /// assert_eq!(support, ReRandomizationSupport::NoSupport);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn current_server_key_re_randomization_support() -> Result<ReRandomizationSupport> {
        Ok(current_server_key()?.re_randomization_support())
    }

    /// Re-randomizes `blocks` (of this key's parameters) with `seed` in `mode`:
    /// `Err` if the key cannot, if the legacy mode is not given a dedicated compact
    /// public key of its parameters, or if a block does not fit.
    pub(crate) fn re_randomize_blocks(
        &self,
        blocks: &mut [shortint::Ciphertext],
        mode: ReRandomizationMode<'_>,
        seed: ReRandomizationSeed,
    ) -> Result<()> {
        let p = self.config().parameters();
        match self.re_randomization_key() {
            None => Err(Error::InvalidParameter(
                "the server key does not support re-randomization (its configuration did not \
                 enable_ciphertext_re_randomization)"
                    .into(),
            )),
            Some(ReRandomizationKey::Derived { cpk }) => {
                re_randomize_blocks(blocks, cpk, None, p, seed)
            }
            Some(ReRandomizationKey::Legacy { ksk }) => {
                let ReRandomizationMode::UseLegacyCPKIfNeeded { cpk } = mode else {
                    return Err(Error::InvalidParameter(
                        "the server key re-randomizes with a dedicated compact public key \
                         (legacy mode) and none was given"
                            .into(),
                    ));
                };
                let ksk = match ksk {
                    Some(k) => &**k,
                    None => self.casting_key().ok_or_else(|| {
                        Error::InvalidParameter(
                            "the server key's legacy re-randomization uses its casting key, \
                             which it does not have"
                                .into(),
                        )
                    })?,
                };
                check_legacy_key(cpk, ksk)?;
                re_randomize_blocks(blocks, &cpk.key, Some(ksk.lwe_keyswitch_key()), p, seed)
            }
        }
    }
}

/// `Err` unless `cpk` is a dedicated compact public key of `ksk`'s parameters and
/// `ksk` switches to the big key.
fn check_legacy_key(cpk: &CompactPublicKey, ksk: &shortint::CastingKey) -> Result<()> {
    if ksk.destination() != EncryptionKeyChoice::Big {
        return Err(Error::InvalidParameter(
            "re-randomization's keyswitch must target the big key".into(),
        ));
    }
    if cpk.dedicated != Some(*ksk.parameters()) {
        return Err(Error::InvalidParameter(
            "the compact public key given for re-randomization is not the dedicated key of \
             the server key's re-randomization keyswitch (other parameters)"
                .into(),
        ));
    }
    Ok(())
}
