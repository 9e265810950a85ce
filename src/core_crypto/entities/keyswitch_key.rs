//! LWE keyswitching keys, plain and seeded (compressed).

use crate::core_crypto::commons::{
    DecompositionBaseLog, DecompositionLevelCount, LweDimension, LweSize,
};
use crate::core_crypto::random::Seed;

/// The shape shared by the plain and the seeded keyswitching keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyswitchKeyShape {
    /// Dimension of the key the input ciphertexts are encrypted under.
    pub input_lwe_dimension: LweDimension,
    /// Dimension of the key the outputs are encrypted under.
    pub output_lwe_dimension: LweDimension,
    /// `log2(B)` of the decomposition.
    pub base_log: DecompositionBaseLog,
    /// Number of levels of the decomposition.
    pub level: DecompositionLevelCount,
}

impl KeyswitchKeyShape {
    /// Number of LWE ciphertexts in the key: one per input coefficient and level.
    pub fn ciphertext_count(&self) -> usize {
        self.input_lwe_dimension.0 * self.level.0
    }
}

/// A keyswitching key from an input LWE key `s` to an output key `s'`: for every
/// coefficient `s_i` and level `j`, an encryption of `s_i / B^j` under `s'`.
///
/// Layout: input coefficient, then level (1 first), then the `n' + 1` coefficients.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LweKeyswitchKey {
    pub(crate) data: Vec<u64>,
    pub(crate) shape: KeyswitchKeyShape,
}

impl LweKeyswitchKey {
    /// The key's dimensions and decomposition.
    pub fn shape(&self) -> KeyswitchKeyShape {
        self.shape
    }

    /// The size of the output ciphertexts.
    pub fn output_lwe_size(&self) -> LweSize {
        self.shape.output_lwe_dimension.to_lwe_size()
    }

    /// All coefficients.
    pub fn as_slice(&self) -> &[u64] {
        &self.data
    }
}

/// A keyswitching key stored as a seed and the bodies: about `n' + 1` times smaller.
/// [`SeededLweKeyswitchKey::decompress`] regenerates the masks from the seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeededLweKeyswitchKey {
    pub(crate) bodies: Vec<u64>,
    pub(crate) seed: Seed,
    pub(crate) shape: KeyswitchKeyShape,
}

impl SeededLweKeyswitchKey {
    /// The key's dimensions and decomposition.
    pub fn shape(&self) -> KeyswitchKeyShape {
        self.shape
    }

    /// The seed of the masks.
    pub fn seed(&self) -> Seed {
        self.seed
    }

    /// The bodies, one per ciphertext of the key.
    pub fn bodies(&self) -> &[u64] {
        &self.bodies
    }
}
