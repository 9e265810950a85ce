//! What a proven compact list read from untrusted bytes must be (TFHE-rs's
//! `IntegerProvenCompactCiphertextListConformanceParams`).

use super::ZkPkeV2SupportedHashConfig;
use super::{CompactPkeCrs, CompactPkeProofConformanceParams, ZkComputeLoad};
use crate::core_crypto::LweDimension;
use crate::high_level::tfhe_rs::wire::zk::CompactPkeProof;
use crate::high_level::{ParameterSetConformant, ProvenCompactCiphertextList};
use crate::shortint::parameters::{
    CarryModulus, CompactCiphertextListExpansionKind, MessageModulus,
};
use crate::shortint::CompactPublicKeyEncryptionParameters as Pke;
use tfhe_safe_serialize::ParameterSetConformant as ZkConformant;

/// The conformance parameters of a [`ProvenCompactCiphertextList`]: its encryption
/// parameters, the CRS's capacity (each part full but the last), whether unpacked
/// lists are accepted, and which proofs (TFHE-rs's type of this name; the
/// ciphertext modulus is always the native `2^64` here, so it has no field).
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
/// # use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
/// # use gpufhe::shortint::parameters::PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS;
/// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?
/// #     .use_dedicated_compact_public_key_parameters((PKE, KS)).build();
/// use gpufhe::conformance::ParameterSetConformant;
/// use gpufhe::zk::{CompactPkeCrs, IntegerProvenCompactCiphertextListConformanceParams, ZkComputeLoad};
/// use gpufhe::{ClientKey, CompactPublicKey, ProvenCompactCiphertextList};
/// let crs = CompactPkeCrs::from_config(config, 16)?;
/// let public_key = CompactPublicKey::new(&ClientKey::generate(config));
/// let list = ProvenCompactCiphertextList::builder(&public_key)
///     .push(9u16)
///     .build_with_proof_packed(&crs, b"", ZkComputeLoad::Proof)?;
/// let params = IntegerProvenCompactCiphertextListConformanceParams::from_crs_and_parameters(PKE, &crs);
/// assert!(list.is_conformant(&params));
/// assert!(!list.is_conformant(&params.forbid_compute_load(ZkComputeLoad::Proof)));
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Copy, Clone)]
pub struct IntegerProvenCompactCiphertextListConformanceParams {
    /// The dimension of the encryption key.
    pub encryption_lwe_dimension: LweDimension,
    /// The message modulus of the blocks.
    pub message_modulus: MessageModulus,
    /// The carry modulus of the blocks.
    pub carry_modulus: CarryModulus,
    /// Whether the blocks need casting to the computation key.
    pub expansion_kind: CompactCiphertextListExpansionKind,
    /// The most blocks of one proven part (the CRS's capacity).
    pub max_elements_per_compact_list: usize,
    /// Whether lists whose blocks are not packed are accepted.
    pub allow_unpacked: bool,
    /// The proofs accepted.
    pub zk_conformance_params: CompactPkeProofConformanceParams,
}

impl IntegerProvenCompactCiphertextListConformanceParams {
    /// The parameters of packed lists encrypted with `value` and proven with `crs`
    /// (TFHE-rs's function of this name).
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertextCount;
    /// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// use gpufhe::zk::{CompactPkeCrs, IntegerProvenCompactCiphertextListConformanceParams as Params};
    /// let crs = CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(3))?;
    /// let params = Params::from_crs_and_parameters(PKE, &crs);
    /// assert_eq!(params.max_elements_per_compact_list, 3);
    /// assert!(!params.allow_unpacked);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn from_crs_and_parameters(value: Pke, crs: &CompactPkeCrs) -> Self {
        Self::from_public_key_encryption_parameters_and_crs_parameters(value, crs)
    }

    /// The same as [`Self::from_crs_and_parameters`] (TFHE-rs's other name).
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertextCount;
    /// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// use gpufhe::zk::{CompactPkeCrs, IntegerProvenCompactCiphertextListConformanceParams as Params};
    /// let crs = CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(2))?;
    /// let params = Params::from_public_key_encryption_parameters_and_crs_parameters(PKE, &crs);
    /// assert_eq!(params.encryption_lwe_dimension, PKE.encryption_lwe_dimension);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn from_public_key_encryption_parameters_and_crs_parameters(
        value: Pke,
        crs: &CompactPkeCrs,
    ) -> Self {
        Self {
            encryption_lwe_dimension: value.encryption_lwe_dimension,
            message_modulus: value.message_modulus,
            carry_modulus: value.carry_modulus,
            expansion_kind: value.expansion_kind,
            max_elements_per_compact_list: crs.max_num_messages().0,
            allow_unpacked: false,
            zk_conformance_params: CompactPkeProofConformanceParams::new(crs.scheme_version()),
        }
    }

    /// The same, refusing proofs made with `forbidden_compute_load`.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertextCount;
    /// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// use gpufhe::zk::{CompactPkeCrs, IntegerProvenCompactCiphertextListConformanceParams as Params, ZkComputeLoad};
    /// let crs = CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(2))?;
    /// let params = Params::from_crs_and_parameters(PKE, &crs).forbid_compute_load(ZkComputeLoad::Verify);
    /// assert_eq!(params.max_elements_per_compact_list, 2);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn forbid_compute_load(self, forbidden_compute_load: ZkComputeLoad) -> Self {
        Self {
            zk_conformance_params: self
                .zk_conformance_params
                .forbid_compute_load(forbidden_compute_load),
            ..self
        }
    }

    /// The same, refusing version 2 proofs of `forbidden_hash_config`.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertextCount;
    /// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// use gpufhe::zk::{CompactPkeCrs, IntegerProvenCompactCiphertextListConformanceParams as Params};
    /// use gpufhe::zk::ZkPkeV2SupportedHashConfig;
    /// let crs = CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(2))?;
    /// let params = Params::from_crs_and_parameters(PKE, &crs)
    ///     .forbid_hash_config(ZkPkeV2SupportedHashConfig::V0_4_0);
    /// assert!(!params.allow_unpacked);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn forbid_hash_config(self, forbidden_hash_config: ZkPkeV2SupportedHashConfig) -> Self {
        Self {
            zk_conformance_params: self
                .zk_conformance_params
                .forbid_hash_config(forbidden_hash_config),
            ..self
        }
    }

    /// The same, accepting lists whose blocks are not packed.
    ///
    /// ```
    /// use gpufhe::core_crypto::LweCiphertextCount;
    /// use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// use gpufhe::zk::{CompactPkeCrs, IntegerProvenCompactCiphertextListConformanceParams as Params};
    /// let crs = CompactPkeCrs::from_shortint_params(PKE, LweCiphertextCount(2))?;
    /// assert!(Params::from_crs_and_parameters(PKE, &crs).allow_unpacked().allow_unpacked);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn allow_unpacked(self) -> Self {
        Self {
            allow_unpacked: true,
            ..self
        }
    }
}

/// Whether `proof` is of the accepted scheme, compute load and hash configuration,
/// its points valid.
fn proof_conforms(proof: &CompactPkeProof, params: &CompactPkeProofConformanceParams) -> bool {
    match (proof, params) {
        (CompactPkeProof::PkeV1(p), CompactPkeProofConformanceParams::PkeV1(c)) => {
            p.is_conformant(c)
        }
        (CompactPkeProof::PkeV2(p), CompactPkeProofConformanceParams::PkeV2(c)) => {
            p.is_conformant(c)
        }
        _ => false,
    }
}

impl ParameterSetConformant for ProvenCompactCiphertextList {
    type ParameterSet = IntegerProvenCompactCiphertextListConformanceParams;

    fn is_conformant(&self, c: &Self::ParameterSet) -> bool {
        match (self.lists.is_empty(), self.kinds.is_empty()) {
            (true, true) => return true,
            (true, false) | (false, true) => return false,
            (false, false) => {}
        }
        if self.validate().is_err() || (!self.packed && !c.allow_unpacked) {
            return false;
        }
        let p = &self.parameters;
        let kind = if self.casting.is_some() {
            CompactCiphertextListExpansionKind::RequiresCasting
        } else {
            CompactCiphertextListExpansionKind::NoCasting
        };
        if (p.message_modulus, p.carry_modulus) != (c.message_modulus.0, c.carry_modulus.0)
            || kind != c.expansion_kind
            || c.max_elements_per_compact_list == 0
        {
            return false;
        }
        let mut remaining: usize = self.lists.iter().map(|l| l.bodies.len()).sum();
        self.lists.iter().all(|list| {
            let expected = remaining.min(c.max_elements_per_compact_list);
            remaining -= expected;
            list.bodies.len() == expected
                && list.mask.len() == c.encryption_lwe_dimension.0
                && proof_conforms(&list.proof, &c.zk_conformance_params)
        })
    }
}
