//! Multi-bit blind rotation: the mask coefficients in groups of `g`, one external
//! product per group instead of one per coefficient.
//!
//! For a group of key bits `s_1..s_g` and switched mask values `a_1..a_g`,
//! `X^(sum a_i s_i) = sum_T f_T X^(a_T)` over the `2^g` assignments `T` of the bits,
//! where `f_T` is 1 exactly when the bits equal `T` and `a_T` is the sum of the
//! `a_i` whose bit is set in `T`. The key holds a GGSW encryption of `f_T` for every
//! group and every non-empty `T` (`2^g - 1` per group); since `sum_T f_T = 1`,
//!
//! ```text
//! ACC X^(sum a_i s_i) = ACC + ACC ⊡ sum_{T != 0} (X^(a_T) - 1) GGSW(f_T)
//! ```
//!
//! The sum (the *key bundle*) is built in the Fourier domain, where multiplying by
//! `X^(a_T) - 1` is a pointwise product with `ζ_j^(a_T) - 1` at each evaluation
//! point `ζ_j`; then one external product applies it. A key of `n/g` groups is
//! stored as a [`FourierLweBootstrapKey`] over the `(n/g)(2^g - 1)` indicator bits
//! ([`multi_bit_lwe_secret_key`]), so the classical generation, compression and
//! Fourier conversion of bootstrap keys serve it unchanged.

use super::decomposition::SignedDecomposer;
use super::lwe_programmable_bootstrapping::{
    check_accumulator_and_modulus, multiply_accumulate_ggsw, rotate_by_body,
    switch_and_rotate_by_body,
};
use super::modulus_switch::{ModulusSwitchType, ModulusSwitchedLweCiphertext};
use super::sample_extraction::extract_lwe_sample_from_glwe_ciphertext;
use crate::core_crypto::entities::{
    FourierLweBootstrapKey, GlweCiphertext, LweCiphertext, LweSecretKey,
};
use crate::core_crypto::fft::fft_for;
use crate::core_crypto::PolynomialSize;
use crate::error::{check_eq, Error, Result};
use dyn_stack::PodBuffer;
use std::sync::{Mutex, OnceLock};
use tfhe_fft::c64;

/// Largest grouping factor: a group's bundle sums `2^g - 1` GGSW ciphertexts.
pub const MAX_GROUPING_FACTOR: usize = 6;

/// `Err` unless `1 <= g <= MAX_GROUPING_FACTOR` and `g` divides `n`.
///
/// ```
/// use gpufhe::core_crypto::check_grouping_factor;
/// assert!(check_grouping_factor(920, 4).is_ok());
/// assert!(check_grouping_factor(920, 3).is_err()); // 3 does not divide 920
/// assert!(check_grouping_factor(14, 7).is_err()); // above MAX_GROUPING_FACTOR
/// ```
pub fn check_grouping_factor(n: usize, grouping_factor: usize) -> Result<()> {
    if (1..=MAX_GROUPING_FACTOR).contains(&grouping_factor) && n % grouping_factor == 0 {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "a grouping factor of {grouping_factor} must be in [1, {MAX_GROUPING_FACTOR}] and \
             divide the LWE dimension {n}"
        )))
    }
}

/// The number of GGSW ciphertexts of a multi-bit key for a key of dimension `n`:
/// `(n / g)(2^g - 1)`.
///
/// ```
/// use gpufhe::core_crypto::multi_bit_ggsw_count;
/// // 230 groups of 4 bits, 2^4 - 1 = 15 non-empty assignments each.
/// assert_eq!(multi_bit_ggsw_count(920, 4), 230 * 15);
/// ```
pub fn multi_bit_ggsw_count(n: usize, grouping_factor: usize) -> usize {
    n / grouping_factor * ((1 << grouping_factor) - 1)
}

/// The indicator bits a multi-bit bootstrap key encrypts: for each group of `g`
/// coefficients of `key` and each non-empty assignment `T` (in increasing order as
/// a bit mask, bit `i` for coefficient `i` of the group), 1 exactly when the
/// group's bits equal `T`. Generate the key with
/// [`crate::core_crypto::generate_seeded_lwe_bootstrap_key`] on this key.
///
/// ```
/// use gpufhe::core_crypto::{multi_bit_lwe_secret_key, LweSecretKey};
/// let key = LweSecretKey::from_binary_coefficients(vec![1, 0, 1, 1]).unwrap();
/// let indicator = multi_bit_lwe_secret_key(&key, 2).unwrap();
/// // Group (1, 0) is assignment 1 of {1, 2, 3}, group (1, 1) assignment 3.
/// assert_eq!(indicator.as_slice(), &[1, 0, 0, 0, 0, 1]);
/// assert!(multi_bit_lwe_secret_key(&key, 3).is_err());
/// ```
pub fn multi_bit_lwe_secret_key(
    key: &LweSecretKey,
    grouping_factor: usize,
) -> Result<LweSecretKey> {
    let n = key.lwe_dimension().0;
    check_grouping_factor(n, grouping_factor)?;
    let mut bits = Vec::with_capacity(multi_bit_ggsw_count(n, grouping_factor));
    for group in key.as_slice().chunks_exact(grouping_factor) {
        let pattern = group
            .iter()
            .enumerate()
            .fold(0usize, |p, (i, &s)| p | ((s as usize) << i));
        bits.extend((1..1usize << grouping_factor).map(|t| (t == pattern) as u64));
    }
    LweSecretKey::from_binary_coefficients(bits)
}

/// `Err` unless `bsk` is a multi-bit key of grouping factor `grouping_factor` for
/// inputs of dimension `n`.
fn check_multi_bit_key(
    bsk: &FourierLweBootstrapKey,
    n: usize,
    grouping_factor: usize,
) -> Result<()> {
    check_grouping_factor(n, grouping_factor)?;
    check_eq(
        "GGSW ciphertexts of the multi-bit key",
        multi_bit_ggsw_count(n, grouping_factor),
        bsk.shape().input_lwe_dimension.0,
    )
}

/// Checks the shapes of one multi-bit rotation and rotates `acc` by `X^(-body)`.
fn start_rotation<C>(
    acc: &mut GlweCiphertext<C>,
    switched: &ModulusSwitchedLweCiphertext,
    bsk: &FourierLweBootstrapKey,
    grouping_factor: usize,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
{
    check_multi_bit_key(bsk, switched.mask.len(), grouping_factor)?;
    check_accumulator_and_modulus(acc, switched, bsk)?;
    let n = bsk.shape().polynomial_size.0;
    rotate_by_body(acc.as_mut_slice(), switched.body, n);
    Ok(())
}

/// Blind-rotates `acc` by the phase of `switched` (modulo `2N`) with a multi-bit key
/// of grouping factor `grouping_factor`: the same result as
/// [`crate::core_crypto::blind_rotate_assign`] with a classical key, with other noise.
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
/// // A multi-bit key of grouping factor 4: a bootstrap key over the indicator bits.
/// let indicator = multi_bit_lwe_secret_key(&small_key, 4).unwrap();
/// let bsk = generate_lwe_bootstrap_key(&indicator, &glwe_key, b, l, noise, &mut rng).unwrap();
/// let bsk = FourierLweBootstrapKey::from_standard(&bsk);
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&small_key, 3 * delta, noise, &mut rng).unwrap();
/// let switched = modulus_switch_lwe_ciphertext(&ct, poly.log2() + 1, ModulusSwitchType::Standard).unwrap();
/// let mut acc = table(|m| (m + 2) % 4);
/// multi_bit_blind_rotate_assign(&mut acc, &switched, &bsk, 4).unwrap();
/// let mut out = LweCiphertextOwned::new_zero(big_key.lwe_dimension().to_lwe_size());
/// extract_lwe_sample_from_glwe_ciphertext(&acc, &mut out, 0).unwrap();
/// assert_eq!(decode(&big_key, &out), 1);
/// ```
pub fn multi_bit_blind_rotate_assign<C>(
    acc: &mut GlweCiphertext<C>,
    switched: &ModulusSwitchedLweCiphertext,
    bsk: &FourierLweBootstrapKey,
    grouping_factor: usize,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
{
    start_rotation(acc, switched, bsk, grouping_factor)?;
    pulp::Arch::new().dispatch(MultiBitChain {
        accs: vec![acc.as_mut_slice()],
        masks: vec![&switched.mask],
        bsk,
        grouping_factor,
    });
    Ok(())
}

/// Modulus-switches each input and blind-rotates a copy of its accumulator by it
/// with a multi-bit key, group by group over the whole batch (each group's GGSW
/// ciphertexts are read while in cache for every member); returns the rotated
/// accumulators. Bit-identical to [`multi_bit_blind_rotate_assign`] one at a time.
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
/// # // A multi-bit key of grouping factor 4: a bootstrap key over the indicator bits.
/// # let indicator = multi_bit_lwe_secret_key(&small_key, 4).unwrap();
/// # let bsk = generate_lwe_bootstrap_key(&indicator, &glwe_key, b, l, noise, &mut rng).unwrap();
/// # let bsk = FourierLweBootstrapKey::from_standard(&bsk);
/// let inputs: Vec<_> = (0..4u64)
///     .map(|m| allocate_and_encrypt_new_lwe_ciphertext(&small_key, m * delta, noise, &mut rng).unwrap())
///     .collect();
/// let double = table(|m| 2 * m % 4);
/// let ms = ModulusSwitchType::Standard;
/// let rotated = batch_multi_bit_blind_rotate_lwe_ciphertext(&inputs, &[&double; 4], &bsk, 4, ms).unwrap();
/// let mut out = LweCiphertextOwned::new_zero(big_key.lwe_dimension().to_lwe_size());
/// for (m, acc) in (0..4u64).zip(&rotated) {
///     extract_lwe_sample_from_glwe_ciphertext(acc, &mut out, 0).unwrap();
///     assert_eq!(decode(&big_key, &out), 2 * m % 4);
/// }
/// // The same bits as one rotation at a time.
/// let mut alone = double.clone();
/// let switched = modulus_switch_lwe_ciphertext(&inputs[1], poly.log2() + 1, ms).unwrap();
/// multi_bit_blind_rotate_assign(&mut alone, &switched, &bsk, 4).unwrap();
/// assert_eq!(alone, rotated[1]);
/// ```
pub fn batch_multi_bit_blind_rotate_lwe_ciphertext<C, E>(
    inputs: &[LweCiphertext<C>],
    accumulators: &[&GlweCiphertext<E>],
    bsk: &FourierLweBootstrapKey,
    grouping_factor: usize,
    modulus_switch: ModulusSwitchType,
) -> Result<Vec<GlweCiphertext<Vec<u64>>>>
where
    C: AsRef<[u64]>,
    E: AsRef<[u64]>,
{
    let (switched, mut accs) =
        switch_and_rotate_by_body(inputs, accumulators, bsk, modulus_switch, |n| {
            check_multi_bit_key(bsk, n, grouping_factor)
        })?;
    pulp::Arch::new().dispatch(MultiBitChain {
        accs: accs.iter_mut().map(|a| a.as_mut_slice()).collect(),
        masks: switched.iter().map(|s| s.mask.as_slice()).collect(),
        bsk,
        grouping_factor,
    });
    Ok(accs)
}

/// Multi-bit programmable bootstrap: modulus switch of `input`, multi-bit blind
/// rotation of `accumulator` and extraction of the constant coefficient into
/// `output`.
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
/// // A multi-bit key of grouping factor 4: a bootstrap key over the indicator bits.
/// let indicator = multi_bit_lwe_secret_key(&small_key, 4).unwrap();
/// let bsk = generate_lwe_bootstrap_key(&indicator, &glwe_key, b, l, noise, &mut rng).unwrap();
/// let bsk = FourierLweBootstrapKey::from_standard(&bsk);
/// let square = table(|m| m * m % 4);
/// for m in 0..4u64 {
///     let ct = allocate_and_encrypt_new_lwe_ciphertext(&small_key, m * delta, noise, &mut rng).unwrap();
///     let mut out = LweCiphertextOwned::new_zero(big_key.lwe_dimension().to_lwe_size());
///     multi_bit_programmable_bootstrap_lwe_ciphertext(&ct, &mut out, &square, &bsk, 4, ModulusSwitchType::Standard).unwrap();
///     assert_eq!(decode(&big_key, &out), m * m % 4);
/// }
/// ```
pub fn multi_bit_programmable_bootstrap_lwe_ciphertext<C, D, E>(
    input: &LweCiphertext<C>,
    output: &mut LweCiphertext<D>,
    accumulator: &GlweCiphertext<E>,
    bsk: &FourierLweBootstrapKey,
    grouping_factor: usize,
    modulus_switch: ModulusSwitchType,
) -> Result<()>
where
    C: AsRef<[u64]>,
    D: AsRef<[u64]> + AsMut<[u64]>,
    E: AsRef<[u64]>,
{
    output.check_size(
        "LWE size of the bootstrap output",
        bsk.shape().output_lwe_dimension().to_lwe_size(),
    )?;
    let accs = batch_multi_bit_blind_rotate_lwe_ciphertext(
        std::slice::from_ref(input),
        &[accumulator],
        bsk,
        grouping_factor,
        modulus_switch,
    )?;
    extract_lwe_sample_from_glwe_ciphertext(&accs[0], output, 0)
}

/// What the bundles of polynomial size `N` need, computed once per process: the
/// evaluation points of the Fourier domain (slot `j` of a transform holds `p(ζ_j)`,
/// `ζ_j = e^(iπ e_j / N)`, `e_j` odd, read from the transform of `X`) and the powers
/// `e^(iπ t / N) - 1` for `t` in `[0, 2N)`.
struct BundleTables {
    exponents: Vec<usize>,
    powers_minus_one: Vec<c64>,
}

fn bundle_tables(n: PolynomialSize) -> &'static BundleTables {
    static CACHE: OnceLock<Mutex<Vec<(usize, &'static BundleTables)>>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, t)) = cache.iter().find(|(size, _)| *size == n.0) {
        return t;
    }
    let fft = fft_for(n);
    let mut x = vec![0u64; n.0];
    x[1] = 1;
    let mut out = vec![c64::default(); n.to_fourier_polynomial_size()];
    let mut scratch = fft.make_scratch();
    fft.forward_as_integer(&mut out, &x, &mut scratch);
    let two_n = 2 * n.0 as i64;
    let exponents = out
        .iter()
        .map(|z| {
            let turns = z.im.atan2(z.re) / std::f64::consts::PI * n.0 as f64;
            (turns.round() as i64).rem_euclid(two_n) as usize
        })
        .collect();
    let powers_minus_one = (0..two_n)
        .map(|t| {
            let angle = std::f64::consts::PI * t as f64 / n.0 as f64;
            c64::new(angle.cos() - 1.0, angle.sin())
        })
        .collect();
    let tables: &'static BundleTables = Box::leak(Box::new(BundleTables {
        exponents,
        powers_minus_one,
    }));
    cache.push((n.0, tables));
    tables
}

/// The multi-bit chains of a batch, compiled for the best SIMD level of the machine.
struct MultiBitChain<'a> {
    accs: Vec<&'a mut [u64]>,
    masks: Vec<&'a [usize]>,
    bsk: &'a FourierLweBootstrapKey,
    grouping_factor: usize,
}

impl pulp::WithSimd for MultiBitChain<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) {
        let mut accs = self.accs;
        multi_bit_chain(simd, &mut accs, &self.masks, self.bsk, self.grouping_factor)
    }
}

/// Slots per block of a bundle build: each block of the key (1 KiB) is read from
/// memory once and, from the first-level cache, added to every member's bundle.
const BUNDLE_BLOCK: usize = 64;

/// How many rotations of a batch share each read of a group's key in
/// [`build_bundles`] (their bundles: 64 KiB each on the default parameters).
const BUNDLES_SHARING_THE_KEY: usize = 8;

/// The work buffer of [`build_bundles`] for `members` rotations: the factors of
/// one assignment at every slot of a polynomial of `half` slots.
fn bundle_factors(half: usize, members: usize) -> Vec<c64> {
    vec![c64::default(); members * half]
}

/// Writes to `bundles` (one after the other) the key bundles
/// `sum_T (ζ^(a_T) - 1) GGSW(f_T)` of group `group` for the switched mask values
/// `a` of each member of `masks`, slot by slot (`factors`: from
/// [`bundle_factors`]; `tables`: [`bundle_tables`] of the key's `N`).
///
/// The group's GGSW ciphertexts are read once, in order (the memory's fastest
/// pattern), and each block of [`BUNDLE_BLOCK`] slots is added to every member's
/// bundle while in cache. An `a_T` of zero gives a factor of exactly zero, which
/// leaves the sum's bits unchanged.
#[inline(always)]
fn build_bundles<S: pulp::Simd>(
    simd: S,
    bundles: &mut [c64],
    factors: &mut [c64],
    masks: &[&[usize]],
    group: usize,
    bsk: &FourierLweBootstrapKey,
    tables: &BundleTables,
) {
    let g = masks[0].len();
    let half = bsk.shape().polynomial_size.0 / 2;
    let wrap = 4 * half - 1; // 2N is a power of two: `& wrap` reduces modulo 2N.
    let per_group = (1usize << g) - 1;
    let bundle_len = bundles.len() / masks.len();
    let lanes = std::mem::size_of::<S::c64s>() / std::mem::size_of::<c64>();
    bundles.fill(c64::default());
    for t in 1..=per_group {
        for (f, a) in factors.chunks_exact_mut(half).zip(masks) {
            let a_t = (0..g)
                .filter(|i| t >> i & 1 == 1)
                .fold(0usize, |s, i| s + a[i])
                & wrap;
            for (f, &e) in f.iter_mut().zip(&tables.exponents) {
                *f = tables.powers_minus_one[(e * a_t) & wrap];
            }
        }
        let key = bsk.ggsw(group * per_group + t - 1);
        for (first, k_poly) in (0..bundle_len).step_by(half).zip(key.chunks_exact(half)) {
            for start in (0..half).step_by(BUNDLE_BLOCK) {
                let len = BUNDLE_BLOCK.min(half - start);
                let k = &k_poly[start..start + len];
                for (bundle, f) in bundles
                    .chunks_exact_mut(bundle_len)
                    .zip(factors.chunks_exact(half))
                {
                    let b = &mut bundle[first + start..first + start + len];
                    let f = &f[start..start + len];
                    if len % lanes == 0 {
                        let (b, _) = S::as_mut_simd_c64s(b);
                        let (k, _) = S::as_simd_c64s(k);
                        let (f, _) = S::as_simd_c64s(f);
                        for ((b, k), f) in b.iter_mut().zip(k).zip(f) {
                            *b = simd.mul_add_c64s(*k, *f, *b);
                        }
                    } else {
                        for ((b, k), f) in b.iter_mut().zip(k).zip(f) {
                            *b += *k * *f;
                        }
                    }
                }
            }
        }
    }
}

/// The buffers of `ACC += ACC ⊡ bundle`: decomposition, transforms, products.
struct BundleProduct {
    glwe_size: usize,
    fft: &'static crate::core_crypto::fft::Fft,
    scratch: PodBuffer,
    decomposer: SignedDecomposer,
    digits: Vec<u64>,
    level_digits: Vec<u64>,
    rows: Vec<c64>,
    out: Vec<c64>,
}

impl BundleProduct {
    fn new(bsk: &FourierLweBootstrapKey) -> Self {
        let shape = bsk.shape();
        let (n, level) = (shape.polynomial_size.0, shape.level.0);
        let glwe_size = shape.glwe_dimension.0 + 1;
        let fft = fft_for(shape.polynomial_size);
        Self {
            glwe_size,
            fft,
            scratch: fft.make_scratch(),
            decomposer: SignedDecomposer::new(shape.base_log, shape.level),
            digits: vec![0u64; level * n],
            level_digits: vec![0u64; level],
            rows: vec![c64::default(); glwe_size * level * n / 2],
            out: vec![c64::default(); glwe_size * n / 2],
        }
    }

    /// `acc += acc ⊡ bundle`.
    #[inline(always)]
    fn apply<S: pulp::Simd>(&mut self, simd: S, acc: &mut [u64], bundle: &[c64]) {
        let (level, glwe_size) = (self.level_digits.len(), self.glwe_size);
        let n = acc.len() / glwe_size;
        let half = n / 2;
        for (poly, poly_rows) in acc
            .chunks_exact(n)
            .zip(self.rows.chunks_exact_mut(level * half))
        {
            if level == 1 {
                // Decomposition and folding in one pass, as the classical rotation does.
                fold_level1_digits(poly_rows, poly, &self.decomposer);
                self.fft
                    .twist_and_forward_simd(simd, poly_rows, &mut self.scratch);
                continue;
            }
            for (t, &x) in poly.iter().enumerate() {
                self.decomposer.decompose_into(x, &mut self.level_digits);
                for (j, &d) in self.level_digits.iter().enumerate() {
                    self.digits[j * n + t] = d;
                }
            }
            for (d, r) in self
                .digits
                .chunks_exact(n)
                .zip(poly_rows.chunks_exact_mut(half))
            {
                self.fft
                    .forward_as_integer_simd(simd, r, d, &mut self.scratch);
            }
        }
        let row_refs: Vec<&[c64]> = self.rows.chunks_exact(half).collect();
        multiply_accumulate_ggsw(simd, &mut self.out, &row_refs, bundle, glwe_size, 0);
        for (poly, f) in acc.chunks_exact_mut(n).zip(self.out.chunks_exact_mut(half)) {
            self.fft
                .add_backward_as_integer_simd(simd, poly, f, &mut self.scratch);
        }
    }
}

/// Writes the folded level-1 digits of `poly` to `out`: `out_j = d(p_j) + i d(p_{j + N/2})`.
#[inline(always)]
fn fold_level1_digits(out: &mut [c64], poly: &[u64], decomposer: &SignedDecomposer) {
    let (lo, hi) = poly.split_at(out.len());
    let pieces = out.iter_mut().zip(lo).zip(hi);
    if decomposer.base_log() <= 31 {
        // Digits fit in an i32, whose conversion to f64 vectorizes on every SIMD level.
        for ((o, &x), &y) in pieces {
            let (dx, dy) = (
                decomposer.decompose_level1(x),
                decomposer.decompose_level1(y),
            );
            *o = c64::new(dx as i32 as f64, dy as i32 as f64);
        }
    } else {
        for ((o, &x), &y) in pieces {
            let (dx, dy) = (
                decomposer.decompose_level1(x),
                decomposer.decompose_level1(y),
            );
            *o = c64::new(dx as i64 as f64, dy as i64 as f64);
        }
    }
}

/// Whether a group's switched mask values are all zero: `X^0`, the group leaves
/// ACC unchanged.
fn skips(a: &[usize]) -> bool {
    a.iter().all(|&x| x == 0)
}

/// The chains of a batch, group-major: for each group, the members that rotate by
/// it build their bundles together, [`BUNDLES_SHARING_THE_KEY`] at a time from each
/// read of the group's GGSW ciphertexts, and apply them. Shapes are checked by the
/// callers.
#[inline(always)]
fn multi_bit_chain<S: pulp::Simd>(
    simd: S,
    accs: &mut [&mut [u64]],
    masks: &[&[usize]],
    bsk: &FourierLweBootstrapKey,
    g: usize,
) {
    let shape = bsk.shape();
    let groups = shape.input_lwe_dimension.0 / ((1usize << g) - 1);
    let bundle_len = shape.ggsw_size() / 2;
    let sharing = BUNDLES_SHARING_THE_KEY.min(accs.len());
    let mut bundles = vec![c64::default(); sharing * bundle_len];
    let mut factors = bundle_factors(shape.polynomial_size.0 / 2, sharing);
    let member_factors = factors.len() / sharing.max(1);
    let mut product = BundleProduct::new(bsk);
    let tables = bundle_tables(shape.polynomial_size);
    let mut rotating: Vec<usize> = Vec::with_capacity(accs.len());
    let mut group_masks: Vec<&[usize]> = Vec::with_capacity(sharing);
    for group in 0..groups {
        let of = |m: usize| &masks[m][group * g..(group + 1) * g];
        rotating.clear();
        rotating.extend((0..accs.len()).filter(|&m| !skips(of(m))));
        for members in rotating.chunks(sharing) {
            group_masks.clear();
            group_masks.extend(members.iter().map(|&m| of(m)));
            let n = members.len();
            let bundles = &mut bundles[..n * bundle_len];
            let factors = &mut factors[..n * member_factors];
            build_bundles(simd, bundles, factors, &group_masks, group, bsk, tables);
            for (&m, bundle) in members.iter().zip(bundles.chunks_exact(bundle_len)) {
                product.apply(simd, accs[m], bundle);
            }
        }
    }
}

/// How many groups' bundles [`multi_bit_blind_rotate_assign_multithreaded`] builds
/// at once (64 KiB each on the default parameters).
const BUNDLES_PER_ROUND: usize = 32;

/// [`multi_bit_blind_rotate_assign`] on the threads of the current rayon pool:
/// rounds of `BUNDLES_PER_ROUND` groups whose bundles (most of the work: reading
/// `2^g - 1` GGSW ciphertexts each) are built in parallel, then applied in order.
/// Bit-identical to the single-threaded rotation; without idle threads the bundles
/// are simply built on the calling thread.
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
/// # // A multi-bit key of grouping factor 4: a bootstrap key over the indicator bits.
/// # let indicator = multi_bit_lwe_secret_key(&small_key, 4).unwrap();
/// # let bsk = generate_lwe_bootstrap_key(&indicator, &glwe_key, b, l, noise, &mut rng).unwrap();
/// # let bsk = FourierLweBootstrapKey::from_standard(&bsk);
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&small_key, delta, noise, &mut rng).unwrap();
/// let switched = modulus_switch_lwe_ciphertext(&ct, poly.log2() + 1, ModulusSwitchType::Standard).unwrap();
/// let (mut one, mut many) = (table(|m| m), table(|m| m));
/// multi_bit_blind_rotate_assign(&mut one, &switched, &bsk, 4).unwrap();
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// pool.install(|| multi_bit_blind_rotate_assign_multithreaded(&mut many, &switched, &bsk, 4)).unwrap();
/// assert_eq!(one, many);
/// ```
pub fn multi_bit_blind_rotate_assign_multithreaded<C>(
    acc: &mut GlweCiphertext<C>,
    switched: &ModulusSwitchedLweCiphertext,
    bsk: &FourierLweBootstrapKey,
    grouping_factor: usize,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]>,
{
    use rayon::prelude::*;
    let g = grouping_factor;
    start_rotation(acc, switched, bsk, g)?;
    let shape = bsk.shape();
    let bundle_len = shape.ggsw_size() / 2;
    let groups: Vec<(usize, &[usize])> = switched
        .mask
        .chunks_exact(g)
        .enumerate()
        .filter(|(_, a)| !skips(a))
        .collect();
    let mut bundles = vec![c64::default(); BUNDLES_PER_ROUND.min(groups.len()) * bundle_len];
    let mut product = BundleProduct::new(bsk);
    let tables = bundle_tables(shape.polynomial_size);
    for round in groups.chunks(BUNDLES_PER_ROUND) {
        let arch = pulp::Arch::new();
        bundles
            .par_chunks_mut(bundle_len)
            .zip(round.par_iter())
            .for_each_init(
                || bundle_factors(shape.polynomial_size.0 / 2, 1),
                |factors, (bundle, &(group, a))| {
                    arch.dispatch(BuildBundle {
                        bundle,
                        factors,
                        a,
                        group,
                        bsk,
                        tables,
                    })
                },
            );
        for bundle in bundles.chunks_exact(bundle_len).take(round.len()) {
            arch.dispatch(ApplyBundle {
                product: &mut product,
                acc: acc.as_mut_slice(),
                bundle,
            });
        }
    }
    Ok(())
}

/// [`build_bundles`] of one rotation in a SIMD context.
struct BuildBundle<'a> {
    bundle: &'a mut [c64],
    factors: &'a mut [c64],
    a: &'a [usize],
    group: usize,
    bsk: &'a FourierLweBootstrapKey,
    tables: &'a BundleTables,
}

impl pulp::WithSimd for BuildBundle<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) {
        build_bundles(
            simd,
            self.bundle,
            self.factors,
            &[self.a],
            self.group,
            self.bsk,
            self.tables,
        )
    }
}

/// [`BundleProduct::apply`] in a SIMD context.
struct ApplyBundle<'a> {
    product: &'a mut BundleProduct,
    acc: &'a mut [u64],
    bundle: &'a [c64],
}

impl pulp::WithSimd for ApplyBundle<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) {
        self.product.apply(simd, self.acc, self.bundle)
    }
}

#[cfg(test)]
mod tests;
