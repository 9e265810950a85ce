//! Mirror types of TFHE-rs 1.8's serialized data ("wire" types): the same fields, in
//! the same order, versioned by `tfhe-versionable` with the same version enums, so
//! that their bytes are TFHE-rs's (docs/tfhe-rs-format.md describes each of them).
//!
//! They hold data only. What a value means, and whether it is valid, is decided
//! once per entity when it is converted to or from gpufhe's own types (the
//! conversion files next to this folder). Versions that TFHE-rs 1.8 no longer
//! writes are [`Deprecated`](tfhe_versionable::deprecation::Deprecated)
//! placeholders: reading one is a clear error.

/// Declares a wire type: the item, its derives, and its version enum, whose last
/// variant is the type itself and whose earlier variants (`old`) are versions
/// gpufhe does not read.
macro_rules! wire {
    ($versions:ident [$($old:ident)*] $current:ident $name:ident: $item:item) => {
        #[derive(
            Clone,
            Debug,
            PartialEq,
            serde::Serialize,
            serde::Deserialize,
            tfhe_versionable::Versionize,
        )]
        #[versionize($versions)]
        #[allow(clippy::large_enum_variant, clippy::upper_case_acronyms)]
        $item

        impl tfhe_versionable::deprecation::Deprecable for $name {
            const TYPE_NAME: &'static str = stringify!($name);
            const MIN_SUPPORTED_APP_VERSION: &'static str =
                "the version that TFHE-rs 1.8 writes (convert older data with TFHE-rs 1.8 first)";
        }

        #[derive(tfhe_versionable::VersionsDispatch)]
        #[allow(dead_code, clippy::large_enum_variant)]
        pub enum $versions {
            $($old(tfhe_versionable::deprecation::Deprecated<$name>),)*
            $current($name),
        }
    };
}

pub(crate) mod compressed_list;
pub(crate) mod compression;
pub(crate) mod core;
pub(crate) mod dedicated;
pub(crate) mod high_level;
pub(crate) mod key_switching;
pub(crate) mod noise_squashing;
pub(crate) mod public_key;
pub(crate) mod re_randomization;
pub(crate) mod server;
pub(crate) mod shortint;
pub(crate) mod squash_multi_bit;
pub(crate) mod squashed_compression_keys;
pub(crate) mod squashed_lists;
pub(crate) mod squashed_values;
#[cfg(feature = "zk-pok")]
pub(crate) mod zk;
