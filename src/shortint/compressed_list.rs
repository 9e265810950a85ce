//! A list of compressed blocks ([`CompressedBlockList`]) and the compression and
//! decompression with [`CompressionKeys`] (see [`super::compression`] for the
//! scheme and its noise).

use super::compression::{CompressionKeys, CompressionParameters};
use super::{Ciphertext, ShortintParameters};
use crate::core_crypto::{
    keyswitch_lwe_ciphertext, keyswitch_lwe_ciphertexts_into_glwe, LweCiphertext,
    LweCiphertextOwned,
};
use crate::error::{check_eq, Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Blocks packed by [`CompressionKeys::compress`]: per GLWE ciphertext, its mask and
/// the bodies of its blocks at `storage_log_modulus` bits each, plus the public
/// bookkeeping of every block (written as runs of equal degree and noise level).
/// Deserialization checks that the sizes agree with the parameters and that the
/// bookkeeping is within their bounds.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "ListParts")]
pub struct CompressedBlockList {
    parameters: ShortintParameters,
    compression: CompressionParameters,
    /// Degree and noise level of every block once decompressed.
    infos: Vec<(u64, u64)>,
    /// One bit-packed GLWE ciphertext per `lwe_per_glwe` blocks.
    glwes: Vec<Vec<u64>>,
}

/// How a [`CompressedBlockList`] is written: the bookkeeping as runs of
/// `(degree, noise level, count)`.
#[derive(Serialize, Deserialize)]
struct ListParts {
    parameters: ShortintParameters,
    compression: CompressionParameters,
    runs: Vec<(u64, u64, u64)>,
    glwes: Vec<Vec<u64>>,
}

impl Serialize for CompressedBlockList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut runs: Vec<(u64, u64, u64)> = Vec::new();
        for &(degree, level) in &self.infos {
            match runs.last_mut() {
                Some(run) if (run.0, run.1) == (degree, level) => run.2 += 1,
                _ => runs.push((degree, level, 1)),
            }
        }
        ListParts {
            parameters: self.parameters,
            compression: self.compression,
            runs,
            glwes: self.glwes.clone(),
        }
        .serialize(s)
    }
}

impl TryFrom<ListParts> for CompressedBlockList {
    type Error = Error;

    fn try_from(parts: ListParts) -> Result<Self> {
        // At most the blocks the GLWE ciphertexts read can hold, before expanding.
        let most = parts
            .glwes
            .len()
            .saturating_mul(parts.compression.lwe_per_glwe) as u64;
        let mut total = 0u64;
        for run in &parts.runs {
            total = total.saturating_add(run.2);
            if run.2 == 0 || total > most {
                return Err(Error::InvalidParameter(format!(
                    "the bookkeeping of a compressed list counts {total} blocks or an empty \
                     run; its {} GLWE ciphertexts hold at most {most}",
                    parts.glwes.len()
                )));
            }
        }
        let infos = parts
            .runs
            .iter()
            .flat_map(|&(degree, level, count)| {
                std::iter::repeat_n((degree, level), count as usize)
            })
            .collect();
        let list = Self {
            parameters: parts.parameters,
            compression: parts.compression,
            infos,
            glwes: parts.glwes,
        };
        list.validate()?;
        Ok(list)
    }
}

impl CompressedBlockList {
    /// The number of blocks.
    ///
    /// ```
    /// # use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// # // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// # // insecure test parameters here).
    /// # let p = PARAMETERS;
    /// # let ck = ClientKey::new(p).unwrap();
    /// # let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// # let keys = CompressedCompressionKeys::new(&ck, &private).unwrap().decompress().unwrap();
    /// // keys: the CompressionKeys of the client key ck, for blocks of parameters p.
    /// let list = keys.compress(&[ck.encrypt(1).unwrap(), ck.encrypt(2).unwrap()], &p).unwrap();
    /// assert_eq!(list.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.infos.len()
    }

    /// Whether it holds no block.
    ///
    /// ```
    /// # use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// # // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// # // insecure test parameters here).
    /// # let p = PARAMETERS;
    /// # let ck = ClientKey::new(p).unwrap();
    /// # let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// # let keys = CompressedCompressionKeys::new(&ck, &private).unwrap().decompress().unwrap();
    /// // keys: the CompressionKeys of the client key ck, for blocks of parameters p.
    /// assert!(keys.compress(&[], &p).unwrap().is_empty());
    /// assert!(!keys.compress(&[ck.encrypt(0).unwrap()], &p).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.infos.is_empty()
    }

    /// The parameters of the blocks.
    ///
    /// ```
    /// # use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// # // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// # // insecure test parameters here).
    /// # let p = PARAMETERS;
    /// # let ck = ClientKey::new(p).unwrap();
    /// # let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// # let keys = CompressedCompressionKeys::new(&ck, &private).unwrap().decompress().unwrap();
    /// // keys: the CompressionKeys of the client key ck, for blocks of parameters p.
    /// let list = keys.compress(&[ck.encrypt(3).unwrap()], &p).unwrap();
    /// assert_eq!(list.parameters(), &p);
    /// ```
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The compression parameters.
    ///
    /// ```
    /// # use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// # // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// # // insecure test parameters here).
    /// # let p = PARAMETERS;
    /// # let ck = ClientKey::new(p).unwrap();
    /// # let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// # let keys = CompressedCompressionKeys::new(&ck, &private).unwrap().decompress().unwrap();
    /// // keys: the CompressionKeys of the client key ck, for blocks of parameters p.
    /// let list = keys.compress(&[ck.encrypt(3).unwrap()], &p).unwrap();
    /// assert_eq!(list.compression_parameters(), keys.parameters());
    /// ```
    pub fn compression_parameters(&self) -> &CompressionParameters {
        &self.compression
    }

    /// `Err` unless the parameters are valid, every block's bookkeeping is within
    /// their bounds and every GLWE ciphertext has the size its blocks imply.
    ///
    /// ```
    /// # use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// # // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// # // insecure test parameters here).
    /// # let p = PARAMETERS;
    /// # let ck = ClientKey::new(p).unwrap();
    /// # let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// # let keys = CompressedCompressionKeys::new(&ck, &private).unwrap().decompress().unwrap();
    /// // keys: the CompressionKeys of the client key ck, for blocks of parameters p.
    /// let list = keys.compress(&[ck.encrypt(3).unwrap()], &p).unwrap();
    /// assert!(list.validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.compression.validate(&self.parameters)?;
        for &(degree, noise_level) in &self.infos {
            self.parameters.check_capacity(degree, noise_level)?;
        }
        let per_glwe = self.compression.lwe_per_glwe;
        check_eq(
            "number of GLWE ciphertexts of the compressed list",
            self.infos.len().div_ceil(per_glwe),
            self.glwes.len(),
        )?;
        for (g, glwe) in self.glwes.iter().enumerate() {
            let count = per_glwe.min(self.infos.len() - g * per_glwe);
            check_eq(
                "number of words of a compressed GLWE ciphertext",
                self.compression.stored_words(count),
                glwe.len(),
            )?;
        }
        Ok(())
    }
}

impl CompressionKeys {
    /// Packs `blocks` (of `parameters`): `Err` if they are not of `parameters`, or a
    /// block is at the largest noise level (bootstrap it first: a decompressed block
    /// counts one more level).
    ///
    /// ```
    /// # use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// # // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// # // insecure test parameters here).
    /// # let p = PARAMETERS;
    /// # let ck = ClientKey::new(p).unwrap();
    /// # let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// # let keys = CompressedCompressionKeys::new(&ck, &private).unwrap().decompress().unwrap();
    /// // keys: the CompressionKeys of the client key ck, for blocks of parameters p.
    /// let blocks: Vec<_> = (0..6).map(|m| ck.encrypt(m % 4).unwrap()).collect();
    /// let list = keys.compress(&blocks, &p).unwrap();
    /// let back = keys.decompress_range(&list, 0..6).unwrap();
    /// let clear: Vec<u64> = back.iter().map(|b| ck.decrypt(b).unwrap()).collect();
    /// assert_eq!(clear, vec![0, 1, 2, 3, 0, 1]);
    /// // A decompressed block counts one more noise level.
    /// assert_eq!(back[0].noise_level(), 2);
    /// ```
    pub fn compress(
        &self,
        blocks: &[Ciphertext],
        parameters: &ShortintParameters,
    ) -> Result<CompressedBlockList> {
        let c = self.parameters;
        c.validate(parameters)?;
        check_eq(
            "input dimension of the packing key (the big LWE dimension)",
            parameters.big_lwe_dimension().0,
            self.packing.shape().input_lwe_dimension.0,
        )?;
        let mut infos = Vec::with_capacity(blocks.len());
        for block in blocks {
            block.check_parameters(parameters)?;
            if block.noise_level >= parameters.max_noise_level {
                return Err(Error::CapacityExceeded(format!(
                    "a block of noise level {} cannot be compressed: decompressed, it \
                     would exceed the maximum {}; bootstrap it first",
                    block.noise_level, parameters.max_noise_level
                )));
            }
            infos.push((block.degree, block.noise_level + 1));
        }
        let glwes = blocks
            .par_chunks(c.lwe_per_glwe)
            .map(|chunk| {
                let lwes: Vec<LweCiphertext<&[u64]>> =
                    chunk.iter().map(|b| b.ct.as_view()).collect();
                let glwe = keyswitch_lwe_ciphertexts_into_glwe(&self.packing, &lwes)?;
                let mask = &glwe.as_slice()[..c.lwe_dimension()];
                let bodies = centered_bodies(mask, &glwe.body()[..chunk.len()], &c);
                let kept = mask.iter().chain(&bodies);
                Ok(pack_rounded(
                    kept,
                    c.storage_log_modulus,
                    c.stored_words(chunk.len()),
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(CompressedBlockList {
            parameters: *parameters,
            compression: c,
            infos,
            glwes,
        })
    }

    /// Block `index` of `list`, under the big key again; `Err` if `list` was made
    /// with other parameters or `index` is past its end.
    ///
    /// ```
    /// # use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// # // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// # // insecure test parameters here).
    /// # let p = PARAMETERS;
    /// # let ck = ClientKey::new(p).unwrap();
    /// # let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// # let keys = CompressedCompressionKeys::new(&ck, &private).unwrap().decompress().unwrap();
    /// // keys: the CompressionKeys of the client key ck, for blocks of parameters p.
    /// let list = keys.compress(&[ck.encrypt(1).unwrap(), ck.encrypt(3).unwrap()], &p).unwrap();
    /// assert_eq!(ck.decrypt(&keys.decompress(&list, 1).unwrap()).unwrap(), 3);
    /// assert!(keys.decompress(&list, 2).is_err());
    /// ```
    pub fn decompress(&self, list: &CompressedBlockList, index: usize) -> Result<Ciphertext> {
        self.check_list(list)?;
        let &(degree, noise_level) = list.infos.get(index).ok_or_else(|| {
            Error::InvalidParameter(format!(
                "block {index} requested from a compressed list of {}",
                list.len()
            ))
        })?;
        let c = &self.parameters;
        let (g, t) = (index / c.lwe_per_glwe, index % c.lwe_per_glwe);
        let packed = self.extract(list, g, t);
        let mut out =
            LweCiphertextOwned::new_zero(list.parameters.big_lwe_dimension().to_lwe_size());
        keyswitch_lwe_ciphertext(&self.back, &packed, &mut out)?;
        Ok(Ciphertext::from_parts(
            out,
            degree,
            noise_level,
            &list.parameters,
        ))
    }

    /// Blocks `range` of `list`, decompressed on every thread of the rayon pool.
    ///
    /// ```
    /// # use gpufhe::shortint::{ClientKey, CompressedCompressionKeys, CompressionPrivateKey};
    /// # use gpufhe::shortint::{
    /// #     COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as COMPRESSION,
    /// #     PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS,
    /// # };
    /// # // The DEFAULT_PARAMETERS and COMP_PARAM_MESSAGE_2_CARRY_2 in real code (fast,
    /// # // insecure test parameters here).
    /// # let p = PARAMETERS;
    /// # let ck = ClientKey::new(p).unwrap();
    /// # let private = CompressionPrivateKey::new(COMPRESSION, &p).unwrap();
    /// # let keys = CompressedCompressionKeys::new(&ck, &private).unwrap().decompress().unwrap();
    /// // keys: the CompressionKeys of the client key ck, for blocks of parameters p.
    /// let blocks: Vec<_> = (0..4).map(|m| ck.encrypt(m).unwrap()).collect();
    /// let list = keys.compress(&blocks, &p).unwrap();
    /// let middle = keys.decompress_range(&list, 1..3).unwrap();
    /// assert_eq!((ck.decrypt(&middle[0]).unwrap(), ck.decrypt(&middle[1]).unwrap()), (1, 2));
    /// ```
    pub fn decompress_range(
        &self,
        list: &CompressedBlockList,
        range: std::ops::Range<usize>,
    ) -> Result<Vec<Ciphertext>> {
        let blocks = range.len() as u64;
        let each = list.parameters.big_lwe_dimension().to_lwe_size().0 as u64 * 8
            + std::mem::size_of::<Ciphertext>() as u64;
        let _memory = crate::memory::reserve_host_memory(
            blocks.saturating_mul(each),
            "decompressing blocks of a compressed list",
        )?;
        range
            .into_par_iter()
            .map(|i| self.decompress(list, i))
            .collect()
    }

    /// `Err` unless `list` was made with these keys' parameters.
    fn check_list(&self, list: &CompressedBlockList) -> Result<()> {
        if list.compression != self.parameters {
            return Err(Error::InvalidParameter(
                "the compressed list was made with other compression parameters".into(),
            ));
        }
        check_eq(
            "big LWE dimension of the compressed list's blocks",
            self.back.shape().output_lwe_dimension.0,
            list.parameters.big_lwe_dimension().0,
        )
    }

    /// Coefficient `t` of stored GLWE ciphertext `g` as an LWE ciphertext under the
    /// compression key (the sample extraction, on the stored coefficients).
    fn extract(&self, list: &CompressedBlockList, g: usize, t: usize) -> LweCiphertextOwned {
        let c = &self.parameters;
        let n = c.polynomial_size.0;
        let mask_len = c.lwe_dimension();
        let bits = c.storage_log_modulus;
        let read = |i: usize| unpack_one(&list.glwes[g], i, bits);
        let mut data = vec![0u64; mask_len + 1];
        // (A * S)_t = sum_{j <= t} a_{t - j} s_j - sum_{j > t} a_{N + t - j} s_j.
        for (p, out) in data[..mask_len].chunks_exact_mut(n).enumerate() {
            for (j, o) in out.iter_mut().enumerate() {
                *o = if j <= t {
                    read(p * n + t - j)
                } else {
                    read(p * n + n + t - j).wrapping_neg()
                };
            }
        }
        data[mask_len] = read(mask_len + t);
        LweCiphertext::from_container(data).expect("a positive size")
    }
}

/// The bodies with centered-mean noise reduction for the rounding of `mask` to the
/// storage modulus: the rounding errors `e_j` of the mask are public, so the body of
/// coefficient `t` gets `(1/2) sum_j e'_j`, where `e'_j` are the errors of the mask
/// of the LWE ciphertext extracted at `t` (the GLWE errors, negated past `t`). What
/// remains, `sum_j e'_j (s_j - 1/2)`, has half the variance of the plain rounding
/// and no part common to every coefficient of a GLWE ciphertext.
fn centered_bodies(mask: &[u64], bodies: &[u64], c: &CompressionParameters) -> Vec<u64> {
    let bits = c.storage_log_modulus;
    if bits == 64 {
        return bodies.to_vec();
    }
    let n = c.polynomial_size.0;
    let shift = 64 - bits;
    // prefix[t] = sum over the mask polynomials of their errors at indices <= t.
    let mut prefix = vec![0i128; n];
    let mut total = 0i128;
    for poly in mask.chunks_exact(n) {
        let mut running = 0i128;
        for (p, &a) in prefix.iter_mut().zip(poly) {
            running += (round_to_bits(a, bits) << shift).wrapping_sub(a) as i64 as i128;
            *p += running;
        }
        total += running;
    }
    // The errors of the LWE mask extracted at t: +e at indices <= t, -e past t.
    bodies
        .iter()
        .zip(&prefix)
        .map(|(&b, &p)| b.wrapping_add(((2 * p - total) >> 1) as u64))
        .collect()
}

/// `x` rounded to its `bits` high bits (`bits < 64`), as a `bits`-bit integer.
#[inline]
fn round_to_bits(x: u64, bits: u32) -> u64 {
    ((x >> (63 - bits)).wrapping_add(1) >> 1) & ((1u64 << bits) - 1)
}

/// `values` rounded to their `bits` high bits, packed little-endian into `words`
/// words.
pub(super) fn pack_rounded<'a>(
    values: impl Iterator<Item = &'a u64>,
    bits: u32,
    words: usize,
) -> Vec<u64> {
    let mut out = vec![0u64; words];
    for (i, &x) in values.enumerate() {
        let v = if bits == 64 {
            x
        } else {
            round_to_bits(x, bits)
        };
        let at = i * bits as usize;
        let (word, offset) = (at / 64, at % 64);
        out[word] |= v << offset;
        if offset + bits as usize > 64 {
            out[word + 1] |= v >> (64 - offset);
        }
    }
    out
}

/// Value `i` of `bits` bits from `words` (packed by [`pack_rounded`]), scaled back to
/// a 64-bit torus value.
pub(super) fn unpack_one(words: &[u64], i: usize, bits: u32) -> u64 {
    let at = i * bits as usize;
    let (word, offset) = (at / 64, at % 64);
    let mut v = words[word] >> offset;
    if offset + bits as usize > 64 {
        v |= words[word + 1] << (64 - offset);
    }
    if bits == 64 {
        v
    } else {
        (v & ((1u64 << bits) - 1)) << (64 - bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_rounds_to_nearest_and_unpacks_every_width() {
        for bits in [1u32, 7, 12, 20, 33, 63, 64] {
            let values: Vec<u64> = (0..50u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            let words = (values.len() * bits as usize).div_ceil(64);
            let packed = pack_rounded(values.iter(), bits, words);
            for (i, &x) in values.iter().enumerate() {
                let back = unpack_one(&packed, i, bits);
                let error = back.wrapping_sub(x) as i64;
                let half_step = if bits == 64 { 0 } else { 1u64 << (63 - bits) };
                assert!(error.unsigned_abs() <= half_step, "bits {bits}, value {i}");
            }
        }
    }

    use crate::core_crypto::decrypt_lwe_ciphertext;
    use crate::shortint::{
        ClientKey, CompressedCompressionKeys, CompressionPrivateKey,
        COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2, COMP_PARAM_MESSAGE_2_CARRY_2,
        DEFAULT_PARAMETERS, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
    };

    fn keys(
        blocks: ShortintParameters,
        compression: CompressionParameters,
    ) -> (ClientKey, CompressionKeys) {
        let client_key = ClientKey::new(blocks).unwrap();
        let private = CompressionPrivateKey::new(compression, &blocks).unwrap();
        let seeded = CompressedCompressionKeys::new(&client_key, &private).unwrap();
        seeded.validate(&blocks).unwrap();
        (client_key, seeded.decompress().unwrap())
    }

    /// Compresses blocks of every value, decompresses each and checks its value and
    /// bookkeeping.
    fn round_trip(blocks: ShortintParameters, compression: CompressionParameters, count: usize) {
        let (client_key, keys) = keys(blocks, compression);
        let values: Vec<u64> = (0..count as u64).map(|i| (i * 7 + 3) % 16).collect();
        let mut cts: Vec<Ciphertext> = values
            .iter()
            .map(|&v| client_key.encrypt_with_carry(v).unwrap())
            .collect();
        cts[0].noise_level = blocks.max_noise_level - 1;
        cts[1].degree = 15;
        let list = keys.compress(&cts, &blocks).unwrap();
        assert_eq!(list.len(), count);
        let bytes = bincode::serde::encode_to_vec(&list, bincode::config::standard()).unwrap();
        let (list, _): (CompressedBlockList, _) =
            bincode::serde::decode_from_slice(&bytes, bincode::config::standard()).unwrap();
        let back = keys.decompress_range(&list, 0..count).unwrap();
        for (i, (block, ct)) in back.iter().zip(&cts).enumerate() {
            assert_eq!(
                client_key.decrypt_message_and_carry(block).unwrap(),
                values[i]
            );
            assert_eq!(block.degree(), ct.degree());
            assert_eq!(block.noise_level(), ct.noise_level() + 1);
        }
        assert!(keys.decompress(&list, count).is_err());
        cts[2].noise_level = blocks.max_noise_level;
        assert!(keys.compress(&cts, &blocks).is_err());
    }

    #[test]
    fn blocks_come_back_with_their_values_on_the_test_parameters() {
        crate::serialization::codec::with_insecure_parameters_allowed(|| {
            // Two GLWE ciphertexts, the second one partly filled.
            round_trip(
                PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
                COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
                700,
            )
        });
    }

    #[test]
    fn blocks_come_back_with_their_values_on_the_default_parameters() {
        assert!(COMP_PARAM_MESSAGE_2_CARRY_2
            .check_security(&DEFAULT_PARAMETERS)
            .is_ok());
        round_trip(DEFAULT_PARAMETERS, COMP_PARAM_MESSAGE_2_CARRY_2, 40);
    }

    #[test]
    fn added_noise_matches_the_model() {
        let blocks = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
        let compression = COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
        let (client_key, keys) = keys(blocks, compression);
        let count = 4 * compression.lwe_per_glwe;
        let cts: Vec<Ciphertext> = (0..count)
            .map(|i| client_key.encrypt_with_carry(i as u64 % 16).unwrap())
            .collect();
        let list = keys.compress(&cts, &blocks).unwrap();
        let back = keys.decompress_range(&list, 0..count).unwrap();
        let mut sum_sq = 0f64;
        for (i, block) in back.iter().enumerate() {
            let phase =
                decrypt_lwe_ciphertext(client_key.big_lwe_secret_key(), block.as_lwe()).unwrap();
            let error = phase.wrapping_sub(i as u64 % 16 * blocks.delta()) as i64 as f64;
            sum_sq += error * error;
        }
        let measured = sum_sq / count as f64;
        let fresh = blocks.glwe_noise_distribution.variance();
        let model = compression.added_variance(&blocks, compression.lwe_per_glwe) + fresh;
        // 2,048 samples from 4 GLWE ciphertexts (samples of one ciphertext share its
        // mask's rounding errors): the ratio measured on 25 runs of 1,024 samples
        // had a mean of 1.00 and a deviation of 0.05, so 2,048 give about 0.035 and
        // a 20 % bound is 5.7 deviations away.
        let ratio = measured / model;
        assert!(
            (0.8..1.2).contains(&ratio),
            "measured 2^{:.2}, model 2^{:.2}",
            measured.log2(),
            model.log2()
        );
        assert!(model < blocks.bootstrap_output_variance());
    }

    #[test]
    fn malformed_lists_and_parameters_are_refused() {
        let blocks = DEFAULT_PARAMETERS;
        let mut c = COMP_PARAM_MESSAGE_2_CARRY_2;
        assert!(c.validate(&blocks).is_ok());
        c.storage_log_modulus = 12; // rounding noise far above a bootstrap's
        assert!(c.validate(&blocks).is_err());
        let mut c = COMP_PARAM_MESSAGE_2_CARRY_2;
        c.lwe_per_glwe = 4096;
        assert!(c.validate(&blocks).is_err());
        let mut c = COMP_PARAM_MESSAGE_2_CARRY_2;
        c.storage_log_modulus = 65;
        assert!(c.validate(&blocks).is_err());
        let list = CompressedBlockList {
            parameters: blocks,
            compression: COMP_PARAM_MESSAGE_2_CARRY_2,
            infos: vec![(3, 2); 3],
            glwes: vec![vec![0; COMP_PARAM_MESSAGE_2_CARRY_2.stored_words(3)]],
        };
        assert!(list.validate().is_ok());
        let mut short = list.clone();
        short.glwes[0].pop();
        assert!(short.validate().is_err());
        let mut noisy = list.clone();
        noisy.infos[1].1 = blocks.max_noise_level + 1;
        assert!(noisy.validate().is_err());
        let mut wide = list.clone();
        wide.infos[2].0 = blocks.total_modulus();
        assert!(wide.validate().is_err());
        // The runs written: equal neighbours merge; empty or too many are refused.
        let parts = |runs: Vec<(u64, u64, u64)>| ListParts {
            parameters: blocks,
            compression: COMP_PARAM_MESSAGE_2_CARRY_2,
            runs,
            glwes: list.glwes.clone(),
        };
        assert_eq!(
            CompressedBlockList::try_from(parts(vec![(3, 2, 3)])).unwrap(),
            list
        );
        assert!(
            CompressedBlockList::try_from(parts(vec![(3, 2, 2), (3, 2, 0), (3, 2, 1)])).is_err()
        );
        assert!(CompressedBlockList::try_from(parts(vec![(3, 2, u64::MAX)])).is_err());
        assert!(CompressedBlockList::try_from(parts(vec![(3, 2, 2049)])).is_err());
    }
}
