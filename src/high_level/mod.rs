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
//! [`FheUint2`] ... [`FheUint256`] are [`FheUint<Id>`] for one width each; they wrap
//! around like `wrapping_*` on the clear type ([`U256`](crate::integer::U256) for
//! [`FheUint256`]). [`FheInt8`] ... [`FheInt128`]
//! ([`FheInt<Id>`]) are their signed twins, two's complement on the same blocks:
//! the same operators with `i8` ... `i128` clear operands, signed comparisons and
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

pub mod array;
mod batch;
mod bit_ops;
mod bitslice;
mod calibration;
mod casts;
mod clear_casts;
mod compact;
mod compat_ops;
mod compressed_list;
mod compressed_values;
mod config;
pub(crate) mod conformance;
mod cuda_server_key;
mod division;
mod fhe_bool;
mod fhe_int;
mod fhe_types;
mod fhe_uint;
mod global_state;
mod gpu_helpers;
mod gpu_size_traits;
mod key_capabilities;
mod key_switching;
mod key_tag;
mod keys;
mod list_size;
mod match_value;
mod operations;
pub(crate) mod operators;
mod oprf;
mod overflowing_operands;
mod public_key;
mod recording;
mod scalar_select;
mod serialization_config;
pub use list_size::ListSizeConstraint;
mod server_key_serde;
mod signed_ops;
mod storage;
pub(crate) mod traits;

pub use crate::scheduler::{get_number_of_gpus, Device, GpuIndex, GpuSelection};
pub use array::fhe_array_contains;
// The arrays' names at the crate root, as TFHE-rs has them (the `Gpu` ones are in
// `array`).
pub use array::types::*;
pub use batch::{BatchOutput, ValueSlot};
pub use bitslice::BitSlice;
pub use compact::{
    CompactCiphertextList, CompactCiphertextListBuilder, CompactCiphertextListExpander,
    CompactPublicKey, CompactPushable, CompressedCompactPublicKey, Expandable, ExpandedBlocks,
};
pub use compact::{CompactPushable as HlCompactable, Expandable as HlExpandable};
pub use compressed_list::CiphertextList;
pub use compressed_list::Compressible as HlCompressible;
pub use compressed_list::{
    CompressedCiphertextList, CompressedCiphertextListBuilder, Compressible, CompressibleValue,
};
pub use compressed_values::{
    CompressedFheBool, CompressedFheBoolConformanceParams, CompressedFheInt, CompressedFheInt128,
    CompressedFheInt128ConformanceParams, CompressedFheInt16, CompressedFheInt16ConformanceParams,
    CompressedFheInt32, CompressedFheInt32ConformanceParams, CompressedFheInt64,
    CompressedFheInt64ConformanceParams, CompressedFheInt8, CompressedFheInt8ConformanceParams,
    CompressedFheUint, CompressedFheUint10, CompressedFheUint10ConformanceParams,
    CompressedFheUint12, CompressedFheUint128, CompressedFheUint128ConformanceParams,
    CompressedFheUint12ConformanceParams, CompressedFheUint14,
    CompressedFheUint14ConformanceParams, CompressedFheUint16,
    CompressedFheUint16ConformanceParams, CompressedFheUint2, CompressedFheUint256,
    CompressedFheUint256ConformanceParams, CompressedFheUint2ConformanceParams,
    CompressedFheUint32, CompressedFheUint32ConformanceParams, CompressedFheUint4,
    CompressedFheUint4ConformanceParams, CompressedFheUint6, CompressedFheUint64,
    CompressedFheUint64ConformanceParams, CompressedFheUint6ConformanceParams, CompressedFheUint8,
    CompressedFheUint8ConformanceParams,
};
pub use config::{Config, ConfigBuilder};
pub use conformance::ParameterSetConformant;
pub use cuda_server_key::CudaServerKey;
pub use fhe_bool::{BoolOperand, FheBool};
pub use fhe_int::{
    FheInt, FheInt128, FheInt128Id, FheInt16, FheInt16Id, FheInt32, FheInt32Id, FheInt64,
    FheInt64Id, FheInt8, FheInt8Id, FheIntId, SignedClear, SignedOperand,
};
pub use fhe_types::{DataKind, FheTypes};
pub use fhe_uint::{
    FheUint, FheUint10, FheUint10Id, FheUint12, FheUint128, FheUint128Id, FheUint12Id, FheUint14,
    FheUint14Id, FheUint16, FheUint16Id, FheUint2, FheUint2Id, FheUint32, FheUint32Id, FheUint4,
    FheUint4Id, FheUint6, FheUint64, FheUint64Id, FheUint6Id, FheUint8, FheUint8Id, FheUintId,
    Operand, ShiftAmount, UnsignedClear,
};
pub use fhe_uint::{FheUint256, FheUint256Id};
pub use global_state::{
    get_pbs_count, reset_pbs_count, set_server_key, unset_server_key, with_server_key_as_context,
    IntoServerKey,
};
pub use gpu_helpers::{clear_gpu_thread_locals, CudaGpuChoice, CustomMultiGpuIndexes};
pub use gpu_size_traits::{
    AddSizeOnGpu, BitAndSizeOnGpu, BitNotSizeOnGpu, BitOrSizeOnGpu, BitXorSizeOnGpu,
    DivRemSizeOnGpu, DivSizeOnGpu, FheEqSizeOnGpu, FheMaxSizeOnGpu, FheMinSizeOnGpu,
    FheOrdSizeOnGpu, IfThenElseSizeOnGpu, MulSizeOnGpu, NegSizeOnGpu, RemSizeOnGpu,
    RotateLeftSizeOnGpu, RotateRightSizeOnGpu, ShlSizeOnGpu, ShrSizeOnGpu, SizeOnGpu, SubSizeOnGpu,
};
pub use key_switching::{FheKeyswitch, KeySwitchingKey};
pub use keys::{generate_keys, ClientKey, CompressedServerKey, ExecutionStats, KeyTag, ServerKey};
pub use match_value::MatchValues;
pub use operations::{BinaryOp, ComparisonOp};
pub use oprf::OprfSeed;
pub use oprf::{RangeForRandom, Seed};
pub use public_key::{CompressedPublicKey, PublicEncryptionKey, PublicKey};
pub use scalar_select::{Flip, IfThenZero, ScalarArm, ScalarIfThenElse};
pub use serialization_config::{
    CompactCiphertextListConformanceParams, DeserializationConfig, FheBoolConformanceParams,
    FheInt128ConformanceParams, FheInt16ConformanceParams, FheInt32ConformanceParams,
    FheInt64ConformanceParams, FheInt8ConformanceParams, FheUint10ConformanceParams,
    FheUint128ConformanceParams, FheUint12ConformanceParams, FheUint14ConformanceParams,
    FheUint16ConformanceParams, FheUint256ConformanceParams, FheUint2ConformanceParams,
    FheUint32ConformanceParams, FheUint4ConformanceParams, FheUint64ConformanceParams,
    FheUint6ConformanceParams, FheUint8ConformanceParams, NonConformantDeserializationConfig,
    SerializationConfig,
};
pub use traits::{
    CastFrom, CastInto, DivRem, FheDecrypt, FheEncrypt, FheEq, FheMax, FheMin, FheOrd,
    FheTrivialEncrypt, FheTryDecrypt, FheTryEncrypt, FheTryTrivialEncrypt, FheWait, IfThenElse,
    OverflowingAdd, OverflowingMul, OverflowingNeg, OverflowingSub, RotateLeft, RotateLeftAssign,
    RotateRight, RotateRightAssign,
};

/// The traits of the high-level API: `use gpufhe::prelude::*;`.
pub mod prelude {
    pub use super::array::FheSliceDotProduct;
    pub use super::traits::{
        CastFrom, CastInto, DivRem, FheDecrypt, FheEncrypt, FheEq, FheMax, FheMin, FheOrd,
        FheTrivialEncrypt, FheTryDecrypt, FheTryEncrypt, FheTryTrivialEncrypt, FheWait, IfThenElse,
        OverflowingAdd, OverflowingMul, OverflowingNeg, OverflowingSub, RotateLeft,
        RotateLeftAssign, RotateRight, RotateRightAssign,
    };
    pub use super::{
        AddSizeOnGpu, BitAndSizeOnGpu, BitNotSizeOnGpu, BitOrSizeOnGpu, BitXorSizeOnGpu,
        DivRemSizeOnGpu, DivSizeOnGpu, FheEqSizeOnGpu, FheMaxSizeOnGpu, FheMinSizeOnGpu,
        FheOrdSizeOnGpu, IfThenElseSizeOnGpu, MulSizeOnGpu, NegSizeOnGpu, RemSizeOnGpu,
        RotateLeftSizeOnGpu, RotateRightSizeOnGpu, ShlSizeOnGpu, ShrSizeOnGpu, SizeOnGpu,
        SubSizeOnGpu,
    };
    pub use super::{BitSlice, Flip, ScalarIfThenElse};
    pub use super::{CiphertextList, FheKeyswitch, IfThenZero, ParameterSetConformant};
    pub use crate::backend::gpu::{check_valid_cuda_malloc, check_valid_cuda_malloc_assert_oom};
}
