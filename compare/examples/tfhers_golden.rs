//! Writes the TFHE-rs 1.8.2 golden files that gpufhe's tests read
//! (`tests/data/tfhe-rs-1.8.2/`), then reads every one back with TFHE-rs and checks
//! that it decrypts to its clear value. Made once and committed; CI never builds this
//! (it compiles TFHE-rs).
//!
//! ```text
//! cd compare && cargo run --release --example tfhers_golden
//! cd compare && cargo run --release --example tfhers_golden -- --server-key
//! cd compare && cargo run --release --example tfhers_golden -- --zk
//! ```
//!
//! Two configurations:
//! - the default one (`*-default.bin` and the files without a prefix): a client key,
//!   values (FheBool, FheUint8/16, FheInt8/64, a seeded CompressedFheUint8), the compact
//!   public key, its compressed form, and a compact list;
//! - small insecure custom parameters (`small-*.bin`, `support/tfhers.rs`, the values of
//!   gpufhe's `PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2`, without TFHE-rs's dedicated OPRF
//!   key): a client key, the CompressedServerKey, values, TFHE-rs's own results of
//!   `a + b`, `a * b` and `a < b`, seeded and modulus-switched compressed values, the
//!   compact public key (plain and compressed) and compact lists (built and packed).
//!
//! - the small parameters with compression (`small-compression-*.bin`, gpufhe's
//!   `COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2` as TFHE-rs's parameters): a client
//!   key with its compression private key and a CompressedCiphertextList.
//!
//! - the small parameters with dedicated public-key parameters for ZK v2 proofs
//!   (`small-zk-*.bin`, gpufhe's `PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2`): a
//!   client key, the compact public key, a compressed CRS of 16 bits per proof (1.3
//!   MB: not committed, TFHE-rs's CRS cannot be regenerated from a seed outside
//!   TFHE-rs) and a list proven in two parts (`--zk` writes these alone; their values
//!   are in their names, not in `clears.txt`).
//!
//! `clears.txt` holds one line per value file: its name, then its clear values.
//!
//! The plain `ServerKey` of the small parameters is about 8 MiB (keyswitching key
//! 512 x 4 x 257 words, Fourier bootstrap key 256 x 2 x 2 x 256 complex numbers), too
//! large for the repository: it is written (to `compare/target/tfhers-golden/`, not
//! committed) only with `--server-key`, with the client key, CompressedServerKey and
//! ServerKey of the same parameters with TFHE-rs's default dedicated OPRF key
//! (`small-oprf-*.bin`, seeds 0x5eed_0039 and 0x5eed_0300), and a KeySwitchingKey
//! from the small key set to a second one (`small-key_switching_key.bin`, about 20
//! MiB: TFHE-rs's key holds both server keys; `small-client_key-2.bin`, seeds
//! 0x5eed_0040 and 0x5eed_0301).
//!
//! Every file is reproducible (running this twice writes the same bytes): the client
//! keys come from `ClientKey::generate_with_seed`, every other key or encryption from
//! TFHE-rs's thread-local engine reseeded from a fixed seed right before it (`reseed`),
//! the packed compact list from `build_packed_seeded`, and the unpacked ones as
//! TFHE-rs's `build()` makes them with a fixed seed in place of the operating system's
//! (`seeded_list`). Bootstrapped results (`a + b`, `a * b`, `a < b`) and the Fourier
//! bootstrap key also depend on the FFT's rounding: TFHE-rs's FFT algorithm is fixed
//! here (`fix_fft_plans`), but another CPU (another SIMD path) may still round
//! otherwise; the other files are integer arithmetic on seeded randomness.

use std::fmt::Display;
use std::path::{Path, PathBuf};
use tfhe::core_crypto::commons::generators::DeterministicSeeder;
use tfhe::core_crypto::prelude::DefaultRandomGenerator;
use tfhe::core_crypto::prelude::{LwePublicKey, SeededLwePublicKey};
use tfhe::integer::ciphertext::{
    CompactCiphertextList as IntegerCompactList, Compactable, DataKind,
};
use tfhe::named::Named;
use tfhe::prelude::*;
use tfhe::safe_serialization::{safe_deserialize, safe_serialize};
use tfhe::shortint::engine::ShortintEngine;
use tfhe::shortint::parameters::MessageModulus;
use tfhe::{
    set_server_key, unset_server_key, ClientKey, CompactCiphertextList, CompactPublicKey,
    CompressedCompactPublicKey, CompressedFheUint16, CompressedFheUint8, CompressedPublicKey,
    CompressedServerKey, ConfigBuilder, FheBool, FheInt16, FheInt64, FheInt8, FheUint16, FheUint64,
    FheUint8, KeySwitchingKey, PublicKey, Seed, ServerKey, Tag, Unversionize, Versionize,
};

#[path = "support/tfhers.rs"]
mod tfhers;
#[path = "support/tfhers_rerand.rs"]
mod tfhers_rerand;
use tfhers::{fix_fft_plans, small_compression_parameters, small_parameters};

const LIMIT: u64 = 1 << 30;

/// Replaces TFHE-rs's thread-local engine (the randomness of every key and
/// encryption but the seeded client keys) by one seeded from `seed`.
fn reseed(seed: u128) {
    let mut seeder = DeterministicSeeder::<DefaultRandomGenerator>::new(Seed(seed));
    let engine = ShortintEngine::new_from_seeder(&mut seeder);
    ShortintEngine::with_thread_local_mut(|local| *local = engine);
}

/// The files written, and the clear-value lines of `clears.txt`.
struct Golden {
    dir: PathBuf,
    clears: Vec<String>,
}

impl Golden {
    fn write<T: serde::Serialize + Versionize + Named>(&self, name: &str, value: &T) {
        write_to(&self.dir, name, value);
    }

    /// Writes a value file and its `clears.txt` line.
    fn value<T: serde::Serialize + Versionize + Named>(
        &mut self,
        name: &str,
        value: &T,
        clears: &[&dyn Display],
    ) {
        self.write(name, value);
        let mut line = name.to_string();
        for clear in clears {
            line.push_str(&format!(" {clear}"));
        }
        self.clears.push(line);
    }
}

fn write_to<T: serde::Serialize + Versionize + Named>(dir: &Path, name: &str, value: &T) {
    let mut bytes = Vec::new();
    safe_serialize(value, &mut bytes, LIMIT).expect("TFHE-rs serializes its own value");
    std::fs::write(dir.join(name), &bytes).expect("a writable folder");
    println!("{name}: {} bytes", bytes.len());
}

fn read<T: serde::de::DeserializeOwned + Unversionize + Named>(dir: &Path, name: &str) -> T {
    let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    safe_deserialize(bytes.as_slice(), LIMIT).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The default configuration's files (seeds 0x5eed_0037 and 0x5eed_0100..).
fn write_default(golden: &mut Golden) {
    let config = ConfigBuilder::default().build();
    let client_key = ClientKey::generate_with_seed(config, Seed(0x5eed_0037));
    golden.write("client_key-default.bin", &client_key);

    reseed(0x5eed_0100);
    golden.value(
        "fhebool-true.bin",
        &FheBool::encrypt(true, &client_key),
        &[&true],
    );
    reseed(0x5eed_0101);
    golden.value(
        "fheuint8-165.bin",
        &FheUint8::encrypt(165u8, &client_key),
        &[&165],
    );
    reseed(0x5eed_0102);
    golden.value(
        "fheint8-minus-77.bin",
        &FheInt8::encrypt(-77i8, &client_key),
        &[&-77],
    );
    reseed(0x5eed_0103);
    golden.value(
        "compressed_fheuint8-42.bin",
        &CompressedFheUint8::encrypt(42u8, &client_key),
        &[&42],
    );
    reseed(0x5eed_0104);
    golden.value(
        "fheuint16-54321.bin",
        &FheUint16::encrypt(54321u16, &client_key),
        &[&54321],
    );
    let int64 = -0x1234_5678_9abc_def0i64;
    reseed(0x5eed_0105);
    golden.value(
        "fheint64-minus-1311768467463790320.bin",
        &FheInt64::encrypt(int64, &client_key),
        &[&int64],
    );

    reseed(0x5eed_0106);
    let public_key = CompactPublicKey::new(&client_key);
    golden.write("compact_public_key-default.bin", &public_key);
    let list = seeded_list(&public_key, 0x5eed_0107, &[&7u8, &true, &-3i8]);
    golden.value("compact_list-7-true-minus-3.bin", &list, &[&7, &true, &-3]);
    reseed(0x5eed_0108);
    let compressed = CompressedCompactPublicKey::new(&client_key);
    golden.write("compressed_compact_public_key-default.bin", &compressed);
}

/// The small configuration's files (seeds 0x5eed_0038 and 0x5eed_0200..). With
/// `server_key_dir`, also writes the plain ServerKey there.
fn write_small(golden: &mut Golden, server_key_dir: Option<&Path>) {
    let config = ConfigBuilder::with_custom_parameters(small_parameters())
        .use_dedicated_oprf_key(false)
        .build();
    let client_key = ClientKey::generate_with_seed(config, Seed(0x5eed_0038));
    golden.write("small-client_key.bin", &client_key);

    reseed(0x5eed_0200);
    let compressed_server_key = CompressedServerKey::new(&client_key);
    golden.write("small-compressed_server_key.bin", &compressed_server_key);
    let server_key: ServerKey = compressed_server_key.decompress();
    if let Some(dir) = server_key_dir {
        write_to(dir, "small-server_key.bin", &server_key);
        // The same with TFHE-rs's default dedicated OPRF key (a second bootstrap key).
        let config = ConfigBuilder::with_custom_parameters(small_parameters()).build();
        let client_key = ClientKey::generate_with_seed(config, Seed(0x5eed_0039));
        write_to(dir, "small-oprf-client_key.bin", &client_key);
        reseed(0x5eed_0300);
        let compressed = CompressedServerKey::new(&client_key);
        write_to(dir, "small-oprf-compressed_server_key.bin", &compressed);
        write_to(dir, "small-oprf-server_key.bin", &compressed.decompress());
        // A KeySwitchingKey from this key set to a second one (it holds both server
        // keys, about 20 MiB), and the second client key.
        let config = ConfigBuilder::with_custom_parameters(small_parameters())
            .use_dedicated_oprf_key(false)
            .build();
        let client_key_2 = ClientKey::generate_with_seed(config, Seed(0x5eed_0040));
        write_to(dir, "small-client_key-2.bin", &client_key_2);
        reseed(0x5eed_0301);
        let server_key_2 = ServerKey::new(&client_key_2);
        let ksk = KeySwitchingKey::new((&client_key, &server_key), (&client_key_2, &server_key_2))
            .expect("key sets of the same parameters");
        write_to(dir, "small-key_switching_key.bin", &ksk);
    }
    set_server_key(server_key);

    let (a, b) = (201u8, 87u8);
    reseed(0x5eed_0201);
    let ea = FheUint8::encrypt(a, &client_key);
    golden.value("small-fheuint8-a-201.bin", &ea, &[&a]);
    reseed(0x5eed_0202);
    let eb = FheUint8::encrypt(b, &client_key);
    golden.value("small-fheuint8-b-87.bin", &eb, &[&b]);
    golden.value(
        "small-fheuint8-a-plus-b.bin",
        &(&ea + &eb),
        &[&a.wrapping_add(b)],
    );
    golden.value(
        "small-fheuint8-a-times-b.bin",
        &(&ea * &eb),
        &[&a.wrapping_mul(b)],
    );
    golden.value("small-fhebool-a-lt-b.bin", &ea.lt(&eb), &[&(a < b)]);
    // Modulus-switched (`compress()` needs the server key).
    golden.value("small-compressed_fheuint8-a.bin", &ea.compress(), &[&a]);

    reseed(0x5eed_0203);
    golden.value(
        "small-fheint16-minus-12345.bin",
        &FheInt16::encrypt(-12345i16, &client_key),
        &[&-12345],
    );
    reseed(0x5eed_0204);
    golden.value(
        "small-fhebool-true.bin",
        &FheBool::encrypt(true, &client_key),
        &[&true],
    );
    let uint64 = 0xfedc_ba98_7654_3210u64;
    reseed(0x5eed_0205);
    golden.value(
        "small-fheuint64-18364758544493064720.bin",
        &FheUint64::encrypt(uint64, &client_key),
        &[&uint64],
    );
    reseed(0x5eed_0206);
    golden.value(
        "small-compressed_fheuint16-4660.bin",
        &CompressedFheUint16::encrypt(0x1234u16, &client_key),
        &[&0x1234],
    );

    reseed(0x5eed_0207);
    let public_key = CompactPublicKey::new(&client_key);
    golden.write("small-compact_public_key.bin", &public_key);
    reseed(0x5eed_0208);
    let compressed_public_key = CompressedCompactPublicKey::new(&client_key);
    golden.write(
        "small-compressed_compact_public_key.bin",
        &compressed_public_key,
    );
    let values: [&dyn Push; 4] = [&7u8, &true, &-3i8, &0xbeefu16];
    golden.value(
        "small-compact_list-7-true-minus-3-48879.bin",
        &seeded_list(&public_key, 0x5eed_0209, &values),
        &[&7, &true, &-3, &0xbeef],
    );
    let mut builder = CompactCiphertextList::builder(&public_key);
    builder.push(7u8).push(true).push(-3i8).push(0xbeefu16);
    let packed = builder
        .build_packed_seeded(&0x5eed_020au128.to_le_bytes())
        .unwrap();
    golden.value(
        "small-compact_list_packed-7-true-minus-3-48879.bin",
        &packed,
        &[&7, &true, &-3, &0xbeef],
    );
    write_small_public_keys(golden, &client_key);
}

/// The small configuration's classical public keys (seeds 0x5eed_0210..): the
/// CompressedPublicKey; the fingerprint of the PublicKey it decompresses into
/// (`small-public_key.fnv`: its size and FNV-1a 64 of its bytes; the key itself
/// is 135 MB); a PublicKey and a CompressedPublicKey of their first 16 encryptions
/// of zero (insecure, small, made with TFHE-rs's `from_raw_parts`); a value
/// encrypted with each of the full key and the small plain key.
fn write_small_public_keys(golden: &mut Golden, client_key: &ClientKey) {
    reseed(0x5eed_0210);
    let compressed = CompressedPublicKey::new(client_key);
    golden.write("small-compressed_public_key.bin", &compressed);
    let public_key = compressed.decompress();
    let mut bytes = Vec::new();
    safe_serialize(&public_key, &mut bytes, LIMIT).unwrap();
    let fingerprint = format!("{} {:016x}\n", bytes.len(), fnv1a64(&bytes));
    std::fs::write(golden.dir.join("small-public_key.fnv"), &fingerprint).unwrap();
    println!("small-public_key.fnv: {fingerprint}");

    let (key, tag) = public_key.into_raw_parts();
    let (lwe, parameters, pattern) = key.into_raw_parts().into_raw_parts();
    let (size, modulus) = (lwe.lwe_size(), lwe.ciphertext_modulus());
    let mut words = lwe.into_container();
    words.truncate(16 * size.0);
    let lwe = LwePublicKey::from_container(words, size, modulus);
    let small = PublicKey::from_raw_parts(
        tfhe::integer::PublicKey::from_raw_parts(tfhe::shortint::PublicKey::from_raw_parts(
            lwe, parameters, pattern,
        )),
        tag,
    );
    golden.write("small-public_key-16.bin", &small);
    let (key, tag) = compressed.clone().into_raw_parts();
    let (seeded, parameters, pattern) = key.into_raw_parts().into_raw_parts();
    let (size, seed, modulus) = (
        seeded.lwe_size(),
        seeded.compression_seed(),
        seeded.ciphertext_modulus(),
    );
    let mut bodies = seeded.into_container();
    bodies.truncate(16);
    let seeded = SeededLwePublicKey::from_container(bodies, size, seed, modulus);
    let small_compressed = CompressedPublicKey::from_raw_parts(
        tfhe::integer::CompressedPublicKey::from_raw_parts(
            tfhe::shortint::CompressedPublicKey::from_raw_parts(seeded, parameters, pattern),
        ),
        tag,
    );
    golden.write("small-compressed_public_key-16.bin", &small_compressed);
    reseed(0x5eed_0211);
    golden.value(
        "small-fheuint8-public_key-173.bin",
        &FheUint8::encrypt(173u8, &small),
        &[&173],
    );
    reseed(0x5eed_0212);
    golden.value(
        "small-fheint16-compressed_public_key-minus-1234.bin",
        &FheInt16::encrypt(-1234i16, &compressed),
        &[&-1234],
    );
}

/// FNV-1a, 64 bits (a fingerprint, not a cryptographic hash).
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A clear value of a compact list: TFHE-rs's own block decomposition
/// (`Compactable`), as its list builder does it.
trait Push {
    fn blocks(&self, messages: &mut Vec<u64>, modulus: MessageModulus) -> DataKind;
}

impl<T: Compactable + Copy> Push for T {
    fn blocks(&self, messages: &mut Vec<u64>, modulus: MessageModulus) -> DataKind {
        self.compact_into(messages, modulus, None)
            .expect("a value of at least one block")
    }
}

/// What TFHE-rs's `CompactCiphertextList::builder(public_key)` pushed with `values`
/// and `build()`s, had its operating-system seeder returned `seed`: `build()` draws
/// its seed there, and only `build_packed` has a seeded form in the high-level API.
/// The integer list is encrypted with the seed (TFHE-rs's
/// `encrypt_iter_with_modulus_seeded`, as `build()` calls it), written in the
/// high-level list's first version (an integer list, no tag), and read back by
/// TFHE-rs, which upgrades it to its current form with the default tag (that of
/// the seeded client keys here).
fn seeded_list(
    public_key: &CompactPublicKey,
    seed: u128,
    values: &[&dyn Push],
) -> CompactCiphertextList {
    let (key, tag) = public_key.clone().into_raw_parts();
    assert_eq!(
        tag,
        Tag::default(),
        "the client keys here have the default tag"
    );
    let key = key.into_raw_parts();
    let modulus = key.parameters.message_modulus;
    let mut messages = Vec::new();
    let info: Vec<DataKind> = values
        .iter()
        .map(|v| v.blocks(&mut messages, modulus))
        .collect();
    let blocks = key
        .encrypt_iter_with_modulus_seeded(messages.into_iter(), modulus.0, &seed.to_le_bytes())
        .unwrap();
    let list = FirstListVersion(IntegerCompactList::from_raw_parts(blocks, info));
    let mut bytes = Vec::new();
    safe_serialize(&list, &mut bytes, LIMIT).unwrap();
    safe_deserialize(bytes.as_slice(), LIMIT).expect("TFHE-rs reads its first list version")
}

/// The first version of TFHE-rs's high-level `CompactCiphertextList` (an integer
/// list), written under the high-level type's name.
struct FirstListVersion(IntegerCompactList);

/// Version 0 of the versioned dispatch enum.
#[derive(serde::Serialize)]
enum FirstListDispatch<'a> {
    V0(<IntegerCompactList as Versionize>::Versioned<'a>),
}

impl Named for FirstListVersion {
    const NAME: &'static str = <CompactCiphertextList as Named>::NAME;
}

impl Versionize for FirstListVersion {
    type Versioned<'vers> = FirstListDispatch<'vers>;
    fn versionize(&self) -> Self::Versioned<'_> {
        FirstListDispatch::V0(self.0.versionize())
    }
}

impl serde::Serialize for FirstListVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// Reads a value file back with TFHE-rs and checks it decrypts to `clear`.
fn check<T, C>(golden: &Golden, client_key: &ClientKey, name: &str, clear: C)
where
    T: serde::de::DeserializeOwned + Unversionize + Named + FheDecrypt<C>,
    C: PartialEq + std::fmt::Debug,
{
    let value: T = read(&golden.dir, name);
    assert_eq!(value.decrypt(client_key), clear, "{name}");
}

/// Reads a compact list back, expands it (the server key of its client key set) and
/// checks it holds `7u8, true, -3i8` (and `0xbeefu16` when `four`).
fn check_list(golden: &Golden, client_key: &ClientKey, name: &str, four: bool) {
    let list: CompactCiphertextList = read(&golden.dir, name);
    let expanded = list.expand().unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(expanded.len(), if four { 4 } else { 3 }, "{name}");
    let x: FheUint8 = expanded.get(0).unwrap().unwrap();
    let t: FheBool = expanded.get(1).unwrap().unwrap();
    let m: FheInt8 = expanded.get(2).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, client_key), 7, "{name}");
    assert!(FheDecrypt::<bool>::decrypt(&t, client_key), "{name}");
    assert_eq!(FheDecrypt::<i8>::decrypt(&m, client_key), -3, "{name}");
    if four {
        let w: FheUint16 = expanded.get(3).unwrap().unwrap();
        assert_eq!(FheDecrypt::<u16>::decrypt(&w, client_key), 0xbeef, "{name}");
    }
}

/// Reads every file back with TFHE-rs and checks it decrypts as `clears.txt` says (and
/// that the keys work: a value encrypted with each compact public key decrypts).
fn check_all(golden: &Golden) {
    unset_server_key();
    let ck: ClientKey = read(&golden.dir, "client_key-default.bin");
    check::<FheBool, bool>(golden, &ck, "fhebool-true.bin", true);
    check::<FheUint8, u8>(golden, &ck, "fheuint8-165.bin", 165);
    check::<FheInt8, i8>(golden, &ck, "fheint8-minus-77.bin", -77);
    let c: CompressedFheUint8 = read(&golden.dir, "compressed_fheuint8-42.bin");
    assert_eq!(FheDecrypt::<u8>::decrypt(&c.decompress(), &ck), 42);
    check::<FheUint16, u16>(golden, &ck, "fheuint16-54321.bin", 54321);
    check::<FheInt64, i64>(
        golden,
        &ck,
        "fheint64-minus-1311768467463790320.bin",
        -0x1234_5678_9abc_def0,
    );
    for name in [
        "compact_public_key-default.bin",
        "compressed_compact_public_key-default.bin",
    ] {
        let pk = if name.starts_with("compressed") {
            read::<CompressedCompactPublicKey>(&golden.dir, name).decompress()
        } else {
            read::<CompactPublicKey>(&golden.dir, name)
        };
        let list = CompactCiphertextList::builder(&pk).push(99u8).build();
        let x: FheUint8 = list.expand().unwrap().get(0).unwrap().unwrap();
        assert_eq!(FheDecrypt::<u8>::decrypt(&x, &ck), 99, "{name}");
    }
    // The default list expands without a server key (no casting, no unpacking).
    check_list(golden, &ck, "compact_list-7-true-minus-3.bin", false);

    let ck: ClientKey = read(&golden.dir, "small-client_key.bin");
    let csk: CompressedServerKey = read(&golden.dir, "small-compressed_server_key.bin");
    set_server_key(csk.decompress());
    let (a, b) = (201u8, 87u8);
    check::<FheUint8, u8>(golden, &ck, "small-fheuint8-a-201.bin", a);
    check::<FheUint8, u8>(golden, &ck, "small-fheuint8-b-87.bin", b);
    check::<FheUint8, u8>(
        golden,
        &ck,
        "small-fheuint8-a-plus-b.bin",
        a.wrapping_add(b),
    );
    check::<FheUint8, u8>(
        golden,
        &ck,
        "small-fheuint8-a-times-b.bin",
        a.wrapping_mul(b),
    );
    check::<FheBool, bool>(golden, &ck, "small-fhebool-a-lt-b.bin", a < b);
    let c: CompressedFheUint8 = read(&golden.dir, "small-compressed_fheuint8-a.bin");
    assert_eq!(FheDecrypt::<u8>::decrypt(&c.decompress(), &ck), a);
    check::<FheInt16, i16>(golden, &ck, "small-fheint16-minus-12345.bin", -12345);
    check::<FheBool, bool>(golden, &ck, "small-fhebool-true.bin", true);
    check::<FheUint64, u64>(
        golden,
        &ck,
        "small-fheuint64-18364758544493064720.bin",
        0xfedc_ba98_7654_3210,
    );
    let c: CompressedFheUint16 = read(&golden.dir, "small-compressed_fheuint16-4660.bin");
    assert_eq!(FheDecrypt::<u16>::decrypt(&c.decompress(), &ck), 0x1234);
    // Computing on what was read: the server key read back works.
    let x: FheUint8 = read(&golden.dir, "small-fheuint8-a-201.bin");
    let y: FheUint8 = read(&golden.dir, "small-fheuint8-b-87.bin");
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&x - &y), &ck), a - b);
    for name in [
        "small-compact_public_key.bin",
        "small-compressed_compact_public_key.bin",
    ] {
        let pk = if name.starts_with("small-compressed") {
            read::<CompressedCompactPublicKey>(&golden.dir, name).decompress()
        } else {
            read::<CompactPublicKey>(&golden.dir, name)
        };
        let list = CompactCiphertextList::builder(&pk)
            .push(99u8)
            .build_packed();
        let x: FheUint8 = list.expand().unwrap().get(0).unwrap().unwrap();
        assert_eq!(FheDecrypt::<u8>::decrypt(&x, &ck), 99, "{name}");
    }
    for name in [
        "small-compact_list-7-true-minus-3-48879.bin",
        "small-compact_list_packed-7-true-minus-3-48879.bin",
    ] {
        check_list(golden, &ck, name, true);
    }
    check::<FheUint8, u8>(golden, &ck, "small-fheuint8-public_key-173.bin", 173);
    check::<FheInt16, i16>(
        golden,
        &ck,
        "small-fheint16-compressed_public_key-minus-1234.bin",
        -1234,
    );
    let pk: PublicKey = read(&golden.dir, "small-public_key-16.bin");
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&FheUint8::encrypt(5u8, &pk), &ck),
        5
    );
    let cpk: CompressedPublicKey = read(&golden.dir, "small-compressed_public_key.bin");
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&FheUint8::encrypt(6u8, &cpk), &ck),
        6
    );
    println!("every file read back by TFHE-rs decrypts to its clear value");
}

/// The small configuration with compression (seeds 0x5eed_003a and 0x5eed_0400..):
/// its client key (with the compression private key) and a CompressedCiphertextList
/// of an FheUint8, an FheInt16 and an FheBool. The server key with compression keys
/// is not written (its packing key alone is 1 MiB).
fn write_small_compression(golden: &mut Golden) {
    let config = ConfigBuilder::with_custom_parameters(small_parameters())
        .enable_compression(small_compression_parameters())
        .use_dedicated_oprf_key(false)
        .build();
    let client_key = ClientKey::generate_with_seed(config, Seed(0x5eed_003a));
    golden.write("small-compression-client_key.bin", &client_key);
    reseed(0x5eed_0400);
    let server_key = CompressedServerKey::new(&client_key).decompress();
    set_server_key(server_key);
    reseed(0x5eed_0401);
    let mut builder = tfhe::CompressedCiphertextListBuilder::new();
    builder
        .push(FheUint8::encrypt(201u8, &client_key))
        .push(FheInt16::encrypt(-12345i16, &client_key))
        .push(FheBool::encrypt(true, &client_key));
    let list = builder.build().expect("TFHE-rs compresses its values");
    golden.value(
        "small-compression-list-201-minus-12345-true.bin",
        &list,
        &[&201, &-12345, &true],
    );
    // Read back, it decompresses with the key it was made with.
    let ck: ClientKey = read(&golden.dir, "small-compression-client_key.bin");
    let list: tfhe::CompressedCiphertextList = read(
        &golden.dir,
        "small-compression-list-201-minus-12345-true.bin",
    );
    let a: FheUint8 = list.get(0).unwrap().unwrap();
    let b: FheInt16 = list.get(1).unwrap().unwrap();
    let c: FheBool = list.get(2).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&a, &ck), 201);
    assert_eq!(FheDecrypt::<i16>::decrypt(&b, &ck), -12345);
    assert!(FheDecrypt::<bool>::decrypt(&c, &ck));
    unset_server_key();
}

/// The small configuration of dedicated public-key parameters for ZK v2 proofs
/// (seeds 0x5eed_003b and 0x5eed_0500..): its client key, compact public key, CRS
/// (compressed: half the size, read back whole) and a list of an FheUint8, an
/// FheBool and an FheInt16 proven for the metadata `gpufhe-golden` (seeded: the
/// same bytes every run), checked to verify and expand in TFHE-rs.
fn write_small_zk(golden: &Golden) {
    use tfhe::shortint::parameters::{
        CarryModulus, CiphertextModulus, CompactCiphertextListExpansionKind,
        CompactPublicKeyEncryptionParameters, DynamicDistribution, LweDimension,
        SupportedCompactPkeZkScheme, PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
    };
    use tfhe::zk::{CompactPkeCrs, Compressible, ZkComputeLoad};
    let pke = CompactPublicKeyEncryptionParameters {
        encryption_lwe_dimension: LweDimension(512),
        encryption_noise_distribution: DynamicDistribution::new_t_uniform(20),
        message_modulus: MessageModulus(4),
        carry_modulus: CarryModulus(4),
        ciphertext_modulus: CiphertextModulus::new_native(),
        expansion_kind: CompactCiphertextListExpansionKind::RequiresCasting,
        zk_scheme: SupportedCompactPkeZkScheme::V2,
    };
    let config = ConfigBuilder::with_custom_parameters(small_parameters())
        .use_dedicated_oprf_key(false)
        .use_dedicated_compact_public_key_parameters((pke, KS))
        .build();
    let client_key = ClientKey::generate_with_seed(config, Seed(0x5eed_003b));
    golden.write("small-zk-client_key.bin", &client_key);
    reseed(0x5eed_0500);
    let crs = CompactPkeCrs::from_config(config, 16).expect("a CRS of the parameters");
    golden.write("small-zk-crs.bin", &crs.compress());
    reseed(0x5eed_0501);
    let public_key = CompactPublicKey::new(&client_key);
    golden.write("small-zk-compact_public_key.bin", &public_key);
    let name = "small-zk-proven_list-201-true-minus-1234.bin";
    let list = tfhe::ProvenCompactCiphertextList::builder(&public_key)
        .push(201u8)
        .push(true)
        .push(-1234i16)
        .build_with_proof_packed_seeded(
            &crs,
            b"gpufhe-golden",
            ZkComputeLoad::Proof,
            &0x5eed_0502u128.to_le_bytes(),
        )
        .expect("TFHE-rs proves its list");
    golden.write(name, &list);
    // Read back, it verifies and expands in TFHE-rs.
    let crs: CompactPkeCrs = read(&golden.dir, "small-zk-crs.bin");
    let public_key: CompactPublicKey = read(&golden.dir, "small-zk-compact_public_key.bin");
    let list: tfhe::ProvenCompactCiphertextList = read(&golden.dir, name);
    assert!(list.verify(&crs, &public_key, b"gpufhe-golden").is_valid());
    set_server_key(ServerKey::new(&client_key));
    let expanded = list
        .verify_and_expand(&crs, &public_key, b"gpufhe-golden")
        .expect("the golden list verifies");
    let a: FheUint8 = expanded.get(0).unwrap().unwrap();
    let b: FheBool = expanded.get(1).unwrap().unwrap();
    let c: FheInt16 = expanded.get(2).unwrap().unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&a, &client_key), 201);
    assert!(FheDecrypt::<bool>::decrypt(&b, &client_key));
    assert_eq!(FheDecrypt::<i16>::decrypt(&c, &client_key), -1234);
    unset_server_key();
}

fn main() {
    fix_fft_plans();
    let with_server_key = std::env::args().skip(1).any(|a| a == "--server-key");
    let rerand_only = std::env::args()
        .skip(1)
        .any(|a| a == "--re-randomization-only");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("../tests/data/tfhe-rs-1.8.2");
    std::fs::create_dir_all(&dir).unwrap();
    if std::env::args().skip(1).any(|a| a == "--zk") {
        write_small_zk(&Golden {
            dir,
            clears: Vec::new(),
        });
        return;
    }
    let server_key_dir = root.join("target/tfhers-golden");
    if with_server_key {
        std::fs::create_dir_all(&server_key_dir).unwrap();
    }
    let mut golden = Golden {
        dir,
        clears: Vec::new(),
    };
    if rerand_only {
        // Only the re-randomization files; their clears.txt lines replace the old.
        tfhers_rerand::write_small_re_randomization(&mut golden);
        let path = golden.dir.join("clears.txt");
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let mut lines: Vec<String> = old
            .lines()
            .filter(|l| !l.starts_with("small-rerand-"))
            .map(String::from)
            .collect();
        lines.extend(golden.clears);
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        return;
    }
    write_default(&mut golden);
    write_small(
        &mut golden,
        with_server_key.then_some(server_key_dir.as_path()),
    );
    write_small_compression(&mut golden);
    tfhers_rerand::write_small_re_randomization(&mut golden);
    write_small_zk(&golden);
    let mut clears = golden.clears.join("\n");
    clears.push('\n');
    std::fs::write(golden.dir.join("clears.txt"), clears).unwrap();
    check_all(&golden);
}
