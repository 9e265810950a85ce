//! The high-level API: keys, encrypted integers and booleans with ordinary Rust
//! operators.
//!
//! ```
//! use gpufhe::prelude::*;
//! use gpufhe::{set_server_key, ClientKey, CompressedServerKey, ConfigBuilder, FheUint8};
//!
//! let config = ConfigBuilder::default().build();
//! let client_key = ClientKey::generate(config);
//! let compressed = CompressedServerKey::new(&client_key); // small: send it to the server
//! set_server_key(compressed.decompress()); // this thread computes with it
//!
//! let a = FheUint8::encrypt(0b1010_0110u8, &client_key);
//! let b = FheUint8::encrypt(0b0110_0011u8, &client_key);
//! let masked = (&a & &b) ^ 0xffu8;
//! let equal = masked.eq(!(&a & &b));
//! let clear: u8 = masked.decrypt(&client_key);
//! assert_eq!(clear, !(0b1010_0110u8 & 0b0110_0011));
//! assert!(equal.decrypt(&client_key));
//! ```
//!
//! # Keys
//!
//! A [`ClientKey`] (secret) encrypts and decrypts; its [`ServerKey`] (public,
//! or its [`CompressedServerKey`]) computes. Each client key has a random 64-bit
//! [`KeyTag`] that its server keys and every value encrypted under it carry:
//! computing on values of another key, or decrypting with another client key, is an
//! [`Error::KeyMismatch`](crate::Error::KeyMismatch) instead of garbage.
//!
//! Operations run with the server key of the current thread, set by
//! [`set_server_key`]; without one they fail with
//! [`Error::NoServerKey`](crate::Error::NoServerKey), whose message says to call
//! `set_server_key`. A [`ServerKey`] is cheap to clone, so each worker thread can
//! set its own.
//!
//! # Types and operations
//!
//! [`FheUint2`] ... [`FheUint2048`] are [`FheUint<Id>`] for one width each (every
//! width of TFHE-rs); they wrap around like `wrapping_*` on the clear type (`u8` ...
//! `u128`, [`U256`](crate::integer::U256) ... [`U2048`](crate::integer::U2048)).
//! [`FheInt2`] ... [`FheInt2048`] ([`FheInt<Id>`]) are their signed twins, two's
//! complement on the same blocks: the same operators with `i8` ... `i128`
//! ([`I256`](crate::integer::I256) ...) clear operands, signed comparisons and
//! `min`/`max`, an arithmetic `>>`, [`FheInt::abs`], and casts that sign-extend.
//! [`FheBool`] is what comparisons return. The operators `+ - * / % & | ^ ! << >>`
//! (`/` and `%` on unsigned types) and unary `-` (and their `*Assign` forms) take
//! owned or borrowed encrypted operands or a clear value of the same width (`u8` for
//! `FheUint8`; shifts and rotations take any clear unsigned amount); `clear - x`, `clear + x`, ...
//! work too. Comparisons ([`FheEq`], [`FheOrd`]), [`FheMin`] /
//! [`FheMax`], rotations, overflowing arithmetic, [`FheBool::select`], sums and
//! casts ([`CastFrom`]) are traits and methods, all in [`crate::prelude`];
//! [`FheUint::div_rem`] gives quotient and remainder in one circuit (an encrypted zero
//! divisor gives `MAX` and the dividend, as in TFHE-rs; a clear zero is an `Err`).
//!
//! # Errors and panics
//!
//! Every operation has a fallible form that returns [`crate::Result`]: the
//! inherent `try_add`, `try_sub`, ... for the std operators, and the `try_` methods
//! of the traits (which implement their panicking forms). Operators cannot return a
//! `Result`, so they panic with the error's message, at the caller's line.
//!
//! # Trivial encryption
//!
//! [`FheTrivialEncrypt::encrypt_trivial`] needs no key: a trivial value stores its
//! clear value, belongs to no key (its [`FheUint::tag`] is `None`) and works with
//! every key. As a right operand it counts as a clear value (`x & trivial(0)` costs
//! no bootstrap); otherwise its blocks enter circuits as constants, so an operation
//! on trivial values alone costs no bootstrap. Anyone can read it.
//!
//! # Batches
//!
//! [`FheUint::batch`], [`FheUint::batch_compare`] and [`FheUint::batch_sum`] run many
//! independent operations as **one** circuit: their bootstraps of the same depth run
//! in one backend step, so `n` additions take as many sequential bootstrap layers as
//! one. [`ServerKey::stats`] counts bootstraps and layers.
//!
//! # Arrays
//!
//! [`array`](mod@array) holds TFHE-rs's encrypted N-dimensional arrays ([`FheUint32Array`],
//! [`CpuFheUint32Array`], `array::GpuFheUint32Array`, ... and [`ClearArray`]): slices
//! that borrow sub-arrays, and elementwise operators that run as one batch over all
//! the elements.
//!
//! # GPUs
//!
//! [`CompressedServerKey::decompress_to_gpu`] gives a server key on every visible
//! GPU, [`CompressedServerKey::decompress_to_specific_gpu`] one on chosen GPUs
//! ([`GpuIndex`]); [`get_number_of_gpus`] counts them. The same operators then run
//! on the GPU: operands that live on the CPU or another GPU are copied to the key's
//! (first) GPU, results stay there ([`FheUint::current_device`] tells where a value
//! lives, [`FheUint::move_to_device`] moves it), and decryption and serialization
//! copy them back. A GPU key has a fixed pool of stream-bound workers per GPU; each
//! operation leases one for its circuit, so any number of threads that call
//! [`set_server_key`] with the key share its GPUs concurrently; a batch on a key with
//! several GPUs is split over them.
//!
//! # Compressed values and public keys
//!
//! [`CompressedFheUint`], [`CompressedFheInt`] and [`CompressedFheBool`] (aliases
//! [`CompressedFheUint8`], ...) are values encrypted with the client key as the
//! bodies of their blocks and one seed for all their masks, about 1,445× smaller
//! than the values they decompress into on the default parameters (see
//! [`CompressedFheUint`]); [`FheUint::compress`] (and [`FheInt::compress`],
//! [`FheBool::compress`]) makes them from computed values with the server key
//! (11.9× smaller). [`PublicKey`] and [`CompressedPublicKey`] (TFHE-rs's
//! classical public keys, here built on the [`CompactPublicKey`]) and the
//! [`CompactPublicKey`] itself encrypt single values without the secret
//! ([`PublicEncryptionKey`]); values of many types at once go into a
//! [`CompactCiphertextList`].
//!
//! # Serialization
//!
//! Every type here implements serde's traits; deserialization checks what it reads
//! (see [`crate::serialization`] for size-limited, versioned, validated I/O).
//!
//! # Layout
//!
//! By type, as TFHE-rs lays out its own, every import going down:
//!
//! | floor | modules |
//! |-------|---------|
//! | internal | `internals` (a value's storage, running a circuit, batch recording, compressed storage) |
//! | keys | `keys` (tag, client, server, compressed, GPU, public, key switching), `config`, `seed`, `global_state` |
//! | encryption traits | `traits::encrypt` |
//! | types | `booleans::base`, `integers::unsigned::base`, `integers::signed::base` |
//! | operands, operation traits | `integers::operands`, `traits::ops`, `traits::gpu_size` |
//! | operations | `booleans::ops`, `integers::{unsigned, signed}::{ops, scalar_ops, overflowing_ops, bits, division, compressed, oprf}`, `integers::{casts, select}`, `gpu` |
//! | batches, lists, arrays | `batch`, `lists`, [`array`](mod@array), `keys::{public, key_switching}` |
//! | serialization | `serialization` (conformance, builders) |

pub mod array;
mod batch;
pub(crate) mod booleans;
pub(crate) mod config;
pub(crate) mod global_state;
mod gpu;
pub(crate) mod integers;
pub(crate) mod internals;
pub(crate) mod keys;
pub(crate) mod lists;
pub mod prelude;
mod raw_parts;
pub(crate) mod re_randomization;
pub(crate) mod re_randomization_metadata;
pub(crate) mod seed;
pub(crate) mod serialization;
pub(crate) mod squashed;
pub(crate) mod tfhe_rs;
pub(crate) mod traits;
#[cfg(feature = "zk-pok")]
pub mod zk;

pub use crate::integer::{BinaryOp, CmpOp as ComparisonOp};
pub use crate::scheduler::{get_number_of_gpus, Device, GpuIndex, GpuSelection};
pub use array::fhe_array_contains;
// The arrays' names at the crate root, as TFHE-rs has them (the `Gpu` ones are in
// `array`).
pub use array::types::*;
pub use batch::{BatchOutput, ValueSlot};
pub use booleans::base::FheBool;
pub use booleans::compressed::{CompressedFheBool, CompressedFheBoolConformanceParams};
pub use booleans::ops::BoolOperand;
pub use config::{Config, ConfigBuilder};
pub use global_state::{
    clear_gpu_thread_locals, get_pbs_count, reset_pbs_count, set_server_key, unset_server_key,
    with_server_key_as_context, IntoServerKey,
};
pub use integers::operands::{
    Comparand, Operand, OverflowingOperand, ShiftAmount, SignedComparand, SignedOperand,
    SignedOverflowingOperand,
};
pub use integers::select::MatchValues;
pub use integers::signed::base::{FheInt, FheIntId, SignedClear};
pub use integers::signed::compressed::*;
pub use integers::signed::static_::*;
pub use integers::unsigned::base::{FheUint, FheUintId, UnsignedClear};
pub use integers::unsigned::compressed::*;
pub use integers::unsigned::oprf::RangeForRandom;
pub use integers::unsigned::static_::*;
pub use keys::client::ClientKey;
pub use keys::compact_public::{CompactPublicKey, CompressedCompactPublicKey};
pub use keys::compressed_server::CompressedServerKey;
pub use keys::cuda::{CudaGpuChoice, CudaServerKey, CustomMultiGpuIndexes};
pub use keys::generation::generate_keys;
pub use keys::key_switching::{FheKeyswitch, KeySwitchingKey};
pub use keys::public::{CompressedPublicKey, PublicEncryptionKey, PublicKey};
pub use keys::server::{ExecutionStats, ServerKey};
pub use keys::tag::KeyTag;
pub use lists::compact::CompactPushable as HlCompactable;
pub use lists::compact::{CompactCiphertextList, CompactCiphertextListBuilder, CompactPushable};
pub use lists::compressed::CiphertextList;
pub use lists::compressed::Compressible as HlCompressible;
pub use lists::compressed::{
    CompressedCiphertextList, CompressedCiphertextListBuilder, Compressible, CompressibleValue,
};
pub use lists::expander::Expandable as HlExpandable;
pub use lists::expander::{CompactCiphertextListExpander, Expandable, ExpandedBlocks};
pub use lists::kinds::{DataKind, FheTypes};
pub use raw_parts::{
    ClientKeyParts, CompressedOprfServerKey, CompressedReRandomizationKey,
    CompressedReRandomizationKeySwitchingKey, CompressedServerKeyParts, OprfPrivateKey,
    OprfServerKey, ReRandomizationKey, ReRandomizationKeySwitchingKey, ReRandomizationMetadata,
    ServerKeyParts, UnsupportedKeyPart,
};
pub use re_randomization::{
    ReRandContextAdd, ReRandomizationContext, ReRandomizationHashAlgo, ReRandomizationMode,
    ReRandomizationSeed, ReRandomizationSeedGen, ReRandomizationSeedHasher, ReRandomizationSupport,
    ReRandomize,
};
pub use seed::{OprfSeed, Seed};
pub use serialization::config::*;
pub use serialization::conformance::ParameterSetConformant;
pub use serialization::list_size::ListSizeConstraint;
pub use squashed::list::{
    CompressedSquashedNoiseCiphertextList, CompressedSquashedNoiseCiphertextListBuilder,
    SquashedNoiseCompressible, SquashedNoiseExpandable,
};
pub use squashed::list::{
    SquashedNoiseCompressible as HlSquashedNoiseCompressible,
    SquashedNoiseExpandable as HlSquashedNoiseExpandable,
};
pub use squashed::{SquashNoise, SquashedNoiseFheBool, SquashedNoiseFheInt, SquashedNoiseFheUint};
pub use tfhe_rs::safe::{
    DeserializationConfig, NonConformantDeserializationConfig, SerializationConfig,
};
pub use traits::gpu_size::{
    AddSizeOnGpu, BitAndSizeOnGpu, BitNotSizeOnGpu, BitOrSizeOnGpu, BitXorSizeOnGpu,
    DivRemSizeOnGpu, DivSizeOnGpu, FheEqSizeOnGpu, FheMaxSizeOnGpu, FheMinSizeOnGpu,
    FheOrdSizeOnGpu, IfThenElseSizeOnGpu, MulSizeOnGpu, NegSizeOnGpu, RemSizeOnGpu,
    RotateLeftSizeOnGpu, RotateRightSizeOnGpu, ShlSizeOnGpu, ShrSizeOnGpu, SizeOnGpu, SubSizeOnGpu,
};
pub use traits::{
    BitSlice, CastFrom, CastInto, DivRem, FheDecrypt, FheEncrypt, FheEq, FheMax, FheMin, FheOrd,
    FheTrivialEncrypt, FheTryDecrypt, FheTryEncrypt, FheTryTrivialEncrypt, FheWait, Flip,
    FusedMulScalarDiv, FusedScalarMulScalarDiv, IfThenElse, IfThenZero, OverflowingAdd,
    OverflowingMul, OverflowingNeg, OverflowingSub, RotateLeft, RotateLeftAssign, RotateRight,
    RotateRightAssign, ScalarArm, ScalarIfThenElse,
};
#[cfg(feature = "zk-pok")]
pub use zk::{
    IntegerProvenCompactCiphertextListConformanceParams as ProvenCompactCiphertextListConformanceParams,
    ProvenCompactCiphertextList,
};
