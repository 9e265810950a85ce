//! TFHE-rs's classical public key of blocks: [`ClassicalPublicKey`], LWE encryptions
//! of zero under the client key's big key, and [`CompressedClassicalPublicKey`],
//! their bodies and the [`CompressionSeed`] of their masks (TFHE-rs's AES-CTR
//! stream, masks one after the other). A block is encrypted as the sum of a random
//! subset of the encryptions of zero, plus the encoded message on the body
//! (TFHE-rs's encryption with a public key).

use super::{Ciphertext, ClientKey, ShortintParameters};
use crate::core_crypto::{
    encrypt_seeded_lwe_ciphertext_list, CompressionSeed, EncryptionRandomGenerator,
    LweCiphertextOwned, SecretRandomGenerator, SeededLweCiphertextList,
};
use crate::error::{Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// TFHE-rs's number of encryptions of zero of a key of LWE size `lwe_size`:
/// `lwe_size * 64 + 128`.
pub(crate) fn zero_encryption_count(lwe_size: usize) -> usize {
    lwe_size.saturating_mul(64).saturating_add(128)
}

/// `Err` unless `p` is valid and `count` encryptions of zero of its big key take
/// `words` words (at least one encryption).
fn check_shape(p: &ShortintParameters, words: usize, what: &str) -> Result<usize> {
    p.validate()?;
    let size = p.big_lwe_dimension().0 + 1;
    if words == 0 || words % size != 0 {
        return Err(Error::InvalidParameter(format!(
            "a {what} of {words} words, not whole encryptions of zero of LWE size {size}"
        )));
    }
    Ok(words / size)
}

/// LWE encryptions of zero under a client key's big key, which encrypt blocks of its
/// parameters without the secret (TFHE-rs's `shortint::PublicKey`): `(k N + 1) *
/// 64 + 128` of them, `(k N + 1)` words each (2.15 GB on the default parameters).
///
/// ```
/// use gpufhe::shortint::{ClassicalPublicKey, ClientKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS)?;
/// let pk = ClassicalPublicKey::new(&ck)?;
/// assert_eq!(ck.decrypt(&pk.encrypt(3)?)?, 3);
/// assert!(pk.encrypt(4).is_err()); // 2 message bits
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ClassicalParts")]
pub struct ClassicalPublicKey {
    parameters: ShortintParameters,
    data: Vec<u64>,
}

/// A [`ClassicalPublicKey`] as read, before its checks.
#[derive(Deserialize)]
struct ClassicalParts {
    parameters: ShortintParameters,
    data: Vec<u64>,
}

impl TryFrom<ClassicalParts> for ClassicalPublicKey {
    type Error = Error;

    fn try_from(parts: ClassicalParts) -> Result<Self> {
        Self::from_parts(parts.parameters, parts.data)
    }
}

impl ClassicalPublicKey {
    /// The public key of `client_key` (masks from the operating system's random
    /// source); `Err` if it fails.
    ///
    /// ```
    /// use gpufhe::shortint::{ClassicalPublicKey, ClientKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS)?;
    /// let pk = ClassicalPublicKey::new(&ck)?;
    /// assert_eq!(ck.decrypt(&pk.encrypt(2)?)?, 2);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn new(client_key: &ClientKey) -> Result<Self> {
        let seeded = CompressedClassicalPublicKey::new(client_key)?;
        seeded.decompress()
    }

    /// The key of these encryptions of zero, back to back; `Err` unless they are
    /// whole ciphertexts of the parameters' big key.
    pub(crate) fn from_parts(parameters: ShortintParameters, data: Vec<u64>) -> Result<Self> {
        check_shape(&parameters, data.len(), "public key")?;
        Ok(Self { parameters, data })
    }

    /// The parameters of the blocks it encrypts.
    ///
    /// ```
    /// use gpufhe::shortint::{ClassicalPublicKey, ClientKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS)?;
    /// let pk = ClassicalPublicKey::new(&ck)?;
    /// assert_eq!(pk.parameters(), ck.parameters());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The encryptions of zero, back to back (mask, then body).
    pub(crate) fn words(&self) -> &[u64] {
        &self.data
    }

    /// A block of `message` (in `[0, message_modulus)`, the carries empty); `Err`
    /// if it does not fit or the operating system's random source fails.
    ///
    /// ```
    /// use gpufhe::shortint::{ClassicalPublicKey, ClientKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS)?;
    /// let pk = ClassicalPublicKey::new(&ck)?;
    /// assert_eq!(ck.decrypt(&pk.encrypt(3)?)?, 3);
    /// assert!(pk.encrypt(4).is_err());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn encrypt(&self, message: u64) -> Result<Ciphertext> {
        first_block(self.encrypt_many(&[message]))
    }

    /// A block of each of `messages`, in one pass over the key (each block the
    /// sum of its own random subset).
    ///
    /// ```
    /// use gpufhe::shortint::{ClassicalPublicKey, ClientKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS)?;
    /// let pk = ClassicalPublicKey::new(&ck)?;
    /// let blocks = pk.encrypt_many(&[0, 1, 2, 3])?;
    /// let clear: Vec<u64> = blocks.iter().map(|b| ck.decrypt(b)).collect::<Result<_, _>>()?;
    /// assert_eq!(clear, vec![0, 1, 2, 3]);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn encrypt_many(&self, messages: &[u64]) -> Result<Vec<Ciphertext>> {
        let size = self.parameters.big_lwe_dimension().0 + 1;
        let count = self.data.len() / size;
        let subsets = random_subsets(count, messages.len())?;
        let sums = subset_sums(size, count, &subsets, |first, out, add| {
            for (i, ct) in self.data[first * size..]
                .chunks_exact(size)
                .take(out)
                .enumerate()
            {
                add(first + i, ct);
            }
        });
        blocks(&self.parameters, sums, messages)
    }
}

/// The first of `blocks`.
fn first_block(blocks: Result<Vec<Ciphertext>>) -> Result<Ciphertext> {
    blocks?
        .pop()
        .ok_or_else(|| Error::InvalidParameter("no block encrypted".into()))
}

/// `subsets` random subsets of `count` encryptions of zero, from the operating
/// system: bit `i % 64` of word `i / 64` says whether encryption `i` is in.
fn random_subsets(count: usize, subsets: usize) -> Result<Vec<Vec<u64>>> {
    let mut rng = SecretRandomGenerator::from_os()?;
    let mut bits = [0u64; 64];
    Ok((0..subsets)
        .map(|_| {
            (0..count.div_ceil(64))
                .map(|_| {
                    rng.fill_binary(&mut bits);
                    bits.iter().rev().fold(0u64, |word, &b| (word << 1) | b)
                })
                .collect()
        })
        .collect())
}

/// The number of encryptions of zero summed by one rayon task.
const SUM_CHUNK: usize = 512;

/// Adds `b` to `a`, word by word.
fn add_assign(a: &mut [u64], b: &[u64]) {
    a.iter_mut()
        .zip(b)
        .for_each(|(x, &y)| *x = x.wrapping_add(y));
}

/// For each subset, the sum (words of `size`) of the `count` encryptions of zero in
/// it: `visit(first, n, add)` calls `add(i, ciphertext)` for the `n` ciphertexts
/// from `first` in order, on the rayon pool (each visited once for all subsets).
fn subset_sums(
    size: usize,
    count: usize,
    subsets: &[Vec<u64>],
    visit: impl Fn(usize, usize, &mut dyn FnMut(usize, &[u64])) + Sync,
) -> Vec<Vec<u64>> {
    let zero = || vec![vec![0u64; size]; subsets.len()];
    (0..count.div_ceil(SUM_CHUNK))
        .into_par_iter()
        .map(|c| {
            let first = c * SUM_CHUNK;
            let mut sums = zero();
            visit(first, SUM_CHUNK.min(count - first), &mut |i, ct| {
                for (sum, subset) in sums.iter_mut().zip(subsets) {
                    if (subset[i / 64] >> (i % 64)) & 1 == 1 {
                        add_assign(sum, ct);
                    }
                }
            });
            sums
        })
        .reduce(zero, |mut a, b| {
            a.iter_mut().zip(&b).for_each(|(x, y)| add_assign(x, y));
            a
        })
}

/// The blocks of `messages` from encryptions of zero `zeros` of parameters `p`.
fn blocks(
    p: &ShortintParameters,
    zeros: Vec<Vec<u64>>,
    messages: &[u64],
) -> Result<Vec<Ciphertext>> {
    let degree = p.message_modulus - 1;
    zeros
        .into_iter()
        .zip(messages)
        .map(|(mut zero, &message)| {
            if message > degree {
                return Err(Error::InvalidParameter(format!(
                    "cannot encrypt {message} in a block whose values go up to {degree}"
                )));
            }
            if let Some(body) = zero.last_mut() {
                *body = body.wrapping_add(message * p.delta());
            }
            Ok(Ciphertext::from_parts(
                LweCiphertextOwned::from_container(zero)?,
                degree,
                1,
                p,
            ))
        })
        .collect()
}

/// A [`ClassicalPublicKey`] stored as the bodies of its encryptions of zero and the
/// seed of their masks (TFHE-rs's `shortint::CompressedPublicKey`): `(k N + 1)`
/// times smaller, about 1 MB on the default parameters. It encrypts directly,
/// regenerating the masks as it sums them (no decompressed copy).
///
/// ```
/// use gpufhe::shortint::{ClientKey, CompressedClassicalPublicKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS)?;
/// let compressed = CompressedClassicalPublicKey::new(&ck)?;
/// assert_eq!(ck.decrypt(&compressed.encrypt(2)?)?, 2);
/// let pk = compressed.decompress()?;
/// assert_eq!(ck.decrypt(&pk.encrypt(1)?)?, 1);
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "CompressedClassicalParts")]
pub struct CompressedClassicalPublicKey {
    parameters: ShortintParameters,
    zeros: SeededLweCiphertextList,
}

/// A [`CompressedClassicalPublicKey`] as read, before its checks.
#[derive(Deserialize)]
struct CompressedClassicalParts {
    parameters: ShortintParameters,
    zeros: SeededLweCiphertextList,
}

impl TryFrom<CompressedClassicalParts> for CompressedClassicalPublicKey {
    type Error = Error;

    fn try_from(parts: CompressedClassicalParts) -> Result<Self> {
        Self::from_parts(parts.parameters, parts.zeros)
    }
}

impl CompressedClassicalPublicKey {
    /// The compressed public key of `client_key` (a fresh seed from the operating
    /// system); `Err` if its random source fails.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedClassicalPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS)?;
    /// let compressed = CompressedClassicalPublicKey::new(&ck)?;
    /// assert_eq!(ck.decrypt(&compressed.encrypt(1)?)?, 1);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn new(client_key: &ClientKey) -> Result<Self> {
        let p = *client_key.parameters();
        let key = &client_key.big_lwe_secret_key;
        let zeros = vec![0u64; zero_encryption_count(key.lwe_dimension().0 + 1)];
        let seed = CompressionSeed::from_os()?;
        let mut rng = EncryptionRandomGenerator::new(seed)?;
        let zeros = encrypt_seeded_lwe_ciphertext_list(
            key,
            &zeros,
            p.glwe_noise_distribution,
            seed,
            &mut rng,
        )?;
        Self::from_parts(p, zeros)
    }

    /// The key of these seeded encryptions of zero; `Err` unless they are of the
    /// parameters' big key.
    pub(crate) fn from_parts(
        parameters: ShortintParameters,
        zeros: SeededLweCiphertextList,
    ) -> Result<Self> {
        parameters.validate()?;
        crate::error::check_eq(
            "LWE size of the compressed public key",
            parameters.big_lwe_dimension().0 + 1,
            zeros.lwe_size().0,
        )?;
        if zeros.bodies().is_empty() {
            return Err(Error::InvalidParameter(
                "a compressed public key of no encryption of zero".into(),
            ));
        }
        Ok(Self { parameters, zeros })
    }

    /// The parameters of the blocks it encrypts.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedClassicalPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS)?;
    /// let compressed = CompressedClassicalPublicKey::new(&ck)?;
    /// assert_eq!(compressed.parameters(), ck.parameters());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The seeded encryptions of zero.
    pub(crate) fn zeros(&self) -> &SeededLweCiphertextList {
        &self.zeros
    }

    /// The public key, its masks regenerated; `Err` if it does not fit in the
    /// memory limit ([`crate::memory`]).
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedClassicalPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS)?;
    /// let compressed = CompressedClassicalPublicKey::new(&ck)?;
    /// let pk = compressed.decompress()?;
    /// assert_eq!(ck.decrypt(&pk.encrypt(3)?)?, 3);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn decompress(&self) -> Result<ClassicalPublicKey> {
        let _memory = crate::memory::reserve_host_memory(
            self.zeros.expanded_bytes(),
            "decompressing a public key",
        )?;
        ClassicalPublicKey::from_parts(self.parameters, self.zeros.decompress_words())
    }

    /// A block of `message`, as [`ClassicalPublicKey::encrypt`] gives it.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedClassicalPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS)?;
    /// let compressed = CompressedClassicalPublicKey::new(&ck)?;
    /// assert_eq!(ck.decrypt(&compressed.encrypt(2)?)?, 2);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn encrypt(&self, message: u64) -> Result<Ciphertext> {
        first_block(self.encrypt_many(&[message]))
    }

    /// A block of each of `messages`, regenerating the masks once for all.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedClassicalPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS)?;
    /// let compressed = CompressedClassicalPublicKey::new(&ck)?;
    /// let blocks = compressed.encrypt_many(&[3, 0])?;
    /// assert_eq!((ck.decrypt(&blocks[0])?, ck.decrypt(&blocks[1])?), (3, 0));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn encrypt_many(&self, messages: &[u64]) -> Result<Vec<Ciphertext>> {
        let n = self.zeros.lwe_size().0 - 1;
        let bodies = self.zeros.bodies();
        let subsets = random_subsets(bodies.len(), messages.len())?;
        let masks = EncryptionRandomGenerator::masks_only(self.zeros.seed());
        let sums = subset_sums(n + 1, bodies.len(), &subsets, |first, count, add| {
            let mut stream = masks.fork_after((first * n) as u64, 0);
            let mut ct = vec![0u64; n + 1];
            for (i, &body) in bodies.iter().enumerate().skip(first).take(count) {
                stream.fill_mask(&mut ct[..n]);
                ct[n] = body;
                add(i, &ct);
            }
        });
        blocks(&self.parameters, sums, messages)
    }
}
