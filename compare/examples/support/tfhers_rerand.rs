//! The re-randomization golden files (`small-rerand-*.bin`): TFHE-rs 1.8.2's
//! client key of the small parameters with `DerivedCPKWithoutKeySwitch`
//! re-randomization (seed 0x5eed_003c), the compact public key its server key holds
//! for re-randomization (taken out with `into_raw_parts`; the compressed server key
//! itself is 2 MiB), three values with metadata (`FheUint8` 201, `FheInt16` -12345,
//! `FheBool` true) and the same values re-randomized by TFHE-rs with the context
//! `rerand_context` describes. gpufhe's test re-randomizes the inputs with a server
//! key holding that public key and must get the outputs' bytes.

use super::{read, reseed, Golden};
use tfhe::prelude::*;
use tfhe::shortint::parameters::ReRandomizationParameters;
use tfhe::{
    set_server_key, unset_server_key, ClientKey, CompactPublicKey, CompressedServerKey,
    ConfigBuilder, FheBool, FheInt16, FheUint8, ReRandomizationContext, ReRandomizationKey,
    ReRandomizationMode, Seed, ServerKey,
};

/// The golden context: TFHE-rs's documented domain separators, a description and
/// a fixed nonce.
pub fn rerand_context() -> ReRandomizationContext {
    ReRandomizationContext::new(
        *b"TFHE_Rrd",
        [b"golden u8, i16, bool".as_slice(), &[0x5e; 32]],
        *b"TFHE_Enc",
    )
}

pub fn write_small_re_randomization(golden: &mut Golden) {
    let config = ConfigBuilder::with_custom_parameters(super::tfhers::small_parameters())
        .use_dedicated_oprf_key(false)
        .enable_ciphertext_re_randomization(ReRandomizationParameters::DerivedCPKWithoutKeySwitch)
        .build();
    let client_key = ClientKey::generate_with_seed(config, Seed(0x5eed_003c));
    golden.write("small-rerand-client_key.bin", &client_key);
    reseed(0x5eed_0500);
    let server_key: ServerKey = CompressedServerKey::new(&client_key).decompress();
    let parts = server_key.clone().into_raw_parts();
    let Some(ReRandomizationKey::DerivedCPKWithoutKeySwitch { cpk }) = parts.6 else {
        panic!("the derived re-randomization key");
    };
    let cpk = CompactPublicKey::from_raw_parts(cpk, parts.9);
    golden.write("small-rerand-compact_public_key.bin", &cpk);
    set_server_key(server_key);
    reseed(0x5eed_0501);
    let mut a = FheUint8::encrypt(201u8, &client_key);
    let mut b = FheInt16::encrypt(-12345i16, &client_key);
    let mut c = FheBool::encrypt(true, &client_key);
    a.re_randomization_metadata_mut().set_data(b"metadata of a");
    b.re_randomization_metadata_mut().set_data(b"b");
    golden.value("small-rerand-in-fheuint8-201.bin", &a, &[&201]);
    golden.value("small-rerand-in-fheint16-minus-12345.bin", &b, &[&-12345]);
    golden.value("small-rerand-in-fhebool-true.bin", &c, &[&true]);
    let mut context = rerand_context();
    context.add_ciphertext(&a);
    context.add_ciphertext(&b);
    context.add_ciphertext(&c);
    let mut seeds = context.finalize();
    let mode = ReRandomizationMode::default();
    a.re_randomize(mode, seeds.next_seed().unwrap()).unwrap();
    b.re_randomize(mode, seeds.next_seed().unwrap()).unwrap();
    c.re_randomize(mode, seeds.next_seed().unwrap()).unwrap();
    golden.value("small-rerand-out-fheuint8-201.bin", &a, &[&201]);
    golden.value("small-rerand-out-fheint16-minus-12345.bin", &b, &[&-12345]);
    golden.value("small-rerand-out-fhebool-true.bin", &c, &[&true]);
    // Read back: the outputs decrypt, and compute.
    let ck: ClientKey = read(&golden.dir, "small-rerand-client_key.bin");
    let a: FheUint8 = read(&golden.dir, "small-rerand-out-fheuint8-201.bin");
    let b: FheInt16 = read(&golden.dir, "small-rerand-out-fheint16-minus-12345.bin");
    let c: FheBool = read(&golden.dir, "small-rerand-out-fhebool-true.bin");
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&a + 1u8), &ck), 202);
    assert_eq!(FheDecrypt::<i16>::decrypt(&b, &ck), -12345);
    assert!(FheDecrypt::<bool>::decrypt(&c, &ck));
    unset_server_key();
}
