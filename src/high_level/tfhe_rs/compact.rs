//! Compact public keys and compact lists between gpufhe and TFHE-rs's data.
//!
//! Both are one ring over `Z_{2^64}[X]/(X^n + 1)` with `n = k·N` (gpufhe speaks it
//! for `k = 1`, the default). gpufhe stores them as GLWE ciphertexts `(A, B)`
//! under the key `S`: `B = A·S + E` for the key, and block `j` of a list is the
//! `j`-th coefficient of `(A, B)` extracted as an LWE ciphertext. TFHE-rs writes
//! the masks reversed: with `σ(p)(X) = p(X^-1)` (`σ(p)_0 = p_0`,
//! `σ(p)_u = -p_{n-u}`), a list's mask is `σ(A)` (ciphertext `j`'s LWE mask is it
//! times `X^j`) and its bodies are `B`'s first coefficients; the key's body is
//! `b = a·rev(s) + e` (`rev(s) = X^{n-1}·σ(s)`), so `b = σ(B)` and `a = -X·σ(A)`.
//! Each conversion is exact and its own inverse's inverse: no noise is added.

use super::dedicated::{
    expansion_kind_from_wire, inferred_pke, no_casting, pke_from_wire, pke_to_wire,
};
use super::parameters::{
    known_parameters, seed_from_wire, seed_to_wire, tag_from_wire, tag_to_wire,
};
use super::wire::core::{
    CiphertextModulus, GlweCiphertext, GlweSize, LweCiphertextCount, LweCompactCiphertextList,
    LweCompactPublicKey, LweSize, PolynomialSize, SeededGlweCiphertext, SeededLweCompactPublicKey,
};
use super::wire::high_level::{
    CompactCiphertextList as WireList, CompactPublicKey as WireKey,
    CompressedCompactPublicKey as WireCompressedKey, DataKind as WireKind, HlCompactPublicKeyInner,
    HlCompressedCompactPublicKeyInner, IntegerCompactCiphertextList, IntegerCompactPublicKey,
    IntegerCompressedCompactPublicKey,
};
use super::wire::shortint::CompactCiphertextListExpansionKind as WireExpansionKind;
use super::wire::shortint::{
    CarryModulus, CompactCiphertextList as ShortintList, CompactPublicKey as ShortintKey,
    CompactPublicKeyEncryptionParameters, CompressedCompactPublicKey as ShortintCompressedKey,
    Degree, MessageModulus,
};
use super::{versionize_through_wire, TfheRsForm};
use crate::error::{check_eq, Error, Result};
use crate::high_level::global_state::current_server_key;
use crate::high_level::{
    CompactCiphertextList, CompactPublicKey, CompressedCompactPublicKey, DataKind,
};
use crate::shortint::compact::{divided_by_minus_x, sigma, times_minus_x};
use crate::shortint::{
    self, CompactCiphertextListExpansionKind as ExpansionKind,
    CompactPublicKeyEncryptionParameters as Pke, ShortintParameters,
};
use std::num::NonZeroUsize;

/// `Err` unless `p`'s GLWE ciphertexts are one polynomial (`k = 1`), the only shape
/// whose ring is TFHE-rs's.
fn check_one_polynomial(p: &ShortintParameters, what: &str) -> Result<()> {
    if p.glwe_dimension.0 == 1 {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "a {what} of GLWE dimension {} has no TFHE-rs form (gpufhe writes those of \
             GLWE dimension 1, whose ring is TFHE-rs's)",
            p.glwe_dimension.0
        )))
    }
}

/// The encryption parameters of TFHE-rs's compact key, and the block parameters
/// the key is held as (those of the current server key, else a known set) and
/// whether they are dedicated ones.
fn key_parameters(
    e: &CompactPublicKeyEncryptionParameters,
    what: &str,
) -> Result<(ShortintParameters, Option<Pke>)> {
    let pke = pke_from_wire(e, what)?;
    if pke.requires_casting() {
        let block = block_parameters(what, |p| {
            (p.message_modulus, p.carry_modulus) == (pke.message_modulus.0, pke.carry_modulus.0)
        })?;
        Ok((pke.carrier(&block)?, Some(pke)))
    } else {
        let p = block_parameters(what, |p| Pke::of_blocks(p) == pke)?;
        Ok((p, None))
    }
}

/// The block parameters of TFHE-rs data that holds only part of them: those of
/// the current server key, else the first known set that matches (the defaults,
/// their Gaussian and multi-bit variants, and the insecure test sets where they
/// exist).
fn block_parameters(
    what: &str,
    matches: impl Fn(&ShortintParameters) -> bool,
) -> Result<ShortintParameters> {
    let current = current_server_key().ok().map(|k| *k.config().parameters());
    current
        .into_iter()
        .chain(known_parameters())
        .find(|p| p.glwe_dimension.0 == 1 && matches(p))
        .ok_or_else(|| {
            Error::InvalidParameter(format!(
                "a TFHE-rs {what} holds its encryption parameters only, and neither the \
                 current server key's nor a known parameter set matches them: set the \
                 server key of its parameters (gpufhe::set_server_key) before reading it"
            ))
        })
}

/// The halves of `key` in TFHE-rs's form: its mask `a = -X·σ(A)` and body
/// `b = σ(B)`; `Err` for a key of more than one mask polynomial.
pub(crate) fn key_halves(key: &shortint::CompactPublicKey) -> Result<(Vec<u64>, Vec<u64>)> {
    let p = key.parameters();
    check_one_polynomial(p, "compact public key")?;
    let (mask, body) = key.words().split_at(p.polynomial_size.0);
    Ok((times_minus_x(&sigma(mask)), sigma(body)))
}

/// Whether a TFHE-rs list of `degree` and message modulus `m` is packed; `Err`
/// for a degree of neither TFHE-rs's `build()` nor its `build_packed()`.
pub(super) fn packed_of_degree(degree: u64, m: u64) -> Result<bool> {
    match degree {
        d if d == m.saturating_sub(1) => Ok(false),
        d if Some(d) == m.checked_mul(m).and_then(|mm| mm.checked_sub(1)) => Ok(true),
        d => Err(Error::InvalidParameter(format!(
            "a TFHE-rs compact list of degree {d}: gpufhe reads lists of degree \
             {} (TFHE-rs's build()) or {} (build_packed())",
            m.saturating_sub(1),
            m.saturating_mul(m).saturating_sub(1)
        ))),
    }
}

/// The block parameters a TFHE-rs list of `kind` holds its blocks as, for a key
/// of dimension `n` and blocks of moduli `m` and `carry`, and its dedicated
/// public-key parameters if it needs casting.
pub(super) fn list_shape(
    kind: ExpansionKind,
    n: usize,
    m: u64,
    carry: u64,
    what: &str,
) -> Result<(ShortintParameters, Option<Pke>)> {
    if kind == ExpansionKind::RequiresCasting {
        let block = block_parameters(what, |p| p.message_modulus == m && p.carry_modulus == carry)?;
        let pke = current_server_key()
            .ok()
            .and_then(|k| k.casting_key().map(|c| *c.parameters()))
            .filter(|pke| pke.encryption_lwe_dimension.0 == n)
            .unwrap_or_else(|| inferred_pke(n, &block));
        Ok((pke.carrier(&block)?, Some(pke)))
    } else {
        let p = block_parameters(what, |p| {
            p.big_lwe_dimension().0 == n && p.message_modulus == m && p.carry_modulus == carry
        })?;
        Ok((p, None))
    }
}

impl TfheRsForm for CompactPublicKey {
    type Wire = WireKey;

    fn to_wire(&self) -> Result<WireKey> {
        Ok(WireKey {
            key: HlCompactPublicKeyInner {
                key: integer_key_to_wire(&self.key, &self.parameters())?,
            },
            tag: tag_to_wire(self.tag),
        })
    }

    fn from_wire(wire: WireKey) -> Result<Self> {
        let key = wire.key.key;
        let (p, dedicated) = key_parameters(&key.key.parameters, "compact public key")?;
        Ok(CompactPublicKey {
            tag: tag_from_wire(&wire.tag),
            key: integer_key_from_wire(key, p)?,
            dedicated,
        })
    }
}

/// TFHE-rs's form of a compact public key (encrypting with `pke`).
pub(super) fn integer_key_to_wire(
    key: &shortint::CompactPublicKey,
    pke: &Pke,
) -> Result<IntegerCompactPublicKey> {
    let p = key.parameters();
    check_one_polynomial(p, "compact public key")?;
    let n = p.polynomial_size.0;
    let (mask, body) = key.words().split_at(n);
    let mut data = times_minus_x(&sigma(mask));
    data.extend(sigma(body));
    Ok(IntegerCompactPublicKey {
        key: ShortintKey {
            key: LweCompactPublicKey {
                glwe_ciphertext: GlweCiphertext {
                    data,
                    polynomial_size: PolynomialSize(n),
                    ciphertext_modulus: CiphertextModulus::NATIVE_U64,
                },
            },
            parameters: pke_to_wire(pke),
        },
    })
}

/// The compact public key of TFHE-rs's form, held with the parameters `p` (its
/// carrier: one polynomial of the encryption dimension).
pub(super) fn integer_key_from_wire(
    key: IntegerCompactPublicKey,
    p: ShortintParameters,
) -> Result<shortint::CompactPublicKey> {
    let key = key.key;
    let glwe = key.key.glwe_ciphertext;
    glwe.ciphertext_modulus
        .check_native_u64("compact public key")?;
    let n = key.parameters.encryption_lwe_dimension.0;
    check_eq(
        "polynomial size of the compact public key",
        n,
        glwe.polynomial_size.0,
    )?;
    check_eq("words of the compact public key", 2 * n, glwe.data.len())?;
    let (a, b) = glwe.data.split_at(n);
    let mut data = sigma(&divided_by_minus_x(a));
    data.extend(sigma(b));
    shortint::CompactPublicKey::from_parts(p, data)
}

/// TFHE-rs's kind of a value: its block count.
pub(super) fn kind_to_wire(kind: DataKind, p: &ShortintParameters) -> Result<WireKind> {
    let blocks = |bits| {
        NonZeroUsize::new(crate::integer::block_count(p, bits))
            .ok_or_else(|| Error::InvalidParameter("a value of no blocks".into()))
    };
    Ok(match kind {
        DataKind::Unsigned(bits) => WireKind::Unsigned(blocks(bits)?),
        DataKind::Signed(bits) => WireKind::Signed(blocks(bits)?),
        DataKind::Boolean => WireKind::Boolean,
    })
}

/// The kind of a value of TFHE-rs's list: its width in bits.
pub(super) fn kind_from_wire(kind: &WireKind, p: &ShortintParameters) -> Result<DataKind> {
    let bits = |blocks: NonZeroUsize| {
        u32::try_from(blocks.get())
            .ok()
            .and_then(|b| b.checked_mul(p.message_modulus.trailing_zeros()))
            .filter(|&bits| bits <= 2048)
            .ok_or_else(|| {
                Error::InvalidParameter(format!("a value of {blocks} blocks, wider than 2048 bits"))
            })
    };
    match kind {
        WireKind::Unsigned(b) => Ok(DataKind::Unsigned(bits(*b)?)),
        WireKind::Signed(b) => Ok(DataKind::Signed(bits(*b)?)),
        WireKind::Boolean => Ok(DataKind::Boolean),
        WireKind::String { .. } => Err(Error::InvalidParameter(
            "a TFHE-rs compact list holding a string, which gpufhe does not support".into(),
        )),
    }
}

impl TfheRsForm for CompactCiphertextList {
    type Wire = WireList;

    fn to_wire(&self) -> Result<WireList> {
        let p = *self.parameters();
        check_one_polynomial(&p, "compact list")?;
        let n = p.polynomial_size.0;
        let counts =
            crate::high_level::lists::compact::block_counts(&p, self.kinds(), "compact list")?;
        let stored = self.stored_count(counts.iter().sum());
        let mut masks = Vec::with_capacity(self.lists().len() * n + stored);
        let mut bodies = Vec::with_capacity(stored);
        for (j, list) in self.lists().iter().enumerate() {
            let (mask, body) = list.split_at(n);
            masks.extend(sigma(mask));
            bodies.extend_from_slice(&body[..(stored - j * n).min(n)]);
        }
        masks.extend(bodies);
        let info = self
            .kinds()
            .iter()
            .map(|&k| kind_to_wire(k, &p))
            .collect::<Result<_>>()?;
        Ok(WireList {
            inner: IntegerCompactCiphertextList {
                ct_list: ShortintList {
                    ct_list: LweCompactCiphertextList {
                        data: masks,
                        lwe_size: LweSize(n + 1),
                        lwe_ciphertext_count: LweCiphertextCount(stored),
                        ciphertext_modulus: CiphertextModulus::NATIVE_U64,
                    },
                    degree: Degree(if self.is_packed() {
                        p.message_modulus * p.message_modulus - 1
                    } else {
                        p.message_modulus - 1
                    }),
                    message_modulus: MessageModulus(p.message_modulus),
                    carry_modulus: CarryModulus(p.carry_modulus),
                    expansion_kind: if self.casting().is_some() {
                        WireExpansionKind::RequiresCasting
                    } else {
                        no_casting()
                    },
                },
                info,
            },
            tag: tag_to_wire(self.tag()),
        })
    }

    fn from_wire(wire: WireList) -> Result<Self> {
        let list = wire.inner.ct_list;
        let kind = expansion_kind_from_wire(&list.expansion_kind, "compact list")?;
        let lwe = list.ct_list;
        lwe.ciphertext_modulus.check_native_u64("compact list")?;
        let (m, carry) = (list.message_modulus.0, list.carry_modulus.0);
        let packed = packed_of_degree(list.degree.0, m)?;
        let n = lwe
            .lwe_size
            .0
            .checked_sub(1)
            .filter(|&n| n > 0)
            .ok_or_else(|| Error::InvalidParameter("a compact list of LWE size 0 or 1".into()))?;
        let (p, casting) = list_shape(kind, n, m, carry, "compact list")?;
        let kinds = wire
            .inner
            .info
            .iter()
            .map(|k| kind_from_wire(k, &p))
            .collect::<Result<Vec<_>>>()?;
        let counts = crate::high_level::lists::compact::block_counts(&p, &kinds, "compact list")?;
        let total: usize = counts.iter().sum();
        let stored = if packed { total.div_ceil(2) } else { total };
        check_eq(
            "number of compact ciphertexts",
            stored,
            lwe.lwe_ciphertext_count.0,
        )?;
        let bins = stored.div_ceil(n);
        check_eq(
            "words of the compact list",
            bins * n + stored,
            lwe.data.len(),
        )?;
        let (masks, bodies) = lwe.data.split_at(bins * n);
        let lists = masks
            .chunks_exact(n)
            .zip(bodies.chunks(n))
            .map(|(mask, body)| {
                let mut glwe = sigma(mask);
                glwe.extend_from_slice(body);
                glwe.resize(2 * n, 0);
                glwe
            })
            .collect();
        CompactCiphertextList::from_parts(
            tag_from_wire(&wire.tag),
            p,
            kinds,
            lists,
            packed,
            casting,
        )
    }
}

versionize_through_wire!("high_level_api::CompactPublicKey", WireKey, [] CompactPublicKey);
versionize_through_wire!("high_level_api::CompactCiphertextList", WireList, [] CompactCiphertextList);

impl TfheRsForm for CompressedCompactPublicKey {
    type Wire = WireCompressedKey;

    fn to_wire(&self) -> Result<WireCompressedKey> {
        Ok(WireCompressedKey {
            key: HlCompressedCompactPublicKeyInner {
                key: integer_compressed_key_to_wire(&self.key, &self.parameters())?,
            },
            tag: tag_to_wire(self.tag),
        })
    }

    fn from_wire(wire: WireCompressedKey) -> Result<Self> {
        let key = wire.key.key;
        let what = "compressed compact public key";
        let (p, dedicated) = key_parameters(&key.key.parameters, what)?;
        Ok(CompressedCompactPublicKey {
            tag: tag_from_wire(&wire.tag),
            key: integer_compressed_key_from_wire(key, p)?,
            dedicated,
        })
    }
}

/// TFHE-rs's form of a compressed compact public key (encrypting with `pke`).
pub(super) fn integer_compressed_key_to_wire(
    key: &shortint::CompressedCompactPublicKey,
    pke: &Pke,
) -> Result<IntegerCompressedCompactPublicKey> {
    check_one_polynomial(key.parameters(), "compressed compact public key")?;
    Ok(IntegerCompressedCompactPublicKey {
        key: ShortintCompressedKey {
            key: SeededLweCompactPublicKey {
                seeded_glwe_ciphertext: SeededGlweCiphertext {
                    data: key.body().to_vec(),
                    glwe_size: GlweSize(2),
                    compression_seed: seed_to_wire(key.seed()),
                    ciphertext_modulus: CiphertextModulus::NATIVE_U64,
                },
            },
            parameters: pke_to_wire(pke),
        },
    })
}

/// The compressed compact public key of TFHE-rs's form, held with the parameters
/// `p` (its carrier).
pub(super) fn integer_compressed_key_from_wire(
    key: IntegerCompressedCompactPublicKey,
    p: ShortintParameters,
) -> Result<shortint::CompressedCompactPublicKey> {
    let key = key.key;
    let glwe = key.key.seeded_glwe_ciphertext;
    glwe.ciphertext_modulus
        .check_native_u64("compressed compact public key")?;
    check_eq("GLWE size of the compact public key", 2, glwe.glwe_size.0)?;
    let n = key.parameters.encryption_lwe_dimension.0;
    check_eq(
        "words of the compressed compact public key",
        n,
        glwe.data.len(),
    )?;
    let seed = seed_from_wire(&glwe.compression_seed)?;
    shortint::CompressedCompactPublicKey::from_parts(p, seed, glwe.data)
}

versionize_through_wire!(
    "high_level_api::CompressedCompactPublicKey",
    WireCompressedKey,
    [] CompressedCompactPublicKey
);
