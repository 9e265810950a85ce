//! The two forms of [`super::public::PublicKey`] and
//! [`super::public::CompressedPublicKey`]: the compact public key (gpufhe's
//! default, small) and TFHE-rs's classical public key (LWE encryptions of zero,
//! [`shortint::ClassicalPublicKey`]), with their serde form in gpufhe's own format
//! and their encryption of one value.

use super::compact_public::{CompactPublicKey, CompressedCompactPublicKey};
use super::tag::KeyTag;
use crate::error::Result;
use crate::high_level::internals::storage::Storage;
use crate::high_level::lists::compact::{block_counts, DataKind};
use crate::high_level::lists::expander::{Expandable, ExpandedBlocks};
use crate::integer::{clear_digits, U2048};
use crate::scheduler::Blocks;
use crate::shortint::{self, ShortintParameters};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The first version of gpufhe's own format whose public keys say their form
/// (earlier ones hold a compact public key only).
const FIRST_TWO_FORM_VERSION: u32 = 4;

/// The serde form of a shared key: the key's own.
mod shared {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub(super) fn serialize<T: Serialize, S: Serializer>(
        key: &Arc<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        T::serialize(key, s)
    }

    pub(super) fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Arc<T>, D::Error> {
        T::deserialize(d).map(Arc::new)
    }
}

/// A public key: compact, or TFHE-rs's classical one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum PublicKeyForm {
    /// The compact public key.
    Compact(Box<CompactPublicKey>),
    /// LWE encryptions of zero, for the client key of `tag`.
    Classical {
        /// The tag of the client key.
        tag: KeyTag,
        /// The encryptions of zero.
        #[serde(with = "shared")]
        key: Arc<shortint::ClassicalPublicKey>,
    },
}

/// A compressed public key: compact, or TFHE-rs's classical one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum CompressedPublicKeyForm {
    /// The compressed compact public key.
    Compact(Box<CompressedCompactPublicKey>),
    /// Seeded LWE encryptions of zero, for the client key of `tag`.
    Classical {
        /// The tag of the client key.
        tag: KeyTag,
        /// The seeded encryptions of zero.
        #[serde(with = "shared")]
        key: Arc<shortint::CompressedClassicalPublicKey>,
    },
}

/// Reads a form of gpufhe's own format: before [`FIRST_TWO_FORM_VERSION`], the
/// compact key alone.
macro_rules! read_form {
    ($form:ident, $compact:ty, $d:expr) => {
        if crate::serialization::codec::reading_version() < FIRST_TWO_FORM_VERSION {
            <$compact>::deserialize($d).map($form::Compact)
        } else {
            $form::deserialize($d)
        }
    };
}

/// [`PublicKeyForm`] as gpufhe's own format holds it (its version's layout).
pub(crate) fn read_public_key_form<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<PublicKeyForm, D::Error> {
    read_form!(PublicKeyForm, Box<CompactPublicKey>, d)
}

/// [`CompressedPublicKeyForm`] as gpufhe's own format holds it.
pub(crate) fn read_compressed_public_key_form<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<CompressedPublicKeyForm, D::Error> {
    read_form!(CompressedPublicKeyForm, Box<CompressedCompactPublicKey>, d)
}

/// A classical public key, plain or compressed, as it encrypts.
#[derive(Clone, Copy)]
pub enum ClassicalKey<'a> {
    /// The encryptions of zero.
    Plain(&'a shortint::ClassicalPublicKey),
    /// The seeded encryptions of zero.
    Compressed(&'a shortint::CompressedClassicalPublicKey),
}

impl ClassicalKey<'_> {
    /// The parameters of its blocks.
    pub(crate) fn parameters(&self) -> &ShortintParameters {
        match self {
            Self::Plain(k) => k.parameters(),
            Self::Compressed(k) => k.parameters(),
        }
    }

    /// One value of `kind` (its low bits in `bits`) for the client key of `tag`:
    /// each base-`message_modulus` digit encrypted as a block.
    pub(crate) fn encrypt_value<T: Expandable>(
        &self,
        tag: KeyTag,
        kind: DataKind,
        bits: U2048,
    ) -> Result<T> {
        let p = *self.parameters();
        let count = block_counts(&p, &[kind], "value")?[0];
        let digits = clear_digits(bits, p.message_modulus, count);
        let blocks = match self {
            Self::Plain(k) => k.encrypt_many(&digits)?,
            Self::Compressed(k) => k.encrypt_many(&digits)?,
        };
        T::from_expanded(
            kind,
            ExpandedBlocks(Storage::Encrypted {
                tag,
                blocks: Blocks::Cpu(Arc::new(blocks)),
            }),
        )
    }
}
