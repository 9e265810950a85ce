//! GGSW ciphertexts: `(k + 1) * l` GLWE rows, row `(c, j)` encrypting `-m * S_c / B^j`
//! (or `m / B^j` for the body row `c = k`).

use crate::core_crypto::commons::{
    DecompositionBaseLog, DecompositionLevelCount, GlweSize, PolynomialSize,
};
use crate::core_crypto::entities::glwe::check_polynomial_size;
use crate::error::{check_eq, Result};

/// A GGSW ciphertext over a container of `(k + 1) * l * (k + 1) * N` `u64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GgswCiphertext<C> {
    data: C,
    glwe_size: GlweSize,
    polynomial_size: PolynomialSize,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
}

/// A GGSW ciphertext that owns its coefficients.
pub type GgswCiphertextOwned = GgswCiphertext<Vec<u64>>;

/// The number of `u64` of one GGSW ciphertext.
///
/// ```
/// use gpufhe::core_crypto::*;
/// // (k + 1) * l rows of (k + 1) polynomials of N coefficients.
/// let size = ggsw_ciphertext_size(GlweSize(2), PolynomialSize(512), DecompositionLevelCount(3));
/// assert_eq!(size, 2 * 3 * 2 * 512);
/// ```
pub const fn ggsw_ciphertext_size(
    glwe_size: GlweSize,
    polynomial_size: PolynomialSize,
    level: DecompositionLevelCount,
) -> usize {
    glwe_size.0 * level.0 * glwe_size.0 * polynomial_size.0
}

impl GgswCiphertextOwned {
    /// A GGSW ciphertext of zeros (not a valid encryption until encrypted into).
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let (b, l) = (DecompositionBaseLog(10), DecompositionLevelCount(2));
    /// let ggsw = GgswCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(256), b, l).unwrap();
    /// assert_eq!(ggsw.as_slice().len(), ggsw_ciphertext_size(GlweSize(2), PolynomialSize(256), l));
    /// // 40 bits times 2 levels do not fit in 64 bits.
    /// let bad = DecompositionBaseLog(40);
    /// assert!(GgswCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(256), bad, l).is_err());
    /// ```
    pub fn new_zero(
        glwe_size: GlweSize,
        polynomial_size: PolynomialSize,
        base_log: DecompositionBaseLog,
        level: DecompositionLevelCount,
    ) -> Result<Self> {
        Self::from_container(
            vec![0; ggsw_ciphertext_size(glwe_size, polynomial_size, level)],
            glwe_size,
            polynomial_size,
            base_log,
            level,
        )
    }
}

impl<C: AsRef<[u64]>> GgswCiphertext<C> {
    /// Wraps a container of the right length for the given shape.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let (b, l) = (DecompositionBaseLog(10), DecompositionLevelCount(2));
    /// let ggsw = GgswCiphertext::from_container(vec![0u64; 2 * 2 * 2 * 64], GlweSize(2), PolynomialSize(64), b, l);
    /// assert!(ggsw.is_ok());
    /// let short = GgswCiphertext::from_container(vec![0u64; 100], GlweSize(2), PolynomialSize(64), b, l);
    /// assert!(short.is_err());
    /// ```
    pub fn from_container(
        data: C,
        glwe_size: GlweSize,
        polynomial_size: PolynomialSize,
        base_log: DecompositionBaseLog,
        level: DecompositionLevelCount,
    ) -> Result<Self> {
        check_polynomial_size(polynomial_size)?;
        super::check_decomposition(base_log, level)?;
        check_eq(
            "length of the GGSW container",
            ggsw_ciphertext_size(glwe_size, polynomial_size, level),
            data.as_ref().len(),
        )?;
        Ok(Self {
            data,
            glwe_size,
            polynomial_size,
            base_log,
            level,
        })
    }

    /// `k + 1`.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let (b, l) = (DecompositionBaseLog(10), DecompositionLevelCount(2));
    /// let ggsw = GgswCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(64), b, l).unwrap();
    /// assert_eq!(ggsw.glwe_size(), GlweSize(2));
    /// ```
    pub fn glwe_size(&self) -> GlweSize {
        self.glwe_size
    }

    /// `N`.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let (b, l) = (DecompositionBaseLog(10), DecompositionLevelCount(2));
    /// let ggsw = GgswCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(64), b, l).unwrap();
    /// assert_eq!(ggsw.polynomial_size(), PolynomialSize(64));
    /// ```
    pub fn polynomial_size(&self) -> PolynomialSize {
        self.polynomial_size
    }

    /// `log2(B)`.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let (b, l) = (DecompositionBaseLog(10), DecompositionLevelCount(2));
    /// let ggsw = GgswCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(64), b, l).unwrap();
    /// assert_eq!(ggsw.decomposition_base_log(), DecompositionBaseLog(10));
    /// ```
    pub fn decomposition_base_log(&self) -> DecompositionBaseLog {
        self.base_log
    }

    /// `l`.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let (b, l) = (DecompositionBaseLog(10), DecompositionLevelCount(2));
    /// let ggsw = GgswCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(64), b, l).unwrap();
    /// assert_eq!(ggsw.decomposition_level_count(), DecompositionLevelCount(2));
    /// ```
    pub fn decomposition_level_count(&self) -> DecompositionLevelCount {
        self.level
    }

    /// All coefficients, row after row.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let (b, l) = (DecompositionBaseLog(10), DecompositionLevelCount(1));
    /// let data = vec![3u64; 2 * 1 * 2 * 4];
    /// let ggsw = GgswCiphertext::from_container(&data[..], GlweSize(2), PolynomialSize(4), b, l).unwrap();
    /// assert_eq!(ggsw.as_slice(), &data[..]);
    /// ```
    pub fn as_slice(&self) -> &[u64] {
        self.data.as_ref()
    }
}

impl<C: AsRef<[u64]> + AsMut<[u64]>> GgswCiphertext<C> {
    /// All coefficients, mutably.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let (b, l) = (DecompositionBaseLog(10), DecompositionLevelCount(1));
    /// let mut ggsw = GgswCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(4), b, l).unwrap();
    /// ggsw.as_mut_slice().fill(1);
    /// assert_eq!(ggsw.as_slice(), &[1; 16][..]);
    /// ```
    pub fn as_mut_slice(&mut self) -> &mut [u64] {
        self.data.as_mut()
    }
}
