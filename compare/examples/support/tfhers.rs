//! What `examples/tfhers_golden.rs` and `examples/tfhers_interop.rs` share: the
//! small insecure parameters as TFHE-rs spells them, and a fixed FFT for TFHE-rs.

use tfhe::core_crypto::fft_impl::fft64::math::fft::{setup_custom_fft_plan, FftAlgo, Method, Plan};
use tfhe::shortint::parameters::{
    CarryModulus, ClassicPBSParameters, CoreCiphertextModulus, DecompositionBaseLog,
    DecompositionLevelCount, DynamicDistribution, EncryptionKeyChoice, GlweDimension,
    LweBskGroupingFactor, LweDimension, MaxNoiseLevel, MessageModulus, ModulusSwitchType,
    MultiBitPBSParameters, PolynomialSize,
};

/// The small insecure parameters: gpufhe's `PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2`
/// written as TFHE-rs's `ClassicPBSParameters` (n = 256, k = 1, N = 512, TUniform(20)
/// noise on both keys, bootstrap 23 x 1, keyswitch 4 x 4, 2 + 2 bits, max noise
/// level 5, centered-mean modulus switch, Big encryption key, native modulus,
/// log2 p_fail -37).
pub fn small_parameters() -> ClassicPBSParameters {
    ClassicPBSParameters {
        lwe_dimension: LweDimension(256),
        glwe_dimension: GlweDimension(1),
        polynomial_size: PolynomialSize(512),
        lwe_noise_distribution: DynamicDistribution::new_t_uniform(20),
        glwe_noise_distribution: DynamicDistribution::new_t_uniform(20),
        pbs_base_log: DecompositionBaseLog(23),
        pbs_level: DecompositionLevelCount(1),
        ks_base_log: DecompositionBaseLog(4),
        ks_level: DecompositionLevelCount(4),
        message_modulus: MessageModulus(4),
        carry_modulus: CarryModulus(4),
        max_noise_level: MaxNoiseLevel::new(5),
        log2_p_fail: -37.0,
        ciphertext_modulus: CoreCiphertextModulus::new_native(),
        encryption_key_choice: EncryptionKeyChoice::Big,
        modulus_switch_noise_reduction_params: ModulusSwitchType::CenteredMeanNoiseReduction,
    }
}

/// The small insecure multi-bit parameters: gpufhe's
/// `PARAM_INSECURE_TEST_MULTI_BIT_MESSAGE_2_CARRY_2`, [`small_parameters`] with a
/// multi-bit bootstrap of grouping factor 4.
#[allow(dead_code)] // only the interop program needs it
pub fn small_multi_bit_parameters() -> MultiBitPBSParameters {
    let p = small_parameters();
    MultiBitPBSParameters {
        lwe_dimension: p.lwe_dimension,
        glwe_dimension: p.glwe_dimension,
        polynomial_size: p.polynomial_size,
        lwe_noise_distribution: p.lwe_noise_distribution,
        glwe_noise_distribution: p.glwe_noise_distribution,
        pbs_base_log: p.pbs_base_log,
        pbs_level: p.pbs_level,
        ks_base_log: p.ks_base_log,
        ks_level: p.ks_level,
        message_modulus: p.message_modulus,
        carry_modulus: p.carry_modulus,
        max_noise_level: p.max_noise_level,
        log2_p_fail: p.log2_p_fail,
        ciphertext_modulus: p.ciphertext_modulus,
        encryption_key_choice: p.encryption_key_choice,
        grouping_factor: LweBskGroupingFactor(4),
        deterministic_execution: false,
    }
}

/// The small insecure compression parameters: gpufhe's
/// `COMP_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2` written as TFHE-rs's (k_c = 1,
/// N_c = 128, 128 blocks per GLWE ciphertext, 10 stored bits, packing keyswitch
/// 10 x 2 with TUniform(20), classical decompression key 23 x 1).
#[allow(dead_code)] // only the golden files need it
pub fn small_compression_parameters() -> tfhe::shortint::parameters::CompressionParameters {
    use tfhe::shortint::parameters::{
        list_compression::ClassicCompressionParameters, CiphertextModulusLog,
        CompressionParameters, LweCiphertextCount,
    };
    CompressionParameters::Classic(ClassicCompressionParameters {
        br_level: DecompositionLevelCount(1),
        br_base_log: DecompositionBaseLog(23),
        packing_ks_level: DecompositionLevelCount(2),
        packing_ks_base_log: DecompositionBaseLog(10),
        packing_ks_polynomial_size: PolynomialSize(128),
        packing_ks_glwe_dimension: GlweDimension(1),
        lwe_per_glwe: LweCiphertextCount(128),
        storage_log_modulus: CiphertextModulusLog(10),
        packing_ks_key_noise_distribution: DynamicDistribution::new_t_uniform(20),
    })
}

/// Makes TFHE-rs's FFT the same on every run: by default it times several
/// algorithms at its first use of a polynomial size and keeps the fastest, and they
/// round differently, so the ciphertexts that bootstraps output (`a + b`, ...) and the
/// Fourier bootstrap key would change from run to run. Sizes: `N` = 512 (small) and
/// 2048 (default), Fourier sizes `N/2`.
#[allow(dead_code)] // only the golden files need it
pub fn fix_fft_plans() {
    for fourier_size in [256, 1024] {
        setup_custom_fft_plan(Plan::new(
            fourier_size,
            Method::UserProvided {
                base_algo: FftAlgo::Dif4,
                base_n: fourier_size,
            },
        ));
    }
}
