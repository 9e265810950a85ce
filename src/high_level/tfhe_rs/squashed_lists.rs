//! The compression of squashed values between gpufhe and TFHE-rs's data: the
//! parameters, the client's compression private key, the server's packing keys
//! (plain and seeded: gpufhe keeps them in TFHE-rs's layout and mask order, so
//! their data is TFHE-rs's as it is) and `CompressedSquashedNoiseCiphertextList`
//! (TFHE-rs stores the 128-bit GLWE ciphertexts "modulus-switched" to 128 bits,
//! that is as they are).

use super::parameters::{
    distribution_from_wire, distribution_to_wire, seed_from_wire, seed_to_wire,
};
use super::parameters::{tag_from_wire, tag_to_wire};
use super::squashed::{
    check_native_u128, glwe_key_128_from_wire, glwe_key_128_to_wire, NATIVE_U128,
};
use super::wire::core::{
    CiphertextModulusLog, DecompositionBaseLog as WireBaseLog,
    DecompositionLevelCount as WireLevel, GlweDimension as WireGlweDimension, GlweSize,
    LweCiphertextCount, PolynomialSize as WirePolynomialSize,
};
use super::wire::high_level::DataKind;
use super::wire::shortint::{CarryModulus, MessageModulus};
use super::wire::squashed_compression_keys::{
    CompressedNoiseSquashingCompressionKey as WireCompressedKey, LwePackingKeyswitchKey128,
    NoiseSquashingCompressionKey as WireKey, NoiseSquashingCompressionParameters as WireParams,
    NoiseSquashingCompressionPrivateKey as WirePrivate, SeededLwePackingKeyswitchKey128,
    ShortintCompressedNoiseSquashingCompressionKey, ShortintNoiseSquashingCompressionKey,
    ShortintNoiseSquashingCompressionPrivateKey,
};
use super::wire::squashed_lists::{
    CompressedModulusSwitchedGlweCiphertext128, CompressedSquashedNoiseCiphertextList as WireList,
    CompressedSquashedNoiseCiphertextListMeta, IntegerCompressedSquashedNoiseCiphertextList,
    PackedIntegers128, ShortintCompressedSquashedNoiseCiphertextList,
};
use super::{versionize_through_wire, TfheRsForm};
use crate::core_crypto::{
    DecompositionBaseLog, DecompositionLevelCount, GlweDimension, LweDimension,
    PackingKeyswitchKeyShape, PolynomialSize,
};
use crate::error::{Error, Result};
use crate::high_level::squashed::list::SquashedKind;
use crate::high_level::CompressedSquashedNoiseCiphertextList;
use crate::shortint::{
    CompressedNoiseSquashingCompressionKey, CompressedSquashedNoiseBlockList,
    NoiseSquashingCompressionKey, NoiseSquashingCompressionParameters,
    NoiseSquashingCompressionPrivateKey, NoiseSquashingParameters,
};
use std::num::NonZeroUsize;

/// TFHE-rs's form of the compression parameters of squashed values.
pub(crate) fn parameters_to_wire(p: &NoiseSquashingCompressionParameters) -> WireParams {
    WireParams {
        packing_ks_level: WireLevel(p.packing_ks_level.0),
        packing_ks_base_log: WireBaseLog(p.packing_ks_base_log.0),
        packing_ks_polynomial_size: WirePolynomialSize(p.packing_ks_polynomial_size.0),
        packing_ks_glwe_dimension: WireGlweDimension(p.packing_ks_glwe_dimension.0),
        lwe_per_glwe: LweCiphertextCount(p.lwe_per_glwe),
        packing_ks_key_noise_distribution: distribution_to_wire(
            p.packing_ks_key_noise_distribution,
        ),
        message_modulus: MessageModulus(p.message_modulus),
        carry_modulus: CarryModulus(p.carry_modulus),
        ciphertext_modulus: NATIVE_U128,
    }
}

/// The compression parameters of squashed values of TFHE-rs's data (validated
/// against the squashing parameters when keys are made or read).
pub(crate) fn parameters_from_wire(w: &WireParams) -> Result<NoiseSquashingCompressionParameters> {
    check_native_u128(
        &w.ciphertext_modulus,
        "noise-squashing compression parameter set",
    )?;
    Ok(NoiseSquashingCompressionParameters {
        packing_ks_level: DecompositionLevelCount(w.packing_ks_level.0),
        packing_ks_base_log: DecompositionBaseLog(w.packing_ks_base_log.0),
        packing_ks_polynomial_size: PolynomialSize(w.packing_ks_polynomial_size.0),
        packing_ks_glwe_dimension: GlweDimension(w.packing_ks_glwe_dimension.0),
        lwe_per_glwe: w.lwe_per_glwe.0,
        packing_ks_key_noise_distribution: distribution_from_wire(
            &w.packing_ks_key_noise_distribution,
        )?,
        message_modulus: w.message_modulus.0,
        carry_modulus: w.carry_modulus.0,
    })
}

/// TFHE-rs's form of the client's compression private key.
pub(crate) fn private_key_to_wire(key: &NoiseSquashingCompressionPrivateKey) -> WirePrivate {
    WirePrivate {
        key: ShortintNoiseSquashingCompressionPrivateKey {
            post_packing_ks_key: glwe_key_128_to_wire(key.glwe_secret_key()),
            params: parameters_to_wire(key.parameters()),
        },
    }
}

/// The client's compression private key of TFHE-rs's data.
pub(crate) fn private_key_from_wire(w: WirePrivate) -> Result<NoiseSquashingCompressionPrivateKey> {
    let key = glwe_key_128_from_wire(w.key.post_packing_ks_key)?;
    NoiseSquashingCompressionPrivateKey::from_parts(key, parameters_from_wire(&w.key.params)?)
}

/// The shape of a packing key of `len` values (`per` per input coefficient).
fn packing_shape(
    len: usize,
    per: usize,
    base_log: &WireBaseLog,
    level: &WireLevel,
    glwe_size: &GlweSize,
    polynomial_size: &WirePolynomialSize,
) -> Result<PackingKeyswitchKeyShape> {
    if per == 0 || len % per != 0 {
        return Err(Error::InvalidParameter(format!(
            "a 128-bit packing keyswitching key of {len} values is not a whole number of input \
             coefficients of {per} values"
        )));
    }
    Ok(PackingKeyswitchKeyShape {
        input_lwe_dimension: LweDimension(len / per),
        output_glwe_dimension: GlweDimension(glwe_size.0.saturating_sub(1)),
        output_polynomial_size: PolynomialSize(polynomial_size.0),
        base_log: DecompositionBaseLog(base_log.0),
        level: DecompositionLevelCount(level.0),
    })
}

/// The noise-squashing compression parameter sets gpufhe reads keys of, and
/// whether each is secure.
fn known_parameters() -> Vec<(NoiseSquashingCompressionParameters, bool)> {
    use crate::shortint::*;
    #[allow(unused_mut)]
    let mut known = vec![
        (NOISE_SQUASHING_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128, true),
        (
            NOISE_SQUASHING_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
            true,
        ),
    ];
    #[cfg(any(test, feature = "test-params"))]
    known.push((
        NOISE_SQUASHING_COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
        false,
    ));
    known
}

/// The parameters of a TFHE-rs compression key of `shape` packing `lwe_per_glwe`
/// blocks, for squashed values of `squashing` (its keys do not hold their noise
/// parameters: those of the known set of this shape); an insecure set only inside
/// [`crate::serialization::with_insecure_parameters_allowed`].
fn parameters_of_key(
    shape: &PackingKeyswitchKeyShape,
    lwe_per_glwe: usize,
    squashing: &NoiseSquashingParameters,
) -> Result<NoiseSquashingCompressionParameters> {
    crate::error::check_eq(
        "input dimension of the noise-squashing compression key",
        squashing.glwe_dimension.0 * squashing.polynomial_size.0,
        shape.input_lwe_dimension.0,
    )?;
    let (p, secure) = known_parameters()
        .into_iter()
        .find(|(p, _)| {
            p.packing_ks_glwe_dimension == shape.output_glwe_dimension
                && p.packing_ks_polynomial_size == shape.output_polynomial_size
                && p.packing_ks_base_log == shape.base_log
                && p.packing_ks_level == shape.level
                && p.lwe_per_glwe == lwe_per_glwe
                && p.message_modulus == squashing.message_modulus
                && p.carry_modulus == squashing.carry_modulus
        })
        .ok_or_else(|| {
            Error::InvalidParameter(
                "a TFHE-rs noise-squashing compression key of a shape that matches no \
                 parameter set gpufhe knows (its keys do not hold their noise parameters)"
                    .into(),
            )
        })?;
    if !secure && !crate::serialization::codec::insecure_parameters_allowed() {
        return Err(Error::InvalidParameter(
            "a noise-squashing compression key of insecure test parameters, read outside \
             gpufhe::serialization::with_insecure_parameters_allowed"
                .into(),
        ));
    }
    Ok(p)
}

/// TFHE-rs's form of the server's compression key.
pub(crate) fn key_to_wire(key: &NoiseSquashingCompressionKey) -> WireKey {
    let shape = key.packing_key().shape();
    WireKey {
        key: ShortintNoiseSquashingCompressionKey {
            packing_key_switching_key: LwePackingKeyswitchKey128 {
                data: key.packing_key().as_slice().to_vec(),
                decomp_base_log: WireBaseLog(shape.base_log.0),
                decomp_level_count: WireLevel(shape.level.0),
                output_glwe_size: GlweSize(shape.output_glwe_dimension.0 + 1),
                output_polynomial_size: WirePolynomialSize(shape.output_polynomial_size.0),
                ciphertext_modulus: NATIVE_U128,
            },
            lwe_per_glwe: LweCiphertextCount(key.parameters().lwe_per_glwe),
        },
    }
}

/// The server's compression key of TFHE-rs's data, for squashed values of
/// `squashing`.
pub(crate) fn key_from_wire(
    w: WireKey,
    squashing: &NoiseSquashingParameters,
) -> Result<NoiseSquashingCompressionKey> {
    let k = w.key.packing_key_switching_key;
    check_native_u128(&k.ciphertext_modulus, "noise-squashing compression key")?;
    let per = k
        .decomp_level_count
        .0
        .saturating_mul(k.output_glwe_size.0)
        .saturating_mul(k.output_polynomial_size.0);
    let shape = packing_shape(
        k.data.len(),
        per,
        &k.decomp_base_log,
        &k.decomp_level_count,
        &k.output_glwe_size,
        &k.output_polynomial_size,
    )?;
    let params = parameters_of_key(&shape, w.key.lwe_per_glwe.0, squashing)?;
    Ok(NoiseSquashingCompressionKey {
        key: crate::core_crypto::LwePackingKeyswitchKey128::from_container(k.data, shape)?,
        params,
    })
}

/// TFHE-rs's form of the server's seeded compression key.
pub(crate) fn compressed_key_to_wire(
    key: &CompressedNoiseSquashingCompressionKey,
) -> WireCompressedKey {
    let seeded = key.packing_key();
    let shape = seeded.shape();
    WireCompressedKey {
        key: ShortintCompressedNoiseSquashingCompressionKey {
            packing_key_switching_key: SeededLwePackingKeyswitchKey128 {
                data: seeded.bodies().to_vec(),
                decomp_base_log: WireBaseLog(shape.base_log.0),
                decomp_level_count: WireLevel(shape.level.0),
                output_glwe_size: GlweSize(shape.output_glwe_dimension.0 + 1),
                output_polynomial_size: WirePolynomialSize(shape.output_polynomial_size.0),
                compression_seed: seed_to_wire(seeded.seed()),
                ciphertext_modulus: NATIVE_U128,
            },
            lwe_per_glwe: LweCiphertextCount(key.parameters().lwe_per_glwe),
        },
    }
}

/// The server's seeded compression key of TFHE-rs's data (see [`key_from_wire`]).
pub(crate) fn compressed_key_from_wire(
    w: WireCompressedKey,
    squashing: &NoiseSquashingParameters,
) -> Result<CompressedNoiseSquashingCompressionKey> {
    let k = w.key.packing_key_switching_key;
    check_native_u128(
        &k.ciphertext_modulus,
        "seeded noise-squashing compression key",
    )?;
    let per = k
        .decomp_level_count
        .0
        .saturating_mul(k.output_polynomial_size.0);
    let shape = packing_shape(
        k.data.len(),
        per,
        &k.decomp_base_log,
        &k.decomp_level_count,
        &k.output_glwe_size,
        &k.output_polynomial_size,
    )?;
    let params = parameters_of_key(&shape, w.key.lwe_per_glwe.0, squashing)?;
    Ok(CompressedNoiseSquashingCompressionKey {
        key: crate::core_crypto::SeededLwePackingKeyswitchKey128::from_parts(
            k.data,
            seed_from_wire(&k.compression_seed)?,
            shape,
        )?,
        params,
    })
}

fn kind_to_wire(kind: SquashedKind) -> DataKind {
    // Values of no block are never pushed: the counts are at least 1.
    let blocks = |n: usize| NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN);
    match kind {
        SquashedKind::Unsigned(n) => DataKind::Unsigned(blocks(n)),
        SquashedKind::Signed(n) => DataKind::Signed(blocks(n)),
        SquashedKind::Boolean => DataKind::Boolean,
    }
}

fn kind_from_wire(kind: &DataKind) -> Result<SquashedKind> {
    match kind {
        DataKind::Unsigned(n) => Ok(SquashedKind::Unsigned(n.get())),
        DataKind::Signed(n) => Ok(SquashedKind::Signed(n.get())),
        DataKind::Boolean => Ok(SquashedKind::Boolean),
        DataKind::String { .. } => Err(Error::InvalidParameter(
            "a squashed string in a compressed squashed list, which gpufhe does not support".into(),
        )),
    }
}

impl TfheRsForm for CompressedSquashedNoiseCiphertextList {
    type Wire = WireList;

    fn to_wire(&self) -> Result<WireList> {
        let l = &self.list;
        let (k, n) = (l.glwe_dimension.0, l.polynomial_size.0);
        let glwe_ciphertext_list = l
            .glwes
            .iter()
            .zip(&l.counts)
            .map(
                |(glwe, &count)| CompressedModulusSwitchedGlweCiphertext128 {
                    packed_integers: PackedIntegers128 {
                        packed_coeffs: glwe.clone(),
                        log_modulus: CiphertextModulusLog(128),
                        initial_len: glwe.len(),
                    },
                    glwe_dimension: WireGlweDimension(k),
                    polynomial_size: WirePolynomialSize(n),
                    bodies_count: LweCiphertextCount(count),
                    uncompressed_ciphertext_modulus: NATIVE_U128,
                },
            )
            .collect::<Vec<_>>();
        let meta = (!glwe_ciphertext_list.is_empty()).then_some(
            CompressedSquashedNoiseCiphertextListMeta {
                message_modulus: MessageModulus(l.message_modulus),
                carry_modulus: CarryModulus(l.carry_modulus),
                lwe_per_glwe: LweCiphertextCount(l.lwe_per_glwe),
            },
        );
        Ok(WireList {
            inner: IntegerCompressedSquashedNoiseCiphertextList {
                list: ShortintCompressedSquashedNoiseCiphertextList {
                    glwe_ciphertext_list,
                    meta,
                },
                info: self.info.iter().map(|k| kind_to_wire(*k)).collect(),
            },
            tag: tag_to_wire(self.tag),
        })
    }

    /// `Err` for GLWE ciphertexts of other sizes or moduli than one list has, a
    /// storage modulus other than 2^128, or slots that do not hold the blocks.
    fn from_wire(wire: WireList) -> Result<Self> {
        let inner = wire.inner;
        let glwes = inner.list.glwe_ciphertext_list;
        let (mut dims, mut parts, mut counts) = (None, Vec::with_capacity(glwes.len()), Vec::new());
        for g in glwes {
            check_native_u128(
                &g.uncompressed_ciphertext_modulus,
                "compressed squashed list",
            )?;
            let p = g.packed_integers;
            let len = g
                .glwe_dimension
                .0
                .saturating_mul(g.polynomial_size.0)
                .saturating_add(g.bodies_count.0);
            if p.log_modulus.0 != 128 || p.initial_len != len || p.packed_coeffs.len() != len {
                return Err(Error::InvalidParameter(format!(
                    "a compressed squashed GLWE ciphertext of {} packed values of {} bits for \
                     {len} 128-bit values",
                    p.packed_coeffs.len(),
                    p.log_modulus.0
                )));
            }
            let d = (g.glwe_dimension.0, g.polynomial_size.0);
            if *dims.get_or_insert(d) != d {
                return Err(Error::InvalidParameter(
                    "a compressed squashed list of GLWE ciphertexts of different sizes".into(),
                ));
            }
            parts.push(p.packed_coeffs);
            counts.push(g.bodies_count.0);
        }
        let (k, n) = dims.unwrap_or((0, 0));
        let (message_modulus, carry_modulus, lwe_per_glwe) =
            match (&inner.list.meta, parts.is_empty()) {
                (Some(m), false) => (m.message_modulus.0, m.carry_modulus.0, m.lwe_per_glwe.0),
                (None, true) => (0, 0, 0),
                _ => {
                    return Err(Error::InvalidParameter(
                        "a compressed squashed list whose metadata does not match its GLWE \
                     ciphertexts"
                            .into(),
                    ))
                }
            };
        let list = CompressedSquashedNoiseCiphertextList {
            list: CompressedSquashedNoiseBlockList {
                glwes: parts,
                counts,
                glwe_dimension: GlweDimension(k),
                polynomial_size: PolynomialSize(n),
                message_modulus,
                carry_modulus,
                lwe_per_glwe,
            },
            info: inner
                .info
                .iter()
                .map(kind_from_wire)
                .collect::<Result<_>>()?,
            tag: tag_from_wire(&wire.tag),
        };
        list.validate()?;
        Ok(list)
    }
}

versionize_through_wire!(
    "high_level_api::CompressedSquashedNoiseCiphertextList",
    WireList,
    [] CompressedSquashedNoiseCiphertextList
);

/// Its serde form is TFHE-rs's (gpufhe's own format has none for it).
impl serde::Serialize for CompressedSquashedNoiseCiphertextList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.to_wire()
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for CompressedSquashedNoiseCiphertextList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Self::from_wire(WireList::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}
