//! Noise squashing, the rest of TFHE-rs 1.8's API: compressed lists of squashed
//! values (on the default parameters once, with squash-and-decrypt of `FheUint64`,
//! `FheInt8` and `FheBool`; the rest on the insecure test parameters) and server
//! keys holding a noise-squashing key in TFHE-rs's form (plain and compressed,
//! written back byte for byte, squashing after the round trip).

use crate::tfhe_rs_support::round_trip;
use gpufhe::prelude::*;
use gpufhe::shortint::{
    NOISE_SQUASHING_COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP,
    NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_NS,
    PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS,
};
use gpufhe::{
    set_server_key, ClientKey, CompressedServerKey, ConfigBuilder, FheInt8, FheUint8, ServerKey,
};
use gpufhe::{
    CompressedSquashedNoiseCiphertextList as List, FheBool, FheUint128, FheUint64,
    SquashedNoiseFheBool, SquashedNoiseFheInt, SquashedNoiseFheUint,
};
use std::sync::OnceLock;

/// An insecure client key with noise squashing and its seeded server key,
/// generated once.
fn keys() -> &'static (ClientKey, CompressedServerKey) {
    static KEYS: OnceLock<(ClientKey, CompressedServerKey)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let config = ConfigBuilder::default()
            .with_insecure_custom_parameters(TEST_PARAMS)
            .expect("test parameters")
            .enable_noise_squashing(TEST_NS)
            .enable_noise_squashing_compression(TEST_COMP);
        let ck = ClientKey::generate(config);
        let csk = CompressedServerKey::new(&ck);
        (ck, csk)
    })
}

/// The server keys with a noise-squashing key, plain and compressed, round-trip in
/// TFHE-rs's form byte for byte, and squash after it.
#[test]
fn server_keys_with_noise_squashing_round_trip_in_tfhe_rs_form() {
    let (ck, csk) = keys();
    let csk2: CompressedServerKey = round_trip(csk);
    assert!(csk2.has_noise_squashing_key());
    assert!(csk2.has_noise_squashing_compression_key());
    let sk2: ServerKey = round_trip(&csk2.decompress());
    assert!(sk2.supports_noise_squashing() && sk2.supports_noise_squashing_compression());
    assert_eq!(sk2.config().noise_squashing_parameters(), Some(&TEST_NS));
    assert_eq!(
        sk2.config().noise_squashing_compression_parameters(),
        Some(&TEST_COMP)
    );
    set_server_key(sk2);
    let ck2: ClientKey = round_trip(ck);
    assert_eq!(ck2.config(), ck.config());
    let a = FheUint8::encrypt(211u8, ck).squash_noise().unwrap();
    let b = FheInt8::encrypt(-99i8, ck).squash_noise().unwrap();
    let c = FheBool::encrypt(false, ck).squash_noise().unwrap();
    let (va, vb): (u8, i8) = (a.decrypt(ck), b.decrypt(ck));
    assert_eq!((va, vb), (211, -99));
    // A compressed list in TFHE-rs's form, decrypted by the client key read back.
    let list: List = round_trip(&List::builder().push(a).push(b).push(c).build().unwrap());
    let a: SquashedNoiseFheUint = round_trip(&list.get(0).unwrap().unwrap());
    let b: SquashedNoiseFheInt = list.get(1).unwrap().unwrap();
    let c: SquashedNoiseFheBool = list.get(2).unwrap().unwrap();
    let (va, vb, vc): (u8, i8, bool) = (a.decrypt(&ck2), b.decrypt(&ck2), c.decrypt(&ck2));
    assert_eq!((va, vb, vc), (211, -99, false));
    let empty: List = round_trip(&List::builder().build().unwrap());
    assert!(empty.is_empty());
    // Malformed lists: an error, never a panic.
    let mut bytes = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&list, &mut bytes, 1 << 30).unwrap();
    for cut in [0, 10, bytes.len() / 2, bytes.len() - 1] {
        let r: Result<List, _> =
            gpufhe::safe_serialization::safe_deserialize(&bytes[..cut], 1 << 30);
        assert!(r.is_err());
    }
}

/// One compressed list on TFHE-rs 1.8's default parameters: `FheUint64`, `FheInt8`
/// and `FheBool` squashed, decrypted, packed into a list and taken out again.
#[test]
fn compressed_squashed_list_on_the_default_parameters() {
    use gpufhe::shortint::{
        NOISE_SQUASHING_COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as COMP,
        NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as NS,
    };
    let config = ConfigBuilder::default()
        .enable_noise_squashing(NS)
        .enable_noise_squashing_compression(COMP);
    let (ck, sk) = gpufhe::generate_keys(config);
    assert!(sk.supports_noise_squashing_compression());
    set_server_key(sk);
    let a = FheUint64::encrypt(0xfedc_ba98_7654_3210u64, &ck)
        .squash_noise()
        .unwrap();
    let b = FheInt8::encrypt(-77i8, &ck).squash_noise().unwrap();
    let c = FheBool::encrypt(true, &ck).squash_noise().unwrap();
    let (va, vb, vc): (u64, i8, bool) = (a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck));
    assert_eq!((va, vb, vc), (0xfedc_ba98_7654_3210, -77, true));
    let list = List::builder().push(a).push(b).push(c).build().unwrap();
    assert_eq!(list.len(), 3);
    let a: SquashedNoiseFheUint = list.get(0).unwrap().unwrap();
    let b: SquashedNoiseFheInt = list.get(1).unwrap().unwrap();
    let c: SquashedNoiseFheBool = list.get(2).unwrap().unwrap();
    let (va, vb, vc): (u64, i8, bool) = (a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck));
    assert_eq!((va, vb, vc), (0xfedc_ba98_7654_3210, -77, true));
}

/// A list spanning several GLWE ciphertexts (more squashed blocks than
/// `lwe_per_glwe`), values taken out in any order, and the errors: a slot of
/// another kind, past the end, a key without a compression key, a value of a list
/// compressed again, a client key without the compression key.
#[test]
fn compressed_squashed_lists_round_trip_and_refuse_bad_uses() {
    let (ck, csk) = keys();
    set_server_key(csk.decompress());
    // 32 + 16 + 2 squashed blocks (pairs of blocks): four GLWE ciphertexts of 16.
    let wide = u128::MAX - (0x0123_4567_89ab_cdefu128 << 64);
    let narrow = u64::MAX - 0xdead_beef;
    let list = List::builder()
        .push(FheUint128::encrypt(wide, ck).squash_noise().unwrap())
        .push(FheUint64::encrypt(narrow, ck).squash_noise().unwrap())
        .push(FheUint8::encrypt(9u8, ck).squash_noise().unwrap())
        .build()
        .unwrap();
    assert_eq!(list.len(), 3);
    // Taken out in any order.
    let last: SquashedNoiseFheUint = list.get(2).unwrap().unwrap();
    let nine: u8 = last.decrypt(ck);
    assert_eq!(nine, 9);
    let x: SquashedNoiseFheUint = list.get(1).unwrap().unwrap();
    let d: u64 = x.decrypt(ck);
    assert_eq!(d, narrow);
    let x: SquashedNoiseFheUint = list.get(0).unwrap().unwrap();
    let d: u128 = x.decrypt(ck);
    assert_eq!(d, wide);
    assert!(list.get::<SquashedNoiseFheInt>(0).is_err());
    assert!(list.get::<SquashedNoiseFheBool>(3).unwrap().is_none());
    assert!(List::builder().build().unwrap().is_empty());
    // A value out of a list cannot be compressed again.
    assert!(List::builder().push(last).build().is_err());
    // A client key without the compression key cannot decrypt a value out of a list.
    let plain = ClientKey::generate(
        ConfigBuilder::default()
            .with_insecure_custom_parameters(TEST_PARAMS)
            .unwrap()
            .enable_noise_squashing(TEST_NS),
    );
    let x: SquashedNoiseFheUint = list.get(2).unwrap().unwrap();
    assert!(FheTryDecrypt::<u8>::try_decrypt(&x, &plain).is_err());
    // A server key without a compression key.
    set_server_key(gpufhe::CompressedServerKey::new(&plain).decompress());
    let y = FheUint8::encrypt(1u8, &plain).squash_noise().unwrap();
    let err = List::builder().push(y).build().unwrap_err().to_string();
    assert!(err.contains("compression"), "{err}");
    // Compression parameters of other moduli.
    let mut bad = TEST_COMP;
    bad.message_modulus = 8;
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST_PARAMS)
        .unwrap()
        .enable_noise_squashing(TEST_NS)
        .enable_noise_squashing_compression(bad);
    assert!(ClientKey::try_generate(config).is_err());
}
