//! The server key (keyswitching key + Fourier bootstrap key) and the operations on
//! blocks it enables; its compressed form.

use super::{
    BivariateLookupTable, Ciphertext, ClientKey, LookupTable, ManyLookupTable, PbsKind,
    ShortintParameters,
};
use crate::core_crypto::{
    add_lwe_ciphertext_assign, add_plaintext_to_lwe_ciphertext_assign,
    batch_blind_rotate_lwe_ciphertext, batch_multi_bit_blind_rotate_lwe_ciphertext,
    blind_rotate_assign_multithreaded, extract_lwe_sample_from_glwe_ciphertext,
    generate_seeded_lwe_bootstrap_key, generate_seeded_lwe_keyswitch_key, keyswitch_lwe_ciphertext,
    keyswitch_lwe_ciphertext_batch, keyswitch_lwe_ciphertext_batch_rounded,
    keyswitch_lwe_ciphertext_multithreaded, keyswitch_lwe_ciphertext_rounded_multithreaded,
    modulus_switch_lwe_ciphertext, mul_lwe_ciphertext_by_scalar_assign,
    multi_bit_blind_rotate_assign_multithreaded, multi_bit_lwe_secret_key, BootstrapKeyShape,
    EncryptionRandomGenerator, FourierLweBootstrapKey, GlweCiphertextOwned, KeyswitchKeyShape,
    LweCiphertextOwned, LweKeyswitchKey, Seed, SeededLweBootstrapKey, SeededLweKeyswitchKey,
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
#[serde(try_from = "ServerKeyParts<LweKeyswitchKey, FourierLweBootstrapKey>")]
pub struct ServerKey {
    pub(crate) keyswitch_key: LweKeyswitchKey,
    pub(crate) bootstrap_key: FourierLweBootstrapKey,
    pub(crate) parameters: ShortintParameters,
}

/// The server key as seeds and bodies, about `n + 1` times smaller to store or send;
/// [`CompressedServerKey::decompress`] expands it to exactly the key it stands for.
///
/// Deserialization checks the parameters and that both keys have their shapes.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "ServerKeyParts<SeededLweKeyswitchKey, SeededLweBootstrapKey>")]
pub struct CompressedServerKey {
    pub(crate) keyswitch_key: SeededLweKeyswitchKey,
    pub(crate) bootstrap_key: SeededLweBootstrapKey,
    pub(crate) parameters: ShortintParameters,
}

/// The fields of a server key (plain or compressed) as read, before the shapes of its
/// keys are checked against its parameters.
#[derive(serde::Deserialize)]
struct ServerKeyParts<K, B> {
    keyswitch_key: K,
    bootstrap_key: B,
    parameters: ShortintParameters,
}

/// `Err` unless `parameters` are valid and the keys have the shapes they imply.
fn check_key_shapes(
    parameters: &ShortintParameters,
    keyswitch: KeyswitchKeyShape,
    bootstrap: BootstrapKeyShape,
) -> Result<()> {
    parameters.validate()?;
    if keyswitch != parameters.keyswitch_key_shape() {
        return Err(Error::InvalidParameter(format!(
            "the keyswitching key has shape {keyswitch:?}, its parameters imply {:?}",
            parameters.keyswitch_key_shape()
        )));
    }
    if bootstrap != parameters.bootstrap_key_shape() {
        return Err(Error::InvalidParameter(format!(
            "the bootstrap key has shape {bootstrap:?}, its parameters imply {:?}",
            parameters.bootstrap_key_shape()
        )));
    }
    Ok(())
}

/// Deserialization of a server key type from its parts: the shapes are checked first.
macro_rules! server_key_from_parts {
    ($key:ty, $keyswitch:ty, $bootstrap:ty) => {
        impl TryFrom<ServerKeyParts<$keyswitch, $bootstrap>> for $key {
            type Error = Error;

            fn try_from(parts: ServerKeyParts<$keyswitch, $bootstrap>) -> Result<Self> {
                check_key_shapes(
                    &parts.parameters,
                    parts.keyswitch_key.shape(),
                    parts.bootstrap_key.shape(),
                )?;
                Ok(Self {
                    keyswitch_key: parts.keyswitch_key,
                    bootstrap_key: parts.bootstrap_key,
                    parameters: parts.parameters,
                })
            }
        }
    };
}

server_key_from_parts!(ServerKey, LweKeyswitchKey, FourierLweBootstrapKey);
server_key_from_parts!(
    CompressedServerKey,
    SeededLweKeyswitchKey,
    SeededLweBootstrapKey
);

impl CompressedServerKey {
    /// Generates the compressed server key of `client_key`.
    pub fn new(client_key: &ClientKey) -> Result<Self> {
        let mut rng = EncryptionRandomGenerator::from_os()?;
        Self::with_seeds(client_key, Seed::from_os()?, Seed::from_os()?, &mut rng)
    }

    /// Generates it with explicit mask seeds and noise generator (reproducible keys
    /// for tests; the noise generator's state must stay secret).
    pub fn with_seeds(
        client_key: &ClientKey,
        keyswitch_seed: Seed,
        bootstrap_seed: Seed,
        rng: &mut EncryptionRandomGenerator,
    ) -> Result<Self> {
        let p = client_key.parameters;
        p.check_server_key_memory("generating a server key")?;
        let keyswitch_key = generate_seeded_lwe_keyswitch_key(
            &client_key.big_lwe_secret_key,
            &client_key.small_lwe_secret_key,
            p.ks_base_log,
            p.ks_level,
            p.lwe_noise_distribution,
            keyswitch_seed,
            rng,
        )?;
        // A multi-bit key is a bootstrap key over the indicator bits of the groups.
        let indicator_bits = match p.pbs_kind {
            PbsKind::Classical => None,
            PbsKind::MultiBit { grouping_factor } => Some(multi_bit_lwe_secret_key(
                &client_key.small_lwe_secret_key,
                grouping_factor,
            )?),
        };
        let bootstrap_key = generate_seeded_lwe_bootstrap_key(
            indicator_bits
                .as_ref()
                .unwrap_or(&client_key.small_lwe_secret_key),
            &client_key.glwe_secret_key,
            p.pbs_base_log,
            p.pbs_level,
            p.glwe_noise_distribution,
            bootstrap_seed,
            rng,
        )?;
        Ok(Self {
            keyswitch_key,
            bootstrap_key,
            parameters: p,
        })
    }

    /// Expands the seeds into the server key (and converts the bootstrap key to the
    /// Fourier domain); `Err(OutOfMemory)` if the host cannot reserve the memory
    /// that needs ([`ShortintParameters::server_key_peak_bytes`]).
    pub fn decompress(&self) -> Result<ServerKey> {
        self.parameters
            .check_server_key_memory("decompressing a server key")?;
        Ok(self.expand())
    }

    /// [`CompressedServerKey::decompress`] without the memory check, for callers
    /// that made it already.
    pub(crate) fn expand(&self) -> ServerKey {
        ServerKey {
            keyswitch_key: self.keyswitch_key.decompress(),
            bootstrap_key: FourierLweBootstrapKey::from_standard(&self.bootstrap_key.decompress()),
            parameters: self.parameters,
        }
    }

    /// The parameter set.
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The seeded keyswitching key.
    pub fn keyswitch_key(&self) -> &SeededLweKeyswitchKey {
        &self.keyswitch_key
    }

    /// The seeded bootstrap key (standard domain).
    pub fn bootstrap_key(&self) -> &SeededLweBootstrapKey {
        &self.bootstrap_key
    }
}

impl ServerKey {
    /// Generates the server key of `client_key`.
    ///
    /// ```
    /// use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    /// let sk = ServerKey::new(&ck).unwrap();
    /// let lut = sk.generate_lookup_table(|x| (x * x) % 16).unwrap();
    /// let out = sk.apply_lookup_table(&ck.encrypt(3).unwrap(), &lut).unwrap();
    /// assert_eq!(ck.decrypt_message_and_carry(&out).unwrap(), 9);
    /// ```
    pub fn new(client_key: &ClientKey) -> Result<Self> {
        CompressedServerKey::new(client_key)?.decompress()
    }

    /// The parameter set.
    pub fn parameters(&self) -> &ShortintParameters {
        &self.parameters
    }

    /// The keyswitching key.
    pub fn keyswitch_key(&self) -> &LweKeyswitchKey {
        &self.keyswitch_key
    }

    /// The bootstrap key in the Fourier domain.
    pub fn bootstrap_key(&self) -> &FourierLweBootstrapKey {
        &self.bootstrap_key
    }

    /// The lookup table of `f` for this key's parameters.
    pub fn generate_lookup_table(&self, f: impl Fn(u64) -> u64) -> Result<LookupTable> {
        LookupTable::new(&self.parameters, f)
    }

    /// The lookup table of the two-block function `f(lhs, rhs)`.
    pub fn generate_lookup_table_bivariate(
        &self,
        f: impl Fn(u64, u64) -> u64,
    ) -> Result<BivariateLookupTable> {
        BivariateLookupTable::new(&self.parameters, f)
    }

    /// Keyswitches a block from the big key to the small key.
    pub fn keyswitch(&self, ct: &Ciphertext) -> Result<LweCiphertextOwned> {
        self.check_block(ct)?;
        let mut out = LweCiphertextOwned::new_zero(self.parameters.lwe_dimension.to_lwe_size());
        keyswitch_lwe_ciphertext(&self.keyswitch_key, &ct.ct, &mut out)?;
        Ok(out)
    }

    /// Evaluates `lut` on a block: keyswitch, then programmable bootstrap (its blind
    /// rotation spread over the idle threads of the rayon pool, bit-identical to one
    /// thread). The result has noise level 1 and the table's degree.
    pub fn apply_lookup_table(&self, ct: &Ciphertext, lut: &LookupTable) -> Result<Ciphertext> {
        self.check_lut_input(ct, lut)?;
        let p = &self.parameters;
        // The exact keyswitch of `keyswitch`, spread over the pool (the same bits).
        let mut small = LweCiphertextOwned::new_zero(p.lwe_dimension.to_lwe_size());
        keyswitch_lwe_ciphertext_multithreaded(&self.keyswitch_key, &ct.ct, &mut small)?;
        let mut out = LweCiphertextOwned::new_zero(p.big_lwe_dimension().to_lwe_size());
        let rotated = self.blind_rotate_multithreaded(&small, &lut.accumulator)?;
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
    /// use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
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
mod tests {
    use super::*;
    use crate::core_crypto::{DecompositionBaseLog, DecompositionLevelCount};
    use crate::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;

    fn check_all_values(params: ShortintParameters) {
        let ck = ClientKey::new(params).unwrap();
        let sk = ServerKey::new(&ck).unwrap();
        let f = |x: u64| (7 * x + 2) % 16;
        let lut = sk.generate_lookup_table(f).unwrap();
        for x in 0..params.total_modulus() {
            let out = sk
                .apply_lookup_table(&ck.encrypt_with_carry(x).unwrap(), &lut)
                .unwrap();
            assert_eq!(ck.decrypt_message_and_carry(&out).unwrap(), f(x), "f({x})");
        }
    }

    #[test]
    fn lookup_tables_on_insecure_test_parameters() {
        check_all_values(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2);
    }

    #[test]
    fn keyswitch_rounding_only_where_its_noise_is_negligible() {
        assert!(crate::shortint::DEFAULT_PARAMETERS.keyswitch_rounding_is_negligible());
        // Small test noise: the CPU keyswitches exactly, so batches give the same bits
        // as `apply_lookup_table` (the tests below).
        assert!(!PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2.keyswitch_rounding_is_negligible());
    }

    #[test]
    fn batched_lookup_tables_match_one_at_a_time_bit_for_bit() {
        let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
        let sk = ServerKey::new(&ck).unwrap();
        let square = sk.generate_lookup_table(|x| x * x).unwrap();
        let plus_one = sk.generate_lookup_table(|x| x + 1).unwrap();
        let cts: Vec<Ciphertext> = (0..11).map(|x| ck.encrypt_with_carry(x).unwrap()).collect();
        let luts: Vec<&LookupTable> = (0..11)
            .map(|j| if j % 3 == 0 { &square } else { &plus_one })
            .collect();
        let batch = sk.apply_lookup_table_batch(&cts, &luts).unwrap();
        for (j, (ct, lut)) in cts.iter().zip(&luts).enumerate() {
            let one = sk.apply_lookup_table(ct, lut).unwrap();
            assert_eq!(batch[j], one, "block {j}");
            let x = j as u64;
            let expected = if j % 3 == 0 { x * x % 16 } else { x + 1 };
            assert_eq!(ck.decrypt_message_and_carry(&batch[j]).unwrap(), expected);
        }
        assert!(sk.apply_lookup_table_batch(&cts, &luts[..3]).is_err());
    }

    #[test]
    fn bootstraps_split_over_threads_are_bit_identical() {
        let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
        let sk = ServerKey::new(&ck).unwrap();
        let lut = sk.generate_lookup_table(|x| (3 * x + 1) % 16).unwrap();
        for threads in [2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for count in [1usize, 2] {
                let cts: Vec<Ciphertext> = (0..count as u64)
                    .map(|x| ck.encrypt_with_carry(x + 5).unwrap())
                    .collect();
                let luts = vec![&lut; count];
                let split = pool.install(|| sk.apply_lookup_table_batch(&cts, &luts).unwrap());
                for (x, (ct, out)) in cts.iter().zip(&split).enumerate() {
                    assert_eq!(*out, sk.apply_lookup_table(ct, &lut).unwrap());
                    let x = x as u64 + 5;
                    assert_eq!(ck.decrypt_message_and_carry(out).unwrap(), (3 * x + 1) % 16);
                }
            }
        }
    }

    #[test]
    fn many_functions_from_one_bootstrap() {
        let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
        let sk = ServerKey::new(&ck).unwrap();
        let fs: [&dyn Fn(u64) -> u64; 4] = [&|x| x, &|x| x * 5, &|x| 15 - x, &|x| (x == 2) as u64];
        let lut = sk.generate_many_lookup_table(&fs).unwrap();
        assert_eq!(lut.input_bound(), 4);
        for x in 0..4 {
            let outs = sk
                .apply_many_lookup_table(&ck.encrypt(x).unwrap(), &lut)
                .unwrap();
            for (j, f) in fs.iter().enumerate() {
                assert_eq!(
                    ck.decrypt_message_and_carry(&outs[j]).unwrap(),
                    f(x),
                    "f_{j}({x})"
                );
            }
        }
        // Inputs beyond the bound and counts that are not powers of two are errors.
        assert!(sk
            .apply_many_lookup_table(&ck.encrypt_with_carry(5).unwrap(), &lut)
            .is_err());
        assert!(sk.generate_many_lookup_table(&fs[..3]).is_err());
    }

    #[test]
    fn multi_level_bootstrap_decomposition() {
        let mut params = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
        params.pbs_base_log = DecompositionBaseLog(12);
        params.pbs_level = DecompositionLevelCount(3);
        check_all_values(params);
    }

    #[test]
    fn standard_modulus_switch_and_gaussian_noise() {
        let mut params = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
        params.modulus_switch = crate::core_crypto::ModulusSwitchType::Standard;
        params.glwe_noise_distribution = crate::core_crypto::NoiseDistribution::Gaussian {
            std_dev: 2f64.powi(-44),
        };
        params.lwe_noise_distribution = crate::core_crypto::NoiseDistribution::Gaussian {
            std_dev: 2f64.powi(-44),
        };
        check_all_values(params);
    }

    #[test]
    fn invalid_parameters_are_rejected() {
        let mut params = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
        params.message_modulus = 3;
        assert!(ClientKey::new(params).is_err());
        let mut params = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
        params.ks_level = DecompositionLevelCount(17);
        assert!(ClientKey::new(params).is_err());
        let mut params = PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2;
        params.polynomial_size = crate::core_crypto::PolynomialSize(1000);
        assert!(ClientKey::new(params).is_err());
    }
}
