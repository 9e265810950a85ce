//! Values encrypted with a seed (`CompressedFheUint*`, `CompressedFheInt*`,
//! `CompressedFheBool`) and the classical public keys (`PublicKey`,
//! `CompressedPublicKey`): on the default parameters (the binary's shared keys)
//! encrypt, send, decompress, compute and decrypt, with the sizes; on the insecure
//! test parameters every width, and malformed input.

use crate::{common, insecure_keys};

use common::{from_bytes, header_len, to_bytes, LIMIT};

use gpufhe::prelude::*;
use gpufhe::serialization::{safe_deserialize_conformant, SafeSerialization, SERIALIZATION_MAGIC};
use gpufhe::{
    set_server_key, unset_server_key, ClientKey, CompactPublicKey, CompressedFheBool,
    CompressedFheInt, CompressedFheInt128, CompressedFheInt8, CompressedFheUint,
    CompressedFheUint16, CompressedFheUint2, CompressedFheUint256, CompressedFheUint64,
    CompressedFheUint8, CompressedPublicKey, Error, FheBool, FheInt16, FheInt8, FheIntId,
    FheUint16, FheUint64, FheUint8, FheUintId, PublicKey, ServerKey,
};

/// `bytes` (a value of `T`) with the header of a `U`.
fn renamed<T: SafeSerialization, U: SafeSerialization>(bytes: &[u8]) -> Vec<u8> {
    let mut out = SERIALIZATION_MAGIC.to_vec();
    out.extend_from_slice(&bytes[8..12]);
    out.push(U::TYPE_NAME.len() as u8);
    out.extend_from_slice(U::TYPE_NAME.as_bytes());
    out.extend_from_slice(&bytes[header_len::<T>()..]);
    out
}

#[test]
fn compressed_values_on_default_parameters_are_small_and_compute_once_decompressed() {
    let ck = common::setup();
    let compressed = CompressedFheUint64::encrypt(0xdead_beef_0000_0001u64, ck);
    let plain = FheUint64::encrypt(0xdead_beef_0000_0001u64, ck);
    let bytes = to_bytes(&compressed);
    let plain_bytes = to_bytes(&plain);
    println!(
        "serialized on the default parameters: CompressedFheUint64 {} bytes, FheUint64 {} \
         bytes ({:.0}x)",
        bytes.len(),
        plain_bytes.len(),
        plain_bytes.len() as f64 / bytes.len() as f64
    );
    assert!(5 * bytes.len() < plain_bytes.len());
    assert!(bytes.len() < 400, "{} bytes", bytes.len());

    // The server reads it (checked against the key), decompresses and computes.
    let read: CompressedFheUint64 =
        safe_deserialize_conformant(bytes.as_slice(), LIMIT, &ck.into())
            .expect("conforms to its key");
    let x = read.decompress();
    assert_eq!(x.tag(), Some(ck.tag()));
    let y = &x + &plain;
    let z = &x * 3u64;
    assert_eq!(
        FheDecrypt::<u64>::decrypt(&y, ck),
        0xdead_beef_0000_0001u64.wrapping_mul(2)
    );
    assert_eq!(
        FheDecrypt::<u64>::decrypt(&z, ck),
        0xdead_beef_0000_0001u64.wrapping_mul(3)
    );
    // Of another configuration: refused.
    let other = insecure_keys::keys().0.config();
    let r: Result<CompressedFheUint64, Error> =
        safe_deserialize_conformant(bytes.as_slice(), LIMIT, &other.into());
    assert!(r.is_err());

    let a = CompressedFheInt8::encrypt(-100i8, ck).decompress();
    let b = CompressedFheBool::encrypt(true, ck).decompress();
    let c: i8 = (&a - 50i8).decrypt(ck);
    assert_eq!(c, 106);
    let picked: i8 = b.select(&a, &FheInt8::encrypt(1i8, ck)).decrypt(ck);
    assert_eq!(picked, -100);
    assert!((&b & a.lt(0i8)).decrypt(ck));
}

#[test]
fn public_keys_on_default_parameters_encrypt_values_the_server_computes_on() {
    let ck = common::setup();
    let compressed = CompressedPublicKey::new(ck);
    let public_key = compressed.decompress();
    let (small, full) = (to_bytes(&compressed), to_bytes(&public_key));
    println!(
        "serialized on the default parameters: CompressedPublicKey {} bytes, PublicKey {} \
         bytes",
        small.len(),
        full.len()
    );
    assert!(small.len() < full.len() && full.len() < 40_000);
    let public_key: PublicKey = from_bytes(&full).unwrap();
    let compressed: CompressedPublicKey = from_bytes(&small).unwrap();
    assert_eq!((public_key.tag(), compressed.tag()), (ck.tag(), ck.tag()));

    let a = FheUint8::encrypt(250u8, &public_key);
    let b = FheUint8::try_encrypt(10u8, &compressed).unwrap();
    let c = FheInt16::try_encrypt(-300i16, &public_key).unwrap();
    let d = FheBool::encrypt(true, &compressed);
    assert_eq!(a.tag(), Some(ck.tag()));
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&a + &b), ck), 4);
    assert_eq!(FheDecrypt::<i16>::decrypt(&(&c * 2i16), ck), -600);
    assert!(!(!&d | false).decrypt(ck));
    // Wide values: `encrypt` wraps, `try_encrypt` refuses.
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&FheUint8::encrypt(0x1ff_u16, &public_key), ck),
        0xff
    );
    assert!(FheUint8::try_encrypt(256u16, &public_key).is_err());
    assert!(FheInt8::try_encrypt(128i16, &compressed).is_err());
    // The compact public key encrypts single values too, with both traits.
    let compact = CompactPublicKey::new(ck);
    let e = FheUint16::encrypt(40_000u16, &compact);
    assert_eq!(FheDecrypt::<u16>::decrypt(&(&e + 1u16), ck), 40_001);
    // Conformance to the key's configuration.
    assert!(public_key.is_conformant(&ck.into()));
    assert!(!compressed.is_conformant(&(&insecure_keys::keys().0).into()));
}

/// Encrypts `value` of every unsigned width through a compressed value, and checks it
/// decrypts, wraps and refuses like `FheUint`.
fn unsigned_round_trip<Id: FheUintId>(value: u128)
where
    CompressedFheUint<Id>: SafeSerialization,
{
    let ck = insecure_keys::setup();
    let bits = gpufhe::FheUint::<Id>::bits();
    let clear = if bits >= 128 {
        value
    } else {
        value & ((1 << bits) - 1)
    };
    let compressed = CompressedFheUint::<Id>::try_encrypt(clear, ck).unwrap();
    let read: CompressedFheUint<Id> = from_bytes(&to_bytes(&compressed)).unwrap();
    let x = read.decompress();
    let back: u128 = x.decrypt(ck);
    assert_eq!(back, clear, "{bits} bits");
    let doubled: u128 = (&x + &x).decrypt(ck);
    let modulus_mask = if bits >= 128 {
        u128::MAX
    } else {
        (1 << bits) - 1
    };
    assert_eq!(doubled, clear.wrapping_mul(2) & modulus_mask, "{bits} bits");
    if bits < 128 {
        assert!(CompressedFheUint::<Id>::try_encrypt(1u128 << bits, ck).is_err());
        let wrapped = CompressedFheUint::<Id>::encrypt((1u128 << bits) | 1, ck);
        assert_eq!(FheDecrypt::<u128>::decrypt(&wrapped.decompress(), ck), 1);
    }
}

#[test]
fn every_width_round_trips_on_test_parameters() {
    let v = 0x8765_4321_0fed_cba9_1357_9bdf_2468_ace0_u128;
    unsigned_round_trip::<gpufhe::FheUint2Id>(v);
    unsigned_round_trip::<gpufhe::FheUint4Id>(v);
    unsigned_round_trip::<gpufhe::FheUint6Id>(v);
    unsigned_round_trip::<gpufhe::FheUint8Id>(v);
    unsigned_round_trip::<gpufhe::FheUint10Id>(v);
    unsigned_round_trip::<gpufhe::FheUint12Id>(v);
    unsigned_round_trip::<gpufhe::FheUint14Id>(v);
    unsigned_round_trip::<gpufhe::FheUint16Id>(v);
    unsigned_round_trip::<gpufhe::FheUint32Id>(v);
    unsigned_round_trip::<gpufhe::FheUint64Id>(v);
    unsigned_round_trip::<gpufhe::FheUint128Id>(v);
    let ck = insecure_keys::setup();
    let big = gpufhe::integer::U256::from((v, 5u128));
    let x = CompressedFheUint256::encrypt(big, ck).decompress();
    assert_eq!(FheDecrypt::<gpufhe::integer::U256>::decrypt(&x, ck), big);

    signed_round_trip::<gpufhe::FheInt8Id>(-128);
    signed_round_trip::<gpufhe::FheInt16Id>(-12_345);
    signed_round_trip::<gpufhe::FheInt32Id>(i32::MIN as i128 + 7);
    signed_round_trip::<gpufhe::FheInt64Id>(i64::MAX as i128);
    signed_round_trip::<gpufhe::FheInt128Id>(i128::MIN + 3);
    assert!(CompressedFheInt8::try_encrypt(128i16, ck).is_err());
    assert!(CompressedFheInt8::try_encrypt(-129i16, ck).is_err());
    let wrapped = CompressedFheInt8::encrypt(200i16, ck).decompress();
    assert_eq!(FheDecrypt::<i8>::decrypt(&wrapped, ck), 200i16 as i8);
    let neg: i128 = (-CompressedFheInt128::encrypt(i128::MAX, ck).decompress()).decrypt(ck);
    assert_eq!(neg, -i128::MAX);

    for b in [false, true] {
        let x = CompressedFheBool::try_encrypt(b, ck).unwrap();
        let read: CompressedFheBool = from_bytes(&to_bytes(&x)).unwrap();
        assert_eq!(read.decompress().decrypt(ck), b);
        assert_eq!((!read.decompress()).decrypt(ck), !b);
    }
}

fn signed_round_trip<Id: FheIntId>(value: i128)
where
    CompressedFheInt<Id>: SafeSerialization,
{
    let ck = insecure_keys::setup();
    let compressed = CompressedFheInt::<Id>::try_encrypt(value, ck).unwrap();
    let read: CompressedFheInt<Id> = from_bytes(&to_bytes(&compressed)).unwrap();
    assert_eq!(FheDecrypt::<i128>::decrypt(&read.decompress(), ck), value);
}

#[test]
fn malformed_compressed_values_are_errors() {
    let ck = insecure_keys::setup();
    let x = CompressedFheUint8::encrypt(0xa5u8, ck);
    let bytes = to_bytes(&x);
    assert!(from_bytes::<CompressedFheUint8>(&bytes).is_ok());
    // Truncated anywhere.
    for cut in [
        1,
        8,
        24,
        33,
        bytes.len() - header_len::<CompressedFheUint8>(),
    ] {
        let r = from_bytes::<CompressedFheUint8>(&bytes[..bytes.len() - cut]);
        assert!(r.is_err(), "cut by {cut} bytes");
    }
    // Another type's header.
    assert!(from_bytes::<CompressedFheUint16>(&bytes).is_err());
    assert!(from_bytes::<FheUint8>(&bytes).is_err());
    assert!(from_bytes::<CompressedFheInt8>(&bytes).is_err());
    // Four blocks under the name of a type of eight, or of one.
    let err = from_bytes::<CompressedFheUint16>(
        &renamed::<CompressedFheUint8, CompressedFheUint16>(&bytes),
    )
    .unwrap_err();
    assert!(err.to_string().contains("number of blocks"), "{err}");
    assert!(
        from_bytes::<CompressedFheBool>(&renamed::<CompressedFheUint8, CompressedFheBool>(&bytes))
            .is_err()
    );
    assert!(
        from_bytes::<CompressedFheUint2>(&renamed::<CompressedFheUint8, CompressedFheUint2>(
            &bytes
        ))
        .is_err()
    );
    // The same through plain serde (bincode without the header).
    let payload = &bytes[header_len::<CompressedFheUint8>()..];
    let config = bincode::config::standard().with_fixed_int_encoding();
    assert!(bincode::serde::decode_from_slice::<CompressedFheUint16, _>(payload, config).is_err());
    assert!(bincode::serde::decode_from_slice::<CompressedFheUint8, _>(payload, config).is_ok());

    // The payload (the tag, the variant, the bodies) ends with the seed (32 bytes), the
    // LWE size, the message modulus and the carry modulus (a u64 each).
    let end = bytes.len();
    let patched = |at: usize, value: u64| {
        let mut b = bytes.clone();
        b[at..at + 8].copy_from_slice(&value.to_le_bytes());
        from_bytes::<CompressedFheUint8>(&b)
    };
    for (at, value) in [
        (end - 24, 0),             // LWE size 0
        (end - 24, 1),             // LWE size 1: no mask
        (end - 24, (1 << 17) + 2), // a dimension above 2^17
        (end - 24, u64::MAX),
        (end - 16, 3), // message modulus 3
        (end - 16, 1),
        (end - 16, 2), // 1-bit blocks: 8 would be needed
        (end - 8, 3),  // carry modulus 3
        (end - 8, 1 << 40),
    ] {
        assert!(patched(at, value).is_err(), "{value} at {}", end - at);
    }
    // A valid LWE size of other parameters reads, but does not conform and does not
    // decrypt.
    let other = patched(end - 24, 64).unwrap();
    assert!(!other.is_conformant(&ck.into()));
    assert!(x.is_conformant(&ck.into()));
    let r: Result<u8, Error> = other.decompress().try_decrypt(ck);
    assert!(r.is_err());
    // A forged number of bodies: the input ends first.
    let mut forged = bytes.clone();
    let len_at = header_len::<CompressedFheUint8>() + 8 + 4; // after the tag and variant
    forged[len_at..len_at + 8].copy_from_slice(&(1u64 << 60).to_le_bytes());
    assert!(from_bytes::<CompressedFheUint8>(&forged).is_err());
    // Another client key's value does not decrypt.
    let other_key = ClientKey::generate(
        gpufhe::ConfigBuilder::default()
            .with_insecure_custom_parameters(
                gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
            )
            .unwrap(),
    );
    let foreign = CompressedFheUint8::encrypt(1u8, &other_key).decompress();
    assert!(matches!(
        FheTryDecrypt::<u8>::try_decrypt(&foreign, ck),
        Err(Error::KeyMismatch { .. })
    ));
}

#[test]
fn values_compressed_after_a_computation_on_default_parameters() {
    let ck = common::setup();
    let x = FheUint64::encrypt(0x0123_4567_89ab_cdefu64, ck) + 1u64;
    let compressed = x.compress();
    let (bytes, plain_bytes) = (to_bytes(&compressed), to_bytes(&x));
    println!(
        "serialized on the default parameters: FheUint64::compress {} bytes, FheUint64 {} \
         bytes ({:.1}x)",
        bytes.len(),
        plain_bytes.len(),
        plain_bytes.len() as f64 / bytes.len() as f64
    );
    assert!(5 * bytes.len() < plain_bytes.len());
    let read: CompressedFheUint64 =
        safe_deserialize_conformant(bytes.as_slice(), LIMIT, &ck.into())
            .expect("conforms to its key");
    let y = read.decompress() ^ 0xffu64;
    assert_eq!(
        FheDecrypt::<u64>::decrypt(&y, ck),
        0x0123_4567_89ab_cdf0u64 ^ 0xff
    );
    let b = FheInt16::encrypt(-7i16, ck).lt(0i16).compress();
    assert!(from_bytes::<CompressedFheBool>(&to_bytes(&b))
        .unwrap()
        .decompress()
        .decrypt(ck));
}

#[test]
fn compressing_after_a_computation_needs_the_server_key() {
    let ck = insecure_keys::setup();
    let x = FheUint8::encrypt(200u8, ck);
    let compressed = x.compress();
    let i = FheInt8::encrypt(-3i8, ck).compress();
    let bytes = to_bytes(&compressed);
    assert!(from_bytes::<CompressedFheUint8>(&bytes[..bytes.len() - 1]).is_err());
    let err = from_bytes::<CompressedFheUint16>(
        &renamed::<CompressedFheUint8, CompressedFheUint16>(&bytes),
    )
    .unwrap_err();
    assert!(err.to_string().contains("number of blocks"), "{err}");
    // Trivial values belong to no key.
    assert!(FheUint8::encrypt_trivial(3u8).try_compress().is_err());
    // Without a server key, neither compression nor its decompression run; seeded
    // values still decompress.
    unset_server_key();
    assert!(matches!(x.try_compress(), Err(Error::NoServerKey)));
    assert!(matches!(
        compressed.try_decompress(),
        Err(Error::NoServerKey)
    ));
    let seeded = CompressedFheUint8::encrypt(5u8, ck)
        .try_decompress()
        .unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&seeded, ck), 5);
    // Another key's server key refuses them.
    let other = ClientKey::generate(
        gpufhe::ConfigBuilder::default()
            .with_insecure_custom_parameters(
                gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
            )
            .unwrap(),
    );
    set_server_key(ServerKey::new(&other));
    assert!(matches!(
        compressed.try_decompress(),
        Err(Error::KeyMismatch { .. })
    ));
    assert!(matches!(x.try_compress(), Err(Error::KeyMismatch { .. })));
    insecure_keys::setup();
    assert_eq!(FheDecrypt::<u8>::decrypt(&compressed.decompress(), ck), 200);
    assert_eq!(FheDecrypt::<i8>::decrypt(&i.decompress(), ck), -3);
}
