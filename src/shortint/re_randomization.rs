//! Re-randomization of blocks (TFHE-rs 1.8's `CompactPublicKey::re_randomize_ciphertexts`):
//! a compact public key encrypts zeros from a public seed, and each block gets one
//! of them added, so its mask and noise change while its message does not.
//!
//! **Seeds.** A [`ReRandomizationSeedHasher`] (BLAKE3 by default, SHAKE256 for NIST
//! compliance) absorbs an 8-byte domain separator, then whatever the caller feeds
//! it (ciphertexts, metadata, a description of the function, a nonce);
//! [`ReRandomizationSeedGen::next_seed`] absorbs the seed's index (8 bytes, little
//! endian) into a copy of that state and reads 32 bytes: seed `i`, which with the
//! public-encryption domain separator makes the [`XofSeed`] of the encryption of
//! zero. Everything is TFHE-rs's, byte for byte, so that the same context gives the
//! same seeds, hence the same zeros, in both libraries.
//!
//! **Zeros.** For `c` blocks and a key of dimension `n` (`ceil(c / n)` bins), the
//! seed's generator (TFHE-rs's `NoiseRandomGenerator`) draws the binary vector `r`
//! (`n` values per bin), the mask noise (`n` per bin) and the body noise (`c`), in
//! that order, and each bin is TFHE-rs's compact encryption of zero
//! (`a·rev(r) + e_1`, `rev(b·rev(r)) + e_2`), expanded to LWE ciphertexts. With a
//! key derived from the computation key they are under the big key already; a
//! dedicated key's are keyswitched to the big key first (TFHE-rs's legacy mode).
//!
//! **Noise** (TFHE-rs's analysis, on its figures): a re-randomized block's noise is
//! its own plus the zero's. The zero's variance, from the public key's noise `E`
//! (variance `σ²`, TUniform of the key's parameters) and the encryption's
//! `e_1, e_2` (same distribution): `n/2·σ²` for `E·r` (`r` binary of weight about
//! `n/2`), as much for `<e_1, s>` (`s` binary) and `σ²` for `e_2`, that is
//! `(n + 1)·σ²`. On the default
//! parameters (`n = 2048`, TUniform(17): `σ² = (2^35 + 1)/6 ≈ 2^32.4`) this is
//! about `2^43.4`; a fresh block's noise (the bootstrap's output, `≈ 2^98.4` here
//! as the expansion's docs in `compact` state) is `2^55` times larger, so the sum
//! is indistinguishable from a fresh block's: TFHE-rs counts it as noise level 1
//! (nominal), and so does gpufhe. The failure probability of the next bootstrap
//! stays TFHE-rs's `2^-128` bound of these parameters (its noise-distribution
//! tests `cpk_rerand_ks_ms` and `br_rerand_dp_ks_ms` check it). Blocks of a noise
//! level above 1 are refused, as in TFHE-rs: the sum would leave the analysis.
//! With a dedicated key, the keyswitch adds its own noise before the sum
//! (`ℓ·n_pke` key samples and the decomposition's rounding), which TFHE-rs's
//! legacy parameters (`PARAM_KEYSWITCH_PKE_TO_BIG_*`, `2^24`, one level) keep
//! below the same bound.

use super::{Ciphertext, CompactPublicKey, ShortintParameters};
use crate::core_crypto::polynomial::polynomial_wrapping_add_mul_binary_assign;
use crate::core_crypto::{
    add_lwe_ciphertext_assign, keyswitch_lwe_ciphertext, LweCiphertextOwned, LweKeyswitchKey,
    XofNoiseGenerator, XofSeed,
};
use crate::error::{check_eq, Error, Result};
use rayon::prelude::*;
use sha3::digest::{ExtendableOutput, Update, XofReader};

/// The bytes of a re-randomization seed (256 bits).
const SEED_BYTES: usize = 32;

/// The hash that makes re-randomization seeds (TFHE-rs's `ReRandomizationHashAlgo`).
///
/// ```
/// use gpufhe::ReRandomizationHashAlgo;
/// assert!(matches!(ReRandomizationHashAlgo::default(), ReRandomizationHashAlgo::Blake3));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ReRandomizationHashAlgo {
    /// SHAKE256 (for NIST compliance).
    Shake256,
    /// BLAKE3 (faster; the default).
    #[default]
    Blake3,
}

/// The state of the hash of a re-randomization context (TFHE-rs's
/// `ReRandomizationSeedHasher`).
///
/// ```
/// use gpufhe::{ReRandomizationHashAlgo, ReRandomizationSeedHasher};
/// let _hasher = ReRandomizationSeedHasher::new(ReRandomizationHashAlgo::Shake256, *b"TFHE_Rrd");
/// ```
#[derive(Clone)]
// TFHE-rs's shape: the states unboxed (the larger one, BLAKE3's, is the default).
#[allow(clippy::large_enum_variant)]
pub enum ReRandomizationSeedHasher {
    /// SHAKE256.
    Shake256(sha3::Shake256),
    /// BLAKE3.
    Blake3(blake3::Hasher),
}

impl std::fmt::Debug for ReRandomizationSeedHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Shake256(_) => f.write_str("ReRandomizationSeedHasher::Shake256"),
            Self::Blake3(_) => f.write_str("ReRandomizationSeedHasher::Blake3"),
        }
    }
}

impl ReRandomizationSeedHasher {
    /// A state of `algo` that has absorbed `domain_separator`.
    ///
    /// ```
    /// use gpufhe::{ReRandomizationHashAlgo, ReRandomizationSeedHasher};
    /// let h = ReRandomizationSeedHasher::new(ReRandomizationHashAlgo::Blake3, *b"TFHE_Rrd");
    /// assert!(matches!(h, ReRandomizationSeedHasher::Blake3(_)));
    /// ```
    pub fn new(algo: ReRandomizationHashAlgo, domain_separator: [u8; 8]) -> Self {
        let mut hasher = match algo {
            ReRandomizationHashAlgo::Shake256 => Self::Shake256(sha3::Shake256::default()),
            ReRandomizationHashAlgo::Blake3 => Self::Blake3(blake3::Hasher::default()),
        };
        hasher.update(&domain_separator);
        hasher
    }

    pub(crate) fn update(&mut self, data: &[u8]) {
        match self {
            Self::Shake256(h) => h.update(data),
            Self::Blake3(h) => {
                h.update(data);
            }
        }
    }

    fn finalize(self) -> [u8; SEED_BYTES] {
        let mut out = [0u8; SEED_BYTES];
        match self {
            Self::Shake256(h) => h.finalize_xof().read(&mut out),
            Self::Blake3(h) => h.finalize_xof().fill(&mut out),
        }
        out
    }
}

/// A seed of one re-randomization (TFHE-rs's `ReRandomizationSeed`): not `Clone`,
/// as a seed must serve once.
#[derive(Debug)]
pub struct ReRandomizationSeed(pub(crate) XofSeed);

/// The generator of the seeds of a finalized context, one per index (the
/// shortint layer of TFHE-rs's `ReRandomizationSeedGen`).
pub(crate) struct SeedStream {
    state: ReRandomizationSeedHasher,
    next: u64,
    encryption_domain_separator: [u8; 8],
}

impl SeedStream {
    pub(crate) fn new(
        state: ReRandomizationSeedHasher,
        encryption_domain_separator: [u8; 8],
    ) -> Self {
        Self {
            state,
            next: 0,
            encryption_domain_separator,
        }
    }

    pub(crate) fn next_seed(&mut self) -> ReRandomizationSeed {
        let mut state = self.state.clone();
        state.update(&self.next.to_le_bytes());
        self.next += 1;
        ReRandomizationSeed(XofSeed::new(
            state.finalize().to_vec(),
            self.encryption_domain_separator,
        ))
    }
}

/// `count` encryptions of zero under `key` drawn from `seed`, as TFHE-rs draws
/// them (see the module docs), expanded: LWE ciphertexts under `key`'s secret key
/// (of its parameters' big dimension).
fn encryptions_of_zero(
    key: &CompactPublicKey,
    count: usize,
    seed: ReRandomizationSeed,
) -> Result<Vec<Ciphertext>> {
    let p = key.parameters();
    if p.glwe_dimension.0 != 1 {
        return Err(Error::InvalidParameter(format!(
            "re-randomization with a compact public key of {} mask polynomials: TFHE-rs's \
             compact keys (and gpufhe's re-randomization) have one",
            p.glwe_dimension.0
        )));
    }
    let n = p.polynomial_size.0;
    let bins = count.div_ceil(n);
    let (mask, body) = key.words().split_at(n);
    // TFHE-rs's key: a = -X·σ(A), b = σ(B) (see `high_level::tfhe_rs::compact`).
    let a = super::compact::times_minus_x(&super::compact::sigma(mask));
    let b = super::compact::sigma(body);
    let mut rng = XofNoiseGenerator::new(seed.0);
    let mut r = vec![0u64; bins * n];
    rng.fill_binary(&mut r);
    let mut mask_noise = vec![0u64; bins * n];
    rng.fill_noise(&mut mask_noise, p.glwe_noise_distribution)?;
    let mut body_noise = vec![0u64; count];
    rng.fill_noise(&mut body_noise, p.glwe_noise_distribution)?;
    let lists: Vec<Vec<u64>> = r
        .par_chunks_exact(n)
        .zip(mask_noise.par_chunks_exact(n))
        .zip(body_noise.par_chunks(n))
        .map(|((r, e1), e2)| {
            let rev_r: Vec<u64> = r.iter().rev().copied().collect();
            let mut out_mask = e1.to_vec();
            polynomial_wrapping_add_mul_binary_assign(&mut out_mask, &a, &rev_r);
            let mut b_r = vec![0u64; n];
            polynomial_wrapping_add_mul_binary_assign(&mut b_r, &b, &rev_r);
            // gpufhe's GLWE form of TFHE-rs's bin: mask σ(mask), bodies in order.
            let mut glwe = super::compact::sigma(&out_mask);
            glwe.extend(b_r.iter().rev().zip(e2).map(|(x, e)| x.wrapping_add(*e)));
            glwe.resize(2 * n, 0);
            glwe
        })
        .collect();
    super::compact::expand_compact_blocks(p, &lists, count)
}

/// Re-randomizes `blocks` (blocks of `block` parameters, noise level at most 1)
/// with encryptions of zero of `key` from `seed`, keyswitched with `ksk` first if
/// `key` is a dedicated key (TFHE-rs's `re_randomize_ciphertexts`). Every block
/// ends at noise level 1. `Err` (and `blocks` untouched) if a block is not of
/// `block`'s size, has a noise level above 1, or the key does not fit.
pub(crate) fn re_randomize_blocks(
    blocks: &mut [Ciphertext],
    key: &CompactPublicKey,
    ksk: Option<&LweKeyswitchKey>,
    block: &ShortintParameters,
    seed: ReRandomizationSeed,
) -> Result<()> {
    let size = block.big_lwe_dimension().to_lwe_size();
    for ct in blocks.iter() {
        ct.ct
            .check_size("LWE size of a block to re-randomize", size)?;
        if ct.noise_level > 1 {
            return Err(Error::InvalidParameter(format!(
                "re-randomizing a block of noise level {} (it must be at most the nominal \
                 level 1: bootstrap it first)",
                ct.noise_level
            )));
        }
    }
    let key_dimension = key.parameters().big_lwe_dimension();
    match ksk {
        None => check_eq(
            "dimension of the re-randomization compact public key (the computation key's)",
            block.big_lwe_dimension().0,
            key_dimension.0,
        )?,
        Some(ksk) => {
            let shape = ksk.shape();
            check_eq(
                "input dimension of the re-randomization keyswitching key (the compact \
                 public key's)",
                key_dimension.0,
                shape.input_lwe_dimension.0,
            )?;
            check_eq(
                "output dimension of the re-randomization keyswitching key (the big key's)",
                block.big_lwe_dimension().0,
                shape.output_lwe_dimension.0,
            )?;
        }
    }
    let zeros = encryptions_of_zero(key, blocks.len(), seed)?;
    blocks
        .par_iter_mut()
        .zip(zeros.par_iter())
        .try_for_each(|(ct, zero)| {
            match ksk {
                None => add_lwe_ciphertext_assign(&mut ct.ct, &zero.ct)?,
                Some(ksk) => {
                    let mut switched = LweCiphertextOwned::new_zero(size);
                    keyswitch_lwe_ciphertext(ksk, &zero.ct, &mut switched)?;
                    add_lwe_ciphertext_assign(&mut ct.ct, &switched)?;
                }
            }
            ct.noise_level = 1;
            Ok(())
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core_crypto::noise::pbs_output_variance;
    use crate::shortint::DEFAULT_PARAMETERS as P;

    /// The variance of a re-randomization's encryption of zero with a key of
    /// `parameters` (one polynomial of `N` coefficients, noise `σ²`): `(N + 1)·σ²`
    /// (see the module docs).
    fn zero_variance(parameters: &ShortintParameters) -> f64 {
        let n = parameters.polynomial_size.0 * parameters.glwe_dimension.0;
        (n as f64 + 1.0) * parameters.glwe_noise_distribution.variance()
    }

    /// The figures of the module docs: the zero's variance is `2^43.4` on the
    /// default parameters, `2^55` below a fresh block's.
    #[test]
    fn the_added_noise_is_far_below_a_fresh_blocks() {
        let zero = zero_variance(&P).log2();
        assert!((zero - 43.4).abs() < 0.05, "{zero}");
        let fresh = pbs_output_variance(
            &P.bootstrap_key_shape(),
            P.glwe_noise_distribution,
            459,
            1024,
        );
        assert!(fresh.log2() - zero > 54.9, "{} - {zero}", fresh.log2());
    }

    #[test]
    fn seeds_follow_the_index_and_the_state() {
        let state = ReRandomizationSeedHasher::new(ReRandomizationHashAlgo::Blake3, *b"TFHE_Rrd");
        let mut a = SeedStream::new(state.clone(), *b"TFHE_Enc");
        let mut b = SeedStream::new(state, *b"TFHE_Enc");
        let (a0, a1) = (a.next_seed().0, a.next_seed().0);
        assert_eq!(a0, b.next_seed().0);
        assert_ne!(a0, a1);
        assert_eq!(a0.domain_separator(), *b"TFHE_Enc");
        assert_eq!(a0.seed().len(), SEED_BYTES);
    }
}
