//! Hostile TFHE-rs data (issue 37, item 7): the golden files of TFHE-rs 1.8.2
//! (`tests/data/tfhe-rs-1.8.2/`) cut at every length, with their structural bytes
//! corrupted (header, version tags, lengths, enum variants, the modulus, degrees and
//! noise levels), and with a length forged to 2^60, read by
//! `gpufhe::safe_serialization`: each is an `Err`, never a panic, and never an
//! allocation beyond what was read (the forged lengths run in a child process
//! under an address-space limit). Values whose blocks are not clean, lists whose
//! count disagrees with their data, client keys with a non-binary coefficient and
//! blocks of the KeySwitch32 atomic pattern are refused with an `Err`.

use crate::child::{self, test_path};
use gpufhe::named::Named;
use gpufhe::safe_serialization::{safe_deserialize, DeserializationConfig};
use gpufhe::{
    ClientKey, CompactCiphertextList, CompactPublicKey, CompressedFheUint8, FheBool, FheInt8,
    FheUint8, Unversionize,
};
use serde::de::DeserializeOwned;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::tfhe_rs_support::{golden, LIMIT};

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

fn set_u64(bytes: &mut [u8], at: usize, value: u64) {
    bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
}

/// Where TFHE-rs's header ends (three strings around a `u32`: its version, the
/// versioning mode, the versioning version, the type's name).
fn header_end(bytes: &[u8]) -> usize {
    let version = 8 + u64_at(bytes, 0) as usize;
    let versioning = version + 4 + 8 + u64_at(bytes, version + 4) as usize;
    versioning + 8 + u64_at(bytes, versioning) as usize
}

/// The error of reading `bytes` as a `T` (with an unlimited size when `unlimited`);
/// a panic or a value read fails the test, naming `what`.
fn read_error<T: DeserializeOwned + Unversionize + Named>(
    bytes: &[u8],
    unlimited: bool,
    what: &str,
) -> String {
    let read = catch_unwind(AssertUnwindSafe(|| {
        if unlimited {
            DeserializationConfig::new_with_unlimited_size()
                .disable_conformance()
                .deserialize_from::<T>(bytes)
                .map_err(|e| e.to_string())
        } else {
            safe_deserialize::<T>(bytes, LIMIT)
        }
    }));
    match read {
        Ok(Err(e)) => e,
        Ok(Ok(_)) => panic!("{what}: read as a {}", T::NAME),
        Err(_) => panic!("{what}: reading a {} panicked", T::NAME),
    }
}

/// Reads bytes, expecting an `Err` (its text), naming the case.
type Refuse = fn(&[u8], &str) -> String;

fn refused<T: DeserializeOwned + Unversionize + Named>(bytes: &[u8], what: &str) -> String {
    read_error::<T>(bytes, false, what)
}

/// The offsets of a block's fields (TFHE-rs's `shortint::Ciphertext`, version 1)
/// starting at `start`, and where the block ends.
struct Block {
    version: usize,
    len: usize,
    modulus: usize,
    scalar_bits: usize,
    degree: usize,
    noise_level: usize,
    message_modulus: usize,
    carry_modulus: usize,
    atomic_pattern: usize,
    end: usize,
}

impl Block {
    fn at(bytes: &[u8], start: usize) -> Block {
        let len = start + 8;
        let m = len + 8 + 8 * u64_at(bytes, len) as usize;
        let block = Block {
            version: start,
            len,
            modulus: m + 4,
            scalar_bits: m + 20,
            degree: m + 32,
            noise_level: m + 44,
            message_modulus: m + 56,
            carry_modulus: m + 68,
            atomic_pattern: m + 76,
            end: m + 92,
        };
        assert_eq!(
            u64_at(bytes, block.scalar_bits),
            64,
            "not a block at {start}"
        );
        assert_eq!(
            u64_at(bytes, block.message_modulus),
            4,
            "not a block at {start}"
        );
        block
    }

    /// Every byte of its bookkeeping: version tags, lengths, modulus, degree, noise
    /// level, moduli, atomic pattern (not the mask and body, which any value may
    /// hold).
    fn structural(&self) -> Vec<usize> {
        let mut at: Vec<usize> = (self.version..self.len + 8).collect();
        at.extend(self.modulus - 4..self.end);
        at
    }
}

/// The first block of golden `FheUint8`/`FheInt8` data, and where the blocks
/// start (after the value's, the inner radix's and the radix's version tags and
/// the block count).
fn first_block(bytes: &[u8]) -> (usize, Block) {
    let count = header_end(bytes) + 12;
    assert_eq!(u64_at(bytes, count), 4);
    (count, Block::at(bytes, count + 8))
}

/// Each golden file read as its type.
fn golden_reads() -> Vec<(&'static str, Refuse)> {
    vec![
        ("client_key-default.bin", refused::<ClientKey>),
        (
            "compact_list-7-true-minus-3.bin",
            refused::<CompactCiphertextList>,
        ),
        (
            "compact_public_key-default.bin",
            refused::<CompactPublicKey>,
        ),
        ("compressed_fheuint8-42.bin", refused::<CompressedFheUint8>),
        ("fhebool-true.bin", refused::<FheBool>),
        ("fheint8-minus-77.bin", refused::<FheInt8>),
        ("fheuint8-165.bin", refused::<FheUint8>),
    ]
}

#[test]
fn every_truncation_of_tfhe_rs_data_is_an_err() {
    for (name, refuse) in golden_reads() {
        let bytes = golden(name);
        // Every length up to 256 bytes past the header, then a step of about a
        // hundredth of the file, and the last 16 lengths.
        let dense = header_end(&bytes) + 256;
        let step = (bytes.len() / 101).max(1);
        let lengths = (0..dense.min(bytes.len()))
            .chain((dense..bytes.len()).step_by(step))
            .chain(bytes.len().saturating_sub(16)..bytes.len());
        for len in lengths {
            refuse(&bytes[..len], &format!("{name} cut at {len}"));
        }
    }
}

/// `bytes` with byte `at` inverted.
fn inverted(bytes: &[u8], at: usize) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at] ^= 0xff;
    out
}

#[test]
fn corrupted_headers_version_tags_lengths_and_block_fields_are_errs() {
    // Every golden file: each byte of its header, and of the version tags after it.
    for (name, refuse) in golden_reads() {
        let bytes = golden(name);
        for at in 0..header_end(&bytes) + 12 {
            refuse(
                &inverted(&bytes, at),
                &format!("{name} with byte {at} inverted"),
            );
        }
    }
    // A value: its block count, every bookkeeping byte of its first and last
    // blocks (the modulus, degree, noise level, moduli, atomic pattern and their
    // version tags), and the tag and metadata after them.
    for (name, refuse) in [
        ("fheuint8-165.bin", refused::<FheUint8> as Refuse),
        ("fheint8-minus-77.bin", refused::<FheInt8>),
    ] {
        let bytes = golden(name);
        let (count, first) = first_block(&bytes);
        let mut last = Block::at(&bytes, first.end);
        for _ in 2..4 {
            last = Block::at(&bytes, last.end);
        }
        let tail = last.end..bytes.len();
        assert_eq!(tail.len(), 24, "a tag and metadata, both empty");
        let positions = (count..count + 8)
            .chain(first.structural())
            .chain(last.structural())
            .chain(tail.clone().filter(|at| (at - tail.start) % 12 < 5));
        for at in positions {
            refuse(
                &inverted(&bytes, at),
                &format!("{name} with byte {at} inverted"),
            );
        }
    }
    // A boolean's block, right after its version tags.
    let bytes = golden("fhebool-true.bin");
    let block = Block::at(&bytes, header_end(&bytes) + 12);
    for at in block.structural() {
        refused::<FheBool>(
            &inverted(&bytes, at),
            &format!("FheBool byte {at} inverted"),
        );
    }
}

#[test]
fn blocks_that_are_not_clean_are_errs() {
    let bytes = golden("fheuint8-165.bin");
    let (_, block) = first_block(&bytes);
    // Degree 4 (carries: the message modulus is 4) and noise level 2.
    for (at, value, what) in [
        (block.degree, 4, "degree 4"),
        (block.degree, 15, "degree 15"),
        (block.noise_level, 2, "noise level 2"),
        (block.carry_modulus, 8, "carry modulus 8"),
    ] {
        let mut forged = bytes.clone();
        set_u64(&mut forged, at, value);
        let err = refused::<FheUint8>(&forged, what);
        if what.starts_with("degree") || what.starts_with("noise") {
            assert!(err.contains("not clean"), "{what}: {err}");
        }
    }
    // A boolean holds 0 or 1: degree 2 is not one.
    let bytes = golden("fhebool-true.bin");
    let block = Block::at(&bytes, header_end(&bytes) + 12);
    let mut forged = bytes.clone();
    set_u64(&mut forged, block.degree, 2);
    refused::<FheBool>(&forged, "a boolean of degree 2");
}

#[test]
fn a_block_of_the_keyswitch32_atomic_pattern_is_an_err_naming_it() {
    let bytes = golden("fheuint8-165.bin");
    let (_, block) = first_block(&bytes);
    // The variant byte alone (the order that follows is then misread).
    let variant = block.atomic_pattern + 4;
    let mut forged = bytes.clone();
    forged[variant] = 1;
    refused::<FheUint8>(&forged, "KeySwitch32 variant byte");
    // KeySwitch32 has no PBS order: without it, the data is well formed.
    forged.drain(variant + 4..variant + 12);
    let err = refused::<FheUint8>(&forged, "a KeySwitch32 block");
    assert!(err.contains("KeySwitch32"), "{err}");
}

#[test]
fn a_compact_list_whose_count_disagrees_with_its_data_is_an_err() {
    let bytes = golden("compact_list-7-true-minus-3.bin");
    // The list's version tags, then its LWE list: data, LWE size, count.
    let data = header_end(&bytes) + 16;
    let words = u64_at(&bytes, data) as usize;
    let count = data + 8 + 8 * words + 16;
    assert_eq!(u64_at(&bytes, count), 9);
    for forged_count in [0, 8, 10, 2048, 1 << 20, u64::MAX] {
        let mut forged = bytes.clone();
        set_u64(&mut forged, count, forged_count);
        refused::<CompactCiphertextList>(&forged, &format!("a count of {forged_count}"));
    }
    // The kinds (4 blocks, a boolean, 4 blocks) that say 10 blocks, or 8.
    let signed_blocks = bytes.len() - 12 - 8;
    assert_eq!(u64_at(&bytes, signed_blocks), 4);
    for blocks in [5, 3] {
        let mut forged = bytes.clone();
        set_u64(&mut forged, signed_blocks, blocks);
        refused::<CompactCiphertextList>(&forged, &format!("an FheInt8 of {blocks} blocks"));
    }
}

#[test]
fn a_client_key_with_a_non_binary_coefficient_is_an_err() {
    let bytes = golden("client_key-default.bin");
    // Eight version tags and variants, then the GLWE secret key's coefficients.
    let glwe = header_end(&bytes) + 32;
    let n = u64_at(&bytes, glwe) as usize;
    assert_eq!(n, 2048);
    let bytes = &bytes;
    let coefficients = |at: usize, n: usize| (0..n).map(move |i| u64_at(bytes, at + 8 + 8 * i));
    assert!(coefficients(glwe, n).all(|c| c <= 1));
    // Then the polynomial size (a version tag, a u64), the LWE key's version tag.
    let lwe = glwe + 8 + 8 * n + 12 + 4;
    let small = u64_at(bytes, lwe) as usize;
    assert!((500..2048).contains(&small), "{small}");
    assert!(coefficients(lwe, small).all(|c| c <= 1));
    for (key, at) in [("GLWE", glwe + 8), ("GLWE", glwe + 8 * n), ("LWE", lwe + 8)] {
        for value in [2, u64::MAX] {
            let mut forged = bytes.to_vec();
            set_u64(&mut forged, at, value);
            refused::<ClientKey>(&forged, &format!("{key} coefficient {value}"));
        }
    }
}

#[test]
fn forged_huge_lengths_are_errs_without_allocating_them() {
    // Under 1 GiB of address space, so that allocating a forged length up front
    // (even 2^27 words, 1 GiB) would abort the child instead of passing.
    let test = test_path!("forged_huge_lengths_are_errs_without_allocating_them");
    if !child::run_alone_limited(&test, &[], Some(1 << 10)) {
        return;
    }
    type Read = fn(&[u8], bool, &str) -> String;
    let value = golden("fheuint8-165.bin");
    let (count, block) = first_block(&value);
    let list = golden("compact_list-7-true-minus-3.bin");
    let key = golden("client_key-default.bin");
    let public_key = golden("compact_public_key-default.bin");
    let public_key_data = (0..public_key.len() - 8)
        .find(|&at| u64_at(&public_key, at) == 4096)
        .expect("the public key's GLWE ciphertext: 2 x 2048 words");
    let boolean = golden("fhebool-true.bin");
    let tag = value.len() - 24 + 4;
    assert_eq!(u64_at(&value, tag), 0, "an empty tag");
    let cases: [(&str, &[u8], usize, Read); 7] = [
        ("an FheUint8's tag", &value, tag, read_error::<FheUint8>),
        (
            "an FheUint8's block count",
            &value,
            count,
            read_error::<FheUint8>,
        ),
        (
            "an FheUint8's first LWE",
            &value,
            block.len,
            read_error::<FheUint8>,
        ),
        (
            "an FheBool's LWE",
            &boolean,
            header_end(&boolean) + 20,
            read_error::<FheBool>,
        ),
        (
            "a list's data",
            &list,
            header_end(&list) + 16,
            read_error::<CompactCiphertextList>,
        ),
        (
            "a client key's GLWE key",
            &key,
            header_end(&key) + 28,
            read_error::<ClientKey>,
        ),
        (
            "a public key's data",
            &public_key,
            public_key_data,
            read_error::<CompactPublicKey>,
        ),
    ];
    for (what, bytes, at, read) in cases {
        for length in [1 << 60, u64::MAX, 1 << 32, 1 << 28, 1 << 27] {
            let mut forged = bytes.to_vec();
            set_u64(&mut forged, at, length);
            for unlimited in [false, true] {
                read(&forged, unlimited, &format!("{what} of length {length}"));
            }
        }
    }
    // The header's strings, under the size limit (see the test below for the
    // lengths the limit does not stop).
    for at in [0, 15, 26] {
        for length in [1 << 60, u64::MAX, 1 << 32] {
            let mut forged = value.clone();
            set_u64(&mut forged, at, length);
            refused::<FheUint8>(&forged, &format!("a header string of length {length}"));
        }
    }
}

#[test]
fn a_forged_header_string_length_is_an_err_without_allocating_it() {
    // The header's strings are read by bincode 1.3 from a reader: a length is
    // allocated (and zeroed) in full before the bytes are read, so 8 forged bytes
    // ask for 2^60 bytes without a size limit, and for just under the limit with
    // one, whatever the input's size. Under 1 GiB of address space both abort.
    let test = test_path!("a_forged_header_string_length_is_an_err_without_allocating_it");
    if !child::run_alone_limited(&test, &[], Some(1 << 10)) {
        return;
    }
    let value = golden("fheuint8-165.bin");
    for at in [0, 15, 26] {
        let mut forged = value.clone();
        set_u64(&mut forged, at, LIMIT - 64);
        read_error::<FheUint8>(&forged, false, "a header string just under the size limit");
        set_u64(&mut forged, at, 1 << 60);
        read_error::<FheUint8>(
            &forged,
            true,
            "no size limit, a header string of 2^60 bytes",
        );
    }
}
