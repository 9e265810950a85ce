//! What the processes of a cluster send each other, as bytes: encrypted values
//! ([`ClusterValue`]) and the protocol's small messages, all written with
//! [`safe_serialize`] and read back with [`safe_deserialize`] under a size limit.
//! A value read from a peer must also belong to the job's key
//! ([`safe_deserialize_conformant`]); bytes that do not are an `Err` naming the
//! peer. Nothing here touches MPI, so all of it is tested without one.

use crate::error::{Error, Result};
use crate::high_level::{FheBool, FheUint, FheUintId};
use crate::scheduler::Calibration;
use crate::serialization::{
    safe_deserialize, safe_deserialize_conformant, safe_serialize, ConformanceParams,
    SafeSerialization,
};
use serde::{Deserialize, Serialize};

/// The most bytes one encrypted value ([`crate::FheUint128`] on the default
/// parameters takes about 1 MiB) may take on the wire: 64 MiB.
pub const VALUE_SIZE_LIMIT: u64 = 1 << 26;

/// The most bytes one of the protocol's small messages (a process's status, its
/// calibration, the plan of a batch) may take: 1 MiB.
pub const MESSAGE_SIZE_LIMIT: u64 = 1 << 20;

/// The most bytes of an error message a process reports to the others (longer ones
/// are cut).
const MAX_ERROR_LEN: usize = 4096;

/// Items and results of a batch spread over a cluster
/// ([`ClusterServerKey::run_batch`](super::ClusterServerKey::run_batch)): encrypted
/// values, and tuples of them. Each encrypted value is written with
/// [`safe_serialize`] and read with [`safe_deserialize_conformant`] against the
/// job's key, so bytes of another type, another key or over
/// [`VALUE_SIZE_LIMIT`] are an `Err`.
///
/// ```
/// use gpufhe::cluster::ClusterValue;
/// use gpufhe::serialization::ConformanceParams;
/// use gpufhe::{generate_keys, ConfigBuilder, FheBool, FheUint8};
/// use gpufhe::prelude::*;
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = generate_keys(config);
/// let pair = (FheUint8::encrypt(7u8, &client_key), FheBool::encrypt(true, &client_key));
/// let mut bytes = Vec::new();
/// pair.write_to(&mut bytes)?;
/// let key = ConformanceParams::from(&server_key);
/// let (a, b) = <(FheUint8, FheBool)>::read_from(&mut bytes.as_slice(), &key)?;
/// assert_eq!((a.decrypt(&client_key), b.decrypt(&client_key)), (7u8, true));
/// assert!(FheUint8::read_from(&mut &bytes[..10], &key).is_err()); // truncated
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub trait ClusterValue: Sized {
    /// How many encrypted values one item holds (1 for a value, the sum for a
    /// tuple): what bounds the bytes a share of items may take.
    const VALUES: usize;

    /// Appends the item to `out`, each encrypted value with [`safe_serialize`].
    fn write_to(&self, out: &mut Vec<u8>) -> Result<()>;

    /// Reads one item written by [`ClusterValue::write_to`] from the front of
    /// `input` (which moves past it); each encrypted value must belong to `key`.
    fn read_from(input: &mut &[u8], key: &ConformanceParams) -> Result<Self>;
}

impl<Id: FheUintId> ClusterValue for FheUint<Id> {
    const VALUES: usize = 1;

    fn write_to(&self, out: &mut Vec<u8>) -> Result<()> {
        safe_serialize(self, out, VALUE_SIZE_LIMIT)
    }

    fn read_from(input: &mut &[u8], key: &ConformanceParams) -> Result<Self> {
        safe_deserialize_conformant(input, VALUE_SIZE_LIMIT, key)
    }
}

impl ClusterValue for FheBool {
    const VALUES: usize = 1;

    fn write_to(&self, out: &mut Vec<u8>) -> Result<()> {
        safe_serialize(self, out, VALUE_SIZE_LIMIT)
    }

    fn read_from(input: &mut &[u8], key: &ConformanceParams) -> Result<Self> {
        safe_deserialize_conformant(input, VALUE_SIZE_LIMIT, key)
    }
}

macro_rules! tuple_value {
    ($($name:ident),+) => {
        impl<$($name: ClusterValue),+> ClusterValue for ($($name,)+) {
            const VALUES: usize = 0 $(+ $name::VALUES)+;

            #[allow(non_snake_case)]
            fn write_to(&self, out: &mut Vec<u8>) -> Result<()> {
                let ($($name,)+) = self;
                $($name.write_to(out)?;)+
                Ok(())
            }

            fn read_from(input: &mut &[u8], key: &ConformanceParams) -> Result<Self> {
                Ok(($($name::read_from(input, key)?,)+))
            }
        }
    };
}
tuple_value!(A);
tuple_value!(A, B);
tuple_value!(A, B, C);
tuple_value!(A, B, C, D);

/// The bytes of `items`, one after the other.
pub(crate) fn write_values<T: ClusterValue>(items: &[T]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for item in items {
        item.write_to(&mut out)?;
    }
    Ok(out)
}

/// Exactly `count` items read from `input`, which must hold nothing more; `Err`
/// (saying what `from` sent) otherwise.
pub(crate) fn read_values<T: ClusterValue>(
    mut input: &[u8],
    count: usize,
    key: &ConformanceParams,
    from: &str,
) -> Result<Vec<T>> {
    let mut items = Vec::with_capacity(count.min(input.len()));
    for i in 0..count {
        let item = T::read_from(&mut input, key)
            .map_err(|e| Error::Serialization(format!("item {i} of {count} from {from}: {e}")))?;
        items.push(item);
    }
    if !input.is_empty() {
        return Err(Error::Serialization(format!(
            "{from} sent {} bytes after its {count} items",
            input.len()
        )));
    }
    Ok(items)
}

/// The most bytes `count` items of `T` may take on the wire.
pub(crate) fn values_limit<T: ClusterValue>(count: usize) -> u64 {
    (count as u64)
        .saturating_mul(T::VALUES as u64)
        .saturating_mul(VALUE_SIZE_LIMIT)
}

/// `message` cut to at most [`MAX_ERROR_LEN`] bytes (at a character boundary).
pub(crate) fn short(message: String) -> String {
    if message.len() <= MAX_ERROR_LEN {
        return message;
    }
    let mut end = MAX_ERROR_LEN;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &message[..end])
}

/// A process's speed, as it reports it after loading the key: its calibration, and
/// whether its CPU worker computes (always on a CPU key; on a GPU key only with a
/// CPU thread budget).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Speed {
    pub(crate) calibration: Calibration,
    pub(crate) cpu_computes: bool,
}

/// What a process reports at the end of a phase: its host, and its outcome (an
/// error as text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Report<T> {
    pub(crate) host: String,
    pub(crate) outcome: std::result::Result<T, String>,
}

/// What a process did with its share of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub(crate) struct ShareDone {
    /// Results it sends (they follow the report).
    pub(crate) operations: u64,
    /// Seconds its local batch took.
    pub(crate) seconds: f64,
}

/// How the first process split a batch: operations and predicted seconds per
/// rank, or why it could not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Plan {
    pub(crate) outcome: std::result::Result<Vec<(u64, f64)>, String>,
}

/// A process that failed, as the first process tells every process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Failure {
    pub(crate) rank: usize,
    pub(crate) host: String,
    pub(crate) message: String,
}

/// The end of a phase: every failure, by rank (none if it went well everywhere).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Verdict {
    pub(crate) failures: Vec<Failure>,
}

impl SafeSerialization for Report<Speed> {
    const TYPE_NAME: &'static str = "ClusterKeyReport";
    const DEFAULT_SIZE_LIMIT: u64 = MESSAGE_SIZE_LIMIT;
}

impl SafeSerialization for Report<ShareDone> {
    const TYPE_NAME: &'static str = "ClusterShareReport";
    const DEFAULT_SIZE_LIMIT: u64 = MESSAGE_SIZE_LIMIT;
}

impl SafeSerialization for Plan {
    const TYPE_NAME: &'static str = "ClusterPlan";
    const DEFAULT_SIZE_LIMIT: u64 = MESSAGE_SIZE_LIMIT;
}

impl SafeSerialization for Verdict {
    const TYPE_NAME: &'static str = "ClusterVerdict";
    const DEFAULT_SIZE_LIMIT: u64 = MESSAGE_SIZE_LIMIT;
}

/// `message` as bytes (within [`MESSAGE_SIZE_LIMIT`]).
pub(crate) fn encode<T: SafeSerialization>(message: &T) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    safe_serialize(message, &mut out, MESSAGE_SIZE_LIMIT)?;
    Ok(out)
}

/// A message read from the front of `input` (which moves past it); `Err` naming
/// `from` if it is not a valid `T` within [`MESSAGE_SIZE_LIMIT`].
pub(crate) fn decode<T: SafeSerialization>(input: &mut &[u8], from: &str) -> Result<T> {
    safe_deserialize(input, MESSAGE_SIZE_LIMIT)
        .map_err(|e| Error::Serialization(format!("unreadable {} from {from}: {e}", T::TYPE_NAME)))
}

impl Verdict {
    /// `Ok` if no process failed, else the error of the first failure (lowest
    /// rank), which also names the other failed ranks.
    pub(crate) fn into_result(self, phase: &str) -> Result<()> {
        let mut failures = self.failures.into_iter();
        let Some(first) = failures.next() else {
            return Ok(());
        };
        let others: Vec<String> = failures.map(|f| format!("rank {}", f.rank)).collect();
        let also = if others.is_empty() {
            String::new()
        } else {
            format!(" (also failed: {})", others.join(", "))
        };
        Err(Error::Cluster {
            rank: first.rank,
            host: first.host,
            message: format!("{phase}: {}{also}", first.message),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::high_level::{ClientKey, ConfigBuilder, FheUint16, FheUint8};
    use crate::prelude::*;
    use crate::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;

    fn keys() -> (ClientKey, ConformanceParams) {
        let config = ConfigBuilder::default()
            .with_insecure_custom_parameters(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2)
            .unwrap()
            .build();
        let client_key = ClientKey::generate(config);
        let key = ConformanceParams::from(&client_key);
        (client_key, key)
    }

    #[test]
    fn items_round_trip_and_bad_bytes_name_the_peer() {
        let (client_key, key) = keys();
        let items: Vec<(FheUint8, FheUint8)> = (0..3u8)
            .map(|v| {
                (
                    FheUint8::encrypt(v, &client_key),
                    FheUint8::encrypt(2 * v, &client_key),
                )
            })
            .collect();
        let bytes = write_values(&items).unwrap();
        let back: Vec<(FheUint8, FheUint8)> = read_values(&bytes, 3, &key, "rank 4").unwrap();
        let sums: Vec<u8> = back
            .iter()
            .map(|(a, b)| {
                let (a, b): (u8, u8) = (a.decrypt(&client_key), b.decrypt(&client_key));
                a + b
            })
            .collect();
        assert_eq!(sums, [0, 3, 6]);

        // One item too few, one too many, a flipped header byte, another type.
        let err = read_values::<(FheUint8, FheUint8)>(&bytes, 4, &key, "rank 4").unwrap_err();
        assert!(err.to_string().contains("item 3 of 4 from rank 4"), "{err}");
        let err = read_values::<(FheUint8, FheUint8)>(&bytes, 2, &key, "rank 4").unwrap_err();
        assert!(err.to_string().contains("rank 4 sent"), "{err}");
        let mut bad = bytes.clone();
        bad[0] ^= 1;
        let err = read_values::<(FheUint8, FheUint8)>(&bad, 3, &key, "rank 1").unwrap_err();
        assert!(err.to_string().contains("from rank 1"), "{err}");
        assert!(read_values::<(FheUint16, FheUint8)>(&bytes, 3, &key, "rank 1").is_err());
    }

    #[test]
    fn values_of_another_key_are_refused() {
        let (client_key, _) = keys();
        let (_, other) = keys();
        let bytes = write_values(&[FheUint8::encrypt(1u8, &client_key)]).unwrap();
        let err = read_values::<FheUint8>(&bytes, 1, &other, "rank 2").unwrap_err();
        assert!(err.to_string().contains("rank 2"), "{err}");
    }

    #[test]
    fn messages_round_trip_and_limits_hold() {
        let plan = Plan {
            outcome: Ok(vec![(3, 0.5), (4, 0.6)]),
        };
        let bytes = encode(&plan).unwrap();
        assert_eq!(
            decode::<Plan>(&mut bytes.as_slice(), "rank 0").unwrap(),
            plan
        );
        let err = decode::<Verdict>(&mut bytes.as_slice(), "rank 0").unwrap_err();
        assert!(
            err.to_string().contains("ClusterVerdict from rank 0"),
            "{err}"
        );
        let err = decode::<Plan>(&mut &bytes[..bytes.len() - 1], "rank 0").unwrap_err();
        assert!(err.to_string().contains("from rank 0"), "{err}");
        assert_eq!(values_limit::<(FheUint8, FheBool)>(3), 6 * VALUE_SIZE_LIMIT);
        assert_eq!(values_limit::<FheUint8>(usize::MAX), u64::MAX);
        let long = short("é".repeat(MAX_ERROR_LEN));
        assert!(long.len() <= MAX_ERROR_LEN + 3 && long.ends_with("..."));
    }

    #[test]
    fn verdicts_name_the_first_failed_rank() {
        assert!(Verdict { failures: vec![] }.into_result("x").is_ok());
        let failure = |rank: usize| Failure {
            rank,
            host: format!("node{rank}"),
            message: "no GPU 7".into(),
        };
        let err = Verdict {
            failures: vec![failure(1), failure(3)],
        }
        .into_result("loading the server key")
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "cluster: rank 1 (node1): loading the server key: no GPU 7 (also failed: rank 3)"
        );
    }
}
