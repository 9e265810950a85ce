//! Verification and expansion of many proven lists at once, as a server does with
//! the inputs of many users: each list verified, then (only if its proofs hold)
//! expanded, the lists spread over the rayon threads so that one list's
//! verification overlaps others' expansions.

use super::proven::halves_of;
use super::{CompactPkeCrs, ProvenCompactCiphertextList};
use crate::error::{Error, Result};
use crate::high_level::global_state::{current_server_key, KeyGuard};
use crate::high_level::{CompactCiphertextListExpander, CompactPublicKey};
use rayon::prelude::*;

impl ProvenCompactCiphertextList {
    /// [`ProvenCompactCiphertextList::verify_and_expand`] of each of `lists`, all
    /// with `crs`, `public_key` and `metadata`, on all the rayon threads: one
    /// outcome per list, in order, each list expanded only after its own proofs
    /// verified (`Err(`[`Error::InvalidZkProof`]`)` for a list whose proofs do not
    /// hold; the other lists are not affected). The lists are expanded with the
    /// calling thread's server key, as `verify_and_expand` would on this thread.
    ///
    /// Faster than verifying and expanding the lists one after the other, or
    /// calling `verify_and_expand` from a parallel iterator: each list is one rayon
    /// task, and its verification runs on the calling pool (not on the proof
    /// system's own verification threads), so that the serial steps of one
    /// verification (hashing, the final exponentiations of the pairings) leave
    /// the other threads to the verification or the expansion of other lists. At
    /// most one list per thread is in flight; the memory held is that of the
    /// outcomes.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST;
    /// # use gpufhe::shortint::parameters::PARAM_PKE_INSECURE_TEST_MESSAGE_2_CARRY_2_ZKV2 as PKE;
    /// # use gpufhe::shortint::parameters::PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS;
    /// # let config = gpufhe::ConfigBuilder::default().with_insecure_custom_parameters(TEST)?
    /// #     .use_dedicated_compact_public_key_parameters((PKE, KS)).build();
    /// # let crs = gpufhe::zk::CompactPkeCrs::from_config(config, 8)?;
    /// # let (client_key, server_key) = gpufhe::generate_keys(config);
    /// # let public_key = gpufhe::CompactPublicKey::new(&client_key);
    /// use gpufhe::prelude::*;
    /// use gpufhe::zk::ZkComputeLoad;
    /// use gpufhe::{set_server_key, Error, FheUint8, ProvenCompactCiphertextList};
    /// let prove = |x: u8, metadata: &[u8]| {
    ///     ProvenCompactCiphertextList::builder(&public_key)
    ///         .push(x)
    ///         .build_with_proof_packed(&crs, metadata, ZkComputeLoad::Proof)
    /// };
    /// // The second list was proven for other metadata: it alone is refused.
    /// let lists = [prove(1, b"meta")?, prove(2, b"other")?];
    /// set_server_key(server_key);
    /// let out = ProvenCompactCiphertextList::verify_and_expand_batch(&lists, &crs, &public_key, b"meta");
    /// let x: FheUint8 = out[0].as_ref().unwrap().get(0)?.unwrap();
    /// let clear: u8 = x.decrypt(&client_key);
    /// assert_eq!(clear, 1);
    /// assert_eq!(out[1].as_ref().unwrap_err(), &Error::InvalidZkProof);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn verify_and_expand_batch(
        lists: &[Self],
        crs: &CompactPkeCrs,
        public_key: &CompactPublicKey,
        metadata: &[u8],
    ) -> Vec<Result<CompactCiphertextListExpander>> {
        let Ok(key) = halves_of(public_key) else {
            return lists.iter().map(|_| Err(Error::InvalidZkProof)).collect();
        };
        let server_key = current_server_key().ok();
        lists
            .par_iter()
            .with_max_len(1)
            .map(|list| {
                if !list.proofs_hold(&key, crs, metadata, true) {
                    return Err(Error::InvalidZkProof);
                }
                let _guard = KeyGuard::set(server_key.clone().map(Ok));
                list.expand_without_verification()
            })
            .collect()
    }
}
