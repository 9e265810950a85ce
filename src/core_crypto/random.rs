//! Randomness: a ChaCha20 CSPRNG for secrets and noise (seeded by the OS), and
//! TFHE-rs's AES-128-CTR stream of a public [`CompressionSeed`] for the masks
//! (`super::compression_seed`), so that seeded (compressed) objects expand as
//! TFHE-rs's do.
//!
//! Masks and noise come from two independent generators, so generating a key
//! uncompressed or as seed + bodies draws exactly the same masks in the same order:
//! expanding the seed gives the uncompressed key bit for bit.

pub use super::compression_seed::CompressionSeed;
use super::compression_seed::MaskGenerator;
use crate::error::{Error, Result};
use rand_chacha::ChaCha20Rng;
use rand_core::{OsRng, RngCore, SeedableRng, TryRngCore};
use zeroize::Zeroize;

/// A 256-bit seed of a secret or noise generator (reproducible tests only); masks
/// come from a [`CompressionSeed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A fresh seed drawn from the operating system.
    ///
    /// ```
    /// let a = gpufhe::core_crypto::Seed::from_os().unwrap();
    /// let b = gpufhe::core_crypto::Seed::from_os().unwrap();
    /// assert_ne!(a, b);
    /// ```
    pub fn from_os() -> Result<Self> {
        let mut bytes = [0u8; 32];
        OsRng
            .try_fill_bytes(&mut bytes)
            .map_err(|e| Error::InvalidParameter(format!("the OS random source failed: {e}")))?;
        Ok(Self(bytes))
    }
}

/// A distribution of the noise added at encryption, over the integers modulo 2^64.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum NoiseDistribution {
    /// TUniform(b): integers in `[-2^b, 2^b]`; each interior value has probability
    /// `2^-(b+1)`, each end `2^-(b+2)`.
    TUniform {
        /// `b`, the base-two logarithm of the bound.
        log2_bound: u32,
    },
    /// A rounded centered Gaussian whose standard deviation is `std_dev * 2^64`.
    Gaussian {
        /// The standard deviation relative to the modulus 2^64.
        std_dev: f64,
    },
}

impl NoiseDistribution {
    /// The 64-bit words of the noise stream one sample draws: one for TUniform,
    /// two for a Gaussian (Box-Muller on two uniform values).
    pub(crate) fn draws_per_sample(&self) -> u64 {
        match self {
            Self::TUniform { .. } => 1,
            Self::Gaussian { .. } => 2,
        }
    }

    /// The variance of the distribution, in absolute units (modulus 2^64).
    ///
    /// ```
    /// use gpufhe::core_crypto::NoiseDistribution;
    /// // TUniform(0) is -1, 0, 1 with probabilities 1/4, 1/2, 1/4.
    /// assert_eq!(NoiseDistribution::TUniform { log2_bound: 0 }.variance(), 0.5);
    /// ```
    pub fn variance(&self) -> f64 {
        match *self {
            Self::TUniform { log2_bound } => {
                ((2.0 * f64::from(log2_bound) + 1.0).exp2() + 1.0) / 6.0
            }
            Self::Gaussian { std_dev } => (std_dev * 2f64.powi(64)).powi(2),
        }
    }

    pub(crate) fn validate(&self) -> Result<()> {
        match *self {
            Self::TUniform { log2_bound } if log2_bound > 61 => Err(Error::InvalidParameter(
                format!("TUniform bound 2^{log2_bound} is larger than 2^61"),
            )),
            Self::Gaussian { std_dev }
                if !(std_dev.is_finite() && (0.0..0.25).contains(&std_dev)) =>
            {
                Err(Error::InvalidParameter(format!(
                    "Gaussian standard deviation {std_dev} must be finite and in [0, 0.25)"
                )))
            }
            _ => Ok(()),
        }
    }
}

/// A ChaCha20 generator whose state (key, counter and buffered output) is
/// overwritten when it is dropped: the state of a generator of secrets or noise
/// reveals everything it drew and will draw.
pub(crate) struct ZeroizingRng(ChaCha20Rng);

impl ZeroizingRng {
    fn from_seed(seed: [u8; 32]) -> Self {
        Self(ChaCha20Rng::from_seed(seed))
    }

    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

impl Zeroize for ZeroizingRng {
    /// Overwrites the whole state with that of the all-zero seed.
    fn zeroize(&mut self) {
        let blank = ChaCha20Rng::from_seed([0; 32]);
        // SAFETY: `self.0` is a valid, aligned, exclusively borrowed `ChaCha20Rng`
        // (plain data, no destructor); a volatile write of a valid value cannot be
        // elided by the optimiser, unlike an assignment just before a drop.
        #[allow(unsafe_code)]
        unsafe {
            std::ptr::write_volatile(&mut self.0, blank);
        }
        std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::SeqCst);
    }
}

impl Drop for ZeroizingRng {
    fn drop(&mut self) {
        self.zeroize();
    }
}

/// A CSPRNG for secret material (secret keys), seeded by the operating system. Its
/// state is zeroized on drop.
pub struct SecretRandomGenerator(ZeroizingRng);

impl SecretRandomGenerator {
    /// A generator seeded from the operating system.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweDimension, LweSecretKey, SecretRandomGenerator};
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let key = LweSecretKey::generate_binary(LweDimension(256), &mut secret);
    /// // 256 fair bits: all equal with probability 2^-255.
    /// assert!(key.hamming_weight() > 0 && key.hamming_weight() < 256);
    /// ```
    pub fn from_os() -> Result<Self> {
        let mut seed = Seed::from_os()?;
        let rng = ZeroizingRng::from_seed(seed.0);
        seed.0.zeroize();
        Ok(Self(rng))
    }

    /// A reproducible generator. Only for tests and reproducible experiments: anyone
    /// who knows `seed` knows every key drawn from it.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweDimension, LweSecretKey, SecretRandomGenerator, Seed};
    /// let draw = || {
    ///     let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([3; 32]));
    ///     LweSecretKey::generate_binary(LweDimension(64), &mut secret)
    /// };
    /// assert_eq!(draw(), draw());
    /// ```
    pub fn from_seed_insecure(seed: Seed) -> Self {
        Self(ZeroizingRng::from_seed(seed.0))
    }

    /// Fills `out` with uniform bits (0 or 1).
    ///
    /// ```
    /// use gpufhe::core_crypto::SecretRandomGenerator;
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let mut bits = [0u64; 100];
    /// secret.fill_binary(&mut bits);
    /// assert!(bits.iter().all(|&b| b <= 1));
    /// ```
    pub fn fill_binary(&mut self, out: &mut [u64]) {
        for chunk in out.chunks_mut(64) {
            let bits = self.0.next_u64();
            for (j, x) in chunk.iter_mut().enumerate() {
                *x = (bits >> j) & 1;
            }
        }
    }
}

/// The pair of generators used by every encryption: public masks and secret noise
/// (whose state is zeroized on drop).
pub struct EncryptionRandomGenerator {
    mask: MaskGenerator,
    noise: ZeroizingRng,
}

impl EncryptionRandomGenerator {
    /// Masks from `mask_seed` (public), noise from a fresh OS seed (secret).
    ///
    /// ```
    /// use gpufhe::core_crypto::{CompressionSeed, EncryptionRandomGenerator};
    /// // The same mask seed gives the same masks; the noise comes from the OS.
    /// let mut a = EncryptionRandomGenerator::new(CompressionSeed::new(5)).unwrap();
    /// let mut b = EncryptionRandomGenerator::new(CompressionSeed::new(5)).unwrap();
    /// let (mut ma, mut mb) = ([0u64; 8], [0u64; 8]);
    /// a.fill_mask(&mut ma);
    /// b.fill_mask(&mut mb);
    /// assert_eq!(ma, mb);
    /// ```
    pub fn new(mask_seed: CompressionSeed) -> Result<Self> {
        let mut noise_seed = Seed::from_os()?;
        let out = Self::from_seeds_insecure(mask_seed, noise_seed);
        noise_seed.0.zeroize();
        Ok(out)
    }

    /// Masks and noise both from the operating system.
    ///
    /// ```
    /// use gpufhe::core_crypto::EncryptionRandomGenerator;
    /// let mut a = EncryptionRandomGenerator::from_os().unwrap();
    /// let mut b = EncryptionRandomGenerator::from_os().unwrap();
    /// let (mut ma, mut mb) = ([0u64; 4], [0u64; 4]);
    /// a.fill_mask(&mut ma);
    /// b.fill_mask(&mut mb);
    /// assert_ne!(ma, mb);
    /// ```
    pub fn from_os() -> Result<Self> {
        Self::new(CompressionSeed::from_os()?)
    }

    /// Fully reproducible generators. Only for tests: the noise seed reveals the noise.
    ///
    /// ```
    /// use gpufhe::core_crypto::{CompressionSeed, EncryptionRandomGenerator, NoiseDistribution, Seed};
    /// let dist = NoiseDistribution::TUniform { log2_bound: 10 };
    /// let mut a = EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(1), Seed([2; 32]));
    /// let mut b = EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(1), Seed([2; 32]));
    /// assert_eq!(a.noise(dist).unwrap(), b.noise(dist).unwrap());
    /// ```
    pub fn from_seeds_insecure(mask_seed: CompressionSeed, noise_seed: Seed) -> Self {
        Self {
            mask: MaskGenerator::at(mask_seed, 0),
            noise: ZeroizingRng::from_seed(noise_seed.0),
        }
    }

    /// Restarts the public mask stream from `seed`; the noise stream is unchanged.
    ///
    /// ```
    /// use gpufhe::core_crypto::{CompressionSeed, EncryptionRandomGenerator};
    /// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// rng.reseed_masks(CompressionSeed::new(9));
    /// let mut fresh = EncryptionRandomGenerator::new(CompressionSeed::new(9)).unwrap();
    /// let (mut a, mut b) = ([0u64; 4], [0u64; 4]);
    /// rng.fill_mask(&mut a);
    /// fresh.fill_mask(&mut b);
    /// assert_eq!(a, b);
    /// ```
    pub fn reseed_masks(&mut self, seed: CompressionSeed) {
        self.mask = MaskGenerator::at(seed, 0);
    }

    /// A generator whose masks start at `seed`, for expanding seeded objects. Its
    /// noise stream has a fixed public seed, so it must never encrypt.
    pub(crate) fn masks_only(seed: CompressionSeed) -> Self {
        Self::from_seeds_insecure(seed, Seed([0; 32]))
    }

    /// Fills `out` with uniform masks.
    ///
    /// ```
    /// use gpufhe::core_crypto::{CompressionSeed, EncryptionRandomGenerator};
    /// let mut rng = EncryptionRandomGenerator::new(CompressionSeed::new(4)).unwrap();
    /// let mut mask = [0u64; 16];
    /// rng.fill_mask(&mut mask);
    /// // Uniform 64-bit words: 16 zeros would have probability 2^-1024.
    /// assert!(mask.iter().any(|&a| a != 0));
    /// ```
    pub fn fill_mask(&mut self, out: &mut [u64]) {
        self.mask.fill(out);
    }

    /// One noise sample, as an integer modulo 2^64; `Err` for an invalid
    /// distribution (a TUniform bound above 2^61, a Gaussian deviation that is not
    /// finite or not in `[0, 0.25)`).
    ///
    /// ```
    /// use gpufhe::core_crypto::{EncryptionRandomGenerator, NoiseDistribution};
    /// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// let e = rng.noise(NoiseDistribution::TUniform { log2_bound: 3 }).unwrap() as i64;
    /// assert!((-8..=8).contains(&e));
    /// assert!(rng.noise(NoiseDistribution::TUniform { log2_bound: 63 }).is_err());
    /// ```
    pub fn noise(&mut self, dist: NoiseDistribution) -> Result<u64> {
        dist.validate()?;
        Ok(self.sample(dist))
    }

    /// Adds one noise sample to each element of `out`; `Err` (and `out` unchanged)
    /// for an invalid distribution (see [`EncryptionRandomGenerator::noise`]).
    ///
    /// ```
    /// use gpufhe::core_crypto::{EncryptionRandomGenerator, NoiseDistribution};
    /// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// let mut values = [1000u64; 8];
    /// rng.add_noise(&mut values, NoiseDistribution::TUniform { log2_bound: 4 }).unwrap();
    /// assert!(values.iter().all(|&v| (984..=1016).contains(&v)));
    /// let bad = NoiseDistribution::Gaussian { std_dev: 1.0 };
    /// assert!(rng.add_noise(&mut values, bad).is_err());
    /// ```
    pub fn add_noise(&mut self, out: &mut [u64], dist: NoiseDistribution) -> Result<()> {
        dist.validate()?;
        for x in out {
            *x = x.wrapping_add(self.sample(dist));
        }
        Ok(())
    }

    /// A generator at the point of both streams this one reaches after drawing
    /// `masks` mask values and `noise_draws` 64-bit noise words (see
    /// [`NoiseDistribution::draws_per_sample`]); this one does not move. Work split
    /// over threads this way draws exactly the values one generator would draw in
    /// order.
    pub(crate) fn fork_after(&self, masks: u64, noise_draws: u64) -> Self {
        let mut noise = ZeroizingRng(self.noise.0.clone());
        let word = noise.0.get_word_pos();
        noise.0.set_word_pos(word + 2 * u128::from(noise_draws));
        Self {
            mask: self.mask.fork_after(masks),
            noise,
        }
    }

    /// Moves both streams past `masks` mask values and `noise_draws` noise words.
    /// Every noise draw is a whole 64-bit word (two of the ChaCha stream's 32-bit
    /// words) and every mask 8 bytes of the AES stream, so the position is exact.
    pub(crate) fn skip(&mut self, masks: u64, noise_draws: u64) {
        self.mask.skip(masks);
        let noise = self.noise.0.get_word_pos();
        self.noise
            .0
            .set_word_pos(noise + 2 * u128::from(noise_draws));
    }

    /// One sample of a distribution the caller has validated
    /// ([`NoiseDistribution::validate`]).
    pub(crate) fn sample(&mut self, dist: NoiseDistribution) -> u64 {
        match dist {
            NoiseDistribution::TUniform { log2_bound } => {
                let r = self.noise.next_u64() >> (62 - log2_bound);
                ((r >> 1) + (r & 1)).wrapping_sub(1u64 << log2_bound)
            }
            NoiseDistribution::Gaussian { std_dev } => {
                // Box-Muller on two uniform doubles in (0, 1].
                let u1 = ((self.noise.next_u64() >> 11) + 1) as f64 * 2f64.powi(-53);
                let u2 = (self.noise.next_u64() >> 11) as f64 * 2f64.powi(-53);
                let g = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                (g * std_dev * 2f64.powi(64)).round() as i64 as u64
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuniform_hits_every_value_with_the_right_frequency() {
        let mut g =
            EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(1), Seed([2; 32]));
        let dist = NoiseDistribution::TUniform { log2_bound: 1 };
        let mut counts = [0usize; 5];
        let trials = 80_000;
        for _ in 0..trials {
            let v = g.noise(dist).unwrap() as i64;
            assert!((-2..=2).contains(&v), "{v} outside [-2, 2]");
            counts[(v + 2) as usize] += 1;
        }
        // Probabilities 1/8, 1/4, 1/4, 1/4, 1/8.
        let expected = [0.125, 0.25, 0.25, 0.25, 0.125];
        for (c, p) in counts.iter().zip(expected) {
            let f = *c as f64 / trials as f64;
            assert!((f - p).abs() < 0.01, "frequency {f} vs {p}");
        }
    }

    #[test]
    fn gaussian_has_the_requested_variance() {
        let mut g =
            EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(3), Seed([4; 32]));
        let dist = NoiseDistribution::Gaussian {
            std_dev: 2f64.powi(-40),
        };
        let n = 20_000;
        let var = (0..n)
            .map(|_| (g.noise(dist).unwrap() as i64 as f64).powi(2))
            .sum::<f64>()
            / n as f64;
        let ratio = var / dist.variance();
        assert!((0.95..1.05).contains(&ratio), "variance ratio {ratio}");
    }

    #[test]
    fn zeroizing_overwrites_the_whole_generator_state() {
        let mut used = ZeroizingRng::from_seed([9; 32]);
        used.next_u64(); // leaves buffered output in the state
        used.zeroize();
        let mut blank = ZeroizingRng::from_seed([0; 32]);
        for _ in 0..100 {
            assert_eq!(used.next_u64(), blank.next_u64());
        }
    }

    #[test]
    fn masks_do_not_depend_on_noise() {
        let mut a =
            EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(5), Seed([6; 32]));
        let mut b =
            EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(5), Seed([7; 32]));
        let (mut ma, mut mb) = ([0u64; 8], [0u64; 8]);
        a.noise(NoiseDistribution::TUniform { log2_bound: 3 })
            .unwrap();
        a.fill_mask(&mut ma);
        b.fill_mask(&mut mb);
        assert_eq!(ma, mb);
    }
}
