//! The entities of the 128-bit bootstrap (noise squashing): LWE ciphertexts modulo
//! 2^128 and bootstrap keys whose GGSW ciphertexts are modulo 2^128, seeded and in
//! the 128-bit Fourier domain.
//!
//! The GLWE key of the output is an ordinary binary [`super::GlweSecretKey`] (its
//! coefficients, 0 or 1, are the same integers modulo 2^128).
//!
//! Layout (TFHE-rs 1.8's, so that its keys are read without reordering, and a GPU
//! kernel can take the same arrays): one GGSW ciphertext per input key bit; in a
//! GGSW, the levels from `l` (least significant) down to 1, then the rows
//! `c = 0..=k` of a level, then the `k + 1` polynomials of a row's GLWE
//! ciphertext. Row `c < k` of level `j` encrypts `-m S_c 2^(128 - jB)`, row `k`
//! encrypts `m 2^(128 - jB)`.

use crate::core_crypto::commons::{DecompositionBaseLog, DecompositionLevelCount, LweDimension};
use crate::core_crypto::entities::{check_container_len, check_dimensions, BootstrapKeyShape};
use crate::core_crypto::random::CompressionSeed;
use crate::error::{Error, Result};

/// `Err` unless `1 <= base_log <= 63`, `1 <= level` and `base_log * level <= 128`:
/// the decompositions of the 128-bit bootstrap (digits fit an `i64`).
pub(crate) fn check_decomposition_128(
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
) -> Result<()> {
    if (1..64).contains(&base_log.0) && level.0 >= 1 && base_log.0.saturating_mul(level.0) <= 128 {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "128-bit decomposition base 2^{} with {} levels needs 1 <= base_log <= 63, \
             1 <= level, base_log * level <= 128",
            base_log.0, level.0
        )))
    }
}

/// `Err` unless the shape is one a 128-bit bootstrap key may have (dimensions in
/// bounds, a polynomial size the 128-bit FFT takes, a 128-bit decomposition).
pub(crate) fn validate_shape_128(shape: &BootstrapKeyShape) -> Result<()> {
    check_dimensions(
        "128-bit bootstrap key",
        &[shape.input_lwe_dimension.0, shape.glwe_dimension.0],
    )?;
    crate::core_crypto::fft128::fft128_for(shape.polynomial_size)?;
    check_decomposition_128(shape.base_log, shape.level)
}

/// An LWE ciphertext modulo 2^128: the mask then the body. Deserialization rejects
/// an empty one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "LweCiphertext128Parts")]
pub struct LweCiphertext128 {
    pub(crate) data: Vec<u128>,
}

/// The fields of an [`LweCiphertext128`] as read, before they are checked.
#[derive(serde::Deserialize)]
struct LweCiphertext128Parts {
    data: Vec<u128>,
}

impl TryFrom<LweCiphertext128Parts> for LweCiphertext128 {
    type Error = Error;

    fn try_from(parts: LweCiphertext128Parts) -> Result<Self> {
        Self::from_container(parts.data)
    }
}

impl LweCiphertext128 {
    /// The ciphertext of these values (mask then body); `Err` if empty.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertext128, LweDimension};
    /// let ct = LweCiphertext128::from_container(vec![1, 2, 3]).unwrap();
    /// assert_eq!(ct.lwe_dimension(), LweDimension(2));
    /// assert_eq!(ct.body(), 3);
    /// assert!(LweCiphertext128::from_container(vec![]).is_err());
    /// ```
    pub fn from_container(data: Vec<u128>) -> Result<Self> {
        if data.is_empty() {
            return Err(Error::InvalidParameter(
                "an LWE ciphertext holds at least its body".into(),
            ));
        }
        Ok(Self { data })
    }

    /// The dimension `n` of its mask.
    pub fn lwe_dimension(&self) -> LweDimension {
        LweDimension(self.data.len() - 1)
    }

    /// The mask.
    pub fn mask(&self) -> &[u128] {
        &self.data[..self.data.len() - 1]
    }

    /// The body.
    pub fn body(&self) -> u128 {
        self.data[self.data.len() - 1]
    }

    /// Mask and body, as stored.
    pub fn as_slice(&self) -> &[u128] {
        &self.data
    }
}

/// A 128-bit bootstrap key in the standard domain (TFHE-rs's layout, see the module).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LweBootstrapKey128 {
    pub(crate) data: Vec<u128>,
    pub(crate) shape: BootstrapKeyShape,
}

impl LweBootstrapKey128 {
    /// The key of this data and shape; `Err` unless the shape is valid and the data
    /// has its length.
    pub fn from_container(data: Vec<u128>, shape: BootstrapKeyShape) -> Result<Self> {
        validate_shape_128(&shape)?;
        check_container_len(
            "128-bit bootstrap key",
            &[shape.input_lwe_dimension.0, shape.ggsw_size()],
            data.len(),
        )?;
        Ok(Self { data, shape })
    }

    /// Its shape.
    pub fn shape(&self) -> BootstrapKeyShape {
        self.shape
    }

    /// The GGSW ciphertexts, one after the other.
    pub fn as_slice(&self) -> &[u128] {
        &self.data
    }
}

/// A seeded 128-bit bootstrap key: the bodies of its GLWE rows (TFHE-rs's order)
/// and the seed of the AES stream its masks come from (16 bytes, little endian, per
/// mask coefficient: TFHE-rs's uniform `u128`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeededLweBootstrapKey128 {
    pub(crate) bodies: Vec<u128>,
    pub(crate) seed: CompressionSeed,
    pub(crate) shape: BootstrapKeyShape,
}

impl SeededLweBootstrapKey128 {
    /// The key of these bodies, seed and shape; `Err` unless the shape is valid and
    /// there is one body polynomial per row.
    pub fn from_parts(
        bodies: Vec<u128>,
        seed: CompressionSeed,
        shape: BootstrapKeyShape,
    ) -> Result<Self> {
        validate_shape_128(&shape)?;
        check_container_len(
            "seeded 128-bit bootstrap key",
            &[
                shape.input_lwe_dimension.0,
                shape.rows_per_ggsw(),
                shape.polynomial_size.0,
            ],
            bodies.len(),
        )?;
        Ok(Self {
            bodies,
            seed,
            shape,
        })
    }

    /// Its shape.
    pub fn shape(&self) -> BootstrapKeyShape {
        self.shape
    }

    /// The seed of its masks.
    pub fn seed(&self) -> CompressionSeed {
        self.seed
    }

    /// The body polynomials of its rows.
    pub fn bodies(&self) -> &[u128] {
        &self.bodies
    }
}

/// A 128-bit bootstrap key in the Fourier domain: every polynomial of the standard
/// key transformed as a torus polynomial ([`crate::core_crypto::fft128::Fft128`]),
/// kept as four arrays over the whole key (the high and low parts of the real and
/// imaginary parts), `N/2` values per polynomial in the standard key's order:
/// TFHE-rs's `Fourier128LweBootstrapKey`.
#[derive(Debug, Clone, PartialEq)]
pub struct Fourier128LweBootstrapKey {
    pub(crate) parts: [Vec<f64>; 4],
    pub(crate) shape: BootstrapKeyShape,
}

impl Fourier128LweBootstrapKey {
    /// The key of these four arrays and shape; `Err` unless the shape is valid and
    /// every array holds `N/2` values per polynomial.
    pub fn from_parts(parts: [Vec<f64>; 4], shape: BootstrapKeyShape) -> Result<Self> {
        validate_shape_128(&shape)?;
        for part in &parts {
            check_container_len(
                "Fourier 128-bit bootstrap key",
                &[
                    shape.input_lwe_dimension.0,
                    shape.ggsw_size() / shape.polynomial_size.0,
                    shape.polynomial_size.0 / 2,
                ],
                part.len(),
            )?;
        }
        Ok(Self { parts, shape })
    }

    /// Its shape.
    pub fn shape(&self) -> BootstrapKeyShape {
        self.shape
    }

    /// The four arrays: `re0`, `re1`, `im0`, `im1`.
    pub fn parts(&self) -> &[Vec<f64>; 4] {
        &self.parts
    }

    /// The number of `f64` of one GGSW ciphertext in each array.
    pub(crate) fn ggsw_len(&self) -> usize {
        self.shape.ggsw_size() / 2
    }
}
