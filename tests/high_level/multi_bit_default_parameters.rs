//! The multi-bit default parameters (`ConfigBuilder::use_multi_bit_pbs`, grouping
//! factor 4, 128-bit security) on the CPU: their keys, serialization and
//! validation, and one operation of each kind of table (univariate, bivariate, the
//! carry chain over 32 blocks, a comparison's tree, a boolean) computed at these
//! parameters' noise. Every high-level operation runs on the multi-bit blind
//! rotation in `multi_bit_test_parameters.rs` (the tests of `support/ops.rs`, on
//! the insecure multi-bit test parameters: their circuits and bootstrap counts are
//! the classical ones block for block), and on a GPU at these parameters
//! (`tests/gpu/gpu_multi_bit_default_parameters.rs`, with `support/ops_wide.rs`).

use crate::common;
use common::{multi_bit_keys as keys, setup_with};
use gpufhe::prelude::*;
use gpufhe::serialization::{
    safe_deserialize, safe_deserialize_conformant, safe_serialize, SafeSerialization,
};
use gpufhe::shortint::{PbsKind, PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128};
use gpufhe::{ClientKey, CompressedServerKey, ConfigBuilder, FheBool, FheUint64, FheUint8};

/// The shared CPU key set on the thread.
fn setup() -> &'static ClientKey {
    setup_with(keys())
}

/// Each kind of table at the multi-bit default parameters, against the clear
/// results: additions and subtractions (the carry propagation, across all 32
/// blocks of an `FheUint64`), a product (bivariate tables), comparisons, min and
/// bitwise operations, a selection and boolean operations.
#[test]
fn each_kind_of_table_at_the_default_multi_bit_parameters() {
    let ck = setup();
    let (a, b) = (200u8, 77u8);
    let (x, y) = (FheUint8::encrypt(a, ck), FheUint8::encrypt(b, ck));
    let d8 = |v: &FheUint8| -> u8 { v.decrypt(ck) };
    assert_eq!(d8(&(&x + &y)), a.wrapping_add(b));
    assert_eq!(d8(&(&y - &x)), b.wrapping_sub(a));
    assert_eq!(d8(&(&x * &y)), a.wrapping_mul(b));
    assert_eq!(d8(&(&x & &y)), a & b);
    assert_eq!(d8(&x.min(&y)), a.min(b));
    let lt = x.lt(&y);
    let lt_clear: bool = lt.decrypt(ck);
    assert_eq!(lt_clear, a < b);
    assert_eq!(d8(&lt.select(&x, &y)), if a < b { a } else { b });
    let t = FheBool::encrypt(true, ck);
    let both: bool = (&t & &x.ge(&y)).decrypt(ck);
    assert_eq!(both, a >= b);
    let (m, one) = (
        FheUint64::encrypt(u64::MAX, ck),
        FheUint64::encrypt(1u64, ck),
    );
    let wrapped: u64 = (&m + &one).decrypt(ck);
    assert_eq!(wrapped, 0, "the carry crosses all 32 blocks");
    let borrowed: u64 = (&(&m - &one) - &m).decrypt(ck);
    assert_eq!(borrowed, u64::MAX);
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
