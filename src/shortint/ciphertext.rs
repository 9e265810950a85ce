//! A block: an LWE ciphertext under the big key plus the public bookkeeping that
//! keeps operations correct (degree and noise level).

use crate::core_crypto::LweCiphertextOwned;
use crate::error::{check_eq, Result};

/// An encrypted block.
///
/// `degree` is a public upper bound on the encrypted value (it never depends on the
/// secret value itself); `noise_level` counts how many fresh noises, with their
/// multiplicative factors, the ciphertext carries.
///
/// Serialization keeps the bookkeeping; whether it is consistent with a parameter set
/// is checked by the types built on blocks (see [`crate::serialization`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ciphertext {
    pub(crate) ct: LweCiphertextOwned,
    pub(crate) degree: u64,
    pub(crate) noise_level: u64,
    pub(crate) message_modulus: u64,
    pub(crate) carry_modulus: u64,
}

impl Ciphertext {
    /// A block from its parts (bookkeeping already checked by the caller).
    pub(crate) fn from_parts(
        ct: LweCiphertextOwned,
        degree: u64,
        noise_level: u64,
        params: &super::ShortintParameters,
    ) -> Self {
        Self {
            ct,
            degree,
            noise_level,
            message_modulus: params.message_modulus,
            carry_modulus: params.carry_modulus,
        }
    }

    /// `Err` unless the block was encrypted with these message and carry moduli.
    pub(crate) fn check_moduli(&self, message_modulus: u64, carry_modulus: u64) -> Result<()> {
        check_eq(
            "message modulus of a block",
            message_modulus as usize,
            self.message_modulus as usize,
        )?;
        check_eq(
            "carry modulus of a block",
            carry_modulus as usize,
            self.carry_modulus as usize,
        )
    }

    /// `Err` unless the block has the moduli and LWE size of `parameters`.
    pub(crate) fn check_parameters(&self, parameters: &super::ShortintParameters) -> Result<()> {
        self.check_moduli(parameters.message_modulus, parameters.carry_modulus)?;
        let size = parameters.big_lwe_dimension().to_lwe_size();
        self.ct.check_size("LWE size of a block", size)
    }

    /// The underlying LWE ciphertext (under the big key).
    ///
    /// ```
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let ct = ck.encrypt(2).unwrap();
    /// // A block lives under the big key, of dimension k * N.
    /// assert_eq!(ct.as_lwe().lwe_dimension(), PARAMETERS.big_lwe_dimension());
    /// ```
    pub fn as_lwe(&self) -> &LweCiphertextOwned {
        &self.ct
    }

    /// The public upper bound on the encrypted value.
    ///
    /// ```
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// // Whatever the message, a fresh block may hold up to message_modulus - 1.
    /// assert_eq!(ck.encrypt(1).unwrap().degree(), 3);
    /// assert_eq!(ck.encrypt_with_carry(1).unwrap().degree(), 15);
    /// ```
    pub fn degree(&self) -> u64 {
        self.degree
    }

    /// The noise level: 1 after encryption or a bootstrap, summed by additions,
    /// multiplied by scalar multiplications.
    ///
    /// ```
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// assert_eq!(ck.encrypt(3).unwrap().noise_level(), 1);
    /// ```
    pub fn noise_level(&self) -> u64 {
        self.noise_level
    }

    /// The message modulus of the parameters it was encrypted with.
    ///
    /// ```
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// assert_eq!(ck.encrypt(0).unwrap().message_modulus(), PARAMETERS.message_modulus);
    /// ```
    pub fn message_modulus(&self) -> u64 {
        self.message_modulus
    }

    /// The carry modulus of the parameters it was encrypted with.
    ///
    /// ```
    /// use gpufhe::shortint::ClientKey;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// assert_eq!(ck.encrypt(0).unwrap().carry_modulus(), PARAMETERS.carry_modulus);
    /// ```
    pub fn carry_modulus(&self) -> u64 {
        self.carry_modulus
    }
}

/// The public bookkeeping of a block: an upper bound of its value and its noise level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BlockInfo {
    /// Upper bound of the encrypted value.
    pub degree: u64,
    /// Sum of the factors applied to fresh noises (1 after a bootstrap, 0 if trivial).
    pub noise_level: u64,
}
