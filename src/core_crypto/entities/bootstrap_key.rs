//! LWE bootstrap keys: plain, seeded (compressed) and in the Fourier domain.

use crate::core_crypto::commons::{
    DecompositionBaseLog, DecompositionLevelCount, GlweDimension, LweDimension, PolynomialSize,
};
use crate::core_crypto::entities::{
    check_container_len, check_decomposition, check_dimensions, check_polynomial_size,
    ggsw_ciphertext_size, KeyParts, SeededKeyParts,
};
use crate::core_crypto::random::CompressionSeed;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use tfhe_fft::c64;

/// The shape shared by every form of a bootstrap key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BootstrapKeyShape {
    /// `n`: one GGSW ciphertext per coefficient of the input LWE key.
    pub input_lwe_dimension: LweDimension,
    /// `k` of the GLWE key the GGSW ciphertexts are encrypted under.
    pub glwe_dimension: GlweDimension,
    /// `N`.
    pub polynomial_size: PolynomialSize,
    /// `log2(B)` of the decomposition.
    pub base_log: DecompositionBaseLog,
    /// Number of levels of the decomposition.
    pub level: DecompositionLevelCount,
}

impl BootstrapKeyShape {
    /// Number of GLWE rows per GGSW ciphertext: `(k + 1) * l`.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let shape = BootstrapKeyShape {
    ///     input_lwe_dimension: LweDimension(64),
    ///     glwe_dimension: GlweDimension(1),
    ///     polynomial_size: PolynomialSize(256),
    ///     base_log: DecompositionBaseLog(15),
    ///     level: DecompositionLevelCount(2),
    /// };
    /// assert_eq!(shape.rows_per_ggsw(), 2 * 2);
    /// ```
    pub fn rows_per_ggsw(&self) -> usize {
        self.glwe_dimension.to_glwe_size().0 * self.level.0
    }

    /// Number of `u64` of one GGSW ciphertext.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let shape = BootstrapKeyShape {
    ///     input_lwe_dimension: LweDimension(64),
    ///     glwe_dimension: GlweDimension(1),
    ///     polynomial_size: PolynomialSize(256),
    ///     base_log: DecompositionBaseLog(15),
    ///     level: DecompositionLevelCount(2),
    /// };
    /// assert_eq!(shape.ggsw_size(), shape.rows_per_ggsw() * 2 * 256);
    /// ```
    pub fn ggsw_size(&self) -> usize {
        ggsw_ciphertext_size(
            self.glwe_dimension.to_glwe_size(),
            self.polynomial_size,
            self.level,
        )
    }

    /// The LWE dimension of the bootstrap's output: `k * N`.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let shape = BootstrapKeyShape {
    ///     input_lwe_dimension: LweDimension(64),
    ///     glwe_dimension: GlweDimension(2),
    ///     polynomial_size: PolynomialSize(256),
    ///     base_log: DecompositionBaseLog(15),
    ///     level: DecompositionLevelCount(2),
    /// };
    /// assert_eq!(shape.output_lwe_dimension(), LweDimension(512));
    /// ```
    pub fn output_lwe_dimension(&self) -> LweDimension {
        self.glwe_dimension
            .to_equivalent_lwe_dimension(self.polynomial_size)
    }

    /// `Err` unless the dimensions are in `[1, 2^17]`, `N` is a valid polynomial size and
    /// the decomposition is valid.
    pub(crate) fn validate(&self) -> Result<()> {
        check_dimensions(
            "bootstrap key",
            &[self.input_lwe_dimension.0, self.glwe_dimension.0],
        )?;
        check_polynomial_size(self.polynomial_size)?;
        check_decomposition(self.base_log, self.level)
    }

    /// The factors of the number of elements of a key of this shape whose
    /// polynomials have `poly_len` elements, per GGSW: rows, polynomials per row.
    fn element_factors(&self, poly_len: usize) -> [usize; 4] {
        [
            self.input_lwe_dimension.0,
            self.glwe_dimension
                .0
                .saturating_add(1)
                .saturating_mul(self.level.0),
            self.glwe_dimension.0.saturating_add(1),
            poly_len,
        ]
    }
}

/// A bootstrap key in the standard domain: `n` GGSW encryptions of the input LWE
/// key's bits under a GLWE key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LweBootstrapKey {
    pub(crate) data: Vec<u64>,
    pub(crate) shape: BootstrapKeyShape,
}

impl LweBootstrapKey {
    /// The key's dimensions and decomposition.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let lwe_key = LweSecretKey::generate_binary(LweDimension(8), &mut secret);
    /// let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
    /// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
    /// let bsk = generate_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, &mut rng).unwrap();
    /// assert_eq!(bsk.shape().input_lwe_dimension, LweDimension(8));
    /// assert_eq!(bsk.shape().output_lwe_dimension(), LweDimension(64));
    /// ```
    pub fn shape(&self) -> BootstrapKeyShape {
        self.shape
    }

    /// All coefficients, GGSW after GGSW.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(8), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
    /// let bsk = generate_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, &mut rng).unwrap();
    /// // One GGSW ciphertext per bit of the LWE key.
    /// assert_eq!(bsk.as_slice().len(), 8 * bsk.shape().ggsw_size());
    /// ```
    pub fn as_slice(&self) -> &[u64] {
        &self.data
    }
}

/// A bootstrap key stored as a seed and the body polynomials of each GLWE row.
/// Deserialization checks the shape and the number of body coefficients.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SeededKeyParts<BootstrapKeyShape>")]
pub struct SeededLweBootstrapKey {
    pub(crate) bodies: Vec<u64>,
    pub(crate) seed: CompressionSeed,
    pub(crate) shape: BootstrapKeyShape,
}

impl SeededLweBootstrapKey {
    /// The key's dimensions and decomposition.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(8), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
    /// let seeded = generate_seeded_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, CompressionSeed::new(7), &mut rng).unwrap();
    /// assert_eq!(seeded.shape().polynomial_size, PolynomialSize(64));
    /// assert_eq!(seeded.shape(), seeded.decompress().shape());
    /// ```
    pub fn shape(&self) -> BootstrapKeyShape {
        self.shape
    }

    /// The seed of the masks.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(8), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
    /// let mask_seed = CompressionSeed::from_os().unwrap();
    /// let seeded = generate_seeded_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, mask_seed, &mut rng).unwrap();
    /// assert_eq!(seeded.seed(), mask_seed);
    /// ```
    pub fn seed(&self) -> CompressionSeed {
        self.seed
    }

    /// The body polynomials, one per GLWE row, in TFHE-rs's order (per GGSW, level
    /// `l` down to 1, then component; the masks are drawn in the same order).
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(8), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
    /// let seeded = generate_seeded_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, CompressionSeed::new(7), &mut rng).unwrap();
    /// // One body polynomial per GLWE row: the masks are regenerated from the seed.
    /// assert_eq!(seeded.bodies().len(), 8 * seeded.shape().rows_per_ggsw() * 64);
    /// ```
    pub fn bodies(&self) -> &[u64] {
        &self.bodies
    }
}

/// A bootstrap key in the Fourier domain, ready for blind rotation: every polynomial
/// as `N/2` complex numbers (see [`crate::core_crypto::fft`]).
///
/// Layout: GGSW, then row `(c, j)`, then output polynomial, then `N/2` values.
/// Serialized as `[re, im]` pairs; deserialization checks the shape, the number of
/// values and that every value is finite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "KeyParts<[f64; 2], BootstrapKeyShape>")]
pub struct FourierLweBootstrapKey {
    #[serde(serialize_with = "serialize_complex_pairs")]
    pub(crate) data: Vec<c64>,
    pub(crate) shape: BootstrapKeyShape,
}

impl FourierLweBootstrapKey {
    /// The key's dimensions and decomposition.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(8), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
    /// let bsk = generate_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, &mut rng).unwrap();
    /// let fourier = FourierLweBootstrapKey::from_standard(&bsk);
    /// assert_eq!(fourier.shape(), bsk.shape());
    /// ```
    pub fn shape(&self) -> BootstrapKeyShape {
        self.shape
    }

    /// All Fourier coefficients.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// # let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// # let lwe_key = LweSecretKey::generate_binary(LweDimension(8), &mut secret);
    /// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
    /// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
    /// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
    /// # let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
    /// let bsk = generate_lwe_bootstrap_key(&lwe_key, &glwe_key, b, l, noise, &mut rng).unwrap();
    /// let fourier = FourierLweBootstrapKey::from_standard(&bsk);
    /// // N / 2 complex values per polynomial of N integers.
    /// assert_eq!(fourier.as_slice().len(), bsk.as_slice().len() / 2);
    /// assert!(fourier.as_slice().iter().all(|c| c.re.is_finite() && c.im.is_finite()));
    /// ```
    pub fn as_slice(&self) -> &[c64] {
        &self.data
    }

    /// The Fourier coefficients of GGSW `i`.
    pub(crate) fn ggsw(&self, i: usize) -> &[c64] {
        let len = self.shape.rows_per_ggsw()
            * self.shape.glwe_dimension.to_glwe_size().0
            * self.shape.polynomial_size.to_fourier_polynomial_size();
        &self.data[i * len..(i + 1) * len]
    }
}

impl TryFrom<SeededKeyParts<BootstrapKeyShape>> for SeededLweBootstrapKey {
    type Error = Error;

    fn try_from(parts: SeededKeyParts<BootstrapKeyShape>) -> Result<Self> {
        let shape = parts.shape;
        shape.validate()?;
        // One body polynomial per GLWE row.
        let [ggsw, rows, _, _] = shape.element_factors(0);
        check_container_len(
            "number of body coefficients of the seeded bootstrap key",
            &[ggsw, rows, shape.polynomial_size.0],
            parts.bodies.len(),
        )?;
        Ok(Self {
            bodies: parts.bodies,
            seed: parts.seed,
            shape,
        })
    }
}

/// Writes complex numbers as `[re, im]` pairs.
fn serialize_complex_pairs<S: serde::Serializer>(
    data: &[c64],
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(data.iter().map(|c| [c.re, c.im]))
}

impl TryFrom<KeyParts<[f64; 2], BootstrapKeyShape>> for FourierLweBootstrapKey {
    type Error = Error;

    fn try_from(parts: KeyParts<[f64; 2], BootstrapKeyShape>) -> Result<Self> {
        let shape = parts.shape;
        shape.validate()?;
        check_container_len(
            "number of Fourier coefficients of the bootstrap key",
            &shape.element_factors(shape.polynomial_size.to_fourier_polynomial_size()),
            parts.data.len(),
        )?;
        if let Some(bad) = parts.data.iter().flatten().position(|x| !x.is_finite()) {
            return Err(Error::InvalidParameter(format!(
                "Fourier bootstrap key value {} is not finite",
                bad / 2
            )));
        }
        Ok(Self {
            data: parts
                .data
                .iter()
                .map(|&[re, im]| c64::new(re, im))
                .collect(),
            shape,
        })
    }
}
