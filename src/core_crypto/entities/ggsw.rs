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
pub const fn ggsw_ciphertext_size(
    glwe_size: GlweSize,
    polynomial_size: PolynomialSize,
    level: DecompositionLevelCount,
) -> usize {
    glwe_size.0 * level.0 * glwe_size.0 * polynomial_size.0
}

impl GgswCiphertextOwned {
    /// A GGSW ciphertext of zeros (not a valid encryption until encrypted into).
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
    pub fn glwe_size(&self) -> GlweSize {
        self.glwe_size
    }

    /// `N`.
    pub fn polynomial_size(&self) -> PolynomialSize {
        self.polynomial_size
    }

    /// `log2(B)`.
    pub fn decomposition_base_log(&self) -> DecompositionBaseLog {
        self.base_log
    }

    /// `l`.
    pub fn decomposition_level_count(&self) -> DecompositionLevelCount {
        self.level
    }

    /// All coefficients, row after row.
    pub fn as_slice(&self) -> &[u64] {
        self.data.as_ref()
    }
}

impl<C: AsRef<[u64]> + AsMut<[u64]>> GgswCiphertext<C> {
    /// All coefficients, mutably.
    pub fn as_mut_slice(&mut self) -> &mut [u64] {
        self.data.as_mut()
    }
}
