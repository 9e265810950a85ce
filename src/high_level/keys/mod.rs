//! The keys: [`tag`] (which client key a value belongs to), the [`client`] key, the
//! [`server`] key and its [`compressed_server`] form, their [`generation`] and
//! serialization ([`server_serde`]), GPU keys ([`cuda`]), their calibration
//! ([`calibration`]), public keys ([`public`], [`compact_public`]) and key-switching
//! keys ([`key_switching`]).

pub(crate) mod calibration;
pub(crate) mod client;
pub(crate) mod compact_public;
pub(crate) mod compressed_server;
pub(crate) mod cuda;
pub(crate) mod generation;
pub(crate) mod key_switching;
pub(crate) mod public;
pub(crate) mod public_forms;
pub(crate) mod re_randomization;
pub(crate) mod server;
pub(crate) mod server_serde;
pub(crate) mod tag;
