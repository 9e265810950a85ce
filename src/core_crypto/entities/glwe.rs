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
    /// The key of these binary coefficients (`k` polynomials of `polynomial_size`
    /// coefficients, one after the other); `Err` if a coefficient is not 0 or 1 or
    /// the sizes do not fit.
    pub(crate) fn from_binary_coefficients(
        data: Vec<u64>,
        polynomial_size: PolynomialSize,
    ) -> Result<Self> {
        Self::try_from(GlweSecretKeyParts {
            data,
            polynomial_size,
        })
    }

    /// Draws a uniform binary key.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let key = GlweSecretKey::generate_binary(GlweDimension(2), PolynomialSize(256), &mut secret).unwrap();
    /// assert_eq!(key.as_slice().len(), 512);
    /// assert!(key.as_slice().iter().all(|&s| s <= 1));
    /// // The FFT needs a power of two.
    /// assert!(GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(100), &mut secret).is_err());
    /// ```
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
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let key = GlweSecretKey::generate_binary(GlweDimension(2), PolynomialSize(64), &mut secret).unwrap();
    /// assert_eq!(key.glwe_dimension(), GlweDimension(2));
    /// ```
    pub fn glwe_dimension(&self) -> GlweDimension {
        GlweDimension(self.data.len() / self.polynomial_size.0)
    }

    /// `N`.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
    /// assert_eq!(key.polynomial_size(), PolynomialSize(64));
    /// ```
    pub fn polynomial_size(&self) -> PolynomialSize {
        self.polynomial_size
    }

    /// The `k` polynomials, one after the other.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let key = GlweSecretKey::generate_binary(GlweDimension(2), PolynomialSize(64), &mut secret).unwrap();
    /// assert_eq!(key.as_slice().len(), 2 * 64);
    /// ```
    pub fn as_slice(&self) -> &[u64] {
        &self.data
    }

    /// The `c`-th polynomial.
    pub(crate) fn polynomial(&self, c: usize) -> &[u64] {
        &self.data[c * self.polynomial_size.0..(c + 1) * self.polynomial_size.0]
    }

    /// The LWE key of dimension `k * N` under which sample extraction decrypts: the
    /// coefficients of the polynomials, in order.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let key = GlweSecretKey::generate_binary(GlweDimension(2), PolynomialSize(64), &mut secret).unwrap();
    /// let lwe_key = key.as_lwe_secret_key();
    /// assert_eq!(lwe_key.lwe_dimension(), LweDimension(128));
    /// assert_eq!(lwe_key.as_slice(), key.as_slice());
    /// ```
    pub fn as_lwe_secret_key(&self) -> LweSecretKey {
        LweSecretKey::from_binary_coefficients(self.data.clone()).expect("binary by construction")
    }

    /// The equivalent LWE dimension `k * N`.
    ///
    /// ```
    /// use gpufhe::core_crypto::*;
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let key = GlweSecretKey::generate_binary(GlweDimension(2), PolynomialSize(64), &mut secret).unwrap();
    /// assert_eq!(key.lwe_dimension(), LweDimension(128));
    /// ```
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
    ///
    /// ```
    /// use gpufhe::core_crypto::{GlweCiphertextOwned, GlweSize, PolynomialSize};
    /// let ct = GlweCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(64)).unwrap();
    /// assert_eq!(ct.as_slice(), &[0; 128][..]);
    /// assert!(GlweCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(3)).is_err());
    /// ```
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
    ///
    /// ```
    /// use gpufhe::core_crypto::{GlweCiphertext, GlweSize, PolynomialSize};
    /// let ct = GlweCiphertext::from_container(vec![0u64; 3 * 64], PolynomialSize(64)).unwrap();
    /// assert_eq!(ct.glwe_size(), GlweSize(3));
    /// assert!(GlweCiphertext::from_container(vec![0u64; 100], PolynomialSize(64)).is_err());
    /// ```
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
    ///
    /// ```
    /// use gpufhe::core_crypto::{GlweCiphertextOwned, GlweSize, PolynomialSize};
    /// let ct = GlweCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(64)).unwrap();
    /// assert_eq!(ct.glwe_size(), GlweSize(2));
    /// ```
    pub fn glwe_size(&self) -> GlweSize {
        GlweSize(self.data.as_ref().len() / self.polynomial_size.0)
    }

    /// `N`.
    ///
    /// ```
    /// use gpufhe::core_crypto::{GlweCiphertextOwned, GlweSize, PolynomialSize};
    /// let ct = GlweCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(64)).unwrap();
    /// assert_eq!(ct.polynomial_size(), PolynomialSize(64));
    /// ```
    pub fn polynomial_size(&self) -> PolynomialSize {
        self.polynomial_size
    }

    /// All coefficients, mask polynomials first.
    ///
    /// ```
    /// use gpufhe::core_crypto::{GlweCiphertext, PolynomialSize};
    /// let data: Vec<u64> = (0..8).collect();
    /// let ct = GlweCiphertext::from_container(&data[..], PolynomialSize(4)).unwrap();
    /// assert_eq!(ct.as_slice(), &data[..]);
    /// ```
    pub fn as_slice(&self) -> &[u64] {
        self.data.as_ref()
    }

    /// The body polynomial `B`.
    ///
    /// ```
    /// use gpufhe::core_crypto::{GlweCiphertext, PolynomialSize};
    /// let ct = GlweCiphertext::from_container((0..8u64).collect::<Vec<_>>(), PolynomialSize(4)).unwrap();
    /// assert_eq!(ct.body(), &[4, 5, 6, 7]);
    /// ```
    pub fn body(&self) -> &[u64] {
        let d = self.data.as_ref();
        &d[d.len() - self.polynomial_size.0..]
    }
}

impl<C: AsRef<[u64]> + AsMut<[u64]>> GlweCiphertext<C> {
    /// All coefficients, mutably.
    ///
    /// ```
    /// use gpufhe::core_crypto::{GlweCiphertextOwned, GlweSize, PolynomialSize};
    /// let mut ct = GlweCiphertextOwned::new_zero(GlweSize(2), PolynomialSize(4)).unwrap();
    /// ct.as_mut_slice()[4] = 1;
    /// assert_eq!(ct.body(), &[1, 0, 0, 0]);
    /// ```
    pub fn as_mut_slice(&mut self) -> &mut [u64] {
        self.data.as_mut()
    }

    /// The masks and the body, mutably.
    ///
    /// ```
    /// use gpufhe::core_crypto::{GlweCiphertextOwned, GlweSize, PolynomialSize};
    /// let mut ct = GlweCiphertextOwned::new_zero(GlweSize(3), PolynomialSize(4)).unwrap();
    /// let (masks, body) = ct.mask_and_body_mut();
    /// assert_eq!((masks.len(), body.len()), (8, 4));
    /// body[0] = 7;
    /// assert_eq!(ct.body(), &[7, 0, 0, 0]);
    /// ```
    pub fn mask_and_body_mut(&mut self) -> (&mut [u64], &mut [u64]) {
        let n = self.polynomial_size.0;
        let d = self.data.as_mut();
        let split = d.len() - n;
        d.split_at_mut(split)
    }
}
