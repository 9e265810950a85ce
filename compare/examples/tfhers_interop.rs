//! TFHE-rs 1.8.2 and gpufhe side by side in one program, exchanging keys and
//! ciphertexts through `safe_serialization` as their users do (issue 37's check):
//!
//! - a TFHE-rs client with a gpufhe server: TFHE-rs makes the keys and encrypts
//!   FheUint8, FheUint64, FheInt8, FheBool and a CompressedFheUint8; gpufhe reads
//!   the ServerKey (then, separately, the CompressedServerKey, decompressed), sets it,
//!   reads the values, computes (`+`, `*`, `<`, `&`, `if_then_else`, decompression)
//!   and writes the results, which TFHE-rs reads and decrypts;
//! - a gpufhe client with a TFHE-rs server: the reverse;
//! - client keys both ways: values encrypted by one library decrypt with the other
//!   library's client key read from bytes, and the reverse;
//! - compact public keys (plain and compressed) both ways: one library's key is read
//!   by the other, which builds compact lists (`build` and `build_packed`) that the
//!   first expands (with its server key set) and decrypts;
//! - compact lists both ways: one library builds, the other reads, expands
//!   (`get::<FheUint8>(i)`, ...) with the server key it read from the first's bytes,
//!   and sends the values back to be decrypted;
//! - generic helpers (`fn f<T: Serialize + Versionize + Named>`) on both crates' traits;
//! - keyswitching keys and classical public keys (plain and compressed) both ways
//!   (`support/tfhers_keys.rs`): one library's key read by the other, which switches
//!   or encrypts a value that the first decrypts;
//! - zero-knowledge-proven compact lists both ways (`support/tfhers_zk.rs`): one
//!   library proves (ZK v2, both compute loads), the other verifies and expands;
//! - dedicated compact public-key parameters both ways (`support/tfhers_dedicated.rs`):
//!   a client of one library with a dedicated public key, whose lists (plain and
//!   packed) the other library's server expands (casting them to its computation key)
//!   and computes on, the results decrypted by the client;
//! - server keys with compression keys (plain and compressed) both ways
//!   (`support/tfhers_compression.rs`): one library's key read by the other, which
//!   compresses the first's values into a CompressedCiphertextList that the first
//!   decompresses and decrypts, and decompresses the first's lists;
//! - re-randomization both ways (`support/tfhers_rerand_interop.rs`): one library's
//!   keys and values re-randomized by the other with a context give the same bytes as
//!   the first's own re-randomization, and decrypt with the first's client key.
//!
//! Each scenario prints PASS, or FAIL with the error (or panic) at its first failing
//! step, and the program goes on; it exits with 1 when one failed.
//!
//! ```text
//! cd compare && cargo run --release --example tfhers_interop -- --small
//! cd compare && cargo run --release --example tfhers_interop
//! ```
//!
//! `--small`: the small insecure parameters (`support/tfhers.rs`, gpufhe's
//! `PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2`; gpufhe reads them inside
//! `with_insecure_parameters_allowed`), seconds in all. Without it: both libraries'
//! default configurations (TFHE-rs's `PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`,
//! with its dedicated OPRF key), minutes on two cores. `--multi-bit`: both
//! libraries' multi-bit parameters of grouping factor 4 (with `--small`, the small
//! ones of that factor); gpufhe reads TFHE-rs's multi-bit `ServerKey` and writes back
//! those it read, but neither makes nor reads multi-bit `CompressedServerKey`s in
//! TFHE-rs's form yet. A first argument not starting with `--` selects the
//! scenarios whose name contains it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

#[path = "support/tfhers.rs"]
mod tfhers;
#[path = "support/tfhers_zk.rs"]
mod tfhers_zk;
#[path = "support/tfhers_compression.rs"]
mod tfhers_compression;
#[path = "support/tfhers_dedicated.rs"]
mod tfhers_dedicated;
#[path = "support/tfhers_keys.rs"]
mod tfhers_keys;
#[path = "support/tfhers_rerand_interop.rs"]
mod tfhers_rerand_interop;

/// The serialized size limit of every read and write.
const LIMIT: u64 = 1 << 32;

/// A clear value, the kind of its ciphertext in the bytes beside it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Clear {
    U8(u8),
    U64(u64),
    I8(i8),
    Bool(bool),
}

/// Serialized ciphertexts and what they should decrypt to.
type Values = Vec<(&'static str, Clear, Vec<u8>)>;

/// The inputs a client sends (see [`expected`] for the results).
const A: u8 = 201;
const B: u8 = 87;
const X: u64 = 0xfedc_ba98_7654_3210;
const Y: u64 = 0x0123_4567_89ab_cdef;
const P: i8 = -77;
const Q: i8 = 45;
const T: bool = true;
const C: u8 = 42;

/// The results a server computes from the inputs, in [`Values`] order.
fn expected() -> Vec<(&'static str, Clear)> {
    vec![
        ("a + b", Clear::U8(A.wrapping_add(B))),
        ("a * b", Clear::U8(A.wrapping_mul(B))),
        ("a < b", Clear::Bool(A < B)),
        ("a & b", Clear::U8(A & B)),
        ("t ? a : b", Clear::U8(if T { A } else { B })),
        ("x + y", Clear::U64(X.wrapping_add(Y))),
        ("x * y", Clear::U64(X.wrapping_mul(Y))),
        ("x < y", Clear::Bool(X < Y)),
        ("p + q", Clear::I8(P.wrapping_add(Q))),
        ("p * q", Clear::I8(P.wrapping_mul(Q))),
        ("p < q", Clear::Bool(P < Q)),
        ("t & (a < b)", Clear::Bool(T & (A < B))),
        ("decompress(c) + a", Clear::U8(C.wrapping_add(A))),
    ]
}

/// The values pushed into every compact list, in order.
fn list_clears() -> Vec<Clear> {
    vec![Clear::U8(A), Clear::Bool(T), Clear::I8(P), Clear::U64(X)]
}

/// One library's side of every exchange, written once for both: their high-level
/// APIs have the same names. `$read_scope` runs each read (gpufhe reads insecure
/// parameters only inside `with_insecure_parameters_allowed`).
macro_rules! side {
    ($side:ident, $krate:ident, $read_scope:path) => {
        mod $side {
            use super::{expected, list_clears, Clear, Values, A, B, C, LIMIT, P, Q, T, X, Y};
            use serde::de::DeserializeOwned;
            use serde::Serialize;
            use $krate::named::Named;
            use $krate::prelude::*;
            use $krate::safe_serialization::{safe_deserialize, safe_serialize};
            use $krate::{
                set_server_key, ClientKey, CompactCiphertextList, CompactPublicKey,
                CompressedCompactPublicKey, CompressedFheUint8, CompressedServerKey, FheBool,
                FheInt8, FheUint64, FheUint8, ServerKey, Unversionize, Versionize,
            };

            /// A generic helper as TFHE-rs's users write it.
            pub fn to_bytes<T: Serialize + Versionize + Named>(
                value: &T,
            ) -> Result<Vec<u8>, String> {
                let mut bytes = Vec::new();
                safe_serialize(value, &mut bytes, LIMIT)
                    .map_err(|e| format!("{}: writing {}: {e}", stringify!($side), T::NAME))?;
                Ok(bytes)
            }

            /// Its reading twin.
            pub fn from_bytes<T: DeserializeOwned + Unversionize + Named>(
                bytes: &[u8],
            ) -> Result<T, String> {
                $read_scope(|| safe_deserialize(bytes, LIMIT))
                    .map_err(|e| format!("{}: reading {}: {e}", stringify!($side), T::NAME))
            }

            fn err(what: &str, e: impl std::fmt::Display) -> String {
                format!("{}: {what}: {e}", stringify!($side))
            }

            /// Encrypts `clear` and writes it.
            fn encrypt(clear: Clear, key: &ClientKey) -> Result<Vec<u8>, String> {
                match clear {
                    Clear::U8(v) => to_bytes(&FheUint8::encrypt(v, key)),
                    Clear::U64(v) => to_bytes(&FheUint64::encrypt(v, key)),
                    Clear::I8(v) => to_bytes(&FheInt8::encrypt(v, key)),
                    Clear::Bool(v) => to_bytes(&FheBool::encrypt(v, key)),
                }
            }

            /// Reads a value of `clear`'s kind and decrypts it.
            fn decrypt(clear: Clear, bytes: &[u8], key: &ClientKey) -> Result<Clear, String> {
                Ok(match clear {
                    Clear::U8(_) => Clear::U8(from_bytes::<FheUint8>(bytes)?.decrypt(key)),
                    Clear::U64(_) => Clear::U64(from_bytes::<FheUint64>(bytes)?.decrypt(key)),
                    Clear::I8(_) => Clear::I8(from_bytes::<FheInt8>(bytes)?.decrypt(key)),
                    Clear::Bool(_) => Clear::Bool(from_bytes::<FheBool>(bytes)?.decrypt(key)),
                })
            }

            /// Checks every value decrypts to its clear value.
            pub fn check(values: &Values, key: &ClientKey) -> Result<(), String> {
                for (name, clear, bytes) in values {
                    let got = decrypt(*clear, bytes, key)?;
                    if got != *clear {
                        return Err(format!(
                            "{}: {name} decrypts to {got:?}, not {clear:?}",
                            stringify!($side)
                        ));
                    }
                }
                Ok(())
            }

            /// What a client sends: its keys and encrypted inputs.
            pub struct Sent {
                pub server_key: Vec<u8>,
                pub compressed_server_key: Vec<u8>,
                pub inputs: Values,
            }

            /// Makes the server keys of `key` and encrypts the inputs.
            pub fn client(key: &ClientKey) -> Result<Sent, String> {
                let mut inputs = Values::new();
                for (name, clear) in [
                    ("a", Clear::U8(A)),
                    ("b", Clear::U8(B)),
                    ("x", Clear::U64(X)),
                    ("y", Clear::U64(Y)),
                    ("p", Clear::I8(P)),
                    ("q", Clear::I8(Q)),
                    ("t", Clear::Bool(T)),
                ] {
                    inputs.push((name, clear, encrypt(clear, key)?));
                }
                let c = CompressedFheUint8::encrypt(C, key);
                inputs.push(("c", Clear::U8(C), to_bytes(&c)?));
                Ok(Sent {
                    server_key: to_bytes(&ServerKey::new(key))?,
                    compressed_server_key: to_bytes(&CompressedServerKey::new(key))?,
                    inputs,
                })
            }

            /// Reads the server key (the compressed one, decompressed, when
            /// `compressed`), checks that it is written back byte for byte, and
            /// sets it.
            pub fn set_key(sent: &Sent, compressed: bool) -> Result<(), String> {
                let exact = |again: Vec<u8>, sent: &[u8]| {
                    if again == sent {
                        Ok(())
                    } else {
                        Err("the server key read is not written back byte for byte".to_string())
                    }
                };
                if compressed {
                    let key: CompressedServerKey = from_bytes(&sent.compressed_server_key)?;
                    exact(to_bytes(&key)?, &sent.compressed_server_key)?;
                    set_server_key(key.decompress());
                } else {
                    let key: ServerKey = from_bytes(&sent.server_key)?;
                    exact(to_bytes(&key)?, &sent.server_key)?;
                    set_server_key(key);
                }
                Ok(())
            }

            /// Reads the server key and the inputs, computes, writes the results.
            pub fn server(sent: &Sent, compressed: bool) -> Result<Values, String> {
                set_key(sent, compressed)?;
                let input =
                    |name: &str| &sent.inputs.iter().find(|(n, _, _)| *n == name).unwrap().2;
                let a: FheUint8 = from_bytes(input("a"))?;
                let b: FheUint8 = from_bytes(input("b"))?;
                let x: FheUint64 = from_bytes(input("x"))?;
                let y: FheUint64 = from_bytes(input("y"))?;
                let p: FheInt8 = from_bytes(input("p"))?;
                let q: FheInt8 = from_bytes(input("q"))?;
                let t: FheBool = from_bytes(input("t"))?;
                let c: CompressedFheUint8 = from_bytes(input("c"))?;
                let a_lt_b = a.lt(&b);
                let results = vec![
                    to_bytes(&(&a + &b))?,
                    to_bytes(&(&a * &b))?,
                    to_bytes(&a_lt_b)?,
                    to_bytes(&(&a & &b))?,
                    to_bytes(&t.if_then_else(&a, &b))?,
                    to_bytes(&(&x + &y))?,
                    to_bytes(&(&x * &y))?,
                    to_bytes(&x.lt(&y))?,
                    to_bytes(&(&p + &q))?,
                    to_bytes(&(&p * &q))?,
                    to_bytes(&p.lt(&q))?,
                    to_bytes(&(&t & &a_lt_b))?,
                    to_bytes(&(&c.decompress() + &a))?,
                ];
                Ok(expected()
                    .into_iter()
                    .zip(results)
                    .map(|((name, clear), bytes)| (name, clear, bytes))
                    .collect())
            }

            /// Encrypts one value of each kind with `key`.
            pub fn encrypt_all(key: &ClientKey) -> Result<Values, String> {
                let clears = [Clear::U8(A), Clear::U64(X), Clear::I8(P), Clear::Bool(T)];
                let mut values = Values::new();
                for clear in clears {
                    values.push(("value", clear, encrypt(clear, key)?));
                }
                Ok(values)
            }

            /// The client key read from `bytes` decrypts `values`, and what it
            /// encrypts is returned.
            pub fn with_read_client_key(bytes: &[u8], values: &Values) -> Result<Values, String> {
                let key: ClientKey = from_bytes(bytes)?;
                check(values, &key)?;
                encrypt_all(&key)
            }

            /// The compact public key (compressed, decompressed, when `compressed`)
            /// of `key`.
            pub fn public_key(key: &ClientKey, compressed: bool) -> Result<Vec<u8>, String> {
                if compressed {
                    to_bytes(&CompressedCompactPublicKey::new(key))
                } else {
                    to_bytes(&CompactPublicKey::new(key))
                }
            }

            /// Reads a compact public key and builds the two lists of
            /// [`list_clears`] with it (`build`, then `build_packed`).
            pub fn build_lists(key: &[u8], compressed: bool) -> Result<[Vec<u8>; 2], String> {
                let key: CompactPublicKey = if compressed {
                    from_bytes::<CompressedCompactPublicKey>(key)?.decompress()
                } else {
                    from_bytes(key)?
                };
                let mut builder = CompactCiphertextList::builder(&key);
                for clear in list_clears() {
                    match clear {
                        Clear::U8(v) => builder.push(v),
                        Clear::U64(v) => builder.push(v),
                        Clear::I8(v) => builder.push(v),
                        Clear::Bool(v) => builder.push(v),
                    };
                }
                Ok([
                    to_bytes(&builder.build())?,
                    to_bytes(&builder.build_packed())?,
                ])
            }

            /// Reads a compact list, expands it (with the server key set) and
            /// writes its values.
            pub fn expand(list: &[u8]) -> Result<Values, String> {
                let list: CompactCiphertextList = from_bytes(list)?;
                let expanded = list.expand().map_err(|e| err("expand", e))?;
                if expanded.len() != list_clears().len() {
                    return Err(err("expanded length", expanded.len()));
                }
                let mut values = Values::new();
                for (i, clear) in list_clears().into_iter().enumerate() {
                    let get = |e| err(&format!("get({i})"), e);
                    let missing = || err(&format!("get({i})"), "None");
                    let bytes = match clear {
                        Clear::U8(_) => to_bytes(
                            &expanded
                                .get::<FheUint8>(i)
                                .map_err(get)?
                                .ok_or_else(missing)?,
                        )?,
                        Clear::U64(_) => to_bytes(
                            &expanded
                                .get::<FheUint64>(i)
                                .map_err(get)?
                                .ok_or_else(missing)?,
                        )?,
                        Clear::I8(_) => to_bytes(
                            &expanded
                                .get::<FheInt8>(i)
                                .map_err(get)?
                                .ok_or_else(missing)?,
                        )?,
                        Clear::Bool(_) => to_bytes(
                            &expanded
                                .get::<FheBool>(i)
                                .map_err(get)?
                                .ok_or_else(missing)?,
                        )?,
                    };
                    values.push(("list value", clear, bytes));
                }
                Ok(values)
            }
        }
    };
}

/// TFHE-rs reads with no scope.
fn unscoped<R>(read: impl FnOnce() -> R) -> R {
    read()
}

side!(tf, tfhe, super::unscoped);
side!(
    gf,
    gpufhe,
    gpufhe::serialization::with_insecure_parameters_allowed
);

/// A TFHE-rs client key of the chosen configuration.
fn tfhe_client_key(small: bool, multi_bit: bool) -> tfhe::ClientKey {
    use tfhe::shortint::parameters::v1_8::V1_8_PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as MULTI_BIT;
    let config = match (small, multi_bit) {
        (true, false) => tfhe::ConfigBuilder::with_custom_parameters(tfhers::small_parameters()),
        (true, true) => {
            tfhe::ConfigBuilder::with_custom_parameters(tfhers::small_multi_bit_parameters())
        }
        (false, false) => tfhe::ConfigBuilder::default(),
        (false, true) => tfhe::ConfigBuilder::with_custom_parameters(MULTI_BIT),
    };
    tfhe::ClientKey::generate(config.build())
}

/// A gpufhe client key of the chosen configuration.
fn gpufhe_client_key(small: bool, multi_bit: bool) -> gpufhe::ClientKey {
    use gpufhe::shortint::{
        PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as SMALL,
        PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2 as SMALL_MULTI_BIT,
        PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as MULTI_BIT,
    };
    let config = match (small, multi_bit) {
        (true, false) => gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(SMALL),
        (true, true) => {
            gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(SMALL_MULTI_BIT)
        }
        (false, false) => Ok(gpufhe::ConfigBuilder::default()),
        (false, true) => Ok(gpufhe::ConfigBuilder::with_custom_parameters(MULTI_BIT)),
    };
    gpufhe::ClientKey::generate(config.expect("gpufhe's parameters").build())
}

/// The keys both sides start from (each scenario sets the server keys it needs).
struct Keys {
    tfhe: tfhe::ClientKey,
    gpufhe: gpufhe::ClientKey,
    tfhe_sent: Result<tf::Sent, String>,
    gpufhe_sent: Result<gf::Sent, String>,
}

fn sent<S>(sent: &Result<S, String>) -> Result<&S, String> {
    sent.as_ref()
        .map_err(|e| format!("making the client's keys: {e}"))
}

fn tfhe_client_gpufhe_server(keys: &Keys, compressed: bool) -> Result<(), String> {
    let sent = sent(&keys.tfhe_sent)?;
    let gf_sent = gf::Sent {
        server_key: sent.server_key.clone(),
        compressed_server_key: sent.compressed_server_key.clone(),
        inputs: sent.inputs.clone(),
    };
    let results = gf::server(&gf_sent, compressed)?;
    tf::check(&results, &keys.tfhe)
}

fn gpufhe_client_tfhe_server(keys: &Keys, compressed: bool) -> Result<(), String> {
    let sent = sent(&keys.gpufhe_sent)?;
    let tf_sent = tf::Sent {
        server_key: sent.server_key.clone(),
        compressed_server_key: sent.compressed_server_key.clone(),
        inputs: sent.inputs.clone(),
    };
    let results = tf::server(&tf_sent, compressed)?;
    gf::check(&results, &keys.gpufhe)
}

fn tfhe_client_key_in_gpufhe(keys: &Keys) -> Result<(), String> {
    let key = tf::to_bytes(&keys.tfhe)?;
    let back = gf::with_read_client_key(&key, &tf::encrypt_all(&keys.tfhe)?)?;
    tf::check(&back, &keys.tfhe)
}

fn gpufhe_client_key_in_tfhe(keys: &Keys) -> Result<(), String> {
    let key = gf::to_bytes(&keys.gpufhe)?;
    let back = tf::with_read_client_key(&key, &gf::encrypt_all(&keys.gpufhe)?)?;
    gf::check(&back, &keys.gpufhe)
}

/// TFHE-rs's compact public key used by gpufhe; TFHE-rs expands and decrypts.
fn tfhe_public_key_in_gpufhe(keys: &Keys, compressed: bool) -> Result<(), String> {
    tf::set_key(sent(&keys.tfhe_sent)?, false)?;
    let lists = gf::build_lists(&tf::public_key(&keys.tfhe, compressed)?, compressed)?;
    for list in lists {
        tf::check(&tf::expand(&list)?, &keys.tfhe)?;
    }
    Ok(())
}

/// gpufhe's compact public key used by TFHE-rs; gpufhe expands and decrypts.
fn gpufhe_public_key_in_tfhe(keys: &Keys, compressed: bool) -> Result<(), String> {
    gf::set_key(sent(&keys.gpufhe_sent)?, false)?;
    let lists = tf::build_lists(&gf::public_key(&keys.gpufhe, compressed)?, compressed)?;
    for list in lists {
        gf::check(&gf::expand(&list)?, &keys.gpufhe)?;
    }
    Ok(())
}

/// TFHE-rs's lists expanded by gpufhe (with TFHE-rs's server key read from bytes);
/// TFHE-rs decrypts the values.
fn tfhe_list_in_gpufhe(keys: &Keys) -> Result<(), String> {
    let sent = sent(&keys.tfhe_sent)?;
    let lists = tf::build_lists(&tf::public_key(&keys.tfhe, false)?, false)?;
    gf::set_key(
        &gf::Sent {
            server_key: sent.server_key.clone(),
            compressed_server_key: Vec::new(),
            inputs: Values::new(),
        },
        false,
    )?;
    for list in lists {
        tf::check(&gf::expand(&list)?, &keys.tfhe)?;
    }
    Ok(())
}

/// gpufhe's lists expanded by TFHE-rs (with gpufhe's server key read from bytes);
/// gpufhe decrypts the values.
fn gpufhe_list_in_tfhe(keys: &Keys) -> Result<(), String> {
    let sent = sent(&keys.gpufhe_sent)?;
    let lists = gf::build_lists(&gf::public_key(&keys.gpufhe, false)?, false)?;
    tf::set_key(
        &tf::Sent {
            server_key: sent.server_key.clone(),
            compressed_server_key: Vec::new(),
            inputs: Values::new(),
        },
        false,
    )?;
    for list in lists {
        gf::check(&tf::expand(&list)?, &keys.gpufhe)?;
    }
    Ok(())
}

/// Runs `scenario`, prints PASS or FAIL (with the error or the panic's message);
/// true when it passed.
/// A gpufhe client key with compression read by TFHE-rs, whose server keys made
/// from it compress and decompress values that the key decrypts (both libraries'
/// compression private keys and parameters are the same data).
fn gpufhe_compression_key_in_tfhe(small: bool) -> Result<(), String> {
    use tfhe::prelude::*;
    let (parameters, compression) = if small {
        (
            gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
            gpufhe::shortint::COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
        )
    } else {
        (
            gpufhe::shortint::DEFAULT_PARAMETERS,
            gpufhe::shortint::COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        )
    };
    let config = gpufhe::ConfigBuilder::default()
        .with_insecure_custom_parameters(parameters)
        .map_err(|e| e.to_string())?
        .enable_compression(compression)
        .build();
    let key = gpufhe::ClientKey::generate(config);
    let mut bytes = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&key, &mut bytes, 1 << 30)
        .map_err(|e| e.to_string())?;
    let ck: tfhe::ClientKey = tfhe::safe_serialization::safe_deserialize(bytes.as_slice(), 1 << 30)
        .map_err(|e| e.to_string())?;
    tfhe::set_server_key(tfhe::CompressedServerKey::new(&ck).decompress());
    let mut builder = tfhe::CompressedCiphertextListBuilder::new();
    builder
        .push(tfhe::FheUint8::encrypt(201u8, &ck))
        .push(tfhe::FheBool::encrypt(true, &ck));
    let list = builder.build().map_err(|e| e.to_string())?;
    let a: tfhe::FheUint8 = list
        .get(0)
        .map_err(|e| e.to_string())?
        .ok_or("no value 0")?;
    let b: tfhe::FheBool = list
        .get(1)
        .map_err(|e| e.to_string())?
        .ok_or("no value 1")?;
    let clears: (u8, bool) = (a.decrypt(&ck), b.decrypt(&ck));
    tfhe::unset_server_key();
    if clears == (201, true) {
        Ok(())
    } else {
        Err(format!("decrypted {clears:?}"))
    }
}

fn run(name: &str, scenario: impl FnOnce() -> Result<(), String>) -> bool {
    let start = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(scenario)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".into());
        Err(format!("panicked: {message}"))
    });
    let secs = start.elapsed().as_secs_f64();
    match &outcome {
        Ok(()) => println!("PASS {name} ({secs:.1} s)"),
        Err(e) => println!("FAIL {name} ({secs:.1} s): {e}"),
    }
    // Neither library's server key carries over to the next scenario.
    tfhe::unset_server_key();
    gpufhe::unset_server_key();
    outcome.is_ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let small = args.iter().any(|a| a == "--small");
    let multi_bit = args.iter().any(|a| a == "--multi-bit");
    let filter = args.iter().find(|a| !a.starts_with("--")).cloned();
    // Panics are reported by `run`, not printed on their way.
    std::panic::set_hook(Box::new(|_| {}));

    let start = Instant::now();
    let tfhe_key = tfhe_client_key(small, multi_bit);
    let gpufhe_key = gpufhe_client_key(small, multi_bit);
    let keys = Keys {
        tfhe_sent: catch_unwind(AssertUnwindSafe(|| tf::client(&tfhe_key)))
            .unwrap_or_else(|_| Err("TFHE-rs's client panicked".into())),
        gpufhe_sent: catch_unwind(AssertUnwindSafe(|| gf::client(&gpufhe_key)))
            .unwrap_or_else(|_| Err("gpufhe's client panicked".into())),
        tfhe: tfhe_key,
        gpufhe: gpufhe_key,
    };
    println!(
        "{}{} parameters; keys and inputs made in {:.1} s",
        if small { "small insecure" } else { "default" },
        if multi_bit { " multi-bit" } else { "" },
        start.elapsed().as_secs_f64()
    );

    type Scenario<'a> = (&'a str, Box<dyn Fn() -> Result<(), String> + 'a>);
    let k = &keys;
    let scenarios: Vec<Scenario> = vec![
        // The libraries against themselves: the harness is right when these pass.
        (
            "TFHE-rs client, TFHE-rs server (ServerKey)",
            Box::new(|| tf::check(&tf::server(sent(&k.tfhe_sent)?, false)?, &k.tfhe)),
        ),
        (
            "gpufhe client, gpufhe server (ServerKey)",
            Box::new(|| gf::check(&gf::server(sent(&k.gpufhe_sent)?, false)?, &k.gpufhe)),
        ),
        (
            "TFHE-rs client, gpufhe server (ServerKey)",
            Box::new(|| tfhe_client_gpufhe_server(k, false)),
        ),
        (
            "TFHE-rs client, gpufhe server (CompressedServerKey)",
            Box::new(|| tfhe_client_gpufhe_server(k, true)),
        ),
        (
            "gpufhe client, TFHE-rs server (ServerKey)",
            Box::new(|| gpufhe_client_tfhe_server(k, false)),
        ),
        (
            "gpufhe client, TFHE-rs server (CompressedServerKey)",
            Box::new(|| gpufhe_client_tfhe_server(k, true)),
        ),
        (
            "TFHE-rs client key read by gpufhe",
            Box::new(|| tfhe_client_key_in_gpufhe(k)),
        ),
        (
            "gpufhe client key read by TFHE-rs",
            Box::new(|| gpufhe_client_key_in_tfhe(k)),
        ),
        (
            "TFHE-rs CompactPublicKey used by gpufhe",
            Box::new(|| tfhe_public_key_in_gpufhe(k, false)),
        ),
        (
            "TFHE-rs CompressedCompactPublicKey used by gpufhe",
            Box::new(|| tfhe_public_key_in_gpufhe(k, true)),
        ),
        (
            "gpufhe CompactPublicKey used by TFHE-rs",
            Box::new(|| gpufhe_public_key_in_tfhe(k, false)),
        ),
        (
            "gpufhe CompressedCompactPublicKey used by TFHE-rs",
            Box::new(|| gpufhe_public_key_in_tfhe(k, true)),
        ),
        (
            "TFHE-rs compact lists expanded by gpufhe",
            Box::new(|| tfhe_list_in_gpufhe(k)),
        ),
        (
            "gpufhe compact lists expanded by TFHE-rs",
            Box::new(|| gpufhe_list_in_tfhe(k)),
        ),
        (
            "gpufhe client key with compression used by TFHE-rs",
            Box::new(|| gpufhe_compression_key_in_tfhe(small)),
        ),
        (
            "TFHE-rs ServerKey with compression keys used by gpufhe",
            Box::new(|| tfhers_compression::tfhe_compression_keys_in_gpufhe(small, false)),
        ),
        (
            "TFHE-rs CompressedServerKey with compression keys used by gpufhe",
            Box::new(|| tfhers_compression::tfhe_compression_keys_in_gpufhe(small, true)),
        ),
        (
            "gpufhe ServerKey with compression keys used by TFHE-rs",
            Box::new(|| tfhers_compression::gpufhe_compression_keys_in_tfhe(small, false)),
        ),
        (
            "gpufhe CompressedServerKey with compression keys used by TFHE-rs",
            Box::new(|| tfhers_compression::gpufhe_compression_keys_in_tfhe(small, true)),
        ),
        (
            "TFHE-rs KeySwitchingKey used by gpufhe",
            Box::new(|| {
                tfhers_keys::tfhe_keyswitching_key_in_gpufhe(
                    &k.tfhe,
                    tfhe_client_key(small, multi_bit),
                )
            }),
        ),
        (
            "gpufhe KeySwitchingKey used by TFHE-rs",
            Box::new(|| {
                tfhers_keys::gpufhe_keyswitching_key_in_tfhe(
                    &k.gpufhe,
                    gpufhe_client_key(small, multi_bit),
                )
            }),
        ),
        (
            "TFHE-rs PublicKey used by gpufhe",
            Box::new(|| tfhers_keys::tfhe_classical_public_key_in_gpufhe(&k.tfhe, false)),
        ),
        (
            "TFHE-rs CompressedPublicKey used by gpufhe",
            Box::new(|| tfhers_keys::tfhe_classical_public_key_in_gpufhe(&k.tfhe, true)),
        ),
        (
            "gpufhe classical PublicKey used by TFHE-rs",
            Box::new(|| tfhers_keys::gpufhe_classical_public_key_in_tfhe(&k.gpufhe, false)),
        ),
        (
            "gpufhe classical CompressedPublicKey used by TFHE-rs",
            Box::new(|| tfhers_keys::gpufhe_classical_public_key_in_tfhe(&k.gpufhe, true)),
        ),
        (
            "TFHE-rs client of dedicated public-key parameters, gpufhe server",
            Box::new(|| tfhers_dedicated::tfhe_client_gpufhe_server(small)),
        ),
        (
            "gpufhe client of dedicated public-key parameters, TFHE-rs server",
            Box::new(|| tfhers_dedicated::gpufhe_client_tfhe_server(small)),
        ),
        (
            "TFHE-rs keys and values re-randomized by gpufhe (same bytes)",
            Box::new(|| tfhers_rerand_interop::tfhe_keys_gpufhe_rerand(small)),
        ),
        (
            "gpufhe keys and values re-randomized by TFHE-rs (same bytes)",
            Box::new(|| tfhers_rerand_interop::gpufhe_keys_tfhe_rerand(small)),
        ),
        (
            "TFHE-rs proven list (both compute loads) verified and expanded by gpufhe",
            Box::new(|| tfhers_zk::tfhe_prover_gpufhe_verifier(small)),
        ),
        (
            "gpufhe proven list (both compute loads) verified and expanded by TFHE-rs",
            Box::new(|| tfhers_zk::gpufhe_prover_tfhe_verifier(small)),
        ),
    ];
    let mut failed = 0;
    for (name, scenario) in &scenarios {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        if !run(name, scenario) {
            failed += 1;
        }
    }
    println!("{failed} failed, in {:.1} s", start.elapsed().as_secs_f64());
    std::process::exit(i32::from(failed > 0));
}
