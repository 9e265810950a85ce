//! The integer layer and below on the default (secure) parameters: the primitives
//! of core_crypto and shortint, and the radix circuits on a CPU backend with
//! counters of its own.

#[path = "../support/common.rs"]
mod common;
#[path = "../support/integer_support.rs"]
mod integer_support;

mod default_parameters;
mod integer_arithmetic_default_parameters;
mod integer_default_parameters;
mod integer_ordering_default_parameters;
