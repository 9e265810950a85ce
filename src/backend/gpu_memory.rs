//! The device memory one expression of a step needs: what the CUDA backend plans its
//! chunks with and the scheduler's memory model counts, in every build.

use crate::shortint::ShortintParameters;

/// Device bytes of one big (post-bootstrap) LWE ciphertext.
pub(crate) fn big_lwe_bytes(params: &ShortintParameters) -> usize {
    params.big_lwe_dimension().to_lwe_size().0 * 8
}

/// Device bytes one expression of a step needs besides the step's output: its
/// linear result (a big LWE ciphertext), its offsets, constant and `terms` terms,
/// and with a table the keyswitched small ciphertext and its table index. The CUDA
/// backend plans its chunks with it.
///
/// ```
/// use gpufhe::scheduler::gpu_expression_bytes;
/// use gpufhe::shortint::DEFAULT_PARAMETERS;
/// // A bootstrapped sum of two blocks: a 2049-word linear result, a 919-word
/// // keyswitched block, bookkeeping.
/// assert_eq!(gpu_expression_bytes(&DEFAULT_PARAMETERS, 2, true), 2049 * 8 + 16 + 32 + 919 * 8 + 12);
/// ```
pub fn gpu_expression_bytes(
    params: &ShortintParameters,
    terms: usize,
    bootstrapped: bool,
) -> usize {
    let small = params.lwe_dimension.to_lwe_size().0 * 8;
    let linear = big_lwe_bytes(params) + 16 + 16 * terms;
    if bootstrapped {
        linear + small + 12
    } else {
        linear
    }
}
