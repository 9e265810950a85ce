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
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweDimension, LweSecretKey, SecretRandomGenerator};
    /// let mut secret = SecretRandomGenerator::from_os().unwrap();
    /// let key = LweSecretKey::generate_binary(LweDimension(64), &mut secret);
    /// assert_eq!(key.lwe_dimension(), LweDimension(64));
    /// assert!(key.as_slice().iter().all(|&s| s <= 1));
    /// ```
    pub fn generate_binary(dim: LweDimension, rng: &mut SecretRandomGenerator) -> Self {
        let mut data = vec![0u64; dim.0];
        rng.fill_binary(&mut data);
        Self { data }
    }

    /// A key from explicit binary coefficients; `Err` if one is not 0 or 1.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweSecretKey;
    /// let key = LweSecretKey::from_binary_coefficients(vec![1, 0, 1]).unwrap();
    /// assert_eq!(key.as_slice(), &[1, 0, 1]);
    /// assert!(LweSecretKey::from_binary_coefficients(vec![0, 2]).is_err());
    /// ```
    pub fn from_binary_coefficients(data: Vec<u64>) -> Result<Self> {
        // Wrapped first, so that rejected coefficients are zeroized too.
        let key = Self { data };
        check_binary("LWE secret key", &key.data)?;
        Ok(key)
    }

    /// The dimension `n`.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweDimension, LweSecretKey};
    /// let key = LweSecretKey::from_binary_coefficients(vec![1, 0, 1, 1]).unwrap();
    /// assert_eq!(key.lwe_dimension(), LweDimension(4));
    /// ```
    pub fn lwe_dimension(&self) -> LweDimension {
        LweDimension(self.data.len())
    }

    /// The coefficients, each 0 or 1.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweSecretKey;
    /// let key = LweSecretKey::from_binary_coefficients(vec![0, 1, 1]).unwrap();
    /// assert_eq!(key.as_slice(), &[0, 1, 1]);
    /// ```
    pub fn as_slice(&self) -> &[u64] {
        &self.data
    }

    /// The number of coefficients equal to 1.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweSecretKey;
    /// let key = LweSecretKey::from_binary_coefficients(vec![1, 0, 1, 1]).unwrap();
    /// assert_eq!(key.hamming_weight(), 3);
    /// ```
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
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertextOwned, LweDimension, LweSize};
    /// let ct = LweCiphertextOwned::new_zero(LweSize(5));
    /// assert_eq!(ct.lwe_dimension(), LweDimension(4));
    /// assert!(ct.as_slice().iter().all(|&x| x == 0));
    /// ```
    pub fn new_zero(size: LweSize) -> Self {
        Self {
            data: vec![0; size.0],
        }
    }
}

impl<C: AsRef<[u64]>> LweCiphertext<C> {
    /// Wraps a container of `n + 1` coefficients; `Err` if it is empty.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertext, LweDimension};
    /// let ct = LweCiphertext::from_container(vec![1u64, 2, 3]).unwrap();
    /// assert_eq!(ct.lwe_dimension(), LweDimension(2));
    /// assert!(LweCiphertext::from_container(Vec::<u64>::new()).is_err());
    /// ```
    pub fn from_container(data: C) -> Result<Self> {
        if data.as_ref().is_empty() {
            return Err(Error::InvalidParameter(
                "an LWE ciphertext needs at least its body".into(),
            ));
        }
        Ok(Self { data })
    }

    /// The number of coefficients (`n + 1`).
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertext, LweSize};
    /// let ct = LweCiphertext::from_container(vec![1u64, 2, 3]).unwrap();
    /// assert_eq!(ct.lwe_size(), LweSize(3));
    /// ```
    pub fn lwe_size(&self) -> LweSize {
        LweSize(self.data.as_ref().len())
    }

    /// The mask dimension `n`.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertext, LweDimension};
    /// let ct = LweCiphertext::from_container(vec![1u64, 2, 3]).unwrap();
    /// assert_eq!(ct.lwe_dimension(), LweDimension(2));
    /// ```
    pub fn lwe_dimension(&self) -> LweDimension {
        self.lwe_size().to_lwe_dimension()
    }

    /// The mask `a`.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertext;
    /// let ct = LweCiphertext::from_container(vec![1u64, 2, 3]).unwrap();
    /// assert_eq!(ct.mask(), &[1, 2]);
    /// ```
    pub fn mask(&self) -> &[u64] {
        let d = self.data.as_ref();
        &d[..d.len() - 1]
    }

    /// The body `b`.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertext;
    /// let ct = LweCiphertext::from_container(vec![1u64, 2, 3]).unwrap();
    /// assert_eq!(ct.body(), 3);
    /// ```
    pub fn body(&self) -> u64 {
        *self.data.as_ref().last().expect("never empty")
    }

    /// All coefficients, mask first.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertext;
    /// let data = [4u64, 5, 6];
    /// let ct = LweCiphertext::from_container(&data[..]).unwrap();
    /// assert_eq!(ct.as_slice(), &[4, 5, 6]);
    /// ```
    pub fn as_slice(&self) -> &[u64] {
        self.data.as_ref()
    }

    /// Unwraps the container.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertext;
    /// let ct = LweCiphertext::from_container(vec![1u64, 2, 3]).unwrap();
    /// assert_eq!(ct.into_container(), vec![1, 2, 3]);
    /// ```
    pub fn into_container(self) -> C {
        self.data
    }

    /// A borrowed view of this ciphertext.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertext, LweCiphertextOwned, LweSize};
    /// let ct = LweCiphertextOwned::new_zero(LweSize(4));
    /// let view: LweCiphertext<&[u64]> = ct.as_view();
    /// assert_eq!(view.as_slice(), ct.as_slice());
    /// ```
    pub fn as_view(&self) -> LweCiphertext<&[u64]> {
        LweCiphertext {
            data: self.data.as_ref(),
        }
    }

    /// `Err` unless the ciphertext has the given size.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertextOwned, LweSize};
    /// let ct = LweCiphertextOwned::new_zero(LweSize(4));
    /// assert!(ct.check_size("input", LweSize(4)).is_ok());
    /// assert!(ct.check_size("input", LweSize(5)).is_err());
    /// ```
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
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertext;
    /// let mut ct = LweCiphertext::from_container(vec![1u64, 2, 3]).unwrap();
    /// ct.as_mut_slice()[0] = 7;
    /// assert_eq!(ct.mask(), &[7, 2]);
    /// ```
    pub fn as_mut_slice(&mut self) -> &mut [u64] {
        self.data.as_mut()
    }

    /// The mask and the body, mutably.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertext;
    /// let mut ct = LweCiphertext::from_container(vec![1u64, 2, 3]).unwrap();
    /// let (mask, body) = ct.mask_and_body_mut();
    /// mask[0] = 9;
    /// *body = 10;
    /// assert_eq!(ct.as_slice(), &[9, 2, 10]);
    /// ```
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
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertextCount, LweCiphertextListOwned, LweSize};
    /// let list = LweCiphertextListOwned::new_zero(LweSize(3), LweCiphertextCount(4));
    /// assert_eq!(list.count(), LweCiphertextCount(4));
    /// assert_eq!(list.as_slice(), &[0; 12]);
    /// ```
    pub fn new_zero(size: LweSize, count: LweCiphertextCount) -> Self {
        Self {
            data: vec![0; size.0 * count.0],
            lwe_size: size,
        }
    }
}

impl<C: AsRef<[u64]>> LweCiphertextList<C> {
    /// Wraps a container holding a whole number of ciphertexts of `lwe_size`.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertextCount, LweCiphertextList, LweSize};
    /// let list = LweCiphertextList::from_container(vec![0u64; 6], LweSize(3)).unwrap();
    /// assert_eq!(list.count(), LweCiphertextCount(2));
    /// assert!(LweCiphertextList::from_container(vec![0u64; 7], LweSize(3)).is_err());
    /// ```
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
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertextList, LweSize};
    /// let list = LweCiphertextList::from_container(vec![0u64; 6], LweSize(3)).unwrap();
    /// assert_eq!(list.lwe_size(), LweSize(3));
    /// ```
    pub fn lwe_size(&self) -> LweSize {
        self.lwe_size
    }

    /// The number of ciphertexts.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertextCount, LweCiphertextList, LweSize};
    /// let list = LweCiphertextList::from_container(vec![0u64; 6], LweSize(2)).unwrap();
    /// assert_eq!(list.count(), LweCiphertextCount(3));
    /// ```
    pub fn count(&self) -> LweCiphertextCount {
        LweCiphertextCount(self.data.as_ref().len() / self.lwe_size.0)
    }

    /// All coefficients, ciphertext after ciphertext.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertextList, LweSize};
    /// let list = LweCiphertextList::from_container(vec![1u64, 2, 3, 4], LweSize(2)).unwrap();
    /// assert_eq!(list.as_slice(), &[1, 2, 3, 4]);
    /// ```
    pub fn as_slice(&self) -> &[u64] {
        self.data.as_ref()
    }

    /// Iterates over the ciphertexts.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertextList, LweSize};
    /// let list = LweCiphertextList::from_container(vec![1u64, 2, 3, 4, 5, 6], LweSize(3)).unwrap();
    /// let bodies: Vec<u64> = list.iter().map(|ct| ct.body()).collect();
    /// assert_eq!(bodies, vec![3, 6]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = LweCiphertext<&[u64]>> {
        self.data
            .as_ref()
            .chunks_exact(self.lwe_size.0)
            .map(|data| LweCiphertext { data })
    }
}

impl<C: AsRef<[u64]> + AsMut<[u64]>> LweCiphertextList<C> {
    /// All coefficients, mutably.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertextList, LweSize};
    /// let mut list = LweCiphertextList::from_container(vec![0u64; 4], LweSize(2)).unwrap();
    /// list.as_mut_slice()[3] = 8;
    /// assert_eq!(list.iter().nth(1).unwrap().body(), 8);
    /// ```
    pub fn as_mut_slice(&mut self) -> &mut [u64] {
        self.data.as_mut()
    }

    /// Iterates mutably over the ciphertexts.
    ///
    /// ```
    /// use gpufhe::core_crypto::{LweCiphertextList, LweSize};
    /// let mut list = LweCiphertextList::from_container(vec![0u64; 6], LweSize(3)).unwrap();
    /// for mut ct in list.iter_mut() {
    ///     *ct.mask_and_body_mut().1 += 5;
    /// }
    /// assert_eq!(list.as_slice(), &[0, 0, 5, 0, 0, 5]);
    /// ```
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
