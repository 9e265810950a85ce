//! TFHE-rs's classical public keys, plain and compressed, between gpufhe and
//! TFHE-rs's data: the LWE encryptions of zero under the client key's big key (the
//! bodies and the masks' seed for the compressed key) as they are, the parameter
//! set, the standard atomic pattern and the tag. Only gpufhe's keys of the
//! classical form have this form; a compact-form key is refused with the way out.

use super::parameters::{
    parameters_from_wire, parameters_to_wire, seed_from_wire, seed_to_wire, tag_from_wire,
    tag_to_wire,
};
use super::wire::core::{CiphertextModulus, LweCiphertextList, LweSize as WireLweSize, PBSOrder};
use super::wire::public_key::{
    CompressedPublicKey as WireCompressed, IntegerCompressedPublicKey, IntegerPublicKey,
    LwePublicKey, PublicKey as WireKey, SeededLweCiphertextList as WireSeededList,
    SeededLwePublicKey, ShortintCompressedPublicKey, ShortintParameterSet,
    ShortintParameterSetInner, ShortintPublicKey,
};
use super::wire::shortint::AtomicPatternKind;
use super::{versionize_through_wire, TfheRsForm};
use crate::core_crypto::{LweSize, SeededLweCiphertextList};
use crate::error::{Error, Result};
use crate::high_level::{CompressedPublicKey, PublicKey};
use crate::shortint::{self, ShortintParameters};

/// The `Err` of a compact-form key written in TFHE-rs's form.
fn compact_form(what: &str, constructor: &str) -> Error {
    Error::InvalidParameter(format!(
        "this {what} is of the compact form, which TFHE-rs's {what} is not (TFHE-rs's is \
         the classical key): make one with gpufhe::{what}::{constructor} to write it in \
         TFHE-rs's form, or write this one in gpufhe's own format with \
         gpufhe::serialization::safe_serialize"
    ))
}

/// TFHE-rs's parameter set and atomic pattern of a key of parameters `p`.
fn parameters_to(p: &ShortintParameters) -> (ShortintParameterSet, AtomicPatternKind) {
    (
        ShortintParameterSet {
            inner: ShortintParameterSetInner::PBSOnly(parameters_to_wire(p)),
        },
        AtomicPatternKind::Standard(PBSOrder::KeyswitchBootstrap),
    )
}

/// The parameters of a TFHE-rs key; `Err` unless its blocks are of the standard
/// pattern under the big key, its modulus native, and its ciphertexts of the big
/// key's size.
fn parameters_from(
    set: &ShortintParameterSet,
    pattern: AtomicPatternKind,
    modulus: &CiphertextModulus,
    lwe_size: usize,
) -> Result<ShortintParameters> {
    modulus.check_native_u64("public key")?;
    if pattern != AtomicPatternKind::Standard(PBSOrder::KeyswitchBootstrap) {
        return Err(Error::InvalidParameter(format!(
            "a public key of atomic pattern {pattern:?}; gpufhe's blocks live under the big \
             key of the standard pattern"
        )));
    }
    let ShortintParameterSetInner::PBSOnly(pbs) = &set.inner else {
        return Err(Error::InvalidParameter(
            "a public key of WoPBS or KeySwitch32 parameters, which gpufhe does not support".into(),
        ));
    };
    let p = parameters_from_wire(pbs)?;
    crate::error::check_eq(
        "LWE size of the public key",
        p.big_lwe_dimension().0 + 1,
        lwe_size,
    )?;
    Ok(p)
}

impl TfheRsForm for PublicKey {
    type Wire = WireKey;

    fn to_wire(&self) -> Result<WireKey> {
        let key = self
            .classical()
            .ok_or_else(|| compact_form("PublicKey", "new_classical"))?;
        let p = key.parameters();
        let (parameters, atomic_pattern) = parameters_to(p);
        Ok(WireKey {
            key: IntegerPublicKey {
                key: ShortintPublicKey {
                    lwe_public_key: LwePublicKey {
                        lwe_list: LweCiphertextList {
                            data: key.words().to_vec(),
                            lwe_size: WireLweSize(p.big_lwe_dimension().0 + 1),
                            ciphertext_modulus: CiphertextModulus::NATIVE_U64,
                        },
                    },
                    parameters,
                    atomic_pattern,
                },
            },
            tag: tag_to_wire(self.tag()),
        })
    }

    fn from_wire(wire: WireKey) -> Result<Self> {
        let key = wire.key.key;
        let list = key.lwe_public_key.lwe_list;
        let p = parameters_from(
            &key.parameters,
            key.atomic_pattern,
            &list.ciphertext_modulus,
            list.lwe_size.0,
        )?;
        let key = shortint::ClassicalPublicKey::from_parts(p, list.data)?;
        Ok(PublicKey::from_classical(tag_from_wire(&wire.tag), key))
    }
}

impl TfheRsForm for CompressedPublicKey {
    type Wire = WireCompressed;

    fn to_wire(&self) -> Result<WireCompressed> {
        let key = self
            .classical()
            .ok_or_else(|| compact_form("CompressedPublicKey", "new_classical"))?;
        let (p, zeros) = (key.parameters(), key.zeros());
        let (parameters, atomic_pattern) = parameters_to(p);
        Ok(WireCompressed {
            key: IntegerCompressedPublicKey {
                key: ShortintCompressedPublicKey {
                    lwe_public_key: SeededLwePublicKey {
                        lwe_list: WireSeededList {
                            data: zeros.bodies().to_vec(),
                            lwe_size: WireLweSize(zeros.lwe_size().0),
                            compression_seed: seed_to_wire(zeros.seed()),
                            ciphertext_modulus: CiphertextModulus::NATIVE_U64,
                        },
                    },
                    parameters,
                    atomic_pattern,
                },
            },
            tag: tag_to_wire(self.tag()),
        })
    }

    fn from_wire(wire: WireCompressed) -> Result<Self> {
        let key = wire.key.key;
        let list = key.lwe_public_key.lwe_list;
        let p = parameters_from(
            &key.parameters,
            key.atomic_pattern,
            &list.ciphertext_modulus,
            list.lwe_size.0,
        )?;
        let zeros = SeededLweCiphertextList::from_parts(
            list.data,
            seed_from_wire(&list.compression_seed)?,
            LweSize(list.lwe_size.0),
        )?;
        let key = shortint::CompressedClassicalPublicKey::from_parts(p, zeros)?;
        Ok(CompressedPublicKey::from_classical(
            tag_from_wire(&wire.tag),
            key,
        ))
    }
}

versionize_through_wire!("high_level_api::PublicKey", WireKey, [] PublicKey);
versionize_through_wire!("high_level_api::CompressedPublicKey", WireCompressed, [] CompressedPublicKey);
