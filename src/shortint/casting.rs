//! Casting blocks of dedicated compact public-key encryption to computation blocks
//! (TFHE-rs's `CompactCiphertextListExpansionKind::RequiresCasting`).
//!
//! A dedicated compact public key encrypts under a secret key of its own (the
//! [`DedicatedCompactPrivateKey`], binary, of the encryption dimension). An expanded
//! block of such a list is an LWE ciphertext under that key; the server's
//! [`CastingKey`] keyswitches it to the computation key (its small key for
//! [`EncryptionKeyChoice::Small`], TFHE-rs's default, else its big key) and a
//! bootstrap with the expansion's lookup table (the message, a boolean, or one digit
//! of a packed pair) makes it a fresh block of noise level 1, as TFHE-rs does.
//! `CastingKey::cast` runs both steps on the CPU threads (one block per thread;
//! the bootstrap spreads over idle ones); a `CudaServerKey` runs them on its GPU
//! (`backend/cuda/backend/compact_expansion.rs`).
//!
//! Noise: a cast block's noise before the bootstrap is the public-key encryption's
//! plus the keyswitch's (its decomposition's rounding over the encryption
//! dimension, and `ℓ·n_pke` key noise samples); the bootstrap then gives a fresh
//! block of noise level 1, so what remains is the bootstrap's failure probability.
//! TFHE-rs 1.8's sets (`PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128` with
//! `PARAM_KEYSWITCH_PKE_TO_SMALL_...` beside the default blocks) are TFHE-rs's,
//! chosen by its noise analysis for a failure probability of at most 2^-128 over
//! that chain; the insecure test set of this crate fails about once in 2^37.

use super::{
    Ciphertext, ClientKey, CompactPublicKeyEncryptionParameters, EncryptionKeyChoice, LookupTable,
    ServerKey, ShortintKeySwitchingParameters, ShortintParameters,
};
use crate::core_crypto::{
    generate_seeded_lwe_keyswitch_key, keyswitch_lwe_ciphertext, CompressionSeed,
    EncryptionRandomGenerator, GlweSecretKey, KeyswitchKeyShape, LweCiphertextOwned,
    LweKeyswitchKey, LweSecretKey, PolynomialSize, SecretRandomGenerator, SeededLweKeyswitchKey,
};
use crate::error::{check_eq, Error, Result};
use rayon::prelude::*;

/// `Err` unless `ks` is a usable decomposition (at least one level, at most 64 bits).
pub(crate) fn check_casting_parameters(ks: &ShortintKeySwitchingParameters) -> Result<()> {
    let bits = ks.ks_base_log.0.saturating_mul(ks.ks_level.0);
    if ks.ks_base_log.0 == 0 || ks.ks_level.0 == 0 || bits > 64 {
        return Err(Error::InvalidParameter(format!(
            "a casting keyswitch of base 2^{} and {} levels (it needs 1 to 64 bits)",
            ks.ks_base_log.0, ks.ks_level.0
        )));
    }
    Ok(())
}

/// The secret key of dedicated compact public-key encryption (TFHE-rs's
/// `CompactPrivateKey`) and its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct DedicatedCompactPrivateKey {
    key: LweSecretKey,
    parameters: CompactPublicKeyEncryptionParameters,
    casting: ShortintKeySwitchingParameters,
}

impl DedicatedCompactPrivateKey {
    /// A fresh key of `parameters`, cast with `casting`, for the blocks of `block`,
    /// drawn from `secret`; `Err` if they do not go together.
    pub(crate) fn new(
        parameters: CompactPublicKeyEncryptionParameters,
        casting: ShortintKeySwitchingParameters,
        block: &ShortintParameters,
        secret: &mut SecretRandomGenerator,
    ) -> Result<Self> {
        parameters.carrier(block)?;
        check_casting_parameters(&casting)?;
        let key = LweSecretKey::generate_binary(parameters.encryption_lwe_dimension, secret);
        Ok(Self {
            key,
            parameters,
            casting,
        })
    }

    /// The key of these parts, checked (its dimension, the parameters).
    pub(crate) fn from_parts(
        key: LweSecretKey,
        parameters: CompactPublicKeyEncryptionParameters,
        casting: ShortintKeySwitchingParameters,
        block: &ShortintParameters,
    ) -> Result<Self> {
        parameters.carrier(block)?;
        check_casting_parameters(&casting)?;
        check_eq(
            "dimension of the dedicated compact secret key",
            parameters.encryption_lwe_dimension.0,
            key.lwe_dimension().0,
        )?;
        Ok(Self {
            key,
            parameters,
            casting,
        })
    }

    /// The LWE secret key.
    pub(crate) fn secret_key(&self) -> &LweSecretKey {
        &self.key
    }

    /// The encryption parameters.
    pub fn parameters(&self) -> &CompactPublicKeyEncryptionParameters {
        &self.parameters
    }

    /// The keyswitch parameters to the computation key.
    pub fn casting_parameters(&self) -> &ShortintKeySwitchingParameters {
        &self.casting
    }

    /// The key as a `shortint` client key of the carrier parameters (its GLWE key is
    /// this key as one polynomial; the small key is `block`'s, unused): compact
    /// public keys and lists of this key are those of that client key.
    pub(crate) fn as_client_key(&self, block: &ClientKey) -> Result<ClientKey> {
        let carrier = self.parameters.carrier(block.parameters())?;
        let glwe = GlweSecretKey::from_binary_coefficients(
            self.key.as_slice().to_vec(),
            PolynomialSize(self.parameters.encryption_lwe_dimension.0),
        )?;
        ClientKey::from_secret_keys(glwe, block.small_lwe_secret_key().clone(), carrier)
    }

    /// The casting key from this key to `block`'s keys, its masks drawn from a
    /// seed (TFHE-rs's compressed form); `Err` if the OS random source fails.
    pub(crate) fn compressed_casting_key(&self, block: &ClientKey) -> Result<CompressedCastingKey> {
        self.compressed_keyswitch_key(block, &self.casting)
    }

    /// The keyswitching key from this key to `block`'s key of `casting` (the
    /// casting key with the key's own keyswitch parameters, or re-randomization's
    /// dedicated keyswitch), seeded.
    pub(crate) fn compressed_keyswitch_key(
        &self,
        block: &ClientKey,
        casting: &ShortintKeySwitchingParameters,
    ) -> Result<CompressedCastingKey> {
        check_casting_parameters(casting)?;
        let p = block.parameters();
        let (to, noise) = match casting.destination_key {
            EncryptionKeyChoice::Small => (block.small_lwe_secret_key(), p.lwe_noise_distribution),
            EncryptionKeyChoice::Big => (block.big_lwe_secret_key(), p.glwe_noise_distribution),
        };
        let mut rng = EncryptionRandomGenerator::from_os()?;
        let ksk = generate_seeded_lwe_keyswitch_key(
            &self.key,
            to,
            casting.ks_base_log,
            casting.ks_level,
            noise,
            CompressionSeed::from_os()?,
            &mut rng,
        )?;
        CompressedCastingKey::from_parts(ksk, casting.destination_key, self.parameters, p)
    }
}

/// A [`CastingKey`] whose masks are replaced by their seed (in a compressed server
/// key).
#[derive(Debug, Clone, PartialEq)]
pub struct CompressedCastingKey {
    ksk: SeededLweKeyswitchKey,
    destination: EncryptionKeyChoice,
    parameters: CompactPublicKeyEncryptionParameters,
}

impl CompressedCastingKey {
    /// The key of these parts for blocks of `block` (checked as
    /// [`CastingKey::from_parts`] does).
    pub(crate) fn from_parts(
        ksk: SeededLweKeyswitchKey,
        destination: EncryptionKeyChoice,
        parameters: CompactPublicKeyEncryptionParameters,
        block: &ShortintParameters,
    ) -> Result<Self> {
        check_shape(ksk.shape(), destination, &parameters, block)?;
        Ok(Self {
            ksk,
            destination,
            parameters,
        })
    }

    /// The casting key, its masks regenerated.
    pub(crate) fn decompress(&self) -> CastingKey {
        CastingKey {
            ksk: self.ksk.decompress(),
            destination: self.destination,
            parameters: self.parameters,
        }
    }

    /// The seeded LWE keyswitching key.
    pub(crate) fn seeded_keyswitch_key(&self) -> &SeededLweKeyswitchKey {
        &self.ksk
    }

    /// The key it switches to.
    pub fn destination(&self) -> EncryptionKeyChoice {
        self.destination
    }

    /// The encryption parameters of the blocks it casts.
    pub fn parameters(&self) -> &CompactPublicKeyEncryptionParameters {
        &self.parameters
    }
}

/// `Err` unless a keyswitching key of `shape` casts blocks of `parameters` to the
/// `destination` key of `block`.
fn check_shape(
    shape: KeyswitchKeyShape,
    destination: EncryptionKeyChoice,
    parameters: &CompactPublicKeyEncryptionParameters,
    block: &ShortintParameters,
) -> Result<()> {
    parameters.carrier(block)?;
    check_eq(
        "input dimension of the casting keyswitching key",
        parameters.encryption_lwe_dimension.0,
        shape.input_lwe_dimension.0,
    )?;
    let out = match destination {
        EncryptionKeyChoice::Small => block.lwe_dimension,
        EncryptionKeyChoice::Big => block.big_lwe_dimension(),
    };
    check_eq(
        "output dimension of the casting keyswitching key",
        out.0,
        shape.output_lwe_dimension.0,
    )
}

/// The server's key that casts blocks of dedicated compact public-key encryption
/// to computation blocks (TFHE-rs's `cpk_key_switching_key_material`).
#[derive(Debug, Clone, PartialEq)]
pub struct CastingKey {
    ksk: LweKeyswitchKey,
    destination: EncryptionKeyChoice,
    parameters: CompactPublicKeyEncryptionParameters,
}

impl CastingKey {
    /// The key of these parts for blocks of `block`: `Err` unless `ksk` switches from
    /// the encryption dimension to the destination key of `block`.
    pub(crate) fn from_parts(
        ksk: LweKeyswitchKey,
        destination: EncryptionKeyChoice,
        parameters: CompactPublicKeyEncryptionParameters,
        block: &ShortintParameters,
    ) -> Result<Self> {
        check_shape(ksk.shape(), destination, &parameters, block)?;
        Ok(Self {
            ksk,
            destination,
            parameters,
        })
    }

    /// The LWE keyswitching key.
    pub(crate) fn lwe_keyswitch_key(&self) -> &LweKeyswitchKey {
        &self.ksk
    }

    /// The key it switches to.
    pub fn destination(&self) -> EncryptionKeyChoice {
        self.destination
    }

    /// The encryption parameters of the blocks it casts.
    pub fn parameters(&self) -> &CompactPublicKeyEncryptionParameters {
        &self.parameters
    }

    /// Casts `blocks` (expanded under the dedicated key) with `server_key`: block `i`
    /// keyswitched, then bootstrapped with `luts[i]`. `Err` if the counts differ, a
    /// block is not of the encryption dimension, or `server_key` is not of the
    /// blocks' moduli.
    pub(crate) fn cast(
        &self,
        server_key: &ServerKey,
        blocks: &[Ciphertext],
        luts: &[&LookupTable],
    ) -> Result<Vec<Ciphertext>> {
        check_eq("lookup tables for the blocks", blocks.len(), luts.len())?;
        let p = server_key.parameters();
        self.parameters.carrier(p)?;
        let out_size = match self.destination {
            EncryptionKeyChoice::Small => p.lwe_dimension.to_lwe_size(),
            EncryptionKeyChoice::Big => p.big_lwe_dimension().to_lwe_size(),
        };
        blocks
            .par_iter()
            .zip(luts.par_iter())
            .map(|(block, lut)| {
                check_eq(
                    "LWE dimension of a block to cast",
                    self.parameters.encryption_lwe_dimension.0,
                    block.ct.lwe_dimension().0,
                )?;
                let mut switched = LweCiphertextOwned::new_zero(out_size);
                keyswitch_lwe_ciphertext(&self.ksk, &block.ct, &mut switched)?;
                match self.destination {
                    EncryptionKeyChoice::Small => server_key.bootstrap_small(&switched, lut),
                    EncryptionKeyChoice::Big => {
                        let big = Ciphertext::from_parts(switched, block.degree, 1, p);
                        server_key.apply_lookup_table(&big, lut)
                    }
                }
            })
            .collect()
    }
}
