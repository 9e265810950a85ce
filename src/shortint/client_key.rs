//! The client key: the secret keys of a parameter set; encrypts and decrypts blocks.

use super::{Ciphertext, ShortintParameters};
use crate::core_crypto::{
    allocate_and_encrypt_new_lwe_ciphertext, decrypt_lwe_ciphertext, EncryptionRandomGenerator,
    GlweSecretKey, LweSecretKey, SecretRandomGenerator,
};
use crate::error::{check_eq, Error, Result};
use std::sync::Mutex;

/// The secret keys of one parameter set: the GLWE key (the big key, under which
/// blocks live) and the small LWE key (the keyswitch target).
pub struct ClientKey {
    pub(crate) glwe_secret_key: GlweSecretKey,
    pub(crate) big_lwe_secret_key: LweSecretKey,
    pub(crate) small_lwe_secret_key: LweSecretKey,
    pub(crate) parameters: ShortintParameters,
    rng: Mutex<EncryptionRandomGenerator>,
}

impl std::fmt::Debug for ClientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ClientKey {{ parameters: {:?}, .. }}", self.parameters)
    }
}

impl ClientKey {
    /// Generates fresh secret keys from the operating system's randomness.
    ///
    /// ```
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let ct = ck.encrypt(3).unwrap();
    /// assert_eq!(ck.decrypt(&ct).unwrap(), 3);
    /// ```
    pub fn new(parameters: ShortintParameters) -> Result<Self> {
        Self::from_secret_generator(parameters, &mut SecretRandomGenerator::from_os()?)
    }

    /// Generates the secret keys from `secret` (use [`ClientKey::new`] unless you need
    /// reproducible keys for tests).
    ///
    /// ```
    /// use gpufhe::core_crypto::{SecretRandomGenerator, Seed};
    /// use gpufhe::shortint::{ClientKey, DEFAULT_PARAMETERS};
    /// let key = |seed| {
    ///     let mut secret = SecretRandomGenerator::from_seed_insecure(Seed([seed; 32]));
    ///     ClientKey::from_secret_generator(DEFAULT_PARAMETERS, &mut secret).unwrap()
    /// };
    /// // Reproducible keys, for tests only: anyone who knows the seed knows the keys.
    /// assert_eq!(key(1).glwe_secret_key(), key(1).glwe_secret_key());
    /// assert_ne!(key(1).small_lwe_secret_key(), key(2).small_lwe_secret_key());
    /// ```
    pub fn from_secret_generator(
        parameters: ShortintParameters,
        secret: &mut SecretRandomGenerator,
    ) -> Result<Self> {
        parameters.validate()?;
        let small_lwe_secret_key = LweSecretKey::generate_binary(parameters.lwe_dimension, secret);
        let glwe_secret_key = GlweSecretKey::generate_binary(
            parameters.glwe_dimension,
            parameters.polynomial_size,
            secret,
        )?;
        Self::from_secret_keys(glwe_secret_key, small_lwe_secret_key, parameters)
    }

    /// A client key from its secret keys (checked against `parameters`), with a fresh
    /// encryption generator seeded by the operating system.
    pub(crate) fn from_secret_keys(
        glwe_secret_key: GlweSecretKey,
        small_lwe_secret_key: LweSecretKey,
        parameters: ShortintParameters,
    ) -> Result<Self> {
        parameters.validate()?;
        check_eq(
            "GLWE dimension of the GLWE secret key",
            parameters.glwe_dimension.0,
            glwe_secret_key.glwe_dimension().0,
        )?;
        check_eq(
            "polynomial size of the GLWE secret key",
            parameters.polynomial_size.0,
            glwe_secret_key.polynomial_size().0,
        )?;
        check_eq(
            "dimension of the small LWE secret key",
            parameters.lwe_dimension.0,
            small_lwe_secret_key.lwe_dimension().0,
        )?;
        Ok(Self {
            big_lwe_secret_key: glwe_secret_key.as_lwe_secret_key(),
            glwe_secret_key,
            small_lwe_secret_key,
            parameters,
            rng: Mutex::new(EncryptionRandomGenerator::from_os()?),
        })
    }

    /// The parameter set.
    ///
    /// ```
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// assert_eq!(ck.parameters(), &PARAMETERS);
    /// ```
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The GLWE secret key.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, DEFAULT_PARAMETERS as p};
    /// let ck = ClientKey::new(p).unwrap();
    /// assert_eq!(ck.glwe_secret_key().glwe_dimension(), p.glwe_dimension);
    /// assert_eq!(ck.glwe_secret_key().polynomial_size(), p.polynomial_size);
    /// ```
    pub fn glwe_secret_key(&self) -> &GlweSecretKey {
        &self.glwe_secret_key
    }

    /// The GLWE key read as an LWE key of dimension `k * N` (blocks live under it).
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, DEFAULT_PARAMETERS as p};
    /// let ck = ClientKey::new(p).unwrap();
    /// assert_eq!(ck.big_lwe_secret_key().lwe_dimension(), p.big_lwe_dimension());
    /// assert_eq!(ck.big_lwe_secret_key().as_slice(), ck.glwe_secret_key().as_slice());
    /// ```
    pub fn big_lwe_secret_key(&self) -> &LweSecretKey {
        &self.big_lwe_secret_key
    }

    /// The small LWE key (dimension `n`), the input key of bootstraps.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, DEFAULT_PARAMETERS as p};
    /// let ck = ClientKey::new(p).unwrap();
    /// assert_eq!(ck.small_lwe_secret_key().lwe_dimension(), p.lwe_dimension);
    /// ```
    pub fn small_lwe_secret_key(&self) -> &LweSecretKey {
        &self.small_lwe_secret_key
    }

    /// Encrypts a message in `[0, message_modulus)`; the carries are empty.
    ///
    /// ```
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// assert_eq!(ck.decrypt(&ck.encrypt(3).unwrap()).unwrap(), 3);
    /// // 2 message bits: 4 does not fit.
    /// assert!(ck.encrypt(4).is_err());
    /// ```
    pub fn encrypt(&self, message: u64) -> Result<Ciphertext> {
        self.encrypt_with_degree(message, self.parameters.message_modulus - 1)
    }

    /// Encrypts a value in `[0, message_modulus * carry_modulus)`, carries included.
    ///
    /// ```
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let ct = ck.encrypt_with_carry(13).unwrap(); // carry 3, message 1
    /// assert_eq!(ck.decrypt_message_and_carry(&ct).unwrap(), 13);
    /// assert!(ck.encrypt_with_carry(16).is_err());
    /// ```
    pub fn encrypt_with_carry(&self, value: u64) -> Result<Ciphertext> {
        self.encrypt_with_degree(value, self.parameters.total_modulus() - 1)
    }

    fn encrypt_with_degree(&self, value: u64, degree: u64) -> Result<Ciphertext> {
        if value > degree {
            return Err(Error::InvalidParameter(format!(
                "cannot encrypt {value} in a block whose values go up to {degree}"
            )));
        }
        let p = &self.parameters;
        let mut rng = self
            .rng
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let ct = allocate_and_encrypt_new_lwe_ciphertext(
            &self.big_lwe_secret_key,
            value * p.delta(),
            p.glwe_noise_distribution,
            &mut rng,
        )?;
        Ok(Ciphertext {
            ct,
            degree,
            noise_level: 1,
            message_modulus: p.message_modulus,
            carry_modulus: p.carry_modulus,
        })
    }

    /// Decrypts message and carries: a value in `[0, message_modulus * carry_modulus)`.
    ///
    /// ```
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let ct = ck.encrypt_with_carry(10).unwrap();
    /// assert_eq!(ck.decrypt_message_and_carry(&ct).unwrap(), 10);
    /// ```
    pub fn decrypt_message_and_carry(&self, ct: &Ciphertext) -> Result<u64> {
        let p = &self.parameters;
        ct.check_moduli(p.message_modulus, p.carry_modulus)?;
        let phase = decrypt_lwe_ciphertext(&self.big_lwe_secret_key, &ct.ct)?;
        let delta = p.delta();
        let rounded = phase.wrapping_add(delta / 2) / delta;
        Ok(rounded % p.total_modulus())
    }

    /// Decrypts the message part: a value in `[0, message_modulus)`.
    ///
    /// ```
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let ct = ck.encrypt_with_carry(10).unwrap(); // carry 2, message 2
    /// assert_eq!(ck.decrypt(&ct).unwrap(), 2);
    /// ```
    pub fn decrypt(&self, ct: &Ciphertext) -> Result<u64> {
        Ok(self.decrypt_message_and_carry(ct)? % self.parameters.message_modulus)
    }
}

/// The secret keys and parameters of a [`ClientKey`] (the big LWE key is the GLWE key
/// read differently, and the encryption generator is never written).
#[derive(serde::Serialize)]
struct ClientKeyRef<'a> {
    glwe_secret_key: &'a GlweSecretKey,
    small_lwe_secret_key: &'a LweSecretKey,
    parameters: &'a ShortintParameters,
}

/// [`ClientKeyRef`] as read.
#[derive(serde::Deserialize)]
struct ClientKeyParts {
    glwe_secret_key: GlweSecretKey,
    small_lwe_secret_key: LweSecretKey,
    parameters: ShortintParameters,
}

/// Writes the secret keys and the parameters (secret material: keep it secret).
impl serde::Serialize for ClientKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        ClientKeyRef {
            glwe_secret_key: &self.glwe_secret_key,
            small_lwe_secret_key: &self.small_lwe_secret_key,
            parameters: &self.parameters,
        }
        .serialize(s)
    }
}

/// Checks the parameters and the key dimensions, and seeds a fresh encryption
/// generator from the operating system.
impl<'de> serde::Deserialize<'de> for ClientKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let parts = ClientKeyParts::deserialize(d)?;
        Self::from_secret_keys(
            parts.glwe_secret_key,
            parts.small_lwe_secret_key,
            parts.parameters,
        )
        .map_err(serde::de::Error::custom)
    }
}
