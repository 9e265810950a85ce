//! The multi-bit 128-bit bootstrap (TFHE-rs 1.8's multi-bit noise squashing,
//! `multi_bit_programmable_bootstrap_f128_lwe_ciphertext`): the 128-bit blind
//! rotation of [`crate::core_crypto::programmable_bootstrap_128`] with the mask
//! coefficients taken in groups of `g`, one external product per group.
//!
//! The key is TFHE-rs's multi-bit key as it is: for each group of `g` coefficients
//! of the small key, `2^g` GGSW ciphertexts modulo 2^128, GGSW `i` encrypting the
//! indicator `f_i` of the group's bits (1 exactly when the bit of coefficient `j`
//! equals bit `g - 1 - j` of `i`, [`multi_bit_indicator_key_128`]). It is held as a
//! 128-bit bootstrap key over these `(n/g) 2^g` indicator bits, so that the
//! classical key's generation, seeded form and Fourier conversion serve it. Since
//! the indicators sum to 1, for switched mask values `a_j` of a group,
//!
//! ```text
//! X^(sum a_j s_j) ACC = ACC ⊡ (GGSW(f_0) + sum_{i != 0} X^(a_i) GGSW(f_i))
//! ```
//!
//! with `a_i` the sum of the `a_j` whose bit is set in `i`. The sum (the key
//! bundle) is built in the 128-bit Fourier domain, the transform of each monomial
//! `X^(a_i)` multiplied into its GGSW ciphertext; one external product applies it.
//! Every step is a plain loop over TFHE-rs's arrays, the shape of the classical one.

use super::lwe_multi_bit_programmable_bootstrapping::check_grouping_factor;
use super::lwe_programmable_bootstrapping_128::{
    check_modulus_and_accumulator_128, external_product_128, generate_seeded_lwe_bootstrap_key_128,
    rotate_accumulator_128, sample_extract_128, split4, Scratch,
};
use super::modulus_switch::ModulusSwitchedLweCiphertext;
use crate::core_crypto::commons::{DecompositionBaseLog, DecompositionLevelCount, LweDimension};
use crate::core_crypto::entities::{
    Fourier128LweBootstrapKey, GlweSecretKey, LweCiphertext128, LweSecretKey,
    SeededLweBootstrapKey128,
};
use crate::core_crypto::fft128::fft128_for;
use crate::core_crypto::fft128_simd::complex_mul_add;
use crate::core_crypto::random::{CompressionSeed, EncryptionRandomGenerator, NoiseDistribution};
use crate::error::{check_eq, Result};

/// The indicator bits of TFHE-rs's multi-bit key of `key` with grouping factor
/// `grouping_factor`: for each group and each `i` in `0..2^g`, 1 exactly when the
/// group's bit of coefficient `j` is bit `g - 1 - j` of `i`. `Err` unless the
/// grouping factor divides the dimension (and is at most
/// [`crate::core_crypto::MAX_GROUPING_FACTOR`]).
///
/// ```
/// use gpufhe::core_crypto::{multi_bit_indicator_key_128, LweSecretKey};
/// let key = LweSecretKey::from_binary_coefficients(vec![1, 0, 0, 1]).unwrap();
/// let indicator = multi_bit_indicator_key_128(&key, 2).unwrap();
/// // Group (1, 0) is i = 0b10, group (0, 1) is i = 0b01.
/// assert_eq!(indicator.as_slice(), &[0, 0, 1, 0, 0, 1, 0, 0]);
/// assert!(multi_bit_indicator_key_128(&key, 3).is_err());
/// ```
pub fn multi_bit_indicator_key_128(
    key: &LweSecretKey,
    grouping_factor: usize,
) -> Result<LweSecretKey> {
    let g = grouping_factor;
    check_grouping_factor(key.lwe_dimension().0, g)?;
    let mut bits = Vec::with_capacity((key.lwe_dimension().0 / g) << g);
    for group in key.as_slice().chunks_exact(g) {
        let index = group.iter().fold(0usize, |i, &s| (i << 1) | s as usize);
        bits.extend((0..1usize << g).map(|i| u64::from(i == index)));
    }
    LweSecretKey::from_binary_coefficients(bits)
}

/// Generates a seeded multi-bit 128-bit bootstrap key of `input_key` under
/// `output_key` (TFHE-rs's `SeededLweMultiBitBootstrapKey<u128>`: the seeded
/// 128-bit key of the indicator bits, [`multi_bit_indicator_key_128`]), on the rayon
/// pool.
///
/// ```
/// use gpufhe::core_crypto::*;
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let lwe_key = LweSecretKey::generate_binary(LweDimension(8), &mut secret);
/// let glwe_key = GlweSecretKey::generate_binary(GlweDimension(1), PolynomialSize(64), &mut secret).unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 30 };
/// let (b, l, seed) = (DecompositionBaseLog(24), DecompositionLevelCount(3), CompressionSeed::new(1));
/// let bsk = generate_seeded_lwe_multi_bit_bootstrap_key_128(&lwe_key, &glwe_key, b, l, noise, 4, seed, &mut rng).unwrap();
/// // Two groups of 2^4 GGSW ciphertexts.
/// assert_eq!(bsk.shape().input_lwe_dimension, LweDimension(32));
/// assert!(generate_seeded_lwe_multi_bit_bootstrap_key_128(&lwe_key, &glwe_key, b, l, noise, 3, seed, &mut rng).is_err());
/// ```
#[allow(clippy::too_many_arguments)]
pub fn generate_seeded_lwe_multi_bit_bootstrap_key_128(
    input_key: &LweSecretKey,
    output_key: &GlweSecretKey,
    base_log: DecompositionBaseLog,
    level: DecompositionLevelCount,
    noise: NoiseDistribution,
    grouping_factor: usize,
    mask_seed: CompressionSeed,
    rng: &mut EncryptionRandomGenerator,
) -> Result<SeededLweBootstrapKey128> {
    let indicator = multi_bit_indicator_key_128(input_key, grouping_factor)?;
    generate_seeded_lwe_bootstrap_key_128(
        &indicator, output_key, base_log, level, noise, mask_seed, rng,
    )
}

/// The input LWE dimension of a multi-bit key of `key_ggsw_count` GGSW ciphertexts
/// and grouping factor `grouping_factor`; `Err` unless they make whole groups.
pub(crate) fn multi_bit_input_dimension_128(
    key_ggsw_count: usize,
    grouping_factor: usize,
) -> Result<LweDimension> {
    let n = (key_ggsw_count >> grouping_factor) * grouping_factor;
    check_grouping_factor(n.max(grouping_factor), grouping_factor)?;
    check_eq(
        "GGSW ciphertexts of the multi-bit 128-bit key",
        (n / grouping_factor) << grouping_factor,
        key_ggsw_count,
    )?;
    Ok(LweDimension(n))
}

/// The multi-bit 128-bit programmable bootstrap: blind rotation of `accumulator` (a
/// GLWE ciphertext modulo 2^128 of the key's shape) by the phase of `switched`
/// (modulo `2N`) with a multi-bit key of grouping factor `grouping_factor`, and
/// extraction of the constant coefficient.
///
/// ```
/// use gpufhe::core_crypto::*;
/// // Toy, insecure dimensions: a 4-bit message m * 2^59 (one padding bit).
/// let mut secret = SecretRandomGenerator::from_os().unwrap();
/// let mut rng = EncryptionRandomGenerator::from_os().unwrap();
/// let lwe_key = LweSecretKey::generate_binary(LweDimension(16), &mut secret);
/// let (poly, k) = (PolynomialSize(256), GlweDimension(1));
/// let glwe_key = GlweSecretKey::generate_binary(k, poly, &mut secret).unwrap();
/// let noise = NoiseDistribution::TUniform { log2_bound: 30 };
/// let (b, l) = (DecompositionBaseLog(18), DecompositionLevelCount(4));
/// let bsk = generate_seeded_lwe_multi_bit_bootstrap_key_128(
///     &lwe_key, &glwe_key, b, l, noise, 4, CompressionSeed::new(3), &mut rng,
/// ).unwrap().decompress_to_fourier();
/// let ct = allocate_and_encrypt_new_lwe_ciphertext(&lwe_key, 5 << 59, NoiseDistribution::TUniform { log2_bound: 20 }, &mut rng).unwrap();
/// let switched = modulus_switch_lwe_ciphertext(&ct, poly.log2() + 1, ModulusSwitchType::Standard).unwrap();
/// let delta = 1u128 << 123;
/// let lut = identity_lookup_table_128(poly, k, 16, delta).unwrap();
/// let out = multi_bit_programmable_bootstrap_128(&switched, &lut, &bsk, 4).unwrap();
/// let phase = decrypt_lwe_ciphertext_128(&glwe_key, &out).unwrap();
/// assert_eq!(phase.wrapping_add(delta / 2) >> 123, 5);
/// // A classical key (one GGSW per coefficient) is not a multi-bit one.
/// assert!(multi_bit_programmable_bootstrap_128(&switched, &lut, &bsk, 2).is_err());
/// ```
pub fn multi_bit_programmable_bootstrap_128(
    switched: &ModulusSwitchedLweCiphertext,
    accumulator: &[u128],
    key: &Fourier128LweBootstrapKey,
    grouping_factor: usize,
) -> Result<LweCiphertext128> {
    let shape = key.shape;
    check_eq(
        "LWE dimension of the switched input",
        multi_bit_input_dimension_128(shape.input_lwe_dimension.0, grouping_factor)?.0,
        switched.mask.len(),
    )?;
    check_modulus_and_accumulator_128(switched, accumulator, &shape)?;
    let acc = multi_bit_blind_rotate_128(switched, accumulator, key, grouping_factor)?;
    Ok(sample_extract_128(&acc, shape.polynomial_size.0))
}

/// The blind rotation of [`multi_bit_programmable_bootstrap_128`] (shapes checked
/// by it): the rotated accumulator, `(k + 1) N` values.
fn multi_bit_blind_rotate_128(
    switched: &ModulusSwitchedLweCiphertext,
    accumulator: &[u128],
    key: &Fourier128LweBootstrapKey,
    grouping_factor: usize,
) -> Result<Vec<u128>> {
    let g = grouping_factor;
    let shape = key.shape;
    let n = shape.polynomial_size.0;
    let (half, ggsw_len) = (n / 2, key.ggsw_len());
    let fft = fft128_for(shape.polynomial_size)?;
    let mut acc = rotate_accumulator_128(accumulator, switched.body, n);
    let mut s = Scratch::new(&shape);
    // The bundle of one group, as a key of one GGSW ciphertext.
    let mut bundle = Fourier128LweBootstrapKey {
        parts: [(); 4].map(|_| vec![0f64; ggsw_len]),
        shape: crate::core_crypto::BootstrapKeyShape {
            input_lwe_dimension: LweDimension(1),
            ..shape
        },
    };
    let mut monomial = vec![0u128; n];
    let mut monomial_fourier = vec![0f64; n * 2];
    for (group, a) in switched.mask.chunks_exact(g).enumerate() {
        if a.iter().all(|&a| a == 0) {
            continue; // X^0 ACC = ACC
        }
        let first = (group << g) * ggsw_len;
        for (b, k) in bundle.parts.iter_mut().zip(&key.parts) {
            b.copy_from_slice(&k[first..first + ggsw_len]);
        }
        for i in 1..1usize << g {
            let degree = (0..g)
                .filter(|j| (i >> (g - 1 - j)) & 1 == 1)
                .map(|j| a[j])
                .sum::<usize>()
                % (2 * n);
            monomial.fill(0);
            if degree < n {
                monomial[degree] = 1;
            } else {
                monomial[degree - n] = u128::MAX; // -1
            }
            fft.forward_as_integer(split4(&mut monomial_fourier), &monomial);
            let [m0, m1, m2, m3] = split4(&mut monomial_fourier);
            let m = [&*m0, &*m1, &*m2, &*m3];
            let at = first + i * ggsw_len;
            let [b0, b1, b2, b3] = &mut bundle.parts;
            for p in 0..ggsw_len / half {
                let r = p * half..(p + 1) * half;
                let kr = at + p * half..at + (p + 1) * half;
                complex_mul_add(
                    [
                        &mut b0[r.clone()],
                        &mut b1[r.clone()],
                        &mut b2[r.clone()],
                        &mut b3[r],
                    ],
                    m,
                    [
                        &key.parts[0][kr.clone()],
                        &key.parts[1][kr.clone()],
                        &key.parts[2][kr.clone()],
                        &key.parts[3][kr],
                    ],
                );
            }
        }
        // ACC = bundle ⊡ ACC.
        s.diff.copy_from_slice(&acc);
        acc.fill(0);
        external_product_128(fft, &bundle, 0, &mut acc, &mut s);
    }
    Ok(acc)
}
