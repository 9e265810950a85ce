//! Size-limited, versioned and validated serialization of keys and ciphertexts.
//!
//! Every high-level type implements serde's `Serialize` and `Deserialize` (its
//! deserialization checks what it reads); [`safe_serialize`] and
//! [`safe_deserialize`] add what untrusted input needs on top:
//!
//! - a header: the magic bytes [`SERIALIZATION_MAGIC`], the format version
//!   [`SERIALIZATION_VERSION`] (`u32`, little endian), the length of the type name
//!   (one byte, at most [`MAX_TYPE_NAME_LEN`]) and the type name (e.g. `FheUint8`),
//!   so that bytes of one type are never read as another;
//! - a size limit: at most `size_limit` bytes are read, header included, and no
//!   length read from the input allocates more than it has actually read (a
//!   forged length of 2^60 elements is an `Err`, not an allocation);
//! - validation: dimensions consistent with the parameters, parameters valid,
//!   block counts matching the type (a [`crate::FheUint64`] has 32 blocks on the
//!   default parameters), every block clean, seeded key bodies matching their
//!   shapes, Fourier coefficients finite;
//! - optionally, conformance ([`safe_deserialize_conformant`]) to a [`Config`](crate::Config) or to
//!   a key: ciphertext blocks of that configuration's parameters, keys generated for
//!   it, and, given a key, ciphertexts and keys with its tag.
//!
//! The payload is bincode 2 (fixed-width little-endian integers). Malformed input
//! (truncated, of another type or version, too large, with inconsistent lengths,
//! parameters or bookkeeping) returns an `Err`, never panics. Ciphertext
//! coefficients are not authenticated: a modified coefficient gives another valid
//! ciphertext.
//!
//! Values are written and read in many small pieces: wrap files and sockets in a
//! [`std::io::BufWriter`] / [`std::io::BufReader`].
//!
//! ```
//! use gpufhe::prelude::*;
//! use gpufhe::serialization::{safe_deserialize_conformant, safe_serialize, safe_deserialize};
//! use gpufhe::{ClientKey, ConfigBuilder, FheUint16, FheUint8};
//! let client_key = ClientKey::generate(ConfigBuilder::default());
//! let x = FheUint8::encrypt(42u8, &client_key);
//! let mut bytes = Vec::new();
//! safe_serialize(&x, &mut bytes, 1 << 20).unwrap();
//! let y: FheUint8 =
//!     safe_deserialize_conformant(bytes.as_slice(), 1 << 20, &(&client_key).into()).unwrap();
//! assert_eq!(FheDecrypt::<u8>::decrypt(&y, &client_key), 42);
//! assert!(safe_deserialize::<FheUint16>(bytes.as_slice(), 1 << 20).is_err()); // other type
//! assert!(safe_deserialize::<FheUint8>(bytes.as_slice(), 1000).is_err()); // over the limit
//! ```

pub(crate) mod codec;

// The public face of serialization: the codec below and the conformance checks
// of high-level values above, at their historical paths. layers: up
pub use crate::high_level::serialization::conformance::{
    safe_deserialize_conformant, ConformanceParams, Conformant,
};
pub use codec::{
    safe_deserialize, safe_deserialize_default, safe_serialize, with_insecure_parameters_allowed,
    SafeSerialization, MAX_TYPE_NAME_LEN, OLDEST_SERIALIZATION_VERSION, SERIALIZATION_MAGIC,
    SERIALIZATION_VERSION,
};
