//! Public seeds: [`Seed`] (TFHE-rs's 128-bit seed: of client keys drawn from a
//! seed, of oblivious pseudo-random values) and the [`OprfSeed`] trait of what the
//! pseudo-random generators take.

use serde::{Deserialize, Serialize};

/// A public 128-bit seed (TFHE-rs's `Seed`): of a client key drawn
/// deterministically ([`crate::ClientKey::generate_with_seed`]), or of an oblivious
/// pseudo-random value, where the same seed gives the same encrypted value (under
/// one key, for one type): use a fresh one per value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seed(pub u128);

/// What the pseudo-random generators take as a seed: a [`Seed`] (its 16
/// little-endian bytes) or bytes of any length (`&[u8]`, `&Vec<u8>`, `Vec<u8>`).
/// A 16-byte seed gives the value of the `Seed` of those bytes; any other length is
/// compressed into a key first (see
/// [`oprf_seed_blocks_from_bytes`](crate::shortint::oprf_seed_blocks_from_bytes)).
///
/// ```
/// use gpufhe::{OprfSeed, Seed};
/// assert_eq!(Seed(1).into_bytes(), [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// assert_eq!(b"abc".as_slice().into_bytes(), b"abc");
/// ```
pub trait OprfSeed {
    /// The bytes of the seed.
    type Bytes: AsRef<[u8]>;

    /// The bytes of the seed.
    fn into_bytes(self) -> Self::Bytes;
}

impl OprfSeed for Seed {
    type Bytes = [u8; 16];

    fn into_bytes(self) -> [u8; 16] {
        self.0.to_le_bytes()
    }
}

impl<'a> OprfSeed for &'a [u8] {
    type Bytes = &'a [u8];

    fn into_bytes(self) -> &'a [u8] {
        self
    }
}

impl<'a> OprfSeed for &'a Vec<u8> {
    type Bytes = &'a [u8];

    fn into_bytes(self) -> &'a [u8] {
        self
    }
}

impl OprfSeed for Vec<u8> {
    type Bytes = Vec<u8>;

    fn into_bytes(self) -> Vec<u8> {
        self
    }
}
