//! Compressed values between gpufhe and TFHE-rs's data: `CompressedFheUint`,
//! `CompressedFheInt` and `CompressedFheBool`, seeded (encrypted compressed) or
//! modulus-switched (compressed after a computation, two blocks per ciphertext).

use super::parameters::{seed_from_wire, seed_to_wire};
use super::parameters::{tag_from_wire, tag_to_wire};
use super::wire::core::{
    CiphertextModulus, CiphertextModulusLog, LweDimension as WireLweDimension,
    LweSize as WireLweSize, PBSOrder, SeededLweCiphertext,
};
use super::wire::high_level::{
    CompressedFheBool as WireBool, CompressedFheInt as WireInt, CompressedFheUint as WireUint,
    CompressedModulusSwitchedRadixCiphertext, CompressedModulusSwitchedRadixCiphertextGeneric,
    CompressedRadixCiphertext, CompressedSignedRadix, CompressedUnsignedRadix,
    InnerCompressedFheBool, Tag,
};
use super::wire::shortint::{
    AtomicPatternKind, CarryModulus, CompressedCiphertext, CompressedModulusSwitchedCiphertext,
    CompressedModulusSwitchedLweCiphertext, Degree, InternalCompressedModulusSwitchedCiphertext,
    MessageModulus, NoiseLevel, PackedIntegers,
};
use super::{versionize_through_wire, TfheRsForm};
use crate::core_crypto::{CompressionSeed, LweDimension, LweSize, SeededLweCiphertextList};
use crate::error::{check_eq, Error, Result};
use crate::high_level::internals::compressed::{CompressedBlocks, CompressedStorage};
use crate::high_level::{
    CompressedFheBool, CompressedFheInt, CompressedFheUint, FheIntId, FheUintId,
};
use crate::shortint::{ModulusSwitchedBlocks, PairedBlocks, SeededBlocks};

/// The degrees TFHE-rs writes for the compressed blocks of a value: a pair of
/// digits, and a block alone.
#[derive(Clone, Copy)]
struct Degrees {
    pair: u64,
    single: u64,
}

impl Degrees {
    fn of_integer(m: u64) -> Self {
        Self {
            pair: m.saturating_mul(m).saturating_sub(1),
            single: m.saturating_sub(1),
        }
    }

    const BOOLEAN: Self = Self { pair: 1, single: 1 };
}

/// Block `i` of `blocks` as TFHE-rs's modulus-switched block of degree `degree`.
fn switched_to_wire(
    blocks: &ModulusSwitchedBlocks,
    i: usize,
    degree: u64,
) -> Result<CompressedModulusSwitchedCiphertext> {
    let n = blocks.lwe_dimension();
    let moduli = (blocks.message_modulus(), blocks.carry_modulus());
    let one = ModulusSwitchedBlocks::from_switched_values(
        &blocks.switched_values(i),
        1,
        n,
        blocks.log_modulus(),
        moduli,
    )?;
    Ok(CompressedModulusSwitchedCiphertext {
        compressed_modulus_switched_lwe_ciphertext:
            InternalCompressedModulusSwitchedCiphertext::Classic(
                CompressedModulusSwitchedLweCiphertext {
                    packed_integers: PackedIntegers {
                        packed_coeffs: one.words().to_vec(),
                        log_modulus: CiphertextModulusLog(blocks.log_modulus() as usize),
                        initial_len: n.0 + 1,
                    },
                    lwe_dimension: WireLweDimension(n.0),
                },
            ),
        degree: Degree(degree),
        message_modulus: MessageModulus(moduli.0),
        carry_modulus: CarryModulus(moduli.1),
        atomic_pattern: AtomicPatternKind::Standard(PBSOrder::KeyswitchBootstrap),
    })
}

/// TFHE-rs's modulus-switched blocks as gpufhe's (`Err` for a degree above
/// `max_degree`, or another shape than the first block's).
fn switched_from_wire(
    wire: &[CompressedModulusSwitchedCiphertext],
    max_degree: u64,
) -> Result<Option<ModulusSwitchedBlocks>> {
    let Some(first) = wire.first() else {
        return Ok(None);
    };
    let moduli = (first.message_modulus.0, first.carry_modulus.0);
    let mut values = Vec::new();
    let mut shape = None;
    for block in wire {
        let InternalCompressedModulusSwitchedCiphertext::Classic(lwe) =
            &block.compressed_modulus_switched_lwe_ciphertext
        else {
            return Err(Error::InvalidParameter(
                "a multi-bit modulus-switched block, which gpufhe does not support".into(),
            ));
        };
        if block.atomic_pattern != AtomicPatternKind::Standard(PBSOrder::KeyswitchBootstrap)
            || (block.message_modulus.0, block.carry_modulus.0) != moduli
            || block.degree.0 > max_degree
        {
            return Err(Error::InvalidParameter(format!(
                "a modulus-switched block of degree {} (at most {max_degree}), moduli ({}, {}) \
                 or atomic pattern {:?} that the value's other blocks do not have",
                block.degree.0,
                block.message_modulus.0,
                block.carry_modulus.0,
                block.atomic_pattern
            )));
        }
        let n = LweDimension(lwe.lwe_dimension.0);
        let bits = u32::try_from(lwe.packed_integers.log_modulus.0).unwrap_or(u32::MAX);
        check_eq(
            "values of a modulus-switched block",
            n.0.saturating_add(1),
            lwe.packed_integers.initial_len,
        )?;
        if shape.is_some_and(|s| s != (n, bits)) {
            return Err(Error::InvalidParameter(
                "modulus-switched blocks of different dimensions or moduli".into(),
            ));
        }
        shape = Some((n, bits));
        let one = ModulusSwitchedBlocks::from_words(
            lwe.packed_integers.packed_coeffs.clone(),
            1,
            n,
            bits,
            moduli,
        )?;
        values.extend(one.switched_values(0));
    }
    let (n, bits) = shape.unwrap_or((LweDimension(0), 0));
    ModulusSwitchedBlocks::from_switched_values(&values, wire.len(), n, bits, moduli).map(Some)
}

/// TFHE-rs's pairs and last block of modulus-switched blocks.
fn paired_to_wire(
    storage: &CompressedStorage,
    degrees: Degrees,
) -> Result<CompressedModulusSwitchedRadixCiphertextGeneric> {
    let blocks = match &storage.blocks {
        CompressedBlocks::Paired(blocks) => blocks,
        _ => return Err(not_paired()),
    };
    let pairs = blocks.pairs();
    Ok(CompressedModulusSwitchedRadixCiphertextGeneric {
        paired_blocks: (0..pairs.len())
            .map(|i| switched_to_wire(pairs, i, degrees.pair))
            .collect::<Result<_>>()?,
        last_block: blocks
            .last()
            .map(|l| switched_to_wire(l, 0, degrees.single))
            .transpose()?,
    })
}

fn not_paired() -> Error {
    Error::InvalidParameter(
        "this compressed value was compressed block by block by an older gpufhe, which \
         TFHE-rs's format cannot hold: decompress it and compress it again"
            .into(),
    )
}

/// gpufhe's paired blocks of TFHE-rs's pairs and last block.
fn paired_from_wire(
    wire: &CompressedModulusSwitchedRadixCiphertextGeneric,
    degrees: Degrees,
) -> Result<CompressedBlocks> {
    let pairs = switched_from_wire(&wire.paired_blocks, degrees.pair)?;
    let last = switched_from_wire(wire.last_block.as_slice(), degrees.single)?;
    let pairs = match (pairs, &last) {
        (Some(pairs), _) => pairs,
        // No pair: an empty set of the last block's shape.
        (None, Some(last)) => ModulusSwitchedBlocks::from_switched_values(
            &[],
            0,
            last.lwe_dimension(),
            last.log_modulus(),
            (last.message_modulus(), last.carry_modulus()),
        )?,
        (None, None) => {
            return Err(Error::InvalidParameter(
                "a compressed value of no blocks".into(),
            ))
        }
    };
    Ok(CompressedBlocks::Paired(PairedBlocks::from_parts(
        pairs, last,
    )?))
}

/// The seeded blocks of a value (one run or several).
fn seeded_runs(blocks: &CompressedBlocks) -> Option<&[SeededBlocks]> {
    match blocks {
        CompressedBlocks::Seeded(run) => Some(std::slice::from_ref(run)),
        CompressedBlocks::SeededRuns(runs) => Some(runs),
        _ => None,
    }
}

/// TFHE-rs's seeded blocks of degree `degree`: each its body and the seed of its
/// mask in its run's stream.
fn seeded_to_wire(runs: &[SeededBlocks], degree: u64) -> Result<Vec<CompressedCiphertext>> {
    let mut out = Vec::new();
    for run in runs {
        let list = run.as_seeded_lwe_list();
        let dimension = list.lwe_size().0 as u64 - 1;
        for (i, &body) in list.bodies().iter().enumerate() {
            out.push(CompressedCiphertext {
                ct: SeededLweCiphertext {
                    data: body,
                    lwe_size: WireLweSize(list.lwe_size().0),
                    compression_seed: seed_to_wire(list.seed().after_words(i as u64 * dimension)?),
                    ciphertext_modulus: CiphertextModulus::NATIVE_U64,
                },
                degree: Degree(degree),
                message_modulus: MessageModulus(run.message_modulus()),
                carry_modulus: CarryModulus(run.carry_modulus()),
                atomic_pattern: AtomicPatternKind::Standard(PBSOrder::KeyswitchBootstrap),
                noise_level: NoiseLevel(1),
            });
        }
    }
    Ok(out)
}

/// gpufhe's seeded blocks of TFHE-rs's: blocks whose masks follow each other in
/// one stream make one run.
fn seeded_from_wire(wire: &[CompressedCiphertext], max_degree: u64) -> Result<CompressedBlocks> {
    let first = wire
        .first()
        .ok_or_else(|| Error::InvalidParameter("a compressed value of no blocks".into()))?;
    let moduli = (first.message_modulus.0, first.carry_modulus.0);
    let size = first.ct.lwe_size.0;
    let dimension = (size as u64).saturating_sub(1);
    // (seed of the run, bodies)
    let mut runs: Vec<(CompressionSeed, Vec<u64>)> = Vec::new();
    for block in wire {
        block
            .ct
            .ciphertext_modulus
            .check_native_u64("seeded block")?;
        if block.atomic_pattern != AtomicPatternKind::Standard(PBSOrder::KeyswitchBootstrap)
            || (block.message_modulus.0, block.carry_modulus.0) != moduli
            || block.ct.lwe_size.0 != size
            || block.degree.0 > max_degree
            || block.noise_level.0 != 1
        {
            return Err(Error::InvalidParameter(format!(
                "a seeded block of degree {} (at most {max_degree}), noise level {} (1), \
                 moduli ({}, {}), LWE size {} or atomic pattern {:?} unlike the value's first",
                block.degree.0,
                block.noise_level.0,
                block.message_modulus.0,
                block.carry_modulus.0,
                block.ct.lwe_size.0,
                block.atomic_pattern
            )));
        }
        let seed = seed_from_wire(&block.ct.compression_seed)?;
        let follows = runs.last().is_some_and(|(start, bodies)| {
            (bodies.len() as u64)
                .checked_mul(dimension)
                .and_then(|words| start.after_words(words).ok())
                == Some(seed)
        });
        match runs.last_mut() {
            Some((_, bodies)) if follows => bodies.push(block.ct.data),
            _ => runs.push((seed, vec![block.ct.data])),
        }
    }
    let mut runs = runs
        .into_iter()
        .map(|(seed, bodies)| {
            let list = SeededLweCiphertextList::from_parts(bodies, seed, LweSize(size))?;
            SeededBlocks::from_parts(list, moduli.0, moduli.1)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(if runs.len() == 1 {
        CompressedBlocks::Seeded(runs.remove(0))
    } else {
        CompressedBlocks::SeededRuns(runs)
    })
}

/// The storage of a compressed `bits`-bit value read from TFHE-rs's data, checked.
fn storage_from_wire(blocks: CompressedBlocks, tag: &Tag, bits: u32) -> Result<CompressedStorage> {
    let storage = CompressedStorage {
        tag: tag_from_wire(tag),
        blocks,
    };
    storage.validate(bits)?;
    Ok(storage)
}

/// The message modulus of compressed blocks.
fn message_modulus(storage: &CompressedStorage) -> u64 {
    storage.layout().0
}

/// Declares the TFHE-rs form of the compressed integers.
macro_rules! compressed_integer {
    ($($ty:ident $id:ident $wire:ident $inner:ident $name:literal $bits:expr;)*) => {$(
        impl<Id: $id> TfheRsForm for $ty<Id> {
            type Wire = $wire;

            fn to_wire(&self) -> Result<$wire> {
                let storage = self.compressed_storage();
                let degrees = Degrees::of_integer(message_modulus(storage));
                let ciphertext = match seeded_runs(&storage.blocks) {
                    Some(runs) => $inner::Seeded(CompressedRadixCiphertext {
                        blocks: seeded_to_wire(runs, degrees.single)?,
                    }),
                    None => $inner::ModulusSwitched(CompressedModulusSwitchedRadixCiphertext(
                        paired_to_wire(storage, degrees)?,
                    )),
                };
                Ok($wire {
                    ciphertext,
                    tag: tag_to_wire(storage.tag),
                })
            }

            fn from_wire(wire: $wire) -> Result<Self> {
                let blocks = match &wire.ciphertext {
                    $inner::Seeded(radix) => {
                        let m0 = radix.blocks.first().map_or(0, |b| b.message_modulus.0);
                        seeded_from_wire(&radix.blocks, m0.saturating_sub(1))?
                    }
                    $inner::ModulusSwitched(m) => {
                        let m0 = m.0.paired_blocks.first().or(m.0.last_block.as_ref());
                        let m0 = m0.map_or(0, |b| b.message_modulus.0);
                        if m0 < 2 {
                            return Err(Error::InvalidParameter(
                                "a compressed value of no blocks, or of message modulus below 2"
                                    .into(),
                            ));
                        }
                        paired_from_wire(&m.0, Degrees::of_integer(m0))?
                    }
                };
                Ok(Self::from_storage(storage_from_wire(blocks, &wire.tag, $bits)?))
            }
        }

        versionize_through_wire!($name, $wire, [Id: $id] $ty<Id>);
    )*};
}

compressed_integer!(
    CompressedFheUint FheUintId WireUint CompressedUnsignedRadix
        "high_level_api::CompressedFheUint" Id::BITS;
    CompressedFheInt FheIntId WireInt CompressedSignedRadix
        "high_level_api::CompressedFheInt" Id::Unsigned::BITS;
);

impl TfheRsForm for CompressedFheBool {
    type Wire = WireBool;

    fn to_wire(&self) -> Result<WireBool> {
        let storage = self.compressed_storage();
        let inner = match &storage.blocks {
            CompressedBlocks::Seeded(_) | CompressedBlocks::SeededRuns(_) => {
                let runs = seeded_runs(&storage.blocks).unwrap_or_default();
                let mut blocks = seeded_to_wire(runs, Degrees::BOOLEAN.single)?;
                match (blocks.pop(), blocks.is_empty()) {
                    (Some(block), true) => InnerCompressedFheBool::Seeded(block),
                    _ => {
                        return Err(Error::InvalidParameter(
                            "a compressed boolean holds one block".into(),
                        ))
                    }
                }
            }
            CompressedBlocks::Paired(b) if b.len() == 1 => match b.last() {
                Some(last) => InnerCompressedFheBool::ModulusSwitched(switched_to_wire(
                    last,
                    0,
                    Degrees::BOOLEAN.single,
                )?),
                None => return Err(not_paired()),
            },
            _ => return Err(not_paired()),
        };
        Ok(WireBool {
            inner,
            tag: tag_to_wire(storage.tag),
        })
    }

    fn from_wire(wire: WireBool) -> Result<Self> {
        let blocks = match &wire.inner {
            InnerCompressedFheBool::Seeded(block) => {
                seeded_from_wire(std::slice::from_ref(block), Degrees::BOOLEAN.single)?
            }
            InnerCompressedFheBool::ModulusSwitched(block) => {
                let generic = CompressedModulusSwitchedRadixCiphertextGeneric {
                    paired_blocks: vec![],
                    last_block: Some(block.clone()),
                };
                paired_from_wire(&generic, Degrees::BOOLEAN)?
            }
        };
        Ok(Self::from_storage(storage_from_wire(blocks, &wire.tag, 1)?))
    }
}

versionize_through_wire!("high_level_api::CompressedFheBool", WireBool, [] CompressedFheBool);
