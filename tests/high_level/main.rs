//! The high-level API on the CPU: `FheUint`/`FheInt`/`FheBool` operations on the
//! default and the insecure test parameters, keys, lists, serialization, hostile
//! input, and the TFHE-rs guide's program.

#[path = "../support/child.rs"]
mod child;
#[path = "../support/common.rs"]
mod common;
#[path = "../support/crafted.rs"]
mod crafted;
#[path = "../support/insecure_keys.rs"]
mod insecure_keys;
#[path = "../support/params.rs"]
mod params;
#[path = "../support/skip.rs"]
mod skip;

mod array;
mod bit_operations;
mod bit_operations_default_parameters;
mod clears_selection_and_lookup;
mod compact_public_key;
mod compressed_values;
mod compression;
mod dedicated_public_key;
mod division;
mod division_default_parameters;
mod fhe_uint256;
mod hostile_input;
mod keys_and_threads;
mod memory_budget;
mod multi_bit_default_parameters;
mod multi_bit_test_parameters;
mod noise_squashing;
mod noise_squashing_lists;
mod noise_squashing_multi_bit;
mod operand_forms;
mod operations_default_parameters;
mod oprf_default_parameters;
mod re_randomization;
mod serialization;
mod signed;
mod signed_bits_and_division;
mod signed_default_parameters;
mod small_widths_default_parameters;
mod tfhe_rs_api;
mod tfhe_rs_compression;
mod tfhe_rs_compression_keys;
mod tfhe_rs_data;
mod tfhe_rs_guide;
mod tfhe_rs_hostile;
mod tfhe_rs_keys;
mod tfhe_rs_raw_parts;
mod tfhe_rs_small;
mod tfhe_rs_support;
mod wide_integers;
mod wide_integers_default_parameters;
mod zk_proofs;
