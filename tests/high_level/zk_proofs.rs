//! Zero-knowledge-proven compact lists (TFHE-rs's `ProvenCompactCiphertextList`,
//! `tfhe::zk`): proven, verified and expanded against the clear values, in parts
//! when over the CRS's capacity, through TFHE-rs's format, and refused when the
//! proof, metadata, key or CRS does not match. One keygen and two small CRS of the
//! insecure test parameters for most tests; one proven list of the defaults.

use gpufhe::conformance::ParameterSetConformant;
use gpufhe::prelude::*;
use gpufhe::safe_serialization::{safe_deserialize, safe_deserialize_conformant, safe_serialize};
use gpufhe::serialization::with_insecure_parameters_allowed;
use gpufhe::shortint::parameters::{
    PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
    PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE_TEST,
    PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as PKE,
};
use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
use gpufhe::zk::{
    new_compact_pke_crs_conformance_params, CompactPkeCrs,
    IntegerProvenCompactCiphertextListConformanceParams as ListParams, ZkComputeLoad,
    ZkVerificationOutcome,
};
use gpufhe::{
    set_server_key, unset_server_key, ClientKey, CompactPublicKey, Config, ConfigBuilder, Error,
    FheBool, FheInt16, FheInt32, FheInt64, FheInt8, FheUint16, FheUint2, FheUint32, FheUint4,
    FheUint64, FheUint8, ProvenCompactCiphertextList, ServerKey,
};
use std::sync::OnceLock;

const LIMIT: u64 = 1 << 30;

fn config() -> Config {
    ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST)
        .unwrap()
        .use_dedicated_compact_public_key_parameters((PKE_TEST, KS))
        .build()
}

struct Fixture {
    client_key: ClientKey,
    server_key: ServerKey,
    public_key: CompactPublicKey,
    /// 16 bits per proof: lists of more are proven in parts.
    small_crs: CompactPkeCrs,
    /// 256 bits per proof.
    crs: CompactPkeCrs,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let client_key = ClientKey::generate(config());
        let server_key = ServerKey::new(&client_key);
        let public_key = CompactPublicKey::new(&client_key);
        Fixture {
            client_key,
            server_key,
            public_key,
            small_crs: CompactPkeCrs::from_config(config(), 16).unwrap(),
            crs: CompactPkeCrs::from_config(config(), 256).unwrap(),
        }
    })
}

/// `list` in TFHE-rs's format.
fn written(list: &ProvenCompactCiphertextList) -> Vec<u8> {
    let mut bytes = Vec::new();
    safe_serialize(list, &mut bytes, LIMIT).unwrap();
    bytes
}

/// A list of three values proven with `crs` for `metadata`.
fn three_values(
    crs: &CompactPkeCrs,
    metadata: &[u8],
    load: ZkComputeLoad,
) -> ProvenCompactCiphertextList {
    ProvenCompactCiphertextList::builder(&fixture().public_key)
        .push(0xbeefu16)
        .push(-3i8)
        .push(true)
        .build_with_proof_packed(crs, metadata, load)
        .unwrap()
}

fn check_three(list: &ProvenCompactCiphertextList, crs: &CompactPkeCrs, metadata: &[u8]) {
    let f = fixture();
    set_server_key(f.server_key.clone());
    let expander = list
        .verify_and_expand(crs, &f.public_key, metadata)
        .unwrap();
    let a: FheUint16 = expander.get(0).unwrap().unwrap();
    let b: FheInt8 = expander.get(1).unwrap().unwrap();
    let c: FheBool = expander.get(2).unwrap().unwrap();
    let clear: (u16, i8, bool) = (
        a.decrypt(&f.client_key),
        b.decrypt(&f.client_key),
        c.decrypt(&f.client_key),
    );
    assert_eq!(clear, (0xbeef, -3, true));
    unset_server_key();
}

#[test]
fn mixed_widths_and_signs_verify_and_expand() {
    let f = fixture();
    let mut builder = ProvenCompactCiphertextList::builder(&f.public_key);
    builder
        .push(0xa5u8)
        .push(54321u16)
        .push(0xdead_beefu32)
        .push(u64::MAX - 7)
        .push(-128i8)
        .push(-12345i16)
        .push(i32::MIN + 1)
        .push(-1i64)
        .push(false);
    builder.push_with_num_bits(9u8, 4).unwrap();
    builder.push_with_num_bits(3u8, 2).unwrap();
    let list = builder
        .build_with_proof_packed(&f.crs, b"mixed", ZkComputeLoad::Proof)
        .unwrap();
    // 248 bits: 62 packed blocks, one proof.
    assert_eq!(list.len(), 11);
    assert_eq!(list.get_kind_of(4), Some(gpufhe::FheTypes::Int8));
    set_server_key(f.server_key.clone());
    let e = list
        .verify_and_expand(&f.crs, &f.public_key, b"mixed")
        .unwrap();
    let ck = &f.client_key;
    let v0: u8 = e.get::<FheUint8>(0).unwrap().unwrap().decrypt(ck);
    let v1: u16 = e.get::<FheUint16>(1).unwrap().unwrap().decrypt(ck);
    let v2: u32 = e.get::<FheUint32>(2).unwrap().unwrap().decrypt(ck);
    let v3: u64 = e.get::<FheUint64>(3).unwrap().unwrap().decrypt(ck);
    let v5: i8 = e.get::<FheInt8>(4).unwrap().unwrap().decrypt(ck);
    let v6: i16 = e.get::<FheInt16>(5).unwrap().unwrap().decrypt(ck);
    let v7: i32 = e.get::<FheInt32>(6).unwrap().unwrap().decrypt(ck);
    let v8: i64 = e.get::<FheInt64>(7).unwrap().unwrap().decrypt(ck);
    let v9: bool = e.get::<FheBool>(8).unwrap().unwrap().decrypt(ck);
    let v10: u8 = e.get::<FheUint4>(9).unwrap().unwrap().decrypt(ck);
    let v11: u8 = e.get::<FheUint2>(10).unwrap().unwrap().decrypt(ck);
    assert_eq!((v0, v1, v2, v3), (0xa5, 54321, 0xdead_beef, u64::MAX - 7));
    assert_eq!(
        (v5, v6, v7, v8, v9, v10, v11),
        (-128, -12345, i32::MIN + 1, -1, false, 9, 3)
    );
    assert!(e.get::<FheUint8>(1).is_err());
    // Computing on the expanded values.
    let sum = e.get::<FheUint8>(0).unwrap().unwrap() + 1u8;
    let sum: u8 = sum.decrypt(ck);
    assert_eq!(sum, 0xa6);
    unset_server_key();
}

#[test]
fn lists_over_the_crs_capacity_are_proven_in_parts() {
    let f = fixture();
    // 16 bits per proof: 4 packed blocks. 16 + 8 + 2 bits: 13 blocks, 7 packed, 2 parts.
    let list = three_values(&f.small_crs, b"parts", ZkComputeLoad::Verify);
    assert!(list
        .verify(&f.small_crs, &f.public_key, b"parts")
        .is_valid());
    check_three(&list, &f.small_crs, b"parts");
    let params = ListParams::from_crs_and_parameters(PKE_TEST, &f.small_crs);
    assert!(list.is_conformant(&params));
    // Parts of the other capacity, or proofs of a forbidden compute load.
    let other = ListParams::from_crs_and_parameters(PKE_TEST, &f.crs);
    assert!(!list.is_conformant(&other));
    assert!(!list.is_conformant(&params.forbid_compute_load(ZkComputeLoad::Verify)));
    assert!(list.is_conformant(&params.forbid_compute_load(ZkComputeLoad::Proof)));
    // The large CRS's list has one part: the small CRS cannot verify it.
    let one_part = three_values(&f.crs, b"parts", ZkComputeLoad::Proof);
    assert!(one_part.verify(&f.crs, &f.public_key, b"parts").is_valid());
    assert!(one_part
        .verify(&f.small_crs, &f.public_key, b"parts")
        .is_invalid());
}

#[test]
fn wrong_metadata_key_or_crs_is_invalid_and_nothing_expands() {
    let f = fixture();
    let list = ProvenCompactCiphertextList::builder(&f.public_key)
        .push(0x5au8)
        .build_with_proof_packed(&f.small_crs, b"right", ZkComputeLoad::Proof)
        .unwrap();
    let outcome = list.verify(&f.small_crs, &f.public_key, b"wrong");
    assert_eq!(outcome, ZkVerificationOutcome::Invalid);
    // No server key on this thread: an expansion would fail otherwise, so the error
    // shows that verification came first.
    unset_server_key();
    let err = list
        .verify_and_expand(&f.small_crs, &f.public_key, b"wrong")
        .unwrap_err();
    assert_eq!(err, Error::InvalidZkProof);
    // Another public key (of the same client key: a fresh sample).
    let other_key = CompactPublicKey::new(&f.client_key);
    assert!(list.verify(&f.small_crs, &other_key, b"right").is_invalid());
    // Another CRS of the same parameters and capacity.
    let other_crs = CompactPkeCrs::from_config(config(), 16).unwrap();
    assert!(list
        .verify(&other_crs, &f.public_key, b"right")
        .is_invalid());
    // A CRS of a smaller noise bound cannot prove this key's encryptions.
    let narrow = gpufhe::shortint::CompactPublicKeyEncryptionParameters {
        encryption_noise_distribution: gpufhe::core_crypto::NoiseDistribution::TUniform {
            log2_bound: 10,
        },
        ..PKE_TEST
    };
    let narrow_crs =
        CompactPkeCrs::from_shortint_params(narrow, gpufhe::core_crypto::LweCiphertextCount(4))
            .unwrap();
    let err = ProvenCompactCiphertextList::builder(&f.public_key)
        .push(1u8)
        .build_with_proof_packed(&narrow_crs, b"", ZkComputeLoad::Proof)
        .unwrap_err();
    assert!(err.to_string().contains("noise"), "{err}");
    assert!(list
        .verify(&f.small_crs, &f.public_key, b"right")
        .is_valid());
}

#[test]
fn forged_lists_and_proofs_are_invalid() {
    let f = fixture();
    let list = three_values(&f.small_crs, b"m", ZkComputeLoad::Proof);
    let mut bytes = Vec::new();
    safe_serialize(&list, &mut bytes, LIMIT).unwrap();
    let read = |b: &[u8]| {
        with_insecure_parameters_allowed(|| {
            safe_deserialize::<ProvenCompactCiphertextList>(b, LIMIT)
        })
    };
    assert_eq!(written(&read(&bytes).unwrap()), bytes);
    // Every truncation is an Err, never a panic.
    for cut in (0..bytes.len()).step_by(97) {
        assert!(read(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    // One flipped byte anywhere: an Err, or a list whose proofs do not hold.
    let mut flipped_and_read = Vec::new();
    for at in (40..bytes.len()).step_by(bytes.len() / 10) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x10;
        if let Ok(bad) = read(&bad) {
            assert!(
                bad.verify(&f.small_crs, &f.public_key, b"m").is_invalid(),
                "byte {at} flipped still verifies"
            );
            flipped_and_read.push(bad);
        }
    }
    assert!(!flipped_and_read.is_empty());
    // Parts' proofs swapped: each proof covers its own part only.
    let a = three_values(&f.small_crs, b"m", ZkComputeLoad::Proof);
    let b = three_values(&f.small_crs, b"m", ZkComputeLoad::Proof);
    let mut a_bytes = Vec::new();
    safe_serialize(&a, &mut a_bytes, LIMIT).unwrap();
    let mut b_bytes = Vec::new();
    safe_serialize(&b, &mut b_bytes, LIMIT).unwrap();
    assert_eq!(a_bytes.len(), b_bytes.len());
    // The ciphertexts of `a` with the proofs of `b`: the bodies and masks are the
    // only bytes that differ besides the proofs, so splice `a`'s first half in.
    let split = a_bytes.len() / 2;
    let mut mixed = a_bytes[..split].to_vec();
    mixed.extend_from_slice(&b_bytes[split..]);
    if let Ok(mixed) = read(&mixed) {
        assert!(mixed.verify(&f.small_crs, &f.public_key, b"m").is_invalid());
    }
    // A batch with a forged list among valid ones: the forged one alone is refused,
    // before any expansion (no server key would be needed to fail otherwise); the
    // others expand with the calling thread's key.
    let batch = [a, flipped_and_read.swap_remove(0), b];
    set_server_key(f.server_key.clone());
    let out = ProvenCompactCiphertextList::verify_and_expand_batch(
        &batch,
        &f.small_crs,
        &f.public_key,
        b"m",
    );
    assert_eq!(out.len(), 3);
    assert_eq!(out[1].as_ref().unwrap_err(), &Error::InvalidZkProof);
    for expander in [&out[0], &out[2]] {
        let expander = expander.as_ref().unwrap();
        let x: FheUint16 = expander.get(0).unwrap().unwrap();
        let y: FheInt8 = expander.get(1).unwrap().unwrap();
        let z: FheBool = expander.get(2).unwrap().unwrap();
        let clear: (u16, i8, bool) = (
            x.decrypt(&f.client_key),
            y.decrypt(&f.client_key),
            z.decrypt(&f.client_key),
        );
        assert_eq!(clear, (0xbeef, -3, true));
    }
    // Other metadata for the batch: every list refused.
    let out = ProvenCompactCiphertextList::verify_and_expand_batch(
        &batch[..1],
        &f.small_crs,
        &f.public_key,
        b"n",
    );
    assert!(matches!(&out[..], [Err(Error::InvalidZkProof)]));
    unset_server_key();
}

#[test]
fn conformant_reads_and_crs_round_trip() {
    let f = fixture();
    let list = three_values(&f.small_crs, b"", ZkComputeLoad::Proof);
    let mut bytes = Vec::new();
    safe_serialize(&list, &mut bytes, LIMIT).unwrap();
    let params = ListParams::from_crs_and_parameters(PKE_TEST, &f.small_crs);
    let read: ProvenCompactCiphertextList = with_insecure_parameters_allowed(|| {
        safe_deserialize_conformant(bytes.as_slice(), LIMIT, &params)
    })
    .unwrap();
    assert_eq!(written(&read), bytes);
    let wrong = ListParams::from_crs_and_parameters(PKE_TEST, &f.crs);
    assert!(with_insecure_parameters_allowed(|| {
        safe_deserialize_conformant::<ProvenCompactCiphertextList>(bytes.as_slice(), LIMIT, &wrong)
    })
    .is_err());
    // The CRS: read back, it verifies the same lists; its conformance.
    let mut crs_bytes = Vec::new();
    safe_serialize(&f.small_crs, &mut crs_bytes, LIMIT).unwrap();
    let crs: CompactPkeCrs = safe_deserialize(crs_bytes.as_slice(), LIMIT).unwrap();
    assert!(list.verify(&crs, &f.public_key, b"").is_valid());
    let crs_params =
        new_compact_pke_crs_conformance_params(PKE_TEST, crs.max_num_messages()).unwrap();
    assert!(crs.is_conformant(&crs_params));
    let crs_params_other =
        new_compact_pke_crs_conformance_params(PKE, crs.max_num_messages()).unwrap();
    assert!(!crs.is_conformant(&crs_params_other));
    // Truncated (each read checks every point up to the cut: a few cuts suffice).
    let n = crs_bytes.len();
    for cut in [0, 1, 64, n / 3, n / 2, 2 * n / 3, n - 1] {
        assert!(safe_deserialize::<CompactPkeCrs>(&crs_bytes[..cut], LIMIT).is_err());
    }
    // A size limit below the list's size.
    assert!(with_insecure_parameters_allowed(|| {
        safe_deserialize::<ProvenCompactCiphertextList>(bytes.as_slice(), 64)
    })
    .is_err());
}

#[test]
fn default_parameters_prove_verify_and_expand_a_mixed_list() {
    // TFHE-rs 1.8's recommended sets: the ZK v2 public-key parameters and the
    // keyswitch to the small key.
    let config = ConfigBuilder::default()
        .use_dedicated_compact_public_key_parameters((PKE, KS))
        .build();
    let crs = CompactPkeCrs::from_config(config, 64).unwrap();
    let ck = ClientKey::generate(config);
    let sk = ServerKey::new(&ck);
    let pk = CompactPublicKey::new(&ck);
    let list = ProvenCompactCiphertextList::builder(&pk)
        .push(-1234i16)
        .push(200u8)
        .push(true)
        .build_with_proof_packed(&crs, b"default", ZkComputeLoad::Proof)
        .unwrap();
    assert!(list.verify(&crs, &pk, b"defaulT").is_invalid());
    set_server_key(sk);
    let e = list.verify_and_expand(&crs, &pk, b"default").unwrap();
    let a: i16 = e.get::<FheInt16>(0).unwrap().unwrap().decrypt(&ck);
    let b: u8 = e.get::<FheUint8>(1).unwrap().unwrap().decrypt(&ck);
    let c: bool = e.get::<FheBool>(2).unwrap().unwrap().decrypt(&ck);
    assert_eq!((a, b, c), (-1234, 200, true));
    unset_server_key();
}

#[test]
fn a_list_proven_by_tfhe_rs_reads_exactly_and_expands() {
    use crate::tfhe_rs_support::{golden, read_small_exactly};
    use gpufhe::zk::{CompactPkeProofConformanceParams, CompactPkeZkScheme};
    // TFHE-rs 1.8.2's small parameters of dedicated keys for ZK v2 proofs
    // (compare/examples/tfhers_golden.rs --zk): a list proven in two parts. Its CRS
    // (1.3 MB compressed) is not committed: the proofs' verification across the
    // libraries is compare/examples/tfhers_interop.rs's ("proven" scenarios).
    let ck: ClientKey = with_insecure_parameters_allowed(|| {
        safe_deserialize(golden("small-zk-client_key.bin").as_slice(), LIMIT)
    })
    .unwrap();
    let _: CompactPublicKey = read_small_exactly("small-zk-compact_public_key.bin");
    let list: ProvenCompactCiphertextList =
        read_small_exactly("small-zk-proven_list-201-true-minus-1234.bin");
    let params = ListParams {
        encryption_lwe_dimension: PKE_TEST.encryption_lwe_dimension,
        message_modulus: PKE_TEST.message_modulus,
        carry_modulus: PKE_TEST.carry_modulus,
        expansion_kind: PKE_TEST.expansion_kind,
        max_elements_per_compact_list: 4,
        allow_unpacked: false,
        zk_conformance_params: CompactPkeProofConformanceParams::new(CompactPkeZkScheme::V2),
    };
    assert!(list.is_conformant(&params));
    let three = ListParams {
        max_elements_per_compact_list: 3,
        ..params
    };
    assert!(!list.is_conformant(&three));
    set_server_key(ServerKey::new(&ck));
    let e = list.expand_without_verification().unwrap();
    let a: u8 = e.get::<FheUint8>(0).unwrap().unwrap().decrypt(&ck);
    let b: bool = e.get::<FheBool>(1).unwrap().unwrap().decrypt(&ck);
    let c: i16 = e.get::<FheInt16>(2).unwrap().unwrap().decrypt(&ck);
    assert_eq!((a, b, c), (201, true, -1234));
    unset_server_key();
}
