//! GLWE secret keys and ciphertexts: `k` mask polynomials and one body polynomial
//! modulo `X^N + 1`.

use crate::core_crypto::commons::{GlweDimension, GlweSize, LweDimension, PolynomialSize};
use crate::core_crypto::entities::LweSecretKey;
use crate::core_crypto::random::SecretRandomGenerator;
use crate::error::{Error, Result};
use zeroize::Zeroize;

/// A binary GLWE secret key: `k` polynomials of `N` coefficients in {0, 1}.
/// Zeroized on drop.
///
/// Deserialization rejects a polynomial size that is not a power of two in
/// `[4, 2^17]`, a number of coefficients that is not a positive multiple of it and
/// coefficients other than 0 and 1.
#[derive(Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "GlweSecretKeyParts")]
pub struct GlweSecretKey {
    data: Vec<u64>,
    polynomial_size: PolynomialSize,
}

impl std::fmt::Debug for GlweSecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GlweSecretKey {{ glwe_dimension: {}, polynomial_size: {}, .. }}",
            self.glwe_dimension().0,
            self.polynomial_size.0
        )
    }
}

impl Drop for GlweSecretKey {
    fn drop(&mut self) {
        self.data.zeroize();
    }
}

/// The fields of a [`GlweSecretKey`] as read, before they are checked.
#[derive(serde::Deserialize)]
struct GlweSecretKeyParts {
    data: Vec<u64>,
    polynomial_size: PolynomialSize,
}

impl TryFrom<GlweSecretKeyParts> for GlweSecretKey {
    type Error = Error;

    fn try_from(mut parts: GlweSecretKeyParts) -> Result<Self> {
        // Wrapped first, so that rejected coefficients are zeroized too.
        let key = Self {
            data: std::mem::take(&mut parts.data),
            polynomial_size: parts.polynomial_size,
        };
        check_polynomial_size(key.polynomial_size)?;
        let len = key.data.len();
        if len == 0 || len % key.polynomial_size.0 != 0 {
            return Err(Error::InvalidParameter(format!(
                "a GLWE secret key of {len} coefficients is not a positive number of \
                 polynomials of size {}",
                key.polynomial_size.0
            )));
        }
        super::lwe::check_binary("GLWE secret key", &key.data)?;
        Ok(key)
    }
}

impl GlweSecretKey {
    /// Draws a uniform binary key.
    pub fn generate_binary(
        glwe_dimension: GlweDimension,
        polynomial_size: PolynomialSize,
        rng: &mut SecretRandomGenerator,
    ) -> Result<Self> {
        check_polynomial_size(polynomial_size)?;
        let mut data = vec![0u64; glwe_dimension.0 * polynomial_size.0];
        rng.fill_binary(&mut data);
        Ok(Self {
            data,
            polynomial_size,
        })
    }

    /// The number of polynomials `k`.
    pub fn glwe_dimension(&self) -> GlweDimension {
        GlweDimension(self.data.len() / self.polynomial_size.0)
    }

    /// `N`.
    pub fn polynomial_size(&self) -> PolynomialSize {
        self.polynomial_size
    }

    /// The `k` polynomials, one after the other.
    pub fn as_slice(&self) -> &[u64] {
        &self.data
    }

    /// The `c`-th polynomial.
    pub(crate) fn polynomial(&self, c: usize) -> &[u64] {
        &self.data[c * self.polynomial_size.0..(c + 1) * self.polynomial_size.0]
    }

    /// The LWE key of dimension `k * N` under which sample extraction decrypts: the
    /// coefficients of the polynomials, in order.
    pub fn as_lwe_secret_key(&self) -> LweSecretKey {
        LweSecretKey::from_binary_coefficients(self.data.clone()).expect("binary by construction")
    }

    /// The equivalent LWE dimension `k * N`.
    pub fn lwe_dimension(&self) -> LweDimension {
        LweDimension(self.data.len())
    }
}

/// `Err` unless `N` is a power of two of at least 4 (the FFT needs `N/2 >= 2`).
pub(crate) fn check_polynomial_size(n: PolynomialSize) -> Result<()> {
    if n.0.is_power_of_two() && n.0 >= 4 && n.0 <= 1 << 17 {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "polynomial size {} is not a power of two in [4, 2^17]",
            n.0
        )))
    }
}

/// A GLWE ciphertext `(A_1, ..., A_k, B)` over a container of `(k + 1) * N` `u64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlweCiphertext<C> {
    data: C,
    polynomial_size: PolynomialSize,
}

/// A GLWE ciphertext that owns its coefficients.
pub type GlweCiphertextOwned = GlweCiphertext<Vec<u64>>;

impl GlweCiphertextOwned {
    /// A trivial encryption of zero.
    pub fn new_zero(glwe_size: GlweSize, polynomial_size: PolynomialSize) -> Result<Self> {
        check_polynomial_size(polynomial_size)?;
        Ok(Self {
            data: vec![0; glwe_size.0 * polynomial_size.0],
            polynomial_size,
        })
    }
}

impl<C: AsRef<[u64]>> GlweCiphertext<C> {
    /// Wraps `(k + 1) * N` coefficients, mask polynomials first.
    pub fn from_container(data: C, polynomial_size: PolynomialSize) -> Result<Self> {
        check_polynomial_size(polynomial_size)?;
        let len = data.as_ref().len();
        if len == 0 || len % polynomial_size.0 != 0 {
            return Err(Error::InvalidParameter(format!(
                "{len} coefficients are not a whole, positive number of polynomials of size {}",
                polynomial_size.0
            )));
        }
        Ok(Self {
            data,
            polynomial_size,
        })
    }

    /// `k + 1`.
    pub fn glwe_size(&self) -> GlweSize {
        GlweSize(self.data.as_ref().len() / self.polynomial_size.0)
    }

    /// `N`.
    pub fn polynomial_size(&self) -> PolynomialSize {
        self.polynomial_size
    }

    /// All coefficients, mask polynomials first.
    pub fn as_slice(&self) -> &[u64] {
        self.data.as_ref()
    }

    /// The body polynomial `B`.
    pub fn body(&self) -> &[u64] {
        let d = self.data.as_ref();
        &d[d.len() - self.polynomial_size.0..]
    }
}

impl<C: AsRef<[u64]> + AsMut<[u64]>> GlweCiphertext<C> {
    /// All coefficients, mutably.
    pub fn as_mut_slice(&mut self) -> &mut [u64] {
        self.data.as_mut()
    }

    /// The masks and the body, mutably.
    pub fn mask_and_body_mut(&mut self) -> (&mut [u64], &mut [u64]) {
        let n = self.polynomial_size.0;
        let d = self.data.as_mut();
        let split = d.len() - n;
        d.split_at_mut(split)
    }
}
