//! The seed blocks of oblivious pseudo-random integers (see
//! [`crate::integer::oblivious_random`]).

use super::{BlockInfo, Ciphertext, ShortintParameters};
use crate::core_crypto::LweCiphertextOwned;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// Domain separation of the seed blocks' generator from every other use of a seed.
const DOMAIN: &[u8; 16] = b"gpufhe-oprf-v1\0\0";

/// The bookkeeping of a seed block: any cell of the table's domain (its phase is
/// uniform), noise level 1.
///
/// ```
/// use gpufhe::shortint::{seed_block_info, DEFAULT_PARAMETERS};
/// let info = seed_block_info(&DEFAULT_PARAMETERS);
/// assert_eq!((info.degree, info.noise_level), (15, 1));
/// ```
pub fn seed_block_info(parameters: &ShortintParameters) -> BlockInfo {
    BlockInfo {
        degree: parameters.total_modulus() - 1,
        noise_level: 1,
    }
}

/// Domain separation of the key derived from a seed that is not 16 bytes long.
const BYTES_DOMAIN: &[u8; 32] = b"gpufhe-oprf-byte-seed-v1\0\0\0\0\0\0\0\0";

/// `count` seed blocks of `seed`: LWE ciphertexts under the big key with a mask drawn
/// from ChaCha20 keyed by the seed (the same bits on every machine) and a zero body,
/// so that their phases are uniform and unknown without the secret key. Their
/// bookkeeping is [`seed_block_info`]'s. Needs no key. The same as
/// [`oprf_seed_blocks_from_bytes`] on the 16 little-endian bytes of `seed`.
///
/// ```
/// use gpufhe::shortint::{oprf_seed_blocks, DEFAULT_PARAMETERS};
/// let a = oprf_seed_blocks(&DEFAULT_PARAMETERS, 42, 2);
/// let b = oprf_seed_blocks(&DEFAULT_PARAMETERS, 42, 2);
/// assert_eq!(a, b);
/// assert_ne!(a[0], a[1]);
/// ```
pub fn oprf_seed_blocks(params: &ShortintParameters, seed: u128, count: usize) -> Vec<Ciphertext> {
    oprf_seed_blocks_from_bytes(params, &seed.to_le_bytes(), count)
}

/// [`oprf_seed_blocks`] of a seed of any length. A 16-byte seed keys ChaCha20 as a
/// `u128` seed does (its bytes, then a domain constant). Any other seed is first
/// compressed into a 32-byte key: zero-padded to a multiple of 16 bytes, then
/// followed by a 16-byte block of its length in bytes (little-endian `u64`) and
/// the marker 1; starting from a domain constant, each 16-byte block `m` turns the
/// chaining value `h` into the first 32 bytes of the ChaCha20 block function keyed
/// by `h` at the position (counter and stream) `m` (a Merkle–Damgård chain whose
/// compression is the ChaCha20 block function with its feed-forward; the length
/// block makes the padding unambiguous). The key is then a ChaCha20 output, which
/// matches a 16-byte seed's key (whose second half is the domain constant) with
/// probability 2^-128.
///
/// ```
/// use gpufhe::shortint::{oprf_seed_blocks, oprf_seed_blocks_from_bytes, DEFAULT_PARAMETERS};
/// let p = &DEFAULT_PARAMETERS;
/// assert_eq!(oprf_seed_blocks_from_bytes(p, &42u128.to_le_bytes(), 1), oprf_seed_blocks(p, 42, 1));
/// let a = oprf_seed_blocks_from_bytes(p, b"session-42", 1);
/// assert_eq!(a, oprf_seed_blocks_from_bytes(p, b"session-42", 1));
/// assert_ne!(a, oprf_seed_blocks_from_bytes(p, b"session-42\0", 1));
/// ```
pub fn oprf_seed_blocks_from_bytes(
    params: &ShortintParameters,
    seed: &[u8],
    count: usize,
) -> Vec<Ciphertext> {
    let mut rng = ChaCha20Rng::from_seed(chacha_key_of(seed));
    let size = params.big_lwe_dimension().to_lwe_size().0;
    let info = seed_block_info(params);
    (0..count)
        .map(|_| {
            let mut data = vec![0u64; size];
            for x in &mut data[..size - 1] {
                *x = rng.next_u64();
            }
            let ct = LweCiphertextOwned::from_container(data).expect("a non-empty ciphertext");
            Ciphertext::from_parts(ct, info.degree, info.noise_level, params)
        })
        .collect()
}

/// The ChaCha20 key of the seed blocks of `seed` (see [`oprf_seed_blocks_from_bytes`]).
fn chacha_key_of(seed: &[u8]) -> [u8; 32] {
    let mut key = [0u8; 32];
    if let Ok(seed) = <&[u8; 16]>::try_from(seed) {
        key[..16].copy_from_slice(seed);
        key[16..].copy_from_slice(DOMAIN);
        return key;
    }
    let mut length = [0u8; 16];
    length[..8].copy_from_slice(&(seed.len() as u64).to_le_bytes());
    length[8] = 1;
    seed.chunks(16)
        .map(|chunk| {
            let mut block = [0u8; 16];
            block[..chunk.len()].copy_from_slice(chunk);
            block
        })
        .chain([length])
        .fold(*BYTES_DOMAIN, compress)
}

/// The first 32 bytes of the ChaCha20 block function keyed by `chain` at the
/// position `block` (its first 8 bytes the block counter, the last 8 the stream).
fn compress(chain: [u8; 32], block: [u8; 16]) -> [u8; 32] {
    let [counter, stream] = [&block[..8], &block[8..]]
        .map(|half| u64::from_le_bytes(half.try_into().unwrap_or_default()));
    let mut rng = ChaCha20Rng::from_seed(chain);
    rng.set_stream(stream);
    rng.set_word_pos(u128::from(counter) << 4);
    let mut out = [0u8; 32];
    rng.fill_bytes(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_byte_seeds_keep_their_key_and_others_are_separated() {
        let seed = 0x0123_4567_89ab_cdef_0011_2233_4455_6677u128;
        let key = chacha_key_of(&seed.to_le_bytes());
        assert_eq!(key[..16], seed.to_le_bytes());
        assert_eq!(&key[16..], DOMAIN);
        // Padding, length and chunk boundaries all change the key.
        let seeds: [&[u8]; 8] = [
            b"",
            &[0],
            &[0; 15],
            &[0; 17],
            &[0; 32],
            &[0; 33],
            b"session-42",
            b"session-43",
        ];
        let keys: Vec<[u8; 32]> = seeds.iter().map(|s| chacha_key_of(s)).collect();
        for (i, a) in keys.iter().enumerate() {
            assert_ne!(a[16..], DOMAIN[..]);
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(chacha_key_of(b"session-42"), keys[6]);
    }
}
