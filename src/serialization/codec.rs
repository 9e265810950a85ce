//! The codec of [`crate::serialization`]: the header, the size limit, the format
//! version being read and the scope that admits insecure parameters. It sits below
//! every layer that serializes (shortint reads its parameters through it) and
//! knows no type above it; the high level's conformance checks and the
//! [`SafeSerialization`] impls of its types live in
//! [`crate::high_level`]'s `conformance` module.

use crate::error::{Error, Result};
use bincode::config::{Configuration, Fixint, LittleEndian, NoLimit};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::{Read, Write};

/// The first bytes of everything [`safe_serialize`] writes.
pub const SERIALIZATION_MAGIC: [u8; 8] = *b"GPUFHE\0\0";

/// The version of the format [`safe_serialize`] writes. [`safe_deserialize`] also
/// reads version 1, written before parameter sets named their blind rotation
/// ([`crate::shortint::PbsKind`]): its parameters read as classical. Versions 1
/// and 2 stored the masks of seeded values as a 32-byte ChaCha20 seed; version 3
/// stores TFHE-rs's AES-CTR [`crate::core_crypto::CompressionSeed`], and seeded
/// values of older versions are refused with an error that says to regenerate them.
/// Version 4 writes which form a `PublicKey` or `CompressedPublicKey` has (compact
/// or TFHE-rs's classical one); earlier versions hold the compact form only, and
/// are read as such. Version 5 stores the seeded packing keyswitching keys of
/// compression in TFHE-rs's order (their masks drawn in that order); those of
/// older versions are refused with an error that says to regenerate them.
pub const SERIALIZATION_VERSION: u32 = 5;

/// The first format version whose seeded values hold a
/// [`crate::core_crypto::CompressionSeed`].
const FIRST_AES_SEED_VERSION: u32 = 3;

/// The first format version whose seeded packing keys are in TFHE-rs's order.
const FIRST_TFHE_RS_PACKING_ORDER_VERSION: u32 = 5;

/// The oldest format version [`safe_deserialize`] reads.
pub const OLDEST_SERIALIZATION_VERSION: u32 = 1;

thread_local! {
    /// The format version of the payload this thread is reading, while
    /// [`safe_deserialize`] reads one (values whose layout changed read by it).
    static READING_VERSION: std::cell::Cell<u32> = const { std::cell::Cell::new(SERIALIZATION_VERSION) };
}

/// The format version of the payload being read on this thread
/// ([`SERIALIZATION_VERSION`] outside [`safe_deserialize`]).
pub(crate) fn reading_version() -> u32 {
    READING_VERSION.with(|v| v.get())
}

/// Runs `f` with [`reading_version`] returning `version`, restored afterwards (even
/// if `f` panics).
fn with_reading_version<R>(version: u32, f: impl FnOnce() -> R) -> R {
    struct Restore(u32);
    impl Drop for Restore {
        fn drop(&mut self) {
            READING_VERSION.with(|v| v.set(self.0));
        }
    }
    let _restore = Restore(READING_VERSION.with(|v| v.replace(version)));
    f()
}

/// The longest type name a header may hold.
pub const MAX_TYPE_NAME_LEN: usize = 64;

/// The bincode configuration of the payload.
const CODEC: Configuration<LittleEndian, Fixint, NoLimit> =
    bincode::config::standard().with_fixed_int_encoding();

/// `value`'s payload bytes as [`safe_serialize`] writes them after the header (for
/// digests of a value's content, such as a seeded key's tag).
pub(crate) fn payload_bytes<T: Serialize>(value: &T, what: &str) -> Result<Vec<u8>> {
    bincode::serde::encode_to_vec(value, CODEC)
        .map_err(|e| Error::Serialization(format!("cannot encode a {what}: {e}")))
}

/// A type [`safe_serialize`] and [`safe_deserialize`] handle: serde traits (whose
/// deserialization validates the value) and the name written in the header.
pub trait SafeSerialization: Serialize + DeserializeOwned {
    /// The name written in the header, e.g. `"FheUint8"`.
    const TYPE_NAME: &'static str;
    /// The size limit of [`safe_deserialize_default`]: a generous bound on a value
    /// of this type under any parameters a server would use (1 MiB for a
    /// configuration, 64 MiB for a value, 2 GiB for a key; a key of the default
    /// parameters takes about 120 MiB, an `FheUint128` about 1 MiB).
    const DEFAULT_SIZE_LIMIT: u64;
    /// The most host memory a value read by [`safe_deserialize_default`] may need
    /// when it is expanded ([`SafeSerialization::expanded_bytes`]): 4 GiB. A default
    /// key expands to about 172 MiB (503 MiB multi-bit); a compact list of 8,192
    /// `FheUint64` on the default parameters to 4 GiB. Above it, read with
    /// [`safe_deserialize`] and an explicit size limit; expanding is then still
    /// checked against the memory budget ([`crate::memory`]).
    const DEFAULT_EXPANDED_LIMIT: u64 = 4 << 30;
    /// The host memory, in bytes, that expanding this value needs (a compact list's
    /// [`expand`](crate::CompactCiphertextList::expand), the values of a compressed
    /// list, a compressed key's decompression); 0 for values used as they are.
    fn expanded_bytes(&self) -> u64 {
        0
    }
}

/// The header of a value of type `name`.
fn header(name: &str) -> Result<Vec<u8>> {
    let len = u8::try_from(name.len())
        .ok()
        .filter(|&l| l as usize <= MAX_TYPE_NAME_LEN)
        .ok_or_else(|| {
            Error::Serialization(format!(
                "type name {name:?} is longer than {MAX_TYPE_NAME_LEN} bytes"
            ))
        })?;
    let mut out = Vec::with_capacity(SERIALIZATION_MAGIC.len() + 5 + name.len());
    out.extend_from_slice(&SERIALIZATION_MAGIC);
    out.extend_from_slice(&SERIALIZATION_VERSION.to_le_bytes());
    out.push(len);
    out.extend_from_slice(name.as_bytes());
    Ok(out)
}

/// Writes the header and `value` to `writer`; `Err` if that would take more than
/// `size_limit` bytes (nothing is written then) or writing fails.
pub fn safe_serialize<T: SafeSerialization>(
    value: &T,
    mut writer: impl Write,
    size_limit: u64,
) -> Result<()> {
    let header = header(T::TYPE_NAME)?;
    let payload = bincode::serde::encode_into_std_write(value, &mut std::io::sink(), CODEC)
        .map_err(|e| Error::Serialization(format!("cannot encode a {}: {e}", T::TYPE_NAME)))?;
    let total = header.len() as u64 + payload as u64;
    if total > size_limit {
        return Err(Error::Serialization(format!(
            "a serialized {} takes {total} bytes, more than the limit of {size_limit}",
            T::TYPE_NAME
        )));
    }
    writer
        .write_all(&header)
        .map_err(|e| Error::Serialization(format!("cannot write the header: {e}")))?;
    bincode::serde::encode_into_std_write(value, &mut writer, CODEC)
        .map_err(|e| Error::Serialization(format!("cannot write a {}: {e}", T::TYPE_NAME)))?;
    Ok(())
}

/// What the header of TFHE-rs's `safe_serialize` says, when `start` (the first 8
/// bytes) and what follows in `reader` are one: the length of its header version
/// (`"0.5"` in TFHE-rs 1.x), the version, a versioning mode (`u32`: 0 versioned, 1
/// not) and its version string, then the type name, each string a `u64` length and
/// its bytes. `None` if they are not (strings are read only while short).
fn tfhe_rs_header(start: [u8; 8], reader: &mut impl Read) -> Option<String> {
    fn string(len: u64, reader: &mut impl Read) -> Option<String> {
        let mut bytes = vec![0u8; usize::try_from(len).ok().filter(|&n| n <= 128)?];
        reader.read_exact(&mut bytes).ok()?;
        String::from_utf8(bytes).ok()
    }
    fn u64_le(reader: &mut impl Read) -> Option<u64> {
        let mut bytes = [0u8; 8];
        reader.read_exact(&mut bytes).ok()?;
        Some(u64::from_le_bytes(bytes))
    }
    let header_version = string(u64::from_le_bytes(start), reader)?;
    if !header_version.starts_with("0.") {
        return None;
    }
    let mut mode = [0u8; 4];
    reader.read_exact(&mut mode).ok()?;
    let mode = match u32::from_le_bytes(mode) {
        0 => "versioned",
        1 => "unversioned",
        _ => return None,
    };
    let mode_version = string(u64_le(reader)?, reader)?;
    let name = string(u64_le(reader)?, reader)?;
    Some(format!(
        "a {name}, serialization header {header_version}, {mode} {mode_version}"
    ))
}

/// Reads exactly `out.len()` bytes of the header.
fn read_header_bytes(reader: &mut impl Read, out: &mut [u8], what: &str) -> Result<()> {
    reader
        .read_exact(out)
        .map_err(|e| Error::Serialization(format!("cannot read the {what} of the header: {e}")))
}

/// Reads a value written by [`safe_serialize`], reading at most `size_limit` bytes
/// from `reader` (header included). `Err` if the header is not that of a `T` in this
/// format version, the input is truncated, too large, malformed, or its value fails
/// validation (see the module documentation). It reads exactly one value: what
/// follows it stays in the reader, so several values can be read from one stream.
pub fn safe_deserialize<T: SafeSerialization>(reader: impl Read, size_limit: u64) -> Result<T> {
    let mut limited = reader.take(size_limit);
    let mut magic = [0u8; SERIALIZATION_MAGIC.len()];
    read_header_bytes(&mut limited, &mut magic, "magic bytes")?;
    if magic != SERIALIZATION_MAGIC {
        if let Some(found) = tfhe_rs_header(magic, &mut limited) {
            return Err(Error::Serialization(format!(
                "the input is TFHE-rs data ({found}), not gpufhe's own format: read it \
                 with gpufhe::safe_serialization::safe_deserialize"
            )));
        }
        return Err(Error::Serialization(
            "the input does not start with gpufhe's magic bytes".into(),
        ));
    }
    let mut version = [0u8; 4];
    read_header_bytes(&mut limited, &mut version, "format version")?;
    let version = u32::from_le_bytes(version);
    if !(OLDEST_SERIALIZATION_VERSION..=SERIALIZATION_VERSION).contains(&version) {
        return Err(Error::Serialization(format!(
            "format version {version} is not supported (this build reads versions \
             {OLDEST_SERIALIZATION_VERSION} to {SERIALIZATION_VERSION})"
        )));
    }
    let mut len = [0u8; 1];
    read_header_bytes(&mut limited, &mut len, "type name length")?;
    let len = len[0] as usize;
    if len > MAX_TYPE_NAME_LEN {
        return Err(Error::Serialization(format!(
            "the type name is {len} bytes long, more than {MAX_TYPE_NAME_LEN}"
        )));
    }
    let mut name = [0u8; MAX_TYPE_NAME_LEN];
    read_header_bytes(&mut limited, &mut name[..len], "type name")?;
    if &name[..len] != T::TYPE_NAME.as_bytes() {
        return Err(Error::Serialization(format!(
            "the input holds a {}, not a {}",
            String::from_utf8_lossy(&name[..len]),
            T::TYPE_NAME
        )));
    }
    with_reading_version(version, || {
        crate::core_crypto::with_legacy_seeds(version < FIRST_AES_SEED_VERSION, || {
            crate::core_crypto::with_legacy_packing_order(
                version < FIRST_TFHE_RS_PACKING_ORDER_VERSION,
                || bincode::serde::decode_from_std_read(&mut limited, CODEC),
            )
        })
    })
    .map_err(|e| {
        if limited.limit() == 0 {
            Error::Serialization(format!(
                "a {} needs more than the size limit of {size_limit} bytes ({e})",
                T::TYPE_NAME
            ))
        } else {
            Error::Serialization(format!("cannot read a {}: {e}", T::TYPE_NAME))
        }
    })
}

thread_local! {
    /// How many [`with_insecure_parameters_allowed`] scopes the thread is in.
    static INSECURE_ALLOWED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Runs `read` with parameter sets below the security floor accepted by
/// deserialization on the calling thread (by [`safe_deserialize`] and by plain serde
/// alike); outside such a scope, a deserialized [`crate::shortint::ShortintParameters`]
/// (inside a [`Config`](crate::Config) or a key) that fails
/// [`check_security`](crate::shortint::ShortintParameters::check_security) is an
/// `Err`. The explicitly named path for test parameters and experiments, like
/// [`crate::ConfigBuilder::with_insecure_custom_parameters`] for building them.
///
/// ```
/// use gpufhe::serialization::{safe_deserialize, safe_serialize, with_insecure_parameters_allowed};
/// use gpufhe::shortint::DEFAULT_PARAMETERS;
/// use gpufhe::{Config, ConfigBuilder};
/// let mut weak = DEFAULT_PARAMETERS;
/// weak.lwe_dimension.0 = 512;
/// let config = ConfigBuilder::default().with_insecure_custom_parameters(weak)?.build();
/// let mut bytes = Vec::new();
/// safe_serialize(&config, &mut bytes, 1 << 20)?;
/// assert!(safe_deserialize::<Config>(bytes.as_slice(), 1 << 20).is_err());
/// let read: Config = with_insecure_parameters_allowed(|| safe_deserialize(bytes.as_slice(), 1 << 20))?;
/// assert_eq!(read, config);
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub fn with_insecure_parameters_allowed<R>(read: impl FnOnce() -> R) -> R {
    struct Scope;
    impl Drop for Scope {
        fn drop(&mut self) {
            INSECURE_ALLOWED.with(|c| c.set(c.get() - 1));
        }
    }
    INSECURE_ALLOWED.with(|c| c.set(c.get() + 1));
    let _scope = Scope;
    read()
}

/// Whether the calling thread is inside [`with_insecure_parameters_allowed`].
pub(crate) fn insecure_parameters_allowed() -> bool {
    INSECURE_ALLOWED.with(|c| c.get() > 0)
}

/// [`safe_deserialize`] with the type's default size limit
/// ([`SafeSerialization::DEFAULT_SIZE_LIMIT`]), then `Err` if the value would expand
/// to more than [`SafeSerialization::DEFAULT_EXPANDED_LIMIT`] bytes.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::serialization::{safe_deserialize_default, safe_serialize};
/// use gpufhe::{ClientKey, ConfigBuilder, FheUint8};
/// let client_key = ClientKey::generate(ConfigBuilder::default());
/// let mut bytes = Vec::new();
/// safe_serialize(&FheUint8::encrypt(7u8, &client_key), &mut bytes, 1 << 20)?;
/// let x: FheUint8 = safe_deserialize_default(bytes.as_slice())?;
/// assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 7);
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub fn safe_deserialize_default<T: SafeSerialization>(reader: impl Read) -> Result<T> {
    let value: T = safe_deserialize(reader, T::DEFAULT_SIZE_LIMIT)?;
    let expanded = value.expanded_bytes();
    if expanded > T::DEFAULT_EXPANDED_LIMIT {
        return Err(Error::Serialization(format!(
            "a {} that expands to {expanded} bytes, more than the default limit of {} \
             (read it with safe_deserialize and a limit of your own)",
            T::TYPE_NAME,
            T::DEFAULT_EXPANDED_LIMIT
        )));
    }
    Ok(value)
}
