//! Zero-knowledge proofs of compact public-key encryption (TFHE-rs's `tfhe::zk`,
//! feature `zk-pok`): whoever encrypts a
//! [`CompactCiphertextList`](crate::CompactCiphertextList) with a compact public
//! key proves that its blocks are well-formed encryptions (bounded noise and
//! messages, binary randomness) of values of the announced widths, without saying
//! what they are; the server checks the proof before it uses the values. The
//! proofs are those of the `tfhe-zk-pok` crate (the proof system TFHE-rs uses, on
//! the BLS12-446 curve), over exactly the statement TFHE-rs proves: a list proven
//! by either library verifies in the other.
//!
//! - [`CompactPkeCrs`]: the public parameters (common reference string), made once
//!   per set of encryption parameters and largest number of bits per proof.
//! - The proven list, [`ProvenCompactCiphertextList`], built by
//!   [`build_with_proof_packed`](crate::CompactCiphertextListBuilder::build_with_proof_packed),
//!   checked by `verify` and expanded by `verify_and_expand`; many lists at once
//!   by
//!   [`verify_and_expand_batch`](ProvenCompactCiphertextList::verify_and_expand_batch),
//!   which overlaps the verification of some with the expansion of others.
//!
//! Proving and verification run on the CPU threads. Expansion of verified lists
//! (the keyswitch to the computation key and the bootstraps that unpack the
//! blocks) also runs on the CPU threads for now, also with a
//! [`CudaServerKey`](crate::CudaServerKey).

mod batch;
mod crs;
pub(crate) mod encrypt;
pub(crate) mod proven;
mod proven_conformance;

pub use crs::{new_compact_pke_crs_conformance_params, CompactPkeCrs};
pub use proven::ProvenCompactCiphertextList;
pub use proven_conformance::IntegerProvenCompactCiphertextListConformanceParams;
pub use tfhe_zk_pok::proofs::pke::CompactPkeV1ProofConformanceParams;
pub use tfhe_zk_pok::proofs::pke_v2::{
    CompactPkeV2ProofConformanceParams, PkeV2SupportedHashConfig as ZkPkeV2SupportedHashConfig,
};
pub use tfhe_zk_pok::proofs::{CompactPkeCrsConformanceParams, ComputeLoad as ZkComputeLoad};

/// The outcome of verifying a proof (TFHE-rs's type of this name).
///
/// ```
/// use gpufhe::zk::ZkVerificationOutcome;
/// assert!(ZkVerificationOutcome::Valid.is_valid());
/// assert!(ZkVerificationOutcome::Invalid.is_invalid());
/// ```
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum ZkVerificationOutcome {
    /// The proof, and the list it proves, are valid.
    Valid,
    /// They are not.
    Invalid,
}

impl ZkVerificationOutcome {
    /// Whether it is [`ZkVerificationOutcome::Valid`].
    ///
    /// ```
    /// assert!(gpufhe::zk::ZkVerificationOutcome::Valid.is_valid());
    /// ```
    pub fn is_valid(self) -> bool {
        self == Self::Valid
    }

    /// Whether it is [`ZkVerificationOutcome::Invalid`].
    ///
    /// ```
    /// assert!(!gpufhe::zk::ZkVerificationOutcome::Valid.is_invalid());
    /// ```
    pub fn is_invalid(self) -> bool {
        self == Self::Invalid
    }
}

/// The two proof schemes (TFHE-rs's type of this name); prefer version 2, faster
/// and smaller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompactPkeZkScheme {
    /// Version 1.
    V1,
    /// Version 2.
    V2,
}

/// How many most significant bits of each plaintext a proof shows to be zero
/// (TFHE-rs's type of this name; CRS made from parameters prove the padding bit:
/// 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZkMSBZeroPaddingBitCount(pub u64);

/// Which proofs a verifier accepts (TFHE-rs's type of this name): those of one
/// scheme, of the compute loads and hash configurations not forbidden.
///
/// ```
/// use gpufhe::zk::{CompactPkeProofConformanceParams, CompactPkeZkScheme, ZkComputeLoad};
/// let params = CompactPkeProofConformanceParams::new(CompactPkeZkScheme::V2)
///     .forbid_compute_load(ZkComputeLoad::Verify);
/// assert!(matches!(params, CompactPkeProofConformanceParams::PkeV2(_)));
/// ```
#[derive(Copy, Clone)]
pub enum CompactPkeProofConformanceParams {
    /// Version 1 proofs.
    PkeV1(CompactPkeV1ProofConformanceParams),
    /// Version 2 proofs.
    PkeV2(CompactPkeV2ProofConformanceParams),
}

impl CompactPkeProofConformanceParams {
    /// Every proof of `zk_scheme`.
    ///
    /// ```
    /// use gpufhe::zk::{CompactPkeProofConformanceParams, CompactPkeZkScheme};
    /// let params = CompactPkeProofConformanceParams::new(CompactPkeZkScheme::V1);
    /// assert!(matches!(params, CompactPkeProofConformanceParams::PkeV1(_)));
    /// ```
    pub fn new(zk_scheme: CompactPkeZkScheme) -> Self {
        match zk_scheme {
            CompactPkeZkScheme::V1 => Self::PkeV1(CompactPkeV1ProofConformanceParams::new()),
            CompactPkeZkScheme::V2 => Self::PkeV2(CompactPkeV2ProofConformanceParams::new()),
        }
    }

    /// The same, refusing proofs made with `forbidden_compute_load`.
    ///
    /// ```
    /// use gpufhe::zk::{CompactPkeProofConformanceParams, CompactPkeZkScheme, ZkComputeLoad};
    /// let params = CompactPkeProofConformanceParams::new(CompactPkeZkScheme::V2)
    ///     .forbid_compute_load(ZkComputeLoad::Proof);
    /// assert!(matches!(params, CompactPkeProofConformanceParams::PkeV2(_)));
    /// ```
    pub fn forbid_compute_load(self, forbidden_compute_load: ZkComputeLoad) -> Self {
        match self {
            Self::PkeV1(p) => Self::PkeV1(p.forbid_compute_load(forbidden_compute_load)),
            Self::PkeV2(p) => Self::PkeV2(p.forbid_compute_load(forbidden_compute_load)),
        }
    }

    /// The same, refusing version 2 proofs of `forbidden_hash_config` (no effect on
    /// version 1).
    ///
    /// ```
    /// use gpufhe::zk::{CompactPkeProofConformanceParams, CompactPkeZkScheme, ZkPkeV2SupportedHashConfig};
    /// let params = CompactPkeProofConformanceParams::new(CompactPkeZkScheme::V2)
    ///     .forbid_hash_config(ZkPkeV2SupportedHashConfig::V0_4_0);
    /// assert!(matches!(params, CompactPkeProofConformanceParams::PkeV2(_)));
    /// ```
    pub fn forbid_hash_config(self, forbidden_hash_config: ZkPkeV2SupportedHashConfig) -> Self {
        match self {
            Self::PkeV1(p) => Self::PkeV1(p),
            Self::PkeV2(p) => Self::PkeV2(p.forbid_hash_config(forbidden_hash_config)),
        }
    }
}
