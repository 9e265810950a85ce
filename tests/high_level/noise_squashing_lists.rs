//! Noise squashing, the rest of TFHE-rs 1.8's API: server keys holding a
//! noise-squashing key in TFHE-rs's form (plain and compressed, written back byte
//! for byte, squashing after the round trip), on the insecure test parameters.

use crate::tfhe_rs_support::round_trip;
use gpufhe::prelude::*;
use gpufhe::shortint::{
    NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_NS,
    PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS,
};
use gpufhe::{
    set_server_key, ClientKey, CompressedServerKey, ConfigBuilder, FheInt8, FheUint8, ServerKey,
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
            .enable_noise_squashing(TEST_NS);
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
    let sk2: ServerKey = round_trip(&csk2.decompress());
    assert!(sk2.supports_noise_squashing());
    assert_eq!(sk2.config().noise_squashing_parameters(), Some(&TEST_NS));
    set_server_key(sk2);
    let a: u8 = FheUint8::encrypt(211u8, ck)
        .squash_noise()
        .unwrap()
        .decrypt(ck);
    let b: i8 = FheInt8::encrypt(-99i8, ck)
        .squash_noise()
        .unwrap()
        .decrypt(ck);
    assert_eq!((a, b), (211, -99));
}
