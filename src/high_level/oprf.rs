//! Oblivious pseudo-random values: [`FheUint::generate_oblivious_pseudo_random`]
//! and its bounded form, [`FheBool::generate_oblivious_pseudo_random`], with
//! TFHE-rs's names. The server computes them from a public [`Seed`]; nobody knows
//! the values without the client key (see [`crate::integer::oblivious_random`]: 2
//! bootstraps per block, in 2 layers).

use super::config::block_count;
use super::fhe_bool::FheBool;
use super::fhe_int::{FheInt, FheIntId};
use super::fhe_uint::{FheUint, FheUintId};
use super::global_state::current_server_key;
use super::operations::{run, single};
use super::storage::{Input, Storage};
use super::traits::expect_op;
use crate::error::{Error, Result};
use crate::integer;
use crate::scheduler::Blocks;
use crate::shortint::oprf_seed_blocks;
use std::sync::Arc;

/// The public seed of an oblivious pseudo-random value. The same seed gives the
/// same encrypted value (under one key, for one type); use a fresh one per value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub u128);

/// The storage of `bits` oblivious random bits on blocks for `width` bits, computed
/// with the current server key.
fn generate(seed: Seed, width: u32, bits: u32) -> Result<Storage> {
    let key = current_server_key()?;
    let params = *key.config().parameters();
    let count = block_count(&params, width);
    let seeds = Storage::Encrypted {
        tag: key.tag(),
        blocks: Blocks::Cpu(Arc::new(oprf_seed_blocks(&params, seed.0, count))),
    };
    let input = Input {
        storage: &seeds,
        bits: width,
    };
    single(run(&[input], |c, w| {
        Ok(vec![integer::oblivious_random(c, &w[0], bits)?])
    })?)
}

impl<Id: FheUintId> FheUint<Id> {
    /// A value uniform in `[0, 2^BITS)` that nobody knows without the client key,
    /// from the public `seed`; `Err` if there is no server key on this thread.
    pub fn try_generate_oblivious_pseudo_random(seed: Seed) -> Result<Self> {
        Self::try_generate_oblivious_pseudo_random_bounded(seed, u64::from(Id::BITS))
    }

    /// A value uniform in `[0, 2^BITS)` that nobody knows without the client key.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8, Seed};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
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
    pub fn generate_oblivious_pseudo_random(seed: Seed) -> Self {
        expect_op(
            Self::try_generate_oblivious_pseudo_random(seed),
            "generate_oblivious_pseudo_random",
        )
    }

    /// A value uniform in `[0, 2^random_bits_count)`; `Err` if the count exceeds
    /// `BITS` or there is no server key on this thread.
    pub fn try_generate_oblivious_pseudo_random_bounded(
        seed: Seed,
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
    #[track_caller]
    pub fn generate_oblivious_pseudo_random_bounded(seed: Seed, random_bits_count: u64) -> Self {
        expect_op(
            Self::try_generate_oblivious_pseudo_random_bounded(seed, random_bits_count),
            "generate_oblivious_pseudo_random_bounded",
        )
    }
}

impl<Id: FheIntId> FheInt<Id> {
    /// A value uniform over every value of the type (`[-2^(BITS-1), 2^(BITS-1))`)
    /// that nobody knows without the client key: uniform random bits, read as two's
    /// complement; `Err` if there is no server key on this thread.
    pub fn try_generate_oblivious_pseudo_random(seed: Seed) -> Result<Self> {
        FheUint::try_generate_oblivious_pseudo_random(seed).map(Self::from_inner)
    }

    /// A value uniform over every value of the type.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt8, Seed};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
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
    pub fn generate_oblivious_pseudo_random(seed: Seed) -> Self {
        expect_op(
            Self::try_generate_oblivious_pseudo_random(seed),
            "generate_oblivious_pseudo_random",
        )
    }

    /// A non-negative value uniform in `[0, 2^random_bits_count)`; `Err` unless
    /// `random_bits_count < BITS` (the sign bit stays clear), or if there is no
    /// server key on this thread.
    pub fn try_generate_oblivious_pseudo_random_bounded(
        seed: Seed,
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
    #[track_caller]
    pub fn generate_oblivious_pseudo_random_bounded(seed: Seed, random_bits_count: u64) -> Self {
        expect_op(
            Self::try_generate_oblivious_pseudo_random_bounded(seed, random_bits_count),
            "generate_oblivious_pseudo_random_bounded",
        )
    }
}

impl FheBool {
    /// A uniformly random boolean that nobody knows without the client key; `Err`
    /// if there is no server key on this thread.
    pub fn try_generate_oblivious_pseudo_random(seed: Seed) -> Result<Self> {
        generate(seed, 1, 1).map(Self::from_storage)
    }

    /// A uniformly random boolean that nobody knows without the client key.
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_generate_oblivious_pseudo_random`] fails.
    #[track_caller]
    pub fn generate_oblivious_pseudo_random(seed: Seed) -> Self {
        expect_op(
            Self::try_generate_oblivious_pseudo_random(seed),
            "generate_oblivious_pseudo_random",
        )
    }
}
