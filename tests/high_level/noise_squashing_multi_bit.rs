//! Multi-bit noise squashing (TFHE-rs 1.8's `NoiseSquashingParameters::MultiBit`) on
//! the insecure test parameters: squash then decrypt equals the clear value for
//! unsigned, signed and boolean values, through a seeded server key and its TFHE-rs
//! form (written back byte for byte), and the compressed squashed lists of such
//! values. The default multi-bit set's key (4 GiB, minutes of generation) is not
//! generated in CI.

use crate::tfhe_rs_support::round_trip;
use gpufhe::prelude::*;
use gpufhe::shortint::{
    NOISE_SQUASHING_COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_COMP,
    NOISE_SQUASHING_PARAM_INSECURE_TEST_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2 as TEST_NS_MB,
    PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS,
};
use gpufhe::{
    set_server_key, ClientKey, CompressedServerKey, CompressedSquashedNoiseCiphertextList as List,
    ConfigBuilder, FheBool, FheInt8, FheUint32, FheUint8, ServerKey, SquashedNoiseFheBool,
    SquashedNoiseFheInt, SquashedNoiseFheUint,
};

#[test]
fn multi_bit_squashed_values_decrypt_and_round_trip_in_tfhe_rs_form() {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST_PARAMS)
        .expect("test parameters")
        .enable_noise_squashing(TEST_NS_MB)
        .enable_noise_squashing_compression(TEST_COMP);
    let ck = ClientKey::generate(config);
    let csk = CompressedServerKey::new(&ck);
    assert!(csk.has_noise_squashing_key());
    let sk = csk.decompress();
    set_server_key(sk.clone());
    let a = FheUint32::encrypt(0xdead_beefu32, &ck)
        .squash_noise()
        .unwrap();
    let b = FheInt8::encrypt(-77i8, &ck).squash_noise().unwrap();
    let c = FheBool::encrypt(true, &ck).squash_noise().unwrap();
    let (va, vb, vc): (u32, i8, bool) = (a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck));
    assert_eq!((va, vb, vc), (0xdead_beef, -77, true));
    // The compressed squashed list of multi-bit squashed values.
    let list: List = round_trip(&List::builder().push(a).push(b).push(c).build().unwrap());
    let a: SquashedNoiseFheUint = list.get(0).unwrap().unwrap();
    let b: SquashedNoiseFheInt = list.get(1).unwrap().unwrap();
    let c: SquashedNoiseFheBool = list.get(2).unwrap().unwrap();
    let (va, vb, vc): (u32, i8, bool) = (a.decrypt(&ck), b.decrypt(&ck), c.decrypt(&ck));
    assert_eq!((va, vb, vc), (0xdead_beef, -77, true));
    // The server keys in TFHE-rs's form, byte for byte; the plain one squashes after
    // the round trip (compare/examples/tfhers_noise_squashing.rs squashes with
    // TFHE-rs's and gpufhe's keys in the other library).
    let csk2: CompressedServerKey = round_trip(&csk);
    assert!(csk2.has_noise_squashing_key());
    let sk2: ServerKey = round_trip(&sk);
    assert_eq!(sk2.config().noise_squashing_parameters(), Some(&TEST_NS_MB));
    set_server_key(sk2);
    let ck2: ClientKey = round_trip(&ck);
    let d: u8 = FheUint8::encrypt(201u8, &ck)
        .squash_noise()
        .unwrap()
        .decrypt(&ck2);
    assert_eq!(d, 201);
}

/// Multi-bit parameters whose grouping factor does not divide the blocks'
/// dimension, or with a centered modulus switch: an error, never a panic.
#[test]
fn bad_multi_bit_squashing_parameters_are_errors() {
    let mut bad = TEST_NS_MB;
    bad.grouping_factor = Some(7);
    assert!(bad.validate().is_err());
    bad.grouping_factor = Some(3); // 3 does not divide 256
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST_PARAMS)
        .unwrap()
        .enable_noise_squashing(bad);
    let ck = ClientKey::generate(config);
    assert!(CompressedServerKey::try_new(&ck).is_err());
    bad.grouping_factor = Some(4);
    bad.modulus_switch = gpufhe::core_crypto::ModulusSwitchType::CenteredMeanNoiseReduction;
    assert!(bad.validate().is_err());
}

/// TFHE-rs 1.8's multi-bit sets under its names, paired as its GPU configuration
/// pairs them (client keys only: the server's multi-bit squashing key is 4 GiB).
#[test]
fn tfhe_rs_multi_bit_squashing_sets_pair_with_the_gpu_blocks() {
    use gpufhe::shortint::parameters::v1_8::*;
    use gpufhe::shortint::parameters::{
        NOISE_SQUASHING_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as COMP,
        NOISE_SQUASHING_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as NS,
        PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as BLOCKS,
    };
    assert_eq!(
        V1_8_NOISE_SQUASHING_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        NS
    );
    assert_eq!(
        V1_8_NOISE_SQUASHING_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        COMP
    );
    assert_eq!(NS.grouping_factor, Some(4));
    NS.validate().unwrap();
    let config = ConfigBuilder::with_custom_parameters(BLOCKS)
        .enable_noise_squashing(NS)
        .enable_noise_squashing_compression(COMP)
        .build();
    let ck = ClientKey::try_generate(config).unwrap();
    assert_eq!(ck.config().noise_squashing_parameters(), Some(&NS));
    let ck2: ClientKey = round_trip(&ck);
    assert_eq!(ck2.config().noise_squashing_parameters(), Some(&NS));
    assert_eq!(
        ck2.config().noise_squashing_compression_parameters(),
        Some(&COMP)
    );
}
