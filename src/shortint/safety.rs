//! What a parameter set may ask of the machine and what it must give the attacker:
//! hard bounds on its dimensions and on the memory its keys expand to (checked before
//! anything is allocated, so a few bytes of input can never make the process
//! allocate without bound), and the security floor (the 128-bit curve of the
//! lattice estimator) that parameters must meet unless chosen through an explicitly
//! insecure path.

use super::ShortintParameters;
use crate::core_crypto::NoiseDistribution;
use crate::error::{Error, Result};
use crate::memory::{reserve_host_memory, MemoryReservation};

/// The largest small LWE dimension `n` accepted (published TFHE parameters use
/// fewer than 2^11).
pub const MAX_LWE_DIMENSION: usize = 1 << 14;

/// The largest GLWE dimension `k` accepted.
pub const MAX_GLWE_DIMENSION: usize = 1 << 6;

/// The largest big LWE dimension `k * N` accepted (the polynomial size alone is at
/// most 2^17).
pub const MAX_BIG_LWE_DIMENSION: usize = 1 << 17;

/// The most host memory, in bytes, that expanding a server key of one parameter set
/// may need at its peak (see [`ShortintParameters::server_key_peak_bytes`]): 16 GiB.
/// The default parameters need about 172 MiB.
pub const MAX_SERVER_KEY_BYTES: u64 = 16 << 30;

/// The security curve parameters are checked against: for binary secret keys, a
/// ciphertext modulus of 2^64 and 128 bits of security against the attacks of the
/// lattice estimator, the noise of an LWE sample of dimension `d` must have
/// `log2(variance / 2^128) >= SLOPE * d + INTERCEPT` (Zama's published linear fit of
/// the estimator's 128-bit results; TFHE-rs and Concrete check parameters against
/// the same curve). Below a floor the noise covers only the two lowest bits.
///
/// | dimension `d` | minimal `log2(σ / 2^64)` |
/// |---:|---:|
/// | 512 | −10.48 |
/// | 918 (default `n`) | −20.91 |
/// | 1024 | −23.64 |
/// | 2048 (default `k·N`) | −49.95 |
/// | ≥ 2517 | −62 (floor) |
pub mod security_curve_128 {
    /// The slope of `log2(variance / 2^128)` in the dimension.
    pub const SLOPE: f64 = -0.051_393_557_422_969_19;
    /// The intercept of `log2(variance / 2^128)`.
    pub const INTERCEPT: f64 = 5.351_862_745_098_032;
    /// The floor of `log2(variance / 2^128)`: a standard deviation of 4 (two bits).
    pub const FLOOR: f64 = -124.0;
}

/// The least noise variance (absolute, modulus 2^64) that gives 128-bit security to
/// LWE samples of dimension `dimension` with a binary secret key (see
/// [`security_curve_128`]).
///
/// ```
/// use gpufhe::shortint::{minimal_secure_variance, DEFAULT_PARAMETERS};
/// let p = DEFAULT_PARAMETERS;
/// assert!(p.lwe_noise_distribution.variance() >= minimal_secure_variance(p.lwe_dimension.0));
/// ```
pub fn minimal_secure_variance(dimension: usize) -> f64 {
    use security_curve_128::*;
    let log2_relative = (SLOPE * dimension as f64 + INTERCEPT).max(FLOOR);
    (log2_relative + 128.0).exp2()
}

/// `Err` unless `noise` on samples of dimension `dimension` meets the floor.
pub(crate) fn check_secure_noise(
    what: &str,
    dimension: usize,
    noise: NoiseDistribution,
) -> Result<()> {
    let (have, need) = (noise.variance(), minimal_secure_variance(dimension));
    if have >= need {
        return Ok(());
    }
    Err(Error::InvalidParameter(format!(
        "insecure parameters: the {what} noise (standard deviation 2^{:.2}) is below the \
         128-bit minimum of 2^{:.2} for dimension {dimension}; use \
         ConfigBuilder::with_insecure_custom_parameters (or \
         serialization::with_insecure_parameters_allowed to read such values) if this is \
         intended",
        have.log2() / 2.0,
        need.log2() / 2.0
    )))
}

impl ShortintParameters {
    /// `Err` unless the dimensions are within the bounds above
    /// ([`MAX_LWE_DIMENSION`], [`MAX_GLWE_DIMENSION`], [`MAX_BIG_LWE_DIMENSION`]) and
    /// the server key fits in [`MAX_SERVER_KEY_BYTES`]. Part of
    /// [`ShortintParameters::validate`]; computed without overflow whatever the
    /// fields hold.
    pub(crate) fn check_bounds(&self) -> Result<()> {
        let (n, k, poly) = (
            self.lwe_dimension.0,
            self.glwe_dimension.0,
            self.polynomial_size.0,
        );
        if n > MAX_LWE_DIMENSION || k > MAX_GLWE_DIMENSION {
            return Err(Error::InvalidParameter(format!(
                "LWE dimension {n} and GLWE dimension {k} must be at most \
                 {MAX_LWE_DIMENSION} and {MAX_GLWE_DIMENSION}"
            )));
        }
        if k.checked_mul(poly)
            .is_none_or(|d| d > MAX_BIG_LWE_DIMENSION)
        {
            return Err(Error::InvalidParameter(format!(
                "k * N = {k} * {poly} is above the largest big LWE dimension \
                 {MAX_BIG_LWE_DIMENSION}"
            )));
        }
        match self.server_key_peak_bytes() {
            Some(bytes) if bytes <= MAX_SERVER_KEY_BYTES => Ok(()),
            bytes => Err(Error::InvalidParameter(format!(
                "a server key of these parameters needs {} bytes to expand, more than the \
                 limit of {MAX_SERVER_KEY_BYTES}",
                bytes.map_or_else(|| "over 2^64".to_string(), |b| b.to_string())
            ))),
        }
    }

    /// The host memory, in bytes, that generating or decompressing a server key of
    /// these parameters needs at its peak: the keyswitching key (`k·N · ℓ_ks · (n +
    /// 1)` words) and the bootstrap key twice (standard and Fourier domains, `G ·
    /// (k + 1)² · ℓ_pbs · N` words each, with `G` its GGSW count: `n`, or
    /// `(n/g) 2^g` for a multi-bit key, which expands from TFHE-rs's layout
    /// before it drops the empty assignments). `None` if that overflows a `u64`.
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// let bytes = DEFAULT_PARAMETERS.server_key_peak_bytes().unwrap();
    /// assert!(bytes > 150 << 20 && bytes < 200 << 20);
    /// ```
    pub fn server_key_peak_bytes(&self) -> Option<u64> {
        let n = self.lwe_dimension.0 as u64;
        let glwe_size = (self.glwe_dimension.0 as u64).checked_add(1)?;
        let poly = self.polynomial_size.0 as u64;
        let big = (self.glwe_dimension.0 as u64).checked_mul(poly)?;
        let ksk = big
            .checked_mul(self.ks_level.0 as u64)?
            .checked_mul(n.checked_add(1)?)?;
        // A multi-bit key expands from TFHE-rs's 2^g GGSW ciphertexts per group.
        let ggsws = self.seeded_bootstrap_key_shape().input_lwe_dimension.0 as u64;
        let bsk = ggsws
            .checked_mul(glwe_size.checked_mul(glwe_size)?)?
            .checked_mul(self.pbs_level.0 as u64)?
            .checked_mul(poly)?;
        ksk.checked_add(bsk.checked_mul(2)?)?.checked_mul(8)
    }

    /// Reserves [`ShortintParameters::server_key_peak_bytes`] of host memory for
    /// `what` (see [`crate::memory`]); `Err(OutOfMemory)` if it cannot.
    pub(crate) fn reserve_server_key_memory(&self, what: &str) -> Result<MemoryReservation> {
        self.check_bounds()?;
        reserve_host_memory(self.server_key_peak_bytes().unwrap_or(u64::MAX), what)
    }

    /// `Err` unless both noise distributions meet the 128-bit curve
    /// ([`minimal_secure_variance`]): the LWE noise for dimension `n` (the
    /// keyswitching key) and the GLWE noise for dimension `k·N` (the bootstrap key and
    /// fresh blocks), and unless the set claims at least 128 bits
    /// (`security_bits`). True of [`super::DEFAULT_PARAMETERS`], false of the
    /// `*_INSECURE_TEST_*` sets.
    ///
    /// ```
    /// use gpufhe::shortint::DEFAULT_PARAMETERS;
    /// assert!(DEFAULT_PARAMETERS.check_security().is_ok());
    /// let mut weak = DEFAULT_PARAMETERS;
    /// weak.lwe_dimension.0 = 600; // the same noise on a smaller key
    /// assert!(weak.check_security().is_err());
    /// ```
    pub fn check_security(&self) -> Result<()> {
        if self.security_bits < 128 {
            return Err(Error::InvalidParameter(format!(
                "insecure parameters: they claim {} bits of security, less than 128",
                self.security_bits
            )));
        }
        check_secure_noise("LWE", self.lwe_dimension.0, self.lwe_noise_distribution)?;
        let big = self.glwe_dimension.0.saturating_mul(self.polynomial_size.0);
        check_secure_noise("GLWE", big, self.glwe_noise_distribution)
    }
}
