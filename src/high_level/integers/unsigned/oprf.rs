//! Oblivious pseudo-random values: [`FheUint::generate_oblivious_pseudo_random`]
//! and its bounded form, [`FheBool::generate_oblivious_pseudo_random`], with
//! TFHE-rs's names. The server computes them from a public [`Seed`]; nobody knows
//! the values without the client key (see [`crate::integer::oblivious_random`]: 2
//! bootstraps per block, in 2 layers).

use super::base::{FheUint, FheUintId};
use crate::error::{Error, Result};
use crate::high_level::config::block_count;
use crate::high_level::global_state::current_server_key;
use crate::high_level::internals::circuit::{run, single};
use crate::high_level::internals::expect_op;
use crate::high_level::internals::storage::{Input, Storage};
use crate::high_level::seed::OprfSeed;
use crate::integer;
use crate::scheduler::Blocks;
use crate::shortint::oprf_seed_blocks_from_bytes;
use std::num::NonZeroU64;
use std::sync::Arc;

/// The storage of `bits` oblivious random bits on blocks for `width` bits, computed
/// with the current server key.
pub(crate) fn generate(seed: impl OprfSeed, width: u32, bits: u32) -> Result<Storage> {
    generate_with(seed, width, |c, seeds| {
        integer::oblivious_random(c, seeds, bits)
    })
}

/// The storage of `build` on `seed_bits / block bits` seed blocks (rounded up) of
/// `seed`, computed with the current server key.
pub(crate) fn generate_with(
    seed: impl OprfSeed,
    seed_bits: u32,
    build: impl FnOnce(&mut integer::Circuit, &[integer::Wire]) -> Result<integer::Radix>,
) -> Result<Storage> {
    let key = current_server_key()?;
    let params = *key.config().parameters();
    let count = block_count(&params, seed_bits);
    let seeds = Storage::Encrypted {
        tag: key.tag(),
        blocks: Blocks::Cpu(Arc::new(oprf_seed_blocks_from_bytes(
            &params,
            seed.into_bytes().as_ref(),
            count,
        ))),
    };
    let input = Input {
        storage: &seeds,
        bits: seed_bits,
    };
    single(run(&[input], |c, w| Ok(vec![build(c, &w[0])?]))?)
}

/// The range of [`FheUint::generate_oblivious_pseudo_random_custom_range`]:
/// `[0, excluded_upper_bound)` (TFHE-rs's type of the same name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RangeForRandom {
    excluded_upper_bound: NonZeroU64,
}

impl RangeForRandom {
    /// The range `[0, excluded_upper_bound)`.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, RangeForRandom, Seed};
    /// use std::num::NonZeroU64;
    /// let range = RangeForRandom::new_from_excluded_upper_bound(NonZeroU64::new(10).unwrap());
    /// assert_eq!(range.excluded_upper_bound().get(), 10);
    /// ```
    pub fn new_from_excluded_upper_bound(excluded_upper_bound: NonZeroU64) -> Self {
        Self {
            excluded_upper_bound,
        }
    }

    /// The excluded upper bound.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, RangeForRandom, Seed};
    /// use std::num::NonZeroU64;
    /// let range = RangeForRandom::new_from_excluded_upper_bound(NonZeroU64::new(3).unwrap());
    /// assert_eq!(range.excluded_upper_bound(), NonZeroU64::new(3).unwrap());
    /// ```
    pub fn excluded_upper_bound(&self) -> NonZeroU64 {
        self.excluded_upper_bound
    }
}

impl<Id: FheUintId> FheUint<Id> {
    /// A value uniform in `[0, 2^BITS)` that nobody knows without the client key,
    /// from the public `seed`; `Err` if there is no server key on this thread.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, RangeForRandom, Seed};
    /// use std::num::NonZeroU64;
    /// // No server key on this thread: an Err, not a panic.
    /// assert!(FheUint8::try_generate_oblivious_pseudo_random(Seed(7)).is_err());
    /// ```
    pub fn try_generate_oblivious_pseudo_random(seed: impl OprfSeed) -> Result<Self> {
        Self::try_generate_oblivious_pseudo_random_bounded(seed, u64::from(Id::BITS))
    }

    /// A value uniform in `[0, 2^BITS)` that nobody knows without the client key.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, Seed};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let a = FheUint8::generate_oblivious_pseudo_random(Seed(1));
    /// let b = FheUint8::generate_oblivious_pseudo_random(Seed(1));
    /// let (a, b): (u8, u8) = (a.decrypt(&client_key), b.decrypt(&client_key));
    /// assert_eq!(a, b); // the same seed, the same value
    /// let small = FheUint8::generate_oblivious_pseudo_random_bounded(Seed(2), 3);
    /// assert!(FheDecrypt::<u8>::decrypt(&small, &client_key) < 8);
    /// ```
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_generate_oblivious_pseudo_random`] fails.
    #[track_caller]
    pub fn generate_oblivious_pseudo_random(seed: impl OprfSeed) -> Self {
        expect_op(
            Self::try_generate_oblivious_pseudo_random(seed),
            "generate_oblivious_pseudo_random",
        )
    }

    /// A value uniform in `[0, 2^random_bits_count)`; `Err` if the count exceeds
    /// `BITS` or there is no server key on this thread.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, RangeForRandom, Seed};
    /// use std::num::NonZeroU64;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let x = FheUint8::try_generate_oblivious_pseudo_random_bounded(Seed(7), 3).unwrap();
    /// assert!(FheDecrypt::<u8>::decrypt(&x, &client_key) < 8);
    /// assert!(FheUint8::try_generate_oblivious_pseudo_random_bounded(Seed(7), 9).is_err());
    /// ```
    pub fn try_generate_oblivious_pseudo_random_bounded(
        seed: impl OprfSeed,
        random_bits_count: u64,
    ) -> Result<Self> {
        if random_bits_count > u64::from(Id::BITS) {
            return Err(Error::InvalidParameter(format!(
                "{random_bits_count} random bits do not fit in {} ({} bits)",
                Id::NAME,
                Id::BITS
            )));
        }
        generate(seed, Id::BITS, random_bits_count as u32).map(Self::from_storage)
    }

    /// A value uniform in `[0, 2^random_bits_count)`.
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_generate_oblivious_pseudo_random_bounded`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, RangeForRandom, Seed};
    /// use std::num::NonZeroU64;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let x = FheUint8::generate_oblivious_pseudo_random_bounded(Seed(8), 1);
    /// assert!(FheDecrypt::<u8>::decrypt(&x, &client_key) < 2);
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

impl<Id: FheUintId> FheUint<Id> {
    /// A value in `range` that nobody knows without the client key, from the public
    /// `seed`, whose distance to the uniform distribution is below `max_distance`
    /// (2^-128 when `None`), as TFHE-rs defines it: a power-of-two bound is
    /// [`FheUint::generate_oblivious_pseudo_random_bounded`]; another bound `B` scales
    /// `k` uniform bits, `floor(r B / 2^k)`, with the fewest whole blocks of bits `k`
    /// that reach the distance (about `log2(B) - log2(max_distance)`). `Err` if the
    /// range does not fit in the type, `max_distance` is not in `(0, 1)`, or there is
    /// no server key on this thread.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, RangeForRandom, Seed};
    /// use std::num::NonZeroU64;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let range = RangeForRandom::new_from_excluded_upper_bound(NonZeroU64::new(10).unwrap());
    /// let x = FheUint8::try_generate_oblivious_pseudo_random_custom_range(Seed(9), &range, Some(0.01)).unwrap();
    /// assert!(FheDecrypt::<u8>::decrypt(&x, &client_key) < 10);
    /// ```
    pub fn try_generate_oblivious_pseudo_random_custom_range(
        seed: impl OprfSeed,
        range: &RangeForRandom,
        max_distance: Option<f64>,
    ) -> Result<Self> {
        let bound = range.excluded_upper_bound.get();
        if bound.is_power_of_two() {
            return Self::try_generate_oblivious_pseudo_random_bounded(
                seed,
                u64::from(bound.ilog2()),
            );
        }
        let max_distance = max_distance.unwrap_or(2f64.powi(-128));
        let key = current_server_key()?;
        let params = *key.config().parameters();
        let block_bits = params.message_modulus.trailing_zeros();
        let bits = integer::random_bits_for_distance(bound, max_distance, block_bits)
            .ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "a distance to uniform of {max_distance} cannot be reached: it must be in (0, 1)"
                ))
            })?;
        let out_blocks = block_count(&params, Id::BITS);
        generate_with(seed, bits, |c, seeds| {
            integer::oblivious_random_below(c, seeds, bits, bound, out_blocks)
        })
        .map(Self::from_storage)
    }

    /// A value in `range` (see
    /// [`FheUint::try_generate_oblivious_pseudo_random_custom_range`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheUint8, RangeForRandom, Seed};
    /// use std::num::NonZeroU64;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let range = RangeForRandom::new_from_excluded_upper_bound(NonZeroU64::new(6).unwrap());
    /// let die = FheUint8::generate_oblivious_pseudo_random_custom_range(Seed(3), &range, Some(1e-6));
    /// assert!(FheDecrypt::<u8>::decrypt(&die, &client_key) < 6);
    /// ```
    ///
    /// # Panics
    ///
    /// If [`FheUint::try_generate_oblivious_pseudo_random_custom_range`] fails.
    #[track_caller]
    pub fn generate_oblivious_pseudo_random_custom_range(
        seed: impl OprfSeed,
        range: &RangeForRandom,
        max_distance: Option<f64>,
    ) -> Self {
        expect_op(
            Self::try_generate_oblivious_pseudo_random_custom_range(seed, range, max_distance),
            "generate_oblivious_pseudo_random_custom_range",
        )
    }
}
