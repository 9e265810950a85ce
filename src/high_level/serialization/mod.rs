//! The high level's half of [`crate::serialization`]: conformance of deserialized
//! values to a configuration or a key ([`conformance`]), the TFHE-rs-shaped
//! serialization builders ([`config`]) and list size constraints ([`list_size`]).

pub(crate) mod config;
pub(crate) mod conformance;
pub(crate) mod list_size;
pub(crate) mod own_format;
