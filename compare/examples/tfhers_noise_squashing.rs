//! Noise squashing between TFHE-rs 1.8.2 and gpufhe, both ways, on the small insecure
//! parameters (gpufhe's `PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2` and
//! `NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2`):
//!
//! - TFHE-rs makes a client key with noise squashing and squashes an `FheUint8`, an
//!   `FheInt8` and an `FheBool`; gpufhe reads the client key and the squashed values
//!   and decrypts them; the files are also written as golden files
//!   (`tests/data/tfhe-rs-1.8.2/small-noise_squashing-*.bin`, a few KiB each);
//! - gpufhe makes its keys, squashes the same values, and TFHE-rs reads its client key
//!   and squashed values and decrypts them.
//!
//! - the server keys with their noise-squashing keys, both ways: TFHE-rs's
//!   `CompressedServerKey` and `ServerKey` are read by gpufhe (written back byte for
//!   byte), squash in gpufhe and decrypt; gpufhe's are read by TFHE-rs and squash
//!   there. The seeded key is decompressed by both libraries from the same seed, so
//!   its masks must be drawn in the same order. (The keys are MiB: no golden files.)
//!
//! - the same both ways with a multi-bit noise-squashing key (gpufhe's
//!   `NOISE_SQUASHING_PARAM_INSECURE_TEST_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2`, TFHE-rs's
//!   `NoiseSquashingParameters::MultiBit`).
//!
//! Every byte string is also checked to be written back identically (read then
//! written by the other library). The client key comes from a fixed seed; the
//! squashed values do not (TFHE-rs's engine), so running this again rewrites them
//! with other bytes that decrypt to the same values.
//!
//! ```text
//! cd compare && cargo run --release --example tfhers_noise_squashing
//! ```

use std::path::Path;
use tfhe::prelude::*;
use tfhe::safe_serialization::{safe_deserialize, safe_serialize};
use tfhe::shortint::parameters::noise_squashing::{
    NoiseSquashingClassicParameters, NoiseSquashingMultiBitParameters, NoiseSquashingParameters,
};
use tfhe::shortint::parameters::{
    CarryModulus, CoreCiphertextModulus, DecompositionBaseLog, DecompositionLevelCount,
    DynamicDistribution, GlweDimension, LweBskGroupingFactor, MessageModulus, ModulusSwitchType,
    PolynomialSize,
};
use tfhe::{ClientKey, CompressedServerKey, ConfigBuilder, FheBool, FheInt8, FheUint8, Seed};

#[path = "support/tfhers.rs"]
mod tfhers;
use tfhers::small_parameters;

const LIMIT: u64 = 1 << 30;

/// gpufhe's `NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2`, in TFHE-rs.
fn small_noise_squashing() -> NoiseSquashingParameters {
    NoiseSquashingParameters::Classic(NoiseSquashingClassicParameters {
        glwe_dimension: GlweDimension(1),
        polynomial_size: PolynomialSize(512),
        glwe_noise_distribution: DynamicDistribution::new_t_uniform(30),
        decomp_base_log: DecompositionBaseLog(24),
        decomp_level_count: DecompositionLevelCount(3),
        modulus_switch_noise_reduction_params: ModulusSwitchType::CenteredMeanNoiseReduction,
        message_modulus: MessageModulus(4),
        carry_modulus: CarryModulus(4),
        ciphertext_modulus: CoreCiphertextModulus::<u128>::new_native(),
    })
}

/// gpufhe's `NOISE_SQUASHING_PARAM_INSECURE_TEST_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2`,
/// in TFHE-rs.
fn small_multi_bit_noise_squashing() -> NoiseSquashingParameters {
    NoiseSquashingParameters::MultiBit(NoiseSquashingMultiBitParameters {
        glwe_dimension: GlweDimension(1),
        polynomial_size: PolynomialSize(512),
        glwe_noise_distribution: DynamicDistribution::new_t_uniform(30),
        decomp_base_log: DecompositionBaseLog(18),
        decomp_level_count: DecompositionLevelCount(4),
        grouping_factor: LweBskGroupingFactor(4),
        message_modulus: MessageModulus(4),
        carry_modulus: CarryModulus(4),
        ciphertext_modulus: CoreCiphertextModulus::<u128>::new_native(),
        deterministic_execution: false,
    })
}

/// TFHE-rs's client key (from `seed`) on the small parameters with noise squashing
/// `ns`, its compressed server key and that key decompressed.
fn tfhe_rs_keys(
    ns: NoiseSquashingParameters,
    seed: Seed,
) -> (ClientKey, CompressedServerKey, tfhe::ServerKey) {
    let config = ConfigBuilder::with_custom_parameters(small_parameters())
        .use_dedicated_oprf_key(false)
        .enable_noise_squashing(ns)
        .build();
    let ck = ClientKey::generate_with_seed(config, seed);
    let csk = CompressedServerKey::new(&ck);
    let sk = csk.clone().decompress();
    (ck, csk, sk)
}

/// The server keys with a multi-bit noise-squashing key, both ways.
fn multi_bit_server_keys() {
    let (ck, csk, sk) = tfhe_rs_keys(small_multi_bit_noise_squashing(), Seed(0x5eed_0040));
    println!("multi-bit noise squashing:");
    server_keys_from_tfhe_rs(&ck, &csk, &sk);
    let gck: gpufhe::ClientKey = gpufhe::serialization::with_insecure_parameters_allowed(|| {
        gpufhe::safe_serialization::safe_deserialize(bytes_of(&ck).as_slice(), LIMIT).unwrap()
    });
    server_keys_from_gpufhe(&gck, &ck);
}

fn bytes_of<T: serde::Serialize + tfhe::Versionize + tfhe::named::Named>(v: &T) -> Vec<u8> {
    let mut out = Vec::new();
    safe_serialize(v, &mut out, LIMIT).unwrap();
    out
}

fn gpufhe_bytes<T: serde::Serialize + tfhe::Versionize + gpufhe::named::Named>(v: &T) -> Vec<u8> {
    let mut out = Vec::new();
    gpufhe::safe_serialization::safe_serialize(v, &mut out, LIMIT).unwrap();
    out
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tfhe-rs-1.8.2");

    // TFHE-rs squashes, gpufhe decrypts.
    let (ck, csk, sk) = tfhe_rs_keys(small_noise_squashing(), Seed(0x5eed_0039));
    server_keys_from_tfhe_rs(&ck, &csk, &sk);
    tfhe::set_server_key(sk);
    let a = FheUint8::encrypt(173u8, &ck).squash_noise().unwrap();
    let b = FheInt8::encrypt(-77i8, &ck).squash_noise().unwrap();
    let c = FheBool::encrypt(true, &ck).squash_noise().unwrap();
    let files = [
        ("small-noise_squashing-client_key.bin", bytes_of(&ck)),
        (
            "small-noise_squashing-squashed_fheuint8-173.bin",
            bytes_of(&a),
        ),
        (
            "small-noise_squashing-squashed_fheint8-minus-77.bin",
            bytes_of(&b),
        ),
        (
            "small-noise_squashing-squashed_fhebool-true.bin",
            bytes_of(&c),
        ),
    ];
    for (name, bytes) in &files {
        std::fs::write(dir.join(name), bytes).unwrap();
        println!("wrote {name} ({} bytes)", bytes.len());
    }
    gpufhe::serialization::with_insecure_parameters_allowed(|| {
        let gck: gpufhe::ClientKey =
            gpufhe::safe_serialization::safe_deserialize(files[0].1.as_slice(), LIMIT).unwrap();
        assert_eq!(gpufhe_bytes(&gck), files[0].1, "client key written back");
        let ga: gpufhe::SquashedNoiseFheUint =
            gpufhe::safe_serialization::safe_deserialize(files[1].1.as_slice(), LIMIT).unwrap();
        let gb: gpufhe::SquashedNoiseFheInt =
            gpufhe::safe_serialization::safe_deserialize(files[2].1.as_slice(), LIMIT).unwrap();
        let gc: gpufhe::SquashedNoiseFheBool =
            gpufhe::safe_serialization::safe_deserialize(files[3].1.as_slice(), LIMIT).unwrap();
        assert_eq!(gpufhe_bytes(&ga), files[1].1);
        assert_eq!(gpufhe_bytes(&gb), files[2].1);
        assert_eq!(gpufhe_bytes(&gc), files[3].1);
        use gpufhe::prelude::FheDecrypt as _;
        let va: u8 = ga.decrypt(&gck);
        let vb: i8 = gb.decrypt(&gck);
        let vc: bool = gc.decrypt(&gck);
        assert_eq!((va, vb, vc), (173, -77, true));
        println!("TFHE-rs squashed, gpufhe decrypted: {va} {vb} {vc}");
    });

    // gpufhe squashes, TFHE-rs decrypts.
    let gconfig = gpufhe::ConfigBuilder::default()
        .with_insecure_custom_parameters(gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
        .unwrap()
        .enable_noise_squashing(
            gpufhe::shortint::NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
        );
    let (gck, gsk) = gpufhe::generate_keys(gconfig);
    gpufhe::set_server_key(gsk);
    use gpufhe::prelude::{FheEncrypt as _, SquashNoise as _};
    let ga = gpufhe::FheUint8::encrypt(201u8, &gck)
        .squash_noise()
        .unwrap();
    let gb = gpufhe::FheInt8::encrypt(-128i8, &gck)
        .squash_noise()
        .unwrap();
    let gc = gpufhe::FheBool::encrypt(false, &gck)
        .squash_noise()
        .unwrap();
    let key_bytes = gpufhe_bytes(&gck);
    let ck: ClientKey = safe_deserialize(key_bytes.as_slice(), LIMIT).unwrap();
    server_keys_from_gpufhe(&gck, &ck);
    let a: tfhe::SquashedNoiseFheUint =
        safe_deserialize(gpufhe_bytes(&ga).as_slice(), LIMIT).unwrap();
    let b: tfhe::SquashedNoiseFheInt =
        safe_deserialize(gpufhe_bytes(&gb).as_slice(), LIMIT).unwrap();
    let c: tfhe::SquashedNoiseFheBool =
        safe_deserialize(gpufhe_bytes(&gc).as_slice(), LIMIT).unwrap();
    assert_eq!(bytes_of(&ck), key_bytes, "client key written back");
    let va: u8 = a.decrypt(&ck);
    let vb: i8 = b.decrypt(&ck);
    let vc: bool = c.decrypt(&ck);
    assert_eq!((va, vb, vc), (201, -128, false));
    println!("gpufhe squashed, TFHE-rs decrypted: {va} {vb} {vc}");
    multi_bit_server_keys();
}

/// TFHE-rs's server keys with noise squashing, read by gpufhe: written back byte for
/// byte, and squashing there decrypts with TFHE-rs's client key.
fn server_keys_from_tfhe_rs(ck: &ClientKey, csk: &CompressedServerKey, sk: &tfhe::ServerKey) {
    use gpufhe::prelude::{FheDecrypt as _, FheEncrypt as _, SquashNoise as _};
    let (csk_bytes, sk_bytes) = (bytes_of(csk), bytes_of(sk));
    println!(
        "TFHE-rs keys with noise squashing: compressed {} bytes, plain {} bytes",
        csk_bytes.len(),
        sk_bytes.len()
    );
    gpufhe::serialization::with_insecure_parameters_allowed(|| {
        let gck: gpufhe::ClientKey =
            gpufhe::safe_serialization::safe_deserialize(bytes_of(ck).as_slice(), LIMIT).unwrap();
        let gcsk: gpufhe::CompressedServerKey =
            gpufhe::safe_serialization::safe_deserialize(csk_bytes.as_slice(), LIMIT).unwrap();
        assert_eq!(
            gpufhe_bytes(&gcsk),
            csk_bytes,
            "compressed server key written back"
        );
        let gsk: gpufhe::ServerKey =
            gpufhe::safe_serialization::safe_deserialize(sk_bytes.as_slice(), LIMIT).unwrap();
        assert_eq!(gpufhe_bytes(&gsk), sk_bytes, "server key written back");
        for (what, key) in [("plain", gsk), ("decompressed", gcsk.decompress())] {
            gpufhe::set_server_key(key);
            let a: u8 = gpufhe::FheUint8::encrypt(99u8, &gck)
                .squash_noise()
                .unwrap()
                .decrypt(&gck);
            let b: bool = gpufhe::FheBool::encrypt(true, &gck)
                .squash_noise()
                .unwrap()
                .decrypt(&gck);
            assert_eq!((a, b), (99, true), "TFHE-rs's {what} key in gpufhe");
            println!("TFHE-rs's {what} server key squashed in gpufhe: {a} {b}");
        }
    });
}

/// gpufhe's server keys with noise squashing, read by TFHE-rs: written back byte for
/// byte, and squashing there decrypts with TFHE-rs's client key.
fn server_keys_from_gpufhe(gck: &gpufhe::ClientKey, ck: &ClientKey) {
    let gcsk = gpufhe::CompressedServerKey::new(gck);
    let (csk_bytes, sk_bytes) = (gpufhe_bytes(&gcsk), gpufhe_bytes(&gcsk.decompress()));
    let csk: CompressedServerKey = safe_deserialize(csk_bytes.as_slice(), LIMIT).unwrap();
    assert_eq!(
        bytes_of(&csk),
        csk_bytes,
        "compressed server key written back"
    );
    let sk: tfhe::ServerKey = safe_deserialize(sk_bytes.as_slice(), LIMIT).unwrap();
    assert_eq!(bytes_of(&sk), sk_bytes, "server key written back");
    for (what, key) in [("plain", sk), ("decompressed", csk.decompress())] {
        tfhe::set_server_key(key);
        let a: u8 = FheUint8::encrypt(42u8, ck)
            .squash_noise()
            .unwrap()
            .decrypt(ck);
        let b: i8 = FheInt8::encrypt(-5i8, ck)
            .squash_noise()
            .unwrap()
            .decrypt(ck);
        assert_eq!((a, b), (42, -5), "gpufhe's {what} key in TFHE-rs");
        println!("gpufhe's {what} server key squashed in TFHE-rs: {a} {b}");
    }
}
