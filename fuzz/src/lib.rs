//! Fuzz targets of gpufhe: what hostile bytes can reach.
//!
//! Five targets, each a function of the input bytes that panics on a finding (a
//! panic or an abort inside gpufhe, or a value accepted and then failing on first
//! use):
//!
//! - [`safe_deserialize`]: the input is what `safe_serialize` writes; the type is
//!   the one its header names (every public `SafeSerialization` type: `Config`,
//!   `ClientKey`, `CompressedServerKey`, `ServerKey`, `FheBool`, every `FheUint` and
//!   `FheInt` width, `CompactPublicKey`, `CompactCiphertextList`,
//!   `CompressedCompactPublicKey`, `KeySwitchingKey`), so a crash file reproduces as
//!   `safe_deserialize::<ThatType>(file)`. An unknown name is read as a `Config`.
//!   It is read plainly and conformant to the fixture key, then used
//!   ([`exercise`]).
//! - [`serde_bincode`]: the plain serde path, `bincode::serde::decode_from_slice` with the
//!   crate's codec; the first byte picks the type ([`Kind::ALL`], modulo their
//!   number), the rest is the payload.
//! - [`config_builder`]: arbitrary parameters ([`params`]) through
//!   `ConfigBuilder::try_use_custom_parameters` and `with_insecure_custom_parameters`, then key generation.
//! - [`arrays::array_shapes`]: array shapes and slice ranges (arrays have no
//!   serialized form: their shapes are what hostile input reaches).
//! - [`tfhe_rs::tfhe_rs_data`]: TFHE-rs 1.8's format (`gpufhe::safe_serialization`);
//!   the type is the one its TFHE-rs header names (several widths for the
//!   integers), read, written back, read again, then used; proven compact lists
//!   and CRS are also verified ([`zk`]).
//!
//! The libFuzzer binaries (`fuzz_targets/`) and the stable replay runner
//! (`src/bin/replay.rs`) call these same functions. Every run is under a memory
//! limit (`ulimit -v`), and [`exercise`] expands what it reads (compact lists,
//! compressed lists, compressed keys): expansion is fuzzed, not only reading, and
//! an input that would expand past the limit must be an `Err` (gpufhe's memory
//! budget), not an abort. The probe's crafted inputs ([`crafted`]) replay with the
//! saved findings.

pub mod arrays;
#[path = "../../tests/support/crafted.rs"]
pub mod crafted;
pub mod exercise;
pub mod keys;
pub mod mutate;
pub mod params;
pub mod tfhe_rs;
pub mod zk;

use exercise::Exercise;
use gpufhe::serialization::{
    safe_deserialize, safe_serialize, with_insecure_parameters_allowed, ConformanceParams,
    SERIALIZATION_MAGIC,
};
use gpufhe::{
    ClientKey, CompactCiphertextList, CompactPublicKey, CompressedCiphertextList,
    CompressedCompactPublicKey, CompressedServerKey, Config, ConfigBuilder, FheBool, FheInt128,
    FheInt16, FheInt32, FheInt64, FheInt8, FheUint10, FheUint12, FheUint128, FheUint14, FheUint16,
    FheUint2, FheUint256, FheUint32, FheUint4, FheUint6, FheUint64, FheUint8, KeySwitchingKey,
    ServerKey,
};

/// The size limit of every `safe_deserialize`: larger than any input the fuzzers
/// make, so that what a value may allocate is bounded by the input, not by it.
pub const LIMIT: u64 = 1 << 30;

/// The payload codec of `gpufhe::serialization`: bincode 2, fixed-width little
/// endian integers.
pub const CODEC: bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Fixint,
    bincode::config::NoLimit,
> = bincode::config::standard().with_fixed_int_encoding();

/// The targets, by name (the folders of `corpus/` and `crashes/`).
pub const TARGETS: [&str; 5] = [
    "safe_deserialize",
    "serde_bincode",
    "config_builder",
    "array_shapes",
    "tfhe_rs_data",
];

/// Runs target `name` on `data`; `None` for an unknown name.
pub fn run_target(name: &str, data: &[u8]) -> Option<()> {
    match name {
        "safe_deserialize" => safe_deserialize_target(data),
        "serde_bincode" => serde_bincode(data),
        "config_builder" => config_builder(data),
        "array_shapes" => arrays::array_shapes(data),
        "tfhe_rs_data" => tfhe_rs::tfhe_rs_data(data),
        _ => return None,
    }
    Some(())
}

/// Every public type with `SafeSerialization`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// [`Config`]
    Config,
    /// [`ClientKey`]
    ClientKey,
    /// [`CompressedServerKey`]
    CompressedServerKey,
    /// [`ServerKey`]
    ServerKey,
    /// [`FheBool`]
    FheBool,
    /// [`FheUint8`]
    FheUint8,
    /// [`FheUint16`]
    FheUint16,
    /// [`FheUint32`]
    FheUint32,
    /// [`FheUint64`]
    FheUint64,
    /// [`FheUint128`]
    FheUint128,
    /// [`FheUint2`]
    FheUint2,
    /// [`FheUint4`]
    FheUint4,
    /// [`FheUint6`]
    FheUint6,
    /// [`FheUint10`]
    FheUint10,
    /// [`FheUint12`]
    FheUint12,
    /// [`FheUint14`]
    FheUint14,
    /// [`FheInt8`]
    FheInt8,
    /// [`FheInt16`]
    FheInt16,
    /// [`FheInt32`]
    FheInt32,
    /// [`FheInt64`]
    FheInt64,
    /// [`FheInt128`]
    FheInt128,
    /// [`CompactPublicKey`]
    CompactPublicKey,
    /// [`CompactCiphertextList`]
    CompactCiphertextList,
    /// [`CompressedCompactPublicKey`]
    CompressedCompactPublicKey,
    /// [`CompressedCiphertextList`]
    CompressedCiphertextList,
    /// [`FheUint256`]
    FheUint256,
    /// [`KeySwitchingKey`]
    KeySwitchingKey,
}

/// Something done with one type, chosen at run time by [`Kind::visit`].
pub trait Visit {
    /// Does it with `T`.
    fn visit<T: Exercise>(self);
}

impl Kind {
    /// Every kind; the `serde_bincode` target's first byte indexes it (kinds added
    /// later go at the end).
    pub const ALL: [Kind; 27] = [
        Kind::Config,
        Kind::ClientKey,
        Kind::CompressedServerKey,
        Kind::ServerKey,
        Kind::FheBool,
        Kind::FheUint8,
        Kind::FheUint16,
        Kind::FheUint32,
        Kind::FheUint64,
        Kind::FheUint128,
        Kind::FheUint2,
        Kind::FheUint4,
        Kind::FheUint6,
        Kind::FheUint10,
        Kind::FheUint12,
        Kind::FheUint14,
        Kind::FheInt8,
        Kind::FheInt16,
        Kind::FheInt32,
        Kind::FheInt64,
        Kind::FheInt128,
        Kind::CompactPublicKey,
        Kind::CompactCiphertextList,
        Kind::CompressedCompactPublicKey,
        Kind::CompressedCiphertextList,
        Kind::FheUint256,
        Kind::KeySwitchingKey,
    ];

    /// Calls `v.visit::<T>()` with this kind's type.
    pub fn visit(self, v: impl Visit) {
        match self {
            Kind::Config => v.visit::<Config>(),
            Kind::ClientKey => v.visit::<ClientKey>(),
            Kind::CompressedServerKey => v.visit::<CompressedServerKey>(),
            Kind::ServerKey => v.visit::<ServerKey>(),
            Kind::FheBool => v.visit::<FheBool>(),
            Kind::FheUint8 => v.visit::<FheUint8>(),
            Kind::FheUint16 => v.visit::<FheUint16>(),
            Kind::FheUint32 => v.visit::<FheUint32>(),
            Kind::FheUint64 => v.visit::<FheUint64>(),
            Kind::FheUint128 => v.visit::<FheUint128>(),
            Kind::FheUint2 => v.visit::<FheUint2>(),
            Kind::FheUint4 => v.visit::<FheUint4>(),
            Kind::FheUint6 => v.visit::<FheUint6>(),
            Kind::FheUint10 => v.visit::<FheUint10>(),
            Kind::FheUint12 => v.visit::<FheUint12>(),
            Kind::FheUint14 => v.visit::<FheUint14>(),
            Kind::FheInt8 => v.visit::<FheInt8>(),
            Kind::FheInt16 => v.visit::<FheInt16>(),
            Kind::FheInt32 => v.visit::<FheInt32>(),
            Kind::FheInt64 => v.visit::<FheInt64>(),
            Kind::FheInt128 => v.visit::<FheInt128>(),
            Kind::CompactPublicKey => v.visit::<CompactPublicKey>(),
            Kind::CompactCiphertextList => v.visit::<CompactCiphertextList>(),
            Kind::CompressedCompactPublicKey => v.visit::<CompressedCompactPublicKey>(),
            Kind::CompressedCiphertextList => v.visit::<CompressedCiphertextList>(),
            Kind::FheUint256 => v.visit::<FheUint256>(),
            Kind::KeySwitchingKey => v.visit::<KeySwitchingKey>(),
        }
    }

    /// The kind whose type name is `name`.
    pub fn from_name(name: &[u8]) -> Option<Kind> {
        struct Name<'a>(&'a [u8], &'a mut bool);
        impl Visit for Name<'_> {
            fn visit<T: Exercise>(self) {
                *self.1 = self.0 == T::TYPE_NAME.as_bytes();
            }
        }
        Kind::ALL.into_iter().find(|kind| {
            let mut found = false;
            kind.visit(Name(name, &mut found));
            found
        })
    }
}

/// The length of the header `safe_serialize` writes before the payload, read from
/// `bytes` (`None` if they are too short to say).
pub fn header_len(bytes: &[u8]) -> Option<usize> {
    let at = SERIALIZATION_MAGIC.len() + 4;
    bytes.get(at).map(|&len| at + 1 + len as usize)
}

/// The type name in the header of `bytes`, if it has one.
pub fn header_name(bytes: &[u8]) -> Option<&[u8]> {
    let start = SERIALIZATION_MAGIC.len() + 5;
    bytes.get(start..header_len(bytes)?)
}

/// `bytes` of a serialized encrypted value with the tag `tag` instead of its own:
/// the payload is the variant (`u32`) then the tag (`u64`).
pub fn forge_tag(bytes: &[u8], tag: u64) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let at = header_len(bytes).expect("a header") + 4;
    out[at..at + 8].copy_from_slice(&tag.to_le_bytes());
    out
}

/// Runs `read` as a user would (insecure parameters refused), then again inside
/// [`with_insecure_parameters_allowed`], so that the structural validation behind
/// the security floor is fuzzed too (the fixture keys are of insecure test
/// parameters).
fn both_ways(read: impl Fn()) {
    read();
    with_insecure_parameters_allowed(read);
}

/// The `safe_deserialize` target.
pub fn safe_deserialize_target(data: &[u8]) {
    struct Read<'a>(&'a [u8]);
    impl Visit for Read<'_> {
        fn visit<T: Exercise>(self) {
            both_ways(|| {
                let keys = keys::keys();
                // What `safe_deserialize_conformant` does, through `Conformant`
                // (whose parameter set is the same for every type).
                if let Ok(value) = safe_deserialize::<T>(self.0, LIMIT) {
                    let conformant = value.conforms_to(&(&keys.client).into()).is_ok();
                    let _ = value.conforms_to(&keys.client.config().into());
                    value.exercise(keys, conformant);
                }
            });
        }
    }
    let kind = header_name(data)
        .and_then(Kind::from_name)
        .unwrap_or(Kind::Config);
    kind.visit(Read(data));
}

/// The `serde_bincode` target.
pub fn serde_bincode(data: &[u8]) {
    struct Decode<'a>(&'a [u8]);
    impl Visit for Decode<'_> {
        fn visit<T: Exercise>(self) {
            both_ways(|| {
                if let Ok((value, _)) = bincode::serde::decode_from_slice::<T, _>(self.0, CODEC) {
                    let keys = keys::keys();
                    let conformant = value
                        .conforms_to(&ConformanceParams::from(&keys.client))
                        .is_ok();
                    value.exercise(keys, conformant);
                }
            });
        }
    }
    if let Some((&first, payload)) = data.split_first() {
        Kind::ALL[first as usize % Kind::ALL.len()].visit(Decode(payload));
    }
}

/// The `config_builder` target: the parameters through the secure builder, then
/// through the insecure one (read back inside the named scope).
pub fn config_builder(data: &[u8]) {
    let parameters = params::parameters_from_bytes(data);
    let secure = ConfigBuilder::default().try_use_custom_parameters(parameters);
    if let Ok(builder) = secure {
        check_built(builder.build());
    }
    if let Ok(builder) = ConfigBuilder::default().with_insecure_custom_parameters(parameters) {
        with_insecure_parameters_allowed(|| check_built(builder.build()));
    }
}

/// What the builder accepts, deserialization accepts, bit for bit (NaN too), and
/// keys can be generated for it (or it is an `Err`).
fn check_built(config: Config) {
    let mut bytes = Vec::new();
    safe_serialize(&config, &mut bytes, LIMIT).expect("a configuration serializes");
    let back: Config = safe_deserialize(bytes.as_slice(), LIMIT)
        .unwrap_or_else(|e| panic!("a built configuration does not read back: {e}"));
    let mut again = Vec::new();
    safe_serialize(&back, &mut again, LIMIT).expect("a configuration serializes");
    assert!(bytes == again, "a built configuration reads back changed");
    exercise::generate_and_use(config);
}
