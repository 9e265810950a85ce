//! Blocks: small integers (by default 2 message bits, 2 carry bits and a padding
//! bit) encrypted as one LWE ciphertext, and the lookup-table evaluations on them.
//!
//! ```
//! use gpufhe::shortint::{ClientKey, ServerKey};
//! # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
//! let ck = ClientKey::new(PARAMETERS).unwrap();
//! let sk = ServerKey::new(&ck).unwrap();
//! let max = sk.generate_lookup_table_bivariate(|a, b| a.max(b)).unwrap();
//! let (a, b) = (ck.encrypt(1).unwrap(), ck.encrypt(2).unwrap());
//! let m = sk.apply_lookup_table_bivariate(&a, &b, &max).unwrap();
//! assert_eq!(ck.decrypt(&m).unwrap(), 2);
//! ```

mod casting;
mod ciphertext;
mod client_key;
pub(crate) mod compact;
mod compressed_list;
mod compression;
mod key_switching;
mod lookup_table;
mod noise_squashing;
mod noise_squashing_compression;
mod oprf;
pub mod parameters;
mod pbs_stats;
mod public_key;
pub(crate) mod re_randomization;
mod safety;
mod seeded;
mod server_key;
mod table;

pub(crate) use casting::check_casting_parameters;
pub use casting::{CastingKey, CompressedCastingKey, DedicatedCompactPrivateKey};
pub use ciphertext::{BlockInfo, Ciphertext};
pub use client_key::ClientKey;
pub use compact::{
    compact_list_bytes, expand_compact_blocks, expanded_compact_bytes, CompactPublicKey,
    CompressedCompactPublicKey,
};
pub use compressed_list::CompressedBlockList;
pub use compression::*;
pub use key_switching::{
    EncryptionKeyChoice, KeySwitchingKey, ShortintKeySwitchingParameters,
    PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};
pub use lookup_table::{BivariateLookupTable, LookupTable, ManyLookupTable};
pub use noise_squashing::*;
pub use noise_squashing_compression::*;
pub use oprf::{oprf_seed_blocks, oprf_seed_blocks_from_bytes, seed_block_info};
pub use parameters::*;
pub(crate) use pbs_stats::count_bootstraps;
pub use pbs_stats::{pbs_count, reset_pbs_count};
pub use public_key::{ClassicalPublicKey, CompressedClassicalPublicKey};
pub use re_randomization::{
    ReRandomizationHashAlgo, ReRandomizationSeed, ReRandomizationSeedHasher,
};
pub use safety::{
    minimal_secure_variance, security_curve_128, MAX_BIG_LWE_DIMENSION, MAX_GLWE_DIMENSION,
    MAX_LWE_DIMENSION, MAX_SERVER_KEY_BYTES,
};
pub use seeded::SeededBlocks;
pub(crate) use server_key::SplitBootstraps;
pub use server_key::{
    CompressedServerKey, ModulusSwitchedBlocks, PairedBlocks, ServerKey, KS_BATCH, PBS_BATCH,
};
pub use table::Table;
