//! The server key (keyswitching key + Fourier bootstrap key) and the operations on
//! blocks it enables; its compressed form.

use super::{
    BivariateLookupTable, Ciphertext, ClientKey, LookupTable, ManyLookupTable, PbsKind,
    ShortintParameters,
};
use crate::core_crypto::tfhe_rs_layout::TfheRsMultiBitExtra;
use crate::core_crypto::{
    add_lwe_ciphertext_assign, add_plaintext_to_lwe_ciphertext_assign,
    batch_blind_rotate_lwe_ciphertext, batch_multi_bit_blind_rotate_lwe_ciphertext,
    blind_rotate_assign_multithreaded, extract_lwe_sample_from_glwe_ciphertext,
    keyswitch_lwe_ciphertext, keyswitch_lwe_ciphertext_batch,
    keyswitch_lwe_ciphertext_batch_rounded, keyswitch_lwe_ciphertext_multithreaded,
    keyswitch_lwe_ciphertext_rounded_multithreaded, modulus_switch_lwe_ciphertext,
    mul_lwe_ciphertext_by_scalar_assign, multi_bit_blind_rotate_assign_multithreaded,
    FourierLweBootstrapKey, GlweCiphertextOwned, LweCiphertextOwned, LweKeyswitchKey,
    SeededLweBootstrapKey, SeededLweKeyswitchKey,
};
use crate::error::{check_eq, Error, Result};
use rayon::prelude::*;

/// How many bootstraps one core runs together in [`ServerKey::apply_lookup_table_batch`],
/// sharing each read of the bootstrap key.
pub const PBS_BATCH: usize = 4;

/// Most keyswitches of a batch that share each read of the keyswitching key.
pub const KS_BATCH: usize = 16;

/// Whether a batch with fewer bootstraps than threads splits each bootstrap over
/// several threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SplitBootstraps {
    /// When the pool has more threads than the batch has bootstraps (and those
    /// threads are idle when the bootstrap starts).
    WhenThreadsAllow,
    /// Never: other work will use the other threads.
    Never,
}

/// The public evaluation key: keyswitching key (big to small key) and bootstrap key
/// in the Fourier domain.
///
/// Deserialization checks the parameters and that both keys have their shapes.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "parts::ServerKeyParts<LweKeyswitchKey, FourierLweBootstrapKey>")]
pub struct ServerKey {
    pub(crate) keyswitch_key: LweKeyswitchKey,
    pub(crate) bootstrap_key: FourierLweBootstrapKey,
    pub(crate) parameters: ShortintParameters,
    /// What a multi-bit key lacks of TFHE-rs's, for its TFHE-rs form (not in gpufhe's).
    #[serde(skip)]
    pub(crate) tfhe_rs_extra: Option<std::sync::Arc<TfheRsMultiBitExtra>>,
}

/// The server key as seeds and bodies, about `n + 1` times smaller to store or send;
/// [`CompressedServerKey::decompress`] expands it to exactly the key it stands for.
///
/// Deserialization checks the parameters and that both keys have their shapes.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "parts::ServerKeyParts<SeededLweKeyswitchKey, SeededLweBootstrapKey>")]
pub struct CompressedServerKey {
    pub(crate) keyswitch_key: SeededLweKeyswitchKey,
    pub(crate) bootstrap_key: SeededLweBootstrapKey,
    pub(crate) parameters: ShortintParameters,
}

mod compressed;
mod modulus_switched;
mod paired;
mod parts;

pub use modulus_switched::ModulusSwitchedBlocks;
pub use paired::PairedBlocks;

impl ServerKey {
    /// Generates the server key of `client_key`.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let lut = sk.generate_lookup_table(|x| (x * x) % 16).unwrap();
    /// let out = sk.apply_lookup_table(&ck.encrypt(3).unwrap(), &lut).unwrap();
    /// assert_eq!(ck.decrypt_message_and_carry(&out).unwrap(), 9);
    /// ```
    pub fn new(client_key: &ClientKey) -> Result<Self> {
        CompressedServerKey::new(client_key)?.decompress()
    }

    /// The parameter set.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// assert_eq!(sk.parameters(), ck.parameters());
    /// ```
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The keyswitching key.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// assert_eq!(sk.keyswitch_key().shape(), PARAMETERS.keyswitch_key_shape());
    /// assert_eq!(sk.keyswitch_key().output_lwe_size(), PARAMETERS.lwe_dimension.to_lwe_size());
    /// ```
    pub fn keyswitch_key(&self) -> &LweKeyswitchKey {
        &self.keyswitch_key
    }

    /// The bootstrap key in the Fourier domain.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let shape = sk.bootstrap_key().shape();
    /// assert_eq!(shape, PARAMETERS.bootstrap_key_shape());
    /// // The bootstrap outputs blocks under the big key.
    /// assert_eq!(shape.output_lwe_dimension(), PARAMETERS.big_lwe_dimension());
    /// ```
    pub fn bootstrap_key(&self) -> &FourierLweBootstrapKey {
        &self.bootstrap_key
    }

    /// The lookup table of `f` for this key's parameters.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let double = sk.generate_lookup_table(|x| 2 * x).unwrap();
    /// assert_eq!(double.degree(), 14); // 2 * 7, the largest even value below 16
    /// let out = sk.apply_lookup_table(&ck.encrypt(3).unwrap(), &double).unwrap();
    /// assert_eq!(ck.decrypt_message_and_carry(&out).unwrap(), 6);
    /// ```
    pub fn generate_lookup_table(&self, f: impl Fn(u64) -> u64) -> Result<LookupTable> {
        LookupTable::new(&self.parameters, f)
    }

    /// The lookup table of the two-block function `f(lhs, rhs)`.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let mul = sk.generate_lookup_table_bivariate(|a, b| a * b).unwrap();
    /// let (a, b) = (ck.encrypt(3).unwrap(), ck.encrypt(2).unwrap());
    /// let out = sk.apply_lookup_table_bivariate(&a, &b, &mul).unwrap();
    /// assert_eq!(ck.decrypt_message_and_carry(&out).unwrap(), 6);
    /// ```
    pub fn generate_lookup_table_bivariate(
        &self,
        f: impl Fn(u64, u64) -> u64,
    ) -> Result<BivariateLookupTable> {
        BivariateLookupTable::new(&self.parameters, f)
    }

    /// Keyswitches a block from the big key to the small key.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let small = sk.keyswitch(&ck.encrypt(2).unwrap()).unwrap();
    /// assert_eq!(small.lwe_dimension(), PARAMETERS.lwe_dimension);
    /// // Still 2, now under the small key (delta = 2^59).
    /// let phase = gpufhe::core_crypto::decrypt_lwe_ciphertext(ck.small_lwe_secret_key(), &small).unwrap();
    /// assert_eq!(phase.wrapping_add(1 << 58) >> 59, 2);
    /// ```
    pub fn keyswitch(&self, ct: &Ciphertext) -> Result<LweCiphertextOwned> {
        self.check_block(ct)?;
        let mut out = LweCiphertextOwned::new_zero(self.parameters.lwe_dimension.to_lwe_size());
        keyswitch_lwe_ciphertext(&self.keyswitch_key, &ct.ct, &mut out)?;
        Ok(out)
    }

    /// Evaluates `lut` on a block: keyswitch, then programmable bootstrap (its blind
    /// rotation spread over the idle threads of the rayon pool, bit-identical to one
    /// thread). The result has noise level 1 and the table's degree.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let lut = sk.generate_lookup_table(|x| (x + 1) % 4).unwrap();
    /// for m in 0..4 {
    ///     let out = sk.apply_lookup_table(&ck.encrypt(m).unwrap(), &lut).unwrap();
    ///     assert_eq!(ck.decrypt(&out).unwrap(), (m + 1) % 4);
    ///     assert_eq!(out.noise_level(), 1);
    /// }
    /// ```
    pub fn apply_lookup_table(&self, ct: &Ciphertext, lut: &LookupTable) -> Result<Ciphertext> {
        self.check_lut_input(ct, lut)?;
        let p = &self.parameters;
        // The exact keyswitch of `keyswitch`, spread over the pool (the same bits).
        let mut small = LweCiphertextOwned::new_zero(p.lwe_dimension.to_lwe_size());
        keyswitch_lwe_ciphertext_multithreaded(&self.keyswitch_key, &ct.ct, &mut small)?;
        self.bootstrap_small(&small, lut)
    }

    /// Bootstraps `small` (under the small key) with `lut` on the idle threads of the
    /// pool: the block of the table's output, of noise level 1.
    pub(crate) fn bootstrap_small(
        &self,
        small: &LweCiphertextOwned,
        lut: &LookupTable,
    ) -> Result<Ciphertext> {
        let size = self.parameters.big_lwe_dimension().to_lwe_size();
        let mut out = LweCiphertextOwned::new_zero(size);
        let rotated = self.blind_rotate_multithreaded(small, &lut.accumulator)?;
        extract_lwe_sample_from_glwe_ciphertext(&rotated, &mut out, 0)?;
        Ok(self.fresh_block(out, lut.degree))
    }

    /// A block just out of a bootstrap: noise level 1.
    fn fresh_block(&self, ct: LweCiphertextOwned, degree: u64) -> Ciphertext {
        Ciphertext {
            ct,
            degree,
            noise_level: 1,
            message_modulus: self.parameters.message_modulus,
            carry_modulus: self.parameters.carry_modulus,
        }
    }

    /// `Err` unless `ct` belongs to these parameters, is within the noise budget and
    /// `lut` has the key's shape.
    fn check_lut_input(&self, ct: &Ciphertext, lut: &LookupTable) -> Result<()> {
        let p = &self.parameters;
        self.check_block(ct)?;
        if ct.noise_level > p.max_noise_level {
            return Err(Error::CapacityExceeded(format!(
                "noise level {} exceeds the maximum {} of the parameters",
                ct.noise_level, p.max_noise_level
            )));
        }
        check_eq(
            "polynomial size of the lookup table",
            p.polynomial_size.0,
            lut.accumulator.polynomial_size().0,
        )?;
        check_eq(
            "GLWE size of the lookup table",
            p.glwe_dimension.0 + 1,
            lut.accumulator.glwe_size().0,
        )
    }

    /// The table of several functions evaluated by one bootstrap (see
    /// [`ManyLookupTable`]).
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let lut = sk.generate_many_lookup_table(&[&|x| x % 2, &|x| x / 2]).unwrap();
    /// assert_eq!((lut.function_count(), lut.input_bound()), (2, 8));
    /// let outs = sk.apply_many_lookup_table(&ck.encrypt(3).unwrap(), &lut).unwrap();
    /// assert_eq!(ck.decrypt(&outs[0]).unwrap(), 1);
    /// assert_eq!(ck.decrypt(&outs[1]).unwrap(), 1);
    /// ```
    pub fn generate_many_lookup_table(
        &self,
        fs: &[&dyn Fn(u64) -> u64],
    ) -> Result<ManyLookupTable> {
        ManyLookupTable::new(&self.parameters, fs)
    }

    /// Evaluates every function of `lut` on `ct` with one keyswitch and one bootstrap.
    /// `ct` must hold values below `lut.input_bound()`.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let lut = sk.generate_many_lookup_table(&[&|x| x + 1, &|x| 3 * x]).unwrap();
    /// let outs = sk.apply_many_lookup_table(&ck.encrypt(2).unwrap(), &lut).unwrap();
    /// assert_eq!(ck.decrypt_message_and_carry(&outs[0]).unwrap(), 3);
    /// assert_eq!(ck.decrypt_message_and_carry(&outs[1]).unwrap(), 6);
    /// ```
    pub fn apply_many_lookup_table(
        &self,
        ct: &Ciphertext,
        lut: &ManyLookupTable,
    ) -> Result<Vec<Ciphertext>> {
        let mut outs = self.apply_many_lookup_table_batch(std::slice::from_ref(ct), &[lut])?;
        Ok(outs.pop().expect("one input, one output list"))
    }

    /// Evaluates every function of `luts[j]` on `cts[j]` for every `j`, one keyswitch
    /// and one bootstrap per block: keyswitches in parallel on the rayon pool, then
    /// bootstraps in parallel in groups of [`PBS_BATCH`] that read the key once.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let lut = sk.generate_many_lookup_table(&[&|x| x + 1, &|x| x * x]).unwrap();
    /// let cts = [ck.encrypt(2).unwrap(), ck.encrypt(3).unwrap()];
    /// let outs = sk.apply_many_lookup_table_batch(&cts, &[&lut, &lut]).unwrap();
    /// let clear: Vec<Vec<u64>> = outs
    ///     .iter()
    ///     .map(|o| o.iter().map(|c| ck.decrypt_message_and_carry(c).unwrap()).collect())
    ///     .collect();
    /// assert_eq!(clear, vec![vec![3, 4], vec![4, 9]]);
    /// ```
    pub fn apply_many_lookup_table_batch(
        &self,
        cts: &[Ciphertext],
        luts: &[&ManyLookupTable],
    ) -> Result<Vec<Vec<Ciphertext>>> {
        self.apply_many_lookup_table_batch_with(cts, luts, SplitBootstraps::WhenThreadsAllow)
    }

    /// [`ServerKey::apply_many_lookup_table_batch`], splitting lone bootstraps over
    /// threads only as `split` allows (a scheduler that knows other work is in flight
    /// forbids it, so that concurrent circuits do not fight over cores).
    pub(crate) fn apply_many_lookup_table_batch_with(
        &self,
        cts: &[Ciphertext],
        luts: &[&ManyLookupTable],
        split: SplitBootstraps,
    ) -> Result<Vec<Vec<Ciphertext>>> {
        check_eq(
            "number of lookup tables of the batch",
            cts.len(),
            luts.len(),
        )?;
        for (ct, lut) in cts.iter().zip(luts) {
            if ct.degree >= lut.input_bound {
                return Err(Error::CapacityExceeded(format!(
                    "the block may hold up to {}, a table of {} functions needs values below {}",
                    ct.degree,
                    lut.function_count(),
                    lut.input_bound
                )));
            }
            self.check_lut_input(ct, &lut.table)?;
        }
        let p = &self.parameters;
        let accs: Vec<_> = luts.iter().map(|lut| &lut.table.accumulator).collect();
        let box_size = p.polynomial_size.0 / p.total_modulus() as usize;
        let rotated = self.keyswitch_and_blind_rotate(cts, &accs, split)?;
        rotated
            .into_iter()
            .zip(luts)
            .map(|(acc, lut)| {
                let stride = lut.input_bound as usize * box_size;
                lut.degrees
                    .iter()
                    .enumerate()
                    .map(|(j, &degree)| {
                        let mut out =
                            LweCiphertextOwned::new_zero(p.big_lwe_dimension().to_lwe_size());
                        extract_lwe_sample_from_glwe_ciphertext(&acc, &mut out, j * stride)?;
                        Ok(self.fresh_block(out, degree))
                    })
                    .collect()
            })
            .collect()
    }

    /// Evaluates `luts[j]` on `cts[j]` for every `j`: keyswitches in parallel on the
    /// rayon pool, then bootstraps in parallel in groups of [`PBS_BATCH`], each group
    /// reading the bootstrap key once. Where the parameters allow it
    /// ([`ShortintParameters::keyswitch_rounding_is_negligible`], true of the defaults)
    /// the keyswitches use the key rounded to 32 bits
    /// ([`keyswitch_lwe_ciphertext_batch_rounded`], which explains why that is safe),
    /// so results decrypt like those of [`ServerKey::apply_lookup_table`] on each
    /// block (whose exact keyswitch is the reference the GPU is compared with) without
    /// being the same bits; they do not depend on the number of threads.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let (inc, neg) = (sk.generate_lookup_table(|x| x + 1).unwrap(), sk.generate_lookup_table(|x| (4 - x % 4) % 4).unwrap());
    /// let cts: Vec<_> = (0..4).map(|m| ck.encrypt(m).unwrap()).collect();
    /// let outs = sk.apply_lookup_table_batch(&cts, &[&inc, &neg, &inc, &neg]).unwrap();
    /// let clear: Vec<u64> = outs.iter().map(|c| ck.decrypt_message_and_carry(c).unwrap()).collect();
    /// assert_eq!(clear, vec![1, 3, 3, 1]);
    /// // One table per block.
    /// assert!(sk.apply_lookup_table_batch(&cts, &[&inc]).is_err());
    /// ```
    pub fn apply_lookup_table_batch(
        &self,
        cts: &[Ciphertext],
        luts: &[&LookupTable],
    ) -> Result<Vec<Ciphertext>> {
        check_eq(
            "number of lookup tables of the batch",
            cts.len(),
            luts.len(),
        )?;
        let p = &self.parameters;
        for (ct, lut) in cts.iter().zip(luts) {
            self.check_lut_input(ct, lut)?;
        }
        let accs: Vec<_> = luts.iter().map(|lut| &lut.accumulator).collect();
        let outputs: Vec<LweCiphertextOwned> = self
            .keyswitch_and_blind_rotate(cts, &accs, SplitBootstraps::WhenThreadsAllow)?
            .iter()
            .map(|acc| {
                let mut out = LweCiphertextOwned::new_zero(p.big_lwe_dimension().to_lwe_size());
                extract_lwe_sample_from_glwe_ciphertext(acc, &mut out, 0)?;
                Ok(out)
            })
            .collect::<Result<_>>()?;
        Ok(outputs
            .into_iter()
            .zip(luts)
            .map(|(ct, lut)| self.fresh_block(ct, lut.degree))
            .collect())
    }

    /// Keyswitches every block and blind-rotates a copy of its accumulator by it; the
    /// rotated accumulators hold the table outputs at their coefficients.
    ///
    /// With fewer bootstraps than cores (and `split` allowing it), each one is split
    /// over `k + 1` threads of the pool (and its keyswitch over every thread);
    /// otherwise the batch is cut into groups spread over the rayon pool, each
    /// keyswitched together and bootstrapped in sub-groups of up to [`PBS_BATCH`]
    /// that read the keys once. Both ways keyswitch alike (with the key rounded to 32
    /// bits where the parameters allow it) and give bit-identical results.
    fn keyswitch_and_blind_rotate(
        &self,
        cts: &[Ciphertext],
        accs: &[&GlweCiphertextOwned],
        split: SplitBootstraps,
    ) -> Result<Vec<GlweCiphertextOwned>> {
        let p = &self.parameters;
        let threads = rayon::current_num_threads();
        let glwe_size = p.glwe_dimension.0 + 1;
        let (ksk, rounded) = (&self.keyswitch_key, p.keyswitch_rounding_is_negligible());
        if split == SplitBootstraps::WhenThreadsAllow
            && threads > 1
            && cts.len() * glwe_size <= threads
        {
            return cts
                .par_iter()
                .zip(accs.par_iter())
                .map(|(ct, acc)| {
                    self.check_block(ct)?;
                    let mut small = LweCiphertextOwned::new_zero(p.lwe_dimension.to_lwe_size());
                    if rounded {
                        keyswitch_lwe_ciphertext_rounded_multithreaded(ksk, &ct.ct, &mut small)?;
                    } else {
                        keyswitch_lwe_ciphertext_multithreaded(ksk, &ct.ct, &mut small)?;
                    }
                    self.blind_rotate_multithreaded(&small, acc)
                })
                .collect();
        }
        for ct in cts {
            self.check_block(ct)?;
        }
        // Groups of up to KS_BATCH blocks, at least one per thread, each on one
        // thread: its keyswitches read the keyswitching key once, then its bootstraps
        // run in sub-groups of PBS_BATCH that share the bootstrap key's reads.
        let group = KS_BATCH.min(cts.len().div_ceil(threads.max(1))).max(1);
        let inputs: Vec<&LweCiphertextOwned> = cts.iter().map(|ct| &ct.ct).collect();
        let rotated: Vec<Vec<GlweCiphertextOwned>> = inputs
            .par_chunks(group)
            .zip(accs.par_chunks(group))
            .map(|(inputs, accs)| {
                let small = if rounded {
                    keyswitch_lwe_ciphertext_batch_rounded(ksk, inputs)?
                } else {
                    keyswitch_lwe_ciphertext_batch(ksk, inputs)?
                };
                let mut rotated = Vec::with_capacity(small.len());
                for (small, accs) in small.chunks(PBS_BATCH).zip(accs.chunks(PBS_BATCH)) {
                    rotated.extend(self.blind_rotate_batch(small, accs)?);
                }
                Ok(rotated)
            })
            .collect::<Result<_>>()?;
        Ok(rotated.into_iter().flatten().collect())
    }

    /// Modulus-switches `small` (under the small key) and blind-rotates a copy of
    /// `acc` by it on the threads of the pool that are idle (bit-identical to one
    /// thread).
    fn blind_rotate_multithreaded(
        &self,
        small: &LweCiphertextOwned,
        acc: &GlweCiphertextOwned,
    ) -> Result<GlweCiphertextOwned> {
        let p = &self.parameters;
        let switched =
            modulus_switch_lwe_ciphertext(small, p.polynomial_size.log2() + 1, p.modulus_switch)?;
        let mut rotated = acc.clone();
        super::count_bootstraps(1);
        match p.pbs_kind {
            PbsKind::Classical => {
                blind_rotate_assign_multithreaded(&mut rotated, &switched, &self.bootstrap_key)?
            }
            PbsKind::MultiBit { grouping_factor } => multi_bit_blind_rotate_assign_multithreaded(
                &mut rotated,
                &switched,
                &self.bootstrap_key,
                grouping_factor,
            )?,
        }
        Ok(rotated)
    }

    /// Modulus-switches each block of `small` (under the small key) and blind-rotates a
    /// copy of its accumulator by it, with the blind rotation of the parameters
    /// ([`PbsKind`]), reading the bootstrap key once for the batch.
    fn blind_rotate_batch(
        &self,
        small: &[LweCiphertextOwned],
        accs: &[&GlweCiphertextOwned],
    ) -> Result<Vec<GlweCiphertextOwned>> {
        let (bsk, modulus_switch) = (&self.bootstrap_key, self.parameters.modulus_switch);
        super::count_bootstraps(small.len());
        match self.parameters.pbs_kind {
            PbsKind::Classical => {
                batch_blind_rotate_lwe_ciphertext(small, accs, bsk, modulus_switch)
            }
            PbsKind::MultiBit { grouping_factor } => batch_multi_bit_blind_rotate_lwe_ciphertext(
                small,
                accs,
                bsk,
                grouping_factor,
                modulus_switch,
            ),
        }
    }

    /// Evaluates a two-block table on `lhs * factor + rhs` (both must hold a message
    /// without carries).
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let max = sk.generate_lookup_table_bivariate(|a, b| a.max(b)).unwrap();
    /// let out = sk.apply_lookup_table_bivariate(&ck.encrypt(1).unwrap(), &ck.encrypt(3).unwrap(), &max).unwrap();
    /// assert_eq!(ck.decrypt(&out).unwrap(), 3);
    /// // Blocks with carries do not pack into one: a carry would spill into the other side.
    /// let carried = ck.encrypt_with_carry(5).unwrap();
    /// assert!(sk.apply_lookup_table_bivariate(&carried, &ck.encrypt(0).unwrap(), &max).is_err());
    /// ```
    pub fn apply_lookup_table_bivariate(
        &self,
        lhs: &Ciphertext,
        rhs: &Ciphertext,
        lut: &BivariateLookupTable,
    ) -> Result<Ciphertext> {
        for (side, ct) in [("left", lhs), ("right", rhs)] {
            if ct.degree >= lut.factor {
                return Err(Error::CapacityExceeded(format!(
                    "the {side} block may hold up to {}, a bivariate table needs values below {}",
                    ct.degree, lut.factor
                )));
            }
        }
        let mut packed = self.unchecked_scalar_mul(lhs, lut.factor)?;
        self.unchecked_add_assign(&mut packed, rhs)?;
        self.apply_lookup_table(&packed, &lut.table)
    }

    /// `lhs + rhs` without bootstrap; `Err` if the degree or the noise level would
    /// exceed what the parameters allow.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let mut a = ck.encrypt(3).unwrap();
    /// sk.unchecked_add_assign(&mut a, &ck.encrypt(2).unwrap()).unwrap();
    /// // 5 = carry 1, message 1; degree and noise level add up.
    /// assert_eq!(ck.decrypt_message_and_carry(&a).unwrap(), 5);
    /// assert_eq!((a.degree(), a.noise_level()), (6, 2));
    /// ```
    pub fn unchecked_add_assign(&self, lhs: &mut Ciphertext, rhs: &Ciphertext) -> Result<()> {
        self.check_block(lhs)?;
        self.check_block(rhs)?;
        let degree = lhs.degree + rhs.degree;
        let noise_level = lhs.noise_level + rhs.noise_level;
        self.check_capacity(degree, noise_level)?;
        add_lwe_ciphertext_assign(&mut lhs.ct, &rhs.ct)?;
        lhs.degree = degree;
        lhs.noise_level = noise_level;
        Ok(())
    }

    /// `ct * scalar` without bootstrap; `Err` if the degree or the noise level would
    /// exceed what the parameters allow.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let ct = sk.unchecked_scalar_mul(&ck.encrypt(3).unwrap(), 4).unwrap();
    /// assert_eq!(ck.decrypt_message_and_carry(&ct).unwrap(), 12);
    /// // 3 * 6 = 18 may not fit in 16 values.
    /// assert!(sk.unchecked_scalar_mul(&ck.encrypt(3).unwrap(), 6).is_err());
    /// ```
    pub fn unchecked_scalar_mul(&self, ct: &Ciphertext, scalar: u64) -> Result<Ciphertext> {
        self.check_block(ct)?;
        let degree = ct.degree.saturating_mul(scalar);
        let noise_level = ct.noise_level.saturating_mul(scalar);
        self.check_capacity(degree, noise_level)?;
        let mut out = ct.clone();
        mul_lwe_ciphertext_by_scalar_assign(&mut out.ct, scalar);
        out.degree = degree;
        out.noise_level = noise_level;
        Ok(out)
    }

    /// `ct + scalar` (a clear value added to the block, no bootstrap); `Err` if the
    /// degree would exceed the block.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let mut ct = ck.encrypt(2).unwrap();
    /// sk.unchecked_scalar_add_assign(&mut ct, 7).unwrap();
    /// assert_eq!(ck.decrypt_message_and_carry(&ct).unwrap(), 9);
    /// assert_eq!(ct.noise_level(), 1); // a clear value adds no noise
    /// ```
    pub fn unchecked_scalar_add_assign(&self, ct: &mut Ciphertext, scalar: u64) -> Result<()> {
        self.check_block(ct)?;
        let degree = ct.degree.saturating_add(scalar);
        self.check_capacity(degree, ct.noise_level)?;
        add_plaintext_to_lwe_ciphertext_assign(
            &mut ct.ct,
            scalar.wrapping_mul(self.parameters.delta()),
        );
        ct.degree = degree;
        Ok(())
    }

    /// A trivial (noiseless, unencrypted) block holding `value`.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// // PARAMETERS: DEFAULT_PARAMETERS in real code (fast, insecure test parameters here).
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let t = sk.create_trivial(3).unwrap();
    /// assert_eq!((ck.decrypt(&t).unwrap(), t.degree(), t.noise_level()), (3, 3, 0));
    /// assert!(sk.create_trivial(16).is_err());
    /// ```
    pub fn create_trivial(&self, value: u64) -> Result<Ciphertext> {
        let p = &self.parameters;
        if value >= p.total_modulus() {
            return Err(Error::InvalidParameter(format!(
                "a block holds values below {}, not {value}",
                p.total_modulus()
            )));
        }
        let mut ct = LweCiphertextOwned::new_zero(p.big_lwe_dimension().to_lwe_size());
        add_plaintext_to_lwe_ciphertext_assign(&mut ct, value * p.delta());
        Ok(Ciphertext {
            ct,
            degree: value,
            noise_level: 0,
            message_modulus: p.message_modulus,
            carry_modulus: p.carry_modulus,
        })
    }

    fn check_capacity(&self, degree: u64, noise_level: u64) -> Result<()> {
        self.parameters.check_capacity(degree, noise_level)
    }

    /// `Err` unless `ct` has the moduli and LWE size of this key's parameters.
    pub(crate) fn check_block(&self, ct: &Ciphertext) -> Result<()> {
        ct.check_parameters(&self.parameters)
    }
}

#[cfg(test)]
mod tests;
