//! Code written as a TFHE-rs 1.8 user writes it, with only the crate name changed:
//! the items that docs/coming-from-tfhe-rs.md marks as the same in gpufhe, at their
//! TFHE-rs paths and with their TFHE-rs argument shapes, on the default (secure)
//! parameters, each result checked against the clear computation.

use crate::common::keys;
use gpufhe::prelude::*;
use gpufhe::safe_serialization::{
    safe_deserialize, safe_deserialize_conformant, safe_serialize, DeserializationConfig,
    SerializationConfig,
};
use gpufhe::shortint::parameters::{
    current_params::V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS, PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    PARAM_MESSAGE_2_CARRY_2_KS_PBS, PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
    PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};
use gpufhe::{
    get_pbs_count, reset_pbs_count, set_server_key, unset_server_key, with_server_key_as_context,
    ClientKey, CompressedServerKey, ConfigBuilder, FheBool, FheInt32, FheInt8, FheUint128,
    FheUint16, FheUint32, FheUint8, FheUint8ConformanceParams, KeySwitchingKey, Seed, ServerKey,
};
use gpufhe::{
    ClearArray, CompactCiphertextListBuilder, CompactPublicKey, CompressedFheUint16,
    CompressedPublicKey, CudaGpuChoice, CudaServerKey, CustomMultiGpuIndexes, Device,
    FheUint8Array, GpuIndex, RangeForRandom,
};
use std::num::NonZeroU64;

/// The keys shared by these tests (default parameters), as `(client, server)`.
fn shared() -> (&'static ClientKey, &'static ServerKey) {
    let (client_key, _, server_key) = keys();
    (client_key, server_key)
}

#[test]
fn configuration_with_tfhe_rs_parameter_names_generates_working_keys() {
    // A custom configuration the way TFHE-rs spells it, then the keys from the
    // client key's own methods.
    let config =
        ConfigBuilder::with_custom_parameters(PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128)
            .enable_compression(COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS)
            .build();
    let client_key = ClientKey::generate(config);
    let compressed_server_key = client_key.generate_compressed_server_key();
    set_server_key(compressed_server_key.decompress());

    let a = FheUint16::encrypt(1234u16, &client_key);
    let b = FheUint16::encrypt(4321u16, &client_key);
    let c = &a + &b;
    let decrypted: u16 = c.decrypt(&client_key);
    assert_eq!(decrypted, 1234 + 4321);

    // TFHE-rs's Gaussian set of the same blocks.
    let gaussian = ClientKey::generate(
        ConfigBuilder::default()
            .use_custom_parameters(PARAM_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128),
    );
    let gaussian_server = ServerKey::new(&gaussian);
    let x = FheUint8::encrypt(200u8, &gaussian);
    let doubled: u8 = with_server_key_as_context(gaussian_server, || &x + &x).decrypt(&gaussian);
    assert_eq!(doubled, 144);

    // use_custom_parameters and the versioned names agree with the short ones.
    let same = ConfigBuilder::default()
        .use_custom_parameters(V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128)
        .build();
    assert_eq!(
        same,
        ConfigBuilder::with_custom_parameters(PARAM_MESSAGE_2_CARRY_2_KS_PBS).build()
    );
    unset_server_key();
}

#[test]
fn server_key_as_context_and_the_pbs_counter() {
    let (client_key, server_key) = shared();
    let a = FheUint32::encrypt(1_000_000u32, client_key);
    let b = FheUint32::encrypt(2_345u32, client_key);

    reset_pbs_count();
    let (sum, product) = with_server_key_as_context(server_key.clone(), || (&a + &b, &a * 3u32));
    // Other tests run on other threads of this process: the counter is at least
    // what this thread ran.
    assert!(get_pbs_count() > 0);
    let sum: u32 = sum.decrypt(client_key);
    let product: u32 = product.decrypt(client_key);
    assert_eq!((sum, product), (1_002_345, 3_000_000));
    // The context is over: this thread has no key again.
    assert!(a.try_add(&b).is_err());
}

#[test]
fn scalar_select_clear_select_dot_product_and_trivial_values() {
    let (client_key, server_key) = shared();
    set_server_key(server_key.clone());

    let a = FheInt32::encrypt(-45i32, client_key);
    let b = FheInt32::encrypt(32i32, client_key);
    let a_is_greater = a.gt(&b);
    let picked: i32 = a_is_greater.select(&a, &b).decrypt(client_key);
    assert_eq!(picked, 32);
    let picked: i32 = a_is_greater.scalar_select(&a, 100i32).decrypt(client_key);
    assert_eq!(picked, 100);
    let picked: i32 = a_is_greater.scalar_select(-7i32, &b).decrypt(client_key);
    assert_eq!(picked, 32);
    let picked: i32 = FheInt32::select(&a_is_greater, 1, -1).decrypt(client_key);
    assert_eq!(picked, -1);

    let bits = [true, true, false, true].map(|bit| FheBool::encrypt(bit, client_key));
    let dot: u8 = FheUint8::dot_product(&bits, &[10, 20, 30, 40]).decrypt(client_key);
    assert_eq!(dot, 70);

    let trivial = FheUint128::encrypt_trivial(u128::MAX - 5);
    assert_eq!(
        trivial.try_decrypt_trivial::<u128>().unwrap(),
        u128::MAX - 5
    );
    assert_eq!(trivial.try_decrypt_trivial::<u8>().unwrap(), 250); // wraps like `as`
    let doubled: u128 = (&trivial * 2u128).decrypt(client_key);
    assert_eq!(doubled, u128::MAX - 11);
    assert!(a.try_decrypt_trivial::<i32>().is_err());
}

#[test]
fn oblivious_pseudo_random_signed_values() {
    let (client_key, server_key) = shared();
    set_server_key(server_key.clone());
    let any = FheInt8::generate_oblivious_pseudo_random(Seed(11));
    let again = FheInt8::generate_oblivious_pseudo_random(Seed(11));
    let (any, again): (i8, i8) = (any.decrypt(client_key), again.decrypt(client_key));
    assert_eq!(any, again);
    let bounded = FheInt8::generate_oblivious_pseudo_random_bounded(Seed(12), 4);
    let bounded: i8 = bounded.decrypt(client_key);
    assert!((0..16).contains(&bounded), "{bounded}");
}

#[test]
fn safe_serialization_as_tfhe_rs_writes_it() {
    let (client_key, server_key) = shared();
    set_server_key(server_key.clone());
    let config = *client_key.config();
    let value = FheUint8::encrypt(201u8, client_key);

    let mut buffer = vec![];
    safe_serialize(&value, &mut buffer, 1 << 20).unwrap();
    let plain: FheUint8 = safe_deserialize(buffer.as_slice(), 1 << 20).unwrap();
    let conformant: FheUint8 =
        safe_deserialize_conformant(buffer.as_slice(), 1 << 20, &config.into()).unwrap();
    let sum: u8 = (&plain + &conformant).decrypt(client_key);
    assert_eq!(sum, 201u8.wrapping_mul(2));
    assert!(safe_deserialize::<FheUint8>(&buffer[..buffer.len() - 1], 1 << 20).is_err());

    let params = FheUint8ConformanceParams::from(server_key);
    assert!(conformant.is_conformant(&params));
    let mut with_config = vec![];
    SerializationConfig::new(1 << 20)
        .disable_versioning()
        .serialize_into(&value, &mut with_config)
        .unwrap();
    // Unversioned: the value's own serde form (smaller, no version tags), which
    // TFHE-rs's header marks as such and which reads back the same.
    assert_ne!(with_config, buffer);
    assert!(with_config.len() < buffer.len());
    let read: FheUint8 = DeserializationConfig::new(1 << 20)
        .deserialize_from(with_config.as_slice(), &params)
        .unwrap();
    let read: u8 = read.decrypt(client_key);
    assert_eq!(read, 201);
    let unchecked: FheUint8 = DeserializationConfig::new(1 << 20)
        .disable_conformance()
        .deserialize_from(with_config.as_slice())
        .unwrap();
    assert!(unchecked.is_conformant(&params));
    assert!(DeserializationConfig::new(10)
        .disable_conformance()
        .deserialize_from::<FheUint8>(with_config.as_slice())
        .is_err());
}

#[test]
fn a_gpu_key_is_set_as_tfhe_rs_sets_it() {
    // TFHE-rs's GPU program: decompress to the GPU and set the key. The
    // `CudaServerKey` carries the decompression's error, if any, and
    // `set_server_key` takes it as it is: with a GPU the key computes; without one
    // the operations report why.
    let (client_key, _, _) = keys();
    let compressed: &CompressedServerKey = &keys().1;
    let gpu_key: CudaServerKey = compressed.decompress_to_gpu();
    assert_eq!(
        gpu_key.gpu_indexes().len() as u32,
        gpufhe::get_number_of_gpus()
    );
    set_server_key(gpu_key.clone());
    let a = FheUint8::encrypt(100u8, client_key);
    let b = FheUint8::encrypt(55u8, client_key);
    match gpu_key.into_result() {
        Ok(_) => {
            let sum: u8 = (&a + &b).decrypt(client_key);
            assert_eq!(sum, 155);
        }
        Err(error) => assert_eq!(a.try_add(&b).unwrap_err(), error),
    }
    unset_server_key();
}

#[test]
fn values_move_to_another_key_set_with_a_key_switching_key() {
    let (cks_1, sks_1) = shared();
    let cks_2 = ClientKey::generate(ConfigBuilder::default());
    let sks_2 = ServerKey::new(&cks_2);
    let ksk = KeySwitchingKey::with_parameters(
        (cks_1, sks_1),
        (&cks_2, &sks_2),
        PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
    );
    assert_eq!((ksk.tag_in(), ksk.tag_out()), (cks_1.tag(), cks_2.tag()));

    let a = FheUint32::encrypt(3_000_000_000u32, cks_1);
    let s = FheInt8::encrypt(-100i8, cks_1);
    let flag = FheBool::encrypt(true, cks_1);
    let (a2, s2, flag2) = (ksk.keyswitch(&a), ksk.keyswitch(&s), ksk.keyswitch(&flag));

    // The moved values compute with the second server key like fresh ones.
    set_server_key(sks_2.clone());
    let sum: u32 = (&a2 + 1_500_000_000u32).decrypt(&cks_2);
    assert_eq!(sum, 3_000_000_000u32.wrapping_add(1_500_000_000));
    let negated: i8 = (-&s2).decrypt(&cks_2);
    assert_eq!(negated, 100);
    assert!(flag2.decrypt(&cks_2));
    // They are under the second key only; values of the second key do not switch.
    assert!(FheTryDecrypt::<u32>::try_decrypt(&a2, cks_1).is_err());
    assert!(ksk.try_keyswitch(&a2).is_err());
    // A server key of another client key is refused.
    assert!(KeySwitchingKey::new((cks_1, &sks_2), (&cks_2, &sks_2)).is_err());
    unset_server_key();

    // The key serializes with its destination server key, and works read back.
    let mut bytes = vec![];
    safe_serialize(&ksk, &mut bytes, 1 << 31).unwrap();
    let read: KeySwitchingKey = safe_deserialize(bytes.as_slice(), 1 << 31).unwrap();
    assert_eq!((read.tag_in(), read.tag_out()), (cks_1.tag(), cks_2.tag()));
    let moved: u32 = read.keyswitch(&a).decrypt(&cks_2);
    assert_eq!(moved, 3_000_000_000);
    assert!(safe_deserialize::<KeySwitchingKey>(&bytes[..bytes.len() - 1], 1 << 31).is_err());
    // A destination server key of another client key is an `Err` (serde writes the
    // fields in order, the server key last).
    let codec = bincode::config::standard().with_fixed_int_encoding();
    let plain = bincode::serde::encode_to_vec(&ksk, codec).unwrap();
    let destination = bincode::serde::encode_to_vec(&sks_2, codec).unwrap();
    let other = bincode::serde::encode_to_vec(sks_1, codec).unwrap();
    let mut forged = plain[..plain.len() - destination.len()].to_vec();
    forged.extend_from_slice(&other);
    let err = bincode::serde::decode_from_slice::<KeySwitchingKey, _>(&forged, codec).unwrap_err();
    assert!(err.to_string().contains("destination server key"), "{err}");
    let back = bincode::serde::decode_from_slice::<KeySwitchingKey, _>(&plain, codec).unwrap();
    assert_eq!(back.0.tag_out(), cks_2.tag());
}

#[test]
fn gpu_choices_ranges_shifts_and_list_builders() {
    let (client_key, server_key) = shared();
    set_server_key(server_key.clone());

    // The GPU choices TFHE-rs passes to decompress_to_specific_gpu.
    let chosen = CustomMultiGpuIndexes::new(vec![GpuIndex::new(0)]);
    let compressed = &keys().1;
    let on_gpu: CudaServerKey = compressed.decompress_to_specific_gpu(CudaGpuChoice::from(chosen));
    assert_eq!(
        on_gpu.server_key().is_ok(),
        gpufhe::get_number_of_gpus() > 0
    );

    // A die roll: uniform in [0, 6).
    let range = RangeForRandom::new_from_excluded_upper_bound(NonZeroU64::new(6).unwrap());
    let roll = FheUint8::generate_oblivious_pseudo_random_custom_range(Seed(9), &range, None);
    let roll: u8 = roll.decrypt(client_key);
    assert!(roll < 6, "{roll}");

    // Shift amounts of another clear type.
    let x = FheUint32::encrypt(0x0f0f_0000u32, client_key);
    let shifted: u32 = (&x >> 8u8).decrypt(client_key);
    assert_eq!(shifted, 0x000f_0f00);

    // A compact list built TFHE-rs's ways.
    let public_key = CompactPublicKey::new(client_key);
    let list = CompactCiphertextListBuilder::new(&public_key)
        .extend([7u16, 8, 9].into_iter())
        .push(true)
        .build_packed();
    let expander = list.expand().unwrap();
    let second: FheUint16 = expander.get(1).unwrap().unwrap();
    let flag: FheBool = expander.get(3).unwrap().unwrap();
    let second: u16 = second.decrypt(client_key);
    assert_eq!(second, 8);
    assert!(flag.decrypt(client_key));
}

#[test]
fn public_keys_compressed_values_arrays_and_signed_arithmetic() {
    let (client_key, server_key) = shared();
    set_server_key(server_key.clone());

    // Encryption with the public keys and as single compressed values.
    let public_key = CompressedPublicKey::new(client_key).decompress();
    let a = FheUint16::encrypt(40_000u16, &public_key);
    let b = CompressedFheUint16::encrypt(30_000u16, client_key).decompress();
    let sum = &a + &b;
    let sum: u16 = sum.compress().decompress().decrypt(client_key);
    assert_eq!(sum, 40_000u16.wrapping_add(30_000));

    // if_then_zero, as TFHE-rs's transfer benchmark sends an amount.
    let (balance, amount) = (
        FheUint16::encrypt(500u16, client_key),
        FheUint16::encrypt(501u16, client_key),
    );
    let sent: u16 = balance
        .ge(&amount)
        .if_then_zero(&amount)
        .decrypt(client_key);
    assert_eq!(sent, 0);

    // Signed division and overflow flags.
    let (x, y) = (
        FheInt8::encrypt(-100i8, client_key),
        FheInt8::encrypt(7i8, client_key),
    );
    let (q, r) = (&x / &y, &x % &y);
    let (q, r): (i8, i8) = (q.decrypt(client_key), r.decrypt(client_key));
    assert_eq!((q, r), (-100 / 7, -100 % 7));
    let (wrapped, overflowed) = (&x).overflowing_sub(&FheInt8::encrypt(100i8, client_key));
    let wrapped: i8 = wrapped.decrypt(client_key);
    assert_eq!(
        (wrapped, overflowed.decrypt(client_key)),
        ((-100i8).wrapping_sub(100), true)
    );

    // A 2x2 slice of a 2x3 array plus a clear array.
    let xs =
        FheUint8Array::try_encrypt((&[1u8, 2, 3, 4, 5, 6][..], vec![2, 3]), client_key).unwrap();
    let view = xs.slice(&[0..2, 1..3]);
    let total: Vec<u8> =
        (&view + &ClearArray::new(vec![10u8, 20, 30, 40], vec![2, 2])).decrypt(client_key);
    assert_eq!(total, vec![12, 23, 35, 46]);
}

#[test]
fn gpu_size_queries_moves_and_memory_checks_as_tfhe_rs_names_them() {
    // TFHE-rs's documented pattern: ask the sizes, check the GPU can take them,
    // move the operands to the key's device, compute.
    let (client_key, server_key) = shared();
    set_server_key(server_key.clone());
    let mut a = FheInt32::encrypt(-70_000i32, client_key);
    let mut b = FheInt32::encrypt(3i32, client_key);
    // A value's own bytes: 16 blocks of (2048 + 1) words.
    assert_eq!(a.get_size_on_gpu(), 16 * 2049 * 8);
    let operands = a.get_size_on_gpu() + b.get_size_on_gpu();
    let add = a.get_add_size_on_gpu(&b);
    assert!(add > operands, "{add} <= {operands}");
    assert!(a.get_add_size_on_gpu(3i32) < add);
    assert!(a.get_div_rem_size_on_gpu(&b) >= a.get_div_size_on_gpu(&b));
    assert!(a.get_neg_size_on_gpu() > a.get_size_on_gpu());
    assert!(a.get_gt_size_on_gpu(&b) > 0 && a.get_ne_size_on_gpu(&b) > 0);
    let flag = FheBool::encrypt(true, client_key);
    assert!(flag.get_cmux_size_on_gpu(&a, &b) >= operands);
    assert!(flag.get_bitand_size_on_gpu(&flag) > flag.get_bitxor_size_on_gpu(true));
    let gpu = GpuIndex::new(0);
    let on_gpu = gpufhe::get_number_of_gpus() > 0;
    assert_eq!(GpuIndex::try_new(0).is_some(), on_gpu);
    if !on_gpu {
        assert!(!check_valid_cuda_malloc(add, gpu));
        assert!(!gpufhe::core_crypto::gpu::is_cuda_available());
    }
    a.move_to_current_device();
    b.move_to_current_device();
    assert_eq!(a.current_device(), Device::Cpu); // a CPU key
    assert!(a.gpu_indexes().is_empty());
    a += &b;
    let sum: i32 = a.decrypt(client_key);
    assert_eq!(sum, -69_997);
    unset_server_key();
}

#[test]
fn the_newer_tfhe_rs_forms_on_the_default_parameters() {
    // One case of each operation form added for TFHE-rs programs, on the default
    // (secure) parameters; the insecure-parameter tests (operand_forms, clears_selection_and_lookup)
    // cover their edge cases.
    let (client_key, server_key) = shared();
    set_server_key(server_key.clone());
    let a = FheUint8::encrypt(0b1011_0110u8, client_key);
    let amount = FheUint32::encrypt(3u32, client_key);
    let flag = FheBool::encrypt(true, client_key);
    let d = |x: &FheUint8| -> u8 { x.decrypt(client_key) };
    // A shift by an encrypted amount of another width; a comparison with a wider clear.
    assert_eq!(d(&(&a << &amount)), 0b1011_0110u8 << 3);
    assert!(a.lt(300u16).decrypt(client_key));
    // Overflowing negation, a flip, a selection with a clear arm.
    let (negated, overflow) = (&a).overflowing_neg();
    assert_eq!(
        (d(&negated), overflow.decrypt(client_key)),
        0b1011_0110u8.overflowing_neg()
    );
    let (x, y) = flag.flip(&a, 9u8);
    assert_eq!((d(&x), d(&y)), (9, 0b1011_0110));
    assert_eq!(d(&flag.scalar_select(7u16, &a)), 7);
    // A lookup table, a bit slice and membership.
    let table = gpufhe::MatchValues::new(vec![(0b1011_0110u8, 42u8), (1, 2)]).unwrap();
    let looked_up: FheUint8 = a.match_value_or(&table, 0u8).unwrap();
    assert_eq!(d(&looked_up), 42);
    assert_eq!(d(&(&a).bitslice(2usize..6).unwrap()), 0b1101);
    let values = [FheUint8::encrypt(1u8, client_key), a.clone()];
    assert!(FheUint8::contains(&values, &a).decrypt(client_key));
    unset_server_key();
}
