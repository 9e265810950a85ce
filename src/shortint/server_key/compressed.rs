//! The compressed server key: generation from a client key (seeds and bodies) and
//! expansion into a [`ServerKey`].

use super::{CompressedServerKey, ServerKey};
use crate::core_crypto::tfhe_rs_layout::{
    split_tfhe_rs_multi_bit_key, tfhe_rs_multi_bit_lwe_secret_key, TfheRsMultiBitExtra,
};
use crate::core_crypto::{
    generate_seeded_lwe_bootstrap_key, generate_seeded_lwe_keyswitch_key, CompressionSeed,
    EncryptionRandomGenerator, FourierLweBootstrapKey, LweBootstrapKey, SeededLweBootstrapKey,
    SeededLweKeyswitchKey,
};
use crate::error::Result;
use crate::shortint::{ClientKey, PbsKind, ShortintParameters};
use std::sync::Arc;

impl CompressedServerKey {
    /// Generates the compressed server key of `client_key`.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let compressed = CompressedServerKey::new(&ck).unwrap();
    /// let sk = compressed.decompress().unwrap();
    /// let lut = sk.generate_lookup_table(|x| 3 - x % 4).unwrap();
    /// assert_eq!(ck.decrypt(&sk.apply_lookup_table(&ck.encrypt(1).unwrap(), &lut).unwrap()).unwrap(), 2);
    /// ```
    pub fn new(client_key: &ClientKey) -> Result<Self> {
        let mut rng = EncryptionRandomGenerator::from_os()?;
        Self::with_seeds(
            client_key,
            CompressionSeed::from_os()?,
            CompressionSeed::from_os()?,
            &mut rng,
        )
    }

    /// Generates it with explicit mask seeds and noise generator (reproducible keys
    /// for tests; the noise generator's state must stay secret).
    ///
    /// ```
    /// use gpufhe::core_crypto::{CompressionSeed, EncryptionRandomGenerator, Seed};
    /// use gpufhe::shortint::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let (ks_seed, bs_seed, noise_seed) = (CompressionSeed::new(1), CompressionSeed::new(2), Seed::from_os().unwrap());
    /// let generate = || {
    ///     let mut rng = EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(0), noise_seed);
    ///     CompressedServerKey::with_seeds(&ck, ks_seed, bs_seed, &mut rng).unwrap()
    /// };
    /// // The same seeds and noise give the same key.
    /// assert_eq!(generate(), generate());
    /// assert_eq!(generate().keyswitch_key().seed(), ks_seed);
    /// ```
    pub fn with_seeds(
        client_key: &ClientKey,
        keyswitch_seed: CompressionSeed,
        bootstrap_seed: CompressionSeed,
        rng: &mut EncryptionRandomGenerator,
    ) -> Result<Self> {
        let p = client_key.parameters;
        let _memory = p.reserve_server_key_memory("generating a server key")?;
        let keyswitch_key = generate_seeded_lwe_keyswitch_key(
            &client_key.big_lwe_secret_key,
            &client_key.small_lwe_secret_key,
            p.ks_base_log,
            p.ks_level,
            p.lwe_noise_distribution,
            keyswitch_seed,
            rng,
        )?;
        // A multi-bit key is a bootstrap key over the indicator bits of the groups,
        // in TFHE-rs's order (all 2^g assignments; the empty one is left out when
        // it expands).
        let indicator_bits = match p.pbs_kind {
            PbsKind::Classical => None,
            PbsKind::MultiBit { grouping_factor } => Some(tfhe_rs_multi_bit_lwe_secret_key(
                &client_key.small_lwe_secret_key,
                grouping_factor,
            )?),
        };
        let bootstrap_key = generate_seeded_lwe_bootstrap_key(
            indicator_bits
                .as_ref()
                .unwrap_or(&client_key.small_lwe_secret_key),
            &client_key.glwe_secret_key,
            p.pbs_base_log,
            p.pbs_level,
            p.glwe_noise_distribution,
            bootstrap_seed,
            rng,
        )?;
        Ok(Self {
            keyswitch_key,
            bootstrap_key,
            parameters: p,
        })
    }

    /// Expands the seeds into the server key (and converts the bootstrap key to the
    /// Fourier domain); `Err(OutOfMemory)` if the host cannot reserve the memory
    /// that needs ([`ShortintParameters::server_key_peak_bytes`]).
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = CompressedServerKey::new(&ck).unwrap().decompress().unwrap();
    /// let ct = sk.create_trivial(2).unwrap();
    /// let lut = sk.generate_lookup_table(|x| x + 1).unwrap();
    /// assert_eq!(ck.decrypt(&sk.apply_lookup_table(&ct, &lut).unwrap()).unwrap(), 3);
    /// ```
    pub fn decompress(&self) -> Result<ServerKey> {
        let _memory = self
            .parameters
            .reserve_server_key_memory("decompressing a server key")?;
        Ok(self.expand())
    }

    /// [`CompressedServerKey::decompress`] without the memory check, for callers
    /// that made it already.
    pub(crate) fn expand(&self) -> ServerKey {
        let (bootstrap_key, extra) = self.expand_bootstrap_key();
        ServerKey {
            keyswitch_key: self.keyswitch_key.decompress(),
            bootstrap_key: FourierLweBootstrapKey::from_standard(&bootstrap_key),
            parameters: self.parameters,
            tfhe_rs_extra: extra.map(Arc::new),
        }
    }

    /// The bootstrap key expanded from its seed (standard domain) in gpufhe's
    /// layout; for a multi-bit key, also what it leaves out of TFHE-rs's (see
    /// [`CompressedServerKey::bootstrap_key`]).
    pub(crate) fn expand_bootstrap_key(&self) -> (LweBootstrapKey, Option<TfheRsMultiBitExtra>) {
        let expanded = self.bootstrap_key.decompress();
        match self.parameters.pbs_kind {
            PbsKind::Classical => (expanded, None),
            PbsKind::MultiBit { grouping_factor } => {
                // The shapes were checked when the key was made or read.
                let (key, extra) = split_tfhe_rs_multi_bit_key(&expanded, grouping_factor)
                    .expect("a multi-bit key of whole groups");
                (key, Some(extra))
            }
        }
    }

    /// The parameter set.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let compressed = CompressedServerKey::new(&ck).unwrap();
    /// assert_eq!(compressed.parameters(), ck.parameters());
    /// ```
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The seeded keyswitching key.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let compressed = CompressedServerKey::new(&ck).unwrap();
    /// let shape = compressed.keyswitch_key().shape();
    /// assert_eq!(shape, PARAMETERS.keyswitch_key_shape());
    /// // One body per ciphertext of the key, the masks live in the seed.
    /// assert_eq!(compressed.keyswitch_key().bodies().len(), shape.ciphertext_count());
    /// ```
    pub fn keyswitch_key(&self) -> &SeededLweKeyswitchKey {
        &self.keyswitch_key
    }

    /// The seeded bootstrap key (standard domain). A multi-bit one is TFHE-rs's:
    /// `2^g` GGSW ciphertexts per group of `g` key bits, in TFHE-rs's order
    /// ([`ShortintParameters::seeded_bootstrap_key_shape`]); it expands to the
    /// `2^g - 1` of gpufhe's blind rotation.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let compressed = CompressedServerKey::new(&ck).unwrap();
    /// assert_eq!(compressed.bootstrap_key().shape(), PARAMETERS.bootstrap_key_shape());
    /// ```
    pub fn bootstrap_key(&self) -> &SeededLweBootstrapKey {
        &self.bootstrap_key
    }
}
