//! The multi-bit parameter sets of TFHE-rs 1.8 with 2 message bits and 2 carry bits
//! at a failure probability of 2^-128, beside
//! [`super::PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`]: grouping
//! factors 2, 3 and 4, TUniform and Gaussian noise, and the sets TFHE-rs tunes for
//! its GPU backend where their values differ from the CPU ones.
//!
//! TFHE-rs names most of them only in its versioned module (`V1_8_...`, here in
//! [`super::v1_8`]); the unversioned names below are this crate's, built the same
//! way (`PARAM_GPU_...` for the GPU-tuned values). Every set is checked by
//! [`ShortintParameters::check_security`] and its `log2_p_fail` is the larger of
//! TFHE-rs's published value and this crate's model
//! ([`ShortintParameters::modelled_log2_p_fail`]), which is at most -128 for each.
//!
//! ```
//! use gpufhe::shortint::parameters::v1_8::V1_8_PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128 as p;
//! use gpufhe::shortint::PbsKind;
//! assert_eq!(p.pbs_kind, PbsKind::MultiBit { grouping_factor: 3 });
//! assert!(p.validate().is_ok() && p.check_security().is_ok());
//! assert!(p.modelled_log2_p_fail() <= -128.0);
//! ```

use super::{PbsKind, ShortintParameters, PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128};
use crate::core_crypto::{
    DecompositionBaseLog, DecompositionLevelCount, LweDimension, NoiseDistribution, PolynomialSize,
};

/// A Gaussian noise of standard deviation `std_dev` (relative to the modulus).
const fn gaussian(std_dev: f64) -> NoiseDistribution {
    NoiseDistribution::Gaussian { std_dev }
}

/// A TUniform noise of bound `2^log2_bound`.
const fn tuniform(log2_bound: u32) -> NoiseDistribution {
    NoiseDistribution::TUniform { log2_bound }
}

/// The blocks of the default parameters (2 + 2 bits, max noise level 5,
/// centered-mean modulus switch, 128 bits, `k = 1`) with the fields that differ per
/// set: `(n, N, LWE noise, GLWE noise, pbs base/levels, ks base/levels, log2 p_fail, g)`.
#[allow(clippy::too_many_arguments)]
const fn multi_bit(
    n: usize,
    poly: usize,
    lwe_noise: NoiseDistribution,
    glwe_noise: NoiseDistribution,
    pbs: (usize, usize),
    ks: (usize, usize),
    log2_p_fail: f64,
    grouping_factor: usize,
) -> ShortintParameters {
    ShortintParameters {
        lwe_dimension: LweDimension(n),
        polynomial_size: PolynomialSize(poly),
        lwe_noise_distribution: lwe_noise,
        glwe_noise_distribution: glwe_noise,
        pbs_base_log: DecompositionBaseLog(pbs.0),
        pbs_level: DecompositionLevelCount(pbs.1),
        ks_base_log: DecompositionBaseLog(ks.0),
        ks_level: DecompositionLevelCount(ks.1),
        log2_p_fail,
        pbs_kind: PbsKind::MultiBit { grouping_factor },
        ..PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128
    }
}

/// Multi-bit blocks of grouping factor 2, TUniform noise: TFHE-rs 1.8's values of
/// `V1_8_PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128` (and of
/// its `..._GPU_...` set, which has the same values). `n = 918`, `N = 4096`.
pub const PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: ShortintParameters =
    multi_bit(
        918,
        4096,
        tuniform(45),
        tuniform(3),
        (21, 1),
        (3, 5),
        -140.341,
        2,
    );

/// Multi-bit blocks of grouping factor 3, TUniform noise: TFHE-rs 1.8's values of
/// `V1_8_PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128` (CPU).
pub const PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: ShortintParameters =
    multi_bit(
        918,
        2048,
        tuniform(45),
        tuniform(17),
        (15, 2),
        (3, 6),
        -128.235,
        3,
    );

/// Multi-bit blocks of grouping factor 3, TUniform noise, tuned for the GPU: TFHE-rs
/// 1.8's values of `V1_8_PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128`.
pub const PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128: ShortintParameters =
    multi_bit(
        879,
        2048,
        tuniform(46),
        tuniform(17),
        (14, 2),
        (2, 8),
        -128.29,
        3,
    );

/// Multi-bit blocks of grouping factor 2, Gaussian noise: TFHE-rs 1.8's values of
/// `V1_8_PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128` (and of its
/// `..._GPU_...` set, which has the same values). `n = 904`, `N = 4096`.
pub const PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128: ShortintParameters =
    multi_bit(
        904,
        4096,
        gaussian(1.0621869847945622e-06),
        gaussian(2.168404344971009e-19),
        (21, 1),
        (4, 4),
        -128.138,
        2,
    );

/// Multi-bit blocks of grouping factor 3, Gaussian noise: TFHE-rs 1.8's values of
/// `V1_8_PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128` (CPU).
pub const PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128: ShortintParameters =
    multi_bit(
        891,
        2048,
        gaussian(1.3292631075564801e-06),
        gaussian(2.845267479601915e-15),
        (15, 2),
        (3, 6),
        -128.381,
        3,
    );

/// Multi-bit blocks of grouping factor 3, Gaussian noise, tuned for the GPU: TFHE-rs
/// 1.8's values of `V1_8_PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`.
pub const PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128: ShortintParameters =
    multi_bit(
        855,
        2048,
        gaussian(2.4737833030723735e-06),
        gaussian(2.845267479601915e-15),
        (15, 2),
        (2, 8),
        -128.606,
        3,
    );

/// Multi-bit blocks of grouping factor 4, Gaussian noise: TFHE-rs 1.8's values of
/// `V1_8_PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128` (CPU).
pub const PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128: ShortintParameters =
    multi_bit(
        904,
        2048,
        gaussian(1.0621869847945622e-06),
        gaussian(2.845267479601915e-15),
        (22, 1),
        (4, 4),
        -130.106,
        4,
    );

/// Multi-bit blocks of grouping factor 4, Gaussian noise, tuned for the GPU: TFHE-rs
/// 1.8's values of `PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128`
/// (the same name in TFHE-rs).
pub const PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128: ShortintParameters =
    multi_bit(
        872,
        2048,
        gaussian(1.844927811696596e-06),
        gaussian(2.845267479601915e-15),
        (22, 1),
        (3, 5),
        -129.112,
        4,
    );

#[cfg(test)]
mod tests {
    use super::super::{v1_8, PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128};
    use super::*;

    /// Every multi-bit set of TFHE-rs 1.8 this crate names, with its versioned name.
    const ALL: [(&str, ShortintParameters); 13] = [
        (
            "G2_TUNIFORM",
            v1_8::V1_8_PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        ),
        (
            "G3_TUNIFORM",
            v1_8::V1_8_PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        ),
        (
            "G4_TUNIFORM",
            v1_8::V1_8_PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        ),
        (
            "G2_GAUSSIAN",
            v1_8::V1_8_PARAM_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        ),
        (
            "G3_GAUSSIAN",
            v1_8::V1_8_PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        ),
        (
            "G4_GAUSSIAN",
            v1_8::V1_8_PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        ),
        (
            "GPU_G2_TUNIFORM",
            v1_8::V1_8_PARAM_GPU_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        ),
        (
            "GPU_G3_TUNIFORM",
            v1_8::V1_8_PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        ),
        (
            "GPU_G4_TUNIFORM",
            v1_8::V1_8_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        ),
        (
            "GPU_G2_GAUSSIAN",
            v1_8::V1_8_PARAM_GPU_MULTI_BIT_GROUP_2_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        ),
        (
            "GPU_G3_GAUSSIAN",
            v1_8::V1_8_PARAM_GPU_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        ),
        (
            "GPU_G4_GAUSSIAN",
            v1_8::V1_8_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        ),
        (
            "GPU_G4_GAUSSIAN_SHORT",
            super::super::PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128,
        ),
    ];

    #[test]
    fn every_multi_bit_set_is_valid_secure_and_fails_below_2_pow_minus_128() {
        for (name, p) in ALL {
            let g = p.pbs_kind.grouping_factor().expect(name);
            crate::core_crypto::check_grouping_factor(p.lwe_dimension.0, g).expect(name);
            p.validate().expect(name);
            p.check_security().expect(name);
            let model = p.modelled_log2_p_fail();
            assert!(model <= -128.0, "{name}: modelled 2^{model}");
            assert!(model <= p.log2_p_fail && p.log2_p_fail <= -128.0, "{name}");
            assert_eq!((p.message_modulus, p.carry_modulus), (4, 4), "{name}");
        }
        // Grouping factor 4 with TUniform noise: one set on the CPU and the GPU.
        assert_eq!(
            ALL[2].1,
            PARAM_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128
        );
        assert_eq!(ALL[8].1, ALL[2].1);
    }

    #[test]
    fn gpu_gaussian_compression_suits_its_blocks() {
        let blocks = v1_8::V1_8_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
        let c = v1_8::V1_8_COMP_PARAM_GPU_MULTI_BIT_GROUP_4_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
        c.validate(&blocks).unwrap();
        c.check_security(&blocks).unwrap();
    }

    /// Keys, one encryption, one table and one decryption on real multi-bit
    /// parameters of grouping factor 3 (Gaussian noise).
    #[test]
    fn a_lookup_table_on_the_group_3_gaussian_set() {
        use crate::shortint::{ClientKey, ServerKey};
        let ck = ClientKey::new(PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128)
            .unwrap();
        let sk = ServerKey::new(&ck).unwrap();
        let f = |x: u64| (5 * x + 3) % 16;
        let lut = sk.generate_lookup_table(f).unwrap();
        let out = sk
            .apply_lookup_table(&ck.encrypt_with_carry(6).unwrap(), &lut)
            .unwrap();
        assert_eq!(ck.decrypt_message_and_carry(&out).unwrap(), f(6));
    }

    /// The high-level path TFHE-rs's documentation of multi-bit bootstraps takes.
    #[test]
    fn the_high_level_api_takes_the_group_3_gaussian_set() {
        let p = v1_8::V1_8_PARAM_MULTI_BIT_GROUP_3_MESSAGE_2_CARRY_2_KS_PBS_GAUSSIAN_2M128;
        let config = crate::ConfigBuilder::with_custom_parameters(p).build();
        let ck = crate::ClientKey::try_generate(config).unwrap();
        assert_eq!(ck.config().parameters(), &p);
    }
}
