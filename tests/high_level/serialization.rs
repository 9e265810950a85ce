//! Serialization of every public serializable type (round trips), and malformed
//! inputs: each returns `Err` without panicking or allocating what a forged length
//! claims.
//!
//! Offsets below follow the documented format: the header (8 magic bytes, a `u32`
//! version, a one-byte name length, the name), then bincode with fixed-width
//! little-endian integers, sequences prefixed by a `u64` length, enums by a `u32`
//! variant index.

use crate::common;

use common::{from_bytes, header_len, keys, setup, to_bytes, LIMIT};
use gpufhe::prelude::*;
use gpufhe::serialization::{
    safe_deserialize, safe_deserialize_conformant, safe_serialize, SafeSerialization,
    OLDEST_SERIALIZATION_VERSION, SERIALIZATION_MAGIC, SERIALIZATION_VERSION,
};
use gpufhe::shortint::DEFAULT_PARAMETERS;
use gpufhe::{
    generate_keys, ClientKey, CompressedServerKey, Config, ConfigBuilder, FheBool, FheUint128,
    FheUint16, FheUint32, FheUint64, FheUint8, ServerKey,
};

fn read_u64(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

fn write_u64(bytes: &mut [u8], at: usize, value: u64) {
    bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
}

/// The LWE size of a block on the default parameters.
fn lwe_size() -> usize {
    DEFAULT_PARAMETERS.big_lwe_dimension().0 + 1
}

/// Where the fields of an encrypted integer's payload are: variant (u32), tag, the
/// number of blocks, then per block its LWE coefficients (length-prefixed), degree,
/// noise level, message modulus and carry modulus.
struct Layout {
    header: usize,
}

impl Layout {
    const BLOCK_FIELDS: usize = 4;

    fn variant(&self) -> usize {
        self.header
    }

    fn tag(&self) -> usize {
        self.header + 4
    }

    fn block_count(&self) -> usize {
        self.header + 12
    }

    fn block(&self, i: usize) -> usize {
        self.header + 20 + i * (8 + 8 * lwe_size() + 8 * Self::BLOCK_FIELDS)
    }

    fn coefficients(&self, i: usize) -> std::ops::Range<usize> {
        self.block(i) + 8..self.block(i) + 8 + 8 * lwe_size()
    }

    /// Field `k` after the coefficients: 0 degree, 1 noise level, 2 message modulus,
    /// 3 carry modulus.
    fn field(&self, i: usize, k: usize) -> usize {
        self.coefficients(i).end + 8 * k
    }
}

#[test]
fn values_round_trip() {
    let client_key = setup();
    let x8 = FheUint8::encrypt(0xa5u8, client_key);
    let back: FheUint8 = from_bytes(&to_bytes(&x8)).unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&back, client_key), 0xa5);
    assert_eq!(back.tag(), x8.tag());
    let x16: FheUint16 = from_bytes(&to_bytes(&FheUint16::encrypt(0xbeefu16, client_key))).unwrap();
    assert_eq!(FheDecrypt::<u16>::decrypt(&x16, client_key), 0xbeef);
    let x32: FheUint32 = from_bytes(&to_bytes(&FheUint32::encrypt(u32::MAX, client_key))).unwrap();
    assert_eq!(FheDecrypt::<u32>::decrypt(&x32, client_key), u32::MAX);
    let x64: FheUint64 =
        from_bytes(&to_bytes(&FheUint64::encrypt(1u64 << 63, client_key))).unwrap();
    assert_eq!(FheDecrypt::<u64>::decrypt(&x64, client_key), 1 << 63);
    let v128 = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
    let x128: FheUint128 = from_bytes(&to_bytes(&FheUint128::encrypt(v128, client_key))).unwrap();
    assert_eq!(FheDecrypt::<u128>::decrypt(&x128, client_key), v128);
    let b: FheBool = from_bytes(&to_bytes(&FheBool::encrypt(true, client_key))).unwrap();
    assert!(b.decrypt(client_key));
    // A deserialized value computes like the original.
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&back ^ &x8), client_key), 0);
    assert!(!(!&b).decrypt(client_key));
    // Several values in one stream, read one after the other.
    let mut stream = Vec::new();
    safe_serialize(&x8, &mut stream, LIMIT).unwrap();
    safe_serialize(&FheBool::encrypt(false, client_key), &mut stream, LIMIT).unwrap();
    let mut reader = stream.as_slice();
    let first: FheUint8 = safe_deserialize(&mut reader, LIMIT).unwrap();
    let second: FheBool = safe_deserialize(&mut reader, LIMIT).unwrap();
    assert!(reader.is_empty());
    assert_eq!(FheDecrypt::<u8>::decrypt(&first, client_key), 0xa5);
    assert!(!second.decrypt(client_key));
    // Trivial values.
    let t: FheUint64 = from_bytes(&to_bytes(&FheUint64::encrypt_trivial(77u64))).unwrap();
    assert_eq!(t.try_decrypt_trivial::<u64>().unwrap(), 77);
    let t: FheBool = from_bytes(&to_bytes(&FheBool::encrypt_trivial(true))).unwrap();
    assert!(t.try_decrypt_trivial().unwrap());
}

#[test]
fn keys_and_config_round_trip() {
    let (client_key, compressed, server_key) = keys();
    let config: Config = from_bytes(&to_bytes(client_key.config())).unwrap();
    assert_eq!(&config, client_key.config());

    let ck: ClientKey = from_bytes(&to_bytes(client_key)).unwrap();
    assert_eq!(ck.tag(), client_key.tag());
    let x = FheUint8::encrypt(200u8, client_key);
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, &ck), 200);
    let y = FheUint8::encrypt(0x0fu8, &ck);
    assert_eq!(FheDecrypt::<u8>::decrypt(&y, client_key), 0x0f);

    let csk: CompressedServerKey = from_bytes(&to_bytes(compressed)).unwrap();
    assert_eq!(csk.tag(), client_key.tag());
    gpufhe::set_server_key(csk.decompress());
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&(&x & &y), client_key),
        200 & 0x0f
    );

    let sk: ServerKey = from_bytes(&to_bytes(server_key)).unwrap();
    assert_eq!(sk.tag(), client_key.tag());
    gpufhe::set_server_key(sk.clone());
    assert_eq!(
        FheDecrypt::<u8>::decrypt(&(&x | &y), client_key),
        200 | 0x0f
    );
    assert_eq!(sk.pbs_count(), 4);
}

#[test]
fn conformance_to_a_key_or_config() {
    let (client_key, compressed, _) = keys();
    let (other_client, other_server) = generate_keys(ConfigBuilder::default());
    let x = FheUint8::encrypt(9u8, client_key);
    let bytes = to_bytes(&x);
    let ok: FheUint8 =
        safe_deserialize_conformant(bytes.as_slice(), LIMIT, &client_key.into()).unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&ok, client_key), 9);
    assert!(
        safe_deserialize_conformant::<FheUint8>(bytes.as_slice(), LIMIT, &compressed.into())
            .is_ok()
    );
    assert!(safe_deserialize_conformant::<FheUint8>(
        bytes.as_slice(),
        LIMIT,
        &client_key.config().into()
    )
    .is_ok());
    // Same parameters, another key: the tag does not match.
    assert!(safe_deserialize_conformant::<FheUint8>(
        bytes.as_slice(),
        LIMIT,
        &(&other_client).into()
    )
    .is_err());
    assert!(safe_deserialize_conformant::<FheUint8>(
        bytes.as_slice(),
        LIMIT,
        &(&other_server).into()
    )
    .is_err());
    // Other parameters: blocks of another LWE size.
    let mut params = DEFAULT_PARAMETERS;
    params.polynomial_size = gpufhe::core_crypto::PolynomialSize(1024);
    let other_config = ConfigBuilder::default()
        .with_insecure_custom_parameters(params)
        .unwrap()
        .build();
    assert!(safe_deserialize_conformant::<FheUint8>(
        bytes.as_slice(),
        LIMIT,
        &(&other_config).into()
    )
    .is_err());
    // A key is checked against the whole configuration.
    let mut params = DEFAULT_PARAMETERS;
    params.max_noise_level = 4;
    let noise_config = ConfigBuilder::default()
        .try_use_custom_parameters(params)
        .unwrap()
        .build();
    let key_bytes = to_bytes(client_key);
    assert!(safe_deserialize_conformant::<ClientKey>(
        key_bytes.as_slice(),
        LIMIT,
        &(&noise_config).into()
    )
    .is_err());
    assert!(safe_deserialize_conformant::<ClientKey>(
        key_bytes.as_slice(),
        LIMIT,
        &client_key.into()
    )
    .is_ok());
    assert!(safe_deserialize_conformant::<ClientKey>(
        key_bytes.as_slice(),
        LIMIT,
        &(&other_client).into()
    )
    .is_err());
    // Trivial values belong to every key.
    let t = to_bytes(&FheUint8::encrypt_trivial(3u8));
    assert!(
        safe_deserialize_conformant::<FheUint8>(t.as_slice(), LIMIT, &(&other_client).into())
            .is_ok()
    );
}

#[test]
fn truncated_inputs_are_errors() {
    let client_key = setup();
    let bytes = to_bytes(&FheUint8::encrypt(0x5au8, client_key));
    let mut offsets: Vec<usize> = (0..200).collect();
    offsets.extend((200..bytes.len()).step_by(97));
    offsets.extend(bytes.len() - 40..bytes.len());
    for cut in offsets {
        assert!(
            from_bytes::<FheUint8>(&bytes[..cut]).is_err(),
            "truncated at {cut}"
        );
    }
    let key_bytes = to_bytes(&keys().1);
    for cut in [0, 30, key_bytes.len() / 3, key_bytes.len() - 1] {
        assert!(
            from_bytes::<CompressedServerKey>(&key_bytes[..cut]).is_err(),
            "compressed key truncated at {cut}"
        );
    }
}

#[test]
fn bit_flips_in_structure_are_errors_and_elsewhere_never_panic() {
    let client_key = setup();
    let bytes = to_bytes(&FheUint8::encrypt(0x5au8, client_key));
    let layout = Layout {
        header: header_len::<FheUint8>(),
    };
    assert_eq!(read_u64(&bytes, layout.block_count()), 4, "layout check");
    assert_eq!(
        read_u64(&bytes, layout.field(0, 0)),
        3,
        "layout check: degree"
    );
    assert_eq!(
        bytes[layout.variant()],
        1,
        "layout check: encrypted variant"
    );
    let tag = read_u64(&bytes, layout.tag());
    assert_eq!(tag, client_key.tag().value(), "layout check: tag");
    let read = |b: &[u8]| safe_deserialize_conformant::<FheUint8>(b, LIMIT, &client_key.into());
    // The header, the variant, the tag, the number of blocks, and each block's
    // coefficient count, moduli and the high bits of its degree and noise level.
    let mut structural: Vec<(usize, u8)> = Vec::new();
    for at in 0..layout.block_count() + 8 {
        structural.extend((0..8).map(|bit| (at, bit)));
    }
    for i in 0..4 {
        for at in layout.block(i)..layout.block(i) + 8 {
            structural.extend((0..8).map(|bit| (at, bit)));
        }
        for k in 2..4 {
            let at = layout.field(i, k);
            structural.extend((at..at + 8).flat_map(|a| (0..8).map(move |bit| (a, bit))));
        }
        for k in 0..2 {
            // Bits 2 and up make the degree reach 4 or more, the noise level 2 or more.
            let at = layout.field(i, k);
            structural.extend((2..8).map(|bit| (at, bit)));
            structural.extend((at + 1..at + 8).flat_map(|a| (0..8).map(move |bit| (a, bit))));
        }
    }
    // Format versions differ only in parameter sets and seeded values, which an
    // FheUint8 does not hold: a flip of the version to another supported version
    // reads the same FheUint8.
    let version_at = SERIALIZATION_MAGIC.len();
    let clear = FheDecrypt::<u8>::decrypt(&read(&bytes).unwrap(), client_key);
    structural.retain(|&(at, bit)| {
        if !(version_at..version_at + 4).contains(&at) {
            return true;
        }
        let flipped_version =
            SERIALIZATION_VERSION ^ (1u32 << (8 * (at - version_at) + usize::from(bit)));
        if !(OLDEST_SERIALIZATION_VERSION..=SERIALIZATION_VERSION).contains(&flipped_version) {
            return true;
        }
        let mut flipped = bytes.clone();
        flipped[at] ^= 1 << bit;
        let value = read(&flipped).expect("an FheUint8 of another supported version");
        assert_eq!(FheDecrypt::<u8>::decrypt(&value, client_key), clear);
        false
    });
    for &(at, bit) in &structural {
        let mut flipped = bytes.clone();
        flipped[at] ^= 1 << bit;
        assert!(read(&flipped).is_err(), "flip of bit {bit} at byte {at}");
    }
    // Ciphertext coefficients (and a lower degree or noise level) are not
    // authenticated: a flip there gives another ciphertext. It must not panic.
    for i in [0, 3] {
        for at in layout.coefficients(i).step_by(1009) {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x80;
            let _ = read(&flipped);
        }
    }
}

#[test]
fn forged_lengths_are_errors_without_allocation() {
    let client_key = setup();
    let bytes = to_bytes(&FheUint8::encrypt(7u8, client_key));
    let layout = Layout {
        header: header_len::<FheUint8>(),
    };
    for at in [layout.block_count(), layout.block(0), layout.block(2)] {
        let mut forged = bytes.clone();
        write_u64(&mut forged, at, 1 << 60);
        assert!(
            from_bytes::<FheUint8>(&forged).is_err(),
            "2^60 elements at {at}"
        );
        write_u64(&mut forged, at, u64::MAX);
        assert!(
            from_bytes::<FheUint8>(&forged).is_err(),
            "2^64 - 1 elements at {at}"
        );
    }
    // A type name longer than the header allows.
    let mut forged = bytes.clone();
    forged[12] = 255;
    assert!(from_bytes::<FheUint8>(&forged).is_err());
    // The server key's keyswitching key claims 2^60 coefficients.
    let key_bytes = to_bytes(&keys().2);
    let config_len = to_bytes(keys().0.config()).len() - header_len::<Config>();
    let ksk_len = header_len::<ServerKey>() + 8 + config_len;
    let expected = DEFAULT_PARAMETERS.keyswitch_key_shape().ciphertext_count()
        * (DEFAULT_PARAMETERS.lwe_dimension.0 + 1);
    assert_eq!(
        read_u64(&key_bytes, ksk_len),
        expected as u64,
        "layout check"
    );
    let mut forged = key_bytes;
    write_u64(&mut forged, ksk_len, 1 << 60);
    assert!(from_bytes::<ServerKey>(&forged).is_err());
}

#[test]
fn wrong_header_type_or_size_are_errors() {
    let client_key = setup();
    let x = FheUint8::encrypt(7u8, client_key);
    let bytes = to_bytes(&x);
    // Another type's name.
    assert!(from_bytes::<FheUint64>(&bytes).is_err());
    assert!(from_bytes::<FheBool>(&bytes).is_err());
    assert!(from_bytes::<ServerKey>(&bytes).is_err());
    // Magic and version.
    let mut wrong = bytes.clone();
    wrong[0] ^= 1;
    assert!(from_bytes::<FheUint8>(&wrong).is_err());
    for version in [0, SERIALIZATION_VERSION + 1] {
        let mut wrong = bytes.clone();
        wrong[8..12].copy_from_slice(&version.to_le_bytes());
        assert!(from_bytes::<FheUint8>(&wrong).is_err(), "version {version}");
    }
    // The size limit, when reading and when writing.
    let len = bytes.len() as u64;
    assert!(safe_deserialize::<FheUint8>(bytes.as_slice(), len - 1).is_err());
    assert!(safe_deserialize::<FheUint8>(bytes.as_slice(), len).is_ok());
    let mut out = Vec::new();
    assert!(safe_serialize(&x, &mut out, len - 1).is_err());
    assert!(out.is_empty(), "nothing is written past the limit");
    // FheUint8 blocks under an FheUint64 header: 4 blocks where 32 are needed.
    let mut renamed = SERIALIZATION_MAGIC.to_vec();
    renamed.extend_from_slice(&bytes[8..12]);
    renamed.push(FheUint64::TYPE_NAME.len() as u8);
    renamed.extend_from_slice(FheUint64::TYPE_NAME.as_bytes());
    renamed.extend_from_slice(&bytes[header_len::<FheUint8>()..]);
    let err = from_bytes::<FheUint64>(&renamed).unwrap_err();
    assert!(err.to_string().contains("number of blocks"), "{err}");
    // The same through plain serde (bincode without the header).
    let payload = &bytes[header_len::<FheUint8>()..];
    let config = bincode::config::standard().with_fixed_int_encoding();
    assert!(bincode::serde::decode_from_slice::<FheUint64, _>(payload, config).is_err());
    assert!(bincode::serde::decode_from_slice::<FheUint8, _>(payload, config).is_ok());
}

/// Data of format version 1 (parameters without a `PbsKind`) still reads: values
/// unchanged, parameters as classical; the same bytes claiming version 2 do not.
#[test]
fn version_1_data_reads_with_classical_parameters() {
    let client_key = setup();
    let x = FheUint8::encrypt(77u8, client_key);
    let mut old = to_bytes(&x);
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    let y: FheUint8 = from_bytes(&old).expect("a version-1 value");
    assert_eq!(FheDecrypt::<u8>::decrypt(&y, client_key), 77);
    // The PbsKind follows the 15 other fields of the parameters: three dimensions
    // (u64), two TUniform noises (u32 variant + u32 bound), four decomposition
    // values, three moduli and levels, log2_p_fail (u64 or f64 each), the modulus
    // switch variant and the security bits (u32 each).
    let classical = to_bytes(&ConfigBuilder::default().build());
    let at = header_len::<Config>() + 3 * 8 + 2 * 8 + 4 * 8 + 3 * 8 + 8 + 4 + 4;
    assert_eq!(
        &classical[at..at + 4],
        &0u32.to_le_bytes(),
        "the Classical variant"
    );
    let multi_bit = to_bytes(&ConfigBuilder::default().use_multi_bit_pbs().build());
    assert_eq!(
        &multi_bit[at..at + 12],
        &[1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0],
        "MultiBit {{ 4 }}"
    );
    let mut v1 = classical.clone();
    v1.drain(at..at + 4);
    v1[8..12].copy_from_slice(&1u32.to_le_bytes());
    let config: Config = from_bytes(&v1).expect("a version-1 configuration");
    assert_eq!(config, ConfigBuilder::default().build());
    v1[8..12].copy_from_slice(&SERIALIZATION_VERSION.to_le_bytes());
    assert!(
        from_bytes::<Config>(&v1).is_err(),
        "version 2 needs the PbsKind"
    );
}

#[test]
fn unclean_blocks_and_invalid_parameters_are_errors() {
    let client_key = setup();
    let bytes = to_bytes(&FheUint64::encrypt(u64::MAX, client_key));
    let layout = Layout {
        header: header_len::<FheUint64>(),
    };
    assert_eq!(
        read_u64(&bytes, layout.block_count()),
        32,
        "FheUint64 has 32 blocks"
    );
    assert_eq!(read_u64(&bytes, layout.field(17, 0)), 3, "layout check");
    let mut dirty = bytes.clone();
    write_u64(&mut dirty, layout.field(17, 0), 15);
    let err = from_bytes::<FheUint64>(&dirty).unwrap_err();
    assert!(err.to_string().contains("not clean"), "{err}");
    let mut noisy = bytes.clone();
    write_u64(&mut noisy, layout.field(5, 1), 2);
    assert!(from_bytes::<FheUint64>(&noisy).is_err());
    // A boolean block may only hold 0 or 1.
    let b = to_bytes(&FheBool::encrypt(true, client_key));
    let layout = Layout {
        header: header_len::<FheBool>(),
    };
    assert_eq!(read_u64(&b, layout.field(0, 0)), 1, "layout check");
    let mut wide = b.clone();
    write_u64(&mut wide, layout.field(0, 0), 2);
    assert!(from_bytes::<FheBool>(&wide).is_err());
    // A trivial value too wide for its type.
    let mut t = to_bytes(&FheUint8::encrypt_trivial(200u8));
    let at = header_len::<FheUint8>() + 4;
    t[at + 1] = 1; // 200 + 256
    assert!(from_bytes::<FheUint8>(&t).is_err());
    // A configuration whose message modulus is not a power of two: the parameters
    // are nine u64 (dimensions, noise distributions as a u32 variant + u32,
    // decompositions), then the message modulus.
    let mut config = to_bytes(client_key.config());
    let at = header_len::<Config>() + 72;
    assert_eq!(read_u64(&config, at), 4, "layout check");
    write_u64(&mut config, at, 3);
    assert!(from_bytes::<Config>(&config).is_err());
}

/// Seeded values written by format versions 1 and 2 hold a 32-byte ChaCha20 mask
/// seed: they are refused with an error that says to regenerate them, never
/// expanded into wrong masks.
#[test]
fn seeded_values_of_older_versions_are_refused_with_a_clear_error() {
    let client_key = setup();
    let mut bytes = to_bytes(&gpufhe::CompressedFheUint8::encrypt(7u8, client_key));
    let back: gpufhe::CompressedFheUint8 = from_bytes(&bytes).unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&back.decompress(), client_key), 7);
    bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
    let err = from_bytes::<gpufhe::CompressedFheUint8>(&bytes).unwrap_err();
    assert!(err.to_string().contains("older gpufhe"), "{err}");
}
