//! Oblivious pseudo-random booleans (see `integers::unsigned::oprf`).

use super::base::FheBool;
use crate::error::Result;
use crate::high_level::integers::unsigned::oprf::generate;
use crate::high_level::internals::expect_op;
use crate::high_level::seed::OprfSeed;

impl FheBool {
    /// A uniformly random boolean that nobody knows without the client key; `Err`
    /// if there is no server key on this thread.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheBool, Seed};
    /// // No server key on this thread: an Err, not a panic.
    /// assert!(FheBool::try_generate_oblivious_pseudo_random(Seed(1)).is_err());
    /// ```
    pub fn try_generate_oblivious_pseudo_random(seed: impl OprfSeed) -> Result<Self> {
        generate(seed, 1, 1).map(Self::from_storage)
    }

    /// A uniformly random boolean that nobody knows without the client key.
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_generate_oblivious_pseudo_random`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheBool, Seed};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let a = FheBool::generate_oblivious_pseudo_random(Seed(6));
    /// let b = FheBool::generate_oblivious_pseudo_random(Seed(6));
    /// assert_eq!(a.decrypt(&client_key), b.decrypt(&client_key));
    /// ```
    #[track_caller]
    pub fn generate_oblivious_pseudo_random(seed: impl OprfSeed) -> Self {
        expect_op(
            Self::try_generate_oblivious_pseudo_random(seed),
            "generate_oblivious_pseudo_random",
        )
    }
}
