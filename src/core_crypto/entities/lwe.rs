//! LWE secret keys, ciphertexts and ciphertext lists.

use crate::core_crypto::commons::{LweCiphertextCount, LweDimension, LweSize};
use crate::core_crypto::random::SecretRandomGenerator;
use crate::error::{check_eq, Error, Result};
use zeroize::Zeroize;

/// A binary LWE secret key `s` in `{0, 1}^n`. Zeroized on drop.
#[derive(Clone, PartialEq, Eq)]
pub struct LweSecretKey {
    data: Vec<u64>,
}

impl std::fmt::Debug for LweSecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LweSecretKey {{ dimension: {}, .. }}", self.data.len())
    }
}

impl Drop for LweSecretKey {
    fn drop(&mut self) {
        self.data.zeroize();
    }
}

impl LweSecretKey {
    /// Draws a uniform binary key of dimension `dim`.
    pub fn generate_binary(dim: LweDimension, rng: &mut SecretRandomGenerator) -> Self {
        let mut data = vec![0u64; dim.0];
        rng.fill_binary(&mut data);
        Self { data }
    }

    /// A key from explicit binary coefficients; `Err` if one is not 0 or 1.
    pub fn from_binary_coefficients(data: Vec<u64>) -> Result<Self> {
        // Wrapped first, so that rejected coefficients are zeroized too.
        let key = Self { data };
        check_binary("LWE secret key", &key.data)?;
        Ok(key)
    }

    /// The dimension `n`.
    pub fn lwe_dimension(&self) -> LweDimension {
        LweDimension(self.data.len())
    }

    /// The coefficients, each 0 or 1.
    pub fn as_slice(&self) -> &[u64] {
        &self.data
    }

    /// The number of coefficients equal to 1.
    pub fn hamming_weight(&self) -> usize {
        self.data.iter().filter(|&&x| x == 1).count()
    }
}

/// `Err` unless every coefficient of a secret key is 0 or 1.
pub(crate) fn check_binary(what: &str, data: &[u64]) -> Result<()> {
    match data.iter().position(|&x| x > 1) {
        None => Ok(()),
        Some(bad) => Err(Error::InvalidParameter(format!(
            "{what} coefficient {bad} is {}, not 0 or 1",
            data[bad]
        ))),
    }
}

/// Serialized as its list of coefficients.
impl serde::Serialize for LweSecretKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.data.serialize(s)
    }
}

/// Rejects coefficients other than 0 and 1; the coefficients read are zeroized on
/// drop, also when they are rejected.
impl<'de> serde::Deserialize<'de> for LweSecretKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Self::from_binary_coefficients(Vec::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// An LWE ciphertext `(a_1, ..., a_n, b)` over a container of `u64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LweCiphertext<C> {
    data: C,
}

/// An LWE ciphertext that owns its coefficients.
pub type LweCiphertextOwned = LweCiphertext<Vec<u64>>;

impl LweCiphertextOwned {
    /// The trivial encryption of zero (all coefficients zero) of the given size.
    pub fn new_zero(size: LweSize) -> Self {
        Self {
            data: vec![0; size.0],
        }
    }
}

impl<C: AsRef<[u64]>> LweCiphertext<C> {
    /// Wraps a container of `n + 1` coefficients; `Err` if it is empty.
    pub fn from_container(data: C) -> Result<Self> {
        if data.as_ref().is_empty() {
            return Err(Error::InvalidParameter(
                "an LWE ciphertext needs at least its body".into(),
            ));
        }
        Ok(Self { data })
    }

    /// The number of coefficients (`n + 1`).
    pub fn lwe_size(&self) -> LweSize {
        LweSize(self.data.as_ref().len())
    }

    /// The mask dimension `n`.
    pub fn lwe_dimension(&self) -> LweDimension {
        self.lwe_size().to_lwe_dimension()
    }

    /// The mask `a`.
    pub fn mask(&self) -> &[u64] {
        let d = self.data.as_ref();
        &d[..d.len() - 1]
    }

    /// The body `b`.
    pub fn body(&self) -> u64 {
        *self.data.as_ref().last().expect("never empty")
    }

    /// All coefficients, mask first.
    pub fn as_slice(&self) -> &[u64] {
        self.data.as_ref()
    }

    /// Unwraps the container.
    pub fn into_container(self) -> C {
        self.data
    }

    /// A borrowed view of this ciphertext.
    pub fn as_view(&self) -> LweCiphertext<&[u64]> {
        LweCiphertext {
            data: self.data.as_ref(),
        }
    }

    /// `Err` unless the ciphertext has the given size.
    pub fn check_size(&self, what: &'static str, expected: LweSize) -> Result<()> {
        check_eq(what, expected.0, self.lwe_size().0)
    }
}

/// Serialized as its list of coefficients, mask first.
impl<C: AsRef<[u64]>> serde::Serialize for LweCiphertext<C> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

/// Rejects an empty list (a ciphertext has at least its body).
impl<'de> serde::Deserialize<'de> for LweCiphertextOwned {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Self::from_container(Vec::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl<C: AsRef<[u64]> + AsMut<[u64]>> LweCiphertext<C> {
    /// All coefficients, mutably.
    pub fn as_mut_slice(&mut self) -> &mut [u64] {
        self.data.as_mut()
    }

    /// The mask and the body, mutably.
    pub fn mask_and_body_mut(&mut self) -> (&mut [u64], &mut u64) {
        let (body, mask) = self.data.as_mut().split_last_mut().expect("never empty");
        (mask, body)
    }
}

/// A list of LWE ciphertexts of one size, stored contiguously.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LweCiphertextList<C> {
    data: C,
    lwe_size: LweSize,
}

/// A list of LWE ciphertexts that owns its coefficients.
pub type LweCiphertextListOwned = LweCiphertextList<Vec<u64>>;

impl LweCiphertextListOwned {
    /// `count` trivial zeros of the given size.
    pub fn new_zero(size: LweSize, count: LweCiphertextCount) -> Self {
        Self {
            data: vec![0; size.0 * count.0],
            lwe_size: size,
        }
    }
}

impl<C: AsRef<[u64]>> LweCiphertextList<C> {
    /// Wraps a container holding a whole number of ciphertexts of `lwe_size`.
    pub fn from_container(data: C, lwe_size: LweSize) -> Result<Self> {
        if lwe_size.0 == 0 || data.as_ref().len() % lwe_size.0 != 0 {
            return Err(Error::InvalidParameter(format!(
                "a container of {} u64 does not hold a whole number of LWE ciphertexts of size {}",
                data.as_ref().len(),
                lwe_size.0
            )));
        }
        Ok(Self { data, lwe_size })
    }

    /// The size of each ciphertext.
    pub fn lwe_size(&self) -> LweSize {
        self.lwe_size
    }

    /// The number of ciphertexts.
    pub fn count(&self) -> LweCiphertextCount {
        LweCiphertextCount(self.data.as_ref().len() / self.lwe_size.0)
    }

    /// All coefficients, ciphertext after ciphertext.
    pub fn as_slice(&self) -> &[u64] {
        self.data.as_ref()
    }

    /// Iterates over the ciphertexts.
    pub fn iter(&self) -> impl Iterator<Item = LweCiphertext<&[u64]>> {
        self.data
            .as_ref()
            .chunks_exact(self.lwe_size.0)
            .map(|data| LweCiphertext { data })
    }
}

impl<C: AsRef<[u64]> + AsMut<[u64]>> LweCiphertextList<C> {
    /// All coefficients, mutably.
    pub fn as_mut_slice(&mut self) -> &mut [u64] {
        self.data.as_mut()
    }

    /// Iterates mutably over the ciphertexts.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = LweCiphertext<&mut [u64]>> {
        self.data
            .as_mut()
            .chunks_exact_mut(self.lwe_size.0)
            .map(|data| LweCiphertext { data })
    }
}

impl FromIterator<LweCiphertextOwned> for Result<LweCiphertextListOwned> {
    fn from_iter<I: IntoIterator<Item = LweCiphertextOwned>>(iter: I) -> Self {
        let mut data = Vec::new();
        let mut size = None;
        for ct in iter {
            let s = *size.get_or_insert(ct.lwe_size());
            ct.check_size("LWE size of a ciphertext of the list", s)?;
            data.extend_from_slice(ct.as_slice());
        }
        let size = size.ok_or_else(|| {
            Error::InvalidParameter("cannot build a list from no ciphertexts".into())
        })?;
        LweCiphertextList::from_container(data, size)
    }
}
