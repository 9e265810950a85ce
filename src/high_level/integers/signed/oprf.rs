//! Oblivious pseudo-random signed values (see `integers::unsigned::oprf`).

use super::base::{FheInt, FheIntId};
use crate::error::{Error, Result};
use crate::high_level::internals::expect_op;
use crate::high_level::seed::OprfSeed;
use crate::high_level::{FheUint, FheUintId};

impl<Id: FheIntId> FheInt<Id> {
    /// A value uniform over every value of the type (`[-2^(BITS-1), 2^(BITS-1))`)
    /// that nobody knows without the client key: uniform random bits, read as two's
    /// complement; `Err` if there is no server key on this thread.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheInt8, Seed};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let a = FheInt8::try_generate_oblivious_pseudo_random(Seed(3)).unwrap();
    /// let b = FheInt8::try_generate_oblivious_pseudo_random(Seed(3)).unwrap();
    /// let (a, b): (i8, i8) = (a.decrypt(&client_key), b.decrypt(&client_key));
    /// assert_eq!(a, b); // the same seed, the same value
    /// ```
    pub fn try_generate_oblivious_pseudo_random(seed: impl OprfSeed) -> Result<Self> {
        FheUint::try_generate_oblivious_pseudo_random(seed).map(Self::from_inner)
    }

    /// A value uniform over every value of the type.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheInt8, Seed};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let any = FheInt8::generate_oblivious_pseudo_random(Seed(5));
    /// let _: i8 = any.decrypt(&client_key);
    /// let small = FheInt8::generate_oblivious_pseudo_random_bounded(Seed(6), 3);
    /// assert!((0..8).contains(&FheDecrypt::<i8>::decrypt(&small, &client_key)));
    /// assert!(FheInt8::try_generate_oblivious_pseudo_random_bounded(Seed(7), 8).is_err());
    /// ```
    ///
    /// # Panics
    ///
    /// If [`FheInt::try_generate_oblivious_pseudo_random`] fails.
    #[track_caller]
    pub fn generate_oblivious_pseudo_random(seed: impl OprfSeed) -> Self {
        expect_op(
            Self::try_generate_oblivious_pseudo_random(seed),
            "generate_oblivious_pseudo_random",
        )
    }

    /// A non-negative value uniform in `[0, 2^random_bits_count)`; `Err` unless
    /// `random_bits_count < BITS` (the sign bit stays clear), or if there is no
    /// server key on this thread.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheInt8, Seed};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let x = FheInt8::try_generate_oblivious_pseudo_random_bounded(Seed(4), 3).unwrap();
    /// assert!((0..8).contains(&FheDecrypt::<i8>::decrypt(&x, &client_key)));
    /// ```
    pub fn try_generate_oblivious_pseudo_random_bounded(
        seed: impl OprfSeed,
        random_bits_count: u64,
    ) -> Result<Self> {
        if random_bits_count >= u64::from(Id::Unsigned::BITS) {
            return Err(Error::InvalidParameter(format!(
                "{random_bits_count} random bits leave no sign bit in {} ({} bits): at most {}",
                Id::NAME,
                Id::Unsigned::BITS,
                Id::Unsigned::BITS - 1
            )));
        }
        FheUint::try_generate_oblivious_pseudo_random_bounded(seed, random_bits_count)
            .map(Self::from_inner)
    }

    /// A non-negative value uniform in `[0, 2^random_bits_count)`.
    ///
    /// # Panics
    ///
    /// If [`FheInt::try_generate_oblivious_pseudo_random_bounded`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheInt8, Seed};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let x = FheInt8::generate_oblivious_pseudo_random_bounded(Seed(5), 2);
    /// assert!((0..4).contains(&FheDecrypt::<i8>::decrypt(&x, &client_key)));
    /// ```
    #[track_caller]
    pub fn generate_oblivious_pseudo_random_bounded(
        seed: impl OprfSeed,
        random_bits_count: u64,
    ) -> Self {
        expect_op(
            Self::try_generate_oblivious_pseudo_random_bounded(seed, random_bits_count),
            "generate_oblivious_pseudo_random_bounded",
        )
    }
}
