//! gpufhe's own safe serialization and the conformance of squashed values: the key
//! tag, and squashed blocks of the configuration's noise-squashing encoding and
//! size.

use super::{SquashedNoiseFheBool, SquashedNoiseFheInt, SquashedNoiseFheUint};
use crate::error::{check_eq, Error, Result};
use crate::high_level::serialization::conformance::{
    ConformanceParams, Conformant, VALUE_SIZE_LIMIT,
};
use crate::serialization::codec::SafeSerialization;
use crate::shortint::SquashedNoiseBlock;

/// `Err` unless `blocks` are of the noise-squashing parameters of `params` (under
/// its compression key for blocks out of a compressed list).
fn check_blocks<'a>(
    params: &ConformanceParams,
    blocks: impl IntoIterator<Item = &'a SquashedNoiseBlock>,
    post_decompression: bool,
) -> Result<()> {
    let ns = params
        .config()
        .noise_squashing_parameters()
        .ok_or_else(|| {
            Error::InvalidParameter(
                "a squashed value of a configuration without noise squashing".into(),
            )
        })?;
    let size = if post_decompression {
        let c = params
            .config()
            .noise_squashing_compression_parameters()
            .ok_or_else(|| {
                Error::InvalidParameter(
                    "a squashed value out of a compressed list, of a configuration without \
                     noise-squashing compression"
                        .into(),
                )
            })?;
        c.packing_ks_glwe_dimension.0 * c.packing_ks_polynomial_size.0
    } else {
        ns.glwe_dimension.0 * ns.polynomial_size.0
    };
    for b in blocks {
        check_eq(
            "message modulus of a squashed block",
            ns.message_modulus as usize,
            b.message_modulus() as usize,
        )?;
        check_eq(
            "carry modulus of a squashed block",
            ns.carry_modulus as usize,
            b.carry_modulus() as usize,
        )?;
        check_eq(
            "LWE dimension of a squashed block",
            size,
            b.as_lwe().lwe_dimension().0,
        )?;
    }
    Ok(())
}

macro_rules! squashed_radix_conformance {
    ($ty:ident, $name:literal) => {
        impl SafeSerialization for $ty {
            const TYPE_NAME: &'static str = $name;
            const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
        }

        impl Conformant for $ty {
            fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
                params.check_tag("the squashed value", Some(self.tag))?;
                check_eq(
                    "number of squashed blocks",
                    self.inner.original_block_count.div_ceil(2),
                    self.inner.packed_blocks.len(),
                )?;
                check_blocks(params, &self.inner.packed_blocks, self.post_decompression)
            }
        }
    };
}

squashed_radix_conformance!(SquashedNoiseFheUint, "SquashedNoiseFheUint");
squashed_radix_conformance!(SquashedNoiseFheInt, "SquashedNoiseFheInt");

impl SafeSerialization for SquashedNoiseFheBool {
    const TYPE_NAME: &'static str = "SquashedNoiseFheBool";
    const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
}

impl Conformant for SquashedNoiseFheBool {
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        params.check_tag("the squashed value", Some(self.tag))?;
        check_blocks(params, [&self.inner], self.post_decompression)
    }
}

impl SafeSerialization for super::list::CompressedSquashedNoiseCiphertextList {
    const TYPE_NAME: &'static str = "CompressedSquashedNoiseCiphertextList";
    const DEFAULT_SIZE_LIMIT: u64 = VALUE_SIZE_LIMIT;
}

impl Conformant for super::list::CompressedSquashedNoiseCiphertextList {
    /// The key tag, a well-formed list, and GLWE ciphertexts of the configuration's
    /// noise-squashing compression parameters.
    fn conforms_to(&self, params: &ConformanceParams) -> Result<()> {
        params.check_tag("the compressed squashed list", Some(self.tag))?;
        self.validate()?;
        if self.list.is_empty() {
            return Ok(());
        }
        let c = params
            .config()
            .noise_squashing_compression_parameters()
            .ok_or_else(|| {
                Error::InvalidParameter(
                    "a compressed squashed list of a configuration without noise-squashing \
                     compression"
                        .into(),
                )
            })?;
        let l = &self.list;
        let expected = (
            c.packing_ks_glwe_dimension.0,
            c.packing_ks_polynomial_size.0,
            c.lwe_per_glwe,
            c.message_modulus,
            c.carry_modulus,
        );
        let got = (
            l.glwe_dimension.0,
            l.polynomial_size.0,
            l.lwe_per_glwe,
            l.message_modulus,
            l.carry_modulus,
        );
        if got != expected {
            return Err(Error::InvalidParameter(format!(
                "a compressed squashed list of (k, N, blocks per GLWE, message, carry) = \
                 {got:?}, where the compression parameters give {expected:?}"
            )));
        }
        Ok(())
    }
}
