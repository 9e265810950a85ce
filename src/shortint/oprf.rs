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

/// `count` seed blocks of `seed`: LWE ciphertexts under the big key with a mask drawn
/// from ChaCha20 keyed by the seed (the same bits on every machine) and a zero body,
/// so that their phases are uniform and unknown without the secret key. Their
/// bookkeeping is [`seed_block_info`]'s. Needs no key.
///
/// ```
/// use gpufhe::shortint::{oprf_seed_blocks, DEFAULT_PARAMETERS};
/// let a = oprf_seed_blocks(&DEFAULT_PARAMETERS, 42, 2);
/// let b = oprf_seed_blocks(&DEFAULT_PARAMETERS, 42, 2);
/// assert_eq!(a, b);
/// assert_ne!(a[0], a[1]);
/// ```
pub fn oprf_seed_blocks(params: &ShortintParameters, seed: u128, count: usize) -> Vec<Ciphertext> {
    let mut key = [0u8; 32];
    key[..16].copy_from_slice(&seed.to_le_bytes());
    key[16..].copy_from_slice(DOMAIN);
    let mut rng = ChaCha20Rng::from_seed(key);
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
