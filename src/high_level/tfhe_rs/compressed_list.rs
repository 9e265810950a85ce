//! The high-level `CompressedCiphertextList` between gpufhe and TFHE-rs's data.
//!
//! gpufhe compresses with TFHE-rs's scheme: a GLWE ciphertext of gpufhe's list is
//! TFHE-rs's modulus-switched GLWE ciphertext (its mask and the bodies of its
//! blocks, each switched to the storage modulus, packed least significant bit
//! first), so the words are copied as they are. TFHE-rs's list does not hold its
//! parameters, only what the blocks are (moduli) and how they were packed (the
//! GLWE shape, `lwe_per_glwe`, the storage modulus): they are those of the current
//! server key, else of the first known pair of block and compression sets that
//! matches (TFHE-rs's defaults, its Gaussian sets, the insecure test sets).

use super::compact::{kind_from_wire, kind_to_wire};
use super::parameters::{tag_from_wire, tag_to_wire};
use super::wire::compressed_list::{
    CompressedCiphertextList as WireList, CompressedCiphertextListMeta,
    CompressedModulusSwitchedGlweCiphertext, IntegerCompressedCiphertextList,
    ShortintCompressedCiphertextList,
};
use super::wire::core::{
    CiphertextModulus, CiphertextModulusLog, GlweDimension, LweCiphertextCount, PBSOrder,
    PolynomialSize,
};
use super::wire::high_level::{DataKind as WireKind, ReRandomizationMetadata};
use super::wire::shortint::{AtomicPatternKind, CarryModulus, MessageModulus, PackedIntegers};
use super::{versionize_through_wire, TfheRsForm};
use crate::error::{Error, Result};
use crate::high_level::global_state::current_server_key;
use crate::high_level::CompressedCiphertextList;
use crate::shortint::{CompressedBlockList, CompressionParameters, ShortintParameters};

/// The known pairs of block and compression parameter sets: TFHE-rs's (the
/// defaults, the Gaussian ones), and the insecure test sets where they exist.
fn known_pairs() -> Vec<(ShortintParameters, CompressionParameters)> {
    use crate::shortint::*;
    #[allow(unused_mut)]
    let mut known = vec![
        (
            DEFAULT_PARAMETERS,
            COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        ),
        (
            PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
            COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        ),
    ];
    #[cfg(any(test, feature = "test-params"))]
    known.push((
        PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
        COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
    ));
    known
}

/// The block and compression parameters of a TFHE-rs list (the current server
/// key's, else the first known pair) that `matches` accepts.
fn list_parameters(
    matches: impl Fn(&ShortintParameters, &CompressionParameters) -> bool,
) -> Result<(ShortintParameters, CompressionParameters)> {
    let current = current_server_key().ok().and_then(|k| {
        let config = k.config();
        config
            .compression_parameters()
            .map(|c| (*config.parameters(), *c))
    });
    let known = known_pairs();
    current
        .into_iter()
        .chain(known)
        .find(|(p, c)| matches(p, c))
        .ok_or_else(|| {
            Error::InvalidParameter(
                "a TFHE-rs CompressedCiphertextList holds part of its parameters only, and \
                 neither the current server key's nor a known pair of block and compression \
                 parameter sets matches them: set a server key with these compression \
                 parameters (gpufhe::set_server_key) before reading it"
                    .into(),
            )
        })
}

/// TFHE-rs's modulus-switched GLWE ciphertext of `words` holding `count` blocks.
fn glwe_to_wire(
    c: &CompressionParameters,
    words: &[u64],
    count: usize,
) -> CompressedModulusSwitchedGlweCiphertext {
    CompressedModulusSwitchedGlweCiphertext {
        packed_integers: PackedIntegers {
            packed_coeffs: words.to_vec(),
            log_modulus: CiphertextModulusLog(c.storage_log_modulus as usize),
            initial_len: c.lwe_dimension() + count,
        },
        glwe_dimension: GlweDimension(c.packing_ks_glwe_dimension.0),
        polynomial_size: PolynomialSize(c.packing_ks_polynomial_size.0),
        bodies_count: LweCiphertextCount(count),
        uncompressed_ciphertext_modulus: CiphertextModulus::NATIVE_U64,
    }
}

/// `Err` unless TFHE-rs's GLWE ciphertext `g` is the one gpufhe's list of
/// `total` blocks packed with `c` has at that place.
fn check_glwe(
    c: &CompressionParameters,
    glwe: &CompressedModulusSwitchedGlweCiphertext,
    g: usize,
    total: usize,
) -> Result<()> {
    glwe.uncompressed_ciphertext_modulus
        .check_native_u64("compressed list")?;
    let count = c.lwe_per_glwe.min(total - g * c.lwe_per_glwe);
    let ok = glwe.bodies_count.0 == count
        && glwe.packed_integers.initial_len == c.lwe_dimension() + count
        && glwe.glwe_dimension.0 == c.packing_ks_glwe_dimension.0
        && glwe.polynomial_size.0 == c.packing_ks_polynomial_size.0
        && glwe.packed_integers.log_modulus.0 == c.storage_log_modulus as usize;
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "a TFHE-rs compressed list whose GLWE ciphertext {g} is not packed as its \
             parameters say (every GLWE ciphertext but the last full, of the same shape)"
        )))
    }
}

impl TfheRsForm for CompressedCiphertextList {
    type Wire = WireList;

    fn to_wire(&self) -> Result<WireList> {
        let blocks = self.blocks();
        let (p, c) = (blocks.parameters(), blocks.compression_parameters());
        let total = blocks.len();
        let glwes = blocks
            .glwes()
            .iter()
            .enumerate()
            .map(|(g, words)| {
                glwe_to_wire(c, words, c.lwe_per_glwe.min(total - g * c.lwe_per_glwe))
            })
            .collect();
        let meta = (total > 0).then_some(CompressedCiphertextListMeta {
            ciphertext_modulus: CiphertextModulus::NATIVE_U64,
            message_modulus: MessageModulus(p.message_modulus),
            carry_modulus: CarryModulus(p.carry_modulus),
            atomic_pattern: AtomicPatternKind::Standard(PBSOrder::KeyswitchBootstrap),
            lwe_per_glwe: LweCiphertextCount(c.lwe_per_glwe),
        });
        let info = self
            .kinds()
            .iter()
            .map(|&kind| kind_to_wire(kind, p))
            .collect::<Result<Vec<_>>>()?;
        Ok(WireList {
            re_randomization_metadata: vec![ReRandomizationMetadata::default(); info.len()],
            inner: IntegerCompressedCiphertextList {
                packed_list: ShortintCompressedCiphertextList {
                    modulus_switched_glwe_ciphertext_list: glwes,
                    meta,
                },
                info,
            },
            tag: tag_to_wire(self.tag()),
        })
    }

    fn from_wire(wire: WireList) -> Result<Self> {
        let list = wire.inner.packed_list;
        let info = wire.inner.info;
        if wire.re_randomization_metadata.len() != info.len()
            || wire
                .re_randomization_metadata
                .iter()
                .any(|m| !m.inner.is_empty())
        {
            return Err(Error::InvalidParameter(
                "a TFHE-rs compressed list with re-randomization metadata, which gpufhe \
                 does not support"
                    .into(),
            ));
        }
        if info.iter().any(|k| matches!(k, WireKind::String { .. })) {
            return Err(Error::InvalidParameter(
                "a TFHE-rs compressed list holding a string, which gpufhe does not support".into(),
            ));
        }
        let glwes = list.modulus_switched_glwe_ciphertext_list;
        let total = glwes
            .iter()
            .try_fold(0usize, |sum, g| sum.checked_add(g.bodies_count.0))
            .ok_or_else(|| Error::InvalidParameter("a compressed list's size overflows".into()))?;
        let (p, c) = match &list.meta {
            None if glwes.is_empty() => list_parameters(|_, _| true)?,
            None => {
                return Err(Error::InvalidParameter(
                    "a TFHE-rs compressed list of blocks without their metadata".into(),
                ))
            }
            Some(meta) => {
                meta.ciphertext_modulus
                    .check_native_u64("compressed list")?;
                if meta.atomic_pattern != AtomicPatternKind::Standard(PBSOrder::KeyswitchBootstrap)
                {
                    return Err(Error::InvalidParameter(
                        "a TFHE-rs compressed list of blocks of another atomic pattern than \
                         the standard one (keyswitch, then bootstrap)"
                            .into(),
                    ));
                }
                let first = glwes.first();
                list_parameters(|p, c| {
                    p.message_modulus == meta.message_modulus.0
                        && p.carry_modulus == meta.carry_modulus.0
                        && c.lwe_per_glwe == meta.lwe_per_glwe.0
                        && first.is_none_or(|g| {
                            g.glwe_dimension.0 == c.packing_ks_glwe_dimension.0
                                && g.polynomial_size.0 == c.packing_ks_polynomial_size.0
                                && g.packed_integers.log_modulus.0 == c.storage_log_modulus as usize
                        })
                })?
            }
        };
        if c.lwe_per_glwe == 0 || glwes.len() != total.div_ceil(c.lwe_per_glwe) {
            return Err(Error::InvalidParameter(
                "a TFHE-rs compressed list whose GLWE ciphertexts are not full but the last".into(),
            ));
        }
        let words = glwes
            .into_iter()
            .enumerate()
            .map(|(g, glwe)| {
                check_glwe(&c, &glwe, g, total)?;
                Ok(glwe.packed_integers.packed_coeffs)
            })
            .collect::<Result<Vec<_>>>()?;
        let blocks = CompressedBlockList::from_parts(p, c, total, words)?;
        let kinds = info
            .iter()
            .map(|kind| kind_from_wire(kind, &p))
            .collect::<Result<Vec<_>>>()?;
        CompressedCiphertextList::from_parts(tag_from_wire(&wire.tag), kinds, blocks)
    }
}

versionize_through_wire!(
    "high_level_api::CompressedCiphertextList",
    WireList,
    [] CompressedCiphertextList
);
