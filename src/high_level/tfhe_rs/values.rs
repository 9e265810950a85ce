//! Encrypted values between gpufhe and TFHE-rs's data: blocks, `FheUint`, `FheInt`
//! and `FheBool`.

use super::parameters::{tag_from_wire, tag_to_wire};
use super::wire::core::{CiphertextModulus, LweCiphertext, PBSOrder};
use super::wire::high_level::{
    BooleanBlock, FheBool as WireFheBool, FheInt as WireFheInt, FheUint as WireFheUint,
    InnerBoolean, InnerRadix, RadixCiphertext, ReRandomizationMetadata, Tag,
};
use super::wire::shortint::{
    AtomicPatternKind, CarryModulus, Ciphertext as WireBlock, Degree, MessageModulus, NoiseLevel,
};
use super::{versionize_through_wire, TfheRsForm};
use crate::core_crypto::{add_plaintext_to_lwe_ciphertext_assign, LweCiphertextOwned};
use crate::error::{Error, Result};
use crate::high_level::global_state::current_server_key;
use crate::high_level::internals::storage::Storage;
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::{FheBool, FheInt, FheIntId, FheUint, FheUintId};
use crate::integer::{block_count, clear_digits, from_digits, U2048};
use crate::scheduler::Blocks;
use crate::shortint::{Ciphertext, ShortintParameters, DEFAULT_PARAMETERS};

/// TFHE-rs's form of a block (under the big key: keyswitch, then bootstrap).
pub(crate) fn block_to_wire(block: &Ciphertext) -> WireBlock {
    WireBlock {
        ct: LweCiphertext {
            data: block.as_lwe().as_slice().to_vec(),
            ciphertext_modulus: CiphertextModulus::NATIVE_U64,
        },
        degree: Degree(block.degree),
        noise_level: NoiseLevel(block.noise_level),
        message_modulus: MessageModulus(block.message_modulus),
        carry_modulus: CarryModulus(block.carry_modulus),
        atomic_pattern: AtomicPatternKind::Standard(PBSOrder::KeyswitchBootstrap),
    }
}

/// The block of TFHE-rs's data (its bookkeeping is checked by the value it
/// belongs to).
pub(crate) fn block_from_wire(block: WireBlock) -> Result<Ciphertext> {
    block.ct.ciphertext_modulus.check_native_u64("block")?;
    if block.atomic_pattern != AtomicPatternKind::Standard(PBSOrder::KeyswitchBootstrap) {
        return Err(Error::InvalidParameter(format!(
            "a block of atomic pattern {:?}; gpufhe's blocks live under the big key \
             (the standard pattern, keyswitch then bootstrap)",
            block.atomic_pattern
        )));
    }
    Ok(Ciphertext {
        ct: LweCiphertextOwned::from_container(block.ct.data)?,
        degree: block.degree.0,
        noise_level: block.noise_level.0,
        message_modulus: block.message_modulus.0,
        carry_modulus: block.carry_modulus.0,
    })
}

/// The parameters of the blocks a trivial value is written with: those of the
/// current server key, else the default ones (a trivial value belongs to no key).
fn trivial_parameters() -> ShortintParameters {
    current_server_key().map_or(DEFAULT_PARAMETERS, |key| *key.config().parameters())
}

/// The blocks and tag of a `bits`-bit value, on the CPU, as TFHE-rs holds them: a
/// trivial value becomes trivial blocks (noise level 0) of the current server
/// key's parameters (else the default ones) with TFHE-rs's empty tag.
pub(crate) fn storage_to_blocks(storage: &Storage, bits: u32) -> Result<(Vec<Ciphertext>, KeyTag)> {
    match storage {
        Storage::Encrypted { tag, blocks } => Ok((blocks.to_cpu()?.into_owned(), *tag)),
        Storage::Trivial(value) => {
            let p = trivial_parameters();
            let size = p.big_lwe_dimension().to_lwe_size();
            let digits = clear_digits(**value, p.message_modulus, block_count(&p, bits));
            let blocks = digits.into_iter().map(|digit| {
                let mut ct = LweCiphertextOwned::new_zero(size);
                add_plaintext_to_lwe_ciphertext_assign(&mut ct, digit * p.delta());
                Ciphertext::from_parts(ct, digit, 0, &p)
            });
            Ok((blocks.collect(), KeyTag::UNTAGGED))
        }
    }
}

/// The blocks and tag of a `bits`-bit value, as TFHE-rs writes them
/// ([`storage_to_blocks`]).
pub(crate) fn storage_to_wire(storage: &Storage, bits: u32) -> Result<(Vec<WireBlock>, Tag)> {
    let (blocks, tag) = storage_to_blocks(storage, bits)?;
    Ok((blocks.iter().map(block_to_wire).collect(), tag_to_wire(tag)))
}

/// The clear value of blocks that are all trivial (zero mask, noise level 0, a
/// body that is an exact multiple of the encoding step), `None` otherwise.
fn trivial_value(blocks: &[Ciphertext]) -> Option<U2048> {
    let first = blocks.first()?;
    let total = first.message_modulus.checked_mul(first.carry_modulus)?;
    let delta = (1u64 << 63).checked_div(total).filter(|&d| d > 0)?;
    let digits = blocks.iter().map(|b| {
        let (mask, body) = b
            .as_lwe()
            .as_slice()
            .split_at(b.as_lwe().as_slice().len() - 1);
        let trivial = b.noise_level == 0 && mask.iter().all(|&a| a == 0);
        (trivial && body[0] % delta == 0).then(|| body[0] / delta)
    });
    let digits = digits.collect::<Option<Vec<u64>>>()?;
    from_digits(&digits, first.message_modulus).ok()
}

/// The storage of a `bits`-bit value made of `blocks` under `tag`, checked as
/// gpufhe checks what it reads (blocks whose degrees are at most `max_value`);
/// trivial blocks become a trivial value, which belongs to every key.
pub(crate) fn storage_from_blocks(
    blocks: Vec<Ciphertext>,
    tag: KeyTag,
    bits: u32,
    max_value: Option<u64>,
) -> Result<Storage> {
    let storage = Storage::Encrypted {
        tag,
        blocks: Blocks::cpu(blocks),
    };
    storage.validate(bits, max_value)?;
    let Storage::Encrypted { blocks, .. } = &storage else {
        return Ok(storage);
    };
    Ok(match trivial_value(&blocks.to_cpu()?) {
        Some(value) if value.fits_in(bits) => Storage::trivial(value),
        _ => storage,
    })
}

/// The storage of a `bits`-bit value read from TFHE-rs's data
/// ([`storage_from_blocks`]).
pub(crate) fn storage_from_wire(
    blocks: Vec<WireBlock>,
    tag: &Tag,
    bits: u32,
    max_value: Option<u64>,
) -> Result<Storage> {
    let blocks = blocks
        .into_iter()
        .map(block_from_wire)
        .collect::<Result<Vec<_>>>()?;
    storage_from_blocks(blocks, tag_from_wire(tag), bits, max_value)
}

impl<Id: FheUintId> TfheRsForm for FheUint<Id> {
    type Wire = WireFheUint;

    fn to_wire(&self) -> Result<WireFheUint> {
        let (blocks, tag) = storage_to_wire(&self.storage, Id::BITS)?;
        Ok(WireFheUint {
            ciphertext: InnerRadix(RadixCiphertext { blocks }),
            tag,
            re_randomization_metadata: metadata_to_wire(&self.re_randomization_metadata),
        })
    }

    fn from_wire(wire: WireFheUint) -> Result<Self> {
        let blocks = wire.ciphertext.0.blocks;
        let mut value = Self::from_storage(storage_from_wire(blocks, &wire.tag, Id::BITS, None)?);
        value.re_randomization_metadata = metadata_from_wire(wire.re_randomization_metadata);
        Ok(value)
    }
}

impl<Id: FheIntId> TfheRsForm for FheInt<Id> {
    type Wire = WireFheInt;

    fn to_wire(&self) -> Result<WireFheInt> {
        let (blocks, tag) = storage_to_wire(&self.inner.storage, Self::bits())?;
        Ok(WireFheInt {
            ciphertext: InnerRadix(RadixCiphertext { blocks }),
            tag,
            re_randomization_metadata: metadata_to_wire(self.re_randomization_metadata()),
        })
    }

    fn from_wire(wire: WireFheInt) -> Result<Self> {
        let blocks = wire.ciphertext.0.blocks;
        let storage = storage_from_wire(blocks, &wire.tag, Self::bits(), None)?;
        let mut value = Self::from_storage(storage);
        *value.re_randomization_metadata_mut() = metadata_from_wire(wire.re_randomization_metadata);
        Ok(value)
    }
}

impl TfheRsForm for FheBool {
    type Wire = WireFheBool;

    fn to_wire(&self) -> Result<WireFheBool> {
        let (mut blocks, tag) = storage_to_wire(&self.storage, 1)?;
        let block = blocks
            .pop()
            .filter(|_| blocks.is_empty())
            .ok_or_else(|| Error::InvalidParameter("a boolean holds exactly one block".into()))?;
        Ok(WireFheBool {
            ciphertext: InnerBoolean(BooleanBlock(block)),
            tag,
            re_randomization_metadata: metadata_to_wire(&self.re_randomization_metadata),
        })
    }

    fn from_wire(wire: WireFheBool) -> Result<Self> {
        let block = wire.ciphertext.0 .0;
        let mut value = Self::from_storage(storage_from_wire(vec![block], &wire.tag, 1, Some(1))?);
        value.re_randomization_metadata = metadata_from_wire(wire.re_randomization_metadata);
        Ok(value)
    }
}

/// TFHE-rs's form of a value's re-randomization metadata.
pub(crate) fn metadata_to_wire(
    metadata: &crate::high_level::ReRandomizationMetadata,
) -> ReRandomizationMetadata {
    ReRandomizationMetadata {
        inner: metadata.data().to_vec(),
    }
}

/// The re-randomization metadata of TFHE-rs's form.
pub(crate) fn metadata_from_wire(
    wire: ReRandomizationMetadata,
) -> crate::high_level::ReRandomizationMetadata {
    crate::high_level::ReRandomizationMetadata::new(&wire.inner)
}

versionize_through_wire!("high_level_api::FheUint", WireFheUint, [Id: FheUintId] FheUint<Id>);
versionize_through_wire!("high_level_api::FheInt", WireFheInt, [Id: FheIntId] FheInt<Id>);
versionize_through_wire!("high_level_api::FheBool", WireFheBool, [] FheBool);
