//! The crafted inputs of the hostile-input probe of issue 26: values that read
//! (within the bounds, above the security floor) and then expand far past what a
//! machine holds. They are megabytes of zeros, so they are made by code instead of
//! committed: the crate's tests run them under an address-space limit
//! (`tests/high_level/memory_budget.rs`), and the fuzz replay (`fuzz/`, which
//! includes this file as `gpufhe_fuzz::crafted`) runs them as saved findings of
//! `safe_deserialize` (`crashes/safe_deserialize/crafted-*`, names with no file
//! behind them).
//!
//! Depends only on `gpufhe`, `serde` and `bincode`.
#![allow(dead_code)]

use gpufhe::core_crypto::{
    BootstrapKeyShape, CompressionSeed, KeyswitchKeyShape, NoiseDistribution,
};
use gpufhe::high_level::DataKind;
use gpufhe::serialization::{SafeSerialization, SERIALIZATION_MAGIC, SERIALIZATION_VERSION};
use gpufhe::shortint::{ShortintParameters, DEFAULT_PARAMETERS};
use gpufhe::{CompactCiphertextList, CompressedServerKey, Config, ConfigBuilder};
use serde::Serialize;

/// The names of the crafted inputs, as the replay lists them.
pub const NAMES: [&str; 3] = [
    "crafted-compact-list-default-4mb",
    "crafted-compact-list-n65536",
    "crafted-compressed-key-k63",
];

/// The crafted input `name` (one of [`NAMES`]).
pub fn crafted(name: &str) -> Option<Vec<u8>> {
    Some(match name {
        // 8,256 FheUint64 on the default parameters: 4.2 MB, 4.3 GB expanded.
        "crafted-compact-list-default-4mb" => {
            compact_list(DEFAULT_PARAMETERS, vec![DataKind::Unsigned(64); 8_256])
        }
        // 1 MiB of a list with its own N = 2^16: 34 GB expanded.
        "crafted-compact-list-n65536" => {
            compact_list(huge_list_parameters(), vec![DataKind::Unsigned(64); 2048])
        }
        // 132 MB of seeded key: 17 GB expanded.
        "crafted-compressed-key-k63" => compressed_key(huge_key_parameters()),
        _ => return None,
    })
}

/// The default parameters with N = 2^16: a compact ciphertext of 1 MiB holds
/// 65,536 blocks of 0.5 MiB each.
pub fn huge_list_parameters() -> ShortintParameters {
    let mut p = DEFAULT_PARAMETERS;
    p.polynomial_size.0 = 1 << 16;
    p
}

/// k = 63, N = 1024, n = 252 with LWE noise TUniform(61) (just above the 128-bit
/// curve for n = 252) and one keyswitch level (under the bound of 16 GiB per key):
/// 132 MB of seeded bootstrap key expand to 17 GB.
pub fn huge_key_parameters() -> ShortintParameters {
    let mut p = DEFAULT_PARAMETERS;
    p.glwe_dimension.0 = 63;
    p.polynomial_size.0 = 1024;
    p.lwe_dimension.0 = 252;
    p.lwe_noise_distribution = NoiseDistribution::TUniform { log2_bound: 61 };
    p.ks_level.0 = 1;
    p.ks_base_log.0 = 16;
    p
}

/// `payload` as `safe_serialize` writes a `T`: the header, then bincode 2 with
/// fixed-width little-endian integers.
pub fn forged<T: SafeSerialization>(payload: &impl Serialize) -> Vec<u8> {
    let mut bytes = SERIALIZATION_MAGIC.to_vec();
    bytes.extend_from_slice(&SERIALIZATION_VERSION.to_le_bytes());
    bytes.push(T::TYPE_NAME.len() as u8);
    bytes.extend_from_slice(T::TYPE_NAME.as_bytes());
    let codec = bincode::config::standard().with_fixed_int_encoding();
    bytes.extend(bincode::serde::encode_to_vec(payload, codec).expect("plain data encodes"));
    bytes
}

/// The fields of a `CompactCiphertextList`, in the order it writes them.
#[derive(Serialize)]
struct ListFields {
    tag: u64,
    parameters: ShortintParameters,
    kinds: Vec<DataKind>,
    lists: Vec<Vec<u64>>,
}

/// A `CompactCiphertextList` of `parameters` holding `kinds`, every coefficient 0.
pub fn compact_list(parameters: ShortintParameters, kinds: Vec<DataKind>) -> Vec<u8> {
    let block_bits = parameters.message_modulus.ilog2();
    let blocks: usize = kinds
        .iter()
        .map(|kind| match kind {
            DataKind::Unsigned(bits) | DataKind::Signed(bits) => bits.div_ceil(block_bits),
            DataKind::Boolean => 1,
        } as usize)
        .sum();
    let (k, n) = (parameters.glwe_dimension.0, parameters.polynomial_size.0);
    let fields = ListFields {
        tag: 1,
        parameters,
        kinds,
        lists: vec![vec![0; (k + 1) * n]; blocks.div_ceil(n)],
    };
    forged::<CompactCiphertextList>(&fields)
}

/// The fields of a seeded key.
#[derive(Serialize)]
struct SeededKey<S> {
    bodies: Vec<u64>,
    seed: CompressionSeed,
    shape: S,
}

/// The fields of a `shortint::CompressedServerKey`.
#[derive(Serialize)]
struct ShortintKey {
    keyswitch_key: SeededKey<KeyswitchKeyShape>,
    bootstrap_key: SeededKey<BootstrapKeyShape>,
    parameters: ShortintParameters,
}

/// The fields of a `CompressedServerKey`.
#[derive(Serialize)]
struct KeyFields {
    tag: u64,
    config: Config,
    key: ShortintKey,
    compression: Option<()>,
}

/// A `CompressedServerKey` of `parameters` (which must be secure) with zero bodies.
pub fn compressed_key(parameters: ShortintParameters) -> Vec<u8> {
    let (ks, bs) = (
        parameters.keyswitch_key_shape(),
        parameters.bootstrap_key_shape(),
    );
    let ks_bodies = ks.input_lwe_dimension.0 * ks.level.0;
    let bs_bodies =
        bs.input_lwe_dimension.0 * (bs.glwe_dimension.0 + 1) * bs.level.0 * bs.polynomial_size.0;
    let config = ConfigBuilder::default()
        .try_use_custom_parameters(parameters)
        .expect("secure parameters")
        .build();
    let fields = KeyFields {
        tag: 1,
        config,
        key: ShortintKey {
            keyswitch_key: SeededKey {
                bodies: vec![0; ks_bodies],
                seed: CompressionSeed::new(1),
                shape: ks,
            },
            bootstrap_key: SeededKey {
                bodies: vec![0; bs_bodies],
                seed: CompressionSeed::new(2),
                shape: bs,
            },
            parameters,
        },
        compression: None,
    };
    forged::<CompressedServerKey>(&fields)
}
