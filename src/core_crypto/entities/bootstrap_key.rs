//! LWE bootstrap keys: plain, seeded (compressed) and in the Fourier domain.

use crate::core_crypto::commons::{
    DecompositionBaseLog, DecompositionLevelCount, GlweDimension, LweDimension, PolynomialSize,
};
use crate::core_crypto::entities::ggsw_ciphertext_size;
use crate::core_crypto::random::Seed;
use tfhe_fft::c64;

/// The shape shared by every form of a bootstrap key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    pub fn rows_per_ggsw(&self) -> usize {
        self.glwe_dimension.to_glwe_size().0 * self.level.0
    }

    /// Number of `u64` of one GGSW ciphertext.
    pub fn ggsw_size(&self) -> usize {
        ggsw_ciphertext_size(
            self.glwe_dimension.to_glwe_size(),
            self.polynomial_size,
            self.level,
        )
    }

    /// The LWE dimension of the bootstrap's output: `k * N`.
    pub fn output_lwe_dimension(&self) -> LweDimension {
        self.glwe_dimension
            .to_equivalent_lwe_dimension(self.polynomial_size)
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
    pub fn shape(&self) -> BootstrapKeyShape {
        self.shape
    }

    /// All coefficients, GGSW after GGSW.
    pub fn as_slice(&self) -> &[u64] {
        &self.data
    }
}

/// A bootstrap key stored as a seed and the body polynomials of each GLWE row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeededLweBootstrapKey {
    pub(crate) bodies: Vec<u64>,
    pub(crate) seed: Seed,
    pub(crate) shape: BootstrapKeyShape,
}

impl SeededLweBootstrapKey {
    /// The key's dimensions and decomposition.
    pub fn shape(&self) -> BootstrapKeyShape {
        self.shape
    }

    /// The seed of the masks.
    pub fn seed(&self) -> Seed {
        self.seed
    }

    /// The body polynomials, row after row.
    pub fn bodies(&self) -> &[u64] {
        &self.bodies
    }
}

/// A bootstrap key in the Fourier domain, ready for blind rotation: every polynomial
/// as `N/2` complex numbers (see [`crate::core_crypto::fft`]).
///
/// Layout: GGSW, then row `(c, j)`, then output polynomial, then `N/2` values.
#[derive(Debug, Clone, PartialEq)]
pub struct FourierLweBootstrapKey {
    pub(crate) data: Vec<c64>,
    pub(crate) shape: BootstrapKeyShape,
}

impl FourierLweBootstrapKey {
    /// The key's dimensions and decomposition.
    pub fn shape(&self) -> BootstrapKeyShape {
        self.shape
    }

    /// All Fourier coefficients.
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
