//! Blind rotation and programmable bootstrapping (PBS).
//!
//! The accumulator, a GLWE encryption of a lookup-table polynomial, is rotated by
//! `X^(-b')` and then, for each coefficient `a'_i` of the modulus-switched mask, by
//! `X^(a'_i s_i)` through a CMux on the GGSW encryption of `s_i`:
//! `ACC += GGSW(s_i) ⊡ (X^(a'_i) ACC - ACC)`. The external product `⊡` decomposes
//! each polynomial of its GLWE input, multiplies by the GGSW rows in the Fourier
//! domain and returns to integers once per output polynomial.

use super::decomposition::SignedDecomposer;
use super::modulus_switch::{
    modulus_switch_lwe_ciphertext, ModulusSwitchType, ModulusSwitchedLweCiphertext,
};
use super::polynomial::{polynomial_rotate_left, polynomial_rotate_minus_self};
use super::sample_extraction::extract_lwe_sample_from_glwe_ciphertext;
use crate::core_crypto::entities::{FourierLweBootstrapKey, GlweCiphertext, LweCiphertext};
use crate::core_crypto::fft::{fft_for, Fft};
use crate::error::{check_eq, Result};
use dyn_stack::PodBuffer;
use tfhe_fft::c64;

/// Blind-rotates `acc` by the phase of `switched` (modulo `2N`): afterwards its
/// constant coefficient encrypts the coefficient of index `b' - <a', s>` of the
/// original accumulator polynomial (negated past `N`).
///
/// ```
/// # use gpufhe::core_crypto::*;
/// # // Toy dimensions (insecure): 2-bit messages and a padding bit, encoded as m * 2^61.
/// # let (poly, delta) = (PolynomialSize(256), 1u64 << 61);
/// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// # let mut secret = SecretRandomGenerator::from_os().unwrap();
/// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// # let small_key = LweSecretKey::generate_binary(LweDimension(32), &mut secret);
/// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), poly, &mut secret).unwrap();
/// # let big_key = glwe_key.as_lwe_secret_key();
/// # let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
/// # // The table of f over the 4 messages: a trivial GLWE ciphertext whose body holds
/// # // f(m) * delta on the N / 4 coefficients of m, shifted by half of them.
/// # let table = |f: fn(u64) -> u64| {
/// #     let (n, half) = (poly.0, poly.0 / 8);
/// #     let mut data = vec![0u64; 2 * n];
/// #     for (j, c) in data[n..].iter_mut().enumerate() {
/// #         let x = j + half;
/// #         *c = if x < n { f((x / (n / 4)) as u64) * delta } else { (f(0) * delta).wrapping_neg() };
/// #     }
/// #     GlweCiphertext::from_container(data, poly).unwrap()
/// # };
/// # let decode = |key: &LweSecretKey, ct: &LweCiphertextOwned| {
/// #     decrypt_lwe_ciphertext(key, ct).unwrap().wrapping_add(delta / 2) / delta
/// # };
/// # let bsk = generate_lwe_bootstrap_key(&small_key, &glwe_key, b, l, noise, &mut rng).unwrap();
/// # let bsk = FourierLweBootstrapKey::from_standard(&bsk);
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&small_key, 2 * delta, noise, &mut rng).unwrap();
/// let switched = modulus_switch_lwe_ciphertext(&ct, poly.log2() + 1, ModulusSwitchType::Standard).unwrap();
/// let mut acc = table(|m| (3 * m + 1) % 4);
/// blind_rotate_assign(&mut acc, &switched, &bsk).unwrap();
/// // The constant coefficient now encrypts f(2) = 7 mod 4 = 3 under the GLWE key.
/// let mut out = LweCiphertextOwned::new_zero(big_key.lwe_dimension().to_lwe_size());
/// extract_lwe_sample_from_glwe_ciphertext(&acc, &mut out, 0).unwrap();
/// assert_eq!(decode(&big_key, &out), 3);
/// ```
pub fn blind_rotate_assign<C>(
    acc: &mut GlweCiphertext<C>,
    switched: &ModulusSwitchedLweCiphertext,
    bsk: &FourierLweBootstrapKey,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
{
    check_blind_rotation_shapes(acc, switched, bsk)?;
    rotate_by_body(
        acc.as_mut_slice(),
        switched.body,
        bsk.shape().polynomial_size.0,
    );
    pulp::Arch::new().dispatch(CmuxChain {
        accs: vec![acc.as_mut_slice()],
        masks: vec![&switched.mask],
        bsk,
    });
    Ok(())
}

pub(super) fn check_blind_rotation_shapes<C: AsRef<[u64]>>(
    acc: &GlweCiphertext<C>,
    switched: &ModulusSwitchedLweCiphertext,
    bsk: &FourierLweBootstrapKey,
) -> Result<()> {
    check_eq(
        "LWE dimension of the switched input",
        bsk.shape().input_lwe_dimension.0,
        switched.mask.len(),
    )?;
    check_accumulator_and_modulus(acc, switched, bsk)
}

/// `Err` unless `acc` has the key's GLWE shape and `switched` its modulus `2N`.
pub(super) fn check_accumulator_and_modulus<C: AsRef<[u64]>>(
    acc: &GlweCiphertext<C>,
    switched: &ModulusSwitchedLweCiphertext,
    bsk: &FourierLweBootstrapKey,
) -> Result<()> {
    let shape = bsk.shape();
    check_eq(
        "polynomial size of the accumulator",
        shape.polynomial_size.0,
        acc.polynomial_size().0,
    )?;
    check_eq(
        "GLWE size of the accumulator",
        shape.glwe_dimension.0 + 1,
        acc.glwe_size().0,
    )?;
    check_eq(
        "modulus of the switched input (log2, must be log2(2N))",
        shape.polynomial_size.log2() + 1,
        switched.log_modulus,
    )
}

/// `acc = X^(-body) acc`, polynomial by polynomial.
pub(super) fn rotate_by_body(acc: &mut [u64], body: usize, n: usize) {
    let mut rotated = vec![0u64; n];
    for poly in acc.chunks_exact_mut(n) {
        polynomial_rotate_left(&mut rotated, poly, body);
        poly.copy_from_slice(&rotated);
    }
}

/// Programmable bootstrap: modulus switch of `input`, blind rotation of
/// `accumulator` and extraction of the constant coefficient into `output` (under the
/// GLWE key read as an LWE key). The noise of `output` is that of the bootstrap,
/// independent of the noise of `input`.
///
/// See [`crate::shortint`] for lookup tables that make this evaluate a function.
///
/// ```
/// use gpufhe::core_crypto::*;
///
/// // Toy dimensions, far from secure, so that the example runs in a blink: a small
/// // LWE key of 128 bits, a GLWE key of one polynomial of 512 bits.
/// let (n, k, poly) = (LweDimension(128), GlweDimension(1), PolynomialSize(512));
/// let noise = NoiseDistribution::TUniform { log2_bound: 20 };
///
/// // Secret keys. Messages live under the big key: the GLWE key's coefficients read
/// // as an LWE key of dimension k * N. Bootstraps read the small key.
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let small_key = LweSecretKey::generate_binary(n, &mut secret);
/// let glwe_key = GlweSecretKey::generate_binary(k, poly, &mut secret).unwrap();
/// let big_key = glwe_key.as_lwe_secret_key();
///
/// // Public keys: big key -> small key (keyswitch), small key -> GLWE key (bootstrap,
/// // converted once to the Fourier domain where blind rotation works).
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let ksk = generate_lwe_keyswitch_key(
///     &big_key, &small_key, DecompositionBaseLog(5), DecompositionLevelCount(4), noise, &mut rng,
/// )
/// .unwrap();
/// let bsk = generate_lwe_bootstrap_key(
///     &small_key, &glwe_key, DecompositionBaseLog(15), DecompositionLevelCount(2), noise, &mut rng,
/// )
/// .unwrap();
/// let bsk = FourierLweBootstrapKey::from_standard(&bsk);
///
/// // Encoding: a 2-bit message m in the top bits below a zero padding bit, m * 2^61.
/// let delta = 1u64 << 61;
/// let f = |m: u64| (3 * m + 1) % 4;
///
/// // The lookup table of f: a trivial GLWE ciphertext (zero mask) whose body gives each
/// // message a box of N / 4 coefficients holding f(m) * delta. Shifted by half a box, so
/// // that noise on either side of m stays in m's box; the negacyclic wrap (-f(0) past the
/// // end) reads as f(0) for phases slightly below zero.
/// let box_size = poly.0 / 4;
/// let mut accumulator = vec![0u64; poly.0]; // the mask polynomial
/// for j in 0..poly.0 {
///     let x = j + box_size / 2;
///     accumulator.push(if x < poly.0 {
///         f((x / box_size) as u64) * delta
///     } else {
///         (f(0) * delta).wrapping_neg()
///     });
/// }
/// let accumulator = GlweCiphertext::from_container(accumulator, poly).unwrap();
///
/// for m in 0..4 {
///     // Encrypt under the big key, keyswitch to the small key, bootstrap back.
///     let ct = allocate_and_encrypt_new_lwe_ciphertext(&big_key, m * delta, noise, &mut rng).unwrap();
///     let mut small = LweCiphertextOwned::new_zero(n.to_lwe_size());
///     keyswitch_lwe_ciphertext(&ksk, &ct, &mut small).unwrap();
///     let mut out = LweCiphertextOwned::new_zero(big_key.lwe_dimension().to_lwe_size());
///     programmable_bootstrap_lwe_ciphertext(
///         &small, &mut out, &accumulator, &bsk, ModulusSwitchType::CenteredMeanNoiseReduction,
///     )
///     .unwrap();
///
///     // Decrypt and round away the (fresh, bootstrap-sized) noise.
///     let phase = decrypt_lwe_ciphertext(&big_key, &out).unwrap();
///     assert_eq!(phase.wrapping_add(delta / 2) / delta, f(m));
/// }
/// ```
pub fn programmable_bootstrap_lwe_ciphertext<C, D, E>(
    input: &LweCiphertext<C>,
    output: &mut LweCiphertext<D>,
    accumulator: &GlweCiphertext<E>,
    bsk: &FourierLweBootstrapKey,
    modulus_switch: ModulusSwitchType,
) -> Result<()>
where
    C: AsRef<[u64]>,
    D: AsRef<[u64]> + AsMut<[u64]>,
    E: AsRef<[u64]>,
{
    batch_programmable_bootstrap_lwe_ciphertext(
        std::slice::from_ref(input),
        std::slice::from_mut(output),
        &[accumulator],
        bsk,
        modulus_switch,
    )
}

/// Bootstraps `inputs[j]` through `accumulators[j]` into `outputs[j]` for every `j`,
/// reading the bootstrap key once for the whole batch: each GGSW ciphertext is used
/// by every member of the batch while it is in cache. Results are bit-identical to
/// bootstrapping one at a time; a batch of 2 to 8 saves most of the memory traffic
/// of the key on one core.
///
/// ```
/// # use gpufhe::core_crypto::*;
/// # // Toy dimensions (insecure): 2-bit messages and a padding bit, encoded as m * 2^61.
/// # let (poly, delta) = (PolynomialSize(256), 1u64 << 61);
/// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// # let mut secret = SecretRandomGenerator::from_os().unwrap();
/// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// # let small_key = LweSecretKey::generate_binary(LweDimension(32), &mut secret);
/// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), poly, &mut secret).unwrap();
/// # let big_key = glwe_key.as_lwe_secret_key();
/// # let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
/// # // The table of f over the 4 messages: a trivial GLWE ciphertext whose body holds
/// # // f(m) * delta on the N / 4 coefficients of m, shifted by half of them.
/// # let table = |f: fn(u64) -> u64| {
/// #     let (n, half) = (poly.0, poly.0 / 8);
/// #     let mut data = vec![0u64; 2 * n];
/// #     for (j, c) in data[n..].iter_mut().enumerate() {
/// #         let x = j + half;
/// #         *c = if x < n { f((x / (n / 4)) as u64) * delta } else { (f(0) * delta).wrapping_neg() };
/// #     }
/// #     GlweCiphertext::from_container(data, poly).unwrap()
/// # };
/// # let decode = |key: &LweSecretKey, ct: &LweCiphertextOwned| {
/// #     decrypt_lwe_ciphertext(key, ct).unwrap().wrapping_add(delta / 2) / delta
/// # };
/// # let bsk = generate_lwe_bootstrap_key(&small_key, &glwe_key, b, l, noise, &mut rng).unwrap();
/// # let bsk = FourierLweBootstrapKey::from_standard(&bsk);
/// let inputs: Vec<_> = (0..4u64)
///     .map(|m| allocate_and_encrypt_new_lwe_ciphertext(&small_key, m * delta, noise, &mut rng).unwrap())
///     .collect();
/// let (square, negate) = (table(|m| m * m % 4), table(|m| (4 - m) % 4));
/// let accumulators = [&square, &negate, &square, &negate];
/// let mut outputs = vec![LweCiphertextOwned::new_zero(big_key.lwe_dimension().to_lwe_size()); 4];
/// let ms = ModulusSwitchType::Standard;
/// batch_programmable_bootstrap_lwe_ciphertext(&inputs, &mut outputs, &accumulators, &bsk, ms).unwrap();
/// let decoded: Vec<u64> = outputs.iter().map(|ct| decode(&big_key, ct)).collect();
/// assert_eq!(decoded, vec![0, 3, 0, 1]);
/// // The same bits as one bootstrap at a time.
/// let mut alone = LweCiphertextOwned::new_zero(big_key.lwe_dimension().to_lwe_size());
/// programmable_bootstrap_lwe_ciphertext(&inputs[1], &mut alone, &negate, &bsk, ms).unwrap();
/// assert_eq!(alone, outputs[1]);
/// ```
pub fn batch_programmable_bootstrap_lwe_ciphertext<C, D, E>(
    inputs: &[LweCiphertext<C>],
    outputs: &mut [LweCiphertext<D>],
    accumulators: &[&GlweCiphertext<E>],
    bsk: &FourierLweBootstrapKey,
    modulus_switch: ModulusSwitchType,
) -> Result<()>
where
    C: AsRef<[u64]>,
    D: AsRef<[u64]> + AsMut<[u64]>,
    E: AsRef<[u64]>,
{
    let shape = bsk.shape();
    check_eq("number of bootstrap outputs", inputs.len(), outputs.len())?;
    for output in outputs.iter() {
        output.check_size(
            "LWE size of the bootstrap output",
            shape.output_lwe_dimension().to_lwe_size(),
        )?;
    }
    let accs = batch_blind_rotate_lwe_ciphertext(inputs, accumulators, bsk, modulus_switch)?;
    for (acc, output) in accs.iter().zip(outputs.iter_mut()) {
        extract_lwe_sample_from_glwe_ciphertext(acc, output, 0)?;
    }
    Ok(())
}

/// Modulus-switches each input and blind-rotates a copy of its accumulator by it,
/// reading the bootstrap key once for the whole batch; returns the rotated
/// accumulators, from which any coefficient can be extracted (several functions of
/// one bootstrap live at different coefficients).
///
/// ```
/// # use gpufhe::core_crypto::*;
/// # // Toy dimensions (insecure): 2-bit messages and a padding bit, encoded as m * 2^61.
/// # let (poly, delta) = (PolynomialSize(256), 1u64 << 61);
/// # let noise = NoiseDistribution::TUniform { log2_bound: 20 };
/// # let mut secret = SecretRandomGenerator::from_os().unwrap();
/// # let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// # let small_key = LweSecretKey::generate_binary(LweDimension(32), &mut secret);
/// # let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), poly, &mut secret).unwrap();
/// # let big_key = glwe_key.as_lwe_secret_key();
/// # let (b, l) = (DecompositionBaseLog(15), DecompositionLevelCount(2));
/// # // The table of f over the 4 messages: a trivial GLWE ciphertext whose body holds
/// # // f(m) * delta on the N / 4 coefficients of m, shifted by half of them.
/// # let table = |f: fn(u64) -> u64| {
/// #     let (n, half) = (poly.0, poly.0 / 8);
/// #     let mut data = vec![0u64; 2 * n];
/// #     for (j, c) in data[n..].iter_mut().enumerate() {
/// #         let x = j + half;
/// #         *c = if x < n { f((x / (n / 4)) as u64) * delta } else { (f(0) * delta).wrapping_neg() };
/// #     }
/// #     GlweCiphertext::from_container(data, poly).unwrap()
/// # };
/// # let decode = |key: &LweSecretKey, ct: &LweCiphertextOwned| {
/// #     decrypt_lwe_ciphertext(key, ct).unwrap().wrapping_add(delta / 2) / delta
/// # };
/// # let bsk = generate_lwe_bootstrap_key(&small_key, &glwe_key, b, l, noise, &mut rng).unwrap();
/// # let bsk = FourierLweBootstrapKey::from_standard(&bsk);
/// let inputs: Vec<_> = (0..3u64)
///     .map(|m| allocate_and_encrypt_new_lwe_ciphertext(&small_key, m * delta, noise, &mut rng).unwrap())
///     .collect();
/// let identity = table(|m| m);
/// let rotated = batch_blind_rotate_lwe_ciphertext(&inputs, &[&identity; 3], &bsk, ModulusSwitchType::Standard).unwrap();
/// for (m, acc) in (0..3u64).zip(&rotated) {
///     let mut out = LweCiphertextOwned::new_zero(big_key.lwe_dimension().to_lwe_size());
///     // Coefficient 0 holds f(m); one box of N / 4 coefficients further, f(m + 1).
///     extract_lwe_sample_from_glwe_ciphertext(acc, &mut out, 0).unwrap();
///     assert_eq!(decode(&big_key, &out), m);
///     extract_lwe_sample_from_glwe_ciphertext(acc, &mut out, poly.0 / 4).unwrap();
///     assert_eq!(decode(&big_key, &out), m + 1);
/// }
/// ```
pub fn batch_blind_rotate_lwe_ciphertext<C, E>(
    inputs: &[LweCiphertext<C>],
    accumulators: &[&GlweCiphertext<E>],
    bsk: &FourierLweBootstrapKey,
    modulus_switch: ModulusSwitchType,
) -> Result<Vec<GlweCiphertext<Vec<u64>>>>
where
    C: AsRef<[u64]>,
    E: AsRef<[u64]>,
{
    let shape = bsk.shape();
    let (switched, mut accs) =
        switch_and_rotate_by_body(inputs, accumulators, bsk, modulus_switch, |n| {
            check_eq(
                "LWE dimension of the bootstrap input",
                shape.input_lwe_dimension.0,
                n,
            )
        })?;
    pulp::Arch::new().dispatch(CmuxChain {
        accs: accs.iter_mut().map(|a| a.as_mut_slice()).collect(),
        masks: switched.iter().map(|s| s.mask.as_slice()).collect(),
        bsk,
    });
    Ok(accs)
}

/// The first steps of a batch of blind rotations: `check_input` on each input's
/// dimension, its modulus switch to `2N`, and a copy of its accumulator rotated by
/// `X^(-body)`; `Err` unless there is one accumulator per input, each of the key's
/// shape.
#[allow(clippy::type_complexity)]
pub(super) fn switch_and_rotate_by_body<C, E>(
    inputs: &[LweCiphertext<C>],
    accumulators: &[&GlweCiphertext<E>],
    bsk: &FourierLweBootstrapKey,
    modulus_switch: ModulusSwitchType,
    check_input: impl Fn(usize) -> Result<()>,
) -> Result<(
    Vec<ModulusSwitchedLweCiphertext>,
    Vec<GlweCiphertext<Vec<u64>>>,
)>
where
    C: AsRef<[u64]>,
    E: AsRef<[u64]>,
{
    check_eq(
        "number of bootstrap accumulators",
        inputs.len(),
        accumulators.len(),
    )?;
    let poly = bsk.shape().polynomial_size;
    let mut switched = Vec::with_capacity(inputs.len());
    let mut accs = Vec::with_capacity(inputs.len());
    for (input, accumulator) in inputs.iter().zip(accumulators) {
        check_input(input.lwe_dimension().0)?;
        let s = modulus_switch_lwe_ciphertext(input, poly.log2() + 1, modulus_switch)?;
        let mut acc = GlweCiphertext::from_container(
            accumulator.as_slice().to_vec(),
            accumulator.polynomial_size(),
        )?;
        check_accumulator_and_modulus(&acc, &s, bsk)?;
        rotate_by_body(acc.as_mut_slice(), s.body, poly.0);
        switched.push(s);
        accs.push(acc);
    }
    Ok((switched, accs))
}

/// The CMux chain, compiled for the best SIMD level of the machine (AVX-512, AVX2,
/// or scalar) by pulp: everything it calls is inlined into that instantiation.
pub(super) struct CmuxChain<'a> {
    pub(super) accs: Vec<&'a mut [u64]>,
    pub(super) masks: Vec<&'a [usize]>,
    pub(super) bsk: &'a FourierLweBootstrapKey,
}

impl pulp::WithSimd for CmuxChain<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) {
        let mut accs = self.accs;
        cmux_chain(simd, &mut accs, &self.masks, self.bsk)
    }
}

/// The CMux chains of a batch over every GGSW of the key, GGSW-major so that each
/// GGSW is read from memory once per batch; shapes are checked by the caller.
#[inline(always)]
fn cmux_chain<S: pulp::Simd>(
    simd: S,
    accs: &mut [&mut [u64]],
    masks: &[&[usize]],
    bsk: &FourierLweBootstrapKey,
) {
    let shape = bsk.shape();
    let half = shape.polynomial_size.to_fourier_polynomial_size();
    let glwe_size = shape.glwe_dimension.0 + 1;
    let mut digits = DigitBuffers::new(bsk);
    let mut fourier_in = vec![c64::default(); glwe_size * shape.level.0 * half];
    let mut fourier_out = vec![c64::default(); glwe_size * half];
    for i in 0..shape.input_lwe_dimension.0 {
        let ggsw = bsk.ggsw(i);
        for (acc, mask) in accs.iter_mut().zip(masks) {
            let a = mask[i];
            if a == 0 {
                // X^0 ACC - ACC = 0: the CMux leaves ACC unchanged.
                continue;
            }
            // acc += GGSW ⊡ (X^a acc - acc).
            let n = acc.len() / glwe_size;
            let rows_per_poly = fourier_in.len() / glwe_size;
            for (poly, rows) in acc
                .chunks_exact(n)
                .zip(fourier_in.chunks_exact_mut(rows_per_poly))
            {
                digits.forward(simd, poly, a, rows);
            }
            let rows: Vec<&[c64]> = fourier_in.chunks_exact(half).collect();
            multiply_accumulate_ggsw(simd, &mut fourier_out, &rows, ggsw, glwe_size, 0);
            for (poly, f) in acc
                .chunks_exact_mut(n)
                .zip(fourier_out.chunks_exact_mut(half))
            {
                digits.backward_add(simd, poly, f);
            }
        }
    }
}

/// The per-polynomial work buffers of a CMux: rotation, decomposition and transforms.
pub(super) struct DigitBuffers {
    fft: &'static Fft,
    scratch: PodBuffer,
    decomposer: SignedDecomposer,
    diff: Vec<u64>,
    digits: Vec<u64>,
    level_digits: Vec<u64>,
}

impl DigitBuffers {
    pub(super) fn new(bsk: &FourierLweBootstrapKey) -> Self {
        let shape = bsk.shape();
        let n = shape.polynomial_size.0;
        let fft = fft_for(shape.polynomial_size);
        Self {
            fft,
            scratch: fft.make_scratch(),
            decomposer: SignedDecomposer::new(shape.base_log, shape.level),
            diff: vec![0u64; n],
            digits: vec![0u64; shape.level.0 * n],
            level_digits: vec![0u64; shape.level.0],
        }
    }

    /// Writes to `rows` (`level` Fourier polynomials) the decomposition digits of
    /// `X^a poly - poly`, level 1 first, in the Fourier domain.
    #[inline(always)]
    pub(super) fn forward<S: pulp::Simd>(
        &mut self,
        simd: S,
        poly: &[u64],
        a: usize,
        rows: &mut [c64],
    ) {
        let n = poly.len();
        let half = n / 2;
        let level = self.level_digits.len();
        if level == 1 {
            // Rotation, decomposition and folding in one pass.
            fold_rotated_level1_digits(rows, poly, a, &self.decomposer);
            self.fft
                .twist_and_forward_simd(simd, rows, &mut self.scratch);
            return;
        }
        polynomial_rotate_minus_self(&mut self.diff, poly, a);
        for (t, x) in self.diff.iter().enumerate() {
            self.decomposer.decompose_into(*x, &mut self.level_digits);
            for (j, d) in self.level_digits.iter().enumerate() {
                self.digits[j * n + t] = *d;
            }
        }
        for (d, out) in self.digits.chunks_exact(n).zip(rows.chunks_exact_mut(half)) {
            self.fft
                .forward_as_integer_simd(simd, out, d, &mut self.scratch);
        }
    }

    /// `poly += IFFT(f)`, rounded to the torus (destroys `f`).
    #[inline(always)]
    pub(super) fn backward_add<S: pulp::Simd>(&mut self, simd: S, poly: &mut [u64], f: &mut [c64]) {
        self.fft
            .add_backward_as_integer_simd(simd, poly, f, &mut self.scratch);
    }
}

/// Writes the folded level-1 digits of `X^power acc - acc` to `out`:
/// `out_j = d(r_j) + i d(r_{j + N/2})` with `r = X^power acc - acc`.
///
/// `[0, N/2)` is cut where `j` or `j + N/2` crosses `power mod N`; inside each piece
/// both rotated reads are contiguous with a fixed sign, so the loop vectorizes.
#[inline(always)]
fn fold_rotated_level1_digits(
    out: &mut [c64],
    acc: &[u64],
    power: usize,
    decomposer: &SignedDecomposer,
) {
    let n = acc.len();
    let half = n / 2;
    let (p, flip) = if power >= n {
        (power - n, true)
    } else {
        (power, false)
    };
    // A level-1 digit lies in [-B/2, B/2]: with B <= 2^31 it fits in an i32.
    let narrow = decomposer.base_log() <= 31;
    let mut cuts = [0, p.min(half), p.saturating_sub(half), half];
    cuts.sort_unstable();
    for w in cuts.windows(2) {
        let (start, end) = (w[0], w[1]);
        if start == end {
            continue;
        }
        let len = end - start;
        // (X^p acc)_t = acc_{t - p} for t >= p, -acc_{t - p + N} for t < p; negated if flip.
        let source = |t: usize| -> (usize, u64) {
            let wraps = t < p;
            let index = if wraps { t + n - p } else { t - p };
            (index, if wraps ^ flip { u64::MAX } else { 0 })
        };
        let (lo_src, lo_mask) = source(start);
        let (hi_src, hi_mask) = source(start + half);
        let lo_iter = acc[lo_src..lo_src + len].iter().zip(&acc[start..end]);
        let hi_iter = acc[hi_src..hi_src + len]
            .iter()
            .zip(&acc[start + half..end + half]);
        let pieces = out[start..end].iter_mut().zip(lo_iter).zip(hi_iter);
        if narrow {
            // Digits fit in an i32, whose conversion to f64 vectorizes on every SIMD
            // level (i64 to f64 needs AVX-512).
            for ((o, (lr, ls)), (hr, hs)) in pieces {
                let lo = ((lr ^ lo_mask).wrapping_sub(lo_mask)).wrapping_sub(*ls);
                let hi = ((hr ^ hi_mask).wrapping_sub(hi_mask)).wrapping_sub(*hs);
                let dl = decomposer.decompose_level1(lo) as i32 as f64;
                let dh = decomposer.decompose_level1(hi) as i32 as f64;
                *o = c64::new(dl, dh);
            }
        } else {
            for ((o, (lr, ls)), (hr, hs)) in pieces {
                let lo = ((lr ^ lo_mask).wrapping_sub(lo_mask)).wrapping_sub(*ls);
                let hi = ((hr ^ hi_mask).wrapping_sub(hi_mask)).wrapping_sub(*hs);
                let dl = decomposer.decompose_level1(lo) as i64 as f64;
                let dh = decomposer.decompose_level1(hi) as i64 as f64;
                *o = c64::new(dl, dh);
            }
        }
    }
}

/// `out[c - first] = sum_r rows[r] * ggsw[r][c]`, pointwise in the Fourier domain, for
/// the output polynomials `c` from `first` on that fit in `out`.
///
/// All rows and output polynomials advance together, one SIMD vector at a time, so
/// the key (the only data that does not fit in cache) streams through
/// `rows * (k + 1)` sequential reads at once.
#[inline(always)]
pub(super) fn multiply_accumulate_ggsw<S: pulp::Simd>(
    simd: S,
    out: &mut [c64],
    rows: &[&[c64]],
    ggsw: &[c64],
    glwe_size: usize,
    first: usize,
) {
    let half = rows[0].len();
    let columns = out.len() / half;
    let lanes = std::mem::size_of::<S::c64s>() / std::mem::size_of::<c64>();
    if half % lanes == 0 {
        let (out_v, _) = S::as_mut_simd_c64s(out);
        let rows_v: Vec<&[S::c64s]> = rows.iter().map(|r| S::as_simd_c64s(r).0).collect();
        let (key_v, _) = S::as_simd_c64s(ggsw);
        let hv = half / lanes;
        for j in 0..hv {
            for (o, c) in (first..first + columns).enumerate() {
                let mut acc = simd.mul_c64s(rows_v[0][j], key_v[c * hv + j]);
                for (r, row) in rows_v.iter().enumerate().skip(1) {
                    acc = simd.mul_add_c64s(row[j], key_v[(r * glwe_size + c) * hv + j], acc);
                }
                out_v[o * hv + j] = acc;
            }
        }
    } else {
        for j in 0..half {
            for (o, c) in (first..first + columns).enumerate() {
                let mut acc = c64::default();
                for (r, row) in rows.iter().enumerate() {
                    acc += row[j] * ggsw[(r * glwe_size + c) * half + j];
                }
                out[o * half + j] = acc;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core_crypto::{DecompositionBaseLog, DecompositionLevelCount};

    #[test]
    fn fused_fold_matches_rotate_then_decompose_for_every_power() {
        let n = 32;
        let decomposer = SignedDecomposer::new(DecompositionBaseLog(7), DecompositionLevelCount(1));
        let acc: Vec<u64> = (0..n as u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17))
            .collect();
        let mut diff = vec![0u64; n];
        let mut fused = vec![c64::default(); n / 2];
        for power in 0..2 * n {
            polynomial_rotate_minus_self(&mut diff, &acc, power);
            fold_rotated_level1_digits(&mut fused, &acc, power, &decomposer);
            for j in 0..n / 2 {
                let lo = decomposer.decompose_level1(diff[j]) as i64 as f64;
                let hi = decomposer.decompose_level1(diff[j + n / 2]) as i64 as f64;
                assert_eq!(fused[j], c64::new(lo, hi), "power {power}, index {j}");
            }
        }
    }
}
