//! **Insecure** parameter sets for fast tests (shared by the CPU and GPU test
//! files; `tests/cuda_support` re-exports them).
#![allow(dead_code)]

use gpufhe::core_crypto::*;
use gpufhe::shortint::{PbsKind, ShortintParameters};

/// **Insecure** parameters for fast tests: 2 message bits, 2 carry bits (the
/// encoding of the defaults) on small dimensions.
pub fn insecure_parameters(
    lwe_dimension: usize,
    glwe_dimension: usize,
    polynomial_size: usize,
    pbs_base_log: usize,
    pbs_level: usize,
) -> ShortintParameters {
    ShortintParameters {
        lwe_dimension: LweDimension(lwe_dimension),
        glwe_dimension: GlweDimension(glwe_dimension),
        polynomial_size: PolynomialSize(polynomial_size),
        lwe_noise_distribution: NoiseDistribution::TUniform { log2_bound: 20 },
        glwe_noise_distribution: NoiseDistribution::TUniform { log2_bound: 20 },
        pbs_base_log: DecompositionBaseLog(pbs_base_log),
        pbs_level: DecompositionLevelCount(pbs_level),
        ks_base_log: DecompositionBaseLog(4),
        ks_level: DecompositionLevelCount(4),
        message_modulus: 4,
        carry_modulus: 4,
        max_noise_level: 5,
        log2_p_fail: -37.0,
        modulus_switch: ModulusSwitchType::CenteredMeanNoiseReduction,
        security_bits: 0,
        pbs_kind: PbsKind::Classical,
    }
}

/// n = 256, k = 1, N = 512, PBS 2^23 x 1: the set most fast tests use.
pub fn small_parameters() -> ShortintParameters {
    insecure_parameters(256, 1, 512, 23, 1)
}
