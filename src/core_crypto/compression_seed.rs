//! The public mask stream of seeded (compressed) keys and ciphertexts: TFHE-rs's
//! AES-128 in counter mode (tfhe-csprng), so that a TFHE-rs compressed key expands
//! to the same masks in gpufhe and the reverse.
//!
//! A [`CompressionSeed`] is TFHE-rs's `CompressionSeed` with a `Ctr` seed kind: a
//! 128-bit AES key and the position of the first byte in the stream (block
//! `first_aes_index`, byte `first_byte_index` of that block). Block `i` of the stream
//! is `AES_seed(LE16(i))`; each mask coefficient is the next 8 bytes, little endian,
//! with no gaps, in the order of the entity's data (keyswitching key: ciphertext
//! after ciphertext; bootstrap key: GGSW, level in stored order, row, then the `k`
//! mask polynomials).

use crate::error::{Error, Result};
use rand_core::{OsRng, TryRngCore};
use serde::{Deserialize, Serialize};
use tfhe_csprng::generators::aes_ctr::{AesCtrParams, AesIndex, ByteIndex, TableIndex};
use tfhe_csprng::generators::{RandomGenerator, SoftwareRandomGenerator};
use tfhe_csprng::seeders::{Seed as CtrSeed, SeedKind};

/// The seed of the masks of a seeded key or ciphertext list (public: it replaces
/// the masks): TFHE-rs's `CompressionSeed` of kind `Ctr`, an AES-128 key and the
/// first byte of the stream the masks start at. TFHE-rs's compressed keys and
/// ciphertexts start at byte 0 of block 0 ([`CompressionSeed::new`]).
///
/// ```
/// use gpufhe::core_crypto::CompressionSeed;
/// let seed = CompressionSeed::new(42);
/// assert_eq!((seed.seed(), seed.first_aes_index(), seed.first_byte_index()), (42, 0, 0));
/// // TFHE-rs's old seeds start one byte into the stream.
/// let second = CompressionSeed::with_first_index(42, 0, 1).unwrap();
/// assert_eq!(second.first_byte_index(), 1);
/// // A block has 16 bytes.
/// assert!(CompressionSeed::with_first_index(42, 0, 16).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct CompressionSeed {
    seed: u128,
    first_aes_index: u128,
    first_byte_index: u64,
}

/// The largest first AES block index a seed may name: half of the counter space,
/// so that no entity (at most 2^64 bytes of masks) runs past its end.
const MAX_FIRST_AES_INDEX: u128 = u128::MAX >> 1;

impl CompressionSeed {
    /// The stream of AES key `seed` from its first byte (TFHE-rs's
    /// `CompressionSeed::from(Seed(seed))`).
    pub const fn new(seed: u128) -> Self {
        Self {
            seed,
            first_aes_index: 0,
            first_byte_index: 0,
        }
    }

    /// The stream of AES key `seed` from byte `first_byte_index` of block
    /// `first_aes_index`; `Err` unless `first_byte_index < 16` and
    /// `first_aes_index < 2^127`.
    pub fn with_first_index(
        seed: u128,
        first_aes_index: u128,
        first_byte_index: usize,
    ) -> Result<Self> {
        if first_byte_index >= 16 || first_aes_index > MAX_FIRST_AES_INDEX {
            return Err(Error::InvalidParameter(format!(
                "a compression seed's first index (block {first_aes_index}, byte \
                 {first_byte_index}) must have a byte index below 16 and a block index \
                 below 2^127"
            )));
        }
        Ok(Self {
            seed,
            first_aes_index,
            first_byte_index: first_byte_index as u64,
        })
    }

    /// A fresh seed drawn from the operating system, starting at the first byte.
    ///
    /// ```
    /// use gpufhe::core_crypto::CompressionSeed;
    /// assert_ne!(CompressionSeed::from_os().unwrap(), CompressionSeed::from_os().unwrap());
    /// ```
    pub fn from_os() -> Result<Self> {
        let mut bytes = [0u8; 16];
        OsRng
            .try_fill_bytes(&mut bytes)
            .map_err(|e| Error::InvalidParameter(format!("the OS random source failed: {e}")))?;
        Ok(Self::new(u128::from_le_bytes(bytes)))
    }

    /// The seed of the same stream `words` 64-bit words further: the seed of
    /// ciphertext `i` of a list whose masks (`n` words each) are drawn one after the
    /// other is `list_seed.after_words(i * n)` (TFHE-rs gives each seeded ciphertext
    /// its own seed); `Err` if the first block would pass 2^127.
    ///
    /// ```
    /// use gpufhe::core_crypto::CompressionSeed;
    /// let third = CompressionSeed::new(9).after_words(2 * 918).unwrap();
    /// // 2 * 918 * 8 = 14688 bytes = 918 blocks of 16 bytes.
    /// assert_eq!((third.seed(), third.first_aes_index(), third.first_byte_index()), (9, 918, 0));
    /// let odd = CompressionSeed::new(9).after_words(1).unwrap();
    /// assert_eq!((odd.first_aes_index(), odd.first_byte_index()), (0, 8));
    /// ```
    pub fn after_words(&self, words: u64) -> Result<Self> {
        let bytes = u128::from(self.first_byte_index) + 8 * u128::from(words);
        let aes = self.first_aes_index.saturating_add(bytes / 16);
        Self::with_first_index(self.seed, aes, (bytes % 16) as usize)
    }

    /// The AES-128 key, as TFHE-rs's `Seed(u128)` (key bytes: its little-endian bytes).
    pub fn seed(&self) -> u128 {
        self.seed
    }

    /// The AES block of the first byte of the stream.
    pub fn first_aes_index(&self) -> u128 {
        self.first_aes_index
    }

    /// The byte of that block the stream starts at (0 to 15).
    pub fn first_byte_index(&self) -> usize {
        self.first_byte_index as usize
    }
}

impl From<u128> for CompressionSeed {
    fn from(seed: u128) -> Self {
        Self::new(seed)
    }
}

thread_local! {
    /// Whether the bytes being read on this thread were written by a gpufhe whose
    /// seeded masks came from a 32-byte ChaCha20 seed (format versions 1 and 2).
    static READING_CHACHA_SEEDS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with [`CompressionSeed`]'s deserialization reading the 32-byte seeds of
/// older gpufhe files (and refusing them) when `legacy`; restored afterwards.
pub(crate) fn with_legacy_seeds<R>(legacy: bool, f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            READING_CHACHA_SEEDS.with(|v| v.set(self.0));
        }
    }
    let _restore = Restore(READING_CHACHA_SEEDS.with(|v| v.replace(legacy)));
    f()
}

#[derive(Deserialize)]
struct CompressionSeedParts {
    seed: u128,
    first_aes_index: u128,
    first_byte_index: u64,
}

impl<'de> Deserialize<'de> for CompressionSeed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use serde::de::Error as _;
        if READING_CHACHA_SEEDS.with(|v| v.get()) {
            <[u8; 32]>::deserialize(d)?;
            return Err(D::Error::custom(
                "this seeded (compressed) value was written by an older gpufhe whose seeded \
                 masks came from a ChaCha20 seed; gpufhe now draws them as TFHE-rs does \
                 (AES-128-CTR) and cannot expand it: regenerate the key or re-encrypt the \
                 value with this version",
            ));
        }
        let p = CompressionSeedParts::deserialize(d)?;
        let byte = usize::try_from(p.first_byte_index).unwrap_or(usize::MAX);
        Self::with_first_index(p.seed, p.first_aes_index, byte).map_err(D::Error::custom)
    }
}

/// The AES-CTR byte stream of a [`CompressionSeed`], with hardware AES where the CPU
/// has it.
enum AesStream {
    #[cfg(target_arch = "x86_64")]
    Aesni(tfhe_csprng::generators::AesniRandomGenerator),
    Software(SoftwareRandomGenerator),
}

/// The mask generator: the stream of a seed, at a known byte offset from its first
/// byte so that it can be forked anywhere.
pub(crate) struct MaskGenerator {
    seed: CompressionSeed,
    /// Bytes drawn since the seed's first byte.
    offset: u128,
    stream: AesStream,
}

impl MaskGenerator {
    /// The stream of `seed`, `offset` bytes after its first byte.
    pub(crate) fn at(seed: CompressionSeed, offset: u128) -> Self {
        let first = TableIndex::new(
            AesIndex(seed.first_aes_index),
            ByteIndex(seed.first_byte_index as usize),
        )
        .increased(offset);
        let params = AesCtrParams {
            seed: SeedKind::Ctr(CtrSeed(seed.seed)),
            first_index: first,
        };
        #[cfg(target_arch = "x86_64")]
        let stream = if std::arch::is_x86_feature_detected!("aes")
            && std::arch::is_x86_feature_detected!("sse2")
        {
            AesStream::Aesni(tfhe_csprng::generators::AesniRandomGenerator::new(params))
        } else {
            AesStream::Software(SoftwareRandomGenerator::new(params))
        };
        #[cfg(not(target_arch = "x86_64"))]
        let stream = AesStream::Software(SoftwareRandomGenerator::new(params));
        Self {
            seed,
            offset,
            stream,
        }
    }

    /// The same stream `words` 64-bit words further; this one does not move.
    pub(crate) fn fork_after(&self, words: u64) -> Self {
        Self::at(self.seed, self.offset + 8 * u128::from(words))
    }

    /// Moves past `words` 64-bit words.
    pub(crate) fn skip(&mut self, words: u64) {
        *self = self.fork_after(words);
    }

    /// Fills `out` with the next words of the stream, 8 bytes little endian each.
    pub(crate) fn fill(&mut self, out: &mut [u64]) {
        fn fill_from(bytes: &mut impl Iterator<Item = u8>, out: &mut [u64]) {
            for x in out {
                let mut word = [0u8; 8];
                for b in &mut word {
                    // The seed's first block is below 2^127 and no entity draws 2^64
                    // bytes: the stream never reaches its end.
                    *b = bytes.next().expect("the AES-CTR stream has bytes left");
                }
                *x = u64::from_le_bytes(word);
            }
        }
        match &mut self.stream {
            #[cfg(target_arch = "x86_64")]
            AesStream::Aesni(g) => fill_from(g, out),
            AesStream::Software(g) => fill_from(g, out),
        }
        self.offset += 8 * out.len() as u128;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_words_are_the_little_endian_words_of_aes_ctr_from_the_first_index() {
        // AES-128 of the zero block under the zero key is 66e94bd4ef8a2c3b...
        let mut zero = MaskGenerator::at(CompressionSeed::new(0), 0);
        let mut first = [0u64; 2];
        zero.fill(&mut first);
        assert_eq!(first, [0x3b2c_8aef_d44b_e966, 0x2e2b_34ca_59fa_4c88]);

        // Against tfhe-csprng's own generator from block 0: words at byte offsets
        // 5 * 16 + 3 + 8 j.
        let key = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
        let stream: Vec<u8> = SoftwareRandomGenerator::new(CtrSeed(key))
            .take(16 * 9)
            .collect();
        let seed = CompressionSeed::with_first_index(key, 5, 3).unwrap();
        let mut g = MaskGenerator::at(seed, 0);
        let mut words = [0u64; 6];
        g.fill(&mut words);
        for (j, w) in words.iter().enumerate() {
            let at = 5 * 16 + 3 + 8 * j;
            assert_eq!(
                *w,
                u64::from_le_bytes(stream[at..at + 8].try_into().unwrap())
            );
        }
        // A fork lands where drawing in order lands.
        let mut fork = MaskGenerator::at(seed, 0).fork_after(4);
        let mut tail = [0u64; 2];
        fork.fill(&mut tail);
        assert_eq!(tail, words[4..]);
        // So does a seed moved forward.
        let mut moved = MaskGenerator::at(seed.after_words(3).unwrap(), 0);
        let mut tail = [0u64; 3];
        moved.fill(&mut tail);
        assert_eq!(tail, words[3..]);
        assert!(CompressionSeed::with_first_index(key, u128::MAX, 0).is_err());
    }
}
