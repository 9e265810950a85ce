//! Compact public-key encryption of blocks.
//!
//! The **public key** is one GLWE encryption of zero under the big key seen as a GLWE
//! key, `(A, B = <A, S> + E)`, with the GLWE noise of the parameters: the same kind
//! of sample as the bootstrap key's rows, so it is as hard to break as they are.
//! Encrypting up to `N` block messages `M = sum_j m_j X^j` draws a binary polynomial
//! `r` and noise `e_1` (one polynomial per mask polynomial) and `e_2`, and writes the
//! GLWE ciphertext `(A r + e_1, B r + e_2 + Delta M)`: its phase is
//! `Delta M + E r + e_2 - <e_1, S>`. One such ciphertext carries `N` blocks in
//! `(k + 1) N` words (16 bytes per block on the default parameters, against 16 KiB
//! for a block encrypted with the client key).
//!
//! **Expansion** (server side, no key needed) extracts each coefficient as an LWE
//! block under the big key, exactly what a client-key encryption gives. Its noise
//! variance, `(N/2 + kN/2 + 1) Var(e)` (2^43.4 on the default parameters: 2049 times
//! TUniform(17)'s 2^32.4), is far below the bootstrap's output variance (2^98.4) that a block's noise level 1
//! stands for, so expanded blocks are clean blocks of noise level 1.

use super::{Ciphertext, ClientKey, ShortintParameters};
use crate::core_crypto::polynomial::polynomial_wrapping_add_mul_binary_assign;
use crate::core_crypto::{
    encrypt_glwe_ciphertext, extract_lwe_sample_from_glwe_ciphertext, CompressionSeed,
    EncryptionRandomGenerator, GlweCiphertext, GlweCiphertextOwned, LweCiphertextOwned,
    SecretRandomGenerator,
};
use crate::error::{check_eq, Error, Result};
use serde::{Deserialize, Serialize};
use zeroize::Zeroize;

/// The public key of [`CompactPublicKey::encrypt_blocks`]: one GLWE encryption of
/// zero (see the module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompactPublicKey {
    parameters: ShortintParameters,
    data: Vec<u64>,
}

impl CompactPublicKey {
    /// The public key of `client_key`.
    ///
    /// ```
    /// use gpufhe::shortint::{expand_compact_blocks, ClientKey, CompactPublicKey, DEFAULT_PARAMETERS};
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    /// let pk = CompactPublicKey::new(&ck).unwrap();
    /// let lists = pk.encrypt_blocks(&[2, 0, 3]).unwrap();
    /// let blocks = expand_compact_blocks(&DEFAULT_PARAMETERS, &lists, 3).unwrap();
    /// let clear: Vec<u64> = blocks.iter().map(|b| ck.decrypt(b).unwrap()).collect();
    /// assert_eq!(clear, vec![2, 0, 3]);
    /// ```
    pub fn new(client_key: &ClientKey) -> Result<Self> {
        let key = encryption_of_zero(client_key, &mut EncryptionRandomGenerator::from_os()?)?;
        Ok(Self {
            parameters: *client_key.parameters(),
            data: key.as_slice().to_vec(),
        })
    }

    /// The key of these words (`(k + 1) N`: the mask polynomials, then the body),
    /// checked.
    pub(crate) fn from_parts(parameters: ShortintParameters, data: Vec<u64>) -> Result<Self> {
        let key = Self { parameters, data };
        key.validate()?;
        Ok(key)
    }

    /// Its words: the mask polynomials, then the body.
    pub(crate) fn words(&self) -> &[u64] {
        &self.data
    }

    /// The parameters of the blocks it encrypts.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompactPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let pk = CompactPublicKey::new(&ck).unwrap();
    /// assert_eq!(pk.parameters(), &PARAMETERS);
    /// ```
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The words of one compact ciphertext (or key) of `parameters`: `(k + 1) N`.
    ///
    /// ```
    /// use gpufhe::shortint::{CompactPublicKey, DEFAULT_PARAMETERS};
    /// // k + 1 = 2 polynomials of N = 2048 words.
    /// assert_eq!(CompactPublicKey::glwe_words_of(&DEFAULT_PARAMETERS), 2 * 2048);
    /// ```
    pub fn glwe_words_of(parameters: &ShortintParameters) -> usize {
        glwe_words(parameters)
    }

    /// `Err` unless the key has the size its parameters give (for deserialized keys).
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompactPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let pk = CompactPublicKey::new(&ck).unwrap();
    /// assert!(pk.validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.parameters.validate()?;
        check_eq(
            "number of words of a compact public key",
            glwe_words(&self.parameters),
            self.data.len(),
        )
    }

    /// Encrypts `messages` (each below the message modulus), `N` per GLWE ciphertext;
    /// returns the ciphertexts' words, `(k + 1) N` each.
    ///
    /// ```
    /// use gpufhe::shortint::{expand_compact_blocks, ClientKey, CompactPublicKey, DEFAULT_PARAMETERS as p};
    /// let ck = ClientKey::new(p).unwrap();
    /// let pk = CompactPublicKey::new(&ck).unwrap();
    /// let messages: Vec<u64> = (0..3000).map(|i| i % 4).collect();
    /// let lists = pk.encrypt_blocks(&messages).unwrap();
    /// // N = 2048 blocks per GLWE ciphertext of (k + 1) N words.
    /// assert_eq!(lists.len(), 2);
    /// assert!(lists.iter().all(|l| l.len() == CompactPublicKey::glwe_words_of(&p)));
    /// let blocks = expand_compact_blocks(&p, &lists, messages.len()).unwrap();
    /// assert_eq!(ck.decrypt(&blocks[2999]).unwrap(), 2999 % 4);
    /// // Messages must fit in the message modulus.
    /// assert!(pk.encrypt_blocks(&[4]).is_err());
    /// ```
    pub fn encrypt_blocks(&self, messages: &[u64]) -> Result<Vec<Vec<u64>>> {
        self.validate()?;
        let p = &self.parameters;
        if let Some(&m) = messages.iter().find(|&&m| m >= p.message_modulus) {
            return Err(Error::InvalidParameter(format!(
                "the message {m} does not fit in a block (message modulus {})",
                p.message_modulus
            )));
        }
        let n = p.polynomial_size.0;
        let k = p.glwe_dimension.0;
        let _memory = crate::memory::reserve_host_memory(
            compact_list_bytes(p, messages.len()),
            "encrypting a compact list",
        )?;
        let noise = p.glwe_noise_distribution;
        let mut secret = SecretRandomGenerator::from_os()?;
        let mut rng = EncryptionRandomGenerator::from_os()?;
        let (mask, body) = self.data.split_at(k * n);
        messages
            .chunks(n)
            .map(|chunk| {
                let mut r = vec![0u64; n];
                secret.fill_binary(&mut r);
                let mut out = vec![0u64; (k + 1) * n];
                {
                    let (out_mask, out_body) = out.split_at_mut(k * n);
                    for (o, a) in out_mask.chunks_exact_mut(n).zip(mask.chunks_exact(n)) {
                        polynomial_wrapping_add_mul_binary_assign(o, a, &r);
                    }
                    polynomial_wrapping_add_mul_binary_assign(out_body, body, &r);
                    for (o, &m) in out_body.iter_mut().zip(chunk) {
                        *o = o.wrapping_add(m.wrapping_mul(p.delta()));
                    }
                }
                r.zeroize();
                rng.add_noise(&mut out, noise)?;
                Ok(out)
            })
            .collect()
    }
}

/// A [`CompactPublicKey`] whose mask is replaced by the seed it was drawn from: the
/// body (`N` words) and a [`CompressionSeed`] instead of `(k + 1) N` words, about half the
/// size on the default parameters (`k = 1`). The mask is public, so the seed is
/// too; [`CompressedCompactPublicKey::decompress`] regenerates it. For `k = 1` it is
/// TFHE-rs's seeded key: the stream is TFHE-rs's mask `a`, the body its `b`
/// (the key's mask is `σ(-a/X)` and body `σ(b)`, with `σ(p)(X) = p(X^-1)`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompressedCompactPublicKey {
    parameters: ShortintParameters,
    seed: CompressionSeed,
    body: Vec<u64>,
}

impl CompressedCompactPublicKey {
    /// The compressed public key of `client_key`.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedCompactPublicKey, DEFAULT_PARAMETERS};
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    /// let compressed = CompressedCompactPublicKey::new(&ck).unwrap();
    /// let pk = compressed.decompress().unwrap();
    /// let lists = pk.encrypt_blocks(&[1]).unwrap();
    /// let block = &gpufhe::shortint::expand_compact_blocks(&DEFAULT_PARAMETERS, &lists, 1).unwrap()[0];
    /// assert_eq!(ck.decrypt(block).unwrap(), 1);
    /// ```
    pub fn new(client_key: &ClientKey) -> Result<Self> {
        let p = *client_key.parameters();
        let seed = CompressionSeed::from_os()?;
        let mut rng = EncryptionRandomGenerator::new(seed)?;
        let body = if p.glwe_dimension.0 == 1 {
            // TFHE-rs's form (see the type's docs): the stream is `a`.
            let mut a = vec![0u64; p.polynomial_size.0];
            rng.fill_mask(&mut a);
            let mask = sigma(&divided_by_minus_x(&a));
            let mut body = vec![0u64; p.polynomial_size.0];
            polynomial_wrapping_add_mul_binary_assign(
                &mut body,
                &mask,
                client_key.glwe_secret_key().as_slice(),
            );
            rng.add_noise(&mut body, p.glwe_noise_distribution)?;
            sigma(&body)
        } else {
            let key = encryption_of_zero(client_key, &mut rng)?;
            key.as_slice()[p.glwe_dimension.0 * p.polynomial_size.0..].to_vec()
        };
        Ok(Self {
            parameters: p,
            seed,
            body,
        })
    }

    /// A key of these parts, checked.
    pub(crate) fn from_parts(
        parameters: ShortintParameters,
        seed: CompressionSeed,
        body: Vec<u64>,
    ) -> Result<Self> {
        let key = Self {
            parameters,
            seed,
            body,
        };
        key.validate()?;
        Ok(key)
    }

    /// The seed of its mask.
    pub(crate) fn seed(&self) -> CompressionSeed {
        self.seed
    }

    /// Its body as stored (TFHE-rs's `b` for `k = 1`).
    pub(crate) fn body(&self) -> &[u64] {
        &self.body
    }

    /// The parameters of the blocks its key encrypts.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedCompactPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let compressed = CompressedCompactPublicKey::new(&ck).unwrap();
    /// assert_eq!(compressed.parameters(), &PARAMETERS);
    /// ```
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// `Err` unless the body has `N` words (for deserialized keys).
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedCompactPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// assert!(CompressedCompactPublicKey::new(&ck).unwrap().validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.parameters.validate()?;
        check_eq(
            "number of words of a compressed compact public key",
            self.parameters.polynomial_size.0,
            self.body.len(),
        )
    }

    /// The public key, its mask regenerated from the seed (exactly the mask it was
    /// encrypted with).
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, CompressedCompactPublicKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let compressed = CompressedCompactPublicKey::new(&ck).unwrap();
    /// // The seed gives back the same mask every time.
    /// assert_eq!(compressed.decompress().unwrap(), compressed.decompress().unwrap());
    /// assert!(compressed.decompress().unwrap().validate().is_ok());
    /// ```
    pub fn decompress(&self) -> Result<CompactPublicKey> {
        self.validate()?;
        let mut data = vec![0u64; glwe_words(&self.parameters)];
        let (mask, body) = data.split_at_mut(glwe_words(&self.parameters) - self.body.len());
        EncryptionRandomGenerator::masks_only(self.seed).fill_mask(mask);
        if self.parameters.glwe_dimension.0 == 1 {
            let a = mask.to_vec();
            mask.copy_from_slice(&sigma(&divided_by_minus_x(&a)));
            body.copy_from_slice(&sigma(&self.body));
        } else {
            body.copy_from_slice(&self.body);
        }
        Ok(CompactPublicKey {
            parameters: self.parameters,
            data,
        })
    }
}

/// The public key's sample: a GLWE encryption of zero under the big key, with the
/// GLWE noise of the parameters and the masks of `rng`.
fn encryption_of_zero(
    client_key: &ClientKey,
    rng: &mut EncryptionRandomGenerator,
) -> Result<GlweCiphertextOwned> {
    let p = client_key.parameters();
    let mut key =
        GlweCiphertextOwned::new_zero(p.glwe_dimension.to_glwe_size(), p.polynomial_size)?;
    let zeros = vec![0u64; p.polynomial_size.0];
    encrypt_glwe_ciphertext(
        client_key.glwe_secret_key(),
        &mut key,
        &zeros,
        p.glwe_noise_distribution,
        rng,
    )?;
    Ok(key)
}

/// `σ(p)`: `p(X^-1)` in the negacyclic ring (`σ(p)_0 = p_0`, `σ(p)_u = -p_{n-u}`),
/// its own inverse. TFHE-rs writes compact keys and lists with their masks
/// reversed this way (`high_level::tfhe_rs`).
pub(crate) fn sigma(p: &[u64]) -> Vec<u64> {
    let n = p.len();
    (0..n)
        .map(|u| {
            if u == 0 {
                p[0]
            } else {
                p[n - u].wrapping_neg()
            }
        })
        .collect()
}

/// `-X·p` in the negacyclic ring.
pub(crate) fn times_minus_x(p: &[u64]) -> Vec<u64> {
    let n = p.len();
    (0..n)
        .map(|u| {
            if u == 0 {
                p[n - 1]
            } else {
                p[u - 1].wrapping_neg()
            }
        })
        .collect()
}

/// The `p` of `times_minus_x(p) = q`.
pub(crate) fn divided_by_minus_x(q: &[u64]) -> Vec<u64> {
    let n = q.len();
    (0..n)
        .map(|v| {
            if v == n - 1 {
                q[0]
            } else {
                q[v + 1].wrapping_neg()
            }
        })
        .collect()
}

/// The words of one GLWE ciphertext of `parameters`.
pub(crate) fn glwe_words(parameters: &ShortintParameters) -> usize {
    (parameters.glwe_dimension.0 + 1) * parameters.polynomial_size.0
}

/// The bytes of the compact ciphertexts holding `count` blocks of `parameters`:
/// `ceil(count / N)` GLWE ciphertexts of `(k + 1) N` words (saturating).
///
/// ```
/// use gpufhe::shortint::{compact_list_bytes, DEFAULT_PARAMETERS};
/// // 2049 blocks need two GLWE ciphertexts of 2 * 2048 words of 8 bytes.
/// assert_eq!(compact_list_bytes(&DEFAULT_PARAMETERS, 2049), 2 * 2 * 2048 * 8);
/// assert_eq!(compact_list_bytes(&DEFAULT_PARAMETERS, 0), 0);
/// ```
pub fn compact_list_bytes(parameters: &ShortintParameters, count: usize) -> u64 {
    let glwes = count.div_ceil(parameters.polynomial_size.0.max(1)) as u64;
    glwes.saturating_mul(glwe_words(parameters) as u64 * 8)
}

/// The host bytes [`expand_compact_blocks`] allocates for `count` blocks: one big
/// LWE ciphertext of `k N + 1` words and its bookkeeping per block (saturating).
///
/// Expansion is the largest growth in the crate: a compact ciphertext of `(k + 1) N`
/// words becomes `N` blocks of `k N + 1` words, `(k N + 1) / (k + 1)` times its size,
/// 1,024.5× on the default parameters (k = 1, N = 2048) and less than 2^16 + 1 for
/// any parameters [`ShortintParameters::validate`] accepts (`k N` is at most 2^17).
///
/// ```
/// use gpufhe::shortint::{compact_list_bytes, expanded_compact_bytes, DEFAULT_PARAMETERS};
/// let (stored, expanded) = (
///     compact_list_bytes(&DEFAULT_PARAMETERS, 2048),
///     expanded_compact_bytes(&DEFAULT_PARAMETERS, 2048),
/// );
/// assert_eq!(stored, 2 * 2048 * 8);
/// assert!(expanded / stored >= 1024 && expanded / stored < 1040);
/// ```
pub fn expanded_compact_bytes(parameters: &ShortintParameters, count: usize) -> u64 {
    let each = parameters.big_lwe_dimension().to_lwe_size().0 as u64 * 8
        + std::mem::size_of::<Ciphertext>() as u64;
    (count as u64).saturating_mul(each)
}

/// The first `count` blocks of compact ciphertexts (`(k + 1) N` words each, as
/// [`CompactPublicKey::encrypt_blocks`] writes them), as clean blocks of noise level 1.
/// `Err` if the lists are not of `parameters` or hold fewer than `count` blocks.
///
/// ```
/// use gpufhe::shortint::{expand_compact_blocks, ClientKey, CompactPublicKey, DEFAULT_PARAMETERS as p};
/// let ck = ClientKey::new(p).unwrap();
/// let lists = CompactPublicKey::new(&ck).unwrap().encrypt_blocks(&[3, 1]).unwrap();
/// let blocks = expand_compact_blocks(&p, &lists, 2).unwrap();
/// assert_eq!((ck.decrypt(&blocks[0]).unwrap(), ck.decrypt(&blocks[1]).unwrap()), (3, 1));
/// assert_eq!(blocks[0].noise_level(), 1);
/// // One list holds at most N blocks.
/// assert!(expand_compact_blocks(&p, &lists, 2049).is_err());
/// ```
pub fn expand_compact_blocks(
    parameters: &ShortintParameters,
    lists: &[Vec<u64>],
    count: usize,
) -> Result<Vec<Ciphertext>> {
    let n = parameters.polynomial_size.0;
    check_eq(
        "number of compact ciphertexts for the blocks",
        count.div_ceil(n),
        lists.len(),
    )?;
    let _memory = crate::memory::reserve_host_memory(
        expanded_compact_bytes(parameters, count),
        "expanding a compact list",
    )?;
    let size = parameters.big_lwe_dimension().to_lwe_size();
    let mut blocks = Vec::with_capacity(count);
    for (i, list) in lists.iter().enumerate() {
        check_eq(
            "number of words of a compact ciphertext",
            glwe_words(parameters),
            list.len(),
        )?;
        let glwe = GlweCiphertext::from_container(list.as_slice(), parameters.polynomial_size)?;
        for j in 0..n.min(count - i * n) {
            let mut ct = LweCiphertextOwned::new_zero(size);
            extract_lwe_sample_from_glwe_ciphertext(&glwe, &mut ct, j)?;
            blocks.push(Ciphertext::from_parts(
                ct,
                parameters.message_modulus - 1,
                1,
                parameters,
            ));
        }
    }
    Ok(blocks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as P;

    #[test]
    fn blocks_decrypt_after_expansion_and_bad_input_is_refused() {
        let ck = ClientKey::new(P).unwrap();
        let pk = CompactPublicKey::new(&ck).unwrap();
        let messages: Vec<u64> = (0..P.polynomial_size.0 as u64 + 7)
            .map(|i| (i * 7) % 4)
            .collect();
        let lists = pk.encrypt_blocks(&messages).unwrap();
        assert_eq!(lists.len(), 2);
        let blocks = expand_compact_blocks(&P, &lists, messages.len()).unwrap();
        for (b, &m) in blocks.iter().zip(&messages) {
            assert_eq!(ck.decrypt(b).unwrap(), m);
        }
        assert!(pk.encrypt_blocks(&[4]).is_err());
        assert!(expand_compact_blocks(&P, &lists, 1).is_err());
        let mut short = lists.clone();
        short[1].pop();
        assert!(expand_compact_blocks(&P, &short, messages.len()).is_err());
    }

    #[test]
    fn compressed_keys_decompress_to_working_keys() {
        let ck = ClientKey::new(P).unwrap();
        let compressed = CompressedCompactPublicKey::new(&ck).unwrap();
        let pk = compressed.decompress().unwrap();
        assert_eq!(pk.data.len(), glwe_words(&P));
        // k = 1: stored as TFHE-rs's body, the key's body is its reversal.
        assert_eq!(
            pk.data[pk.data.len() - compressed.body.len()..],
            sigma(&compressed.body)
        );
        // The same seed gives the same mask; the key encrypts zero under the client key.
        assert_eq!(compressed.decompress().unwrap(), pk);
        let key = GlweCiphertext::from_container(pk.data.clone(), P.polynomial_size).unwrap();
        let mut phase = vec![0u64; P.polynomial_size.0];
        crate::core_crypto::decrypt_glwe_ciphertext(ck.glwe_secret_key(), &key, &mut phase)
            .unwrap();
        assert!(phase
            .iter()
            .all(|&x| (x as i64).unsigned_abs() < P.delta() / 4));
        let messages = [3, 1, 0, 2];
        let lists = pk.encrypt_blocks(&messages).unwrap();
        let blocks = expand_compact_blocks(&P, &lists, 4).unwrap();
        let back: Vec<u64> = blocks.iter().map(|b| ck.decrypt(b).unwrap()).collect();
        assert_eq!(back, messages);
        assert_ne!(
            CompressedCompactPublicKey::new(&ck).unwrap().seed,
            compressed.seed
        );
        let mut bad = compressed.clone();
        bad.body.pop();
        assert!(bad.decompress().is_err());
    }
}
