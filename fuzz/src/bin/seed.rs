//! Writes the corpus: `safe_serialize`d values of every type into
//! `corpus/safe_deserialize/`, their payloads (after a type byte) into
//! `corpus/serde_bincode/`, and parameter sets into `corpus/config_builder/`.
//!
//! ```text
//! cargo run --release --bin seed -- [--new-key] [--large]
//! ```
//!
//! Ciphertexts are encrypted under the fixture client key (`keys/client_key.bin`,
//! made when missing or with `--new-key`), keys are on tiny insecure parameters to
//! keep the committed corpus small. `--large` also writes keys on the test and
//! default parameters (megabytes each, not committed) into `corpus-large/`.

use gpufhe::core_crypto::{
    DecompositionBaseLog, DecompositionLevelCount, LweDimension, ModulusSwitchType,
    NoiseDistribution, PolynomialSize,
};
use gpufhe::prelude::*;
use gpufhe::serialization::{safe_serialize, SafeSerialization};
use gpufhe::shortint::{
    EncryptionKeyChoice, ShortintKeySwitchingParameters, ShortintParameters, DEFAULT_PARAMETERS,
    PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
};
use gpufhe::{
    ClientKey, CompressedCiphertextListBuilder, CompressedServerKey, Config, ConfigBuilder,
    FheBool, FheUint128, FheUint16, FheUint256, FheUint32, FheUint64, FheUint8, KeySwitchingKey,
};
use gpufhe_fuzz::keys::{client_key_path, cpu_scheduler, generate_client_key};
use gpufhe_fuzz::params::parameters_to_bytes;
use gpufhe_fuzz::{forge_tag, header_len, Kind, LIMIT};
use std::path::{Path, PathBuf};

/// Tiny insecure parameters: keys of a few hundred kilobytes.
const TINY: ShortintParameters = ShortintParameters {
    lwe_dimension: LweDimension(16),
    polynomial_size: PolynomialSize(256),
    ks_base_log: DecompositionBaseLog(8),
    ks_level: DecompositionLevelCount(2),
    ..PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2
};

fn config(parameters: ShortintParameters) -> Config {
    ConfigBuilder::default()
        .with_insecure_custom_parameters(parameters)
        .expect("valid parameters")
        .build()
}

/// Writes seeds of the two deserialization targets.
struct Writer {
    root: PathBuf,
}

impl Writer {
    fn bytes<T: SafeSerialization>(value: &T) -> Vec<u8> {
        let mut out = Vec::new();
        safe_serialize(value, &mut out, LIMIT).expect("serializes");
        out
    }

    /// `bytes` (of `safe_serialize`) as `name` in both targets' corpora.
    fn raw(&self, name: &str, bytes: &[u8]) {
        let kind = gpufhe_fuzz::header_name(bytes)
            .and_then(Kind::from_name)
            .expect("a known type");
        let index = Kind::ALL.iter().position(|&k| k == kind).unwrap() as u8;
        let mut payload = vec![index];
        payload.extend_from_slice(&bytes[header_len(bytes).unwrap()..]);
        write(&self.root.join("safe_deserialize"), name, bytes);
        write(&self.root.join("serde_bincode"), name, &payload);
    }

    fn value<T: SafeSerialization>(&self, name: &str, value: &T) {
        self.raw(name, &Self::bytes(value));
    }
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::create_dir_all(dir).expect("a writable corpus folder");
    std::fs::write(dir.join(name), bytes).expect("a writable corpus file");
}

/// The fixture client key: read, or made and written.
fn fixture(new_key: bool) -> ClientKey {
    let path = client_key_path();
    if !new_key {
        if let Ok(bytes) = std::fs::read(&path) {
            // (Of insecure test parameters: read inside the named scope.)
            return gpufhe::serialization::with_insecure_parameters_allowed(|| {
                gpufhe::serialization::safe_deserialize(bytes.as_slice(), LIMIT)
            })
            .expect("the fixture key reads (or make a new one with --new-key)");
        }
    }
    let key = generate_client_key();
    write(
        path.parent().unwrap(),
        "client_key.bin",
        &Writer::bytes(&key),
    );
    key
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let client = fixture(args.iter().any(|a| a == "--new-key"));
    let w = Writer {
        root: root.join("corpus"),
    };
    // Configurations.
    for (name, p) in [
        ("default", DEFAULT_PARAMETERS),
        ("test", PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2),
        ("tiny", TINY),
    ] {
        w.value(&format!("config-{name}"), &config(p));
    }
    // Values of the fixture key, encrypted and trivial.
    w.value("fhebool", &FheBool::encrypt(true, &client));
    w.value("fheuint8", &FheUint8::encrypt(0xa5u8, &client));
    w.value("fheuint16", &FheUint16::encrypt(0xbeefu16, &client));
    w.value("fheuint32", &FheUint32::encrypt(u32::MAX, &client));
    w.value("fheuint64", &FheUint64::encrypt(1u64 << 63, &client));
    w.value("fheuint128", &FheUint128::encrypt(u128::MAX / 3, &client));
    w.value("fhebool-trivial", &FheBool::encrypt_trivial(true));
    w.value("fheuint64-trivial", &FheUint64::encrypt_trivial(77u64));
    // A compressed list of the fixture key (its server key has compression keys).
    let server = CompressedServerKey::new(&client)
        .decompress_with(&cpu_scheduler())
        .unwrap();
    let mut builder = CompressedCiphertextListBuilder::new();
    builder
        .push(FheUint8::encrypt(0x3cu8, &client))
        .push(FheBool::encrypt(true, &client));
    w.value("compressed_list", &builder.build_with(&server).unwrap());
    let wide = gpufhe::integer::U256::from((u128::MAX / 5, u128::MAX / 7));
    w.value("fheuint256", &FheUint256::encrypt(wide, &client));
    w.value("fheuint256-trivial", &FheUint256::encrypt_trivial(wide));
    // Keys: the fixture client key, and keys on tiny parameters.
    w.value("client_key-test", &client);
    let tiny = ClientKey::generate(config(TINY));
    let tiny_compressed = CompressedServerKey::new(&tiny);
    w.value("client_key-tiny", &tiny);
    w.value("compressed_server_key-tiny", &tiny_compressed);
    let tiny_server = tiny_compressed.decompress_with(&cpu_scheduler()).unwrap();
    w.value("server_key-tiny", &tiny_server);
    // A keyswitching key between two tiny key sets (one level: half the bytes), and
    // the same with a decomposition of 64 bits, a saved finding (issue 40, 3).
    let other = ClientKey::generate(config(TINY));
    let other_server = CompressedServerKey::new(&other)
        .decompress_with(&cpu_scheduler())
        .unwrap();
    let one_level = ShortintKeySwitchingParameters {
        ks_base_log: DecompositionBaseLog(20),
        ks_level: DecompositionLevelCount(1),
        destination_key: EncryptionKeyChoice::Big,
    };
    let ksk = KeySwitchingKey::try_with_parameters(
        (&tiny, &tiny_server),
        (&other, &other_server),
        one_level,
    )
    .unwrap();
    let bytes = Writer::bytes(&ksk);
    w.raw("key_switching_key-tiny", &bytes);
    let shape: Vec<u8> = [20u64, 1].iter().flat_map(|v| v.to_le_bytes()).collect();
    let at = bytes
        .windows(16)
        .position(|w| w == shape.as_slice())
        .unwrap();
    let mut crafted = bytes;
    crafted[at..at + 8].copy_from_slice(&64u64.to_le_bytes());
    write(
        &root.join("crashes/safe_deserialize"),
        "key-switching-key-base-log-64",
        &crafted,
    );
    // Values of other parameters carrying the fixture key's tag (tags are public).
    let tag = client.tag().value();
    let forged = |x: &FheUint8| forge_tag(&Writer::bytes(x), tag);
    w.raw(
        "fheuint8-tiny-forged-tag",
        &forged(&FheUint8::encrypt(7u8, &tiny)),
    );
    let default_key = ClientKey::generate(ConfigBuilder::default());
    w.raw(
        "fheuint8-default-forged-tag",
        &forged(&FheUint8::encrypt(7u8, &default_key)),
    );
    // Parameter sets of the configuration builder.
    let mut gaussian = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
    gaussian.lwe_noise_distribution = NoiseDistribution::Gaussian { std_dev: 2e-7 };
    gaussian.modulus_switch = ModulusSwitchType::Standard;
    let builder = root.join("corpus/config_builder");
    for (name, p) in [
        ("default", DEFAULT_PARAMETERS),
        ("test", PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2),
        ("tiny", TINY),
        ("gaussian", gaussian),
    ] {
        write(&builder, name, &parameters_to_bytes(&p));
    }
    // Array shapes (see `gpufhe_fuzz::arrays`: a rank, axes as a kind byte then
    // its value, a second shape, ranges, a length): 0 x usize::MAX x 2 (issue 40,
    // finding 4), a 2 x 3 array sliced and reshaped, one huge axis.
    let arrays = root.join("corpus/array_shapes");
    for (name, bytes) in [
        (
            "empty-overflowing",
            &[3, 1, 2, 0, 0, 2, 2, 1, 0, 4, 2, 1, 1, 1, 2, 0, 0][..],
        ),
        (
            "two-by-three",
            &[2, 0, 2, 0, 3, 1, 0, 4, 2, 0, 1, 0, 2, 0, 0, 0, 3],
        ),
        ("one-huge-axis", &[2, 1, 2, 0, 1, 2, 5, 1, 1, 2, 0, 0]),
    ] {
        write(&arrays, name, bytes);
    }
    if args.iter().any(|a| a == "--large") {
        let large = Writer {
            root: root.join("corpus-large"),
        };
        let compressed = CompressedServerKey::new(&client);
        large.value("compressed_server_key-test", &compressed);
        large.value(
            "server_key-test",
            &compressed.decompress_with(&cpu_scheduler()).unwrap(),
        );
        large.value(
            "compressed_server_key-default",
            &CompressedServerKey::new(&default_key),
        );
    }
    tfhe_rs_data(&root.join("corpus/tfhe_rs_data"), &client);
    println!("corpus written under {}", w.root.display());
}

/// The `tfhe_rs_data` corpus: the small golden files of TFHE-rs 1.8.2
/// (`tests/data/tfhe-rs-1.8.2/`, TFHE-rs's default parameters) as they are, and
/// values of the fixture key and keys of its parameters written in TFHE-rs's
/// format by gpufhe (`gpufhe::safe_serialization`), with the types gpufhe writes
/// in its own form under a `gpufhe::` name.
fn tfhe_rs_data(dir: &Path, client: &ClientKey) {
    use gpufhe::safe_serialization::safe_serialize;
    fn tfhe<T: serde::Serialize + gpufhe::Versionize + gpufhe::named::Named>(
        dir: &Path,
        name: &str,
        value: &T,
    ) {
        let mut bytes = Vec::new();
        safe_serialize(value, &mut bytes, LIMIT).expect("writes in TFHE-rs's format");
        write(dir, name, &bytes);
    }
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tfhe-rs-1.8.2");
    for name in [
        "small-public_key-16.bin",
        "small-compressed_public_key-16.bin",
        "client_key-default.bin",
        "compact_list-7-true-minus-3.bin",
        "compact_public_key-default.bin",
        "compressed_fheuint8-42.bin",
        "fhebool-true.bin",
        "fheint8-minus-77.bin",
        "fheuint8-165.bin",
    ] {
        let bytes = std::fs::read(golden.join(name)).expect("the golden files");
        write(
            dir,
            &format!("tfhe-rs-{}", name.trim_end_matches(".bin")),
            &bytes,
        );
    }
    tfhe(dir, "fheuint8", &FheUint8::encrypt(0xa5u8, client));
    tfhe(dir, "fhebool", &FheBool::encrypt(true, client));
    tfhe(dir, "fhebool-trivial", &FheBool::encrypt_trivial(true));
    // Keys of the fixture's parameters (a TFHE-rs client key has no compression
    // keys: a key of its own), and a list of three values under its public key.
    let key = ClientKey::generate(config(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2));
    tfhe(dir, "client_key-test", &key);
    let public_key = gpufhe::CompactPublicKey::new(&key);
    tfhe(dir, "compact_public_key-test", &public_key);
    let list = gpufhe::CompactCiphertextList::builder(&public_key)
        .push(7u8)
        .push(true)
        .push(-3i8)
        .build();
    tfhe(dir, "compact_list-test", &list);
    tfhe(
        dir,
        "config-test",
        &config(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2),
    );
}

#[cfg(fuzzing)]
#[path = "../sancov_stubs.rs"]
mod sancov_stubs;
