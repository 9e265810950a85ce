//! Helpers shared by the GPU tests: small insecure parameter sets, CPU and GPU
//! copies of one server key, and list conversions.
#![allow(dead_code)]

use gpufhe::backend::cuda::*;
use gpufhe::core_crypto::*;
use gpufhe::shortint::{Ciphertext, ClientKey, CompressedServerKey, ServerKey, ShortintParameters};

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
    }
}

/// The insecure set most GPU tests use: n = 256, k = 1, N = 512, PBS 2^23 x 1.
pub fn small_parameters() -> ShortintParameters {
    insecure_parameters(256, 1, 512, 23, 1)
}

/// A client key and one server key, on the CPU and on the GPU.
pub struct Keys {
    pub ck: ClientKey,
    pub cpu: ServerKey,
    pub bsk: CudaFourierBootstrapKey,
    pub ksk: CudaKeyswitchKey,
}

impl Keys {
    pub fn new(gpu: &CudaDevice, params: ShortintParameters) -> Self {
        let ck = ClientKey::new(params).expect("client key");
        let compressed = CompressedServerKey::new(&ck).expect("server key");
        let cpu = compressed.decompress();
        let bsk = CudaFourierBootstrapKey::from_cpu(gpu, &compressed.bootstrap_key().decompress())
            .expect("GPU bootstrap key");
        let ksk = CudaKeyswitchKey::from_cpu(gpu, cpu.keyswitch_key()).expect("GPU keyswitch key");
        Self { ck, cpu, bsk, ksk }
    }

    pub fn params(&self) -> ShortintParameters {
        *self.ck.parameters()
    }

    /// The phase of `ct` (under the big key) minus `value * delta`, as a signed error.
    pub fn error(&self, ct: &LweCiphertext<&[u64]>, value: u64) -> i64 {
        let phase = decrypt_lwe_ciphertext(self.ck.big_lwe_secret_key(), ct).expect("decrypt");
        phase.wrapping_sub(value.wrapping_mul(self.params().delta())) as i64
    }

    /// The block value `ct` decrypts to (with the carries).
    pub fn decrypt(&self, ct: &LweCiphertext<&[u64]>) -> u64 {
        let phase = decrypt_lwe_ciphertext(self.ck.big_lwe_secret_key(), ct).expect("decrypt");
        let delta = self.params().delta();
        phase.wrapping_add(delta / 2) / delta % (2 * self.params().total_modulus())
    }
}

/// The LWE ciphertexts of `blocks` as one list.
pub fn block_list(blocks: &[Ciphertext]) -> LweCiphertextListOwned {
    blocks
        .iter()
        .map(|b| b.as_lwe().clone())
        .collect::<gpufhe::Result<_>>()
        .expect("list")
}

/// A list of LWE ciphertexts.
pub fn lwe_list(cts: &[LweCiphertextOwned]) -> LweCiphertextListOwned {
    cts.iter()
        .cloned()
        .collect::<gpufhe::Result<_>>()
        .expect("list")
}

/// The empirical variance of `errors`.
pub fn variance(errors: &[i64]) -> f64 {
    let n = errors.len() as f64;
    let mean = errors.iter().map(|&e| e as f64).sum::<f64>() / n;
    errors
        .iter()
        .map(|&e| (e as f64 - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0)
}
