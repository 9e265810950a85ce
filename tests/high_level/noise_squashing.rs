//! Noise squashing on the insecure test parameters: squash then decrypt equals the
//! clear value for several widths (odd and even block counts), signed values,
//! booleans and trivial values; and the errors: no noise-squashing key, a value of
//! another key, decryption by another client key.

use crate::insecure_keys;
use gpufhe::prelude::*;
use gpufhe::shortint::{
    NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_NS,
    PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS,
};
use gpufhe::{
    generate_keys, set_server_key, ClientKey, ConfigBuilder, FheBool, FheInt16, FheInt8, FheUint10,
    FheUint16, FheUint2, FheUint32, FheUint8, ServerKey,
};
use std::sync::OnceLock;

/// Insecure keys with noise squashing, generated once.
fn keys() -> &'static (ClientKey, ServerKey) {
    static KEYS: OnceLock<(ClientKey, ServerKey)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let config = ConfigBuilder::default()
            .with_insecure_custom_parameters(TEST_PARAMS)
            .expect("test parameters")
            .enable_noise_squashing(TEST_NS);
        generate_keys(config)
    })
}

fn setup() -> &'static ClientKey {
    let (ck, sk) = keys();
    set_server_key(sk.clone());
    ck
}

#[test]
fn squashed_values_decrypt_to_their_clear_values() {
    let ck = setup();
    let (_, sk) = keys();
    assert!(sk.supports_noise_squashing() && sk.has_noise_squashing_key());
    let a: u8 = FheUint2::encrypt(3u8, ck)
        .squash_noise()
        .unwrap()
        .decrypt(ck);
    assert_eq!(a, 3);
    let x = FheUint8::encrypt(250u8, ck);
    let b: u8 = (&x + 9u8).squash_noise().unwrap().decrypt(ck);
    assert_eq!(b, 3);
    let c: u16 = FheUint10::encrypt(1001u16, ck)
        .squash_noise()
        .unwrap()
        .decrypt(ck);
    assert_eq!(c, 1001);
    let squashed = FheUint32::encrypt(0xdead_beefu32, ck)
        .squash_noise()
        .unwrap();
    assert_eq!(squashed.num_bits(), 32);
    let d: u32 = squashed.decrypt(ck);
    assert_eq!(d, 0xdead_beef);
    let e: i8 = FheInt8::encrypt(-128i8, ck)
        .squash_noise()
        .unwrap()
        .decrypt(ck);
    assert_eq!(e, -128);
    let f: i16 = FheInt16::encrypt(12345i16, ck)
        .squash_noise()
        .unwrap()
        .decrypt(ck);
    assert_eq!(f, 12345);
    for v in [false, true] {
        assert_eq!(
            FheBool::encrypt(v, ck).squash_noise().unwrap().decrypt(ck),
            v
        );
    }
    let t: u16 = FheUint16::encrypt_trivial(4321u16)
        .squash_noise()
        .unwrap()
        .decrypt(ck);
    assert_eq!(t, 4321);
}

#[test]
fn squashing_without_a_key_or_across_keys_is_an_error() {
    // A server key without noise squashing.
    let plain_ck = insecure_keys::setup();
    let x = FheUint8::encrypt(5u8, plain_ck);
    let err = x.squash_noise().unwrap_err().to_string();
    assert!(err.contains("noise-squashing"), "{err}");
    // A value of another key.
    let ck = setup();
    assert!(x.squash_noise().is_err());
    // Decryption by a client key without noise squashing, or of another key.
    let squashed = FheUint8::encrypt(7u8, ck).squash_noise().unwrap();
    assert!(FheTryDecrypt::<u8>::try_decrypt(&squashed, plain_ck).is_err());
    assert_eq!(FheTryDecrypt::<u8>::try_decrypt(&squashed, ck).unwrap(), 7);
    let other = ClientKey::generate(
        ConfigBuilder::default()
            .with_insecure_custom_parameters(TEST_PARAMS)
            .unwrap()
            .enable_noise_squashing(TEST_NS),
    );
    assert!(FheTryDecrypt::<u8>::try_decrypt(&squashed, &other).is_err());
    // Parameters that do not suit the blocks.
    let mut bad = TEST_NS;
    bad.message_modulus = 8;
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST_PARAMS)
        .unwrap()
        .enable_noise_squashing(bad);
    assert!(ClientKey::try_generate(config).is_err());
}

#[test]
fn cpu_and_seeded_keys_squash_alike() {
    let ck = setup();
    let csk = gpufhe::CompressedServerKey::new(ck);
    assert!(csk.has_noise_squashing_key());
    let (client, server) = generate_keys(*ck.config());
    assert!(server.supports_noise_squashing());
    set_server_key(server);
    let v: u8 = FheUint8::encrypt(77u8, &client)
        .squash_noise()
        .unwrap()
        .decrypt(&client);
    assert_eq!(v, 77);
    set_server_key(csk.decompress());
    let v: u8 = FheUint8::encrypt(78u8, ck)
        .squash_noise()
        .unwrap()
        .decrypt(ck);
    assert_eq!(v, 78);
}

/// TFHE-rs's form: the client key with its noise-squashing key and the squashed
/// values round-trip byte for byte and still decrypt.
#[test]
fn squashed_values_and_keys_round_trip_in_tfhe_rs_form() {
    use crate::tfhe_rs_support::round_trip;
    let ck = setup();
    let a = FheUint16::encrypt(40000u16, ck).squash_noise().unwrap();
    let b = FheInt8::encrypt(-3i8, ck).squash_noise().unwrap();
    let c = FheBool::encrypt(true, ck).squash_noise().unwrap();
    let ck2: ClientKey = round_trip(ck);
    assert_eq!(ck2.config().noise_squashing_parameters(), Some(&TEST_NS));
    let va: u16 = round_trip(&a).decrypt(&ck2);
    let vb: i8 = round_trip(&b).decrypt(&ck2);
    let vc: bool = round_trip(&c).decrypt(&ck2);
    assert_eq!((va, vb, vc), (40000, -3, true));
    let config: gpufhe::Config = *ck.config();
    let mut bytes = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&c, &mut bytes, 1 << 20).unwrap();
    // Truncated or corrupted squashed values: an error, never a panic.
    for cut in [0, 20, bytes.len() / 2, bytes.len() - 1] {
        let r: Result<gpufhe::SquashedNoiseFheBool, _> =
            gpufhe::safe_serialization::safe_deserialize(&bytes[..cut], 1 << 20);
        assert!(r.is_err());
    }
    assert_eq!(config.noise_squashing_parameters(), Some(&TEST_NS));
}

/// TFHE-rs 1.8.2's golden files (compare/examples/tfhers_noise_squashing.rs): its
/// client key with a noise-squashing key and its squashed values, read, written
/// back byte for byte and decrypted here.
#[test]
fn tfhe_rs_squashed_values_decrypt() {
    use crate::tfhe_rs_support::read_small_exactly;
    let ck: ClientKey = read_small_exactly("small-noise_squashing-client_key.bin");
    assert_eq!(ck.config().noise_squashing_parameters(), Some(&TEST_NS));
    let a: gpufhe::SquashedNoiseFheUint =
        read_small_exactly("small-noise_squashing-squashed_fheuint8-173.bin");
    let b: gpufhe::SquashedNoiseFheInt =
        read_small_exactly("small-noise_squashing-squashed_fheint8-minus-77.bin");
    let c: gpufhe::SquashedNoiseFheBool =
        read_small_exactly("small-noise_squashing-squashed_fhebool-true.bin");
    let (va, vb, vc): (u8, i8, bool) = (a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck));
    assert_eq!((va, vb, vc), (173, -77, true));
}
