//! Dedicated compact public-key parameters (TFHE-rs's
//! `use_dedicated_compact_public_key_parameters`): lists encrypted under the
//! dedicated key, cast to the computation key on expansion (a keyswitch, then a
//! bootstrap), in gpufhe and through TFHE-rs's format; bad input refused. One
//! keygen of the insecure test parameters for most tests, one of the defaults.

use gpufhe::prelude::*;
use gpufhe::shortint::parameters::{
    CompactCiphertextListExpansionKind, EncryptionKeyChoice,
    PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS_SMALL,
    PARAM_KEYSWITCH_TO_BIG_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS_BIG,
    PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2 as PKE_TEST,
    PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as PKE,
};
use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
use gpufhe::{
    ClientKey, CompactCiphertextList, CompactPublicKey, CompressedCompactPublicKey,
    CompressedServerKey, Config, ConfigBuilder, FheBool, FheInt16, FheUint32, FheUint8, ServerKey,
};
use std::sync::OnceLock;

use crate::tfhe_rs_support::round_trip;

fn config() -> Config {
    ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST)
        .unwrap()
        .use_dedicated_compact_public_key_parameters((PKE_TEST, KS_SMALL))
        .build()
}

/// The test keys of dedicated parameters: client, compressed server, server.
fn keys() -> &'static (ClientKey, CompressedServerKey, ServerKey) {
    static KEYS: OnceLock<(ClientKey, CompressedServerKey, ServerKey)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let client_key = ClientKey::generate(config());
        let compressed = CompressedServerKey::new(&client_key);
        let server_key = compressed.decompress();
        (client_key, compressed, server_key)
    })
}

/// Expands `list` ([u8, bool, i16, u32]) with `server_key` and checks the values.
fn check_list(list: &CompactCiphertextList, server_key: &ServerKey, ck: &ClientKey) {
    let expander = list.expand_with_key(server_key).unwrap();
    let a: FheUint8 = expander.get(0).unwrap().unwrap();
    let b: FheBool = expander.get(1).unwrap().unwrap();
    let c: FheInt16 = expander.get(2).unwrap().unwrap();
    let d: FheUint32 = expander.get(3).unwrap().unwrap();
    let (a, b, c, d): (u8, bool, i16, u32) =
        (a.decrypt(ck), b.decrypt(ck), c.decrypt(ck), d.decrypt(ck));
    assert_eq!((a, b, c, d), (201, true, -1234, 3_000_000_007));
}

fn mixed_list(pk: &CompactPublicKey) -> CompactCiphertextList {
    CompactCiphertextList::builder(pk)
        .push(201u8)
        .push(true)
        .push(-1234i16)
        .push(3_000_000_007u32)
        .build()
}

#[test]
fn dedicated_lists_expand_cast_and_compute() {
    let (ck, _, sk) = keys();
    let pk = CompactPublicKey::new(ck);
    assert_eq!(pk.parameters(), PKE_TEST);
    assert_eq!(
        ck.config().public_key_encryption_parameters().unwrap(),
        PKE_TEST
    );
    let list = mixed_list(&pk);
    check_list(&list, sk, ck);
    // With the thread's server key, and computing on the cast values.
    gpufhe::set_server_key(sk.clone());
    let expander = list.expand().unwrap();
    let a: FheUint8 = expander.get(0).unwrap().unwrap();
    let c: FheInt16 = expander.get(2).unwrap().unwrap();
    let sum: u8 = (&a + 100u8).decrypt(ck);
    assert_eq!(sum, 201u8.wrapping_add(100));
    let product: i16 = (&c * 3i16).decrypt(ck);
    assert_eq!(product, -3702);
    // One value encrypted with the public key (a list of one, expanded).
    let x = FheUint8::try_encrypt(77u8, &pk).unwrap();
    let y: u8 = (&x + &a).decrypt(ck);
    assert_eq!(y, 77u8.wrapping_add(201));
    // The compressed public key encrypts under the dedicated key too.
    let decompressed = CompressedCompactPublicKey::new(ck).decompress();
    assert_eq!(decompressed.parameters(), PKE_TEST);
    check_list(&mixed_list(&decompressed), sk, ck);
    gpufhe::unset_server_key();
}

#[test]
fn dedicated_keys_and_lists_speak_tfhe_rs_form() {
    let (ck, compressed, sk) = keys();
    let pk = CompactPublicKey::new(ck);
    let list = mixed_list(&pk);
    // Each written in TFHE-rs's form and read back byte for byte.
    let ck2: ClientKey = round_trip(ck);
    assert_eq!(ck2.config(), ck.config());
    let compressed2: CompressedServerKey = round_trip(compressed);
    let sk2: ServerKey = round_trip(sk);
    // They hold the casting key (TFHE-rs's `cpk_key_switching_key_material`).
    assert!(sk.has_cpk_key_switching_key_material());
    assert!(compressed.has_cpk_key_switching_key_material());
    assert!(sk2.has_cpk_key_switching_key_material());
    assert!(compressed2.has_cpk_key_switching_key_material());
    let pk2: CompactPublicKey = round_trip(&pk);
    assert_eq!(pk2.parameters(), PKE_TEST);
    let list2: CompactCiphertextList = round_trip(&list);
    // The read keys cast the read list.
    check_list(&list2, &sk2, &ck2);
    check_list(&list2, &compressed2.decompress(), ck);
    // A list made with the read public key, by the original keys.
    check_list(&mixed_list(&pk2), sk, ck);
    // gpufhe's own format cannot hold a dedicated key or list: an Err, not a loss.
    let own = |v: &dyn Fn(&mut Vec<u8>) -> gpufhe::Result<()>| v(&mut Vec::new()).is_err();
    assert!(own(&|b| gpufhe::serialization::safe_serialize(
        &pk,
        b,
        1 << 30
    )));
    assert!(own(&|b| gpufhe::serialization::safe_serialize(
        &list,
        b,
        1 << 30
    )));
}

#[test]
fn dedicated_lists_refuse_wrong_keys() {
    let (ck, _, sk) = keys();
    let list = mixed_list(&CompactPublicKey::new(ck));
    // No server key on the thread: expansion must cast, so it is an Err.
    gpufhe::unset_server_key();
    assert!(list.expand().is_err());
    // Another client key's server key (of the same parameters, with a casting key).
    let other = ClientKey::generate(config());
    let other_sk = ServerKey::new(&other);
    assert!(list.expand_with_key(&other_sk).is_err());
    gpufhe::set_server_key(other_sk);
    assert!(list.expand().is_err());
    // A server key without a casting key cannot expand a dedicated list, even with
    // the right tag (the casting key removed through TFHE-rs's form).
    gpufhe::unset_server_key();
    let plain = ClientKey::generate(
        ConfigBuilder::default()
            .with_insecure_custom_parameters(TEST)
            .unwrap(),
    );
    let plain_list = CompactCiphertextList::builder(&CompactPublicKey::new(&plain))
        .push(1u8)
        .build();
    assert!(plain_list.expand().is_ok());
    assert!(plain_list.expand_with_key(sk).is_err());
    // Invalid dedicated parameters: key generation fails.
    let mut odd = PKE_TEST;
    odd.encryption_lwe_dimension.0 = 500;
    let bad = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST)
        .unwrap()
        .use_dedicated_compact_public_key_parameters((odd, KS_SMALL))
        .build();
    assert!(ClientKey::try_generate(bad).is_err());
    assert!(bad.public_key_encryption_parameters().is_err());
    let mut wide = PKE_TEST;
    wide.message_modulus.0 = 8;
    let bad = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST)
        .unwrap()
        .use_dedicated_compact_public_key_parameters((wide, KS_SMALL))
        .build();
    assert!(ClientKey::try_generate(bad).is_err());
}

#[test]
fn casting_to_the_big_key_also_works() {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST)
        .unwrap()
        .use_dedicated_compact_public_key_parameters((PKE_TEST, KS_BIG))
        .build();
    assert_eq!(KS_BIG.destination_key, EncryptionKeyChoice::Big);
    let ck = ClientKey::generate(config);
    let sk = ServerKey::new(&ck);
    check_list(&mixed_list(&CompactPublicKey::new(&ck)), &sk, &ck);
}

#[test]
fn dedicated_default_parameters_expand_a_mixed_list() {
    // TFHE-rs 1.8's secure sets: a key of dimension 2048, cast to the small key.
    assert_eq!(
        PKE.expansion_kind,
        CompactCiphertextListExpansionKind::RequiresCasting
    );
    let config = ConfigBuilder::default()
        .use_dedicated_compact_public_key_parameters((PKE, KS_SMALL))
        .build();
    let ck = ClientKey::generate(config);
    let sk = ServerKey::new(&ck);
    let list = mixed_list(&CompactPublicKey::new(&ck));
    check_list(&list, &sk, &ck);
}
