//! Re-randomization of ciphertexts (TFHE-rs 1.8's `ReRandomizationContext` and
//! `ReRandomize`): values re-randomized in both modes then computed on decrypt to
//! the clear results; the same context gives the same bytes; the metadata is
//! hashed, carried and cleared; bad input is refused. One keygen of the default
//! parameters, the rest on the insecure test parameters.

use gpufhe::prelude::*;
use gpufhe::shortint::parameters::{
    ReRandomizationParameters,
    PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS_SMALL,
    PARAM_KEYSWITCH_TO_BIG_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS_BIG,
    PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2 as PKE_TEST,
};
use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
use gpufhe::{
    generate_keys, set_server_key, unset_server_key, ClientKey, CompactPublicKey,
    CompressedServerKey, ConfigBuilder, FheBool, FheInt16, FheUint64, FheUint8,
    ReRandomizationContext, ReRandomizationHashAlgo, ReRandomizationMode,
    ReRandomizationSeedHasher, ReRandomizationSupport, ServerKey,
};
use std::sync::OnceLock;

const DERIVED: ReRandomizationParameters = ReRandomizationParameters::DerivedCPKWithoutKeySwitch;

/// Keys of the test parameters with the derived (recommended) mode.
fn derived_keys() -> &'static (ClientKey, ServerKey) {
    static KEYS: OnceLock<(ClientKey, ServerKey)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let config = ConfigBuilder::default()
            .with_insecure_custom_parameters(TEST)
            .unwrap()
            .enable_ciphertext_re_randomization(DERIVED);
        generate_keys(config)
    })
}

fn context(description: &[u8]) -> ReRandomizationContext {
    ReRandomizationContext::new(*b"TFHE_Rrd", [description, &[9u8; 32]], *b"TFHE_Enc")
}

#[test]
fn re_randomized_values_compute_to_the_clear_results() {
    let (ck, sk) = derived_keys();
    set_server_key(sk.clone());
    assert_eq!(
        sk.re_randomization_support(),
        ReRandomizationSupport::DerivedCPKWithoutKeySwitch
    );
    let mut a = FheUint8::encrypt(200u8, ck);
    let mut b = FheInt16::encrypt(-1234i16, ck);
    let mut c = FheBool::encrypt(true, ck);
    let mut t = FheUint8::encrypt_trivial(7u8);
    a.re_randomization_metadata_mut().set_data(b"proof of a");
    let before = a.clone();
    let mut ctx = context(b"f(a, b, c, t)");
    ctx.add_ciphertext(&a);
    ctx.add_ciphertext(&b);
    ctx.add_ciphertext(&c);
    ctx.add_ciphertext(&t);
    let mut seeds = ctx.finalize();
    a.re_randomize(ReRandomizationMode::default(), seeds.next_seed().unwrap())
        .unwrap();
    b.re_randomize(ReRandomizationMode::default(), seeds.next_seed().unwrap())
        .unwrap();
    c.re_randomize(ReRandomizationMode::default(), seeds.next_seed().unwrap())
        .unwrap();
    t.re_randomize(ReRandomizationMode::default(), seeds.next_seed().unwrap())
        .unwrap();
    assert!(seeds.next_seed().is_err(), "one seed per value");
    assert!(a.re_randomization_metadata().data().is_empty());
    let (old, ..) = before.into_raw_parts();
    let (new, ..) = a.clone().into_raw_parts();
    assert_ne!(old, new, "the blocks changed");
    let (trivial, ..) = t.clone().into_raw_parts();
    use gpufhe::integer::ciphertext::IntegerCiphertext;
    assert!(trivial.blocks().iter().all(|b| b.noise_level() == 1));
    let sum: u8 = (&a + &t).decrypt(ck);
    let neg: i16 = (-&b).decrypt(ck);
    let and: bool = (&c & true).decrypt(ck);
    let t: u8 = t.decrypt(ck);
    assert_eq!((sum, neg, and, t), (207, 1234, true, 7));
}

/// The same context over the same ciphertexts gives the same bytes; other
/// metadata, another description or another hash give other bytes.
#[test]
fn the_same_context_gives_the_same_ciphertexts() {
    let (ck, sk) = derived_keys();
    set_server_key(sk.clone());
    let x = FheUint8::encrypt(42u8, ck);
    let run = |metadata: &[u8], description: &[u8], algo| {
        let mut v = x.clone();
        v.re_randomization_metadata_mut().set_data(metadata);
        let hasher = ReRandomizationSeedHasher::new(algo, *b"TFHE_Rrd");
        let mut ctx = ReRandomizationContext::new_with_hasher([description], *b"TFHE_Enc", hasher);
        ctx.add_ciphertext(&v);
        let mut seeds = ctx.finalize();
        v.re_randomize(ReRandomizationMode::default(), seeds.next_seed().unwrap())
            .unwrap();
        let clear: u8 = v.decrypt(ck);
        assert_eq!(clear, 42);
        v.into_raw_parts().0
    };
    let blake = ReRandomizationHashAlgo::Blake3;
    let first = run(b"m", b"f", blake);
    assert_eq!(first, run(b"m", b"f", blake));
    assert_ne!(first, run(b"n", b"f", blake));
    assert_ne!(first, run(b"m", b"g", blake));
    assert_ne!(first, run(b"m", b"f", ReRandomizationHashAlgo::Shake256));
}

#[test]
fn metadata_travels_with_values() {
    let (ck, sk) = derived_keys();
    set_server_key(sk.clone());
    let mut a = FheUint8::encrypt(5u8, ck);
    a.re_randomization_metadata_mut().set_data(b"zk proof hash");
    let back: FheUint8 = crate::tfhe_rs_support::round_trip(&a);
    assert_eq!(back.re_randomization_metadata().data(), b"zk proof hash");
    let (radix, id, tag, metadata) = back.into_raw_parts();
    assert_eq!(metadata.data(), b"zk proof hash");
    let again = FheUint8::from_raw_parts(radix, id, tag, metadata);
    assert_eq!(
        again.clone().re_randomization_metadata().data(),
        b"zk proof hash"
    );
    // Results of operations carry none.
    assert!((&again + 1u8).re_randomization_metadata().data().is_empty());
}

/// The legacy mode: a dedicated compact public key encrypts the zeros and a
/// keyswitch of its own (other parameters than the casting key's) brings them to
/// the big key; the caller passes the public key.
#[test]
fn legacy_mode_with_a_dedicated_public_key() {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST)
        .unwrap()
        .use_dedicated_compact_public_key_parameters((PKE_TEST, KS_SMALL))
        .enable_ciphertext_re_randomization(KS_BIG);
    let ck = ClientKey::generate(config);
    let compressed = CompressedServerKey::new(&ck);
    assert!(compressed.has_re_randomization_key());
    let sk = compressed.decompress();
    assert_eq!(
        sk.re_randomization_support(),
        ReRandomizationSupport::LegacyDedicatedCPKWithKeySwitch
    );
    set_server_key(sk);
    let cpk = CompactPublicKey::new(&ck);
    let mut a = FheUint8::encrypt(99u8, &ck);
    let mut b = FheBool::encrypt(false, &ck);
    let mut ctx = context(b"legacy");
    ctx.add_ciphertext(&a);
    ctx.add_ciphertext(&b);
    let mut seeds = ctx.finalize();
    // The legacy key needs the public key.
    let seed = seeds.next_seed().unwrap();
    assert!(a
        .re_randomize(ReRandomizationMode::default(), seed)
        .is_err());
    let clear: u8 = a.decrypt(&ck);
    assert_eq!(clear, 99, "untouched by the refusal");
    a.re_randomize(&cpk, seeds.next_seed().unwrap()).unwrap();
    let mut seeds = {
        let mut ctx = context(b"legacy 2");
        ctx.add_ciphertext(&b);
        ctx.finalize()
    };
    b.re_randomize(&cpk, seeds.next_seed().unwrap()).unwrap();
    let a: u8 = (&a * 2u8).decrypt(&ck);
    let b: bool = (!&b).decrypt(&ck);
    assert_eq!((a, b), (198, true));
}

#[test]
fn bad_input_is_refused() {
    // No server key.
    unset_server_key();
    let (ck, derived) = derived_keys();
    let mut a = FheUint8::encrypt(1u8, ck);
    let mut ctx = context(b"bad");
    ctx.add_ciphertext(&a);
    let mut seeds = ctx.finalize();
    let seed = seeds.next_seed().unwrap();
    assert!(a
        .re_randomize(ReRandomizationMode::default(), seed)
        .is_err());
    // A server key without re-randomization.
    let (plain_ck, plain_sk) = crate::insecure_keys::keys();
    assert!(!plain_sk.supports_ciphertext_re_randomization());
    set_server_key(plain_sk.clone());
    let mut b = FheUint8::encrypt(3u8, plain_ck);
    let mut seeds = {
        let mut ctx = context(b"bad");
        ctx.add_ciphertext(&b);
        ctx.finalize()
    };
    assert!(b
        .re_randomize(ReRandomizationMode::default(), seeds.next_seed().unwrap())
        .is_err());
    // gpufhe's own format has no place for metadata: an Err, not a silent drop.
    set_server_key(derived.clone());
    let mut m = FheUint8::encrypt(3u8, ck);
    m.re_randomization_metadata_mut().set_data(b"m");
    assert!(gpufhe::serialization::safe_serialize(&m, &mut Vec::new(), 1 << 30).is_err());
    m.re_randomization_metadata_mut().clear();
    assert!(gpufhe::serialization::safe_serialize(&m, &mut Vec::new(), 1 << 30).is_ok());
    // The legacy configuration without dedicated parameters, and with a keyswitch
    // to the small key: refused at key generation.
    let base = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST)
        .unwrap();
    assert!(ClientKey::try_generate(base.enable_ciphertext_re_randomization(KS_BIG)).is_err());
    let to_small = base
        .use_dedicated_compact_public_key_parameters((PKE_TEST, KS_SMALL))
        .enable_ciphertext_re_randomization(KS_SMALL);
    assert!(ClientKey::try_generate(to_small).is_err());
    // Keys and configurations with re-randomization have no form in gpufhe's own
    // format: an Err, not a silent drop.
    let own = |r: gpufhe::Result<()>| r.is_err();
    assert!(own(gpufhe::serialization::safe_serialize(
        ck,
        &mut Vec::new(),
        1 << 30
    )));
    let compressed = CompressedServerKey::new(ck);
    assert!(own(gpufhe::serialization::safe_serialize(
        &compressed,
        &mut Vec::new(),
        1 << 30
    )));
}

/// One re-randomized operation on TFHE-rs 1.8's default (secure) parameters.
#[test]
fn re_randomized_sum_on_the_default_parameters() {
    let (ck, sk) =
        generate_keys(ConfigBuilder::default().enable_ciphertext_re_randomization(DERIVED));
    set_server_key(sk);
    let mut a = FheUint64::encrypt(u64::MAX - 5, &ck);
    let mut b = FheUint64::encrypt(1_000_000_007u64, &ck);
    let mut ctx = context(b"FheUint64+FheUint64");
    ctx.add_ciphertext(&a);
    ctx.add_ciphertext(&b);
    let mut seeds = ctx.finalize();
    a.re_randomize(ReRandomizationMode::default(), seeds.next_seed().unwrap())
        .unwrap();
    b.re_randomize(ReRandomizationMode::default(), seeds.next_seed().unwrap())
        .unwrap();
    let sum: u64 = (&a + &b).decrypt(&ck);
    assert_eq!(sum, (u64::MAX - 5).wrapping_add(1_000_000_007));
}

/// TFHE-rs 1.8.2's golden files (`compare/examples/support/tfhers_rerand.rs`): with
/// the compact public key TFHE-rs's server key re-randomizes with, gpufhe
/// re-randomizes TFHE-rs's values with the same context into the very bytes TFHE-rs
/// wrote, and TFHE-rs's re-randomized values decrypt and compute in gpufhe.
#[test]
fn tfhe_rs_re_randomization_is_reproduced_byte_for_byte() {
    use crate::tfhe_rs_support::{golden, read_small_exactly};
    use gpufhe::safe_serialization::safe_serialize;
    let ck: ClientKey = read_small_exactly("small-rerand-client_key.bin");
    assert_eq!(ck.config().re_randomization_parameters(), Some(DERIVED));
    let cpk: CompactPublicKey = read_small_exactly("small-rerand-compact_public_key.bin");
    // gpufhe's server key of that client key, with TFHE-rs's public key in place of
    // its own (raw parts).
    let (key, a, c, d, ns, nsc, own, oprf, tc, tag) = ServerKey::new(&ck).into_raw_parts();
    assert!(own.is_some());
    let rerand = Some(gpufhe::ReRandomizationKey::DerivedCPKWithoutKeySwitch { cpk });
    set_server_key(ServerKey::from_raw_parts(
        key, a, c, d, ns, nsc, rerand, oprf, tc, tag,
    ));
    let mut x: FheUint8 = read_small_exactly("small-rerand-in-fheuint8-201.bin");
    let mut y: FheInt16 = read_small_exactly("small-rerand-in-fheint16-minus-12345.bin");
    let mut z: FheBool = read_small_exactly("small-rerand-in-fhebool-true.bin");
    assert_eq!(x.re_randomization_metadata().data(), b"metadata of a");
    let mut ctx = ReRandomizationContext::new(
        *b"TFHE_Rrd",
        [b"golden u8, i16, bool".as_slice(), &[0x5e; 32]],
        *b"TFHE_Enc",
    );
    ctx.add_ciphertext(&x);
    ctx.add_ciphertext(&y);
    ctx.add_ciphertext(&z);
    let mut seeds = ctx.finalize();
    let mode = ReRandomizationMode::default();
    x.re_randomize(mode, seeds.next_seed().unwrap()).unwrap();
    y.re_randomize(mode, seeds.next_seed().unwrap()).unwrap();
    z.re_randomize(mode, seeds.next_seed().unwrap()).unwrap();
    let bytes = |v: &dyn Fn(&mut Vec<u8>)| {
        let mut out = Vec::new();
        v(&mut out);
        out
    };
    let limit = crate::tfhe_rs_support::LIMIT;
    let x_bytes = bytes(&|b| safe_serialize(&x, b, limit).unwrap());
    let y_bytes = bytes(&|b| safe_serialize(&y, b, limit).unwrap());
    let z_bytes = bytes(&|b| safe_serialize(&z, b, limit).unwrap());
    assert!(
        x_bytes == golden("small-rerand-out-fheuint8-201.bin"),
        "FheUint8"
    );
    assert!(
        y_bytes == golden("small-rerand-out-fheint16-minus-12345.bin"),
        "FheInt16"
    );
    assert!(
        z_bytes == golden("small-rerand-out-fhebool-true.bin"),
        "FheBool"
    );
    // TFHE-rs's outputs decrypt and compute in gpufhe.
    let x: FheUint8 = read_small_exactly("small-rerand-out-fheuint8-201.bin");
    let y: FheInt16 = read_small_exactly("small-rerand-out-fheint16-minus-12345.bin");
    let z: FheBool = read_small_exactly("small-rerand-out-fhebool-true.bin");
    let (x, y, z): (u8, i16, bool) = ((&x + 1u8).decrypt(&ck), y.decrypt(&ck), (!&z).decrypt(&ck));
    assert_eq!((x, y, z), (202, -12345, false));
}

/// The legacy mode with the casting key's keyswitch (TFHE-rs's
/// `UseCPKEncryptionKSK`), the casting key and the re-randomization key taken apart
/// and put back as raw parts; without the casting key, no support.
#[test]
fn legacy_mode_with_the_casting_key_through_raw_parts() {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(TEST)
        .unwrap()
        .use_dedicated_compact_public_key_parameters((PKE_TEST, KS_BIG))
        .enable_ciphertext_re_randomization(KS_BIG);
    let ck = ClientKey::generate(config);
    let (key, casting, c, d, ns, nsc, rr, oprf, tc, tag) = ServerKey::new(&ck).into_raw_parts();
    assert!(casting.is_some());
    assert!(matches!(
        rr,
        Some(gpufhe::ReRandomizationKey::LegacyDedicatedCPK {
            ksk: gpufhe::ReRandomizationKeySwitchingKey::UseCPKEncryptionKSK
        })
    ));
    let sk = ServerKey::from_raw_parts(key, casting, c, d, ns, nsc, rr, oprf, tc, tag);
    set_server_key(sk.clone());
    let cpk = CompactPublicKey::new(&ck);
    let list = gpufhe::CompactCiphertextList::builder(&cpk)
        .push(77u8)
        .build();
    let mut x: FheUint8 = list.expand().unwrap().get(0).unwrap().unwrap();
    let mut seeds = {
        let mut ctx = context(b"casting");
        ctx.add_ciphertext(&x);
        ctx.finalize()
    };
    x.re_randomize(&cpk, seeds.next_seed().unwrap()).unwrap();
    let clear: u8 = (&x + 3u8).decrypt(&ck);
    assert_eq!(clear, 80);
    let (key, _, c, d, ns, nsc, rr, oprf, tc, tag) = sk.into_raw_parts();
    let without = ServerKey::from_raw_parts(key, None, c, d, ns, nsc, rr, oprf, tc, tag);
    assert_eq!(
        without.re_randomization_support(),
        ReRandomizationSupport::NoSupport
    );
}
