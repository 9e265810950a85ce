//! Proven compact lists (TFHE-rs's `ProvenCompactCiphertextList`): a compact list
//! in parts of at most the CRS's capacity, each with its proof.

use super::encrypt::{encrypt_and_prove, KeyHalves, ProvenList};
use super::{CompactPkeCrs, ZkComputeLoad, ZkVerificationOutcome};
use crate::error::{check_eq, Error, Result};
use crate::high_level::keys::tag::KeyTag;
use crate::high_level::lists::compact::{block_counts, ExpansionParts};
use crate::high_level::tfhe_rs::key_halves;
use crate::high_level::{
    CompactCiphertextListBuilder, CompactCiphertextListExpander, CompactPublicKey, DataKind,
    FheTypes,
};
use crate::shortint::{self, CompactPublicKeyEncryptionParameters as Pke, ShortintParameters};
use rayon::prelude::*;

/// Values of mixed types encrypted with a [`CompactPublicKey`] together with
/// zero-knowledge proofs that they are well formed (TFHE-rs's type of this name):
/// built by
/// [`CompactCiphertextListBuilder::build_with_proof_packed`], checked by
/// [`ProvenCompactCiphertextList::verify`] and expanded by
/// [`ProvenCompactCiphertextList::verify_and_expand`], which expands nothing
/// unless every proof verifies. The blocks are packed two by two, and expanding
/// keyswitches and bootstraps them with the server key of the thread (set it
/// first): on its GPU for a `CudaServerKey`, else on the CPU threads. Lists with more blocks than the CRS's capacity are proven in parts.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
/// use gpufhe::prelude::*;
/// use gpufhe::shortint::parameters::{
///     PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
///     PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE,
/// };
/// use gpufhe::zk::{CompactPkeCrs, ZkComputeLoad};
/// use gpufhe::{generate_keys, set_server_key, CompactPublicKey, ConfigBuilder};
/// use gpufhe::{FheBool, FheInt8, ProvenCompactCiphertextList};
/// let config = ConfigBuilder::default()
///     .with_insecure_custom_parameters(TEST)?
///     .use_dedicated_compact_public_key_parameters((PKE, KS))
///     .build();
/// let crs = CompactPkeCrs::from_config(config, 16)?;
/// let (client_key, server_key) = generate_keys(config);
/// let public_key = CompactPublicKey::new(&client_key);
/// let metadata = b"gpufhe";
/// // The client:
/// let list = ProvenCompactCiphertextList::builder(&public_key)
///     .push(-5i8)
///     .push(true)
///     .build_with_proof_packed(&crs, metadata, ZkComputeLoad::Proof)?;
/// // The server:
/// set_server_key(server_key);
/// let expander = list.verify_and_expand(&crs, &public_key, metadata)?;
/// let (a, b): (FheInt8, FheBool) = (expander.get(0)?.unwrap(), expander.get(1)?.unwrap());
/// let (a, b): (i8, bool) = (a.decrypt(&client_key), b.decrypt(&client_key));
/// assert_eq!((a, b), (-5, true));
/// // Other metadata: the proof does not hold.
/// assert!(list.verify_and_expand(&crs, &public_key, b"other").is_err());
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ProvenCompactCiphertextList {
    pub(crate) tag: KeyTag,
    /// The block parameters its blocks are held as (for dedicated parameters,
    /// their key's shape).
    pub(crate) parameters: ShortintParameters,
    /// The dedicated public-key parameters it was encrypted with, if any.
    pub(crate) casting: Option<Pke>,
    pub(crate) kinds: Vec<DataKind>,
    pub(crate) packed: bool,
    pub(crate) lists: Vec<ProvenList>,
}

/// `public_key` in TFHE-rs's form.
pub(super) fn halves_of(public_key: &CompactPublicKey) -> Result<KeyHalves> {
    let (a, b) = key_halves(&public_key.key)?;
    Ok(KeyHalves { a, b })
}

impl CompactCiphertextListBuilder<'_> {
    /// Encrypts the values, their blocks packed two by two, and proves the
    /// encryption with `crs` for `metadata` (TFHE-rs's function of this name;
    /// `compute_load` puts more of the work on the prover or on the verifier).
    /// `Err` if the key's carry modulus is below its message modulus, the CRS is
    /// not for the key's parameters, or the system's random generator fails.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// use gpufhe::shortint::parameters::{
    ///     PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
    ///     PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE,
    /// };
    /// use gpufhe::zk::{CompactPkeCrs, ZkComputeLoad};
    /// use gpufhe::{ClientKey, CompactCiphertextList, CompactPublicKey, ConfigBuilder};
    /// let config = ConfigBuilder::default()
    ///     .with_insecure_custom_parameters(TEST)?
    ///     .use_dedicated_compact_public_key_parameters((PKE, KS))
    ///     .build();
    /// let crs = CompactPkeCrs::from_config(config, 8)?;
    /// let public_key = CompactPublicKey::new(&ClientKey::generate(config));
    /// let list = CompactCiphertextList::builder(&public_key)
    ///     .push(7u8)
    ///     .build_with_proof_packed(&crs, b"", ZkComputeLoad::Verify)?;
    /// assert_eq!(list.len(), 1);
    /// assert!(list.verify(&crs, &public_key, b"").is_valid());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn build_with_proof_packed(
        &self,
        crs: &CompactPkeCrs,
        metadata: &[u8],
        compute_load: ZkComputeLoad,
    ) -> Result<ProvenCompactCiphertextList> {
        let p = *self.key.key.parameters();
        let m = p.message_modulus;
        if p.carry_modulus < m {
            return Err(Error::InvalidParameter(
                "a packed proven compact list needs a carry modulus at least the message modulus"
                    .into(),
            ));
        }
        let key = halves_of(self.key)?;
        let packed: Vec<u64> = self
            .digits
            .chunks(2)
            .map(|pair| pair[0] + m * pair.get(1).copied().unwrap_or(0))
            .collect();
        let n = key.a.len();
        let chunk = crs.max_num_messages().0.min(n).max(1);
        let lists = packed
            .chunks(chunk)
            .map(|messages| {
                encrypt_and_prove(
                    &key,
                    messages,
                    p.delta(),
                    p.glwe_noise_distribution,
                    crs,
                    metadata,
                    compute_load,
                )
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(ProvenCompactCiphertextList {
            tag: self.key.tag,
            parameters: p,
            casting: self.key.dedicated,
            kinds: self.kinds.clone(),
            packed: true,
            lists,
        })
    }
}

impl ProvenCompactCiphertextList {
    /// A builder of a list encrypted with `public_key` (the same as
    /// [`CompactCiphertextList::builder`](crate::CompactCiphertextList::builder)).
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?;
    /// use gpufhe::{ClientKey, CompactPublicKey, ProvenCompactCiphertextList};
    /// let public_key = CompactPublicKey::new(&ClientKey::generate(config));
    /// let mut builder = ProvenCompactCiphertextList::builder(&public_key);
    /// builder.push(1u8).push(false);
    /// assert_eq!(builder.build().len(), 2);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn builder(public_key: &CompactPublicKey) -> CompactCiphertextListBuilder<'_> {
        CompactCiphertextListBuilder::new(public_key)
    }

    /// The number of values.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// # use gpufhe::shortint::parameters::PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?
    /// #     .use_dedicated_compact_public_key_parameters((PKE, KS)).build();
    /// # let crs = gpufhe::zk::CompactPkeCrs::from_config(config, 32)?;
    /// # let public_key = gpufhe::CompactPublicKey::new(&gpufhe::ClientKey::generate(config));
    /// use gpufhe::zk::ZkComputeLoad;
    /// use gpufhe::ProvenCompactCiphertextList;
    /// let list = ProvenCompactCiphertextList::builder(&public_key)
    ///     .push(1u8)
    ///     .push(2u8)
    ///     .build_with_proof_packed(&crs, b"", ZkComputeLoad::Proof)?;
    /// assert_eq!(list.len(), 2);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether it holds no value.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// # use gpufhe::shortint::parameters::PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?
    /// #     .use_dedicated_compact_public_key_parameters((PKE, KS)).build();
    /// # let crs = gpufhe::zk::CompactPkeCrs::from_config(config, 32)?;
    /// # let public_key = gpufhe::CompactPublicKey::new(&gpufhe::ClientKey::generate(config));
    /// use gpufhe::zk::ZkComputeLoad;
    /// use gpufhe::ProvenCompactCiphertextList;
    /// let builder = ProvenCompactCiphertextList::builder(&public_key);
    /// let list = builder.build_with_proof_packed(&crs, b"", ZkComputeLoad::Proof)?;
    /// assert!(list.is_empty());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The type of value `index`: `None` past the end, or for a width TFHE-rs has
    /// no name for.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// # use gpufhe::shortint::parameters::PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?
    /// #     .use_dedicated_compact_public_key_parameters((PKE, KS)).build();
    /// # let crs = gpufhe::zk::CompactPkeCrs::from_config(config, 32)?;
    /// # let public_key = gpufhe::CompactPublicKey::new(&gpufhe::ClientKey::generate(config));
    /// use gpufhe::zk::ZkComputeLoad;
    /// use gpufhe::{FheTypes, ProvenCompactCiphertextList};
    /// let list = ProvenCompactCiphertextList::builder(&public_key)
    ///     .push(-1i16)
    ///     .build_with_proof_packed(&crs, b"", ZkComputeLoad::Proof)?;
    /// assert_eq!(list.get_kind_of(0), Some(FheTypes::Int16));
    /// assert_eq!(list.get_kind_of(1), None);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn get_kind_of(&self, index: usize) -> Option<FheTypes> {
        self.kinds
            .get(index)
            .copied()
            .and_then(FheTypes::from_data_kind)
    }

    /// `Err` unless its parts hold exactly the blocks of its values, each part at
    /// most `n` blocks under a mask of `n` words (for lists read from bytes).
    pub(crate) fn validate(&self) -> Result<()> {
        self.parameters.validate()?;
        let n = self.parameters.polynomial_size.0;
        let blocks: usize = block_counts(&self.parameters, &self.kinds, "proven compact list")?
            .iter()
            .sum();
        let stored = if self.packed {
            blocks.div_ceil(2)
        } else {
            blocks
        };
        let held: usize = self.lists.iter().map(|l| l.bodies.len()).sum();
        check_eq("number of blocks of the proven compact list", stored, held)?;
        for list in &self.lists {
            check_eq("words of a proven list's mask", n, list.mask.len())?;
            if list.bodies.is_empty() || list.bodies.len() > n {
                return Err(Error::InvalidParameter(format!(
                    "a part of a proven compact list with {} blocks under a mask of {n} words",
                    list.bodies.len()
                )));
            }
        }
        Ok(())
    }

    /// Whether every proof holds for `public_key`, `crs` and `metadata` (TFHE-rs's
    /// function of this name; the parts are checked in parallel).
    /// [`ZkVerificationOutcome::Invalid`] also for a CRS or key of other
    /// parameters, or a list over the CRS's capacity.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// # use gpufhe::shortint::parameters::PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?
    /// #     .use_dedicated_compact_public_key_parameters((PKE, KS)).build();
    /// # let crs = gpufhe::zk::CompactPkeCrs::from_config(config, 32)?;
    /// # let public_key = gpufhe::CompactPublicKey::new(&gpufhe::ClientKey::generate(config));
    /// use gpufhe::zk::{ZkComputeLoad, ZkVerificationOutcome};
    /// use gpufhe::ProvenCompactCiphertextList;
    /// let list = ProvenCompactCiphertextList::builder(&public_key)
    ///     .push(3u8)
    ///     .build_with_proof_packed(&crs, b"meta", ZkComputeLoad::Proof)?;
    /// assert_eq!(list.verify(&crs, &public_key, b"meta"), ZkVerificationOutcome::Valid);
    /// assert_eq!(list.verify(&crs, &public_key, b"atem"), ZkVerificationOutcome::Invalid);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn verify(
        &self,
        crs: &CompactPkeCrs,
        public_key: &CompactPublicKey,
        metadata: &[u8],
    ) -> ZkVerificationOutcome {
        let Ok(key) = halves_of(public_key) else {
            return ZkVerificationOutcome::Invalid;
        };
        if self.proofs_hold(&key, crs, metadata, false) {
            ZkVerificationOutcome::Valid
        } else {
            ZkVerificationOutcome::Invalid
        }
    }

    /// Whether the list is well formed and each of its proofs holds (its parts
    /// checked in parallel; `caller_pool` as for [`ProvenList::verify`]).
    pub(super) fn proofs_hold(
        &self,
        key: &KeyHalves,
        crs: &CompactPkeCrs,
        metadata: &[u8],
        caller_pool: bool,
    ) -> bool {
        self.validate().is_ok()
            && self
                .lists
                .par_iter()
                .all(|list| list.verify(key, crs, metadata, caller_pool))
    }

    /// Verifies the proofs ([`ProvenCompactCiphertextList::verify`]), then, only if
    /// all hold, expands the values (TFHE-rs's function of this name). `Err`
    /// ([`Error::InvalidZkProof`]) if one does not hold; see
    /// [`ProvenCompactCiphertextList::expand_without_verification`] for the
    /// expansion.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// # use gpufhe::shortint::parameters::PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?
    /// #     .use_dedicated_compact_public_key_parameters((PKE, KS)).build();
    /// # let crs = gpufhe::zk::CompactPkeCrs::from_config(config, 32)?;
    /// # let (client_key, server_key) = gpufhe::generate_keys(config);
    /// # let public_key = gpufhe::CompactPublicKey::new(&client_key);
    /// # gpufhe::set_server_key(server_key);
    /// use gpufhe::prelude::*;
    /// use gpufhe::zk::ZkComputeLoad;
    /// use gpufhe::{FheUint16, ProvenCompactCiphertextList};
    /// let list = ProvenCompactCiphertextList::builder(&public_key)
    ///     .push(1000u16)
    ///     .build_with_proof_packed(&crs, b"", ZkComputeLoad::Verify)?;
    /// let x: FheUint16 = list.verify_and_expand(&crs, &public_key, b"")?.get(0)?.unwrap();
    /// let clear: u16 = x.decrypt(&client_key);
    /// assert_eq!(clear, 1000);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn verify_and_expand(
        &self,
        crs: &CompactPkeCrs,
        public_key: &CompactPublicKey,
        metadata: &[u8],
    ) -> Result<CompactCiphertextListExpander> {
        if self.verify(crs, public_key, metadata).is_invalid() {
            return Err(Error::InvalidZkProof);
        }
        self.expand_without_verification()
    }

    /// Expands the values without checking the proofs: use only on lists whose
    /// proofs were verified (TFHE-rs's function of this name). Lists of dedicated
    /// parameters are keyswitched to the computation key, and the packed blocks
    /// bootstrapped apart, by the server key of the thread: `Err` if none is set, or
    /// it is another key's. Runs on the GPU for a `CudaServerKey` (the values stay
    /// on that GPU), else on the CPU threads.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// # use gpufhe::shortint::parameters::PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?
    /// #     .use_dedicated_compact_public_key_parameters((PKE, KS)).build();
    /// # let crs = gpufhe::zk::CompactPkeCrs::from_config(config, 32)?;
    /// # let (client_key, server_key) = gpufhe::generate_keys(config);
    /// # let public_key = gpufhe::CompactPublicKey::new(&client_key);
    /// # gpufhe::set_server_key(server_key);
    /// use gpufhe::prelude::*;
    /// use gpufhe::zk::ZkComputeLoad;
    /// use gpufhe::{FheInt32, ProvenCompactCiphertextList};
    /// let list = ProvenCompactCiphertextList::builder(&public_key)
    ///     .push(-70000i32)
    ///     .build_with_proof_packed(&crs, b"", ZkComputeLoad::Proof)?;
    /// let x: FheInt32 = list.expand_without_verification()?.get(0)?.unwrap();
    /// let clear: i32 = x.decrypt(&client_key);
    /// assert_eq!(clear, -70000);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn expand_without_verification(&self) -> Result<CompactCiphertextListExpander> {
        self.validate()?;
        let mut stored = Vec::new();
        for list in &self.lists {
            stored.extend(shortint::expand_compact_blocks(
                &self.parameters,
                &[list.glwe()],
                list.bodies.len(),
            )?);
        }
        ExpansionParts {
            tag: self.tag,
            parameters: &self.parameters,
            casting: self.casting.as_ref(),
            kinds: &self.kinds,
            packed: self.packed,
        }
        .expander(None, stored)
    }
}
