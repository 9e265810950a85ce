//! Every high-level operation on the multi-bit default parameters
//! (`ConfigBuilder::use_multi_bit_pbs`, grouping factor 4, 128-bit security), on the
//! CPU: the tests of `support/ops.rs` (`tests/gpu/gpu_multi_bit_default_parameters.rs`
//! runs them on a GPU, with those of `support/ops_wide.rs`), whose circuits (and
//! bootstrap counts) are those of the classical parameters, with keys,
//! serialization and validation of the multi-bit set. The wide-operand half
//! (`support/ops_wide.rs`: 64-bit products and comparisons, 256 bits) runs on the
//! classical parameters only on the CPU, where it would take three fifths of this
//! suite's time for circuits identical block for block.

use crate::common;
// The same tests over this module's keys (and over the other parameter sets' and
// backends').
#[allow(clippy::duplicate_mod)]
#[path = "../support/ops.rs"]
mod ops;

use common::{counting_setup_with, multi_bit_keys as keys, setup_with};
use gpufhe::prelude::*;
use gpufhe::serialization::{
    safe_deserialize, safe_deserialize_conformant, safe_serialize, SafeSerialization,
};
use gpufhe::shortint::{PbsKind, PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128};
use gpufhe::{ClientKey, CompressedServerKey, ConfigBuilder, FheUint8};

/// The shared CPU key set on the thread.
fn setup() -> Option<&'static ClientKey> {
    Some(setup_with(keys()))
}

/// A CPU key of its own (its own counters) set on the thread.
fn counting_setup() -> Option<(&'static ClientKey, gpufhe::ServerKey)> {
    Some(counting_setup_with(keys()))
}

#[test]
fn the_keys_carry_the_multi_bit_parameters() {
    let (ck, compressed, sk) = keys();
    let p = PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
    assert_eq!(ck.config().parameters(), &p);
    assert_eq!(p.pbs_kind, PbsKind::MultiBit { grouping_factor: 4 });
    // 230 groups of 15 GGSW ciphertexts.
    assert_eq!(p.bootstrap_key_shape().input_lwe_dimension.0, 3450);
    assert_eq!(compressed.config().parameters(), &p);
    assert_eq!(sk.config().parameters(), &p);
}

/// The compressed key round-trips through safe serialization and reads back only
/// for its own configuration: a classical configuration (same blocks, other
/// bootstrap key) rejects it.
#[test]
fn multi_bit_keys_serialize_and_validate() {
    let (ck, compressed, _) = keys();
    let mut bytes = Vec::new();
    safe_serialize(
        compressed,
        &mut bytes,
        CompressedServerKey::DEFAULT_SIZE_LIMIT,
    )
    .unwrap();
    let back: CompressedServerKey =
        safe_deserialize_conformant(bytes.as_slice(), 1 << 31, &ck.config().into()).unwrap();
    assert_eq!(back.config(), compressed.config());
    let classical = ConfigBuilder::default().build();
    let err = safe_deserialize_conformant::<CompressedServerKey>(
        bytes.as_slice(),
        1 << 31,
        &(&classical).into(),
    );
    assert!(
        err.is_err(),
        "a multi-bit key conforms to the classical configuration"
    );
    // A value encrypted under these keys computes after a round trip.
    setup();
    let x = FheUint8::encrypt(200u8, ck);
    let mut bytes = Vec::new();
    safe_serialize(&x, &mut bytes, 1 << 20).unwrap();
    let y: FheUint8 = safe_deserialize(bytes.as_slice(), 1 << 20).unwrap();
    let z: u8 = (&y + 100u8).decrypt(ck);
    assert_eq!(z, 44);
}
