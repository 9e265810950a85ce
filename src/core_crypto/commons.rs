//! Newtypes for every dimension, count and logarithm used by the TFHE algorithms.
//!
//! They keep an LWE dimension from being passed where a polynomial size is expected.

macro_rules! usize_newtype {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash,
            serde::Serialize, serde::Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub usize);
    )*};
}

usize_newtype! {
    /// Number of mask coefficients `n` of an LWE ciphertext (the secret key length).
    LweDimension;
    /// Number of `u64` in an LWE ciphertext: the dimension plus one for the body.
    LweSize;
    /// Number of mask polynomials `k` of a GLWE ciphertext.
    GlweDimension;
    /// Number of polynomials in a GLWE ciphertext: `k + 1`.
    GlweSize;
    /// Number of coefficients `N` of the polynomials of a GLWE ciphertext (a power of two).
    PolynomialSize;
    /// Logarithm in base two of the decomposition base `B`.
    DecompositionBaseLog;
    /// Number of levels `l` of a gadget decomposition.
    DecompositionLevelCount;
    /// Number of ciphertexts in a list.
    LweCiphertextCount;
    /// Number of GLWE ciphertexts in a list.
    GlweCiphertextCount;
}

impl LweDimension {
    /// The size of a ciphertext of this dimension (`n + 1`).
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweDimension, LweSize};
    /// assert_eq!(LweDimension(630).to_lwe_size(), LweSize(631));
    /// ```
    pub const fn to_lwe_size(self) -> LweSize {
        LweSize(self.0 + 1)
    }
}

impl LweSize {
    /// The dimension of a ciphertext of this size (`size - 1`).
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweDimension, LweSize};
    /// assert_eq!(LweSize(631).to_lwe_dimension(), LweDimension(630));
    /// ```
    pub const fn to_lwe_dimension(self) -> LweDimension {
        LweDimension(self.0 - 1)
    }
}

impl GlweDimension {
    /// The number of polynomials of a GLWE ciphertext (`k + 1`).
    ///
    /// ```
    /// use gpufhe::core_crypto::{GlweDimension, GlweSize};
    /// assert_eq!(GlweDimension(1).to_glwe_size(), GlweSize(2));
    /// ```
    pub const fn to_glwe_size(self) -> GlweSize {
        GlweSize(self.0 + 1)
    }

    /// The dimension of the LWE ciphertext obtained by sample extraction (`k * N`).
    ///
    /// ```
    /// use gpufhe::core_crypto::{GlweDimension, LweDimension, PolynomialSize};
    /// let lwe = GlweDimension(2).to_equivalent_lwe_dimension(PolynomialSize(1024));
    /// assert_eq!(lwe, LweDimension(2048));
    /// ```
    pub const fn to_equivalent_lwe_dimension(self, poly: PolynomialSize) -> LweDimension {
        LweDimension(self.0 * poly.0)
    }
}

impl GlweSize {
    /// The number of mask polynomials (`size - 1`).
    ///
    /// ```
    /// use gpufhe::core_crypto::{GlweDimension, GlweSize};
    /// assert_eq!(GlweSize(2).to_glwe_dimension(), GlweDimension(1));
    /// ```
    pub const fn to_glwe_dimension(self) -> GlweDimension {
        GlweDimension(self.0 - 1)
    }
}

impl PolynomialSize {
    /// `log2(N)`.
    ///
    /// ```
    /// use gpufhe::core_crypto::PolynomialSize;
    /// assert_eq!(PolynomialSize(2048).log2(), 11);
    /// ```
    pub const fn log2(self) -> usize {
        self.0.trailing_zeros() as usize
    }

    /// The number of complex coefficients of a polynomial in the Fourier domain (`N / 2`).
    ///
    /// ```
    /// use gpufhe::core_crypto::PolynomialSize;
    /// assert_eq!(PolynomialSize(2048).to_fourier_polynomial_size(), 1024);
    /// ```
    pub const fn to_fourier_polynomial_size(self) -> usize {
        self.0 / 2
    }
}
