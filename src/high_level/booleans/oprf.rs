//! Oblivious pseudo-random booleans (see `integers::unsigned::oprf`).

use super::base::FheBool;
use crate::error::Result;
use crate::high_level::integers::unsigned::oprf::generate;
use crate::high_level::internals::expect_op;
use crate::high_level::seed::OprfSeed;

impl FheBool {
    /// A uniformly random boolean that nobody knows without the client key; `Err`
    /// if there is no server key on this thread.
    pub fn try_generate_oblivious_pseudo_random(seed: impl OprfSeed) -> Result<Self> {
        generate(seed, 1, 1).map(Self::from_storage)
    }

    /// A uniformly random boolean that nobody knows without the client key.
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_generate_oblivious_pseudo_random`] fails.
    #[track_caller]
    pub fn generate_oblivious_pseudo_random(seed: impl OprfSeed) -> Self {
        expect_op(
            Self::try_generate_oblivious_pseudo_random(seed),
            "generate_oblivious_pseudo_random",
        )
    }
}
