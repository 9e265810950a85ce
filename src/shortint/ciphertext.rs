//! A block: an LWE ciphertext under the big key plus the public bookkeeping that
//! keeps operations correct (degree and noise level).

use crate::core_crypto::LweCiphertextOwned;

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

    /// The underlying LWE ciphertext (under the big key).
    pub fn as_lwe(&self) -> &LweCiphertextOwned {
        &self.ct
    }

    /// The public upper bound on the encrypted value.
    pub fn degree(&self) -> u64 {
        self.degree
    }

    /// The noise level: 1 after encryption or a bootstrap, summed by additions,
    /// multiplied by scalar multiplications.
    pub fn noise_level(&self) -> u64 {
        self.noise_level
    }

    /// The message modulus of the parameters it was encrypted with.
    pub fn message_modulus(&self) -> u64 {
        self.message_modulus
    }

    /// The carry modulus of the parameters it was encrypted with.
    pub fn carry_modulus(&self) -> u64 {
        self.carry_modulus
    }
}
