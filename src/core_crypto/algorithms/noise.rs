//! Noise formulas: the predicted output variance of keyswitch and bootstrap, in
//! absolute units (the modulus is 2^64).

use crate::core_crypto::entities::{BootstrapKeyShape, KeyswitchKeyShape};
use crate::core_crypto::random::NoiseDistribution;

/// Variance of a signed digit of the balanced decomposition in base `2^base_log` of a
/// uniform value: `(B^2 + 2) / 12`.
pub fn decomposition_digit_variance(base_log: usize) -> f64 {
    (2f64.powi(2 * base_log as i32) + 2.0) / 12.0
}

/// Variance of the rounding error of a uniform value to its `base_log * level` top
/// bits: `((q / B^l)^2 - 1) / 12` with `q = 2^64`.
pub fn decomposition_rounding_variance(base_log: usize, level: usize) -> f64 {
    let dropped = 64 - (base_log * level) as i32;
    if dropped <= 0 {
        0.0
    } else {
        (2f64.powi(2 * dropped) - 1.0) / 12.0
    }
}

/// Output-noise variance of a programmable bootstrap with a noiseless accumulator.
///
/// Each of the `n` CMuxes adds `(k + 1) l N Var(digit) Var(BSK)` from the key noise
/// multiplied by the decomposed digits; each CMux on a key bit equal to one also adds
/// the decomposition rounding error multiplied by the key,
/// `Var(round) (1 + h_glwe)`. So
/// `Var = n (k+1) l N (B^2 + 2)/12 Var(BSK) + h_lwe ((q/B^l)^2 - 1)/12 (1 + h_glwe)`,
/// with `h_lwe`, `h_glwe` the Hamming weights of the input LWE key and the GLWE key
/// (on average `n/2` and `kN/2`). The FFT's floating-point error is neglected (it
/// adds about 1% on the default parameters).
///
/// ```
/// use gpufhe::core_crypto::noise::pbs_output_variance;
/// use gpufhe::shortint::DEFAULT_PARAMETERS as p;
/// let v = pbs_output_variance(&p.bootstrap_key_shape(), p.glwe_noise_distribution, 459, 1024);
/// assert!((v.log2() - 98.0).abs() < 0.5);
/// ```
pub fn pbs_output_variance(
    shape: &BootstrapKeyShape,
    bsk_noise: NoiseDistribution,
    lwe_key_hamming_weight: usize,
    glwe_key_hamming_weight: usize,
) -> f64 {
    let n = shape.input_lwe_dimension.0 as f64;
    let k1 = (shape.glwe_dimension.0 + 1) as f64;
    let l = shape.level.0 as f64;
    let big_n = shape.polynomial_size.0 as f64;
    let key_term =
        n * k1 * l * big_n * decomposition_digit_variance(shape.base_log.0) * bsk_noise.variance();
    let rounding_term = lwe_key_hamming_weight as f64
        * decomposition_rounding_variance(shape.base_log.0, shape.level.0)
        * (1.0 + glwe_key_hamming_weight as f64);
    key_term + rounding_term
}

/// Noise variance added by a keyswitch (on top of the input's own variance): the
/// key noise times the digits, `n_in l (B^2 + 2)/12 Var(KSK)`, plus the rounding
/// error of the mask multiplied by the input key, `h_in ((q/B^l)^2 - 1)/12`.
pub fn keyswitch_added_variance(
    shape: &KeyswitchKeyShape,
    ksk_noise: NoiseDistribution,
    input_key_hamming_weight: usize,
) -> f64 {
    let n_in = shape.input_lwe_dimension.0 as f64;
    let l = shape.level.0 as f64;
    n_in * l * decomposition_digit_variance(shape.base_log.0) * ksk_noise.variance()
        + input_key_hamming_weight as f64
            * decomposition_rounding_variance(shape.base_log.0, shape.level.0)
}
