//! Ciphertext compression: the parameters and keys that pack many blocks into one
//! GLWE ciphertext stored on few bits, and expand them back.
//!
//! **Scheme.** A separate GLWE key `S_c` (the compression key, `k_c`, `N_c`) holds
//! the packed blocks. Compression keyswitches up to `N_c` blocks (under the big key)
//! into the coefficients of one GLWE ciphertext under `S_c`
//! ([`crate::core_crypto::keyswitch_lwe_ciphertexts_into_glwe`]) and rounds every
//! coefficient to its `storage_log_modulus` high bits; only the mask and the bodies
//! of the packed blocks are kept. Decompression extracts a block's coefficient (an
//! LWE ciphertext under `S_c` read as an LWE key) and keyswitches it back to the big
//! key. Both keyswitching keys encrypt under keys of dimension `k·N` with the GLWE
//! noise of the blocks, so they are as secure as the bootstrap key.
//!
//! **Noise.** No bootstrap is involved here (the high-level
//! [`crate::CompressedCiphertextList`] bootstraps each block it reads back, so that
//! it is clean again): a decompressed block carries its own noise
//! plus the packing keyswitch of every block of its GLWE, the rounding to the
//! storage modulus and the keyswitch back
//! ([`CompressionParameters::added_variance`]). The parameters are valid only if
//! that is at most the variance of one bootstrap output, so a decompressed block
//! counts one more noise level than it had, and the blocks with the largest noise
//! level are bootstrapped before they are packed. A test measures the added noise
//! against the model.

use super::ShortintParameters;
use crate::core_crypto::noise::{decomposition_digit_variance, decomposition_rounding_variance};
use crate::core_crypto::{
    generate_seeded_lwe_keyswitch_key, generate_seeded_lwe_packing_keyswitch_key, CompressionSeed,
    DecompositionBaseLog, DecompositionLevelCount, EncryptionRandomGenerator, GlweDimension,
    GlweSecretKey, LweKeyswitchKey, LwePackingKeyswitchKey, NoiseDistribution, PolynomialSize,
    SecretRandomGenerator, SeededLweKeyswitchKey, SeededLwePackingKeyswitchKey,
};
use crate::error::{check_eq, Error, Result};
use serde::{Deserialize, Serialize};

/// The parameters of ciphertext compression, beside the block parameters they
/// compress (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CompressionParameters {
    /// `k_c` of the compression GLWE key.
    pub glwe_dimension: GlweDimension,
    /// `N_c` of the compression GLWE key.
    pub polynomial_size: PolynomialSize,
    /// Noise of both keyswitching keys (encryptions under keys of dimension
    /// `k_c·N_c` and `k·N`).
    pub noise_distribution: NoiseDistribution,
    /// `log2(B)` of the packing keyswitch (big key to `S_c`).
    pub packing_ks_base_log: DecompositionBaseLog,
    /// Levels of the packing keyswitch.
    pub packing_ks_level: DecompositionLevelCount,
    /// `log2(B)` of the keyswitch back (`S_c` to the big key).
    pub decompression_ks_base_log: DecompositionBaseLog,
    /// Levels of the keyswitch back.
    pub decompression_ks_level: DecompositionLevelCount,
    /// Most blocks packed into one GLWE ciphertext (at most `N_c`).
    pub lwe_per_glwe: usize,
    /// Bits kept of each stored coefficient (at most 64).
    pub storage_log_modulus: u32,
    /// Estimated security in bits against the best known attacks.
    pub security_bits: u32,
}

/// The name TFHE-rs gives the compression parameters of its default blocks, for
/// code written against TFHE-rs: here [`COMP_PARAM_MESSAGE_2_CARRY_2`] (the scheme
/// and the values differ; see its docs).
pub const COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: CompressionParameters =
    COMP_PARAM_MESSAGE_2_CARRY_2;

/// Compression of blocks of the default parameters
/// ([`super::DEFAULT_PARAMETERS`]): a compression key of `k_c = 1`, `N_c = 2048`
/// with the blocks' GLWE noise TUniform(17) (128-bit secure, like the bootstrap
/// key), 2048 blocks per GLWE ciphertext, 18 bits per stored coefficient: a list
/// takes 4.5 KiB plus 2.25 bytes per block, where a block takes 16 KiB. Packing
/// keyswitch `2^20 × 1`, keyswitch back `2^23 × 1`. Modelled added noise 2^97.6,
/// against 2^98.4 for one bootstrap output (measured within a few percent of the
/// model on the test parameters).
pub const COMP_PARAM_MESSAGE_2_CARRY_2: CompressionParameters = CompressionParameters {
    glwe_dimension: GlweDimension(1),
    polynomial_size: PolynomialSize(2048),
    noise_distribution: NoiseDistribution::TUniform { log2_bound: 17 },
    packing_ks_base_log: DecompositionBaseLog(20),
    packing_ks_level: DecompositionLevelCount(1),
    decompression_ks_base_log: DecompositionBaseLog(23),
    decompression_ks_level: DecompositionLevelCount(1),
    lwe_per_glwe: 2048,
    storage_log_modulus: 18,
    security_bits: 128,
};

/// **Insecure**: compression for
/// [`super::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2`], for tests only.
#[cfg(any(test, feature = "test-params"))]
pub const COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2: CompressionParameters =
    CompressionParameters {
        glwe_dimension: GlweDimension(1),
        polynomial_size: PolynomialSize(512),
        noise_distribution: NoiseDistribution::TUniform { log2_bound: 20 },
        packing_ks_base_log: DecompositionBaseLog(20),
        packing_ks_level: DecompositionLevelCount(1),
        decompression_ks_base_log: DecompositionBaseLog(23),
        decompression_ks_level: DecompositionLevelCount(1),
        lwe_per_glwe: 512,
        storage_log_modulus: 18,
        security_bits: 0,
    };

impl CompressionParameters {
    /// `k_c·N_c`, the dimension of the compression key read as an LWE key.
    ///
    /// ```
    /// use gpufhe::shortint::COMP_PARAM_MESSAGE_2_CARRY_2;
    /// assert_eq!(COMP_PARAM_MESSAGE_2_CARRY_2.lwe_dimension(), 2048);
    /// ```
    pub fn lwe_dimension(&self) -> usize {
        self.glwe_dimension.0.saturating_mul(self.polynomial_size.0)
    }

    /// The noise variance a block gains from compression and decompression when
    /// `count` blocks share its GLWE ciphertext, with average binary keys: the
    /// packing keyswitch (key noise of `count` blocks, rounding of its own mask),
    /// the rounding of the `k_c·N_c + 1` coefficients it is read from to
    /// `storage_log_modulus` bits (with centered-mean noise reduction), and the
    /// keyswitch back.
    ///
    /// ```
    /// use gpufhe::shortint::{COMP_PARAM_MESSAGE_2_CARRY_2 as c, DEFAULT_PARAMETERS as p};
    /// let v = c.added_variance(&p, c.lwe_per_glwe);
    /// assert!((v.log2() - 97.6).abs() < 0.2);
    /// ```
    pub fn added_variance(&self, blocks: &ShortintParameters, count: usize) -> f64 {
        let big = blocks.big_lwe_dimension().0 as f64;
        let dim_c = self.lwe_dimension() as f64;
        let key_noise = self.noise_distribution.variance();
        let (pb, pl) = (self.packing_ks_base_log.0, self.packing_ks_level.0);
        let (db, dl) = (
            self.decompression_ks_base_log.0,
            self.decompression_ks_level.0,
        );
        let packing = count as f64 * big * pl as f64 * decomposition_digit_variance(pb) * key_noise
            + big / 2.0 * decomposition_rounding_variance(pb, pl);
        let dropped = 64 - self.storage_log_modulus.min(64) as i32;
        // Centered-mean rounding: the mask's errors count with weight 1/4.
        let storage = (2f64.powi(2 * dropped) - 1.0) / 12.0 * (1.0 + dim_c / 4.0);
        let back = dim_c * dl as f64 * decomposition_digit_variance(db) * key_noise
            + dim_c / 2.0 * decomposition_rounding_variance(db, dl);
        packing + storage + back
    }

    /// `Err` unless the parameters are consistent and compress blocks of `blocks`
    /// within one noise level: valid dimensions and decompositions, at most `N_c`
    /// blocks per GLWE ciphertext, a storage modulus of 1 to 64 bits, and an added
    /// variance ([`CompressionParameters::added_variance`]) at most the output
    /// variance of a bootstrap of `blocks`.
    ///
    /// ```
    /// use gpufhe::shortint::{COMP_PARAM_MESSAGE_2_CARRY_2 as c, DEFAULT_PARAMETERS as p};
    /// assert!(c.validate(&p).is_ok());
    /// let mut coarse = c;
    /// coarse.storage_log_modulus = 8; // too few bits kept: too much noise
    /// assert!(coarse.validate(&p).is_err());
    /// ```
    pub fn validate(&self, blocks: &ShortintParameters) -> Result<()> {
        let bad = |msg: String| Err(Error::InvalidParameter(msg));
        blocks.validate()?;
        crate::core_crypto::check_polynomial_size(self.polynomial_size)?;
        if self.glwe_dimension.0 == 0 || self.glwe_dimension.0 > super::MAX_GLWE_DIMENSION {
            return bad(format!(
                "the compression GLWE dimension {} must be in [1, {}]",
                self.glwe_dimension.0,
                super::MAX_GLWE_DIMENSION
            ));
        }
        if self.lwe_per_glwe == 0 || self.lwe_per_glwe > self.polynomial_size.0 {
            return bad(format!(
                "{} blocks per GLWE ciphertext: must be in [1, N_c = {}]",
                self.lwe_per_glwe, self.polynomial_size.0
            ));
        }
        if !(1..=64).contains(&self.storage_log_modulus) {
            return bad(format!(
                "a storage modulus of 2^{} must be in [2, 2^64]",
                self.storage_log_modulus
            ));
        }
        crate::core_crypto::check_decomposition(self.packing_ks_base_log, self.packing_ks_level)?;
        crate::core_crypto::check_decomposition(
            self.decompression_ks_base_log,
            self.decompression_ks_level,
        )?;
        self.noise_distribution.validate()?;
        let added = self.added_variance(blocks, self.lwe_per_glwe);
        let level = blocks.bootstrap_output_variance();
        if added > level {
            return bad(format!(
                "compression adds a noise variance of 2^{:.1}, more than one bootstrap \
                 output (2^{:.1})",
                added.log2(),
                level.log2()
            ));
        }
        Ok(())
    }

    /// `Err` unless the keys' noise meets the 128-bit curve on both key dimensions
    /// and the set claims at least 128 bits. True of
    /// [`COMP_PARAM_MESSAGE_2_CARRY_2`] with the default block parameters.
    ///
    /// ```
    /// use gpufhe::shortint::{COMP_PARAM_MESSAGE_2_CARRY_2 as c, DEFAULT_PARAMETERS as p};
    /// assert!(c.check_security(&p).is_ok());
    /// let mut weak = c;
    /// weak.security_bits = 80;
    /// assert!(weak.check_security(&p).is_err());
    /// ```
    pub fn check_security(&self, blocks: &ShortintParameters) -> Result<()> {
        if self.security_bits < 128 {
            return Err(Error::InvalidParameter(format!(
                "insecure compression parameters: they claim {} bits of security, less than 128",
                self.security_bits
            )));
        }
        let big = blocks.big_lwe_dimension().0;
        let dim = self.lwe_dimension().min(big);
        super::safety::check_secure_noise("compression key", dim, self.noise_distribution)
    }

    /// Words of one stored GLWE ciphertext holding `count` blocks.
    pub(crate) fn stored_words(&self, count: usize) -> usize {
        (self.lwe_dimension() + count)
            .saturating_mul(self.storage_log_modulus as usize)
            .div_ceil(64)
    }
}

/// The secret key of compression: the GLWE key `S_c`. Zeroized on drop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompressionPrivateKey {
    pub(crate) key: GlweSecretKey,
    pub(crate) parameters: CompressionParameters,
}

impl CompressionPrivateKey {
    /// Draws a fresh key for `parameters` (valid for `blocks`).
    ///
    /// ```
    /// use gpufhe::shortint::{CompressionPrivateKey, COMP_PARAM_MESSAGE_2_CARRY_2, DEFAULT_PARAMETERS};
    /// let key = CompressionPrivateKey::new(COMP_PARAM_MESSAGE_2_CARRY_2, &DEFAULT_PARAMETERS).unwrap();
    /// assert_eq!(key.parameters(), &COMP_PARAM_MESSAGE_2_CARRY_2);
    /// let mut bad = COMP_PARAM_MESSAGE_2_CARRY_2;
    /// bad.lwe_per_glwe = 4096; // more blocks than coefficients
    /// assert!(CompressionPrivateKey::new(bad, &DEFAULT_PARAMETERS).is_err());
    /// ```
    pub fn new(parameters: CompressionParameters, blocks: &ShortintParameters) -> Result<Self> {
        Self::from_secret_generator(parameters, blocks, &mut SecretRandomGenerator::from_os()?)
    }

    /// [`CompressionPrivateKey::new`] drawing the key from `secret` (reproducible
    /// keys).
    pub(crate) fn from_secret_generator(
        parameters: CompressionParameters,
        blocks: &ShortintParameters,
        secret: &mut SecretRandomGenerator,
    ) -> Result<Self> {
        parameters.validate(blocks)?;
        let key = GlweSecretKey::generate_binary(
            parameters.glwe_dimension,
            parameters.polynomial_size,
            secret,
        )?;
        Ok(Self { key, parameters })
    }

    /// The compression parameters.
    ///
    /// ```
    /// use gpufhe::shortint::{CompressionPrivateKey, COMP_PARAM_MESSAGE_2_CARRY_2, DEFAULT_PARAMETERS};
    /// let key = CompressionPrivateKey::new(COMP_PARAM_MESSAGE_2_CARRY_2, &DEFAULT_PARAMETERS).unwrap();
    /// assert_eq!(key.parameters().polynomial_size.0, 2048);
    /// ```
    pub fn parameters(&self) -> &CompressionParameters {
        &self.parameters
    }

    /// `Err` unless the key has the shape of its parameters (for deserialized keys).
    pub(crate) fn check_shape(&self) -> Result<()> {
        check_eq(
            "GLWE dimension of the compression key",
            self.parameters.glwe_dimension.0,
            self.key.glwe_dimension().0,
        )?;
        check_eq(
            "polynomial size of the compression key",
            self.parameters.polynomial_size.0,
            self.key.polynomial_size().0,
        )
    }
}

/// The public keys of compression, as seeds and bodies (what a compressed server
/// key carries): the packing keyswitching key and the keyswitching key back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompressedCompressionKeys {
    pub(crate) packing: SeededLwePackingKeyswitchKey,
    pub(crate) back: SeededLweKeyswitchKey,
    pub(crate) parameters: CompressionParameters,
}

/// The public keys of compression, expanded (what a server key uses).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompressionKeys {
    pub(crate) packing: LwePackingKeyswitchKey,
    pub(crate) back: LweKeyswitchKey,
    pub(crate) parameters: CompressionParameters,
}

impl CompressedCompressionKeys {
    /// Generates the keys of `private_key` for the blocks of `client_key`.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// // insecure test parameters here).
    /// let p = PARAMETERS;
    /// let ck = ClientKey::new(p).unwrap();
    /// let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// let keys = CompressedCompressionKeys::new(&ck, &private).unwrap().decompress().unwrap();
    /// let list = keys.compress(&[ck.encrypt(1).unwrap(), ck.encrypt(2).unwrap()], &p).unwrap();
    /// assert_eq!(ck.decrypt(&keys.decompress(&list, 1).unwrap()).unwrap(), 2);
    /// ```
    pub fn new(client_key: &super::ClientKey, private_key: &CompressionPrivateKey) -> Result<Self> {
        let c = private_key.parameters;
        let blocks = client_key.parameters();
        c.validate(blocks)?;
        private_key.check_shape()?;
        // The bodies the keys hold: one polynomial per row of the packing key, one
        // word per row of the key back.
        let rows =
            (blocks.big_lwe_dimension().0 as u64).saturating_mul(c.packing_ks_level.0 as u64);
        let back_rows =
            (c.lwe_dimension() as u64).saturating_mul(c.decompression_ks_level.0 as u64);
        let _memory = crate::memory::reserve_host_memory(
            rows.saturating_mul(c.polynomial_size.0 as u64)
                .saturating_add(back_rows)
                .saturating_mul(8),
            "generating compression keys",
        )?;
        let mut rng = EncryptionRandomGenerator::from_os()?;
        let packing = generate_seeded_lwe_packing_keyswitch_key(
            client_key.big_lwe_secret_key(),
            &private_key.key,
            c.packing_ks_base_log,
            c.packing_ks_level,
            c.noise_distribution,
            CompressionSeed::from_os()?,
            &mut rng,
        )?;
        let back = generate_seeded_lwe_keyswitch_key(
            &private_key.key.as_lwe_secret_key(),
            client_key.big_lwe_secret_key(),
            c.decompression_ks_base_log,
            c.decompression_ks_level,
            c.noise_distribution,
            CompressionSeed::from_os()?,
            &mut rng,
        )?;
        Ok(Self {
            packing,
            back,
            parameters: c,
        })
    }

    /// Bytes of host memory the expanded keys take.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// // insecure test parameters here).
    /// let p = PARAMETERS;
    /// let ck = ClientKey::new(p).unwrap();
    /// let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// let compressed = CompressedCompressionKeys::new(&ck, &private).unwrap();
    /// // The packing key: 512 GLWE ciphertexts of 2 * 512 words; the key back: 512 LWE
    /// // ciphertexts of 513 words.
    /// assert_eq!(compressed.expanded_bytes(), (512 * 2 * 512 + 512 * 513) * 8);
    /// ```
    pub fn expanded_bytes(&self) -> u64 {
        let p = self.packing.shape();
        let b = self.back.shape();
        let packing = p.ciphertext_count() as u64 * p.glwe_len() as u64;
        let back = b.ciphertext_count() as u64 * (b.output_lwe_dimension.0 as u64 + 1);
        (packing + back) * 8
    }

    /// The expanded keys; `Err(OutOfMemory)` if the host cannot reserve them.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// // insecure test parameters here).
    /// let p = PARAMETERS;
    /// let ck = ClientKey::new(p).unwrap();
    /// let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// let compressed = CompressedCompressionKeys::new(&ck, &private).unwrap();
    /// let keys = compressed.decompress().unwrap();
    /// assert!(keys.validate(&p).is_ok());
    /// assert_eq!(keys.parameters(), compressed.parameters());
    /// ```
    pub fn decompress(&self) -> Result<CompressionKeys> {
        let _memory = crate::memory::reserve_host_memory(
            self.expanded_bytes(),
            "expanding compression keys",
        )?;
        Ok(CompressionKeys {
            packing: self.packing.decompress(),
            back: self.back.decompress(),
            parameters: self.parameters,
        })
    }
}

/// The accessors both forms of the compression keys share.
macro_rules! compression_key_accessors {
    ($($keys:ty),*) => {$(
        impl $keys {
            /// The compression parameters.
            ///
            /// ```
            /// use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
            /// # use gpufhe::shortint::{
            /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
            /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
            /// # };
            /// // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
            /// // insecure test parameters here).
            /// let p = PARAMETERS;
            /// let ck = ClientKey::new(p).unwrap();
            /// let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
            /// let compressed = CompressedCompressionKeys::new(&ck, &private).unwrap();
            /// assert_eq!(compressed.parameters(), private.parameters());
            /// ```
            pub fn parameters(&self) -> &CompressionParameters {
                &self.parameters
            }

            /// `Err` unless the keys have the shapes `blocks` and their parameters
            /// imply.
            ///
            /// ```
            /// use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
            /// # use gpufhe::shortint::{
            /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
            /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
            /// # };
            /// // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
            /// // insecure test parameters here).
            /// let p = PARAMETERS;
            /// let ck = ClientKey::new(p).unwrap();
            /// let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
            /// let compressed = CompressedCompressionKeys::new(&ck, &private).unwrap();
            /// assert!(compressed.validate(&p).is_ok());
            /// // Keys made for other blocks do not fit.
            /// assert!(compressed.validate(&gpufhe::shortint::DEFAULT_PARAMETERS).is_err());
            /// ```
            pub fn validate(&self, blocks: &ShortintParameters) -> Result<()> {
                check_shapes(&self.parameters, blocks, self.packing.shape(), self.back.shape())
            }
        }
    )*};
}
compression_key_accessors!(CompressedCompressionKeys, CompressionKeys);

/// `Err` unless the keys' shapes are those `parameters` imply for `blocks`.
fn check_shapes(
    parameters: &CompressionParameters,
    blocks: &ShortintParameters,
    packing: crate::core_crypto::PackingKeyswitchKeyShape,
    back: crate::core_crypto::KeyswitchKeyShape,
) -> Result<()> {
    parameters.validate(blocks)?;
    let big = blocks.big_lwe_dimension();
    let ok = packing.input_lwe_dimension == big
        && packing.output_glwe_dimension == parameters.glwe_dimension
        && packing.output_polynomial_size == parameters.polynomial_size
        && packing.base_log == parameters.packing_ks_base_log
        && packing.level == parameters.packing_ks_level
        && back.input_lwe_dimension.0 == parameters.lwe_dimension()
        && back.output_lwe_dimension == big
        && back.base_log == parameters.decompression_ks_base_log
        && back.level == parameters.decompression_ks_level;
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "compression keys of shapes {packing:?} and {back:?} do not match their \
             parameters {parameters:?}"
        )))
    }
}
