//! Proven compact public-key encryption in TFHE-rs's layout, and its check.
//!
//! With the key in TFHE-rs's form `(a, b)` (`b = a·rev(s) + e`, see
//! `high_level::tfhe_rs::compact`), up to `n` messages `m_j` encrypt under one
//! mask: draw a binary `r` and noises `e_1` (`n` values) and `e_2` (one per
//! message), write `ρ = rev(r)` (`ρ_i = r_{n-1-i}`), then
//! `mask = a·ρ + e_1` and `body_j = (b·ρ)_{n-1-j} + e_2[j] + Δ m_j` (products in
//! `Z_{2^64}[X]/(X^n + 1)`). This is the relation `tfhe-zk-pok` proves for TFHE-rs
//! (TFHE-rs's compact encryption, its "semi-reverse negacyclic convolution"),
//! with `r`, `e_1`, `m`, `e_2` the witness, so that the proofs verify in either
//! library. The list converts to gpufhe's GLWE form without noise
//! ([`ProvenList::glwe`]).

use super::{CompactPkeCrs, ZkComputeLoad};
use crate::core_crypto::polynomial::polynomial_wrapping_add_mul_binary_assign;
use crate::core_crypto::{EncryptionRandomGenerator, NoiseDistribution, SecretRandomGenerator};
use crate::error::{Error, Result};
use crate::high_level::tfhe_rs::wire::zk::{CompactPkeCrs as WireCrs, CompactPkeProof};
use std::panic::{catch_unwind, AssertUnwindSafe};
use tfhe_zk_pok::proofs::{pke, pke_v2};
use zeroize::Zeroize;

/// A compact public key in TFHE-rs's form: its mask `a` and body `b`, `n` words each.
pub(crate) struct KeyHalves {
    pub(crate) a: Vec<u64>,
    pub(crate) b: Vec<u64>,
}

/// One proven compact list in TFHE-rs's form: a mask of `n` words, a body per
/// block, and the proof.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ProvenList {
    pub(crate) mask: Vec<u64>,
    pub(crate) bodies: Vec<u64>,
    pub(crate) proof: CompactPkeProof,
}

fn signed(words: &[u64]) -> Vec<i64> {
    words.iter().map(|&w| w as i64).collect()
}

impl ProvenList {
    /// Its blocks as one gpufhe GLWE ciphertext of `2n` words (`σ(mask)` and the
    /// bodies, zero past the last).
    pub(crate) fn glwe(&self) -> Vec<u64> {
        let n = self.mask.len();
        let mut glwe = crate::shortint::compact::sigma(&self.mask);
        glwe.extend_from_slice(&self.bodies);
        glwe.resize(2 * n, 0);
        glwe
    }

    /// Whether the proof shows the list well formed under `key`, `crs` and
    /// `metadata`: `false` for a proof of the other scheme, one whose points are not
    /// on the curve's groups, a list of another dimension or over the CRS's
    /// capacity, and for anything that would make the proof system panic.
    /// `caller_pool`: a version 2 proof is checked on the caller's rayon pool
    /// rather than on the proof system's own verification pool (which
    /// [`ProvenCompactCiphertextList::verify_and_expand_batch`](super::ProvenCompactCiphertextList::verify_and_expand_batch)
    /// avoids, so that one list's serial steps leave the cores to the others).
    pub(crate) fn verify(
        &self,
        key: &KeyHalves,
        crs: &CompactPkeCrs,
        metadata: &[u8],
        caller_pool: bool,
    ) -> bool {
        let (a, b, c1, c2) = (
            signed(&key.a),
            signed(&key.b),
            signed(&self.mask),
            signed(&self.bodies),
        );
        let check = AssertUnwindSafe(|| match (&crs.inner, &self.proof) {
            (WireCrs::PkeV1(pp), CompactPkeProof::PkeV1(proof)) => {
                proof.is_usable()
                    && pke::verify(proof, (pp, &pke::PublicCommit::new(a, b, c1, c2)), metadata)
                        .is_ok()
            }
            (WireCrs::PkeV2(pp), CompactPkeProof::PkeV2(proof)) => {
                let public = (pp, &pke_v2::PublicCommit::new(a, b, c1, c2));
                let mode = pke_v2::VerificationPairingMode::default();
                proof.is_usable()
                    && if caller_pool {
                        pke_v2::verify_impl(proof, public, metadata, mode)
                    } else {
                        pke_v2::verify(proof, public, metadata, mode)
                    }
                    .is_ok()
            }
            _ => false,
        });
        // A proof of the other scheme is invalid at once (a version 1 CRS's full
        // check alone takes seconds).
        let same_scheme = matches!(
            (&crs.inner, &self.proof),
            (WireCrs::PkeV1(_), CompactPkeProof::PkeV1(_))
                | (WireCrs::PkeV2(_), CompactPkeProof::PkeV2(_))
        );
        same_scheme && crs.check_parameters().is_ok() && catch_unwind(check).unwrap_or(false)
    }
}

/// `Err` unless `crs` proves lists of `count` blocks under a key of dimension `n`,
/// encoding `delta` and noise `noise` (TFHE-rs's preconditions).
fn check_crs(
    crs: &CompactPkeCrs,
    n: usize,
    count: usize,
    delta: u64,
    noise: NoiseDistribution,
) -> Result<()> {
    crs.check_parameters()?;
    if crs.lwe_dimension().0 != n {
        return Err(Error::InvalidParameter(format!(
            "the CRS is for keys of dimension {}, the public key has dimension {n}",
            crs.lwe_dimension().0
        )));
    }
    if count > crs.max_num_messages().0 {
        return Err(Error::InvalidParameter(format!(
            "the CRS proves at most {} blocks at once, the list has {count}",
            crs.max_num_messages().0
        )));
    }
    let NoiseDistribution::TUniform { log2_bound } = noise else {
        return Err(Error::InvalidParameter(
            "zero-knowledge proofs need a bounded (TUniform) encryption noise".into(),
        ));
    };
    if log2_bound >= 62 || (1u64 << log2_bound) >= crs.exclusive_max_noise() {
        return Err(Error::InvalidParameter(format!(
            "the encryption noise (TUniform({log2_bound})) is above the CRS's bound ({})",
            crs.exclusive_max_noise()
        )));
    }
    let plaintext_modulus = ((1u64 << 63) / delta.max(1)) * 2;
    if plaintext_modulus != crs.plaintext_modulus() {
        return Err(Error::InvalidParameter(format!(
            "the CRS is for a plaintext modulus of {}, the key encrypts modulo {plaintext_modulus}",
            crs.plaintext_modulus()
        )));
    }
    Ok(())
}

/// Encrypts `messages` (at most `n`, each below the plaintext modulus without its
/// padding bit) under `key` with encoding `delta` and `noise`, and proves it with
/// `crs`, `metadata` and `load`.
pub(crate) fn encrypt_and_prove(
    key: &KeyHalves,
    messages: &[u64],
    delta: u64,
    noise: NoiseDistribution,
    crs: &CompactPkeCrs,
    metadata: &[u8],
    load: ZkComputeLoad,
) -> Result<ProvenList> {
    let n = key.a.len();
    check_crs(crs, n, messages.len(), delta, noise)?;
    let mut r = vec![0u64; n];
    SecretRandomGenerator::from_os()?.fill_binary(&mut r);
    let mut rng = EncryptionRandomGenerator::from_os()?;
    let mut e1 = (0..n)
        .map(|_| rng.noise(noise))
        .collect::<Result<Vec<u64>>>()?;
    let mut e2 = (0..messages.len())
        .map(|_| rng.noise(noise))
        .collect::<Result<Vec<u64>>>()?;
    let mut rho: Vec<u64> = r.iter().rev().copied().collect();
    let mut mask = vec![0u64; n];
    polynomial_wrapping_add_mul_binary_assign(&mut mask, &key.a, &rho);
    for (m, e) in mask.iter_mut().zip(&e1) {
        *m = m.wrapping_add(*e);
    }
    let mut b_rho = vec![0u64; n];
    polynomial_wrapping_add_mul_binary_assign(&mut b_rho, &key.b, &rho);
    let bodies: Vec<u64> = messages
        .iter()
        .zip(&e2)
        .enumerate()
        .map(|(j, (&m, &e))| {
            b_rho[n - 1 - j]
                .wrapping_add(e)
                .wrapping_add(m.wrapping_mul(delta))
        })
        .collect();
    let mut seed = [0u8; 16];
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut seed);
    let (a, b, c1, c2) = (
        signed(&key.a),
        signed(&key.b),
        signed(&mask),
        signed(&bodies),
    );
    let (r_s, e1_s, m_s, e2_s) = (signed(&r), signed(&e1), signed(messages), signed(&e2));
    let prove = AssertUnwindSafe(|| match &crs.inner {
        WireCrs::PkeV1(pp) => {
            let (public, private) = pke::commit(a, b, c1, c2, r_s, e1_s, m_s, e2_s, pp);
            CompactPkeProof::PkeV1(pke::prove((pp, &public), &private, metadata, load, &seed))
        }
        WireCrs::PkeV2(pp) => {
            let (public, private) = pke_v2::commit(a, b, c1, c2, r_s, e1_s, m_s, e2_s, pp);
            CompactPkeProof::PkeV2(pke_v2::prove(
                (pp, &public),
                &private,
                metadata,
                load,
                &seed,
            ))
        }
    });
    let proof = catch_unwind(prove);
    for secret in [&mut r, &mut rho, &mut e1, &mut e2, &mut b_rho] {
        secret.zeroize();
    }
    seed.zeroize();
    let proof = proof.map_err(|_| {
        Error::InvalidParameter(
            "the proof system refused the encryption (its inputs do not fit the CRS)".into(),
        )
    })?;
    Ok(ProvenList {
        mask,
        bodies,
        proof,
    })
}
