//! TFHE-rs 1.8's high-level squashed values, as serialized: `SquashedNoiseFheUint`,
//! `SquashedNoiseFheInt` (the same fields) and `SquashedNoiseFheBool`.

use super::high_level::Tag;
use super::noise_squashing::{InnerSquashedBool, InnerSquashedRadix};

wire!(SquashedNoiseCiphertextStateVersions [] V0 SquashedNoiseCiphertextState:
/// Whether a squashed value comes from a squashing or a decompression.
pub enum SquashedNoiseCiphertextState {
    /// Squashed.
    Normal,
    /// Decompressed from a compressed squashed list.
    PostDecompression,
});

wire!(SquashedNoiseFheUintVersions [V0] V1 SquashedNoiseFheUint:
/// A squashed `FheUint` (and, with the same fields, `FheInt`).
pub struct SquashedNoiseFheUint {
    pub(crate) inner: InnerSquashedRadix,
    pub(crate) state: SquashedNoiseCiphertextState,
    pub(crate) tag: Tag,
});

wire!(SquashedNoiseFheBoolVersions [V0] V1 SquashedNoiseFheBool:
/// A squashed `FheBool`.
pub struct SquashedNoiseFheBool {
    pub(crate) inner: InnerSquashedBool,
    pub(crate) state: SquashedNoiseCiphertextState,
    pub(crate) tag: Tag,
});
